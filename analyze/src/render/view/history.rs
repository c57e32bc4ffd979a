//! The history page (`analyze history`, and a series' page in the site): the measurements in
//! order, the changes found with their ratios and intervals, one trend chart per condition, and
//! what consecutive sittings cannot show. The same view feeds the Markdown twin and the terminal
//! summary.

use super::{Cell, Figure, KeyValue, Table};
use crate::model::{DecidedBy, FailureVerdict, HeadlineMetric, Lang};
use crate::render::format;
use crate::render::i18n::history::{words, HistoryWords};
use crate::render::i18n::{fill, prose, strings, Strings};
use crate::report::history::{Change, ConditionHistory, HistoryReport, HistoryTest, Measurement};
use serde::Serialize;

/// Where the history sits in a site: each measurement's report, from the history's language
/// folder (`history/<series>/<lang>/`).
#[derive(Debug, Clone, Default)]
pub struct HistorySite {
    /// Per measurement (by number - 1): the url segment of its dataset's folder.
    pub datasets: Vec<String>,
    /// Per measurement (by number - 1): the number of the measurement its site comparison (in
    /// `<its folder>/compare/`) has as baseline, when that is one of this history's.
    pub compared_with: Vec<Option<usize>>,
}

#[derive(Debug, Clone, Serialize)]
pub struct HistoryNav {
    pub other_lang_href: String,
    pub home_href: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct HistoryPage {
    pub lang: &'static str,
    pub t: &'static Strings,
    pub w: &'static HistoryWords,
    pub nav: HistoryNav,
    pub title: String,
    pub lead: String,
    pub facts: Vec<KeyValue>,
    pub summary: Vec<String>,
    pub changes: Option<Table>,
    /// Each measurement's medians, while no condition has the measurements a test needs.
    pub medians: Option<Table>,
    /// The site's comparisons between two of the measurements.
    pub comparisons: Vec<KeyValue>,
    pub measurements: Table,
    pub notes: Vec<String>,
    pub figures: Vec<Figure>,
    pub limits: String,
    /// The terminal summary: a line per change, then the unchanged conditions.
    pub text_lines: Vec<String>,
}

/// The trend chart of condition `k`, relative to a language folder.
pub fn figure_path(k: usize) -> String {
    format!("figures/history-{}.svg", k + 1)
}

/// The history page in `lang`; `site` when it is part of a site.
pub fn history_page(report: &HistoryReport, lang: Lang, site: Option<&HistorySite>) -> HistoryPage {
    View { report, lang, t: strings(lang), w: words(lang), site }.page()
}

/// The link from a history's language folder (or, with `depth` 1, its figures) to measurement
/// `number`'s report in a site.
pub fn measurement_href(site: Option<&HistorySite>, number: usize, lang: Lang, depth: usize) -> Option<String> {
    let segment = site?.datasets.get(number - 1)?;
    Some(format!("{}../../../{segment}/{}/index.html", "../".repeat(depth), lang.code()))
}

/// Whether the history's page draws its trend charts: only once a condition could be tested.
pub fn draws_charts(report: &HistoryReport) -> bool {
    report.conditions.iter().any(|c| c.p_first.is_some())
}

/// What a measurement is called in the facts and the medians' headers: its revision, else the
/// day it was measured, else its dataset.
fn measurement_name(m: &Measurement) -> String {
    m.revision.clone().or_else(|| m.measured.clone()).unwrap_or_else(|| m.dataset.clone())
}

struct View<'a> {
    report: &'a HistoryReport,
    lang: Lang,
    t: &'static Strings,
    w: &'static HistoryWords,
    site: Option<&'a HistorySite>,
}

impl View<'_> {
    /// What the history is called: its series, or, when no measurement names one, the newest
    /// measurement's title.
    fn name(&self) -> String {
        let r = self.report;
        match r.measurements.last() {
            Some(newest) if !r.series_named => newest.title.get(self.lang).to_string(),
            _ => r.series.clone(),
        }
    }

    fn page(&self) -> HistoryPage {
        let (r, w) = (self.report, self.w);
        let other = if self.lang == Lang::En { Lang::Ja } else { Lang::En };
        let nav = HistoryNav {
            other_lang_href: format!("../{}/index.html", other.code()),
            home_href: self.site.map(|_| format!("../../../{}", crate::render::paths::site_index(self.lang))),
        };
        let metric = self.metric_label();
        HistoryPage {
            lang: self.lang.code(),
            t: self.t,
            w,
            nav,
            title: fill(w.title, &[("series", &self.name())]),
            lead: fill(w.lead, &[("series", &self.name()), ("metric", &metric)]),
            facts: self.facts(),
            summary: self.summary(),
            changes: self.changes_table(),
            medians: (!self.any_tested()).then(|| self.medians_table()),
            comparisons: self.comparisons(),
            measurements: self.measurements_table(),
            notes: self.notes(),
            // A chart of measurements no test could judge would show dots, not an answer.
            figures: r
                .conditions
                .iter()
                .enumerate()
                .filter(|_| self.any_tested())
                .map(|(k, c)| Figure {
                    wide_px: Some(crate::render::charts::WIDE_PX),
                    src: figure_path(k),
                    alt: fill(w.figure_alt, &[("condition", &self.label(c)), ("metric", &metric)]),
                })
                .collect(),
            limits: w.limits.to_string(),
            text_lines: self.text_lines(),
        }
    }

    fn any_tested(&self) -> bool {
        draws_charts(self.report)
    }

    fn metric_label(&self) -> String {
        crate::render::view::compare_metric_label(self.lang, self.report.headline, &self.report.metric)
    }

    fn label(&self, c: &ConditionHistory) -> String {
        prose::labels_label(self.lang, &c.labels)
    }

    /// "worse"/"better", or "slower"/"faster" for latency and requests/s.
    fn directions(&self) -> (String, String) {
        let w = crate::render::i18n::compare::words(self.lang);
        match self.report.headline {
            HeadlineMetric::Percentile | HeadlineMetric::RequestsPerS => (w.slower.to_string(), w.faster.to_string()),
            _ => (w.worse.to_string(), w.better.to_string()),
        }
    }

    /// The verdict of a change: failures first (more or fewer requests failed, or undecided),
    /// else the metric's direction.
    fn direction(&self, change: &Change) -> String {
        let w = self.w;
        if change.decided_by == DecidedBy::Failures {
            return match change.failures.verdict {
                FailureVerdict::NoResponses => w.no_responses.to_string(),
                FailureVerdict::Rise => w.more_failed.to_string(),
                FailureVerdict::Fall => w.fewer_failed.to_string(),
                _ => fill(w.failures_undecided, &[("margin", &format::percent_round(self.report.thresholds.error_share))]),
            };
        }
        let (worse, better) = self.directions();
        if change.worse { worse } else { better }.to_string()
    }

    /// What changed: the ratio with its interval, and the shares of failed requests when they
    /// decided.
    fn what(&self, change: &Change) -> String {
        let mut parts = Vec::new();
        match (change.ratio, change.low, change.high) {
            (Some(ratio), Some(low), Some(high)) => parts.push(fill(
                self.w.ratio_interval,
                &[("ratio", &format::factor(ratio)), ("low", &format::factor(low)), ("high", &format::factor(high))],
            )),
            (Some(ratio), ..) => {
                parts.push(fill(crate::render::i18n::history::words(self.lang).chart_change, &[("ratio", &format::factor(ratio))]))
            }
            _ => {}
        }
        if change.decided_by == DecidedBy::Failures || change.ratio.is_none() {
            parts.push(self.failed_shares(change));
        }
        parts.join(self.t.list_sep)
    }

    /// How many shuffles a first test draws, and up to how many where the rule needs them.
    fn shuffles(&self) -> String {
        let th = &self.report.thresholds;
        let n = format::count(th.min_permutations);
        if th.permutations > th.min_permutations {
            fill(self.w.shuffles_up_to, &[("n", &n), ("max", &format::count(th.permutations))])
        } else {
            fill(self.w.shuffles, &[("n", &n)])
        }
    }

    /// "failed 0.00% → 95.00%", compare's words.
    fn failed_shares(&self, change: &Change) -> String {
        let share = |s: Option<f64>| s.map_or_else(|| "–".to_string(), format::percent_fine);
        let cw = crate::render::i18n::compare::words(self.lang);
        fill(cw.text_failures, &[("base", &share(change.failures.before)), ("cand", &share(change.failures.after))])
    }

    fn dataset_of(&self, number: usize) -> &str {
        self.report.measurements.get(number - 1).map_or("", |m| m.dataset.as_str())
    }

    fn facts(&self) -> Vec<KeyValue> {
        let (r, w) = (self.report, self.w);
        let order = match r.by {
            "revision" => w.by_revision,
            "dataset_name" => w.by_dataset_name,
            _ => w.by_started_at,
        };
        let (first, last) = (
            r.measurements.first().map(measurement_name).unwrap_or_default(),
            r.measurements.last().map(measurement_name).unwrap_or_default(),
        );
        let compare_words = crate::render::i18n::compare::words(self.lang);
        let direction = if r.higher_is_better { compare_words.higher_better } else { compare_words.lower_better };
        vec![
            KeyValue {
                label: w.measurements.to_string(),
                value: fill(
                    w.measurements_value,
                    &[("n", &format::count(r.measurements.len() as u64)), ("order", order), ("first", &first), ("last", &last)],
                ),
                href: None,
            },
            KeyValue {
                label: w.followed_by.to_string(),
                value: fill(w.followed_by_value, &[("metric", &self.metric_label()), ("direction", direction)]),
                href: None,
            },
            KeyValue { label: w.environments.to_string(), value: self.environments(), href: None },
        ]
    }

    fn environment_lines(&self) -> Vec<String> {
        let w = self.w;
        self.report
            .environment_changes
            .iter()
            .map(|e| {
                let (b, a) = (e.before.to_string(), e.after.to_string());
                let list: Vec<String> = e
                    .differing
                    .iter()
                    .map(|d| {
                        let template = if d.allowed { w.env_allowed } else { w.env_difference };
                        fill(template, &[("key", &d.key), ("before", &d.before), ("after", &d.after), ("b", &b), ("a", &a)])
                    })
                    .collect();
                fill(w.environment_change, &[("before", &b), ("after", &a), ("list", &prose::list(self.lang, &list))])
            })
            .collect()
    }

    fn environments(&self) -> String {
        let lines = self.environment_lines();
        if lines.is_empty() {
            return fill(self.w.environments_same, &[("rules", &self.report.must_match.join(", "))]);
        }
        lines.join(self.t.list_sep)
    }

    fn summary(&self) -> Vec<String> {
        let (r, w) = (self.report, self.w);
        let mut out = Vec::new();
        if r.summary.incomparable {
            let keys: Vec<String> =
                r.environment_changes.iter().flat_map(|e| e.differing.iter().filter(|d| !d.allowed).map(|d| d.key.clone())).collect();
            let mut unique: Vec<String> = Vec::new();
            for k in keys {
                if !unique.contains(&k) {
                    unique.push(k);
                }
            }
            // A site build exits 0 and takes no --allow-env: the page says only what it shows.
            let template = if self.site.is_some() { w.incomparable_summary_site } else { w.incomparable_summary };
            out.push(fill(
                template,
                &[("list", &prose::list(self.lang, &self.environment_lines())), ("keys", &unique.join(" --allow-env "))],
            ));
        }
        let total = format::count(r.conditions.len() as u64);
        let tested = r.conditions.iter().filter(|c| c.p_first.is_some()).count() as u64;
        if tested == 0 {
            let min = r.thresholds.min_segment;
            out.push(fill(
                w.none_tested,
                &[("min", &min.to_string()), ("needed", &(2 * min).to_string()), ("n", &format::count(r.measurements.len() as u64))],
            ));
        } else if r.summary.changes == 0 && r.summary.too_few {
            out.push(fill(
                w.too_few_summary,
                &[
                    ("n", &format::count(r.measurements.len() as u64)),
                    ("p", &format::p_value(r.thresholds.smallest_p)),
                    ("needed", &format::count(r.thresholds.min_measurements as u64)),
                ],
            ));
        } else if r.summary.changes == 0 {
            out.push(fill(w.no_change, &[("tested", &format::count(tested))]));
        } else {
            // A change the failures decided is worse or better, not slower or faster.
            let by_failures = r.conditions.iter().flat_map(|c| &c.changes).any(|c| c.decided_by == DecidedBy::Failures);
            let (worse, better) = if by_failures {
                let cw = crate::render::i18n::compare::words(self.lang);
                (cw.worse.to_string(), cw.better.to_string())
            } else {
                self.directions()
            };
            let changed = r.conditions.iter().filter(|c| !c.changes.is_empty()).count() as u64;
            out.push(fill(
                w.changes_found,
                &[
                    ("changes", &format::count(r.summary.changes as u64)),
                    ("conditions", &format::count(changed)),
                    ("total", &total),
                    ("worse", &worse),
                    ("better", &better),
                    ("n_worse", &format::count(r.summary.worse as u64)),
                    ("n_better", &format::count(r.summary.better as u64)),
                ],
            ));
        }
        out
    }

    fn changes_table(&self) -> Option<Table> {
        let (t, w) = (self.t, self.w);
        let rows: Vec<Vec<Cell>> = self
            .report
            .conditions
            .iter()
            .flat_map(|c| c.changes.iter().map(move |change| (c, change)))
            .map(|(c, change)| {
                let between = fill(w.between_cell, &[("before", &change.before.to_string()), ("after", &change.after.to_string())]);
                let names = format!("{}{}{}", self.dataset_of(change.before), t.range_dash, self.dataset_of(change.after));
                vec![
                    Cell::text(self.label(c)),
                    Cell { sub: Some(names), href: measurement_href(self.site, change.after, self.lang, 0), ..Cell::number(between) },
                    Cell::number(self.what(change)),
                    Cell::number(format::p_value(change.p)),
                    Cell::number(fill(w.held_cell, &[("n", &format::count(change.persisted_for as u64))])),
                    Cell::text(self.direction(change)).with_note(change.environment_changed.then(|| w.environment_changed.to_string())),
                ]
            })
            .collect();
        (!rows.is_empty()).then(|| Table {
            id: "changes".into(),
            caption: fill(t.caption, &[("main", w.changes_heading), ("note", w.changes_caption)]),
            headers: vec![
                t.condition.into(),
                w.between_header.into(),
                w.ratio_header.into(),
                t.p_header.into(),
                w.held_header.into(),
                w.direction_header.into(),
            ],
            rows,
        })
    }

    /// Per condition, each measurement's median of its runs, headed by the measurement's number
    /// and name.
    fn medians_table(&self) -> Table {
        let (t, w, r) = (self.t, self.w, self.report);
        let rows = r
            .conditions
            .iter()
            .map(|c| {
                let mut row = vec![Cell::text(self.label(c))];
                row.extend(r.measurements.iter().map(|m| {
                    let median = c.measurements.iter().find(|runs| runs.number == m.number);
                    Cell::number(median.map_or_else(|| "–".into(), |runs| format::metric_value_at(r.headline, None, runs.median)))
                }));
                row
            })
            .collect();
        let mut headers = vec![t.condition.to_string()];
        headers.extend(
            r.measurements.iter().map(|m| fill(w.median_header, &[("number", &m.number.to_string()), ("name", &measurement_name(m))])),
        );
        Table {
            id: "medians".into(),
            caption: fill(
                t.caption,
                &[
                    ("main", w.medians_heading),
                    (
                        "note",
                        &fill(
                            w.medians_caption,
                            // The count the summary's sentence gives, so the page names one threshold.
                            &[("metric", &self.metric_label()), ("needed", &(2 * r.thresholds.min_segment).to_string())],
                        ),
                    ),
                ],
            ),
            headers,
            rows,
        }
    }

    /// The links to the site's comparisons between two of the measurements, newest first.
    fn comparisons(&self) -> Vec<KeyValue> {
        let Some(site) = self.site else { return Vec::new() };
        let mut links: Vec<KeyValue> = site
            .compared_with
            .iter()
            .enumerate()
            .filter_map(|(i, baseline)| Some((i, (*baseline)?)))
            .filter_map(|(i, before)| {
                let segment = site.datasets.get(i)?;
                Some(KeyValue {
                    label: fill(self.w.comparison_link, &[("after", &(i + 1).to_string()), ("before", &before.to_string())]),
                    value: String::new(),
                    href: Some(format!("../../../{segment}/compare/{}/index.html", self.lang.code())),
                })
            })
            .collect();
        links.reverse();
        links
    }

    fn measurements_table(&self) -> Table {
        let (t, w) = (self.t, self.w);
        let rows = self
            .report
            .measurements
            .iter()
            .map(|m| {
                let mut dataset = Cell::text(m.title.get(self.lang));
                dataset.sub = Some(m.dataset.clone());
                dataset.href = measurement_href(self.site, m.number, self.lang, 0);
                vec![
                    Cell::number(m.number.to_string()),
                    dataset,
                    Cell::text(m.measured.clone().unwrap_or_else(|| "–".into())),
                    Cell::text(m.revision.clone().unwrap_or_else(|| "–".into())),
                    Cell::number(format::count(m.ok_runs as u64)),
                ]
            })
            .collect();
        Table {
            id: "measurements".into(),
            caption: fill(t.caption, &[("main", w.measurements_heading), ("note", w.measurements_caption)]),
            headers: vec![
                w.number_header.into(),
                w.dataset_header.into(),
                w.measured_header.into(),
                w.revision_header.into(),
                w.runs_header.into(),
            ],
            rows,
        }
    }

    fn notes(&self) -> Vec<String> {
        let (r, w) = (self.report, self.w);
        let th = &r.thresholds;
        let rule = match th.test {
            HistoryTest::NormalMeans => fill(
                w.rule_normal,
                &[
                    ("draws", &format::count(th.permutations)),
                    ("shuffled_from", &format::count(th.shuffled_from as u64)),
                    ("q", &format::percent(th.fdr_q)),
                    ("cut_off", &format::p_value(th.cut_off)),
                    ("min", &th.min_segment.to_string()),
                    ("needed", &format::count(th.min_measurements as u64)),
                ],
            ),
            HistoryTest::Shuffled => {
                fill(w.rule, &[("shuffles", &self.shuffles()), ("q", &format::percent(th.fdr_q)), ("min", &th.min_segment.to_string())])
            }
        };
        let mut notes = vec![
            rule,
            fill(w.failures_rule, &[("metric", &self.metric_label()), ("margin", &format::percent_round(r.thresholds.error_share))]),
        ];
        notes.extend(self.input_notes());
        if r.summary.too_few && th.test == HistoryTest::Shuffled {
            notes.push(fill(
                w.too_few,
                &[
                    ("n", &format::count(r.measurements.len() as u64)),
                    ("p", &format::p_value(th.smallest_p)),
                    ("needed", &format::count(th.min_measurements as u64)),
                ],
            ));
        }
        notes.extend(self.detectable());
        let untested: Vec<String> = r.conditions.iter().filter(|c| c.p_first.is_none()).map(|c| self.label(c)).collect();
        // With none tested, the summary already says why, for all of them.
        if !untested.is_empty() && self.any_tested() {
            notes.push(fill(
                w.untested,
                &[("n", &(2 * r.thresholds.min_segment).to_string()), ("list", &prose::list(self.lang, &untested))],
            ));
        }
        notes
    }

    fn text_lines(&self) -> Vec<String> {
        let (r, w) = (self.report, self.w);
        let mut lines = Vec::new();
        for c in &r.conditions {
            for change in &c.changes {
                let mut line = fill(
                    w.text_change,
                    &[
                        ("condition", &self.label(c)),
                        ("direction", &self.direction(change)),
                        ("what", &self.what(change)),
                        ("before", &change.before.to_string()),
                        ("before_name", self.dataset_of(change.before)),
                        ("after", &change.after.to_string()),
                        ("after_name", self.dataset_of(change.after)),
                        ("p", &format::p_value(change.p)),
                        ("held", &fill(w.held_cell, &[("n", &format::count(change.persisted_for as u64))])),
                    ],
                );
                if change.environment_changed {
                    line = format!("{line}{}{}", self.t.list_sep, w.environment_changed);
                }
                lines.push(line);
            }
        }
        let unchanged: Vec<String> = r.conditions.iter().filter(|c| c.changes.is_empty()).map(|c| self.label(c)).collect();
        if !unchanged.is_empty() {
            lines.push(fill(w.text_unchanged, &[("list", &prose::list(self.lang, &unchanged))]));
        }
        lines.extend(self.detectable());
        lines.extend(self.input_notes());
        lines
    }

    /// Each tested condition's detectable step, in one sentence (none for a share metric).
    fn detectable(&self) -> Option<String> {
        let (r, w) = (self.report, self.w);
        if r.thresholds.test != HistoryTest::NormalMeans {
            return None;
        }
        let items: Vec<String> = r
            .conditions
            .iter()
            .filter(|c| c.p_first.is_some())
            .map(|c| match c.detectable_step {
                Some(step) => fill(w.detectable_item, &[("condition", &self.label(c)), ("step", &format::factor(step))]),
                None => fill(w.detectable_none, &[("condition", &self.label(c))]),
            })
            .collect();
        (!items.is_empty()).then(|| {
            fill(
                w.detectable,
                &[
                    ("power", &format::percent_round(r.thresholds.detect_power)),
                    ("within", &r.thresholds.detect_within.to_string()),
                    ("list", &prose::list(self.lang, &items)),
                ],
            )
        })
    }

    /// What the page and the terminal say about the input: the datasets given twice, the factors
    /// set aside and the measurements whose requests all failed.
    fn input_notes(&self) -> Vec<String> {
        let (r, w) = (self.report, self.w);
        let mut notes = Vec::new();
        if !r.duplicates.is_empty() {
            let items: Vec<String> =
                r.duplicates.iter().map(|d| fill(w.duplicate_item, &[("given", &d.given), ("same_as", &d.same_as)])).collect();
            notes.push(fill(w.duplicates, &[("list", &prose::list(self.lang, &items))]));
        }
        for s in &r.set_aside {
            let held: Vec<String> = s.held_by.iter().map(ToString::to_string).collect();
            notes.push(fill(w.set_aside, &[("factor", &s.factor), ("level", &s.level), ("list", &prose::list(self.lang, &held))]));
        }
        let failed: Vec<String> = r
            .conditions
            .iter()
            .flat_map(|c| c.all_failed.iter().map(move |&n| (c, n)))
            .map(|(c, n)| {
                fill(w.all_failed_item, &[("condition", &self.label(c)), ("number", &n.to_string()), ("dataset", self.dataset_of(n))])
            })
            .collect();
        if !failed.is_empty() {
            notes.push(fill(w.all_failed, &[("metric", &self.metric_label()), ("list", &prose::list(self.lang, &failed))]));
        }
        notes
    }
}
