//! The words a comparison of two sets of runs ends in, shared by the variance review and
//! `analyze compare`; the rule that picks them is `stats::difference`.

use serde::Serialize;

/// What the runs support about a difference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The false-discovery rule passes and the ratio lies beyond the practical threshold.
    Supported,
    /// The difference is shown to be within the practical threshold: the rule passes with the
    /// ratio inside it, or the whole interval lies inside it.
    Negligible,
    /// Neither: these runs cannot tell.
    NotShown,
}

/// Why two groups get no interval.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NoInterval {
    /// A side has fewer than 2 runs: one run cannot show variance.
    OneRun,
    /// A run value is 0 (or negative), which has no logarithm.
    ZeroValue,
    /// Neither side varies from run to run: the t statistic is undefined.
    NoSpread,
}

/// What the runs support about a candidate measurement against its baseline (`analyze
/// compare`): a [`Verdict`] with the direction the metric calls better. "Faster" is the better
/// side whatever the metric: a lower latency or error rate, a higher requests/s.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CompareVerdict {
    /// Supported, and the candidate is the better side.
    SupportedFaster,
    /// Supported, and the candidate is the worse side: a regression.
    SupportedSlower,
    Negligible,
    NotShown,
}
