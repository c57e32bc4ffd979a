//! Parquet input goes through the same rules as CSV: the same dataset as requests.parquet gives a
//! byte-identical summary.json, and a bad value is reported by row and column.

use assert_cmd::Command;
use polars::prelude::*;
use std::path::Path;

fn fixture() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny")
}

/// Copies the fixture into `parent/tiny`, with requests.csv turned into requests.parquet, after
/// `edit` changes the rows.
fn parquet_copy(parent: &Path, edit: impl Fn(&mut Vec<Vec<String>>)) -> std::path::PathBuf {
    parquet_copy_as(parent, &[], edit)
}

/// [`parquet_copy`] with the columns at `as_text` written as string columns.
fn parquet_copy_as(parent: &Path, as_text: &[usize], edit: impl Fn(&mut Vec<Vec<String>>)) -> std::path::PathBuf {
    let dir = parent.join("tiny");
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(fixture()).unwrap() {
        let entry = entry.unwrap();
        if entry.file_name() != "requests.csv" {
            std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
        }
    }
    let text = std::fs::read_to_string(fixture().join("requests.csv")).unwrap();
    // The fixture's requests.csv has no quoted fields, so a plain split reads it.
    let mut rows: Vec<Vec<String>> = text.lines().skip(1).map(|l| l.split(',').map(String::from).collect()).collect();
    edit(&mut rows);
    let text_column = |i: usize| rows.iter().map(|r| r[i].clone()).collect::<Vec<_>>();
    let int = |i: usize| rows.iter().map(|r| r[i].parse::<i64>().ok()).collect::<Vec<_>>();
    let float = |i: usize| rows.iter().map(|r| r[i].parse::<f64>().ok()).collect::<Vec<_>>();
    let names = ["run_id", "seq", "scheduled_ms", "sent_ms", "latency_ms", "status", "body_bytes"];
    let columns: Vec<Column> = names
        .iter()
        .enumerate()
        .map(|(i, name)| match i {
            _ if i == 0 || as_text.contains(&i) => Column::new((*name).into(), text_column(i)),
            1 | 5 | 6 => Column::new((*name).into(), int(i)),
            _ => Column::new((*name).into(), float(i)),
        })
        .collect();
    let mut frame = DataFrame::new(rows.len(), columns).unwrap();
    let file = std::fs::File::create(dir.join("requests.parquet")).unwrap();
    ParquetWriter::new(file).finish(&mut frame).unwrap();
    dir
}

fn summary(dataset: &Path, out: &Path) -> String {
    Command::cargo_bin("analyze").unwrap().args(["report", dataset.to_str().unwrap(), "--out", out.to_str().unwrap()]).assert().success();
    std::fs::read_to_string(out.join("summary.json")).unwrap()
}

#[test]
fn parquet_requests_give_the_same_summary_as_csv() {
    let root = tempfile::tempdir().unwrap();
    let csv_summary = summary(&fixture(), &root.path().join("from-csv"));
    let dataset = parquet_copy(&root.path().join("pq"), |_| {});
    let parquet_summary = summary(&dataset, &root.path().join("from-parquet"));
    assert_eq!(parquet_summary, csv_summary);
    assert!(csv_summary.contains("\"p95_ms\": 1901.0"), "the hand-worked median of direct/2 is in the summary");
}

#[test]
fn a_negative_latency_in_parquet_names_its_row_and_column() {
    let root = tempfile::tempdir().unwrap();
    let dataset = parquet_copy(root.path(), |rows| rows[4][4] = "-2.5".into());
    let output = Command::cargo_bin("analyze").unwrap().args(["check", dataset.to_str().unwrap()]).assert().code(2).get_output().clone();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("  requests.parquet: row 5: latency_ms: -2.5 is negative: a latency cannot be\n"), "{stderr}");
}

#[test]
fn an_unknown_run_in_parquet_names_its_row() {
    let root = tempfile::tempdir().unwrap();
    let dataset = parquet_copy(root.path(), |rows| rows[0][0] = "nope".into());
    let output = Command::cargo_bin("analyze").unwrap().args(["check", dataset.to_str().unwrap()]).assert().code(2).get_output().clone();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("  requests.parquet: row 1: run_id: run_id \"nope\" is not in runs.csv\n"), "{stderr}");
}

#[test]
fn a_parquet_timestamp_column_says_what_to_write_instead() {
    let root = tempfile::tempdir().unwrap();
    let dataset = parquet_copy(root.path(), |_| {});
    std::fs::remove_file(dataset.join("runs.csv")).unwrap();
    let typed = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/parquet-types/runs_timestamp.parquet");
    std::fs::copy(typed, dataset.join("runs.parquet")).unwrap();
    let output = Command::cargo_bin("analyze").unwrap().args(["check", dataset.to_str().unwrap()]).assert().code(2).get_output().clone();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("runs.parquet: cannot be read as Parquet: cannot create series from Timestamp"), "{stderr}");
    assert!(stderr.contains("write times as RFC 3339 strings such as 2025-01-06T09:00:00Z"), "{stderr}");
}

#[test]
fn a_repeated_seq_in_parquet_names_rows_not_lines() {
    let root = tempfile::tempdir().unwrap();
    let dataset = parquet_copy(root.path(), |rows| rows[1][1] = rows[0][1].clone());
    let output = Command::cargo_bin("analyze").unwrap().args(["check", dataset.to_str().unwrap()]).assert().code(2).get_output().clone();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("  requests.parquet: row 2: seq: 0 appears again in this run (first on row 1)\n"), "{stderr}");
}

fn check_stderr(dataset: &Path) -> String {
    let output = Command::cargo_bin("analyze").unwrap().args(["check", dataset.to_str().unwrap()]).assert().code(2).get_output().clone();
    String::from_utf8(output.stderr).unwrap()
}

#[test]
fn a_string_latency_that_is_not_a_number_is_an_error_naming_column_and_row() {
    let root = tempfile::tempdir().unwrap();
    let dataset = parquet_copy_as(root.path(), &[4], |rows| rows[2][4] = "abc".into());
    let stderr = check_stderr(&dataset);
    assert!(stderr.contains("  requests.parquet: row 3: latency_ms: \"abc\" is not a number\n"), "{stderr}");
}

#[test]
fn a_string_latency_that_is_not_a_number_is_an_error_even_without_a_response() {
    let root = tempfile::tempdir().unwrap();
    let dataset = parquet_copy_as(root.path(), &[4], |rows| {
        rows[2][4] = "abc".into();
        rows[2][5] = "0".into();
    });
    let stderr = check_stderr(&dataset);
    assert!(stderr.contains("  requests.parquet: row 3: latency_ms: \"abc\" is not a number\n"), "{stderr}");
}

#[test]
fn parquet_refuses_status_1_to_99_and_absurd_latencies_like_csv() {
    let root = tempfile::tempdir().unwrap();
    let dataset = parquet_copy(root.path(), |rows| {
        rows[1][5] = "42".into();
        rows[3][4] = "1e308".into();
    });
    let stderr = check_stderr(&dataset);
    assert!(stderr.contains("  requests.parquet: row 2: status: 42 is not an HTTP status (0 for no response, else 100-999)\n"), "{stderr}");
    assert!(
        stderr.contains(
            "  requests.parquet: row 4: latency_ms: 1e308 is above 10^9 ms (about 11.6 days), more than any request can plausibly take\n"
        ),
        "{stderr}"
    );
}

#[test]
fn parquet_run_ids_are_trimmed_as_runs_csv_trims_them() {
    let root = tempfile::tempdir().unwrap();
    let csv_summary = summary(&fixture(), &root.path().join("from-csv"));
    let dataset = parquet_copy(&root.path().join("pq"), |rows| {
        for row in rows.iter_mut() {
            row[0] = format!(" {} ", row[0]);
        }
    });
    assert_eq!(summary(&dataset, &root.path().join("from-parquet")), csv_summary);
}
