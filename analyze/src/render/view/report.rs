//! The report page and its Markdown twin: integrity, the headline table, charts, the write and
//! temp-file tables, every run, and the Methods section.

use super::*;

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

impl<'a> Context<'a> {
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
        let variance = paths::condition_link(root, condition);
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
                let variance = Some(paths::condition_link(root, c));
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
                let variance = Some(paths::condition_link(root, c));
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
}
