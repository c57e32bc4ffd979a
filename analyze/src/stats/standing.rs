//! Which conditions fail and which is best ([`Standing`]): the rule every view follows.
//!
//! A condition fails when the median over its ok runs of its share of requests without a 2xx
//! response, or of its share of failed sessions, lies above `thresholds.error_share` (1% unless
//! dataset.toml says otherwise). Its latencies then describe only what succeeded, so it is
//! never ranked: within each group the study compares (the groups the variance review pairs),
//! the conditions that do not fail are ordered by the median of their headline metric, better
//! first, and the first is the best when at least two are ranked (the last the worst when at
//! least three are). The variance review's verdicts on the best against the next and against the
//! worst say whether the runs support the order.

use crate::model::{HeadlineMetric, Oriented, Verdict};
use crate::report::review::VarianceReview;
use crate::report::standing::{ConditionStanding, Standing, StandingGroup};
use crate::report::ConditionResult;

/// The standing of `conditions` within `groups` (each in display order), by `metric`.
pub fn standing(
    conditions: &[ConditionResult],
    groups: &[Vec<usize>],
    metric: HeadlineMetric,
    review: &VarianceReview,
    threshold: f64,
) -> Standing {
    let per_condition: Vec<ConditionStanding> = conditions
        .iter()
        .map(|c| {
            let error_share = c.error_rate.map(|s| s.median);
            let failed_share = c.sessions.as_ref().map(|s| s.failed_share.median);
            let failing = [error_share, failed_share].into_iter().flatten().any(|share| share > threshold);
            ConditionStanding { condition_id: c.id.clone(), error_share, failed_share, failing }
        })
        .collect();
    let value = |c: usize| metric.of_condition(&conditions[c]).map(|s| s.median);
    let ids = |members: &[usize]| members.iter().map(|&c| conditions[c].id.clone()).collect::<Vec<_>>();
    let groups: Vec<StandingGroup> = groups
        .iter()
        .map(|members| {
            let failing: Vec<usize> = members.iter().copied().filter(|&c| per_condition[c].failing).collect();
            let mut ranked: Vec<usize> = members.iter().copied().filter(|&c| !per_condition[c].failing && value(c).is_some()).collect();
            // A stable sort: equal medians keep their display order.
            ranked.sort_by(|&a, &b| metric.better_first(value(a).unwrap_or(0.0), value(b).unwrap_or(0.0)));
            let best = (ranked.len() >= 2).then(|| ranked[0]);
            let verdict = best.and_then(|best| compared(review, best, ranked[1]));
            let worst = (ranked.len() >= 3).then(|| ranked[ranked.len() - 1]);
            let against_worst = worst.and_then(|worst| compared(review, ranked[0], worst));
            StandingGroup {
                condition_ids: ids(members),
                failing_ids: ids(&failing),
                ranked_ids: ids(&ranked),
                best: best.map(|c| conditions[c].id.clone()),
                best_vs_next: verdict.map(|v| v.0),
                best_vs_next_factor: verdict.and_then(|v| v.1).map(|o| o.factor),
                best_vs_next_interval: verdict.and_then(|v| v.1?.interval),
                worst: worst.map(|c| conditions[c].id.clone()),
                best_vs_worst: against_worst.map(|v| v.0),
                best_vs_worst_factor: against_worst.and_then(|v| v.1).map(|o| o.factor),
                best_vs_worst_interval: against_worst.and_then(|v| v.1?.interval),
                conditions: members.clone(),
                failing,
                ranked,
            }
        })
        .collect();
    let worst = worst(conditions, &per_condition, metric);
    Standing { threshold, conditions: per_condition, groups, worst, worst_id: worst.map(|c| conditions[c].id.clone()) }
}

/// The review's verdict on two conditions and the gap as a factor of at least 1 with its interval
/// turned the same way, if it compared them.
fn compared(review: &VarianceReview, a: usize, b: usize) -> Option<(Verdict, Option<Oriented>)> {
    review
        .comparisons
        .iter()
        .find(|c| (c.a, c.b) == (a, b) || (c.a, c.b) == (b, a))
        .map(|c| (c.verdict, c.ratio.and_then(|r| Oriented::of(r, c.ratio_low, c.ratio_high))))
}

/// The failing condition with the largest share (the first of equals), else the worst median by
/// the metric (the last of equals in condition order, as a `max_by` keeps).
fn worst(conditions: &[ConditionResult], standing: &[ConditionStanding], metric: HeadlineMetric) -> Option<usize> {
    let share = |c: usize| standing[c].failed_share.into_iter().chain(standing[c].error_share).fold(0.0, f64::max);
    let failing = (0..conditions.len()).filter(|&c| standing[c].failing);
    if let Some(c) = failing.reduce(|kept, c| if share(c) > share(kept) { c } else { kept }) {
        return Some(c);
    }
    (0..conditions.len())
        .filter_map(|c| metric.of_condition(&conditions[c]).map(|s| (c, s.median)))
        .max_by(|(_, a), (_, b)| metric.better_first(*a, *b))
        .map(|(c, _)| c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{ConditionSessions, Spread};
    use std::collections::BTreeMap;

    fn spread(median: f64) -> Spread {
        Spread { median, min: median, max: median, n: 3 }
    }

    /// A condition with its error rate, and with sessions when a failed share and a mean are given.
    fn condition(id: &str, p95: f64, error_rate: f64, sessions: Option<(f64, f64)>) -> ConditionResult {
        ConditionResult {
            id: id.to_string(),
            factors: BTreeMap::new(),
            levels: Vec::new(),
            runs: Vec::new(),
            left_out_runs: Vec::new(),
            p95_ms: Some(spread(p95)),
            headline_ms: Some(spread(p95)),
            headline_printed: None,
            percentiles_ms: BTreeMap::new(),
            unresolved_percentiles: BTreeMap::new(),
            max_ms: None,
            latency_decimals: None,
            printed_rate_decimals: None,
            from_intended_ms: BTreeMap::new(),
            representative_run: None,
            write_s: None,
            complete_s: None,
            write_s_pooled: None,
            complete_s_pooled: None,
            tempfile_peak_bytes: None,
            sessions: sessions.map(|(failed, mean)| ConditionSessions {
                sessions: 2000,
                failed: (failed * 2000.0) as u64,
                failed_share: spread(failed),
                min_ms: None,
                max_ms: None,
                mean_ms: Some(spread(mean)),
                median_ms: None,
                p95_ms: None,
            }),
            requests_per_s: Some(spread(1000.0 / p95)),
            error_rate: Some(spread(error_rate)),
            mean_ms: None,
            headline_mean: None,
            resources: Vec::new(),
            slo: Vec::new(),
            labels: Vec::new(),
        }
    }

    /// seed 003's shape at 2,000 sessions: threaded has the best p95 of its successful requests
    /// but failed 64.9% of its sessions.
    fn fastcgi() -> Vec<ConditionResult> {
        vec![
            condition("prefork", 370.35, 0.0, Some((0.0, 523.95))),
            condition("threaded", 699.44, 0.312, Some((0.649, 478.43))),
            condition("gunicorn", 1167.0, 0.0, Some((0.0, 1717.6))),
        ]
    }

    #[test]
    fn a_condition_above_the_error_threshold_is_never_the_best() {
        let conditions = fastcgi();
        let review = VarianceReview::default();
        let by_mean = standing(&conditions, &[vec![0, 1, 2]], HeadlineMetric::SessionMeanMs, &review, 0.01);
        // Threaded has the shortest mean of the three (478 ms), yet it failed: prefork is best.
        let group = &by_mean.groups[0];
        assert_eq!((group.failing.clone(), group.ranked.clone(), group.best.as_deref()), (vec![1], vec![0, 2], Some("prefork")));
        assert!(by_mean.conditions[1].failing && !by_mean.conditions[0].failing);
        assert_eq!(by_mean.conditions[1].failure(0.01), Some((0.649, true)), "the failed-session share, the larger one");
        assert_eq!(by_mean.worst, Some(1), "the failing condition is the worst, whatever its mean");
        // By requests/s (higher is better) too, the failing one is left out.
        let by_rate = standing(&conditions, &[vec![0, 1, 2]], HeadlineMetric::RequestsPerS, &review, 0.01);
        assert_eq!(by_rate.groups[0].ranked, vec![0, 2]);
    }

    #[test]
    fn the_threshold_is_exclusive_and_read_from_the_dataset() {
        let conditions = vec![condition("a", 10.0, 0.01, None), condition("b", 20.0, 0.0, None)];
        let review = VarianceReview::default();
        let at = standing(&conditions, &[vec![0, 1]], HeadlineMetric::Percentile, &review, 0.01);
        assert!(!at.conditions[0].failing, "1% errors is not above a threshold of 1%");
        assert_eq!(at.groups[0].best.as_deref(), Some("a"));
        let strict = standing(&conditions, &[vec![0, 1]], HeadlineMetric::Percentile, &review, 0.005);
        assert!(strict.conditions[0].failing);
        assert_eq!((strict.groups[0].best.clone(), strict.groups[0].ranked.clone()), (None, vec![1]), "one ranked condition has no best");
        assert_eq!(strict.conditions[0].failure(0.005), Some((0.01, false)), "a share of requests");
    }

    #[test]
    fn the_review_s_verdicts_on_best_against_next_and_worst_are_carried_whichever_way_it_paired_them() {
        use crate::report::review::Comparison;
        let conditions = vec![condition("a", 10.0, 0.0, None), condition("b", 12.0, 0.0, None), condition("c", 40.0, 0.0, None)];
        let pair = |a: usize, b: usize, ratio: f64, interval: (f64, f64), verdict: Verdict| Comparison {
            a,
            b,
            a_id: String::new(),
            b_id: String::new(),
            ranges_overlap: false,
            a_runs: 3,
            b_runs: 3,
            chance_if_no_difference: 0.1,
            ratio: Some(ratio),
            ratio_low: Some(interval.0),
            ratio_high: Some(interval.1),
            p_log_t: None,
            no_interval: None,
            fdr_supported: verdict == Verdict::Supported,
            verdict,
        };
        // The review paired (b, a) with ratio a/b = 10/12, and (a, c) with c/a = 4.
        let review = VarianceReview {
            comparisons: vec![pair(1, 0, 10.0 / 12.0, (0.5, 1.25), Verdict::NotShown), pair(0, 2, 4.0, (2.0, 8.0), Verdict::Supported)],
            ..Default::default()
        };
        let got = standing(&conditions, &[vec![0, 1, 2]], HeadlineMetric::Percentile, &review, 0.01);
        let group = &got.groups[0];
        assert_eq!((group.best.as_deref(), group.worst.as_deref()), (Some("a"), Some("c")));
        assert_eq!(group.best_vs_next, Some(Verdict::NotShown));
        assert!((group.best_vs_next_factor.unwrap() - 1.2).abs() < 1e-12, "the gap as a factor of at least 1");
        // Its interval turned with it: 1/1.25 to 1/0.5, so the factor 1.2 lies inside it.
        assert_eq!(group.best_vs_next_interval, Some((0.8, 2.0)));
        assert_eq!((group.best_vs_worst, group.best_vs_worst_factor), (Some(Verdict::Supported), Some(4.0)));
        assert_eq!(group.best_vs_worst_interval, Some((2.0, 8.0)), "a ratio above 1 keeps its interval");
        // Two ranked: no worst apart from the next.
        let two = standing(&conditions[..2], &[vec![0, 1]], HeadlineMetric::Percentile, &review, 0.01);
        assert_eq!(two.groups[0].worst, None);
    }

    #[test]
    fn without_failures_the_worst_is_the_worst_median() {
        let conditions = vec![condition("a", 10.0, 0.0, None), condition("b", 30.0, 0.0, None), condition("c", 20.0, 0.0, None)];
        let review = VarianceReview::default();
        let by_p95 = standing(&conditions, &[vec![0, 1, 2]], HeadlineMetric::Percentile, &review, 0.01);
        assert_eq!((by_p95.worst, by_p95.groups[0].ranked.clone()), (Some(1), vec![0, 2, 1]));
        let by_rate = standing(&conditions, &[vec![0, 1, 2]], HeadlineMetric::RequestsPerS, &review, 0.01);
        assert_eq!((by_rate.worst, by_rate.groups[0].best.as_deref()), (Some(1), Some("a")), "30 ms is the fewest requests/s");
    }
}
