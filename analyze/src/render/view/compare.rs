//! The comparison page (`analyze compare`, and a dataset's comparison with its baseline in the
//! site): the two datasets, how their conditions were matched, the table of matched conditions
//! with ratios, intervals and verdicts, the overlay charts, what could not be matched, and what
//! two sittings cannot show. The same view feeds the Markdown twin, the pull-request summary and
//! the terminal summary.

use super::{Cell, Figure, KeyValue, Table};
use crate::model::{CompareVerdict, DecidedBy, FailureVerdict, HeadlineMetric, Lang, NoInterval, Oriented};
use crate::render::format;
use crate::render::i18n::compare::{words, CompareWords};
use crate::render::i18n::{fill, metric_words, prose, strings, Strings};
use crate::report::compare::{
    CauseSide, Causes, ComparisonReport, ConditionComparison, Detectable, FailureSide, FindingOutcome, NothingCompared, SideCause,
    SideRuns, Unmatched, UnmatchedReason,
};
use serde::Serialize;

/// Where the comparison sits in a site: the url segments of the two datasets' folders.
#[derive(Debug, Clone)]
pub struct CompareSite {
    pub baseline: String,
    pub candidate: String,
}

/// The page's links. The comparison is written in `<lang>/` folders side by side (in a site,
/// under `<candidate>/compare/`), so the other language is always `../<other>/index.html`.
#[derive(Debug, Clone, Serialize)]
pub struct CompareNav {
    pub other_lang_href: String,
    pub home_href: Option<String>,
    pub baseline_href: Option<String>,
    pub candidate_href: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ComparePage {
    pub lang: &'static str,
    pub t: &'static Strings,
    pub w: &'static CompareWords,
    pub nav: CompareNav,
    pub title: String,
    pub lead: String,
    pub facts: Vec<KeyValue>,
    /// What the verdicts add up to, and what `--fail-on-regression` decided.
    pub summary: Vec<String>,
    pub table: Option<Table>,
    /// How conditions were matched, the rule of the verdicts, the gate's rule, the approximation.
    pub notes: Vec<String>,
    pub unmatched: Option<Table>,
    pub all_matched: Option<String>,
    /// The forest chart of every ratio on one axis (none without a matched condition), shown
    /// right under the summary: the answer at a glance, before the table.
    pub overview: Vec<Figure>,
    /// One overlay chart per matched condition.
    pub figures: Vec<Figure>,
    pub limits: String,
    /// The terminal summary: per matched condition a head line and its numbers.
    pub text_rows: Vec<(String, String)>,
    pub text_unmatched: Vec<String>,
}

/// The figure of matched condition `k`, relative to a language folder.
/// A ratio change as the verdicts print it: ×1.33.
fn times(ratio: f64) -> String {
    format!("×{}", format::factor(ratio))
}

pub fn figure_path(k: usize) -> String {
    format!("figures/compare-{}.svg", k + 1)
}

/// The forest chart of every matched condition's ratio, relative to a language folder.
pub const FOREST_PATH: &str = "figures/compare-forest.svg";

struct View<'a> {
    report: &'a ComparisonReport,
    lang: Lang,
    t: &'static Strings,
    w: &'static CompareWords,
    metric_label: String,
}

/// The comparison page in `lang`; `site` when it is part of a site.
pub fn compare_page(report: &ComparisonReport, lang: Lang, site: Option<&CompareSite>) -> ComparePage {
    let view = View { report, lang, t: strings(lang), w: words(lang), metric_label: metric_label(lang, report.headline, &report.metric) };
    view.page(site)
}

/// The compared metric's name in running text: "p95", "requests/s".
pub fn metric_label(lang: Lang, metric: HeadlineMetric, name: &str) -> String {
    fill(metric_words(lang, metric).label, &[("p", name)])
}

impl View<'_> {
    fn page(&self, site: Option<&CompareSite>) -> ComparePage {
        let (r, t, w) = (self.report, self.t, self.w);
        let other = if self.lang == Lang::En { Lang::Ja } else { Lang::En };
        let report_href = |segment: &str| format!("../../../{segment}/{}/index.html", self.lang.code());
        let nav = CompareNav {
            other_lang_href: format!("../{}/index.html", other.code()),
            home_href: site.map(|_| format!("../../../{}", crate::render::paths::site_index(self.lang))),
            baseline_href: site.map(|s| report_href(&s.baseline)),
            candidate_href: site.map(|s| report_href(&s.candidate)),
        };
        let (base_title, cand_title) = (r.baseline.title.get(self.lang), r.candidate.title.get(self.lang));
        // Two equal titles tell the sides apart by nothing: their folders do.
        let title = if base_title == cand_title {
            fill(w.title_same, &[("title", cand_title), ("candidate", &r.candidate.dataset), ("baseline", &r.baseline.dataset)])
        } else {
            fill(w.title, &[("candidate", cand_title), ("baseline", base_title)])
        };
        ComparePage {
            lang: self.lang.code(),
            t,
            w,
            facts: self.facts(&nav),
            nav,
            title,
            lead: fill(w.lead, &[("metric", &self.metric_label)]),
            summary: self.summary(),
            table: (!r.conditions.is_empty()).then(|| self.table()),
            notes: self.notes(),
            unmatched: self.unmatched_table(),
            all_matched: (r.only_in_baseline.is_empty() && r.only_in_candidate.is_empty()).then(|| w.all_matched.to_string()),
            overview: (!r.conditions.is_empty())
                .then(|| Figure {
                    wide_px: None,
                    src: FOREST_PATH.to_string(),
                    alt: fill(crate::render::i18n::charts::labels(self.lang).forest_alt, &[("metric", &self.metric_label)]),
                })
                .into_iter()
                .collect(),
            figures: r
                .conditions
                .iter()
                .enumerate()
                .filter(|(k, _)| r.figures.get(*k).is_some())
                .map(|(k, c)| Figure {
                    wide_px: Some(crate::render::charts::WIDE_PX),
                    src: figure_path(k),
                    alt: fill(w.figure_alt, &[("condition", &self.label(c)), ("metric", &self.metric_label)]),
                })
                .collect(),
            limits: w.limits.to_string(),
            text_rows: r.conditions.iter().map(|c| self.text_row(c)).collect(),
            text_unmatched: self.text_unmatched(),
        }
    }

    fn label(&self, c: &ConditionComparison) -> String {
        prose::labels_label(self.lang, &c.labels)
    }

    /// A factor's label as its dataset gives it, else its name.
    fn factor_label(&self, side: &crate::report::compare::Side, name: &str) -> String {
        side.factors.iter().find(|f| f.name == name).map_or_else(|| name.to_string(), |f| f.label.get(self.lang).to_string())
    }

    /// A value of one side, at the digits its own report prints it with.
    fn number(&self, side: &SideRuns, value: f64) -> String {
        super::metric_number_at(self.report.headline, side.decimals, value)
    }

    fn range(&self, low: &str, high: &str) -> String {
        format!("{low}{}{high}", self.t.range_dash)
    }

    fn aside(&self, main: &str, note: &str) -> String {
        fill(self.t.aside, &[("main", main), ("note", note)])
    }

    fn threshold(&self) -> Option<String> {
        self.report.thresholds.fail_on_regression.map(format::threshold_percent)
    }

    /// "faster"/"slower" for latency and requests/s, "better"/"worse" for the rest.
    fn directions(&self) -> (&'static str, &'static str) {
        match self.report.headline {
            HeadlineMetric::Percentile | HeadlineMetric::RequestsPerS => (self.w.faster, self.w.slower),
            _ => (self.w.better, self.w.worse),
        }
    }

    fn facts(&self, nav: &CompareNav) -> Vec<KeyValue> {
        let (r, w) = (self.report, self.w);
        let side = |label: &str, s: &crate::report::compare::Side, href: &Option<String>| {
            let template = match &s.measured {
                Some(_) => w.side_details,
                None => w.side_details_undated,
            };
            let details = fill(
                template,
                &[
                    ("measured", s.measured.as_deref().unwrap_or_default()),
                    ("name", &s.dataset),
                    ("conditions", &format::count(s.conditions as u64)),
                    ("runs", &format::count(s.ok_runs as u64)),
                ],
            );
            KeyValue { label: label.to_string(), value: self.aside(s.title.get(self.lang), &details), href: href.clone() }
        };
        let direction = if r.higher_is_better { w.higher_better } else { w.lower_better };
        let by: Vec<String> = r.matching.by.iter().map(|f| self.factor_label(&r.candidate, f)).collect();
        let factors = if by.is_empty() { w.by_nothing.to_string() } else { prose::list(self.lang, &by) };
        vec![
            side(w.baseline, &r.baseline, &nav.baseline_href),
            side(w.candidate, &r.candidate, &nav.candidate_href),
            KeyValue {
                label: w.compared_by.to_string(),
                value: fill(w.compared_by_value, &[("metric", &self.metric_label), ("direction", direction)]),
                href: None,
            },
            KeyValue { label: w.environments.to_string(), value: self.environments(), href: None },
            KeyValue {
                label: w.matched.to_string(),
                value: fill(
                    w.matched_value,
                    &[
                        ("matched", &format::count(r.summary.matched)),
                        ("base", &format::count(r.baseline.conditions as u64)),
                        ("cand", &format::count(r.candidate.conditions as u64)),
                        ("factors", &factors),
                    ],
                ),
                href: None,
            },
        ]
        .into_iter()
        // One measurement on both sides matched its conditions with themselves: no fact.
        .filter(|kv| !(kv.label == w.matched && r.nothing_compared == Some(NothingCompared::SameMeasurement)))
        .chain(r.thresholds.fail_on_regression.is_some().then(|| KeyValue {
            label: "--fail-on-regression".to_string(),
            value: self.threshold().unwrap_or_default(),
            href: None,
        }))
        .collect()
    }

    /// Whether the environments may be compared, and which keys differ.
    fn environments(&self) -> String {
        let (c, w) = (&self.report.comparability, self.w);
        let mut parts = Vec::new();
        let differing: Vec<String> = c.differing.iter().filter(|d| !d.allowed).map(|d| self.env_difference(w.env_difference, d)).collect();
        if !differing.is_empty() {
            parts.push(fill(w.incomparable, &[("list", &prose::list(self.lang, &differing))]));
        } else if c.checked.is_empty() {
            parts.push(fill(w.comparable_nothing, &[("rules", &c.must_match.join(", "))]));
        } else {
            parts.push(fill(w.comparable, &[("checked", &prose::list(self.lang, &c.checked))]));
        }
        parts.extend(c.differing.iter().filter(|d| d.allowed).map(|d| self.env_difference(w.env_allowed, d)));
        for d in &c.differ_in_full {
            parts.push(fill(w.env_differs_in_full, &[("key", &d.key), ("baseline", &d.baseline), ("candidate", &d.candidate)]));
        }
        if !c.one_side.is_empty() {
            parts.push(fill(w.env_one_side, &[("keys", &prose::list(self.lang, &c.one_side))]));
        }
        parts.join(self.t.clause_sep)
    }

    fn env_difference(&self, template: &str, d: &crate::report::compare::EnvDifference) -> String {
        fill(template, &[("key", &d.key), ("baseline", &d.baseline), ("candidate", &d.candidate)])
    }

    /// The gate's false alarms, as measured on A/A pairs or why they could not be.
    fn gate_note(&self) -> Vec<String> {
        let (g, w) = (&self.report.gate, self.w);
        let alpha = format::percent(g.nominal_alpha);
        let set_aside = (!g.set_aside.is_empty()).then(|| {
            let list: Vec<String> = g
                .set_aside
                .iter()
                .map(|a| {
                    let (template, same_as) = match a.same_as.as_str() {
                        "baseline" => (w.aa_same_as_side, w.baseline_word),
                        other if other == a.dataset => (w.aa_repeated, other),
                        other => (w.aa_same_as, other),
                    };
                    fill(template, &[("dataset", &a.dataset), ("same_as", same_as)])
                })
                .collect();
            fill(w.aa_set_aside, &[("list", &prose::list(self.lang, &list))])
        });
        let Some(rate) = g.empirical_false_alarm else {
            return std::iter::once(fill(w.gate_uncalibrated, &[("alpha", &alpha)])).chain(set_aside).collect();
        };
        let mut sources: Vec<String> = g
            .sources
            .iter()
            .filter(|s| s.kind == "aa_dataset")
            .map(|s| fill(w.source_aa, &[("dataset", &s.dataset), ("count", &format::count(s.trials))]))
            .collect();
        let splits: Vec<&crate::report::compare::AaSource> = g.sources.iter().filter(|s| s.kind == "split").collect();
        if !splits.is_empty() {
            sources.push(fill(
                w.source_splits,
                &[("conditions", &format::count(splits.len() as u64)), ("count", &format::count(splits.iter().map(|s| s.trials).sum()))],
            ));
        }
        let mut notes = vec![fill(
            w.gate_calibrated,
            &[
                ("alpha", &alpha),
                ("count", &format::count(rate.trials)),
                ("sources", &prose::list(self.lang, &sources)),
                ("fired", &format::count(rate.fired)),
                ("rate", &format::percent(rate.rate)),
                ("low", &format::percent(rate.low)),
                ("high", &format::percent(rate.high)),
            ],
        )];
        if !splits.is_empty() {
            notes.push(w.gate_splits_overlap.to_string());
        }
        notes.extend(set_aside);
        notes
    }

    /// What the permutation p can show at these runs, when it cannot reach the tests' level.
    fn permutation_note(&self) -> Option<String> {
        let c = self.report.conditions.iter().find(|c| c.permutation.is_some_and(|p| p.smallest_p > self.report.gate.nominal_alpha))?;
        let p = c.permutation?;
        Some(fill(
            self.w.permutation_note,
            &[
                ("n", &format::count(c.base.runs.len() as u64)),
                ("relabellings", &format::count(p.relabellings)),
                ("smallest", &format::p_value(p.smallest_p)),
            ],
        ))
    }

    fn counts(&self) -> String {
        let s = &self.report.summary;
        if s.matched == 0 {
            return self.w.counts_none.to_string();
        }
        // Failed requests decide by better and worse, not by speed.
        let (better, worse) = if s.failures_rise + s.failures_fall > 0 { (self.w.better, self.w.worse) } else { self.directions() };
        fill(
            crate::render::i18n::grammar::plural(s.matched, self.w.counts_one, self.w.counts),
            &[
                ("matched", &format::count(s.matched)),
                ("better", better),
                ("worse", worse),
                ("faster", &format::count(s.supported_faster)),
                ("slower", &format::count(s.supported_slower)),
                ("negligible", &format::count(s.negligible)),
                ("not_shown", &format::count(s.not_shown)),
            ],
        )
    }

    fn labels_of(&self, ids: &[String]) -> String {
        let labels: Vec<String> =
            ids.iter().filter_map(|id| self.report.conditions.iter().find(|c| &c.condition_id == id)).map(|c| self.label(c)).collect();
        prose::list(self.lang, &labels)
    }

    /// Whether the baseline's finding held: the question a re-measurement exists for.
    fn reproduction(&self) -> Option<String> {
        let (r, w) = (self.report.reproduction.as_ref()?, self.w);
        if !r.has_finding() {
            return Some(w.reproduction_none.to_string());
        }
        let pairs = |outcomes: &[FindingOutcome]| -> String {
            let label =
                |id: &str| self.report.conditions.iter().find(|c| c.condition_id == id).map_or_else(|| id.to_string(), |c| self.label(c));
            let listed: Vec<String> = r
                .findings
                .iter()
                .filter(|f| outcomes.contains(&f.outcome))
                .map(|f| fill(self.t.versus, &[("a", &label(&f.a_id)), ("b", &label(&f.b_id))]))
                .collect();
            prose::list(self.lang, &listed)
        };
        let count = |n: u64| format::count(n);
        let n = count(r.findings.len() as u64);
        Some(if r.reversed > 0 {
            fill(
                w.reproduction_reversed,
                &[("n", &n), ("reversed", &count(r.reversed)), ("held", &count(r.held)), ("list", &pairs(&[FindingOutcome::Reversed]))],
            )
        } else if r.not_shown > 0 {
            let not_held = [FindingOutcome::NotShown, FindingOutcome::NotCompared, FindingOutcome::Unmatched];
            fill(
                w.reproduction_partly,
                &[("n", &n), ("held", &count(r.held)), ("not_shown", &count(r.not_shown)), ("list", &pairs(&not_held))],
            )
        } else {
            fill(w.reproduction_held, &[("n", &n)])
        })
    }

    /// The counts, and what the gate decided.
    fn summary(&self) -> Vec<String> {
        let (r, w) = (self.report, self.w);
        let mut out = Vec::new();
        let differing: Vec<&crate::report::compare::EnvDifference> = r.comparability.differing.iter().filter(|d| !d.allowed).collect();
        if !differing.is_empty() {
            let list: Vec<String> = differing.iter().map(|d| self.env_difference(w.env_difference, d)).collect();
            let keys: Vec<String> = differing.iter().map(|d| d.key.clone()).collect();
            out.push(fill(w.incomparable_summary, &[("list", &prose::list(self.lang, &list)), ("keys", &keys.join(" --allow-env "))]));
        }
        if r.nothing_compared == Some(NothingCompared::SameMeasurement) {
            out.push(w.same_measurement.to_string());
        } else {
            out.extend(self.reproduction());
            out.push(self.counts());
        }
        out.extend(self.without_metric());
        if !r.summary.causes_differ.is_empty() {
            out.push(fill(
                w.causes_summary,
                &[
                    ("n", &format::count(r.summary.causes_differ.len() as u64)),
                    ("matched", &format::count(r.summary.matched)),
                    ("list", &self.labels_of(&r.summary.causes_differ)),
                ],
            ));
        }
        let (rise, fall) = (r.summary.failures_rise, r.summary.failures_fall);
        if rise + fall > 0 {
            out.push(fill(
                w.counts_failures,
                &[("n", &format::count(rise + fall)), ("rise", &format::count(rise)), ("fall", &format::count(fall))],
            ));
        }
        let Some(threshold) = self.threshold() else { return out };
        let (_, worse) = self.directions();
        let failing = |by: DecidedBy| -> Vec<String> {
            r.conditions.iter().filter(|c| c.regression && c.decided_by == by).map(|c| c.condition_id.clone()).collect()
        };
        if r.summary.regressions.is_empty() {
            out.push(self.gate_passed_or_not(&threshold));
        }
        for (by, template) in [
            (DecidedBy::Failures, w.gate_failed_failures),
            (DecidedBy::NoCandidateRun, w.gate_failed_no_run),
            (DecidedBy::Metric, w.gate_failed),
        ] {
            let ids = failing(by);
            if !ids.is_empty() {
                out.push(fill(template, &[("threshold", &threshold), ("list", &self.labels_of(&ids))]));
            }
        }
        // A gate's reader needs its false alarms beside its verdict.
        out.extend(self.gate_note());
        let unsupported: Vec<String> = r.conditions.iter().filter(|c| c.regression_undecided).map(|c| c.condition_id.clone()).collect();
        if !unsupported.is_empty() {
            out.push(fill(w.gate_unsupported, &[("list", &self.labels_of(&unsupported)), ("worse", worse), ("threshold", &threshold)]));
        }
        out
    }

    /// What a gate without a regression says: it passes, or it compared nothing it was asked to
    /// judge and does not (exit status 4).
    fn gate_passed_or_not(&self, threshold: &str) -> String {
        let (r, w) = (self.report, self.w);
        if !r.gate_compared_nothing() {
            return fill(w.gate_none, &[("threshold", threshold)]);
        }
        match (r.nothing_compared, &r.without_metric) {
            (Some(NothingCompared::SameMeasurement), _) => fill(w.gate_same, &[("threshold", threshold)]),
            (_, Some(without)) => fill(
                w.gate_without_metric,
                &[("threshold", threshold), ("list", &self.labels_of(&without.conditions)), ("metric", &self.metric_label)],
            ),
            _ => fill(w.gate_no_match, &[("threshold", threshold)]),
        }
    }

    /// The conditions not compared for want of the metric, and what their runs have instead.
    fn without_metric(&self) -> Option<String> {
        let (r, w) = (self.report, self.w);
        let without = r.without_metric.as_ref()?;
        let tools = prose::list(self.lang, &without.printed_by);
        let available: Vec<String> = without
            .available
            .iter()
            .map(|name| match name.strip_prefix('p') {
                Some(_) => fill(w.printed_by, &[("p", name), ("tools", &tools)]),
                None => metric_label(self.lang, headline_of_name(name), name),
            })
            .collect();
        let instead =
            if available.is_empty() { String::new() } else { fill(w.instead, &[("available", &prose::list(self.lang, &available))]) };
        Some(fill(
            w.without_metric,
            &[("list", &self.labels_of(&without.conditions)), ("metric", &self.metric_label), ("instead", &instead)],
        ))
    }

    /// The factors only one side has, and the rules that would pair unmatched conditions.
    fn matching_notes(&self) -> Vec<String> {
        let (r, w) = (self.report, self.w);
        let mut notes = Vec::new();
        let sides =
            [(w.baseline_word, &r.baseline, &r.matching.only_in_baseline), (w.candidate_word, &r.candidate, &r.matching.only_in_candidate)];
        for (side, dataset, factors) in sides {
            for f in factors {
                let varies = f.levels.len() > 1;
                let template = if varies { w.one_side_varies } else { w.one_side_factor };
                // The rule to type needs the factor's name ({factor_name}); the sentence names it by its label too.
                let label = self.factor_label(dataset, &f.factor);
                let factor = if label == f.factor { label } else { self.aside(&label, &f.factor) };
                notes.push(fill(
                    template,
                    &[("factor", &factor), ("factor_name", &f.factor), ("side", side), ("levels", &prose::list(self.lang, &f.levels))],
                ));
            }
        }
        if !r.matching.suggested.is_empty() {
            let rules: Vec<String> = r.matching.suggested.iter().map(|rule| format!("--match {rule}")).collect();
            notes.push(fill(w.suggested, &[("rules", &rules.join(" "))]));
        }
        notes
    }

    fn notes(&self) -> Vec<String> {
        let (r, w) = (self.report, self.w);
        let mut notes = Vec::new();
        if let Some(own) = &r.candidate_headline {
            let own_label = metric_label(self.lang, headline_of_name(own), own);
            notes.push(fill(w.candidate_headline, &[("own", &own_label), ("metric", &self.metric_label)]));
        }
        if !r.matching.rules.is_empty() {
            notes.push(fill(w.rules_note, &[("rules", &r.matching.rules.join(" --match "))]));
        }
        notes.extend(self.matching_notes());
        let with_p = format::count(r.summary.with_interval);
        notes.push(fill(
            w.rule,
            &[
                ("q", &format::percent(r.thresholds.fdr_q)),
                ("with_p", &with_p),
                ("threshold", &format::percent(r.thresholds.negligible_difference)),
            ],
        ));
        notes.push(fill(
            w.failures_rule,
            &[
                ("margin", &format::percent_round(r.thresholds.error_share)),
                ("q", &format::percent(r.thresholds.fdr_q)),
                ("metric", &self.metric_label),
            ],
        ));
        if let Some(threshold) = self.threshold() {
            notes.push(fill(w.gate_rule, &[("worse", self.directions().1), ("threshold", &threshold)]));
        }
        notes.push(self.sittings_note());
        if self.has_causes() {
            let th = &r.thresholds;
            notes.push(fill(
                w.causes_rule,
                &[("cpu_floor", &format::percent_round(th.cause_cpu_floor)), ("load_floor", &format::decimal(th.cause_load_floor, 1))],
            ));
        }
        if let Some(d) = r.conditions.iter().find_map(|c| c.detectable) {
            notes.push(fill(w.detectable_rule, &[("power", &format::percent(d.power)), ("target", &times(d.target))]));
        }
        notes.extend(self.permutation_note());
        if self.threshold().is_none() {
            notes.extend(self.gate_note());
        }
        notes
    }

    /// Why a side has no value: its ok runs have no value of the metric, every request of its ok
    /// runs failed, or it has no ok run.
    fn missing(&self, side: &SideRuns, failures: &FailureSide) -> String {
        if side.without_value > 0 && !(failures.runs > 0 && failures.errors == failures.requests) {
            fill(self.w.no_metric, &[("metric", &self.metric_label)])
        } else if failures.runs > 0 && failures.errors == failures.requests {
            self.w.every_request_failed.to_string()
        } else {
            self.w.no_run.to_string()
        }
    }

    fn side_cell(&self, side: &SideRuns, failures: &FailureSide) -> Cell {
        match (side.median, side.min, side.max) {
            (Some(median), Some(min), Some(max)) => Cell {
                text: self.number(side, median),
                sub: Some(if side.runs.len() == 1 {
                    "n = 1".to_string()
                } else {
                    self.range(&self.number(side, min), &self.number(side, max))
                }),
                numeric: true,
                ..Cell::default()
            },
            _ => Cell::text("–").with_note(Some(self.missing(side, failures))),
        }
    }

    fn no_interval_text(&self, c: &ConditionComparison) -> Option<String> {
        if c.base.runs.is_empty() {
            return Some(self.missing(&c.base, &c.failures.base));
        }
        if c.cand.runs.is_empty() {
            return Some(self.missing(&c.cand, &c.failures.cand));
        }
        match c.no_interval? {
            NoInterval::OneRun => Some(self.w.no_interval_one_run.to_string()),
            NoInterval::NoSpread => Some(self.t.no_interval_spread.to_string()),
            NoInterval::ZeroValue => Some(self.t.no_interval_zero.to_string()),
        }
    }

    /// The verdict of a condition: by its failures when they decided it, else by its metric.
    fn condition_verdict(&self, c: &ConditionComparison) -> String {
        if c.decided_by == DecidedBy::Failures {
            match c.failures.verdict {
                FailureVerdict::Rise => return self.w.verdict_failures_rise.to_string(),
                FailureVerdict::Fall => return self.w.verdict_failures_fall.to_string(),
                FailureVerdict::NoResponses => return self.w.verdict_no_responses.to_string(),
                _ => {}
            }
        }
        self.verdict_text(c.verdict)
    }

    /// The tag of a condition that fails the gate, by what failed it.
    fn regression_tag(&self, c: &ConditionComparison) -> String {
        match c.decided_by {
            DecidedBy::Failures => self.w.regression_failures_tag.to_string(),
            DecidedBy::NoCandidateRun => self.w.regression_no_run_tag.to_string(),
            DecidedBy::Metric => fill(self.w.regression_tag, &[("threshold", &self.threshold().unwrap_or_default())]),
        }
    }

    /// A side's share of failed requests: "0%", "99.0%".
    fn failure_share(&self, side: &FailureSide) -> String {
        side.share.map_or_else(|| "–".to_string(), format::percent_fine)
    }

    /// Why the failures left a condition undecided, when they did.
    fn failures_note(&self, c: &ConditionComparison) -> Option<String> {
        let margin = format::percent_round(self.report.thresholds.error_share);
        match (c.decided_by, c.failures.verdict) {
            (DecidedBy::NoCandidateRun, _) => Some(self.w.no_candidate_run.to_string()),
            (DecidedBy::Failures, FailureVerdict::NotShown) => Some(match c.failures.p {
                Some(p) => {
                    fill(self.w.failures_not_shown, &[("margin", &margin), ("p", &format::p_value(p)), ("metric", &self.metric_label)])
                }
                None => fill(self.w.failures_one_run, &[("margin", &margin), ("metric", &self.metric_label)]),
            }),
            _ => None,
        }
    }

    fn verdict_text(&self, verdict: CompareVerdict) -> String {
        let (better, worse) = self.directions();
        match verdict {
            CompareVerdict::SupportedFaster => fill(self.w.verdict_supported, &[("direction", better)]),
            CompareVerdict::SupportedSlower => fill(self.w.verdict_supported, &[("direction", worse)]),
            CompareVerdict::Negligible => {
                fill(self.t.verdict_negligible, &[("threshold", &format::percent(self.report.thresholds.negligible_difference))])
            }
            CompareVerdict::NotShown => self.t.verdict_not_shown.to_string(),
        }
    }

    /// The smallest change the runs could detect and what would detect the target change:
    /// "with these runs only a change beyond ×1.33 was detectable; 13 runs a side,
    /// or 6 interleaved rounds, would detect ×1.10" (the first part alone beside a verdict).
    fn detectable_text(&self, d: &Detectable, cannot_tell: bool) -> Option<String> {
        let w = self.w;
        if !d.change.is_finite() {
            return None;
        }
        let change = times(d.change);
        if !cannot_tell {
            return Some(fill(w.detectable_note, &[("change", &change)]));
        }
        let limit = format::count(crate::stats::model::MAX_PLANNED);
        let plan = match (d.runs_a_side, d.rounds) {
            (Some(runs), Some(rounds)) => {
                fill(w.plan_runs_and_rounds, &[("runs", &format::count(runs)), ("rounds", &format::count(rounds))])
            }
            (None, Some(rounds)) => fill(w.plan_rounds_only, &[("rounds", &format::count(rounds))]),
            _ => fill(w.plan_none, &[("n", &limit)]),
        };
        Some(fill(w.detectable_cannot_tell, &[("change", &change), ("plan", &plan), ("target", &times(d.target))]))
    }

    /// What the verdicts assume or allow of sitting-to-sitting variation.
    fn sittings_note(&self) -> String {
        let (r, w) = (self.report, self.w);
        let tau = r.sittings.sitting_variance.map_or_else(|| "–".to_string(), |v| format::percent(v.tau2.sqrt().exp_m1()));
        match r.sittings.design {
            crate::model::Design::SittingsASide => fill(
                w.sittings_both,
                &[("a", &format::count(r.sittings.baseline.len() as u64)), ("b", &format::count(r.sittings.candidate.len() as u64))],
            ),
            crate::model::Design::WelchWithSittingVariance => fill(
                w.sittings_aa,
                &[("n", &format::count(r.sittings.baseline.len() as u64)), ("tau", &tau), ("metric", &self.metric_label)],
            ),
            _ => w.sittings_none.to_string(),
        }
    }

    /// The notes under a verdict: why an interval that excludes 1 is no verdict, and the runs
    /// that would decide it.
    fn verdict_notes(&self, c: &ConditionComparison) -> Vec<String> {
        let mut notes: Vec<String> = self.failures_note(c).into_iter().collect();
        if c.decided_by != DecidedBy::Metric {
            return notes;
        }
        let excludes_one = matches!((c.ratio_low, c.ratio_high), (Some(low), Some(high)) if low > 1.0 || high < 1.0);
        if c.verdict == CompareVerdict::NotShown && excludes_one && !c.fdr_supported {
            notes.push(fill(self.w.excludes_but_fdr, &[("with_p", &format::count(self.report.summary.with_interval))]));
        } else if let Some(text) = c.detectable.and_then(|d| self.detectable_text(&d, c.verdict == CompareVerdict::NotShown)) {
            notes.push(text);
        }
        if let Some(requests) = c.unresolved_needs {
            let needs = super::needs_text(self.t, requests);
            notes.push(fill(self.t.verdict_unresolved, &[("p", &self.metric_label), ("needs", &needs)]));
        }
        notes
    }

    /// The candidate against the baseline, turned to at least 1 with the words of the metric
    /// ("×1.24 faster (0.82–1.85)"); compare.json keeps candidate over baseline.
    fn ratio_text(&self, c: &ConditionComparison) -> (String, Option<String>) {
        let Some(oriented) = c.ratio.and_then(|ratio| Oriented::of(ratio, c.ratio_low, c.ratio_high)) else {
            return ("–".to_string(), self.no_interval_text(c));
        };
        let change = crate::render::i18n::lead::change_words(self.lang, self.report.headline, &oriented);
        match oriented.interval {
            Some((low, high)) => (self.aside(&change, &self.range(&format::factor(low), &format::factor(high))), None),
            None => (change, self.no_interval_text(c)),
        }
    }

    fn row(&self, c: &ConditionComparison) -> Vec<Cell> {
        let (t, w) = (self.t, self.w);
        let (ratio, why) = self.ratio_text(c);
        let ranges = match (c.ranges_overlap, c.chance_if_no_difference) {
            (Some(true), _) => t.ranges_overlap_cell.to_string(),
            (Some(false), Some(chance)) => fill(t.ranges_apart_cell, &[("chance", &format::probability(chance))]),
            (Some(false), None) => fill(t.ranges_apart_cell, &[("chance", "–")]),
            (None, _) => "–".to_string(),
        };
        let notes = self.verdict_notes(c);
        let mut label = Cell::text(self.label(c));
        if c.baseline_condition_id != c.condition_id {
            label.sub = Some(self.aside(w.baseline_word, &c.baseline_condition_id));
        }
        let mut cells = vec![
            label,
            self.side_cell(&c.base, &c.failures.base),
            self.side_cell(&c.cand, &c.failures.cand),
            Cell::number(ratio).with_note(why),
            c.p_log_t.map_or_else(
                || Cell::text("–"),
                |p| Cell {
                    sub: c.permutation.map(|perm| fill(w.permutation_sub, &[("p", &format::p_value(perm.p))])),
                    ..Cell::number(format::p_value(p))
                },
            ),
            Cell::number(fill(t.versus, &[("a", &c.base.runs.len().to_string()), ("b", &c.cand.runs.len().to_string())])),
            Cell::text(ranges),
            self.failures_cell(c),
            Cell {
                text: self.condition_verdict(c),
                sub: c.regression.then(|| self.regression_tag(c)),
                note: (!notes.is_empty()).then(|| notes.join(t.list_sep)),
                ..Cell::default()
            },
        ];
        if self.has_causes() {
            cells.push(self.causes_cell(c));
        }
        cells
    }

    /// Whether any compared condition's runs record the server's CPU or the host's load: the
    /// table then has their column.
    fn has_causes(&self) -> bool {
        self.report.conditions.iter().any(|c| c.causes.is_some())
    }

    /// "server CPU 90.0% → 56.0% of a core", "host load 0.12 → 2.77" (in a cell, under the
    /// column's heading: "CPU 90.0% → 56.0%", "load 0.12 → 2.77"): each figure a side's runs
    /// record, "–" for a side without it.
    fn causes_lines(&self, causes: &Causes, cell: bool) -> Vec<String> {
        let w = self.w;
        let (cpu_words, load_words) = if cell { (w.causes_cpu_cell, w.causes_load_cell) } else { (w.causes_cpu, w.causes_load) };
        let side = |s: Option<CauseSide>, show: &dyn Fn(f64) -> String| s.map_or_else(|| "–".to_string(), |s| show(s.median));
        let mut lines = Vec::new();
        if let Some(cpu) = causes.server_cpu {
            lines.push(fill(cpu_words, &[("base", &side(cpu.base, &format::percent)), ("cand", &side(cpu.cand, &format::percent))]));
        }
        if let Some(load) = causes.host_load {
            let show = |v: f64| format::decimal(v, 2);
            lines.push(fill(load_words, &[("base", &side(load.base, &show)), ("cand", &side(load.cand, &show))]));
        }
        lines
    }

    /// The warning where the sides' server CPU or host load differ beyond their runs' spread.
    fn causes_warning(&self, causes: &Causes) -> Option<String> {
        let w = self.w;
        let mut parts = Vec::new();
        let medians = |c: SideCause, show: &dyn Fn(f64) -> String| {
            (c.base.map_or_else(|| "–".to_string(), |s| show(s.median)), c.cand.map_or_else(|| "–".to_string(), |s| show(s.median)))
        };
        if let Some(cpu) = causes.server_cpu.filter(|c| c.differs) {
            let (base, cand) = medians(cpu, &format::percent);
            parts.push(fill(w.causes_cpu_differs, &[("base", &base), ("cand", &cand)]));
        }
        if let Some(load) = causes.host_load.filter(|c| c.differs) {
            let (base, cand) = medians(load, &|v| format::decimal(v, 2));
            parts.push(fill(w.causes_load_differs, &[("base", &base), ("cand", &cand)]));
        }
        (!parts.is_empty()).then(|| fill(w.causes_warning, &[("causes", &parts.join(self.t.list_sep))]))
    }

    fn causes_cell(&self, c: &ConditionComparison) -> Cell {
        let Some(causes) = c.causes else { return Cell::text("–") };
        let mut lines = self.causes_lines(&causes, true).into_iter();
        Cell {
            text: lines.next().unwrap_or_else(|| "–".to_string()),
            sub: lines.next(),
            note: self.causes_warning(&causes),
            ..Cell::default()
        }
    }

    /// Both sides' shares of failed requests, with the p of their test.
    fn failures_cell(&self, c: &ConditionComparison) -> Cell {
        let f = &c.failures;
        Cell {
            text: fill(self.w.failures_cell, &[("base", &self.failure_share(&f.base)), ("cand", &self.failure_share(&f.cand))]),
            sub: f.p.map(|p| format!("p {}", format::p_value(p))),
            numeric: true,
            ..Cell::default()
        }
    }

    fn table(&self) -> Table {
        let (t, w) = (self.t, self.w);
        let words = metric_words(self.lang, self.report.headline);
        let in_unit = |name: &str| fill(words.in_unit, &[("name", name)]);
        Table {
            id: "compared".into(),
            caption: fill(
                t.caption,
                &[("main", w.table_heading), ("note", &fill(w.table_caption, &[("metric", &self.metric_label), ("unit", words.unit)]))],
            ),
            headers: vec![
                t.condition.into(),
                in_unit(w.baseline),
                in_unit(w.candidate),
                w.ratio_header.into(),
                t.p_header.into(),
                t.runs_compared.into(),
                t.ranges_header.into(),
                w.failures_header.into(),
                t.verdict.into(),
            ]
            .into_iter()
            .chain(self.has_causes().then(|| w.causes_header.into()))
            .collect(),
            rows: self.report.conditions.iter().map(|c| self.row(c)).collect(),
        }
    }

    fn reason(&self, u: &Unmatched, other: &str) -> String {
        match u.reason {
            UnmatchedReason::NoCounterpart => fill(self.w.reason_no_counterpart, &[("other", other)]),
            UnmatchedReason::Ambiguous => {
                fill(self.w.reason_ambiguous, &[("other", other), ("list", &prose::list(self.lang, &u.could_match))])
            }
            UnmatchedReason::NotSelected => self.w.reason_not_selected.to_string(),
        }
    }

    fn unmatched_rows(&self) -> Vec<(&'static str, &Unmatched, String)> {
        let (r, w) = (self.report, self.w);
        let base = r.only_in_baseline.iter().map(|u| (w.baseline, u, self.reason(u, w.candidate_word)));
        let cand = r.only_in_candidate.iter().map(|u| (w.candidate, u, self.reason(u, w.baseline_word)));
        base.chain(cand).collect()
    }

    fn unmatched_table(&self) -> Option<Table> {
        let (t, w) = (self.t, self.w);
        let rows: Vec<Vec<Cell>> = self
            .unmatched_rows()
            .into_iter()
            .map(|(side, u, reason)| {
                vec![
                    Cell::text(prose::labels_label(self.lang, &u.labels)),
                    Cell::text(side),
                    Cell::number(format::count(u.ok_runs as u64)),
                    Cell::text(reason),
                ]
            })
            .collect();
        (!rows.is_empty()).then(|| Table {
            id: "unmatched".into(),
            caption: fill(t.caption, &[("main", w.unmatched_heading), ("note", w.unmatched_caption)]),
            headers: vec![t.condition.into(), w.side_header.into(), t.runs_compared.into(), t.reason.into()],
            rows,
        })
    }

    fn text_side(&self, side: &str, s: &SideRuns, failures: &FailureSide) -> String {
        match (s.median, s.min, s.max) {
            (Some(median), Some(min), Some(max)) => fill(
                self.w.text_side,
                &[
                    ("side", side),
                    ("median", &super::metric_value_at(self.report.headline, s.decimals, median)),
                    ("range", &self.range(&self.number(s, min), &self.number(s, max))),
                    ("runs", &format::count(s.runs.len() as u64)),
                ],
            ),
            _ => fill(self.w.text_side_missing, &[("side", side), ("why", &self.missing(s, failures))]),
        }
    }

    fn text_row(&self, c: &ConditionComparison) -> (String, String) {
        let (t, w) = (self.t, self.w);
        let mut verdict = self.condition_verdict(c);
        if c.regression {
            verdict = format!("{verdict}{}{}", t.list_sep, self.regression_tag(c));
        }
        let head = fill(w.text_condition, &[("condition", &self.label(c)), ("verdict", &verdict)]);
        let (ratio, why) = self.ratio_text(c);
        let mut parts =
            vec![self.text_side(w.baseline_word, &c.base, &c.failures.base), self.text_side(w.candidate_word, &c.cand, &c.failures.cand)];
        let p = c.p_log_t.map_or_else(|| "–".to_string(), format::p_value);
        parts.push(fill(w.text_ratio, &[("ratio", &ratio), ("p", &p)]));
        if let Some(perm) = c.permutation {
            parts.push(fill(w.permutation_sub, &[("p", &format::p_value(perm.p))]));
        }
        parts.push(fill(
            w.text_failures,
            &[("base", &self.failure_share(&c.failures.base)), ("cand", &self.failure_share(&c.failures.cand))],
        ));
        parts.extend(why);
        parts.extend(self.verdict_notes(c));
        if let Some(causes) = &c.causes {
            parts.extend(self.causes_lines(causes, false));
            parts.extend(self.causes_warning(causes));
        }
        (head, parts.join(t.list_sep))
    }

    /// Per unmatched condition, its side and why; then the matching notes (a factor one side has,
    /// with the `--match` that picks its level) and the rules that would pair the rest.
    fn text_unmatched(&self) -> Vec<String> {
        let w = self.w;
        let mut lines: Vec<String> = self
            .unmatched_rows()
            .into_iter()
            .map(|(side, u, reason)| {
                let side = if side == w.baseline { w.baseline_word } else { w.candidate_word };
                fill(w.text_only_in, &[("side", side), ("condition", &prose::labels_label(self.lang, &u.labels)), ("reason", &reason)])
            })
            .collect();
        if !lines.is_empty() {
            lines.extend(self.matching_notes());
        }
        lines
    }
}

/// The names an article of the candidate can cite about its comparison with its baseline
/// (`comparison.…`, listed in report-templates/README.md), formatted as the comparison page
/// formats them.
pub fn article_names(report: &ComparisonReport, lang: Lang) -> serde_json::Value {
    let view = View { report, lang, t: strings(lang), w: words(lang), metric_label: metric_label(lang, report.headline, &report.metric) };
    let side = |s: &SideRuns| {
        serde_json::json!({
            "median": s.median.map(|m| view.number(s, m)),
            "range": s.min.zip(s.max).map(|(low, high)| view.range(&view.number(s, low), &view.number(s, high))),
            "n": format::count(s.runs.len() as u64),
        })
    };
    let mut conditions = serde_json::Map::new();
    for c in &report.conditions {
        let (ratio, _) = view.ratio_text(c);
        conditions.insert(
            c.condition_id.clone(),
            serde_json::json!({
                "label": view.label(c),
                "verdict": view.condition_verdict(c),
                "ratio": c.ratio.map(format::factor),
                "ratio_interval": ratio,
                "p": c.p_log_t.map(format::p_value),
                "baseline": side(&c.base),
                "candidate": side(&c.cand),
                "runs_needed": view.verdict_notes(c).join(view.t.list_sep),
            }),
        );
    }
    let with = |verdicts: &[CompareVerdict]| -> String {
        let labels: Vec<String> = report.conditions.iter().filter(|c| verdicts.contains(&c.verdict)).map(|c| view.label(c)).collect();
        prose::list(lang, &labels)
    };
    let s = &report.summary;
    serde_json::json!({
        "baseline": { "title": report.baseline.title.get(lang), "dataset": report.baseline.dataset, "measured": report.baseline.measured },
        "matched": format::count(s.matched),
        "supported_faster": format::count(s.supported_faster),
        "supported_slower": format::count(s.supported_slower),
        "negligible": format::count(s.negligible),
        "not_shown": format::count(s.not_shown),
        "summary": view.counts(),
        "conditions": conditions,
        "with_verdict": {
            "supported_faster": with(&[CompareVerdict::SupportedFaster]),
            "supported_slower": with(&[CompareVerdict::SupportedSlower]),
            "supported": with(&[CompareVerdict::SupportedFaster, CompareVerdict::SupportedSlower]),
            "negligible": with(&[CompareVerdict::Negligible]),
            "not_shown": with(&[CompareVerdict::NotShown]),
        },
    })
}

/// The headline metric a compare.json metric name stands for (`p95` is a percentile).
fn headline_of_name(name: &str) -> HeadlineMetric {
    serde_json::from_value(serde_json::Value::String(name.to_string())).unwrap_or(HeadlineMetric::Percentile)
}
