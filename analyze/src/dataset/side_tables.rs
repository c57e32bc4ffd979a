//! The optional sample tables: large responses, temp files and process resources.

use super::error::{shown, Problems};
use super::number::parse_i64;
use super::requests::RunIndex;
use super::table::{TextRow, TextTable};
use std::collections::HashMap;

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

pub(super) fn run_of(table: &TextTable, row: &TextRow, column: usize, index: &RunIndex, problems: &mut Problems) -> Option<u32> {
    let id = row.cells[column].trim();
    match index.get(id.as_bytes()) {
        Some(RunIndex::IGNORED) => None,
        Some(run) => Some(run),
        None => {
            problems.push(table.cell_error(row, column, format!("run_id {} is not in runs.csv", shown(id))));
            None
        }
    }
}

pub(super) fn count(table: &TextTable, row: &TextRow, column: usize, problems: &mut Problems) -> Option<u64> {
    let text = row.cells[column].trim();
    match parse_i64(text.as_bytes()) {
        Some(value) if value >= 0 => Some(value as u64),
        _ => {
            problems.push(table.cell_error(row, column, format!("{} is not a count (a whole number, 0 or more)", shown(text))));
            None
        }
    }
}

pub(super) fn columns<const N: usize>(table: &TextTable, names: [&str; N], problems: &mut Problems) -> Option<[usize; N]> {
    let found: Vec<Option<usize>> = names.iter().map(|n| table.require(n, problems)).collect();
    let found: Option<Vec<usize>> = found.into_iter().collect();
    found.map(|v| v.try_into().expect("same length"))
}

/// Validates large_responses: times are non-negative, a write does not end before it starts,
/// and a download id appears once per run (a repeated one would count one download twice in
/// the run's medians); write or completion may be blank when that step never finished.
pub fn parse_large_responses(table: &TextTable, index: &RunIndex, problems: &mut Problems) -> Vec<LargeResponse> {
    let names = ["run_id", "download_id", "write_start_ms", "write_end_ms", "write_s", "client_complete_s", "bytes_received"];
    let Some([run_c, id_c, start_c, end_c, write_c, complete_c, bytes_c]) = columns(table, names, problems) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut first_line: HashMap<(u32, String), u64> = HashMap::new();
    for row in &table.rows {
        let before = problems.len();
        let run = run_of(table, row, run_c, index, problems);
        let download_id = row.cells[id_c].trim();
        if download_id.is_empty() {
            problems.push(table.cell_error(row, id_c, "is empty: every download needs an id"));
        } else if let Some(run) = run {
            match first_line.get(&(run, download_id.to_string())) {
                Some(first) => problems.push(table.cell_error(
                    row,
                    id_c,
                    format!(
                        "download {} of run {} appears twice (first on {} {first})",
                        shown(download_id),
                        shown(row.cells[run_c].trim()),
                        table.place_word()
                    ),
                )),
                None => {
                    first_line.insert((run, download_id.to_string()), row.place);
                }
            }
        }
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
        if let (Some(start), Some(end)) = (write_start_ms, write_end_ms) {
            if end < start {
                problems.push(table.cell_error(
                    row,
                    end_c,
                    format!("{end} is before write_start_ms {start}: a write cannot end before it starts"),
                ));
            }
        }
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
    // Per (run, pid): every sample's time, cumulative CPU and row, to check the counter below.
    let mut series: PidSeries = HashMap::new();
    for (row_index, row) in table.rows.iter().enumerate() {
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
            series.entry((run, pid)).or_default().push((t_ms, cpu_s, row_index));
            out.push(ResourceSample { run, t_ms, process, pid, cpu_s, rss_bytes });
        }
    }
    check_resource_series(table, series, [t_c, cpu_c], problems);
    out
}

/// Per (run, pid): each sample's (t_ms, cpu_s, row index).
type PidSeries = HashMap<(u32, i64), Vec<(f64, f64, usize)>>;

/// A process sampled twice at one time would count its memory twice in the group's peak; a
/// cumulative CPU counter that goes down would make the CPU share meaningless. Both are errors at
/// the later row (in time order, rows may come in any order).
fn check_resource_series(table: &TextTable, series: PidSeries, [t_c, cpu_c]: [usize; 2], problems: &mut Problems) {
    let mut found = Vec::new();
    for ((_, pid), mut samples) in series {
        samples.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.2.cmp(&b.2)));
        for pair in samples.windows(2) {
            let ((t0, cpu0, row0), (t1, cpu1, row1)) = (pair[0], pair[1]);
            let (earlier, later) = (&table.rows[row0], &table.rows[row1]);
            if t1 == t0 {
                found.push((
                    row1,
                    table.cell_error(
                        later,
                        t_c,
                        format!("pid {pid} is sampled twice at {t1} ms (first on {} {})", table.place_word(), earlier.place),
                    ),
                ));
            } else if cpu1 < cpu0 {
                found.push((
                    row1,
                    table.cell_error(
                        later,
                        cpu_c,
                        format!(
                            "{cpu1} is less than {cpu0} at {t0} ms ({} {}): cumulative CPU seconds of pid {pid} cannot decrease",
                            table.place_word(),
                            earlier.place
                        ),
                    ),
                ));
            }
        }
    }
    // In file order, whatever the hash map's order, so messages are the same on every run.
    found.sort_by_key(|(row, _)| *row);
    for (_, error) in found {
        problems.push(error);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::error::Problems;

    fn problems_of(parse: impl Fn(&TextTable, &RunIndex, &mut Problems), csv: &str) -> Vec<String> {
        let mut problems = Problems::default();
        let table = TextTable::parse_csv("t.csv", csv.as_bytes(), &mut problems).unwrap();
        let index = RunIndex::new(["a", "b"]);
        parse(&table, &index, &mut problems);
        problems.errors().iter().map(ToString::to_string).collect()
    }

    const RESOURCES: &str = "run_id,t_ms,process,pid,cpu_s,rss_bytes\n";

    #[test]
    fn a_pid_sampled_twice_at_one_time_is_an_error() {
        let csv = format!("{RESOURCES}a,0,g,7,0.1,100\na,0,g,8,0.1,100\nb,0,g,7,0.1,100\na,0,g,7,0.1,100\n");
        let got = problems_of(|t, i, p| drop(parse_resources(t, i, p)), &csv);
        assert_eq!(got, vec!["t.csv:5:2: t_ms: pid 7 is sampled twice at 0 ms (first on line 2)"]);
    }

    #[test]
    fn a_decreasing_cpu_counter_is_an_error_in_time_order() {
        let csv = format!("{RESOURCES}a,200,g,7,0.5,100\na,0,g,7,0.1,100\na,100,g,7,0.7,100\n");
        let got = problems_of(|t, i, p| drop(parse_resources(t, i, p)), &csv);
        assert_eq!(got, vec!["t.csv:2:5: cpu_s: 0.5 is less than 0.7 at 100 ms (line 4): cumulative CPU seconds of pid 7 cannot decrease"]);
    }

    const LARGE: &str = "run_id,download_id,write_start_ms,write_end_ms,write_s,client_complete_s,bytes_received\n";

    #[test]
    fn a_download_id_repeated_in_a_run_is_an_error() {
        let csv = format!("{LARGE}a,d1,1,2,0.001,1,10\nb,d1,1,2,0.001,1,10\na,d1,1,2,0.001,1,10\n");
        let got = problems_of(|t, i, p| drop(parse_large_responses(t, i, p)), &csv);
        assert_eq!(got, vec!["t.csv:4:2: download_id: download \"d1\" of run \"a\" appears twice (first on line 2)"]);
    }

    #[test]
    fn a_write_that_ends_before_it_starts_is_an_error() {
        let csv = format!("{LARGE}a,d1,5,2,0.001,1,10\na,d2,5,,,,10\n");
        let got = problems_of(|t, i, p| drop(parse_large_responses(t, i, p)), &csv);
        assert_eq!(got, vec!["t.csv:2:4: write_end_ms: 2 is before write_start_ms 5: a write cannot end before it starts"]);
    }
}
