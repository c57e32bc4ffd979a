//! What a tool's file says is taken as it says it, and only when a run can have it (issues 40 and
//! 41): counts are read whole and quoted as the file has them; values no run can have (1e300
//! requests/s or ms, counts of 2^64-1, a negative duration, a footer contradicting its own rows)
//! are refused at the input file's own line and column with the file's number, one problem, never
//! a place in the tables the import would have written; k6's rows and its summary of the same run
//! import as one run; a request sent long before its schedule is refused at its cell.

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

/// A fixture with `from` replaced by `to` (which must be in it), written beside the test.
fn edited(dir: &Path, name: &str, from: &str, to: &str) -> PathBuf {
    let text = std::fs::read_to_string(fixture(name)).unwrap();
    assert!(text.contains(from), "{name} has no {from:?}");
    let path = dir.join(Path::new(name).file_name().unwrap());
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    path
}

/// The line and column (1-based) of the first `needle` in a file.
fn place_of(path: &Path, needle: &str) -> (usize, usize) {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().enumerate().find_map(|(i, l)| l.find(needle).map(|c| (i + 1, l[..c].chars().count() + 1))).unwrap()
}

/// The import is refused (exit 2) with exactly one problem, at `path:line:column`, whose message
/// starts with `message`; nothing is written, and no table of the dataset is named.
fn assert_refused_at(out: &Output, dataset: &Path, path: &Path, (line, column): (usize, usize), message: &str) {
    let said = said(out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("1 problem(s)"), "one problem, not its consequences: {said}");
    let expected = format!("{}:{line}:{column}: {message}", path.display());
    assert!(said.contains(&expected), "expected {expected:?} in: {said}");
    for table in ["run_stats.csv", "requests.csv", "runs.csv"] {
        assert!(!said.contains(table), "names {table}, a file the user never wrote: {said}");
    }
    assert!(!dataset.exists(), "nothing is written");
}

#[test]
fn k6_rows_and_the_same_runs_summary_import_as_one_run_with_both_numbers() {
    // Before: "has 297 responses but the summary counts 300: are they from the same run?" (the
    // summary counts its 3 requests without a response too).
    let dir = tempfile::tempdir().unwrap();
    for (rows, summary) in [("k6/k6.json", "k6/summary-export.json"), ("k6/k6.csv", "k6/handle-summary.json")] {
        let dataset = dir.path().join(rows.replace('/', "-"));
        let out = import(&[&fixture(rows), &fixture(summary)], &dataset);
        assert!(out.status.success(), "{rows} with {summary}: {}", said(&out));
        assert!(said(&out).contains("300 requests and the tool's printed numbers"), "{}", said(&out));
        let requests = std::fs::read_to_string(dataset.join("requests.csv")).unwrap();
        assert_eq!(requests.lines().count(), 1 + 300);
        let stats = std::fs::read_to_string(dataset.join("run_stats.csv")).unwrap();
        let row: Vec<&str> = stats.lines().nth(1).unwrap().split(',').collect();
        // The summary's own numbers beside the rows: 300 requests, 3 failed, its p95 of 4.3 ms.
        assert_eq!((row[1], row[2], row[3], row[4]), ("k6", "interpolated", "300", "3"), "{stats}");
        assert!(stats.lines().nth(1).unwrap().contains(",4.3,"), "{stats}");
        let check = Command::new(cargo_bin("analyze")).arg("check").arg(&dataset).output().unwrap();
        assert_eq!(check.status.code(), Some(0), "{}", String::from_utf8_lossy(&check.stderr));
    }
}

#[test]
fn k6_rows_and_a_summary_of_another_run_are_still_refused() {
    // One response fewer in the rows than the summary counts.
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture("k6/k6.json")).unwrap();
    let last = text.lines().rfind(|l| l.contains("\"http_req_duration\"") && l.contains("\"status\":\"200\"")).unwrap();
    let rows = dir.path().join("k6.json");
    std::fs::write(&rows, text.replacen(&format!("{last}\n"), "", 1)).unwrap();
    let out = import(&[&rows, &fixture("k6/summary-export.json")], &dir.path().join("d"));
    assert_eq!(out.status.code(), Some(2), "{}", said(&out));
    assert!(said(&out).contains("has 299 requests (296 with a response, 3 without) but the summary"), "{}", said(&out));
    // A summary whose longest time is not the rows'.
    let summary = edited(dir.path(), "k6/summary-export.json", "\"max\": 5.6", "\"max\": 7.5");
    let out = import(&[&fixture("k6/k6.json"), &summary], &dir.path().join("d"));
    assert_eq!(out.status.code(), Some(2), "{}", said(&out));
    assert!(said(&out).contains("the longest time is 7.5 ms here, but 5.6 ms in the rows of"), "{}", said(&out));
}

#[test]
fn k6_counts_are_read_whole_and_quoted_as_the_file_has_them() {
    let dir = tempfile::tempdir().unwrap();
    for count in ["9007199254740993", "18446744073709551615", "18446744073709551616"] {
        let summary = edited(dir.path(), "k6/summary-export.json", "\"count\": 300", &format!("\"count\": {count}"));
        let dataset = dir.path().join("d");
        let out = import(&[&summary], &dataset);
        let at = place_of(&summary, count);
        assert_refused_at(&out, &dataset, &summary, at, &format!("count: {count} is beyond 10^12"));
    }
    let summary = edited(dir.path(), "k6/summary-export.json", "\"passes\": 3", "\"passes\": 3.5");
    let dataset = dir.path().join("d");
    let out = import(&[&summary], &dataset);
    assert_refused_at(&out, &dataset, &summary, place_of(&summary, "3.5"), "passes: 3.5 is not a count");
}

#[test]
fn json_summaries_quote_an_impossible_count_as_written() {
    // autocannon's counts went through serde as u64: 2^64 was quoted as 1.8446744073709552e19.
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture("autocannon/autocannon.json")).unwrap();
    let total = text.split("\"timeouts\":").nth(1).unwrap().split(',').next().unwrap().to_string();
    let from = format!("\"timeouts\":{total}");
    let file = edited(dir.path(), "autocannon/autocannon.json", &from, "\"timeouts\":18446744073709551616");
    let dataset = dir.path().join("d");
    let out = import(&[&file], &dataset);
    assert_refused_at(&out, &dataset, &file, place_of(&file, "18446744073709551616"), "timeouts: 18446744073709551616 is beyond 10^12");
}

#[test]
fn an_over_long_jmeter_label_is_refused_at_its_cell() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture("jmeter/jmeter.jtl")).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let long = "x".repeat(2000);
    lines[5] = lines[5].replacen(",page,", &format!(",{long},"), 1);
    let file = dir.path().join("long.jtl");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let dataset = dir.path().join("d");
    let out = import(&[&file], &dataset);
    let column = lines[5].find(&long).unwrap() + 1;
    assert_refused_at(&out, &dataset, &file, (6, column), "label: the request name \"xxxx");
    assert!(said(&out).contains("is 2000 bytes long, more than the 1024 a request name may have"), "{}", said(&out));
}

#[test]
fn a_response_time_no_request_can_take_is_refused_at_its_row() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(fixture("hey/hey.csv")).unwrap();
    let fifth = text.lines().nth(4).unwrap();
    let time = fifth.split(',').next().unwrap();
    let file = edited(dir.path(), "hey/hey.csv", fifth, &fifth.replacen(time, "99999999.5", 1));
    let dataset = dir.path().join("d");
    let out = import(&[&file], &dataset);
    assert_refused_at(&out, &dataset, &file, (5, 1), "response-time 99999999.5 s: 99999999500 is above 10^9 ms");
}

#[test]
fn values_no_run_can_have_are_refused_with_the_files_place_and_number() {
    let dir = tempfile::tempdir().unwrap();
    let dataset = dir.path().join("d");
    // ab: 1e300 requests/s beside 2,000 requests in 1.036 s; a negative duration.
    let ab = edited(dir.path(), "ab/ab-stdout.txt", "Requests per second:    1929.89", "Requests per second:    1e300");
    let out = import(&[&ab], &dataset);
    assert_refused_at(&out, &dataset, &ab, place_of(&ab, "1e300"), "1e300 requests/s is not a rate a run can have");
    let ab = edited(dir.path(), "ab/ab-stdout.txt", "Requests per second:    1929.89", "Requests per second:    9999.99");
    let out = import(&[&ab], &dataset);
    assert_refused_at(&out, &dataset, &ab, place_of(&ab, "9999.99"), "9999.99 requests/s is not the 2000 requests");
    let ab = edited(dir.path(), "ab/ab-stdout.txt", "Time taken for tests:   1.036", "Time taken for tests:   -1.036");
    let out = import(&[&ab], &dataset);
    assert_refused_at(&out, &dataset, &ab, place_of(&ab, "-1.036"), "the run's duration -1.036 s is negative");
    // k6: a percentile of 1e300 ms, counts of 2^64-1 beside 400 requests/s, a negative duration.
    let k6 = edited(dir.path(), "k6/summary-export.json", "\"p(95)\": 4.3", "\"p(95)\": 1e300");
    let out = import(&[&k6], &dataset);
    assert_refused_at(&out, &dataset, &k6, place_of(&k6, "\"p(95)\": 1e300"), "p95 (ms): 1e300 is above 10^9 ms");
    let k6 = edited(dir.path(), "k6/summary-export.json", "\"fails\": 297", "\"fails\": 18446744073709551612");
    let text = std::fs::read_to_string(&k6).unwrap().replacen("\"count\": 300", "\"count\": 18446744073709551615", 1);
    std::fs::write(&k6, text.replacen("\"rate\": 2546.688244586384", "\"rate\": 400", 1)).unwrap();
    let out = import(&[&k6], &dataset);
    assert_refused_at(&out, &dataset, &k6, place_of(&k6, "18446744073709551612"), "fails: 18446744073709551612 is beyond 10^12");
    let k6 = edited(dir.path(), "k6/summary-export.json", "\"testRunDurationMs\": 117.800049", "\"testRunDurationMs\": -117.8");
    let out = import(&[&k6], &dataset);
    assert_refused_at(&out, &dataset, &k6, place_of(&k6, "\"testRunDurationMs\""), "testRunDurationMs -117.8 is negative");
    // Locust prints no duration: a rate beyond 10^9/s is refused on its own.
    let text = std::fs::read_to_string(fixture("locust/run_stats.csv")).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let rate_column = header.iter().position(|h| *h == "Requests/s").unwrap();
    let edited_text: String = text
        .lines()
        .map(|l| {
            let mut cells: Vec<String> = l.split(',').map(str::to_string).collect();
            if cells.get(1).is_some_and(|c| c == "Aggregated") {
                cells[rate_column] = "1e300".to_string();
            }
            cells.join(",") + "\n"
        })
        .collect();
    let locust = dir.path().join("load_stats.csv");
    std::fs::write(&locust, edited_text).unwrap();
    let out = import(&[&locust], &dataset);
    assert_refused_at(&out, &dataset, &locust, place_of(&locust, "1e300"), "1e300 requests/s is not a rate a run can have");
}

#[test]
fn an_hgrm_footer_max_contradicting_its_last_row_is_refused_at_the_max() {
    let dir = tempfile::tempdir().unwrap();
    let file = edited(dir.path(), "hdrhistogram/load.hgrm", "#[Max     =      661.127", "#[Max     =     9661.127");
    let dataset = dir.path().join("d");
    let out = import(&[&file], &dataset);
    assert_refused_at(&out, &dataset, &file, place_of(&file, "9661.127"), "Max = 9661.127 but the 100 % row (at ");
}

#[test]
fn a_request_sent_long_before_its_schedule_is_refused_at_its_sent_ms_cell() {
    // The run page showed an intended-send p50 of -995 ms.
    let dir = tempfile::tempdir().unwrap();
    let dataset = dir.path().join("early");
    std::fs::create_dir(&dataset).unwrap();
    std::fs::write(dataset.join("runs.csv"), "run_id,server,repetition,started_at_utc,status\nr1,a,1,,ok\n").unwrap();
    let mut requests = String::from("run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\n");
    for seq in 0..100 {
        let scheduled = seq * 10;
        let sent = if seq == 40 { scheduled - 1000 } else { scheduled };
        requests.push_str(&format!("r1,{seq},{scheduled},{sent},2.5,200,10\n"));
    }
    std::fs::write(dataset.join("requests.csv"), requests).unwrap();
    let out = Command::new(cargo_bin("analyze")).arg("check").arg(&dataset).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", said(&out));
    assert!(
        said(&out).contains("requests.csv:42:4: sent_ms: -600 is 1000 ms before scheduled_ms 400: a request is sent when it is due or later (at most 1 ms early"),
        "{}",
        said(&out)
    );
    // Within the stated tolerance (1 ms, two readings of one clock rounded apart): accepted.
    let text = std::fs::read_to_string(dataset.join("requests.csv")).unwrap().replace("r1,40,400,-600,", "r1,40,400,399,");
    std::fs::write(dataset.join("requests.csv"), text).unwrap();
    let out = Command::new(cargo_bin("analyze")).arg("check").arg(&dataset).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
}
