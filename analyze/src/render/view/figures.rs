//! Each planned figure as a page lists it: its file from the page's folder and its alt words.
//! Which figures there are is the figure plan's decision (`render::figures`), not a page's.

use super::*;
use crate::render::charts::Scale;
use crate::render::figures::Figure as Planned;

impl Context<'_> {
    /// Figure `figure` of the plan, from a page `root` away from the report folder.
    pub fn figure(&self, figure: Planned, root: &str) -> Figure {
        let run_id = |run: usize| self.report.runs[run].run_id.as_str();
        let t = self.t;
        let alt = match figure {
            Planned::Headline => prose::headline_alt(self.lang, &self.headline_label, self.figures.headline_scale == Scale::Log),
            Planned::HeadlineAt(level) => self.headline_level_alt(level),
            Planned::WorstTimeSeries(run) => prose::worst_time_series_alt(self.lang, run_id(run), self.worst_words()),
            Planned::EcdfConditions(level) => self.ecdf_alt(level),
            Planned::Large => self.caption(t.large_table, t.large_caption),
            Planned::Tempfiles => t.tempfile_table.to_string(),
            Planned::RunEcdf(run) => prose::run_ecdf_alt(self.lang, run_id(run), &self.p_label),
            Planned::RunTimeSeries(run) => prose::run_time_series_alt(self.lang, run_id(run)),
            Planned::LabelEcdf(run) => fill(crate::render::i18n::labels::words(self.lang).ecdf_alt, &[("run", run_id(run))]),
            Planned::SendLag(run) => prose::run_send_lag_alt(self.lang, run_id(run)),
            Planned::Resources(run) => prose::run_resources_alt(self.lang, run_id(run)),
            Planned::RunTempfiles(run) => prose::run_tempfile_alt(self.lang, run_id(run)),
        };
        Figure { src: format!("{root}{}", figure.path(&self.slugs)), alt, wide_px: Some(crate::render::charts::WIDE_PX) }
    }

    /// The alt words of the headline chart of one level of the factor it is drawn apart at.
    fn headline_level_alt(&self, level: usize) -> String {
        let Some(split) = &self.figures.headline_split else { return String::new() };
        let log = split.levels.iter().any(|&(l, scale)| l == level && scale == Scale::Log);
        let alt = prose::headline_alt(self.lang, &self.headline_label, log);
        let factor = &self.report.factors[split.factor];
        let words = factor
            .levels
            .get(level)
            .map_or_else(String::new, |l| prose::factor_level(self.lang, factor.label.get(self.lang), l.label.get(self.lang)));
        crate::render::i18n::charts::at_level(self.lang, &alt, &words)
    }

    fn ecdf_alt(&self, level: usize) -> String {
        if self.figures.overlays_levels {
            return fill(self.t.ecdf_conditions_alt, &[("level", &crate::render::i18n::charts::each_level(self.lang, &self.x_label()))]);
        }
        let level_label = self
            .report
            .layout
            .x_factor
            .and_then(|x| {
                self.report.factors[x].levels.get(level).map(|l| prose::factor_level(self.lang, &self.x_label(), l.label.get(self.lang)))
            })
            .unwrap_or_default();
        fill(self.t.ecdf_conditions_alt, &[("level", &level_label)])
    }

    /// How the time-series chart's condition is named: the metric's worst, or the one that failed most.
    fn worst_words(&self) -> &'static str {
        let failing = self.report.standing.worst.and_then(|c| self.report.standing.conditions.get(c)).is_some_and(|c| c.failing);
        if failing {
            crate::render::i18n::lead::lead_words(self.lang).worst_failing
        } else {
            self.metric.worst
        }
    }
}
