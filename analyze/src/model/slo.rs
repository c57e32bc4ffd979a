//! The metrics a service-level objective of dataset.toml (`[[slo]]`) can bound, with the
//! direction each is bounded in and its name in dataset.toml and summary.json.

use super::Percentile;
use serde::Serialize;

/// What an objective bounds, per run and per condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SloMetric {
    /// A percentile of the 2xx latencies (ms), one of those the report computes.
    Percentile(Percentile),
    /// `runs[].requests_per_s`.
    RequestsPerS,
    /// `runs[].error_rate`, a fraction from 0 to 1.
    ErrorRate,
    /// `runs[].sessions.failed_share`, a fraction from 0 to 1.
    FailedShare,
}

/// Which side of its limit a value must stay on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SloBound {
    AtMost,
    AtLeast,
}

impl SloMetric {
    /// Reads dataset.toml's `metric`: `p95`, `p99.9` (any percentile `Percentile::new` holds),
    /// `requests_per_s`, `error_rate` or `failed_share`.
    pub fn parse(text: &str) -> Option<SloMetric> {
        match text {
            "requests_per_s" => Some(SloMetric::RequestsPerS),
            "error_rate" => Some(SloMetric::ErrorRate),
            "failed_share" => Some(SloMetric::FailedShare),
            _ => {
                let number = text.strip_prefix('p')?;
                // "p95" and "p99.9", not "p+95", "p 95" or "p1e2".
                if number.is_empty() || !number.chars().all(|c| c.is_ascii_digit() || c == '.') {
                    return None;
                }
                Percentile::new(number.parse().ok()?).map(SloMetric::Percentile)
            }
        }
    }

    /// The name dataset.toml and summary.json use: `p95`, `requests_per_s`.
    pub fn name(self) -> String {
        match self {
            SloMetric::Percentile(p) => format!("p{p}"),
            SloMetric::RequestsPerS => "requests_per_s".to_string(),
            SloMetric::ErrorRate => "error_rate".to_string(),
            SloMetric::FailedShare => "failed_share".to_string(),
        }
    }

    /// The bound that makes sense: more requests/s is better, less of everything else.
    pub fn bound(self) -> SloBound {
        match self {
            SloMetric::RequestsPerS => SloBound::AtLeast,
            _ => SloBound::AtMost,
        }
    }

    /// Whether an objective on it must also hold the failed requests to a share: a percentile or
    /// requests/s, which do not show the failures; the error rate and the failed share are the
    /// failures themselves.
    pub fn holds_errors(self) -> bool {
        matches!(self, SloMetric::Percentile(_) | SloMetric::RequestsPerS)
    }

    /// Whether values are fractions (0 to 1), so a limit above 1 can never be the point.
    pub fn is_fraction(self) -> bool {
        matches!(self, SloMetric::ErrorRate | SloMetric::FailedShare)
    }
}

impl SloBound {
    /// Whether `value` meets a limit of `limit` from this side (the limit itself meets it).
    pub fn met(self, value: f64, limit: f64) -> bool {
        match self {
            SloBound::AtMost => value <= limit,
            SloBound::AtLeast => value >= limit,
        }
    }
}

/// Whether an objective whose `where` reads `wanted` (factor=level pairs; empty: every
/// condition) applies to a condition, given the condition's level of a factor by name.
pub fn applies<'a>(wanted: &[(String, String)], level_of: impl Fn(&str) -> Option<&'a str>) -> bool {
    wanted.iter().all(|(factor, level)| level_of(factor) == Some(level.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_parse_by_their_names() {
        assert_eq!(SloMetric::parse("p95"), Some(SloMetric::Percentile(Percentile::P95)));
        assert_eq!(SloMetric::parse("p99.9"), Some(SloMetric::Percentile(Percentile::P99_9)));
        assert_eq!(SloMetric::parse("requests_per_s"), Some(SloMetric::RequestsPerS));
        assert_eq!(SloMetric::parse("failed_share").map(SloMetric::name).as_deref(), Some("failed_share"));
        for bad in ["p", "p100", "p 95", "p+95", "p1e1", "95", "latency", "p12.3456"] {
            assert_eq!(SloMetric::parse(bad), None, "{bad}");
        }
        assert_eq!(SloMetric::parse("p99.9").unwrap().name(), "p99.9");
    }

    #[test]
    fn the_limit_itself_meets_the_objective() {
        assert!(SloBound::AtMost.met(250.0, 250.0) && !SloBound::AtMost.met(250.01, 250.0));
        assert!(SloBound::AtLeast.met(500.0, 500.0) && !SloBound::AtLeast.met(499.9, 500.0));
        assert_eq!(SloMetric::RequestsPerS.bound(), SloBound::AtLeast);
        assert_eq!(SloMetric::ErrorRate.bound(), SloBound::AtMost);
    }
}
