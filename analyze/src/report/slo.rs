//! The service-level objectives of dataset.toml (`[[slo]]`), as each condition met them. The
//! rule that fills these is `stats::slo`.

use crate::model::SloBound;
use serde::Serialize;

/// One objective for one condition: passes or fails on the median of its ok runs.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SloResult {
    /// `p95`, `requests_per_s`, `error_rate` or `failed_share`.
    pub metric: String,
    pub bound: SloBound,
    /// ms for a percentile, requests/s, or a fraction (0 to 1) for the error rate and the failed
    /// share, as dataset.toml gives it.
    pub limit: f64,
    /// The median of the condition's ok runs' values; `None` when no ok run has a value.
    pub median: Option<f64>,
    /// The ok runs with a value, and how many of them met the objective on their own.
    pub runs: usize,
    pub runs_met: usize,
    /// For an objective on a percentile or requests/s: the largest share of failed requests at
    /// which it can pass (its own `error_share`, else `thresholds.error_share`), and the median of
    /// the condition's runs' shares. A run meets the objective only within that share too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_limit: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_share: Option<f64>,
    pub status: SloStatus,
    /// How close the verdict came to its limit and how close the runs can resolve
    /// (`stats::slo::margin`); `None` for a condition without 2 positive, varying values.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin: Option<SloMargin>,
}

/// The margin between a condition's runs and an objective's limit, and what the runs resolve.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct SloMargin {
    /// The median over the limit (0.84: 16% below it).
    pub ratio: f64,
    /// The 95% interval of the runs' geometric mean (t on their logs), in the metric's unit.
    pub low: f64,
    pub high: f64,
    /// The smallest margin, as a ratio ≥ 1 (1.094: 9.4% either side of the limit), at which a
    /// condition of this spread and number of runs is judged on the right side of the limit
    /// with 80% power at 5% (the detectable change of `stats::model`, on one sample).
    pub resolvable: f64,
    /// Whether that interval lies wholly on the verdict's side of the limit; `false`: too close
    /// to call, another sitting may judge it the other way.
    pub resolved: bool,
}

#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum SloStatus {
    /// The median meets the limit.
    Pass,
    /// The median misses it.
    Fail,
    /// The median of the runs' shares of failed requests lies above `error_limit`: the metric,
    /// of the requests that succeeded, cannot pass a condition that failed the rest.
    TooManyErrors,
    /// No ok run has a value, so the objective cannot be shown met (`check --slo` fails on it).
    NoRuns,
}
