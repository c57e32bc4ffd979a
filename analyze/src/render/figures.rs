//! The figure plan: which figures a report and each of its runs have, decided once per report.
//!
//! Pages list their figures from the plan (`view`, which adds the alt words in its language);
//! the writer (`render::emit_report_with`) draws exactly the figures it names, by calling the
//! chart of each [`Figure`]. Charts know nothing of the plan or of any page: what they need of
//! its decisions (whether one chart overlays every level) is handed to them.

use super::charts::{self, Scale};
use super::paths;
use crate::model::LoadKind;
use crate::report::{Report, RunResult};

/// One figure of a report: what it shows and where its file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Figure {
    /// The headline percentile by condition (`charts::headline_by_condition`).
    Headline,
    /// On the report page: the time series of the worst condition's representative run (a run's
    /// figure, drawn with its run).
    WorstTimeSeries(usize),
    /// The conditions' ECDFs at one x level (`charts::ecdf_by_condition`).
    EcdfConditions(usize),
    /// Write against completion time of large responses (`charts::write_vs_completion`).
    Large,
    /// Temp-file bytes over time of the conditions' representative runs.
    Tempfiles,
    /// A run's ECDF (`charts::ecdf`).
    RunEcdf(usize),
    /// A run's latency over time (`charts::latency_over_time`).
    RunTimeSeries(usize),
    /// A run's ECDF per request label (`charts::ecdf_by_label`).
    LabelEcdf(usize),
    /// An open-loop run's send lag (`charts::send_lag`).
    SendLag(usize),
    /// A run's CPU and memory over time (`charts::resources_over_time`).
    Resources(usize),
    /// A run's temp-file bytes over time (`charts::tempfiles_over_time`).
    RunTempfiles(usize),
}

impl Figure {
    /// The figure's file, relative to the report folder; `slugs` are the runs' page names.
    pub fn path(self, slugs: &[String]) -> String {
        match self {
            Figure::Headline => paths::HEADLINE_FIGURE.to_string(),
            Figure::WorstTimeSeries(run) | Figure::RunTimeSeries(run) => paths::time_series_figure(&slugs[run]),
            Figure::EcdfConditions(level) => paths::ecdf_conditions_figure(level),
            Figure::Large => paths::LARGE_FIGURE.to_string(),
            Figure::Tempfiles => paths::TEMPFILE_FIGURE.to_string(),
            Figure::RunEcdf(run) => paths::ecdf_figure(&slugs[run]),
            Figure::LabelEcdf(run) => paths::label_ecdf_figure(&slugs[run]),
            Figure::SendLag(run) => paths::send_lag_figure(&slugs[run]),
            Figure::Resources(run) => paths::resources_figure(&slugs[run]),
            Figure::RunTempfiles(run) => paths::run_tempfile_figure(&slugs[run]),
        }
    }
}

/// Which figures a report has, and the decisions the words beside them state.
#[derive(Debug, Clone)]
pub struct FigurePlan {
    /// The headline chart's value axis, as drawn (for the alt words).
    pub headline_scale: Scale,
    /// Whether one ECDF chart overlays every x level ([`overlays_levels`]).
    pub overlays_levels: bool,
    /// The report page's figures, in page order.
    pub report: Vec<Figure>,
    /// The runs whose temp-file series the report's temp-file chart shows.
    pub tempfile_runs: Vec<usize>,
    /// Per run (report order), its figures in page order: a few bytes each, as a report may have
    /// 10^5 runs.
    runs: Vec<Vec<Figure>>,
}

impl FigurePlan {
    /// The plan of `report`.
    pub fn new(report: &Report) -> FigurePlan {
        let overlays_levels = overlays_levels(report);
        let mut figures = vec![Figure::Headline];
        if let Some(run) = representative_of_worst(report).filter(|&r| draws_run_charts(&report.runs[r])) {
            figures.push(Figure::WorstTimeSeries(run));
        }
        figures.extend(ecdf_levels(report, overlays_levels).into_iter().map(Figure::EcdfConditions));
        if report.conditions.iter().any(|c| c.write_s.is_some()) {
            figures.push(Figure::Large);
        }
        if report.conditions.iter().any(|c| c.tempfile_peak_bytes.is_some_and(|s| s.max > 0.0)) {
            figures.push(Figure::Tempfiles);
        }
        let tempfile_runs = report
            .conditions
            .iter()
            .filter(|c| c.tempfile_peak_bytes.is_some_and(|s| s.max > 0.0))
            .filter_map(|c| c.representative_run.as_deref().and_then(|id| report.run_index(id)))
            .collect();
        let runs = (0..report.runs.len()).map(|run| run_figures(report, run)).collect();
        FigurePlan { headline_scale: charts::headline_scale(report), overlays_levels, report: figures, tempfile_runs, runs }
    }

    /// Run `run`'s figures, in page order.
    pub fn run(&self, run: usize) -> &[Figure] {
        self.runs.get(run).map_or(&[], Vec::as_slice)
    }

    /// The x levels that get an ECDF of their conditions, in page order.
    pub fn ecdf_levels(&self) -> impl Iterator<Item = usize> + '_ {
        self.report.iter().filter_map(|f| match f {
            Figure::EcdfConditions(level) => Some(*level),
            _ => None,
        })
    }

    /// Whether run `run` has its ECDF and its latency over time.
    pub fn draws_run_charts(&self, run: usize) -> bool {
        self.run(run).contains(&Figure::RunEcdf(run))
    }
}

/// A run's figures, in page order.
fn run_figures(report: &Report, run: usize) -> Vec<Figure> {
    let result = &report.runs[run];
    let figures = &report.figures;
    let mut out = Vec::new();
    if draws_run_charts(result) {
        out.extend([Figure::RunEcdf(run), Figure::RunTimeSeries(run)]);
    }
    if figures.label_ecdf.get(run).is_some_and(|l| !l.is_empty()) {
        out.push(Figure::LabelEcdf(run));
    }
    // One lag is the run's max lag, already a fact of the page: no chart for it.
    if result.load == LoadKind::OpenLoop && figures.send_lags.get(run).is_some_and(|s| s.points.len() > 1) {
        out.push(Figure::SendLag(run));
    }
    if figures.resources.get(run).is_some_and(|r| !r.is_empty()) {
        out.push(Figure::Resources(run));
    }
    if figures.tempfiles.get(run).is_some_and(|series| !series.is_empty()) {
        out.push(Figure::RunTempfiles(run));
    }
    out
}

/// Whether a run gets charts of its own (its ECDF and its latency over time): from two 2xx
/// responses on. One response is one point in both, a chart with nothing to read beside the
/// table, so the run page says its value in words instead; drawn anyway, the two charts of each of
/// 30,000 one-request runs were 60,000 files and half the work of their report.
fn draws_run_charts(run: &RunResult) -> bool {
    run.ok_responses > 1
}

/// Whether one ECDF chart overlays every x level: the layout has one series, so the levels of x
/// are what the study compares.
pub fn overlays_levels(report: &Report) -> bool {
    let levels = report.layout.x_factor.and_then(|x| report.factors.get(x)).map_or(0, |f| f.levels.len());
    report.layout.rows.len() == 1 && levels > 1
}

/// The x levels that get an ECDF of their conditions: those where some condition's
/// representative run has responses (every level at once without an x factor: level 0).
/// With one series the levels are what the study compares, and one chart overlays them
/// all: its figure is level 0's, when any level has one.
fn ecdf_levels(report: &Report, overlays: bool) -> Vec<usize> {
    let columns = report.layout.rows.iter().map(|r| r.cells.len()).max().unwrap_or(0);
    let levels = (0..columns).filter(|&level| {
        report.layout.rows.iter().filter_map(|r| r.cells.get(level).copied().flatten()).any(|c| {
            let run = report.conditions[c].representative_run.as_deref().and_then(|id| report.run_index(id));
            run.is_some_and(|r| report.runs[r].ok_responses > 0)
        })
    });
    if overlays {
        levels.take(1).map(|_| 0).collect()
    } else {
        levels.collect()
    }
}

/// The representative run of the worst condition (`standing.worst`: the failing one with the
/// largest share, else the worst median): the run the report's time-series chart shows.
pub fn representative_of_worst(report: &Report) -> Option<usize> {
    report.standing.worst.and_then(|c| report.conditions.get(c)).and_then(|c| c.representative_run.as_deref()).and_then(|id| report.run_index(id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_series_overlays_every_level_and_plans_one_ecdf_of_the_conditions() {
        let mut report = crate::render::charts::tests::fixture();
        let several = FigurePlan::new(&report);
        assert!(!several.overlays_levels, "several series: one chart per level");
        assert_eq!(several.ecdf_levels().collect::<Vec<_>>(), [0, 1, 2]);
        // Only the direct route: one series, so the downloads are what is compared.
        report.layout.rows.truncate(1);
        let one = FigurePlan::new(&report);
        assert!(one.overlays_levels);
        assert_eq!(one.ecdf_levels().collect::<Vec<_>>(), [0], "one chart overlays the three levels");
    }

    #[test]
    fn a_run_of_one_response_has_no_charts_of_its_own() {
        let mut report = crate::render::charts::tests::fixture();
        report.runs[0].ok_responses = 1;
        let plan = FigurePlan::new(&report);
        assert!(!plan.draws_run_charts(0));
        assert!(plan.draws_run_charts(1));
        assert_eq!(&plan.run(1)[..2], [Figure::RunEcdf(1), Figure::RunTimeSeries(1)]);
    }
}
