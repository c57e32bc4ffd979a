//! One file is one run (issue 41): outputs of two runs in one file are refused at the line where
//! the second begins, and nothing is written. Before, two HdrHistogram logs in one `.hlog`
//! imported as one run of 6,000 requests, started at the second log's time.

use assert_cmd::cargo::cargo_bin;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import").join(path)
}

fn import(files: &[&Path], dataset: &Path) -> Output {
    let mut command = Command::new(cargo_bin("analyze"));
    command.arg("import").args(files).arg("--into").arg(dataset).args(["--run-id", "r", "--factor", "tool=t"]);
    command.output().unwrap()
}

fn said(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// `first`, then `second`, in one file; and the line `second` begins at.
fn joined(dir: &Path, name: &str, first: &str, second: &str) -> (PathBuf, u64) {
    let path = dir.join(name);
    std::fs::write(&path, format!("{first}{second}")).unwrap();
    (path, first.lines().count() as u64 + 1)
}

#[test]
fn two_hdrhistogram_logs_in_one_file_are_refused_where_the_second_begins() {
    let dir = tempfile::tempdir().unwrap();
    let log = std::fs::read_to_string(fixture("hdrhistogram/load.hlog")).unwrap();
    // The same load an hour later: its own StartTime.
    let later = log.replace("#[StartTime: 1796126678.768", "#[StartTime: 1796130278.768").replace("12:04:38", "13:04:38");
    assert_ne!(later, log);
    let (both, second) = joined(dir.path(), "both.hlog", &log, &later);
    let dataset = dir.path().join("d");
    let out = import(&[&both], &dataset);
    assert_eq!(out.status.code(), Some(2), "{}", said(&out));
    let expected = format!("{}:{second}:1: a second run begins here", both.display());
    assert!(said(&out).contains(&expected), "{}", said(&out));
    assert!(said(&out).contains("\"#[Histogram log format version\" again, the first at line 1"), "{}", said(&out));
    assert!(!dataset.exists(), "nothing is written");
    // Each log alone is one run of 3,000 requests.
    let alone = dir.path().join("later.hlog");
    std::fs::write(&alone, &later).unwrap();
    let out = import(&[&alone], &dataset);
    assert!(out.status.success(), "{}", said(&out));
    assert!(std::fs::read_to_string(dataset.join("run_stats.csv")).unwrap().contains(",3000,"));
}

#[test]
fn a_log_whose_intervals_start_again_is_two_runs() {
    // Two logs' intervals without a second header: the times go back to the start.
    let dir = tempfile::tempdir().unwrap();
    let log = std::fs::read_to_string(fixture("hdrhistogram/load.hlog")).unwrap();
    let intervals: String = log.lines().filter(|l| l.starts_with(|c: char| c.is_ascii_digit())).map(|l| format!("{l}\n")).collect();
    let (both, second) = joined(dir.path(), "appended.hlog", &log, &intervals);
    let out = import(&[&both], &dir.path().join("d"));
    assert_eq!(out.status.code(), Some(2), "{}", said(&out));
    let expected = format!("{}:{second}:1: a second run begins here (an interval that starts at 0.000 s", both.display());
    assert!(said(&out).contains(&expected), "{}", said(&out));
}

#[test]
fn two_runs_in_one_file_of_a_row_format_a_summary_or_a_json_document_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    for (name, needle) in [
        ("ab/ab-stdout.txt", "(\"Complete requests\" again, the first at line 28)"),
        ("wrk/wrk.txt", "(\"Running \" again, the first at line 1)"),
        ("hey/hey.csv", "(the header line again, the first at line 1)"),
        ("k6/k6.json", "(the metric http_reqs declared again, the first time at line 1)"),
        ("vegeta/vegeta.csv", "(seq 0 again"),
        ("autocannon/autocannon.json", "(a second JSON document after the first one closed)"),
        ("oha/oha.json", "(a second JSON document after the first one closed)"),
        ("hdrhistogram/load.hgrm", "(a second distribution's header, the first at line 1)"),
    ] {
        let text = std::fs::read_to_string(fixture(name)).unwrap();
        let file_name = Path::new(name).file_name().unwrap().to_str().unwrap();
        let (both, mut second) = joined(dir.path(), &format!("twice-{file_name}"), &text, &text);
        if !text.ends_with('\n') {
            // A JSON document without a final newline: the second opens on its last line.
            second -= 1;
        }
        let out = import(&[&both], &dir.path().join("d"));
        assert_eq!(out.status.code(), Some(2), "{name}: {}", said(&out));
        let expected = format!("{}:{second}:1: a second run begins here {needle}", both.display());
        assert!(said(&out).contains(&expected), "{name}: {}", said(&out));
    }
    assert!(!dir.path().join("d").exists());
}
