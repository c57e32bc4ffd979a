//! `analyze history`: when a measured condition changed, across many measurements of one study.
//!
//! Every run is a point; a measurement (one dataset, one sitting) is the unit a change is found
//! between. Per condition, each measurement's runs give the mean of their logs, μ_i (for a share
//! metric, `error_rate`, the mean of the shares themselves: a share of 0 is a value, not a gap). A
//! split of a segment of measurements at k is scored by Welch-free pooled t on those means,
//! |mean(μ after) - mean(μ before)| / (s·sqrt(1/n₁ + 1/n₂)), with s² the pooled variance of the
//! μ about their own side's mean; the strongest split of the segment is tested by permuting the
//! segment's measurements (whole measurements, with their runs: runs of one sitting share that
//! sitting, so shuffling runs one by one would call every day-to-day wobble a change) and
//! re-taking the strongest split each time, p = (1 + as strong) / (1 + permutations). Binary
//! segmentation ([`segment`]; each test stops once [`SEQUENTIAL_STOP`] shuffles were as strong,
//! Besag and Clifford's sequential p): the whole history of each condition is tested first and
//! Benjamini-Hochberg at [`family_q`] runs over those first tests of every condition; a condition
//! that passes is split, and each part with room for a split is tested in turn at the threshold the
//! first tests' rule gave, up to [`MAX_CHANGES`] changes. A change must persist: both sides of a
//! split hold at least [`MIN_SEGMENT`] measurements, so the newest measurement alone never makes
//! one. Each change is reported between the two measurements it falls between, with the ratio of
//! the geometric means of the measurements after and before it (up to the neighbouring changes)
//! and its 95% Welch interval on their μ.
//!
//! Failures first, as `analyze compare` judges them ([`crate::stats::failures`]): each
//! measurement's share of failed requests is a second series per condition, segmented the same
//! way in a family of its own, and every change, of either series, is judged by the failed
//! requests on its two sides before its metric: more requests failed is worse whatever the
//! latency of those that succeeded, fewer is better, a difference beyond the margin without
//! support leaves it undecided; only failures within the margin let the metric decide. A
//! measurement none of whose requests got a 2xx response has no latency to follow and is named.
//!
//! The permutations are drawn with a seed taken from the condition's id, so the same measurements
//! give the same history.

mod environment;
mod null;
mod order;
mod segment;
mod split;

pub use null::{DETECT_POWER, WITHIN};
pub use order::{natural, Order};
#[cfg(test)]
use segment::{permutation_p, strongest_split};
pub use segment::{MAX_CHANGES, MIN_PERMUTATIONS, MIN_SEGMENT, SEQUENTIAL_STOP};

use super::compare::Metric;
use super::difference;
use super::failures::{self, RunFailures};
use crate::model::{DecidedBy, FailureVerdict, RunStatus};
use crate::report::compare::RunValue;
use crate::report::history::*;
use crate::report::{ConditionResult, Report};
use std::collections::{HashMap, HashSet};

/// The false discovery rate over the conditions' first tests, at most: 5%, as the variance review
/// and compare hold.
pub const HISTORY_Q: f64 = 0.05;
/// The false findings per unchanged condition the rule allows: with no change anywhere,
/// Benjamini-Hochberg at q raises a finding in about q of histories, spread over their m
/// conditions, so q is held to this times m (a history of one condition is tested at 1%, not 5%:
/// users keep many).
pub const FALSE_FINDINGS_PER_CONDITION: f64 = 0.01;

/// The false discovery rate a history of `conditions` conditions is held to.
pub fn family_q(conditions: usize) -> f64 {
    (FALSE_FINDINGS_PER_CONDITION * conditions.max(1) as f64).min(HISTORY_Q)
}

/// The most permutations a first test draws for `conditions` conditions: enough that the
/// smallest p, 1 / (1 + permutations), lies at a fifth of the first threshold Benjamini-Hochberg
/// sets. Only a test the rule needs it for draws this many ([`segment`]).
pub fn permutations_for(conditions: usize) -> u64 {
    let needed = (5.0 * conditions.max(1) as f64 / family_q(conditions)).ceil() as u64;
    needed.max(MIN_PERMUTATIONS)
}

/// The smallest p a test of `measurements` measurements can give when whole measurements are
/// shuffled: a perfect step splits them into halves, and only it and its mirror are as strong,
/// 2 / C(m, m/2) (1/35 at 8 measurements, 1/462 at 12); at least 1 / (1 + permutations).
pub fn smallest_p(measurements: usize, permutations: u64) -> f64 {
    let half = measurements / 2;
    let mut arrangements = 1.0f64;
    for i in 0..half {
        arrangements = arrangements * (measurements - i) as f64 / (i + 1) as f64;
    }
    (2.0 / arrangements).min(1.0).max(1.0 / (1 + permutations) as f64)
}

/// The fewest measurements whose smallest shuffled p ([`smallest_p`]) reaches `alpha`.
pub fn shuffled_needed(permutations: u64, alpha: f64) -> usize {
    (2 * MIN_SEGMENT..200).find(|&n| smallest_p(n, permutations) <= alpha).unwrap_or(200)
}

/// Why measurements cannot form one history.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum HistoryError {
    #[error("a history needs at least 2 measurements (distinct dataset folders); {0} given")]
    TooFew(usize),
    #[error(
        "the measurements lead with different metrics, {list}: a history follows one metric (dataset.toml: report.headline, percentile)"
    )]
    Metric { list: String },
    #[error("{first} is of the history {a:?} and {second} of {b:?} (dataset.toml: history.series): a history follows one series")]
    Series { first: String, a: String, second: String, b: String },
    #[error("--by revision: {dataset} names no revision (dataset.toml: [history] revision = \"...\")")]
    NoRevision { dataset: String },
    #[error("{first} and {second} are both revision {revision:?}: --by revision needs one measurement per revision")]
    SameRevision { first: String, second: String, revision: String },
}

/// The seed of a condition's failure series differs from its metric series' by this.
const FAILURE_SEED: u64 = 0x9e37_79b9_7f4a_7c15;

/// The history of `measurements` (each a built report), ordered by `order`; `allow_env` keys may
/// differ between measurements.
pub fn history(measurements: &[Report], order: Order, allow_env: &[String]) -> Result<HistoryReport, HistoryError> {
    if measurements.len() < 2 {
        return Err(HistoryError::TooFew(measurements.len()));
    }
    let (sorted, by) = order::ordered(measurements, order)?;
    let newest = sorted[sorted.len() - 1];
    let metric = Metric::of(newest);
    one_metric(&sorted)?;
    let named: Vec<(&str, &str)> =
        sorted.iter().filter_map(|m| m.dataset.history.as_ref().map(|h| (m.dataset.name.as_str(), h.series.as_str()))).collect();
    if let Some(&(first, a)) = named.first() {
        if let Some(&(second, b)) = named.iter().find(|(_, s)| *s != a) {
            return Err(HistoryError::Series { first: first.into(), a: a.into(), second: second.into(), b: b.into() });
        }
    }
    let series = named.first().map_or_else(|| "history".to_string(), |(_, s)| s.to_string());

    let listed: Vec<Measurement> = sorted
        .iter()
        .enumerate()
        .map(|(i, m)| Measurement {
            number: i + 1,
            dataset: m.dataset.name.clone(),
            title: m.dataset.title.clone(),
            measured: m.dataset.measured.clone(),
            revision: m.dataset.history.as_ref().and_then(|h| h.revision.clone()),
            started_at: order::started_at(m).map(|(_, text)| text.to_string()),
            ok_runs: m.runs.iter().filter(|r| r.status == RunStatus::Ok).count(),
        })
        .collect();
    let environment_changes = environment::changes(&sorted, &newest.dataset.must_match, allow_env);
    let set_aside = environment::set_aside(&sorted);
    let aside: HashSet<&str> = set_aside.iter().map(|s| s.factor.as_str()).collect();

    // Every condition of any measurement, by its id without the factors set aside, in the order
    // they first appear from the newest back.
    let keyed: Vec<HashMap<String, &ConditionResult>> =
        sorted.iter().map(|m| m.conditions.iter().map(|c| (key(c, &aside), c)).collect()).collect();
    let mut ids: Vec<String> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for m in sorted.iter().rev() {
        for c in &m.conditions {
            let id = key(c, &aside);
            if seen.insert(id.clone()) {
                ids.push(id);
            }
        }
    }
    let full = permutations_for(ids.len());
    let q = family_q(ids.len());
    let share = metric.headline.is_share();
    let (mut conditions, run_failures): (Vec<ConditionHistory>, Vec<Vec<Vec<RunFailures>>>) =
        ids.iter().map(|id| condition_runs(&sorted, &keyed, id, metric, &aside)).unzip();
    let metric_family: Vec<(Vec<f64>, u64)> =
        conditions.iter().map(|c| (measurement_means(c, share), segment::seed(&c.condition_id))).collect();
    let failure_family: Vec<(Vec<f64>, u64)> =
        conditions.iter().map(|c| (failure_shares(c), segment::seed(&c.condition_id) ^ FAILURE_SEED)).collect();
    // Log values are tested against normal measurement means, shares against their own shuffles.
    let mut normal = null::NormalNull::new(full);
    let found = segment::family(&metric_family, q, full, if share { segment::Null::Shuffle } else { segment::Null::Normal(&mut normal) });
    let found_failures = segment::family(&failure_family, q, full, segment::Null::Shuffle);
    let judge = Judge { margin: newest.standing.threshold, q, share, higher_is_better: metric.headline.higher_is_better() };
    // A change found alone passes at Benjamini-Hochberg's first threshold, q/m.
    let alone = (q / conditions.len().max(1) as f64).min(FALSE_FINDINGS_PER_CONDITION);
    for (i, c) in conditions.iter_mut().enumerate() {
        c.p_first = found.first[i];
        c.p_first_failures = found_failures.first[i];
        let numbers: Vec<usize> = c.measurements.iter().map(|m| m.number).collect();
        if !share {
            c.mean_spread = mean_spread(&metric_family[i].0, &found.splits[i]);
            c.detectable_step = c.mean_spread.and_then(|sd| normal.detectable(numbers.len(), alone).map(|d| (d * sd).exp()));
        }
        let mut changes = Vec::new();
        for (before, after, p) in spans(&numbers, &found.splits[i]) {
            let critical = if share { None } else { Some(normal.critical(before.len() + after.len(), found.threshold)) };
            changes.extend(judge.change(c, &run_failures[i], before, after, p, false, critical, &environment_changes));
        }
        let numbers: Vec<usize> = c.failures.iter().map(|f| f.number).collect();
        for (before, after, p) in spans(&numbers, &found_failures.splits[i]) {
            let at = (before[before.len() - 1], after[0]);
            if !changes.iter().any(|ch: &Change| (ch.before, ch.after) == at) {
                let critical = if share { None } else { Some(normal.critical(before.len() + after.len(), found_failures.threshold)) };
                changes.extend(judge.change(c, &run_failures[i], before, after, p, true, critical, &environment_changes));
            }
        }
        changes.sort_by_key(|ch| (ch.after, ch.before));
        c.changes = changes;
        c.labels = super::compare::level_labels_of(newest, &c.factors);
    }
    let all_changes = || conditions.iter().flat_map(|c| &c.changes);
    let summary = HistorySummary {
        measurements: listed.len(),
        conditions: conditions.len(),
        changes: all_changes().count(),
        worse: all_changes().filter(|c| c.worse).count(),
        better: all_changes().filter(|c| !c.worse && !c.undecided).count(),
        incomparable: environment_changes.iter().any(|e| e.differing.iter().any(|d| !d.allowed)),
        too_few: if share { smallest_p(sorted.len(), full) > q / conditions.len().max(1) as f64 } else { sorted.len() < 2 * MIN_SEGMENT },
    };
    let test_smallest_p = if share { smallest_p(sorted.len(), full) } else { normal.smallest_p(sorted.len()) };
    Ok(HistoryReport {
        schema_version: HISTORY_SCHEMA_VERSION,
        series,
        series_named: !named.is_empty(),
        by,
        duplicates: Vec::new(),
        set_aside,
        metric: metric.name(),
        higher_is_better: metric.headline.higher_is_better(),
        thresholds: HistoryThresholds {
            fdr_q: q,
            min_segment: MIN_SEGMENT,
            min_permutations: if share { MIN_PERMUTATIONS.min(full) } else { normal.draws(sorted.len()) },
            permutations: if share { full } else { normal.draws(sorted.len()) },
            interval_level: difference::INTERVAL_LEVEL,
            error_share: judge.margin,
            smallest_p: test_smallest_p,
            test: if share { HistoryTest::Shuffled } else { HistoryTest::NormalMeans },
            cut_off: found.threshold,
            shuffled_from: (2 * MIN_SEGMENT..400).find(|&n| segment::shuffles_reach(n, alone)).unwrap_or(400),
            min_measurements: if share { shuffled_needed(full, q / conditions.len().max(1) as f64) } else { 2 * MIN_SEGMENT },
            detect_power: DETECT_POWER,
            detect_within: WITHIN,
            detect_alpha: alone,
        },
        measurements: listed,
        must_match: newest.dataset.must_match.clone(),
        environment_changes,
        conditions,
        summary,
        headline: newest.headline,
        factors: newest.factors.clone(),
    })
}

/// An error naming every metric the measurements lead with and which lead with each, when they
/// lead with more than one.
fn one_metric(sorted: &[&Report]) -> Result<(), HistoryError> {
    let mut by_metric: Vec<(String, Vec<&str>)> = Vec::new();
    for m in sorted {
        let name = Metric::of(m).name();
        match by_metric.iter_mut().find(|(n, _)| *n == name) {
            Some((_, names)) => names.push(&m.dataset.name),
            None => by_metric.push((name, vec![&m.dataset.name])),
        }
    }
    if by_metric.len() < 2 {
        return Ok(());
    }
    let list: Vec<String> = by_metric.iter().map(|(metric, names)| format!("{metric} ({})", names.join(", "))).collect();
    Err(HistoryError::Metric { list: list.join(", ") })
}

/// A condition's id without the factors set aside (its own id when it has none of them).
fn key(c: &ConditionResult, aside: &HashSet<&str>) -> String {
    if !c.factors.keys().any(|f| aside.contains(f.as_str())) {
        return c.id.clone();
    }
    let pairs = crate::model::parse_condition_pairs(&c.id).unwrap_or_default();
    crate::model::condition_id(pairs.iter().filter(|(f, _)| !aside.contains(f.as_str())).map(|(f, v)| (f.as_str(), v.as_str())))
}

/// A condition's ok runs in every measurement that has any with a value of the metric, its
/// failures in every measurement that counted requests of it, and the runs' failure counts per
/// measurement of `failures` (for the judgement of a change).
fn condition_runs(
    sorted: &[&Report],
    keyed: &[HashMap<String, &ConditionResult>],
    id: &str,
    metric: Metric,
    aside: &HashSet<&str>,
) -> (ConditionHistory, Vec<Vec<RunFailures>>) {
    let mut factors = std::collections::BTreeMap::new();
    let mut measurements = Vec::new();
    let mut counted = Vec::new();
    let mut run_failures = Vec::new();
    let mut all_failed = Vec::new();
    let share = metric.headline.is_share();
    for (i, m) in sorted.iter().enumerate() {
        let Some(c) = keyed[i].get(id) else { continue };
        factors = c.factors.iter().filter(|(f, _)| !aside.contains(f.as_str())).map(|(f, v)| (f.clone(), v.clone())).collect();
        let indices: Vec<usize> = c.runs.iter().filter_map(|run| m.run_index(run)).collect();
        let runs: Vec<RunValue> = indices
            .iter()
            .filter_map(|&r| {
                let value = metric.of_run(&m.runs[r]).filter(|v| v.is_finite() && (*v > 0.0 || (share && *v >= 0.0)))?;
                Some(RunValue { run_id: m.runs[r].run_id.clone(), value })
            })
            .collect();
        let own: Vec<RunFailures> = indices.iter().filter_map(|&r| failures::of_run(&m.runs[r])).collect();
        if !own.is_empty() {
            let side = failures::side(&own);
            if side.requests > 0 && side.errors == side.requests {
                all_failed.push(i + 1);
            }
            counted.push(MeasurementFailures { number: i + 1, requests: side.requests, errors: side.errors });
            run_failures.push(own);
        }
        if let Some(spread) = crate::report::Spread::of(&runs.iter().map(|r| r.value).collect::<Vec<_>>()) {
            measurements.push(MeasurementRuns { number: i + 1, runs, median: spread.median, min: spread.min, max: spread.max });
        }
    }
    let history = ConditionHistory {
        condition_id: id.to_string(),
        factors,
        measurements,
        failures: counted,
        all_failed,
        p_first: None,
        p_first_failures: None,
        mean_spread: None,
        detectable_step: None,
        changes: Vec::new(),
        labels: Vec::new(),
    };
    (history, run_failures)
}

/// Each measurement's mean of its runs' logs (of the values themselves for a share metric).
fn measurement_means(c: &ConditionHistory, share: bool) -> Vec<f64> {
    let of = |v: f64| if share { v } else { v.ln() };
    c.measurements.iter().map(|m| m.runs.iter().map(|r| of(r.value)).sum::<f64>() / m.runs.len() as f64).collect()
}

/// The standard deviation of a series' measurement means about the means of the segments its
/// splits make (pooled, so a change found does not count as spread); `None` without two values
/// more than segments.
fn mean_spread(values: &[f64], splits: &[(usize, f64)]) -> Option<f64> {
    let bounds: Vec<usize> = std::iter::once(0).chain(splits.iter().map(|&(k, _)| k)).chain(std::iter::once(values.len())).collect();
    let mut squares = 0.0;
    for w in bounds.windows(2) {
        let part = &values[w[0]..w[1]];
        let mean = part.iter().sum::<f64>() / part.len().max(1) as f64;
        squares += part.iter().map(|v| (v - mean).powi(2)).sum::<f64>();
    }
    let df = values.len().checked_sub(bounds.len() - 1).filter(|df| *df > 0)?;
    let sd = (squares / df as f64).sqrt();
    sd.is_finite().then_some(sd)
}

/// Each measurement's share of failed requests; empty (nothing to test) when none failed.
fn failure_shares(c: &ConditionHistory) -> Vec<f64> {
    if c.failures.iter().all(|f| f.errors == 0) {
        return Vec::new();
    }
    c.failures.iter().map(|f| f.errors as f64 / f.requests as f64).collect()
}

/// The measurements (numbers) before and after each split of a series whose values are of the
/// measurements `numbers`, up to the neighbouring splits, with the split's p.
fn spans<'a>(numbers: &'a [usize], splits: &'a [(usize, f64)]) -> impl Iterator<Item = (&'a [usize], &'a [usize], f64)> + 'a {
    let bounds: Vec<usize> = std::iter::once(0).chain(splits.iter().map(|&(k, _)| k)).chain(std::iter::once(numbers.len())).collect();
    splits.iter().enumerate().map(move |(j, &(k, p))| (&numbers[bounds[j]..k], &numbers[k..bounds[j + 2]], p))
}

/// How a change found is judged.
struct Judge {
    /// The newest measurement's `thresholds.error_share`.
    margin: f64,
    /// The family's false discovery rate, which a change's failure test is held to.
    q: f64,
    share: bool,
    higher_is_better: bool,
}

impl Judge {
    /// The change between the measurements `before` and `after` (numbers, each side up to the
    /// neighbouring changes), failures first; `None` for a change of the failures
    /// (`by_failures`) within the margin.
    #[allow(clippy::too_many_arguments)]
    fn change(
        &self,
        c: &ConditionHistory,
        run_failures: &[Vec<RunFailures>],
        before: &[usize],
        after: &[usize],
        p: f64,
        by_failures: bool,
        critical: Option<f64>,
        env: &[EnvironmentChange],
    ) -> Option<Change> {
        let (b, a) = (before[before.len() - 1], after[0]);
        let within = |side: &[usize], n: usize| side[0] <= n && n <= side[side.len() - 1];
        let values = |side: &[usize]| -> Vec<f64> {
            let mut out = Vec::new();
            for m in c.measurements.iter().filter(|m| within(side, m.number)) {
                let logs = m.runs.iter().map(|r| if self.share { r.value } else { r.value.ln() });
                out.push(logs.sum::<f64>() / m.runs.len() as f64);
            }
            out
        };
        let (x, y) = (values(before), values(after));
        let (observed_ratio, ratio, low, high) = if x.is_empty() || y.is_empty() {
            (None, None, None, None)
        } else if self.share {
            let (mx, my) = (x.iter().sum::<f64>() / x.len() as f64, y.iter().sum::<f64>() / y.len() as f64);
            let ratio = (mx > 0.0).then(|| my / mx);
            (ratio, ratio, None, None)
        } else {
            let observed = selected_step(&x, &y, critical.unwrap_or(0.0));
            let raw = (y.iter().sum::<f64>() / y.len() as f64 - x.iter().sum::<f64>() / x.len() as f64).exp();
            match observed {
                Some((point, low, high)) => (Some(raw), Some(point.exp()), Some(low.exp()), Some(high.exp())),
                None => (Some(raw), Some(raw), None, None),
            }
        };
        let side_runs = |side: &[usize]| -> Vec<RunFailures> {
            c.failures.iter().zip(run_failures).filter(|(f, _)| within(side, f.number)).flat_map(|(_, runs)| runs.iter().copied()).collect()
        };
        let mut compared = failures::compare(&side_runs(before), &side_runs(after));
        compared.fdr_supported = by_failures || compared.p.is_some_and(|p| p <= self.q);
        let verdict = failures::verdict(&compared, self.margin);
        let (worse, decided_by, undecided) = match verdict {
            FailureVerdict::Rise | FailureVerdict::NoResponses => (true, DecidedBy::Failures, false),
            FailureVerdict::Fall => (false, DecidedBy::Failures, false),
            FailureVerdict::NotShown => (false, DecidedBy::Failures, true),
            FailureVerdict::Within | FailureVerdict::NoData if by_failures => return None,
            FailureVerdict::Within | FailureVerdict::NoData => {
                let ratio = ratio?;
                (if self.higher_is_better { ratio < 1.0 } else { ratio > 1.0 }, DecidedBy::Metric, false)
            }
        };
        Some(Change {
            before: b,
            after: a,
            ratio,
            observed_ratio,
            low,
            high,
            p,
            persisted_for: after.len(),
            environment_changed: env.iter().any(|e| e.before < a && e.after > b),
            worse,
            decided_by,
            failures: FailureShift { before: compared.base.share, after: compared.cand.share, p: compared.p, verdict },
            undecided,
        })
    }
}

/// The step between the mean logs `x` (before) and `y` (after), corrected for the split having
/// been chosen for reaching `critical` ([`null::selected`]), with its interval; `None` when a side
/// has one value or neither varies.
fn selected_step(x: &[f64], y: &[f64], critical: f64) -> Option<(f64, f64, f64)> {
    let (n1, n2) = (x.len() as f64, y.len() as f64);
    if x.len() + y.len() < 3 || x.is_empty() || y.is_empty() {
        return None;
    }
    let (mx, my) = (x.iter().sum::<f64>() / n1, y.iter().sum::<f64>() / n2);
    let squares = x.iter().map(|v| (v - mx).powi(2)).sum::<f64>() + y.iter().map(|v| (v - my).powi(2)).sum::<f64>();
    let df = n1 + n2 - 2.0;
    let se = (squares / df * (1.0 / n1 + 1.0 / n2)).sqrt();
    if !(se > 0.0 && se.is_finite()) {
        return None;
    }
    Some(null::selected(my - mx, se, df, critical, difference::INTERVAL_LEVEL))
}

#[cfg(test)]
mod tests;
