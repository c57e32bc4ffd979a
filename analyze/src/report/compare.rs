//! `analyze compare`'s results: two measurements of the same conditions, matched by their factor
//! levels and compared run against run. One plain struct, computed once by `stats::compare`;
//! compare.json is its serialization and every page, table and chart a rendering of it.
//!
//! Run-level numbers only: the sample of each side is its ok runs' values of the compared
//! metric, never its requests. The ratio is candidate over baseline.

use super::{FactorInfo, PointSeries};
use crate::model::{CompareVerdict, DecidedBy, FailureVerdict, NoInterval, Text};
use serde::Serialize;
use std::collections::BTreeMap;

/// Version of the compare.json layout; bumped when a field changes meaning.
pub const COMPARE_SCHEMA_VERSION: u32 = 3;

#[derive(Debug, Clone, Serialize)]
pub struct ComparisonReport {
    pub schema_version: u32,
    /// Whether the two may be compared at all: an incomparable pair exits 3.
    pub comparability: Comparability,
    /// What the gate's false alarms are, nominally and as measured on A/A pairs.
    pub gate: GateCalibration,
    pub baseline: Side,
    pub candidate: Side,
    /// The metric the runs are compared by: the baseline's headline (`p95`, `requests_per_s`,
    /// `error_rate`, ...), as summary.json's `runs[]` names it.
    pub metric: String,
    /// Whether a larger value is the better one (requests/s): the direction of "faster".
    pub higher_is_better: bool,
    /// The candidate's own headline when it is another metric (it is compared by the
    /// baseline's all the same).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidate_headline: Option<String>,
    pub thresholds: CompareThresholds,
    /// How many sittings each side has and what the verdicts allow for sitting effects
    /// (`stats::model`).
    pub sittings: Sittings,
    pub matching: Matching,
    /// The matched conditions, in the candidate's order.
    pub conditions: Vec<ConditionComparison>,
    /// Conditions of one side that no condition of the other matched, each with the reason.
    pub only_in_baseline: Vec<Unmatched>,
    pub only_in_candidate: Vec<Unmatched>,
    pub summary: CompareSummary,
    /// Why nothing was compared, when nothing was: a gate then exits with a status of its own
    /// ([`ComparisonReport::gate_compared_nothing`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nothing_compared: Option<NothingCompared>,
    /// Whether the baseline's finding (the differences between its conditions its runs support)
    /// held in the candidate (`stats::compare::reproduction`); `None` when nothing was compared.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reproduction: Option<Reproduction>,
    /// Matched conditions with ok runs whose runs have no value of the compared metric, and
    /// what their runs have instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub without_metric: Option<WithoutMetric>,
    /// Per matched condition (same index as `conditions`): the representative runs' ECDF
    /// points, for the overlay charts. Empty when the reports were built without figures.
    #[serde(skip)]
    pub figures: Vec<ConditionFigures>,
    /// The compared metric as the views format it.
    #[serde(skip)]
    pub headline: crate::model::HeadlineMetric,
    #[serde(skip)]
    pub percentile: crate::model::Percentile,
}

impl ComparisonReport {
    /// Whether `--fail-on-regression` was given and left something it was asked to judge
    /// uncompared: the sides are one measurement, no condition matched, or a matched condition's
    /// runs have no value of the metric. Such a gate does not pass: `analyze compare` exits with
    /// a status of its own (4), not 0.
    pub fn gate_compared_nothing(&self) -> bool {
        self.thresholds.fail_on_regression.is_some() && (self.nothing_compared.is_some() || self.without_metric.is_some())
    }
}

/// Why a comparison compared nothing.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum NothingCompared {
    /// The two sides are one measurement: the same runs, started at the same times, with the same
    /// values (the same folder twice, or a copy). Their conditions are not compared.
    SameMeasurement,
    /// No condition of one side matches a condition of the other.
    NoMatch,
    /// Conditions matched, but no matched condition has a value of the metric on both sides.
    NoValue,
}

/// Matched conditions left uncompared because a side's ok runs have no value of the metric (a
/// p95 where the tool printed p97.5).
#[derive(Debug, Clone, Serialize, PartialEq, Default)]
pub struct WithoutMetric {
    /// The candidate's ids of those conditions.
    pub conditions: Vec<String>,
    /// What their runs have instead, as summary.json names it: `requests_per_s`, and `p97.5`
    /// for a percentile a tool printed (in `printed_by`).
    pub available: Vec<String>,
    /// The tools that printed those percentiles, sorted.
    pub printed_by: Vec<String>,
}

/// Whether the two measurements may be compared at all (`stats::comparability`).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Comparability {
    pub verdict: ComparabilityVerdict,
    /// The baseline's rules (dataset.toml's `comparability.must_match`, else the defaults).
    pub must_match: Vec<String>,
    /// The `[environment]` keys a rule covers that both sides record.
    pub checked: Vec<String>,
    /// Those whose compared values differ.
    pub differing: Vec<EnvDifference>,
    /// Keys a rule covers that only one side records: they could not be checked.
    pub one_side: Vec<String>,
    /// Checked keys whose compared part matches but whose whole values differ (a kernel's build
    /// under `kernel:major`): no reason to refuse the pair, but a difference a reader should see.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub differ_in_full: Vec<PartDifference>,
}

/// A key whose compared part matches while its whole value differs.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PartDifference {
    pub key: String,
    /// The rule that compares only a part of it (`kernel:major`).
    pub rule: String,
    pub baseline: String,
    pub candidate: String,
}

#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ComparabilityVerdict {
    Comparable,
    /// A key that must match differs, and is not allowed to: `analyze compare` exits 3.
    Incomparable,
}

/// One `[environment]` key whose values differ.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct EnvDifference {
    pub key: String,
    pub baseline: String,
    pub candidate: String,
    /// Allowed to differ (`--allow-env KEY`).
    pub allowed: bool,
}

/// The gate's false alarms: the level its tests are held to, and the rate at which it fired on
/// pairs that measured the same thing (`stats::compare::calibration`).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct GateCalibration {
    /// The false discovery rate the verdicts hold (Benjamini-Hochberg's q).
    pub nominal_alpha: f64,
    /// The threshold the A/A pairs were judged at: `--fail-on-regression`, else 0 (any supported
    /// slowdown).
    pub threshold: f64,
    /// The rate measured on A/A pairs; `None` when none was available (`why_not` says why).
    pub empirical_false_alarm: Option<FalseAlarm>,
    /// Where the A/A pairs came from: the baseline against each `--aa` dataset, and the splits of
    /// conditions with at least 4 runs into two halves.
    pub sources: Vec<AaSource>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why_not: Option<&'static str>,
    /// `--aa` datasets not counted: the same measurement as the baseline or as an `--aa` dataset
    /// given before (a pair of one measurement with itself fires never, and
    /// counting it would make the gate look calibrated).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub set_aside: Vec<AaSetAside>,
}

/// An `--aa` dataset that was not counted, and the dataset it is the same measurement as.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AaSetAside {
    pub dataset: String,
    /// `baseline`, or the folder name of the earlier `--aa` dataset.
    pub same_as: String,
}

/// How often the gate fired on A/A trials (one matched condition of one A/A pair each).
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct FalseAlarm {
    pub fired: u64,
    pub trials: u64,
    pub rate: f64,
    /// The Wilson score interval of the rate at 95%.
    pub low: f64,
    pub high: f64,
}

/// One source of A/A trials.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AaSource {
    /// `aa_dataset` (the baseline against a re-measurement of it) or `split` (a condition's runs
    /// in two halves, on one side).
    pub kind: &'static str,
    /// The dataset (for a split: its side's dataset and the condition).
    pub dataset: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition_id: Option<String>,
    pub trials: u64,
    pub fired: u64,
}

/// One of the two datasets.
#[derive(Debug, Clone, Serialize)]
pub struct Side {
    /// The folder name.
    pub dataset: String,
    pub title: Text,
    pub measured: Option<String>,
    /// Its conditions and ok runs, matched or not.
    pub conditions: usize,
    pub ok_runs: usize,
    /// Its factors with their labels, for the views.
    #[serde(skip)]
    pub factors: Vec<FactorInfo>,
}

/// The rules the verdicts and the exit status used.
#[derive(Debug, Clone, Serialize)]
pub struct CompareThresholds {
    /// A ratio within this fraction of 1 (either way) is negligible: the baseline's
    /// `thresholds.negligible_difference`.
    pub negligible_difference: f64,
    /// The false discovery rate Benjamini-Hochberg holds over the matched conditions with a p.
    pub fdr_q: f64,
    /// The confidence level of each ratio's interval.
    pub interval_level: f64,
    /// `--fail-on-regression` as a fraction (0.1 for 10%); `None` when not given.
    pub fail_on_regression: Option<f64>,
    /// The margin two shares of failed requests must differ by to decide a condition before its
    /// metric (percentage points as a fraction): the baseline's `thresholds.error_share`.
    pub error_share: f64,
    /// How far apart two sides' medians of their servers' CPU share must be, as a fraction of
    /// the larger, and of the host's load average, for [`SideCause::differs`].
    pub cause_cpu_floor: f64,
    pub cause_load_floor: f64,
}

/// How the conditions were matched.
#[derive(Debug, Clone, Serialize, Default, PartialEq)]
pub struct Matching {
    /// The factors conditions are matched by, as the candidate names them, in its order.
    pub by: Vec<String>,
    /// Factors only one side has, with the levels that side's conditions take (a factor with a
    /// single level is simply set aside; with several, conditions may be ambiguous).
    pub only_in_baseline: Vec<OneSideFactor>,
    pub only_in_candidate: Vec<OneSideFactor>,
    /// The `--match` rules, as given.
    pub rules: Vec<String>,
    /// Rules that would pair conditions left without a counterpart (`stats::compare::matching`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub suggested: Vec<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct OneSideFactor {
    pub factor: String,
    pub levels: Vec<String>,
}

/// One condition measured on both sides.
#[derive(Debug, Clone, Serialize)]
pub struct ConditionComparison {
    /// The candidate's condition id.
    pub condition_id: String,
    /// The baseline's id of the same condition (differs when `--match` renamed or mapped).
    pub baseline_condition_id: String,
    /// The candidate's factor levels.
    pub factors: BTreeMap<String, String>,
    pub base: SideRuns,
    pub cand: SideRuns,
    /// The ratio of geometric means, candidate over baseline; `None` when a side has no run or
    /// a value is 0.
    pub ratio: Option<f64>,
    /// Its 95% interval from Welch's t on the logs and the two-sided p; `None` with the reason
    /// in `no_interval`.
    pub ratio_low: Option<f64>,
    pub ratio_high: Option<f64>,
    pub p_log_t: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_interval: Option<NoInterval>,
    /// The distribution-free chance that the two ranges fail to overlap when all runs come from
    /// one distribution, 2·n!·m!/(n+m)!; `None` when a side has fewer than 2 runs.
    pub chance_if_no_difference: Option<f64>,
    /// The permutation p of the log ratio over the relabellings of the runs, beside Welch's p
    /// (`stats::permutation`); `None` when a side has fewer than 2 runs or a value is 0.
    pub permutation: Option<Permutation>,
    /// Whether the two min-max ranges share a point; `None` when a side has no run.
    pub ranges_overlap: Option<bool>,
    /// Whether Benjamini-Hochberg over the matched conditions with a p counts this a discovery.
    pub fdr_supported: bool,
    pub verdict: CompareVerdict,
    /// What decided the verdict: the failures first, then the metric.
    pub decided_by: DecidedBy,
    /// The two sides' failed requests, judged before the metric (`stats::failures`).
    pub failures: FailureComparison,
    /// The level of its interval (`ratio_low`, `ratio_high`): the false-coverage-rate level that
    /// matches the Benjamini-Hochberg verdicts (Benjamini and Yekutieli 2005), 1 - R·q/m for the
    /// R discoveries of m comparisons, 1 - (R + 1)·q/m for the others; `None` without an interval.
    pub interval_level: Option<f64>,
    /// The design of its estimate (`model::Design`); `None` without an interval.
    pub design: Option<crate::model::Design>,
    /// The smallest change its runs could detect, and the runs that would detect the target
    /// change; `None` without an interval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detectable: Option<Detectable>,
    /// When the compared metric is a percentile that no ok run of one side resolves
    /// (`ConditionResult::unresolved_percentiles`): the requests a run needs to resolve it (the
    /// larger of the two sides'), so the verdict compares values as good as the runs' maxima.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unresolved_needs: Option<u64>,
    /// Whether this condition fails `--fail-on-regression`: supported slower, with the whole
    /// interval beyond the threshold.
    pub regression: bool,
    /// With `--fail-on-regression`, whether the observed ratio lies beyond the threshold on the
    /// worse side without the regression being supported.
    pub regression_undecided: bool,
    /// What else differed between the sides: the CPU their servers got and the host's load
    /// (`stats::compare::causes`); `None` when neither side's runs record either.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub causes: Option<Causes>,
    /// The labels of its levels, in the candidate's factor order.
    #[serde(skip)]
    pub labels: Vec<Text>,
}

/// What else differed between the two sides of a condition, besides the code: hints of a cause
/// beside the verdict, which they do not change.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct Causes {
    /// The server's CPU seconds per wall second (1.0: one core), from runs.csv's
    /// `server_cpu_share`, else the sum of the run's resource groups.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_cpu: Option<SideCause>,
    /// The host's 1-minute load average the variance review judges each run by: before the run
    /// for a closed loop or sessions, else the larger of before and after.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_load: Option<SideCause>,
}

impl Causes {
    /// Whether either figure differs between the sides beyond their runs' spread.
    pub fn differ(&self) -> bool {
        self.server_cpu.is_some_and(|c| c.differs) || self.host_load.is_some_and(|c| c.differs)
    }
}

/// One figure on both sides of a condition.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct SideCause {
    /// `None` when that side's runs do not record it.
    pub base: Option<CauseSide>,
    pub cand: Option<CauseSide>,
    /// Whether the sides differ beyond their runs' spread: at least 2 runs a side, every run of
    /// one side beyond every run of the other, and the medians further apart than the figure's
    /// floor (10% of the larger median for a CPU share, 0.5 for a load average).
    pub differs: bool,
}

/// One side's runs of a figure: median and min-max over the runs that record it.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct CauseSide {
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub runs: usize,
}

impl From<super::Spread> for CauseSide {
    fn from(s: super::Spread) -> Self {
        CauseSide { median: s.median, min: s.min, max: s.max, runs: s.n }
    }
}

/// The failed requests (without a 2xx response) of one side's ok runs of a condition, pooled.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FailureSide {
    /// The ok runs counted (those with a request count, from their rows or their tool's).
    pub runs: usize,
    pub requests: u64,
    pub errors: u64,
    /// errors / requests; `None` without requests.
    pub share: Option<f64>,
    /// The smallest and largest share of a single run.
    pub run_min: Option<f64>,
    pub run_max: Option<f64>,
}

/// The two sides' failures compared (`stats::failures`).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FailureComparison {
    pub base: FailureSide,
    pub cand: FailureSide,
    /// The candidate's share minus the baseline's.
    pub difference: Option<f64>,
    /// The overdispersion factor the runs' spread gives (at least 1), by which both sides' counts
    /// were divided before Fisher's exact test.
    pub dispersion: Option<f64>,
    /// Two-sided p of Fisher's exact test on those effective counts; `None` when a side has fewer
    /// than 2 counted runs.
    pub p: Option<f64>,
    /// Whether Benjamini-Hochberg over the matched conditions' failure tests counts it a discovery.
    pub fdr_supported: bool,
    pub verdict: FailureVerdict,
}

/// One side's ok runs of a condition.
#[derive(Debug, Clone, Serialize)]
pub struct SideRuns {
    /// Each ok run's value, in runs.csv order.
    pub runs: Vec<RunValue>,
    pub median: Option<f64>,
    pub min: Option<f64>,
    pub max: Option<f64>,
    /// Runs of the condition left out of the statistics (aborted, excluded, or without a value).
    pub left_out: usize,
    /// Ok runs without a value of the metric (a tool that printed another percentile).
    pub without_value: usize,
    /// The run the side's report shows as the condition's representative.
    pub representative_run: Option<String>,
    /// The decimals the side's values are known to, as its own report prints them: a
    /// percentile at its rows' resolution (ab's whole ms), requests/s as the tool printed them;
    /// `None`: the metric's usual digits.
    #[serde(skip)]
    pub decimals: Option<u8>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RunValue {
    pub run_id: String,
    pub value: f64,
}

/// The smallest change a comparison could detect (`stats::model::Estimate::detectable`): at
/// [`DETECT_POWER`] and its interval's alpha, from the spread it saw, allowing for that spread's
/// own uncertainty; and what would detect the target change (the regression threshold, else the
/// negligible threshold).
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct Detectable {
    /// The smallest ratio change (≥ 1: 1.33 for a change of 33% either way) detected with
    /// probability `power`.
    pub change: f64,
    /// The two-sided alpha it is detected at (1 - the interval's level).
    pub alpha: f64,
    pub power: f64,
    /// The change the runs below are planned for, as a ratio ≥ 1 (1 + threshold).
    pub target: f64,
    /// Runs a side, one sitting a side, that would detect `target`; `None` when more than
    /// `stats::model::MAX_PLANNED` would (or no number would, with a sitting variance).
    pub runs_a_side: Option<u64>,
    /// Interleaved rounds (both builds once a round, one sitting) that would detect `target`.
    pub rounds: Option<u64>,
}

/// The power at which [`Detectable::change`] is detected.
pub const DETECT_POWER: f64 = 0.8;

/// The sittings of each side and what the verdicts allow for sitting-to-sitting variation.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Sittings {
    /// The datasets of each side: the baseline and its `--aa` re-measurements, the candidate
    /// and its `--bb` ones.
    pub baseline: Vec<String>,
    pub candidate: Vec<String>,
    /// How the verdicts were estimated: `welch_one_sitting` (assumes no sitting effect),
    /// `welch_with_sitting_variance` (τ² from the baseline's sittings), `sittings_a_side`.
    pub design: crate::model::Design,
    /// The sitting-to-sitting variance of the log level the verdicts include, pooled over the
    /// conditions, where it was estimated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sitting_variance: Option<crate::model::SittingVariance>,
}

/// A condition of one side without a match on the other.
#[derive(Debug, Clone, Serialize)]
pub struct Unmatched {
    pub condition_id: String,
    pub factors: BTreeMap<String, String>,
    pub ok_runs: usize,
    pub reason: UnmatchedReason,
    /// For `ambiguous`: the other side's conditions with the same levels of the shared factors.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub could_match: Vec<String>,
    #[serde(skip)]
    pub labels: Vec<Text>,
}

#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum UnmatchedReason {
    /// No condition of the other side has its levels of the shared factors.
    NoCounterpart,
    /// Several conditions share those levels on one side (a factor only that side has varies):
    /// which pairs belong together is not known, so none is guessed.
    Ambiguous,
    /// `--match FACTOR:LEVEL=` chose another level of a factor the other side lacks.
    NotSelected,
}

/// What the comparisons add up to.
#[derive(Debug, Clone, Serialize, Default, PartialEq)]
pub struct CompareSummary {
    pub matched: u64,
    /// Matched conditions with an interval (and a p).
    pub with_interval: u64,
    pub supported_faster: u64,
    pub supported_slower: u64,
    pub negligible: u64,
    pub not_shown: u64,
    /// Conditions decided by their failures: a supported rise (or no 2xx response at all), and
    /// a supported fall.
    pub failures_rise: u64,
    pub failures_fall: u64,
    /// The conditions (candidate ids) that fail `--fail-on-regression`.
    pub regressions: Vec<String>,
    /// The conditions (candidate ids) whose sides' server CPU or host load differ beyond their
    /// runs' spread ([`Causes::differ`]).
    pub causes_differ: Vec<String>,
}

/// The ECDF points of a matched condition's representative run on each side.
#[derive(Debug, Clone, Default)]
pub struct ConditionFigures {
    pub base: Option<PointSeries>,
    pub cand: Option<PointSeries>,
}

/// The permutation test of two groups of run values.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Permutation {
    /// Two-sided p.
    pub p: f64,
    /// C(n + m, n): every way to relabel the runs.
    pub relabellings: u64,
    /// The smallest p these group sizes allow: 2 / C(n + m, n) when n = m (the labelling that
    /// swaps the groups is always as extreme as the observed one), else 1 / C(n + m, n).
    pub smallest_p: f64,
    /// Whether every relabelling was enumerated (else `stats::permutation::SAMPLED` were drawn).
    pub exact: bool,
}

/// The baseline's finding, judged in the candidate.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Reproduction {
    /// Each difference between two conditions the baseline's variance review supports.
    pub findings: Vec<Finding>,
    /// Supported again in the same direction.
    pub held: u64,
    /// Supported in the opposite direction.
    pub reversed: u64,
    /// Neither (not shown, not compared or unmatched in the candidate).
    pub not_shown: u64,
}

impl Reproduction {
    /// Whether the baseline has a finding at all.
    pub fn has_finding(&self) -> bool {
        !self.findings.is_empty()
    }
}

/// One supported difference of the baseline and how it fared in the candidate.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Finding {
    /// The two conditions (the candidate's ids where matched, else the baseline's).
    pub a_id: String,
    pub b_id: String,
    /// b over a in the baseline, and in the candidate where its review compared the pair.
    pub baseline_ratio: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidate_ratio: Option<f64>,
    pub outcome: FindingOutcome,
}

#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum FindingOutcome {
    /// The candidate's review supports it in the same direction.
    Held,
    /// The candidate's review supports the opposite direction.
    Reversed,
    /// The candidate's review compared the pair but does not support a difference.
    NotShown,
    /// The candidate's review did not compare the pair.
    NotCompared,
    /// A condition of the pair has no match in the candidate.
    Unmatched,
}
