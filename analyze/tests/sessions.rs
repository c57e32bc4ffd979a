//! sessions.csv end to end: a dataset of ramped sessions (seed 003's client) checked and rendered,
//! its numbers worked by hand, and its bad rows refused with their place.
//!
//! The dataset: condition prefork (runs s1, s2) and gunicorn (run s3).
//!
//! | run | session times (ms), failed steps | failed | min | mean | max | p50 (rank) | p95 (rank) |
//! | --- | --- | --- | --- | --- | --- | --- | --- |
//! | s1 | 30, step 1, 10, step 2, 20 | 2 of 5 (40%) | 10 | 20 | 30 | 20 (2nd of 3) | 30 (3rd of 3) |
//! | s2 | 40, 50, step 0, 60 | 1 of 4 (25%) | 40 | 50 | 60 | 50 (2nd of 3) | 60 (3rd of 3) |
//! | s3 | 5, 7 | 0 of 2 (0%) | 5 | 6 | 7 | 5 (1st of 2) | 7 (2nd of 2) |
//!
//! prefork: 3 of 9 failed; the median share of its two runs is (40% + 25%) / 2 = 32.5%, the median
//! of their means (20 + 50) / 2 = 35 ms.

use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;

const RUNS: &str = "run_id,server,repetition,started_at_utc,status,note\n\
s1,prefork,1,2026-11-30T01:00:00Z,ok,\n\
s2,prefork,2,2026-11-30T01:01:00Z,ok,\n\
s3,gunicorn,1,2026-11-30T01:02:00Z,ok,\n";

const SESSIONS_HEADER: &str = "run_id,session,scheduled_ms,sent_ms,session_ms,requests,failed_step,error\n";

fn sessions() -> String {
    let rows = [
        "s1,0,0,0.1,30,3,,",
        "s1,1,20,20.1,,2,1,status 502",
        "s1,2,40,40.1,10,3,,",
        "s1,3,60,60.1,,3,2,timed out",
        "s1,4,80,80.1,20,3,,",
        "s2,0,0,0.1,40,3,,",
        "s2,1,20,20.1,50,3,,",
        "s2,2,40,40.1,,1,0,connect: refused",
        "s2,3,60,60.1,60,3,,",
        "s3,0,0,0.1,5,3,,",
        "s3,1,20,20.1,7,3,,",
    ];
    format!("{SESSIONS_HEADER}{}\n", rows.join("\n"))
}

fn requests() -> String {
    let mut text = String::from("run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\n");
    for run in ["s1", "s2", "s3"] {
        for seq in 0..3 {
            text.push_str(&format!("{run},{seq},{}.000,{}.100,2.5,200,10\n", seq * 20, seq * 20));
        }
    }
    text
}

fn dataset(sessions: &str) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("ds");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("runs.csv"), RUNS).unwrap();
    std::fs::write(dir.join("requests.csv"), requests()).unwrap();
    std::fs::write(dir.join("sessions.csv"), sessions).unwrap();
    root
}

fn analyze() -> Command {
    Command::cargo_bin("analyze").unwrap()
}

fn report(root: &Path) -> std::path::PathBuf {
    let out = root.join("out");
    analyze().arg("report").arg(root.join("ds")).arg("--out").arg(&out).assert().success();
    out
}

#[test]
fn each_run_reports_what_the_seed_printed_and_our_nearest_ranks() {
    let root = dataset(&sessions());
    let out = report(root.path());
    let summary: Value = serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let s1 = &summary["runs"][0]["sessions"];
    assert_eq!((s1["sessions"].as_u64(), s1["succeeded"].as_u64(), s1["failed"].as_u64()), (Some(5), Some(3), Some(2)));
    assert_eq!(s1["failed_share"].as_f64(), Some(0.4));
    assert_eq!(s1["failed_by_step"], serde_json::json!({"1": 1, "2": 1}));
    assert_eq!((s1["min_ms"].as_f64(), s1["mean_ms"].as_f64(), s1["max_ms"].as_f64()), (Some(10.0), Some(20.0), Some(30.0)));
    assert_eq!((s1["median_ms"].as_f64(), s1["median_rank"].as_u64()), (Some(20.0), Some(2)));
    assert_eq!((s1["p95_ms"].as_f64(), s1["p95_rank"].as_u64()), (Some(30.0), Some(3)));
    let s3 = &summary["runs"][2]["sessions"];
    assert_eq!((s3["failed_share"].as_f64(), s3["mean_ms"].as_f64()), (Some(0.0), Some(6.0)));
    assert_eq!((s3["median_ms"].as_f64(), s3["median_rank"].as_u64(), s3["p95_ms"].as_f64()), (Some(5.0), Some(1), Some(7.0)));
}

#[test]
fn a_condition_takes_the_median_of_its_runs_and_the_totals() {
    let root = dataset(&sessions());
    let out = report(root.path());
    let summary: Value = serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let prefork = summary["conditions"].as_array().unwrap().iter().find(|c| c["id"] == "server=prefork").unwrap();
    let s = &prefork["sessions"];
    assert_eq!((s["sessions"].as_u64(), s["failed"].as_u64()), (Some(9), Some(3)));
    assert_eq!(s["failed_share"], serde_json::json!({"median": 0.325, "min": 0.25, "max": 0.4, "n": 2}));
    assert_eq!(s["mean_ms"], serde_json::json!({"median": 35.0, "min": 20.0, "max": 50.0, "n": 2}));
    assert_eq!(s["p95_ms"], serde_json::json!({"median": 45.0, "min": 30.0, "max": 60.0, "n": 2}));

    // The report page's table and Methods, in both languages.
    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(html.contains("<table id=\"sessions\" class=\"data\">"), "no sessions table");
    assert!(html.contains(">32.5%<"), "the median failed share of prefork");
    assert!(html.contains("the mean (what the original study printed as its average"), "Methods says the seed's numbers are means");
    let markdown = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(markdown.contains("| prefork | 9 | 3 | 32.5% (25.0%–40.0%) | 25.00 (10.00–40.00) | 35.00 (20.00–50.00) |"), "{markdown}");
    let run = std::fs::read_to_string(out.join("runs").join("s1.html")).unwrap();
    assert!(run.contains("<table id=\"session-times\" class=\"data\">"), "no session-time table on the run page");
    assert!(run.contains("5 (2 failed, 40.0%)"), "the run's sessions in its facts");
    assert!(run.contains("3rd of 3"), "the p95's rank among the successful sessions");

    let out_ja = root.path().join("out-ja");
    analyze().arg("report").arg(root.path().join("ds")).arg("--out").arg(&out_ja).args(["--lang", "ja"]).assert().success();
    let ja = std::fs::read_to_string(out_ja.join("index.html")).unwrap();
    assert!(ja.contains("<h2>セッション</h2>") && ja.contains("算術平均"), "the Japanese page has the table and Methods");
}

#[test]
fn the_csv_exports_carry_the_session_numbers() {
    let root = dataset(&sessions());
    let out = report(root.path());
    let runs = std::fs::read_to_string(out.join("runs.csv")).unwrap();
    let header = runs.lines().next().unwrap();
    assert!(header.ends_with(",sessions,sessions_failed,sessions_failed_share,session_min_ms,session_mean_ms,session_max_ms,session_p50_ms,session_p50_rank,session_p95_ms,session_p95_rank"), "{header}");
    assert!(runs.lines().nth(1).unwrap().ends_with(",5,2,0.4,10,20,30,20,2,30,3"), "{runs}");
    let conditions = std::fs::read_to_string(out.join("conditions.csv")).unwrap();
    let header: Vec<&str> = conditions.lines().next().unwrap().split(',').collect();
    let prefork: Vec<&str> = conditions.lines().find(|l| l.starts_with("server=prefork,")).unwrap().split(',').collect();
    let cell = |name: &str| prefork[header.iter().position(|h| *h == name).unwrap()];
    assert_eq!((cell("sessions"), cell("sessions_failed")), ("9", "3"));
    assert_eq!((cell("sessions_failed_share_median"), cell("session_mean_ms_median"), cell("session_p95_ms_max")), ("0.325", "35", "60"));
}

#[test]
fn a_dataset_without_sessions_says_nothing_of_them() {
    let root = dataset(&sessions());
    std::fs::remove_file(root.path().join("ds/sessions.csv")).unwrap();
    let out = report(root.path());
    let summary = std::fs::read_to_string(out.join("summary.json")).unwrap();
    assert!(!summary.contains("\"sessions\""), "no sessions key without sessions.csv");
    assert!(!std::fs::read_to_string(out.join("runs.csv")).unwrap().contains("session"), "no session columns without sessions.csv");
    assert!(!std::fs::read_to_string(out.join("index.html")).unwrap().contains("id=\"sessions\""));
}

#[test]
fn bad_session_rows_are_refused_with_their_place_and_exit_2() {
    let text = sessions().replace("s2,1,20,20.1,50,3,,", "zz,1,20,20.1,50,3,,").replace("s3,1,20,20.1,7,3,,", "s3,1,20,20.1,7,3,1,x");
    let root = dataset(&text);
    let assert = analyze().arg("check").arg(root.path().join("ds")).assert().code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("sessions.csv:8:1: run_id: run_id \"zz\" is not in runs.csv"), "{stderr}");
    assert!(stderr.contains("sessions.csv:12:7: failed_step: a session with a session_ms succeeded and has no failed step"), "{stderr}");
}

#[test]
fn an_ok_run_without_sessions_is_an_error_once_the_file_exists() {
    let text: String = sessions().lines().filter(|l| !l.starts_with("s3,")).map(|l| format!("{l}\n")).collect();
    let root = dataset(&text);
    let out = root.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let assert = analyze().arg("report").arg(root.path().join("ds")).arg("--out").arg(&out).assert().code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("runs.csv:4: run \"s3\" has status ok but no rows in sessions.csv"), "{stderr}");
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0, "nothing written on bad input");
}
