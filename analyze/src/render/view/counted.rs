//! What the views say of runs without rows (imported from a tool's summary alone): their counts
//! as the tool counted them (`RunResult::requests_counted`), their headline as the tool printed
//! it (`headline_printed`), each marked as the tool's where it is shown.

use super::*;
use crate::model::Tool;
use crate::render::i18n::counted::{words, CountedWords};
use crate::render::i18n::grammar::plural;
use crate::report::{Counted, PrintedHeadline, PrintedSpread};

impl Context<'_> {
    fn counted_words(&self) -> &'static CountedWords {
        words(self.lang)
    }

    /// One tool by its display name, or "their tools" for several.
    pub fn tools_name(&self, tools: &[String]) -> String {
        match tools {
            [one] => Tool::display_name_of(one).to_string(),
            _ => self.counted_words().their_tools.to_string(),
        }
    }

    /// "3 runs" / "3回".
    fn counted_runs(&self, n: u64) -> String {
        let w = self.counted_words();
        fill(plural(n, w.runs_one, w.runs_many), &[("n", &format::count(n))])
    }

    /// "as wrk counted them", for a count its tool made; `None` for the rows'.
    pub fn counted_by(&self, counted: &Counted) -> Option<String> {
        let tool = counted.tool()?;
        Some(fill(self.counted_words().by_tool, &[("tool", Tool::display_name_of(tool))]))
    }

    /// A run's errors as the run table shows them: the rows', or the tool's marked as such, or
    /// "not known" when its tool cannot count them.
    pub fn run_errors_cell(&self, run: &RunResult) -> Cell {
        let counted = &run.requests_counted;
        match counted.errors {
            Some(errors) => Cell::number(format::count(errors)).with_note(self.counted_by(counted)),
            None => Cell::text(self.counted_words().not_known).with_note(self.counted_by(counted)),
        }
    }

    /// What a printed headline is: "as Artillery printed it" for the headline percentile itself,
    /// "p99 as wrk printed it; no p95 printed" for one standing in for it.
    pub fn printed_note(&self, percentile: &str, tools: &[String]) -> String {
        let w = self.counted_words();
        let tool = self.tools_name(tools);
        if percentile == self.report.percentile.key() {
            fill(w.printed, &[("tool", &tool)])
        } else {
            fill(w.printed_instead, &[("printed", &format!("p{percentile}")), ("tool", &tool), ("p", &self.p_label)])
        }
    }

    /// A run's printed headline in the run table: its value as printed, what it is below it.
    pub fn printed_run_cell(&self, printed: &PrintedHeadline) -> Cell {
        Cell::number(format::printed(printed.value_ms))
            .with_note(Some(self.printed_note(&printed.percentile, std::slice::from_ref(&printed.tool))))
    }

    /// The tool's rank of a run's printed headline: "7,578/7,654", by its rule.
    pub fn printed_rank_cell(&self, printed: &PrintedHeadline) -> Cell {
        match printed.rank {
            Some(rank) => Cell::number(format!("{}/{}", format::count(rank), format::count(printed.ranked)))
                .with_note(Some(fill(self.counted_words().rank_by_tool, &[("tool", Tool::display_name_of(&printed.tool))]))),
            None => Cell::text("–"),
        }
    }

    /// A condition's printed headline in the headline table: median and range as printed, what
    /// they are below them.
    pub fn printed_condition_cell(&self, printed: &PrintedSpread, sub_href: Option<String>) -> Cell {
        let mut cell = self.spread_cell(Some(printed.spread), format::printed, None, sub_href);
        cell.note = Some(self.printed_note(&printed.percentile, &printed.tools));
        cell
    }

    /// Above a failing condition's printed headline: its share of errors.
    pub fn printed_failing_note(&self, condition: usize) -> Option<String> {
        // Only requests: a failed session's share keeps the words of a headline from rows.
        let (share, false) = self.failing_share(condition, self.report.headline)? else { return None };
        Some(fill(self.counted_words().failing_share, &[("share", &self.share_text(share, false))]))
    }

    /// "p99 6.53 ms" and "as wrk printed it; no p95 printed": a printed headline in running
    /// text, and what it is.
    pub fn printed_parts(&self, percentile: &str, value: f64, tools: &[String]) -> (String, String) {
        let w = self.counted_words();
        let tool = self.tools_name(tools);
        let note = if percentile == self.report.percentile.key() {
            fill(w.printed, &[("tool", &tool)])
        } else {
            fill(w.printed_instead_after, &[("tool", &tool), ("p", &self.p_label)])
        };
        (format!("p{percentile} {} ms", format::printed(value)), note)
    }

    /// "p99 6.53 ms (as wrk printed it; no p95 printed)": a printed headline in running text.
    pub fn printed_text(&self, percentile: &str, value: f64, tools: &[String]) -> String {
        let (value, note) = self.printed_parts(percentile, value, tools);
        self.aside(&value, &note)
    }

    /// "wrk: p99 6.53 ms (…), not ranked (only its tool's summary)": a condition of a compared
    /// group that has only a printed headline.
    pub fn not_ranked_text(&self, condition: &str, printed: &PrintedSpread) -> String {
        let value = self.printed_text(&printed.percentile, printed.spread.median, &printed.tools);
        fill(self.counted_words().not_ranked, &[("condition", condition), ("value", &value)])
    }

    /// On the variance page: which conditions it does not review, and why.
    pub fn not_reviewed(&self) -> Option<String> {
        crate::render::i18n::counted::not_reviewed(self.lang, self.report)
    }

    /// The integrity section's requests, 2xx responses and errors as counted: the rows' where
    /// runs have them, the tools' of the runs without, each said as such.
    pub fn counted_integrity(&self) -> (String, String, String) {
        let i = &self.report.integrity;
        let total = &i.requests_counted;
        let t = self.t;
        let w = self.counted_words();
        let items = |n: u64| self.items_count(n);
        let labelled = |label: &str, n: u64| fill(t.label_count, &[("label", label), ("n", &format::count(n))]);
        let rows_breakdown = || vec![labelled(t.non_2xx_label, i.non_2xx), labelled(t.no_response_label, i.no_response)];
        if total.tool_runs == 0 {
            return (items(i.requests), items(i.ok_responses), self.aside(&items(i.errors), &rows_breakdown().join(t.list_sep)));
        }
        let tool = self.tools_name(&total.tools);
        let all_tools = total.by_tools == total.value;
        let requests = if all_tools {
            fill(w.total_all_tools, &[("n", &items(total.value)), ("tool", &tool)])
        } else {
            let runs = self.counted_runs(total.tool_runs);
            fill(w.total_some_tools, &[("n", &items(total.value)), ("m", &items(total.by_tools)), ("tool", &tool), ("runs", &runs)])
        };
        let part = |n: u64| fill(w.counted_part, &[("n", &format::count(n)), ("tool", &tool)]);
        let unknown = (total.errors_unknown_runs > 0)
            .then(|| fill(w.errors_unknown_runs, &[("runs", &self.counted_runs(total.errors_unknown_runs))]));
        let by_tool = fill(w.by_tool, &[("tool", &tool)]);
        let mut ok_parts = vec![if all_tools { by_tool.clone() } else { part(total.ok_by_tools) }];
        ok_parts.extend(unknown.clone());
        let mut error_parts =
            if all_tools { vec![by_tool] } else { rows_breakdown().into_iter().chain([part(total.errors_by_tools)]).collect() };
        error_parts.extend(unknown);
        (
            requests,
            self.aside(&items(total.ok_responses), &ok_parts.join(t.list_sep)),
            self.aside(&items(total.errors), &error_parts.join(t.list_sep)),
        )
    }
}
