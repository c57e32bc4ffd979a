//! The words a comparison of two sets of runs ends in, shared by the variance review and
//! `analyze compare`; the rule that picks them is `stats::difference`.

use serde::Serialize;

/// What the runs support about a difference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The false-discovery rule passes and the interval does not lie wholly inside the practical
    /// threshold (`stats::difference::verdict`).
    Supported,
    /// The difference is shown to be within the practical threshold: the whole interval lies
    /// inside it, whatever the p.
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

/// A ratio b over a and its interval as pages show them: turned to read at least 1, so that
/// 0.00025 (0.00022–0.00029) reads 4,000 (3,448–4,545) with a word saying which side is the
/// larger. The JSON keeps b over a; this is the one place that turns it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Oriented {
    /// max(ratio, 1 / ratio): at least 1.
    pub factor: f64,
    /// The interval turned with it: (1 / high, 1 / low) when the ratio was below 1.
    pub interval: Option<(f64, f64)>,
    /// Whether b is the larger side (the ratio b over a is at least 1).
    pub b_larger: bool,
}

impl Oriented {
    /// `None` for a ratio that is not a positive finite number; an interval with an end that is
    /// not one is dropped.
    pub fn of(ratio: f64, low: Option<f64>, high: Option<f64>) -> Option<Oriented> {
        let positive = |x: f64| x.is_finite() && x > 0.0;
        if !positive(ratio) {
            return None;
        }
        let b_larger = ratio >= 1.0;
        let interval = low.zip(high).filter(|&(l, h)| positive(l) && positive(h));
        Some(if b_larger {
            Oriented { factor: ratio, interval, b_larger }
        } else {
            Oriented { factor: 1.0 / ratio, interval: interval.map(|(l, h)| (1.0 / h, 1.0 / l)), b_larger }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Oriented;

    #[test]
    fn a_ratio_below_1_turns_over_with_its_interval_flipped_and_its_ends_swapped() {
        let turned = Oriented::of(0.00025, Some(0.00022), Some(0.00029)).unwrap();
        assert!(!turned.b_larger);
        assert!((turned.factor - 4000.0).abs() < 1e-9, "{turned:?}");
        let (low, high) = turned.interval.unwrap();
        assert!((low - 1.0 / 0.00029).abs() < 1e-9 && (high - 1.0 / 0.00022).abs() < 1e-9, "{turned:?}");
        assert!(low <= turned.factor && turned.factor <= high, "the factor stays inside its interval");
    }

    #[test]
    fn a_ratio_of_at_least_1_is_kept_and_a_bad_one_is_none() {
        assert_eq!(
            Oriented::of(4.18, Some(1.22), Some(14.4)),
            Some(Oriented { factor: 4.18, interval: Some((1.22, 14.4)), b_larger: true })
        );
        assert_eq!(Oriented::of(1.0, None, None).map(|o| (o.factor, o.b_larger)), Some((1.0, true)));
        assert_eq!(Oriented::of(0.0, None, None), None);
        assert_eq!(Oriented::of(f64::NAN, None, None), None);
        assert_eq!(Oriented::of(2.0, Some(0.0), Some(3.0)).unwrap().interval, None);
    }
}
