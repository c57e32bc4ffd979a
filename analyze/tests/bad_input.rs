//! What `analyze` does with a dataset it must refuse, and with the variations it must accept.
//!
//! Every test starts from one small valid dataset (two ok runs of a one-factor study, five
//! requests each) written into a temp dir, changes one thing, and asserts what the user reads:
//! exit status 2 and the exact `file:line[:field]: column: message` line on stderr. A few tests
//! also run `report --out` and prove a failed run leaves the output folder alone.
//!
//! The valid dataset, line by line (line 1 is the header):
//!
//! runs.csv      2: a1 (route direct), 3: a2 (route nginx)
//! requests.csv  2-6: a1 seq 0-4, 7-11: a2 seq 0-4

use assert_cmd::Command;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

const RUNS_HEADER: &str = "run_id,route,repetition,started_at_utc,status,note";
const REQUESTS_HEADER: &str = "run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes";

/// A valid request row: run `run`, request `seq`, a 2xx answer after `latency` ms.
fn request(run: &str, seq: u32, latency: &str) -> String {
    let scheduled = f64::from(seq) * 125.0;
    format!("{run},{seq},{scheduled:.3},{:.3},{latency},200,12", scheduled + 0.25)
}

fn valid_runs() -> Vec<String> {
    vec![RUNS_HEADER.to_string(), "a1,direct,1,2026-11-30T01:00:00Z,ok,".to_string(), "a2,nginx,2,2026-11-30T01:01:00Z,ok,".to_string()]
}

fn valid_requests() -> Vec<String> {
    let mut lines = vec![REQUESTS_HEADER.to_string()];
    for run in ["a1", "a2"] {
        for seq in 0..5 {
            lines.push(request(run, seq, &format!("{}.500", seq + 1)));
        }
    }
    lines
}

fn joined(lines: &[String]) -> String {
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

/// A dataset folder named `ds` inside its own temp dir (the folder name is the dataset's name,
/// so two datasets built here print the same summary).
struct Dataset {
    root: tempfile::TempDir,
}

impl Dataset {
    fn valid() -> Dataset {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir(root.path().join("ds")).unwrap();
        let dataset = Dataset { root };
        dataset.write("runs.csv", joined(&valid_runs()));
        dataset.write("requests.csv", joined(&valid_requests()));
        dataset
    }

    fn dir(&self) -> PathBuf {
        self.root.path().join("ds")
    }

    fn write(&self, file: &str, contents: impl AsRef<[u8]>) {
        std::fs::write(self.dir().join(file), contents).unwrap();
    }

    fn remove(&self, file: &str) {
        std::fs::remove_file(self.dir().join(file)).unwrap();
    }

    fn read(&self, file: &str) -> String {
        std::fs::read_to_string(self.dir().join(file)).unwrap()
    }

    /// Replaces 1-based line `line` of `file`.
    fn set_line(&self, file: &str, line: usize, text: &str) {
        let mut lines: Vec<String> = self.read(file).lines().map(String::from).collect();
        lines[line - 1] = text.to_string();
        self.write(file, joined(&lines));
    }

    /// Deletes the 1-based lines `first..=last` of `file`.
    fn delete_lines(&self, file: &str, first: usize, last: usize) {
        let mut lines: Vec<String> = self.read(file).lines().map(String::from).collect();
        lines.drain(first - 1..last);
        self.write(file, joined(&lines));
    }

    fn append(&self, file: &str, line: &str) {
        let mut text = self.read(file);
        text.push_str(line);
        text.push('\n');
        self.write(file, text);
    }

    fn check(&self) -> Output {
        Command::cargo_bin("analyze").unwrap().arg("check").arg(self.dir()).output().unwrap()
    }

    fn report(&self, out: &Path) -> Output {
        Command::cargo_bin("analyze").unwrap().arg("report").arg(self.dir()).arg("--out").arg(out).output().unwrap()
    }
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The problem lines of an `error:` message, without their two-space indent.
fn problem_lines(output: &Output) -> Vec<String> {
    stderr(output).lines().filter_map(|line| line.strip_prefix("  ")).map(String::from).collect()
}

fn assert_exit(output: &Output, code: i32) {
    assert_eq!(
        output.status.code(),
        Some(code),
        "expected exit status {code}\n--- stdout\n{}\n--- stderr\n{}",
        String::from_utf8_lossy(&output.stdout),
        stderr(output)
    );
}

/// Exit status 2, an `error:` heading, and exactly these problem lines, in this order.
fn assert_problems(output: &Output, expected: &[&str]) {
    assert_exit(output, 2);
    assert!(stderr(output).starts_with("error: "), "stderr must start with `error: `:\n{}", stderr(output));
    assert_eq!(problem_lines(output), expected, "\n--- stderr\n{}", stderr(output));
}

/// Exit status 2 and this problem line among the ones reported.
fn assert_reports(output: &Output, expected: &str) {
    assert_exit(output, 2);
    assert!(stderr(output).starts_with("error: "), "stderr must start with `error: `:\n{}", stderr(output));
    assert!(problem_lines(output).iter().any(|line| line == expected), "expected the line\n  {expected}\n--- stderr\n{}", stderr(output));
}

/// Every file under `dir` (hidden ones included), by relative path.
fn read_tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(base, &path, out);
            } else {
                let relative = path.strip_prefix(base).unwrap().to_string_lossy().replace('\\', "/");
                out.insert(relative, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut files = BTreeMap::new();
    walk(dir, dir, &mut files);
    files
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

/// Renders the valid dataset into an output folder, breaks the dataset with `break_it`, and
/// asserts that `report` then fails with `expected` and leaves that folder byte-identical, and
/// that it does not create a fresh `--out` folder (nor any staging folder beside either).
fn assert_failed_report_leaves_out_alone(break_it: impl FnOnce(&Dataset), expected: &str) {
    let dataset = Dataset::valid();
    let outputs = tempfile::tempdir().unwrap();
    let existing = outputs.path().join("existing");
    let fresh = outputs.path().join("fresh");
    assert_exit(&dataset.report(&existing), 0);
    let before = read_tree(&existing);
    assert!(before.contains_key("index.html") && before.contains_key("summary.json"), "{:?}", before.keys());

    break_it(&dataset);
    assert_reports(&dataset.report(&existing), expected);
    assert_reports(&dataset.report(&fresh), expected);

    assert!(read_tree(&existing) == before, "a failed report changed the folder it was pointed at");
    assert!(!fresh.exists(), "a failed report created {}", fresh.display());
    assert_eq!(names_in(outputs.path()), vec!["existing"], "a failed report left something beside --out");
}

// ---- the valid dataset itself -------------------------------------------------------------

#[test]
fn the_base_dataset_is_valid() {
    let dataset = Dataset::valid();
    let output = dataset.check();
    assert_exit(&output, 0);
    assert!(output.stderr.is_empty(), "{}", stderr(&output));
}

// ---- missing and empty files --------------------------------------------------------------

#[test]
fn rejects_a_dataset_without_runs_csv() {
    let dataset = Dataset::valid();
    dataset.remove("runs.csv");
    assert_problems(&dataset.check(), &["runs.csv: is missing: every dataset needs one"]);
}

#[test]
fn rejects_a_dataset_without_requests_csv() {
    let dataset = Dataset::valid();
    dataset.remove("requests.csv");
    assert_problems(&dataset.check(), &["requests.csv: is missing: every dataset needs one row per request"]);
}

#[test]
fn a_report_without_requests_csv_leaves_out_alone() {
    assert_failed_report_leaves_out_alone(
        |d| d.remove("requests.csv"),
        "requests.csv: is missing: every dataset needs one row per request",
    );
}

#[test]
fn rejects_an_empty_runs_csv() {
    let dataset = Dataset::valid();
    dataset.write("runs.csv", "");
    assert_problems(&dataset.check(), &["runs.csv: is empty: expected a header row and data rows"]);
}

#[test]
fn rejects_an_empty_requests_csv() {
    let dataset = Dataset::valid();
    dataset.write("requests.csv", "");
    assert_problems(&dataset.check(), &["requests.csv: is empty: expected a header row and data rows"]);
}

#[test]
fn rejects_a_runs_csv_with_only_a_header() {
    let dataset = Dataset::valid();
    dataset.write("runs.csv", format!("{RUNS_HEADER}\n"));
    assert_reports(&dataset.check(), "runs.csv: has a header but no data rows");
}

#[test]
fn rejects_a_requests_csv_with_only_a_header() {
    let dataset = Dataset::valid();
    dataset.write("requests.csv", format!("{REQUESTS_HEADER}\n"));
    assert_problems(
        &dataset.check(),
        &[
            "runs.csv:2: run \"a1\" has status ok but no rows in requests.csv",
            "runs.csv:3: run \"a2\" has status ok but no rows in requests.csv",
        ],
    );
}

#[test]
fn rejects_both_requests_csv_and_requests_parquet() {
    let dataset = Dataset::valid();
    dataset.write("requests.parquet", b"PAR1");
    assert_problems(&dataset.check(), &["requests.csv: both requests.csv and requests.parquet exist: keep one"]);
}

// ---- columns ------------------------------------------------------------------------------

#[test]
fn rejects_requests_csv_missing_a_column() {
    let dataset = Dataset::valid();
    // Drop latency_ms (the 5th field) from every line.
    let text: Vec<String> = valid_requests()
        .iter()
        .map(|line| {
            let mut fields: Vec<&str> = line.split(',').collect();
            fields.remove(4);
            fields.join(",")
        })
        .collect();
    dataset.write("requests.csv", joined(&text));
    assert_problems(
        &dataset.check(),
        &["requests.csv: missing column `latency_ms` (the header has: run_id, seq, scheduled_ms, sent_ms, status, body_bytes)"],
    );
}

#[test]
fn rejects_runs_csv_missing_a_column() {
    let dataset = Dataset::valid();
    dataset.write(
        "runs.csv",
        "run_id,route,repetition,started_at_utc,note\na1,direct,1,2026-11-30T01:00:00Z,\na2,nginx,2,2026-11-30T01:01:00Z,\n",
    );
    assert_reports(&dataset.check(), "runs.csv: missing column `status` (the header has: run_id, route, repetition, started_at_utc, note)");
}

#[test]
fn a_missing_runs_column_is_not_blamed_on_requests_csv() {
    // runs.csv lists a1 and a2; only its `status` column is missing. Telling the user that
    // requests.csv names runs "not in runs.csv" sends them to fix the wrong file.
    let dataset = Dataset::valid();
    dataset.write(
        "runs.csv",
        "run_id,route,repetition,started_at_utc,note\na1,direct,1,2026-11-30T01:00:00Z,\na2,nginx,2,2026-11-30T01:01:00Z,\n",
    );
    assert_problems(
        &dataset.check(),
        &["runs.csv: missing column `status` (the header has: run_id, route, repetition, started_at_utc, note)"],
    );
}

// ---- values in requests.csv ---------------------------------------------------------------

#[test]
fn rejects_a_latency_that_is_not_a_number() {
    let dataset = Dataset::valid();
    dataset.set_line("requests.csv", 5, &request("a1", 3, "abc"));
    assert_problems(&dataset.check(), &["requests.csv:5:5: latency_ms: \"abc\" is not a number"]);
}

#[test]
fn a_report_with_a_latency_that_is_not_a_number_leaves_out_alone() {
    assert_failed_report_leaves_out_alone(
        |d| d.set_line("requests.csv", 5, &request("a1", 3, "abc")),
        "requests.csv:5:5: latency_ms: \"abc\" is not a number",
    );
}

#[test]
fn rejects_negative_latency() {
    let dataset = Dataset::valid();
    dataset.set_line("requests.csv", 4, &request("a1", 2, "-2.5"));
    assert_problems(&dataset.check(), &["requests.csv:4:5: latency_ms: -2.5 is negative: a latency cannot be"]);
}

#[test]
fn a_report_with_a_negative_latency_leaves_out_alone() {
    assert_failed_report_leaves_out_alone(
        |d| d.set_line("requests.csv", 4, &request("a1", 2, "-2.5")),
        "requests.csv:4:5: latency_ms: -2.5 is negative: a latency cannot be",
    );
}

#[test]
fn rejects_nan_latency() {
    let dataset = Dataset::valid();
    dataset.set_line("requests.csv", 8, &request("a2", 1, "NaN"));
    assert_problems(&dataset.check(), &["requests.csv:8:5: latency_ms: is NaN, expected a number"]);
}

#[test]
fn rejects_infinite_latency() {
    let dataset = Dataset::valid();
    dataset.set_line("requests.csv", 8, &request("a2", 1, "inf"));
    assert_problems(&dataset.check(), &["requests.csv:8:5: latency_ms: \"inf\" is not a finite number"]);
}

#[test]
fn rejects_a_request_of_a_run_that_runs_csv_does_not_know() {
    let dataset = Dataset::valid();
    dataset.append("requests.csv", &request("zz", 0, "1.000"));
    assert_problems(&dataset.check(), &["requests.csv:12:1: run_id: run_id \"zz\" is not in runs.csv"]);
}

#[test]
fn a_report_with_an_unknown_run_leaves_out_alone() {
    assert_failed_report_leaves_out_alone(
        |d| d.append("requests.csv", &request("zz", 0, "1.000")),
        "requests.csv:12:1: run_id: run_id \"zz\" is not in runs.csv",
    );
}

#[test]
fn rejects_a_duplicate_seq_in_adjacent_rows() {
    let dataset = Dataset::valid();
    dataset.set_line("requests.csv", 4, &request("a1", 1, "3.500"));
    assert_problems(&dataset.check(), &["requests.csv:4:2: seq: 1 appears again in this run (first on line 3)"]);
}

#[test]
fn rejects_a_duplicate_seq_in_rows_far_apart() {
    let dataset = Dataset::valid();
    // a1's seq 1 is on line 3; a2's five rows come between.
    dataset.append("requests.csv", &request("a1", 1, "9.000"));
    assert_problems(&dataset.check(), &["requests.csv:12:2: seq: 1 appears again in this run (first on line 3)"]);
}

#[test]
fn a_report_with_a_duplicate_seq_leaves_out_alone() {
    assert_failed_report_leaves_out_alone(
        |d| d.append("requests.csv", &request("a1", 1, "9.000")),
        "requests.csv:12:2: seq: 1 appears again in this run (first on line 3)",
    );
}

#[test]
fn a_seq_seen_three_times_names_its_first_line_each_time() {
    let dataset = Dataset::valid();
    dataset.append("requests.csv", &request("a1", 1, "9.000"));
    dataset.append("requests.csv", &request("a1", 1, "9.500"));
    assert_problems(
        &dataset.check(),
        &[
            "requests.csv:12:2: seq: 1 appears again in this run (first on line 3)",
            "requests.csv:13:2: seq: 1 appears again in this run (first on line 3)",
        ],
    );
}

#[test]
fn the_same_seq_in_two_runs_is_not_a_duplicate() {
    // Every seq of a1 also belongs to a2 in the base dataset; interleaving them changes nothing.
    let dataset = Dataset::valid();
    let mut lines = vec![REQUESTS_HEADER.to_string()];
    for seq in 0..5 {
        lines.push(request("a1", seq, "1.000"));
        lines.push(request("a2", seq, "1.000"));
    }
    dataset.write("requests.csv", joined(&lines));
    assert_exit(&dataset.check(), 0);
}

#[test]
fn accepts_unique_seqs_in_any_order() {
    let dataset = Dataset::valid();
    let mut lines = vec![REQUESTS_HEADER.to_string()];
    for seq in [4, 2, 0, 3, 1] {
        lines.push(request("a1", seq, "1.000"));
        lines.push(request("a2", 4 - seq, "1.000"));
    }
    dataset.write("requests.csv", joined(&lines));
    assert_exit(&dataset.check(), 0);
}

#[test]
fn finds_a_duplicate_seq_across_read_blocks() {
    // requests.csv is read in 8 MiB blocks; ~14 MiB puts the two rows in different blocks.
    let dataset = Dataset::valid();
    let rows: u32 = 400_000;
    let mut text = String::with_capacity(rows as usize * 40);
    text.push_str(REQUESTS_HEADER);
    text.push('\n');
    for seq in 0..rows {
        text.push_str(&request("a1", seq, "1.500"));
        text.push('\n');
    }
    for seq in 0..5 {
        text.push_str(&request("a2", seq, "1.500"));
        text.push('\n');
    }
    text.push_str(&request("a1", 7, "1.500"));
    text.push('\n');
    assert!(text.len() > 2 * 8 * 1024 * 1024);
    dataset.write("requests.csv", text);
    // a1 seq 7 is on line 9; the repeat is the last line.
    let last = rows + 5 + 2;
    assert_problems(&dataset.check(), &[format!("requests.csv:{last}:2: seq: 7 appears again in this run (first on line 9)").as_str()]);
}

// ---- values in runs.csv -------------------------------------------------------------------

#[test]
fn rejects_a_duplicate_run_id() {
    let dataset = Dataset::valid();
    dataset.append("runs.csv", "a1,direct,3,2026-11-30T01:02:00Z,ok,");
    assert_problems(&dataset.check(), &["runs.csv:4:1: run_id: run_id \"a1\" appears twice (first on line 2)"]);
}

#[test]
fn rejects_an_ok_run_without_requests() {
    let dataset = Dataset::valid();
    dataset.delete_lines("requests.csv", 7, 11);
    assert_problems(&dataset.check(), &["runs.csv:3: run \"a2\" has status ok but no rows in requests.csv"]);
}

#[test]
fn accepts_an_aborted_run_without_requests() {
    let dataset = Dataset::valid();
    dataset.delete_lines("requests.csv", 7, 11);
    dataset.set_line("runs.csv", 3, "a2,nginx,2,2026-11-30T01:01:00Z,aborted,server crashed");
    assert_exit(&dataset.check(), 0);
}

#[test]
fn rejects_an_unknown_status() {
    let dataset = Dataset::valid();
    dataset.set_line("runs.csv", 3, "a2,nginx,2,2026-11-30T01:01:00Z,done,");
    assert_reports(&dataset.check(), "runs.csv:3:5: status: \"done\" is not a status: use ok, aborted or excluded");
}

#[test]
fn a_run_with_a_bad_status_is_not_blamed_on_requests_csv() {
    // a2 is in runs.csv; only its status is wrong. Its five requests must not be reported as
    // "not in runs.csv": that is false, and it buries the one line the user has to fix.
    let dataset = Dataset::valid();
    dataset.set_line("runs.csv", 3, "a2,nginx,2,2026-11-30T01:01:00Z,done,");
    assert_problems(&dataset.check(), &["runs.csv:3:5: status: \"done\" is not a status: use ok, aborted or excluded"]);
}

#[test]
fn rejects_a_start_time_that_is_not_rfc3339() {
    let dataset = Dataset::valid();
    dataset.set_line("runs.csv", 2, "a1,direct,1,30/11/2026 01:00,ok,");
    assert_reports(
        &dataset.check(),
        "runs.csv:2:4: started_at_utc: \"30/11/2026 01:00\" is not an RFC 3339 time (e.g. 2026-11-30T04:05:06Z)",
    );
}

// ---- CSV structure and encoding -----------------------------------------------------------

#[test]
fn rejects_a_row_with_the_wrong_number_of_fields() {
    let dataset = Dataset::valid();
    dataset.set_line("requests.csv", 6, &format!("{},extra", request("a1", 4, "5.500")));
    assert_problems(&dataset.check(), &["requests.csv:6: has 8 fields, the header has 7"]);
}

#[test]
fn rejects_a_runs_row_with_too_few_fields() {
    let dataset = Dataset::valid();
    dataset.set_line("runs.csv", 3, "a2,nginx,2,2026-11-30T01:01:00Z,ok");
    assert_reports(&dataset.check(), "runs.csv:3: has 5 fields, the header has 6");
}

#[test]
fn rejects_a_byte_that_is_not_utf8_naming_line_and_column() {
    let dataset = Dataset::valid();
    let mut text = joined(&valid_runs()[..2]).into_bytes();
    // Line 3; the bad byte follows 40 characters ("é" is one character, two bytes).
    text.extend_from_slice("a2,nginx,2,2026-11-30T01:01:00Z,ok,café ".as_bytes());
    text.extend_from_slice(b"\xff\n");
    dataset.write("runs.csv", text);
    assert_problems(&dataset.check(), &["runs.csv:3: column 41: a byte that is not UTF-8 (save the file as UTF-8)"]);
}

#[test]
fn rejects_a_byte_that_is_not_utf8_in_requests_csv() {
    let dataset = Dataset::valid();
    let mut text = joined(&valid_requests()[..9]).into_bytes();
    // Line 10 is a2 seq 3; the byte is the 27th character (after "a2,3,375.000,375.250,4.500").
    text.extend_from_slice(b"a2,3,375.000,375.250,4.500\xff,200,12\n");
    text.extend_from_slice(format!("{}\n", valid_requests()[10]).as_bytes());
    dataset.write("requests.csv", text);
    assert_reports(&dataset.check(), "requests.csv:10: column 27: a byte that is not UTF-8 (save the file as UTF-8)");
}

#[test]
fn rejects_a_quote_that_is_never_closed() {
    let dataset = Dataset::valid();
    dataset.set_line("runs.csv", 3, "a2,nginx,2,2026-11-30T01:01:00Z,ok,\"open");
    assert_reports(&dataset.check(), "runs.csv:3: a quote in this record is never closed");
}

#[test]
fn rejects_a_quote_that_is_never_closed_in_requests_csv() {
    let dataset = Dataset::valid();
    dataset.set_line("requests.csv", 11, "a2,4,500.000,500.250,5.500,200,\"12");
    assert_problems(&dataset.check(), &["requests.csv:11: a quote in this record is never closed"]);
}

#[test]
fn rejects_an_empty_latency_with_a_response_status() {
    let dataset = Dataset::valid();
    dataset.set_line("requests.csv", 3, "a1,1,125.000,125.250,,200,12");
    assert_problems(
        &dataset.check(),
        &["requests.csv:3:5: latency_ms: is empty but status is 200 (a request with no response has status 0)"],
    );
}

#[test]
fn line_numbers_count_blank_lines() {
    let dataset = Dataset::valid();
    let mut lines = valid_requests();
    lines.insert(4, String::new());
    // The a1 seq 3 row moves from line 5 to line 6.
    lines[5] = request("a1", 3, "abc");
    dataset.write("requests.csv", joined(&lines));
    assert_problems(&dataset.check(), &["requests.csv:6:5: latency_ms: \"abc\" is not a number"]);
}

#[test]
fn line_numbers_count_every_physical_line_of_a_multiline_field() {
    let dataset = Dataset::valid();
    dataset.write(
        "runs.csv",
        format!("{RUNS_HEADER}\na1,direct,1,2026-11-30T01:00:00Z,ok,\"first line\nsecond line\"\na2,nginx,2,yesterday,ok,\n"),
    );
    assert_reports(&dataset.check(), "runs.csv:4:4: started_at_utc: \"yesterday\" is not an RFC 3339 time (e.g. 2026-11-30T04:05:06Z)");
}

#[test]
fn crlf_does_not_leak_into_messages_or_line_numbers() {
    let dataset = Dataset::valid();
    let mut lines = valid_requests();
    // Quoted fields take the tokenizer's slow path; the bad values sit last on their lines.
    lines[5] = "\"a1\",\"4\",\"500.000\",\"500.250\",\"5.500\",\"200\",\"-1\"".to_string();
    lines[8] = "a2,2,250.000,250.250,3.500,200,12x".to_string();
    dataset.write("requests.csv", joined(&lines).replace('\n', "\r\n"));
    assert_problems(
        &dataset.check(),
        &[
            "requests.csv:6:7: body_bytes: -1 is negative: a byte count cannot be",
            "requests.csv:9:7: body_bytes: \"12x\" is not a byte count",
        ],
    );
}

// ---- dataset.toml -------------------------------------------------------------------------

const TOML_KEYS: &str = "whose keys are `title`, `description`, `lang`, `percentile`, `large_response_bytes`, `x`, `series`, `measured`, `factors`, `thresholds`, `environment`, `published`, `report`, `slo`, `sessions`, `baseline`, `comparability` and `history`: check its spelling (keys are case-sensitive) or remove it";

#[test]
fn rejects_a_typo_in_dataset_toml_naming_line_and_column() {
    let dataset = Dataset::valid();
    dataset.write("dataset.toml", "title = \"Tiny\"\npercentil = 95\n");
    assert_problems(
        &dataset.check(),
        &[format!("dataset.toml:2:1: percentil: `percentil` is not a key of dataset.toml, {TOML_KEYS}").as_str()],
    );
}

#[test]
fn rejects_a_typo_in_a_dataset_toml_table_naming_line_and_column() {
    let dataset = Dataset::valid();
    dataset.write("dataset.toml", "title = \"Tiny\"\n\n[thresholds]\nlag_ms = 20\n  load = 2\n");
    assert_problems(
        &dataset.check(),
        &["dataset.toml:5:3: thresholds.load: `load` is not a key of `thresholds`, whose keys are `lag_ms`, `load1`, `outlier_ratio`, `noisy_k`, `noisy_lag_floor_ms`, `noisy_load1_floor`, `negligible_difference` and `error_share`: check its spelling (keys are case-sensitive) or remove it"],
    );
}

/// `[slo]` (one table) where objectives are `[[slo]]` (a list of tables): the key and the fix,
/// not serde's "invalid type: map, expected a sequence".
#[test]
fn an_slo_table_instead_of_a_list_of_them_names_the_key_and_the_fix() {
    let dataset = Dataset::valid();
    dataset.write("dataset.toml", "title = \"Tiny\"\n\n[slo]\nmetric = \"p95\"\nmax = 250\n");
    assert_problems(
        &dataset.check(),
        &["dataset.toml:3:1: slo: a table is not what `slo` takes: it is a list: write `[[slo]]` (two brackets) above each entry, or `slo = [ … ]`"],
    );
}

/// A text is a string or a table of `en`/`ja`: `fr` is named, not "untagged enum Text".
#[test]
fn a_text_in_a_language_the_report_has_not_names_the_key_and_the_languages() {
    let dataset = Dataset::valid();
    dataset.write("dataset.toml", "[[factors]]\nname = \"route\"\nlabel = { en = \"Route\", fr = \"Chemin\" }\n");
    let output = dataset.check();
    assert_problems(
        &output,
        &["dataset.toml:3:9: factors.label: `fr` is not a language: a text is a string, or a table with `en` and/or `ja` strings, e.g. `{ en = \"Slow\", ja = \"遅い\" }`"],
    );
    assert!(!stderr(&output).contains("untagged"), "{}", stderr(&output));
}

#[test]
fn a_report_with_a_typo_in_dataset_toml_leaves_out_alone() {
    assert_failed_report_leaves_out_alone(
        |d| d.write("dataset.toml", "title = \"Tiny\"\npercentil = 95\n"),
        &format!("dataset.toml:2:1: percentil: `percentil` is not a key of dataset.toml, {TOML_KEYS}"),
    );
}

#[test]
fn rejects_a_percentile_out_of_range() {
    let dataset = Dataset::valid();
    dataset.write("dataset.toml", "percentile = 100\n");
    assert_problems(&dataset.check(), &["dataset.toml:1:14: percentile: 100 is not above 0 and below 100"]);
}

// ---- many problems ------------------------------------------------------------------------

#[test]
fn reports_every_problem_in_a_file_together() {
    let dataset = Dataset::valid();
    dataset.set_line("requests.csv", 3, &request("a1", 1, "abc"));
    dataset.set_line("requests.csv", 6, &request("a1", 4, "-1"));
    dataset.set_line("requests.csv", 9, &request("a2", 2, "NaN"));
    assert_problems(
        &dataset.check(),
        &[
            "requests.csv:3:5: latency_ms: \"abc\" is not a number",
            "requests.csv:6:5: latency_ms: -1 is negative: a latency cannot be",
            "requests.csv:9:5: latency_ms: is NaN, expected a number",
        ],
    );
}

#[test]
fn reports_problems_in_several_files_together() {
    let dataset = Dataset::valid();
    dataset.write("dataset.toml", "titel = \"Tiny\"\n");
    dataset.write(
        "runs.csv",
        "run_id,route,repetition,started_at_utc,status,note,load1_before\n\
         a1,direct,1,2026-11-30T01:00:00Z,ok,,high\n\
         a2,nginx,2,2026-11-30T01:01:00Z,ok,,0.5\n",
    );
    dataset.set_line("requests.csv", 5, &request("a1", 3, "abc"));
    let output = dataset.check();
    assert_exit(&output, 2);
    let lines = problem_lines(&output);
    let expected_prefixes =
        ["dataset.toml:1:1: titel: `titel` is not a key of dataset.toml", "requests.csv:5:5: latency_ms: \"abc\" is not a number"];
    for prefix in expected_prefixes {
        assert!(lines.iter().any(|l| l.starts_with(prefix)), "missing {prefix:?} in\n{}", stderr(&output));
    }
    assert!(lines.iter().any(|l| l == "runs.csv:2:7: load1_before: \"high\" is not a number"), "{}", stderr(&output));
    assert_eq!(lines.len(), 3, "{}", stderr(&output));
}

#[test]
fn caps_the_list_at_fifty_problems_and_counts_the_rest() {
    let dataset = Dataset::valid();
    let mut lines = valid_requests();
    for seq in 5..125 {
        lines.push(request("a1", seq, "slow"));
    }
    dataset.write("requests.csv", joined(&lines));
    let output = dataset.check();
    assert_exit(&output, 2);
    let text = stderr(&output);
    let first = text.lines().next().unwrap();
    assert!(first.starts_with("error: ") && first.contains("120"), "the heading must count every problem: {first}");
    let problems = problem_lines(&output);
    assert_eq!(problems.len(), 51, "50 problems and the count of the rest:\n{text}");
    // The first 50 in file order (bad rows start on line 12), so the user fixes from the top.
    for (i, line) in problems[..50].iter().enumerate() {
        assert_eq!(line, &format!("requests.csv:{}:5: latency_ms: \"slow\" is not a number", 12 + i));
    }
    assert_eq!(problems[50], "... and 70 more");
}

// ---- accepted variations: each checks exactly like the base dataset ----------------------

fn base_summary() -> String {
    let output = Dataset::valid().check();
    assert_exit(&output, 0);
    String::from_utf8(output.stdout).unwrap()
}

fn assert_checks_like_the_base(dataset: &Dataset) {
    let output = dataset.check();
    assert_exit(&output, 0);
    assert_eq!(String::from_utf8(output.stdout).unwrap(), base_summary());
}

#[test]
fn accepts_a_utf8_bom() {
    let dataset = Dataset::valid();
    dataset.write("runs.csv", format!("\u{feff}{}", joined(&valid_runs())));
    dataset.write("requests.csv", format!("\u{feff}{}", joined(&valid_requests())));
    assert_checks_like_the_base(&dataset);
}

#[test]
fn accepts_crlf_line_endings() {
    let dataset = Dataset::valid();
    dataset.write("runs.csv", joined(&valid_runs()).replace('\n', "\r\n"));
    dataset.write("requests.csv", joined(&valid_requests()).replace('\n', "\r\n"));
    assert_checks_like_the_base(&dataset);
}

#[test]
fn accepts_quoted_fields_with_commas_and_escaped_quotes() {
    let dataset = Dataset::valid();
    dataset.set_line("runs.csv", 3, "\"a2\",\"nginx\",2,2026-11-30T01:01:00Z,ok,\"slow, then \"\"fine\"\"\"");
    let quoted: Vec<String> = valid_requests()
        .iter()
        .enumerate()
        .map(|(i, line)| if i == 0 { line.clone() } else { line.split(',').map(|f| format!("\"{f}\"")).collect::<Vec<_>>().join(",") })
        .collect();
    dataset.write("requests.csv", joined(&quoted));
    assert_checks_like_the_base(&dataset);

    let out = tempfile::tempdir().unwrap();
    let out = out.path().join("out");
    assert_exit(&dataset.report(&out), 0);
    let summary: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["runs"][1]["note"], "slow, then \"fine\"");
}

#[test]
fn accepts_extra_columns() {
    let dataset = Dataset::valid();
    let extra: Vec<String> = valid_requests()
        .iter()
        .enumerate()
        .map(|(i, line)| if i == 0 { format!("host,{line},comment") } else { format!("probe-1,{line},\"x, y\"") })
        .collect();
    dataset.write("requests.csv", joined(&extra));
    assert_checks_like_the_base(&dataset);
}

#[test]
fn accepts_columns_in_another_order() {
    let dataset = Dataset::valid();
    let reverse =
        |lines: Vec<String>| -> Vec<String> { lines.iter().map(|line| line.split(',').rev().collect::<Vec<_>>().join(",")).collect() };
    dataset.write("runs.csv", joined(&reverse(valid_runs())));
    dataset.write("requests.csv", joined(&reverse(valid_requests())));
    assert_checks_like_the_base(&dataset);
}

// ---- dataset text is escaped --------------------------------------------------------------

const SCRIPT: &str = "<script>alert(1)</script>";

/// A dataset whose factor level (run a1's route) and run note (a2's) are a script tag.
fn hostile_dataset() -> Dataset {
    let dataset = Dataset::valid();
    dataset.set_line("runs.csv", 2, &format!("a1,{SCRIPT},1,2026-11-30T01:00:00Z,ok,"));
    dataset.set_line("runs.csv", 3, &format!("a2,nginx,2,2026-11-30T01:01:00Z,ok,{SCRIPT}"));
    dataset
}

#[test]
fn escapes_dataset_text_in_html_pages() {
    let dataset = hostile_dataset();
    let out = tempfile::tempdir().unwrap();
    let out = out.path().join("out");
    assert_exit(&dataset.report(&out), 0);
    for page in ["index.html", "runs/a1.html", "runs/a2.html"] {
        let html = std::fs::read_to_string(out.join(page)).unwrap();
        assert!(!html.contains("<script"), "{page} contains a raw <script> tag");
        assert!(
            html.contains("&lt;script&gt;alert(1)&lt;&#x2F;script&gt;") || html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{page} does not show the text escaped"
        );
    }
    // The note is on a2's page, the level on a1's.
    assert!(std::fs::read_to_string(out.join("runs/a2.html")).unwrap().contains("ok (&lt;script&gt;"));
    assert!(std::fs::read_to_string(out.join("runs/a1.html")).unwrap().contains("&lt;script&gt;alert(1)"));
}

#[test]
fn no_rendered_file_contains_raw_dataset_markup() {
    let dataset = hostile_dataset();
    let out = tempfile::tempdir().unwrap();
    let out = out.path().join("out");
    assert_exit(&dataset.report(&out), 0);
    let mut checked = 0;
    for (path, bytes) in read_tree(&out) {
        if [".html", ".md", ".svg"].iter().any(|ext| path.ends_with(ext)) {
            let mut text = String::from_utf8_lossy(&bytes).into_owned();
            if path.ends_with(".md") {
                // `\<` is Markdown for the character `<`, shown as text.
                text = text.replace("\\<", "");
            }
            assert!(!text.contains("<script"), "{path} contains a raw <script> tag");
            checked += 1;
        }
    }
    assert!(checked > 5, "only {checked} files checked");
}
