//! The variance review: how far repeated runs of one condition disagree, which comparisons their
//! ranges separate, and which runs deserve a second look.
//!
//! With few runs there is no honest confidence interval from a parametric model, so the review
//! reports ranges. From [`MIN_RUNS_FOR_INTERVAL`] runs on it adds the distribution-free interval
//! for the median from order statistics: [x(k), x(n-k+1)] with the largest k whose coverage
//! 1 - 2·P(B <= k-1), B ~ Binomial(n, 1/2), is at least 95%.
//!
//! Two conditions are compared by their min-max ranges. Ranges that do not overlap are not by
//! themselves a difference: when the n + m runs all come from one continuous distribution, every
//! assignment of the n + m ranks to the two conditions is equally likely, and the ranges fail to
//! overlap only when one condition holds all the lowest ranks, so with probability
//! 2 / C(n + m, n) = 2·n!·m!/(n + m)! ([`chance_if_no_difference`]; 1 in 10 for 3 runs against 3).
//! A difference is called supported only when that chance, multiplied by the number of
//! comparisons on the page (Bonferroni), stays at or below [`FAMILY_ALPHA`].

use serde::Serialize;
use statrs::distribution::{Binomial, DiscreteCDF};

/// Below this many runs no interval for the median reaches 95% coverage (n = 6 gives 96.9%).
pub const MIN_RUNS_FOR_INTERVAL: usize = 6;
pub const INTERVAL_COVERAGE: f64 = 0.95;
/// The family-wise error rate a "supported" verdict keeps across all comparisons of the page.
pub const FAMILY_ALPHA: f64 = 0.05;
/// Up to this many series (layout rows) at one x level, every pair is compared; above it, only
/// neighbours in level order, so the comparisons grow linearly with the conditions.
pub const MAX_ROWS_FOR_ALL_PAIRS: usize = 6;

#[derive(Debug, Clone, Serialize, Default)]
pub struct VarianceReview {
    pub conditions: Vec<ConditionVariance>,
    /// The condition whose (max - min) / median is largest.
    pub widest_condition: Option<String>,
    pub comparisons: Vec<Comparison>,
    /// What the comparisons add up to, and which pairs were left out.
    pub comparison_summary: ComparisonSummary,
    /// The robust limits the noisy-run flags used; `None` with too few runs.
    pub lag_limit: Option<RobustLimit>,
    pub load1_limit: Option<RobustLimit>,
    /// dataset.toml's thresholds, as the flags and verdicts used them.
    pub thresholds: crate::dataset::manifest::Thresholds,
    pub flags: Vec<Flag>,
}

/// The median of the runs' values and the limit above which a run stands out.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct RobustLimit {
    pub median: f64,
    pub limit: f64,
    /// The k and the floor of median + k · max(1.4826 · MAD, floor).
    pub k: f64,
    pub floor: f64,
}

/// Which pairs were compared, and how many non-overlaps chance alone would give.
#[derive(Debug, Clone, Serialize, Default, PartialEq)]
pub struct ComparisonSummary {
    /// "all_pairs" when every pair at each x level is compared, "neighbours" when some x level
    /// has more than [`MAX_ROWS_FOR_ALL_PAIRS`] series and only neighbours in level order are.
    pub scope: ComparisonScope,
    /// Pairs at the same x level that were not compared (only with `neighbours`).
    pub pairs_left_out: u64,
    /// Comparisons whose ranges do not overlap.
    pub ranges_apart: u64,
    /// The sum of `chance_if_no_difference` over the comparisons: how many non-overlaps to
    /// expect if no condition differed from any other.
    pub expected_apart_by_chance: f64,
    /// The practical threshold: a difference of medians below this fraction of the smaller
    /// median is negligible, whatever the ranges.
    pub negligible_below: f64,
}

#[derive(Debug, Clone, Copy, Serialize, Default, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ComparisonScope {
    #[default]
    AllPairs,
    Neighbours,
}

/// What a comparison's ranges support.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The ranges overlap: these runs do not separate the conditions.
    RangesOverlap,
    /// The ranges do not overlap, but the medians differ by less than the practical threshold.
    Negligible,
    /// The ranges do not overlap, but chance alone does that too often to call it a difference.
    RangesApart,
    /// The ranges do not overlap, and the chance of that without a difference, times the number
    /// of comparisons, is at most [`FAMILY_ALPHA`].
    Supported,
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
    /// Runs behind each side.
    pub a_runs: usize,
    pub b_runs: usize,
    /// The probability that the two ranges fail to overlap when all runs of both come from one
    /// continuous distribution: 2·n!·m!/(n+m)!.
    pub chance_if_no_difference: f64,
    pub verdict: Verdict,
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
    /// The probe was sent later than in the dataset's other runs: the run's largest lag lies
    /// above the robust limit (median + k · scaled MAD over the dataset's ok runs).
    NoisyLag {
        max_lag_ms: f64,
        median_ms: f64,
        limit_ms: f64,
    },
    /// The host's load average stood out from the dataset's other runs by the same rule.
    NoisyLoad {
        load1: f64,
        median: f64,
        limit: f64,
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

/// The probability that the ranges of `n` and `m` values fail to overlap when all n + m values
/// are drawn independently from one continuous distribution: 2 / C(n + m, n) = 2·n!·m!/(n + m)!.
/// Every arrangement of the two labels over the sorted values is equally likely, and the ranges
/// are apart in exactly two of the C(n + m, n) arrangements (all of one side below the other).
/// `None` when a side has no values; 1 for one value against one.
pub fn chance_if_no_difference(n: usize, m: usize) -> Option<f64> {
    if n == 0 || m == 0 {
        return None;
    }
    // C(n + m, n) as a product of ratios, each step exact while it fits in f64's 53 bits.
    let (small, large) = (n.min(m), n.max(m));
    let mut arrangements = 1.0_f64;
    for i in 1..=small {
        arrangements = arrangements * (large + i) as f64 / i as f64;
    }
    Some((2.0 / arrangements).min(1.0))
}

/// The verdict of two conditions: overlap, a negligible gap, apart, or supported.
/// `comparisons` is how many comparisons the page makes (the Bonferroni factor).
pub fn verdict(overlap: bool, median_ratio: Option<f64>, negligible_below: f64, chance: f64, comparisons: usize) -> Verdict {
    if overlap {
        Verdict::RangesOverlap
    } else if median_ratio.is_some_and(|r| r - 1.0 < negligible_below) {
        Verdict::Negligible
    } else if chance * comparisons.max(1) as f64 <= FAMILY_ALPHA {
        Verdict::Supported
    } else {
        Verdict::RangesApart
    }
}

/// Below this many values the robust rule has too little to stand on and flags nothing.
pub const MIN_RUNS_FOR_NOISE_RULE: usize = 5;
/// The MAD times this estimates the standard deviation of a normal distribution.
pub const MAD_SCALE: f64 = 1.4826;

/// The robust limit of a dataset's per-run values: median + k · max(1.4826 · MAD, floor).
/// Returns (median, limit); `None` below [`MIN_RUNS_FOR_NOISE_RULE`] values.
pub fn robust_limit(values: &[f64], k: f64, floor: f64) -> Option<(f64, f64)> {
    if values.len() < MIN_RUNS_FOR_NOISE_RULE {
        return None;
    }
    let median = super::summary::median(values)?;
    let deviations: Vec<f64> = values.iter().map(|v| (v - median).abs()).collect();
    let mad = super::summary::median(&deviations)?;
    Some((median, median + k * (MAD_SCALE * mad).max(floor)))
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

    /// 2·n!·m!/(n+m)! by factorials, for the small cases a reader can check by hand.
    fn by_factorials(n: u64, m: u64) -> f64 {
        let factorial = |k: u64| (1..=k).product::<u64>() as f64;
        2.0 * factorial(n) * factorial(m) / factorial(n + m)
    }

    #[test]
    fn three_runs_against_three_are_apart_by_chance_one_time_in_ten() {
        assert_eq!(chance_if_no_difference(3, 3), Some(0.1));
    }

    #[test]
    fn chance_of_apart_ranges_matches_the_factorial_formula() {
        // (n, m, exact value): 2/C(n+m, n).
        let cases =
            [(1, 1, 1.0), (1, 2, 2.0 / 3.0), (2, 2, 1.0 / 3.0), (2, 3, 0.2), (3, 4, 2.0 / 35.0), (5, 5, 2.0 / 252.0), (3, 10, 2.0 / 286.0)];
        for (n, m, exact) in cases {
            let chance = chance_if_no_difference(n, m).unwrap();
            assert!((chance - exact).abs() < 1e-15, "({n}, {m}): {chance} vs {exact}");
            assert!((chance - by_factorials(n as u64, m as u64)).abs() < 1e-15, "({n}, {m})");
            assert_eq!(chance, chance_if_no_difference(m, n).unwrap(), "symmetric in n and m");
        }
        assert_eq!(chance_if_no_difference(0, 3), None);
    }

    #[test]
    fn chance_of_apart_ranges_matches_a_count_of_every_arrangement() {
        // Enumerate every way to give n of the n + m sorted ranks to side A and count the
        // arrangements in which the ranges do not overlap.
        for (n, m) in [(2, 2), (3, 3), (2, 5), (4, 3)] {
            let total = n + m;
            let (mut apart, mut all) = (0u32, 0u32);
            for mask in 0u32..(1 << total) {
                if mask.count_ones() as usize != n {
                    continue;
                }
                all += 1;
                let a: Vec<usize> = (0..total).filter(|i| mask & (1 << i) != 0).collect();
                let b: Vec<usize> = (0..total).filter(|i| mask & (1 << i) == 0).collect();
                let (a_lo, a_hi, b_lo, b_hi) = (a[0], a[n - 1], b[0], b[m - 1]);
                if a_hi < b_lo || b_hi < a_lo {
                    apart += 1;
                }
            }
            assert_eq!(chance_if_no_difference(n, m).unwrap(), apart as f64 / all as f64, "({n}, {m})");
        }
    }

    #[test]
    fn apart_ranges_of_three_runs_are_not_a_supported_difference() {
        let chance = chance_if_no_difference(3, 3).unwrap();
        assert_eq!(verdict(false, Some(4000.0), 0.05, chance, 12), Verdict::RangesApart);
        assert_eq!(verdict(false, Some(4000.0), 0.05, chance, 1), Verdict::RangesApart);
        assert_eq!(verdict(true, Some(4000.0), 0.05, chance, 12), Verdict::RangesOverlap);
    }

    #[test]
    fn a_gap_below_the_practical_threshold_is_negligible() {
        assert_eq!(verdict(false, Some(1.02), 0.05, 0.1, 12), Verdict::Negligible);
        assert_eq!(verdict(false, Some(1.06), 0.05, 0.1, 12), Verdict::RangesApart);
    }

    #[test]
    fn apart_ranges_of_many_runs_are_supported_after_the_bonferroni_factor() {
        let chance = chance_if_no_difference(6, 6).unwrap(); // 2/924
        assert_eq!(verdict(false, Some(2.0), 0.05, chance, 12), Verdict::Supported);
        assert_eq!(verdict(false, Some(2.0), 0.05, chance, 30), Verdict::RangesApart);
    }

    #[test]
    fn a_few_late_runs_stand_out_from_the_robust_limit() {
        // 25 runs with lags between 0.2 and 2.8 ms and four runs 6.8-13.7 ms late.
        let mut lags: Vec<f64> = (0..25).map(|i| 0.2 + 0.1 * i as f64).collect();
        lags.extend([13.7, 6.8, 7.5, 11.0]);
        let (median, limit) = robust_limit(&lags, 3.5, 1.0).unwrap();
        assert!((median - 1.6).abs() < 1e-9, "{median}");
        let late: Vec<f64> = lags.iter().copied().filter(|&l| l > limit).collect();
        assert_eq!(late, vec![13.7, 6.8, 7.5, 11.0], "limit {limit}");
    }

    #[test]
    fn the_floor_keeps_sub_millisecond_jitter_unflagged() {
        let lags = [0.50, 0.51, 0.50, 0.52, 0.50, 0.90];
        let (_, limit) = robust_limit(&lags, 3.5, 1.0).unwrap();
        assert!(limit > 0.9, "{limit}");
        assert_eq!(robust_limit(&lags[..4], 3.5, 1.0), None);
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
