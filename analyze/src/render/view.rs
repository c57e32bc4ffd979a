//! View models: the report turned into pre-formatted strings and links for one language.
//! Templates only loop and branch over these; no number is formatted or computed in a template.

use super::format;
use super::i18n::{strings, Strings};
use super::paths;
use crate::dataset::{Lang, RunStatus};
use crate::report::{ConditionResult, Report, RunResult};
use crate::stats::summary::Spread;
use crate::stats::variance::{FlagKind, MIN_RUNS_FOR_INTERVAL};
use serde::Serialize;

/// A table cell: text, an optional link, and an optional second line (the range).
#[derive(Debug, Clone, Serialize, Default)]
pub struct Cell {
    pub text: String,
    pub href: Option<String>,
    pub sub: Option<String>,
    pub sub_href: Option<String>,
    /// Right-align numbers.
    pub numeric: bool,
    /// An id for links to this cell (the run table's rows).
    pub anchor: Option<String>,
}

impl Cell {
    pub fn text(text: impl Into<String>) -> Cell {
        Cell { text: text.into(), ..Cell::default() }
    }

    pub fn number(text: impl Into<String>) -> Cell {
        Cell { text: text.into(), numeric: true, ..Cell::default() }
    }

    pub fn link(mut self, href: impl Into<String>) -> Cell {
        self.href = Some(href.into());
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
}

#[derive(Debug, Clone, Serialize)]
pub struct KeyValue {
    pub label: String,
    pub value: String,
    pub href: Option<String>,
}

/// Links every page of one report shares.
#[derive(Debug, Clone, Serialize)]
pub struct Nav {
    /// From the page to the report folder ("" or "../").
    pub root: String,
    pub other_lang_href: Option<String>,
    pub home_href: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ReportPage {
    pub lang: &'static str,
    pub t: &'static Strings,
    pub nav: Nav,
    pub title: String,
    pub description: Option<String>,
    pub measured: Option<String>,
    pub p_label: String,
    pub integrity: Vec<KeyValue>,
    pub headline: Table,
    pub figures: Vec<Figure>,
    pub large: Option<Table>,
    pub tempfiles: Option<Table>,
    pub runs: Table,
    pub methods: Vec<String>,
    pub environment: Vec<KeyValue>,
    /// The author's article, rendered: HTML for the HTML page, Markdown for the twin.
    pub article: Option<String>,
}

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

#[derive(Debug, Clone, Serialize)]
pub struct RunPage {
    pub lang: &'static str,
    pub t: &'static Strings,
    pub nav: Nav,
    pub title: String,
    pub run_id: String,
    pub anchor: String,
    pub facts: Vec<KeyValue>,
    pub percentiles: Table,
    pub figures: Vec<Figure>,
    pub flags: Vec<String>,
    pub resources: Option<Table>,
    /// Each large response of the run, ordered by write time.
    pub large: Option<Table>,
}

/// Everything a language's pages need, computed once.
pub struct Context<'a> {
    pub report: &'a Report,
    pub lang: Lang,
    pub t: &'static Strings,
    pub slugs: Vec<String>,
    pub p_label: String,
    /// Whether the report lives in a site with an index one level up and a sibling language.
    pub in_site: bool,
}

impl<'a> Context<'a> {
    pub fn new(report: &'a Report, lang: Lang, in_site: bool) -> Self {
        Context { report, lang, t: strings(lang), slugs: paths::run_slugs(report), p_label: format!("p{}", report.percentile), in_site }
    }

    fn nav(&self, root: &str) -> Nav {
        let other = match self.lang {
            Lang::En => Lang::Ja,
            Lang::Ja => Lang::En,
        };
        Nav {
            root: root.to_string(),
            other_lang_href: self.in_site.then(|| format!("{root}../{}/index.html", other.code())),
            home_href: self.in_site.then(|| format!("{root}../../index.html")),
        }
    }

    fn fill(&self, template: &str) -> String {
        template.replace("{p}", &self.p_label)
    }

    /// "direct · sync · 2": the labels of a condition's levels in factor order.
    pub fn condition_label(&self, condition: &ConditionResult) -> String {
        self.levels_label(&condition.levels, &(0..self.report.factors.len()).collect::<Vec<_>>())
    }

    fn levels_label(&self, levels: &[usize], factors: &[usize]) -> String {
        let parts: Vec<String> =
            factors.iter().map(|&f| self.report.factors[f].levels[levels[f]].label.get(self.lang).to_string()).collect();
        if parts.is_empty() {
            "-".to_string()
        } else {
            parts.join(" · ")
        }
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
        if parts.is_empty() {
            self.t.runs_label.to_string()
        } else {
            parts.join(" · ")
        }
    }

    fn run_href(&self, root: &str, run_index: usize) -> String {
        format!("{root}{}", paths::run_page(&self.slugs[run_index]))
    }

    fn run_index(&self, run_id: &str) -> Option<usize> {
        self.report.runs.iter().position(|r| r.run_id == run_id)
    }

    fn spread_cell(&self, spread: Option<Spread>, text: impl Fn(f64) -> String, href: Option<String>, sub_href: Option<String>) -> Cell {
        match spread {
            None => Cell::text("–"),
            Some(s) => Cell {
                text: text(s.median),
                href,
                sub: Some(if s.n == 1 { "n = 1".to_string() } else { format!("{}–{}", text(s.min), text(s.max)) }),
                sub_href,
                numeric: true,
                anchor: None,
            },
        }
    }

    fn status_text(&self, status: RunStatus) -> &'static str {
        match (status, self.lang) {
            (RunStatus::Ok, _) => "ok",
            (RunStatus::Aborted, Lang::En) => "aborted",
            (RunStatus::Excluded, Lang::En) => "excluded",
            (RunStatus::Aborted, Lang::Ja) => "中断",
            (RunStatus::Excluded, Lang::Ja) => "除外",
        }
    }

    /// "69th of 72" / "72件中69番目".
    pub fn rank_text(&self, rank: u64, n: u64) -> String {
        match self.lang {
            Lang::En => format!("{} of {}", format::ordinal_en(rank), format::count(n)),
            Lang::Ja => format!("{}件中{}番目", format::count(n), format::count(rank)),
        }
    }

    fn x_label(&self) -> String {
        self.report.layout.x_factor.map_or_else(String::new, |x| self.report.factors[x].label.get(self.lang).to_string())
    }

    /// The headline table: rows are series, columns the x factor's levels.
    pub fn headline_table(&self, root: &str) -> Table {
        let report = self.report;
        let mut headers = vec![self.series_header()];
        match report.layout.x_factor {
            Some(x) => headers.extend(report.factors[x].levels.iter().map(|l| format!("{} = {}", self.x_label(), l.label.get(self.lang)))),
            None => headers.push(self.p_label.clone()),
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
        Table {
            id: "headline".into(),
            caption: format!("{} ({})", self.t.headline_table, self.fill(self.t.headline_caption)),
            headers,
            rows,
        }
    }

    fn series_header(&self) -> String {
        let names: Vec<String> =
            self.report.layout.series_factors.iter().map(|&f| self.report.factors[f].label.get(self.lang).to_string()).collect();
        if names.is_empty() {
            self.t.condition.to_string()
        } else {
            names.join(" · ")
        }
    }

    fn headline_cell(&self, root: &str, condition: usize) -> Cell {
        let c = &self.report.conditions[condition];
        let representative = c.representative_run.as_deref().and_then(|id| self.run_index(id)).map(|i| self.run_href(root, i));
        let variance = format!("{root}variance.html#{}", paths::condition_anchor(condition));
        self.spread_cell(c.headline_ms, format::ms, representative, Some(variance))
    }

    pub fn integrity(&self) -> Vec<KeyValue> {
        let i = &self.report.integrity;
        let t = self.t;
        let kv = |label: &str, value: String| KeyValue { label: label.to_string(), value, href: None };
        let statuses: Vec<String> = i
            .runs_by_status
            .iter()
            .filter(|(_, &n)| n > 0)
            .map(|(s, n)| {
                format!(
                    "{} {}",
                    format::count(*n),
                    self.status_text(match s.as_str() {
                        "ok" => RunStatus::Ok,
                        "aborted" => RunStatus::Aborted,
                        _ => RunStatus::Excluded,
                    })
                )
            })
            .collect();
        let mut out = vec![
            kv(t.runs_label, format!("{} ({})", format::count(i.runs), statuses.join(", "))),
            kv(t.requests_label, format::count(i.requests)),
            kv(t.ok_responses_label, format::count(i.ok_responses)),
            kv(
                t.errors_label,
                format!(
                    "{} ({}: {}, {}: {})",
                    format::count(i.errors),
                    t.non_2xx_label,
                    format::count(i.non_2xx),
                    t.no_response_label,
                    format::count(i.no_response),
                ),
            ),
        ];
        if i.large_responses > 0 {
            out.push(kv(t.large_responses_label, format::count(i.large_responses)));
            let expected = i
                .expected_large_response_bytes
                .map(|b| format!(" ({})", t.expected_bytes.replace("{bytes}", &format::count(b))))
                .unwrap_or_default();
            out.push(kv(t.incomplete_label, format!("{}{expected}", format::count(i.incomplete_large_responses))));
        }
        if let (Some(lag), Some(run)) = (i.max_lag_ms, &i.max_lag_run) {
            let href = self.run_index(run).map(|r| self.run_href("", r));
            out.push(KeyValue { label: t.max_lag_label.to_string(), value: format!("{} ms ({run})", format::ms(lag)), href });
        }
        out
    }

    fn conditions_with<F: Fn(&ConditionResult) -> bool>(&self, keep: F) -> Vec<usize> {
        (0..self.report.conditions.len()).filter(|&c| keep(&self.report.conditions[c])).collect()
    }

    pub fn large_table(&self, root: &str) -> Option<Table> {
        let rows: Vec<Vec<Cell>> = self
            .conditions_with(|c| c.write_s.is_some() || c.complete_s.is_some())
            .into_iter()
            .map(|c| {
                let condition = &self.report.conditions[c];
                let variance = Some(format!("{root}variance.html#{}", paths::condition_anchor(c)));
                vec![
                    Cell::text(self.condition_label(condition)),
                    self.spread_cell(condition.write_s, format::seconds, variance.clone(), variance.clone()),
                    self.spread_cell(condition.complete_s, format::seconds, variance.clone(), variance),
                ]
            })
            .collect();
        (!rows.is_empty()).then(|| Table {
            id: "large-responses".into(),
            caption: format!("{} ({})", self.t.large_table, self.t.large_caption),
            headers: vec![self.t.condition.into(), self.t.write_s.into(), self.t.complete_s.into()],
            rows,
        })
    }

    pub fn tempfile_table(&self, root: &str) -> Option<Table> {
        let rows: Vec<Vec<Cell>> = self
            .conditions_with(|c| c.tempfile_peak_bytes.is_some())
            .into_iter()
            .map(|c| {
                let condition = &self.report.conditions[c];
                let variance = Some(format!("{root}variance.html#{}", paths::condition_anchor(c)));
                vec![
                    Cell::text(self.condition_label(condition)),
                    self.spread_cell(condition.tempfile_peak_bytes, format::mib, variance.clone(), variance),
                ]
            })
            .collect();
        (!rows.is_empty()).then(|| Table {
            id: "tempfiles".into(),
            caption: format!("{} ({})", self.t.tempfile_table, self.t.tempfile_caption),
            headers: vec![self.t.condition.into(), self.t.tempfile_peak.into()],
            rows,
        })
    }

    pub fn run_table(&self, root: &str) -> Table {
        let t = self.t;
        let rows = self
            .report
            .runs
            .iter()
            .enumerate()
            .map(|(i, run)| {
                let condition = &self.report.conditions[run.condition];
                vec![
                    Cell {
                        text: run.run_id.clone(),
                        href: Some(self.run_href(root, i)),
                        anchor: Some(format!("run-{}", self.slugs[i])),
                        ..Cell::default()
                    },
                    Cell::text(self.condition_label(condition)),
                    Cell::number(run.repetition.to_string()),
                    Cell::text(self.status_text(run.status)),
                    run.headline_ms.map_or_else(|| Cell::text("–"), |v| Cell::number(format::ms(v)).link(self.run_href(root, i))),
                    match (run.headline_rank, run.ok_responses) {
                        (Some(rank), n) => Cell::number(format!("{}/{}", format::count(rank), format::count(n))),
                        _ => Cell::text("–"),
                    },
                    Cell::number(format::count(run.errors)),
                    run.max_lag_ms.map_or_else(|| Cell::text("–"), |v| Cell::number(format::ms(v))),
                    Cell::text(run.note.clone()),
                ]
            })
            .collect();
        Table {
            id: "runs".into(),
            caption: format!("{} ({})", t.run_table, self.fill(t.run_caption)),
            headers: vec![
                t.run.into(),
                t.condition.into(),
                t.repetition.into(),
                t.status.into(),
                format!("{} (ms)", self.p_label),
                t.rank.into(),
                t.errors_label.into(),
                t.lag.into(),
                t.note.into(),
            ],
            rows,
        }
    }

    /// The Methods paragraphs, stating the actual n and ranks.
    pub fn methods(&self) -> Vec<String> {
        let report = self.report;
        let p = report.percentile;
        let ok: Vec<&RunResult> = report.runs.iter().filter(|r| r.status == RunStatus::Ok && r.headline_rank.is_some()).collect();
        let n_min = ok.iter().map(|r| r.ok_responses).min();
        let n_max = ok.iter().map(|r| r.ok_responses).max();
        let runs_per: Vec<usize> = report.conditions.iter().filter_map(|c| c.headline_ms.map(|s| s.n)).collect();
        let runs_min = runs_per.iter().min().copied().unwrap_or(0);
        let runs_max = runs_per.iter().max().copied().unwrap_or(0);
        let per_condition = if runs_min == runs_max { format::count(runs_min as u64) } else { format!("{}–{}", runs_min, runs_max) };
        let example = match (n_min, n_max) {
            (Some(a), Some(b)) if a == b => match self.lang {
                Lang::En => {
                    format!("every run had n = {}, so {} is the {} value", format::count(a), self.p_label, format::ordinal_en(p.rank(a)))
                }
                Lang::Ja => {
                    format!("各測定の件数は n = {} なので、{}は{}番目の値です", format::count(a), self.p_label, format::count(p.rank(a)))
                }
            },
            (Some(a), Some(b)) => match self.lang {
                Lang::En => format!(
                    "n ranged from {} to {}, so the rank ranged from the {} to the {}",
                    format::count(a),
                    format::count(b),
                    format::ordinal_en(p.rank(a)),
                    format::ordinal_en(p.rank(b))
                ),
                Lang::Ja => format!(
                    "件数は n = {}〜{} なので、順位は{}〜{}番目です",
                    format::count(a),
                    format::count(b),
                    format::count(p.rank(a)),
                    format::count(p.rank(b))
                ),
            },
            _ => String::new(),
        };
        match self.lang {
            Lang::En => vec![
                format!("Per run, the latencies of the 2xx responses are sorted ascending and {} is the nearest-rank percentile: the value at rank ceil({} × n / 100), computed exactly in integers ({example}). Requests with a non-2xx status or no response are counted as errors, not ranked.", self.p_label, p),
                format!("Per condition (one combination of factor levels), the table shows the median of its ok runs' {} ({} runs per condition; the mean of the middle two for an even count) and the min-max range. The representative run is the one whose value is that median (the lower middle for an even count); the charts of a single run show it.", self.p_label, per_condition),
                "Large responses: per run, the median of its responses' server write time and client completion time; per condition, the median of those run medians with the min-max range. Temp files: per run, the peak of the sampled logical bytes. CPU: CPU seconds used between the first and last samples over the sampled time, in % of one core.".to_string(),
                "Only runs with status ok enter the statistics; aborted and excluded runs are listed with their notes. Schedule lag is sent time minus scheduled time of an open-loop probe.".to_string(),
            ],
            Lang::Ja => vec![
                format!("各測定で2xx応答の応答時間を短い順に並べ、{}は順位 ceil({} × n / 100) の値（最近接順位法、整数で厳密に計算）としました（{example}）。2xx以外の応答や応答のない要求はエラーとして数え、順位には含めません。", self.p_label, p),
                format!("条件（要素の水準の組み合わせ）ごとに、状態がokの測定の{}の中央値（1条件{}回。偶数個なら中央2つの平均）と最小〜最大の範囲を示します。代表の測定は値がその中央値になる測定（偶数個なら小さい方の中央）で、1回分のグラフはこの測定を表示します。", self.p_label, per_condition),
                "大きな応答：各測定内で応答ごとのアプリの書き込み時間と受信側の完了時間の中央値を取り、条件ごとにその中央値と最小〜最大の範囲を示します。一時ファイル：各測定で標本化した論理サイズの最大値。CPU：最初と最後の標本の間に使ったCPU秒を標本の時間幅で割った、1コアに対する%です。".to_string(),
                "状態がokの測定だけを集計に使い、中断・除外した測定は備考とともに一覧に載せます。送信の遅れは、オープンループの計測要求の実際の送信時刻から予定時刻を引いた値です。".to_string(),
            ],
        }
    }

    pub fn environment(&self) -> Vec<KeyValue> {
        self.report.dataset.environment.iter().map(|(k, v)| KeyValue { label: k.clone(), value: v.clone(), href: None }).collect()
    }

    pub fn report_figures(&self, root: &str) -> Vec<Figure> {
        let t = self.t;
        let mut figures = vec![Figure {
            src: format!("{root}{}", paths::HEADLINE_FIGURE),
            alt: match self.lang {
                Lang::En => format!("{} by condition: median of the runs with the min-max range, log scale", self.p_label),
                Lang::Ja => format!("条件別の{}：測定の中央値と最小〜最大の範囲（対数軸）", self.p_label),
            },
        }];
        if let Some(run) = self.representative_of_largest() {
            figures.push(Figure {
                src: format!("{root}{}", paths::time_series_figure(&self.slugs[run])),
                alt: match self.lang {
                    Lang::En => format!(
                        "Latency over time of run {} (the representative run of the slowest condition), log scale",
                        self.report.runs[run].run_id
                    ),
                    Lang::Ja => format!("測定{}（最も遅い条件の代表の測定）の応答時間の推移（対数軸）", self.report.runs[run].run_id),
                },
            });
        }
        if self.report.conditions.iter().any(|c| c.write_s.is_some()) {
            figures.push(Figure { src: format!("{root}{}", paths::LARGE_FIGURE), alt: format!("{}: {}", t.large_table, t.large_caption) });
        }
        if self.report.conditions.iter().any(|c| c.tempfile_peak_bytes.is_some_and(|s| s.max > 0.0)) {
            figures.push(Figure { src: format!("{root}{}", paths::TEMPFILE_FIGURE), alt: t.tempfile_table.to_string() });
        }
        figures
    }

    /// The representative run of the condition with the largest median: the run the report's
    /// time-series chart shows.
    pub fn representative_of_largest(&self) -> Option<usize> {
        self.report
            .conditions
            .iter()
            .filter(|c| c.headline_ms.is_some())
            .max_by(|a, b| a.headline_ms.map(|s| s.median).unwrap_or(0.0).total_cmp(&b.headline_ms.map(|s| s.median).unwrap_or(0.0)))
            .and_then(|c| c.representative_run.as_deref())
            .and_then(|id| self.run_index(id))
    }

    /// The runs whose temp-file series the report's temp-file chart shows: each condition's
    /// representative run, where it has samples.
    pub fn tempfile_runs(&self) -> Vec<usize> {
        self.report
            .conditions
            .iter()
            .filter(|c| c.tempfile_peak_bytes.is_some_and(|s| s.max > 0.0))
            .filter_map(|c| c.representative_run.as_deref().and_then(|id| self.run_index(id)))
            .collect()
    }

    pub fn report_page(&self, article: Option<String>) -> ReportPage {
        let report = self.report;
        ReportPage {
            lang: self.lang.code(),
            t: self.t,
            nav: self.nav(""),
            title: report.dataset.title.get(self.lang).to_string(),
            description: report.dataset.description.as_ref().map(|d| d.get(self.lang).to_string()),
            measured: report.dataset.measured.clone(),
            p_label: self.p_label.clone(),
            integrity: self.integrity(),
            headline: self.headline_table(""),
            figures: self.report_figures(""),
            large: self.large_table(""),
            tempfiles: self.tempfile_table(""),
            runs: self.run_table(""),
            methods: self.methods(),
            environment: self.environment(),
            article,
        }
    }

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
                headers: vec![
                    t.comparisons.into(),
                    "A (ms)".into(),
                    "B (ms)".into(),
                    format!("{} (B / A)", t.median_ratio),
                    t.verdict.into(),
                ],
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

    /// A flag's reason in words, with its numbers.
    pub fn flag_text(&self, kind: &FlagKind) -> String {
        match (kind, self.lang) {
            (FlagKind::Errors { count, requests }, Lang::En) => {
                format!("{} of {} requests got no 2xx response", format::count(*count), format::count(*requests))
            }
            (FlagKind::Errors { count, requests }, Lang::Ja) => {
                format!("{}件中{}件の要求が2xx応答を得られなかった", format::count(*requests), format::count(*count))
            }
            (FlagKind::IncompleteLargeResponses { count }, Lang::En) => {
                format!("{} large response(s) did not deliver the expected bytes", format::count(*count))
            }
            (FlagKind::IncompleteLargeResponses { count }, Lang::Ja) => {
                format!("大きな応答{}件が予定のバイト数を受信できなかった", format::count(*count))
            }
            (FlagKind::ScheduleLag { max_lag_ms, threshold_ms }, Lang::En) => format!(
                "the probe was sent up to {} ms late (threshold {} ms): the load generator, not the server, may have limited it",
                format::ms(*max_lag_ms),
                format::ms(*threshold_ms)
            ),
            (FlagKind::ScheduleLag { max_lag_ms, threshold_ms }, Lang::Ja) => format!(
                "計測要求の送信が最大{} ms遅れた（閾値{} ms）：サーバーではなく負荷生成側が律速した可能性がある",
                format::ms(*max_lag_ms),
                format::ms(*threshold_ms)
            ),
            (FlagKind::HostLoad { load1, threshold }, Lang::En) => {
                format!("the host's load average was {} (threshold {})", format::decimal(*load1, 2), format::decimal(*threshold, 2))
            }
            (FlagKind::HostLoad { load1, threshold }, Lang::Ja) => {
                format!("ホストの負荷平均が{}だった（閾値{}）", format::decimal(*load1, 2), format::decimal(*threshold, 2))
            }
            (FlagKind::Outlier { value_ms, median_ms, factor }, Lang::En) => format!(
                "{} = {} ms is {} away from its condition's median {} ms",
                self.p_label,
                format::ms(*value_ms),
                format::ratio(*factor),
                format::ms(*median_ms)
            ),
            (FlagKind::Outlier { value_ms, median_ms, factor }, Lang::Ja) => format!(
                "{} = {} msが条件の中央値{} msから{}離れている",
                self.p_label,
                format::ms(*value_ms),
                format::ms(*median_ms),
                format::ratio(*factor)
            ),
            (FlagKind::Aborted { note }, Lang::En) => format!("aborted: {}", if note.is_empty() { "no note" } else { note }),
            (FlagKind::Aborted { note }, Lang::Ja) => format!("中断：{}", if note.is_empty() { "備考なし" } else { note }),
            (FlagKind::Excluded { note }, Lang::En) => format!("excluded: {}", if note.is_empty() { "no note" } else { note }),
            (FlagKind::Excluded { note }, Lang::Ja) => format!("除外：{}", if note.is_empty() { "備考なし" } else { note }),
        }
    }

    pub fn run_page(&self, run_index: usize) -> RunPage {
        let report = self.report;
        let run = &report.runs[run_index];
        let t = self.t;
        let root = "../";
        let condition = &report.conditions[run.condition];
        let kv = |label: &str, value: String| KeyValue { label: label.to_string(), value, href: None };
        let mut facts = vec![
            KeyValue {
                label: t.condition.into(),
                value: self.condition_label(condition),
                href: Some(format!("{root}variance.html#{}", paths::condition_anchor(run.condition))),
            },
            kv(t.repetition, run.repetition.to_string()),
            kv(
                t.status,
                format!("{}{}", self.status_text(run.status), if run.note.is_empty() { String::new() } else { format!(" ({})", run.note) }),
            ),
            kv(t.requests_label, format::count(run.requests)),
            kv(t.ok_responses_label, format::count(run.ok_responses)),
            kv(t.errors_label, format::count(run.errors)),
        ];
        if let (Some(value), Some(rank)) = (run.headline_ms, run.headline_rank) {
            facts.push(KeyValue {
                label: self.p_label.clone(),
                value: format!("{} = {} ms", self.rank_text(rank, run.ok_responses), format::ms(value)),
                href: Some(format!("{root}index.html#run-{}", self.slugs[run_index])),
            });
        }
        if !run.statuses.is_empty() {
            facts.push(kv(
                t.statuses,
                run.statuses.iter().map(|(s, n)| format!("{s}: {}", format::count(*n))).collect::<Vec<_>>().join(", "),
            ));
        }
        if let Some(lag) = run.max_lag_ms {
            facts.push(kv(t.lag, format::ms(lag)));
        }
        if run.large_responses > 0 {
            facts.push(kv(
                t.large_responses_label,
                format!(
                    "{} ({} {})",
                    format::count(run.large_responses),
                    format::count(run.incomplete_large_responses),
                    t.incomplete_label
                ),
            ));
        }
        if let Some(w) = run.write_s_median {
            facts.push(kv(t.write_s, format::seconds(w)));
        }
        if let Some(c) = run.complete_s_median {
            facts.push(kv(t.complete_s, format::seconds(c)));
        }
        if let Some(peak) = run.tempfile_peak_bytes {
            facts.push(kv(t.tempfile_peak, format::mib(peak as f64)));
        }
        if run.load1_before.is_some() || run.load1_after.is_some() {
            let show = |v: Option<f64>| v.map(|v| format::decimal(v, 2)).unwrap_or_else(|| "–".into());
            facts.push(kv(t.load_before_after, format!("{} / {}", show(run.load1_before), show(run.load1_after))));
        }
        let percentiles = Table {
            id: "percentiles".into(),
            caption: t.percentiles.to_string(),
            headers: vec![t.percentile.into(), format!("{} (ms)", t.value), t.rank.into()],
            rows: run
                .percentiles_ms
                .iter()
                .map(|(key, value)| {
                    let rank = run.percentile_ranks.get(key).copied().unwrap_or(0);
                    vec![
                        Cell::text(format!("p{key}")),
                        Cell::number(format::ms(*value)),
                        Cell::number(self.rank_text(rank, run.ok_responses)),
                    ]
                })
                .collect(),
        };
        let slug = &self.slugs[run_index];
        let mut figures = Vec::new();
        if run.ok_responses > 0 {
            figures.push(Figure {
                src: format!("{root}{}", paths::ecdf_figure(slug)),
                alt: match self.lang {
                    Lang::En => format!("Sorted latencies of run {} (ECDF, log scale) with the {} rank marked", run.run_id, self.p_label),
                    Lang::Ja => format!("測定{}の応答時間を並べた累積分布（対数軸）と{}の順位", run.run_id, self.p_label),
                },
            });
            figures.push(Figure {
                src: format!("{root}{}", paths::time_series_figure(slug)),
                alt: match self.lang {
                    Lang::En => format!("Latency over time of run {}, log scale", run.run_id),
                    Lang::Ja => format!("測定{}の応答時間の推移（対数軸）", run.run_id),
                },
            });
        }
        if report.figures.resources.get(run_index).is_some_and(|r| !r.is_empty()) {
            figures.push(Figure {
                src: format!("{root}{}", paths::resources_figure(slug)),
                alt: match self.lang {
                    Lang::En => format!("CPU and RSS of the server processes during run {}", run.run_id),
                    Lang::Ja => format!("測定{}中のサーバープロセスのCPUとRSS", run.run_id),
                },
            });
        }
        if report.figures.tempfiles.get(run_index).is_some_and(|series| !series.is_empty()) {
            figures.push(Figure {
                src: format!("{root}{}", paths::run_tempfile_figure(slug)),
                alt: match self.lang {
                    Lang::En => format!("Temp-file logical size of the reverse proxy over time during run {}", run.run_id),
                    Lang::Ja => format!("測定{}中のリバースプロキシの一時ファイルの論理サイズの推移", run.run_id),
                },
            });
        }
        let large_rows: Vec<Vec<Cell>> = report
            .figures
            .large_responses
            .get(run_index)
            .map(|responses| {
                responses
                    .iter()
                    .enumerate()
                    .map(|(i, (write_s, complete_s))| {
                        vec![
                            Cell::text(format!("#{}", i + 1)),
                            Cell::number(format::seconds(*write_s)),
                            complete_s.map_or_else(|| Cell::text("–"), |c| Cell::number(format::seconds(c))),
                        ]
                    })
                    .collect()
            })
            .unwrap_or_default();
        let large = (!large_rows.is_empty()).then(|| Table {
            id: "large-responses".into(),
            caption: t.large_table.to_string(),
            headers: vec![t.large_responses_label.into(), t.write_s.into(), t.complete_s.into()],
            rows: large_rows,
        });
        let resources = (!run.resources.is_empty()).then(|| Table {
            id: "resources".into(),
            caption: format!("{} / {}", t.cpu_avg, t.rss_peak),
            headers: vec![t.process.into(), t.cpu_avg.into(), t.rss_peak.into()],
            rows: run
                .resources
                .iter()
                .map(|p| {
                    vec![
                        Cell::text(p.process.clone()),
                        p.avg_cpu_percent.map_or_else(|| Cell::text("–"), |c| Cell::number(format::decimal(c, 1))),
                        Cell::number(format::mib(p.peak_rss_bytes as f64)),
                    ]
                })
                .collect(),
        });
        let flags = report.variance.flags.iter().filter(|f| f.run_id == run.run_id).map(|f| self.flag_text(&f.kind)).collect();
        RunPage {
            lang: self.lang.code(),
            t,
            nav: self.nav(root),
            title: format!("{} {} – {}", t.run_page, run.run_id, report.dataset.title.get(self.lang)),
            run_id: run.run_id.clone(),
            anchor: format!("run-{slug}"),
            facts,
            percentiles,
            figures,
            flags,
            resources,
            large,
        }
    }
}
