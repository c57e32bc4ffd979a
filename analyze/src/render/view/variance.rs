//! The variance review page: spread per condition, comparisons by range, flags, and every run.

use super::*;
use crate::model::{NoInterval, Verdict};
use crate::report::review::{Comparison, ComparisonScope};

#[derive(Debug, Clone, Serialize)]
pub struct VariancePage {
    pub lang: &'static str,
    pub t: &'static Strings,
    pub nav: Nav,
    pub title: String,
    pub p_label: String,
    /// How many runs each condition has; `None` when every condition has one (the design
    /// sentences say so instead).
    pub small_n: Option<String>,
    /// What the design can and cannot show, said before any table.
    pub design: Vec<String>,
    pub interval_method: Option<String>,
    pub widest: Option<KeyValue>,
    pub spread: Table,
    /// What the comparisons add up to, how chance is counted, what the scope left out.
    pub comparison_notes: Vec<String>,
    pub comparisons: Option<Table>,
    /// What runs of one session on one machine cannot show.
    pub limits: String,
    /// Flag rules that hit most runs, each once with its cause.
    pub dataset_flags: Vec<String>,
    pub flags: Option<Table>,
    pub conditions: Vec<ConditionSection>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ConditionSection {
    pub anchor: String,
    pub label: String,
    pub runs: Vec<RunLink>,
}

/// A run of a condition's list: its text and its page. Two fields, not a table [`Cell`]'s ten:
/// the list holds every run, and the template engine copies each field of each of 10^5 runs.
#[derive(Debug, Clone, Serialize)]
pub struct RunLink {
    pub text: String,
    pub href: String,
}

/// The spread table's column of the interval for the median.
const MEDIAN_INTERVAL_COLUMN: usize = 4;

impl<'a> Context<'a> {
    pub fn variance_page(&self) -> VariancePage {
        let report = self.report;
        let t = self.t;
        let max_runs = report.variance.conditions.iter().map(|c| c.runs.len()).max().unwrap_or(0);
        let min_runs = report.variance.conditions.iter().map(|c| c.runs.len()).filter(|&n| n > 0).min().unwrap_or(0);
        let n_text = if min_runs == max_runs {
            format::count(max_runs as u64)
        } else {
            self.range_text(&min_runs.to_string(), &max_runs.to_string())
        };
        // Below 6 runs no condition has a distribution-free 95% interval for its median: the
        // column would be dashes only, so it goes, and a note says why.
        let any_median_interval = report.variance.conditions.iter().any(|c| c.median_interval.is_some());
        let mut spread_rows: Vec<Vec<Cell>> = report
            .variance
            .conditions
            .iter()
            .map(|v| {
                let condition = &report.conditions[v.condition];
                let mut values: Vec<String> =
                    v.runs.iter().map(|r| format!("{} {}", r.run_id, self.headline_number_of(v.condition, r.value_ms))).collect();
                // A condition with only its tools' printed percentiles: those, as printed.
                if let Some(printed) = condition.headline_printed.as_ref().filter(|_| v.runs.is_empty() && report.headline.is_percentile())
                {
                    let runs = condition.runs.iter().filter_map(|id| self.run_index(id).map(|i| (id, &report.runs[i])));
                    let each: Vec<String> = runs
                        .filter_map(|(id, r)| {
                            Some(format!(
                                "{id} {}",
                                format::printed(r.tool_reported.as_ref()?.percentiles_ms.get(&printed.percentile)?.to_owned())
                            ))
                        })
                        .collect();
                    values.push(self.aside(&each.join(t.list_sep), &self.printed_note(&printed.percentile, &printed.tools)));
                }
                let representative = condition.representative_run.as_deref().and_then(|id| self.run_index(id));
                vec![
                    Cell {
                        text: self.condition_label(condition),
                        href: Some(format!("#{}", paths::condition_anchor(v.condition))),
                        ..Cell::default()
                    },
                    Cell::text(values.join(", ")),
                    v.max_over_min.map_or_else(|| Cell::text("–"), |r| Cell::number(format::ratio(r))),
                    v.range_over_median.map_or_else(|| Cell::text("–"), |r| Cell::number(format::percent(r))),
                    v.median_interval.map_or_else(
                        || Cell::text("–"),
                        |i| {
                            Cell::number(format!(
                                "{} ({}, {})",
                                self.range_text(
                                    &self.headline_number_of(v.condition, i.lower_ms),
                                    &self.headline_number_of(v.condition, i.upper_ms)
                                ),
                                format::percent(i.coverage),
                                self.range_text(&i.lower_rank.to_string(), &i.upper_rank.to_string())
                            ))
                        },
                    ),
                    match representative {
                        Some(r) => Cell::text(report.runs[r].run_id.clone()).link(self.run_href("", r)),
                        None => Cell::text("–"),
                    },
                ]
            })
            .collect();
        if !any_median_interval {
            spread_rows.iter_mut().for_each(|row| {
                row.remove(MEDIAN_INTERVAL_COLUMN);
            });
        }
        let comparisons: Vec<Vec<Cell>> = report.variance.comparisons.iter().map(|c| self.comparison_row(c)).collect();
        let flags: Vec<Vec<Cell>> = report
            .variance
            .flags
            .iter()
            .map(|f| {
                let run = self.run_index(&f.run_id);
                vec![
                    match run {
                        Some(r) => Cell::text(f.run_id.clone()).link(self.run_href("", r)),
                        None => Cell::text(f.run_id.clone()),
                    },
                    Cell::text(self.flag_text(&f.run_id, &f.kind)),
                ]
            })
            .collect();
        // Each condition's runs in report order, found in one pass (not a scan of every run per
        // condition: 10^4 conditions of 10^5 runs made 10^9 steps).
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); report.conditions.len()];
        for (i, run) in report.runs.iter().enumerate() {
            members[run.condition].push(i);
        }
        let conditions = report
            .conditions
            .iter()
            .zip(&members)
            .enumerate()
            .map(|(c, (condition, members))| ConditionSection {
                anchor: paths::condition_anchor(c),
                label: self.condition_label(condition),
                runs: members
                    .iter()
                    .map(|&i| (i, &report.runs[i]))
                    .map(|(i, r)| {
                        let status = if r.status == RunStatus::Ok { String::new() } else { self.aside("", self.status_text(r.status)) };
                        let printed = r.headline_printed.as_ref().filter(|_| report.headline.is_percentile());
                        let mut parts = vec![match (report.headline_of_run(r), printed) {
                            (None, Some(p)) => self.printed_text(&p.percentile, p.value_ms, std::slice::from_ref(&p.tool)),
                            (value, _) => self.headline_equals(value),
                        }];
                        if let Some(w) = r.write_s_median {
                            parts.push(format!("{}{}{}", t.write_s, t.colon, format::seconds(w)));
                        }
                        if let Some(c) = r.complete_s_median {
                            parts.push(format!("{}{}{}", t.complete_s, t.colon, format::seconds(c)));
                        }
                        if let Some(b) = r.tempfile_peak_bytes {
                            parts.push(format!("{}{}{}", t.tempfile_peak, t.colon, format::mib(b as f64)));
                        }
                        RunLink { text: format!("{}{}{}{status}", r.run_id, t.colon, parts.join(t.list_sep)), href: self.run_href("", i) }
                    })
                    .collect(),
            })
            .collect();
        VariancePage {
            lang: self.lang.code(),
            t,
            nav: self.nav("", paths::VARIANCE_PAGE),
            title: format!("{} – {}", report.dataset.title.get(self.lang), t.variance),
            p_label: self.headline_label.clone(),
            small_n: (max_runs > 1).then(|| fill(t.small_n, &[("n", &n_text)])),
            design: self.design_sentences().into_iter().chain(self.not_reviewed()).collect(),
            interval_method: Some(if any_median_interval { t.interval_method } else { t.no_median_interval }.to_string()),
            widest: report.variance.widest_condition.as_ref().and_then(|id| {
                let c = report.conditions.iter().position(|c| &c.id == id)?;
                let v = report.variance.conditions.iter().find(|v| v.condition == c)?;
                let flagged: Vec<String> = report.conditions[c]
                    .runs
                    .iter()
                    .filter(|id| report.variance.flags.iter().any(|f| &f.run_id == *id && f.is_warning()))
                    .cloned()
                    .collect();
                let note = if flagged.is_empty() { String::new() } else { fill(t.widest_flagged, &[("runs", &self.list(&flagged))]) };
                Some(KeyValue {
                    label: t.widest.to_string(),
                    value: format!(
                        "{}{}{} {}{}{} {}{note}",
                        self.condition_label(&report.conditions[c]),
                        t.colon,
                        t.range_over_median,
                        v.range_over_median.map(format::percent).unwrap_or_default(),
                        t.list_sep,
                        t.max_over_min,
                        v.max_over_min.map(format::ratio).unwrap_or_else(|| "–".into())
                    ),
                    href: Some(format!("#{}", paths::condition_anchor(c))),
                })
            }),
            spread: Table {
                id: "spread".into(),
                caption: self.caption(t.spread_table, &self.fill_headline(t.spread_caption)),
                headers: [
                    Some(t.condition.into()),
                    Some(t.runs_values.into()),
                    Some(t.max_over_min.into()),
                    Some(t.range_over_median.into()),
                    any_median_interval.then(|| t.median_interval.into()),
                    Some(t.representative.into()),
                ]
                .into_iter()
                .flatten()
                .collect(),
                rows: spread_rows,
            },
            comparison_notes: self.comparison_notes(),
            comparisons: (!comparisons.is_empty()).then(|| Table {
                id: "comparisons".into(),
                caption: self.caption(t.comparisons, &self.fill_headline(&fill(t.comparisons_caption, &[("pairing", &self.pairing())]))),
                headers: vec![
                    t.pair_header.into(),
                    self.in_headline_unit("A"),
                    self.in_headline_unit("B"),
                    t.ratio_header.into(),
                    t.p_header.into(),
                    t.runs_compared.into(),
                    t.ranges_header.into(),
                    t.verdict.into(),
                ],
                rows: comparisons,
            }),
            limits: if max_runs > 1 { fill(t.session_limits, &[("n", &n_text)]) } else { t.session_limits_one.to_string() },
            dataset_flags: self.dataset_flag_texts(),
            flags: (!flags.is_empty()).then(|| Table {
                id: "flags".into(),
                caption: self.caption(t.flags, t.flags_caption),
                headers: vec![t.run.into(), t.reason.into()],
                rows: flags,
            }),
            conditions,
        }
    }
}

impl Context<'_> {
    /// "p95 = 12.00 ms", "requests/s = 769.2": a run's headline value in running text.
    fn headline_equals(&self, value: Option<f64>) -> String {
        match value {
            Some(v) => format!("{} = {}", self.headline_label, self.headline_value(v)),
            // As before: the unit stays beside the dash of a run without a value.
            None if self.report.headline == crate::model::HeadlineMetric::Percentile => format!("{} = – ms", self.headline_label),
            None => format!("{} = –", self.headline_label),
        }
    }

    /// One row of the comparisons table.
    fn comparison_row(&self, c: &Comparison) -> Vec<Cell> {
        let t = self.t;
        let report = self.report;
        let label = |i: usize| self.condition_label(&report.conditions[i]);
        let side = |i: usize| {
            self.spread_cell(
                report.headline_of(&report.conditions[i]),
                |v| self.headline_number_of(i, v),
                Some(format!("#{}", paths::condition_anchor(i))),
                None,
            )
        };
        // Turned to read at least 1 with a word for the larger side; summary.json keeps B/A. The
        // interval on a line below, as the sides' ranges are, so a phone's card can wrap it.
        let ratio = match (self.change(c.ratio, c.ratio_low, c.ratio_high), c.ratio_low.zip(c.ratio_high)) {
            (Some((change, interval)), Some(_)) => Cell { sub: Some(interval), ..Cell::number(change) },
            (Some((change, _)), None) => Cell::number(change).with_note(self.no_interval_text(c.no_interval)),
            (None, _) => Cell::text("–").with_note(self.no_interval_text(c.no_interval)),
        };
        let ranges = if c.ranges_overlap {
            t.ranges_overlap_cell.to_string()
        } else {
            fill(t.ranges_apart_cell, &[("chance", &format::probability(c.chance_if_no_difference))])
        };
        vec![
            Cell::text(fill(t.versus, &[("a", &label(c.a)), ("b", &label(c.b))])),
            side(c.a),
            side(c.b),
            ratio,
            c.p_log_t.map_or_else(|| Cell::text("–"), |p| Cell::number(format::p_value(p))),
            Cell::number(fill(t.versus, &[("a", &c.a_runs.to_string()), ("b", &c.b_runs.to_string())])),
            Cell::text(ranges),
            Cell::text(self.verdict_text(c.verdict)).with_note(self.verdict_notes(c)),
        ]
    }

    /// Under a verdict: why "cannot tell" stands beside an interval that leaves out 1 (its p did
    /// not pass Benjamini-Hochberg over the review's comparisons, and the interval is the
    /// unadjusted 95% one), and what an unresolved percentile compares.
    fn verdict_notes(&self, c: &Comparison) -> Option<String> {
        let excludes_one = matches!((c.ratio_low, c.ratio_high), (Some(low), Some(high)) if low > 1.0 || high < 1.0);
        let not_discovered = (c.verdict == Verdict::NotShown && excludes_one && !c.fdr_supported).then(|| {
            let summary = &self.report.variance.comparison_summary;
            fill(
                self.t.verdict_excludes_not_discovered,
                &[("with_p", &format::count(self.comparisons_with_p() as u64)), ("q", &format::threshold_percent(summary.fdr_q))],
            )
        });
        let notes: Vec<String> = not_discovered.into_iter().chain(self.unresolved_headline(&[c.a, c.b])).collect();
        (!notes.is_empty()).then(|| notes.join(self.t.list_sep))
    }

    /// How many of the review's comparisons have a p: those Benjamini-Hochberg runs over.
    fn comparisons_with_p(&self) -> usize {
        self.report.variance.comparisons.iter().filter(|c| c.p_log_t.is_some()).count()
    }

    /// Under a verdict on a headline percentile that no run of one of `conditions` resolves
    /// (`ConditionResult::unresolved_percentiles`): that it compares values as good as maxima.
    fn unresolved_headline(&self, conditions: &[usize]) -> Option<String> {
        if self.report.headline != crate::model::HeadlineMetric::Percentile {
            return None;
        }
        let key = self.report.percentile.key();
        let needs = conditions.iter().find_map(|&c| self.report.conditions[c].unresolved_percentiles.get(&key))?;
        Some(fill(self.t.verdict_unresolved, &[("p", &self.p_label), ("needs", &self.needs(*needs))]))
    }

    /// Why a comparison has no interval, in words; empty when it has one.
    fn no_interval_text(&self, reason: Option<NoInterval>) -> Option<String> {
        match reason? {
            NoInterval::NoSpread => Some(self.t.no_interval_spread.to_string()),
            NoInterval::ZeroValue => Some(self.t.no_interval_zero.to_string()),
            // Pairs with one run are not compared at all.
            NoInterval::OneRun => None,
        }
    }

    /// A comparison's verdict in words.
    fn verdict_text(&self, verdict: Verdict) -> String {
        let t = self.t;
        match verdict {
            Verdict::Supported => t.verdict_supported.to_string(),
            Verdict::Negligible => fill(
                t.verdict_negligible,
                &[("threshold", &format::threshold_percent(self.report.variance.comparison_summary.negligible_below))],
            ),
            Verdict::NotShown => t.verdict_not_shown.to_string(),
        }
    }

    /// How the review pairs conditions, as a phrase: "conditions at the same concurrency compared".
    pub fn pairing(&self) -> String {
        let summary = &self.report.variance.comparison_summary;
        match summary.compared.as_deref().and_then(|name| self.report.factors.iter().find(|f| f.name == name)) {
            Some(factor) => fill(self.t.pairing_factor, &[("factor", factor.label.get(self.lang))]),
            None => fill(self.t.pairing_series, &[("x", &self.x_label())]),
        }
    }

    /// What the design can and cannot show: the ranges at the fewest runs any comparison has,
    /// and what the log-t interval adds. Empty when nothing is compared.
    pub fn design_sentences(&self) -> Vec<String> {
        let t = self.t;
        let summary = &self.report.variance.comparison_summary;
        let mut out = Vec::new();
        if let (Some(chance), Some((n, m))) = (summary.smallest_chance, summary.smallest_chance_runs) {
            let template = if chance > summary.fdr_q { t.design_ranges_never } else { t.design_ranges_can };
            out.push(fill(
                template,
                &[
                    ("n", &format::count(n as u64)),
                    ("m", &format::count(m as u64)),
                    ("chance", &format::probability(chance)),
                    ("q", &format::threshold_percent(summary.fdr_q)),
                ],
            ));
            out.push(t.design_log_t.to_string());
        }
        let most_runs = self.report.variance.conditions.iter().map(|c| c.runs.len()).max().unwrap_or(0);
        if most_runs == 1 && self.report.conditions.len() > 1 {
            out.push(t.one_run_each.to_string());
        } else if summary.pairs_with_one_run > 0 {
            out.push(fill(t.comparisons_one_run, &[("n", &format::count(summary.pairs_with_one_run))]));
        }
        out
    }

    /// The dataset-wide flags, one sentence each.
    pub fn dataset_flag_texts(&self) -> Vec<String> {
        self.report.variance.dataset_flags.iter().map(|f| prose::dataset_flag(self.lang, f)).collect()
    }

    /// The sentences under the comparisons heading: the verdicts against chance, the rules of the
    /// verdicts, and the pairs a large dataset leaves out.
    fn comparison_notes(&self) -> Vec<String> {
        let t = self.t;
        let review = &self.report.variance;
        let summary = &review.comparison_summary;
        if review.comparisons.is_empty() {
            return Vec::new();
        }
        let paired = review.paired.iter().map(|p| self.paired_note(p));
        let total = review.comparisons.len();
        let mut notes = vec![
            fill(
                crate::render::i18n::grammar::plural(total as u64, t.comparisons_count_one, t.comparisons_count),
                &[
                    ("total", &format::count(total as u64)),
                    ("supported", &format::count(summary.supported)),
                    ("negligible", &format::count(summary.negligible)),
                    ("not_shown", &format::count(summary.not_shown)),
                    ("apart", &format::count(summary.ranges_apart)),
                    ("expected", &format::decimal(summary.expected_apart_by_chance, 1)),
                ],
            ),
            self.verdict_rule(),
        ];
        let compared = summary.compared.as_deref().and_then(|name| self.report.factors.iter().find(|f| f.name == name));
        if summary.scope == ComparisonScope::Neighbours {
            let template = match compared {
                Some(factor) => fill(t.comparisons_neighbours_factor, &[("factor", factor.label.get(self.lang))]),
                None => t.comparisons_neighbours.to_string(),
            };
            notes.push(fill(
                &template,
                &[
                    ("x", &self.x_label()),
                    ("max", &format::count(summary.all_pairs_up_to)),
                    ("left", &format::count(summary.pairs_left_out)),
                ],
            ));
        }
        notes.extend(paired);
        notes
    }

    /// A paired verdict within rounds, as the review says it: the interval, both p, the drift the
    /// pairing removed, and the change these rounds could detect.
    fn paired_note(&self, p: &crate::report::review::PairedComparison) -> String {
        let w = crate::render::i18n::lead::paired_words(self.lang);
        let label = |i: usize| self.condition_label(&self.report.conditions[i]);
        let (change, mut interval) = self.paired_change(p);
        if p.ratio_low.zip(p.ratio_high).is_none() {
            interval = self.no_interval_text(p.no_interval).unwrap_or(interval);
        }
        let mut note = fill(
            w.review,
            &[
                ("b", &label(p.b)),
                ("a", &label(p.a)),
                ("change", &change),
                ("interval", &interval),
                ("rounds", &format::count(p.rounds as u64)),
                ("p_t", &p.p_t.map_or_else(|| "–".to_string(), format::p_value)),
                ("p_perm", &format::p_value(p.p_permutation)),
                ("floor", &format::p_value(p.smallest_permutation_p)),
                ("verdict", &self.paired_verdict(p, false)),
            ],
        );
        match (p.round_drift, p.narrower_by) {
            (Some(drift), Some(narrower)) if drift > 0.0 => {
                note.push_str(&fill(w.review_drift, &[("drift", &format::percent(drift)), ("narrower", &format::decimal(narrower, 1))]))
            }
            (Some(_), _) => note.push_str(w.review_no_drift),
            _ => {}
        }
        if let (Some(detectable), Some(rounds_5)) = (p.detectable, p.rounds_for_5_percent) {
            note.push_str(&fill(
                w.review_detectable,
                &[("detectable", &format::factor(detectable)), ("rounds_5", &format::count(rounds_5))],
            ));
        }
        note
    }

    /// The rule of the verdicts, with this review's counts and thresholds.
    pub fn verdict_rule(&self) -> String {
        let summary = &self.report.variance.comparison_summary;
        fill(
            self.t.comparisons_rule,
            &[
                ("with_p", &format::count(self.comparisons_with_p() as u64)),
                ("q", &format::threshold_percent(summary.fdr_q)),
                ("threshold", &format::threshold_percent(summary.negligible_below)),
            ],
        )
    }
}
