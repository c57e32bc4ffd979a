//! oha: `--output-format json` (its summary, latency percentiles and status counts; times in
//! seconds, as f64), `--output-format csv` (one row per response) and `--db-url`'s sqlite
//! database (one row per response, in a table `oha`, read through SQLite).
//!
//! Traps (oha 1.16's printer.rs and db.rs): its percentiles rank every response (any status),
//! not only the 2xx ones; requests that got no response are in `errorDistribution` and in neither
//! the CSV nor the database; the CSV's times are seconds from the run's start with no clock time;
//! the database appends every run to the same table, each with its `run` (Unix seconds of its
//! start); with `--latency-correction` a duration counts from when the request was scheduled.

use super::error::ImportError;
use super::reported::{Count, Place, Printed, ToolReported};
use super::text::{parse_shifted, CsvStream};
use super::{Message, NoteKey};
use super::{Piece, Row, Start};
use crate::model::{percentile_key, Rule};
use std::collections::BTreeMap;

pub fn json(file: &str, text: &str) -> Result<Piece, ImportError> {
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Summary {
        slowest: Option<f64>,
        fastest: Option<f64>,
        average: Option<f64>,
        requests_per_sec: f64,
        total: Option<f64>,
    }
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Output {
        summary: Summary,
        latency_percentiles: BTreeMap<String, Option<f64>>,
        #[serde(deserialize_with = "super::json::count_map")]
        status_code_distribution: BTreeMap<String, u64>,
        #[serde(default, deserialize_with = "super::json::count_map")]
        error_distribution: BTreeMap<String, u64>,
    }
    let out: Output = super::json::document(file, text, "oha's JSON")?;
    let place = |needle: &str| -> Place {
        let (line, column) =
            text.lines().enumerate().find_map(|(i, l)| l.find(needle).map(|c| (i as u64 + 1, c as u64 + 1))).unwrap_or((1, 1));
        Place::new(file, line, column)
    };
    // Seconds to ms on the printed digits (serde_json gives the shortest round-trip text); oha
    // prints every digit of an f64, so there is no rounding step.
    let ms = |s: f64, key: &str| Printed::new(parse_shifted(&s.to_string(), 3).unwrap_or(s * 1000.0), 0.0, place(key));
    let mut r = ToolReported::new(Rule::FloorPlusOne);
    r.max_ms = out.summary.slowest.map(|v| ms(v, "\"slowest\""));
    r.min_ms = out.summary.fastest.map(|v| ms(v, "\"fastest\""));
    r.mean_ms = out.summary.average.map(|v| ms(v, "\"average\""));
    r.requests_per_s = Some(Printed::new(out.summary.requests_per_sec, 0.0, place("\"requestsPerSec\"")));
    r.duration_s = out.summary.total.map(|t| Printed::new(t, 0.0, place("\"total\"")));
    for (label, value) in &out.latency_percentiles {
        let needle = format!("\"{label}\"");
        let key = label
            .strip_prefix('p')
            .and_then(percentile_key)
            .ok_or_else(|| place(&needle).error(format!("{label:?} is not a percentile like p95 or p99.9")))?;
        if let Some(v) = value {
            r.percentiles_ms.insert(key, ms(*v, &needle));
        }
    }
    let (mut responses, mut non_2xx) = (0, 0);
    let mut statuses = BTreeMap::new();
    for (code, count) in &out.status_code_distribution {
        let status: u16 = code.parse().map_err(|_| place(&format!("\"{code}\"")).error(format!("status {code:?} is not a number")))?;
        statuses.insert(status, *count);
        responses += count;
        if !(200..300).contains(&status) {
            non_2xx += count;
        }
    }
    let failed: u64 = out.error_distribution.values().sum();
    let at = place("\"statusCodeDistribution\"");
    r.requests = Some(Count::new(responses + failed, at.clone()));
    r.errors = Some(Count::new(non_2xx + failed, at.clone()));
    r.ranked = Some(responses);
    Ok(Piece {
        reported: Some(r),
        statuses: Some((statuses, at)),
        notes: vec![Message::plain(NoteKey::OhaSeconds), Message::plain(NoteKey::OhaRank)],
        ..Piece::default()
    })
}

/// The header oha writes first in `--output-format csv`.
pub const CSV_HEADER: &str = "request-start,DNS,DNS+dialup,Response-delay,request-duration,bytes,status";

/// Seconds as oha prints an f64 (every digit `Display` gives) to whole ns: the durations were
/// whole ns, and below 2^53 ns (104 days) the nearest integer is that one.
fn seconds_to_ns(text: &str) -> Option<i64> {
    let seconds = super::text::parse_number(text.trim())?;
    (0.0..9.0e6).contains(&seconds).then(|| (seconds * 1e9).round() as i64)
}

/// oha's `--output-format csv` (one text): see [`CsvBlocks`].
pub fn csv(file: &str, text: &str) -> Result<Piece, ImportError> {
    let mut blocks = CsvBlocks::new(file);
    super::stream::Blocks::block(&mut blocks, text, 1)?;
    super::stream::Blocks::finish(Box::new(blocks))
}

/// oha's `--output-format csv`, read a block at a time: every response with its start (s from
/// the run's start), duration (s), body bytes and status.
pub struct CsvBlocks {
    file: String,
    header: Option<Vec<String>>,
    rows: Vec<Row>,
}

impl CsvBlocks {
    pub fn new(file: &str) -> Self {
        CsvBlocks { file: file.to_string(), header: None, rows: Vec::new() }
    }
}

impl super::stream::Blocks for CsvBlocks {
    fn size_hint(&mut self, bytes: u64) {
        // About 65 bytes a row (at least 40).
        self.rows.reserve((bytes / 60) as usize);
    }

    fn block(&mut self, text: &str, first_line: u64) -> Result<(), ImportError> {
        let csv = match &self.header {
            Some(header) => CsvStream::block(&self.file, header.clone(), text, first_line, b','),
            None => {
                let csv = CsvStream::new(&self.file, text, b',')?;
                if csv.header.join(",") != CSV_HEADER {
                    return Err(ImportError::at(&self.file, 1, 1, format!("the header is not oha's `{CSV_HEADER}`")));
                }
                self.header = Some(csv.header.clone());
                csv
            }
        };
        let rows = &mut self.rows;
        csv.for_each_row(|line, fields| {
            let (start_column, start) = &fields[0];
            let sent_ns = seconds_to_ns(start)
                .ok_or_else(|| csv.bad(line, *start_column, format!("request-start: {start:?} is not a number of seconds ≥ 0")))?;
            let latency_ms = csv.shifted(line, fields, 4, 3)?;
            if latency_ms < 0.0 {
                return Err(csv.bad(line, fields[4].0, "a negative request-duration"));
            }
            let latency_ms = super::response_time(latency_ms, |why| {
                csv.bad(line, fields[4].0, format!("request-duration {} s: {why}", fields[4].1.trim()))
            })?;
            let bytes = csv.count(line, fields, 5)?;
            let status = csv.count(line, fields, 6)?;
            let status = u16::try_from(status)
                .ok()
                .filter(|c| (100..=599).contains(c))
                .ok_or_else(|| csv.bad(line, fields[6].0, format!("status {status} is not an HTTP status")))?;
            rows.push(Row::new(Some(sent_ns), Some(latency_ms), status, Some(bytes)));
            Ok(())
        })
    }

    fn finish(self: Box<Self>) -> Result<Piece, ImportError> {
        if self.header.is_none() {
            return Err(ImportError::file(&self.file, "is empty"));
        }
        if self.rows.is_empty() {
            return Err(ImportError::file(&self.file, "has a header but no response"));
        }
        Ok(Piece {
            rows: Some(self.rows),
            notes: vec![Message::plain(NoteKey::OhaCsv), Message::plain(NoteKey::OhaRank)],
            ..Piece::default()
        })
    }
}

/// oha's `--db-url` database: the rows of its one run, in the order they were sent.
pub fn sqlite(file: &str, path: &std::path::Path) -> Result<Piece, ImportError> {
    use rusqlite::{Connection, OpenFlags};
    let sql = |e: rusqlite::Error| ImportError::file(file, format!("cannot be read as oha's sqlite output: {e}"));
    // Read-only and immutable: nothing is written beside the file, not even a lock.
    let uri = format!("file:{}?immutable=1", url_path(path));
    let connection =
        Connection::open_with_flags(uri, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI | OpenFlags::SQLITE_OPEN_NO_MUTEX)
            .map_err(sql)?;
    let mut runs = connection.prepare("SELECT run, count(*) FROM oha GROUP BY run ORDER BY run").map_err(sql)?;
    let runs: Vec<(i64, u64)> = runs.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).map_err(sql)?.collect::<Result<_, _>>().map_err(sql)?;
    let run = match runs[..] {
        [] => return Err(ImportError::file(file, "its table oha holds no request")),
        [(run, _)] => run,
        _ => {
            let list: Vec<String> = runs.iter().map(|(r, n)| format!("run {r} ({n} rows)")).collect();
            return Err(ImportError::file(
                file,
                format!(
                    "holds {} runs ({}): oha adds every run with the same --db-url to one table; give each run its own file",
                    runs.len(),
                    list.join(", ")
                ),
            ));
        }
    };
    let started = run.checked_mul(1_000_000_000).filter(|ns| super::text::implausible_unix_ns(*ns).is_none());
    let started = started.ok_or_else(|| ImportError::file(file, format!("run {run} is not a plausible start in Unix seconds")))?;
    let mut query = connection
        .prepare(
            "SELECT rowid, start, duration, status, len_bytes, start_latency_correction IS NOT NULL, url FROM oha ORDER BY start, rowid",
        )
        .map_err(sql)?;
    let mut rows = Vec::new();
    // Request names: each row's url as oha stores it (its path), the one place oha keeps it.
    let mut labels = super::Labels::default();
    let mut corrected = 0u64;
    let mut result = query.query([]).map_err(sql)?;
    while let Some(r) = result.next().map_err(sql)? {
        let rowid: i64 = r.get(0).map_err(sql)?;
        let bad = |what: String| ImportError::file(file, format!("row {rowid} of table oha: {what}"));
        let start: f64 = r.get(1).map_err(sql)?;
        let duration: f64 = r.get(2).map_err(sql)?;
        let status: i64 = r.get(3).map_err(sql)?;
        let bytes: i64 = r.get(4).map_err(sql)?;
        corrected += u64::from(r.get::<_, bool>(5).map_err(sql)?);
        let sent_ns = seconds_to_ns(&start.to_string()).ok_or_else(|| bad(format!("start {start} is not a number of seconds ≥ 0")))?;
        if duration.is_nan() || duration < 0.0 {
            return Err(bad(format!("duration {duration} is not a number of seconds ≥ 0")));
        }
        let status = u16::try_from(status)
            .ok()
            .filter(|c| (100..=599).contains(c))
            .ok_or_else(|| bad(format!("status {status} is not an HTTP status")))?;
        let bytes = u64::try_from(bytes).map_err(|_| bad(format!("len_bytes {bytes} is negative")))?;
        let url: Option<String> = r.get(6).map_err(sql)?;
        let latency_ms = parse_shifted(&duration.to_string(), 3).unwrap_or(duration * 1000.0);
        let latency_ms = super::response_time(latency_ms, |why| bad(format!("duration {duration} s: {why}")))?;
        let row = Row::new(Some(sent_ns), Some(latency_ms), status, Some(bytes));
        rows.push(match url.filter(|u| !u.is_empty()) {
            Some(url) => row.labelled(labels.intern_checked(&url, |why| bad(format!("url: {why}")))?),
            None => row,
        });
    }
    let mut notes = vec![Message::plain(NoteKey::OhaSqlite), Message::plain(NoteKey::OhaRank)];
    if corrected > 0 {
        notes.push(Message::new(NoteKey::OhaCorrected, &[&corrected]));
    }
    Ok(Piece {
        rows: Some(rows),
        labels,
        started: Some(Start { unix_ns: started, step_ns: 1_000_000_000, at: Place::new(file, 1, 1) }),
        notes,
        ..Piece::default()
    })
}

/// A path as the path of a `file:` URI (SQLite's): `%`, `?` and `#` escaped.
fn url_path(path: &std::path::Path) -> String {
    let text = path.to_string_lossy();
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '%' => out.push_str("%25"),
            '?' => out.push_str("%3f"),
            '#' => out.push_str("%23"),
            _ => out.push(ch),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixture_gives_counts_and_percentiles_in_ms() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/import/oha/oha.json")).unwrap();
        let r = json("oha.json", &text).unwrap().reported.unwrap();
        assert_eq!(r.rule, Rule::FloorPlusOne);
        assert_eq!((r.requests.unwrap().value, r.ranked), (2000, Some(2000)));
        assert!(r.percentiles_ms.contains_key(&95_000) && r.percentiles_ms.contains_key(&99_990));
        assert!(r.min_ms.unwrap().value <= r.percentiles_ms[&50_000].value && r.percentiles_ms[&50_000].value <= r.max_ms.unwrap().value);
        assert_eq!(r.duration_s.map(|d| d.value), Some(3.607197894));
    }

    fn fixture(name: &str) -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import/oha").join(name)
    }

    #[test]
    fn csv_rows_are_responses_with_their_sizes_and_exact_starts() {
        let text = std::fs::read_to_string(fixture("oha.csv")).unwrap();
        let rows = csv("oha.csv", &text).unwrap().rows.unwrap();
        assert_eq!(rows.len(), 2000);
        // 0.032041593,0.000035076,0.000262713,0.000701459,0.00384803,20200,200
        assert_eq!(rows[0], Row::new(Some(32_041_593), Some(3.84803), 200, Some(20200)));
    }

    #[test]
    fn the_database_holds_one_run_with_its_start_and_the_500s() {
        let piece = sqlite("oha.db", &fixture("oha.db")).unwrap();
        let rows = piece.rows.unwrap();
        assert!(rows.iter().any(|r| r.status == 500) && rows.iter().any(|r| r.status == 200));
        assert!(rows.windows(2).all(|w| w[0].sent_ns() <= w[1].sent_ns()));
        assert_eq!(piece.started.map(|s| s.step_ns), Some(1_000_000_000));
    }

    #[test]
    fn a_database_of_two_runs_is_refused_naming_both() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("two.db");
        std::fs::copy(fixture("oha.db"), &path).unwrap();
        let connection = rusqlite::Connection::open(&path).unwrap();
        connection
            .execute(
                "INSERT INTO oha SELECT url, start, start_latency_correction, end, duration, status, len_bytes, run + 60 FROM oha LIMIT 3",
                [],
            )
            .unwrap();
        drop(connection);
        let error = sqlite("two.db", &path).unwrap_err();
        assert!(error.message.contains("holds 2 runs") && error.message.contains("(3 rows)"), "{error}");
    }

    #[test]
    fn a_json_error_names_line_and_column() {
        let error = json("oha.json", "{\n  \"summary\": {\n    \"slowest\": 0.1,,\n").unwrap_err();
        assert_eq!(error.place.map(|p| p.0), Some(3));
    }
}
