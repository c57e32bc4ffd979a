//! `analyze check`: everything `report` does but rendering. If check passes, report cannot hit a
//! data error.

use crate::dataset;
use crate::pipeline;
use crate::render::i18n::fill;
use crate::render::view::Context;
use crate::render::{self, format};
use crate::stats::Detail;
use anyhow::Result;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

/// Everything `check` validates, on a folder nobody else writes while it is read (a dataset
/// `analyze import` has staged, under its own lock): what an import runs before it publishes.
pub fn verify(dir: &Path) -> Result<()> {
    let pipeline::Built { dataset: loaded, report } = pipeline::build_unlocked(dir, dataset::Keep::Latencies, Detail::Statistics)?;
    let read = |folder: &Path| dataset::load_unlocked(folder, dataset::Keep::Latencies);
    let comparison = pipeline::of_baseline_read_by(dir, &loaded.manifest, &report, &read)?;
    render::check_articles(&report, &loaded.articles, comparison.as_ref())?;
    Ok(())
}

/// Without `--all`, at most this many lines of each list (conditions, sessions, flagged runs,
/// objectives) are printed; the rest are counted, so a dataset of 10,000 levels gives a screen,
/// not 24,000 lines.
const LISTED: usize = 50;

/// The lines of one list, cut to [`LISTED`] unless `all`, with a count of the rest.
fn listed(out: &mut String, lines: Vec<String>, all: bool, what: &str) -> std::fmt::Result {
    let shown = if all { lines.len() } else { lines.len().min(LISTED) };
    for line in &lines[..shown] {
        writeln!(out, "{line}")?;
    }
    if shown < lines.len() {
        writeln!(
            out,
            "  … and {} more {what} (--all lists them; summary.json holds them all)",
            format::count((lines.len() - shown) as u64)
        )?;
    }
    Ok(())
}

pub fn run(dir: &Path, strict: bool, slo: bool, all: bool) -> Result<i32> {
    let pipeline::Built { dataset: loaded, report } = pipeline::build(dir, dataset::Keep::Latencies, Detail::Statistics)?;
    let comparison = pipeline::of_baseline(dir, &loaded.manifest, &report)?;
    render::check_articles(&report, &loaded.articles, comparison.as_ref())?;
    let context = Context::new(&report, crate::model::Lang::En, false);
    let i = &report.integrity;
    // Built whole, then written once: a closed pipe (`| head`) ends the output, not the program.
    let mut out = String::new();
    writeln!(out, "{}: {}", report.dataset.name, report.dataset.title.get(crate::model::Lang::En))?;
    writeln!(
        out,
        "  runs: {} ({} ok), conditions: {}, requests: {}{}, errors: {}{}, largest schedule lag: {} ms",
        format::count(i.runs),
        format::count(i.runs_by_status.get("ok").copied().unwrap_or(0)),
        report.conditions.len(),
        format::count(i.requests_counted.value),
        // Runs without rows count as their tools counted them.
        match i.requests_counted.by_tools {
            0 => String::new(),
            n => format!(" ({} as the tools of {} runs without rows counted them)", format::count(n), i.requests_counted.tool_runs),
        },
        format::count(i.requests_counted.errors),
        // Errors a tool counted among rows that do not say which (ab -g).
        match i.requests_counted.unplaced_errors {
            0 => String::new(),
            n => format!(
                " ({} as {} counted them, in the rows of {} that do not say which)",
                format::count(n),
                i.requests_counted.unplaced_tools.join(", "),
                runs_count(i.requests_counted.unplaced_runs as usize)
            ),
        },
        i.max_lag_ms.map(format::ms).unwrap_or_else(|| "-".into()),
    )?;
    if let Some(level1) = &report.level1 {
        writeln!(
            out,
            "  level 1 (per-run statistics, chart points) computed by {} {}, read from run-level tables",
            level1.engine, level1.version
        )?;
    }
    let headlines: Vec<String> = report
        .conditions
        .iter()
        .enumerate()
        .filter_map(|(c, condition)| {
            let Some(s) = report.headline_of(condition) else {
                // Only the tools' printed percentiles: said as such, never as the headline.
                let printed = condition.headline_printed.as_ref().filter(|_| report.headline.is_percentile())?;
                let (value, note) = context.printed_parts(&printed.percentile, printed.spread.median, &printed.tools);
                return Some(format!("  {}: {value} ({note}; {})", context.condition_label(condition), runs_count(printed.spread.n)));
            };
            // One run has no median and no range: its value.
            if s.n == 1 {
                let value = context.headline_value_of(c, s.median);
                return Some(format!("  {}: {} {value} (1 run)", context.condition_label(condition), context.headline_label));
            }
            Some(format!(
                "  {}: {} median {} ({}–{}, {})",
                context.condition_label(condition),
                context.headline_label,
                context.headline_value_of(c, s.median),
                context.headline_number_of(c, s.min),
                context.headline_number_of(c, s.max),
                runs_count(s.n)
            ))
        })
        .collect();
    listed(&mut out, headlines, all, "conditions")?;
    let ms = |spread: Option<crate::report::Spread>| spread.map(|s| format!("{} ms", format::ms(s.median))).unwrap_or_else(|| "-".into());
    let sessions: Vec<String> = report
        .conditions
        .iter()
        .filter_map(|condition| {
            let s = condition.sessions.as_ref()?;
            Some(format!(
                "  {}: sessions {}, failed {}; medians of the runs: failed share {}, mean session {}, p95 session {}",
                context.condition_label(condition),
                format::count(s.sessions),
                format::count(s.failed),
                format::percent(s.failed_share.median),
                ms(s.mean_ms),
                ms(s.p95_ms),
            ))
        })
        .collect();
    listed(&mut out, sessions, all, "conditions with sessions")?;
    for text in context.dataset_flag_texts() {
        writeln!(out, "warning: dataset: {text}")?;
    }
    let warnings = report.variance.flags.iter().filter(|f| f.is_warning()).count() + report.variance.dataset_flags.len();
    let flags: Vec<String> = report
        .variance
        .flags
        .iter()
        .map(|flag| {
            let level = if flag.is_warning() { "warning" } else { "note" };
            format!("{level}: run {}: {}", flag.run_id, context.flag_text(&flag.run_id, &flag.kind))
        })
        .collect();
    listed(&mut out, flags, all, "flagged runs")?;
    let objectives: Vec<(usize, &crate::report::slo::SloResult)> =
        report.conditions.iter().enumerate().flat_map(|(c, condition)| condition.slo.iter().map(move |s| (c, s))).collect();
    let words = crate::render::i18n::slo::words(crate::model::Lang::En);
    let objective_lines: Vec<String> = objectives
        .iter()
        .map(|&(condition, objective)| {
            let median = objective.median.map_or_else(|| "-".to_string(), |m| context.slo_value(objective, condition, m));
            let margin = context.slo_margin(objective, condition).map_or_else(String::new, |(margin, resolves, close)| {
                [Some(margin), Some(resolves), close].into_iter().flatten().map(|part| format!(", {part}")).collect()
            });
            format!(
                "  slo {}: {}: {}, median {median}, {} runs met it{margin}",
                context.condition_label(&report.conditions[condition]),
                context.slo_objective(objective, condition),
                context.slo_status(objective),
                fill(words.met_of, &[("met", &objective.runs_met.to_string()), ("runs", &objective.runs.to_string())]),
            )
        })
        .collect();
    listed(&mut out, objective_lines, all, "objectives")?;
    let failed = objectives.iter().filter(|(_, o)| o.status != crate::report::slo::SloStatus::Pass).count();
    let total = objectives.len().to_string();
    let mut code = if warnings == 0 {
        writeln!(out, "clean: no run is flagged")?;
        0
    } else if strict {
        writeln!(out, "{warnings} warning(s); failing because of --strict")?;
        super::EXIT_WARNINGS
    } else {
        0
    };
    if slo && failed > 0 {
        writeln!(out, "{}", fill(words.check_failed, &[("fail", &failed.to_string()), ("total", &total)]))?;
        code = super::EXIT_FAILED;
    } else if slo && !objectives.is_empty() {
        writeln!(out, "{}", fill(words.check_passed, &[("total", &total)]))?;
    } else if slo {
        writeln!(out, "no service-level objective: dataset.toml has no [[slo]]")?;
    }
    match std::io::stdout().lock().write_all(crate::terminal::escape(&out).as_bytes()) {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => Err(error.into()),
        _ => Ok(code),
    }
}

/// "1 run", "3 runs".
fn runs_count(n: usize) -> String {
    match n {
        1 => "1 run".to_string(),
        n => format!("{} runs", format::count(n as u64)),
    }
}
