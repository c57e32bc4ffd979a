//! A dataset whose level 1 was computed elsewhere (Apache Spark, `spark/analyze_level1.py`):
//! instead of request rows it holds `level1.json` (the engine and its version), run_stats with
//! `rule = nearest-rank` (the counts, each percentile with its rank, min, max, schedule lag), and
//! what the charts draw, already reduced the way `stats/figures.rs` and `stats/bands.rs` reduce
//! rows: run_statuses, run_ecdf, run_points, run_bands and run_errors (spark/README.md lists their
//! columns).
//!
//! run_stats itself is validated by [`super::run_stats`], as for an imported tool's numbers. This
//! module checks only what ties the tables to each other and to the statistics the report shows:
//! every run has its row, the counts add up, every percentile the report shows is there with the
//! nearest rank ceil(p·n/100), and every chart point names a known run and a rank within its run.

use super::error::{shown, DataError, Problems};
use super::run_stats::RunStats;
use super::table::{TextRow, TextTable};
use super::{Manifest, Run, RunRequests};
use crate::model::{Percentile, Rule};
use std::collections::BTreeMap;
use std::path::Path;

/// The file that marks a dataset of run-level tables.
pub const MARKER: &str = "level1.json";

/// What computed level 1, as level1.json says: shown in Methods and in summary.json.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Engine {
    pub engine: String,
    pub version: String,
}

/// The run-level tables of the whole dataset.
#[derive(Debug, Clone)]
pub struct Level1 {
    pub engine: Engine,
    /// Per run, same index as the dataset's runs.
    pub runs: Vec<Level1Run>,
}

/// One run's statistics and chart inputs, as level 1 computed them.
#[derive(Debug, Clone, Default)]
pub struct Level1Run {
    /// The 2xx responses, the values ranked.
    pub ok_responses: u64,
    /// Percentile (thousandths of a percent) → (value in ms, 1-based rank); empty without 2xx.
    pub percentiles: BTreeMap<u32, (f64, u64)>,
    pub max_ms: Option<f64>,
    /// The engine's mean of the 2xx latencies (run_stats' mean_ms), in ms.
    pub mean_ms: Option<f64>,
    /// The ECDF's (rank, latency ms), ascending by rank.
    pub ecdf: Vec<(u64, f64)>,
    /// The latency-over-time chart's (t_s, latency ms) of a run drawn point by point.
    pub points: Vec<(f64, f64)>,
    /// The latency-over-time chart's columns of a run drawn in columns, in the table's order.
    pub columns: Vec<Level1Column>,
    /// Error marks: (t_s, latency ms or none for no response, status).
    pub errors: Vec<(f64, Option<f64>, u16)>,
}

/// One row of run_bands: a column of send time of a run drawn in columns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Level1Column {
    /// Its index, 0 to [`crate::model::time_columns::COLUMNS`] - 1.
    pub column: usize,
    pub requests: u64,
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub max_ms: f64,
    /// The slowest response's send time, s since the run's start.
    pub slowest_s: f64,
    /// Distinct send times, 1 to [`crate::model::time_columns::MIN_SEND_TIMES`].
    pub send_times: u8,
}

/// level1.json: `None` when absent; a problem when it is there but says no engine, or a rule
/// other than the nearest rank analyze's statistics use.
pub fn read_marker(dir: &Path, problems: &mut Problems) -> Option<Engine> {
    #[derive(serde::Deserialize)]
    struct Marker {
        engine: String,
        version: String,
        rule: String,
    }
    let text = super::read_text(dir, MARKER, problems)?;
    match serde_json::from_str::<Marker>(&text) {
        Ok(marker) if marker.rule == Rule::NearestRank.name() => Some(Engine { engine: marker.engine, version: marker.version }),
        Ok(marker) => {
            let message = format!("rule {}: analyze reports nearest-rank percentiles, so level 1 must use that rule", shown(&marker.rule));
            problems.push(DataError::file(MARKER, message));
            None
        }
        Err(error) => {
            problems.push(DataError::at(MARKER, error.line() as u64, error.column(), error.to_string()));
            None
        }
    }
}

/// Checks run_stats against the runs and the report's percentiles, reads the chart tables, and
/// gives each run its counters (as the request rows would have) and its level-1 numbers.
pub fn load(
    dir: &Path,
    engine: Engine,
    manifest: &Manifest,
    runs: (&[Run], &str),
    stats: (&TextTable, &[Option<RunStats>]),
    problems: &mut Problems,
) -> (Vec<RunRequests>, Level1) {
    let (runs, runs_file) = runs;
    let (stats_table, stats) = stats;
    let index: BTreeMap<&str, usize> = runs.iter().enumerate().map(|(i, r)| (r.run_id.as_str(), i)).collect();
    let wanted = manifest.reported_percentiles();
    let mut counted = vec![RunRequests::default(); runs.len()];
    let mut level1 = Level1 { engine, runs: vec![Level1Run::default(); runs.len()] };
    for (i, run) in runs.iter().enumerate() {
        let Some(row) = &stats[i] else {
            let message = format!(
                "run {} has no valid row in {} ({MARKER} says level 1 was computed elsewhere)",
                shown(&run.run_id),
                stats_table.file
            );
            problems.push(DataError::line(runs_file, run.line, message));
            continue;
        };
        if let Some((into, out)) = check_run(stats_table, row, &wanted, problems) {
            (counted[i], level1.runs[i]) = (into, out);
        }
    }
    // Any of these may have no rows: no run had an error, or none a 2xx response.
    let mut read = |stem: &str| super::read_table(dir, stem, true, problems);
    let tables = [read("run_statuses"), read("run_ecdf"), read("run_points"), read("run_bands"), read("run_errors")];
    let [Some(statuses), Some(ecdf), Some(points), Some(bands), Some(errors)] = tables else { return (counted, level1) };
    read_statuses(&statuses, &index, &mut counted, problems);
    read_ecdf(&ecdf, &index, &mut level1.runs, problems);
    read_rows(&points, &["run_id", "t_s", "latency_ms"], &index, problems, |table, row, c, run, problems| {
        let t_s = table.number(row, c[1], problems)?;
        let latency = table.non_negative(row, c[2], problems)?;
        level1.runs[run].points.push((t_s, latency));
        Some(())
    });
    read_bands(&bands, &index, &mut level1.runs, problems);
    read_rows(&errors, &["run_id", "t_s", "latency_ms", "status"], &index, problems, |table, row, c, run, problems| {
        let t_s = table.number(row, c[1], problems)?;
        let latency = match table.optional_number(row, c[2], problems) {
            Some(value) if value < 0.0 => {
                problems.push(table.cell_error(row, c[2], format!("{value} is negative")));
                return None;
            }
            other => other,
        };
        let status = status(table, row, c[3], problems)?;
        level1.runs[run].errors.push((t_s, latency, status));
        Some(())
    });
    (counted, level1)
}

/// One run's row: the errors by kind add up, and every percentile the report shows is there,
/// taken at the nearest rank of the run's 2xx responses.
fn check_run(table: &TextTable, stats: &RunStats, wanted: &[Percentile], problems: &mut Problems) -> Option<(RunRequests, Level1Run)> {
    let row = table.rows.iter().find(|r| r.place == stats.line).expect("a parsed row is in its table");
    let at = |name: &str| table.column(name).unwrap_or(0);
    let mut fail = |name: &str, message: String| -> Option<(RunRequests, Level1Run)> {
        problems.push(table.cell_error(row, at(name), message));
        None
    };
    if stats.rule != Rule::NearestRank {
        return fail(
            "rule",
            format!("is {}: level 1 computed elsewhere must use nearest-rank, the rule of analyze's statistics", stats.rule.name()),
        );
    }
    let (Some(ok), Some(non_2xx), Some(no_response)) = (stats.ok_responses, stats.non_2xx, stats.no_response) else {
        return fail("requests", "needs ok_responses, non_2xx and no_response beside it in a level-1 dataset".to_string());
    };
    if ok + non_2xx + no_response != stats.requests {
        return fail(
            "requests",
            format!("{} is not ok_responses + non_2xx + no_response = {}", stats.requests, ok + non_2xx + no_response),
        );
    }
    if Some(non_2xx + no_response) != stats.errors {
        let errors = stats.errors.map_or_else(|| "blank".to_string(), |e| e.to_string());
        return fail("errors", format!("{errors} is not non_2xx + no_response = {}", non_2xx + no_response));
    }
    let mut percentiles = BTreeMap::new();
    for p in wanted {
        let column = format!("p{}_ms", p.key().replace('.', "_"));
        let pair = (stats.percentiles_ms.get(&p.thousandths()), stats.ranks.get(&p.thousandths()));
        match (ok, pair) {
            (0, (None, None)) => {}
            (0, _) => return fail(&column, "has a value, but the run has no 2xx response to rank".to_string()),
            (n, (Some(&value), Some(&rank))) if rank == p.rank(n) => {
                percentiles.insert(p.thousandths(), (value, rank));
            }
            (n, (Some(_), Some(&rank))) => {
                return fail(&column, format!("was taken at rank {rank}, not the nearest rank {} of {n}", p.rank(n)));
            }
            (_, _) => return fail(&column, format!("and its rank are needed: the report shows p{p}")),
        }
    }
    if (ok > 0) != stats.max_ms.is_some() {
        return fail("max_ms", format!("must be given exactly when the run has 2xx responses ({ok} here)"));
    }
    let counted = RunRequests {
        requests: stats.requests,
        non_2xx,
        no_response,
        max_lag_ms: stats.max_lag_ms,
        last_sent_ms: stats.last_sent_ms,
        first_sent_ms: stats.first_sent_ms,
        last_done_ms: stats.last_done_ms,
        ..RunRequests::default()
    };
    Some((counted, Level1Run { ok_responses: ok, percentiles, max_ms: stats.max_ms, mean_ms: stats.mean_ms, ..Level1Run::default() }))
}

/// run_statuses: one row per run and status, adding up to the run's requests.
fn read_statuses(table: &TextTable, index: &BTreeMap<&str, usize>, counted: &mut [RunRequests], problems: &mut Problems) {
    let mut lines: BTreeMap<(usize, u16), u64> = BTreeMap::new();
    let mut last_row: BTreeMap<usize, &TextRow> = BTreeMap::new();
    read_rows(table, &["run_id", "status", "requests"], index, problems, |table, row, c, run, problems| {
        let status = status(table, row, c[1], problems)?;
        let requests = count(table, row, c[2], problems)?;
        if let Some(previous) = lines.insert((run, status), row.place) {
            let message = format!("status {status} of this run already has a row ({} {previous})", table.place_word());
            problems.push(table.cell_error(row, c[1], message));
            return None;
        }
        counted[run].statuses.insert(status, requests);
        last_row.insert(run, row);
        Some(())
    });
    for (run, row) in last_row {
        let sum: u64 = counted[run].statuses.values().sum();
        if sum != counted[run].requests {
            let message = format!("the run's statuses add up to {sum} requests, run_stats says {}", counted[run].requests);
            problems.push(table.row_error(row, message));
        }
    }
}

/// run_ecdf: ranks within 1..=n, each once, the latencies never falling as the rank grows.
fn read_ecdf(table: &TextTable, index: &BTreeMap<&str, usize>, runs: &mut [Level1Run], problems: &mut Problems) {
    let mut rows: Vec<Vec<(u64, f64, &TextRow, &str)>> = vec![Vec::new(); runs.len()];
    read_rows(table, &["run_id", "rank", "latency_ms"], index, problems, |table, row, c, run, problems| {
        let rank = count(table, row, c[1], problems)?;
        let latency = table.non_negative(row, c[2], problems)?;
        if !(1..=runs[run].ok_responses).contains(&rank) {
            let n = runs[run].ok_responses;
            problems.push(table.cell_error(row, c[1], format!("{rank} is not a rank of the run's {n} 2xx responses (1 to {n})")));
            return None;
        }
        rows[run].push((rank, latency, row, row.cells[c[0]].trim()));
        Some(())
    });
    for (run, mut points) in rows.into_iter().enumerate() {
        points.sort_by_key(|p| p.0);
        for pair in points.windows(2) {
            let ((rank, low, _, _), (next, high, row, id)) = (pair[0], pair[1]);
            if rank == next || high < low {
                let why = if rank == next { "appears twice" } else { "has a lower latency than the rank before it" };
                problems.push(table.row_error(row, format!("rank {next} of run_id {} {why}", shown(id))));
            }
        }
        runs[run].ecdf = points.into_iter().map(|(rank, latency, _, _)| (rank, latency)).collect();
    }
}

/// run_bands: per run and column of send time (0 to COLUMNS - 1, each once), the column's 2xx
/// responses, p50 <= p95 <= max_ms, the slowest's send time and the count of distinct send
/// times (1 to 3); the columns' responses add up to the run's 2xx responses.
fn read_bands(table: &TextTable, index: &BTreeMap<&str, usize>, runs: &mut [Level1Run], problems: &mut Problems) {
    use crate::model::time_columns::{COLUMNS, MIN_SEND_TIMES};
    let names = ["run_id", "column", "requests", "p50_ms", "p95_ms", "max_ms", "slowest_t_s", "send_times"];
    let mut seen: BTreeMap<(usize, u64), u64> = BTreeMap::new();
    let mut last_row: BTreeMap<usize, &TextRow> = BTreeMap::new();
    read_rows(table, &names, index, problems, |table, row, c, run, problems| {
        let column = count(table, row, c[1], problems)?;
        if column >= COLUMNS as u64 {
            problems.push(table.cell_error(row, c[1], format!("{column} is not a column of send time (0 to {})", COLUMNS - 1)));
            return None;
        }
        if let Some(previous) = seen.insert((run, column), row.place) {
            problems.push(table.cell_error(
                row,
                c[1],
                format!("column {column} of this run already has a row ({} {previous})", table.place_word()),
            ));
            return None;
        }
        let requests = count(table, row, c[2], problems)?;
        let (p50, p95, max) =
            (table.non_negative(row, c[3], problems)?, table.non_negative(row, c[4], problems)?, table.non_negative(row, c[5], problems)?);
        if requests == 0 || p50 > p95 || p95 > max {
            problems.push(
                table.row_error(row, format!("needs requests >= 1 and p50_ms <= p95_ms <= max_ms, not {requests}, {p50}, {p95}, {max}")),
            );
            return None;
        }
        let slowest_s = table.number(row, c[6], problems)?;
        let send_times = count(table, row, c[7], problems)?;
        if !(1..=MIN_SEND_TIMES as u64).contains(&send_times) {
            problems.push(table.cell_error(row, c[7], format!("{send_times} is not a count of send times from 1 to {MIN_SEND_TIMES}")));
            return None;
        }
        runs[run].columns.push(Level1Column {
            column: column as usize,
            requests,
            p50_ms: p50,
            p95_ms: p95,
            max_ms: max,
            slowest_s,
            send_times: send_times as u8,
        });
        last_row.insert(run, row);
        Some(())
    });
    for (run, row) in last_row {
        let sum: u64 = runs[run].columns.iter().map(|c| c.requests).sum();
        if sum != runs[run].ok_responses {
            let message = format!("the run's columns add up to {sum} 2xx responses, run_stats says {}", runs[run].ok_responses);
            problems.push(table.row_error(row, message));
        }
    }
}

/// Reads each row of `table` that names a known run, with the columns `names` (`run_id` first).
fn read_rows<'t>(
    table: &'t TextTable,
    names: &[&str],
    index: &BTreeMap<&str, usize>,
    problems: &mut Problems,
    mut each: impl FnMut(&'t TextTable, &'t TextRow, &[usize], usize, &mut Problems) -> Option<()>,
) {
    let columns: Option<Vec<usize>> = names.iter().map(|n| table.require(n, problems)).collect();
    let Some(columns) = columns else { return };
    for row in &table.rows {
        let id = row.cells[columns[0]].trim();
        match index.get(id) {
            Some(&run) => {
                each(table, row, &columns, run, problems);
            }
            None => problems.push(table.cell_error(row, columns[0], format!("run_id {} is not in runs.csv", shown(id)))),
        }
    }
}

fn count(table: &TextTable, row: &TextRow, column: usize, problems: &mut Problems) -> Option<u64> {
    match table.integer(row, column, problems)? {
        value if value >= 0 => Some(value as u64),
        value => {
            problems.push(table.cell_error(row, column, format!("{value} is negative: a count cannot be")));
            None
        }
    }
}

/// An HTTP status, or 0 for no response.
fn status(table: &TextTable, row: &TextRow, column: usize, problems: &mut Problems) -> Option<u16> {
    match table.integer(row, column, problems)? {
        value @ 0..=999 => Some(value as u16),
        value => {
            problems.push(table.cell_error(row, column, format!("{value} is not an HTTP status (0 for no response, else 100 to 999)")));
            None
        }
    }
}
