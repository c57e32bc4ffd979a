//! View models: the report turned into pre-formatted strings and links for one language.
//! Templates only loop and branch over these; no number is formatted or computed in a template.
//! This module holds the shared pieces; one module per page kind builds that page.

mod compare;
mod counted;
mod figures;
mod hints;
mod history;
mod labels;
mod lead;
mod report;
mod resources;
mod run;
mod sessions;
mod slo;
mod variance;

pub use compare::{
    article_names as compare_article_names, compare_page, figure_path as compare_figure_path, metric_label as compare_metric_label,
    ComparePage, CompareSite, FOREST_PATH as COMPARE_FOREST_PATH,
};
pub use history::{
    draws_charts as history_draws_charts, figure_path as history_figure_path, history_page, measurement_href as history_measurement_href,
    HistoryPage, HistorySite,
};
pub use lead::Lead;
pub use report::ReportPage;
pub use run::RunPage;
pub use variance::{ConditionSection, VariancePage};

use super::format;
use super::i18n::{fill, metric_words, prose, strings, MetricWords, Strings};
use super::paths;
use crate::model::{HeadlineMetric, Lang, RunStatus};
use crate::report::review::FlagKind;
use crate::report::Spread;
use crate::report::{ConditionResult, Report, RunResult};
use serde::Serialize;

/// A metric's value as the tables and charts print it: its one home is [`format`].
pub use super::format::{metric_number_at, metric_value_at};

/// A table cell: text, an optional link, and an optional second line (the range).
#[derive(Debug, Clone, Serialize, Default)]
pub struct Cell {
    /// A line above the value: the shares a reader weighs it by (seed 003 read the failed share
    /// first), or, for a condition that fails, what the value leaves out.
    pub before: Option<String>,
    /// The condition fails (its errors lie above `thresholds.error_share`): `before` says so.
    pub failing: bool,
    pub text: String,
    pub href: Option<String>,
    pub sub: Option<String>,
    pub sub_href: Option<String>,
    /// A third line: the mean of the runs beside their median and range.
    pub note: Option<String>,
    /// Right-align numbers.
    pub numeric: bool,
    /// An id for links to this cell (the run table's rows).
    pub anchor: Option<String>,
    /// The language of its text when it is not the page's (plan.toml's `title.ja` on the English
    /// page), so the browser breaks its lines by that language's rules.
    pub lang: Option<&'static str>,
    /// Literal text of no language (a file a plan writes, such as a server's config): shown as code.
    pub code: bool,
    /// A sentence, not a value: a phone's card gives it the card's whole width under its label.
    pub prose: bool,
}

impl Cell {
    pub fn text(text: impl Into<String>) -> Cell {
        Cell { text: text.into(), ..Cell::default() }
    }

    /// A sentence of evidence or explanation ([`Cell::prose`]).
    pub fn prose(text: impl Into<String>) -> Cell {
        Cell { text: text.into(), prose: true, ..Cell::default() }
    }

    pub fn number(text: impl Into<String>) -> Cell {
        Cell { text: text.into(), numeric: true, ..Cell::default() }
    }

    pub fn link(mut self, href: impl Into<String>) -> Cell {
        self.href = Some(href.into());
        self
    }

    pub fn with_note(mut self, note: Option<String>) -> Cell {
        self.note = note;
        self
    }
}

/// Any table: a caption, header cells, and rows whose first cell is a row header.
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub id: String,
    pub caption: String,
    pub headers: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Figure {
    /// Relative to the page.
    pub src: String,
    pub alt: String,
    /// The width it was drawn at, for a figure drawn the house's full width: on a phone it keeps
    /// that width and scrolls sideways, so its text stays at the size it was drawn (12 CSS px and
    /// up), where scaled to the screen it would be 6 px. `None`: drawn narrow, it scales.
    pub wide_px: Option<u32>,
}

#[derive(Debug, Clone, Serialize)]
pub struct KeyValue {
    pub label: String,
    pub value: String,
    pub href: Option<String>,
}

/// One section of a page: its anchor, heading, table and the notes under it, drawn the same way
/// by every page (`macros.html`'s `section`). A section file's entry (`slo::section`) gives one,
/// or `None` when the report has nothing for it.
#[derive(Debug, Clone, Serialize)]
pub struct Section {
    pub id: &'static str,
    pub heading: String,
    pub table: Table,
    pub notes: Vec<String>,
}

/// The dataset's README as a page of the report: its Markdown rendered (raw HTML shown as text).
#[derive(Debug, Clone, Serialize)]
pub struct ReadmePage {
    pub lang: &'static str,
    pub t: &'static Strings,
    pub nav: Nav,
    pub title: String,
    /// The README's heading: its title, and "(English)" when the page's language has none.
    pub readme_title: String,
    /// The language the README is written in: the page's, or English when it has none.
    pub readme_lang: &'static str,
    pub html: String,
}

/// "needs ≥ 3,688 requests", in the language of `t`.
pub fn needs_text(t: &Strings, requests: u64) -> String {
    fill(t.needs, &[("n", &format::count(requests))])
}

impl Context<'_> {
    /// What a percentile the requests do not resolve needs: "needs ≥ 3,688 requests"
    /// (`stats::resolvable` decides, the run and condition results carry it).
    pub fn needs(&self, requests: u64) -> String {
        needs_text(self.t, requests)
    }

    pub fn readme_page(&self) -> Option<ReadmePage> {
        let (readme, own_language) = self.readme_text()?;
        let untranslated = if own_language { "" } else { self.t.readme_untranslated };
        Some(ReadmePage {
            lang: self.lang.code(),
            t: self.t,
            nav: self.nav("", paths::README_PAGE),
            title: format!("{} – {}{untranslated}", self.report.dataset.title.get(self.lang), self.t.readme_title),
            readme_title: format!("{}{untranslated}", self.t.readme_title),
            readme_lang: if own_language { self.lang.code() } else { Lang::En.code() },
            html: super::markdown::markdown_to_html(readme, self.t.table_n, self.t.scroll_cue),
        })
    }

    /// The README in the page's language (README.ja.md for Japanese) when the dataset has one,
    /// else the English README.md; and whether it is in the page's language.
    pub fn readme_text(&self) -> Option<(&str, bool)> {
        let own = match self.lang {
            Lang::En => self.report.readme.as_deref(),
            Lang::Ja => self.report.readme_ja.as_deref(),
        };
        match own {
            Some(text) => Some((text, true)),
            None => self.report.readme.as_deref().map(|text| (text, false)),
        }
    }
}

/// Links every page of one report shares.
#[derive(Debug, Clone, Serialize)]
pub struct Nav {
    /// From the page to the report folder ("" or "../").
    pub root: String,
    pub other_lang_href: Option<String>,
    pub home_href: Option<String>,
}

/// Everything a language's pages need, computed once.
pub struct Context<'a> {
    pub report: &'a Report,
    pub lang: Lang,
    pub t: &'static Strings,
    pub slugs: Vec<String>,
    pub p_label: String,
    /// The words of the metric conditions are compared by, and its name ("p95", "requests/s").
    pub metric: &'static MetricWords,
    pub headline_label: String,
    /// Whether the report lives in a site with an index one level up and a sibling language.
    pub in_site: bool,
    /// Per run (report order), the indices of its flags in the variance review, found once.
    pub run_flags: Vec<Vec<usize>>,
    /// The notes more than one run carries, in the order of their first run, found once: the run
    /// table names each by its number and lists it once below (a 300-character tool note on 55
    /// rows made a page 11,000 px long).
    pub shared_notes: Vec<&'a crate::model::Note>,
    /// The dataset's comparison with the baseline its dataset.toml names, for its article.
    pub comparison: Option<&'a crate::report::compare::ComparisonReport>,
    /// Which figures the report and each run have, decided once.
    pub figures: crate::render::figures::FigurePlan,
}

impl<'a> Context<'a> {
    pub fn new(report: &'a Report, lang: Lang, in_site: bool) -> Self {
        let p_label = format!("p{}", report.percentile);
        let metric = metric_words(lang, report.headline);
        let headline_label = fill(metric.label, &[("p", &p_label)]);
        let mut run_flags = vec![Vec::new(); report.runs.len()];
        for (f, flag) in report.variance.flags.iter().enumerate() {
            if let Some(run) = report.run_index(&flag.run_id) {
                run_flags[run].push(f);
            }
        }
        let mut note_counts: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for run in &report.runs {
            *note_counts.entry(run.note.as_str()).or_default() += 1;
        }
        let mut listed = std::collections::HashSet::new();
        let shared_notes: Vec<&crate::model::Note> = report
            .runs
            .iter()
            .map(|run| &run.note)
            .filter(|note| !note.is_empty() && note_counts[note.as_str()] > 1 && listed.insert(note.as_str()))
            .collect();
        Context {
            report,
            lang,
            t: strings(lang),
            slugs: paths::run_slugs(report),
            p_label,
            metric,
            headline_label,
            in_site,
            run_flags,
            shared_notes,
            comparison: None,
            figures: crate::render::figures::FigurePlan::new(report),
        }
    }

    /// Whether the run table is split into pages ([`paths::RUNS_PER_PAGE`]).
    pub fn runs_paged(&self) -> bool {
        self.report.runs.len() > paths::RUNS_PER_PAGE
    }

    /// Where a run's row of the run table is, from a page `root` away from the report folder:
    /// on the report page, or on its page of the run list.
    pub fn run_row_href(&self, root: &str, run: usize) -> String {
        let page = if self.runs_paged() { paths::run_list_page(run / paths::RUNS_PER_PAGE + 1) } else { "index.html".to_string() };
        format!("{root}{page}#run-{}", self.slugs[run])
    }

    /// The links of the page at `page` (relative to the report folder, as [`paths`] names it),
    /// `root` away from the report folder: its language switch leads to the same page in the
    /// other language (a run's page to that run's page), not to the other report's index.
    fn nav(&self, root: &str, page: &str) -> Nav {
        let other = match self.lang {
            Lang::En => Lang::Ja,
            Lang::Ja => Lang::En,
        };
        Nav {
            root: root.to_string(),
            other_lang_href: self.in_site.then(|| format!("{root}../{}/{page}", other.code())),
            home_href: self.in_site.then(|| format!("{root}../../{}", paths::site_index(self.lang))),
        }
    }

    fn fill(&self, template: &str) -> String {
        fill(template, &[("p", &self.p_label)])
    }

    /// A sentence about the metric conditions are compared by: `{p}` is its name, `{unit}` its
    /// unit in parentheses (empty when the values carry their own).
    fn fill_headline(&self, template: &str) -> String {
        fill(template, &[("p", &self.headline_label), ("unit", self.metric.unit)])
    }

    /// A headline value as the tables print it: ms, requests/s to a tenth, an error rate in %.
    pub fn headline_number(&self, value: f64) -> String {
        self.metric_number(self.report.headline, None, value)
    }

    /// A headline value of one condition, at the digits its values are known to.
    pub fn headline_number_of(&self, condition: usize, value: f64) -> String {
        self.metric_number(self.report.headline, Some(condition), value)
    }

    /// A headline value with its unit in running text: "12.00 ms", "769.2", "0.25%".
    pub fn headline_value(&self, value: f64) -> String {
        self.metric_value(self.report.headline, None, value)
    }

    /// The same for one condition's value.
    pub fn headline_value_of(&self, condition: usize, value: f64) -> String {
        self.metric_value(self.report.headline, Some(condition), value)
    }

    /// A value of any metric as the tables print it: request latencies in ms at the digits the
    /// condition's rows give them (whole ms for ab), else two decimals; a mean session time in ms;
    /// requests/s as the tool printed them when every run of the condition takes the tool's
    /// figure, else to a tenth; an error rate in % to a hundredth, a share of failed sessions to a
    /// tenth (as seed 003 printed it).
    pub fn metric_number(&self, metric: HeadlineMetric, condition: Option<usize>, value: f64) -> String {
        let condition = condition.and_then(|c| self.report.conditions.get(c));
        let decimals = match metric {
            HeadlineMetric::Percentile => condition.and_then(|c| c.latency_decimals),
            HeadlineMetric::RequestsPerS => condition.and_then(|c| c.printed_rate_decimals),
            _ => None,
        };
        metric_number_at(metric, decimals, value)
    }

    /// A value of any metric with its unit in running text: "12.00 ms", "769.2", "64.9%".
    pub fn metric_value(&self, metric: HeadlineMetric, condition: Option<usize>, value: f64) -> String {
        let number = self.metric_number(metric, condition, value);
        if metric.is_time() {
            format!("{number} ms")
        } else {
            number
        }
    }

    /// A condition's request latencies (ms) as they are known: `52` for ab's whole milliseconds.
    pub fn condition_ms(&self, condition: usize) -> impl Fn(f64) -> String {
        let decimals = self.report.conditions.get(condition).and_then(|c| c.latency_decimals);
        move |value| format::ms_at(value, decimals)
    }

    /// A run's request latencies (ms) as they are known.
    pub fn run_ms(&self, run: &RunResult) -> impl Fn(f64) -> String {
        let decimals = run.latency_decimals;
        move |value| format::ms_at(value, decimals)
    }

    /// A column header with the headline metric's unit: "A (ms)", "A (requests/s)".
    pub fn in_headline_unit(&self, name: &str) -> String {
        fill(self.metric.in_unit, &[("name", name)])
    }

    /// "direct · sync · 2": the labels of a condition's levels in factor order.
    pub fn condition_label(&self, condition: &ConditionResult) -> String {
        prose::condition_label(self.lang, self.report, &condition.levels)
    }

    pub fn levels_label(&self, levels: &[usize], factors: &[usize]) -> String {
        prose::levels_label(self.lang, self.report, levels, factors)
    }

    /// A series (layout row) label from the levels of the series factors.
    pub fn row_label(&self, row_levels: &[usize]) -> String {
        let layout = &self.report.layout;
        let parts: Vec<String> = layout
            .series_factors
            .iter()
            .zip(row_levels)
            .map(|(&f, &l)| self.report.factors[f].levels[l].label.get(self.lang).to_string())
            .collect();
        // One row with no factor of its own: it holds the headline's values, so it is named by
        // them ("p95 (ms)"), not "Runs", which would read the values as counts.
        if parts.is_empty() {
            fill(self.metric.in_unit, &[("name", &self.headline_label)])
        } else {
            parts.join(self.t.label_join)
        }
    }

    fn run_href(&self, root: &str, run_index: usize) -> String {
        format!("{root}{}", paths::run_page(&self.slugs[run_index]))
    }

    fn run_index(&self, run_id: &str) -> Option<usize> {
        self.report.run_index(run_id)
    }

    fn spread_cell(&self, spread: Option<Spread>, text: impl Fn(f64) -> String, href: Option<String>, sub_href: Option<String>) -> Cell {
        match spread {
            None => Cell::text("–"),
            Some(s) => Cell {
                text: text(s.median),
                href,
                sub: Some(if s.n == 1 { "n = 1".to_string() } else { self.range_text(&text(s.min), &text(s.max)) }),
                sub_href,
                numeric: true,
                ..Cell::default()
            },
        }
    }

    fn status_text(&self, status: RunStatus) -> &'static str {
        prose::status_word(self.lang, status)
    }

    /// "69th of 72" / "72件中69番目".
    pub fn rank_text(&self, rank: u64, n: u64) -> String {
        prose::rank_of(self.lang, rank, n)
    }

    /// A range of two formatted values: "1.5–1.9" in English, "1.5〜1.9" in Japanese.
    pub fn range_text(&self, low: &str, high: &str) -> String {
        format!("{low}{}{high}", self.t.range_dash)
    }

    /// "13 (12 ok, 1 excluded)" / "13（ok 12回、除外1回）": a value with a note in parentheses.
    pub fn aside(&self, main: &str, note: &str) -> String {
        fill(self.t.aside, &[("main", main), ("note", note)])
    }

    /// A table's caption: its title and what it shows.
    pub fn caption(&self, title: &str, note: &str) -> String {
        fill(self.t.caption, &[("main", title), ("note", note)])
    }

    /// A number of runs: "30" / "30回".
    pub fn runs_count(&self, n: u64) -> String {
        fill(self.t.runs_count, &[("n", &format::count(n))])
    }

    /// A number of requests or responses: "2,160" / "2,160件".
    pub fn items_count(&self, n: u64) -> String {
        fill(self.t.items_count, &[("n", &format::count(n))])
    }

    /// A column header with its unit: "p95 (ms)" / "p95（ms）".
    pub fn in_ms(&self, name: &str) -> String {
        fill(self.t.in_ms, &[("name", name)])
    }

    /// A list of words: "p99 and p99.9", "p99、p99.9".
    pub fn list(&self, items: &[String]) -> String {
        prose::list(self.lang, items)
    }

    /// A condition's label by the factors whose levels differ among a table's conditions (the
    /// table's label says what they share); every factor when nothing differs.
    pub fn label_within(&self, table: &crate::report::PublishedTableResult, row: usize) -> String {
        let conditions: Vec<&ConditionResult> = table.rows.iter().map(|r| &self.report.conditions[r.condition]).collect();
        let differing: Vec<usize> =
            (0..self.report.factors.len()).filter(|&f| conditions.iter().any(|c| c.levels[f] != conditions[0].levels[f])).collect();
        let condition = conditions[row];
        if differing.is_empty() {
            self.condition_label(condition)
        } else {
            self.levels_label(&condition.levels, &differing)
        }
    }

    fn x_label(&self) -> String {
        self.report.layout.x_factor.map_or_else(String::new, |x| self.report.factors[x].label.get(self.lang).to_string())
    }

    /// Whether any run is an open loop, whose requests are the probe rather than the load.
    pub fn has_probe(&self) -> bool {
        self.report.runs.iter().any(|r| r.load == crate::model::LoadKind::OpenLoop)
    }

    /// "Probe requests" for a dataset with an open-loop probe, else "Requests".
    pub fn requests_label(&self) -> &'static str {
        if self.has_probe() {
            self.t.probe_requests_label
        } else {
            self.t.requests_label
        }
    }

    /// A flag's reason in words; its values at the digits of the run's condition.
    pub fn flag_text(&self, run_id: &str, kind: &FlagKind) -> String {
        let run = self.run_index(run_id).map(|i| &self.report.runs[i]);
        let condition = run.map(|r| r.condition);
        let reason = prose::flag_reason(self.lang, kind, &self.headline_label, &|v| self.metric_value(self.report.headline, condition, v));
        // A run without rows was flagged on its tool's counts: said so.
        match run.and_then(|r| self.counted_by(&r.requests_counted)) {
            Some(by) if matches!(kind, FlagKind::Errors { .. }) => self.aside(&reason, &by),
            _ => reason,
        }
    }
}
