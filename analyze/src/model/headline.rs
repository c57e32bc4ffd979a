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
}

impl HeadlineMetric {
    pub const ALL: [HeadlineMetric; 3] = [HeadlineMetric::Percentile, HeadlineMetric::RequestsPerS, HeadlineMetric::ErrorRate];

    /// Whether a larger value is the better one.
    pub fn higher_is_better(self) -> bool {
        self == HeadlineMetric::RequestsPerS
    }

    pub fn is_percentile(&self) -> bool {
        *self == HeadlineMetric::Percentile
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
