//! The send lag of each request of an open-loop run against its scheduled time: where the
//! client fell behind its schedule, which latency from the actual send would hide.

use super::axis::{LinearAxis, LogAxis};
use super::draw::{floor_markers, frame, markers, message, text_at, DrawResult};
use super::labels::{self, labels};
use super::style::{self, Shape, HEIGHT, INK, PALETTE, SMALL_POINT, TEXT_PX, WIDTH};
use super::svg::{self, text_style, About};
use super::time_series::{reference_line, time_log_chart};
use super::{figure_id, run_name};
use crate::model::Lang;
use crate::render::format::{count, ms};
use crate::report::{LagSeries, Report};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos};

/// The send-lag chart of run `run` (an index into `report.runs`), from
/// `report.figures.send_lags[run]`, with the flag threshold (`thresholds.lag_ms`) dashed.
pub fn send_lag(report: &Report, run: usize, lang: Lang) -> String {
    let name = run_name(report, run, lang);
    let threshold = report.variance.thresholds.lag_ms;
    let about = About {
        id: figure_id("send-lag", &[run], lang),
        title: labels::send_lag_title(lang, &name),
        desc: labels::send_lag_desc(lang, &name, &ms(threshold)),
    };
    svg::render((WIDTH, HEIGHT), lang, &about, |root| draw(root, report, run, threshold, lang))
}

fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, report: &Report, run: usize, threshold: f64, lang: Lang) -> DrawResult<(), DB> {
    let text = labels(lang);
    let empty = LagSeries::default();
    let series = report.figures.send_lags.get(run).unwrap_or(&empty);
    let y_axis = LogAxis::covering(series.points.iter().map(|p| p.1).filter(|&lag| lag > 0.0).chain([threshold]));
    let x_axis = LinearAxis::covering(series.points.iter().map(|p| p.0), true);
    let mut captions = Vec::new();
    if (series.points.len() as u64) < series.total && !series.points.is_empty() {
        captions.push(labels::send_lag_reduced(lang, &count(series.points.len() as u64), &count(series.total)));
    }
    let on_time = series.points.iter().any(|p| p.1 <= 0.0);
    if on_time {
        captions.push(text.lag_floor_note.to_string());
    }
    let plot = frame(root, &labels::send_lag_title(lang, &run_name(report, run, lang)), &[], &captions)?;
    if series.points.is_empty() {
        return message(&plot, text.no_points);
    }
    let mut chart = time_log_chart(&plot, &x_axis, &y_axis, text.scheduled_axis, text.lag_log_axis)?;
    let (mut points, mut at_floor) = (Vec::new(), Vec::new());
    let bottom = y_axis.range().start;
    for &(t, lag) in &series.points {
        if lag <= 0.0 {
            at_floor.push((t, bottom));
        } else {
            points.push((t, y_axis.place(lag).0));
        }
    }
    markers(&mut chart, Shape::Circle, points, SMALL_POINT, PALETTE[0].mix(style::REQUEST_OPACITY).filled())?;
    floor_markers(&mut chart, at_floor, SMALL_POINT + 1, PALETTE[1])?;
    let (y, _) = y_axis.place(threshold);
    let (at, pos) = reference_line(&mut chart, &x_axis, y)?;
    text_at(root, labels::lag_threshold(lang, &ms(threshold)), at, text_style(TEXT_PX, INK).pos(Pos::new(HPos::Right, pos)))?;
    Ok(())
}
