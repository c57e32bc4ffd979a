//! Articles are contributed text, rendered where tokens may live (CI): tera runs them in a
//! sandbox. Only `if`/`for` (with `break`/`continue`) and `raw` tags are accepted, so there is no
//! file access (`include`, `import`, `extends`), no macros (unbounded recursion) and no `set`
//! (unbounded accumulation). The environment, clock and randomness functions fail, as do the
//! filters that multiply text. `range` has an element budget, every loop iteration is counted
//! against a budget, and the output stops at a size limit: a runaway article fails fast with its
//! file and line instead of hanging the build.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The tags an article may use.
const TAGS: &[&str] = &["if", "elif", "else", "endif", "for", "endfor", "break", "continue", "raw", "endraw"];
/// tera built-ins an article may not call: the environment, the clock, randomness.
const FUNCTIONS: &[&str] = &["get_env", "now", "get_random"];
/// tera built-in filters that can multiply text (so a chain of them grows exponentially), plus
/// those no article needs.
const FILTERS: &[&str] = &[
    "replace",
    "indent",
    "linebreaksbr",
    "escape",
    "escape_xml",
    "urlencode",
    "urlencode_strict",
    "addslashes",
    "split",
    "concat",
    "json_encode",
    "filesizeformat",
    "date",
    "slugify",
    "pluralize",
    "group_by",
    "map",
    "filter",
];
/// Elements all `range` calls of one article may produce together.
pub const RANGE_BUDGET: usize = 10_000;
/// Loop iterations one article may run, all loops together.
pub const LOOP_BUDGET: usize = 100_000;
/// The largest rendered article, in bytes.
pub const OUTPUT_LIMIT: usize = 1 << 20;

/// Where the sandbox stopped an article, and why.
#[derive(Default)]
struct Stop {
    line: usize,
    message: String,
}

/// What the sandbox's functions share during one render.
#[derive(Default)]
struct Budget {
    ranged: AtomicUsize,
    looped: AtomicUsize,
    /// The line of the loop that last started an iteration: where an oversized output is blamed.
    line: AtomicUsize,
    stop: Mutex<Option<Stop>>,
}

impl Budget {
    fn stop(&self, line: usize, message: String) -> tera::Error {
        let mut stop = self.stop.lock().unwrap_or_else(|e| e.into_inner());
        stop.get_or_insert(Stop { line, message: message.clone() });
        tera::Error::msg(message)
    }
}

fn line_arg(args: &HashMap<String, tera::Value>) -> usize {
    args.get("__line").and_then(tera::Value::as_u64).unwrap_or(1) as usize
}

/// A tera with the sandbox's functions and filters, sharing `budget`.
fn engine(budget: &Arc<Budget>) -> tera::Tera {
    let mut tera = tera::Tera::default();
    for name in FUNCTIONS {
        let message = format!("`{name}` is not available in an article");
        tera.register_function(name, move |_: &HashMap<String, tera::Value>| Err(tera::Error::msg(message.clone())));
    }
    for name in FILTERS {
        let message = format!("the filter `{name}` is not available in an article");
        tera.register_filter(name, move |_: &tera::Value, _: &HashMap<String, tera::Value>| Err(tera::Error::msg(message.clone())));
    }
    let ranges = Arc::clone(budget);
    tera.register_function("range", move |args: &HashMap<String, tera::Value>| {
        let number = |key, default| args.get(key).map_or(Some(default), |v| v.as_u64().and_then(|n| usize::try_from(n).ok()));
        let (Some(start), Some(end), Some(step)) = (number("start", 0), number("end", 0), number("step_by", 1)) else {
            return Err(tera::Error::msg("`range` takes whole numbers start, end and step_by"));
        };
        let count = if step == 0 { 0 } else { end.saturating_sub(start).div_ceil(step) };
        let used = ranges.ranged.fetch_add(count, Ordering::Relaxed);
        if step == 0 || used.saturating_add(count) > RANGE_BUDGET {
            let why = if step == 0 {
                "`range` needs a step_by above 0".to_string()
            } else {
                format!(
                    "`range` calls share one budget of {RANGE_BUDGET} numbers per article (a range inside a loop counts each time \
                     it runs): {used} are used, and this one asks for {count} more"
                )
            };
            return Err(ranges.stop(line_arg(args), why));
        }
        Ok(tera::Value::Array((start..end).step_by(step).map(tera::Value::from).collect()))
    });
    let loops = Arc::clone(budget);
    tera.register_function("__loop", move |args: &HashMap<String, tera::Value>| {
        let line = line_arg(args);
        loops.line.store(line, Ordering::Relaxed);
        if loops.looped.fetch_add(1, Ordering::Relaxed) >= LOOP_BUDGET {
            return Err(loops.stop(line, format!("the article's loops ran more than {LOOP_BUDGET} times in all")));
        }
        Ok(tera::Value::String(String::new()))
    });
    tera
}

/// Stops writing (with an error) past [`OUTPUT_LIMIT`].
struct Capped<'a> {
    out: Vec<u8>,
    budget: &'a Budget,
}

impl std::io::Write for Capped<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if self.out.len() + bytes.len() > OUTPUT_LIMIT {
            let line = self.budget.line.load(Ordering::Relaxed).max(1);
            let _ = self.budget.stop(line, format!("the article renders to more than {} MiB", OUTPUT_LIMIT >> 20));
            return Err(std::io::Error::other("output limit"));
        }
        self.out.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Renders `source` in the sandbox. Errors of the sandbox name the line they stopped at; other
/// errors are returned as tera's, for the caller to place.
pub fn render(file: &str, source: &str, context: &tera::Context) -> Result<Result<String, tera::Error>, ArticleError> {
    let prepared = prepare(file, source)?;
    let budget = Arc::new(Budget::default());
    let mut tera = engine(&budget);
    if let Err(error) = tera.add_raw_template(file, &prepared) {
        return Ok(Err(error));
    }
    let mut out = Capped { out: Vec::new(), budget: &budget };
    let result = tera.render_to(file, context, &mut out);
    if let Some(stop) = budget.stop.lock().unwrap_or_else(|e| e.into_inner()).take() {
        return Err(ArticleError { file: file.to_string(), line: stop.line, message: stop.message });
    }
    Ok(result.map(|()| String::from_utf8_lossy(&out.out).into_owned()))
}

/// Checks every tag against [`TAGS`] and instruments the source: each `for` counts its iterations
/// and each `range(` call learns its line. Line breaks are left where they were.
fn prepare(file: &str, source: &str) -> Result<String, ArticleError> {
    let error = |at: usize, message: String| ArticleError { file: file.to_string(), line: line_of(source, at), message };
    let mut out = String::with_capacity(source.len() + 64);
    let mut rest = 0;
    while let Some(found) = source[rest..].find('{') {
        let start = rest + found;
        let opener = source.get(start..start + 2).unwrap_or("");
        let closer = match opener {
            "{{" => "}}",
            "{%" => "%}",
            "{#" => "#}",
            _ => {
                out.push_str(&source[rest..start + 1]);
                rest = start + 1;
                continue;
            }
        };
        out.push_str(&source[rest..start]);
        let Some(length) = source[start + 2..].find(closer) else {
            return Err(error(start, format!("`{opener}` is not closed by `{closer}`")));
        };
        let end = start + 2 + length + 2;
        let span = &source[start..end];
        let line = line_of(source, start);
        match opener {
            "{#" => out.push_str(span),
            "{{" => out.push_str(&mark_ranges(span, line)),
            _ => {
                let word: String =
                    span[2..].trim_start_matches('-').trim_start().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                if !TAGS.contains(&word.as_str()) {
                    return Err(error(start, format!("`{{% {word} %}}` is not available in an article: only if, for and raw tags are")));
                }
                out.push_str(&mark_ranges(span, line));
                if word == "for" {
                    let trim = if span.ends_with("-%}") { "-" } else { "" };
                    out.push_str(&format!("{{{{ __loop(__line={line}) {trim}}}}}"));
                } else if word == "raw" {
                    // tera ends a raw block at its first endraw tag; so does this scan.
                    let after = &source[end..];
                    let close = raw_end(after).ok_or_else(|| error(start, "`{% raw %}` is not closed by `{% endraw %}`".into()))?;
                    out.push_str(&after[..close]);
                    rest = end + close;
                    continue;
                }
            }
        }
        rest = end;
    }
    out.push_str(&source[rest..]);
    Ok(out)
}

/// Where the first `{% endraw %}` (any whitespace control) ends in `text`.
fn raw_end(text: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(found) = text[from..].find("{%") {
        let start = from + found;
        let inner = text[start + 2..].strip_prefix('-').unwrap_or(&text[start + 2..]).trim_start();
        if let Some(after) = inner.strip_prefix("endraw") {
            let after = after.trim_start();
            if let Some(tail) = after.strip_prefix("-%}").or_else(|| after.strip_prefix("%}")) {
                return Some(text.len() - tail.len());
            }
        }
        from = start + 2;
    }
    None
}

/// `range(` inside an expression or tag, with the line passed along for its error.
fn mark_ranges(span: &str, line: usize) -> String {
    let mut out = String::with_capacity(span.len());
    let mut rest = span;
    while let Some(at) = rest.find("range(") {
        let word_before = rest[..at].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_');
        out.push_str(&rest[..at + 6]);
        rest = &rest[at + 6..];
        if !word_before {
            let empty = rest.trim_start().starts_with(')');
            out.push_str(&format!("__line={line}{}", if empty { "" } else { ", " }));
        }
    }
    out.push_str(rest);
    out
}

fn line_of(source: &str, at: usize) -> usize {
    source[..at].bytes().filter(|b| *b == b'\n').count() + 1
}

/// The article could not be rendered.
#[derive(Debug, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct ArticleError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(source: &str) -> Result<Result<String, tera::Error>, ArticleError> {
        let context = tera::Context::from_value(serde_json::json!({ "runs": { "r1": { "p95": "1.57" } } })).unwrap();
        render("article.md", source, &context)
    }

    #[test]
    fn nested_huge_ranges_fail_fast_with_their_line() {
        let started = std::time::Instant::now();
        let source = "Intro\n\n{% for i in range(end=3000000) %}{% for j in range(end=3000000) %}x{% endfor %}{% endfor %}\n";
        let error = run(source).unwrap_err();
        assert_eq!(error.line, 3, "{}", error.message);
        assert!(error.message.contains("budget of 10000 numbers per article"), "{}", error.message);
        assert!(started.elapsed().as_secs() < 5);
    }

    /// Three nested `range(end=100)`: the outer loop takes 100 numbers and the middle loop's
    /// first call 100 more; then each inner call takes 100, and the 99th finds 10,000 used.
    #[test]
    fn a_range_refused_in_a_loop_says_the_budget_is_shared_and_how_much_is_used() {
        let source = "a\n{% for i in range(end=100) %}{% for j in range(end=100) %}{% for k in range(end=100) %}{% endfor %}{% endfor %}{% endfor %}";
        let error = run(source).unwrap_err();
        assert_eq!(error.line, 2);
        assert_eq!(
            error.message,
            "`range` calls share one budget of 10000 numbers per article (a range inside a loop counts each time it runs): \
             10000 are used, and this one asks for 100 more"
        );
    }

    #[test]
    fn loops_over_data_stop_at_the_loop_budget() {
        let items: Vec<u32> = (0..100).collect();
        let context = tera::Context::from_value(serde_json::json!({ "items": items })).unwrap();
        let source = "a\n{% for i in range(end=2000) %}\n{% for a in items %}{% endfor %}{% endfor %}";
        let error = render("article.md", source, &context).unwrap_err();
        assert_eq!(error.line, 3);
        assert!(error.message.contains("loops ran more than 100000 times"), "{}", error.message);
    }

    #[test]
    fn the_environment_files_and_set_are_unavailable() {
        std::env::set_var("ANALYZE_SANDBOX_SECRET", "hunter2");
        let error = run("ok\n{{ get_env(name=\"ANALYZE_SANDBOX_SECRET\") }}").unwrap().unwrap_err();
        assert!(format!("{error:?}").contains("not available in an article"), "{error:?}");
        for (source, tag) in
            [("{% include \"/etc/passwd\" %}", "include"), ("{% set x = 1 %}", "set"), ("a\n{%- macro f() %}{% endmacro %}", "macro")]
        {
            let error = run(source).unwrap_err();
            assert!(error.message.contains(&format!("`{{% {tag} %}}` is not available")), "{}", error.message);
        }
        assert_eq!(run("{% raw %}{% set x = 1 %}{% endraw %}").unwrap().unwrap(), "{% set x = 1 %}");
        assert!(run("{% raw %}{% endraw %}{% set x = 1 %}").is_err());
    }

    #[test]
    fn output_stops_at_its_limit() {
        let source = format!("{}\n{{% for i in range(end=9000) %}}{}{{% endfor %}}", "x", "y".repeat(200));
        let error = run(&source).unwrap_err();
        assert_eq!(error.line, 2);
        assert!(error.message.contains("more than 1 MiB"), "{}", error.message);
    }

    #[test]
    fn ordinary_articles_render_as_before() {
        let source = "p95 = {{ runs.r1.p95 }} ms{# note #}\n{% for i in range(end=3) -%}\n {{ i }}{% endfor %}, {{ range(end=3) | join(sep=\"-\") }}";
        assert_eq!(run(source).unwrap().unwrap(), "p95 = 1.57 ms\n012, 0-1-2");
    }
}
