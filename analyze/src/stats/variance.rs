//! The variance review: how far repeated runs of one condition disagree, which comparisons their
//! ranges separate, and which runs deserve a second look.
//!
//! With few runs there is no honest confidence interval from a parametric model, so the review
//! reports ranges. From [`MIN_RUNS_FOR_INTERVAL`] runs on it adds the distribution-free interval
//! for the median from order statistics: [x(k), x(n-k+1)] with the largest k whose coverage
//! 1 - 2·P(B <= k-1), B ~ Binomial(n, 1/2), is at least 95%.

use serde::Serialize;
use statrs::distribution::{Binomial, DiscreteCDF};

/// Below this many runs no interval for the median reaches 95% coverage (n = 6 gives 96.9%).
pub const MIN_RUNS_FOR_INTERVAL: usize = 6;
pub const INTERVAL_COVERAGE: f64 = 0.95;

#[derive(Debug, Clone, Serialize, Default)]
pub struct VarianceReview {
    pub conditions: Vec<ConditionVariance>,
    /// The condition whose (max - min) / median is largest.
    pub widest_condition: Option<String>,
    pub comparisons: Vec<Comparison>,
    pub flags: Vec<Flag>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ConditionVariance {
    /// Index into the report's conditions.
    pub condition: usize,
    pub condition_id: String,
    /// Every ok run's headline value, in runs.csv order.
    pub runs: Vec<RunValue>,
    /// max / min; `None` when min is 0 or there are no runs.
    pub max_over_min: Option<f64>,
    /// (max - min) / median; `None` when the median is 0 or there are no runs.
    pub range_over_median: Option<f64>,
    pub median_interval: Option<MedianInterval>,
}

#[derive(Debug, Clone, Serialize)]
pub struct RunValue {
    pub run_id: String,
    pub value_ms: f64,
}

/// A distribution-free interval for the median.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MedianInterval {
    pub lower_ms: f64,
    pub upper_ms: f64,
    /// 1-based ranks of the bounds among the sorted run values.
    pub lower_rank: usize,
    pub upper_rank: usize,
    /// The exact coverage, at least 95%.
    pub coverage: f64,
}

/// Two conditions in the same column of the table (same x level), compared by their ranges.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    pub a: usize,
    pub b: usize,
    pub a_id: String,
    pub b_id: String,
    /// The min-max ranges of the two conditions overlap: these runs do not separate them.
    pub ranges_overlap: bool,
    /// The larger median over the smaller (at least 1), so a 4,000-fold gap reads as such;
    /// `None` when a median is 0.
    pub median_ratio: Option<f64>,
}

/// Why a run deserves a second look.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FlagKind {
    /// Requests without a 2xx response.
    Errors {
        count: u64,
        requests: u64,
    },
    /// Large responses that did not deliver the expected bytes.
    IncompleteLargeResponses {
        count: u64,
    },
    /// The probe was sent late: the load generator, not the server, may have limited it.
    ScheduleLag {
        max_lag_ms: f64,
        threshold_ms: f64,
    },
    /// The host was busy around the run.
    HostLoad {
        load1: f64,
        threshold: f64,
    },
    /// The run's headline value lies far from its condition's median.
    Outlier {
        value_ms: f64,
        median_ms: f64,
        factor: f64,
    },
    Aborted {
        note: String,
    },
    Excluded {
        note: String,
    },
}

#[derive(Debug, Clone, Serialize)]
pub struct Flag {
    pub run_id: String,
    #[serde(flatten)]
    pub kind: FlagKind,
}

impl Flag {
    /// Aborted and excluded runs are already out of the statistics; the rest are warnings.
    pub fn is_warning(&self) -> bool {
        !matches!(self.kind, FlagKind::Aborted { .. } | FlagKind::Excluded { .. })
    }
}

/// Spread measures of run values.
pub fn spread_ratios(values: &[f64], median: f64) -> (Option<f64>, Option<f64>) {
    if values.is_empty() {
        return (None, None);
    }
    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let ratio = (min > 0.0).then(|| max / min);
    let relative = (median > 0.0).then(|| (max - min) / median);
    (ratio, relative)
}

/// The order-statistics interval for the median, `None` below [`MIN_RUNS_FOR_INTERVAL`] values.
pub fn median_interval(values: &[f64]) -> Option<MedianInterval> {
    let n = values.len();
    if n < MIN_RUNS_FOR_INTERVAL {
        return None;
    }
    let binomial = Binomial::new(0.5, n as u64).ok()?;
    let mut best = None;
    for k in 1..=n / 2 {
        let coverage = 1.0 - 2.0 * binomial.cdf(k as u64 - 1);
        if coverage >= INTERVAL_COVERAGE {
            best = Some((k, coverage));
        } else {
            break;
        }
    }
    let (k, coverage) = best?;
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    Some(MedianInterval { lower_ms: sorted[k - 1], upper_ms: sorted[n - k], lower_rank: k, upper_rank: n - k + 1, coverage })
}

/// Whether the closed ranges [a_min, a_max] and [b_min, b_max] share a point.
pub fn ranges_overlap(a: (f64, f64), b: (f64, f64)) -> bool {
    a.0 <= b.1 && b.0 <= a.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_interval_below_six_runs() {
        assert_eq!(median_interval(&[1.0, 2.0, 3.0, 4.0, 5.0]), None);
    }

    #[test]
    fn six_runs_give_the_min_max_interval_at_96_9_percent() {
        let interval = median_interval(&[6.0, 1.0, 5.0, 2.0, 4.0, 3.0]).unwrap();
        assert_eq!((interval.lower_ms, interval.upper_ms), (1.0, 6.0));
        assert_eq!((interval.lower_rank, interval.upper_rank), (1, 6));
        assert!((interval.coverage - (1.0 - 2.0 / 64.0)).abs() < 1e-12);
    }

    #[test]
    fn twenty_runs_use_the_6th_and_15th() {
        // P(B <= 5) for Binomial(20, 1/2) = 0.0207, so k = 6 covers 95.86%; k = 7 covers 88.5%.
        let values: Vec<f64> = (1..=20).map(f64::from).collect();
        let interval = median_interval(&values).unwrap();
        assert_eq!((interval.lower_rank, interval.upper_rank), (6, 15));
        assert!((interval.coverage - 0.958_610_5).abs() < 1e-6, "{}", interval.coverage);
    }

    #[test]
    fn ranges_that_touch_overlap() {
        assert!(ranges_overlap((1.0, 2.0), (2.0, 3.0)));
        assert!(!ranges_overlap((1.0, 2.0), (2.5, 3.0)));
        assert!(ranges_overlap((1.0, 10.0), (2.0, 3.0)));
    }

    #[test]
    fn spread_ratios_of_the_studys_widest_range() {
        let (ratio, relative) = spread_ratios(&[1052.72, 1071.47, 1826.44], 1071.47);
        assert!((ratio.unwrap() - 1826.44 / 1052.72).abs() < 1e-12);
        assert!((relative.unwrap() - (1826.44 - 1052.72) / 1071.47).abs() < 1e-12);
        assert_eq!(spread_ratios(&[0.0, 1.0], 0.5).0, None);
    }
}
