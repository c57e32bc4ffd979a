//! The variance review page: spread per condition, comparisons by range, flags, and every run.

use super::*;

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
    pub comparisons: Option<Table>,
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
        let n_text = if min_runs == max_runs { format::count(max_runs as u64) } else { format!("{min_runs}–{max_runs}") };
        let spread_rows = report
            .variance
            .conditions
            .iter()
            .map(|v| {
                let condition = &report.conditions[v.condition];
                let values: Vec<String> = v.runs.iter().map(|r| format!("{} {}", r.run_id, format::ms(r.value_ms))).collect();
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
                                "{}–{} ({}, {}–{})",
                                format::ms(i.lower_ms),
                                format::ms(i.upper_ms),
                                format::percent(i.coverage),
                                i.lower_rank,
                                i.upper_rank
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
                let range = |i: usize| {
                    report.conditions[i]
                        .headline_ms
                        .map(|s| format!("{} ({}–{})", format::ms(s.median), format::ms(s.min), format::ms(s.max)))
                        .unwrap_or_default()
                };
                vec![
                    Cell::text(format!("{} {} {}", label(c.a), t.versus, label(c.b))),
                    Cell::number(range(c.a)).link(format!("#{}", paths::condition_anchor(c.a))),
                    Cell::number(range(c.b)).link(format!("#{}", paths::condition_anchor(c.b))),
                    c.median_ratio.map_or_else(|| Cell::text("–"), |r| Cell::number(format::ratio(r))),
                    Cell::text(if c.ranges_overlap { t.not_separated } else { t.separated }),
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
                        let value = r.headline_ms.map(format::ms).unwrap_or_else(|| "–".into());
                        let status = if r.status == RunStatus::Ok { String::new() } else { format!(" ({})", self.status_text(r.status)) };
                        let mut parts = vec![format!("{} = {} ms", self.p_label, value)];
                        if let Some(w) = r.write_s_median {
                            parts.push(format!("{} {}", t.write_s, format::seconds(w)));
                        }
                        if let Some(c) = r.complete_s_median {
                            parts.push(format!("{} {}", t.complete_s, format::seconds(c)));
                        }
                        if let Some(b) = r.tempfile_peak_bytes {
                            parts.push(format!("{} {}", t.tempfile_peak, format::mib(b as f64)));
                        }
                        Cell::text(format!("{}: {}{status}", r.run_id, parts.join(" · "))).link(self.run_href("", i))
                    })
                    .collect(),
            })
            .collect();
        VariancePage {
            lang: self.lang.code(),
            t,
            nav: self.nav(""),
            title: format!("{} – {}", report.dataset.title.get(self.lang), t.variance),
            p_label: self.p_label.clone(),
            small_n: t.small_n.replace("{n}", &n_text),
            interval_method: (max_runs >= MIN_RUNS_FOR_INTERVAL).then(|| t.interval_method.to_string()),
            widest: report.variance.widest_condition.as_ref().and_then(|id| {
                let c = report.conditions.iter().position(|c| &c.id == id)?;
                let v = report.variance.conditions.iter().find(|v| v.condition == c)?;
                Some(KeyValue {
                    label: t.widest.to_string(),
                    value: format!(
                        "{}: {} {}, {} {}",
                        self.condition_label(&report.conditions[c]),
                        t.range_over_median,
                        v.range_over_median.map(format::percent).unwrap_or_default(),
                        t.max_over_min,
                        v.max_over_min.map(format::ratio).unwrap_or_else(|| "–".into())
                    ),
                    href: Some(format!("#{}", paths::condition_anchor(c))),
                })
            }),
            spread: Table {
                id: "spread".into(),
                caption: format!("{} ({})", t.spread_table, self.fill(t.spread_caption)),
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
            comparisons: (!comparisons.is_empty()).then(|| Table {
                id: "comparisons".into(),
                caption: format!("{} ({})", t.comparisons, t.comparisons_caption.replace("{x}", &self.x_label())),
                headers: vec![t.comparisons.into(), "A (ms)".into(), "B (ms)".into(), t.median_ratio.into(), t.verdict.into()],
                rows: comparisons,
            }),
            flags: (!flags.is_empty()).then(|| Table {
                id: "flags".into(),
                caption: format!("{} ({})", t.flags, t.flags_caption),
                headers: vec![t.run.into(), t.reason.into()],
                rows: flags,
            }),
            conditions,
        }
    }
}
