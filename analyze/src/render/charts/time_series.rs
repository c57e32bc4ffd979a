//! Latency over time for one run. A run of a few hundred 2xx responses is drawn point by point,
//! each a mark with its title; a larger one as the columns of send time the statistics cut it
//! into ([`crate::stats::bands`]): a band from each column's p50 to its p95, the median line
//! through the columns and a mark at each column's slowest response, every column a hover
//! area that gives its values. The run's headline percentile is a dashed reference line, and each
//! request without a 2xx response a mark of its own (a cross at its latency, or a triangle along
//! the top edge when no response came).

use super::axis::{decade_label, LinearAxis, LogAxis, Ticked};
use super::draw::{floor_markers, frame, house_builder, house_mesh, label_at, markers, message, polyline, DrawResult, LegendEntry, Swatch};
use super::labels::{self, labels};
use super::marks::{self, Mark, Pointable, Shape as MarkShape};
use super::style::{self, Shape, HEIGHT, INK, LINE, PALETTE, REFERENCE_DASH, SMALL_POINT, TEXT_PX, WIDTH};
use super::svg::{self, About};
use super::{figure_id, percentile, run_name};
use crate::model::Lang;
use crate::render::format::{count, decimal, ms_at};
use crate::report::{ErrorSeries, Report, TimeColumn, TimeSeries};
use crate::stats::bands::{distinct_send_times, MIN_SEND_TIMES};
use plotters::coord::combinators::{LogCoord, WithKeyPoints};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

/// Latency over time of run `run` (an index into `report.runs`), from
/// `report.figures.time_series[run]`: log y axis in ms, a dashed line at the run's headline
/// value, and captions that say what stands for how many responses. Every mark and column has a
/// title and links to the run's page, `slug` (`paths::run_slugs`). A run whose requests fall on
/// fewer than [`MIN_SEND_TIMES`] send times has no course over time to show: the chart says so
/// instead of drawing a bare frame.
pub fn latency_over_time(report: &Report, run: usize, slug: &str, lang: Lang) -> String {
    let name = run_name(report, run, lang);
    let decimals = report.runs.get(run).and_then(|r| r.latency_decimals);
    let reference = headline(report, run).map(|value| labels::reference(&percentile(report), &ms_at(value, decimals)));
    let empty = TimeSeries::default();
    let series = report.figures.time_series.get(run).unwrap_or(&empty);
    let columns = series.banded().then_some(series.columns.len());
    let mut desc = labels::time_series_desc(lang, &name, series.total, columns, reference.as_deref());
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

/// Requests without a 2xx response: vermillion, as the floor marks (shapes tell them apart).
const ERROR: RGBColor = PALETTE[1];
const ERROR_MARK: i32 = SMALL_POINT + 2;
/// The dash of the write-end lines: dotted, unlike the headline's reference line.
const WRITE_END_DASH: (u32, u32) = (2, 4);

fn headline(report: &Report, run: usize) -> Option<f64> {
    report.runs.get(run).and_then(|r| r.headline_ms)
}

/// What every mark of the figure shares: the run's link and latency decimals.
struct MarkContext<'a> {
    href: &'a str,
    decimals: Option<u8>,
    lang: Lang,
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
    let empty = TimeSeries::default();
    let series = report.figures.time_series.get(run).unwrap_or(&empty);
    let no_errors = ErrorSeries::default();
    let errors = report.figures.errors_over_time.get(run).unwrap_or(&no_errors);
    let answered: Vec<(f64, f64)> = errors.points.iter().filter_map(|e| e.latency_ms.map(|latency| (e.t_s, latency))).collect();
    let unanswered: Vec<f64> = errors.points.iter().filter(|e| e.latency_ms.is_none()).map(|e| e.t_s).collect();
    let headline = headline(report, run);
    let write_ends: &[f64] = report.figures.write_ends.get(run).map_or(&[], Vec::as_slice);
    let column_values = series.columns.iter().flat_map(|c| [c.p50_ms, c.max_ms]);
    let y_axis =
        LogAxis::covering(series.points.iter().map(|p| p.1).chain(column_values).chain(answered.iter().map(|p| p.1)).chain(headline));
    let column_times = series.columns.iter().flat_map(|c| [c.from_s, c.to_s]);
    let x_axis = LinearAxis::covering(
        series
            .points
            .iter()
            .map(|p| p.0)
            .chain(column_times)
            .chain(answered.iter().map(|p| p.0))
            .chain(unanswered.iter().copied())
            .chain(write_ends.iter().copied()),
        true,
    );

    let send_times = distinct_send_times(series, errors);
    let too_few = send_times < MIN_SEND_TIMES;
    let mut captions = Vec::new();
    if too_few {
        // Nothing is drawn, so nothing drawn needs a caption.
    } else if series.banded() {
        captions.push(labels::time_series_banded(lang, series.columns.len(), series.total));
    } else if series.coincide() {
        captions.push(labels::time_series_coincide(lang, &count(series.points.len() as u64), &count(series.total)));
    } else if !series.points.is_empty() {
        captions.push(labels::time_series_all(lang, series.total));
    }
    if errors.reduced() && !too_few {
        let shown = count(errors.points.len() as u64);
        captions.push(labels::time_series_errors_reduced(lang, &shown, &count(errors.total), crate::stats::figures::ERROR_COLUMNS));
    }
    if y_axis.floor.is_some() && !too_few {
        captions.push(text.floor_note.to_string());
    }
    if !write_ends.is_empty() && !too_few {
        captions.push(labels::write_end_note(lang, write_ends.len()));
    }
    let legend = if too_few { Vec::new() } else { legend(series, !answered.is_empty(), !unanswered.is_empty(), lang) };
    let plot = frame(root, &labels::time_series_title(lang, &run_name(report, run, lang)), &legend, &captions)?;
    if series.points.is_empty() && series.columns.is_empty() && errors.points.is_empty() {
        return message(&plot, text.no_points);
    }
    if too_few {
        return message(&plot, &labels::too_few_send_times(lang, series.total + errors.total, send_times));
    }

    let mut chart = time_log_chart(&plot, &x_axis, &y_axis, text.time_axis, text.latency_log_axis)?;

    // Behind the points: a vertical line where the app finished writing each large response.
    for &end in write_ends {
        let (low, high) = (y_axis.range().start, y_axis.range().end);
        polyline(&mut chart, vec![(end, low), (end, high)], style::MUTED.stroke_width(style::THIN), Some(WRITE_END_DASH))?;
    }
    let marks = MarkContext { href, decimals: report.runs.get(run).and_then(|r| r.latency_decimals), lang };
    if series.banded() {
        draw_columns(root, &mut chart, &y_axis, &series.columns, &marks, pointable)?;
    } else {
        draw_points(root, &mut chart, &y_axis, &series.points, &marks, pointable)?;
    }

    // Errors over the 2xx responses, so a few stay visible among many.
    let crosses: Vec<(f64, f64)> = answered.iter().map(|&(t, latency)| (t, y_axis.place(latency).0)).collect();
    markers(&mut chart, Shape::Cross, crosses, ERROR_MARK, ERROR.stroke_width(1))?;
    let top = y_axis.range().end;
    markers(&mut chart, Shape::Triangle, unanswered.iter().map(|&t| (t, top)).collect(), ERROR_MARK, ERROR.filled())?;
    // Over the error marks, a spot each that names the request: its send time and status, and
    // its latency when a response came.
    let error_spots = pointable.layer(root)?;
    for error in &errors.points {
        let (at, latency) = match error.latency_ms {
            Some(latency) => ((error.t_s, y_axis.place(latency).0), Some(ms_at(latency, marks.decimals))),
            None => ((error.t_s, top), None),
        };
        let title = labels::error_mark(lang, &decimal(error.t_s, 3), error.status, latency.as_deref());
        let spot = MarkShape::Spot { at: chart.backend_coord(&at), radius: ERROR_MARK };
        pointable.push(error_spots, Mark { shape: spot, title, href: Some(href.to_string()) });
    }

    if let Some(value) = headline {
        let (y, _) = y_axis.place(value);
        let (at, pos) = reference_line(&mut chart, &x_axis, y)?;
        let reference = labels::reference(&percentile(report), &ms_at(value, marks.decimals));
        label_at(root, reference, at, TEXT_PX, INK, (HPos::Right, pos))?;
    }
    Ok(())
}

/// The legend: a run drawn in columns names its band, median line and slowest marks; a run drawn
/// point by point names its points only beside error marks, which it then tells apart.
fn legend(series: &TimeSeries, answered: bool, unanswered: bool, lang: Lang) -> Vec<LegendEntry> {
    let mut legend = Vec::new();
    if series.banded() {
        let [band, median, slowest] = labels::time_series_band_legend(lang);
        legend.push(LegendEntry { label: band.to_string(), color: PALETTE[0], swatch: Swatch::Band { opacity: BAND_OPACITY } });
        legend.push(LegendEntry { label: median.to_string(), color: PALETTE[0], swatch: Swatch::Line });
        legend.push(LegendEntry { label: slowest.to_string(), color: PALETTE[0], swatch: Swatch::Dot { opacity: 1.0 } });
    } else if answered || unanswered {
        let [ok, _, _] = labels::time_series_legend(lang);
        legend.push(LegendEntry { label: ok.to_string(), color: PALETTE[0], swatch: Swatch::Dot { opacity: style::REQUEST_OPACITY } });
    }
    let [_, error, no_response] = labels::time_series_legend(lang);
    if answered {
        let swatch = Swatch::Marker { shape: Shape::Cross, filled: false, line: None };
        legend.push(LegendEntry { label: error.to_string(), color: ERROR, swatch });
    }
    if unanswered {
        let swatch = Swatch::Marker { shape: Shape::Triangle, filled: true, line: None };
        legend.push(LegendEntry { label: no_response.to_string(), color: ERROR, swatch });
    }
    legend
}

/// Each 2xx response of a small run: a dot of its own with its title, linking to the run's page.
fn draw_points<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &mut TimeLogChart<'_, DB>,
    y_axis: &LogAxis,
    points: &[(f64, f64)],
    marks: &MarkContext,
    pointable: &mut Pointable,
) -> DrawResult<(), DB> {
    let layer = pointable.layer(root)?;
    let mut at_floor = Vec::new();
    for &(t, latency) in points {
        let (y, moved) = y_axis.place(latency);
        let at = chart.backend_coord(&(t, y));
        let title = labels::point_mark(marks.lang, &decimal(t, 3), &ms_at(latency, marks.decimals));
        let shape = if moved {
            at_floor.push((t, y));
            MarkShape::Spot { at, radius: SMALL_POINT + 1 }
        } else {
            MarkShape::Dot { at, radius: SMALL_POINT, color: PALETTE[0], opacity: style::REQUEST_OPACITY }
        };
        pointable.push(layer, Mark { shape, title, href: Some(marks.href.to_string()) });
    }
    floor_markers(chart, at_floor, SMALL_POINT + 1, PALETTE[1])
}

/// The band's fill: light enough that the median line and the slowest marks read over it.
const BAND_OPACITY: f64 = 0.3;

/// The columns of a large run: per run of adjacent columns a band from p50 to p95 and the
/// median line through them; over them each column's hover area, then its slowest response.
fn draw_columns<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &mut TimeLogChart<'_, DB>,
    y_axis: &LogAxis,
    columns: &[TimeColumn],
    marks: &MarkContext,
    pointable: &mut Pointable,
) -> DrawResult<(), DB> {
    let band_style = PALETTE[0].mix(BAND_OPACITY).filled();
    let mut at_floor = Vec::new();
    for adjacent in adjacent_runs(columns) {
        let place = |value: f64| y_axis.place(value).0;
        let mut outline: Vec<(f64, f64)> = adjacent.iter().flat_map(|c| [(c.from_s, place(c.p95_ms)), (c.to_s, place(c.p95_ms))]).collect();
        outline.extend(adjacent.iter().rev().flat_map(|c| [(c.to_s, place(c.p50_ms)), (c.from_s, place(c.p50_ms))]));
        chart.draw_series(std::iter::once(Polygon::new(outline, band_style)))?;
        let median: Vec<(f64, f64)> = adjacent.iter().flat_map(|c| [(c.from_s, place(c.p50_ms)), (c.to_s, place(c.p50_ms))]).collect();
        polyline(chart, median, PALETTE[0].stroke_width(LINE), None)?;
        at_floor.extend(adjacent.iter().filter(|c| y_axis.place(c.p50_ms).1).map(|c| ((c.from_s + c.to_s) / 2.0, place(c.p50_ms))));
    }
    floor_markers(chart, at_floor, SMALL_POINT + 1, PALETTE[1])?;

    let decimals = span_decimals(columns);
    let (_, y_pixels) = chart.plotting_area().get_pixel_range();
    let areas = pointable.layer(root)?;
    let slowest = pointable.layer(root)?;
    for column in columns {
        let (from, to) = (decimal(column.from_s, decimals), decimal(column.to_s, decimals));
        let ms = |value: f64| ms_at(value, marks.decimals);
        let (p50, p95, max) = (ms(column.p50_ms), ms(column.p95_ms), ms(column.max_ms));
        let values = labels::ColumnValues { from_s: &from, to_s: &to, requests: column.requests, p50: &p50, p95: &p95, max: &max };
        let (left, _) = chart.backend_coord(&(column.from_s, y_axis.range().end));
        let (right, _) = chart.backend_coord(&(column.to_s, y_axis.range().end));
        let area = MarkShape::Area { x: left, y: y_pixels.start, width: (right - left).max(1), height: y_pixels.end - y_pixels.start };
        pointable.push(areas, Mark { shape: area, title: labels::column_mark(marks.lang, &values), href: Some(marks.href.to_string()) });
        let (y, moved) = y_axis.place(column.max_ms);
        let at = chart.backend_coord(&(column.slowest_s, y));
        let title = labels::slowest_mark(marks.lang, &decimal(column.slowest_s, 3), &max);
        let shape = if moved {
            MarkShape::Spot { at, radius: SMALL_POINT + 1 }
        } else {
            MarkShape::Dot { at, radius: SMALL_POINT, color: PALETTE[0], opacity: 1.0 }
        };
        pointable.push(slowest, Mark { shape, title, href: Some(marks.href.to_string()) });
    }
    Ok(())
}

/// The columns in runs of neighbours: a column no response was sent in leaves a gap, which the
/// band and the median line do not bridge.
fn adjacent_runs(columns: &[TimeColumn]) -> Vec<&[TimeColumn]> {
    let mut runs = Vec::new();
    let mut start = 0;
    for i in 1..=columns.len() {
        if i == columns.len() || columns[i].from_s != columns[i - 1].to_s {
            runs.push(&columns[start..i]);
            start = i;
        }
    }
    runs
}

/// Decimals of the seconds a column's title gives, so that neighbouring columns' bounds differ:
/// one more than the column width's first significant decimal, at most 3 (milliseconds).
fn span_decimals(columns: &[TimeColumn]) -> usize {
    let width = columns.iter().map(|c| c.to_s - c.from_s).filter(|w| *w > 0.0).fold(f64::INFINITY, f64::min);
    if !width.is_finite() {
        return 3;
    }
    ((-width.log10()).ceil().max(0.0) as usize + 1).min(3)
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
