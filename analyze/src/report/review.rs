//! The variance review's vocabulary: how far repeated runs of one condition disagree, what the
//! comparisons of conditions found, and why a run deserves a second look. The rules that fill it
//! (intervals, chances, verdicts, flags) live in `stats::variance`.

use crate::model::{NoInterval, Verdict};
use serde::Serialize;

#[derive(Debug, Clone, Serialize, Default)]
pub struct VarianceReview {
    pub conditions: Vec<ConditionVariance>,
    /// The condition whose (max - min) / median is largest.
    pub widest_condition: Option<String>,
    pub comparisons: Vec<Comparison>,
    /// Where runs carry rounds (a plan in rounds): the pairs of `comparisons` compared again within
    /// rounds, by the log ratios of each round (`stats::variance::paired`). Empty without rounds.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub paired: Vec<PairedComparison>,
    /// What the comparisons add up to, and which pairs were left out.
    pub comparison_summary: ComparisonSummary,
    /// The robust limits the noisy-run flags used; `None` with too few runs.
    pub lag_limit: Option<RobustLimit>,
    pub load1_limit: Option<RobustLimit>,
    /// dataset.toml's thresholds, as the flags and verdicts used them.
    pub thresholds: crate::dataset::manifest::Thresholds,
    /// Per-run flags, but for rules that hit most runs of the dataset (see `dataset_flags`).
    pub flags: Vec<Flag>,
    /// Rules that hit at least [`DATASET_FLAG_SHARE`](crate::stats::variance::DATASET_FLAG_SHARE)
    /// of the ok runs: reported once for the dataset, with their cause, instead of on every run.
    pub dataset_flags: Vec<DatasetFlag>,
}

/// A flag rule that hit most runs of the dataset.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct DatasetFlag {
    /// The rule, as `flags[].kind` names it (`host_load`, `errors`, ...).
    pub kind: &'static str,
    /// The ok runs it hit, and how many ok runs there are.
    pub runs: u64,
    pub of: u64,
    /// The smallest and largest value the rule saw in the runs it hit (load average, errors,
    /// lag in ms), with the threshold it used.
    pub min: f64,
    pub max: f64,
    pub threshold: Option<f64>,
    /// Why the rule hits most runs, when the dataset says so.
    pub cause: Option<FlagCause>,
}

/// Why a flag rule hits most runs.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum FlagCause {
    /// Closed-loop or session runs keep both cores busy for their whole length, and measured back
    /// to back they start while the 1-minute load average still holds the previous run: the load
    /// is the study's own.
    OwnLoad,
    /// The host's load average was already above the threshold before the study's first run
    /// (`load1`): the host was loaded before the study began, so the load is not (only) its own.
    LoadedBefore { load1: f64 },
}

/// The median of the runs' values and the limit above which a run stands out.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct RobustLimit {
    pub median: f64,
    pub limit: f64,
    /// The k and the floor of median + k · max(1.4826 · MAD, floor).
    pub k: f64,
    pub floor: f64,
}

/// Which pairs were compared, and how many non-overlaps chance alone would give.
#[derive(Debug, Clone, Serialize, Default, PartialEq)]
pub struct ComparisonSummary {
    /// "all_pairs" when every pair at each x level is compared, "neighbours" when some x level
    /// has more than [`MAX_ROWS_FOR_ALL_PAIRS`](crate::stats::variance::MAX_ROWS_FOR_ALL_PAIRS)
    /// series and only neighbours in level order are.
    pub scope: ComparisonScope,
    /// Pairs at the same x level that were not compared (only with `neighbours`).
    pub pairs_left_out: u64,
    /// The most series an x level may have for all its pairs to be compared
    /// ([`MAX_ROWS_FOR_ALL_PAIRS`](crate::stats::variance::MAX_ROWS_FOR_ALL_PAIRS)), for the
    /// sentence that says why only neighbours were.
    #[serde(skip)]
    pub all_pairs_up_to: u64,
    /// Comparisons whose ranges do not overlap.
    pub ranges_apart: u64,
    /// The sum of `chance_if_no_difference` over the comparisons: how many non-overlaps to
    /// expect if no condition differed from any other.
    pub expected_apart_by_chance: f64,
    /// The practical threshold: a ratio within this fraction of 1 (either way) is negligible.
    pub negligible_below: f64,
    /// The factor whose levels are paired (dataset.toml's `report.compare`); `None` when the
    /// series at each x level are paired.
    pub compared: Option<String>,
    /// Pairs left out because a side has a single run, which cannot show variance.
    pub pairs_with_one_run: u64,
    /// The false discovery rate the verdicts keep (Benjamini-Hochberg over the comparisons that
    /// have a p).
    pub fdr_q: f64,
    /// How many comparisons got each verdict.
    pub supported: u64,
    pub negligible: u64,
    pub not_shown: u64,
    /// The smallest `chance_if_no_difference` any comparison has: when it is above `fdr_q`, the
    /// ranges alone can never show a difference with these run counts.
    pub smallest_chance: Option<f64>,
    /// The runs on each side of the comparison with that chance.
    pub smallest_chance_runs: Option<(usize, usize)>,
}

#[derive(Debug, Clone, Copy, Serialize, Default, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ComparisonScope {
    #[default]
    AllPairs,
    Neighbours,
}

#[derive(Debug, Clone, Serialize)]
pub struct ConditionVariance {
    /// Index into the report's conditions.
    pub condition: usize,
    pub condition_id: String,
    /// Every ok run's headline value, in runs.csv order.
    pub runs: Vec<RunValue>,
    /// max / min; `None` when min is 0 or there are no runs.
    pub max_over_min: Option<f64>,
    /// (max - min) / median; `None` when the median is 0 or there are no runs.
    pub range_over_median: Option<f64>,
    pub median_interval: Option<MedianInterval>,
}

#[derive(Debug, Clone, Serialize)]
pub struct RunValue {
    pub run_id: String,
    pub value_ms: f64,
}

/// A distribution-free interval for the median.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MedianInterval {
    pub lower_ms: f64,
    pub upper_ms: f64,
    /// 1-based ranks of the bounds among the sorted run values.
    pub lower_rank: usize,
    pub upper_rank: usize,
    /// The exact coverage, at least 95%.
    pub coverage: f64,
}

/// Two conditions compared by their runs' values: the ranges, the chance of apart ranges without
/// a difference, and the ratio of geometric means with its interval, p and verdict.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    pub a: usize,
    pub b: usize,
    pub a_id: String,
    pub b_id: String,
    /// The min-max ranges of the two conditions overlap.
    pub ranges_overlap: bool,
    /// Runs behind each side (at least 2 each: one run cannot show variance).
    pub a_runs: usize,
    pub b_runs: usize,
    /// The probability that the two ranges fail to overlap when all runs of both come from one
    /// continuous distribution: 2·n!·m!/(n+m)!.
    pub chance_if_no_difference: f64,
    /// The ratio of geometric means of the run values, b over a; `None` when a value is 0.
    pub ratio: Option<f64>,
    /// Its 95% interval and the two-sided p of Welch's t on the logs; `None` with the reason in
    /// `no_interval`.
    pub ratio_low: Option<f64>,
    pub ratio_high: Option<f64>,
    pub p_log_t: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_interval: Option<NoInterval>,
    /// Whether Benjamini-Hochberg over the review's comparisons with a p counts this one a
    /// discovery at `fdr_q`.
    pub fdr_supported: bool,
    pub verdict: Verdict,
}

/// Two conditions compared within the rounds of one sitting: per round, the difference of the mean
/// logs of their headline values (b over a), which removes the drift both shared in that round.
#[derive(Debug, Clone, Serialize)]
pub struct PairedComparison {
    /// Indices into the report's conditions, and their ids: b is compared over a.
    pub a: usize,
    pub b: usize,
    pub a_id: String,
    pub b_id: String,
    /// The rounds in which both have an ok run with a value (at least 2).
    pub rounds: usize,
    /// exp(mean over rounds of ln b - ln a): the ratio b over a; `None` when it is not finite.
    pub ratio: Option<f64>,
    /// Its 95% interval and two-sided p, by t on the rounds' log ratios (rounds - 1 degrees of
    /// freedom); `None` with the reason in `no_interval`.
    pub ratio_low: Option<f64>,
    pub ratio_high: Option<f64>,
    pub p_t: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_interval: Option<NoInterval>,
    /// The exact p of swapping the two labels within rounds (every sign flip of the rounds' log
    /// ratios), beside the t's; it cannot go below `smallest_permutation_p` = 2/2^rounds.
    pub p_permutation: f64,
    pub smallest_permutation_p: f64,
    /// The standard deviation (log, about a relative one) of the level both shared round to round:
    /// the drift across the sitting that pairing removed; 0 when the rounds showed none.
    pub round_drift: Option<f64>,
    /// How many times narrower the paired interval's standard error is than the same rounds'
    /// unpaired one.
    pub narrower_by: Option<f64>,
    /// The smallest change (a ratio of at least 1, either way) a sitting of these rounds would
    /// detect with 80% power at 5%, from the spread these rounds showed, allowing for that
    /// spread's own uncertainty; `None` when none is.
    pub detectable: Option<f64>,
    /// The rounds that would detect a 5% change at 80% power, from the same spread.
    pub rounds_for_5_percent: Option<u64>,
    /// Fewer than 6 rounds (`stats::variance::paired::MIN_ROUNDS_FOR_VERDICT`): the permutation p
    /// cannot reach 5%, so no verdict is given.
    pub too_few_rounds: bool,
    /// Benjamini-Hochberg over the paired comparisons with enough rounds and a p, at `fdr_q`.
    pub fdr_supported: bool,
    pub verdict: Verdict,
}

/// Why a run deserves a second look.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FlagKind {
    /// Requests without a 2xx response.
    Errors {
        count: u64,
        requests: u64,
    },
    /// Large responses that did not deliver the expected bytes.
    IncompleteLargeResponses {
        count: u64,
    },
    /// The probe was sent late: the load generator, not the server, may have limited it.
    ScheduleLag {
        max_lag_ms: f64,
        threshold_ms: f64,
    },
    /// The host was busy around the run (before it, for runs that load the host themselves).
    HostLoad {
        load1: f64,
        threshold: f64,
    },
    /// The probe was sent later than in the dataset's other runs: the run's largest lag lies
    /// above the robust limit (median + k · scaled MAD over the dataset's ok runs).
    NoisyLag {
        max_lag_ms: f64,
        median_ms: f64,
        limit_ms: f64,
    },
    /// The host's load average stood out from the dataset's other runs by the same rule.
    NoisyLoad {
        load1: f64,
        median: f64,
        limit: f64,
    },
    /// The server got markedly less CPU during the load than in its condition's other runs
    /// (`share` below `limit` = median - k · max(1.4826 · MAD, floor · median) of the condition's
    /// shares): something else on the host took the CPU it would have used.
    Starved {
        share: f64,
        median: f64,
        limit: f64,
    },
    /// The run's headline value lies far from its condition's median.
    Outlier {
        value_ms: f64,
        median_ms: f64,
        factor: f64,
    },
    Aborted {
        note: crate::model::Note,
    },
    Excluded {
        note: crate::model::Note,
    },
}

#[derive(Debug, Clone, Serialize)]
pub struct Flag {
    pub run_id: String,
    #[serde(flatten)]
    pub kind: FlagKind,
}

impl Flag {
    /// Aborted and excluded runs are already out of the statistics; the rest are warnings.
    pub fn is_warning(&self) -> bool {
        !matches!(self.kind, FlagKind::Aborted { .. } | FlagKind::Excluded { .. })
    }
}
