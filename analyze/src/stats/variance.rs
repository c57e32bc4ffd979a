//! The variance review (of the headline metric, dataset.toml's `report.headline`): how far repeated runs of one condition disagree, which comparisons their
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
//!
//! The review's types are named in [`crate::report::review`]; this module fills them, flag rules
//! included ([`review`]).

use crate::dataset::Dataset;
use crate::model::{HeadlineMetric, RunStatus};
use crate::report::review::{
    Comparison, ComparisonScope, ComparisonSummary, ConditionVariance, Flag, FlagKind, MedianInterval, RobustLimit, RunValue,
    VarianceReview, Verdict,
};
use crate::report::{ConditionResult, Layout, RunResult};
use statrs::distribution::{Binomial, DiscreteCDF};

/// Below this many runs no interval for the median reaches 95% coverage (n = 6 gives 96.9%).
pub const MIN_RUNS_FOR_INTERVAL: usize = 6;
pub const INTERVAL_COVERAGE: f64 = 0.95;
/// The family-wise error rate a "supported" verdict keeps across all comparisons of the page.
pub const FAMILY_ALPHA: f64 = 0.05;
/// Up to this many series (layout rows) at one x level, every pair is compared; above it, only
/// neighbours in level order, so the comparisons grow linearly with the conditions.
pub const MAX_ROWS_FOR_ALL_PAIRS: usize = 6;

/// The variance review of a report's runs and conditions: each condition's spread, the
/// comparisons of conditions at each x level, and the flags that say which runs deserve a second
/// look.
pub fn review(
    dataset: &Dataset,
    runs: &[RunResult],
    conditions: &[ConditionResult],
    layout: &Layout,
    metric: HeadlineMetric,
) -> VarianceReview {
    let thresholds = &dataset.manifest.thresholds;
    let mut review = VarianceReview { thresholds: thresholds.clone(), ..VarianceReview::default() };
    let mut widest: Option<(f64, String)> = None;
    for (c, condition) in conditions.iter().enumerate() {
        let values: Vec<RunValue> = runs
            .iter()
            .filter(|r| r.condition == c && r.status == RunStatus::Ok)
            .filter_map(|r| metric.of_run(r).map(|v| RunValue { run_id: r.run_id.clone(), value_ms: v }))
            .collect();
        let plain: Vec<f64> = values.iter().map(|v| v.value_ms).collect();
        let median = metric.of_condition(condition).map_or(0.0, |s| s.median);
        let (max_over_min, range_over_median) = spread_ratios(&plain, median);
        if let Some(relative) = range_over_median {
            if widest.as_ref().is_none_or(|(w, _)| relative > *w) {
                widest = Some((relative, condition.id.clone()));
            }
        }
        review.conditions.push(ConditionVariance {
            condition: c,
            condition_id: condition.id.clone(),
            runs: values,
            max_over_min,
            range_over_median,
            median_interval: median_interval(&plain),
        });
    }
    review.widest_condition = widest.map(|w| w.1);

    review.comparisons = compare(conditions, layout, metric, thresholds.negligible_difference, &mut review.comparison_summary);

    let ok_runs = || runs.iter().filter(|r| r.status == RunStatus::Ok);
    let lags: Vec<f64> = ok_runs().filter_map(|r| r.max_lag_ms).collect();
    let lag_limit = robust_limit(&lags, thresholds.noisy_k, thresholds.noisy_lag_floor_ms);
    let loads: Vec<f64> = ok_runs().filter_map(host_load).collect();
    let load_limit = robust_limit(&loads, thresholds.noisy_k, thresholds.noisy_load1_floor);
    review.lag_limit = lag_limit.map(|(median, limit)| RobustLimit {
        median: super::precision::ms(median),
        limit: super::precision::ms(limit),
        k: thresholds.noisy_k,
        floor: thresholds.noisy_lag_floor_ms,
    });
    review.load1_limit =
        load_limit.map(|(median, limit)| RobustLimit { median, limit, k: thresholds.noisy_k, floor: thresholds.noisy_load1_floor });

    for run in runs {
        let mut flag = |kind: FlagKind| review.flags.push(Flag { run_id: run.run_id.clone(), kind });
        match run.status {
            RunStatus::Aborted => flag(FlagKind::Aborted { note: run.note.clone() }),
            RunStatus::Excluded => flag(FlagKind::Excluded { note: run.note.clone() }),
            RunStatus::Ok => {}
        }
        // A run left out of the statistics is only listed with its note.
        if run.status != RunStatus::Ok {
            continue;
        }
        if run.errors > 0 {
            flag(FlagKind::Errors { count: run.errors, requests: run.requests });
        }
        if run.incomplete_large_responses > 0 {
            flag(FlagKind::IncompleteLargeResponses { count: run.incomplete_large_responses });
        }
        // The fixed threshold first; the robust rule catches what stands out from the
        // dataset's own runs below it, so one run is not flagged twice for one cause.
        if let Some(lag) = run.max_lag_ms {
            if lag > thresholds.lag_ms {
                flag(FlagKind::ScheduleLag { max_lag_ms: lag, threshold_ms: thresholds.lag_ms });
            } else if let Some((median, limit)) = lag_limit.filter(|(_, limit)| lag > *limit) {
                flag(FlagKind::NoisyLag {
                    max_lag_ms: lag,
                    median_ms: super::precision::ms(median),
                    limit_ms: super::precision::ms(limit),
                });
            }
        }
        if let Some(load1) = host_load(run) {
            if load1 > thresholds.load1 {
                flag(FlagKind::HostLoad { load1, threshold: thresholds.load1 });
            } else if let Some((median, limit)) = load_limit.filter(|(_, limit)| load1 > *limit) {
                flag(FlagKind::NoisyLoad { load1, median, limit });
            }
        }
        if run.status == RunStatus::Ok {
            if let (Some(value), Some(spread)) = (metric.of_run(run), metric.of_condition(&conditions[run.condition])) {
                let median = spread.median;
                if spread.n >= 3 && median > 0.0 && value > 0.0 {
                    let factor = (value / median).max(median / value);
                    if factor > thresholds.outlier_ratio {
                        flag(FlagKind::Outlier { value_ms: value, median_ms: median, factor });
                    }
                }
            }
        }
    }
    review
}

/// The larger of the host load averages taken before and after the run.
fn host_load(run: &RunResult) -> Option<f64> {
    [run.load1_before, run.load1_after].into_iter().flatten().fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))
}

/// Compares the conditions at each x level by their ranges: every pair of series while a level
/// has at most [`MAX_ROWS_FOR_ALL_PAIRS`] of them, else neighbours in level order
/// (the layout's row order), so the work and the page grow linearly with the conditions.
fn compare(
    conditions: &[ConditionResult],
    layout: &Layout,
    metric: HeadlineMetric,
    negligible: f64,
    summary: &mut ComparisonSummary,
) -> Vec<Comparison> {
    let columns = layout.rows.iter().map(|r| r.cells.len()).max().unwrap_or(0);
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut left_out = 0u64;
    let mut all_pairs = true;
    for column in 0..columns {
        let present: Vec<usize> = layout
            .rows
            .iter()
            .filter_map(|r| r.cells.get(column).copied().flatten())
            .filter(|&c| metric.of_condition(&conditions[c]).is_some())
            .collect();
        let k = present.len();
        if k <= MAX_ROWS_FOR_ALL_PAIRS {
            for i in 0..k {
                for j in i + 1..k {
                    pairs.push((present[i], present[j]));
                }
            }
        } else {
            all_pairs = false;
            pairs.extend(present.windows(2).map(|w| (w[0], w[1])));
            left_out += (k * (k - 1) / 2 - (k - 1)) as u64;
        }
    }
    let total = pairs.len();
    let comparisons: Vec<Comparison> = pairs
        .into_iter()
        .filter_map(|(a, b)| {
            let (sa, sb) = (metric.of_condition(&conditions[a])?, metric.of_condition(&conditions[b])?);
            let overlap = ranges_overlap((sa.min, sa.max), (sb.min, sb.max));
            let median_ratio = (sa.median > 0.0 && sb.median > 0.0).then(|| sa.median.max(sb.median) / sa.median.min(sb.median));
            let chance = chance_if_no_difference(sa.n, sb.n)?;
            Some(Comparison {
                a,
                b,
                a_id: conditions[a].id.clone(),
                b_id: conditions[b].id.clone(),
                ranges_overlap: overlap,
                median_ratio,
                a_runs: sa.n,
                b_runs: sb.n,
                chance_if_no_difference: chance,
                verdict: verdict(overlap, median_ratio, negligible, chance, total),
            })
        })
        .collect();
    *summary = ComparisonSummary {
        scope: if all_pairs { ComparisonScope::AllPairs } else { ComparisonScope::Neighbours },
        pairs_left_out: left_out,
        ranges_apart: comparisons.iter().filter(|c| !c.ranges_overlap).count() as u64,
        expected_apart_by_chance: comparisons.iter().map(|c| c.chance_if_no_difference).sum(),
        negligible_below: negligible,
    };
    comparisons
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
