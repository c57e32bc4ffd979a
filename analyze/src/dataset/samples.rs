//! The optional sample tables: large responses, temp files and process resources.

use super::error::Problems;
use super::number::parse_i64;
use super::requests::RunIndex;
use super::table::{TextRow, TextTable};

/// One big response: the server's write and the client's completion.
#[derive(Debug, Clone)]
pub struct LargeResponse {
    pub run: u32,
    pub download_id: String,
    pub write_start_ms: Option<f64>,
    pub write_end_ms: Option<f64>,
    /// `None` when the server never finished writing.
    pub write_s: Option<f64>,
    /// `None` when the client never completed.
    pub client_complete_s: Option<f64>,
    pub bytes_received: u64,
}

/// A reverse proxy's open temp files at one moment.
#[derive(Debug, Clone)]
pub struct TempfileSample {
    pub run: u32,
    pub t_ms: f64,
    pub files: u64,
    pub logical_bytes: u64,
}

/// One process at one moment.
#[derive(Debug, Clone)]
pub struct ResourceSample {
    pub run: u32,
    pub t_ms: f64,
    /// The process group, e.g. `gunicorn`.
    pub process: String,
    pub pid: i64,
    /// Cumulative user + system CPU seconds.
    pub cpu_s: f64,
    pub rss_bytes: u64,
}

fn run_of(table: &TextTable, row: &TextRow, column: usize, index: &RunIndex, problems: &mut Problems) -> Option<u32> {
    let id = row.cells[column].trim();
    match index.get(id.as_bytes()) {
        Some(RunIndex::IGNORED) => None,
        Some(run) => Some(run),
        None => {
            problems.push(table.cell_error(row, column, format!("run_id {id:?} is not in runs.csv")));
            None
        }
    }
}

fn count(table: &TextTable, row: &TextRow, column: usize, problems: &mut Problems) -> Option<u64> {
    let text = row.cells[column].trim();
    match parse_i64(text.as_bytes()) {
        Some(value) if value >= 0 => Some(value as u64),
        _ => {
            problems.push(table.cell_error(row, column, format!("{text:?} is not a count (a whole number, 0 or more)")));
            None
        }
    }
}

fn columns<const N: usize>(table: &TextTable, names: [&str; N], problems: &mut Problems) -> Option<[usize; N]> {
    let found: Vec<Option<usize>> = names.iter().map(|n| table.require(n, problems)).collect();
    let found: Option<Vec<usize>> = found.into_iter().collect();
    found.map(|v| v.try_into().expect("same length"))
}

/// Validates large_responses: times are non-negative; write or completion may be blank when
/// that step never finished.
pub fn parse_large_responses(table: &TextTable, index: &RunIndex, problems: &mut Problems) -> Vec<LargeResponse> {
    let names = ["run_id", "download_id", "write_start_ms", "write_end_ms", "write_s", "client_complete_s", "bytes_received"];
    let Some([run_c, id_c, start_c, end_c, write_c, complete_c, bytes_c]) = columns(table, names, problems) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for row in &table.rows {
        let before = problems.len();
        let run = run_of(table, row, run_c, index, problems);
        let optional = |c: usize, problems: &mut Problems| {
            let value = table.optional_number(row, c, problems);
            if value.is_some_and(|v| v < 0.0) {
                problems.push(table.cell_error(row, c, "is negative"));
            }
            value
        };
        let write_start_ms = optional(start_c, problems);
        let write_end_ms = optional(end_c, problems);
        let write_s = optional(write_c, problems);
        let client_complete_s = optional(complete_c, problems);
        let bytes = count(table, row, bytes_c, problems);
        if let (Some(run), Some(bytes_received), true) = (run, bytes, problems.len() == before) {
            out.push(LargeResponse {
                run,
                download_id: row.cells[id_c].trim().to_string(),
                write_start_ms,
                write_end_ms,
                write_s,
                client_complete_s,
                bytes_received,
            });
        }
    }
    out
}

pub fn parse_tempfiles(table: &TextTable, index: &RunIndex, problems: &mut Problems) -> Vec<TempfileSample> {
    let Some([run_c, t_c, files_c, bytes_c]) = columns(table, ["run_id", "t_ms", "files", "logical_bytes"], problems) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for row in &table.rows {
        let run = run_of(table, row, run_c, index, problems);
        let t_ms = table.number(row, t_c, problems);
        let files = count(table, row, files_c, problems);
        let logical_bytes = count(table, row, bytes_c, problems);
        if let (Some(run), Some(t_ms), Some(files), Some(logical_bytes)) = (run, t_ms, files, logical_bytes) {
            out.push(TempfileSample { run, t_ms, files, logical_bytes });
        }
    }
    out
}

pub fn parse_resources(table: &TextTable, index: &RunIndex, problems: &mut Problems) -> Vec<ResourceSample> {
    let names = ["run_id", "t_ms", "process", "pid", "cpu_s", "rss_bytes"];
    let Some([run_c, t_c, process_c, pid_c, cpu_c, rss_c]) = columns(table, names, problems) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for row in &table.rows {
        let run = run_of(table, row, run_c, index, problems);
        let t_ms = table.number(row, t_c, problems);
        let pid = table.integer(row, pid_c, problems);
        let cpu_s = table.non_negative(row, cpu_c, problems);
        let rss_bytes = count(table, row, rss_c, problems);
        let process = row.cells[process_c].trim().to_string();
        if process.is_empty() {
            problems.push(table.cell_error(row, process_c, "is empty: name the process group, e.g. gunicorn"));
            continue;
        }
        if let (Some(run), Some(t_ms), Some(pid), Some(cpu_s), Some(rss_bytes)) = (run, t_ms, pid, cpu_s, rss_bytes) {
            out.push(ResourceSample { run, t_ms, process, pid, cpu_s, rss_bytes });
        }
    }
    out
}
