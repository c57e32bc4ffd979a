//! The percentile a report names: p with 0 < p < 100, held exactly in thousandths of a percent,
//! and the key it is written under (`95`, `99.9`). Its nearest rank, the one definition every
//! table, chart and check uses, is computed in `stats::percentile`.

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
}

impl fmt::Display for Percentile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.thousandths / 1000;
        let fraction = self.thousandths % 1000;
        if fraction == 0 {
            write!(f, "{whole}")
        } else {
            let digits = format!("{fraction:03}");
            write!(f, "{whole}.{}", digits.trim_end_matches('0'))
        }
    }
}

#[cfg(test)]
mod tests {
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

    proptest! {
        #[test]
        fn every_thousandth_is_exact(thousandths in 1u32..100_000) {
            let p = f64::from(thousandths) / 1000.0;
            prop_assert_eq!(Percentile::new(p), Some(Percentile { thousandths }));
            let text: f64 = Percentile { thousandths }.key().parse().unwrap();
            prop_assert_eq!(text, p);
        }
    }
}
