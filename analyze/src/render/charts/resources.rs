//! CPU and memory of the server's process groups over one run: two panels sharing the time axis.

use super::axis::{LinearAxis, Ticked};
use super::draw::{frame, house_builder, house_mesh, series_entry, series_line, DrawResult};
use super::labels::{self, labels};
use super::style::{TALL_HEIGHT, WIDTH, X_LABEL_AREA};
use super::svg::{self, About};
use super::{figure_id, run_name, BYTES_PER_MIB};
use crate::model::Lang;
use crate::render::format::decimal;
use crate::report::{ProcessSeries, Report};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Space under the upper panel for its tick labels, in px.
const UPPER_LABEL_AREA: u32 = 26;

/// CPU (% of one core, since the previous sample) and RSS (MiB) over time for run `run` (an
/// index into `report.runs`), one line per process group (`report.figures.resources[run]`),
/// CPU above and RSS below. `None` when the run has no samples.
pub fn resources_over_time(report: &Report, run: usize, lang: Lang) -> Option<String> {
    let groups: Vec<&ProcessSeries> = report.figures.resources.get(run)?.iter().filter(|g| !g.points.is_empty()).collect();
    if groups.is_empty() {
        return None;
    }
    let name = run_name(report, run, lang);
    let processes: Vec<String> = groups.iter().map(|g| g.process.clone()).collect();
    let about = About {
        id: figure_id("resources-over-time", &[run], lang),
        title: labels::resources_title(lang, &name),
        desc: labels::resources_desc(lang, &name, &processes),
    };
    Some(svg::render((WIDTH, TALL_HEIGHT), lang, &about, |root| draw(root, &groups, &name, lang)))
}

/// Runs of consecutive samples that have a CPU value: a missing value breaks the line.
fn cpu_segments(group: &ProcessSeries) -> Vec<Vec<(f64, f64)>> {
    let mut segments = vec![Vec::new()];
    for &(t, cpu, _) in &group.points {
        match cpu {
            Some(cpu) => segments.last_mut().map_or((), |s| s.push((t, cpu))),
            None if segments.last().is_some_and(|s| !s.is_empty()) => segments.push(Vec::new()),
            None => {}
        }
    }
    segments.retain(|s| !s.is_empty());
    segments
}

fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, groups: &[&ProcessSeries], name: &str, lang: Lang) -> DrawResult<(), DB> {
    let text = labels(lang);
    let legend: Vec<_> = groups.iter().enumerate().map(|(i, g)| series_entry(g.process.clone(), i)).collect();
    let plot = frame(root, &labels::resources_title(lang, name), &legend, &[text.resources_key.to_string()])?;
    let (_, height) = plot.dim_in_pixel();
    let (upper, lower) = plot.split_vertically((height - X_LABEL_AREA + UPPER_LABEL_AREA) / 2);

    let x_axis = LinearAxis::covering(groups.iter().flat_map(|g| g.points.iter().map(|p| p.0)), true);
    let cpu_axis = LinearAxis::covering(groups.iter().flat_map(|g| g.points.iter().filter_map(|p| p.1)), true);
    let rss_axis = LinearAxis::covering(groups.iter().flat_map(|g| g.points.iter().map(|p| p.2 / BYTES_PER_MIB)), true);
    let x_label = |v: &f64| decimal(*v, x_axis.decimals);
    let cpu_label = |v: &f64| decimal(*v, cpu_axis.decimals);
    let rss_label = |v: &f64| decimal(*v, rss_axis.decimals);

    let mut cpu =
        house_builder(&upper).x_label_area_size(UPPER_LABEL_AREA).build_cartesian_2d(Ticked::from(&x_axis), Ticked::from(&cpu_axis))?;
    house_mesh(&mut cpu.configure_mesh()).x_label_formatter(&x_label).y_label_formatter(&cpu_label).y_desc(text.cpu_axis).draw()?;
    for (i, group) in groups.iter().enumerate() {
        for segment in cpu_segments(group) {
            series_line(&mut cpu, segment, i)?;
        }
    }

    let mut rss = house_builder(&lower).build_cartesian_2d(Ticked::from(&x_axis), Ticked::from(&rss_axis))?;
    house_mesh(&mut rss.configure_mesh())
        .x_label_formatter(&x_label)
        .y_label_formatter(&rss_label)
        .x_desc(text.time_axis)
        .y_desc(text.rss_axis)
        .draw()?;
    for (i, group) in groups.iter().enumerate() {
        series_line(&mut rss, group.points.iter().map(|&(t, _, bytes)| (t, bytes / BYTES_PER_MIB)).collect(), i)?;
    }
    Ok(())
}
