//! The variance review (of the headline metric, dataset.toml's `report.headline`): how far
//! repeated runs of one condition disagree, what the comparisons of conditions support, and which
//! runs deserve a second look.
//!
//! Each condition's runs are shown with their min-max range; from [`MIN_RUNS_FOR_INTERVAL`] runs
//! on, the distribution-free interval for the median from order statistics is added: [x(k),
//! x(n-k+1)] with the largest k whose coverage 1 - 2·P(B <= k-1), B ~ Binomial(n, 1/2), is at
//! least 95%.
//!
//! Two conditions are compared in two ways. By their ranges, distribution-free: when the n + m
//! runs all come from one continuous distribution, the ranges fail to overlap with probability
//! 2 / C(n + m, n) ([`chance_if_no_difference`]; 1 in 10 for 3 runs against 3, so with 3 runs a
//! side the ranges alone can never show a difference at 5%). And by the ratio of geometric means
//! with a Welch interval on the logs, whose verdicts Benjamini-Hochberg holds to a false discovery
//! rate of 5% over the review ([`crate::stats::difference`]): that one can say yes with 3 runs a
//! side when the gap is large against the run-to-run spread.
//!
//! The review's types are named in [`crate::report::review`]; this module fills them, flag rules
//! included ([`review`]).

pub mod paired;

use super::difference::{self, FDR_Q};
use crate::dataset::manifest::CompareChoice;
use crate::dataset::Dataset;
use crate::model::{HeadlineMetric, RunStatus, Verdict};
use crate::report::review::{
    Comparison, ComparisonScope, ComparisonSummary, ConditionVariance, DatasetFlag, Flag, FlagCause, FlagKind, MedianInterval, RobustLimit,
    RunValue, VarianceReview,
};
use crate::report::{ConditionResult, Layout, RunResult};
use statrs::distribution::{Binomial, DiscreteCDF};

/// Below this many runs no interval for the median reaches 95% coverage (n = 6 gives 96.9%).
pub const MIN_RUNS_FOR_INTERVAL: usize = 6;
pub const INTERVAL_COVERAGE: f64 = 0.95;
/// Up to this many conditions in one group (the series at one x level, or the compared factor's
/// levels), every pair is compared; above it, only neighbours in level order, so the comparisons
/// grow linearly with the conditions.
pub const MAX_ROWS_FOR_ALL_PAIRS: usize = 6;
/// A flag rule that hits at least this share of the ok runs (and at least
/// [`MIN_RUNS_FOR_DATASET_FLAG`] of them) is reported once for the dataset, not on every run.
pub const DATASET_FLAG_SHARE: f64 = 0.8;
pub const MIN_RUNS_FOR_DATASET_FLAG: u64 = 5;

/// The variance review of a report's runs and conditions: each condition's spread, the
/// comparisons of conditions, and the flags that say which runs deserve a second look.
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
    // Each condition's ok runs in run order, gathered in one pass (a scan of all runs per
    // condition costs runs × conditions: 10^9 steps for 10^5 runs of 10^4 conditions).
    let mut ok_runs_of: Vec<Vec<&RunResult>> = vec![Vec::new(); conditions.len()];
    for run in runs.iter().filter(|r| r.status == RunStatus::Ok) {
        ok_runs_of[run.condition].push(run);
    }
    for (c, condition) in conditions.iter().enumerate() {
        let values: Vec<RunValue> =
            ok_runs_of[c].iter().filter_map(|r| metric.of_run(r).map(|v| RunValue { run_id: r.run_id.clone(), value_ms: v })).collect();
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

    let compared = compared_factor(dataset, conditions, layout);
    let groups = groups_compared(dataset, conditions, layout);
    let values: Vec<Vec<f64>> = review.conditions.iter().map(|v| v.runs.iter().map(|r| r.value_ms).collect()).collect();
    let ids: Vec<String> = conditions.iter().map(|c| c.id.clone()).collect();
    let (comparisons, mut summary) = compare(&ids, &groups, &values, thresholds.negligible_difference);
    summary.compared = compared.map(|f| dataset.factors[f].name.clone());
    // Within rounds: the pairs the review compares across levels of a factor, where runs carry rounds.
    if compared.is_some() {
        let pairs: Vec<(usize, usize)> = comparisons.iter().map(|c| (c.a, c.b)).collect();
        let rounds = paired::rounds_of(runs, &pairs, |r| metric.of_run(r));
        review.paired = paired::compare(&ids, &pairs, &rounds, thresholds.negligible_difference);
    }
    review.comparisons = comparisons;
    review.comparison_summary = summary;

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

    // Each condition's lower limit of the server's CPU share, from its own ok runs.
    let starved_limits: Vec<Option<(f64, f64)>> = ok_runs_of
        .iter()
        .map(|runs| {
            let shares: Vec<f64> = runs.iter().filter_map(|r| r.server_cpu_share).collect();
            starved_limit(&shares, thresholds.noisy_k)
        })
        .collect();
    let mut flags = Vec::new();
    for run in runs {
        let mut flag = |kind: FlagKind| flags.push(Flag { run_id: run.run_id.clone(), kind });
        match run.status {
            RunStatus::Aborted => flag(FlagKind::Aborted { note: run.note.clone() }),
            RunStatus::Excluded => flag(FlagKind::Excluded { note: run.note.clone() }),
            RunStatus::Ok => {}
        }
        // A run left out of the statistics is only listed with its note.
        if run.status != RunStatus::Ok {
            continue;
        }
        // As counted: a run imported from a summary alone has the tool's counts.
        if let Some(counted) = super::failures::of_run(run).filter(|c| c.errors > 0) {
            flag(FlagKind::Errors { count: counted.errors, requests: counted.requests });
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
        if let Some((share, (median, limit))) = run.server_cpu_share.zip(starved_limits[run.condition]) {
            if share < limit {
                flag(FlagKind::Starved { share, median, limit });
            }
        }
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
    let ok = ok_runs().count() as u64;
    // The host's load before the study's first run: above the gate, the load was there before the
    // study loaded the host, so it is not (only) the study's own.
    let first_load = runs.iter().min_by(|a, b| a.started_at_utc.cmp(&b.started_at_utc)).and_then(|r| r.load1_before);
    let loaded_before = first_load.filter(|load| *load > thresholds.load1);
    (review.flags, review.dataset_flags) = dataset_flags(flags, ok, loaded_before, |id| runs.iter().find(|r| r.run_id == id));
    review
}

/// The host load a run is judged by: the load average before it for a run that loads the host
/// itself (a closed loop or sessions: the load after it is the run's own), else the larger of
/// before and after.
pub(crate) fn host_load(run: &RunResult) -> Option<f64> {
    if run.load.loads_the_host() {
        return run.load1_before;
    }
    [run.load1_before, run.load1_after].into_iter().flatten().fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))
}

/// The flag kinds that can be dataset-wide, with the value each judged and its threshold.
fn judged(kind: &FlagKind) -> Option<(&'static str, f64, Option<f64>)> {
    match kind {
        FlagKind::Errors { count, .. } => Some(("errors", *count as f64, None)),
        FlagKind::IncompleteLargeResponses { count } => Some(("incomplete_large_responses", *count as f64, None)),
        FlagKind::ScheduleLag { max_lag_ms, threshold_ms } => Some(("schedule_lag", *max_lag_ms, Some(*threshold_ms))),
        FlagKind::HostLoad { load1, threshold } => Some(("host_load", *load1, Some(*threshold))),
        FlagKind::NoisyLag { max_lag_ms, limit_ms, .. } => Some(("noisy_lag", *max_lag_ms, Some(*limit_ms))),
        FlagKind::NoisyLoad { load1, limit, .. } => Some(("noisy_load", *load1, Some(*limit))),
        FlagKind::Outlier { .. } | FlagKind::Starved { .. } | FlagKind::Aborted { .. } | FlagKind::Excluded { .. } => None,
    }
}

/// Splits the per-run flags into those kept per run and the rules that hit most of the `ok`
/// runs, which are reported once with their cause. `loaded_before`: the host's load before the
/// first run, when it already exceeded the gate, so a load the runs share is not called their own
/// but the host's before the study began.
fn dataset_flags<'r>(
    flags: Vec<Flag>,
    ok: u64,
    loaded_before: Option<f64>,
    run: impl Fn(&str) -> Option<&'r RunResult>,
) -> (Vec<Flag>, Vec<DatasetFlag>) {
    // Per rule: the value each hit judged, its threshold, and the run.
    type Hits<'f> = Vec<(f64, Option<f64>, &'f str)>;
    let mut by_kind: std::collections::BTreeMap<&'static str, Hits> = Default::default();
    for flag in &flags {
        if let Some((kind, value, threshold)) = judged(&flag.kind) {
            by_kind.entry(kind).or_default().push((value, threshold, flag.run_id.as_str()));
        }
    }
    let mut wide = Vec::new();
    for (kind, hits) in &by_kind {
        let count = hits.len() as u64;
        if count < MIN_RUNS_FOR_DATASET_FLAG || (count as f64) < DATASET_FLAG_SHARE * ok as f64 {
            continue;
        }
        let own_load = *kind == "host_load"
            && loaded_before.is_none()
            && hits.iter().all(|(_, _, id)| run(id).is_some_and(|r| r.load.loads_the_host()));
        let cause = match loaded_before {
            Some(load1) if *kind == "host_load" => Some(FlagCause::LoadedBefore { load1 }),
            _ => own_load.then_some(FlagCause::OwnLoad),
        };
        wide.push(DatasetFlag {
            kind,
            runs: count,
            of: ok,
            min: hits.iter().map(|h| h.0).fold(f64::INFINITY, f64::min),
            max: hits.iter().map(|h| h.0).fold(f64::NEG_INFINITY, f64::max),
            threshold: hits.iter().find_map(|h| h.1),
            cause,
        });
    }
    let per_run = flags.into_iter().filter(|f| judged(&f.kind).is_none_or(|(kind, ..)| !wide.iter().any(|w| w.kind == kind))).collect();
    (per_run, wide)
}

/// The index of the factor the study compares: dataset.toml's `report.compare`; else, when the
/// conditions form one series along x (a sweep of one factor, every other factor at one level)
/// and at least two of them were repeated, x itself: with no second series at any level of x the
/// levels of x are all the study varies, and comparing only the series at each level would
/// compare nothing. Conditions of one run each (a tool run once apiece) stand alone as before.
pub fn compared_factor(dataset: &Dataset, conditions: &[ConditionResult], layout: &Layout) -> Option<usize> {
    match &dataset.manifest.report.compare {
        Some(CompareChoice::Factor(name)) => return dataset.factors.iter().position(|f| &f.name == name),
        Some(CompareChoice::Nothing(_)) => return None,
        None => {}
    }
    let x = layout.x_factor?;
    let repeated = match layout.rows.as_slice() {
        [only] => only.cells.iter().flatten().filter(|&&c| conditions[c].runs.len() >= 2).count(),
        _ => 0,
    };
    (repeated >= 2).then_some(x)
}

/// The groups of conditions the study compares within ([`comparison_groups`]); none when
/// dataset.toml says `report.compare = false`.
pub fn groups_compared(dataset: &Dataset, conditions: &[ConditionResult], layout: &Layout) -> Vec<Vec<usize>> {
    if matches!(dataset.manifest.report.compare, Some(CompareChoice::Nothing(_))) {
        return Vec::new();
    }
    comparison_groups(conditions, layout, compared_factor(dataset, conditions, layout))
}

/// The groups of conditions whose members are compared with each other, each in display order:
/// the series at each level of x (the layout's columns), or, when the study names the factor it
/// compares, the conditions that agree on every other factor, ordered by that factor's levels.
pub fn comparison_groups(conditions: &[ConditionResult], layout: &Layout, compared: Option<usize>) -> Vec<Vec<usize>> {
    match compared {
        None => {
            let columns = layout.rows.iter().map(|r| r.cells.len()).max().unwrap_or(0);
            (0..columns).map(|column| layout.rows.iter().filter_map(|r| r.cells.get(column).copied().flatten()).collect()).collect()
        }
        Some(factor) => {
            let mut groups: std::collections::BTreeMap<Vec<usize>, Vec<usize>> = Default::default();
            for (c, condition) in conditions.iter().enumerate() {
                let mut others = condition.levels.clone();
                others[factor] = usize::MAX;
                groups.entry(others).or_default().push(c);
            }
            groups
                .into_values()
                .map(|mut members| {
                    members.sort_by_key(|&c| conditions[c].levels[factor]);
                    members
                })
                .collect()
        }
    }
}

/// Compares the conditions within each group: every pair while a group has at most
/// [`MAX_ROWS_FOR_ALL_PAIRS`] members with values, else neighbours in order, so the work and the
/// page grow linearly with the conditions. `values` holds each condition's run values.
fn compare(ids: &[String], groups: &[Vec<usize>], values: &[Vec<f64>], negligible: f64) -> (Vec<Comparison>, ComparisonSummary) {
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut left_out = 0u64;
    let mut all_pairs = true;
    for group in groups {
        let present: Vec<usize> = group.iter().copied().filter(|&c| !values[c].is_empty()).collect();
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
    let mut one_run = 0u64;
    let mut comparisons: Vec<Comparison> = Vec::new();
    for (a, b) in pairs {
        let (va, vb) = (&values[a], &values[b]);
        if va.len() < 2 || vb.len() < 2 {
            one_run += 1;
            continue;
        }
        let range = |v: &[f64]| (v.iter().copied().fold(f64::INFINITY, f64::min), v.iter().copied().fold(f64::NEG_INFINITY, f64::max));
        let interval = difference::log_ratio(va, vb);
        comparisons.push(Comparison {
            a,
            b,
            a_id: ids[a].clone(),
            b_id: ids[b].clone(),
            ranges_overlap: ranges_overlap(range(va), range(vb)),
            a_runs: va.len(),
            b_runs: vb.len(),
            chance_if_no_difference: chance_if_no_difference(va.len(), vb.len()).unwrap_or(1.0),
            ratio: difference::geometric_mean_ratio(va, vb),
            ratio_low: interval.as_ref().ok().map(|i| i.low),
            ratio_high: interval.as_ref().ok().map(|i| i.high),
            p_log_t: interval.as_ref().ok().map(|i| i.p),
            no_interval: interval.err(),
            fdr_supported: false,
            verdict: Verdict::NotShown,
        });
    }
    let with_p: Vec<usize> = (0..comparisons.len()).filter(|&i| comparisons[i].p_log_t.is_some()).collect();
    let p: Vec<f64> = with_p.iter().filter_map(|&i| comparisons[i].p_log_t).collect();
    for (&i, passes) in with_p.iter().zip(difference::benjamini_hochberg(&p, FDR_Q)) {
        comparisons[i].fdr_supported = passes;
    }
    for c in &mut comparisons {
        let interval = c.ratio_low.zip(c.ratio_high);
        c.verdict = c.ratio.map_or(Verdict::NotShown, |ratio| difference::verdict(ratio, interval, c.fdr_supported, negligible));
    }
    let count = |v: Verdict| comparisons.iter().filter(|c| c.verdict == v).count() as u64;
    let best = comparisons.iter().min_by(|x, y| x.chance_if_no_difference.total_cmp(&y.chance_if_no_difference));
    let summary = ComparisonSummary {
        scope: if all_pairs { ComparisonScope::AllPairs } else { ComparisonScope::Neighbours },
        pairs_left_out: left_out,
        all_pairs_up_to: MAX_ROWS_FOR_ALL_PAIRS as u64,
        ranges_apart: comparisons.iter().filter(|c| !c.ranges_overlap).count() as u64,
        // Summed from +0.0: an empty f64 sum is -0.0.
        expected_apart_by_chance: comparisons.iter().fold(0.0, |sum, c| sum + c.chance_if_no_difference),
        negligible_below: negligible,
        compared: None,
        pairs_with_one_run: one_run,
        fdr_q: FDR_Q,
        supported: count(Verdict::Supported),
        negligible: count(Verdict::Negligible),
        not_shown: count(Verdict::NotShown),
        smallest_chance: best.map(|c| c.chance_if_no_difference),
        smallest_chance_runs: best.map(|c| (c.a_runs, c.b_runs)),
    };
    (comparisons, summary)
}

/// Spread measures of run values: max / min and (max - min) / median; `None` below two values,
/// where there is no spread to measure.
pub fn spread_ratios(values: &[f64], median: f64) -> (Option<f64>, Option<f64>) {
    if values.len() < 2 {
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

/// Below this many runs of a condition with a server CPU share, none is judged starved.
pub const MIN_RUNS_FOR_STARVED: usize = 3;
/// The floor of the starved rule's spread, as a share of the condition's median: a run is judged
/// starved only once its server got less than median · (1 - k · floor) (65% of the median at k = 3.5).
pub const STARVED_FLOOR: f64 = 0.1;

/// The lower limit of a condition's server CPU shares: median - k · max(1.4826 · MAD, floor ·
/// median), the robust rule of [`robust_limit`] turned downwards, with a floor relative to the
/// median (a share is a rate: what counts as "markedly less" scales with it). Returns (median,
/// limit); `None` below [`MIN_RUNS_FOR_STARVED`] shares.
pub fn starved_limit(shares: &[f64], k: f64) -> Option<(f64, f64)> {
    if shares.len() < MIN_RUNS_FOR_STARVED {
        return None;
    }
    let median = super::summary::median(shares)?;
    let deviations: Vec<f64> = shares.iter().map(|v| (v - median).abs()).collect();
    let mad = super::summary::median(&deviations)?;
    Some((median, median - k * (MAD_SCALE * mad).max(STARVED_FLOOR * median)))
}

/// Whether the closed ranges [a_min, a_max] and [b_min, b_max] share a point.
pub fn ranges_overlap(a: (f64, f64), b: (f64, f64)) -> bool {
    a.0 <= b.1 && b.0 <= a.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_with_markedly_less_cpu_than_its_conditions_other_runs_is_below_the_limit() {
        // Three runs at 0.90-0.94 CPU s/s: the MAD (0.02) is below the 10% floor, so the limit is
        // 0.92 - 3.5 * 0.092 = 0.598; a run at 0.41 is starved, one at 0.70 is not.
        let (median, limit) = starved_limit(&[0.90, 0.92, 0.94, 0.41], 3.5).unwrap();
        assert!((median - 0.91).abs() < 1e-12, "{median}");
        assert!((limit - (0.91 - 3.5 * 0.091)).abs() < 1e-12, "{limit}");
        assert!(0.41 < limit && 0.70 > limit);
        assert_eq!(starved_limit(&[0.9, 0.3], 3.5), None, "two runs cannot say which one is odd");
    }

    /// A seeded simulation of the rule, 6 runs a condition: at a 5% spread of the server's share run
    /// to run, a run at half the CPU is found at least 95 times in 100; at 5% and at 10%, at most 1
    /// steady run in 200 is flagged. (At 10%, a halved run is found about 7 times in 10: the MAD of
    /// 6 runs is itself noisy.)
    #[test]
    fn the_starved_rule_rarely_flags_steady_runs_and_finds_a_halved_one() {
        let mut rng = crate::stats::random::SplitMix64(47);
        let trials = 2_000;
        for (spread, finds) in [(0.05, 0.95), (0.10, 0.5)] {
            let (mut false_flags, mut found) = (0, 0);
            for _ in 0..trials {
                let mut shares: Vec<f64> = (0..6).map(|_| 0.9 * (1.0 + spread * rng.normal())).collect();
                let (_, limit) = starved_limit(&shares, 3.5).unwrap();
                false_flags += shares.iter().filter(|s| **s < limit).count();
                shares[0] *= 0.5;
                let (_, limit) = starved_limit(&shares, 3.5).unwrap();
                found += usize::from(shares[0] < limit);
            }
            assert!(false_flags as f64 / (6 * trials) as f64 <= 0.005, "{spread}: {false_flags} steady runs flagged");
            assert!(found as f64 / trials as f64 >= finds, "{spread}: {found} of {trials} halved runs found");
        }
    }

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

    fn ids(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("c{i}")).collect()
    }

    #[test]
    fn a_large_gap_over_three_runs_a_side_is_supported_where_the_ranges_alone_cannot_be() {
        // 762 vs 548 requests/s with 1-2% spread: the chance of apart ranges is 10%, but the
        // log-t interval excludes 1 by far.
        let values = vec![vec![548.0, 551.0, 545.0], vec![762.0, 770.0, 755.0]];
        let (comparisons, summary) = compare(&ids(2), &[vec![0, 1]], &values, 0.05);
        let c = &comparisons[0];
        assert_eq!(c.chance_if_no_difference, 0.1);
        assert!(c.ratio.unwrap() > 1.38 && c.ratio.unwrap() < 1.40, "{c:?}");
        assert!(c.ratio_low.unwrap() > 1.3 && c.p_log_t.unwrap() < 1e-4, "{c:?}");
        assert!(c.fdr_supported);
        assert_eq!(c.verdict, Verdict::Supported);
        assert_eq!((summary.supported, summary.negligible, summary.not_shown), (1, 0, 0));
        assert_eq!(summary.smallest_chance, Some(0.1));
    }

    #[test]
    fn overlapping_noisy_runs_are_not_shown_and_tight_equal_ones_are_negligible() {
        let values = vec![vec![10.0, 20.0, 15.0], vec![12.0, 18.0, 25.0], vec![100.0, 100.5, 99.8], vec![100.2, 99.9, 100.4]];
        let (comparisons, _) = compare(&ids(4), &[vec![0, 1], vec![2, 3]], &values, 0.05);
        assert_eq!(comparisons[0].verdict, Verdict::NotShown);
        assert_eq!(comparisons[1].verdict, Verdict::Negligible, "{:?}", comparisons[1]);
    }

    #[test]
    fn one_run_a_side_gives_no_comparison_and_no_chance() {
        let values = vec![vec![10.0], vec![20.0], vec![30.0, 31.0]];
        let (comparisons, summary) = compare(&ids(3), &[vec![0, 1, 2]], &values, 0.05);
        assert!(comparisons.is_empty());
        assert_eq!(summary.pairs_with_one_run, 3);
        assert_eq!(summary.expected_apart_by_chance.to_bits(), 0.0f64.to_bits(), "+0.0, never -0.0");
        assert_eq!(summary.smallest_chance, None);
    }

    #[test]
    fn no_spread_or_a_zero_keeps_the_chance_and_says_why_there_is_no_interval() {
        let values = vec![vec![52.0, 52.0, 52.0], vec![60.0, 60.0, 60.0], vec![0.0, 0.0, 0.01]];
        let (comparisons, _) = compare(&ids(3), &[vec![0, 1], vec![1, 2]], &values, 0.05);
        assert_eq!(comparisons[0].no_interval, Some(crate::model::NoInterval::NoSpread));
        assert_eq!(comparisons[0].chance_if_no_difference, 0.1);
        assert_eq!(comparisons[0].verdict, Verdict::NotShown);
        assert!((comparisons[0].ratio.unwrap() - 60.0 / 52.0).abs() < 1e-12);
        assert_eq!(comparisons[1].no_interval, Some(crate::model::NoInterval::ZeroValue));
        assert_eq!(comparisons[1].ratio, None);
    }

    #[test]
    fn more_than_six_in_a_group_compares_neighbours_only() {
        let values: Vec<Vec<f64>> = (0..8).map(|i| vec![10.0 + i as f64, 10.5 + i as f64]).collect();
        let (comparisons, summary) = compare(&ids(8), &[(0..8).collect()], &values, 0.05);
        assert_eq!(comparisons.len(), 7);
        assert_eq!(summary.scope, ComparisonScope::Neighbours);
        assert_eq!(summary.pairs_left_out, 28 - 7);
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
        assert_eq!(spread_ratios(&[5.0], 5.0), (None, None), "one run has no spread");
    }
}
