//! dataset.toml's `[report]`: the metric the headline table, chart, representative runs and
//! variance review compare conditions by, and the mean of the runs beside their median.
//!
//! The dataset: route `fast` sends 21 requests 10 ms apart, each taking 5 ms, so a run spans
//! 205 ms and serves 21 / 0.205 = 102.4 requests/s; route `slow` sends them 20 ms apart, each
//! taking 2 ms: 21 / 0.402 = 52.2 requests/s. By latency `fast` is the worse route, by
//! requests/s the better one. Repetition k adds k ms to the spacing of the last request, so the
//! three runs of a route differ.

use crate::common::report;
use assert_cmd::Command;
use serde_json::Value;
use std::fmt::Write;
use std::path::Path;

const RUNS: [(&str, &str, u32); 6] =
    [("f1", "fast", 1), ("f2", "fast", 2), ("f3", "fast", 3), ("s1", "slow", 1), ("s2", "slow", 2), ("s3", "slow", 3)];

/// The route's spacing (ms) and latency (ms).
fn shape(route: &str) -> (f64, f64) {
    if route == "fast" {
        (10.0, 5.0)
    } else {
        (20.0, 2.0)
    }
}

/// A run's requests/s as the report defines it: responses over first send to last completion.
fn rate(route: &str, k: u32) -> f64 {
    let (spacing, latency) = shape(route);
    let span_ms = 20.0 * spacing + f64::from(k) + latency;
    21.0 / (span_ms / 1000.0)
}

fn write_dataset(dir: &Path, toml: &str) {
    std::fs::create_dir_all(dir).unwrap();
    let mut runs = String::from("run_id,route,repetition,started_at_utc,status\n");
    let mut requests = String::from("run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\n");
    for (i, (id, route, k)) in RUNS.iter().enumerate() {
        writeln!(runs, "{id},{route},{k},2026-11-30T04:0{i}:00Z,ok").unwrap();
        let (spacing, latency) = shape(route);
        for seq in 0..21u32 {
            let sent = spacing * f64::from(seq) + if seq == 20 { f64::from(*k) } else { 0.0 };
            writeln!(requests, "{id},{seq},{sent},{sent},{latency},200,10").unwrap();
        }
    }
    std::fs::write(dir.join("runs.csv"), runs).unwrap();
    std::fs::write(dir.join("requests.csv"), requests).unwrap();
    std::fs::write(dir.join("dataset.toml"), toml).unwrap();
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// A page's text with tera's entities for `/`, `'` and `"` turned back into the characters.
fn read_html(path: &Path) -> String {
    read(path).replace("&#x2F;", "/").replace("&#x27;", "'").replace("&quot;", "\"")
}

fn condition<'a>(summary: &'a Value, id: &str) -> &'a Value {
    summary["conditions"].as_array().unwrap().iter().find(|c| c["id"] == id).unwrap()
}

#[test]
fn requests_per_s_as_headline_leads_the_table_chart_and_variance_review_with_higher_as_better() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("rate");
    write_dataset(&dataset, "[report]\nheadline = \"requests_per_s\"\n");
    let (en, ja) = (root.path().join("en"), root.path().join("ja"));
    report(&dataset, &en, "en");
    report(&dataset, &ja, "ja");

    let summary: Value = serde_json::from_str(&read(&en.join("summary.json"))).unwrap();
    assert_eq!(summary["headline"], "requests_per_s");
    // The median run of each route by requests/s is repetition 2 (the middle span).
    assert_eq!(condition(&summary, "route=fast")["representative_run"], "f2");
    let variance_runs = &summary["variance"]["conditions"][0]["runs"];
    assert_eq!(variance_runs[0]["run_id"], "f1");
    let f1 = variance_runs[0]["value_ms"].as_f64().unwrap();
    assert!((f1 - rate("fast", 1)).abs() < 1e-6, "the variance review ranks requests/s: {f1}");

    let page = read_html(&en.join("index.html"));
    assert!(page.contains("<h2>Requests/s by condition</h2>"), "the heading names the metric");
    assert!(page.contains("higher is better"), "the caption says which way is better");
    // The headline cell: the median run's requests/s to a tenth (101.4 for fast: 21 / 0.207 s).
    assert!(page.contains(&format!(">{:.1}<", rate("fast", 2))), "the fast route's median requests/s is in the table");
    // The time series shows the worst condition: by requests/s the slow route, whose median run is s2.
    assert!(page.contains("the representative run of the condition with the fewest requests/s"));
    assert!(page.contains("figures/latency-over-time-s2.svg"), "the slow route's median run is shown");

    let variance = read_html(&en.join("variance.html"));
    assert!(variance.contains("requests/s, the spread and the representative run"));
    assert!(variance.contains(&format!("f1 {:.1}", rate("fast", 1))), "each run's requests/s is listed");
    assert!(!variance.contains("p95 = "), "the per-run lines give requests/s, not the percentile");

    let chart = read(&en.join("figures/headline-by-condition.svg"));
    // The rates lie within a factor of 10 of each other: a linear axis, and the caption says so.
    assert!(chart.contains("Requests/s by condition") && chart.contains(">Requests/s</text>"), "{chart}");
    assert!(chart.contains("Linear scale on the y axis") && !chart.contains("(log scale)"));

    let page_ja = read_html(&ja.join("index.html"));
    assert!(page_ja.contains("条件別の毎秒リクエスト数") && page_ja.contains("大きいほど良い"));
}

#[test]
fn error_rate_as_headline_reads_lower_as_better_in_both_languages() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("errors");
    write_dataset(&dataset, "[report]\nheadline = \"error_rate\"\n");
    let (en, ja) = (root.path().join("en"), root.path().join("ja"));
    report(&dataset, &en, "en");
    report(&dataset, &ja, "ja");
    let page = read_html(&en.join("index.html"));
    assert!(page.contains("<h2>Error rate by condition</h2>") && page.contains("lower is better"));
    assert!(page.contains(">0.00%<"), "no run had an error: the rate prints as 0.00%");
    let chart = read(&en.join("figures/headline-by-condition.svg"));
    // Every rate is 0: nothing for a log axis to show, so a linear one from 0, and no floor.
    assert!(chart.contains("Linear scale on the y axis") && chart.contains(">Error rate (%)</text>"), "{chart}");
    assert!(!chart.contains("an error rate of 0"), "no value is moved to a floor");
    assert!(read_html(&ja.join("index.html")).contains("小さいほど良い"));
}

#[test]
fn without_report_the_headline_is_the_percentile_and_summary_json_has_no_new_keys() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("plain");
    write_dataset(&dataset, "");
    let out = root.path().join("out");
    report(&dataset, &out, "en");
    let summary: Value = serde_json::from_str(&read(&out.join("summary.json"))).unwrap();
    assert!(summary.get("headline").is_none() && summary.get("mean_of_runs").is_none());
    assert!(condition(&summary, "route=fast").get("headline_mean").is_none());
    let page = read_html(&out.join("index.html"));
    assert!(page.contains("<h2>Latency by condition</h2>"));
    assert!(page.contains("the representative run of the slowest condition"));
}

#[test]
fn an_unknown_headline_is_refused_with_its_place() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("typo");
    write_dataset(&dataset, "[report]\nheadline = \"throughput\"\n");
    let output = Command::cargo_bin("analyze").unwrap().args(["check", dataset.to_str().unwrap()]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("dataset.toml:2:12"), "{stderr}");
}

#[test]
fn the_mean_of_the_runs_stands_beside_the_median_labelled_with_why_the_median_leads() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("mean");
    write_dataset(&dataset, "[report]\nheadline = \"requests_per_s\"\nmean_of_runs = true\n");
    let (en, ja) = (root.path().join("en"), root.path().join("ja"));
    report(&dataset, &en, "en");
    report(&dataset, &ja, "ja");
    let summary: Value = serde_json::from_str(&read(&en.join("summary.json"))).unwrap();
    assert_eq!(summary["mean_of_runs"], true);
    let mean = (1..=3).map(|k| rate("fast", k)).sum::<f64>() / 3.0;
    let written = condition(&summary, "route=fast")["headline_mean"].as_f64().unwrap();
    assert!((written - mean).abs() < 1e-6, "the mean of the three runs' requests/s: {written} vs {mean}");
    let page = read_html(&en.join("index.html"));
    assert!(page.contains(&format!("mean {mean:.1}")), "the cell gives the mean under the median and range");
    assert!(page.contains("as the published numbers were computed"));
    assert!(page.contains("with 3 runs, one disturbed run moves the mean by 1/3 of its excess"), "the note says why the median leads");
    let markdown = read(&en.join("report.md"));
    assert!(markdown.contains(&format!("; mean {mean:.1})")), "the Markdown twin has the mean too");
    assert!(read_html(&ja.join("index.html")).contains(&format!("平均{mean:.1}")));
}

#[test]
fn throughput_from_tool_takes_the_printed_requests_per_s_of_a_run_with_rows() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("ab");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import/ab");
    let output = Command::cargo_bin("analyze")
        .unwrap()
        .args(["import"])
        .arg(fixtures.join("ab-g.tsv"))
        .arg(fixtures.join("ab-stdout.txt"))
        .args(["--into", dataset.to_str().unwrap(), "--run-id", "ab"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let rows = root.path().join("rows");
    report(&dataset, &rows, "en");
    let summary: Value = serde_json::from_str(&read(&rows.join("summary.json"))).unwrap();
    // ab -g times sends to the second and the run took 1.036 s: the rows' span (2.005 s) says
    // nothing about the rate, so even without dataset.toml's choice the figure is ab's, labelled.
    assert_eq!(summary["runs"][0]["throughput_from"], "tool-coarse");
    assert_eq!(summary["runs"][0]["requests_per_s"], 1929.89, "ab's own figure, not 997.5 over the rows' span");
    assert_eq!(summary["runs"][0]["tool_reported"]["rows_requests_per_s"], 997.506234, "the rows' figure stays beside it");

    std::fs::write(dataset.join("dataset.toml"), "[report]\nthroughput_from = \"tool\"\n").unwrap();
    let tool = root.path().join("tool");
    report(&dataset, &tool, "en");
    let summary: Value = serde_json::from_str(&read(&tool.join("summary.json"))).unwrap();
    assert_eq!(summary["runs"][0]["throughput_from"], "tool");
    assert_eq!(summary["runs"][0]["requests_per_s"], 1929.89, "ab's own figure");
    assert!(read_html(&tool.join("index.html")).contains("report.throughput_from = \"tool\""), "Methods says where the figures come from");
}
