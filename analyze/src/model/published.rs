//! What a published value measures and the unit it was published in: the words dataset.toml's
//! `[published]` tables, the comparison with the runs and the report's tables share.

use serde::{Deserialize, Serialize};

/// What a published value measures, as the report computes it per condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, Serialize)]
pub enum PublishedMetric {
    #[serde(rename = "p50")]
    P50,
    #[serde(rename = "p90")]
    P90,
    #[serde(rename = "p95")]
    P95,
    #[serde(rename = "p99")]
    P99,
    #[serde(rename = "p99.9")]
    P999,
    /// The largest latency of a run.
    #[serde(rename = "max")]
    Max,
    /// The mean time per request of a run (ab's "Time per request").
    #[serde(rename = "mean")]
    Mean,
    /// The median over a run's large responses of the app's write time.
    #[serde(rename = "write")]
    Write,
    /// The median over a run's large responses of the client's completion time.
    #[serde(rename = "completion")]
    Completion,
    /// A run's requests per second (`runs[].requests_per_s`).
    #[serde(rename = "requests_per_s")]
    RequestsPerS,
    /// A run's share of requests without a 2xx response.
    #[serde(rename = "error_rate")]
    ErrorRate,
    /// A run's share of sessions that failed (sessions.csv).
    #[serde(rename = "failed_share")]
    FailedShare,
    /// Over a run's successful sessions: the shortest, the arithmetic mean, the longest, and the
    /// nearest-rank p50 and p95 of their times.
    #[serde(rename = "session_min")]
    SessionMin,
    #[serde(rename = "session_mean")]
    SessionMean,
    #[serde(rename = "session_max")]
    SessionMax,
    #[serde(rename = "session_p50")]
    SessionP50,
    #[serde(rename = "session_p95")]
    SessionP95,
}

/// What kind of quantity a metric is: the units it can be published in follow from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantity {
    Time,
    Rate,
    Share,
}

impl PublishedMetric {
    pub const ALL: [PublishedMetric; 17] = [
        PublishedMetric::P50,
        PublishedMetric::P90,
        PublishedMetric::P95,
        PublishedMetric::P99,
        PublishedMetric::P999,
        PublishedMetric::Max,
        PublishedMetric::Mean,
        PublishedMetric::Write,
        PublishedMetric::Completion,
        PublishedMetric::RequestsPerS,
        PublishedMetric::ErrorRate,
        PublishedMetric::FailedShare,
        PublishedMetric::SessionMin,
        PublishedMetric::SessionMean,
        PublishedMetric::SessionMax,
        PublishedMetric::SessionP50,
        PublishedMetric::SessionP95,
    ];

    /// The key of a percentile metric in `percentiles_ms` ("95", "99.9"), `None` for the others.
    pub fn percentile_key(self) -> Option<&'static str> {
        match self {
            PublishedMetric::P50 => Some("50"),
            PublishedMetric::P90 => Some("90"),
            PublishedMetric::P95 => Some("95"),
            PublishedMetric::P99 => Some("99"),
            PublishedMetric::P999 => Some("99.9"),
            _ => None,
        }
    }

    /// The name in dataset.toml and summary.json.
    pub fn name(self) -> &'static str {
        match self {
            PublishedMetric::P50 => "p50",
            PublishedMetric::P90 => "p90",
            PublishedMetric::P95 => "p95",
            PublishedMetric::P99 => "p99",
            PublishedMetric::P999 => "p99.9",
            PublishedMetric::Max => "max",
            PublishedMetric::Mean => "mean",
            PublishedMetric::Write => "write",
            PublishedMetric::Completion => "completion",
            PublishedMetric::RequestsPerS => "requests_per_s",
            PublishedMetric::ErrorRate => "error_rate",
            PublishedMetric::FailedShare => "failed_share",
            PublishedMetric::SessionMin => "session_min",
            PublishedMetric::SessionMean => "session_mean",
            PublishedMetric::SessionMax => "session_max",
            PublishedMetric::SessionP50 => "session_p50",
            PublishedMetric::SessionP95 => "session_p95",
        }
    }

    pub fn quantity(self) -> Quantity {
        match self {
            PublishedMetric::RequestsPerS => Quantity::Rate,
            PublishedMetric::ErrorRate | PublishedMetric::FailedShare => Quantity::Share,
            _ => Quantity::Time,
        }
    }

    /// The units a value of this metric may be written in.
    pub fn units(self) -> &'static [Unit] {
        match self.quantity() {
            Quantity::Time => &[Unit::Ms, Unit::S],
            Quantity::Rate => &[Unit::RequestsPerS],
            Quantity::Share => &[Unit::Percent],
        }
    }
}

/// The unit a table of published values is written in, as the original printed them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize)]
pub enum Unit {
    #[serde(rename = "ms")]
    Ms,
    #[serde(rename = "s")]
    S,
    #[serde(rename = "requests/s")]
    RequestsPerS,
    /// Percent of requests or sessions: 50.1 for 50.1%.
    #[serde(rename = "%")]
    Percent,
}

impl Unit {
    /// The name in dataset.toml and summary.json.
    pub fn name(self) -> &'static str {
        match self {
            Unit::Ms => "ms",
            Unit::S => "s",
            Unit::RequestsPerS => "requests/s",
            Unit::Percent => "%",
        }
    }

    /// The largest value this unit can hold, if any (a share cannot exceed 100%).
    pub fn largest(self) -> Option<f64> {
        (self == Unit::Percent).then_some(100.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_metric_name_reads_back_as_itself() {
        for metric in PublishedMetric::ALL {
            let text = format!("m = \"{}\"", metric.name());
            let parsed: std::collections::BTreeMap<String, PublishedMetric> = toml::from_str(&text).unwrap();
            assert_eq!(parsed["m"], metric, "{text}");
        }
    }

    #[test]
    fn times_take_ms_or_s_and_shares_only_percent() {
        assert_eq!(PublishedMetric::SessionMean.units(), &[Unit::Ms, Unit::S]);
        assert_eq!(PublishedMetric::FailedShare.units(), &[Unit::Percent]);
        assert_eq!(PublishedMetric::RequestsPerS.units(), &[Unit::RequestsPerS]);
    }
}
