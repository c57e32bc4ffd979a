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

/// What two sides' failures (requests without a 2xx response) support, judged before any
/// latency (`stats::failures`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureVerdict {
    /// The candidate's share of failures is higher by more than the margin, and the test supports it.
    Rise,
    /// Lower by more than the margin, supported.
    Fall,
    /// The shares differ by no more than the margin: the latencies compare like with like.
    Within,
    /// They differ by more than the margin, but the runs do not support it (too few, or too
    /// spread).
    NotShown,
    /// None of the candidate's requests got a 2xx response, where some of the baseline's did.
    NoResponses,
    /// A side has no counted request.
    NoData,
}

/// Which comparison a condition's verdict comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DecidedBy {
    /// The failures differ (or may): the latency of the requests that succeeded does not decide.
    Failures,
    /// The failures are within the margin (or not counted): the compared metric decides.
    Metric,
    /// The candidate has no ok run of the condition: nothing was measured to judge it by.
    NoCandidateRun,
}
