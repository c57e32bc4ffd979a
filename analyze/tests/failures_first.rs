//! The gates judge failed requests before latency (issue 40): `analyze compare
//! --fail-on-regression` and `analyze check --slo` through the binary, on generated datasets of
//! three runs a side whose requests answer 503 (or not at all) in the shares each test sets.

use assert_cmd::Command;
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Output;

/// One run: how many requests, how many of them fail, and with which status (0: no response).
#[derive(Clone, Copy)]
struct Run {
    requests: u64,
    failed: u64,
    status: u16,
    /// The 2xx latency (ms) of request k is `ok_ms + k % 7`; a failure takes 1 ms.
    ok_ms: f64,
}

fn run(requests: u64, failed: u64, ok_ms: f64) -> Run {
    Run { requests, failed, status: 503, ok_ms }
}

/// A dataset of one condition (`route=a`) with these runs, and `extra` appended to dataset.toml.
fn dataset(dir: &Path, runs: &[Run], extra: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let mut runs_csv = String::from("run_id,route,repetition,started_at_utc,status\n");
    let mut requests = String::from("run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\n");
    for (i, r) in runs.iter().enumerate() {
        let id = format!("r{:02}", i + 1);
        writeln!(runs_csv, "{id},a,{},2026-11-30T01:{:02}:00Z,ok", i + 1, i + 1).unwrap();
        for k in 0..r.requests {
            let t = k as f64 * 10.0;
            // The failures spread through the run: every request whose index falls in the share.
            let fails = (k * r.failed) / r.requests != ((k + 1) * r.failed) / r.requests;
            let (latency, status, bytes) = if fails { (1.0, r.status, 0) } else { (r.ok_ms + (k % 7) as f64, 200, 12) };
            writeln!(requests, "{id},{k},{t:.3},{t:.3},{latency:.3},{status},{bytes}").unwrap();
        }
    }
    std::fs::write(dir.join("runs.csv"), runs_csv).unwrap();
    std::fs::write(dir.join("requests.csv"), requests).unwrap();
    std::fs::write(dir.join("dataset.toml"), format!("title = \"probe\"\n{extra}")).unwrap();
    dir.to_path_buf()
}

fn analyze(args: &[&str], dirs: &[&Path]) -> Output {
    let mut command = Command::cargo_bin("analyze").unwrap();
    command.args(&args[..1]).args(dirs).args(&args[1..]);
    command.output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn assert_exit(output: &Output, code: i32) {
    assert_eq!(output.status.code(), Some(code), "--- stdout\n{}\n--- stderr\n{}", stdout(output), String::from_utf8_lossy(&output.stderr));
}

fn clean(root: &Path) -> PathBuf {
    dataset(&root.join("base"), &[run(1000, 0, 50.0); 3], "")
}

#[test]
fn a_candidate_answering_503_to_99_percent_fails_the_gate_in_both_languages() {
    let root = tempfile::tempdir().unwrap();
    let base = clean(root.path());
    // The 1% that succeed are faster than the baseline's requests: by latency alone "faster".
    let cand = dataset(&root.path().join("cand"), &[run(1000, 990, 40.0); 3], "");
    let output = analyze(&["compare", "--fail-on-regression", "10"], &[&base, &cand]);
    assert_exit(&output, 1);
    let text = stdout(&output);
    assert!(text.contains("a: candidate worse: more requests failed, fails the gate"), "{text}");
    assert!(text.contains("failed 0.00% → 99.00%"), "{text}");
    assert!(text.contains("more requests failed in the candidate in a, so the exit status is 1"), "{text}");
    assert!(!text.contains("candidate faster"), "{text}");

    let output = analyze(&["compare", "--fail-on-regression", "10", "--lang", "ja"], &[&base, &cand]);
    assert_exit(&output, 1);
    let text = stdout(&output);
    assert!(text.contains("a：比較対象が悪い：失敗したリクエストが多い、判定は失敗"), "{text}");
    assert!(text.contains("aで比較対象の失敗したリクエストが多いため、終了ステータスは1です"), "{text}");

    let output = analyze(&["compare", "--fail-on-regression", "10", "--format", "json"], &[&base, &cand]);
    assert_exit(&output, 1);
    let json: Value = serde_json::from_str(&stdout(&output)).unwrap();
    let c = &json["conditions"][0];
    assert_eq!(c["verdict"], "supported_slower");
    assert_eq!(c["decided_by"], "failures");
    assert_eq!(c["regression"], true);
    assert_eq!(c["failures"]["verdict"], "rise");
    assert_eq!((c["failures"]["base"]["errors"].as_u64(), c["failures"]["cand"]["errors"].as_u64()), (Some(0), Some(2970)));
    assert_eq!(c["failures"]["cand"]["share"], 0.99);
    // The latency of the survivors is still reported beside it: a ratio below 1.
    assert!(c["ratio"].as_f64().unwrap() < 1.0);
    assert_eq!(json["summary"]["regressions"], serde_json::json!(["route=a"]));
}

#[test]
fn a_candidate_without_a_single_2xx_response_is_a_regression_not_a_missing_headline() {
    let root = tempfile::tempdir().unwrap();
    let base = clean(root.path());
    for (name, status) in [("all503", 503), ("noresponse", 0)] {
        let cand = dataset(&root.path().join(name), &[Run { requests: 1000, failed: 1000, status, ok_ms: 40.0 }; 3], "");
        let output = analyze(&["compare", "--fail-on-regression", "10"], &[&base, &cand]);
        assert_exit(&output, 1);
        let text = stdout(&output);
        assert!(text.contains("a: candidate worse: no request got a 2xx response, fails the gate"), "{name}: {text}");
        assert!(text.contains("candidate: every request failed"), "{name}: {text}");
        assert!(!text.contains("give the candidate the same headline"), "{name}: {text}");
        // Without a gate it is reported the same, and exits 0.
        let output = analyze(&["compare"], &[&base, &cand]);
        assert_exit(&output, 0);
        assert!(stdout(&output).contains("candidate worse: no request got a 2xx response"), "{name}");
    }
}

#[test]
fn an_error_rate_gate_fires_against_a_clean_baseline() {
    let root = tempfile::tempdir().unwrap();
    let headline = "[report]\nheadline = \"error_rate\"\n";
    let base = dataset(&root.path().join("base"), &[run(200, 0, 50.0); 5], headline);
    let cand = dataset(&root.path().join("cand"), &[run(200, 100, 50.0); 5], headline);
    let output = analyze(&["compare", "--fail-on-regression", "10", "--format", "json"], &[&base, &cand]);
    assert_exit(&output, 1);
    let json: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["conditions"][0]["verdict"], "supported_slower");
    assert_eq!(json["conditions"][0]["no_interval"], "zero_value");
    assert_eq!(json["conditions"][0]["failures"]["cand"]["share"], 0.5);
}

#[test]
fn a_fall_of_failures_is_the_better_candidate_whatever_the_latency() {
    let root = tempfile::tempdir().unwrap();
    // The baseline answered 503 to most requests; the candidate serves them all, slower.
    let base = dataset(&root.path().join("base"), &[run(1000, 990, 20.0); 3], "");
    let cand = dataset(&root.path().join("cand"), &[run(1000, 0, 60.0); 3], "");
    let output = analyze(&["compare", "--fail-on-regression", "10"], &[&base, &cand]);
    assert_exit(&output, 0);
    assert!(stdout(&output).contains("a: candidate better: fewer requests failed"), "{}", stdout(&output));
}

#[test]
fn one_bad_run_of_three_is_not_a_supported_rise_nor_a_latency_verdict() {
    let root = tempfile::tempdir().unwrap();
    let base = clean(root.path());
    let cand = dataset(&root.path().join("cand"), &[run(1000, 0, 50.0), run(1000, 0, 50.0), run(1000, 600, 50.0)], "");
    let output = analyze(&["compare", "--fail-on-regression", "10", "--format", "json"], &[&base, &cand]);
    assert_exit(&output, 0);
    let json: Value = serde_json::from_str(&stdout(&output)).unwrap();
    let c = &json["conditions"][0];
    assert_eq!((c["verdict"].as_str(), c["decided_by"].as_str()), (Some("not_shown"), Some("failures")));
    assert_eq!(c["failures"]["verdict"], "not_shown");
    // The runs' spread (0%, 0%, 60% about their 20%) widens the test: χ² = (200² + 200² + 400²)/160 = 1,500
    // over 2 degrees of freedom, φ = 750.
    assert!((c["failures"]["dispersion"].as_f64().unwrap() - 750.0).abs() < 1e-9, "{c}");
}

#[test]
fn a_latency_objective_fails_a_condition_whose_requests_failed() {
    let root = tempfile::tempdir().unwrap();
    let slo = "[[slo]]\nmetric = \"p95\"\nmax = 10\n";
    // 99 of 100 requests answer 503 in 1 ms; the one 2xx takes 5 ms.
    let failing = dataset(&root.path().join("failing"), &[run(100, 99, 5.0); 3], slo);
    let output = analyze(&["check", "--slo"], &[&failing]);
    assert_exit(&output, 1);
    let text = stdout(&output);
    assert!(text.contains("slo a: p95 ≤ 10.00 ms: fail: 99.00% of requests failed (at most 1%)"), "{text}");
    assert!(text.contains("0 of 3 runs met it"), "{text}");
    // The objective may say otherwise.
    let lenient = dataset(&root.path().join("lenient"), &[run(100, 99, 5.0); 3], &format!("{slo}error_share = 1\n"));
    let output = analyze(&["check", "--slo"], &[&lenient]);
    assert_exit(&output, 0);
    assert!(stdout(&output).contains("slo a: p95 ≤ 10.00 ms: pass"), "{}", stdout(&output));
}
