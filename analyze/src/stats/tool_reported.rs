//! The numbers another tool printed about a run (its run_stats row), set beside ours: its
//! requests/s against the rows', and each percentile it printed against the nearest rank of the
//! run's rows, with the rank each rule takes (and, for a rule that interpolates, what it read).

use super::throughput::{rows_rate, rows_span_s};
use crate::dataset::labels::MAX_LABELS;
use crate::dataset::run_stats::{RunStats, Source};
use crate::dataset::tool_labels::ToolLabel;
use crate::dataset::RunRequests;
use crate::model::percentile_label;
use crate::model::Percentile;
use crate::model::Rule;
use crate::report::{Interpolation, LabelName, LabelResult, RunSource, ToolLatency, ToolReported};
use crate::stats::percentile::Sample;
use std::collections::BTreeMap;

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
/// format gives them (`model::Format::latency_step_ms`): 0 for ab's and JMeter's whole ms and
/// siege's 10 ms, 1 for hey's 0.1 ms; `None` for a resolution finer than the report's two decimals.
pub fn latency_decimals(source: Option<&Source>) -> Option<u8> {
    let formats = source?.files.iter().filter_map(|f| crate::model::Format::from_name(&f.format));
    let step_ms = formats.filter(|f| f.has_rows()).map(crate::model::Format::latency_step_ms).next()?;
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
        .find(|f| crate::model::Format::from_name(f).is_some_and(crate::model::Format::has_rows));
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
        labels: tool_labels(&stats.labels),
    }
}

/// The tool's per-name figures as the report shows them: most requests first (ties by name),
/// and beyond [`MAX_LABELS`] the rest as one group (the limit of the requests' labels, so a
/// table never has more rows than the per-label statistics'), whose percentiles stay unknown.
fn tool_labels(labels: &[ToolLabel]) -> Vec<LabelResult> {
    let mut sorted: Vec<&ToolLabel> = labels.iter().collect();
    sorted.sort_by(|a, b| b.requests.cmp(&a.requests).then_with(|| a.label.cmp(&b.label)));
    let shown = if sorted.len() > MAX_LABELS { MAX_LABELS - 1 } else { sorted.len() };
    let share = |errors: u64, requests: u64| (requests > 0).then(|| super::precision::fraction(errors as f64 / requests as f64));
    let mut out: Vec<LabelResult> = sorted[..shown]
        .iter()
        .map(|l| LabelResult {
            name: LabelName { label: Some(l.label.clone()), merged_labels: None },
            requests: l.requests,
            errors: l.errors,
            error_share: share(l.errors, l.requests),
            percentiles_ms: l.percentiles_ms.iter().map(|(p, v)| (percentile_label(*p), *v)).collect(),
            max_ms: l.max_ms,
        })
        .collect();
    let rest = &sorted[shown..];
    if !rest.is_empty() {
        let (requests, errors) = (rest.iter().map(|l| l.requests).sum(), rest.iter().map(|l| l.errors).sum());
        out.push(LabelResult {
            name: LabelName { label: None, merged_labels: Some(rest.len()) },
            requests,
            errors,
            error_share: share(errors, requests),
            percentiles_ms: BTreeMap::new(),
            max_ms: rest.iter().filter_map(|l| l.max_ms).reduce(f64::max),
        });
    }
    out
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
