//! A condition that fails (more than `thresholds.error_share` of its sessions failed) is shown
//! with its share wherever its latency is, and never presented as the best: seed 003's
//! FastCGI threaded, whose few successful sessions were the fastest.
//!
//! The dataset: servers `fast` and `steady`, 3 runs each of 10 sessions and 10 requests.
//! - `fast`: 5 of 10 sessions fail in every run (50%), and 5 of 10 requests get a 502; the
//!   successful sessions take 5, 6 and 7 ms (runs f1, f2, f3): mean session time 5, 6, 7 ms.
//! - `steady`: no failure; sessions take 20, 21 and 22 ms: mean session time 20, 21, 22 ms.
//!
//! By mean session time `fast` is better (median 6 ms against 21 ms), but it failed 50% of its
//! sessions: above the default 1% it is not ranked, and `steady` is the only ranked condition.
//! With a threshold of 60% `fast` is the best: the ratio of geometric means of the runs' means is
//! (20·21·22)^(1/3) / (5·6·7)^(1/3) = 20.98 / 5.94 = 3.53.

use crate::common::report;
use serde_json::Value;
use std::fmt::Write;
use std::path::Path;

const RUNS: [(&str, &str, u32, f64); 6] = [
    ("f1", "fast", 1, 5.0),
    ("f2", "fast", 2, 6.0),
    ("f3", "fast", 3, 7.0),
    ("s1", "steady", 1, 20.0),
    ("s2", "steady", 2, 21.0),
    ("s3", "steady", 3, 22.0),
];

/// The servers are the one factor, so the study compares its levels (`compare`).
const TOML: &str = "[report]\nheadline = \"session_mean_ms\"\nbeside = [\"failed_share\", \"percentile\"]\ncompare = \"server\"\n";

fn write_dataset(dir: &Path, toml: &str) {
    std::fs::create_dir_all(dir).unwrap();
    let mut runs = String::from("run_id,server,repetition,started_at_utc,status\n");
    let mut requests = String::from("run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\n");
    let mut sessions = String::from("run_id,session,scheduled_ms,sent_ms,session_ms,requests,failed_step,error\n");
    for (i, (id, server, k, ms)) in RUNS.iter().enumerate() {
        writeln!(runs, "{id},{server},{k},2026-11-30T04:0{i}:00Z,ok").unwrap();
        for seq in 0..10u32 {
            let t = f64::from(seq) * 50.0;
            let failed = *server == "fast" && seq % 2 == 1;
            let status = if failed { 502 } else { 200 };
            writeln!(requests, "{id},{seq},{t},{t},2,{status},10").unwrap();
            if failed {
                writeln!(sessions, "{id},{seq},{t},{t},,1,0,status 502").unwrap();
            } else {
                writeln!(sessions, "{id},{seq},{t},{t},{ms},3,,").unwrap();
            }
        }
    }
    std::fs::write(dir.join("runs.csv"), runs).unwrap();
    std::fs::write(dir.join("requests.csv"), requests).unwrap();
    std::fs::write(dir.join("sessions.csv"), sessions).unwrap();
    std::fs::write(dir.join("dataset.toml"), toml).unwrap();
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap().replace("&#x2F;", "/").replace("&#x27;", "'").replace("&quot;", "\"")
}

/// The page's text between two markers, tags removed.
fn section(page: &str, from: &str, to: &str) -> String {
    let start = page.find(from).unwrap_or_else(|| panic!("{from} is on the page"));
    let end = start + page[start..].find(to).unwrap();
    let mut text = String::new();
    let mut in_tag = false;
    for c in page[start..end].chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text
}

#[test]
fn a_condition_that_failed_half_its_sessions_is_shown_with_its_share_and_never_ranked() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("failing");
    write_dataset(&dataset, TOML);
    let (en, ja) = (root.path().join("en"), root.path().join("ja"));
    report(&dataset, &en, "en");
    report(&dataset, &ja, "ja");

    let summary: Value = serde_json::from_str(&read(&en.join("summary.json"))).unwrap();
    let standing = &summary["standing"];
    assert_eq!(standing["threshold"], 0.01, "the default threshold");
    assert_eq!(standing["conditions"][0]["condition_id"], "server=fast");
    assert_eq!(
        (standing["conditions"][0]["failed_share"].as_f64(), standing["conditions"][0]["error_share"].as_f64()),
        (Some(0.5), Some(0.5))
    );
    assert_eq!(standing["conditions"][0]["failing"], true);
    assert_eq!(standing["conditions"][1]["failing"], false);
    let group = &standing["groups"][0];
    assert_eq!(group["failing_ids"], serde_json::json!(["server=fast"]));
    assert_eq!(group["ranked_ids"], serde_json::json!(["server=steady"]));
    assert_eq!(group["best"], Value::Null, "one ranked condition is no best");
    assert_eq!(standing["worst_id"], "server=fast", "the failing condition is the worst, though its mean is the shortest");
    // The median of the runs' mean session times: 6 ms for fast, 21 ms for steady.
    assert_eq!(summary["conditions"][0]["sessions"]["mean_ms"]["median"], 6.0);

    let page = read(&en.join("index.html"));
    let lead = section(&page, "<section id=\"findings\"", "</section>");
    assert!(lead.contains("Conditions compared by mean session time (lower is better)"), "{lead}");
    assert!(lead.contains("more than 1% of its sessions failed"), "the rule is said when a condition fails: {lead}");
    assert!(lead.contains("fast failed 50.0% of its sessions (not ranked)"), "{lead}");
    assert!(lead.contains("only steady is ranked, mean session 21.00 ms (0.0% failed)"), "{lead}");
    assert!(!lead.contains("best"), "no condition is called the best: {lead}");
    // The lead comes before any table or chart.
    assert!(page.find("id=\"findings\"").unwrap() < page.find("<table").unwrap());
    // The headline table: the failing cell says what its value leaves out, before the value.
    let table = section(&page, "<table id=\"headline\"", "</table>");
    assert!(table.contains("By condition: share of failed sessions, mean session time and p95"), "{table}");
    assert!(table.contains("successful sessions only; 50.0% of sessions failed (median of runs)6.00"), "the note, then the value: {table}");
    assert!(table.contains("0.0% failed21.00"), "the share first beside a condition that does not fail: {table}");
    assert!(page.contains("<span class=\"failing\">successful sessions only; 50.0% of sessions failed (median of runs)</span>"));
    // Its percentiles rank its 2xx responses only, and say so by its name.
    let percentiles = section(&page, "<table id=\"percentiles\"", "</table>");
    assert!(percentiles.contains("fast2xx responses only; 50.00% of requests failed (median of runs)"), "{percentiles}");
    // The chart: the share beside a hollow marker, and the key says what it means.
    let chart = read(&en.join("figures/headline-by-condition.svg"));
    assert!(chart.contains(">50.0% failed</text>"), "the share is written beside the marker");
    assert!(chart.contains("A hollow marker with its share beside it: more than 1% of that condition failed"));
    // The time series shows the failing condition, named by what it lost.
    assert!(page.contains("the condition with the largest share failed"));
    // The Markdown twin carries the same words.
    let twin = read(&en.join("report.md"));
    assert!(twin.contains("- fast failed 50.0% of its sessions (not ranked); only steady is ranked"), "{twin}");
    assert!(twin.contains("successful sessions only; 50.0% of sessions failed (median of runs): [6.00]"), "{twin}");

    let page_ja = read(&ja.join("index.html"));
    let lead_ja = section(&page_ja, "<section id=\"findings\"", "</section>");
    assert!(lead_ja.contains("fastはセッションの50.0%が失敗（順位なし）"), "{lead_ja}");
    assert!(lead_ja.contains("順位が付くのはsteadyの平均セッション時間21.00 ms（失敗0.0%）のみ"), "{lead_ja}");
    assert!(!lead_ja.contains("最良"), "{lead_ja}");
    assert!(page_ja.contains("成功したセッションのみ。セッションの50.0%が失敗（回の中央値）"));
}

#[test]
fn above_a_looser_threshold_the_same_condition_is_the_best() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("loose");
    write_dataset(&dataset, &format!("{TOML}[thresholds]\nerror_share = 0.6\n"));
    let out = root.path().join("en");
    report(&dataset, &out, "en");
    let summary: Value = serde_json::from_str(&read(&out.join("summary.json"))).unwrap();
    assert_eq!(summary["standing"]["groups"][0]["best"], "server=fast");
    let page = read(&out.join("index.html"));
    let lead = section(&page, "<section id=\"findings\"", "</section>");
    // The interval beside the factor is the one summary.json gives the pair, turned the same way.
    let interval = &summary["standing"]["groups"][0]["best_vs_next_interval"];
    let end = |i: usize| analyze::render::format::factor(interval[i].as_f64().unwrap());
    let (low, high) = (end(0), end(1));
    assert!(interval[0].as_f64().unwrap() < 3.53 && 3.53 < interval[1].as_f64().unwrap(), "{interval}");
    assert!(lead.contains(&format!("Best fast, mean session 6.00 ms (50.0% failed); next steady, mean session 21.00 ms (0.0% failed; 3.53× apart from the best as geometric means of runs, 95% interval {low}–{high}×, supported by the runs)")), "{lead}");
    assert!(!page.contains("class=\"failing\""), "no condition fails at 60%");
}
