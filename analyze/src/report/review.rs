//! The variance review's vocabulary: how far repeated runs of one condition disagree, what the
//! comparisons of conditions found, and why a run deserves a second look. The rules that fill it
//! (intervals, chances, verdicts, flags) live in `stats::variance`.

use serde::Serialize;

#[derive(Debug, Clone, Serialize, Default)]
pub struct VarianceReview {
    pub conditions: Vec<ConditionVariance>,
    /// The condition whose (max - min) / median is largest.
    pub widest_condition: Option<String>,
    pub comparisons: Vec<Comparison>,
    /// What the comparisons add up to, and which pairs were left out.
    pub comparison_summary: ComparisonSummary,
    /// The robust limits the noisy-run flags used; `None` with too few runs.
    pub lag_limit: Option<RobustLimit>,
    pub load1_limit: Option<RobustLimit>,
    /// dataset.toml's thresholds, as the flags and verdicts used them.
    pub thresholds: crate::dataset::manifest::Thresholds,
    pub flags: Vec<Flag>,
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
    /// Comparisons whose ranges do not overlap.
    pub ranges_apart: u64,
    /// The sum of `chance_if_no_difference` over the comparisons: how many non-overlaps to
    /// expect if no condition differed from any other.
    pub expected_apart_by_chance: f64,
    /// The practical threshold: a difference of medians below this fraction of the smaller
    /// median is negligible, whatever the ranges.
    pub negligible_below: f64,
}

#[derive(Debug, Clone, Copy, Serialize, Default, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ComparisonScope {
    #[default]
    AllPairs,
    Neighbours,
}

/// What a comparison's ranges support.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The ranges overlap: these runs do not separate the conditions.
    RangesOverlap,
    /// The ranges do not overlap, but the medians differ by less than the practical threshold.
    Negligible,
    /// The ranges do not overlap, but chance alone does that too often to call it a difference.
    RangesApart,
    /// The ranges do not overlap, and the chance of that without a difference, times the number
    /// of comparisons, is at most [`FAMILY_ALPHA`](crate::stats::variance::FAMILY_ALPHA).
    Supported,
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

/// Two conditions in the same column of the table (same x level), compared by their ranges.
#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    pub a: usize,
    pub b: usize,
    pub a_id: String,
    pub b_id: String,
    /// The min-max ranges of the two conditions overlap: these runs do not separate them.
    pub ranges_overlap: bool,
    /// The larger median over the smaller (at least 1), so a 4,000-fold gap reads as such;
    /// `None` when a median is 0.
    pub median_ratio: Option<f64>,
    /// Runs behind each side.
    pub a_runs: usize,
    pub b_runs: usize,
    /// The probability that the two ranges fail to overlap when all runs of both come from one
    /// continuous distribution: 2·n!·m!/(n+m)!.
    pub chance_if_no_difference: f64,
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
    /// The host was busy around the run.
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
    /// The run's headline value lies far from its condition's median.
    Outlier {
        value_ms: f64,
        median_ms: f64,
        factor: f64,
    },
    Aborted {
        note: String,
    },
    Excluded {
        note: String,
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
