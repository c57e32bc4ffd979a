//! The per-label tables (requests by endpoint): on the report page per condition and label, the
//! median and range over the ok runs; on a run page, the run's own values. Only formats what
//! `stats::labels` computed.

use super::*;
use crate::render::i18n::labels::words;
use crate::report::{LabelName, LabelResult};

/// The request labels section: per condition and label, when the runs mix labels.
pub fn section(page: &Context) -> Option<Section> {
    let table = page.labels_table("")?;
    Some(Section { id: "labels-section", heading: words(page.lang).heading.to_string(), table, notes: page.labels_notes() })
}

/// The tool's own figures per run and label (runs without rows: Locust).
pub fn tool_section(page: &Context) -> Option<Section> {
    let table = page.tool_labels_table("")?;
    let notes = page.tool_labels_notes(&page.report.runs.iter().collect::<Vec<_>>());
    Some(Section { id: "tool-labels-section", heading: words(page.lang).tool_heading.to_string(), table, notes })
}

impl Context<'_> {
    /// A label as a table shows it: its name, "(no name)" for the empty one, "4 other labels"
    /// for the group beyond the limit. Tera escapes the text like every cell.
    pub fn label_text(&self, name: &LabelName) -> String {
        let w = words(self.lang);
        match (&name.label, name.merged_labels) {
            (Some(label), _) if label.is_empty() => w.unnamed.to_string(),
            (Some(label), _) => label.clone(),
            (None, n) => fill(w.others, &[("n", &format::count(n.unwrap_or(0) as u64))]),
        }
    }

    fn label_headers(&self) -> Vec<String> {
        let w = words(self.lang);
        let mut headers = vec![w.label.to_string(), w.requests.to_string(), w.errors_and_share.to_string()];
        headers.extend(crate::model::Percentile::BY_LABEL.iter().map(|p| self.in_ms(&format!("p{}", p.key()))));
        headers.push(self.in_ms(w.max));
        headers
    }

    /// Per condition and label; `None` for a dataset without labels.
    pub fn labels_table(&self, root: &str) -> Option<Table> {
        let w = words(self.lang);
        let count = |v: f64| if v.fract() == 0.0 { format::count(v as u64) } else { format::decimal(v, 1) };
        let rows: Vec<Vec<Cell>> = self
            .report
            .conditions
            .iter()
            .enumerate()
            .flat_map(|(c, condition)| {
                let ms = move |v: f64| format::ms_at(v, condition.latency_decimals);
                condition.labels.iter().map(move |label| {
                    let mut row = vec![
                        Cell::text(self.condition_label(condition)).link(paths::condition_link(root, c)),
                        Cell::text(self.label_text(&label.name)),
                        self.spread_cell(label.requests, count, None, None),
                        self.errors_cell(label.errors, label.error_share, count),
                    ];
                    row.extend(
                        crate::model::Percentile::BY_LABEL
                            .iter()
                            .map(|p| self.spread_cell(label.percentiles_ms.get(&p.key()).copied(), ms, None, None)),
                    );
                    row.push(self.spread_cell(label.max_ms, ms, None, None));
                    row
                })
            })
            .collect();
        if rows.is_empty() {
            return None;
        }
        let mut headers = vec![self.t.condition.to_string()];
        headers.extend(self.label_headers());
        Some(Table { id: "labels".into(), caption: self.caption(w.heading, w.caption), headers, rows })
    }

    /// A condition's errors of a label: the median count with the median share beside, and the
    /// range of the shares below (the share is what a reader compares across labels).
    fn errors_cell(&self, errors: Option<Spread>, share: Option<Spread>, count: impl Fn(f64) -> String) -> Cell {
        match (errors, share) {
            (Some(errors), Some(share)) => {
                let mut cell = self.spread_cell(Some(share), format::percent, None, None);
                cell.text = self.aside(&count(errors.median), &format::percent(share.median));
                cell
            }
            (Some(errors), None) => Cell::number(count(errors.median)),
            (None, _) => Cell::text("–"),
        }
    }

    /// One run's labels; `None` without.
    pub fn run_labels_table(&self, run: &RunResult) -> Option<Table> {
        let w = words(self.lang);
        let rows = self.label_rows(&run.labels, &self.run_ms(run));
        (!rows.is_empty()).then(|| Table { id: "labels".into(), caption: w.run_caption.to_string(), headers: self.label_headers(), rows })
    }

    /// The per-label table's headers for the tool's own figures: its failures, not our errors.
    fn tool_label_headers(&self) -> Vec<String> {
        let mut headers = self.label_headers();
        headers[2] = words(self.lang).failures_and_share.to_string();
        headers
    }

    /// One run's labels as its tool printed them (a run without rows: Locust); `None` without.
    pub fn run_tool_labels_table(&self, run: &RunResult) -> Option<Table> {
        let labels = &run.tool_reported.as_ref()?.labels;
        let rows = self.label_rows(labels, &format::printed);
        let caption = words(self.lang).tool_run_caption.to_string();
        (!rows.is_empty()).then(|| Table { id: "tool-labels".into(), caption, headers: self.tool_label_headers(), rows })
    }

    /// Every run's labels as its tool printed them, run by run; `None` when no tool printed any.
    pub fn tool_labels_table(&self, root: &str) -> Option<Table> {
        let w = words(self.lang);
        let rows: Vec<Vec<Cell>> = self
            .report
            .runs
            .iter()
            .enumerate()
            .filter_map(|(i, run)| Some((i, run, &run.tool_reported.as_ref()?.labels)))
            .flat_map(|(i, run, labels)| {
                let link = format!("{root}{}", paths::run_page(&self.slugs[i]));
                self.label_rows(labels, &format::printed)
                    .into_iter()
                    .map(move |row| std::iter::once(Cell::text(run.run_id.clone()).link(link.clone())).chain(row).collect::<Vec<Cell>>())
            })
            .collect();
        if rows.is_empty() {
            return None;
        }
        let mut headers = vec![self.t.run.to_string()];
        headers.extend(self.tool_label_headers());
        Some(Table { id: "tool-labels".into(), caption: self.caption(w.tool_heading, w.tool_caption), headers, rows })
    }

    /// What the tool's per-label figures are, by its rule; empty when no run has them.
    pub fn tool_labels_notes(&self, runs: &[&RunResult]) -> Vec<String> {
        let w = words(self.lang);
        let tools: std::collections::BTreeSet<(String, crate::model::Rule)> = runs
            .iter()
            .filter_map(|r| r.tool_reported.as_ref())
            .filter(|t| !t.labels.is_empty())
            .map(|t| (crate::model::Tool::display_name_of(&t.tool).to_string(), t.rule))
            .collect();
        let mut notes: Vec<String> = tools
            .iter()
            .map(|(tool, rule)| match rule {
                crate::model::Rule::RoundedBuckets => fill(w.tool_rule_buckets, &[("tool", tool)]),
                crate::model::Rule::DdSketch => fill(w.tool_rule_sketch, &[("tool", tool)]),
                _ => fill(w.tool_rule, &[("tool", tool), ("rule", crate::render::i18n::rule_label(*rule, self.lang))]),
            })
            .collect();
        let merged = runs.iter().filter_map(|r| r.tool_reported.as_ref()).flat_map(|t| &t.labels).find_map(|l| l.name.merged_labels);
        if merged.is_some() {
            notes.push(fill(w.tool_limit_note, &[("shown", &format::count(crate::dataset::labels::MAX_LABELS as u64 - 1))]));
        }
        notes
    }

    /// The rows of a run's labels: name, requests, errors with their share, percentiles, max;
    /// times by `ms` (ours at the digits of the run's rows, a tool's as it printed them).
    fn label_rows(&self, labels: &[LabelResult], ms: &dyn Fn(f64) -> String) -> Vec<Vec<Cell>> {
        labels
            .iter()
            .map(|label: &LabelResult| {
                let value = |v: Option<f64>| v.map_or_else(|| Cell::text("–"), |v| Cell::number(ms(v)));
                let mut row = vec![
                    Cell::text(self.label_text(&label.name)),
                    Cell::number(format::count(label.requests)),
                    Cell::number(match label.error_share {
                        Some(share) => self.aside(&format::count(label.errors), &format::percent(share)),
                        None => format::count(label.errors),
                    }),
                ];
                row.extend(crate::model::Percentile::BY_LABEL.iter().map(|p| value(label.percentiles_ms.get(&p.key()).copied())));
                row.push(value(label.max_ms));
                row
            })
            .collect()
    }

    /// The rule of the per-label values and, beyond the limit, how many labels share a row;
    /// empty without labels.
    pub fn labels_notes(&self) -> Vec<String> {
        let w = words(self.lang);
        let names: Vec<&LabelName> = self.report.conditions.iter().flat_map(|c| c.labels.iter().map(|l| &l.name)).collect();
        if names.is_empty() {
            return Vec::new();
        }
        let mut notes = vec![w.rule.to_string()];
        if let Some(merged) = names.iter().find_map(|n| n.merged_labels) {
            let shown = names.iter().filter_map(|n| n.label.as_deref()).collect::<std::collections::BTreeSet<_>>().len();
            notes.push(fill(w.limit_note, &[("shown", &format::count(shown as u64)), ("n", &format::count(merged as u64))]));
        }
        notes
    }
}
