//! SVG charts of a [`Report`]. Each public function is one figure: it takes the report (and a
//! run index where the figure is per run) and returns a complete, accessible SVG document.
//!
//! Charts draw what the statistics layer computed and compute nothing themselves: medians,
//! ranges, ECDF points and downsampled series all come from the report, so a chart can never
//! disagree with the table beside it. What happens here is presentation only: axis ranges,
//! label text, unit scaling for display (bytes to MiB) and layout.
//!
//! The drawing functions are generic over the plotters backend; the public functions render
//! them to SVG. Every visual constant is in `style`, every word in `i18n::charts`.
//! Output is deterministic: the same report gives byte-identical SVG.

mod axis;
mod compact;
mod compare;
mod draw;
mod ecdf;
mod ecdf_axes;
mod ecdf_conditions;
mod ecdf_labels;
mod forest;
mod headline;
mod history;
mod large_responses;
mod marks;
mod resources;
mod send_lag;
mod style;
/// The width the house's charts are drawn at (all but the forest, drawn narrow).
pub use style::WIDTH as WIDE_PX;
mod svg;
mod tempfiles;
mod time_series;
mod xml;

/// The charts' words live with every other word of the report, in `i18n`.
use super::i18n::charts as labels;

#[cfg(test)]
pub(crate) mod tests;

pub use axis::Scale;
/// The ratio from which a value axis is logarithmic, for the words that state the rule.
pub use axis::LOG_FROM_RATIO;
pub use compare::compare_condition;
pub use ecdf::ecdf;
pub use ecdf_conditions::ecdf_by_condition;
pub use ecdf_labels::ecdf_by_label;
pub use forest::compare_forest;
pub use headline::{headline_at_level, headline_by_condition, headline_scale, headline_scale_at_level};
pub use history::history_condition;
pub use large_responses::write_vs_completion;
pub use resources::resources_over_time;
pub use send_lag::send_lag;
pub use tempfiles::tempfiles_over_time;
pub use time_series::latency_over_time;

use crate::model::Lang;
use crate::report::Report;

/// Bytes per MiB, for axes drawn in MiB.
const BYTES_PER_MIB: f64 = 1_048_576.0;

/// The label of condition `condition` (an index into `report.conditions`), as the tables beside
/// the chart name it.
fn condition_label(report: &Report, condition: usize, lang: Lang) -> String {
    crate::render::i18n::prose::condition_label(lang, report, &report.conditions[condition].levels)
}

/// A run's name with its condition: "run r1 (nginx buffering on · 2)".
fn run_name(report: &Report, run: usize, lang: Lang) -> String {
    match report.runs.get(run) {
        Some(result) => labels::run_name(lang, &result.run_id, &condition_label(report, result.condition, lang)),
        None => labels::run_name(lang, &run.to_string(), ""),
    }
}

/// The runs a condition's statistics summarise (its ok runs, as the statistics layer chose
/// them), as indices into `report.runs`, in runs.csv order.
fn ok_runs(report: &Report, condition: usize) -> impl Iterator<Item = usize> + '_ {
    let chosen: &[String] = report.conditions.get(condition).map_or(&[], |c| c.runs.as_slice());
    let mut runs: Vec<usize> =
        chosen.iter().filter_map(|id| report.run_index(id)).filter(|&i| report.runs[i].condition == condition).collect();
    runs.sort_unstable();
    runs.into_iter()
}

/// The headline percentile as written in labels: "95", "99.9".
fn percentile(report: &Report) -> String {
    report.percentile.to_string()
}

/// A figure id unique within a page: the chart's name, its runs and the language.
fn figure_id(name: &str, runs: &[usize], lang: Lang) -> String {
    let mut id = format!("chart-{name}");
    for run in runs {
        id.push_str(&format!("-{run}"));
    }
    id.push('-');
    id.push_str(lang.code());
    id
}
