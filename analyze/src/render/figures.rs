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
    /// The headline chart of one level of the factor that separates the values' scale
    /// ([`HeadlineSplit`], `charts::headline_at_level`).
    HeadlineAt(usize),
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
            Figure::HeadlineAt(level) => paths::headline_level_figure(level),
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
    /// The factor the headline chart is drawn once per level of, when one separates the values'
    /// scale ([`headline_split`]).
    pub headline_split: Option<HeadlineSplit>,
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
        let headline_split = headline_split(report);
        let mut figures = match &headline_split {
            Some(split) => split.levels.iter().map(|&(level, _)| Figure::HeadlineAt(level)).collect(),
            None => vec![Figure::Headline],
        };
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
        FigurePlan { headline_scale: charts::headline_scale(report), overlays_levels, headline_split, report: figures, tempfile_runs, runs }
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

/// A factor whose levels the headline chart is drawn apart at, each with its own value axis.
#[derive(Debug, Clone, PartialEq)]
pub struct HeadlineSplit {
    /// Index into `report.factors`: an x or a series factor of the layout.
    pub factor: usize,
    /// Its levels that have a condition with a headline value, each with its chart's scale.
    pub levels: Vec<(usize, Scale)>,
}

/// The factor that separates the scale of the headline values, when one does: the values (each
/// condition's runs, min to max) span at least [`charts::LOG_FROM_RATIO`] times, so one axis is
/// logarithmic and differences within a part look alike (two routes 100x apart: the servers on
/// each route), while at each level of the factor they span less, and some level holds more
/// than one condition. The factor is not the compared one: every group of conditions the report
/// compares (`standing.groups`) lies within one of its levels. Of several such factors, the one
/// whose widest level spans least (ties: the x factor, then the series factors in order).
/// `None` otherwise: one chart.
pub fn headline_split(report: &Report) -> Option<HeadlineSplit> {
    let layout = &report.layout;
    let level_of = |factor: usize, row: &crate::report::LayoutRow, x: usize| -> Option<usize> {
        if layout.x_factor == Some(factor) {
            Some(x)
        } else {
            layout.series_factors.iter().position(|&f| f == factor).and_then(|k| row.levels.get(k).copied())
        }
    };
    // Each condition with a headline value: its place (row, x level) and its range.
    let spreads: Vec<(&crate::report::LayoutRow, usize, f64, f64)> = layout
        .rows
        .iter()
        .flat_map(|row| row.cells.iter().enumerate().filter_map(move |(x, c)| Some((row, x, (*c)?))))
        .filter_map(|(row, x, c)| report.headline_of(report.conditions.get(c)?).map(|s| (row, x, s.min, s.max)))
        .collect();
    let span = |values: &[(f64, f64)]| {
        let low = values.iter().map(|v| v.0).fold(f64::INFINITY, f64::min);
        let high = values.iter().map(|v| v.1).fold(f64::NEG_INFINITY, f64::max);
        (low > 0.0 && high.is_finite()).then(|| high / low)
    };
    let all: Vec<(f64, f64)> = spreads.iter().map(|s| (s.2, s.3)).collect();
    if span(&all)? < charts::LOG_FROM_RATIO {
        return None;
    }
    // Each condition's place in the layout, to find its level of a factor.
    let mut places = std::collections::HashMap::new();
    for row in &layout.rows {
        for (x, cell) in row.cells.iter().enumerate() {
            if let Some(c) = cell {
                places.insert(*c, (row, x));
            }
        }
    }
    // The compared factor is never drawn apart: the conditions each group of the standing
    // compares (the series at an x level, or the x levels of one series) must share a level.
    let keeps_groups = |factor: usize| {
        report.standing.groups.iter().all(|group| {
            let levels: std::collections::BTreeSet<Option<usize>> =
                group.conditions.iter().map(|c| places.get(c).and_then(|&(row, x)| level_of(factor, row, x))).collect();
            levels.len() <= 1
        })
    };
    let candidates = layout.x_factor.into_iter().chain(layout.series_factors.iter().copied()).filter(|&f| keeps_groups(f));
    let mut best: Option<(f64, usize, Vec<usize>)> = None;
    for factor in candidates {
        let mut by_level: std::collections::BTreeMap<usize, Vec<(f64, f64)>> = std::collections::BTreeMap::new();
        for &(row, x, low, high) in &spreads {
            if let Some(level) = level_of(factor, row, x) {
                by_level.entry(level).or_default().push((low, high));
            }
        }
        if by_level.len() < 2 || by_level.values().all(|v| v.len() < 2) {
            continue;
        }
        let Some(widest) = by_level.values().map(|v| span(v)).collect::<Option<Vec<f64>>>().map(|s| s.into_iter().fold(1.0, f64::max))
        else {
            continue;
        };
        if widest < charts::LOG_FROM_RATIO && best.as_ref().is_none_or(|b| widest < b.0) {
            best = Some((widest, factor, by_level.keys().copied().collect()));
        }
    }
    let (_, factor, levels) = best?;
    Some(HeadlineSplit {
        factor,
        levels: levels.into_iter().map(|level| (level, charts::headline_scale_at_level(report, factor, level))).collect(),
    })
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
    report
        .standing
        .worst
        .and_then(|c| report.conditions.get(c))
        .and_then(|c| c.representative_run.as_deref())
        .and_then(|id| report.run_index(id))
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

    /// The numbers a chart writes as text (tick labels, level names that are numbers).
    fn numbers(svg: &str) -> Vec<f64> {
        svg.split("</text>").filter_map(|piece| piece.rsplit('>').next()?.replace(',', "").trim().parse::<f64>().ok()).collect()
    }

    #[test]
    fn two_routes_100x_apart_get_one_headline_chart_each_with_its_own_axis() {
        let mut report = crate::render::charts::tests::fixture();
        // Two routes on x, the download levels compared at each (the series): route 1 is 100
        // times route 0.
        let by_route: Vec<Vec<usize>> = report.layout.rows[..2].iter().map(|r| r.cells.iter().flatten().copied().collect()).collect();
        report.layout.x_factor = Some(0);
        report.layout.series_factors = vec![1];
        report.layout.rows = (0..3)
            .map(|d| crate::report::LayoutRow { levels: vec![d], cells: by_route.iter().map(|cells| cells.get(d).copied()).collect() })
            .collect();
        report.standing.groups = by_route
            .iter()
            .map(|cells| crate::report::standing::StandingGroup { conditions: cells.clone(), ..Default::default() })
            .collect();
        for (route, base) in [(0, 1.0), (1, 100.0)] {
            for (i, &c) in by_route[route].iter().enumerate() {
                let value = base * (1.0 + 0.25 * i as f64);
                report.conditions[c].headline_ms =
                    Some(crate::report::Spread { median: value, min: value * 0.95, max: value * 1.05, n: 3 });
                for run in report.runs.iter_mut().filter(|r| r.condition == c) {
                    run.headline_ms = Some(value);
                }
            }
        }
        let plan = FigurePlan::new(&report);
        let split = plan.headline_split.clone().expect("the routes separate the scale");
        assert_eq!(report.factors[split.factor].name, "route");
        assert_eq!(split.levels, [(0, Scale::Linear), (1, Scale::Linear)]);
        assert_eq!(plan.report[..2], [Figure::HeadlineAt(0), Figure::HeadlineAt(1)], "no chart of both routes on one axis");
        assert_eq!(Figure::HeadlineAt(1).path(&[]), "figures/headline-by-condition-1.svg");

        // One axis for both: a log scale from about 1 to about 100.
        let both = numbers(&crate::render::charts::headline_by_condition(&report, crate::model::Lang::En));
        assert!(both.contains(&1.0) && both.contains(&100.0), "{both:?}");
        // Each route its own: route 0's ticks stay near 1, route 1's near 100.
        let direct = crate::render::charts::headline_at_level(&report, split.factor, 0, crate::model::Lang::En);
        let proxied = crate::render::charts::headline_at_level(&report, split.factor, 1, crate::model::Lang::En);
        let (low, high) = (numbers(&direct), numbers(&proxied));
        assert!(low.iter().all(|&v| v <= 2.0), "route 0's axis: {low:?}");
        assert!(high.iter().filter(|&&v| v > 2.0).count() >= 3, "route 1's axis has ticks of its own: {high:?}");
        assert!(high.iter().all(|&v| v <= 2.0 || (90.0..=160.0).contains(&v)), "route 1's axis: {high:?}");
        assert!(direct.contains("Route = direct only; one chart per level, each with its own axis"), "{direct}");
        // The routes are not what is compared: drawn apart by download level (the compared
        // factor), the plan keeps one chart.
        report.standing.groups = (0..3)
            .map(|d| crate::report::standing::StandingGroup {
                conditions: by_route.iter().filter_map(|cells| cells.get(d).copied()).collect(),
                ..Default::default()
            })
            .collect();
        assert_eq!(headline_split(&report), None, "routes compared: one axis, however far apart");
        assert!(direct.contains("Linear scale on the y axis"));
        let ja = crate::render::charts::headline_at_level(&report, split.factor, 1, crate::model::Lang::Ja);
        assert!(ja.contains("経路：nginx バッファリングなしのみ。水準ごとに1つの図で、軸はそれぞれ独自"), "{ja}");
    }

    #[test]
    fn values_within_tenfold_or_a_factor_that_does_not_separate_them_keep_one_headline_chart() {
        // The model study: 1.49 to 6,590 ms, and no route or download level keeps its values
        // within tenfold.
        let report = crate::render::charts::tests::fixture();
        let plan = FigurePlan::new(&report);
        assert_eq!(plan.headline_split, None);
        assert_eq!(plan.report[0], Figure::Headline);
    }
}
