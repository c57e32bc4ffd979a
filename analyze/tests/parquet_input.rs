//! Parquet input goes through the same rules as CSV: the same dataset as requests.parquet gives a
//! byte-identical summary.json, and a bad value is reported by row and column.

use assert_cmd::Command;
use parquet::data_type::ByteArray;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
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
    write_requests(&dir.join("requests.parquet"), &rows, as_text, WriterProperties::builder().build());
    dir
}

/// Writes `rows` (cells as text) as requests.parquet: run_id and the `as_text` columns as
/// strings, the others as INT64 or DOUBLE; an empty or unparsable cell is a null.
fn write_requests(path: &Path, rows: &[Vec<String>], as_text: &[usize], properties: WriterProperties) {
    let names = ["run_id", "seq", "scheduled_ms", "sent_ms", "latency_ms", "status", "body_bytes"];
    let kind = |i: usize| match i {
        _ if i == 0 || as_text.contains(&i) => "BYTE_ARRAY",
        1 | 5 | 6 => "INT64",
        _ => "DOUBLE",
    };
    let fields: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(i, name)| format!("OPTIONAL {} {name}{};", kind(i), if kind(i) == "BYTE_ARRAY" { " (UTF8)" } else { "" }))
        .collect();
    let schema = std::sync::Arc::new(parse_message_type(&format!("message requests {{ {} }}", fields.join(" "))).unwrap());
    let file = std::fs::File::create(path).unwrap();
    let mut writer = SerializedFileWriter::new(file, schema, std::sync::Arc::new(properties)).unwrap();
    let mut group = writer.next_row_group().unwrap();
    let mut index = 0;
    while let Some(mut column) = group.next_column().unwrap() {
        let cells: Vec<&str> = rows.iter().map(|r| r[index].as_str()).collect();
        use parquet::column::writer::ColumnWriter;
        match column.untyped() {
            ColumnWriter::ByteArrayColumnWriter(w) => {
                let values: Vec<ByteArray> = cells.iter().map(|c| ByteArray::from(*c)).collect();
                w.write_batch(&values, Some(&vec![1; cells.len()]), None).unwrap();
            }
            ColumnWriter::Int64ColumnWriter(w) => {
                let parsed: Vec<Option<i64>> = cells.iter().map(|c| c.parse().ok()).collect();
                let levels: Vec<i16> = parsed.iter().map(|v| i16::from(v.is_some())).collect();
                w.write_batch(&parsed.iter().flatten().copied().collect::<Vec<_>>(), Some(&levels), None).unwrap();
            }
            ColumnWriter::DoubleColumnWriter(w) => {
                let parsed: Vec<Option<f64>> = cells.iter().map(|c| c.parse().ok()).collect();
                let levels: Vec<i16> = parsed.iter().map(|v| i16::from(v.is_some())).collect();
                w.write_batch(&parsed.iter().flatten().copied().collect::<Vec<_>>(), Some(&levels), None).unwrap();
            }
            _ => unreachable!("only the three types above are written"),
        }
        column.close().unwrap();
        index += 1;
    }
    group.close().unwrap();
    writer.close().unwrap();
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
    assert!(stderr.contains("runs.parquet: column `started_at_utc` is a TIMESTAMP; "), "{stderr}");
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

#[test]
fn delta_and_byte_stream_split_encodings_read_like_plain_ones() {
    use parquet::basic::Encoding;
    let root = tempfile::tempdir().unwrap();
    let csv_summary = summary(&fixture(), &root.path().join("from-csv"));
    let dataset = parquet_copy(&root.path().join("pq"), |_| {});
    let text = std::fs::read_to_string(fixture().join("requests.csv")).unwrap();
    let rows: Vec<Vec<String>> = text.lines().skip(1).map(|l| l.split(',').map(String::from).collect()).collect();
    let properties = WriterProperties::builder()
        .set_dictionary_enabled(false)
        .set_column_encoding("seq".into(), Encoding::DELTA_BINARY_PACKED)
        .set_column_encoding("status".into(), Encoding::DELTA_BINARY_PACKED)
        .set_column_encoding("run_id".into(), Encoding::DELTA_BYTE_ARRAY)
        .set_column_encoding("scheduled_ms".into(), Encoding::BYTE_STREAM_SPLIT)
        .set_column_encoding("sent_ms".into(), Encoding::BYTE_STREAM_SPLIT)
        .set_column_encoding("latency_ms".into(), Encoding::BYTE_STREAM_SPLIT)
        .build();
    write_requests(&dataset.join("requests.parquet"), &rows, &[], properties);
    assert_eq!(summary(&dataset, &root.path().join("from-parquet")), csv_summary);
}

#[test]
fn a_nested_column_is_an_error_that_says_so() {
    let root = tempfile::tempdir().unwrap();
    let dataset = parquet_copy(root.path(), |_| {});
    let schema = parse_message_type(
        "message requests { OPTIONAL BYTE_ARRAY run_id (UTF8); OPTIONAL INT64 seq; OPTIONAL DOUBLE scheduled_ms; \
         OPTIONAL DOUBLE sent_ms; OPTIONAL GROUP latency_ms { OPTIONAL DOUBLE value; } OPTIONAL INT64 status; }",
    )
    .unwrap();
    let file = std::fs::File::create(dataset.join("requests.parquet")).unwrap();
    let mut writer =
        SerializedFileWriter::new(file, std::sync::Arc::new(schema), std::sync::Arc::new(WriterProperties::builder().build())).unwrap();
    let mut group = writer.next_row_group().unwrap();
    while let Some(column) = group.next_column().unwrap() {
        column.close().unwrap();
    }
    group.close().unwrap();
    writer.close().unwrap();
    let stderr = check_stderr(&dataset);
    assert!(
        stderr.contains("requests.parquet: column `latency_ms` is nested (a list, map or struct): analyze reads flat columns"),
        "{stderr}"
    );
}
