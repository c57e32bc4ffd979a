//! `analyze history`'s results: the measurements of one study in order, every run of every
//! condition a point, and the changes found between measurements. One plain struct, computed
//! once by `stats::history`; history.json is its serialization and the pages and charts render
//! it.

use crate::model::Text;
use serde::Serialize;
use std::collections::BTreeMap;

/// Version of the history.json layout; bumped when a field changes meaning.
/// 2: `by` may be `dataset_name`; environment changes name both measurements and each key's
/// `before` and `after`; changes say what decided them (`decided_by`) and the failures beside
/// them; conditions list their failures; `duplicates` and `set_aside`.
/// 3: log series are tested against normal measurement means (`thresholds.test`); `ratio`, `low`
/// and `high` are corrected for the split's selection (`observed_ratio` is not); each condition's
/// `mean_spread` and `detectable_step`; `thresholds.cut_off`, `min_measurements`, `detect_*`.
pub const HISTORY_SCHEMA_VERSION: u32 = 3;

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
    /// What orders the measurements: `started_at` (the earliest run's instant), `revision`, or
    /// `dataset_name` (the natural order of the folder names) when a measurement records no
    /// start.
    pub by: &'static str,
    /// Datasets given more than once (the same folder by another path), counted once.
    pub duplicates: Vec<Duplicate>,
    /// Factors some measurements lack and the others hold at one level: set aside, so a
    /// condition is one condition across them (as `analyze compare` sets such a factor aside).
    pub set_aside: Vec<SetAside>,
    /// The metric the runs are followed by: the measurements' headline (`p95`, `requests_per_s`).
    pub metric: String,
    pub higher_is_better: bool,
    /// The rules the changes were found by.
    pub thresholds: HistoryThresholds,
    /// The measurements, oldest first.
    pub measurements: Vec<Measurement>,
    /// The rules the environments are held to: the newest measurement's `comparability.must_match`.
    pub must_match: Vec<String>,
    /// The `[environment]` keys that must match and differ between two measurements that
    /// record them, with none recording them between.
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
    /// The shuffles every first test draws at most.
    pub min_permutations: u64,
    /// The shuffles a first test draws at most where the false-discovery rule needs a finer p.
    pub permutations: u64,
    /// The confidence level of each change's interval.
    pub interval_level: f64,
    /// The margin failed requests are judged by (the newest measurement's
    /// `thresholds.error_share`).
    pub error_share: f64,
    /// The smallest p the first test of the whole history can give: 1 / (1 + draws) against
    /// normal measurement means, `stats::history::smallest_p` for shuffled shares.
    pub smallest_p: f64,
    /// What a split's score is referred to.
    pub test: HistoryTest,
    /// The threshold every test was held to: Benjamini-Hochberg's cut-off R·q/m (q/m when none
    /// passed), never above 1% (the false findings a series may give).
    pub cut_off: f64,
    /// The fewest measurements a change can be found in: `min_segment` on each side for log
    /// values; for shares, the fewest whose shuffles reach the first threshold.
    pub min_measurements: usize,
    /// From this many measurements on a segment of log values is tested by shuffling whole
    /// measurements (their floor then lies at a fifth of the first threshold or below); below,
    /// against normal means.
    pub shuffled_from: usize,
    /// A series' detectable step is found this often...
    pub detect_power: f64,
    /// ...within this many measurements of its place...
    pub detect_within: usize,
    /// ...at this threshold (a change found alone: q/m).
    pub detect_alpha: f64,
}

/// What the strongest split of a series is tested against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HistoryTest {
    /// The strongest split of as many independent normal measurement means, simulated (log values).
    NormalMeans,
    /// Shuffles of whole measurements (shares, such as `error_rate`).
    Shuffled,
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

/// Keys that must match, differing between measurement `before` and `after` (the measurements
/// between record none of them).
#[derive(Debug, Clone, Serialize)]
pub struct EnvironmentChange {
    /// The earlier measurement's number.
    pub before: usize,
    /// The later measurement's number.
    pub after: usize,
    pub differing: Vec<KeyChange>,
}

/// One `[environment]` key's values on the two sides of an environment change.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct KeyChange {
    pub key: String,
    pub before: String,
    pub after: String,
    /// Allowed to differ (`--allow-env KEY`).
    pub allowed: bool,
}

/// A dataset given more than once.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Duplicate {
    /// The argument dropped, as given.
    pub given: String,
    /// The measurement's dataset it is the same folder as.
    pub same_as: String,
}

/// A factor set aside.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SetAside {
    pub factor: String,
    /// The one level the measurements that hold it hold it at.
    pub level: String,
    /// The numbers of the measurements that hold it.
    pub held_by: Vec<usize>,
}

/// One condition across the measurements.
#[derive(Debug, Clone, Serialize)]
pub struct ConditionHistory {
    pub condition_id: String,
    pub factors: BTreeMap<String, String>,
    /// Per measurement that has ok runs of it with a value of the metric: its runs' values,
    /// median and range.
    pub measurements: Vec<MeasurementRuns>,
    /// Per measurement that counted requests of it: its ok runs' requests and failures, pooled.
    pub failures: Vec<MeasurementFailures>,
    /// The measurements none of whose requests of it got a 2xx response: no value of a latency
    /// to follow, named rather than skipped.
    pub all_failed: Vec<usize>,
    /// The permutation p of the strongest split over the whole history (`None` when it has fewer
    /// than twice `min_segment` measurements), before the false-discovery rule.
    pub p_first: Option<f64>,
    /// The same for the measurements' shares of failed requests (`None` when none failed).
    pub p_first_failures: Option<f64>,
    /// The standard deviation of its measurement means (of their logs) within the segments its
    /// changes make: the spread a change must stand out from, its sittings' shifts included
    /// (`None` for a share metric or too few measurements).
    pub mean_spread: Option<f64>,
    /// The step (a ratio, ×) this series would find [`HistoryThresholds::detect_power`] of the
    /// time within `detect_within` measurements of its place, at its count of measurements and
    /// `mean_spread` (`None` where none can be found so often).
    pub detectable_step: Option<f64>,
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

/// A measurement's failed requests of one condition.
#[derive(Debug, Clone, Serialize)]
pub struct MeasurementFailures {
    pub number: usize,
    pub requests: u64,
    pub errors: u64,
}

/// The failed requests on the two sides of a change, judged as `analyze compare` judges them.
#[derive(Debug, Clone, Serialize)]
pub struct FailureShift {
    /// Shares of failed requests, pooled over each side's measurements.
    pub before: Option<f64>,
    pub after: Option<f64>,
    /// The p of Fisher's test on the overdispersed counts (`None` without two runs a side).
    pub p: Option<f64>,
    pub verdict: crate::model::FailureVerdict,
}

/// A change between two consecutive measurements that hold the condition.
#[derive(Debug, Clone, Serialize)]
pub struct Change {
    /// Between measurement `before` and `after` (numbers; consecutive among those with runs of
    /// the condition, or with counted requests for a change of its failures).
    pub before: usize,
    pub after: usize,
    /// The ratio of the geometric means of the measurements after (up to the next change) over
    /// those before (back to the previous one), each measurement's geometric mean of its runs
    /// one value, corrected for the split having been chosen because it was strong (the
    /// conditional median given the score reached the threshold, `stats::history::null`), with
    /// its 95% interval corrected the same way; `None` when a side has no value of the metric
    /// (every request failed) or, for a share metric, a side's values are all 0.
    pub ratio: Option<f64>,
    /// The ratio of the geometric means as measured, before the correction for the split having
    /// been chosen because it was strong (`ratio`, `low` and `high` are corrected).
    pub observed_ratio: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// The permutation p of the split, which measurements of its segment were shuffled for.
    pub p: f64,
    /// How many measurements the new level held for, up to the next change or the newest.
    pub persisted_for: usize,
    /// Whether the environment changed between the two (a key that must match), so the change
    /// may be the machine's: named in `environment_changes`.
    pub environment_changed: bool,
    /// Whether the new level is the worse one.
    pub worse: bool,
    /// What decided the direction: the failures (more or fewer requests failed, whatever the
    /// metric of those that succeeded) or the metric.
    pub decided_by: crate::model::DecidedBy,
    /// The failed requests on both sides; the change is `decided_by` them unless their verdict
    /// is `within` or `no_data`.
    pub failures: FailureShift,
    /// The failures differ beyond the margin without support: neither worse nor better.
    pub undecided: bool,
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
    /// Whether the measurements are too few for the smallest p a test can give to pass the
    /// false-discovery rule: "no change found" would say more than they can.
    pub too_few: bool,
}
