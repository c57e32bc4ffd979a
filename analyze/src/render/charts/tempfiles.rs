//! Temporary-file size over time, one line per run.

use super::axis::{LinearAxis, Ticked};
use super::draw::{frame, house_builder, house_mesh, series_entry, series_line, DrawResult};
use super::labels::{self, labels};
use super::style::{HEIGHT, WIDTH};
use super::svg::{self, About};
use super::{figure_id, run_name, BYTES_PER_MIB};
use crate::model::Lang;
use crate::render::format::decimal;
use crate::report::Report;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The logical size of the temporary files over time (`report.figures.tempfiles`), one line per
/// run in `runs` (indices into `report.runs`), in MiB against seconds. `None` when none of these
/// runs has a sample.
pub fn tempfiles_over_time(report: &Report, runs: &[usize], lang: Lang) -> Option<String> {
    let lines: Vec<(String, Vec<(f64, f64)>)> = runs
        .iter()
        .filter_map(|&run| {
            let samples = report.figures.tempfiles.get(run).filter(|s| !s.is_empty())?;
            Some((run_name(report, run, lang), samples.iter().map(|&(t, bytes)| (t, bytes / BYTES_PER_MIB)).collect()))
        })
        .collect();
    if lines.is_empty() {
        return None;
    }
    let names: Vec<String> = lines.iter().map(|(name, _)| name.clone()).collect();
    let about = About {
        id: figure_id("tempfiles-over-time", runs, lang),
        title: labels(lang).tempfiles_title.to_string(),
        desc: labels::tempfiles_desc(lang, &names),
    };
    Some(svg::render((WIDTH, HEIGHT), lang, &about, |root| draw(root, &lines, runs.len() > 1, lang)))
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    lines: &[(String, Vec<(f64, f64)>)],
    representatives: bool,
    lang: Lang,
) -> DrawResult<(), DB> {
    let text = labels(lang);
    let legend: Vec<_> = lines.iter().enumerate().map(|(i, (name, _))| series_entry(name.clone(), i)).collect();
    let mut captions = vec![text.tempfiles_key.to_string()];
    if representatives {
        captions.push(text.tempfiles_representatives.to_string());
    }
    let plot = frame(root, text.tempfiles_title, &legend, &captions)?;
    let x_axis = LinearAxis::covering(lines.iter().flat_map(|(_, p)| p.iter().map(|p| p.0)), true);
    let y_axis = LinearAxis::covering(lines.iter().flat_map(|(_, p)| p.iter().map(|p| p.1)), true);
    let mut chart = house_builder(&plot).build_cartesian_2d(Ticked::from(&x_axis), Ticked::from(&y_axis))?;
    let x_label = |v: &f64| decimal(*v, x_axis.decimals);
    let y_label = |v: &f64| decimal(*v, y_axis.decimals);
    house_mesh(&mut chart.configure_mesh())
        .x_label_formatter(&x_label)
        .y_label_formatter(&y_label)
        .x_desc(text.time_axis)
        .y_desc(text.tempfiles_axis)
        .draw()?;
    for (i, (_, points)) in lines.iter().enumerate() {
        series_line(&mut chart, points.clone(), i)?;
    }
    Ok(())
}
