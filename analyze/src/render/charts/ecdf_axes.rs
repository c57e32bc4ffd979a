//! What the two ECDF charts share, in one place: the axes (latency on a log scale against the
//! cumulative share of responses, with their grid and titles) and the step line through a
//! run's sorted latencies. `ecdf` draws one run with its percentile marked; `ecdf_conditions`
//! draws the representative runs of several conditions.

use super::axis::{decade_label, LogAxis, Ticked};
use super::draw::{house_builder, house_mesh, DrawResult};
use super::labels::Labels;
use crate::render::format::decimal;
use plotters::coord::combinators::{LogCoord, WithKeyPoints};
use plotters::coord::Shift;
use plotters::prelude::*;

/// The cumulative-fraction ticks.
const SHARE_TICKS: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// A chart of latency (log x) against the share of responses at or below it (y, 0 to 1).
pub type ShareChart<'a, DB> = ChartContext<'a, DB, Cartesian2d<WithKeyPoints<LogCoord<f64>>, Ticked>>;

/// Builds the chart on `plot` and draws its grid, tick labels and axis titles.
pub fn share_chart<'a, DB: DrawingBackend>(
    plot: &'a DrawingArea<DB, Shift>,
    x_axis: &LogAxis,
    text: &Labels,
) -> DrawResult<ShareChart<'a, DB>, DB> {
    let mut chart = house_builder(plot).build_cartesian_2d(
        x_axis.range().log_scale().with_key_points(x_axis.decades()).with_light_points(x_axis.minor()),
        Ticked::new(0.0..1.0, SHARE_TICKS.to_vec()),
    )?;
    let x_label = |v: &f64| decade_label(*v);
    let y_label = |v: &f64| format!("{}%", decimal(v * 100.0, 0));
    house_mesh(&mut chart.configure_mesh())
        .x_label_formatter(&x_label)
        .y_label_formatter(&y_label)
        .x_desc(text.latency_log_axis)
        .y_desc(text.share_axis)
        .draw()?;
    Ok(chart)
}

/// The step line through ECDF points, placed on the log axis.
pub struct StepLine {
    /// Zero before the first value, flat at the previous share up to each value, then up to its
    /// share, and flat after the last.
    pub steps: Vec<(f64, f64)>,
    /// The points whose value the log axis moved to its floor (a latency of 0), for markers.
    pub at_floor: Vec<(f64, f64)>,
}

/// The step line through ECDF points (value, share).
pub fn step_line(x_axis: &LogAxis, points: &[(f64, f64)]) -> StepLine {
    let range = x_axis.range();
    let mut steps = vec![(range.start, 0.0)];
    let mut previous = 0.0;
    let mut at_floor = Vec::new();
    for &(value, share) in points {
        let (x, moved) = x_axis.place(value);
        if moved {
            at_floor.push((x, share));
        }
        steps.push((x, previous));
        steps.push((x, share));
        previous = share;
    }
    steps.push((range.end, previous));
    StepLine { steps, at_floor }
}
