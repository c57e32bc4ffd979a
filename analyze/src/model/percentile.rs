//! The percentile: p held exactly in thousandths of a percent, the key and label it is written
//! under (`95`, `99.9`), the printed forms tools use (`99.99%`), and its nearest rank, the one
//! definition every table, chart, check and tool comparison uses.
//!
//! The p-th percentile of n sorted values is the value at 1-based rank ceil(p·n/100)
//! (Hyndman & Fan's definition 1, "inverse of the empirical CDF"; the rule the model study
//! used: p95 of 72 values is the 69th). The rank is computed exactly in integers with p held in
//! thousandths of a percent, because floating point gets it wrong: `ceil(99.9 / 100.0 * 1000.0)`
//! is 1000, not 999.

use serde::Serialize;
use std::fmt;

/// A percentile p with 0 < p < 100, exact to a thousandth of a percent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(into = "f64")]
pub struct Percentile {
    thousandths: u32,
}

impl From<Percentile> for f64 {
    fn from(p: Percentile) -> f64 {
        p.value()
    }
}

impl Percentile {
    pub const P50: Percentile = Percentile { thousandths: 50_000 };
    pub const P90: Percentile = Percentile { thousandths: 90_000 };
    pub const P95: Percentile = Percentile { thousandths: 95_000 };
    pub const P99: Percentile = Percentile { thousandths: 99_000 };
    pub const P99_9: Percentile = Percentile { thousandths: 99_900 };
    /// Each request label of a dataset with labels gets these (`stats::labels`).
    pub const BY_LABEL: [Percentile; 3] = [Self::P50, Self::P95, Self::P99];
    /// Every run reports these, besides the headline.
    pub const STANDARD: [Percentile; 5] = [Self::P50, Self::P90, Self::P95, Self::P99, Self::P99_9];

    /// `None` unless 0 < p < 100 and p is a whole number of thousandths of a percent (99.9,
    /// 12.345): a percentile that cannot be held exactly is refused, never rounded, so the rank
    /// the report states is the rank of the p the author wrote.
    pub fn new(p: f64) -> Option<Percentile> {
        if !(p > 0.0 && p < 100.0) {
            return None;
        }
        let thousandths = (p * 1000.0).round() as u32;
        // Exact when the thousandths, divided back, are the very double that was parsed.
        let exact = f64::from(thousandths) / 1000.0 == p;
        (exact && thousandths > 0 && thousandths < 100_000).then_some(Percentile { thousandths })
    }

    /// p in thousandths of a percent (99.9 is 99,900): the exact form tables key it by.
    pub fn thousandths(self) -> u32 {
        self.thousandths
    }

    pub fn value(self) -> f64 {
        f64::from(self.thousandths) / 1000.0
    }

    /// The key used in JSON and CSV: `95`, `99.9`.
    pub fn key(self) -> String {
        self.to_string()
    }

    /// The 1-based nearest rank among `n` values: ceil(p·n/100), at least 1.
    pub fn rank(self, n: u64) -> u64 {
        assert!(n > 0, "a percentile of no values has no rank");
        nearest_rank(self.thousandths, n)
    }
}

/// The entries of a map keyed by percentile keys (`2.5`, `10`, `99.9`) from the lowest
/// percentile to the highest: the keys' text order puts p10 before p2.5.
pub fn by_level<V>(map: &std::collections::BTreeMap<String, V>) -> Vec<(&String, &V)> {
    let mut entries: Vec<(&String, &V)> = map.iter().collect();
    entries.sort_by(|a, b| {
        let level = |key: &str| key.parse::<f64>().unwrap_or(f64::INFINITY);
        level(a.0).total_cmp(&level(b.0))
    });
    entries
}

/// The nearest rank ceil(p·n/100), at least 1, for p in thousandths of a percent (0 to 100,000,
/// so a tool's printed p0 and p100 rank too), computed in integers. The one definition of the
/// nearest rank: [`Percentile::rank`] and the tools' rules start from it.
pub fn nearest_rank(thousandths: u32, n: u64) -> u64 {
    let numerator = u128::from(thousandths) * u128::from(n);
    (numerator.div_ceil(100_000) as u64).max(1)
}

impl fmt::Display for Percentile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&percentile_label(self.thousandths))
    }
}

/// Thousandths of a percent from a printed percentile (`95`, `99.9`, `99.99%`, and the `0` and
/// `100` some tools print), `None` for anything else or anything finer than a thousandth.
pub fn percentile_key(text: &str) -> Option<u32> {
    let value: f64 = text.trim().trim_end_matches('%').parse().ok()?;
    let milli = (value * 1000.0).round();
    ((0.0..=100_000.0).contains(&milli) && (milli - value * 1000.0).abs() < 1e-6).then_some(milli as u32)
}

/// The label of a percentile in thousandths of a percent: 95000 → "95", 99900 → "99.9".
pub fn percentile_label(thousandths: u32) -> String {
    let whole = thousandths / 1000;
    let fraction = thousandths % 1000;
    if fraction == 0 {
        whole.to_string()
    } else {
        format!("{whole}.{}", format!("{fraction:03}").trim_end_matches('0'))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn keys_are_ordered_by_level_not_by_text() {
        let map: std::collections::BTreeMap<String, u8> =
            ["0.001", "1", "10", "2.5", "25", "97.5", "99", "99.999"].iter().map(|k| (k.to_string(), 0)).collect();
        let keys: Vec<&str> = super::by_level(&map).into_iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["0.001", "1", "2.5", "10", "25", "97.5", "99", "99.999"]);
    }

    use super::*;
    use proptest::prelude::*;

    #[test]
    fn percentile_keys_print_without_float_noise() {
        assert_eq!(Percentile::new(99.9).unwrap().key(), "99.9");
        assert_eq!(Percentile::P95.key(), "95");
        assert_eq!(Percentile::new(99.99).unwrap().key(), "99.99");
        assert!(Percentile::new(100.0).is_none());
        assert!(Percentile::new(0.0).is_none());
    }

    #[test]
    fn a_percentile_finer_than_a_thousandth_is_refused_not_rounded() {
        assert_eq!(Percentile::new(12.345).unwrap().key(), "12.345");
        assert_eq!(Percentile::new(0.001).unwrap().key(), "0.001");
        for p in [12.3456, 99.9995, 0.0004, 99.99999, f64::NAN, f64::INFINITY] {
            assert!(Percentile::new(p).is_none(), "{p} must be refused");
        }
    }

    #[test]
    fn printed_percentiles_and_labels_round_trip() {
        for (text, milli, label) in [("95", 95_000, "95"), ("99.9", 99_900, "99.9"), ("99.99%", 99_990, "99.99"), ("0", 0, "0")] {
            assert_eq!(percentile_key(text), Some(milli));
            assert_eq!(percentile_label(milli), label);
        }
        assert_eq!(percentile_key("101"), None);
        assert_eq!(percentile_key("x"), None);
    }

    proptest! {
        #[test]
        fn every_thousandth_is_exact(thousandths in 1u32..100_000) {
            let p = f64::from(thousandths) / 1000.0;
            prop_assert_eq!(Percentile::new(p), Some(Percentile { thousandths }));
            let text: f64 = Percentile { thousandths }.key().parse().unwrap();
            prop_assert_eq!(text, p);
            prop_assert_eq!(percentile_key(&Percentile { thousandths }.key()), Some(thousandths));
        }
    }
}
