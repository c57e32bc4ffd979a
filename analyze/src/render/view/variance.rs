//! The variance review page: spread per condition, comparisons by range, flags, and every run.

use super::*;
use crate::report::review::{ComparisonScope, Verdict};
use crate::stats::variance;

#[derive(Debug, Clone, Serialize)]
pub struct VariancePage {
    pub lang: &'static str,
    pub t: &'static Strings,
    pub nav: Nav,
    pub title: String,
    pub p_label: String,
    pub small_n: String,
    pub interval_method: Option<String>,
    pub widest: Option<KeyValue>,
    pub spread: Table,
    /// What the comparisons add up to, how chance is counted, what the scope left out.
    pub comparison_notes: Vec<String>,
    pub comparisons: Option<Table>,
    /// What runs of one session on one machine cannot show.
    pub limits: String,
    pub flags: Option<Table>,
    pub conditions: Vec<ConditionSection>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ConditionSection {
    pub anchor: String,
    pub label: String,
    pub runs: Vec<Cell>,
}

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
        let spread_rows = report
            .variance
            .conditions
            .iter()
            .map(|v| {
                let condition = &report.conditions[v.condition];
                let values: Vec<String> = v.runs.iter().map(|r| format!("{} {}", r.run_id, self.headline_number(r.value_ms))).collect();
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
                                self.range_text(&format::ms(i.lower_ms), &format::ms(i.upper_ms)),
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
        let comparisons: Vec<Vec<Cell>> = report
            .variance
            .comparisons
            .iter()
            .map(|c| {
                let label = |i: usize| self.condition_label(&report.conditions[i]);
                vec![
                    Cell::text(format!("{} {} {}", label(c.a), t.versus, label(c.b))),
                    self.spread_cell(
                        report.headline_of(&report.conditions[c.a]),
                        |v| self.headline_number(v),
                        Some(format!("#{}", paths::condition_anchor(c.a))),
                        None,
                    ),
                    self.spread_cell(
                        report.headline_of(&report.conditions[c.b]),
                        |v| self.headline_number(v),
                        Some(format!("#{}", paths::condition_anchor(c.b))),
                        None,
                    ),
                    c.median_ratio.map_or_else(|| Cell::text("–"), |r| Cell::number(format::ratio(r))),
                    Cell::number(format!("{} {} {}", c.a_runs, t.versus, c.b_runs)),
                    Cell::number(format::probability(c.chance_if_no_difference)),
                    Cell::text(self.verdict_text(c.verdict)),
                ]
            })
            .collect();
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
                    Cell::text(self.flag_text(&f.kind)),
                ]
            })
            .collect();
        let conditions = report
            .conditions
            .iter()
            .enumerate()
            .map(|(c, condition)| ConditionSection {
                anchor: paths::condition_anchor(c),
                label: self.condition_label(condition),
                runs: report
                    .runs
                    .iter()
                    .enumerate()
                    .filter(|(_, r)| r.condition == c)
                    .map(|(i, r)| {
                        let status = if r.status == RunStatus::Ok { String::new() } else { self.aside("", self.status_text(r.status)) };
                        let mut parts = vec![self.headline_equals(report.headline_of_run(r))];
                        if let Some(w) = r.write_s_median {
                            parts.push(format!("{}{}{}", t.write_s, t.colon, format::seconds(w)));
                        }
                        if let Some(c) = r.complete_s_median {
                            parts.push(format!("{}{}{}", t.complete_s, t.colon, format::seconds(c)));
                        }
                        if let Some(b) = r.tempfile_peak_bytes {
                            parts.push(format!("{}{}{}", t.tempfile_peak, t.colon, format::mib(b as f64)));
                        }
                        Cell::text(format!("{}{}{}{status}", r.run_id, t.colon, parts.join(t.list_sep))).link(self.run_href("", i))
                    })
                    .collect(),
            })
            .collect();
        VariancePage {
            lang: self.lang.code(),
            t,
            nav: self.nav(""),
            title: format!("{} – {}", report.dataset.title.get(self.lang), t.variance),
            p_label: self.headline_label.clone(),
            small_n: t
                .small_n
                .replace("{n}", &n_text)
                .replace("{fewest}", &format::count(min_runs as u64))
                .replace("{chance}", &self.chance_example(min_runs)),
            interval_method: (max_runs >= MIN_RUNS_FOR_INTERVAL).then(|| t.interval_method.to_string()),
            widest: report.variance.widest_condition.as_ref().and_then(|id| {
                let c = report.conditions.iter().position(|c| &c.id == id)?;
                let v = report.variance.conditions.iter().find(|v| v.condition == c)?;
                let flagged: Vec<String> = report.conditions[c]
                    .runs
                    .iter()
                    .filter(|id| report.variance.flags.iter().any(|f| &f.run_id == *id && f.is_warning()))
                    .cloned()
                    .collect();
                let note = if flagged.is_empty() { String::new() } else { t.widest_flagged.replace("{runs}", &self.list(&flagged)) };
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
                headers: vec![
                    t.condition.into(),
                    t.runs_values.into(),
                    t.max_over_min.into(),
                    t.range_over_median.into(),
                    t.median_interval.into(),
                    t.representative.into(),
                ],
                rows: spread_rows,
            },
            comparison_notes: self.comparison_notes(),
            comparisons: (!comparisons.is_empty()).then(|| Table {
                id: "comparisons".into(),
                caption: self.caption(t.comparisons, &self.fill_headline(&t.comparisons_caption.replace("{x}", &self.x_label()))),
                headers: vec![
                    t.pair_header.into(),
                    self.in_headline_unit("A"),
                    self.in_headline_unit("B"),
                    t.median_ratio.into(),
                    t.runs_compared.into(),
                    t.chance_header.into(),
                    t.verdict.into(),
                ],
                rows: comparisons,
            }),
            limits: t.session_limits.replace("{n}", &n_text),
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

    /// A comparison's verdict in words.
    fn verdict_text(&self, verdict: Verdict) -> String {
        let t = self.t;
        match verdict {
            Verdict::RangesOverlap => t.verdict_overlap.to_string(),
            Verdict::Negligible => {
                t.verdict_negligible.replace("{threshold}", &format::percent(self.report.variance.comparison_summary.negligible_below))
            }
            Verdict::RangesApart => t.verdict_apart.to_string(),
            Verdict::Supported => t.verdict_supported.to_string(),
        }
    }

    /// The chance that two conditions of `fewest` runs each have apart ranges with no difference:
    /// the largest chance any comparison on the page can have.
    fn chance_example(&self, fewest: usize) -> String {
        variance::chance_if_no_difference(fewest, fewest).map(format::probability).unwrap_or_else(|| "–".into())
    }

    /// The sentences under the comparisons heading: the count against chance, the rules of the
    /// verdicts, and the pairs a large dataset leaves out.
    fn comparison_notes(&self) -> Vec<String> {
        let t = self.t;
        let review = &self.report.variance;
        let summary = &review.comparison_summary;
        if review.comparisons.is_empty() {
            return Vec::new();
        }
        let total = review.comparisons.len();
        let mut notes = vec![
            t.comparisons_count
                .replace("{apart}", &format::count(summary.ranges_apart))
                .replace("{total}", &format::count(total as u64))
                .replace("{expected}", &format::decimal(summary.expected_apart_by_chance, 1)),
            t.comparisons_rule
                .replace("{total}", &format::count(total as u64))
                .replace("{alpha}", &format::percent(variance::FAMILY_ALPHA))
                .replace("{threshold}", &format::percent(summary.negligible_below)),
        ];
        if summary.scope == ComparisonScope::Neighbours {
            notes.push(
                t.comparisons_neighbours
                    .replace("{x}", &self.x_label())
                    .replace("{max}", &format::count(variance::MAX_ROWS_FOR_ALL_PAIRS as u64))
                    .replace("{left}", &format::count(summary.pairs_left_out)),
            );
        }
        notes
    }
}
