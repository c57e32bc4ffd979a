//! Cause hints: where the data shows the mark of a known cause (SYN retransmits, a warm-up, a
//! saturated server, a server starved of CPU), that cause with the figures that show it. A hint
//! is not a measured cause: nothing in a dataset measures the listen backlog or the JIT. The
//! rules that fill these are `stats::hints`.

use super::{Millis, Spread};
use serde::Serialize;

/// One hint: the condition(s) it is about and its evidence.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hint {
    /// Indices into `conditions`: one condition, or for [`Evidence::Saturation`] the lower and
    /// the higher level of the concurrency factor, in that order.
    #[serde(skip)]
    pub conditions: Vec<usize>,
    /// Their ids, in the same order.
    pub condition_ids: Vec<String>,
    #[serde(flatten)]
    pub evidence: Evidence,
}

/// What a hint names and the figures that show it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Evidence {
    /// Requests slower than a second that lie just above the kernel's SYN retransmission
    /// timeouts: connections whose first SYN was dropped (a full listen backlog).
    SynRetransmit(SynRetransmit),
    /// The first requests of the runs, by send time, slower than the rest.
    WarmUp(WarmUp),
    /// Throughput that stops rising while concurrency (and with it latency) rises.
    Saturation(Saturation),
    /// Runs whose server got markedly less CPU than its condition's other runs (the variance
    /// review's starved flags, `FlagKind::Starved`, gathered per condition).
    Starved(Starved),
}

/// The SYN-retransmit cluster of one condition, over its ok runs with 2xx latencies.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SynRetransmit {
    /// The runs whose slow requests cluster, of the ok runs with 2xx latencies.
    pub runs: usize,
    pub of: usize,
    /// Where "slow" starts (ms): the first timeout.
    pub slow_from_ms: Millis,
    /// The 2xx responses at `slow_from_ms` or slower, over the `of` runs, and those of them just
    /// above a timeout.
    pub slow: u64,
    pub near: u64,
    /// The fastest and the slowest of the `near` ones.
    pub near_min_ms: Millis,
    pub near_max_ms: Millis,
    /// The timeouts (ms) with requests just above them, ascending.
    pub timeouts_ms: Vec<Millis>,
}

/// The warm-up of one condition: over the runs that show it, each run's p50 of its first requests
/// by send time and of the rest, and their ratio.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WarmUp {
    /// The runs that show it, of the ok runs judged (enough requests, sends timed finely).
    pub runs: usize,
    pub of: usize,
    /// The share of each run's 2xx responses, by send time, taken as its first (0.1).
    pub first_share: f64,
    pub first_p50_ms: Spread,
    pub rest_p50_ms: Spread,
    /// Each run's first p50 over its rest p50.
    pub ratio: Spread,
}

/// A plateau of throughput over levels of a concurrency factor, between two conditions otherwise
/// equal, each value the condition's median over its ok runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Saturation {
    /// The factor's name and its two levels, as runs.csv writes them.
    pub factor: String,
    pub from_level: String,
    pub to_level: String,
    /// The higher level over the lower.
    pub concurrency_ratio: f64,
    pub from_requests_per_s: f64,
    pub to_requests_per_s: f64,
    /// The higher level's requests/s over the lower's, less 1 (0.05: 5% more).
    pub requests_per_s_change: f64,
    pub from_mean_ms: Millis,
    pub to_mean_ms: Millis,
    /// The higher level's mean latency over the lower's.
    pub latency_ratio: f64,
    /// What Little's law predicts of it for a closed loop: the concurrency ratio over the
    /// throughput ratio.
    pub predicted_ratio: f64,
}

/// The runs of one condition flagged as starved, with the condition's median and lower limit of
/// the server's CPU share (CPU seconds per second of the load), as the variance review found them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Starved {
    pub runs: Vec<StarvedRun>,
    /// The condition's ok runs.
    pub of: usize,
    pub median: f64,
    pub limit: f64,
}

/// One starved run and its server's CPU share.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StarvedRun {
    pub run_id: String,
    pub share: f64,
}

impl Evidence {
    /// The order the hints are listed in, kind by kind.
    pub fn order(&self) -> u8 {
        match self {
            Evidence::SynRetransmit(_) => 0,
            Evidence::WarmUp(_) => 1,
            Evidence::Saturation(_) => 2,
            Evidence::Starved(_) => 3,
        }
    }
}
