//! The ECDFs of the conditions side by side: at one level of the x factor, the representative
//! run of each series' condition as a step line, on a log latency axis. Where a condition's p50
//! and its p99 sit tells the reader more than its p95 alone (most requests blocked, or a few).
//! When there is one series only, the conditions compared are the x factor's levels: one chart
//! then overlays them all (`overlays`, the figure plan's `overlays_levels`), rather than one
//! chart of one line per level.
//! Each line is a link to its run's page, with a title naming the run and its percentiles.

use super::axis::LogAxis;
use super::draw::{frame, message, polyline, DrawResult, LegendEntry, Swatch};
use super::ecdf_axes::{share_chart, step_line};
use super::headline::series_label;
use super::headline::shown_rows;
use super::labels::{self, labels};
use super::marks::{self, Mark, Pointable, Shape};
use super::style::{self, HEIGHT, LINE, WIDTH};
use super::svg::{self, About};
use super::{condition_label, figure_id};
use crate::model::{HeadlineMetric, Lang};
use crate::report::Report;
use plotters::coord::Shift;
use plotters::prelude::*;

/// One line: a series' label, its style index and the representative run's ECDF points.
struct Line<'a> {
    label: String,
    style: usize,
    run: usize,
    points: &'a [(f64, f64)],
}

/// The conditions at x level `level` (an index into the x factor's levels), or every condition
/// when the dataset has no x factor; every x level at once when `overlays`. `None` when no
/// condition there has a representative run with responses.
/// `slugs` are the runs' page names (`paths::run_slugs`), for the lines' links.
pub fn ecdf_by_condition(report: &Report, level: usize, overlays: bool, slugs: &[String], lang: Lang) -> Option<String> {
    let lines = lines(report, level, overlays, lang);
    if lines.is_empty() {
        return None;
    }
    let level_label = level_label(report, level, overlays, lang);
    let about = About {
        id: figure_id("ecdf-by-condition", &[level], lang),
        title: labels::ecdf_conditions_title(lang, &level_label),
        desc: labels::ecdf_conditions_desc(lang, &level_label, &lines.iter().map(|l| l.label.clone()).collect::<Vec<_>>()),
    };
    let titles: Vec<String> = lines.iter().map(|l| line_title(report, l, lang)).collect();
    let hrefs: Vec<Option<String>> = lines.iter().map(|l| slugs.get(l.run).map(|s| marks::run_href(s))).collect();
    Some(svg::render_pointable((WIDTH, HEIGHT), lang, &about, |root, pointable| {
        draw(root, &lines, &level_label, report.headline, lang)?.point(root, pointable, &titles, &hrefs)
    }))
}

/// "Slow downloads = 2", "each Python" when the chart overlays the levels, or "" without an x
/// factor.
fn level_label(report: &Report, level: usize, overlays: bool, lang: Lang) -> String {
    if overlays {
        let factor = report.layout.x_factor.and_then(|x| report.factors.get(x)).map_or("", |f| f.label.get(lang));
        return labels::each_level(lang, factor);
    }
    report
        .layout
        .x_factor
        .and_then(|x| report.factors.get(x))
        .and_then(|f| f.levels.get(level).map(|l| format!("{} = {}", f.label.get(lang), l.label.get(lang))))
        .unwrap_or_default()
}

fn lines(report: &Report, level: usize, overlays: bool, lang: Lang) -> Vec<Line<'_>> {
    let line = |style: usize, condition: usize, name: String| {
        let id = report.conditions.get(condition)?.representative_run.as_deref()?;
        let run = report.run_index(id)?;
        let points = report.figures.ecdf.get(run).map(|s| s.points.as_slice()).filter(|p| !p.is_empty())?;
        Some(Line { label: labels::run_name(lang, id, &name), style, run, points })
    };
    if overlays {
        let Some(factor) = report.layout.x_factor.and_then(|x| report.factors.get(x)) else { return Vec::new() };
        let row = &report.layout.rows[0];
        return (0..factor.levels.len())
            .filter_map(|i| line(i, row.cells.get(i).copied().flatten()?, factor.levels[i].label.get(lang).to_string()))
            .collect();
    }
    let (shown, _) = shown_rows(report);
    shown
        .iter()
        .enumerate()
        .filter_map(|(j, &r)| {
            let row = &report.layout.rows[r];
            line(j, row.cells.get(level).copied().flatten()?, series_label(report, row, lang))
        })
        .collect()
}

/// The title of a line: its run and the percentiles the report computed for it, with its
/// maximum.
fn line_title(report: &Report, line: &Line, lang: Lang) -> String {
    let result = &report.runs[line.run];
    let ms = |v: f64| crate::render::format::ms_at(v, result.latency_decimals);
    let mut values: Vec<(String, String)> = result.percentiles_ms.iter().map(|(p, &v)| (format!("p{p}"), ms(v))).collect();
    if let Some(max) = result.max_ms {
        values.push((crate::render::i18n::strings(lang).maximum.to_string(), ms(max)));
    }
    labels::ecdf_line_mark(lang, &labels::run_name(lang, &result.run_id, &condition_label(report, result.condition, lang)), &values)
}

/// The lines in pixels, as drawn, for their hit areas.
struct Drawn(Vec<Vec<(i32, i32)>>);

impl Drawn {
    /// A band over each line, with its title and link, above everything drawn.
    fn point<DB: DrawingBackend>(
        self,
        root: &DrawingArea<DB, Shift>,
        pointable: &mut Pointable,
        titles: &[String],
        hrefs: &[Option<String>],
    ) -> DrawResult<(), DB> {
        let layer = pointable.layer(root)?;
        for ((points, title), href) in self.0.into_iter().zip(titles).zip(hrefs) {
            pointable.push(layer, Mark { shape: Shape::Band { points }, title: title.clone(), href: href.clone() });
        }
        Ok(())
    }
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    lines: &[Line],
    level_label: &str,
    metric: HeadlineMetric,
    lang: Lang,
) -> DrawResult<Drawn, DB> {
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
        message(&plot, text.no_data)?;
        return Ok(Drawn(Vec::new()));
    }
    let mut chart = share_chart(&plot, &x_axis, text)?;
    let mut drawn = Vec::with_capacity(lines.len());
    for line in lines {
        let (color, _, dash) = style::series(line.style);
        let steps = step_line(&x_axis, line.points).steps;
        drawn.push(steps.iter().map(|p| chart.backend_coord(p)).collect());
        polyline(&mut chart, steps, color.stroke_width(LINE), dash)?;
    }
    Ok(Drawn(drawn))
}
