//! The overlay chart of one matched condition of a comparison: above, both sides' runs of the
//! compared metric (each run a dot, the min-max range a line, the median a large marker) on one
//! log axis; below, the ECDF of each side's representative run. For a latency metric both
//! panels share the x axis, so the runs sit over the distributions they came from.
//!
//! It draws the values `stats::compare` put in the [`ComparisonReport`] and computes nothing.

use super::axis::{decade_label, LogAxis, Ticked};
use super::draw::{floor_markers, frame, house_builder, house_mesh, markers, message, polyline, text_at, DrawResult, LegendEntry, Swatch};
use super::ecdf_axes::{share_chart, step_line};
use super::labels::labels;
use super::style::{self, Shape, LINE, MARKER, SMALL_POINT, TALL_HEIGHT, TEXT_PX, WIDTH};
use super::svg::{self, text_style, About};
use crate::model::{HeadlineMetric, Lang};
use crate::render::i18n::compare::words;
use crate::render::i18n::fill;
use crate::render::i18n::prose::labels_label;
use crate::render::view::compare_metric_label as metric_label;
use crate::report::compare::{ComparisonReport, SideRuns};
use crate::report::PointSeries;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The share of the plot the runs panel takes, in percent.
const RUNS_PANEL_PERCENT: u32 = 36;
/// Where each side's row sits on the runs panel's y axis.
const BASELINE_ROW: f64 = 1.0;
const CANDIDATE_ROW: f64 = 0.0;

/// The chart of matched condition `k` of `report`; `summary` ends its description (the
/// condition's numbers, as the page words them).
pub fn compare_condition(report: &ComparisonReport, k: usize, summary: &str, lang: Lang) -> String {
    let w = words(lang);
    let condition = &report.conditions[k];
    let label = labels_label(lang, &condition.labels);
    let metric = metric_label(lang, report.headline, &report.metric);
    let title = fill(w.chart_title, &[("condition", &label)]);
    let about = About {
        id: format!("chart-compare-{}-{}", k + 1, lang.code()),
        title: title.clone(),
        desc: fill(w.chart_desc, &[("metric", &metric), ("summary", summary)]),
    };
    let empty = Default::default();
    let figures = report.figures.get(k).unwrap_or(&empty);
    let sides = [
        Side { runs: &condition.base, ecdf: figures.base.as_ref(), row: BASELINE_ROW, style: 0, name: w.baseline },
        Side { runs: &condition.cand, ecdf: figures.cand.as_ref(), row: CANDIDATE_ROW, style: 1, name: w.candidate },
    ];
    svg::render((WIDTH, TALL_HEIGHT), lang, &about, |root| draw(root, &sides, &title, report.headline, &metric, lang))
}

struct Side<'a> {
    runs: &'a SideRuns,
    ecdf: Option<&'a PointSeries>,
    row: f64,
    style: usize,
    name: &'a str,
}

impl Side<'_> {
    fn values(&self) -> impl Iterator<Item = f64> + '_ {
        self.runs.runs.iter().map(|r| r.value).chain(self.runs.median)
    }
}

/// Values of an error rate are drawn in %, as the report's headline chart draws them.
fn scale(metric: HeadlineMetric) -> f64 {
    if metric == HeadlineMetric::ErrorRate {
        100.0
    } else {
        1.0
    }
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    sides: &[Side; 2],
    title: &str,
    metric: HeadlineMetric,
    metric_name: &str,
    lang: Lang,
) -> DrawResult<(), DB> {
    let w = words(lang);
    let text = labels(lang);
    let k = scale(metric);
    let legend: Vec<LegendEntry> = sides
        .iter()
        .map(|s| {
            let (color, shape, _) = style::series(s.style);
            LegendEntry { label: s.name.to_string(), color, swatch: Swatch::Marker { shape, filled: true, line: Some(None) } }
        })
        .collect();
    let latency = metric.is_percentile();
    let ecdf_values = || sides.iter().flat_map(|s| s.ecdf.into_iter().flat_map(|e| e.points.iter().map(|p| p.0)));
    let runs_axis = if latency {
        LogAxis::covering(sides.iter().flat_map(|s| s.values()).chain(ecdf_values()))
    } else {
        LogAxis::covering(sides.iter().flat_map(|s| s.values().map(|v| v * k)))
    };
    let ecdf_axis = if latency { runs_axis.clone() } else { LogAxis::covering(ecdf_values()) };
    let has_ecdf = sides.iter().any(|s| s.ecdf.is_some());
    let mut captions = vec![w.chart_runs_key.to_string()];
    if has_ecdf {
        captions.push(w.chart_ecdf_key.to_string());
    }
    if runs_axis.floor.is_some() || ecdf_axis.floor.is_some() {
        captions.push(text.floor_note_left.to_string());
    }
    let plot = frame(root, title, &legend, &captions)?;
    let (_, height) = plot.dim_in_pixel();
    let (top, bottom) = plot.split_vertically(height * RUNS_PANEL_PERCENT / 100);

    // The runs: one row per side.
    let mut chart = house_builder(&top).build_cartesian_2d(
        runs_axis.range().log_scale().with_key_points(runs_axis.decades()).with_light_points(runs_axis.minor()),
        Ticked::new(-0.6..1.6, vec![CANDIDATE_ROW, BASELINE_ROW]),
    )?;
    let x_label = |v: &f64| decade_label(*v);
    let y_label = |_: &f64| String::new();
    let axis_title = fill(w.chart_runs_axis, &[("metric", metric_name)]);
    house_mesh(&mut chart.configure_mesh()).x_label_formatter(&x_label).y_label_formatter(&y_label).x_desc(axis_title.as_str()).draw()?;
    let start = runs_axis.range().start;
    for side in sides {
        let (color, shape, _) = style::series(side.style);
        let place = |v: f64| runs_axis.place(v * k);
        if let (Some(min), Some(max)) = (side.runs.min, side.runs.max) {
            let line = vec![(place(min).0, side.row), (place(max).0, side.row)];
            chart.draw_series(std::iter::once(PathElement::new(line, color.stroke_width(LINE))))?;
        }
        let (mut dots, mut floored) = (Vec::new(), Vec::new());
        for run in &side.runs.runs {
            let (x, moved) = place(run.value);
            if moved { &mut floored } else { &mut dots }.push((x, side.row));
        }
        markers(&mut chart, Shape::Circle, dots, SMALL_POINT + 1, color.mix(style::FAINT + 0.2).filled())?;
        floor_markers(&mut chart, floored, SMALL_POINT + 1, color)?;
        if let Some(median) = side.runs.median {
            let (x, moved) = place(median);
            if moved {
                floor_markers(&mut chart, vec![(x, side.row)], MARKER, color)?;
            } else {
                markers(&mut chart, shape, vec![(x, side.row)], MARKER, color.filled())?;
            }
        }
        // The side's name above its row, at the left edge of the plot.
        let at = chart.backend_coord(&(start, side.row));
        text_at(root, side.name.to_string(), (at.0 + 4, at.1 - 8), text_style(TEXT_PX, color).pos(Pos::new(HPos::Left, VPos::Bottom)))?;
    }

    // The representative runs' distributions.
    if !has_ecdf {
        return message(&bottom, w.chart_no_ecdf);
    }
    let mut chart = share_chart(&bottom, &ecdf_axis, text)?;
    for side in sides {
        let Some(ecdf) = side.ecdf else { continue };
        let (color, _, dash) = style::series(side.style);
        let line = step_line(&ecdf_axis, &ecdf.points);
        polyline(&mut chart, line.steps, color.stroke_width(LINE), dash)?;
        floor_markers(&mut chart, line.at_floor, MARKER - 1, color)?;
    }
    Ok(())
}
