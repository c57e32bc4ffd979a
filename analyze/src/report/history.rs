//! `analyze history`'s results: the measurements of one study in order, every run of every
//! condition a point, and the changes found between measurements. One plain struct, computed
//! once by `stats::history`; history.json is its serialization and the pages and charts render
//! it.

use super::compare::EnvDifference;
use crate::model::Text;
use serde::Serialize;
use std::collections::BTreeMap;

/// Version of the history.json layout; bumped when a field changes meaning.
pub const HISTORY_SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, Serialize)]
pub struct HistoryReport {
    pub schema_version: u32,
    /// The series' name (dataset.toml's `history.series`, shared by every measurement), or
    /// `history` when no measurement names one.
    pub series: String,
    /// Whether a measurement named the series; otherwise the pages call the history by the newest
    /// measurement's title.
    #[serde(skip)]
    pub series_named: bool,
    /// What orders the measurements: `started_at` (the earliest run) or `revision`.
    pub by: &'static str,
    /// The metric the runs are followed by: the measurements' headline (`p95`, `requests_per_s`).
    pub metric: String,
    pub higher_is_better: bool,
    /// The rules the changes were found by.
    pub thresholds: HistoryThresholds,
    /// The measurements, oldest first.
    pub measurements: Vec<Measurement>,
    /// The rules the environments are held to: the newest measurement's `comparability.must_match`.
    pub must_match: Vec<String>,
    /// Between consecutive measurements, the `[environment]` keys that must match and differ.
    pub environment_changes: Vec<EnvironmentChange>,
    /// Per condition, its runs and the changes found.
    pub conditions: Vec<ConditionHistory>,
    pub summary: HistorySummary,
    /// The headline metric, for the views.
    #[serde(skip)]
    pub headline: crate::model::HeadlineMetric,
    /// The newest measurement's factors, for the labels.
    #[serde(skip)]
    pub factors: Vec<super::FactorInfo>,
}

#[derive(Debug, Clone, Serialize)]
pub struct HistoryThresholds {
    /// The false discovery rate Benjamini-Hochberg holds over the conditions' first splits.
    pub fdr_q: f64,
    /// The fewest measurements on either side of a change: a change must persist.
    pub min_segment: usize,
    /// The relabellings of each permutation test.
    pub permutations: u64,
    /// The confidence level of each change's interval.
    pub interval_level: f64,
    /// The smallest p the first test of the whole history can give (`stats::history::smallest_p`).
    pub smallest_p: f64,
}

/// One measurement (a dataset).
#[derive(Debug, Clone, Serialize)]
pub struct Measurement {
    /// 1-based, in order.
    pub number: usize,
    /// The dataset's folder name.
    pub dataset: String,
    pub title: Text,
    pub measured: Option<String>,
    /// dataset.toml's `history.revision`.
    pub revision: Option<String>,
    /// Its earliest run's start.
    pub started_at: Option<String>,
    /// Its ok runs, over every condition.
    pub ok_runs: usize,
}

/// Keys that must match, differing between measurement `after - 1` and `after`.
#[derive(Debug, Clone, Serialize)]
pub struct EnvironmentChange {
    /// The later measurement's number.
    pub after: usize,
    pub differing: Vec<EnvDifference>,
}

/// One condition across the measurements.
#[derive(Debug, Clone, Serialize)]
pub struct ConditionHistory {
    pub condition_id: String,
    pub factors: BTreeMap<String, String>,
    /// Per measurement that has ok runs of it: its runs' values, median and range.
    pub measurements: Vec<MeasurementRuns>,
    /// The permutation p of the strongest split over the whole history (`None` when it has fewer
    /// than twice `min_segment` measurements), before the false-discovery rule.
    pub p_first: Option<f64>,
    /// The changes found, oldest first.
    pub changes: Vec<Change>,
    #[serde(skip)]
    pub labels: Vec<Text>,
}

#[derive(Debug, Clone, Serialize)]
pub struct MeasurementRuns {
    /// The measurement's number.
    pub number: usize,
    pub runs: Vec<super::compare::RunValue>,
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

/// A change between two consecutive measurements that hold the condition.
#[derive(Debug, Clone, Serialize)]
pub struct Change {
    /// Between measurement `before` and `after` (numbers; consecutive among those with runs of
    /// the condition).
    pub before: usize,
    pub after: usize,
    /// The ratio of the geometric means of the measurements after (up to the next change) over
    /// those before (back to the previous one), each measurement's geometric mean of its runs
    /// one value, with its 95% Welch interval.
    pub ratio: f64,
    pub low: f64,
    pub high: f64,
    /// The permutation p of the split, which measurements of its segment were shuffled for.
    pub p: f64,
    /// How many measurements the new level held for, up to the next change or the newest.
    pub persisted_for: usize,
    /// Whether the environment changed between the two (a key that must match), so the change
    /// may be the machine's: named in `environment_changes`.
    pub environment_changed: bool,
    /// Whether the new level is the worse one.
    pub worse: bool,
}

#[derive(Debug, Clone, Serialize, Default)]
pub struct HistorySummary {
    pub measurements: usize,
    pub conditions: usize,
    pub changes: usize,
    pub worse: usize,
    pub better: usize,
    /// Whether any environment change is not allowed (`--allow-env`): the exit status is 3.
    pub incomparable: bool,
}
