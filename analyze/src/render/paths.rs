//! File names and relative links of a rendered report, decided once so every page agrees.

use crate::report::Report;

/// A file-name-safe, unique slug per run (same order as `report.runs`).
pub fn run_slugs(report: &Report) -> Vec<String> {
    let mut slugs: Vec<String> = Vec::with_capacity(report.runs.len());
    for (index, run) in report.runs.iter().enumerate() {
        let safe: String =
            run.run_id.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' { c } else { '_' }).collect();
        let safe = safe.trim_start_matches('.').to_string();
        let base = if safe.is_empty() { format!("run{index}") } else { safe };
        let slug = if slugs.contains(&base) || base != run.run_id { format!("{base}-{index}") } else { base };
        slugs.push(slug);
    }
    slugs
}

/// The page of a run, relative to the report folder.
pub fn run_page(slug: &str) -> String {
    format!("runs/{slug}.html")
}

/// The anchor of a condition on the variance page.
pub fn condition_anchor(condition: usize) -> String {
    format!("condition-{condition}")
}

/// A link to a condition's runs on the variance page, from a page `root` away from the report folder.
pub fn condition_link(root: &str, condition: usize) -> String {
    format!("{root}variance.html#{}", condition_anchor(condition))
}

/// Figure file names, relative to the report folder.
pub const HEADLINE_FIGURE: &str = "figures/headline-by-condition.svg";
pub const LARGE_FIGURE: &str = "figures/write-vs-completion.svg";
pub const TEMPFILE_FIGURE: &str = "figures/tempfiles.svg";

pub fn time_series_figure(slug: &str) -> String {
    format!("figures/latency-over-time-{slug}.svg")
}

pub fn ecdf_figure(slug: &str) -> String {
    format!("figures/ecdf-{slug}.svg")
}

pub fn run_tempfile_figure(slug: &str) -> String {
    format!("figures/tempfiles-{slug}.svg")
}

pub fn resources_figure(slug: &str) -> String {
    format!("figures/resources-{slug}.svg")
}
