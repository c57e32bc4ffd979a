//! What conditions are compared by, and where a run's throughput figures come from: the choices
//! dataset.toml's `[report]` makes.

use serde::{Deserialize, Serialize};

/// The run statistic conditions are compared by. Named as in summary.json's `runs[]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum HeadlineMetric {
    /// The headline percentile of the 2xx latencies (dataset.toml's `percentile`): lower is better.
    #[default]
    Percentile,
    /// `runs[].requests_per_s`: higher is better.
    RequestsPerS,
    /// `runs[].error_rate`: lower is better.
    ErrorRate,
    /// `runs[].sessions.failed_share`, the share of sessions that failed (seed 003's "Errors"):
    /// lower is better. Needs sessions.csv.
    FailedShare,
    /// `runs[].sessions.mean_ms`, the mean time of the sessions that succeeded (seed 003's
    /// "Average Time"): lower is better. Needs sessions.csv.
    SessionMeanMs,
}

impl HeadlineMetric {
    pub const ALL: [HeadlineMetric; 5] = [
        HeadlineMetric::Percentile,
        HeadlineMetric::RequestsPerS,
        HeadlineMetric::ErrorRate,
        HeadlineMetric::FailedShare,
        HeadlineMetric::SessionMeanMs,
    ];

    /// Whether a larger value is the better one.
    pub fn higher_is_better(self) -> bool {
        self == HeadlineMetric::RequestsPerS
    }

    pub fn is_percentile(&self) -> bool {
        *self == HeadlineMetric::Percentile
    }

    /// Whether the values are shares (0 to 1), shown in %.
    pub fn is_share(self) -> bool {
        matches!(self, HeadlineMetric::ErrorRate | HeadlineMetric::FailedShare)
    }

    /// Whether the values are times in ms.
    pub fn is_time(self) -> bool {
        matches!(self, HeadlineMetric::Percentile | HeadlineMetric::SessionMeanMs)
    }

    /// Whether the metric reads sessions.csv.
    pub fn needs_sessions(self) -> bool {
        matches!(self, HeadlineMetric::FailedShare | HeadlineMetric::SessionMeanMs)
    }

    /// The name dataset.toml and summary.json use.
    pub fn name(self) -> &'static str {
        match self {
            HeadlineMetric::Percentile => "percentile",
            HeadlineMetric::RequestsPerS => "requests_per_s",
            HeadlineMetric::ErrorRate => "error_rate",
            HeadlineMetric::FailedShare => "failed_share",
            HeadlineMetric::SessionMeanMs => "session_mean_ms",
        }
    }
}

/// The source of a run's requests/s, error rate and mean time per request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ThroughputFrom {
    /// Computed from the rows; the tool's figures only for a run without rows.
    #[default]
    Rows,
    /// The tool's printed figures (run_stats.csv) wherever it printed them: for tools whose
    /// rows time the sends coarser than the tool timed the run (ab's -g: whole seconds).
    Tool,
}
