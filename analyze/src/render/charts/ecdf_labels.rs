//! The ECDF of each request label of a run (the representative run of its condition): one step
//! line per label on a log latency axis, the points `stats::labels::ecdfs` reduced.

use super::axis::LogAxis;
use super::draw::{frame, message, polyline, DrawResult, LegendEntry, Swatch};
use super::ecdf_axes::{share_chart, step_line};
use super::figure_id;
use super::labels::labels;
use super::style::{self, HEIGHT, LINE, WIDTH};
use super::svg::{self, About};
use crate::model::Lang;
use crate::render::i18n::fill;
use crate::render::i18n::labels::words;
use crate::report::{LabelName, Report};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Run `run`'s chart, `None` unless it has label ECDFs; `name` is how the tables name a label.
pub fn ecdf_by_label(report: &Report, run: usize, name: &dyn Fn(&LabelName) -> String, lang: Lang) -> Option<String> {
    let lines: Vec<(String, &[(f64, f64)])> =
        report.figures.label_ecdf.get(run)?.iter().map(|(label, series)| (name(label), series.points.as_slice())).collect();
    if lines.is_empty() {
        return None;
    }
    let w = words(lang);
    let run_id = &report.runs[run].run_id;
    let title = fill(w.ecdf_title, &[("run", run_id)]);
    let list = lines.iter().map(|(l, _)| l.as_str()).collect::<Vec<_>>().join(crate::render::i18n::strings(lang).list_sep);
    let about = About {
        id: figure_id("ecdf-by-label", &[run], lang),
        title: title.clone(),
        desc: fill(w.ecdf_desc, &[("run", run_id), ("list", &list)]),
    };
    Some(svg::render((WIDTH, HEIGHT), lang, &about, |root| draw(root, &lines, &title, lang)))
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    lines: &[(String, &[(f64, f64)])],
    title: &str,
    lang: Lang,
) -> DrawResult<(), DB> {
    let text = labels(lang);
    let legend: Vec<LegendEntry> = lines
        .iter()
        .enumerate()
        .map(|(i, (label, _))| {
            let (color, shape, dash) = style::series(i);
            LegendEntry { label: label.clone(), color, swatch: Swatch::Marker { shape, filled: true, line: Some(dash) } }
        })
        .collect();
    let x_axis = LogAxis::covering(lines.iter().flat_map(|(_, points)| points.iter().map(|p| p.0)));
    let captions: Vec<String> = x_axis.floor.is_some().then(|| text.floor_note_left.to_string()).into_iter().collect();
    let plot = frame(root, title, &legend, &captions)?;
    if lines.is_empty() {
        return message(&plot, text.no_data);
    }
    let mut chart = share_chart(&plot, &x_axis, text)?;
    for (i, (_, points)) in lines.iter().enumerate() {
        let (color, _, dash) = style::series(i);
        polyline(&mut chart, step_line(&x_axis, points).steps, color.stroke_width(LINE), dash)?;
    }
    Ok(())
}
