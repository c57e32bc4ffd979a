//! Latency over time for one run: a point per 2xx response at its send time, the run's
//! headline percentile as a dashed reference line, and a mark per request without a 2xx response
//! (a cross at its latency, or a triangle along the top edge when no response came).

use super::axis::{decade_label, LinearAxis, LogAxis, Ticked};
use super::draw::{floor_markers, frame, house_builder, house_mesh, label_at, markers, message, polyline, DrawResult, LegendEntry, Swatch};
use super::labels::{self, labels};
use super::marks::{self, Mark, Pointable, Shape as MarkShape};
use super::style::{self, Shape, HEIGHT, INK, PALETTE, REFERENCE_DASH, SMALL_POINT, TEXT_PX, WIDTH};
use super::svg::{self, About};
use super::{figure_id, percentile, run_name};
use crate::model::Lang;
use crate::render::format::{count, decimal, ms_at};
use crate::report::{ErrorSeries, PointSeries, Report};
use plotters::coord::combinators::{LogCoord, WithKeyPoints};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

/// Latency over time of run `run` (an index into `report.runs`): one small point per request
/// drawn (`report.figures.time_series[run]`), log y axis in ms, a dashed line at the run's
/// headline value, and a caption when the points were reduced.
/// Each point has a title (the run, its send time and latency) and links to the run's page,
/// `slug` (`paths::run_slugs`). A run whose points fall on fewer than [`MIN_SEND_TIMES`] send
/// times has no course over time to show: the chart says so instead of drawing a bare frame.
pub fn latency_over_time(report: &Report, run: usize, slug: &str, lang: Lang) -> String {
    let name = run_name(report, run, lang);
    let decimals = report.runs.get(run).and_then(|r| r.latency_decimals);
    let reference = headline(report, run).map(|value| labels::reference(&percentile(report), &ms_at(value, decimals)));
    let mut desc = labels::time_series_desc(lang, &name, reference.as_deref());
    if let Some(result) = report.runs.get(run) {
        if let Some(errors) = labels::time_series_errors(lang, result.non_2xx, result.no_response) {
            desc.push_str(crate::render::i18n::strings(lang).sentence_gap);
            desc.push_str(&errors);
        }
    }
    let about = About { id: figure_id("latency-over-time", &[run], lang), title: labels::time_series_title(lang, &name), desc };
    let href = marks::run_href(slug);
    svg::render_pointable((WIDTH, HEIGHT), lang, &about, |root, pointable| draw(root, report, run, &href, lang, pointable))
}

/// Fewer distinct send times than this show no course over time (siege's rows have none: every
/// response is drawn at 0 s).
pub const MIN_SEND_TIMES: usize = 3;

/// Requests without a 2xx response: vermillion, as the floor marks (shapes tell them apart).
const ERROR: RGBColor = PALETTE[1];
const ERROR_MARK: i32 = SMALL_POINT + 2;
/// The dash of the write-end lines: dotted, unlike the headline's reference line.
const WRITE_END_DASH: (u32, u32) = (2, 4);

fn headline(report: &Report, run: usize) -> Option<f64> {
    report.runs.get(run).and_then(|r| r.headline_ms)
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
    let series = report.figures.time_series.get(run).unwrap_or(&empty);
    let no_errors = ErrorSeries::default();
    let errors = report.figures.errors_over_time.get(run).unwrap_or(&no_errors);
    let answered: Vec<(f64, f64)> = errors.points.iter().filter_map(|e| e.latency_ms.map(|latency| (e.t_s, latency))).collect();
    let unanswered: Vec<f64> = errors.points.iter().filter(|e| e.latency_ms.is_none()).map(|e| e.t_s).collect();
    let headline = headline(report, run);
    let write_ends: &[f64] = report.figures.write_ends.get(run).map_or(&[], Vec::as_slice);
    let y_axis = LogAxis::covering(series.points.iter().chain(&answered).map(|p| p.1).chain(headline));
    let x_axis = LinearAxis::covering(
        series.points.iter().chain(&answered).map(|p| p.0).chain(unanswered.iter().copied()).chain(write_ends.iter().copied()),
        true,
    );

    let mut send_times: Vec<f64> = series.points.iter().chain(&answered).map(|p| p.0).chain(unanswered.iter().copied()).collect();
    send_times.sort_by(f64::total_cmp);
    send_times.dedup();
    let too_few = send_times.len() < MIN_SEND_TIMES;
    let mut captions = Vec::new();
    if too_few {
        // Nothing is drawn, so nothing drawn needs a caption.
    } else if series.total > crate::stats::figures::KEEP_ALL {
        captions.push(labels::time_series_reduced(lang, &count(series.points.len() as u64), &count(series.total)));
    } else if series.reduced() {
        captions.push(labels::time_series_coincide(lang, &count(series.points.len() as u64), &count(series.total)));
    }
    if errors.reduced() && !too_few {
        captions.push(labels::time_series_errors_reduced(lang, &count(errors.points.len() as u64), &count(errors.total)));
    }
    if y_axis.floor.is_some() && !too_few {
        captions.push(text.floor_note.to_string());
    }
    if !write_ends.is_empty() && !too_few {
        captions.push(labels::write_end_note(lang, write_ends.len()));
    }
    let mut legend = Vec::new();
    if !errors.points.is_empty() && !too_few {
        let [ok, error, no_response] = labels::time_series_legend(lang);
        legend.push(LegendEntry { label: ok.to_string(), color: PALETTE[0], swatch: Swatch::Dot { opacity: style::REQUEST_OPACITY } });
        if !answered.is_empty() {
            let swatch = Swatch::Marker { shape: Shape::Cross, filled: false, line: None };
            legend.push(LegendEntry { label: error.to_string(), color: ERROR, swatch });
        }
        if !unanswered.is_empty() {
            let swatch = Swatch::Marker { shape: Shape::Triangle, filled: true, line: None };
            legend.push(LegendEntry { label: no_response.to_string(), color: ERROR, swatch });
        }
    }
    let plot = frame(root, &labels::time_series_title(lang, &run_name(report, run, lang)), &legend, &captions)?;
    if series.points.is_empty() && errors.points.is_empty() {
        return message(&plot, text.no_points);
    }
    if too_few {
        return message(&plot, &labels::too_few_send_times(lang, series.total + errors.total, send_times.len()));
    }

    let mut chart = time_log_chart(&plot, &x_axis, &y_axis, text.time_axis, text.latency_log_axis)?;

    // Behind the points: a vertical line where the app finished writing each large response.
    for &end in write_ends {
        let (low, high) = (y_axis.range().start, y_axis.range().end);
        polyline(&mut chart, vec![(end, low), (end, high)], style::MUTED.stroke_width(style::THIN), Some(WRITE_END_DASH))?;
    }
    // Each 2xx response is a dot of its own, with its title, all linking to the run's page.
    let name = run_name(report, run, lang);
    let decimals = report.runs.get(run).and_then(|r| r.latency_decimals);
    let layer = pointable.layer(root)?;
    let mut at_floor = Vec::new();
    for &(t, latency) in &series.points {
        let (y, moved) = y_axis.place(latency);
        let at = chart.backend_coord(&(t, y));
        let title = labels::point_mark(lang, &name, &decimal(t, 3), &ms_at(latency, decimals));
        let shape = if moved {
            at_floor.push((t, y));
            MarkShape::Spot { at, radius: SMALL_POINT + 1 }
        } else {
            MarkShape::Dot { at, radius: SMALL_POINT, color: PALETTE[0], opacity: style::REQUEST_OPACITY }
        };
        pointable.push(layer, Mark { shape, title, href: Some(href.to_string()) });
    }
    floor_markers(&mut chart, at_floor, SMALL_POINT + 1, PALETTE[1])?;

    // Errors over the 2xx points, so a few stay visible among many.
    let crosses: Vec<(f64, f64)> = answered.iter().map(|&(t, latency)| (t, y_axis.place(latency).0)).collect();
    markers(&mut chart, Shape::Cross, crosses, ERROR_MARK, ERROR.stroke_width(1))?;
    let top = y_axis.range().end;
    markers(&mut chart, Shape::Triangle, unanswered.iter().map(|&t| (t, top)).collect(), ERROR_MARK, ERROR.filled())?;
    // Over the error marks, a spot each that names the request: its send time and status, and
    // its latency when a response came.
    let error_spots = pointable.layer(root)?;
    for error in &errors.points {
        let (at, latency) = match error.latency_ms {
            Some(latency) => ((error.t_s, y_axis.place(latency).0), Some(ms_at(latency, decimals))),
            None => ((error.t_s, top), None),
        };
        let title = labels::error_mark(lang, &name, &decimal(error.t_s, 3), error.status, latency.as_deref());
        let spot = MarkShape::Spot { at: chart.backend_coord(&at), radius: ERROR_MARK };
        pointable.push(error_spots, Mark { shape: spot, title, href: Some(href.to_string()) });
    }

    if let Some(value) = headline {
        let (y, _) = y_axis.place(value);
        let (at, pos) = reference_line(&mut chart, &x_axis, y)?;
        let reference = labels::reference(&percentile(report), &ms_at(value, decimals));
        label_at(root, reference, at, TEXT_PX, INK, (HPos::Right, pos))?;
    }
    Ok(())
}

/// A chart of a quantity over time: seconds on a linear x axis, the quantity on a log y axis
/// of whole decades. The latency and send-lag charts of a run share it.
pub type TimeLogChart<'a, DB> = ChartContext<'a, DB, Cartesian2d<Ticked, WithKeyPoints<LogCoord<f64>>>>;

/// Builds the chart on `plot` and draws its grid, tick labels and axis titles.
pub fn time_log_chart<'a, DB: DrawingBackend>(
    plot: &'a DrawingArea<DB, Shift>,
    x_axis: &LinearAxis,
    y_axis: &LogAxis,
    x_desc: &str,
    y_desc: &str,
) -> DrawResult<TimeLogChart<'a, DB>, DB> {
    let mut chart = house_builder(plot).build_cartesian_2d(
        Ticked::from(x_axis),
        y_axis.range().log_scale().with_key_points(y_axis.decades()).with_light_points(y_axis.minor()),
    )?;
    let x_label = |v: &f64| decimal(*v, x_axis.decimals);
    let y_label = |v: &f64| decade_label(*v);
    house_mesh(&mut chart.configure_mesh()).x_label_formatter(&x_label).y_label_formatter(&y_label).x_desc(x_desc).y_desc(y_desc).draw()?;
    Ok(chart)
}

/// The dashed reference line across the chart at `y` (already placed on the log axis), and
/// where its label goes: the backend pixel at the plot's right end, above the line unless the
/// line runs along the top edge (then below).
pub fn reference_line<DB: DrawingBackend>(
    chart: &mut TimeLogChart<'_, DB>,
    x_axis: &LinearAxis,
    y: f64,
) -> DrawResult<((i32, i32), VPos), DB> {
    polyline(chart, vec![(x_axis.low, y), (x_axis.high, y)], INK.stroke_width(style::LINE), Some(REFERENCE_DASH))?;
    let (x_pixels, y_pixels) = chart.plotting_area().get_pixel_range();
    let (_, line_y) = chart.backend_coord(&(x_axis.high, y));
    let (pos, label_y) = if line_y - y_pixels.start < 22 { (VPos::Top, line_y + 5) } else { (VPos::Bottom, line_y - 5) };
    Ok(((x_pixels.end - 6, label_y), pos))
}
