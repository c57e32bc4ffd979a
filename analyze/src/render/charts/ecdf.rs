//! The ECDF of one run's latencies as a step line, with the headline percentile's rank marked.

use super::axis::LogAxis;
use super::draw::{floor_markers, frame, label_at, markers, message, polyline, DrawResult};
use super::ecdf_axes::{share_chart, step_line, StepLine};
use super::labels::{self, labels};
use super::marks::{self, Mark as Pointed, Pointable, Shape as MarkShape};
use super::style::{Shape, HEIGHT, INK, LINE, MARKER, MUTED, PALETTE, REFERENCE_DASH, TEXT_PX, THIN, WIDTH};
use super::svg::{self, About};
use super::{figure_id, percentile, run_name};
use crate::model::Lang;
use crate::render::format::{count, ms_at};
use crate::report::{PointSeries, Report};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

/// The ECDF of run `run` (an index into `report.runs`) from `report.figures.ecdf[run]`: log x
/// axis in ms, cumulative share of responses on y, and the headline percentile marked at its
/// rank ("69th of 72 = 5,958.77 ms").
/// The line and the marked rank have titles; the line links to the run's page, `slug`.
pub fn ecdf(report: &Report, run: usize, slug: &str, lang: Lang) -> String {
    let name = run_name(report, run, lang);
    let marked = mark(report, run).map(|m| m.label(lang));
    let about = About {
        id: figure_id("ecdf", &[run], lang),
        title: labels::ecdf_title(lang, &name),
        desc: labels::ecdf_desc(lang, &name, marked.as_deref()),
    };
    let href = marks::run_href(slug);
    svg::render_pointable((WIDTH, HEIGHT), lang, &about, |root, pointable| draw(root, report, run, &href, lang, pointable))
}

/// The headline percentile of a run: its value, 1-based rank and how many values were ranked.
struct Mark {
    value: f64,
    rank: u64,
    n: u64,
    /// The decimals the run's latencies are known to.
    decimals: Option<u8>,
}

impl Mark {
    fn label(&self, lang: Lang) -> String {
        labels::rank_label(lang, self.rank, self.n, &ms_at(self.value, self.decimals))
    }

    /// Where the rank sits on the y axis: rank / n is the ECDF's own value at that rank.
    fn share(&self) -> f64 {
        self.rank as f64 / self.n as f64
    }
}

fn mark(report: &Report, run: usize) -> Option<Mark> {
    let result = report.runs.get(run)?;
    let n = result.ok_responses;
    (n > 0).then_some(Mark { value: result.headline_ms?, rank: result.headline_rank?, n, decimals: result.latency_decimals })
}

/// Draws the figure on any plotters backend.
fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    report: &Report,
    run: usize,
    href: &str,
    lang: Lang,
    pointable: &mut Pointable,
) -> DrawResult<(), DB> {
    let text = labels(lang);
    let empty = PointSeries::default();
    let series = report.figures.ecdf.get(run).unwrap_or(&empty);
    let mark = mark(report, run);
    let x_axis = LogAxis::covering(series.points.iter().map(|p| p.0).chain(mark.as_ref().map(|m| m.value)));

    let mut captions = Vec::new();
    if series.reduced() {
        captions.push(labels::ecdf_reduced(lang, &count(series.points.len() as u64), &count(series.total), &percentile(report)));
    }
    if x_axis.floor.is_some() {
        captions.push(text.floor_note_left.to_string());
    }
    let plot = frame(root, &labels::ecdf_title(lang, &run_name(report, run, lang)), &[], &captions)?;
    if series.points.is_empty() {
        return message(&plot, text.no_points);
    }

    let mut chart = share_chart(&plot, &x_axis, text)?;
    let StepLine { steps, at_floor } = step_line(&x_axis, &series.points);
    let range = x_axis.range();
    let band: Vec<(i32, i32)> = steps.iter().map(|p| chart.backend_coord(p)).collect();
    polyline(&mut chart, steps, PALETTE[0].stroke_width(LINE), None)?;
    floor_markers(&mut chart, at_floor, MARKER - 1, PALETTE[1])?;
    // Over everything drawn: the line's band, then the marked rank's spot.
    let mut pointed = Vec::new();
    if let Some(result) = report.runs.get(run) {
        let ms = |v: f64| ms_at(v, result.latency_decimals);
        let mut values: Vec<(String, String)> = result.percentiles_ms.iter().map(|(p, &v)| (format!("p{p}"), ms(v))).collect();
        values.extend(result.max_ms.map(|max| (crate::render::i18n::strings(lang).maximum.to_string(), ms(max))));
        let title = labels::ecdf_line_mark(lang, &run_name(report, run, lang), &values);
        pointed.push(Pointed { shape: MarkShape::Band { points: band }, title, href: Some(href.to_string()) });
    }

    if let Some(mark) = mark {
        let (x, _) = x_axis.place(mark.value);
        let y = mark.share();
        let guide = MUTED.stroke_width(THIN);
        polyline(&mut chart, vec![(x, 0.0), (x, y)], guide, Some(REFERENCE_DASH))?;
        polyline(&mut chart, vec![(range.start, y), (x, y)], guide, Some(REFERENCE_DASH))?;
        markers(&mut chart, Shape::Diamond, vec![(x, y)], MARKER + 1, PALETTE[1].filled())?;
        let (x_pixels, y_pixels) = chart.plotting_area().get_pixel_range();
        let (px, py) = chart.backend_coord(&(x, y));
        // Left of the marker (the curve there is below it) unless the marker is near the left
        // edge; above it unless it is near the top edge.
        let left = px - x_pixels.start > (x_pixels.end - x_pixels.start) * 2 / 5;
        let above = py - y_pixels.start > 20;
        let h = if left { HPos::Right } else { HPos::Left };
        let v = if above { VPos::Bottom } else { VPos::Top };
        let at = (if left { px - 16 } else { px + 16 }, if above { py - 6 } else { py + 8 });
        label_at(root, mark.label(lang), at, TEXT_PX, INK, (h, v))?;
        let title = labels::run_mark(lang, &run_name(report, run, lang), &mark.label(lang));
        pointed.push(Pointed { shape: MarkShape::Spot { at: (px, py), radius: MARKER + 2 }, title, href: Some(href.to_string()) });
    }
    let layer = pointable.layer(root)?;
    for mark in pointed {
        pointable.push(layer, mark);
    }
    Ok(())
}
