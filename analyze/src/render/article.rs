//! The author's article (`article.md`, `article.ja.md`): Markdown whose tera expressions cite
//! computed results by name, e.g. `{{ conditions["route=direct,downloads=2,worker=sync"].p95.median }}`.
//! Every value is a pre-formatted string; a name that does not exist is an error naming the file
//! and line, never an empty string. The names are documented in report-templates/README.md.
//!
//! Articles render in a sandbox (`sandbox.rs`), and every cited value is dataset text escaped as
//! Markdown (`markdown.rs`), so a factor value written as a link stays text.

use super::format;
use super::markdown;
use super::sandbox;
use super::view::Context;
use crate::report::Report;
use crate::report::Spread;
use serde_json::{json, Map, Value};

/// The article could not be rendered (its one home is the sandbox that renders it).
pub use super::sandbox::ArticleError;

fn spread(spread: Option<Spread>, text: fn(f64) -> String, dash: &str) -> Value {
    match spread {
        None => Value::Null,
        Some(s) => json!({
            "median": text(s.median),
            "min": text(s.min),
            "max": text(s.max),
            "range": format!("{}{dash}{}", text(s.min), text(s.max)),
            "n": s.n.to_string(),
        }),
    }
}

fn mib(value: f64) -> String {
    format::mib(value)
}

/// The names an article may cite, for one language.
pub fn names(context: &Context) -> Value {
    let report: &Report = context.report;
    let dash = context.t.range_dash;
    let mut conditions = Map::new();
    for condition in &report.conditions {
        let percentiles: Map<String, Value> =
            condition.percentiles_ms.iter().map(|(k, s)| (format!("p{k}"), spread(Some(*s), format::ms, dash))).collect();
        conditions.insert(
            condition.id.clone(),
            json!({
                "label": context.condition_label(condition),
                "p95": spread(condition.p95_ms, format::ms, dash),
                "headline": spread(condition.headline_ms, format::ms, dash),
                "percentiles": percentiles,
                "max_ms": spread(condition.max_ms, format::ms, dash),
                "write_s": spread(condition.write_s, format::seconds, dash),
                "complete_s": spread(condition.complete_s, format::seconds, dash),
                "write_s_pooled": spread(condition.write_s_pooled, format::seconds, dash),
                "complete_s_pooled": spread(condition.complete_s_pooled, format::seconds, dash),
                "tempfile_peak_mib": spread(condition.tempfile_peak_bytes, mib, dash),
                "runs": condition.runs.len().to_string(),
                "representative_run": condition.representative_run.clone().unwrap_or_default(),
                "requests_per_s": spread(condition.requests_per_s, rate, dash),
                "error_rate": spread(condition.error_rate, format::percent_fine, dash),
                "mean_ms": spread(condition.mean_ms, format::ms, dash),
                "headline_mean": condition.headline_mean.map(|m| context.headline_number(m)),
                "sessions": condition.sessions.as_ref().map(|s| json!({
                    "sessions": format::count(s.sessions),
                    "failed": format::count(s.failed),
                    "failed_share": spread(Some(s.failed_share), format::percent, dash),
                    "min_ms": spread(s.min_ms, format::ms, dash),
                    "mean_ms": spread(s.mean_ms, format::ms, dash),
                    "max_ms": spread(s.max_ms, format::ms, dash),
                    "median_ms": spread(s.median_ms, format::ms, dash),
                    "p95_ms": spread(s.p95_ms, format::ms, dash),
                })),
            }),
        );
    }
    let mut runs = Map::new();
    for run in &report.runs {
        let ms = |v: Option<f64>| v.map(format::ms).map_or(Value::Null, Value::String);
        runs.insert(
            run.run_id.clone(),
            json!({
                "p95": ms(run.p95_ms),
                "headline": ms(run.headline_ms),
                "rank": run.headline_rank.map(|r| context.rank_text(r, run.ok_responses)),
                "rank_number": run.headline_rank.map(format::count),
                "n": format::count(run.ok_responses),
                "requests": format::count(run.requests),
                "errors": format::count(run.errors),
                "requests_counted": format::count(run.requests_counted.value),
                "errors_counted": run.requests_counted.errors.map(format::count),
                "counted_by": run.requests_counted.source.to_string(),
                "headline_printed": run.headline_printed.as_ref().map(|p| json!({
                    "percentile": p.percentile,
                    "value_ms": format::printed(p.value_ms),
                    "tool": p.tool,
                })),
                "max_lag_ms": ms(run.max_lag_ms),
                "write_s_median": run.write_s_median.map(format::seconds),
                "complete_s_median": run.complete_s_median.map(format::seconds),
                "tempfile_peak_mib": run.tempfile_peak_bytes.map(|b| format::mib(b as f64)),
                "status": run.status.as_str(),
                "requests_per_s": run.requests_per_s.map(rate),
                "error_rate": run.error_rate.map(format::percent_fine),
                "mean_ms": ms(run.mean_ms),
                "tool": run.tool_reported.as_ref().map(|t| tool(context, t, run.ok_responses)),
            }),
        );
    }
    // Each pair the variance review compared, both ways round: an article orders or separates
    // two conditions only through these.
    let mut between = Map::new();
    for c in &report.variance.comparisons {
        for (swapped, (from, to)) in [(false, (&c.a_id, &c.b_id)), (true, (&c.b_id, &c.a_id))] {
            let entry = between.entry(from.clone()).or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(row) = entry {
                row.insert(to.clone(), json!(context.between(c, swapped)));
            }
        }
    }
    let i = &report.integrity;
    let comparison = context.comparison.map(|c| super::view::compare_article_names(c, context.lang));
    escaped(json!({
        "comparison": comparison,
        "p": context.p_label,
        "dataset": { "title": report.dataset.title.get(context.lang), "measured": report.dataset.measured },
        "conditions": conditions,
        "between": between,
        "runs": runs,
        "integrity": {
            "runs": format::count(i.runs),
            "ok_runs": format::count(i.runs_by_status.get("ok").copied().unwrap_or(0)),
            "requests": format::count(i.requests),
            "requests_counted": format::count(i.requests_counted.value),
            "errors_counted": format::count(i.requests_counted.errors),
            "requests_counted_by_tools": format::count(i.requests_counted.by_tools),
            "ok_responses": format::count(i.ok_responses),
            "errors": format::count(i.errors),
            "non_2xx": format::count(i.non_2xx),
            "no_response": format::count(i.no_response),
            "large_responses": format::count(i.large_responses),
            "incomplete_large_responses": format::count(i.incomplete_large_responses),
            "max_lag_ms": i.max_lag_ms.map(format::ms),
        },
        "variance": {
            "widest_condition": report.variance.widest_condition,
        },
        "published": published(context),
    }))
}

/// Requests/s as the headline table prints them.
fn rate(value: f64) -> String {
    format::rate(value, None)
}

/// A tool's printed numbers about a run: its rule, its requests/s, and per percentile its value
/// and rank beside ours.
fn tool(context: &Context, t: &crate::report::ToolReported, ok_responses: u64) -> Value {
    let percentiles: Map<String, Value> = t
        .percentiles_ms
        .iter()
        .map(|(k, v)| {
            let rank = t.ranks.get(k).map(|r| context.rank_text(*r, t.ranked));
            let ours = t.nearest_ranks.get(k).map(|r| context.rank_text(*r, ok_responses));
            (format!("p{k}"), json!({ "value": format::ms(*v), "rank": rank, "nearest_rank_value": t.nearest_rank_ms.get(k).map(|v| format::ms(*v)), "nearest_rank": ours }))
        })
        .collect();
    json!({
        "name": t.tool,
        "rule": crate::render::i18n::rule_text(t.rule, context.lang),
        "requests_per_s": t.requests_per_s.map(rate),
        "rows_requests_per_s": t.rows_requests_per_s.map(rate),
        "percentiles": percentiles,
    })
}

/// The published tables by id: each value by condition id, with its verdict and ratio; the
/// references in their order; the order check; the smallest and largest ratio.
fn published(context: &Context) -> Value {
    use crate::render::i18n::published as words;
    let report = context.report;
    let comparison = &report.published;
    let dash = context.t.range_dash;
    let mut tables = Map::new();
    for table in &comparison.tables {
        let in_unit = |v: f64| format::in_unit(v, table.unit);
        let label = |row: usize| context.label_within(table, row);
        let mut values = Map::new();
        for row in &table.rows {
            values.insert(
                row.condition_id.clone(),
                json!({
                    "value": format::as_written(row.value, table.unit),
                    "median": row.measured.map(|m| in_unit(m.median)),
                    "range": row.measured.map(|m| format!("{}{dash}{}", in_unit(m.min), in_unit(m.max))),
                    "verdict": words::verdict(context.lang, row.verdict, row.ratio, comparison.negligible_difference),
                    "ratio": row.ratio.map(|r| words::ratio(context.lang, r)),
                    "agrees": row.verdict.agrees(),
                }),
            );
        }
        let references: Vec<Value> = table
            .references
            .iter()
            .map(|r| json!({ "label": r.label.get(context.lang), "value": format::as_written(r.value, table.unit), "reason": r.reason.get(context.lang) }))
            .collect();
        let order = table.order.as_ref().map(|o| {
            let here: Vec<String> = o.here_rows.iter().map(|g| g.iter().map(|&r| label(r)).collect::<Vec<_>>().join(" = ")).collect();
            json!({
                "original": o.published_rows.iter().map(|&r| label(r)).collect::<Vec<_>>().join(" > "),
                "here": here.join(" > "),
                "holds": o.holds,
                "separated": o.separated,
            })
        });
        tables.insert(
            table.id.clone(),
            json!({
                "label": table.label.as_ref().map(|l| l.get(context.lang)),
                "unit": words::unit(context.lang, table.unit),
                "values": values,
                "references": references,
                "order": order,
                "ratio_min": table.ratio_min.map(|r| words::ratio(context.lang, r)),
                "ratio_max": table.ratio_max.map(|r| words::ratio(context.lang, r)),
                "agree": format::count(table.agree as u64),
                "rows": format::count(table.rows.len() as u64),
            }),
        );
    }
    json!({
        "original": comparison.original.as_ref().map(|o| words::original(context.lang, o)),
        "tables": tables,
        "negligible": format::threshold_percent(comparison.negligible_difference),
        "ratio_min": comparison.ratio_min.map(|r| words::ratio(context.lang, r)),
        "ratio_max": comparison.ratio_max.map(|r| words::ratio(context.lang, r)),
    })
}

/// Every string of `value` escaped as Markdown: cited dataset text shows as itself.
fn escaped(value: Value) -> Value {
    match value {
        Value::String(text) => Value::String(markdown::escape(&text)),
        Value::Array(items) => Value::Array(items.into_iter().map(escaped).collect()),
        Value::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (k, escaped(v))).collect()),
        other => other,
    }
}

/// Renders the article's names into Markdown, in the sandbox, then makes it inert
/// ([`markdown::sanitize`]): what is returned is safe to copy into report.md and to render.
pub fn render_markdown(file: &str, source: &str, names: &Value) -> Result<String, ArticleError> {
    if let Some((line, quoted)) = non_ascii_lookup(source) {
        return Err(ArticleError {
            file: file.to_string(),
            line,
            message: format!(
                "the template engine cannot look up a quoted name with characters beyond ASCII ({}): cite it through a loop, \
                 e.g. {{% for id, c in conditions %}}, or rename the run or level",
                crate::dataset::error::shown(&quoted)
            ),
        });
    }
    let context = tera::Context::from_value(names.clone()).expect("names are an object");
    // A backstop: a template engine panic is this article's error, not a crash of the program.
    let rendered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| sandbox::render(file, source, &context)));
    match rendered {
        Ok(Ok(Ok(text))) => Ok(markdown::sanitize(&text)),
        Ok(Ok(Err(error))) => Err(locate(file, source, &context, &error)),
        Ok(Err(stopped)) => Err(stopped),
        Err(_) => Err(ArticleError { file: file.to_string(), line: 1, message: "the template engine failed on this article".to_string() }),
    }
}

/// The first `["…"]` or `['…']` lookup whose key has a character beyond ASCII, with its line:
/// tera 1.20 slices such a key by character count as if it were bytes and panics
/// (context.rs, `PointerMachina`), so it is refused before rendering.
fn non_ascii_lookup(source: &str) -> Option<(usize, String)> {
    for (index, line) in source.lines().enumerate() {
        let mut rest = line;
        while let Some(open) = rest.find('[') {
            rest = &rest[open + 1..];
            let trimmed = rest.trim_start();
            let Some(quote) = trimmed.chars().next().filter(|c| matches!(c, '"' | '\'' | '`')) else { continue };
            let body = &trimmed[1..];
            let key = body.find(quote).map_or(body, |end| &body[..end]);
            if !key.is_ascii() {
                return Some((index + 1, key.to_string()));
            }
        }
    }
    None
}

/// Finds the first line whose expressions fail alone; else reports the template's own message.
fn locate(file: &str, source: &str, context: &tera::Context, error: &tera::Error) -> ArticleError {
    let mut message = error.to_string();
    let mut source_error: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(error);
    while let Some(inner) = source_error {
        message = inner.to_string();
        source_error = inner.source();
    }
    for (index, line) in source.lines().enumerate() {
        if !line.contains("{{") || line.contains("{%") {
            continue;
        }
        let line_error = match sandbox::render(file, line, context) {
            Ok(Ok(_)) => continue,
            Ok(Err(line_error)) => line_error,
            Err(stopped) => return ArticleError { line: index + 1, ..stopped },
        };
        let mut detail = line_error.to_string();
        let mut inner = std::error::Error::source(&line_error);
        while let Some(e) = inner {
            detail = e.to_string();
            inner = e.source();
        }
        return ArticleError {
            file: file.to_string(),
            line: index + 1,
            message: format!("{detail} (see report-templates/README.md for the names)"),
        };
    }
    ArticleError { file: file.to_string(), line: 1, message }
}

/// Joins the lines of a paragraph without a space where the break touches a CJK character:
/// Japanese is written without spaces, and a hard-wrapped line would otherwise render one
/// (「伸びました （3回」). Applied to the rendered article, so the HTML page and the Markdown
/// twin read the same. Tables, headings, lists, quotes, fenced code and hard breaks are kept.
pub fn join_cjk_lines(markdown: &str) -> String {
    fn paragraph_text(line: &str) -> bool {
        let t = line.trim_start();
        let indent = line.len() - t.len();
        let list = t.starts_with("- ") || t.starts_with("* ") || t.starts_with("+ ") || {
            let digits = t.chars().take_while(char::is_ascii_digit).count();
            digits > 0 && (t[digits..].starts_with(". ") || t[digits..].starts_with(") "))
        };
        !t.is_empty() && indent < 4 && !list && !t.starts_with(['|', '#', '>']) && !t.starts_with("```") && !t.starts_with("~~~")
    }
    let lines: Vec<&str> = markdown.split('\n').collect();
    let mut out = String::with_capacity(markdown.len());
    let mut fenced = false;
    let mut joined = false;
    for (i, line) in lines.iter().enumerate() {
        out.push_str(if joined { line.trim_start() } else { line });
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            fenced = !fenced;
        }
        let Some(next) = lines.get(i + 1) else { break };
        let hard_break = line.ends_with("  ") || line.ends_with('\\');
        let touches_cjk =
            line.trim_end().chars().last().is_some_and(format::is_cjk) || next.trim_start().chars().next().is_some_and(format::is_cjk);
        joined = !fenced && !hard_break && touches_cjk && paragraph_text(line) && paragraph_text(next);
        if joined {
            let kept = out.trim_end().len();
            out.truncate(kept);
        } else {
            out.push('\n');
        }
    }
    out
}

/// Markdown to HTML: its one home is [`markdown::markdown_to_html`].
pub use super::markdown::markdown_to_html;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_name_is_an_error_with_its_line() {
        let names = json!({ "runs": { "r1": { "p95": "1.57" } } });
        let error =
            render_markdown("article.md", "Intro.\n\nThe p95 was {{ runs.r1.p95 }} ms.\nAnd {{ runs.r9.p95 }}.\n", &names).unwrap_err();
        assert_eq!((error.file.as_str(), error.line), ("article.md", 4));
    }

    #[test]
    fn a_quoted_name_beyond_ascii_is_an_error_not_a_panic() {
        let names = json!({ "runs": { "遅い": { "p95": "1.57" } } });
        let error = render_markdown("article.ja.md", "前文\n\n{{ runs[\"遅い\"].p95 }}\n", &names).unwrap_err();
        assert_eq!((error.file.as_str(), error.line), ("article.ja.md", 3));
        assert!(error.message.contains("\"遅い\""), "{}", error.message);
        assert_eq!(render_markdown("a.md", "{{ runs[\"r1\"].p95 }} 遅い", &json!({ "runs": { "r1": { "p95": "1" } } })).unwrap(), "1 遅い");
    }

    #[test]
    fn known_names_render() {
        let names = json!({ "runs": { "r1": { "p95": "1.57" } } });
        let text = render_markdown("article.md", "p95 = {{ runs.r1.p95 }} ms", &names).unwrap();
        assert_eq!(text, "p95 = 1.57 ms");
    }

    #[test]
    fn japanese_lines_join_without_a_space() {
        let source =
            "2件のとき\n**5,945.11 ms**に伸びました\n（3回の中央値）。\nThe end\nof English.\n\n| 表 | 値 |\n|---|---|\n| 一 | 1 |\n";
        let joined = join_cjk_lines(source);
        assert!(
            joined.starts_with(
                "2件のとき**5,945.11 ms**に伸びました（3回の中央値）。The end\nof English.\n\n| 表 | 値 |\n|---|---|\n| 一 | 1 |\n"
            ),
            "{joined}"
        );
        let html = markdown_to_html(&joined, "表{n}", "");
        assert!(html.contains("伸びました（3回"), "{html}");
        assert!(html.contains("とき<strong>5,945.11 ms</strong>に"), "{html}");
        // No space between two Japanese characters anywhere in the paragraph.
        let chars: Vec<char> = html.chars().collect();
        for w in chars.windows(3) {
            assert!(!(format::is_cjk(w[0]) && w[1].is_whitespace() && format::is_cjk(w[2])), "{html}");
        }
    }

    /// measure's markers around its block of a dataset's README do not show on the page.
    #[test]
    fn one_line_comments_are_not_shown() {
        let readme = "<!-- measure:begin: measure rewrites this block -->\n# Title\n\n| k | v |\n| --- | --- |\n| a | 1 |\n\
                      <!-- measure:end -->\n\n## By hand <!-- a note -->\n\nText.\n";
        let html = markdown_to_html(readme, "Table {n}", "");
        assert!(!html.contains("measure:") && !html.contains("note") && !html.contains("&lt;!--"), "{html}");
        assert!(html.contains("<h1>Title</h1>") && html.contains("<td>1</td>") && html.contains("<h2>By hand"), "{html}");
        assert!(html.contains("<td>1</td></tr>\n</tbody></table></div>\n\n<h2>By hand"), "the table ends before the marker: {html}");
        let shown = markdown_to_html("<!-- a --> <script>x</script> -->\n", "Table {n}", "");
        assert!(shown.contains("&lt;script&gt;"), "{shown}");
    }

    #[test]
    fn raw_html_in_an_article_is_escaped() {
        let html = markdown_to_html("Hi <script>alert(1)</script>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", "Table {n}", "");
        assert!(html.contains("&lt;script&gt;"), "{html}");
        assert!(
            html.contains("<div class=\"table-wrap\"><p class=\"scroll-cue\" aria-hidden=\"true\"></p><table><caption>Table 1</caption>"),
            "{html}"
        );
        assert!(html.contains("</table></div>"), "{html}");
    }
}
