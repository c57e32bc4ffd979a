//! Cause hints: where the data carries the mark of a known cause, that cause and the figures that
//! show it ([`crate::report::hints`]). Each is a hint, not a measured cause: the rules below read
//! latencies, send times, throughput and CPU, never the kernel's queues. A condition gets a hint
//! only where its data shows one; most get none.
//!
//! **SYN retransmits** (a listen backlog that overflowed). A connection whose first SYN finds the
//! listen backlog full is dropped and retried by the client's kernel after its initial
//! retransmission timeout, 1 s on Linux, then after 2 s more (3 s in all), then 4 s more (7 s):
//! its request takes a timeout plus its usual time. Per run, over its 2xx latencies: the *slow*
//! ones are those at or above the first timeout ([`SYN_TIMEOUTS_MS`]); the *near* ones lie in
//! `[T, T + SYN_WINDOW_MS)` of a timeout T, the *below* ones in `[T - SYN_WINDOW_MS, T)`. A run
//! shows the cluster when it has at least [`SYN_MIN_SLOW`] slow requests, at least [`SYN_MOST`] of
//! them near a timeout, at most [`SYN_GAP`] as many below the timeouts as near them (the cluster
//! starts at the timeout, as a retransmit does, rather than being the top of a slow body), and its
//! slow requests are at most [`SYN_TAIL_SHARE`] of its 2xx responses (a tail, not the run). A
//! server merely slow at 1.2 s everywhere fails the last two; slow requests spread evenly from 0.5
//! to 5 s fail the second and the third.
//!
//! **Warm-up.** Per run with at least [`WARM_UP_MIN_REQUESTS`] 2xx responses whose rows time
//! their sends finely ([`super::throughput::sends_resolved`], the rule requests/s from rows
//! follows): the first [`WARM_UP_FIRST_SHARE`] of its 2xx responses by send time (ties in file
//! order) against the rest, each by its nearest-rank p50 ([`super::percentile`]). A run shows a
//! warm-up when the first p50 is more than [`WARM_UP_RATIO`] times the rest's and more than
//! [`WARM_UP_FLOOR_MS`] above it. Send times are kept only for a report ([`crate::dataset::Keep::Points`]),
//! so `analyze check` judges no warm-up.
//!
//! Both of these hint a condition when more than half of its judged ok runs show it (so one odd
//! run of three does not).
//!
//! **Saturation.** For a numeric factor whose name says it is the load's concurrency
//! ([`CONCURRENCY_NAMES`]), among conditions equal in every other factor whose ok runs are all
//! closed loops: the lowest level `a` and the highest level `b ≥` [`SATURATION_MIN_STEP`]` · a`
//! such that the median requests/s at `b` is less than `1 +` [`SATURATION_MAX_GAIN`] times that at
//! `a`, while the median mean latency rose by at least [`SATURATION_LITTLE_SHARE`] of what Little's
//! law predicts for a saturated closed loop (latency ∝ concurrency / throughput). One hint per
//! group of otherwise-equal conditions. It reads the conditions' figures the report already has.
//!
//! **Starved server.** The variance review's starved flags ([`super::variance::starved_limit`],
//! `FlagKind::Starved`), gathered per condition: the rule is the review's, not a second one.
//!
//! The load tool's own CPU is not a hint: resources.csv records the server's process groups only.

use super::percentile::Sample;
use crate::model::{LoadKind, Percentile, RunStatus};
use crate::report::hints::{Evidence, Hint, Saturation, Starved, StarvedRun, SynRetransmit, WarmUp};
use crate::report::review::{Flag, FlagKind};
use crate::report::{ConditionResult, FactorInfo, RunResult, Spread};

/// Linux's SYN retransmission timeouts, as the time since the first SYN (ms): 1 s, then 1 + 2 s,
/// then 1 + 2 + 4 s.
pub const SYN_TIMEOUTS_MS: [f64; 3] = [1000.0, 3000.0, 7000.0];
/// How far above a timeout a request counts as near it (ms): a retransmitted connection's
/// request takes the timeout plus its usual time, which is this much at most.
pub const SYN_WINDOW_MS: f64 = 500.0;
/// The fewest slow requests a run needs to show a cluster.
pub const SYN_MIN_SLOW: u64 = 3;
/// The least share of the slow requests that must lie near a timeout.
pub const SYN_MOST: f64 = 0.8;
/// The most requests just below the timeouts, as a share of those just above.
pub const SYN_GAP: f64 = 0.25;
/// The most of a run's 2xx responses its slow ones may be.
pub const SYN_TAIL_SHARE: f64 = 0.5;

/// The fewest 2xx responses a run needs for its warm-up to be judged.
pub const WARM_UP_MIN_REQUESTS: u64 = 200;
/// The share of a run's 2xx responses, by send time, taken as its first.
pub const WARM_UP_FIRST_SHARE: f64 = 0.1;
/// How many times the rest's p50 the first p50 must exceed.
pub const WARM_UP_RATIO: f64 = 1.5;
/// How far (ms) the first p50 must lie above the rest's, so whole-ms latencies of 1 and 2 ms do
/// not make a warm-up.
pub const WARM_UP_FLOOR_MS: f64 = 1.0;

/// Factor names (lower case, contained in the name) that say a factor is the load's concurrency.
pub const CONCURRENCY_NAMES: [&str; 5] = ["concurrency", "connections", "clients", "users", "vus"];
/// The least ratio of the two levels compared: concurrency at least doubles.
pub const SATURATION_MIN_STEP: f64 = 2.0;
/// Throughput that gains less than this share over the step has stopped rising.
pub const SATURATION_MAX_GAIN: f64 = 0.1;
/// The least share of Little's law's predicted rise of the mean latency that must be measured: a
/// closed loop's clients are not all waiting on the server all the time (the tool's own turn
/// between requests), so the measured rise falls short of the law's (0.78 of it for http.server
/// from c=1 to c=10); at half, a doubling would pass on a latency that merely did not fall.
pub const SATURATION_LITTLE_SHARE: f64 = 0.7;

/// What a run's 2xx latencies say of SYN retransmits.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SynRun {
    pub responses: u64,
    pub slow: u64,
    pub near: u64,
    pub below: u64,
    /// The fastest and slowest near one; `None` without.
    pub near_range_ms: Option<(f64, f64)>,
    /// Per timeout of [`SYN_TIMEOUTS_MS`], whether a request lies near it.
    pub near_timeout: [bool; 3],
}

impl SynRun {
    /// Counts a run's 2xx latencies (any order).
    pub fn of(latencies_ms: &[f64]) -> SynRun {
        let mut run = SynRun { responses: latencies_ms.len() as u64, ..SynRun::default() };
        for &latency in latencies_ms {
            if latency >= SYN_TIMEOUTS_MS[0] {
                run.slow += 1;
            }
            for (t, &timeout) in SYN_TIMEOUTS_MS.iter().enumerate() {
                if (timeout..timeout + SYN_WINDOW_MS).contains(&latency) {
                    run.near += 1;
                    run.near_timeout[t] = true;
                    run.near_range_ms =
                        Some(run.near_range_ms.map_or((latency, latency), |(low, high)| (low.min(latency), high.max(latency))));
                } else if (timeout - SYN_WINDOW_MS..timeout).contains(&latency) {
                    run.below += 1;
                }
            }
        }
        run
    }

    /// Whether the run shows the cluster (the module's rule).
    pub fn shows(&self) -> bool {
        self.slow >= SYN_MIN_SLOW
            && self.near as f64 >= SYN_MOST * self.slow as f64
            && self.below as f64 <= SYN_GAP * self.near as f64
            && self.slow as f64 <= SYN_TAIL_SHARE * self.responses as f64
    }
}

/// A condition's SYN cluster from its ok runs with 2xx latencies, when more than half show it.
pub fn syn_retransmit(runs: &[SynRun]) -> Option<SynRetransmit> {
    let judged: Vec<&SynRun> = runs.iter().filter(|r| r.responses > 0).collect();
    let showing = judged.iter().filter(|r| r.shows()).count();
    if showing * 2 <= judged.len() {
        return None;
    }
    let ranges = judged.iter().filter_map(|r| r.near_range_ms);
    let (low, high) = ranges.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), (a, b)| (l.min(a), h.max(b)));
    Some(SynRetransmit {
        runs: showing,
        of: judged.len(),
        slow_from_ms: SYN_TIMEOUTS_MS[0],
        slow: judged.iter().map(|r| r.slow).sum(),
        near: judged.iter().map(|r| r.near).sum(),
        near_min_ms: low,
        near_max_ms: high,
        timeouts_ms: SYN_TIMEOUTS_MS
            .iter()
            .enumerate()
            .filter(|(t, _)| judged.iter().any(|r| r.near_timeout[*t]))
            .map(|(_, &v)| v)
            .collect(),
    })
}

/// A run's first requests by send time against the rest: each part's nearest-rank p50.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WarmUpRun {
    pub first_p50_ms: f64,
    pub rest_p50_ms: f64,
}

impl WarmUpRun {
    /// Whether the run shows a warm-up (the module's rule).
    pub fn shows(&self) -> bool {
        self.rest_p50_ms > 0.0
            && self.first_p50_ms > WARM_UP_RATIO * self.rest_p50_ms
            && self.first_p50_ms - self.rest_p50_ms > WARM_UP_FLOOR_MS
    }
}

/// The p50 of a run's first [`WARM_UP_FIRST_SHARE`] of 2xx responses by send time and of the
/// rest; `sent_ms` in step with `latencies_ms`. `None` below [`WARM_UP_MIN_REQUESTS`] or without
/// send times. Holds one copy of the send times at a time (reused for the rest's latencies) and
/// the first part's latencies.
pub fn warm_up_of_run(latencies_ms: &[f64], sent_ms: &[f64]) -> Option<WarmUpRun> {
    let n = latencies_ms.len();
    if (n as u64) < WARM_UP_MIN_REQUESTS || sent_ms.len() != n {
        return None;
    }
    let first_n = ((n as f64 * WARM_UP_FIRST_SHARE).ceil() as usize).clamp(1, n - 1);
    let mut buffer = sent_ms.to_vec();
    let cutoff = *buffer.select_nth_unstable_by(first_n - 1, f64::total_cmp).1;
    // Those sent at the cutoff itself join the first part in file order until it is full.
    let mut ties = first_n - sent_ms.iter().filter(|&&s| s < cutoff).count();
    let mut first = Vec::with_capacity(first_n);
    buffer.clear();
    for (&latency, &sent) in latencies_ms.iter().zip(sent_ms) {
        let tie = sent == cutoff && ties > 0;
        if tie {
            ties -= 1;
        }
        if sent < cutoff || tie {
            first.push(latency);
        } else {
            buffer.push(latency);
        }
    }
    let p50 = |values: &mut Vec<f64>| Some(Sample::new(values)?.percentiles(&[Percentile::P50])[0].value);
    Some(WarmUpRun { first_p50_ms: p50(&mut first)?, rest_p50_ms: p50(&mut buffer)? })
}

/// A condition's warm-up from its judged ok runs' figures, when more than half show one.
pub fn warm_up(runs: &[WarmUpRun]) -> Option<WarmUp> {
    let showing: Vec<&WarmUpRun> = runs.iter().filter(|r| r.shows()).collect();
    if showing.len() * 2 <= runs.len() {
        return None;
    }
    let spread = |f: &dyn Fn(&WarmUpRun) -> f64| Spread::of(&showing.iter().map(|r| f(r)).collect::<Vec<f64>>());
    Some(WarmUp {
        runs: showing.len(),
        of: runs.len(),
        first_share: WARM_UP_FIRST_SHARE,
        first_p50_ms: spread(&|r| r.first_p50_ms)?,
        rest_p50_ms: spread(&|r| r.rest_p50_ms)?,
        ratio: spread(&|r| r.first_p50_ms / r.rest_p50_ms)?,
    })
}

/// Whether a factor is the load's concurrency: numeric, and named so.
pub fn is_concurrency(factor: &FactorInfo) -> bool {
    let name = factor.name.to_lowercase();
    factor.is_numeric() && CONCURRENCY_NAMES.iter().any(|n| name.contains(n))
}

/// The saturation hints: per concurrency factor and group of conditions equal in the others.
pub fn saturation(factors: &[FactorInfo], conditions: &[ConditionResult], runs: &[RunResult]) -> Vec<Hint> {
    // Per condition: whether it has an ok run, and whether every one is a closed loop (one pass).
    let mut closed = vec![(false, true); conditions.len()];
    for run in runs.iter().filter(|r| r.status == RunStatus::Ok) {
        if let Some((any, all)) = closed.get_mut(run.condition) {
            *any = true;
            *all &= run.load == LoadKind::ClosedLoop;
        }
    }
    let closed = |c: usize| closed[c] == (true, true);
    let mut hints = Vec::new();
    for (f, factor) in factors.iter().enumerate().filter(|(_, f)| is_concurrency(f)) {
        let mut groups: std::collections::BTreeMap<Vec<usize>, Vec<(f64, usize)>> = Default::default();
        for (c, condition) in conditions.iter().enumerate() {
            let Ok(level) = factor.levels[condition.levels[f]].value.trim().parse::<f64>() else { continue };
            if level > 0.0 && condition.requests_per_s.is_some() && condition.mean_ms.is_some() && closed(c) {
                let mut others = condition.levels.clone();
                others.remove(f);
                groups.entry(others).or_default().push((level, c));
            }
        }
        for mut group in groups.into_values() {
            group.sort_by(|a, b| a.0.total_cmp(&b.0));
            // The lowest level a plateau starts from, and the highest level it reaches.
            let found = group.iter().enumerate().find_map(|(i, &(from, a))| {
                group[i + 1..]
                    .iter()
                    .rev()
                    .find_map(|&(to, b)| plateau(factor, &conditions[a], &conditions[b], from, to).map(|e| (a, b, e)))
            });
            if let Some((a, b, evidence)) = found {
                hints.push(Hint {
                    conditions: vec![a, b],
                    condition_ids: vec![conditions[a].id.clone(), conditions[b].id.clone()],
                    evidence: Evidence::Saturation(evidence),
                });
            }
        }
    }
    hints
}

/// The evidence of a plateau from level `from` (condition `a`) to `to` (`b`), when the rule holds.
fn plateau(factor: &FactorInfo, a: &ConditionResult, b: &ConditionResult, from: f64, to: f64) -> Option<Saturation> {
    let (rate_a, rate_b) = (a.requests_per_s?.median, b.requests_per_s?.median);
    let (mean_a, mean_b) = (a.mean_ms?.median, b.mean_ms?.median);
    if rate_a <= 0.0 || rate_b <= 0.0 || mean_a <= 0.0 {
        return None;
    }
    let step = to / from;
    let predicted = step * rate_a / rate_b;
    let latency_ratio = mean_b / mean_a;
    let holds = step >= SATURATION_MIN_STEP
        && rate_b < (1.0 + SATURATION_MAX_GAIN) * rate_a
        && latency_ratio >= SATURATION_LITTLE_SHARE * predicted;
    let level = |c: &ConditionResult| c.factors.get(&factor.name).cloned().unwrap_or_default();
    holds.then(|| Saturation {
        factor: factor.name.clone(),
        from_level: level(a),
        to_level: level(b),
        concurrency_ratio: step,
        from_requests_per_s: rate_a,
        to_requests_per_s: rate_b,
        requests_per_s_change: rate_b / rate_a - 1.0,
        from_mean_ms: mean_a,
        to_mean_ms: mean_b,
        latency_ratio,
        predicted_ratio: predicted,
    })
}

/// The variance review's starved flags, per condition in condition order.
pub fn starved(flags: &[Flag], runs: &[RunResult], conditions: &[ConditionResult]) -> Vec<Hint> {
    let mut by_condition: std::collections::BTreeMap<usize, Starved> = Default::default();
    let condition_of: std::collections::HashMap<&str, usize> = runs.iter().map(|r| (r.run_id.as_str(), r.condition)).collect();
    for flag in flags {
        let FlagKind::Starved { share, median, limit } = flag.kind else { continue };
        let Some(&condition) = condition_of.get(flag.run_id.as_str()) else { continue };
        let entry = by_condition.entry(condition).or_insert_with(|| Starved {
            runs: Vec::new(),
            of: conditions[condition].runs.len(),
            median,
            limit,
        });
        entry.runs.push(StarvedRun { run_id: flag.run_id.clone(), share });
    }
    by_condition
        .into_iter()
        .map(|(c, evidence)| Hint {
            conditions: vec![c],
            condition_ids: vec![conditions[c].id.clone()],
            evidence: Evidence::Starved(evidence),
        })
        .collect()
}

/// Every hint of a report. `syn` and `warm_ups` are per run (report order): what each run's
/// requests say, `None` for a run whose warm-up is not judged.
pub fn hints(
    factors: &[FactorInfo],
    runs: &[RunResult],
    conditions: &[ConditionResult],
    flags: &[Flag],
    syn: &[SynRun],
    warm_ups: &[Option<WarmUpRun>],
) -> Vec<Hint> {
    // Each condition's ok runs (indices, report order), in one pass.
    let mut ok_of: Vec<Vec<usize>> = vec![Vec::new(); conditions.len()];
    for (i, run) in runs.iter().enumerate().filter(|(_, r)| r.status == RunStatus::Ok) {
        ok_of[run.condition].push(i);
    }
    let one = |c: usize, evidence: Evidence| Hint { conditions: vec![c], condition_ids: vec![conditions[c].id.clone()], evidence };
    let mut hints = Vec::new();
    for (c, ok) in ok_of.iter().enumerate() {
        let runs_syn: Vec<SynRun> = ok.iter().filter_map(|&i| syn.get(i).copied()).collect();
        hints.extend(syn_retransmit(&runs_syn).map(|e| one(c, Evidence::SynRetransmit(e))));
        let runs_warm: Vec<WarmUpRun> = ok.iter().filter_map(|&i| warm_ups.get(i).copied().flatten()).collect();
        hints.extend(warm_up(&runs_warm).map(|e| one(c, Evidence::WarmUp(e))));
    }
    hints.extend(saturation(factors, conditions, runs));
    hints.extend(starved(flags, runs, conditions));
    hints.sort_by_key(|h| (h.evidence.order(), h.conditions.clone()));
    hints
}

#[cfg(test)]
mod tests;
