//! The history's outputs, each a pure function of the [`HistoryReport`]: the folder (both
//! languages' page, Markdown twin and trend charts, and history.json once), the Markdown summary
//! (`--format md`), history.json (`--format json`) and the terminal summary.

use super::view::{history_draws_charts, history_figure_path, history_page, HistorySite};
use super::{charts, render, templates, Files, RenderError};
use crate::model::Lang;
use crate::report::history::HistoryReport;
use std::fmt::Write as _;

/// history.json: the whole history, pretty-printed, ending in a newline.
pub fn history_json(report: &HistoryReport) -> String {
    let mut text = serde_json::to_string_pretty(report).expect("a history always serializes");
    text.push('\n');
    text
}

/// Every file of a history's folder: `history.json`, and per language `<lang>/index.html`,
/// `<lang>/history.md` and, once a condition could be tested, `<lang>/figures/history-<k>.svg`.
pub fn history_files(report: &HistoryReport, site: Option<&HistorySite>) -> Result<Files, RenderError> {
    let tera = templates();
    let mut files = Files::new();
    files.insert("history.json".into(), history_json(report).into_bytes());
    for lang in Lang::ALL {
        let page = history_page(report, lang, site);
        let dir = lang.code();
        files.insert(format!("{dir}/index.html"), render(tera, "history.html", &page, "index.html")?);
        files.insert(format!("{dir}/history.md"), render(tera, "history.md", &page, "history.md")?);
        files.insert(format!("{dir}/{}", super::paths::STYLESHEET), super::CSS.as_bytes().to_vec());
        for k in (0..report.conditions.len()).filter(|_| history_draws_charts(report)) {
            let summary = page.summary.join(" ");
            files.insert(
                format!("{dir}/{}", history_figure_path(k)),
                charts::history_condition(report, k, &summary, lang, site).into_bytes(),
            );
        }
    }
    Ok(files)
}

/// The Markdown page, for `--format md`.
pub fn history_md(report: &HistoryReport, lang: Lang) -> Result<String, RenderError> {
    let bytes = render(templates(), "history.md", &history_page(report, lang, None), "history.md")?;
    Ok(String::from_utf8(bytes).expect("templates render UTF-8"))
}

/// The terminal summary: the facts, the verdicts, a line per change and the unchanged.
pub fn history_text(report: &HistoryReport, lang: Lang) -> String {
    let page = history_page(report, lang, None);
    let mut out = String::new();
    let _ = writeln!(out, "{}", page.title);
    for kv in &page.facts {
        let _ = writeln!(out, "  {}{}{}", kv.label, page.t.colon, kv.value);
    }
    for line in page.summary.iter().chain(&page.text_lines) {
        let _ = writeln!(out, "{line}");
    }
    out
}
