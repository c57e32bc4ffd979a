//! The ECDF of one run's latencies as a step line, with the headline percentile's rank marked.

use super::axis::LogAxis;
use super::draw::{floor_markers, frame, label_at, markers, message, polyline, text_width, DrawResult};
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
        let (px, py) = chart.backend_coord(&(x, y));
        let label = mark.label(lang);
        let (at, anchor) = label_place(chart.plotting_area().get_pixel_range(), (px, py), text_width(&label, TEXT_PX));
        let title = labels::run_mark(lang, &run_name(report, run, lang), &label);
        label_at(root, label, at, TEXT_PX, INK, anchor)?;
        pointed.push(Pointed { shape: MarkShape::Spot { at: (px, py), radius: MARKER + 2 }, title, href: Some(href.to_string()) });
    }
    let layer = pointable.layer(root)?;
    for mark in pointed {
        pointable.push(layer, mark);
    }
    Ok(())
}

/// Where the marked rank's label goes, given the plot's pixel ranges, the marker's pixel and the
/// label's width. An ECDF rises, so right of the marker the line is at or above it and left of it
/// at or below: below-right and above-left of the marker it never runs. The label goes below-right
/// where it fits, else above-left where there is room (it may reach 8 pixels above the
/// plot, into the margin under the title: a p95 near the top-right corner), else below-left, where
/// its patch hides a little of the line.
fn label_place(
    (x_pixels, y_pixels): (std::ops::Range<i32>, std::ops::Range<i32>),
    (px, py): (i32, i32),
    width: i32,
) -> ((i32, i32), (HPos, VPos)) {
    const GAP: i32 = 16;
    const LINE_BOX: i32 = 22;
    const OVERHANG: i32 = 8;
    let fits_right = px + GAP + width <= x_pixels.end && y_pixels.end - py > LINE_BOX;
    let fits_left = px - GAP - width >= x_pixels.start;
    if fits_right {
        ((px + GAP, py + 8), (HPos::Left, VPos::Top))
    } else if fits_left && py - y_pixels.start > LINE_BOX - OVERHANG {
        ((px - GAP, py - 6), (HPos::Right, VPos::Bottom))
    } else if fits_left {
        ((px - GAP, py + 8), (HPos::Right, VPos::Top))
    } else {
        ((px + GAP, py - 6), (HPos::Left, VPos::Bottom))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quadrant a label takes, as its corner at the marker says: (right of it, below it).
    fn quadrant(place: ((i32, i32), (HPos, VPos)), marker: (i32, i32)) -> (bool, bool) {
        let ((x, y), _) = place;
        (x > marker.0, y > marker.1)
    }

    #[test]
    fn the_rank_label_sits_where_a_rising_line_never_runs() {
        let plot = (70..730, 40..390);
        // p95 near the top with room to its right (the model study's run pages): below-right.
        assert_eq!(quadrant(label_place(plot.clone(), (461, 55), 120), (461, 55)), (true, true));
        // Near the right edge, lower down: above-left.
        assert_eq!(quadrant(label_place(plot.clone(), (700, 200), 120), (700, 200)), (false, false));
        // Near the right edge, 18 px below the top (fastcgi-vs-gunicorn's p95 of r01): above-left,
        // reaching a little above the plot.
        assert_eq!(quadrant(label_place(plot.clone(), (700, 58), 120), (700, 58)), (false, false));
        // Near the right edge and the top: below-left, the one place the line may cross.
        assert_eq!(quadrant(label_place(plot.clone(), (700, 50), 120), (700, 50)), (false, true));
        // A narrow plot with the marker at its left: right of it, above, whatever fits.
        assert_eq!(quadrant(label_place((70..200, 40..390), (90, 380), 150), (90, 380)), (true, false));
    }
}
