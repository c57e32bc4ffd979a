//! The results: one plain struct computed once from a dataset, from which every output (JSON,
//! CSV, Markdown, HTML, SVG) is rendered. Nothing downstream computes a statistic.
//!
//! Units are in the field names (`_ms`, `_s`, `_bytes`). Maps are `BTreeMap` so JSON key order
//! is stable. Fields under [`Figures`] are chart inputs (downsampled points) and are not
//! written to summary.json.
//!
//! This module and its children name what a report is made of (the variance review's words in
//! [`review`], the [`Spread`]; the shared vocabulary is in [`crate::model`]); `stats/` computes every value, and nothing
//! here imports from it.

pub mod compare;
pub mod hints;
pub mod history;
pub mod review;
pub mod slo;
pub mod standing;

use crate::model::{HeadlineMetric, Lang, LoadKind, Percentile, PublishedMetric, RunStatus, SortedMap, Text, Unit};
use review::VarianceReview;
use serde::Serialize;
use standing::Standing;
use std::collections::BTreeMap;

pub type Millis = f64;
pub type Seconds = f64;

/// Version of the summary.json layout; bumped when a field changes meaning.
pub const SCHEMA_VERSION: u32 = 4;

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub schema_version: u32,
    pub dataset: DatasetInfo,
    /// The headline percentile (95 unless dataset.toml says otherwise).
    pub percentile: Percentile,
    /// What conditions are compared by (dataset.toml's `report.headline`): the headline table,
    /// chart, representative runs and variance review. Written only when it is not the percentile.
    #[serde(skip_serializing_if = "HeadlineMetric::is_percentile")]
    pub headline: HeadlineMetric,
    /// What stands beside the headline value in the headline table and the lead (dataset.toml's
    /// `report.beside`), in that order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub beside: Vec<HeadlineMetric>,
    /// Whether the mean of the runs stands beside their median (dataset.toml's `report.mean_of_runs`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub mean_of_runs: bool,
    pub factors: Vec<FactorInfo>,
    pub layout: Layout,
    pub runs: Vec<RunResult>,
    pub conditions: Vec<ConditionResult>,
    pub integrity: Integrity,
    pub variance: VarianceReview,
    /// Which conditions fail (errors above `thresholds.error_share`) and which is best in each
    /// compared group: the one decision the lead, the tables and the charts follow.
    pub standing: Standing,
    /// dataset.toml's published tables beside the measured values, in the file's order.
    pub published: PublishedComparison,
    /// Where the data shows the mark of a known cause, that cause with its evidence
    /// (`stats::hints`): a hint, not a measured cause. Kind by kind, then condition by condition.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hints: Vec<hints::Hint>,
    /// The experiment's settings from plan.toml, flattened to dotted keys, sorted by key.
    pub setup: Vec<Setting>,
    /// What computed the per-run statistics and chart inputs when it was not analyze (the
    /// dataset's level1.json: Apache Spark and its version); absent when analyze read the rows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level1: Option<crate::dataset::precomputed::Engine>,
    /// The dataset's README.md (Markdown), rendered as its own page.
    #[serde(skip)]
    pub readme: Option<String>,
    /// The dataset's README.ja.md, rendered as the Japanese report's README page.
    #[serde(skip)]
    pub readme_ja: Option<String>,
    #[serde(skip)]
    pub figures: Figures,
    #[serde(skip)]
    pub run_lookup: RunLookup,
    /// The percentile keys the percentile tables show, in order: the standard ones and the
    /// headline's, those some condition has.
    #[serde(skip)]
    pub percentile_keys: Vec<String>,
    /// Of those, the keys whose rank is n in every ok run with responses: each run's maximum
    /// again, which no reader should take for a tail estimate.
    #[serde(skip)]
    pub percentiles_at_maximum: Vec<String>,
    /// How often the runs' CPU and memory were sampled, and the step a clock tick makes of a CPU
    /// share at that interval (`stats::resources::sampling`); `None` without samples.
    #[serde(skip)]
    pub resource_sampling: Option<ResourceSampling>,
}

/// The sampling of the runs' CPU and memory, for the words that state its limits: the median gap
/// of each run's process groups in whole milliseconds, lowest and highest over the runs, and the
/// step of a CPU share (in % of one core) that one clock tick makes at each.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResourceSampling {
    /// The kernel's clock tick, in ms: CPU time is counted in these.
    pub tick_ms: f64,
    pub interval_low_ms: f64,
    pub interval_high_ms: f64,
    /// The step at the highest interval (the finest) and at the lowest (the coarsest).
    pub step_fine_percent: f64,
    pub step_coarse_percent: f64,
}

impl Report {
    /// The index into `runs` of the run with this id.
    pub fn run_index(&self, run_id: &str) -> Option<usize> {
        self.run_lookup.0.get(run_id).copied()
    }
}

/// Each run's index in [`Report::runs`] by its id, built once with the runs: conditions, flags
/// and representative runs name runs by id (as summary.json does), and the views and charts find
/// their pages and points by index.
#[derive(Debug, Clone, Default)]
pub struct RunLookup(std::collections::HashMap<String, usize>);

impl RunLookup {
    pub fn of(runs: &[RunResult]) -> Self {
        Self(runs.iter().enumerate().map(|(i, run)| (run.run_id.clone(), i)).collect())
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct DatasetInfo {
    /// The folder name.
    pub name: String,
    pub title: Text,
    pub description: Option<Text>,
    pub default_lang: Lang,
    /// As dataset.toml says, else the date of the earliest run.
    pub measured: Option<String>,
    pub environment: BTreeMap<String, crate::model::Text>,
    pub large_response_bytes: Option<u64>,
    /// The sessions' step names, step 0 first (dataset.toml's `sessions.steps`); empty when it
    /// names none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub session_steps: Vec<Text>,
    /// The `[environment]` keys a measurement compared with this one must share (dataset.toml's
    /// `comparability.must_match`, else `model::DEFAULT_MUST_MATCH`).
    pub must_match: Vec<String>,
    /// dataset.toml's `[history]`: the series it belongs to and the revision measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history: Option<HistoryInfo>,
}

/// The history a measurement belongs to.
#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq)]
pub struct HistoryInfo {
    pub series: String,
    pub revision: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct FactorInfo {
    pub name: String,
    pub label: Text,
    pub levels: Vec<LevelInfo>,
}

impl FactorInfo {
    /// Whether the levels are ordered quantities (every value a number: concurrency, downloads),
    /// so a chart may join them by a line; names of servers, tools or interpreters are nominal.
    pub fn is_numeric(&self) -> bool {
        !self.levels.is_empty() && self.levels.iter().all(|l| l.value.trim().parse::<f64>().is_ok_and(f64::is_finite))
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct LevelInfo {
    pub value: String,
    pub label: Text,
}

/// How conditions are arranged in tables and charts: the x factor's levels are columns, each
/// combination of the other factors is a row (a series in the charts).
#[derive(Debug, Clone, Serialize)]
pub struct Layout {
    /// Index into `factors`; `None` when the dataset has no factor.
    pub x_factor: Option<usize>,
    pub series_factors: Vec<usize>,
    /// One row per series, in display order.
    pub rows: Vec<LayoutRow>,
}

#[derive(Debug, Clone, Serialize)]
pub struct LayoutRow {
    /// Per series factor, the level index.
    pub levels: Vec<usize>,
    /// Per x level (same order as the x factor's levels): the condition index, if any run has it.
    pub cells: Vec<Option<usize>>,
}

/// The statistics of one run. The parts most runs lack (sessions, an import's source, the tool's
/// numbers) are boxed: inline they were half of the struct's 1,176 bytes, held for every run.
#[derive(Debug, Clone, Serialize)]
pub struct RunResult {
    pub run_id: String,
    /// Index into `conditions`.
    pub condition: usize,
    /// Factor name to level, as text.
    pub factors: SortedMap<String, String>,
    pub repetition: i64,
    /// The run's round in a plan in rounds (runs.csv's `round`); absent for a shuffled plan's runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round: Option<i64>,
    #[serde(serialize_with = "crate::model::run_status::serialize")]
    pub status: RunStatus,
    pub note: crate::model::Note,
    pub started_at_utc: String,
    /// Requests in the run's rows (0 for a run imported from a tool's summary alone).
    pub requests: u64,
    /// The run's requests as counted: from its rows, else as its tool counted them
    /// ([`crate::stats::failures::counted`]): what every count of the run shows.
    pub requests_counted: Counted,
    /// 2xx responses: the values the percentiles rank.
    pub ok_responses: u64,
    /// Requests without a 2xx response (non-2xx plus no response).
    pub errors: u64,
    pub non_2xx: u64,
    pub no_response: u64,
    /// Count per HTTP status ("0" = no response).
    pub statuses: SortedMap<String, u64>,
    /// The p95 (always the 95th percentile, whatever the headline).
    pub p95_ms: Option<Millis>,
    pub p95_rank: Option<u64>,
    /// The headline percentile's value and rank.
    pub headline_ms: Option<Millis>,
    pub headline_rank: Option<u64>,
    /// p50, p90, p95, p99, p99.9 and the headline, keyed "50", "99.9", ...
    pub percentiles_ms: SortedMap<String, Millis>,
    pub percentile_ranks: SortedMap<String, u64>,
    /// The percentiles this run's ranked responses do not resolve ((p/100)^n > 2.5%,
    /// `stats::resolvable`), each with the fewest it needs: `"99.9": 3688` in a run of 72. Such a
    /// value cannot be told from the run's maximum; a page says "= max (needs ≥ 3,688 requests)".
    pub unresolved_percentiles: SortedMap<String, u64>,
    /// For a run without rows: the headline percentile as its tool printed it, else the
    /// percentile the tool printed in its place ([`crate::stats::printed`]); never ranked
    /// beside the runs' own headline values.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub headline_printed: Option<Box<PrintedHeadline>>,
    /// The slowest 2xx response.
    pub max_ms: Option<Millis>,
    /// The decimals of a ms its latencies are known to (0: whole ms), from the format its rows
    /// were imported from (`model::Format::latency_step_ms`); `None` when not known to be coarser
    /// than the report's default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency_decimals: Option<u8>,
    /// How the run's requests were sent: the words and rules that apply to it follow this.
    pub load: LoadKind,
    /// The largest send lag behind the schedule; `None` unless the run is an open loop.
    pub max_lag_ms: Option<Millis>,
    /// An open loop's 2xx latencies timed from the intended (scheduled) send,
    /// `latency_ms + (sent_ms - scheduled_ms)`: nearest-rank p50, p95, p99 and p99.9 keyed like
    /// `percentiles_ms`; `None` for closed loops and sessions, which have no intended send time,
    /// and for run-level tables without rows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_intended_ms: Option<SortedMap<String, Millis>>,
    /// The percentile where the intended-send value differs most from the service latency, when
    /// by more than `thresholds.negligible_difference`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intended_gap: Option<IntendedGap>,
    pub large_responses: u64,
    pub incomplete_large_responses: u64,
    pub write_s_median: Option<Seconds>,
    pub complete_s_median: Option<Seconds>,
    pub tempfile_peak_bytes: Option<u64>,
    pub resources: Vec<ProcessUsage>,
    pub load1_before: Option<f64>,
    pub load1_after: Option<f64>,
    /// The server's CPU seconds per wall second of the load (runs.csv's `server_cpu_share`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_cpu_share: Option<f64>,
    /// The run's sessions (sessions.csv), when the dataset has them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sessions: Option<Box<RunSessions>>,
    /// Responses per second: from the rows, responses over the span from the first send to the
    /// last completion; for a run without rows, the tool's printed figure (`throughput_from`).
    pub requests_per_s: Option<f64>,
    /// Errors over requests (0 to 1), from the rows, else from the tool's counts.
    pub error_rate: Option<f64>,
    /// Mean time per request (ms) of the 2xx responses, else the tool's printed mean.
    pub mean_ms: Option<Millis>,
    /// Where `requests_per_s` comes from: `rows`; `tool` (a run without rows, or dataset.toml's
    /// choice: then `error_rate` and `mean_ms` are the tool's too); `tool-coarse` (rows that time
    /// their sends too coarsely for the run's span: the rate is the tool's, the rest the rows').
    pub throughput_from: Option<&'static str>,
    /// Why a run with rows has no requests/s: its rows time their sends too coarsely (or not at
    /// all) and the tool printed none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rate_withheld: Option<RateWithheld>,
    /// An imported run's input files (sources.csv).
    pub source: Option<Box<RunSource>>,
    /// The numbers the tool printed (run_stats.csv), as printed, with its rank rule.
    pub tool_reported: Option<Box<ToolReported>>,
    /// Per label, when the dataset's requests have more than one (`stats::labels`), in the
    /// dataset's label order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<LabelResult>,
}

/// A run's requests and how many of them got no 2xx response, and who counted them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Counted {
    /// The requests.
    pub value: u64,
    /// Those without a 2xx response; `None` when the tool cannot count them (an HdrHistogram file).
    pub errors: Option<u64>,
    pub source: CountSource,
}

impl Counted {
    /// The 2xx responses, when the errors are known.
    pub fn ok_responses(&self) -> Option<u64> {
        self.errors.map(|errors| self.value.saturating_sub(errors))
    }

    /// The tool that counted them, when not the rows (a run without rows).
    pub fn tool(&self) -> Option<&str> {
        match &self.source {
            CountSource::Tool(tool) => Some(tool),
            CountSource::Rows | CountSource::ToolErrors(_) => None,
        }
    }

    /// The tool that counted the errors, when not the rows: a run without rows, or rows that
    /// cannot place the failures their tool counted.
    pub fn errors_by(&self) -> Option<&str> {
        match &self.source {
            CountSource::Tool(tool) | CountSource::ToolErrors(tool) => Some(tool),
            CountSource::Rows => None,
        }
    }

    /// The tool whose counted failures the rows cannot place (ab -g), when so.
    pub fn unplaced(&self) -> Option<&str> {
        match &self.source {
            CountSource::ToolErrors(tool) => Some(tool),
            CountSource::Rows | CountSource::Tool(_) => None,
        }
    }
}

/// Who counted a run's requests: its rows (`"rows"`), or its tool's summary (`"wrk summary"`),
/// or the rows with the errors of the tool's summary (`"rows + ab summary errors"`) when the rows
/// say no status and the tool counted failures among them (ab -g: which rows failed is unknown).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CountSource {
    Rows,
    /// The tool's name as run_stats.csv gives it.
    Tool(String),
    /// The requests are the rows' (as many as the tool counted), the errors the tool's.
    ToolErrors(String),
}

impl std::fmt::Display for CountSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CountSource::Rows => f.write_str("rows"),
            CountSource::Tool(tool) => write!(f, "{tool} summary"),
            CountSource::ToolErrors(tool) => write!(f, "rows + {tool} summary errors"),
        }
    }
}

impl Serialize for CountSource {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// A percentile a tool printed, standing for the headline of a run without rows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PrintedHeadline {
    /// The percentile's key ("95", "99"): the headline's when the tool printed it.
    pub percentile: String,
    pub value_ms: Millis,
    /// The rank the tool's rule takes, of `ranked` values, when it takes one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rank: Option<u64>,
    pub ranked: u64,
    pub tool: String,
}

/// The median and range over a condition's ok runs of the percentile their tools printed for
/// the headline, when none of them has rows and all printed it ([`crate::stats::printed`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PrintedSpread {
    pub percentile: String,
    #[serde(flatten)]
    pub spread: Spread,
    /// The tools, sorted, each once.
    pub tools: Vec<String>,
}

/// Why requests/s is not computed from a run's rows.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RateWithheld {
    /// The resolution of the rows' send times (ms); `None` when they have none.
    pub send_step_ms: Option<f64>,
    /// The span from the first send to the last completion (s).
    pub span_s: Option<Seconds>,
}

/// Where an imported run came from.
#[derive(Debug, Clone, Serialize)]
pub struct RunSource {
    pub tool: String,
    pub version: String,
    /// The format of the file with the rows, else of the first file.
    pub format: String,
    pub files: Vec<crate::dataset::run_stats::SourceFile>,
}

/// A tool's own numbers about a run, kept apart from ours.
#[derive(Debug, Clone, Serialize)]
pub struct ToolReported {
    pub tool: String,
    pub rule: crate::model::Rule,
    pub requests: u64,
    /// `None` when the tool's output cannot count failed requests (an HdrHistogram file).
    pub errors: Option<u64>,
    pub requests_per_s: Option<f64>,
    pub latency_ms: ToolLatency,
    /// Keyed "50", "99.9", ... like `RunResult::percentiles_ms`.
    pub percentiles_ms: BTreeMap<String, Millis>,
    /// The 1-based rank the tool's rule takes for each percentile, out of `ranked` values, when
    /// the rule picks one rank.
    pub ranks: BTreeMap<String, u64>,
    /// How many values the tool ranked: as its run_stats row says (`ranked`), else the run's
    /// responses when it has rows, else the tool's requests without errors.
    pub ranked: u64,
    /// Ours at the same percentiles: the nearest rank over the run's 2xx rows (empty without rows).
    pub nearest_rank_ms: BTreeMap<String, Millis>,
    pub nearest_ranks: BTreeMap<String, u64>,
    /// The time the tool's requests/s implies: its requests over its rate (s).
    pub tool_span_s: Option<Seconds>,
    /// From the rows, beside the tool's: responses per second over the span from the first
    /// send to the last completion, and that span (s); `None` without rows.
    pub rows_requests_per_s: Option<f64>,
    pub rows_span_s: Option<Seconds>,
    /// The tool's requests/s and the rows' differ beyond the tool's printed precision
    /// ([`crate::stats::tool_reported::rates_differ`]): the run page then says why.
    #[serde(skip)]
    pub rates_differ: bool,
    /// For a rule that interpolates (k6): per percentile, the two ranks it reads and the value
    /// the rule gives from the rows.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub interpolations: BTreeMap<String, Interpolation>,
    /// The tool's own figures per request name (tool_labels.csv: Locust's per-name rows), as it
    /// printed them, by its rule (`rule`), most requests first; beyond
    /// [`crate::dataset::labels::MAX_LABELS`], the rest are one group with their requests,
    /// errors and longest time (printed percentiles cannot be merged). Empty without.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<LabelResult>,
}

/// What linear interpolation between two neighbouring ranks gives from a run's rows.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Interpolation {
    pub lower_rank: u64,
    pub lower_ms: Millis,
    pub upper_rank: u64,
    pub upper_ms: Millis,
    /// How far from the lower value to the upper one (0 to 1).
    pub fraction: f64,
    pub value_ms: Millis,
}

/// The tool's min, mean and max.
#[derive(Debug, Clone, Serialize)]
pub struct ToolLatency {
    pub min: Option<Millis>,
    pub mean: Option<Millis>,
    pub max: Option<Millis>,
}

/// How the sessions of one run ended, and the times of those that succeeded. Failed sessions
/// have no time and are left out of every time here, as the seed's client left them out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunSessions {
    pub sessions: u64,
    pub succeeded: u64,
    pub failed: u64,
    /// failed / sessions.
    pub failed_share: f64,
    /// Failed sessions per 0-based step that ended them, in step order.
    pub failed_by_step: BTreeMap<u64, u64>,
    pub min_ms: Option<Millis>,
    pub max_ms: Option<Millis>,
    /// The arithmetic mean, the seed's "average".
    pub mean_ms: Option<Millis>,
    /// Nearest-rank p50 and p95 of the successful sessions' times, with their ranks among `succeeded`.
    pub median_ms: Option<Millis>,
    pub median_rank: Option<u64>,
    pub p95_ms: Option<Millis>,
    pub p95_rank: Option<u64>,
}

/// A condition's sessions: totals over its ok runs, and each run statistic as median, min and
/// max over those runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConditionSessions {
    pub sessions: u64,
    pub failed: u64,
    pub failed_share: Spread,
    pub min_ms: Option<Spread>,
    pub max_ms: Option<Spread>,
    pub mean_ms: Option<Spread>,
    pub median_ms: Option<Spread>,
    pub p95_ms: Option<Spread>,
}

/// One process group's use over a run.
#[derive(Debug, Clone, Serialize)]
pub struct ProcessUsage {
    pub process: String,
    /// (last cpu_s - first cpu_s) / (last t - first t), summed over the group's pids, in % of one core.
    pub avg_cpu_percent: Option<f64>,
    /// The largest sum of the group's RSS at one sample time.
    pub peak_rss_bytes: u64,
    /// The median time between the group's consecutive sample times, in ms (none with fewer than
    /// two): what the Methods text's step of the CPU charts is computed from.
    pub sample_interval_ms: Option<f64>,
}

/// The summary of one combination of factor levels.
#[derive(Debug, Clone, Serialize)]
pub struct ConditionResult {
    /// `factor=level` pairs joined by `,`, in factor order: a stable name for links and CSV
    /// (see [`crate::model::condition_id`]).
    pub id: String,
    pub factors: BTreeMap<String, String>,
    /// Per factor, the level index.
    #[serde(skip)]
    pub levels: Vec<usize>,
    /// The ok runs that enter the statistics, in runs.csv order.
    pub runs: Vec<String>,
    /// Runs of this condition left out, with their status.
    pub left_out_runs: Vec<String>,
    pub p95_ms: Option<Spread>,
    pub headline_ms: Option<Spread>,
    /// When no ok run has rows: the percentile their tools printed for the headline, which no
    /// chart, ranking or review sets beside the headline values of other conditions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub headline_printed: Option<PrintedSpread>,
    /// Per percentile key ("50", "90", "95", "99", "99.9" and the headline): the median, min
    /// and max over the ok runs of each run's value.
    pub percentiles_ms: BTreeMap<String, Spread>,
    /// The percentiles that no ok run of the condition resolves (`RunResult::unresolved_percentiles`),
    /// each with the fewest requests it needs: its median and range are of values that cannot be
    /// told from each run's maximum.
    pub unresolved_percentiles: BTreeMap<String, u64>,
    /// The same for each run's slowest 2xx response.
    pub max_ms: Option<Spread>,
    /// The decimals of a ms its ok runs' latencies are known to: the finest of their
    /// `latency_decimals`, `None` when any run's are unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency_decimals: Option<u8>,
    /// The decimals its requests/s were printed with, when every ok run takes the tool's printed
    /// figure (`throughput_from` "tool" or "tool-coarse"): the most any of them has
    /// (`stats::tool_reported::printed_rate_decimals`); `None` when a run's figure is our own.
    #[serde(skip)]
    pub printed_rate_decimals: Option<u8>,
    /// The run whose headline value is the median (lower middle for an even count).
    pub representative_run: Option<String>,
    /// The median, min and max over the ok runs of each run's median write time (s).
    pub write_s: Option<Spread>,
    /// The same for the completion time (s).
    pub complete_s: Option<Spread>,
    /// The study's definition: the median (and min, max) of the write times of every large
    /// response of the ok runs pooled; `n` counts responses (see `stats::large`).
    pub write_s_pooled: Option<Spread>,
    /// The same for the completion time (s).
    pub complete_s_pooled: Option<Spread>,
    pub tempfile_peak_bytes: Option<Spread>,
    /// The sessions of its ok runs, when the dataset has sessions.csv.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sessions: Option<ConditionSessions>,
    /// Median, min, max over the ok runs of `requests_per_s`, `error_rate` and `mean_ms`.
    pub requests_per_s: Option<Spread>,
    pub error_rate: Option<Spread>,
    pub mean_ms: Option<Spread>,
    /// With `report.mean_of_runs`: the mean of the ok runs' headline values (`summary::mean`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub headline_mean: Option<f64>,
    /// Median, min, max over the ok open-loop runs of each `from_intended_ms` percentile.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub from_intended_ms: BTreeMap<String, Spread>,
    /// Per process group sampled in its ok runs (resources.csv), by name: the median and range
    /// over the runs of each run's average CPU and peak RSS.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<ConditionUsage>,
    /// dataset.toml's service-level objectives that apply to this condition, each passed or
    /// failed on the median of its ok runs (`stats::slo`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub slo: Vec<slo::SloResult>,
    /// Per label, when the dataset's requests have more than one (`stats::labels`): the median
    /// and range over the ok runs of each run's value.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<ConditionLabel>,
}

/// Which label a row of the per-label statistics is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LabelName {
    /// The request name as the requests table gives it; `None` for the group of the labels
    /// beyond the limit, counted together.
    pub label: Option<String>,
    /// How many labels that group holds (absent for a named label).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merged_labels: Option<usize>,
}

/// One label's statistics in one run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LabelResult {
    #[serde(flatten)]
    pub name: LabelName,
    pub requests: u64,
    /// Requests without a 2xx response.
    pub errors: u64,
    /// errors / requests; `None` without requests.
    pub error_share: Option<f64>,
    /// Nearest-rank percentiles ("50", "95", "99") of the label's 2xx latencies.
    pub percentiles_ms: BTreeMap<String, Millis>,
    /// The slowest 2xx response; `None` without one.
    pub max_ms: Option<Millis>,
}

/// One label's statistics over a condition's ok runs: the median and range of each run's value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConditionLabel {
    #[serde(flatten)]
    pub name: LabelName,
    pub requests: Option<Spread>,
    pub errors: Option<Spread>,
    pub error_share: Option<Spread>,
    pub percentiles_ms: BTreeMap<String, Spread>,
    pub max_ms: Option<Spread>,
}

/// One process group's use over a condition's ok runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConditionUsage {
    pub process: String,
    /// Over the runs that sampled the group: each run's `avg_cpu_percent` (% of one core).
    pub cpu_percent: Option<Spread>,
    /// Each run's `peak_rss_bytes`.
    pub peak_rss_bytes: Option<Spread>,
}

impl HeadlineMetric {
    /// A run's value of this metric: the one place that says which field the headline reads.
    pub fn of_run(self, run: &RunResult) -> Option<f64> {
        match self {
            HeadlineMetric::Percentile => run.headline_ms,
            HeadlineMetric::RequestsPerS => run.requests_per_s,
            HeadlineMetric::ErrorRate => run.error_rate,
            HeadlineMetric::FailedShare => run.sessions.as_ref().map(|s| s.failed_share),
            HeadlineMetric::SessionMeanMs => run.sessions.as_ref().and_then(|s| s.mean_ms),
        }
    }

    /// A condition's median and range of this metric over its ok runs.
    pub fn of_condition(self, condition: &ConditionResult) -> Option<Spread> {
        match self {
            HeadlineMetric::Percentile => condition.headline_ms,
            HeadlineMetric::RequestsPerS => condition.requests_per_s,
            HeadlineMetric::ErrorRate => condition.error_rate,
            HeadlineMetric::FailedShare => condition.sessions.as_ref().map(|s| s.failed_share),
            HeadlineMetric::SessionMeanMs => condition.sessions.as_ref().and_then(|s| s.mean_ms),
        }
    }

    /// Orders values from better to worse: ascending, or descending for requests/s.
    pub fn better_first(self, a: f64, b: f64) -> std::cmp::Ordering {
        if self.higher_is_better() {
            b.total_cmp(&a)
        } else {
            a.total_cmp(&b)
        }
    }
}

impl Report {
    /// A run's headline value (see [`HeadlineMetric::of_run`]).
    pub fn headline_of_run(&self, run: &RunResult) -> Option<f64> {
        self.headline.of_run(run)
    }

    /// A condition's headline median and range (see [`HeadlineMetric::of_condition`]).
    pub fn headline_of(&self, condition: &ConditionResult) -> Option<Spread> {
        self.headline.of_condition(condition)
    }
}

/// The median and the min-max range of a few values (one per run), as `stats::summary` computes
/// them ([`Spread::of`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Spread {
    pub median: f64,
    pub min: f64,
    pub max: f64,
    /// How many values (runs) it summarises.
    pub n: usize,
}

/// One setting of plan.toml: `nginx.proxy_buffers` = `4 16k`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Setting {
    pub key: String,
    pub value: String,
}

/// The original article's tables beside what this dataset measured (dataset.toml's `[published]`).
#[derive(Debug, Clone, Serialize, Default)]
pub struct PublishedComparison {
    pub original: Option<crate::dataset::manifest::OriginalArticle>,
    pub note: Option<Text>,
    /// The fraction within which a published value agrees with the nearest run
    /// (`thresholds.negligible_difference`).
    pub negligible_difference: f64,
    pub tables: Vec<PublishedTableResult>,
    /// The smallest and the largest ratio over every table.
    pub ratio_min: Option<f64>,
    pub ratio_max: Option<f64>,
}

impl PublishedComparison {
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }
}

/// One table of the original, row by row beside this dataset's runs.
#[derive(Debug, Clone, Serialize)]
pub struct PublishedTableResult {
    pub id: String,
    pub label: Option<Text>,
    /// The metric's name in dataset.toml ("requests_per_s", "p95", "failed_share", ...).
    pub metric: PublishedMetric,
    /// The unit of every value of the table, published and measured alike.
    pub unit: Unit,
    pub rows: Vec<PublishedResult>,
    pub references: Vec<PublishedReference>,
    /// For a table whose original ranked its conditions: whether the same order holds here.
    pub order: Option<OrderCheck>,
    /// The smallest and the largest `ratio` of the rows, when any row has one.
    pub ratio_min: Option<f64>,
    pub ratio_max: Option<f64>,
    /// How many rows agree.
    pub agree: usize,
}

/// A published value beside what this dataset measured for the same condition and metric.
#[derive(Debug, Clone, Serialize)]
pub struct PublishedResult {
    /// Index into `conditions`.
    #[serde(skip)]
    pub condition: usize,
    pub condition_id: String,
    /// Which cell of the original, when dataset.toml says.
    pub note: Option<Text>,
    /// As published, in the table's unit.
    pub value: f64,
    /// The median, min and max over the condition's runs, in the table's unit; `None` when
    /// nothing was measured.
    pub measured: Option<MeasuredRange>,
    pub verdict: PublishedVerdict,
    /// The measured median over the published value; `None` when either is 0 or nothing was measured.
    pub ratio: Option<f64>,
}

/// Where a published value falls against the runs (`stats::published::verdict`, the one rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PublishedVerdict {
    /// Inside the runs' min-max range, both ends included.
    InsideRange,
    /// Outside the range, but within `negligible_difference` of the nearest run.
    NearNearestRun,
    /// Every run is above the published value, by more than the allowance.
    HigherHere,
    /// Every run is below it.
    LowerHere,
    /// The condition has no value of this metric.
    NotMeasured,
}

impl PublishedVerdict {
    pub fn agrees(self) -> bool {
        matches!(self, PublishedVerdict::InsideRange | PublishedVerdict::NearNearestRun)
    }
}

/// A published value of a condition not measured here, kept apart from every statistic.
#[derive(Debug, Clone, Serialize)]
pub struct PublishedReference {
    pub label: Text,
    pub value: f64,
    pub reason: Text,
}

/// Whether the original's order of an ordered table holds in this dataset's medians.
#[derive(Debug, Clone, Serialize)]
pub struct OrderCheck {
    /// Condition ids from the largest published value to the smallest.
    pub published: Vec<String>,
    /// The measured conditions from the largest median here to the smallest, equal medians
    /// in one group.
    pub here: Vec<Vec<String>>,
    /// Row indices (into the table's `rows`) of `published` and `here`, for the views.
    #[serde(skip)]
    pub published_rows: Vec<usize>,
    #[serde(skip)]
    pub here_rows: Vec<Vec<usize>>,
    /// Each neighbouring pair of the published order, as it stands here.
    pub pairs: Vec<OrderPair>,
    /// Every pair stands as published.
    pub holds: bool,
    /// It holds and every pair's runs are apart (the smaller's largest run below the larger's smallest).
    pub separated: bool,
}

/// Two neighbours of the published order: `larger` was published above `smaller`.
#[derive(Debug, Clone, Serialize)]
pub struct OrderPair {
    pub larger: String,
    pub smaller: String,
    #[serde(skip)]
    pub larger_row: usize,
    #[serde(skip)]
    pub smaller_row: usize,
    pub here: OrderRelation,
    /// The two conditions' ranges of runs do not overlap.
    pub apart: bool,
}

/// How a published pair stands in this dataset's medians.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OrderRelation {
    /// The larger's median is above the smaller's, as published.
    Same,
    /// Equal medians.
    Tie,
    /// The published smaller is the larger here.
    Reversed,
    /// One of the two has no value of the metric.
    Unmeasured,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MeasuredRange {
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub n: usize,
}

/// What was measured and what went wrong, over the whole dataset.
#[derive(Debug, Clone, Serialize)]
pub struct Integrity {
    pub runs: u64,
    pub runs_by_status: BTreeMap<String, u64>,
    /// The ok runs' requests in rows (the counts below are the rows' too).
    pub requests: u64,
    /// The ok runs' requests as counted: each run's `requests_counted`.
    pub requests_counted: CountedTotal,
    pub ok_responses: u64,
    pub non_2xx: u64,
    pub no_response: u64,
    pub errors: u64,
    pub large_responses: u64,
    pub incomplete_large_responses: u64,
    pub expected_large_response_bytes: Option<u64>,
    pub max_lag_ms: Option<Millis>,
    pub max_lag_run: Option<String>,
}

/// The ok runs' requests summed over each run's [`Counted`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CountedTotal {
    pub value: u64,
    /// Of them, those with a 2xx response and those without, over the runs whose errors are known.
    pub ok_responses: u64,
    pub errors: u64,
    /// The requests its tools counted, of the runs without rows, and their 2xx and errors.
    pub by_tools: u64,
    pub ok_by_tools: u64,
    pub errors_by_tools: u64,
    /// Those runs, and their tools (sorted, each once).
    pub tool_runs: u64,
    pub tools: Vec<String>,
    /// The runs whose tool cannot count failed requests: their requests are in `value`, their
    /// errors nowhere.
    pub errors_unknown_runs: u64,
    /// The runs with rows whose tool counted failures the rows cannot place (ab -g), their
    /// requests and errors (in `value` and `errors`) and their tools (sorted, each once).
    pub unplaced_runs: u64,
    pub unplaced_requests: u64,
    pub unplaced_errors: u64,
    pub unplaced_tools: Vec<String>,
}

/// Chart inputs, already reduced to what is drawn.
#[derive(Debug, Clone, Default)]
pub struct Figures {
    /// Per run: latency over time, point by point or in columns of send time
    /// ([`crate::stats::bands`]).
    pub time_series: Vec<TimeSeries>,
    /// Per run: the sorted latencies as an ECDF.
    pub ecdf: Vec<PointSeries>,
    /// Per run: every large response as (write_s, client_complete_s).
    pub large_responses: Vec<Vec<(Seconds, Option<Seconds>)>>,
    /// Per run: when the app finished writing each large response, seconds since the run's
    /// start (the probe's clock), sorted.
    pub write_ends: Vec<Vec<Seconds>>,
    /// Per run: temp-file logical bytes over time, (t_s, bytes).
    pub tempfiles: Vec<Vec<(Seconds, f64)>>,
    /// Per run: per process group, (t_s, cpu % of one core since the previous sample, rss bytes).
    pub resources: Vec<Vec<ProcessSeries>>,
    /// Per run: the requests without a 2xx response, over time.
    pub errors_over_time: Vec<ErrorSeries>,
    /// Per run: each 2xx response's send lag against its scheduled time.
    pub send_lags: Vec<LagSeries>,
    /// Per run: the ECDF of each label's 2xx latencies, for the representative runs of a
    /// dataset with labels (empty for every other run).
    pub label_ecdf: Vec<Vec<(LabelName, PointSeries)>>,
}

/// The send lags of one run to draw: (scheduled s since the run's start, lag ms), reduced to
/// each pixel column's least and greatest lag on long runs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LagSeries {
    pub points: Vec<(Seconds, Millis)>,
    /// The run's 2xx responses.
    pub total: u64,
    /// Every request left when it was scheduled (a closed loop writes its sends so).
    pub all_zero: bool,
}

/// Where latency from the intended send parts most from the service latency.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IntendedGap {
    /// The percentile key ("99").
    pub key: String,
    pub service_ms: Millis,
    pub intended_ms: Millis,
}

/// A request that got no 2xx response, where the time-series chart marks it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ErrorPoint {
    /// Send time, seconds since the run's start.
    pub t_s: Seconds,
    /// `None` when no response arrived (status 0).
    pub latency_ms: Option<Millis>,
    pub status: u16,
}

/// Error points to draw, and how many errors the run had.
#[derive(Debug, Clone, Default)]
pub struct ErrorSeries {
    pub points: Vec<ErrorPoint>,
    pub total: u64,
}

impl ErrorSeries {
    pub fn reduced(&self) -> bool {
        (self.points.len() as u64) < self.total
    }
}

/// Points to draw, and how many the full data had.
#[derive(Debug, Clone, Default)]
pub struct PointSeries {
    /// (x, y) pairs: for time series (seconds since the run's start, latency ms); for an ECDF
    /// (latency ms, cumulative fraction).
    pub points: Vec<(f64, f64)>,
    /// Points in the data.
    pub total: u64,
}

impl PointSeries {
    pub fn reduced(&self) -> bool {
        (self.points.len() as u64) < self.total
    }
}

/// Latency over time of one run's 2xx responses, as its chart draws it
/// ([`crate::stats::bands`]): every response of a run of at most
/// [`crate::stats::bands::MARK_ALL`], else a band per column of send time.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TimeSeries {
    /// (send time s, latency ms) of every 2xx response of a small run, in send order, equal
    /// points once; empty for a run drawn in columns.
    pub points: Vec<(Seconds, Millis)>,
    /// The columns of send time a 2xx response was sent in, in time order; empty for a run
    /// drawn point by point.
    pub columns: Vec<TimeColumn>,
    /// The run's 2xx responses.
    pub total: u64,
}

impl TimeSeries {
    /// Whether the run is drawn in columns rather than point by point.
    pub fn banded(&self) -> bool {
        !self.columns.is_empty()
    }

    /// Equal points were drawn once (a small run only).
    pub fn coincide(&self) -> bool {
        !self.banded() && (self.points.len() as u64) < self.total
    }
}

/// One column of send time of a run drawn in columns: its 2xx responses' p50, p95 and slowest,
/// by nearest rank within the column.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeColumn {
    /// The column's send times: `from_s` <= t < `to_s` (the last column includes its end).
    pub from_s: Seconds,
    pub to_s: Seconds,
    /// The 2xx responses sent in it.
    pub requests: u64,
    pub p50_ms: Millis,
    pub p95_ms: Millis,
    /// The slowest response's latency, and its send time (of responses as slow, the first sent).
    pub max_ms: Millis,
    pub slowest_s: Seconds,
    /// The distinct send times of its responses, counted up to
    /// [`crate::stats::bands::MIN_SEND_TIMES`].
    pub send_times: u8,
}

#[derive(Debug, Clone)]
pub struct ProcessSeries {
    pub process: String,
    pub points: Vec<(Seconds, Option<f64>, f64)>,
}
