//! The Parquet reader (the Apache `parquet` crate's column readers) reads what real writers write.
//! The fixtures in tests/fixtures/parquet-writers were written by DuckDB and polars (see make.py
//! there) with every codec, page version and column type make.py knows, the same rows in each:
//! every file that stores the values in the same types must give exactly the same rows and
//! problems as the plainest one (DuckDB, uncompressed), and the files that store them in other
//! types (whole milliseconds, 32-bit floats, strings) the same rows by run, seq and status.
//! expect.toml, written by make.py, names the rows make.py made bad and the files no reader can
//! read (a missing column).
//!
//! Blocks are row groups, so rows are compared by their absolute row number, never by (block,
//! within), and floats by their bits.

use analyze::dataset::parquet::scan_requests;
use analyze::dataset::requests::{RequestRow, RequestSink, RowPlace, RunIndex};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/parquet-writers")
}

#[derive(Debug, Deserialize)]
struct Expect {
    known_runs: Vec<String>,
    ignored_runs: Vec<String>,
    good_rows: usize,
    problem_rows: BTreeMap<String, u64>,
    file: Vec<Fixture>,
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Fixture {
    name: String,
    rows: u64,
    /// "direct" or "fallback" (the retired hand-written reader's word for files it left to
    /// polars; both must read now), or "error" (no reader can: a missing column).
    expect: String,
    why: String,
    writer: String,
}

fn expect() -> Expect {
    let text = std::fs::read_to_string(fixtures().join("expect.toml")).expect("expect.toml (run make.py)");
    toml::from_str(&text).expect("expect.toml parses")
}

fn runs(expect: &Expect) -> RunIndex {
    RunIndex::new(expect.known_runs.iter().map(String::as_str)).ignoring(expect.ignored_runs.iter().map(String::as_str))
}

struct Record(Vec<(RowPlace, RequestRow)>);

impl RequestSink for Record {
    fn row(&mut self, row: &RequestRow, place: RowPlace) {
        self.0.push((place, *row));
    }
}

/// A row at its absolute place, floats as bits so that -0.0 and 0.0 differ and equality is exact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Exact {
    row: u64,
    run: u32,
    seq: i64,
    scheduled_ms: u64,
    sent_ms: u64,
    latency_ms: Option<u64>,
    status: u16,
}

/// Everything a scan reports: the multiset of rows (sorted) and the problems (sorted).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Outcome {
    rows: Vec<Exact>,
    problems: Vec<String>,
    /// Kept and counted-only problems together.
    problem_count: u64,
}

/// Reads `path`; an error or a panic becomes `Err(text)`.
fn read(path: &Path, runs: &RunIndex) -> Result<Outcome, String> {
    let scan = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| scan_requests(path, runs, || Record(Vec::new()))))
        .map_err(|payload| {
            let text = payload.downcast_ref::<String>().cloned().or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()));
            format!("panicked: {}", text.unwrap_or_default())
        })?
        .map_err(|e| e.to_string())?;
    let mut rows: Vec<Exact> = scan
        .sinks
        .iter()
        .flat_map(|sink| sink.0.iter())
        .map(|&(place, row)| Exact {
            row: scan.absolute(place),
            run: row.run,
            seq: row.seq,
            scheduled_ms: row.scheduled_ms.to_bits(),
            sent_ms: row.sent_ms.to_bits(),
            latency_ms: row.latency_ms.map(f64::to_bits),
            status: row.status,
        })
        .collect();
    rows.sort_unstable();
    // Named as a dataset names it, so fixtures compare by content.
    let file = path.file_name().unwrap().to_string_lossy().into_owned();
    let mut problems: Vec<String> =
        scan.problems.errors().iter().map(|p| p.to_string().replacen(&format!("{file}:"), "requests.parquet:", 1)).collect();
    problems.sort();
    Ok(Outcome { rows, problems, problem_count: scan.problems.len() })
}

/// What differs between two outcomes, short enough to read in a failure message.
fn difference(left: &Result<Outcome, String>, right: &Result<Outcome, String>) -> String {
    let (left, right) = match (left, right) {
        (Ok(left), Ok(right)) => (left, right),
        _ => return format!("{:?}\n  vs {:?}", left.as_ref().map(|o| o.rows.len()), right.as_ref().map(|o| o.rows.len())),
    };
    let mut notes = Vec::new();
    if left.rows.len() != right.rows.len() {
        notes.push(format!("{} rows vs {} rows", left.rows.len(), right.rows.len()));
    }
    if let Some((a, b)) = left.rows.iter().zip(&right.rows).find(|(a, b)| a != b) {
        notes.push(format!("first different row:\n    {a:?}\n    {b:?}"));
    }
    if left.problems != right.problems {
        let only_left: Vec<_> = left.problems.iter().filter(|p| !right.problems.contains(p)).collect();
        let only_right: Vec<_> = right.problems.iter().filter(|p| !left.problems.contains(p)).collect();
        notes.push(format!("problems only in the first: {only_left:?}\n  problems only in the second: {only_right:?}"));
    }
    if left.problem_count != right.problem_count {
        notes.push(format!("{} problems vs {}", left.problem_count, right.problem_count));
    }
    notes.join("\n  ")
}

/// Fixtures that store some column in another type than the plainest file (whole milliseconds,
/// 32-bit floats, 32-bit integers, unsigned or string columns): their floats and problems may
/// differ from it (an integer column has no NaN), their rows by run, seq and status may not.
const OTHER_TYPES: [&str; 12] = [
    "duckdb_latency_int64.parquet",
    "duckdb_latency_varchar.parquet",
    "duckdb_seq_int32_status_int16.parquet",
    "duckdb_status_int64_latency_float.parquet",
    "duckdb_status_uint16.parquet",
    "duckdb_required_columns.parquet",
    "polars_body_bytes_uint32.parquet",
    "polars_scheduled_int32.parquet",
    "polars_seq_int32_status_int16_latency_f32.parquet",
    "polars_status_uint16.parquet",
    "polars_run_id_categorical.parquet",
    "polars_run_id_enum.parquet",
];

const REFERENCE: &str = "duckdb_uncompressed.parquet";

#[test]
fn every_fixture_reads_the_same_rows_as_the_plainest() {
    let expect = expect();
    let runs = runs(&expect);
    assert!(expect.file.len() >= 25, "expect.toml lists {} fixtures", expect.file.len());
    let reference = read(&fixtures().join(REFERENCE), &runs).expect("the reference fixture reads");
    assert_eq!(reference.rows.len(), expect.good_rows);
    // By run, seq and status: a file of required columns holds the rows without nulls, so its
    // row numbers shift.
    let key = |o: &Outcome| {
        let mut rows: Vec<_> = o.rows.iter().map(|r| (r.run, r.seq, r.status)).collect();
        rows.sort_unstable();
        rows
    };
    let mut failures = Vec::new();
    for fixture in &expect.file {
        let name = fixture.name.as_str();
        let outcome = read(&fixtures().join(name), &runs);
        match (fixture.expect.as_str(), &outcome) {
            ("error", Err(message)) if message.contains("missing column") => {}
            ("error", other) => {
                failures.push(format!("{name}: expected a missing-column error, got {:?}", other.as_ref().map(|o| o.rows.len())))
            }
            (_, Err(message)) if name == "duckdb_latency_decimal.parquet" && message.contains("is a DECIMAL") => {}
            (_, Err(message)) => failures.push(format!("{name}: {message}")),
            (_, Ok(outcome)) if OTHER_TYPES.contains(&name) => {
                if key(outcome) != key(&reference) {
                    failures.push(format!(
                        "{name}: rows differ from {REFERENCE}:\n  {}",
                        difference(&Ok(outcome.clone()), &Ok(reference.clone()))
                    ));
                }
            }
            (_, Ok(outcome)) => {
                if outcome != &reference {
                    failures
                        .push(format!("{name}: differs from {REFERENCE}:\n  {}", difference(&Ok(outcome.clone()), &Ok(reference.clone()))));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} fixtures failed:\n{}", failures.len(), expect.file.len(), failures.join("\n"));
}

/// The fixtures every exact-message test reads: one from each writer, both read directly.
const MESSAGE_FIXTURES: [&str; 3] =
    ["duckdb_zstd.parquet", "polars_zstd_stats.parquet", "polars_pages_as_v2_gzip_some_uncompressed.parquet"];

/// The problems Auto reports for `fixture` copied to a dataset's `requests.parquet`, as the user
/// sees them.
fn user_visible_problems(fixture: &str) -> Vec<String> {
    let expect = expect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("requests.parquet");
    std::fs::copy(fixtures().join(fixture), &path).unwrap();
    read(&path, &runs(&expect)).unwrap_or_else(|e| panic!("{fixture}: {e}")).problems
}

/// `kind`'s row (from expect.toml, as make.py placed it) is `row`, and each message fixture reports
/// `message` on it.
fn assert_problem(kind: &str, row: u64, message: &str) {
    let placed = expect().problem_rows[kind];
    assert_eq!(placed, row, "make.py now puts {kind} on row {placed}: update this test");
    let line = format!("requests.parquet: row {row}: {message}");
    for fixture in MESSAGE_FIXTURES {
        let problems = user_visible_problems(fixture);
        assert!(problems.contains(&line), "{fixture}: expected\n  {line}\namong\n  {}", problems.join("\n  "));
    }
}

#[test]
fn a_null_latency_with_status_200_names_row_and_column() {
    assert_problem("null_latency_status_200", 18, "latency_ms: is empty but status is 200 (a request with no response has status 0)");
}

#[test]
fn a_null_seq_names_its_row() {
    // Row 129 is the first row of the second row group.
    assert_problem("null_seq", 129, "seq, scheduled_ms, sent_ms and status must not be null");
}

#[test]
fn a_negative_latency_names_row_and_column() {
    // Row 128 is the last row of the first row group.
    assert_problem("negative_latency", 128, "latency_ms: -1.5 is negative: a latency cannot be");
}

#[test]
fn a_nan_latency_names_row_and_column() {
    assert_problem("nan_latency", 190, "latency_ms: is NaN, expected a number");
}

#[test]
fn a_null_run_id_is_an_unknown_run() {
    assert_problem("null_run_id", 210, "run_id: run_id \"\" is not in runs.csv");
}

#[test]
fn a_status_above_999_names_row_and_column() {
    assert_problem("status_1000", 276, "status: 1000 is not an HTTP status (0 for no response, else 100-999)");
}

#[test]
fn an_infinite_sent_ms_names_row_and_column() {
    assert_problem("infinite_sent", 298, "sent_ms: \"inf\" is not a finite number");
}

#[test]
fn an_unknown_run_names_each_of_its_rows() {
    assert_problem("unknown_run_first", 202, "run_id: run_id \"run-x\" is not in runs.csv");
    for fixture in MESSAGE_FIXTURES {
        let problems = user_visible_problems(fixture);
        for row in 203..=204 {
            let line = format!("requests.parquet: row {row}: run_id: run_id \"run-x\" is not in runs.csv");
            assert!(problems.contains(&line), "{fixture}: no {line}");
        }
    }
}

#[test]
fn a_bad_row_of_an_ignored_run_is_still_reported() {
    assert_problem("ignored_run_negative_latency", 307, "latency_ms: -2 is negative: a latency cannot be");
}

#[test]
fn every_problem_is_reported_once_and_nothing_else() {
    let expected: Vec<String> = {
        let mut lines: Vec<String> = [
            (18, "latency_ms: is empty but status is 200 (a request with no response has status 0)"),
            (128, "latency_ms: -1.5 is negative: a latency cannot be"),
            (129, "seq, scheduled_ms, sent_ms and status must not be null"),
            (190, "latency_ms: is NaN, expected a number"),
            (202, "run_id: run_id \"run-x\" is not in runs.csv"),
            (203, "run_id: run_id \"run-x\" is not in runs.csv"),
            (204, "run_id: run_id \"run-x\" is not in runs.csv"),
            (210, "run_id: run_id \"\" is not in runs.csv"),
            (276, "status: 1000 is not an HTTP status (0 for no response, else 100-999)"),
            (298, "sent_ms: \"inf\" is not a finite number"),
            (307, "latency_ms: -2 is negative: a latency cannot be"),
        ]
        .iter()
        .map(|(row, message)| format!("requests.parquet: row {row}: {message}"))
        .collect();
        lines.sort();
        lines
    };
    for fixture in MESSAGE_FIXTURES {
        assert_eq!(user_visible_problems(fixture), expected, "{fixture}");
    }
}

#[test]
fn valid_edge_rows_arrive_as_written() {
    let expect = expect();
    let runs = runs(&expect);
    for fixture in MESSAGE_FIXTURES {
        let outcome = read(&fixtures().join(fixture), &runs).unwrap();
        let at = |row: u64| outcome.rows.iter().filter(|r| r.row == row).copied().collect::<Vec<_>>();
        // run-a seq 10..=14 (rows 11..=15): no response, status 0 and a null latency.
        for row in 11..=15 {
            let found = at(row);
            assert_eq!(found.len(), 1, "{fixture}: row {row}");
            assert_eq!((found[0].run, found[0].seq, found[0].latency_ms, found[0].status), (0, row as i64 - 1, None, 0), "{fixture}");
        }
        // run-b seq 50 twice (rows 151 and 152): duplicates are not this layer's problem. Values as
        // make.py computes them; 9.429 has no exact binary form.
        let duplicate = |row: u64| Exact {
            row,
            run: 1,
            seq: 50,
            scheduled_ms: 625.25f64.to_bits(),
            sent_ms: 625.625f64.to_bits(),
            latency_ms: Some(9.429f64.to_bits()),
            status: 404,
        };
        let found: Vec<Exact> = outcome.rows.iter().filter(|r| r.run == 1 && r.seq == 50).copied().collect();
        assert_eq!(found, vec![duplicate(151), duplicate(152)], "{fixture}");
        // run-c seq 60 (row 265): latency -0.0 is valid and keeps its sign bit.
        let found = at(265);
        assert_eq!(found.len(), 1, "{fixture}: row 265");
        assert_eq!((found[0].run, found[0].seq, found[0].latency_ms), (2, 60, Some((-0.0f64).to_bits())), "{fixture}");
        // The ignored run's rows never reach a sink.
        assert!(outcome.rows.iter().all(|r| r.row < 305), "{fixture}: a row of the ignored run arrived");
        assert_eq!(outcome.rows.len(), expect.good_rows, "{fixture}");
    }
}

/// A damaged file is an error, never a panic or a wrong row: the reader parses lengths,
/// offsets and counts from the file itself. Bytes of real fixtures are overwritten at
/// pseudo-random places (a fixed seed, so a failure repeats), in the footer, page headers and
/// page data alike.
#[test]
fn damaged_files_never_panic_the_reader() {
    let expect = expect();
    let runs = runs(&expect);
    let dir = tempfile::tempdir().unwrap();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut panics = Vec::new();
    for name in
        ["duckdb_zstd.parquet", "polars_zstd_stats.parquet", "polars_pages_as_v2_gzip_some_uncompressed.parquet", "duckdb_snappy.parquet"]
    {
        let original = std::fs::read(fixtures().join(name)).unwrap();
        for attempt in 0..150 {
            let mut bytes = original.clone();
            // Half the attempts aim at the footer and the page headers near it, where the lengths are.
            let span = if attempt % 2 == 0 { bytes.len() } else { bytes.len().min(600) };
            for _ in 0..1 + next() % 4 {
                let at = bytes.len() - 1 - (next() as usize % span);
                bytes[at] = next() as u8;
            }
            let path = dir.path().join("requests.parquet");
            std::fs::write(&path, &bytes).unwrap();
            if let Err(text) = read(&path, &runs) {
                if text.starts_with("panicked") {
                    panics.push(format!("{name}, attempt {attempt}: {text}"));
                }
            }
        }
    }
    assert!(panics.is_empty(), "{}", panics.join("\n"));
}
