//! The report's table of service-level objectives: per condition and objective, the limit, the
//! median of the runs, how many runs met it, and pass or fail.

use super::*;
use crate::model::SloBound;
use crate::render::i18n::slo::words;
use crate::report::slo::{SloResult, SloStatus};

/// The objectives section: every objective of every condition, and what they add up to.
pub fn section(page: &Context) -> Option<Section> {
    Some(Section { id: "slo-section", heading: words(page.lang).heading.to_string(), table: page.slo_table("")?, notes: page.slo_notes() })
}

impl Context<'_> {
    /// A value of an objective's metric of condition `condition`, as the report's tables print
    /// that metric: "250.00 ms" ("250 ms" for ab's whole ms), "500.0", "1.00%".
    pub fn slo_value(&self, slo: &SloResult, condition: usize, value: f64) -> String {
        let metric = match slo.metric.as_str() {
            "requests_per_s" => HeadlineMetric::RequestsPerS,
            "error_rate" => HeadlineMetric::ErrorRate,
            "failed_share" => HeadlineMetric::FailedShare,
            _ => HeadlineMetric::Percentile,
        };
        self.metric_value(metric, Some(condition), value)
    }

    /// The metric's name in the objective: "p95", "requests/s", "error rate", "failed share".
    fn slo_metric(&self, slo: &SloResult) -> String {
        match slo.metric.as_str() {
            "requests_per_s" => metric_words(self.lang, HeadlineMetric::RequestsPerS).label.to_string(),
            "error_rate" => metric_words(self.lang, HeadlineMetric::ErrorRate).label.to_string(),
            "failed_share" => self.t.failed_share_header.to_string(),
            other => other.to_string(),
        }
    }

    /// "p95 ≤ 250.00 ms".
    pub fn slo_objective(&self, slo: &SloResult, condition: usize) -> String {
        let w = words(self.lang);
        let template = match slo.bound {
            SloBound::AtMost => w.at_most,
            SloBound::AtLeast => w.at_least,
        };
        fill(template, &[("metric", &self.slo_metric(slo)), ("limit", &self.slo_value(slo, condition, slo.limit))])
    }

    /// Under a verdict on a percentile that no run of the condition resolves: that it is judged on
    /// values as good as each run's maximum, and what the percentile needs.
    fn slo_unresolved(&self, slo: &SloResult, condition: &crate::report::ConditionResult) -> Option<String> {
        let key = slo.metric.strip_prefix('p')?;
        let needs = condition.unresolved_percentiles.get(key)?;
        Some(fill(self.t.verdict_unresolved, &[("p", &slo.metric), ("needs", &self.needs(*needs))]))
    }

    pub fn slo_status(&self, slo: &SloResult) -> String {
        let w = words(self.lang);
        match slo.status {
            SloStatus::Pass => w.pass.to_string(),
            SloStatus::Fail => w.fail.to_string(),
            SloStatus::NoRuns => w.no_runs.to_string(),
            SloStatus::TooManyErrors => fill(
                w.too_many_errors,
                &[
                    ("share", &slo.error_share.map(format::percent_fine).unwrap_or_default()),
                    ("limit", &slo.error_limit.map(format::percent_round).unwrap_or_default()),
                ],
            ),
        }
    }

    /// The margin of a verdict to its limit: "16.0% below the limit", "the runs resolve 9.4%",
    /// and, for a verdict too close to call, why; `None` without a margin.
    pub fn slo_margin(&self, slo: &SloResult, condition: usize) -> Option<(String, String, Option<String>)> {
        let (w, m) = (words(self.lang), slo.margin?);
        // Twice the limit or more reads as a multiple: "63.4× the limit", not "6,236.7% above".
        let margin = if m.ratio >= 2.0 {
            fill(w.margin_times, &[("times", &format::factor(m.ratio))])
        } else {
            fill(if m.ratio < 1.0 { w.margin_below } else { w.margin_above }, &[("margin", &format::percent((m.ratio - 1.0).abs()))])
        };
        let close = (!m.resolved).then(|| {
            fill(w.margin_close, &[("low", &self.slo_value(slo, condition, m.low)), ("high", &self.slo_value(slo, condition, m.high))])
        });
        Some((margin, fill(w.margin_resolves, &[("resolvable", &format::percent(m.resolvable - 1.0))]), close))
    }

    /// Every objective of every condition it applies to; `None` without objectives.
    pub fn slo_table(&self, root: &str) -> Option<Table> {
        let w = words(self.lang);
        let rows: Vec<Vec<Cell>> = self
            .report
            .conditions
            .iter()
            .enumerate()
            .flat_map(|(c, condition)| {
                condition.slo.iter().map(move |slo| {
                    vec![
                        Cell::text(self.condition_label(condition)).link(paths::condition_link(root, c)),
                        Cell::text(self.slo_objective(slo, c)),
                        slo.median.map_or_else(|| Cell::text("–"), |m| Cell::number(self.slo_value(slo, c, m))),
                        Cell::number(fill(
                            w.met_of,
                            &[("met", &format::count(slo.runs_met as u64)), ("runs", &format::count(slo.runs as u64))],
                        )),
                        Cell::text(self.slo_status(slo)).with_note(self.slo_unresolved(slo, condition)),
                        self.slo_margin(slo, c).map_or_else(
                            || Cell::text("–"),
                            |(margin, resolves, close)| Cell { sub: Some(resolves), ..Cell::text(margin).with_note(close) },
                        ),
                    ]
                })
            })
            .collect();
        (!rows.is_empty()).then(|| Table {
            id: "slo".into(),
            caption: self.caption(w.heading, w.caption),
            headers: vec![
                self.t.condition.into(),
                w.objective.into(),
                w.median.into(),
                w.runs_met.into(),
                w.result.into(),
                w.margin.into(),
            ],
            rows,
        })
    }

    /// How many checks pass and fail, and the rule; empty without objectives.
    pub fn slo_notes(&self) -> Vec<String> {
        let w = words(self.lang);
        let all: Vec<&SloResult> = self.report.conditions.iter().flat_map(|c| &c.slo).collect();
        if all.is_empty() {
            return Vec::new();
        }
        let pass = all.iter().filter(|s| s.status == SloStatus::Pass).count() as u64;
        let total = all.len() as u64;
        vec![
            fill(w.summary, &[("pass", &format::count(pass)), ("fail", &format::count(total - pass)), ("total", &format::count(total))]),
            fill(w.rule, &[("share", &format::percent_round(self.report.standing.threshold))]),
            w.margin_rule.to_string(),
        ]
    }
}
