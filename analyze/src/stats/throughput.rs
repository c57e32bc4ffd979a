//! Throughput, error rate and mean time per request of a run, from its rows or from the numbers
//! its tool printed (see `stats::tool_reported` for those numbers set beside ours).
//!
//! Requests per second from rows: the responses (any status) over the span from the first send
//! to the last completion (send + latency), but only when the rows time their sends at least
//! [`RESOLUTION_FACTOR`] times finer than that span: ab -g's whole seconds over a 1.04 s run
//! would give 500,000 requests/s where ab printed 9,010. Otherwise the tool's printed figure,
//! labelled (`throughput_from = "tool-coarse"`), or none, with the reason ([`RateWithheld`]). A
//! run without rows takes the tool's printed figures, and says so (`throughput_from = "tool"`);
//! so does every run whose tool printed them when dataset.toml's `report.throughput_from` is
//! "tool".

use crate::dataset::run_stats::{RunStats, Source};
use crate::dataset::RunRequests;
use crate::model::ThroughputFrom;
use crate::report::{Counted, RateWithheld};

/// How much finer than a run's span its rows must time their sends for requests/s from the rows.
pub const RESOLUTION_FACTOR: f64 = 100.0;

/// A run's throughput, error rate and mean, and where they come from.
pub struct Throughput {
    pub rate: Option<f64>,
    pub error_rate: Option<f64>,
    pub mean_ms: Option<f64>,
    pub from: Option<&'static str>,
    pub withheld: Option<RateWithheld>,
}

/// `requests_counted` is the run's counted requests and errors, whose share is the error rate of a
/// run with rows. `from` says which source wins for a run that has both rows and the tool's printed figures;
/// `send_step_ms` is how finely the rows time their sends (`None`: not at all).
/// `mean_ms` is [`mean_latency_ms`] of the run's latencies, which the caller computes beside the
/// percentiles, run by run on the cores.
pub fn throughput(
    counted: &RunRequests,
    requests_counted: &Counted,
    mean_ms: Option<f64>,
    tool: Option<&RunStats>,
    from: ThroughputFrom,
    send_step_ms: Option<f64>,
) -> Throughput {
    let tool_rate = tool.and_then(|s| s.requests_per_s);
    if counted.requests > 0 && !(from == ThroughputFrom::Tool && tool_rate.is_some()) {
        // As counted (`failures::counted`): the rows', or the tool's errors among rows that cannot
        // place them (ab -g).
        let error_rate = super::failures::share(requests_counted);
        let span_s = rows_span_s(counted);
        let fine = sends_resolved(send_step_ms, span_s);
        let (rate, from, withheld) = match (fine, tool_rate) {
            (true, _) => (rows_rate(counted), "rows", None),
            (false, Some(rate)) => (Some(rate), "tool-coarse", None),
            (false, None) => (None, "rows", Some(RateWithheld { send_step_ms, span_s })),
        };
        return Throughput { rate, error_rate, mean_ms, from: Some(from), withheld };
    }
    match tool {
        Some(s) => Throughput {
            rate: s.requests_per_s,
            error_rate: s.errors.filter(|_| s.requests > 0).map(|e| e as f64 / s.requests as f64),
            mean_ms: s.mean_ms,
            from: Some("tool"),
            withheld: None,
        },
        None => Throughput { rate: None, error_rate: None, mean_ms: None, from: None, withheld: None },
    }
}

/// Whether a run's rows time their sends finely enough to order them over its span (s): at least
/// [`RESOLUTION_FACTOR`] times finer than it. `send_step_ms` is [`send_step_ms`]'s (`None`: not
/// timed at all). Requests/s from rows and the warm-up hint (`stats::hints`) both follow it.
pub fn sends_resolved(send_step_ms: Option<f64>, span_s: Option<f64>) -> bool {
    match (send_step_ms, span_s) {
        (Some(step), Some(span)) => span * 1000.0 >= RESOLUTION_FACTOR * step,
        _ => false,
    }
}

/// A run's mean 2xx latency, rounded to a nanosecond: a sum's last bits depend on its order (the
/// blocks' split here, value x count in Spark), and digits below the latencies' own resolution are
/// noise, not data. So no copy and sort of the run's latencies is needed to make the bits
/// reproducible.
pub fn mean_latency_ms(latencies_ms: &[f64]) -> Option<f64> {
    super::summary::mean(latencies_ms).map(super::precision::ms)
}

/// The resolution of the send times of an imported run's rows (ms), from the format of its rows
/// file; a run measured by `measure` (no sources) times its sends to the ns.
pub fn send_step_ms(source: Option<&Source>) -> Option<f64> {
    let Some(source) = source else { return Some(0.000_001) };
    let rows = source.files.iter().filter_map(|f| crate::model::Format::from_name(&f.format)).find(|f| f.has_rows());
    rows.map_or(Some(0.000_001), |format| format.send_step_ms())
}

/// The span of a run's rows (s): from the first send to the last completion.
pub fn rows_span_s(counted: &RunRequests) -> Option<f64> {
    match (counted.first_sent_ms, counted.last_done_ms) {
        (Some(first), Some(last)) if last > first => Some(super::precision::seconds((last - first) / 1000.0)),
        _ => None,
    }
}

/// Requests per second from rows: the responses (any status) over [`rows_span_s`].
pub(super) fn rows_rate(counted: &RunRequests) -> Option<f64> {
    let responses = counted.requests - counted.no_response;
    let (first, last) = (counted.first_sent_ms?, counted.last_done_ms?);
    (last > first).then(|| super::precision::rate(responses as f64 / ((last - first) / 1000.0)))
}
