//! `analyze import` end to end: every tool's real (or documented) fixture imports into a dataset
//! that `analyze check` accepts, and every bad or truncated file is refused with its file, line
//! and column, exit 2, leaving the dataset byte for byte as it was.

use assert_cmd::Command;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import").join(path)
}

fn analyze(args: &[&str]) -> Output {
    Command::cargo_bin("analyze").unwrap().args(args).output().unwrap()
}

fn import(dataset: &Path, run_id: &str, tool: &str, files: &[PathBuf], extra: &[&str]) -> Output {
    let mut args: Vec<String> = vec!["import".into()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    args.extend([
        "--into".into(),
        dataset.display().to_string(),
        "--run-id".into(),
        run_id.into(),
        "--factor".into(),
        format!("tool={tool}"),
    ]);
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    analyze(&args)
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

/// Every file of a folder with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect()
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap()
}

#[test]
fn hey_csv_becomes_a_run_with_rows_and_provenance() {
    let temp = tempfile::tempdir().unwrap();
    let dataset = temp.path().join("mine");
    let out = import(&dataset, "hey-1", "hey", &[fixture("hey/hey.csv")], &[]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("hey -o csv (one row per response) (detected)"), "{}", text(&out));
    let runs = read(&dataset, "runs.csv");
    // hey prints no start: the run's start is not recorded.
    assert!(runs.starts_with("run_id,tool,repetition,started_at_utc,status,note\nhey-1,hey,1,,ok,"), "{runs}");
    let requests = read(&dataset, "requests.csv");
    assert_eq!(requests.lines().count(), 2001);
    // First row of hey.csv: 0.0038 s sent at 0.0008 s; the earliest send in the file is at 0.0002 s.
    let first = requests.lines().nth(1).unwrap();
    assert_eq!(first, "hey-1,0,0.6,0.6,3.8,200,");
    let sources = read(&dataset, "sources.csv");
    assert!(sources.starts_with("run_id,tool,format,version,file,sha256\nhey-1,hey,hey-csv,,hey.csv,"), "{sources}");
    let check = analyze(&["check", dataset.to_str().unwrap()]);
    assert!(check.status.success(), "{}", text(&check));
    assert!(text(&check).contains("requests: 2,000"), "{}", text(&check));
}

#[test]
fn ab_rows_take_their_status_from_the_same_runs_summary() {
    let temp = tempfile::tempdir().unwrap();
    let dataset = temp.path().join("ab");
    let files = [fixture("ab/ab-g.tsv"), fixture("ab/ab-stdout.txt"), fixture("ab/ab-e.csv")];
    let out = import(&dataset, "ab-1", "ab", &files, &[]);
    assert!(out.status.success(), "{}", text(&out));
    let requests = read(&dataset, "requests.csv");
    assert_eq!(requests.lines().filter(|l| l.ends_with(",200,")).count(), 2000);
    let stats = read(&dataset, "run_stats.csv");
    let row = stats.lines().nth(1).unwrap();
    // The percentiles, min and max of -e (to the µs, rank round(p·n/100)+1), the counts, rate and
    // mean of the stdout, and the 2000 responses ab ranked.
    let e = std::fs::read_to_string(fixture("ab/ab-e.csv")).unwrap();
    let at = |p: usize| e.lines().nth(p + 1).unwrap().split(',').nth(1).unwrap().trim_end_matches('0').trim_end_matches('.').to_string();
    let expected = format!("ab-1,ab,rounded-plus-one,2000,0,1929.89,{},2,{},{},{},{},", at(0), at(100), at(10), at(25), at(50));
    assert!(row.starts_with(&expected), "{row}\nexpected {expected}");
    // After the fixed columns, the other percentiles run_stats keeps that ab printed: its p1.
    let header: Vec<&str> = stats.lines().next().unwrap().split(',').collect();
    let cell = |name: &str| row.split(',').nth(header.iter().position(|h| *h == name).unwrap()).unwrap().to_string();
    assert_eq!(cell("ranked"), "2000", "{row}");
    assert_eq!(cell("p1_ms"), at(1), "{row}");
    assert!(!header.contains(&"p2_ms"), "ab's every percent is not a column: {header:?}");
    // ab -g records the start second of each request: the run's start is the first one.
    assert!(read(&dataset, "runs.csv").contains(",2026-11-30T14:44:39Z,ok,"), "{}", read(&dataset, "runs.csv"));
    assert!(read(&dataset, "sources.csv").contains("ab-1,ab,ab-gnuplot,2.3,ab-g.tsv,"));
}

#[test]
fn ab_rows_alone_are_refused_and_with_failures_keep_abs_count() {
    let temp = tempfile::tempdir().unwrap();
    let dataset = temp.path().join("ab");
    let alone = import(&dataset, "a", "ab", &[fixture("ab/ab-g.tsv")], &[]);
    assert_eq!(alone.status.code(), Some(2));
    assert!(text(&alone).contains("ab-g.tsv: ab -g has no status column"), "{}", text(&alone));
    assert!(!dataset.exists(), "a refused import creates nothing");
    // 50 404s: the rows are the 50 completed requests, the errors ab's 50 (tests/import_ab_failures.rs).
    let failing = import(&dataset, "a", "ab", &[fixture("ab/errors-g.tsv"), fixture("ab/errors-stdout.txt")], &[]);
    assert!(failing.status.success(), "{}", text(&failing));
    assert!(read(&dataset, "run_stats.csv").contains("a,ab,floor-plus-one,50,50,"));
    assert!(
        read(&dataset, "runs.csv").contains("ab.failures-unplaced(errors=50, requests=50, non_2xx=50, receive=0)"),
        "{}",
        read(&dataset, "runs.csv")
    );
    assert_eq!(read(&dataset, "requests.csv").lines().filter(|l| l.starts_with("a,")).count(), 50);
    let summary_only = import(&dataset, "b", "ab", &[fixture("ab/errors-stdout.txt")], &[]);
    assert!(summary_only.status.success(), "{}", text(&summary_only));
    assert!(read(&dataset, "run_stats.csv").contains("b,ab,floor-plus-one,50,50,"));
}

#[test]
fn every_tool_imports_into_one_dataset() {
    let temp = tempfile::tempdir().unwrap();
    let dataset = temp.path().join("tools");
    let runs: [(&str, &[&str]); 12] = [
        ("ab", &["ab/ab-g.tsv", "ab/ab-stdout.txt"]),
        ("hey", &["hey/hey.csv"]),
        ("hey-summary", &["hey/hey-summary.txt"]),
        ("wrk", &["wrk/wrk.txt"]),
        ("siege", &["siege/siege-verbose.txt", "siege/siege-summary.txt"]),
        ("siege-json", &["siege/siege.json", "siege/siege.log"]),
        ("locust", &["locust/run_stats.csv", "locust/run_stats_history.csv", "locust/run_failures.csv", "locust/run_exceptions.csv"]),
        ("locust-json", &["locust/locust.json"]),
        ("k6", &["k6/k6.json"]),
        ("vegeta", &["vegeta/vegeta.csv"]),
        ("oha", &["oha/oha.json"]),
        ("jmeter", &["jmeter/jmeter.jtl"]),
    ];
    for (run, files) in runs {
        let files: Vec<PathBuf> = files.iter().map(|f| fixture(f)).collect();
        let out = import(&dataset, run, run, &files, &[]);
        assert!(out.status.success(), "{run}: {}", text(&out));
    }
    assert_eq!(read(&dataset, "runs.csv").lines().count(), 13);
    let stats = read(&dataset, "run_stats.csv");
    for run in ["ab", "hey-summary", "wrk", "siege", "siege-json", "locust", "locust-json", "oha"] {
        assert!(stats.lines().any(|l| l.starts_with(&format!("{run},"))), "{run} has its printed numbers: {stats}");
    }
    let requests = read(&dataset, "requests.csv");
    for run in ["ab", "hey", "siege", "k6", "vegeta", "jmeter"] {
        assert!(requests.lines().any(|l| l.starts_with(&format!("{run},"))), "{run} has rows");
    }
}

#[test]
fn an_existing_run_id_needs_replace() {
    let temp = tempfile::tempdir().unwrap();
    let dataset = temp.path().join("d");
    assert!(import(&dataset, "r1", "hey", &[fixture("hey/hey.csv")], &[]).status.success());
    let before = snapshot(&dataset);
    let again = import(&dataset, "r1", "vegeta", &[fixture("vegeta/vegeta.csv")], &[]);
    assert_eq!(again.status.code(), Some(2));
    assert!(
        text(&again).contains("runs.csv: already has run \"r1\" (line 2): choose another --run-id, or --replace it"),
        "{}",
        text(&again)
    );
    assert_eq!(snapshot(&dataset), before);
    let replaced = import(&dataset, "r1", "vegeta", &[fixture("vegeta/vegeta.csv")], &["--replace"]);
    assert!(replaced.status.success(), "{}", text(&replaced));
    let requests = read(&dataset, "requests.csv");
    assert_eq!(requests.lines().count(), 301, "hey's 2000 rows are gone, vegeta's 300 are in");
    assert_eq!(read(&dataset, "runs.csv").lines().count(), 2);
    assert!(read(&dataset, "sources.csv").contains("r1,vegeta,vegeta-csv,"));
    assert!(!read(&dataset, "sources.csv").contains("hey.csv"));
}

#[test]
fn files_of_two_tools_are_one_import_too_many() {
    let temp = tempfile::tempdir().unwrap();
    let out = import(&temp.path().join("d"), "x", "mixed", &[fixture("hey/hey.csv"), fixture("wrk/wrk.txt")], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("is wrk output but"), "{}", text(&out));
}

#[test]
fn a_file_of_no_format_is_refused_at_its_first_line() {
    let temp = tempfile::tempdir().unwrap();
    let file = temp.path().join("notes.txt");
    std::fs::write(&file, "hello\n").unwrap();
    let out = import(&temp.path().join("d"), "x", "t", &[file], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("notes.txt:1:1: matches no known format"), "{}", text(&out));
}

#[test]
fn forcing_a_format_that_does_not_fit_names_the_missing_column() {
    let temp = tempfile::tempdir().unwrap();
    let out = import(&temp.path().join("d"), "x", "t", &[fixture("k6/k6.csv")], &["--format", "jmeter-csv"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("k6.csv:1:1: no `timeStamp` column"), "{}", text(&out));
}

/// A fixture with its lines changed: `keep` first lines, then `tail` appended.
fn altered(path: &str, keep: usize, tail: &str) -> String {
    let original = std::fs::read_to_string(fixture(path)).unwrap();
    let mut text: String = original.lines().take(keep).map(|l| format!("{l}\n")).collect();
    text.push_str(tail);
    text
}

#[test]
fn bad_and_truncated_files_of_every_format_change_nothing() {
    let cut = |path: &str, keep: usize| {
        let original = std::fs::read_to_string(fixture(path)).unwrap();
        let line = original.lines().nth(keep).unwrap();
        altered(path, keep, &line[..line.len() / 2])
    };
    // (file name, content, where the error must point)
    let cases: Vec<(&str, String, &str)> = vec![
        ("ab-g.tsv", cut("ab/ab-g.tsv", 40), "ab-g.tsv:41:"),
        ("ab-e.csv", altered("ab/ab-e.csv", 60, ""), "ab-e.csv:60:1:"),
        (
            "ab-stdout.txt",
            std::fs::read_to_string(fixture("ab/ab-stdout.txt")).unwrap().replace("1929.89 [#/sec]", "fast [#/sec]"),
            "ab-stdout.txt:32:25:",
        ),
        ("hey.csv", altered("hey/hey.csv", 10, "0.0038,0.0000,0.0000,0.0000,0.0026,0.0011,abc,0.0008\n"), "hey.csv:11:43:"),
        ("hey-summary.txt", altered("hey/hey-summary.txt", 24, ""), "hey-summary.txt:24:1:"),
        ("wrk.txt", std::fs::read_to_string(fixture("wrk/wrk.txt")).unwrap().replace("  1.35ms", "  1.35"), "wrk.txt:7:"),
        (
            "siege-verbose.txt",
            altered("siege/siege-verbose.txt", 3, "HTTP/1.1 200     0.00 se"),
            "siege-verbose.txt:4:25: the file ends in the middle of a line",
        ),
        (
            "siege-summary.txt",
            std::fs::read_to_string(fixture("siege/siege-summary.txt")).unwrap().replace("200 hits", "many hits"),
            "siege-summary.txt:5:",
        ),
        ("siege.json", altered("siege/siege.json", 4, ""), "siege.json:5:"),
        ("siege.log", std::fs::read_to_string(fixture("siege/siege.log")).unwrap().replace("1818.18", "x"), "siege.log:2:"),
        ("run_stats.csv", altered("locust/run_stats.csv", 2, ""), "run_stats.csv:2:1:"),
        ("locust.json", altered("locust/locust.json", 20, ""), "locust.json:21:"),
        ("k6.json", cut("k6/k6.json", 10), "k6.json:11:"),
        ("k6.csv", altered("k6/k6.csv", 2, "http_req_duration,1796049880,3.8,,,,true,,GET,u,HTTP/1.1,default,,OK,,,u,,\n"), "k6.csv:3:67:"),
        ("vegeta.csv", cut("vegeta/vegeta.csv", 5), "vegeta.csv:6:"),
        ("vegeta.json", cut("vegeta/vegeta.json", 5), "vegeta.json:6:"),
        ("oha.json", altered("oha/oha.json", 42, ""), "oha.json:43:"),
        ("jmeter.jtl", cut("jmeter/jmeter.jtl", 7), "jmeter.jtl:8:"),
    ];
    let temp = tempfile::tempdir().unwrap();
    let dataset = temp.path().join("d");
    assert!(import(&dataset, "good", "hey", &[fixture("hey/hey.csv")], &[]).status.success());
    let before = snapshot(&dataset);
    for (name, content, place) in cases {
        let file = temp.path().join(name);
        std::fs::write(&file, content).unwrap();
        let out = import(&dataset, "bad", "x", std::slice::from_ref(&file), &[]);
        assert_eq!(out.status.code(), Some(2), "{name}: {}", text(&out));
        let expected = format!("{}{}", temp.path().display().to_string() + "/", place);
        assert!(text(&out).contains(&expected), "{name}: expected {expected} in\n{}", text(&out));
        assert_eq!(snapshot(&dataset), before, "{name} changed the dataset");
    }
}

#[test]
fn rows_break_the_request_row_contract_before_anything_is_written() {
    // 2e15 ns is 2e9 ms (23 days): above the largest latency any reader accepts.
    let temp = tempfile::tempdir().unwrap();
    let file = temp.path().join("slow.csv");
    std::fs::write(&file, "1796049880000000000,200,2000000000000000,0,20200,\n").unwrap();
    let out = import(&temp.path().join("d"), "x", "vegeta", std::slice::from_ref(&file), &[]);
    assert_eq!(out.status.code(), Some(2));
    // At the row's own line and column, with the file's number (the contract's rule, applied where the row is read).
    assert!(text(&out).contains("slow.csv:1:25: latency 2000000000000000 ns: 2000000000 is above 10^9 ms"), "{}", text(&out));
    assert!(!temp.path().join("d").exists());
}

#[test]
fn a_bad_line_deep_in_a_large_hey_csv_is_named_and_changes_nothing() {
    // The CSV is read line by line: the first bad line is the one named, wherever it is, and the
    // dataset (and no staged requests.csv beside it) is left as it was.
    let temp = tempfile::tempdir().unwrap();
    let dataset = temp.path().join("d");
    assert!(import(&dataset, "good", "hey", &[fixture("hey/hey.csv")], &[]).status.success());
    let before = snapshot(&dataset);
    let mut text_of_file = String::from("response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset\n");
    for i in 0..300_000 {
        let line = match i {
            // Line 250,002: a status that is not a number; line 280,002: a missing field (later, so not named).
            250_000 => "0.0031,0.0000,0.0000,0.0000,0.0027,0.0004,2O0,25.0000\n".to_string(),
            280_000 => "0.0031,0.0000,0.0000,0.0000,0.0027,0.0004,200\n".to_string(),
            _ => format!("0.0031,0.0000,0.0000,0.0000,0.0027,0.0004,200,{}.{:04}\n", i / 10_000, i % 10_000),
        };
        text_of_file.push_str(&line);
    }
    let file = temp.path().join("big.csv");
    std::fs::write(&file, &text_of_file).unwrap();
    let out = import(&dataset, "big", "hey", std::slice::from_ref(&file), &[]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let expected = format!("{}:250002:43: status-code: \"2O0\" is not a whole number", file.display());
    assert!(text(&out).contains(&expected), "expected {expected} in\n{}", text(&out));
    assert!(!text(&out).contains("280002"), "{}", text(&out));
    assert_eq!(snapshot(&dataset), before);
    // Every entry but the first run's kept source files (raw/good/).
    let entries = std::fs::read_dir(&dataset).unwrap().filter(|e| e.as_ref().unwrap().file_name() != "raw").count();
    assert_eq!(entries, before.len(), "nothing staged is left beside the dataset's files");

    // Without the bad lines the same file imports whole, every row in order.
    let good: String =
        text_of_file.lines().enumerate().filter(|(i, _)| *i != 250_001 && *i != 280_001).map(|(_, l)| format!("{l}\n")).collect();
    std::fs::write(&file, good).unwrap();
    let out = import(&dataset, "big", "hey", std::slice::from_ref(&file), &[]);
    assert!(out.status.success(), "{}", text(&out));
    let requests = read(&dataset, "requests.csv");
    let big: Vec<&str> = requests.lines().filter(|l| l.starts_with("big,")).collect();
    assert_eq!(big.len(), 299_998);
    assert_eq!(big[0], "big,0,0,0,3.1,200,");
    assert_eq!(big[299_997], "big,299997,29999.9,29999.9,3.1,200,");
}
