//! A run in which every request failed imports as what it was (issue 38): an Artillery run against
//! a server that was down (every request an ECONNREFUSED, no response at all) was refused as "is
//! the file edited or cut?", because its absent http.responses counter (Artillery never increments
//! it) was compared as "none" with the periods' sum of 0. It imports as 0 responses, N errors, an
//! error rate of 100 %.

use assert_cmd::cargo::cargo_bin;
use std::path::Path;
use std::process::Command;

/// The real one-endpoint report with every request refused: each period's and the aggregate's
/// counters as Artillery keeps them for a run whose connections were all refused (no http.codes,
/// no http.responses, no response-time summaries), the same request counts per period.
fn server_down_report() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import/artillery/one-endpoint.json");
    let mut report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let down = |period: &mut serde_json::Value, n: u64| {
        period["counters"] = serde_json::json!({
            "vusers.created_by_name.0": n, "vusers.created": n, "http.requests": n, "errors.ECONNREFUSED": n, "vusers.failed": n
        });
        period["summaries"] = serde_json::json!({});
        period["histograms"] = serde_json::json!({});
    };
    let mut total = 0;
    for period in report["intermediate"].as_array_mut().unwrap() {
        let n = period["counters"]["http.requests"].as_u64().unwrap();
        total += n;
        down(period, n);
    }
    down(&mut report["aggregate"], total);
    assert_eq!(total, 50);
    serde_json::to_string_pretty(&report).unwrap() + "\n"
}

#[test]
fn an_artillery_run_against_a_server_that_was_down_imports_as_all_errors() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("down.json");
    std::fs::write(&file, server_down_report()).unwrap();
    let dataset = dir.path().join("d");
    let out = Command::new(cargo_bin("analyze"))
        .arg("import")
        .arg(&file)
        .arg("--into")
        .arg(&dataset)
        .args(["--run-id", "down", "--factor", "tool=artillery"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    let stats = std::fs::read_to_string(dataset.join("run_stats.csv")).unwrap();
    let row: Vec<&str> = stats.lines().nth(1).unwrap().split(',').collect();
    assert_eq!(&row[..5], ["down", "artillery", "ddsketch", "50", "50"], "50 requests, 50 errors: {stats}");
    assert!(row[6..9].iter().all(|c| c.is_empty()), "no response time: {stats}");
    let report = dir.path().join("report");
    let out = Command::new(cargo_bin("analyze")).arg("report").arg(&dataset).arg("--out").arg(&report).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let summary: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(report.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["runs"][0]["error_rate"], serde_json::json!(1.0), "an error rate of 100 %");
}

#[test]
fn a_real_artillery_run_with_every_connection_refused_imports_as_all_errors() {
    // Artillery 2.0.21 against 127.0.0.1:1, where nothing listens (fixtures/import/artillery/REAL).
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import/artillery/server-down.json");
    let dir = tempfile::tempdir().unwrap();
    let dataset = dir.path().join("d");
    let out = Command::new(cargo_bin("analyze"))
        .arg("import")
        .arg(&file)
        .arg("--into")
        .arg(&dataset)
        .args(["--run-id", "down", "--factor", "tool=artillery"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stats = std::fs::read_to_string(dataset.join("run_stats.csv")).unwrap();
    assert!(stats.lines().nth(1).unwrap().starts_with("down,artillery,ddsketch,50,50,"), "{stats}");
}
