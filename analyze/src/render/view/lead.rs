//! The lead under a report's title, and the words beside a condition's headline value: both
//! only put into words what `stats::standing` decided (which conditions fail, which is best).

use super::*;
use crate::model::{Oriented, Verdict};
use crate::render::i18n::lead::{lead_words, paired_words, LeadWords};
use crate::report::review::PairedComparison;

/// What the report finds, before any table: how conditions are compared, then one line per
/// group the study compares, naming the conditions that fail and the best of the rest.
#[derive(Debug, Clone, Serialize)]
pub struct Lead {
    pub intro: String,
    pub groups: Vec<String>,
}

impl Context<'_> {
    fn lead_words(&self) -> &'static LeadWords {
        lead_words(self.lang)
    }

    /// A failing condition's share as its values of `metric` should name it: the failed sessions
    /// for a session metric, else the requests without a 2xx response, whichever lies above the
    /// threshold; `true` for sessions. `None` for a condition that does not fail.
    pub(super) fn failing_share(&self, condition: usize, metric: HeadlineMetric) -> Option<(f64, bool)> {
        let standing = &self.report.standing;
        let c = standing.conditions.get(condition).filter(|c| c.failing)?;
        let above = |share: Option<f64>| share.filter(|s| *s > standing.threshold);
        let (sessions, requests) = (above(c.failed_share).map(|s| (s, true)), above(c.error_share).map(|s| (s, false)));
        if metric.needs_sessions() {
            sessions.or(requests)
        } else {
            requests.or(sessions)
        }
    }

    /// "successful sessions only; 64.9% failed": under a failing condition's value of `metric`,
    /// what the value leaves out.
    pub fn failing_note(&self, condition: usize, metric: HeadlineMetric) -> Option<String> {
        let (share, sessions) = self.failing_share(condition, metric)?;
        let w = self.lead_words();
        let template = if sessions { w.failing_sessions_cell } else { w.failing_requests_cell };
        // A percentile of runs whose rows cannot place their failures ranks those failures too.
        let unplaced = self.unplaced_tool(condition).filter(|_| metric == HeadlineMetric::Percentile && !sessions);
        let excludes = match unplaced {
            Some(tool) => fill(
                crate::render::i18n::counted::words(self.lang).unplaced_excludes,
                &[("tool", crate::model::Tool::display_name_of(tool))],
            ),
            None => metric_words(self.lang, metric).excludes.to_string(),
        };
        Some(fill(template, &[("excludes", &excludes), ("share", &self.share_text(share, sessions))]))
    }

    /// A share of sessions to a tenth of a percent (as seed 003 printed it), of requests to a hundredth.
    pub(super) fn share_text(&self, share: f64, sessions: bool) -> String {
        self.metric_number(if sessions { HeadlineMetric::FailedShare } else { HeadlineMetric::ErrorRate }, None, share)
    }

    /// "0.0% failed", "p95 370.35 ms": a condition's value of a metric beside the headline's.
    fn beside_text(&self, metric: HeadlineMetric, condition: usize) -> Option<String> {
        let value = metric.of_condition(&self.report.conditions[condition])?.median;
        let text = self.metric_value(metric, Some(condition), value);
        Some(fill(metric_words(self.lang, metric).beside, &[("p", &self.p_label), ("value", &text)]))
    }

    /// The lines around a condition's headline value: above it the shares dataset.toml sets
    /// beside it (or, for a failing condition, what the value leaves out), below it the other
    /// metrics beside it.
    pub fn beside_lines(&self, condition: usize) -> (Option<String>, Vec<String>) {
        let failing = self.failing_note(condition, self.report.headline);
        let (shares, others): (Vec<HeadlineMetric>, Vec<HeadlineMetric>) = self.report.beside.iter().partition(|m| m.is_share());
        // A failing condition's note already carries its share.
        let above: Vec<String> =
            if failing.is_some() { Vec::new() } else { shares.iter().filter_map(|&m| self.beside_text(m, condition)).collect() };
        let below = others.iter().filter_map(|&m| self.beside_text(m, condition)).collect();
        let above = failing.or_else(|| (!above.is_empty()).then(|| above.join(self.t.list_sep)));
        (above, below)
    }

    /// The headline section's heading: the headline metric's, or, with metrics beside it, all of
    /// them in the order a cell shows them (shares first).
    pub fn headline_heading(&self) -> String {
        if self.report.beside.is_empty() {
            return self.metric.heading.to_string();
        }
        let (shares, others): (Vec<HeadlineMetric>, Vec<HeadlineMetric>) = self.report.beside.iter().partition(|m| m.is_share());
        let order = shares.into_iter().chain([self.report.headline]).chain(others);
        let names: Vec<String> = order.map(|m| fill(metric_words(self.lang, m).label, &[("p", &self.p_label)])).collect();
        fill(self.lead_words().heading_beside, &[("list", &self.list(&names))])
    }

    /// After the headline caption: which metrics stand beside the value.
    pub fn beside_caption(&self) -> String {
        if self.report.beside.is_empty() {
            return String::new();
        }
        let names: Vec<String> =
            self.report.beside.iter().map(|&m| fill(metric_words(self.lang, m).label, &[("p", &self.p_label)])).collect();
        fill(self.lead_words().caption_beside, &[("list", &self.list(&names))])
    }

    /// The lead: `None` only when no condition has a headline value.
    pub fn lead(&self) -> Option<Lead> {
        let standing = &self.report.standing;
        let w = self.lead_words();
        let alone = standing.groups.len() == 1;
        // Each group's line, then its paired verdicts within rounds (a plan in rounds).
        let groups: Vec<String> = standing
            .groups
            .iter()
            .flat_map(|g| {
                let paired = self.report.variance.paired.iter().filter(|p| g.conditions.contains(&p.a) && g.conditions.contains(&p.b));
                let paired: Vec<String> = paired.map(|p| self.paired_line(p, g, alone)).collect();
                self.group_line(g, alone).into_iter().chain(paired)
            })
            .collect();
        if groups.is_empty() {
            let line = self.standalone_line()?;
            let mut intro = fill(w.none_compared, &[("metric", &self.headline_label)]);
            self.push_unresolved(&mut intro);
            return Some(Lead { intro, groups: vec![line] });
        }
        let scope = match self.compared_factor() {
            Some(factor) => {
                let others_vary = self.report.factors.iter().any(|f| f.name != factor.name && f.levels.len() > 1);
                fill(if others_vary { w.scope_factor } else { w.scope_factor_alone }, &[("factor", factor.label.get(self.lang))])
            }
            None if self.report.layout.x_factor.is_some() => fill(w.scope_series, &[("x", &self.x_label())]),
            None => w.scope_all.to_string(),
        };
        let direction = if self.report.headline.higher_is_better() { w.higher_better } else { w.lower_better };
        let mut intro = fill(w.compared_by, &[("metric", &self.headline_label), ("direction", direction), ("scope", &scope)]);
        if standing.conditions.iter().any(|c| c.failing) {
            intro.push_str(self.t.sentence_gap);
            intro.push_str(&fill(w.threshold_rule, &[("threshold", &format::percent_round(standing.threshold))]));
        }
        self.push_unresolved(&mut intro);
        Some(Lead { intro, groups })
    }

    /// A paired verdict within rounds, in the lead: "new vs old: ×1.08 slower (1.04–1.12),
    /// supported; paired over 6 rounds." (with the group's label first when the lead has several).
    fn paired_line(&self, p: &PairedComparison, group: &crate::report::standing::StandingGroup, alone: bool) -> String {
        let w = paired_words(self.lang);
        let change = self.paired_change(p);
        let verdict = self.paired_verdict(p, true);
        let line = fill(
            w.line,
            &[
                ("b", &self.condition_short_label(p.b, group)),
                ("a", &self.condition_short_label(p.a, group)),
                ("change", &change.0),
                ("interval", &change.1),
                ("verdict", &verdict),
                ("rounds", &format::count(p.rounds as u64)),
            ],
        );
        let label = self.group_label(group);
        if alone || label.is_empty() {
            line
        } else {
            format!("{label}{}{line}", self.t.colon)
        }
    }

    /// The change of b against a as a factor of at least 1 in the words of what the headline
    /// measures ("×1.08 slower"), and its interval in the same direction ("1.04–1.12"; "–" without).
    pub(super) fn paired_change(&self, p: &PairedComparison) -> (String, String) {
        self.change(p.ratio, p.ratio_low, p.ratio_high).unwrap_or_else(|| ("–".to_string(), "–".to_string()))
    }

    /// A ratio b over a with its interval, as pages show every ratio (`model::Oriented`): a factor
    /// of at least 1 in the words of what the headline measures ("×4,000 faster" for 0.00025 of
    /// a latency), and its interval turned the same way ("3,448–4,545"; "–" without one). `None`
    /// without a positive ratio.
    pub(super) fn change(&self, ratio: Option<f64>, low: Option<f64>, high: Option<f64>) -> Option<(String, String)> {
        let oriented = Oriented::of(ratio?, low, high)?;
        Some((crate::render::i18n::lead::change_words(self.lang, self.report.headline, &oriented), self.factor_range(oriented.interval)))
    }

    /// An interval of factors, "1.22–14.4"; "–" without one.
    fn factor_range(&self, interval: Option<(f64, f64)>) -> String {
        interval.map_or_else(|| "–".to_string(), |(low, high)| self.range_text(&format::factor(low), &format::factor(high)))
    }

    /// A paired verdict in words; `detectable`: with the change these rounds could detect when
    /// they tell nothing from chance.
    pub(super) fn paired_verdict(&self, p: &PairedComparison, detectable: bool) -> String {
        let w = paired_words(self.lang);
        if p.too_few_rounds {
            return fill(w.too_few, &[("rounds", &format::count(p.rounds as u64)), ("floor", &format::p_value(p.smallest_permutation_p))]);
        }
        match p.verdict {
            Verdict::Supported => w.supported.to_string(),
            Verdict::Negligible => {
                fill(w.negligible, &[("threshold", &format::percent_round(self.report.variance.thresholds.negligible_difference))])
            }
            Verdict::NotShown => match p.detectable.filter(|_| detectable) {
                Some(d) => format!("{}{}", w.not_shown, fill(w.detectable_only, &[("detectable", &format::factor(d))])),
                None => w.not_shown.to_string(),
            },
        }
    }

    /// When the headline is a percentile that some condition's runs do not resolve
    /// (`ConditionResult::unresolved_percentiles`), a sentence saying the lead ranks maxima.
    fn push_unresolved(&self, intro: &mut String) {
        if self.report.headline != HeadlineMetric::Percentile {
            return;
        }
        let key = self.report.percentile.key();
        let Some(&needs) = self.report.conditions.iter().find_map(|c| c.unresolved_percentiles.get(&key)) else { return };
        intro.push_str(self.t.sentence_gap);
        intro.push_str(&fill(self.t.lead_unresolved, &[("p", &self.p_label), ("needs", &self.needs(needs))]));
    }

    fn compared_factor(&self) -> Option<&crate::report::FactorInfo> {
        let name = self.report.variance.comparison_summary.compared.as_deref()?;
        self.report.factors.iter().find(|f| f.name == name)
    }

    /// A group's name in the lead: its level of x, or the levels its conditions share.
    fn group_label(&self, group: &crate::report::standing::StandingGroup) -> String {
        let first = &self.report.conditions[group.conditions[0]];
        match (self.compared_factor(), self.report.layout.x_factor) {
            (Some(factor), _) => {
                // The factors that tell the groups apart, each named with its level ("Concurrency
                // (hey -c) = 1"): a level alone ("1") does not say what it is a level of.
                let compared = self.report.factors.iter().position(|f| f.name == factor.name);
                let named: Vec<String> = (0..self.report.factors.len())
                    .filter(|&f| Some(f) != compared && self.report.factors[f].levels.len() > 1)
                    .map(|f| {
                        let factor = &self.report.factors[f];
                        crate::render::i18n::prose::factor_level(
                            self.lang,
                            factor.label.get(self.lang),
                            factor.levels[first.levels[f]].label.get(self.lang),
                        )
                    })
                    .collect();
                crate::render::i18n::prose::list(self.lang, &named)
            }
            (None, Some(x)) => crate::render::i18n::prose::factor_level(
                self.lang,
                &self.x_label(),
                self.report.factors[x].levels[first.levels[x]].label.get(self.lang),
            ),
            (None, None) => String::new(),
        }
    }

    /// A condition's value in the lead, with the shares set beside it and `notes` after them:
    /// "mean session 523.95 ms (0.0% failed; ...)".
    fn lead_value(&self, condition: usize, notes: &[String]) -> String {
        // A condition with only its tools' printed percentiles: what it is comes first.
        let (value, printed) = match (self.beside_text(self.report.headline, condition), self.printed_lead(condition)) {
            (Some(value), _) => (value, None),
            (None, Some((value, note))) => (value, Some(note)),
            (None, None) => ("–".to_string(), None),
        };
        let mut asides: Vec<String> = printed.into_iter().collect();
        asides.extend(self.report.beside.iter().filter(|m| m.is_share()).filter_map(|&m| self.beside_text(m, condition)));
        asides.extend(notes.iter().filter(|n| !n.is_empty()).cloned());
        if asides.is_empty() {
            value
        } else {
            self.aside(&value, &asides.join(self.lead_words().note_sep))
        }
    }

    /// A condition's printed headline in running text and what it is, when it has only that.
    fn printed_lead(&self, condition: usize) -> Option<(String, String)> {
        let printed = self.report.conditions[condition].headline_printed.as_ref().filter(|_| self.report.headline.is_percentile())?;
        Some(self.printed_parts(&printed.percentile, printed.spread.median, &printed.tools))
    }

    /// Every condition with its value, when no group compares two: "ab, p95 2 ms; hey, ...".
    fn standalone_line(&self) -> Option<String> {
        let w = self.lead_words();
        let items: Vec<String> = (0..self.report.conditions.len())
            .filter(|&c| self.report.headline_of(&self.report.conditions[c]).is_some() || self.printed_lead(c).is_some())
            .map(|c| {
                // A tool's printed percentile may rank its failed requests too: only the share.
                let failing = match self.printed_lead(c) {
                    Some(_) => self.printed_failing_note(c).or_else(|| self.failing_note(c, self.report.headline)),
                    None => self.failing_note(c, self.report.headline),
                };
                let failing = failing.into_iter().collect::<Vec<_>>();
                format!("{}{}{}", self.condition_label(&self.report.conditions[c]), w.name_sep, self.lead_value(c, &failing))
            })
            .collect();
        (!items.is_empty()).then(|| fill(w.group_line_alone, &[("findings", &items.join(w.findings_sep))]))
    }

    fn group_line(&self, group: &crate::report::standing::StandingGroup, alone: bool) -> Option<String> {
        if group.conditions.len() < 2 {
            return None;
        }
        let w = self.lead_words();
        let label = |c: usize| self.condition_short_label(c, group);
        let mut findings: Vec<String> = group
            .failing
            .iter()
            .filter_map(|&c| {
                let (share, sessions) = self.failing_share(c, self.report.headline)?;
                let template = if sessions { w.failed_sessions } else { w.failed_requests };
                Some(format!(
                    "{}{}",
                    fill(template, &[("condition", &label(c)), ("share", &self.share_text(share, sessions))]),
                    w.not_ranked
                ))
            })
            .collect();
        let summaries_only = self.report.headline.is_percentile()
            && group
                .conditions
                .iter()
                .filter(|c| !group.failing.contains(c))
                .all(|&c| self.report.conditions[c].headline_printed.is_some());
        findings.push(match group.ranked.as_slice() {
            [] if summaries_only => fill(w.none_ranked_summaries, &[("metric", &self.headline_label)]),
            [] => w.none_ranked.to_string(),
            [only] => fill(w.only_ranked, &[("condition", &label(*only)), ("value", &self.lead_value(*only, &[]))]),
            ranked => {
                let runs = |c: usize| self.report.headline_of(&self.report.conditions[c]).map_or(0, |s| s.n);
                let verdict =
                    |verdict: Option<Verdict>, factor: Option<f64>, interval: Option<(f64, f64)>, other: usize| match (verdict, factor) {
                        // A supported verdict always has its interval (`stats::difference::verdict`).
                        (Some(Verdict::Supported), Some(factor)) => {
                            fill(w.verdict_supported, &[("factor", &format::factor(factor)), ("interval", &self.factor_range(interval))])
                        }
                        (Some(Verdict::Negligible), _) => fill(
                            w.verdict_negligible,
                            &[("threshold", &format::percent_round(self.report.variance.thresholds.negligible_difference))],
                        ),
                        (Some(_), _) => w.verdict_not_shown.to_string(),
                        (None, _) if runs(ranked[0]) == 1 && runs(other) == 1 => w.verdict_one_run.to_string(),
                        (None, _) => w.verdict_not_compared.to_string(),
                    };
                let named = |template: &str, c: usize, notes: &[String]| {
                    fill(template, &[("condition", &label(c)), ("value", &self.lead_value(c, notes))])
                };
                let mut parts = vec![named(w.best, ranked[0], &[])];
                let next = verdict(group.best_vs_next, group.best_vs_next_factor, group.best_vs_next_interval, ranked[1]);
                parts.push(named(w.next, ranked[1], &[next]));
                if let [_, _, .., last] = ranked {
                    let worst = verdict(group.best_vs_worst, group.best_vs_worst_factor, group.best_vs_worst_interval, *last);
                    parts.push(named(w.worst, *last, &[worst]));
                }
                parts.join(w.findings_sep)
            }
        });
        // Conditions with only their tools' printed percentiles: named, never ranked.
        findings.extend(group.conditions.iter().filter(|&&c| !group.failing.contains(&c) && !group.ranked.contains(&c)).filter_map(|&c| {
            let printed = self.report.conditions[c].headline_printed.as_ref().filter(|_| self.report.headline.is_percentile())?;
            Some(self.not_ranked_text(&label(c), printed))
        }));
        let findings = findings.join(w.findings_sep);
        Some(if alone || self.group_label(group).is_empty() {
            let line = fill(w.group_line_alone, &[("findings", &findings)]);
            // A sentence that opens with a finding's word ("best") takes a capital; one that opens
            // with a condition's name keeps the name as written.
            if group.failing.is_empty() {
                capitalized(&line)
            } else {
                line
            }
        } else {
            fill(w.group_line, &[("group", &self.group_label(group)), ("findings", &findings)])
        })
    }

    /// A condition's name within its group: the levels of the factors that vary among the
    /// group's conditions (all its factors when none varies).
    fn condition_short_label(&self, condition: usize, group: &crate::report::standing::StandingGroup) -> String {
        let levels = |c: usize| &self.report.conditions[c].levels;
        let varying: Vec<usize> =
            (0..self.report.factors.len()).filter(|&f| group.conditions.iter().any(|&c| levels(c)[f] != levels(condition)[f])).collect();
        match varying.as_slice() {
            [] => self.condition_label(&self.report.conditions[condition]),
            // A level that is a bare number ("1" of a concurrency sweep) says nothing alone.
            &[f] => {
                let factor = &self.report.factors[f];
                let level = factor.levels[levels(condition)[f]].label.get(self.lang);
                if level.starts_with(|c: char| c.is_ascii_digit()) {
                    crate::render::i18n::prose::factor_level(self.lang, factor.label.get(self.lang), level)
                } else {
                    level.to_string()
                }
            }
            _ => self.levels_label(levels(condition), &varying),
        }
    }
}

/// The first letter in upper case: a sentence that starts with a finding ("best ...").
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// What the variance review says of one condition against another, as an article cites it
/// (`between["A"]["B"]`: B against A). Only a supported verdict names a lower side.
#[derive(Debug, Clone, Serialize)]
pub struct Between {
    /// summary.json's verdict: "supported", "negligible" or "not_shown".
    pub verdict: Verdict,
    pub separated: bool,
    /// The condition whose headline is lower, when the verdict separates them.
    pub lower: Option<String>,
    /// "×3.45 slower": B against A, at least 1.
    pub change: String,
    pub interval: String,
    /// The whole verdict in a sentence, its words chosen by the verdict.
    pub says: String,
}

impl Context<'_> {
    /// The review's comparison `c` as an article cites it; `swapped` reads A against B.
    pub fn between(&self, c: &crate::report::review::Comparison, swapped: bool) -> Between {
        let w = crate::render::i18n::lead::between_words(self.lang);
        let flip = |x: Option<f64>| x.map(|v| 1.0 / v);
        let (a, b, ratio, low, high) = if swapped {
            (c.b, c.a, flip(c.ratio), flip(c.ratio_high), flip(c.ratio_low))
        } else {
            (c.a, c.b, c.ratio, c.ratio_low, c.ratio_high)
        };
        let label = |i: usize| self.condition_label(&self.report.conditions[i]);
        let (change, interval) = self.change(ratio, low, high).unwrap_or_else(|| ("–".into(), "–".into()));
        let separated = c.verdict == Verdict::Supported;
        let threshold = format::threshold_percent(self.report.variance.comparison_summary.negligible_below);
        let template = match c.verdict {
            Verdict::Supported => w.supported,
            Verdict::Negligible => w.negligible,
            Verdict::NotShown => w.not_shown,
        };
        let says =
            fill(template, &[("a", &label(a)), ("b", &label(b)), ("change", &change), ("interval", &interval), ("threshold", &threshold)]);
        Between {
            verdict: c.verdict,
            separated,
            lower: separated.then(|| label(if ratio.is_some_and(|r| r < 1.0) { b } else { a })),
            change,
            interval,
            says,
        }
    }
}
