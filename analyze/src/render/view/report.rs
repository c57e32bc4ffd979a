//! The report page and its Markdown twin: integrity, the headline table, charts, the write and
//! temp-file tables, every run, and the Methods section.

use super::*;
use crate::model::Percentile;
use crate::render::figures::Figure as Planned;
use crate::render::i18n::notes;
use crate::render::i18n::published as published_words;
use crate::report::{OrderCheck, OrderPair, OrderRelation, PublishedTableResult};

/// The published-vs-measured section: the original article, one table per table of the
/// original, the rule of the verdicts, and the check of the orders the original claimed.
#[derive(Debug, Clone, Serialize)]
pub struct PublishedSection {
    pub original: Option<KeyValue>,
    pub note: Option<String>,
    pub tables: Vec<Table>,
    pub rule: String,
    pub orders_heading: &'static str,
    pub orders: Option<Table>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ReportPage {
    pub lang: &'static str,
    pub t: &'static Strings,
    pub nav: Nav,
    pub title: String,
    pub description: Option<String>,
    pub measured: Option<String>,
    /// What the report finds, under the title: how conditions are compared, which fail, which
    /// is best ([`Lead`]).
    pub lead: Option<super::Lead>,
    pub p_label: String,
    pub integrity: Vec<KeyValue>,
    /// Flag rules that hit most runs, each once with its cause (the variance page repeats them
    /// in its flags section).
    pub dataset_flags: Vec<String>,
    /// The headline section's heading: what conditions are compared by.
    pub headline_heading: String,
    pub headline: Table,
    /// Why the median leads, when the mean of the runs stands beside it.
    pub headline_note: Option<String>,
    /// Every percentile per condition, and a note naming the percentiles that are the maximum.
    pub percentiles: Option<Table>,
    pub percentiles_note: Option<String>,
    /// The original article's numbers beside the measured ones.
    pub published: Option<PublishedSection>,
    /// The headline chart, under the findings: the answer's picture on the first screen.
    pub answer_figures: Vec<Figure>,
    pub figures: Vec<Figure>,
    pub large: Option<Table>,
    pub tempfiles: Option<Table>,
    /// Per condition, how its sessions ended and how long the successful ones took.
    pub sessions: Option<Section>,
    /// Per condition and process group, CPU and peak RSS over its runs.
    pub resources: Option<Section>,
    /// Every run, when they fit on one page ([`paths::RUNS_PER_PAGE`]); else `run_pages`.
    pub runs: Option<Table>,
    /// The pages of the run list, with what the section says of them, when the runs do not fit.
    pub run_pages_intro: Option<String>,
    pub run_pages: Vec<KeyValue>,
    /// [`Context::shared_notes`], numbered from 1, listed under the run table.
    pub run_notes: Vec<String>,
    /// Imported runs: each tool's own number beside the nearest rank, on one rule.
    pub tools: Option<Table>,
    pub tools_heading: &'static str,
    pub methods: Vec<String>,
    pub environment: Vec<KeyValue>,
    /// plan.toml's settings, and the link to the dataset's README page.
    pub setup: Option<Table>,
    pub readme: Option<KeyValue>,
    /// Linked from the top of the page: the dataset's README page (when it has one), then the
    /// files to download (label, href relative to the report folder).
    pub downloads: Vec<KeyValue>,
    /// The author's article, rendered: HTML for the HTML page, Markdown for the twin.
    pub article: Option<String>,
    /// dataset.toml's service-level objectives per condition, and what they add up to.
    pub slo: Option<Section>,
    /// Where the data shows the mark of a known cause, that cause with its evidence (`stats::hints`).
    pub hints: Option<Section>,
    /// Per condition and request label, when the runs mix labels (`stats::labels`).
    pub labels: Option<Section>,
    /// Per run and request label, the tool's own figures (runs without rows: Locust).
    pub tool_labels: Option<Section>,
    /// In a site: links to this dataset's comparison with its baseline, and to the comparisons
    /// of the datasets that name this one their baseline (set by the site, empty otherwise).
    pub comparisons: Vec<KeyValue>,
}

impl<'a> Context<'a> {
    /// The headline table: rows are series, columns the x factor's levels.
    pub fn headline_table(&self, root: &str) -> Table {
        let report = self.report;
        let mut headers = vec![self.series_header()];
        match report.layout.x_factor {
            Some(x) => headers
                .extend(report.factors[x].levels.iter().map(|l| prose::factor_level(self.lang, &self.x_label(), l.label.get(self.lang)))),
            None => headers.push(self.headline_label.clone()),
        }
        let rows = report
            .layout
            .rows
            .iter()
            .map(|row| {
                let mut cells = vec![Cell::text(self.row_label(&row.levels))];
                for cell in &row.cells {
                    cells.push(match cell {
                        None => Cell::text("–"),
                        Some(c) => self.headline_cell(root, *c),
                    });
                }
                cells
            })
            .collect();
        let mut caption = self.fill(self.metric.caption);
        caption.push_str(&self.beside_caption());
        if self.report.mean_of_runs {
            caption.push_str(self.t.mean_caption);
        }
        Table { id: "headline".into(), caption: self.caption(&self.headline_heading(), &caption), headers, rows }
    }

    fn series_header(&self) -> String {
        let names: Vec<String> =
            self.report.layout.series_factors.iter().map(|&f| self.report.factors[f].label.get(self.lang).to_string()).collect();
        if names.is_empty() {
            self.t.condition.to_string()
        } else {
            names.join(self.t.label_join)
        }
    }

    fn headline_cell(&self, root: &str, condition: usize) -> Cell {
        let c = &self.report.conditions[condition];
        let representative = c.representative_run.as_deref().and_then(|id| self.run_index(id)).map(|i| self.run_href(root, i));
        let variance = paths::condition_link(root, condition);
        let printed = c.headline_printed.as_ref().filter(|_| self.report.headline.is_percentile());
        let mut cell = match (self.report.headline_of(c), printed) {
            (None, Some(printed)) => self.printed_condition_cell(printed, Some(variance)),
            (spread, _) => self.spread_cell(spread, |v| self.headline_number_of(condition, v), representative, Some(variance)),
        };
        if cell.text == "–" {
            return cell;
        }
        let (before, mut below) = self.beside_lines(condition);
        // What a printed value is comes first below it.
        below.splice(0..0, cell.note.take());
        below.extend(c.headline_mean.map(|m| fill(self.t.mean_cell, &[("value", &self.headline_number_of(condition, m))])));
        // A headline percentile no run resolves: the verdicts on it rank values as good as maxima.
        if self.report.headline == HeadlineMetric::Percentile {
            below.extend(c.unresolved_percentiles.get(&self.report.percentile.key()).map(|&n| self.needs(n)));
        }
        cell.failing = self.report.standing.conditions.get(condition).is_some_and(|s| s.failing);
        cell.before = match printed {
            Some(_) if cell.failing => self.printed_failing_note(condition).or(before),
            _ => before,
        };
        cell.note = (!below.is_empty()).then(|| below.join(self.t.list_sep));
        cell
    }

    /// Under the headline table when the mean of the runs is shown: why the median leads.
    pub fn headline_note(&self) -> Option<String> {
        let runs =
            self.report.conditions.iter().filter(|c| c.headline_mean.is_some()).filter_map(|c| self.report.headline_of(c)).map(|s| s.n);
        // With fewer than 3 runs the median is no steadier than the mean.
        let fewest = runs.min().filter(|&n| n >= 3)?;
        Some(fill(self.t.mean_why, &[("n", &format::count(fewest as u64))]))
    }

    pub fn integrity(&self) -> Vec<KeyValue> {
        let i = &self.report.integrity;
        let t = self.t;
        let kv = |label: &str, value: String| KeyValue { label: label.to_string(), value, href: None };
        let runs = |n: u64| self.runs_count(n);
        let items = |n: u64| self.items_count(n);
        let statuses: Vec<String> = i
            .runs_by_status
            .iter()
            .filter(|(_, &n)| n > 0)
            .map(|(s, n)| {
                let status = self.status_text(match s.as_str() {
                    "ok" => RunStatus::Ok,
                    "aborted" => RunStatus::Aborted,
                    _ => RunStatus::Excluded,
                });
                fill(t.status_count, &[("n", &format::count(*n)), ("status", status)])
            })
            .collect();
        // As counted: a run without rows adds its tool's counts, said as such.
        let (requests, ok_responses, errors) = self.counted_integrity();
        let mut out = vec![
            kv(t.runs_label, self.aside(&runs(i.runs), &statuses.join(t.list_sep))),
            kv(self.requests_label(), requests),
            kv(t.ok_responses_label, ok_responses),
            kv(t.errors_label, errors),
        ];
        if i.large_responses > 0 {
            out.push(kv(t.large_responses_label, items(i.large_responses)));
            let count = items(i.incomplete_large_responses);
            let value = match i.expected_large_response_bytes {
                Some(b) => self.aside(&count, &fill(t.expected_bytes, &[("bytes", &format::count(b))])),
                None => count,
            };
            out.push(kv(t.incomplete_label, value));
        }
        if let (Some(lag), Some(run)) = (i.max_lag_ms, &i.max_lag_run) {
            let href = self.run_index(run).map(|r| self.run_href("", r));
            out.push(KeyValue { label: t.max_lag_label.to_string(), value: self.aside(&format!("{} ms", format::ms(lag)), run), href });
        }
        out
    }

    fn conditions_with<F: Fn(&ConditionResult) -> bool>(&self, keep: F) -> Vec<usize> {
        (0..self.report.conditions.len()).filter(|&c| keep(&self.report.conditions[c])).collect()
    }

    pub fn large_table(&self, root: &str) -> Option<Table> {
        let pooled = |s: Option<Spread>| s.map_or_else(|| Cell::text("–"), |s| Cell::number(format::seconds(s.median)));
        let rows: Vec<Vec<Cell>> = self
            .conditions_with(|c| c.write_s.is_some() || c.complete_s.is_some())
            .into_iter()
            .map(|c| {
                let condition = &self.report.conditions[c];
                let variance = Some(paths::condition_link(root, c));
                vec![
                    Cell::text(self.condition_label(condition)),
                    self.spread_cell(condition.write_s, format::seconds, variance.clone(), variance.clone()),
                    self.spread_cell(condition.complete_s, format::seconds, variance.clone(), variance),
                    pooled(condition.write_s_pooled),
                    pooled(condition.complete_s_pooled),
                ]
            })
            .collect();
        (!rows.is_empty()).then(|| Table {
            id: "large-responses".into(),
            caption: self.caption(self.t.large_table, self.t.large_caption),
            headers: vec![
                self.t.condition.into(),
                self.t.write_s.into(),
                self.t.complete_s.into(),
                self.t.write_pooled_s.into(),
                self.t.complete_pooled_s.into(),
            ],
            rows,
        })
    }

    pub fn tempfile_table(&self, root: &str) -> Option<Table> {
        let rows: Vec<Vec<Cell>> = self
            .conditions_with(|c| c.tempfile_peak_bytes.is_some())
            .into_iter()
            .map(|c| {
                let condition = &self.report.conditions[c];
                let variance = Some(paths::condition_link(root, c));
                vec![
                    Cell::text(self.condition_label(condition)),
                    self.spread_cell(condition.tempfile_peak_bytes, format::mib, variance.clone(), variance),
                ]
            })
            .collect();
        (!rows.is_empty()).then(|| Table {
            id: "tempfiles".into(),
            caption: self.caption(self.t.tempfile_table, self.t.tempfile_caption),
            headers: vec![self.t.condition.into(), self.t.tempfile_peak.into()],
            rows,
        })
    }

    /// Every run in one table.
    pub fn run_table(&self, root: &str) -> Table {
        self.run_table_of(root, 0..self.report.runs.len())
    }

    /// The runs of `runs` (indices, report order) as the run table.
    pub fn run_table_of(&self, root: &str, runs: std::ops::Range<usize>) -> Table {
        let t = self.t;
        // Only open loops have a schedule lag: the column is left out where no run has one (in
        // the whole report, so every page of the run list has the same columns).
        let with_lag = self.report.runs.iter().any(|r| r.max_lag_ms.is_some());
        let shared = &self.shared_notes;
        let rows = self.report.runs[runs.clone()]
            .iter()
            .zip(runs)
            .map(|(run, i)| {
                let condition = &self.report.conditions[run.condition];
                let mut row = vec![
                    Cell {
                        text: run.run_id.clone(),
                        href: Some(self.run_href(root, i)),
                        anchor: Some(format!("run-{}", self.slugs[i])),
                        ..Cell::default()
                    },
                    Cell::text(self.condition_label(condition)),
                    Cell::number(run.repetition.to_string()),
                    Cell::text(self.status_text(run.status)),
                    match (run.headline_ms, &run.headline_printed) {
                        (Some(v), _) => Cell::number(self.run_ms(run)(v)).link(self.run_href(root, i)),
                        (None, Some(printed)) => self.printed_run_cell(printed).link(self.run_href(root, i)),
                        (None, None) => Cell::text("–"),
                    },
                    match (run.headline_rank, &run.headline_printed) {
                        (Some(rank), _) => Cell::number(format!("{}/{}", format::count(rank), format::count(run.ok_responses))),
                        (None, Some(printed)) => self.printed_rank_cell(printed),
                        (None, None) => Cell::text("–"),
                    },
                    self.run_errors_cell(run),
                ];
                if with_lag {
                    row.push(run.max_lag_ms.map_or_else(|| Cell::text("–"), |v| Cell::number(format::ms(v))));
                }
                let shared = shared.iter().position(|n| n.as_str() == run.note.as_str());
                row.push(Cell::text(
                    shared.map_or_else(|| notes::note_text(&run.note, self.lang), |k| fill(t.note_ref, &[("n", &(k + 1).to_string())])),
                ));
                row
            })
            .collect();
        Table {
            id: "runs".into(),
            caption: self.caption(t.run_table, &self.fill(if with_lag { t.run_caption } else { t.run_caption_closed })),
            headers: vec![
                t.run.into(),
                t.condition.into(),
                t.repetition.into(),
                t.status.into(),
                self.in_ms(&self.p_label),
                t.rank.into(),
                t.errors_label.into(),
            ]
            .into_iter()
            .chain(with_lag.then(|| t.lag.into()))
            .chain([t.note.into()])
            .collect(),
            rows,
        }
    }

    /// The percentile keys in display order: the standard ones, then the headline if it is another.
    /// Per condition: the median and range over its runs of every percentile and of the maximum.
    /// A percentile that is the last rank in every run is the maximum column again and is left
    /// out; the note under the table names it.
    pub fn percentile_table(&self, root: &str) -> Option<Table> {
        let at_max = &self.report.percentiles_at_maximum;
        let keys: Vec<&String> = self.report.percentile_keys.iter().filter(|k| !at_max.contains(k)).collect();
        let rows: Vec<Vec<Cell>> = self
            .conditions_with(|c| !c.percentiles_ms.is_empty())
            .into_iter()
            .map(|c| {
                let condition = &self.report.conditions[c];
                let variance = Some(paths::condition_link(root, c));
                let mut label = Cell::text(self.condition_label(condition));
                // A failing condition's percentiles rank its 2xx responses only: said once, by its name.
                label.note = self.failing_note(c, HeadlineMetric::Percentile);
                label.failing = label.note.is_some();
                let mut cells = vec![label];
                let ms = self.condition_ms(c);
                cells.extend(keys.iter().map(|k| {
                    let cell = self.spread_cell(condition.percentiles_ms.get(*k).copied(), &ms, variance.clone(), None);
                    // No run of the condition resolves it: the range is of values as good as each run's maximum.
                    match (condition.unresolved_percentiles.get(*k), cell.note.is_none()) {
                        (Some(&n), true) => cell.with_note(Some(self.needs(n))),
                        _ => cell,
                    }
                }));
                cells.push(self.spread_cell(condition.max_ms, &ms, variance.clone(), None));
                cells
            })
            .collect();
        let mut headers = vec![self.t.condition.to_string()];
        headers.extend(keys.iter().map(|k| fill(self.t.in_ms, &[("name", &format!("p{k}"))])));
        headers.push(fill(self.t.in_ms, &[("name", self.t.maximum_header)]));
        (!rows.is_empty()).then(|| Table {
            id: "percentiles".into(),
            caption: self.caption(self.t.percentile_table, self.t.percentile_caption),
            headers,
            rows,
        })
    }

    /// "p99 and p99.9 are the maximum": percentiles whose rank is n in every ok run, named so no
    /// reader takes them for a tail estimate.
    pub fn maximum_note(&self) -> Option<String> {
        let ok: Vec<&RunResult> = self.report.runs.iter().filter(|r| r.status == RunStatus::Ok && r.ok_responses > 0).collect();
        let needed = |k: &String| self.report.conditions.iter().find_map(|c| c.unresolved_percentiles.get(k).copied());
        let at_max: Vec<String> = self
            .report
            .percentiles_at_maximum
            .iter()
            .map(|k| match needed(k) {
                Some(n) => fill(self.t.percentile_needs, &[("p", &format!("p{k}")), ("needs", &self.needs(n))]),
                None => format!("p{k}"),
            })
            .collect();
        let n_min = ok.iter().map(|r| r.ok_responses).min()?;
        let n_max = ok.iter().map(|r| r.ok_responses).max()?;
        let n = if n_min == n_max { format::count(n_min) } else { self.range_text(&format::count(n_min), &format::count(n_max)) };
        (!at_max.is_empty()).then(|| fill(self.t.maximum_note, &[("list", &self.list(&at_max)), ("n", &n)]))
    }

    /// The original article's tables beside the runs, a verdict per value, and the check of
    /// each order the original claimed.
    pub fn published_section(&self, root: &str) -> Option<PublishedSection> {
        let published = &self.report.published;
        if published.is_empty() {
            return None;
        }
        let w = published_words::words(self.lang);
        let tables = published.tables.iter().map(|table| self.published_table(root, table)).collect();
        let orders: Vec<Vec<Cell>> =
            published.tables.iter().filter_map(|table| table.order.as_ref().map(|order| self.order_row(table, order))).collect();
        Some(PublishedSection {
            original: published.original.as_ref().map(|o| KeyValue {
                label: w.original.to_string(),
                value: published_words::original(self.lang, o),
                href: None,
            }),
            note: published.note.as_ref().map(|n| n.get(self.lang).to_string()),
            tables,
            rule: fill(w.rule, &[("threshold", &format::threshold_percent(published.negligible_difference))]),
            orders_heading: w.orders_heading,
            orders: (!orders.is_empty()).then(|| Table {
                id: "published-order".into(),
                caption: self.caption(w.orders_heading, w.orders_caption),
                headers: vec![w.order_table.into(), w.order_original.into(), w.order_here.into(), self.t.verdict.into()],
                rows: orders,
            }),
        })
    }

    /// The title of a published table: its label, else its metric.
    fn published_title(&self, table: &PublishedTableResult) -> String {
        let metric = published_words::metric(self.lang, table.metric);
        match &table.label {
            Some(label) => label.get(self.lang).to_string(),
            None => fill(published_words::words(self.lang).table_title, &[("metric", metric)]),
        }
    }

    fn published_table(&self, root: &str, table: &PublishedTableResult) -> Table {
        let w = published_words::words(self.lang);
        let unit = published_words::unit(self.lang, table.unit);
        let threshold = self.report.published.negligible_difference;
        let mut rows: Vec<Vec<Cell>> = table
            .rows
            .iter()
            .enumerate()
            .map(|(i, row)| {
                let (median, range) = match row.measured {
                    Some(m) => (
                        Cell::number(format::in_unit(m.median, table.unit)).link(paths::condition_link(root, row.condition)),
                        Cell::number(self.range_text(&format::in_unit(m.min, table.unit), &format::in_unit(m.max, table.unit))),
                    ),
                    None => (Cell::text("–"), Cell::text("–")),
                };
                vec![
                    Cell { sub: row.note.as_ref().map(|n| n.get(self.lang).to_string()), ..Cell::text(self.label_within(table, i)) },
                    Cell::number(format::as_written(row.value, table.unit)),
                    median,
                    range,
                    Cell::text(published_words::verdict(self.lang, row.verdict, row.ratio, threshold)),
                ]
            })
            .collect();
        rows.extend(table.references.iter().map(|r| {
            vec![
                Cell::text(r.label.get(self.lang)),
                Cell::number(format::as_written(r.value, table.unit)),
                Cell::text("–"),
                Cell::text("–"),
                Cell::text(fill(w.reference, &[("reason", r.reason.get(self.lang))])),
            ]
        }));
        Table {
            id: format!("published-{}", table.id),
            caption: self.caption(&self.published_title(table), w.table_caption),
            headers: vec![
                self.t.condition.into(),
                fill(w.published_header, &[("unit", unit)]),
                fill(w.median_header, &[("unit", unit)]),
                fill(w.range_header, &[("unit", unit)]),
                self.t.verdict.into(),
            ],
            rows,
        }
    }

    /// One ordered table: the original's order, the order of the medians here, and the verdict.
    fn order_row(&self, table: &PublishedTableResult, order: &OrderCheck) -> Vec<Cell> {
        let w = published_words::words(self.lang);
        let label = |row: usize| self.label_within(table, row);
        let original: Vec<String> = order.published_rows.iter().map(|&r| label(r)).collect();
        let here: Vec<String> =
            order.here_rows.iter().map(|group| group.iter().map(|&r| label(r)).collect::<Vec<_>>().join(" = ")).collect();
        let pair = |p: &OrderPair| published_words::pair(self.lang, p.here, p.apart, &label(p.larger_row), &label(p.smaller_row));
        let verdict = if order.separated {
            w.order_separated.to_string()
        } else if order.holds {
            let overlapping: Vec<String> = order.pairs.iter().filter(|p| !p.apart).map(pair).collect();
            fill(w.order_overlap, &[("pairs", &overlapping.join(w.pair_sep))])
        } else {
            let broken: Vec<String> = order.pairs.iter().filter(|p| p.here != OrderRelation::Same).map(pair).collect();
            fill(w.order_broken, &[("pairs", &broken.join(w.pair_sep))])
        };
        vec![
            Cell::text(self.published_title(table)).link(format!("#published-{}", table.id)),
            Cell::text(original.join(" > ")),
            Cell::text(here.join(" > ")),
            Cell::text(verdict),
        ]
    }

    /// Every run with a tool's printed numbers or a source: the headline percentile by the nearest
    /// rank (ours) beside the tool's own value and rule, and both throughputs.
    pub fn tools_table(&self, root: &str) -> Option<Table> {
        let report = self.report;
        let w = crate::render::i18n::tool_words(self.lang);
        let key = report.percentile.key();
        let rows: Vec<Vec<Cell>> = report
            .runs
            .iter()
            .enumerate()
            .filter(|(_, r)| r.tool_reported.is_some() || r.source.is_some())
            .map(|(i, run)| {
                let tool = run
                    .tool_reported
                    .as_ref()
                    .map(|t| t.tool.clone())
                    .or_else(|| run.source.as_ref().map(|s| s.tool.clone()))
                    .unwrap_or_default();
                let theirs =
                    run.tool_reported.as_ref().and_then(|t| t.percentiles_ms.get(&key).map(|v| (*v, t.ranks.get(&key).copied(), t.ranked)));
                // A run without rows whose tool printed another percentile in the headline's place.
                let instead = run.headline_printed.as_ref().filter(|p| p.percentile != key);
                let rule = run.tool_reported.as_ref().map_or("–", |t| crate::render::i18n::rule_label(t.rule, self.lang));
                let ours = run.percentiles_ms.get(&key).map(|v| (*v, run.percentile_ranks.get(&key).copied()));
                // Ours at the digits of the run's rows, the tool's as it printed them.
                let with_rank = |v: String, rank: Option<u64>, n: u64| match rank {
                    Some(k) => format!("{v} ({})", self.rank_text(k, n)),
                    None => v,
                };
                let ms = self.run_ms(run);
                vec![
                    Cell::text(run.run_id.clone()).link(format!("{root}{}", paths::run_page(&self.slugs[i]))),
                    Cell::text(tool),
                    ours.map_or_else(|| Cell::text("–"), |(v, k)| Cell::number(with_rank(ms(v), k, run.ok_responses))),
                    match (theirs, instead) {
                        (Some((v, k, n)), _) => Cell::number(with_rank(format::printed(v), k, n)),
                        (None, Some(p)) => Cell::number(with_rank(format::printed(p.value_ms), p.rank, p.ranked))
                            .with_note(Some(self.printed_note(&p.percentile, std::slice::from_ref(&p.tool)))),
                        (None, None) => Cell::text("–"),
                    },
                    Cell::text(rule),
                    run.requests_per_s.map_or_else(
                        || Cell::text("–"),
                        |r| {
                            let tool = run.throughput_from.is_some_and(|f| f.starts_with("tool"));
                            Cell::number(format!(
                                "{}{}",
                                if tool { format::rate_printed(r) } else { format::rate(r, None) },
                                if tool { " *" } else { "" }
                            ))
                        },
                    ),
                    run.error_rate.map_or_else(|| Cell::text("–"), |e| Cell::number(format::percent_fine(e))),
                ]
            })
            .collect();
        (!rows.is_empty()).then(|| Table {
            id: "tools".into(),
            caption: fill(w.tools_caption, &[("p", &self.p_label)]),
            headers: vec![
                self.t.run.into(),
                w.tool.into(),
                fill(w.ours, &[("p", &self.p_label)]),
                fill(w.theirs, &[("p", &self.p_label)]),
                w.rule.into(),
                w.requests_per_s.into(),
                w.error_rate.into(),
            ],
            rows,
        })
    }

    /// The Methods paragraph on CPU and memory, with the sampling interval the runs had (a range
    /// where they differ) and the step a clock tick makes of a CPU share at it.
    fn methods_resources(&self, report: &Report) -> Option<String> {
        let sampling = report.resource_sampling?;
        let whole = |v: f64| format::count(v as u64);
        let step = |v: f64| format!("{}%", format::known(v, 0));
        let (interval, steps) = if sampling.interval_low_ms == sampling.interval_high_ms {
            (whole(sampling.interval_low_ms), step(sampling.step_coarse_percent))
        } else {
            (
                format!("{}{}{}", whole(sampling.interval_low_ms), self.t.range_dash, whole(sampling.interval_high_ms)),
                format!("{}{}{}", step(sampling.step_fine_percent), self.t.range_dash, step(sampling.step_coarse_percent)),
            )
        };
        Some(fill(self.t.methods_resources, &[("tick", &whole(sampling.tick_ms)), ("interval", &interval), ("step", &steps)]))
    }

    /// The Methods paragraphs: every definition, stated with the actual n, ranks and limits.
    pub fn methods(&self) -> Vec<String> {
        let report = self.report;
        let t = self.t;
        let ok: Vec<&RunResult> = report.runs.iter().filter(|r| r.status == RunStatus::Ok && r.ok_responses > 0).collect();
        let n_min = ok.iter().map(|r| r.ok_responses).min();
        let n_max = ok.iter().map(|r| r.ok_responses).max();
        // A condition with only its tools' printed percentiles counts its runs too.
        let printed_n = |c: &ConditionResult| c.headline_printed.as_ref().filter(|_| report.headline.is_percentile()).map(|p| p.spread.n);
        let runs_per: Vec<usize> =
            report.conditions.iter().filter_map(|c| report.headline_of(c).map(|s| s.n).or_else(|| printed_n(c))).collect();
        let runs_min = runs_per.iter().min().copied().unwrap_or(0);
        let runs_max = runs_per.iter().max().copied().unwrap_or(0);
        let per_condition = if runs_min == runs_max {
            format::count(runs_min as u64)
        } else {
            self.range_text(&runs_min.to_string(), &runs_max.to_string())
        };
        let ranks = match (n_min, n_max) {
            (Some(a), Some(b)) => {
                let n = if a == b { format::count(a) } else { self.range_text(&format::count(a), &format::count(b)) };
                let list: Vec<String> = self
                    .report
                    .percentile_keys
                    .iter()
                    .filter_map(|k| k.parse::<f64>().ok().and_then(Percentile::new))
                    .map(|p| {
                        let rank = p.rank(a);
                        let at = self.rank_ordinal(rank);
                        let tag = if rank == a { t.maximum_tag } else { "" };
                        fill(t.rank_item, &[("p", &format!("p{}", p.key())), ("rank", &format!("{at}{tag}"))])
                    })
                    .collect();
                fill(t.methods_ranks, &[("n", &n), ("at_n", &format::count(a)), ("list", &self.list(&list))])
            }
            _ => String::new(),
        };
        let mut paragraphs = vec![
            if self.has_probe() { t.methods_latency_probe } else { t.methods_latency }.to_string(),
            format!("{}{}{ranks}", t.methods_percentile, t.sentence_gap),
            fill(&self.fill_headline(t.methods_condition), &[("runs", &per_condition)]),
        ];
        if report.runs.iter().any(|r| r.headline_printed.is_some() || r.requests_counted.tool().is_some()) {
            paragraphs.push(fill(crate::render::i18n::counted::words(self.lang).method, &[("p", &self.p_label)]));
        }
        if report.runs.iter().any(|r| r.requests_counted.unplaced().is_some()) {
            paragraphs.push(crate::render::i18n::counted::words(self.lang).unplaced_method.to_string());
        }
        if let Some(level1) = &report.level1 {
            paragraphs.insert(2, fill(t.methods_level1, &[("engine", &level1.engine), ("version", &level1.version)]));
        }
        if report.conditions.iter().any(|c| c.write_s.is_some() || c.complete_s.is_some()) {
            paragraphs.push(t.methods_large.to_string());
        }
        if report.conditions.iter().any(|c| c.sessions.is_some()) {
            paragraphs.push(t.methods_sessions.to_string());
        }
        if report.runs.iter().any(|r| r.tempfile_peak_bytes.is_some()) {
            paragraphs.push(t.methods_tempfiles.to_string());
        }
        paragraphs.extend(self.methods_resources(report));
        let thresholds = &report.variance.thresholds;
        if report.runs.iter().any(|r| r.from_intended_ms.is_some()) {
            paragraphs.push(fill(
                t.methods_intended,
                &[
                    ("threshold", &format::threshold_percent(thresholds.negligible_difference)),
                    ("floor", &format::ms(thresholds.noisy_lag_floor_ms)),
                ],
            ));
        }
        if report.integrity.max_lag_ms.is_some() {
            let limit = match report.variance.lag_limit {
                Some(l) => fill(t.methods_lag_limit, &[("limit", &format::ms(l.limit)), ("median", &format::ms(l.median))]),
                None => t.methods_lag_no_limit.to_string(),
            };
            paragraphs.push(fill(
                t.methods_lag,
                &[
                    ("lag_ms", &format::ms(thresholds.lag_ms)),
                    ("k", &format::decimal(thresholds.noisy_k, 1)),
                    ("floor", &format::ms(thresholds.noisy_lag_floor_ms)),
                    ("limit", &limit),
                ],
            ));
        }
        let design = self.design_sentences();
        if report.variance.comparisons.is_empty() {
            // Nothing compared (one run per condition): only why.
            if !design.is_empty() {
                paragraphs.push(design.join(t.sentence_gap));
            }
        } else {
            paragraphs.push(fill(
                &self.fill_headline(t.methods_verdicts),
                &[
                    ("pairing", &self.pairing()),
                    ("design", &design.join(t.sentence_gap)),
                    ("rule", &format!("{}{}", t.sentence_gap, self.verdict_rule())),
                ],
            ));
        }
        if report.runs.iter().any(|r| r.requests_per_s.is_some()) {
            let words = crate::render::i18n::tool_words(self.lang);
            let mut text = words.throughput_method.to_string();
            // Runs with rows whose figures are the tool's: dataset.toml chose the tool's.
            if report.runs.iter().any(|r| r.requests > 0 && r.throughput_from == Some("tool")) {
                text.push_str(self.t.sentence_gap);
                text.push_str(words.throughput_tool_method);
            }
            if report.runs.iter().any(|r| r.throughput_from == Some("tool-coarse") || r.rate_withheld.is_some()) {
                text.push_str(self.t.sentence_gap);
                text.push_str(words.coarse_sends_method);
            }
            paragraphs.push(text);
        }
        paragraphs.push(t.methods_status.to_string());
        paragraphs
    }

    /// "the 69th" / "69番目": a rank in running text.
    fn rank_ordinal(&self, rank: u64) -> String {
        prose::rank_ordinal(self.lang, rank)
    }

    /// plan.toml's settings as a two-column table.
    pub fn setup_table(&self) -> Option<Table> {
        // A text given per language (`title.en`, `title.ja`) shows only in its own language's report.
        let other_language = |key: &str| key.rsplit_once('.').and_then(|(_, last)| Lang::parse(last)).is_some_and(|lang| lang != self.lang);
        let rows: Vec<Vec<Cell>> = self
            .report
            .setup
            .iter()
            .filter(|s| !other_language(&s.key))
            // A value of several lines is a file's text (a command plan's server config): code, not prose.
            .map(|s| vec![Cell::text(s.key.clone()), Cell { code: s.value.contains('\n'), ..Cell::text(s.value.clone()) }])
            .collect();
        (!rows.is_empty()).then(|| Table {
            id: "setup-table".into(),
            caption: self.caption(self.t.setup, self.t.setup_caption),
            headers: vec![self.t.setting.into(), self.t.value.into()],
            rows,
        })
    }

    pub fn environment(&self) -> Vec<KeyValue> {
        self.report
            .dataset
            .environment
            .iter()
            .map(|(k, v)| KeyValue { label: k.clone(), value: v.get(self.lang).to_string(), href: None })
            .collect()
    }

    /// The report page's figures, from the figure plan: the headline chart that answers the
    /// study's question (one per level, when it is drawn per level), shown right under the
    /// findings, and the rest in the charts section.
    pub fn report_figures(&self, root: &str) -> (Vec<Figure>, Vec<Figure>) {
        let answers = |f: &&Planned| matches!(f, Planned::Headline | Planned::HeadlineAt(_));
        let planned = &self.figures.report;
        let headline = planned.iter().take_while(answers).count();
        let figures = |part: &[Planned]| part.iter().map(|&f| self.figure(f, root)).collect();
        (figures(&planned[..headline]), figures(&planned[headline..]))
    }

    pub fn report_page(&self, article: Option<String>) -> ReportPage {
        let report = self.report;
        let (answer_figures, figures) = self.report_figures("");
        ReportPage {
            lang: self.lang.code(),
            t: self.t,
            nav: self.nav("", paths::REPORT_PAGE),
            title: report.dataset.title.get(self.lang).to_string(),
            description: report.dataset.description.as_ref().map(|d| d.get(self.lang).to_string()),
            measured: report.dataset.measured.clone(),
            lead: self.lead(),
            p_label: self.p_label.clone(),
            integrity: self.integrity(),
            dataset_flags: self.dataset_flag_texts(),
            headline_heading: self.headline_heading(),
            headline: self.headline_table(""),
            headline_note: self.headline_note(),
            percentiles: self.percentile_table(""),
            percentiles_note: self.maximum_note(),
            published: self.published_section(""),
            answer_figures,
            figures,
            large: self.large_table(""),
            tempfiles: self.tempfile_table(""),
            sessions: super::sessions::section(self),
            resources: super::resources::section(self),
            runs: (!self.runs_paged()).then(|| self.run_table("")),
            run_pages_intro: self.runs_paged().then(|| {
                fill(
                    self.t.run_pages_intro,
                    &[("n", &format::count(report.runs.len() as u64)), ("per", &format::count(paths::RUNS_PER_PAGE as u64))],
                )
            }),
            run_pages: if self.runs_paged() { self.run_list_links("") } else { Vec::new() },
            run_notes: self.shared_notes.iter().map(|n| notes::note_text(n, self.lang)).collect(),
            tools: self.tools_table(""),
            tools_heading: crate::render::i18n::tool_words(self.lang).tools_heading,
            methods: self.methods(),
            environment: self.environment(),
            setup: self.setup_table(),
            readme: report.readme.is_some().then(|| KeyValue {
                label: self.t.readme_link.to_string(),
                value: match self.readme_text() {
                    Some((_, false)) => format!("{}{}", self.t.readme_note, self.t.readme_untranslated),
                    _ => self.t.readme_note.to_string(),
                },
                href: Some(paths::README_PAGE.to_string()),
            }),
            downloads: self.downloads(),
            article,
            slo: super::slo::section(self),
            hints: super::hints::section(self),
            labels: super::labels::section(self),
            tool_labels: super::labels::tool_section(self),
            comparisons: Vec::new(),
        }
    }

    /// The pages of the run list, from a page `root` away from the report folder.
    pub fn run_list_links(&self, root: &str) -> Vec<KeyValue> {
        let n = self.report.runs.len();
        (0..n.div_ceil(paths::RUNS_PER_PAGE))
            .map(|page| {
                let (from, to) = (page * paths::RUNS_PER_PAGE + 1, ((page + 1) * paths::RUNS_PER_PAGE).min(n));
                KeyValue {
                    label: fill(self.t.run_page_range, &[("from", &format::count(from as u64)), ("to", &format::count(to as u64))]),
                    value: String::new(),
                    href: Some(format!("{root}{}", paths::run_list_page(page + 1))),
                }
            })
            .collect()
    }

    /// The links at the top of the report: the dataset's README page, the tables as CSV, the
    /// summary as JSON and the Markdown twin.
    fn downloads(&self) -> Vec<KeyValue> {
        let file = |label: &str, href: &str| KeyValue { label: label.to_string(), value: String::new(), href: Some(href.to_string()) };
        let mut links: Vec<KeyValue> = self.report.readme.iter().map(|_| file(self.t.readme_link, paths::README_PAGE)).collect();
        links.extend([
            file(paths::RUNS_CSV, paths::RUNS_CSV),
            file(paths::CONDITIONS_CSV, paths::CONDITIONS_CSV),
            file(self.t.summary_json, paths::SUMMARY_JSON),
            file(self.t.markdown_twin, paths::MARKDOWN_TWIN),
        ]);
        links
    }

    /// Page `page` (1-based) of the paged run list.
    pub fn run_list_page(&self, page: usize) -> RunListPage {
        let n = self.report.runs.len();
        let (from, to) = ((page - 1) * paths::RUNS_PER_PAGE, (page * paths::RUNS_PER_PAGE).min(n));
        let root = "../";
        let mut pages = self.run_list_links(root);
        // The page itself is named, not linked.
        pages[page - 1].href = None;
        RunListPage {
            lang: self.lang.code(),
            t: self.t,
            nav: self.nav(root, &paths::run_list_page(page)),
            title: fill(
                self.t.run_list_title,
                &[("from", &format::count(from as u64 + 1)), ("to", &format::count(to as u64)), ("n", &format::count(n as u64))],
            ),
            pages,
            runs: self.run_table_of(root, from..to),
            run_notes: self.shared_notes.iter().map(|n| notes::note_text(n, self.lang)).collect(),
        }
    }
}

/// One page of the run list of a report with more runs than one page holds.
#[derive(Debug, Clone, Serialize)]
pub struct RunListPage {
    pub lang: &'static str,
    pub t: &'static Strings,
    pub nav: Nav,
    pub title: String,
    /// Every page of the list; this one without a link.
    pub pages: Vec<KeyValue>,
    pub runs: Table,
    /// [`Context::shared_notes`], numbered from 1.
    pub run_notes: Vec<String>,
}
