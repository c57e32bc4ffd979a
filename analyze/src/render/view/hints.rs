//! The cause hints section: one row per hint (its kind, its condition or conditions, its evidence
//! in one sentence), the words "a hint, not a measured cause" once in the caption, and the rule of
//! each kind shown. Only formats what `stats::hints` found.

use super::*;
use crate::render::i18n::hints::words;
use crate::report::hints::{Evidence, Hint, Saturation, Starved, SynRetransmit, WarmUp};
use crate::stats::hints as rules;

/// The hints section; `None` when the data shows no hint.
pub fn section(page: &Context) -> Option<Section> {
    let table = page.hints_table("")?;
    Some(Section { id: "hints-section", heading: words(page.lang).heading.to_string(), table, notes: page.hints_notes() })
}

impl Context<'_> {
    /// Every hint of the report; `None` without.
    pub fn hints_table(&self, root: &str) -> Option<Table> {
        let w = words(self.lang);
        let rows: Vec<Vec<Cell>> = self.report.hints.iter().map(|hint| self.hint_row(root, hint)).collect();
        (!rows.is_empty()).then(|| Table {
            id: "hints".into(),
            caption: self.caption(w.heading, w.caption),
            headers: vec![w.hint.into(), self.t.condition.into(), w.evidence.into()],
            rows,
        })
    }

    fn hint_row(&self, root: &str, hint: &Hint) -> Vec<Cell> {
        let w = words(self.lang);
        let first = hint.conditions[0];
        let label = self.condition_label(&self.report.conditions[first]);
        let (kind, conditions, evidence) = match &hint.evidence {
            Evidence::SynRetransmit(s) => (w.syn_kind, label, self.syn_text(s)),
            Evidence::WarmUp(s) => (w.warm_up_kind, label, self.warm_up_text(first, s)),
            Evidence::Saturation(s) => {
                let to = hint.conditions.get(1).copied().unwrap_or(first);
                let to_level = self.level_of(to, &s.factor).unwrap_or_else(|| s.to_level.clone());
                (
                    w.saturation_kind,
                    fill(w.saturation_conditions, &[("from", &label), ("to", &to_level)]),
                    self.saturation_text(first, to, s),
                )
            }
            Evidence::Starved(s) => (w.starved_kind, label, self.starved_text(s)),
        };
        vec![Cell::text(kind), Cell::text(conditions).link(paths::condition_link(root, first)), Cell::prose(evidence)]
    }

    /// The label of condition `c`'s level of the factor named `factor`.
    fn level_of(&self, c: usize, factor: &str) -> Option<String> {
        let f = self.report.factors.iter().position(|f| f.name == factor)?;
        let level = *self.report.conditions.get(c)?.levels.get(f)?;
        Some(self.report.factors[f].levels.get(level)?.label.get(self.lang).to_string())
    }

    /// "1 s", "1 s and 3 s": timeouts in the unit a reader says them in.
    fn timeouts(&self, timeouts_ms: &[f64]) -> String {
        self.list(&timeouts_ms.iter().map(|&t| format::duration_ms(t)).collect::<Vec<_>>())
    }

    fn syn_text(&self, s: &SynRetransmit) -> String {
        let range = format!("{} s", self.range_text(&format::seconds_of_ms(s.near_min_ms), &format::seconds_of_ms(s.near_max_ms)));
        fill(
            words(self.lang).syn,
            &[
                ("near", &format::count(s.near)),
                ("slow", &format::count(s.slow)),
                ("from", &format::duration_ms(s.slow_from_ms)),
                ("range", &range),
                ("timeouts", &self.timeouts(&s.timeouts_ms)),
                ("runs", &format::count(s.runs as u64)),
                ("of", &format::count(s.of as u64)),
            ],
        )
    }

    fn warm_up_text(&self, c: usize, s: &WarmUp) -> String {
        let ms = self.condition_ms(c);
        fill(
            words(self.lang).warm_up,
            &[
                ("runs", &format::count(s.runs as u64)),
                ("of", &format::count(s.of as u64)),
                ("share", &format::percent_round(s.first_share)),
                ("first", &format!("{} ms", ms(s.first_p50_ms.median))),
                ("rest", &format!("{} ms", ms(s.rest_p50_ms.median))),
                ("ratio", &format::factor(s.ratio.median)),
            ],
        )
    }

    fn saturation_text(&self, from: usize, to: usize, s: &Saturation) -> String {
        let rate = |c: usize, v: f64| self.metric_value(HeadlineMetric::RequestsPerS, Some(c), v);
        let mean = |c: usize, v: f64| format!("{} ms", self.condition_ms(c)(v));
        fill(
            words(self.lang).saturation,
            &[
                ("step", &format::printed(s.concurrency_ratio)),
                ("change", &format::signed_percent(s.requests_per_s_change)),
                ("rate_from", &rate(from, s.from_requests_per_s)),
                ("rate_to", &rate(to, s.to_requests_per_s)),
                ("latency", &format::factor(s.latency_ratio)),
                ("mean_from", &mean(from, s.from_mean_ms)),
                ("mean_to", &mean(to, s.to_mean_ms)),
                ("predicted", &format::factor(s.predicted_ratio)),
            ],
        )
    }

    fn starved_text(&self, s: &Starved) -> String {
        let list: Vec<String> = s.runs.iter().map(|r| self.aside(&r.run_id, &format::decimal(r.share, 2))).collect();
        fill(
            words(self.lang).starved,
            &[
                ("runs", &format::count(s.runs.len() as u64)),
                ("of", &format::count(s.of as u64)),
                ("list", &self.list(&list)),
                ("median", &format::decimal(s.median, 2)),
                ("limit", &format::decimal(s.limit, 2)),
            ],
        )
    }

    /// The rule of each kind of hint the report shows, in the table's order; empty without hints.
    pub fn hints_notes(&self) -> Vec<String> {
        let w = words(self.lang);
        // The first hint of each kind: the hints come kind by kind.
        let mut shown: Vec<&Evidence> = Vec::new();
        for hint in &self.report.hints {
            if shown.last().is_none_or(|e| e.order() != hint.evidence.order()) {
                shown.push(&hint.evidence);
            }
        }
        shown
            .into_iter()
            .map(|evidence| match evidence {
                Evidence::SynRetransmit(_) => fill(
                    w.syn_rule,
                    &[
                        ("min_slow", &format::count(rules::SYN_MIN_SLOW)),
                        ("from", &format::duration_ms(rules::SYN_TIMEOUTS_MS[0])),
                        ("most", &format::percent_round(rules::SYN_MOST)),
                        ("window", &format::duration_ms(rules::SYN_WINDOW_MS)),
                        ("timeouts", &self.timeouts(&rules::SYN_TIMEOUTS_MS)),
                        ("gap", &format::percent_round(rules::SYN_GAP)),
                        ("tail", &format::percent_round(rules::SYN_TAIL_SHARE)),
                    ],
                ),
                Evidence::WarmUp(_) => fill(
                    w.warm_up_rule,
                    &[
                        ("min", &format::count(rules::WARM_UP_MIN_REQUESTS)),
                        ("share", &format::percent_round(rules::WARM_UP_FIRST_SHARE)),
                        ("ratio", &format::printed(rules::WARM_UP_RATIO)),
                        ("floor", &format::duration_ms(rules::WARM_UP_FLOOR_MS)),
                    ],
                ),
                Evidence::Saturation(_) => fill(
                    w.saturation_rule,
                    &[
                        ("step", &format::printed(rules::SATURATION_MIN_STEP)),
                        ("gain", &format::percent_round(rules::SATURATION_MAX_GAIN)),
                        ("little", &format::percent_round(rules::SATURATION_LITTLE_SHARE)),
                    ],
                ),
                Evidence::Starved(_) => w.starved_rule.to_string(),
            })
            .collect()
    }
}
