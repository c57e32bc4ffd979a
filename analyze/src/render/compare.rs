//! The comparison's outputs, each a pure function of the [`ComparisonReport`]: the folder (both
//! languages' page, Markdown twin and overlay charts, and compare.json once), the pull-request
//! summary (`--format md`), compare.json (`--format json`) and the terminal summary.

use super::view::{compare_figure_path, compare_page, ComparePage, CompareSite, COMPARE_FOREST_PATH};
use super::{charts, render, templates, Files, RenderError};
use crate::model::Lang;
use crate::report::compare::ComparisonReport;
use std::fmt::Write as _;

/// compare.json: the whole comparison but the chart points, pretty-printed, ending in a newline.
pub fn compare_json(report: &ComparisonReport) -> String {
    let mut text = serde_json::to_string_pretty(report).expect("a comparison always serializes");
    text.push('\n');
    text
}

/// Every file of a comparison's folder: `compare.json`, and per language `<lang>/index.html`,
/// `<lang>/compare.md`, `<lang>/figures/compare-forest.svg` (every ratio on one axis, when a
/// condition matched) and `<lang>/figures/compare-<k>.svg`.
pub fn compare_files(report: &ComparisonReport, site: Option<&CompareSite>) -> Result<Files, RenderError> {
    let tera = templates();
    let mut files = Files::new();
    files.insert("compare.json".into(), compare_json(report).into_bytes());
    for lang in Lang::ALL {
        let page = compare_page(report, lang, site);
        let dir = lang.code();
        files.insert(format!("{dir}/index.html"), render(tera, "compare.html", &page, "index.html")?);
        files.insert(format!("{dir}/compare.md"), render(tera, "compare.md", &page, "compare.md")?);
        files.insert(format!("{dir}/{}", super::paths::STYLESHEET), super::CSS.as_bytes().to_vec());
        if !report.conditions.is_empty() {
            let heads: Vec<String> = page.text_rows.iter().map(|(head, _)| head.clone()).collect();
            files.insert(format!("{dir}/{COMPARE_FOREST_PATH}"), charts::compare_forest(report, &heads, lang).into_bytes());
        }
        for (k, (head, numbers)) in page.text_rows.iter().enumerate() {
            let summary = format!("{head}{}{numbers}", page.t.colon);
            files.insert(format!("{dir}/{}", compare_figure_path(k)), charts::compare_condition(report, k, &summary, lang).into_bytes());
        }
    }
    Ok(files)
}

/// The Markdown summary for a pull-request comment.
pub fn compare_summary(report: &ComparisonReport, lang: Lang) -> Result<String, RenderError> {
    let bytes = render(templates(), "compare-summary.md", &compare_page(report, lang, None), "compare.md")?;
    Ok(String::from_utf8(bytes).expect("templates render UTF-8"))
}

/// The terminal summary: the datasets, the counts and the gate, then one block per condition.
pub fn compare_text(report: &ComparisonReport, lang: Lang) -> String {
    let page: ComparePage = compare_page(report, lang, None);
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(out, "{}", page.title);
    for kv in &page.facts {
        let _ = writeln!(out, "  {}{}{}", kv.label, page.t.colon, kv.value);
    }
    for (head, numbers) in &page.text_rows {
        let _ = writeln!(out, "{head}\n    {numbers}");
    }
    for line in &page.text_unmatched {
        let _ = writeln!(out, "{line}");
    }
    for line in &page.summary {
        let _ = writeln!(out, "{line}");
    }
    out
}
