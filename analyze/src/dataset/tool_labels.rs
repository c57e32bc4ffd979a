//! tool_labels.csv (or .parquet): per imported run and request name, the numbers the tool
//! printed for that name, when it reports per name but writes no request rows (Locust's
//! per-name rows and `--json` entries). Optional; each row belongs to a run of run_stats.
//!
//! Rules: a label at most once per run, the text rule of the requests' `label` column
//! ([`request_row::check_label`]), counts whole ≥ 0 with errors ≤ requests, times ≥ 0,
//! percentiles that never decrease as p grows, and a run's labels adding up to the requests and
//! errors of its run_stats row (the tool's per-name figures are its whole run split by name).

use super::error::{DataError, Problems};
use super::run_stats::{ascending_percentiles, count, non_negative, RunStats};
use super::table::TextTable;
use crate::model::Percentile;
use std::collections::BTreeMap;

/// One request name's figures as the tool printed them.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolLabel {
    pub label: String,
    pub requests: u64,
    /// The requests the tool counted as failed, by its own rule.
    pub errors: u64,
    /// Percentile (thousandths of a percent, [`Percentile::BY_LABEL`]) → value in ms.
    pub percentiles_ms: BTreeMap<u32, f64>,
    pub max_ms: Option<f64>,
    /// The line (or row) in the file, for messages.
    pub line: u64,
}

/// The table's columns: the run and the name, then its figures.
pub const COLUMNS: [&str; 8] = ["run_id", "label", "requests", "errors", "p50_ms", "p95_ms", "p99_ms", "max_ms"];

/// The percentile of each percentile column, in column order.
fn percentile_columns() -> [(u32, &'static str); 3] {
    let by_label = Percentile::BY_LABEL;
    [(by_label[0].thousandths(), COLUMNS[4]), (by_label[1].thousandths(), COLUMNS[5]), (by_label[2].thousandths(), COLUMNS[6])]
}

/// Validates tool_labels and gives each row to its run's run_stats.
pub fn attach(table: &TextTable, run_index: &BTreeMap<&str, usize>, stats: &mut [Option<RunStats>], problems: &mut Problems) {
    for (i, name) in table.columns.iter().enumerate() {
        if !COLUMNS.contains(&name.as_str()) {
            problems.push(DataError::field(&table.file, 1, i + 1, name, "is not a tool_labels column (see datasets/README.md)"));
        }
    }
    let required: Vec<Option<usize>> = COLUMNS[..4].iter().map(|c| table.require(c, problems)).collect();
    let (Some(run_id), Some(label), Some(requests), Some(errors)) = (required[0], required[1], required[2], required[3]) else { return };
    let percentiles: Vec<(u32, usize)> = percentile_columns().iter().filter_map(|(key, c)| table.column(c).map(|i| (*key, i))).collect();
    let max = table.column("max_ms");
    for row in &table.rows {
        let id = row.cells[run_id].trim();
        let Some(run) = run_index.get(id).and_then(|&i| stats[i].as_mut()) else {
            problems.push(table.cell_error(
                row,
                run_id,
                format!("{id:?} is not a run of run_stats (a tool's per-name figures belong to its run's)"),
            ));
            continue;
        };
        let name = match request_row::label_text(&row.cells[label]) {
            Ok(name) => name.to_string(),
            Err(why) => {
                problems.push(table.cell_error(row, label, why));
                continue;
            }
        };
        if let Some(previous) = run.labels.iter().find(|l| l.label == name) {
            problems.push(table.cell_error(row, label, format!("run {id:?} already has label {name:?} (line {})", previous.line)));
            continue;
        }
        let before = problems.len();
        let (requests_n, errors_n) = (count(table, row, requests, problems), count(table, row, errors, problems));
        let figures = ToolLabel {
            label: name,
            requests: requests_n.unwrap_or(0),
            errors: errors_n.unwrap_or(0),
            max_ms: max.and_then(|c| non_negative(table, row, c, problems)),
            percentiles_ms: ascending_percentiles(table, row, &percentiles, problems),
            line: row.place,
        };
        if figures.errors > figures.requests {
            problems.push(table.cell_error(
                row,
                errors,
                format!("{} errors of {} requests: errors cannot exceed requests", figures.errors, figures.requests),
            ));
        }
        if problems.len() == before {
            run.labels.push(figures);
        }
    }
    for run in stats.iter().flatten().filter(|r| !r.labels.is_empty()) {
        let requests: u64 = run.labels.iter().map(|l| l.requests).sum();
        let errors: u64 = run.labels.iter().map(|l| l.errors).sum();
        if requests != run.requests || run.errors.is_some_and(|e| e != errors) {
            let line = run.labels.last().map_or(1, |l| l.line);
            problems.push(DataError::line(
                &table.file,
                line,
                format!(
                    "the labels of the run on line {} of run_stats add up to {requests} requests and {errors} errors, but its row says {} and {}: a tool's per-name figures split its whole run",
                    run.line,
                    run.requests,
                    run.errors.map_or("–".to_string(), |e| e.to_string())
                ),
            ));
        }
    }
}
