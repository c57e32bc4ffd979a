//! The trend chart of one condition of a history: measurements along x in order, the metric on a
//! log axis; each run a faint dot, each measurement's min-max range a line and its median a
//! marker, and each change found a dashed line between the two measurements it falls between,
//! labelled with its ratio. Every median and dot has a title, and in a site links to its
//! measurement's report.
//!
//! It draws the values `stats::history` put in the [`HistoryReport`] and computes nothing.

use super::axis::{decade_label, LogAxis};
use super::draw::{frame, house_builder, house_mesh, markers, text_at, DrawResult};
use super::marks::{run_dot, Mark, Pointable, Shape as MarkShape};
use super::style::{self, Shape, LABELLED_RIGHT, LINE, MARGIN, MARKER, TEXT_PX, WIDTH, Y_LABEL_AREA};
use super::svg::{self, text_style, About};
use crate::model::Lang;
use crate::render::format::metric_value_at;
use crate::render::i18n::fill;
use crate::render::i18n::history::words;
use crate::render::i18n::prose::labels_label;
use crate::render::view::{compare_metric_label, history_measurement_href, HistorySite};
use crate::report::history::HistoryReport;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The chart's height (px).
const HEIGHT: u32 = 420;

/// The chart of condition `k` of `report`; `summary` ends its description.
pub fn history_condition(report: &HistoryReport, k: usize, summary: &str, lang: Lang, site: Option<&HistorySite>) -> String {
    let w = words(lang);
    let condition = &report.conditions[k];
    let label = labels_label(lang, &condition.labels);
    let metric = compare_metric_label(lang, report.headline, &report.metric);
    let title = fill(w.chart_title, &[("condition", &label)]);
    let about = About {
        id: format!("chart-history-{}-{}", k + 1, lang.code()),
        title: title.clone(),
        desc: fill(w.chart_desc, &[("metric", &metric), ("summary", summary)]),
    };
    svg::render_pointable((WIDTH, HEIGHT), lang, &about, |root, marks| draw(root, marks, report, k, &title, &metric, lang, site))
}

#[allow(clippy::too_many_arguments)]
fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    marks: &mut Pointable,
    report: &HistoryReport,
    k: usize,
    title: &str,
    metric: &str,
    lang: Lang,
    site: Option<&HistorySite>,
) -> DrawResult<(), DB> {
    let w = words(lang);
    let condition = &report.conditions[k];
    let scale = if report.headline == crate::model::HeadlineMetric::ErrorRate { 100.0 } else { 1.0 };
    let axis = LogAxis::covering(condition.measurements.iter().flat_map(|m| m.runs.iter().map(|r| r.value * scale)));
    let count = report.measurements.len() as f64;
    let plot = frame(root, title, &[], &[w.chart_key.to_string()])?;
    let mut chart = house_builder(&plot)
        .build_cartesian_2d(0.5..count + 0.5, axis.range().log_scale().with_key_points(axis.decades()).with_light_points(axis.minor()))?;
    let (x_title, ticks) = x_ticks(report, lang);
    let every = tick_step(&ticks);
    let x_label = |v: &f64| {
        let number = *v as usize;
        let labelled = v.fract() == 0.0 && number >= 1 && (number - 1) % every == 0;
        labelled.then(|| ticks.get(number - 1).cloned()).flatten().unwrap_or_default()
    };
    let y_label = |v: &f64| decade_label(*v);
    let y_title = fill(w.chart_y_axis, &[("metric", metric)]);
    house_mesh(&mut chart.configure_mesh())
        .x_labels(report.measurements.len().min(30))
        .x_label_formatter(&x_label)
        .y_label_formatter(&y_label)
        .x_desc(x_title.as_str())
        .y_desc(y_title.as_str())
        .draw()?;
    let (color, _, _) = style::series(0);
    let (y_low, y_high) = (axis.range().start, axis.range().end);
    // The changes first, under the points.
    for change in &condition.changes {
        let x = change.after as f64 - 0.5;
        chart.draw_series(DashedLineSeries::new(vec![(x, y_low), (x, y_high)], 5, 4, style::INK.mix(0.6).stroke_width(LINE)))?;
        let at = chart.backend_coord(&(x, y_high));
        // A change the failures decided is labelled by its shares of failed requests.
        let label = match change.ratio.filter(|_| change.decided_by == crate::model::DecidedBy::Metric) {
            Some(ratio) => fill(w.chart_change, &[("ratio", &crate::render::format::factor(ratio))]),
            None => {
                let share = |s: Option<f64>| s.map_or_else(|| "–".to_string(), crate::render::format::percent_fine);
                let cw = crate::render::i18n::compare::words(lang);
                fill(cw.text_failures, &[("base", &share(change.failures.before)), ("cand", &share(change.failures.after))])
            }
        };
        text_at(root, label, (at.0 + 3, at.1 + 2), text_style(TEXT_PX, style::INK).pos(Pos::new(HPos::Left, VPos::Top)))?;
    }
    let dots = marks.layer(root)?;
    let mut median_marks = Vec::new();
    for m in &condition.measurements {
        let x = m.number as f64;
        let place = |v: f64| axis.place(v * scale).0;
        chart.draw_series(std::iter::once(PathElement::new(vec![(x, place(m.min)), (x, place(m.max))], color.stroke_width(LINE))))?;
        let dataset = report.measurements.get(m.number - 1).map_or("", |d| d.dataset.as_str());
        let href = history_measurement_href(site, m.number, lang, 1);
        for run in &m.runs {
            let at = chart.backend_coord(&(x, place(run.value)));
            let value = metric_value_at(report.headline, None, run.value);
            let title = fill(w.chart_run, &[("number", &m.number.to_string()), ("run", &run.run_id), ("value", &value)]);
            marks.push(dots, run_dot(at, color, title, href.clone()));
        }
        let at = chart.backend_coord(&(x, place(m.median)));
        markers(&mut chart, Shape::Circle, vec![(x, place(m.median))], MARKER, color.filled())?;
        let title = fill(
            w.chart_mark,
            &[
                ("number", &m.number.to_string()),
                ("dataset", dataset),
                ("median", &metric_value_at(report.headline, None, m.median)),
                ("runs", &crate::render::format::count(m.runs.len() as u64)),
            ],
        );
        median_marks.push(Mark { shape: MarkShape::Spot { at, radius: MARKER }, title, href });
    }
    // Over the markers, so the pointer finds them.
    let medians = marks.layer(root)?;
    for mark in median_marks {
        marks.push(medians, mark);
    }
    Ok(())
}

/// The x axis's title and each measurement's tick: its revision when every measurement has
/// one, else the day it was measured (the year in the title when they share one), else its
/// number.
fn x_ticks(report: &HistoryReport, lang: Lang) -> (String, Vec<String>) {
    let w = words(lang);
    let measurements = &report.measurements;
    if let Some(revisions) = measurements.iter().map(|m| m.revision.clone()).collect::<Option<Vec<_>>>() {
        return (w.chart_x_revision.to_string(), revisions);
    }
    let Some(days) = measurements.iter().map(|m| m.measured.clone()).collect::<Option<Vec<_>>>() else {
        return (w.chart_x_axis.to_string(), measurements.iter().map(|m| m.number.to_string()).collect());
    };
    let year = |day: &str| day.get(..5).filter(|y| y.ends_with('-')).map(|y| y[..4].to_string());
    match days.first().and_then(|d| year(d)) {
        Some(first) if days.iter().all(|d| year(d).as_deref() == Some(first.as_str())) => {
            (fill(w.chart_x_measured_year, &[("year", &first)]), days.iter().map(|d| d[5..].to_string()).collect())
        }
        _ => (w.chart_x_measured.to_string(), days),
    }
}

/// Label every this many measurements, so that the longest tick fits its share of the axis.
fn tick_step(ticks: &[String]) -> usize {
    let longest = ticks.iter().map(|t| t.chars().count()).max().unwrap_or(1) as f64;
    // About 0.6 em a character, and a gap of one em between ticks.
    let tick_px = (longest * 0.6 + 1.0) * TEXT_PX;
    let axis_px = f64::from(WIDTH - Y_LABEL_AREA - LABELLED_RIGHT - 2 * MARGIN);
    let slot_px = axis_px / ticks.len().max(1) as f64;
    (tick_px / slot_px).ceil().max(1.0) as usize
}

#[cfg(test)]
mod tests {
    use super::tick_step;

    #[test]
    fn ticks_are_thinned_until_the_longest_fits() {
        let days = |n: usize| (0..n).map(|k| format!("11-{:02}", k % 30 + 1)).collect::<Vec<_>>();
        assert_eq!(tick_step(&days(8)), 1, "eight days fit side by side");
        let step = tick_step(&days(40));
        assert!(step >= 2, "forty days do not: every {step}");
        let revisions: Vec<String> = (0..30).map(|k| format!("v1.{k}-rc-build")).collect();
        assert!(tick_step(&revisions) > tick_step(&days(30)), "longer ticks are thinned more");
    }
}
