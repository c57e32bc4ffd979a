//! Medians and ranges across runs: the per-condition summaries.
//!
//! The median is the conventional one: the middle value of an odd count, the mean of the middle
//! two of an even count. The representative run is the run whose value is that median, the lower
//! middle for an even count, so a chart of "the median run" shows a run that really happened.

use crate::report::Spread;

impl Spread {
    /// `None` for no values. Values must be finite (they come from validated data).
    pub fn of(values: &[f64]) -> Option<Spread> {
        if values.is_empty() {
            return None;
        }
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        Some(Spread { median: median_of_sorted(&sorted), min: sorted[0], max: sorted[sorted.len() - 1], n: sorted.len() })
    }
}

/// The conventional median of sorted values. Panics on an empty slice (callers check).
pub fn median_of_sorted(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    assert!(n > 0, "the median of no values");
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        // Halves first, so two huge values cannot overflow.
        sorted[n / 2 - 1] / 2.0 + sorted[n / 2] / 2.0
    }
}

/// The conventional median of unsorted values, `None` when empty.
pub fn median(values: &[f64]) -> Option<f64> {
    Spread::of(values).map(|s| s.median)
}

/// The arithmetic mean, `None` when empty: the sum in the given order divided by the count (what
/// the seeds' tools print as "average"; the report states it only beside the tools' own numbers).
pub fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// The index (into `values`) of the representative: the lower middle in ascending order, ties
/// broken by position so the choice is deterministic.
pub fn representative(values: &[f64]) -> Option<usize> {
    if values.is_empty() {
        return None;
    }
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]).then(a.cmp(&b)));
    Some(order[(values.len() - 1) / 2])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_count_is_the_middle() {
        assert_eq!(median(&[5945.11, 1.57, 6590.04]), Some(5945.11));
    }

    #[test]
    fn median_of_even_count_is_the_mean_of_the_middle_two() {
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
        assert_eq!(median(&[f64::MAX, f64::MAX]), Some(f64::MAX));
    }

    #[test]
    fn spread_reports_min_max_and_count() {
        let spread = Spread::of(&[5928.68, 6590.04, 5945.11]).unwrap();
        assert_eq!(spread, Spread { median: 5945.11, min: 5928.68, max: 6590.04, n: 3 });
        assert_eq!(Spread::of(&[]), None);
    }

    #[test]
    fn mean_is_the_sum_over_the_count() {
        assert_eq!(mean(&[1.0, 2.0, 6.0]), Some(3.0));
        assert_eq!(mean(&[]), None);
    }

    #[test]
    fn representative_is_the_lower_middle() {
        assert_eq!(representative(&[3.0, 1.0, 2.0]), Some(2));
        assert_eq!(representative(&[4.0, 1.0, 3.0, 2.0]), Some(3), "lower middle of 1,2,3,4 is 2, at index 3");
        assert_eq!(representative(&[7.0, 7.0, 7.0]), Some(1), "ties go by position");
    }
}
