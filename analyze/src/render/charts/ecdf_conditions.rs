//! The ECDFs of the conditions side by side: at one level of the x factor, the representative
//! run of each series' condition as a step line, on a log latency axis. Where a condition's p50
//! and its p99 sit tells the reader more than its p95 alone (most requests blocked, or a few).

use super::axis::LogAxis;
use super::draw::{frame, message, polyline, DrawResult, LegendEntry, Swatch};
use super::ecdf_axes::{share_chart, step_line};
use super::figure_id;
use super::headline::series_label;
use super::headline::shown_rows;
use super::labels::{self, labels};
use super::style::{self, HEIGHT, LINE, WIDTH};
use super::svg::{self, About};
use crate::model::{HeadlineMetric, Lang};
use crate::report::Report;
use plotters::coord::Shift;
use plotters::prelude::*;

/// One line: a series' label, its style index and the representative run's ECDF points.
struct Line<'a> {
    label: String,
    style: usize,
    points: &'a [(f64, f64)],
}

/// The conditions at x level `level` (an index into the x factor's levels), or every condition
/// when the dataset has no x factor. `None` when no condition there has a representative run
/// with responses.
pub fn ecdf_by_condition(report: &Report, level: usize, lang: Lang) -> Option<String> {
    let lines = lines(report, level, lang);
    if lines.is_empty() {
        return None;
    }
    let level_label = level_label(report, level, lang);
    let about = About {
        id: figure_id("ecdf-by-condition", &[level], lang),
        title: labels::ecdf_conditions_title(lang, &level_label),
        desc: labels::ecdf_conditions_desc(lang, &level_label, &lines.iter().map(|l| l.label.clone()).collect::<Vec<_>>()),
    };
    Some(svg::render((WIDTH, HEIGHT), lang, &about, |root| draw(root, &lines, &level_label, report.headline, lang)))
}

/// "Slow downloads = 2", or "" without an x factor.
fn level_label(report: &Report, level: usize, lang: Lang) -> String {
    report
        .layout
        .x_factor
        .and_then(|x| report.factors.get(x))
        .and_then(|f| f.levels.get(level).map(|l| format!("{} = {}", f.label.get(lang), l.label.get(lang))))
        .unwrap_or_default()
}

fn lines(report: &Report, level: usize, lang: Lang) -> Vec<Line<'_>> {
    let (shown, _) = shown_rows(report);
    shown
        .iter()
        .enumerate()
        .filter_map(|(j, &r)| {
            let row = &report.layout.rows[r];
            let condition = row.cells.get(level).copied().flatten()?;
            let id = report.conditions.get(condition)?.representative_run.as_deref()?;
            let run = report.run_index(id)?;
            let points = report.figures.ecdf.get(run).map(|s| s.points.as_slice()).filter(|p| !p.is_empty())?;
            let label = labels::run_name(lang, id, &series_label(report, row, lang));
            Some(Line { label, style: j, points })
        })
        .collect()
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    lines: &[Line],
    level_label: &str,
    metric: HeadlineMetric,
    lang: Lang,
) -> DrawResult<(), DB> {
    let text = labels(lang);
    let legend: Vec<LegendEntry> = lines
        .iter()
        .map(|l| {
            let (color, shape, dash) = style::series(l.style);
            LegendEntry { label: l.label.clone(), color, swatch: Swatch::Marker { shape, filled: true, line: Some(dash) } }
        })
        .collect();
    let x_axis = LogAxis::covering(lines.iter().flat_map(|l| l.points.iter().map(|p| p.0)));
    let mut captions = vec![labels::ecdf_conditions_key(lang, metric)];
    if x_axis.floor.is_some() {
        captions.push(text.floor_note_left.to_string());
    }
    let plot = frame(root, &labels::ecdf_conditions_title(lang, level_label), &legend, &captions)?;
    if lines.is_empty() {
        return message(&plot, text.no_data);
    }
    let mut chart = share_chart(&plot, &x_axis, text)?;
    for line in lines {
        let (color, _, dash) = style::series(line.style);
        polyline(&mut chart, step_line(&x_axis, line.points).steps, color.stroke_width(LINE), dash)?;
    }
    Ok(())
}
