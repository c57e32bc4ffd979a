//! `analyze history`: when a measured condition changed, across many measurements of one study.
//!
//! Every run is a point; a measurement (one dataset, one sitting) is the unit a change is found
//! between. Per condition, each measurement's runs give the mean of their logs, μ_i. A split of a
//! segment of measurements at k is scored by Welch-free pooled t on those means,
//! |mean(μ after) - mean(μ before)| / (s·sqrt(1/n₁ + 1/n₂)), with s² the pooled variance of the
//! μ about their own side's mean; the strongest split of the segment is tested by permuting the
//! segment's measurements (whole measurements, with their runs: runs of one sitting share that
//! sitting, so shuffling runs one by one would call every day-to-day wobble a change) and
//! re-taking the strongest split each time, p = (1 + as strong) / (1 + permutations). Binary
//! segmentation (each test stops once [`SEQUENTIAL_STOP`] shuffles were as strong, Besag and
//! Clifford's sequential p): the whole history of each condition is tested first and Benjamini-Hochberg at
//! [`family_q`] runs over those first tests of every condition; a condition that passes is
//! split, and each part with room for a split is tested in turn at the threshold the first
//! tests' rule gave, up to [`MAX_CHANGES`] changes. A change must persist: both sides of a split
//! hold at least [`MIN_SEGMENT`] measurements, so the newest measurement alone never makes one.
//! Each change is reported between the two measurements it falls between, with the ratio of the
//! geometric means of the measurements after and before it (up to the neighbouring changes) and
//! its 95% Welch interval on their μ.
//!
//! The permutations are drawn with a seed taken from the condition's id, so the same measurements
//! give the same history.

use super::compare::Metric;
use super::difference;
use crate::model::RunStatus;
use crate::report::compare::RunValue;
use crate::report::history::*;
use crate::report::Report;

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
/// The fewest measurements on each side of a change.
pub const MIN_SEGMENT: usize = 2;
/// The most changes reported for one condition.
pub const MAX_CHANGES: usize = 8;
/// The fewest permutations of a test; more when many conditions share the false-discovery rule,
/// so its per-test threshold can still be reached (`permutations_for`).
pub const MIN_PERMUTATIONS: u64 = 1999;

/// The permutations each test draws for `conditions` conditions: enough that the smallest p,
/// 1 / (1 + permutations), lies at a fifth of the first threshold Benjamini-Hochberg sets.
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

/// Why measurements cannot form one history.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum HistoryError {
    #[error("a history needs at least 2 measurements; {0} given")]
    TooFew(usize),
    #[error(
        "{dataset} leads with {its}, the others with {metric}: a history follows one metric (dataset.toml: report.headline, percentile)"
    )]
    Metric { dataset: String, its: String, metric: String },
    #[error("{first} is of the history {a:?} and {second} of {b:?} (dataset.toml: history.series): a history follows one series")]
    Series { first: String, a: String, second: String, b: String },
    #[error("--by revision: {dataset} names no revision (dataset.toml: [history] revision = \"...\")")]
    NoRevision { dataset: String },
    #[error("{first} and {second} are both revision {revision:?}: --by revision needs one measurement per revision")]
    SameRevision { first: String, second: String, revision: String },
}

/// How the measurements are ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// By the start of each measurement's earliest run.
    StartedAt,
    /// By `history.revision`, numbers within it compared as numbers (v1.9 before v1.10).
    Revision,
}

impl Order {
    fn name(self) -> &'static str {
        match self {
            Order::StartedAt => "started_at",
            Order::Revision => "revision",
        }
    }
}

/// The history of `measurements` (each a built report), ordered by `order`; `allow_env` keys may
/// differ between consecutive measurements.
pub fn history(measurements: &[Report], order: Order, allow_env: &[String]) -> Result<HistoryReport, HistoryError> {
    if measurements.len() < 2 {
        return Err(HistoryError::TooFew(measurements.len()));
    }
    let sorted = ordered(measurements, order)?;
    let newest = sorted[sorted.len() - 1];
    let metric = Metric::of(newest);
    for m in &sorted {
        if Metric::of(m).name() != metric.name() {
            return Err(HistoryError::Metric { dataset: m.dataset.name.clone(), its: Metric::of(m).name(), metric: metric.name() });
        }
    }
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
            started_at: started_at(m),
            ok_runs: m.runs.iter().filter(|r| r.status == RunStatus::Ok).count(),
        })
        .collect();
    let environment_changes: Vec<EnvironmentChange> = sorted
        .windows(2)
        .enumerate()
        .filter_map(|(i, pair)| {
            let c = super::comparability::check(
                &pair[1].dataset.must_match,
                &pair[0].dataset.environment,
                &pair[1].dataset.environment,
                allow_env,
            );
            (!c.differing.is_empty()).then(|| EnvironmentChange { after: i + 2, differing: c.differing })
        })
        .collect();

    // Every condition of any measurement, in the order they first appear from the newest back.
    let mut ids: Vec<&str> = Vec::new();
    for m in sorted.iter().rev() {
        for c in &m.conditions {
            if !ids.contains(&c.id.as_str()) {
                ids.push(&c.id);
            }
        }
    }
    let permutations = permutations_for(ids.len());
    let mut conditions: Vec<ConditionHistory> = ids.iter().map(|id| condition_runs(&sorted, id, metric)).collect();
    let means: Vec<Vec<f64>> = conditions.iter().map(measurement_means).collect();
    let first: Vec<Option<(usize, f64)>> = conditions
        .iter()
        .zip(&means)
        .map(|(c, mu)| {
            strongest_split(mu, 0, mu.len()).map(|(k, t)| (k, permutation_p(mu, 0, mu.len(), t, permutations, seed(&c.condition_id))))
        })
        .collect();
    let tested: Vec<usize> = (0..conditions.len()).filter(|&i| first[i].is_some()).collect();
    let p: Vec<f64> = tested.iter().map(|&i| first[i].unwrap().1).collect();
    let q = family_q(ids.len());
    let passes = difference::benjamini_hochberg(&p, q);
    // The per-test threshold the rule gave: the largest p it passed.
    let threshold = tested.iter().zip(&passes).filter(|(_, &pass)| pass).map(|(&i, _)| first[i].unwrap().1).fold(0.0, f64::max);
    for (i, c) in conditions.iter_mut().enumerate() {
        c.p_first = first[i].map(|(_, p)| p);
        let Some((k, p)) = first[i] else { continue };
        if !tested.iter().zip(&passes).any(|(&t, &pass)| t == i && pass) {
            continue;
        }
        let mu = &means[i];
        let mut splits = vec![(k, p)];
        let mut pending = vec![(0, k), (k, mu.len())];
        while let Some((lo, hi)) = pending.pop() {
            if splits.len() >= MAX_CHANGES {
                break;
            }
            let Some((k, t)) = strongest_split(mu, lo, hi) else { continue };
            let p = permutation_p(mu, lo, hi, t, permutations, seed(&c.condition_id) ^ ((lo as u64) << 20) ^ hi as u64);
            if p <= threshold {
                splits.push((k, p));
                pending.extend([(lo, k), (k, hi)]);
            }
        }
        splits.sort_by_key(|&(k, _)| k);
        c.changes = changes(c, mu, &splits, metric.headline.higher_is_better(), &environment_changes);
    }
    let summary = HistorySummary {
        measurements: listed.len(),
        conditions: conditions.len(),
        changes: conditions.iter().map(|c| c.changes.len()).sum(),
        worse: conditions.iter().flat_map(|c| &c.changes).filter(|c| c.worse).count(),
        better: conditions.iter().flat_map(|c| &c.changes).filter(|c| !c.worse).count(),
        incomparable: environment_changes.iter().any(|e| e.differing.iter().any(|d| !d.allowed)),
    };
    for c in &mut conditions {
        c.labels = super::compare::level_labels_of(newest, &c.factors);
    }
    Ok(HistoryReport {
        schema_version: HISTORY_SCHEMA_VERSION,
        series,
        series_named: !named.is_empty(),
        by: order.name(),
        metric: metric.name(),
        higher_is_better: metric.headline.higher_is_better(),
        thresholds: HistoryThresholds {
            fdr_q: q,
            min_segment: MIN_SEGMENT,
            permutations,
            interval_level: difference::INTERVAL_LEVEL,
            smallest_p: smallest_p(sorted.len(), permutations),
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

/// The measurements in order; an error when `--by revision` cannot order them.
fn ordered(measurements: &[Report], order: Order) -> Result<Vec<&Report>, HistoryError> {
    let mut sorted: Vec<&Report> = measurements.iter().collect();
    match order {
        Order::StartedAt => sorted.sort_by(|a, b| started_at(a).cmp(&started_at(b)).then_with(|| a.dataset.name.cmp(&b.dataset.name))),
        Order::Revision => {
            let revision = |m: &Report| m.dataset.history.as_ref().and_then(|h| h.revision.clone());
            if let Some(m) = sorted.iter().find(|m| revision(m).is_none()) {
                return Err(HistoryError::NoRevision { dataset: m.dataset.name.clone() });
            }
            sorted.sort_by(|a, b| natural(&revision(a).unwrap_or_default(), &revision(b).unwrap_or_default()));
            for pair in sorted.windows(2) {
                if revision(pair[0]) == revision(pair[1]) {
                    return Err(HistoryError::SameRevision {
                        first: pair[0].dataset.name.clone(),
                        second: pair[1].dataset.name.clone(),
                        revision: revision(pair[0]).unwrap_or_default(),
                    });
                }
            }
        }
    }
    Ok(sorted)
}

/// The earliest start of a measurement's runs (RFC 3339 in UTC, which sorts as text).
fn started_at(m: &Report) -> Option<String> {
    m.runs.iter().map(|r| r.started_at_utc.clone()).filter(|s| !s.is_empty()).min()
}

/// Text order with runs of digits compared as numbers: "v1.9" < "v1.10".
pub fn natural(a: &str, b: &str) -> std::cmp::Ordering {
    let (mut x, mut y) = (a.as_bytes(), b.as_bytes());
    loop {
        match (x.first(), y.first()) {
            (None, None) => return std::cmp::Ordering::Equal,
            (None, _) => return std::cmp::Ordering::Less,
            (_, None) => return std::cmp::Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let digits = |s: &[u8]| s.iter().take_while(|c| c.is_ascii_digit()).count();
                let (n, m) = (digits(x), digits(y));
                let (p, q) = (std::str::from_utf8(&x[..n]).unwrap_or("0"), std::str::from_utf8(&y[..m]).unwrap_or("0"));
                let (p, q) = (p.trim_start_matches('0'), q.trim_start_matches('0'));
                let ordering = p.len().cmp(&q.len()).then_with(|| p.cmp(q));
                if ordering != std::cmp::Ordering::Equal {
                    return ordering;
                }
                x = &x[n..];
                y = &y[m..];
            }
            (Some(c), Some(d)) if c != d => return c.cmp(d),
            _ => {
                x = &x[1..];
                y = &y[1..];
            }
        }
    }
}

/// A condition's ok runs in every measurement that has any with a value of the metric.
fn condition_runs(sorted: &[&Report], id: &str, metric: Metric) -> ConditionHistory {
    let mut factors = Default::default();
    let mut measurements = Vec::new();
    for (i, m) in sorted.iter().enumerate() {
        let Some(c) = m.conditions.iter().find(|c| c.id == id) else { continue };
        factors = c.factors.clone();
        let runs: Vec<RunValue> = c
            .runs
            .iter()
            .filter_map(|run| m.run_index(run))
            .filter_map(|r| {
                metric.of_run(&m.runs[r]).filter(|v| *v > 0.0).map(|value| RunValue { run_id: m.runs[r].run_id.clone(), value })
            })
            .collect();
        let Some(spread) = crate::report::Spread::of(&runs.iter().map(|r| r.value).collect::<Vec<_>>()) else { continue };
        measurements.push(MeasurementRuns { number: i + 1, runs, median: spread.median, min: spread.min, max: spread.max });
    }
    ConditionHistory { condition_id: id.to_string(), factors, measurements, p_first: None, changes: Vec::new(), labels: Vec::new() }
}

/// Each measurement's mean of its runs' logs.
fn measurement_means(c: &ConditionHistory) -> Vec<f64> {
    c.measurements.iter().map(|m| m.runs.iter().map(|r| r.value.ln()).sum::<f64>() / m.runs.len() as f64).collect()
}

/// The strongest split of `mu[lo..hi]` with [`MIN_SEGMENT`] on each side: its place (the first
/// index after it) and score; `None` without room for one.
fn strongest_split(mu: &[f64], lo: usize, hi: usize) -> Option<(usize, f64)> {
    best_of(&mu[lo..hi]).map(|(k, t)| (lo + k, t))
}

/// The place and score of the strongest split of `values`, by prefix sums.
fn best_of(values: &[f64]) -> Option<(usize, f64)> {
    let n = values.len();
    if n < 2 * MIN_SEGMENT {
        return None;
    }
    let (total, total_sq) = values.iter().fold((0.0, 0.0), |(s, q), v| (s + v, q + v * v));
    let (mut sum, mut sum_sq) = (0.0, 0.0);
    let mut best: Option<(usize, f64)> = None;
    for k in 1..n {
        sum += values[k - 1];
        sum_sq += values[k - 1] * values[k - 1];
        if k < MIN_SEGMENT || n - k < MIN_SEGMENT {
            continue;
        }
        let score = score(k, sum, sum_sq, n - k, total - sum, total_sq - sum_sq);
        if best.is_none_or(|(_, b)| score > b) {
            best = Some((k, score));
        }
    }
    best
}

/// The pooled t of two groups from their counts, sums and sums of squares.
fn score(n1: usize, s1: f64, q1: f64, n2: usize, s2: f64, q2: f64) -> f64 {
    let (a, b) = (n1 as f64, n2 as f64);
    let (m1, m2) = (s1 / a, s2 / b);
    let squares = (q1 - s1 * m1).max(0.0) + (q2 - s2 * m2).max(0.0);
    let pooled = squares / (a + b - 2.0);
    let difference = (m2 - m1).abs();
    let se = (pooled * (1.0 / a + 1.0 / b)).sqrt();
    // Sums of squares are exact only to their rounding: below it, the segments do not vary.
    let noise = 1e-12 * (q1 + q2).abs().max(1e-300);
    if squares <= noise {
        return if difference > 1e-12 * (m1.abs() + m2.abs()).max(1e-300) { f64::INFINITY } else { 0.0 };
    }
    difference / se
}

/// Shuffles as strong as the observed split after which a test stops early (Besag and Clifford's
/// sequential p, 1991): an unchanged condition reaches them within a few dozen shuffles, so only a
/// changed one pays for all of them.
pub const SEQUENTIAL_STOP: u64 = 20;

/// The permutation p of the strongest split of `mu[lo..hi]` scoring `observed`: the share of up to
/// `permutations` shuffles at least as strong, (1 + as strong) / (1 + shuffles); or, once
/// [`SEQUENTIAL_STOP`] shuffles were as strong, that many over the shuffles drawn.
fn permutation_p(mu: &[f64], lo: usize, hi: usize, observed: f64, permutations: u64, seed: u64) -> f64 {
    let mut values = mu[lo..hi].to_vec();
    let mut rng = super::random::SplitMix64(seed);
    let tolerance = 1e-9 * observed.abs().min(1e300);
    let mut as_strong = 0u64;
    for drawn in 1..=permutations {
        for i in (1..values.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            values.swap(i, j);
        }
        if best_of(&values).is_some_and(|(_, t)| t >= observed - tolerance) {
            as_strong += 1;
            if as_strong == SEQUENTIAL_STOP {
                return as_strong as f64 / drawn as f64;
            }
        }
    }
    (1 + as_strong) as f64 / (1 + permutations) as f64
}

/// A seed from a condition's id (FNV-1a), so each condition's permutations are its own and
/// repeatable.
fn seed(id: &str) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The changes at `splits` (places in `mu`), each with its ratio and interval against the
/// neighbouring splits.
fn changes(c: &ConditionHistory, mu: &[f64], splits: &[(usize, f64)], higher_is_better: bool, env: &[EnvironmentChange]) -> Vec<Change> {
    let bounds: Vec<usize> = std::iter::once(0).chain(splits.iter().map(|&(k, _)| k)).chain(std::iter::once(mu.len())).collect();
    splits
        .iter()
        .enumerate()
        .map(|(j, &(k, p))| {
            let (lo, hi) = (bounds[j], bounds[j + 2]);
            let before: Vec<f64> = mu[lo..k].iter().map(|v| v.exp()).collect();
            let after: Vec<f64> = mu[k..hi].iter().map(|v| v.exp()).collect();
            let ratio = difference::geometric_mean_ratio(&before, &after).unwrap_or(f64::NAN);
            let (low, high) = difference::log_ratio(&before, &after).map_or((ratio, ratio), |r| (r.low, r.high));
            let (b, a) = (c.measurements[k - 1].number, c.measurements[k].number);
            Change {
                before: b,
                after: a,
                ratio,
                low,
                high,
                p,
                persisted_for: hi - k,
                environment_changed: env.iter().any(|e| e.after > b && e.after <= a),
                worse: if higher_is_better { ratio < 1.0 } else { ratio > 1.0 },
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
