//! How a run's load was offered, which decides what words and rules apply to it.

use serde::Serialize;

/// How a run's requests were sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LoadKind {
    /// Each request had its own scheduled send time (the model study's probe, vegeta, k6's
    /// arrival rates): its rows record a send lag, and the run has a schedule lag.
    OpenLoop,
    /// Each client sent its next request when the last one finished (ab, hey, wrk): every
    /// request is load, there is no schedule and no lag.
    ClosedLoop,
    /// Sessions of several requests each (sessions.csv), as seed 003's client ran them.
    Sessions,
}

impl LoadKind {
    /// The load kind of a run from what its rows and tables hold: sessions when it has sessions,
    /// else open loop when any request left later than scheduled, else closed loop (closed-loop
    /// writers record the send time as the scheduled time).
    pub fn of(has_sessions: bool, max_lag_ms: Option<f64>) -> LoadKind {
        if has_sessions {
            LoadKind::Sessions
        } else if max_lag_ms.is_some_and(|lag| lag > 0.0) {
            LoadKind::OpenLoop
        } else {
            LoadKind::ClosedLoop
        }
    }

    /// Whether the run loaded the machine itself for its whole length (closed loops and sessions
    /// run as fast as the server answers), so the host load after it says nothing of anyone else.
    pub fn loads_the_host(self) -> bool {
        self != LoadKind::OpenLoop
    }
}
