//! One page per run: its facts, percentiles with ranks, charts, large responses and resources.

use super::*;
use crate::model::Rule;
use crate::model::SendTimes;
use crate::report::ToolReported;

#[derive(Debug, Clone, Serialize)]
pub struct RunPage {
    pub lang: &'static str,
    pub t: RunWords,
    pub nav: Nav,
    pub title: String,
    pub run_id: String,
    pub anchor: String,
    /// The run's row in the run table (the report page, or its page of the run list).
    pub back_href: String,
    pub facts: Vec<KeyValue>,
    pub percentiles: Table,
    /// Under the percentiles of an open loop: how latency from the intended send compares.
    pub intended_note: Option<String>,
    /// Under the percentiles of a run whose rows cannot place the failures its tool counted (ab
    /// -g): they rank every completed request, and its errors are the tool's count.
    pub unplaced_note: Option<String>,
    /// The run's requests per label, when the runs mix labels.
    pub labels_heading: &'static str,
    pub labels: Option<Table>,
    /// The run's requests per label as its tool printed them (a run without rows: Locust).
    pub tool_labels_heading: &'static str,
    pub tool_labels: Option<Table>,
    pub tool_labels_notes: Vec<String>,
    /// An imported run: the tool's numbers beside ours, and what explains a difference.
    pub tool: Option<ToolSection>,
    pub figures: Vec<Figure>,
    /// In place of the charts of a run with one 2xx response: its latency in words.
    pub figures_note: Option<String>,
    pub flags: Vec<String>,
    pub resources: Option<Table>,
    /// The run's session times, when the dataset has sessions.
    pub sessions: Option<Table>,
    /// Each large response of the run, ordered by write time.
    pub large: Option<Table>,
}

/// The words of [`Strings`] that the run page's templates read (`page.t.…`: run.html, base.html
/// and the macros it calls), and only those. A run page is rendered once per run, and the template
/// engine copies its whole context, and every macro argument, into values of its own: the whole
/// table of 400 words took a quarter of the instructions of a one-request run's page.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct RunWords {
    pub back_to_report: &'static str,
    pub flags: &'static str,
    pub percentiles: &'static str,
    pub session_time: &'static str,
    pub figures: &'static str,
    pub all_datasets: &'static str,
    pub report: &'static str,
    pub link_sep: &'static str,
    pub variance: &'static str,
    pub other_lang_link: &'static str,
    pub lang_name: &'static str,
    pub scroll_cue: &'static str,
    pub chart_scroll_cue: &'static str,
}

impl RunWords {
    fn of(t: &'static Strings) -> RunWords {
        RunWords {
            back_to_report: t.back_to_report,
            flags: t.flags,
            percentiles: t.percentiles,
            session_time: t.session_time,
            figures: t.figures,
            all_datasets: t.all_datasets,
            report: t.report,
            link_sep: t.link_sep,
            variance: t.variance,
            other_lang_link: t.other_lang_link,
            lang_name: t.lang_name,
            scroll_cue: t.scroll_cue,
            chart_scroll_cue: t.chart_scroll_cue,
        }
    }
}

/// The run page's section on a tool's own numbers.
#[derive(Debug, Clone, Serialize)]
pub struct ToolSection {
    pub heading: String,
    pub table: Table,
    pub notes: Vec<String>,
}

impl<'a> Context<'a> {
    fn tool_section(&self, run: &crate::report::RunResult) -> Option<ToolSection> {
        let r = run.tool_reported.as_ref()?;
        let w = crate::render::i18n::tool_words(self.lang);
        let tool = if r.tool.is_empty() { w.unnamed_tool } else { crate::model::Tool::display_name_of(&r.tool) };
        let tool_fill = |text: &str| fill(text, &[("tool", tool), ("rule", crate::render::i18n::rule_text(r.rule, self.lang))]);
        let rank = |ranks: &std::collections::BTreeMap<String, u64>, key: &str, n: u64| {
            ranks.get(key).map_or_else(|| Cell::text("–"), |&k| Cell::number(self.rank_text(k, n)))
        };
        // The tool's numbers as it printed them; ours at the digits of the run's rows.
        let ours = self.run_ms(run);
        let mut rows: Vec<Vec<Cell>> = crate::model::by_level(&r.percentiles_ms)
            .into_iter()
            .map(|(key, value)| {
                vec![
                    Cell::text(format!("p{key}")),
                    Cell::number(format::printed(*value)),
                    rank(&r.ranks, key, r.ranked),
                    r.nearest_rank_ms.get(key).map_or_else(|| Cell::text("–"), |v| Cell::number(ours(*v))),
                    rank(&r.nearest_ranks, key, run.ok_responses),
                ]
            })
            .collect();
        for (label, value) in w.min_mean_max.into_iter().zip([r.latency_ms.min, r.latency_ms.mean, r.latency_ms.max]) {
            if let Some(v) = value {
                rows.push(vec![Cell::text(label), Cell::number(format::printed(v)), Cell::text("–"), Cell::text("–"), Cell::text("–")]);
            }
        }
        let mut notes = vec![tool_fill(w.explains)];
        if run.requests == 0 {
            notes.push(tool_fill(w.no_rows));
        } else if !r.nearest_rank_ms.is_empty() {
            let causes = self.difference_causes(r, &tool_fill);
            let same = r.nearest_rank_ms.iter().all(|(k, v)| r.percentiles_ms.get(k) == Some(v));
            match (same, causes.is_empty()) {
                (true, _) => notes.push(tool_fill(w.same)),
                (false, true) => notes.push(tool_fill(w.differs)),
                (false, false) => notes.extend(causes),
            }
        }
        notes.extend(self.rate_difference(run, r, &tool_fill));
        let mut printed = Vec::new();
        if let Some(rate) = r.requests_per_s {
            printed.push(prose::labelled(self.lang, w.requests_per_s, &format::rate(rate, Some(2))));
        }
        match r.errors {
            Some(errors) => printed.push(prose::labelled(
                self.lang,
                t_errors(self),
                &format!("{} / {}", format::count(errors), format::count(r.requests)),
            )),
            None => printed.push(prose::labelled(self.lang, self.t.requests_label, &format::count(r.requests))),
        }
        notes.push(fill(&tool_fill(w.printed_note), &[("list", &self.list(&printed))]));
        Some(ToolSection {
            heading: w.section.to_string(),
            table: Table {
                id: "tool-numbers".into(),
                caption: tool_fill(w.section),
                headers: vec![
                    self.t.percentile.into(),
                    tool_fill(w.tool_value),
                    tool_fill(w.tool_rank),
                    w.nearest_value.into(),
                    w.nearest_rank.into(),
                ],
                rows,
            },
            notes,
        })
    }

    /// One sentence per cause of a difference between the tool's percentiles and ours: another
    /// rank, rounded times, times at another resolution, interpolation or an estimate.
    fn difference_causes(&self, r: &ToolReported, tool_fill: &dyn Fn(&str) -> String) -> Vec<String> {
        let w = crate::render::i18n::tool_words(self.lang);
        let differs = |key: &str| r.nearest_rank_ms.get(key).is_some_and(|ours| r.percentiles_ms.get(key) != Some(ours));
        let keys: Vec<&String> = crate::model::by_level(&r.percentiles_ms).into_iter().map(|(k, _)| k).filter(|k| differs(k)).collect();
        let mut causes = Vec::new();
        match r.rule {
            Rule::Interpolated => {
                for key in &keys {
                    let (Some(i), Some(theirs)) = (r.interpolations.get(*key), r.percentiles_ms.get(*key)) else { continue };
                    // The tool prints to a microsecond: agreeing to that is agreeing.
                    let verdict = if (i.value_ms - theirs).abs() < 0.000_5 {
                        tool_fill(w.interpolated_agrees)
                    } else {
                        fill(&tool_fill(w.interpolated_differs), &[("theirs", &format::ms(*theirs))])
                    };
                    causes.push(fill(
                        &tool_fill(w.interpolated_cause),
                        &[
                            ("p", &format!("p{key}")),
                            ("fraction", &format::decimal(i.fraction, 2)),
                            ("lower", &prose::rank_ordinal(self.lang, i.lower_rank)),
                            ("lower_ms", &format::ms(i.lower_ms)),
                            ("upper", &prose::rank_ordinal(self.lang, i.upper_rank)),
                            ("upper_ms", &format::ms(i.upper_ms)),
                            ("value", &format::ms(i.value_ms)),
                            ("verdict", &verdict),
                        ],
                    ));
                }
            }
            Rule::Approximate | Rule::DdSketch => {
                if !keys.is_empty() {
                    causes.push(tool_fill(w.approximate_cause));
                }
            }
            _ => {
                let rank_of = |key: &str| (r.ranks.get(key).copied(), r.nearest_ranks.get(key).copied());
                let other_rank: Vec<String> = keys
                    .iter()
                    .filter_map(|k| match rank_of(k) {
                        (Some(theirs), Some(ours)) if theirs != ours => Some(fill(
                            w.rank_cause_item,
                            &[
                                ("p", &format!("p{k}")),
                                ("theirs", &self.rank_text(theirs, r.ranked)),
                                ("ours", &prose::rank_ordinal(self.lang, ours)),
                            ],
                        )),
                        _ => None,
                    })
                    .collect();
                if !other_rank.is_empty() {
                    causes.push(fill(&tool_fill(w.rank_cause), &[("list", &self.list(&other_rank))]));
                }
                let same_rank: Vec<String> = keys
                    .iter()
                    .filter(|k| matches!(rank_of(k), (Some(theirs), Some(ours)) if theirs == ours))
                    .map(|k| format!("p{k}"))
                    .collect();
                if !same_rank.is_empty() {
                    let why = if matches!(r.rule, Rule::RoundedBuckets | Rule::HdrHistogram | Rule::HdrHistogramRounded) {
                        w.rounded_cause
                    } else {
                        w.resolution_cause
                    };
                    causes.push(fill(&tool_fill(why), &[("list", &self.list(&same_rank))]));
                }
            }
        }
        causes
    }

    /// The tool's requests/s beside the rows', with why they differ, when they do.
    fn rate_difference(&self, run: &RunResult, r: &ToolReported, tool_fill: &dyn Fn(&str) -> String) -> Option<String> {
        let w = crate::render::i18n::tool_words(self.lang);
        let (theirs, ours) = (r.requests_per_s?, r.rows_requests_per_s?);
        let (tool_span, rows_span) = (r.tool_span_s?, r.rows_span_s?);
        if !r.rates_differ {
            return None;
        }
        let mut text = fill(
            &tool_fill(w.rate_compared),
            &[
                ("theirs", &format::rate(theirs, Some(2))),
                ("requests", &format::count(r.requests)),
                ("tool_span", &format::seconds(tool_span)),
                ("ours", &format::rate(ours, None)),
                ("responses", &format::count(run.requests - run.no_response)),
                ("rows_span", &format::seconds(rows_span)),
            ],
        );
        let send_times =
            run.source.as_ref().and_then(|s| crate::model::Format::from_name(&s.format)).map_or(SendTimes::Recorded, |f| f.send_times());
        let why = match send_times {
            SendTimes::WholeSeconds => {
                fill(&tool_fill(w.sends_whole_seconds), &[("diff", &format::seconds((rows_span - tool_span).abs()))])
            }
            SendTimes::Missing => tool_fill(w.sends_missing),
            SendTimes::Recorded => tool_fill(w.sends_recorded),
        };
        text.push_str(self.t.sentence_gap);
        text.push_str(&why);
        Some(text)
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
                href: Some(paths::condition_link(root, run.condition)),
            },
            kv(t.repetition, run.repetition.to_string()),
            kv(t.started, if run.started_at_utc.is_empty() { t.start_not_recorded.to_string() } else { run.started_at_utc.clone() }),
            kv(
                t.status,
                if run.note.is_empty() {
                    self.status_text(run.status).to_string()
                } else {
                    self.aside(self.status_text(run.status), &crate::render::i18n::notes::note_text(&run.note, self.lang))
                },
            ),
        ];
        let w = crate::render::i18n::tool_words(self.lang);
        let requests_label = if run.load == crate::model::LoadKind::OpenLoop { t.probe_requests_label } else { t.requests_label };
        let counted = &run.requests_counted;
        match counted.tool() {
            // Imported from a summary alone: no row was counted here, so the counts are the
            // tool's, said as such (not "0 requests" beside the tool's error rate).
            Some(tool) => {
                let name = crate::model::Tool::display_name_of(tool);
                let by_tool = |value: String| self.aside(&value, &fill(w.counted_by_tool_short, &[("tool", name)]));
                let requests = self.aside(&self.items_count(counted.value), &fill(w.counted_by_tool, &[("tool", name)]));
                facts.push(kv(requests_label, requests));
                match (counted.ok_responses(), counted.errors) {
                    (Some(ok), Some(errors)) => {
                        facts.push(kv(t.ok_responses_label, by_tool(self.items_count(ok))));
                        facts.push(kv(t.errors_label, by_tool(self.items_count(errors))));
                    }
                    _ => facts.push(kv(t.errors_label, fill(w.errors_not_counted, &[("tool", name)]))),
                }
            }
            None => match (counted.unplaced(), counted.ok_responses(), counted.errors) {
                // Rows that do not say which requests failed: the 2xx and errors are the tool's.
                (Some(tool), Some(ok), Some(errors)) => {
                    let by = fill(self.counted_words().unplaced_by, &[("tool", crate::model::Tool::display_name_of(tool))]);
                    facts.push(kv(requests_label, self.items_count(run.requests)));
                    facts.push(kv(t.ok_responses_label, self.aside(&self.items_count(ok), &by)));
                    facts.push(kv(t.errors_label, self.aside(&self.items_count(errors), &by)));
                }
                _ => {
                    facts.push(kv(requests_label, self.items_count(run.requests)));
                    facts.push(kv(t.ok_responses_label, self.items_count(run.ok_responses)));
                    facts.push(kv(t.errors_label, self.items_count(run.errors)));
                }
            },
        }
        if let Some(source) = &run.source {
            let files: Vec<String> =
                source.files.iter().map(|f| format!("{} ({}, sha256 {}…)", f.file, f.format, &f.sha256[..12])).collect();
            let version = if source.version.is_empty() { String::new() } else { format!(" {}", source.version) };
            facts.push(kv(w.imported_from, format!("{}{version}: {}", source.tool, files.join(", "))));
        }
        // The tool's figures as it printed them: its rate for "tool" and "tool-coarse", its mean
        // only for "tool" (else the rows' mean).
        let rate_from_tool = run.throughput_from.is_some_and(|f| f.starts_with("tool"));
        let mean_from_tool = run.throughput_from == Some("tool");
        if let Some(rate) = run.requests_per_s {
            let value = if rate_from_tool { format::rate_printed(rate) } else { format::rate(rate, None) };
            let value = if rate_from_tool {
                self.aside(
                    &value,
                    &fill(
                        w.printed_by_tool,
                        &[("tool", run.source.as_ref().map_or(w.unnamed_tool, |s| crate::model::Tool::display_name_of(&s.tool)))],
                    ),
                )
            } else {
                value
            };
            facts.push(kv(w.requests_per_s, value));
        }
        if let Some(withheld) = &run.rate_withheld {
            let why = match (withheld.send_step_ms, withheld.span_s) {
                (Some(step), Some(span)) => {
                    fill(w.rate_withheld, &[("step", &format::duration_ms(step)), ("span", &format::seconds(span))])
                }
                _ => w.rate_withheld_no_sends.to_string(),
            };
            facts.push(kv(w.requests_per_s, why));
        }
        if let Some(rate) = run.error_rate {
            facts.push(kv(w.error_rate, format::percent_fine(rate)));
        }
        if let Some(mean) = run.mean_ms {
            facts.push(kv(w.mean_ms, if mean_from_tool { format::printed(mean) } else { format::ms(mean) }));
        }
        let ms = self.run_ms(run);
        if let (Some(value), Some(rank)) = (run.headline_ms, run.headline_rank) {
            facts.push(KeyValue {
                label: self.p_label.clone(),
                value: format!("{} = {} ms", self.rank_text(rank, run.ok_responses), ms(value)),
                href: Some(self.run_row_href(root, run_index)),
            });
        } else if let Some(printed) = &run.headline_printed {
            facts.push(KeyValue {
                label: self.p_label.clone(),
                value: self.printed_text(&printed.percentile, printed.value_ms, std::slice::from_ref(&printed.tool)),
                href: Some(self.run_row_href(root, run_index)),
            });
        }
        if let Some(tool) = run.requests_counted.unplaced() {
            // The rows' 200s are the import's, not the server's answers.
            let tool = crate::model::Tool::display_name_of(tool);
            facts.push(kv(t.statuses, fill(self.counted_words().unplaced_statuses, &[("tool", tool)])));
        } else if !run.statuses.is_empty() {
            facts.push(kv(
                t.statuses,
                run.statuses.iter().map(|(s, n)| format!("{s}{}{}", t.colon, self.items_count(*n))).collect::<Vec<_>>().join(t.list_sep),
            ));
        }
        if let Some(lag) = run.max_lag_ms {
            facts.push(kv(t.lag, format::ms(lag)));
        }
        match run.load {
            crate::model::LoadKind::ClosedLoop if run.requests > 0 => facts.push(kv(t.intended_label, t.intended_none_closed.into())),
            crate::model::LoadKind::Sessions => facts.push(kv(t.intended_label, t.intended_none_sessions.into())),
            _ => {}
        }
        if let Some(sessions) = &run.sessions {
            facts.extend(self.session_facts(sessions));
        }
        if run.large_responses > 0 {
            facts.push(kv(
                t.large_responses_label,
                self.aside(
                    &self.items_count(run.large_responses),
                    &fill(t.incomplete_count, &[("n", &format::count(run.incomplete_large_responses))]),
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
            headers: [t.percentile.into(), self.in_ms(t.value), t.rank.into()]
                .into_iter()
                .chain(run.from_intended_ms.as_ref().map(|_| self.in_ms(t.from_intended)))
                .collect(),
            rows: run
                .percentiles_ms
                .iter()
                .map(|(key, value)| {
                    let rank = run.percentile_ranks.get(key).copied().unwrap_or(0);
                    // The last rank is the run's slowest response: say so, not just "72nd of 72".
                    let rank_text = if rank == run.ok_responses {
                        format!("{}{}", self.rank_text(rank, run.ok_responses), t.maximum_tag)
                    } else {
                        self.rank_text(rank, run.ok_responses)
                    };
                    // A value the run's requests do not resolve says what it would need.
                    let value_text = match run.unresolved_percentiles.get(key) {
                        Some(&n) if rank == run.ok_responses => fill(t.equals_max_needs, &[("needs", &self.needs(n))]),
                        Some(&n) => fill(t.value_needs, &[("value", &ms(*value)), ("needs", &self.needs(n))]),
                        None => ms(*value),
                    };
                    let mut row = vec![Cell::text(format!("p{key}")), Cell::number(value_text), Cell::number(rank_text)];
                    if let Some(intended) = &run.from_intended_ms {
                        row.push(intended.get(key).map_or_else(|| Cell::text("–"), |v| Cell::number(ms(*v))));
                    }
                    row
                })
                .collect(),
        };
        let intended_note = self.intended_note(run);
        let figures: Vec<Figure> = self.figures.run(run_index).iter().map(|&f| self.figure(f, root)).collect();
        // One response: its value in words, not two charts of one point.
        let figures_note = (run.ok_responses == 1).then(|| self.one_response_note(run)).flatten();
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
        let flags = self.run_flags[run_index].iter().map(|&f| self.flag_text(&run.run_id, &report.variance.flags[f].kind)).collect();
        RunPage {
            lang: self.lang.code(),
            t: RunWords::of(t),
            nav: self.nav(root, &paths::run_page(&self.slugs[run_index])),
            title: format!("{} – {}", prose::run_title(self.lang, &run.run_id), report.dataset.title.get(self.lang)),
            run_id: run.run_id.clone(),
            anchor: format!("run-{}", self.slugs[run_index]),
            back_href: self.run_row_href(root, run_index),
            facts,
            percentiles,
            intended_note,
            unplaced_note: self.unplaced_ranked_note(run),
            labels_heading: crate::render::i18n::labels::words(self.lang).heading,
            labels: self.run_labels_table(run),
            tool_labels_heading: crate::render::i18n::labels::words(self.lang).tool_heading,
            tool_labels: self.run_tool_labels_table(run),
            tool_labels_notes: self.tool_labels_notes(&[run]),
            tool: self.tool_section(run),
            figures,
            figures_note,
            flags,
            resources,
            sessions: run.sessions.as_ref().and_then(|s| self.session_time_table(s)),
            large,
        }
    }
}

fn t_errors(context: &Context) -> &'static str {
    context.t.errors_label
}

impl Context<'_> {
    /// "This run has one 2xx response (1.00 ms): …": what stands where its charts would.
    fn one_response_note(&self, run: &RunResult) -> Option<String> {
        let value = run.max_ms?;
        Some(fill(crate::render::i18n::charts::labels(self.lang).one_response_run, &[("value", &self.run_ms(run)(value))]))
    }

    /// How an open loop's latency from the intended send compares with its service latency:
    /// the percentile where they part most (`RunResult::intended_gap`), or that they agree.
    fn intended_note(&self, run: &crate::report::RunResult) -> Option<String> {
        let t = self.t;
        run.from_intended_ms.as_ref()?;
        let thresholds = &self.report.variance.thresholds;
        let lag = format::ms(run.max_lag_ms.unwrap_or(0.0));
        Some(match &run.intended_gap {
            Some(gap) => {
                let at_max = run.percentile_ranks.get(&gap.key) == Some(&run.ok_responses);
                let p = format!("p{}{}", gap.key, if at_max { t.maximum_tag } else { "" });
                let template = if gap.intended_ms > gap.service_ms { t.intended_gap_later } else { t.intended_gap_other };
                fill(
                    template,
                    &[("p", &p), ("intended", &format::ms(gap.intended_ms)), ("service", &format::ms(gap.service_ms)), ("lag", &lag)],
                )
            }
            None => fill(
                t.intended_same,
                &[
                    ("threshold", &format::threshold_percent(thresholds.negligible_difference)),
                    ("floor", &format::ms(thresholds.noisy_lag_floor_ms)),
                    ("lag", &lag),
                ],
            ),
        })
    }
}
