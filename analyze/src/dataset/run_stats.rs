//! run_stats.csv (or .parquet): per run, the numbers a tool computed and printed (what `analyze
//! import` keeps from ab, hey, wrk, siege, Locust, oha), or Spark's run-level table; and
//! sources.csv, the files an imported run came from. Both optional; validated like every table.
//!
//! Columns are found by name, so `analyze import`'s form and Spark's (which adds `p<p>_rank`,
//! `ok_responses`, ...) both load. Rules: a known run id at most once, a known `rule`, counts are
//! whole numbers ≥ 0 with errors ≤ requests, times are numbers ≥ 0, and percentiles never
//! decrease as p grows (p50 above p95 is an error naming the p95 cell).

use super::error::{DataError, Problems};
use super::number::is_blank;
use super::table::{TextRow, TextTable};
use crate::model::{percentile_key, Rule};
use std::collections::BTreeMap;

/// One run's row of run_stats.
#[derive(Debug, Clone, PartialEq)]
pub struct RunStats {
    /// Who computed the numbers (`ab`, `spark`, ...); empty when the column is absent.
    pub tool: String,
    pub rule: Rule,
    pub requests: u64,
    /// `None` when the tool cannot count failed requests (an HdrHistogram file holds response
    /// times only): blank in the table, never a 0 the tool did not print.
    pub errors: Option<u64>,
    pub requests_per_s: Option<f64>,
    pub min_ms: Option<f64>,
    pub mean_ms: Option<f64>,
    pub max_ms: Option<f64>,
    /// Percentile (thousandths of a percent) → value in ms.
    pub percentiles_ms: BTreeMap<u32, f64>,
    /// The columns of a level-1 engine's row (Spark's; absent from a tool's): the 2xx responses
    /// ranked, the errors by kind, each percentile's 1-based rank, the largest schedule lag, and
    /// the first send, the last send and the last completion.
    pub ok_responses: Option<u64>,
    pub non_2xx: Option<u64>,
    pub no_response: Option<u64>,
    /// How many response times the tool ranked for its percentiles (an import's `ranked`).
    pub ranked: Option<u64>,
    pub ranks: BTreeMap<u32, u64>,
    pub max_lag_ms: Option<f64>,
    pub first_sent_ms: Option<f64>,
    pub last_sent_ms: Option<f64>,
    pub last_done_ms: Option<f64>,
    /// The line (or row) in the file, for messages.
    pub line: u64,
    /// The tool's figures per request name (tool_labels.csv), in the table's order; empty
    /// when the tool printed none.
    pub labels: Vec<super::tool_labels::ToolLabel>,
}

/// One input file of an imported run (sources.csv).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SourceFile {
    pub file: String,
    pub format: String,
    pub sha256: String,
}

/// Where an imported run came from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Source {
    pub tool: String,
    pub version: String,
    pub files: Vec<SourceFile>,
}

const COUNTS: [&str; 6] = ["requests", "errors", "ok_responses", "non_2xx", "no_response", "ranked"];
const NUMBERS: [&str; 6] = ["requests_per_s", "min_ms", "mean_ms", "max_ms", "headline_percentile", "headline_ms"];
/// A level-1 engine's times within a run: any finite number (a send may precede the run's start,
/// and a lag may be negative).
const TIMES: [&str; 4] = ["max_lag_ms", "first_sent_ms", "last_sent_ms", "last_done_ms"];

/// A `p<label>_ms` or `p<label>_rank` column's percentile and whether it is a rank.
fn percentile_column(name: &str) -> Option<(u32, bool)> {
    let rest = name.strip_prefix('p')?;
    let (label, rank) = match (rest.strip_suffix("_ms"), rest.strip_suffix("_rank")) {
        (Some(label), _) => (label, false),
        (_, Some(label)) => (label, true),
        _ => return None,
    };
    percentile_key(&label.replace('_', ".")).map(|key| (key, rank))
}

/// Validates run_stats and places each row at its run's index.
pub fn parse_run_stats(
    table: &TextTable,
    run_index: &BTreeMap<&str, usize>,
    runs: usize,
    problems: &mut Problems,
) -> Vec<Option<RunStats>> {
    let mut out: Vec<Option<RunStats>> = vec![None; runs];
    let run_id = table.require("run_id", problems);
    let rule = table.require("rule", problems);
    let requests = table.require("requests", problems);
    let errors = table.require("errors", problems);
    for (i, name) in table.columns.iter().enumerate() {
        let known = ["run_id", "rule", "tool", "headline_rank"].contains(&name.as_str())
            || TIMES.contains(&name.as_str())
            || COUNTS.contains(&name.as_str())
            || NUMBERS.contains(&name.as_str())
            || percentile_column(name).is_some();
        if !known {
            problems.push(DataError::field(&table.file, 1, i + 1, name, "is not a run_stats column (see datasets/README.md)"));
        }
    }
    let (Some(run_id), Some(rule), Some(requests), Some(errors)) = (run_id, rule, requests, errors) else { return out };
    let tool = table.column("tool");
    let mut percentile_columns: Vec<(u32, usize)> = table
        .columns
        .iter()
        .enumerate()
        .filter_map(|(i, n)| percentile_column(n).filter(|(_, rank)| !rank).map(|(key, _)| (key, i)))
        .collect();
    percentile_columns.sort();
    for row in &table.rows {
        let id = row.cells[run_id].trim();
        let Some(&index) = run_index.get(id) else {
            problems.push(table.cell_error(row, run_id, format!("{id:?} is not a run of runs.csv")));
            continue;
        };
        if let Some(previous) = &out[index] {
            problems.push(table.cell_error(row, run_id, format!("run {id:?} already has a row (line {})", previous.line)));
            continue;
        }
        let rule_text = row.cells[rule].trim();
        let Some(parsed_rule) = Rule::from_name(rule_text) else {
            let names: Vec<&str> = Rule::ALL.iter().map(|r| r.name()).collect();
            problems.push(table.cell_error(row, rule, format!("{rule_text:?} is not a rule: use one of {}", names.join(", "))));
            continue;
        };
        let before = problems.len();
        let count = |column: usize, problems: &mut Problems| count(table, row, column, problems);
        let (requests_n, errors_n) = (count(requests, problems), optional_count(table, row, errors, problems));
        let mut kinds = COUNTS.iter().skip(2).map(|name| table.column(name).and_then(|c| optional_count(table, row, c, problems)));
        let (ok_responses, non_2xx, no_response, ranked) =
            (kinds.next().flatten(), kinds.next().flatten(), kinds.next().flatten(), kinds.next().flatten());
        let number = |name: &str, problems: &mut Problems| table.column(name).and_then(|c| non_negative(table, row, c, problems));
        let time = |name: &str, problems: &mut Problems| table.column(name).and_then(|c| table.optional_number(row, c, problems));
        let stats = RunStats {
            tool: tool.map(|c| row.cells[c].trim().to_string()).unwrap_or_default(),
            rule: parsed_rule,
            requests: requests_n.unwrap_or(0),
            errors: errors_n,
            requests_per_s: number("requests_per_s", problems),
            min_ms: number("min_ms", problems),
            mean_ms: number("mean_ms", problems),
            max_ms: number("max_ms", problems),
            percentiles_ms: BTreeMap::new(),
            ok_responses,
            non_2xx,
            no_response,
            ranked,
            ranks: BTreeMap::new(),
            max_lag_ms: time("max_lag_ms", problems),
            first_sent_ms: time("first_sent_ms", problems),
            last_sent_ms: time("last_sent_ms", problems),
            last_done_ms: time("last_done_ms", problems),
            line: row.place,
            labels: Vec::new(),
        };
        for name in NUMBERS.iter().skip(4) {
            number(name, problems);
        }
        let mut stats = stats;
        stats.percentiles_ms = ascending_percentiles(table, row, &percentile_columns, problems);
        for (i, name) in table.columns.iter().enumerate() {
            if name == "headline_rank" {
                optional_count(table, row, i, problems);
            } else if let Some((key, true)) = percentile_column(name) {
                if let Some(rank) = optional_count(table, row, i, problems) {
                    stats.ranks.insert(key, rank);
                }
            }
        }
        if let (Some(r), Some(e)) = (requests_n, errors_n) {
            if e > r {
                problems.push(table.cell_error(row, errors, format!("{e} errors of {r} requests: errors cannot exceed requests")));
            }
            if let Some(ranked) = stats.ranked.filter(|ranked| *ranked > r) {
                let column = table.column("ranked").expect("read above");
                problems.push(table.cell_error(
                    row,
                    column,
                    format!("{ranked} ranked of {r} requests: a tool ranks at most every request"),
                ));
            }
        }
        if let (Some(min), Some(max)) = (stats.min_ms, stats.max_ms) {
            if min > max {
                problems.push(table.cell_error(row, table.column("min_ms").expect("read above"), format!("{min} is above max_ms = {max}")));
            }
        }
        if problems.len() == before {
            out[index] = Some(stats);
        }
    }
    out
}

pub(super) fn count(table: &TextTable, row: &TextRow, column: usize, problems: &mut Problems) -> Option<u64> {
    let text = row.cells[column].trim();
    match text.parse::<u64>() {
        Ok(v) => Some(v),
        Err(_) => {
            problems.push(table.cell_error(row, column, format!("{text:?} is not a count (a whole number ≥ 0)")));
            None
        }
    }
}

pub(super) fn optional_count(table: &TextTable, row: &TextRow, column: usize, problems: &mut Problems) -> Option<u64> {
    if is_blank(row.cells[column].as_bytes()) {
        return None;
    }
    count(table, row, column, problems)
}

/// A row's percentile cells (`columns`: (key, column), p ascending), each a number >= 0 and none
/// below the one before it: a percentile cannot decrease as p grows. Blank cells are left out.
pub(super) fn ascending_percentiles(
    table: &TextTable,
    row: &TextRow,
    columns: &[(u32, usize)],
    problems: &mut Problems,
) -> BTreeMap<u32, f64> {
    let mut values = BTreeMap::new();
    let mut previous: Option<(f64, usize)> = None;
    for &(key, column) in columns {
        let Some(value) = non_negative(table, row, column, problems) else { continue };
        if let Some((lower, lower_column)) = previous.filter(|(lower, _)| value < *lower) {
            problems.push(table.cell_error(
                row,
                column,
                format!("{value} is below {} = {lower}: a percentile cannot decrease as p grows", table.columns[lower_column]),
            ));
        }
        previous = Some((value, column));
        values.insert(key, value);
    }
    values
}

pub(super) fn non_negative(table: &TextTable, row: &TextRow, column: usize, problems: &mut Problems) -> Option<f64> {
    let text = row.cells[column].trim();
    if text.is_empty() {
        return None;
    }
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Some(v),
        _ => {
            problems.push(table.cell_error(row, column, format!("{text:?} is not a number ≥ 0")));
            None
        }
    }
}

/// Validates sources.csv and groups its files by run.
pub fn parse_sources(table: &TextTable, run_index: &BTreeMap<&str, usize>, runs: usize, problems: &mut Problems) -> Vec<Option<Source>> {
    let mut out: Vec<Option<Source>> = vec![None; runs];
    let columns: Vec<Option<usize>> =
        ["run_id", "tool", "format", "version", "file", "sha256"].iter().map(|c| table.require(c, problems)).collect();
    let [Some(run_id), Some(tool), Some(format), Some(version), Some(file), Some(sha)] = columns[..] else { return out };
    for row in &table.rows {
        let id = row.cells[run_id].trim();
        let Some(&index) = run_index.get(id) else {
            problems.push(table.cell_error(row, run_id, format!("{id:?} is not a run of runs.csv")));
            continue;
        };
        let digest = row.cells[sha].trim();
        if digest.len() != 64 || !digest.bytes().all(|b| b.is_ascii_hexdigit()) {
            problems.push(table.cell_error(row, sha, format!("{digest:?} is not a sha256 (64 hex digits)")));
            continue;
        }
        let source = out[index].get_or_insert_with(|| Source {
            tool: row.cells[tool].trim().to_string(),
            version: row.cells[version].trim().to_string(),
            files: Vec::new(),
        });
        source.files.push(SourceFile {
            file: row.cells[file].trim().to_string(),
            format: row.cells[format].trim().to_string(),
            sha256: digest.to_lowercase(),
        });
    }
    out
}
