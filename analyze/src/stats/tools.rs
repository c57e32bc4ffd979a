//! Throughput, error rate and mean time per request of a run, and the numbers another tool
//! printed about it (run_stats), set beside ours with the rank each rule takes.
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
use crate::model::percentile_label;
use crate::model::Percentile;
use crate::model::Rule;
use crate::model::ThroughputFrom;
use crate::report::{Interpolation, RateWithheld, RunSource, ToolLatency, ToolReported};
use crate::stats::percentile::Sample;
use std::collections::BTreeMap;

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

/// `from` says which source wins for a run that has both rows and the tool's printed figures;
/// `send_step_ms` is how finely the rows time their sends (`None`: not at all).
pub fn throughput(counted: &RunRequests, tool: Option<&RunStats>, from: ThroughputFrom, send_step_ms: Option<f64>) -> Throughput {
    let tool_rate = tool.and_then(|s| s.requests_per_s);
    if counted.requests > 0 && !(from == ThroughputFrom::Tool && tool_rate.is_some()) {
        // Rounded to a nanosecond: a sum's last bits depend on its order (the blocks' split here, value x
        // count in Spark), and digits below the latencies' own resolution are noise, not data. So no copy
        // and sort of the run's latencies is needed to make the bits reproducible.
        let mean_ms = super::summary::mean(&counted.latencies_ms).map(super::precision::ms);
        let error_rate = Some(counted.errors() as f64 / counted.requests as f64);
        let span_s = rows_span_s(counted);
        let fine = match (send_step_ms, span_s) {
            (Some(step), Some(span)) => span * 1000.0 >= RESOLUTION_FACTOR * step,
            _ => false,
        };
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

/// The resolution of the send times of an imported run's rows (ms), from the format of its rows
/// file; a run measured by `measure` (no sources) times its sends to the ns.
pub fn send_step_ms(source: Option<&Source>) -> Option<f64> {
    let Some(source) = source else { return Some(0.000_001) };
    let rows = source.files.iter().filter_map(|f| crate::import::Format::from_name(&f.format)).find(|f| f.has_rows());
    rows.map_or(Some(0.000_001), |format| format.send_step_ms())
}

/// The span of a run's rows (s): from the first send to the last completion.
fn rows_span_s(counted: &RunRequests) -> Option<f64> {
    match (counted.first_sent_ms, counted.last_done_ms) {
        (Some(first), Some(last)) if last > first => Some(super::precision::seconds((last - first) / 1000.0)),
        _ => None,
    }
}

/// Requests per second from rows: the responses (any status) over [`rows_span_s`].
fn rows_rate(counted: &RunRequests) -> Option<f64> {
    let responses = counted.requests - counted.no_response;
    let (first, last) = (counted.first_sent_ms?, counted.last_done_ms?);
    (last > first).then(|| super::precision::rate(responses as f64 / ((last - first) / 1000.0)))
}

/// The rows' values a rule that interpolates reads at percentile `milli`, and what it gives.
fn interpolation(sample: &mut Sample, milli: u32) -> Option<Interpolation> {
    let (lower_rank, fraction) = crate::model::interpolation_position(milli, sample.len())?;
    let upper_rank = (lower_rank + 1).min(sample.len());
    let lower_ms = sample.at_rank(lower_rank);
    let upper_ms = sample.at_rank(upper_rank);
    let value_ms = super::precision::ms(lower_ms + (upper_ms - lower_ms) * fraction);
    Some(Interpolation { lower_rank, lower_ms, upper_rank, upper_ms, fraction, value_ms })
}

/// The decimals of a ms an imported run's latencies are known to, from the resolution its rows'
/// format gives them (`import::Format::latency_step_ms`): 0 for ab's and JMeter's whole ms and
/// siege's 10 ms, 1 for hey's 0.1 ms; `None` for a resolution finer than the report's two decimals.
pub fn latency_decimals(source: Option<&Source>) -> Option<u8> {
    let formats = source?.files.iter().filter_map(|f| crate::import::Format::from_name(&f.format));
    let step_ms = formats.filter(|f| f.has_rows()).map(crate::import::Format::latency_step_ms).next()?;
    (step_ms >= 0.1).then(|| (-step_ms.log10()).ceil().max(0.0) as u8)
}

/// The decimals a condition's requests/s were printed with, when every one of its ok runs takes
/// the tool's printed figure (`throughput_from` "tool" or "tool-coarse"): the most any of them
/// has. `None` when a run's figure is our own (the report's tenth).
pub fn printed_rate_decimals<'a>(runs: impl IntoIterator<Item = &'a crate::report::RunResult>) -> Option<u8> {
    let runs: Vec<&crate::report::RunResult> = runs.into_iter().collect();
    if runs.is_empty() || !runs.iter().all(|r| r.throughput_from.is_some_and(|f| f.starts_with("tool"))) {
        return None;
    }
    runs.iter().filter_map(|r| r.requests_per_s).map(super::precision::decimals_of).max()
}

pub fn source(source: Option<&Source>) -> Option<RunSource> {
    let source = source?;
    let rows_format = source
        .files
        .iter()
        .map(|f| f.format.as_str())
        .find(|f| crate::import::Format::from_name(f).is_some_and(crate::import::Format::has_rows));
    Some(RunSource {
        tool: source.tool.clone(),
        version: source.version.clone(),
        format: rows_format.or(source.files.first().map(|f| f.format.as_str())).unwrap_or_default().to_string(),
        files: source.files.clone(),
    })
}

/// The tool's numbers, its ranks, and ours (nearest rank over the run's 2xx rows) at each
/// percentile the tool printed. The tool's ranks are over the values it ranked (`ranked` of its
/// run_stats row: ab, hey, wrk, oha and Locust rank every response, whatever its status); a row
/// without it falls back to the run's responses (rows) or its requests without errors.
pub fn reported(stats: &RunStats, counted: &RunRequests) -> ToolReported {
    let fallback = if counted.requests > 0 {
        counted.requests - counted.no_response
    } else {
        stats.requests.saturating_sub(stats.errors.unwrap_or(0))
    };
    let ranked = stats.ranked.unwrap_or(fallback);
    let wanted: Vec<(u32, Percentile)> =
        stats.percentiles_ms.keys().filter_map(|&p| Percentile::new(f64::from(p) / 1000.0).map(|q| (p, q))).collect();
    let mut values = counted.latencies_ms.clone();
    let mut interpolations = BTreeMap::new();
    let ours = match Sample::new(&mut values) {
        Some(mut sample) => {
            if stats.rule == Rule::Interpolated {
                for &p in stats.percentiles_ms.keys() {
                    interpolations.extend(interpolation(&mut sample, p).map(|i| (percentile_label(p), i)));
                }
            }
            let ranked: Vec<Percentile> = wanted.iter().map(|w| w.1).collect();
            wanted.iter().zip(sample.percentiles(&ranked)).map(|((p, _), v)| (percentile_label(*p), v)).collect()
        }
        None => Vec::new(),
    };
    let rows = counted.requests > 0;
    let rows_requests_per_s = rows.then(|| rows_rate(counted)).flatten();
    ToolReported {
        tool: stats.tool.clone(),
        rule: stats.rule,
        requests: stats.requests,
        errors: stats.errors,
        requests_per_s: stats.requests_per_s,
        latency_ms: ToolLatency { min: stats.min_ms, mean: stats.mean_ms, max: stats.max_ms },
        percentiles_ms: stats.percentiles_ms.iter().map(|(p, v)| (percentile_label(*p), *v)).collect(),
        ranks: stats.percentiles_ms.keys().filter_map(|p| stats.rule.rank(*p, ranked).map(|r| (percentile_label(*p), r))).collect(),
        ranked,
        nearest_rank_ms: ours.iter().map(|(k, v)| (k.clone(), v.value)).collect(),
        nearest_ranks: ours.iter().map(|(k, v)| (k.clone(), v.rank)).collect(),
        tool_span_s: stats.requests_per_s.filter(|r| *r > 0.0).map(|r| super::precision::seconds(stats.requests as f64 / r)),
        rows_requests_per_s,
        rows_span_s: rows.then(|| rows_span_s(counted)).flatten(),
        rates_differ: stats.requests_per_s.zip(rows_requests_per_s).is_some_and(|(theirs, ours)| rates_differ(theirs, ours)),
        interpolations,
    }
}

/// Whether the tool's requests/s and the rows' are different figures. Tools print two
/// decimals: a difference within a thousandth of the tool's is the same figure.
pub fn rates_differ(theirs: f64, ours: f64) -> bool {
    (theirs - ours).abs() > theirs.abs() * 0.001
}

#[cfg(test)]
mod tests {
    use super::rates_differ;

    #[test]
    fn a_rate_within_a_thousandth_of_the_tools_is_the_same_figure() {
        // ab printed 1,929.89; 1,928.0 is 1.89 away, under 1.93 (a thousandth): the same figure.
        assert!(!rates_differ(1929.89, 1928.0));
        assert!(!rates_differ(1929.89, 1929.89));
        // 997.5 from the rows against ab's 1,929.89 (tools-compared's ab run): different.
        assert!(rates_differ(1929.89, 997.5));
        // Just past the thousandth either way.
        assert!(rates_differ(1000.0, 1001.01));
        assert!(rates_differ(1000.0, 998.99));
    }
}
