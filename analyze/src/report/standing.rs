//! Which conditions fail and which is best: the one decision every sentence, order and colour of
//! the report follows, so no view can rank a condition that lost most of its sessions by the
//! latency of the few that succeeded. The rule that fills it is `stats::standing`.

use crate::model::Verdict;
use serde::Serialize;

/// The standing of every condition, and the best of each group the study compares.
#[derive(Debug, Clone, Serialize, Default, PartialEq)]
pub struct Standing {
    /// dataset.toml's `thresholds.error_share`: a condition whose share of errors (or of failed
    /// sessions) lies above it fails, and is never ranked.
    pub threshold: f64,
    /// Per condition, in the order of the report's conditions.
    pub conditions: Vec<ConditionStanding>,
    /// The groups the variance review pairs (the series at each x level, or the levels of the
    /// compared factor), in the same order, each with its failing conditions and its best.
    pub groups: Vec<StandingGroup>,
    /// The condition the report's time-series chart shows: the failing one with the largest
    /// share, else the worst by the headline metric.
    #[serde(skip)]
    pub worst: Option<usize>,
    pub worst_id: Option<String>,
}

/// How much of a condition failed: the median over its ok runs of each share it has.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ConditionStanding {
    pub condition_id: String,
    /// Requests without a 2xx response over requests (`error_rate`).
    pub error_share: Option<f64>,
    /// Sessions that failed over sessions (`sessions.failed_share`), when the dataset has sessions.
    pub failed_share: Option<f64>,
    /// Whether either share lies above the threshold.
    pub failing: bool,
}

impl ConditionStanding {
    /// The larger share above the threshold, and whether it counts sessions, for the words that
    /// say what a failing condition lost.
    pub fn failure(&self, threshold: f64) -> Option<(f64, bool)> {
        let sessions = self.failed_share.filter(|s| *s > threshold).map(|s| (s, true));
        let requests = self.error_share.filter(|s| *s > threshold).map(|s| (s, false));
        match (sessions, requests) {
            (Some(s), Some(r)) => Some(if s.0 >= r.0 { s } else { r }),
            (s, r) => s.or(r),
        }
    }
}

/// One group of compared conditions.
#[derive(Debug, Clone, Serialize, PartialEq, Default)]
pub struct StandingGroup {
    /// Its conditions (indices into the report's conditions), in display order.
    #[serde(skip)]
    pub conditions: Vec<usize>,
    /// The conditions that fail, in display order.
    #[serde(skip)]
    pub failing: Vec<usize>,
    /// The conditions that do not fail and have a headline value, best first (ties keep display
    /// order).
    #[serde(skip)]
    pub ranked: Vec<usize>,
    pub condition_ids: Vec<String>,
    pub failing_ids: Vec<String>,
    pub ranked_ids: Vec<String>,
    /// The first of `ranked` when at least two conditions are ranked.
    pub best: Option<String>,
    /// The variance review's verdict on the best against the next, when the review compared them.
    pub best_vs_next: Option<Verdict>,
    /// That comparison's ratio of geometric means as a factor of at least 1 (the worse over the
    /// better), however the metric is directed.
    pub best_vs_next_factor: Option<f64>,
    /// That comparison's 95% interval turned the same way as the factor: [low, high], the review's
    /// ends flipped and swapped (1/high, 1/low) when its ratio was below 1.
    pub best_vs_next_interval: Option<(f64, f64)>,
    /// The last of `ranked` when at least three are ranked, with the review's verdict on the best
    /// against it and the factor between them with its interval.
    pub worst: Option<String>,
    pub best_vs_worst: Option<Verdict>,
    pub best_vs_worst_factor: Option<f64>,
    pub best_vs_worst_interval: Option<(f64, f64)>,
}
