//! How each tool ranks, and the numbers a tool printed about a run.
//!
//! Percentiles are keyed by thousandths of a percent (95 → 95000, 99.9 → 99900) so keys sort
//! numerically and compare exactly; ranks are computed in integers like `stats::percentile`.

use std::collections::BTreeMap;

/// The rule by which a tool picks a percentile's value. Stored by name in run_stats.csv `rule`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// Ours: the 1-based rank ceil(p·n/100) of the sorted values.
    NearestRank,
    /// Rank floor(p·n/100)+1 (ab's table and -e file, oha).
    FloorPlusOne,
    /// Rank floor(p·n/100)+1 in an HdrHistogram, whose buckets round values (wrk).
    HdrHistogram,
    /// Rank ceil(p·n/100)+1, one above the nearest rank (hey).
    NearestRankPlusOne,
    /// Response times rounded into buckets first (to 1 ms below 100 ms, 10 ms below 1 s, then
    /// 100 ms), then the bucket holding the rank (Locust).
    RoundedBuckets,
    /// Linear interpolation between the two neighbouring ranks (k6).
    Interpolated,
    /// An approximate quantile estimator (vegeta).
    Approximate,
    /// The tool printed no percentile (siege); its min, mean and max only.
    NoPercentiles,
}

impl Rule {
    pub const ALL: [Rule; 8] = [
        Rule::NearestRank,
        Rule::FloorPlusOne,
        Rule::HdrHistogram,
        Rule::NearestRankPlusOne,
        Rule::RoundedBuckets,
        Rule::Interpolated,
        Rule::Approximate,
        Rule::NoPercentiles,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Rule::NearestRank => "nearest-rank",
            Rule::FloorPlusOne => "floor-plus-one",
            Rule::HdrHistogram => "hdr-histogram",
            Rule::NearestRankPlusOne => "nearest-rank-plus-one",
            Rule::RoundedBuckets => "rounded-buckets",
            Rule::Interpolated => "interpolated",
            Rule::Approximate => "approximate",
            Rule::NoPercentiles => "no-percentiles",
        }
    }

    pub fn from_name(name: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.name() == name)
    }

    /// The 1-based rank this rule takes for percentile `milli` (thousandths of a percent) of
    /// `n` values, when the rule picks a single rank of the exact sorted values; capped at n.
    pub fn rank(self, milli: u32, n: u64) -> Option<u64> {
        if n == 0 {
            return None;
        }
        let numerator = u128::from(milli) * u128::from(n);
        let floor = (numerator / 100_000) as u64;
        let ceil = numerator.div_ceil(100_000) as u64;
        let rank = match self {
            Rule::NearestRank => ceil.max(1),
            Rule::FloorPlusOne | Rule::HdrHistogram | Rule::RoundedBuckets => floor + 1,
            Rule::NearestRankPlusOne => ceil + 1,
            Rule::Interpolated | Rule::Approximate | Rule::NoPercentiles => return None,
        };
        Some(rank.min(n))
    }
}

/// Where linear interpolation (k6's rule) reads percentile `milli` of `n` sorted values: the
/// 1-based lower rank and how far towards the next rank, from the 0-based position
/// p/100·(n-1). `None` for no values.
pub fn interpolation_position(milli: u32, n: u64) -> Option<(u64, f64)> {
    if n == 0 {
        return None;
    }
    let position = f64::from(milli) / 100_000.0 * (n - 1) as f64;
    let lower = position.floor();
    Some((lower as u64 + 1, position - lower))
}

/// Thousandths of a percent from a printed percentile (`95`, `99.9`, `99.99%`).
pub fn percentile_key(text: &str) -> Option<u32> {
    let value: f64 = text.trim().trim_end_matches('%').parse().ok()?;
    let milli = (value * 1000.0).round();
    ((0.0..=100_000.0).contains(&milli) && (milli - value * 1000.0).abs() < 1e-6).then_some(milli as u32)
}

/// The label of a percentile key: 95000 → "95", 99900 → "99.9".
pub fn percentile_label(milli: u32) -> String {
    let whole = milli / 1000;
    let fraction = milli % 1000;
    if fraction == 0 {
        whole.to_string()
    } else {
        format!("{whole}.{}", format!("{fraction:03}").trim_end_matches('0'))
    }
}

/// The numbers a tool printed about one run, as printed (converted to ms and counts only).
#[derive(Debug, Clone, PartialEq)]
pub struct ToolReported {
    pub rule: Rule,
    pub requests: Option<u64>,
    /// Requests without a 2xx (or, for tools that count so, without a 2xx/3xx) response.
    pub errors: Option<u64>,
    pub requests_per_s: Option<f64>,
    pub min_ms: Option<f64>,
    pub mean_ms: Option<f64>,
    pub max_ms: Option<f64>,
    /// Percentile (thousandths of a percent) → value in ms.
    pub percentiles_ms: BTreeMap<u32, f64>,
}

impl ToolReported {
    pub fn new(rule: Rule) -> Self {
        ToolReported {
            rule,
            requests: None,
            errors: None,
            requests_per_s: None,
            min_ms: None,
            mean_ms: None,
            max_ms: None,
            percentiles_ms: BTreeMap::new(),
        }
    }

    /// Takes from `other` what this one lacks (the first file's printed numbers win).
    pub fn fill_from(&mut self, other: ToolReported) {
        self.requests = self.requests.or(other.requests);
        self.errors = self.errors.or(other.errors);
        self.requests_per_s = self.requests_per_s.or(other.requests_per_s);
        self.min_ms = self.min_ms.or(other.min_ms);
        self.mean_ms = self.mean_ms.or(other.mean_ms);
        self.max_ms = self.max_ms.or(other.max_ms);
        for (p, v) in other.percentiles_ms {
            self.percentiles_ms.entry(p).or_insert(v);
        }
        if self.rule == Rule::NoPercentiles {
            self.rule = other.rule;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_of_p95_of_2000_differ_by_rule() {
        assert_eq!(Rule::NearestRank.rank(95_000, 2000), Some(1900));
        assert_eq!(Rule::FloorPlusOne.rank(95_000, 2000), Some(1901));
        assert_eq!(Rule::NearestRankPlusOne.rank(95_000, 2000), Some(1901));
        assert_eq!(Rule::Interpolated.rank(95_000, 2000), None);
    }

    #[test]
    fn ranks_differ_when_p_times_n_is_not_whole() {
        // p95 of 72: nearest rank ceil(68.4) = 69; floor+1 = 69; hey's one above = 70.
        assert_eq!(Rule::NearestRank.rank(95_000, 72), Some(69));
        assert_eq!(Rule::FloorPlusOne.rank(95_000, 72), Some(69));
        assert_eq!(Rule::NearestRankPlusOne.rank(95_000, 72), Some(70));
        // p100 never points past the last value.
        assert_eq!(Rule::NearestRankPlusOne.rank(100_000, 72), Some(72));
        assert_eq!(Rule::FloorPlusOne.rank(100_000, 72), Some(72));
    }

    #[test]
    fn interpolation_reads_between_the_ranks_around_p_times_n_minus_one() {
        // p95 of 72: position 0.95·71 = 67.45, so between the 68th and 69th values, 0.45 of the way.
        let (rank, fraction) = interpolation_position(95_000, 72).unwrap();
        assert_eq!(rank, 68);
        assert!((fraction - 0.45).abs() < 1e-9);
        assert_eq!(interpolation_position(100_000, 72), Some((72, 0.0)));
        assert_eq!(interpolation_position(50_000, 0), None);
    }

    #[test]
    fn percentile_keys_and_labels_round_trip() {
        for (text, milli, label) in [("95", 95_000, "95"), ("99.9", 99_900, "99.9"), ("99.99%", 99_990, "99.99"), ("0", 0, "0")] {
            assert_eq!(percentile_key(text), Some(milli));
            assert_eq!(percentile_label(milli), label);
        }
        assert_eq!(percentile_key("101"), None);
        assert_eq!(percentile_key("x"), None);
    }

    #[test]
    fn rule_names_round_trip() {
        for rule in Rule::ALL {
            assert_eq!(Rule::from_name(rule.name()), Some(rule));
        }
    }
}
