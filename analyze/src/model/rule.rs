//! How each tool ranks: the rule by which a load generator picks a percentile's value, stored
//! by name in run_stats.csv `rule`. Percentiles are in thousandths of a percent (95 → 95000,
//! 99.9 → 99900), ranks in integers from the one nearest rank ([`super::nearest_rank`]).

use super::percentile::nearest_rank;

/// The rule by which a tool picks a percentile's value. Stored by name in run_stats.csv `rule`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// Ours: the 1-based rank ceil(p·n/100) of the sorted values.
    NearestRank,
    /// Rank floor(p·n/100)+1 (ab's printed table, wrk 4 over whole microseconds, oha).
    FloorPlusOne,
    /// Rank round(p·n/100)+1, halves rounded up (ab's `-e` file: it reads the sorted times at
    /// 0-based index `(int)(0.5 + p·n/100)`).
    RoundedPlusOne,
    /// HdrHistogram's value at percentile (the Java library since 2.1.10, its JavaScript port in
    /// autocannon, the Rust crate): the nearest rank ceil(p·n/100), at least 1, read as the highest
    /// value equivalent to it in the histogram's buckets (the lowest for p0), so a value is exact
    /// only to the histogram's precision (its significant digits).
    HdrHistogram,
    /// HdrHistogram's C library as wrk2 bundles it (`hdr_value_at_percentile`): rank
    /// round(p·n/100), halves up, at least 1, read as the highest equivalent value of its bucket.
    HdrHistogramRounded,
    /// A DDSketch estimate (Artillery): the bucket, 1 % wide relative to its values, holding the
    /// 0-based rank q·(n-1), read as that bucket's representative value (within 1 % of the value at
    /// the 1-based rank floor(q·(n-1))+1).
    #[serde(rename = "ddsketch")]
    DdSketch,
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
    pub const ALL: [Rule; 11] = [
        Rule::NearestRank,
        Rule::FloorPlusOne,
        Rule::RoundedPlusOne,
        Rule::HdrHistogram,
        Rule::HdrHistogramRounded,
        Rule::DdSketch,
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
            Rule::RoundedPlusOne => "rounded-plus-one",
            Rule::HdrHistogram => "hdr-histogram",
            Rule::HdrHistogramRounded => "hdr-histogram-rounded",
            Rule::DdSketch => "ddsketch",
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
        let floor = (u128::from(milli) * u128::from(n) / 100_000) as u64;
        let rank = match self {
            Rule::NearestRank | Rule::HdrHistogram => nearest_rank(milli, n),
            Rule::FloorPlusOne | Rule::RoundedBuckets => floor + 1,
            // (int64_t)(p/100·n + 0.5), at least 1, in integers.
            Rule::HdrHistogramRounded => (((2 * u128::from(milli) * u128::from(n) + 100_000) / 200_000) as u64).max(1),
            // The 0-based rank q·(n-1), its bucket found by the first cumulative count above it.
            Rule::DdSketch => (u128::from(milli) * u128::from(n - 1) / 100_000) as u64 + 1,
            // (int)(0.5 + x) = floor(x + 1/2), in integers: floor((2·p·n + 100000) / 200000).
            Rule::RoundedPlusOne => ((2 * u128::from(milli) * u128::from(n) + 100_000) / 200_000) as u64 + 1,
            // One above ceil(p·n/100) (hey, which prints no p0, where the nearest rank's floor of 1
            // would make it differ).
            Rule::NearestRankPlusOne => nearest_rank(milli, n) + 1,
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
    fn ab_e_rounds_half_of_p_times_n_up_where_its_table_floors() {
        // 101 requests: p50 is 50.5, so ab's table takes rank 51 and its -e file rank 52.
        assert_eq!(Rule::FloorPlusOne.rank(50_000, 101), Some(51));
        assert_eq!(Rule::RoundedPlusOne.rank(50_000, 101), Some(52));
        // 72 · 0.95 = 68.4 rounds down: both take rank 69; 72 · 0.25 = 18 exactly: both 19.
        assert_eq!(Rule::RoundedPlusOne.rank(95_000, 72), Some(69));
        assert_eq!(Rule::RoundedPlusOne.rank(25_000, 72), Some(19));
        assert_eq!(Rule::RoundedPlusOne.rank(100_000, 72), Some(72));
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
    fn hdr_histogram_ranks_by_ceil_in_java_and_by_round_in_wrk2s_c_library() {
        // 21 values, p10: 2.1 → Java and the JavaScript port take the 3rd, C the 2nd (round(2.1)).
        assert_eq!(Rule::HdrHistogram.rank(10_000, 21), Some(3));
        assert_eq!(Rule::HdrHistogramRounded.rank(10_000, 21), Some(2));
        // p50 of 101: 50.5 → ceil 51, C rounds the half up to 51 as well; p0 is the first value.
        assert_eq!(Rule::HdrHistogram.rank(50_000, 101), Some(51));
        assert_eq!(Rule::HdrHistogramRounded.rank(50_000, 101), Some(51));
        assert_eq!(Rule::HdrHistogramRounded.rank(0, 101), Some(1));
        assert_eq!(Rule::HdrHistogram.rank(0, 101), Some(1));
        assert_eq!(Rule::HdrHistogramRounded.rank(100_000, 101), Some(101));
    }

    #[test]
    fn ddsketch_reads_the_zero_based_rank_q_times_n_minus_one() {
        // Artillery's p95 of 1000 values: 0.95 · 999 = 949.05 → 0-based 949, the 950th value.
        assert_eq!(Rule::DdSketch.rank(95_000, 1000), Some(950));
        assert_eq!(Rule::DdSketch.rank(50_000, 1), Some(1));
        assert_eq!(Rule::DdSketch.rank(100_000, 1000), Some(1000));
    }

    #[test]
    fn rule_names_round_trip() {
        for rule in Rule::ALL {
            assert_eq!(Rule::from_name(rule.name()), Some(rule));
            // summary.json spells a rule as run_stats.csv does.
            assert_eq!(serde_json::to_value(rule).unwrap(), rule.name());
        }
    }
}
