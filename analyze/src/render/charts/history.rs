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
use super::style::{self, Shape, LINE, MARKER, TEXT_PX, WIDTH};
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
    let x_label = |v: &f64| if v.fract() == 0.0 && *v >= 1.0 { format!("{v:.0}") } else { String::new() };
    let y_label = |v: &f64| decade_label(*v);
    let y_title = fill(w.chart_y_axis, &[("metric", metric)]);
    house_mesh(&mut chart.configure_mesh())
        .x_labels(report.measurements.len().min(30))
        .x_label_formatter(&x_label)
        .y_label_formatter(&y_label)
        .x_desc(w.chart_x_axis)
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
