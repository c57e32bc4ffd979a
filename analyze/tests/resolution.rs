//! Numbers print at what they are known to: ab's rows give whole milliseconds, so their
//! percentiles print without decimals; hey's give 0.1 ms; a number the tool printed shows as it
//! printed it (ab's Connection Times mean, whole ms: 2, not 2.00).
//! The fixtures are the real outputs under tests/fixtures/import (2,000 requests each).

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import").join(path)
}

fn analyze(args: &[&str]) {
    let output = Command::cargo_bin("analyze").unwrap().args(args).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap().replace("&#x2F;", "/")
}

/// A dataset of one ab run and one hey run (hey's started at a given time), reported in English.
fn report() -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::tempdir().unwrap();
    let dataset = temp.path().join("tools");
    let into = dataset.to_str().unwrap();
    let (ab_rows, ab_summary, hey_rows) = (fixture("ab/ab-g.tsv"), fixture("ab/ab-stdout.txt"), fixture("hey/hey.csv"));
    analyze(&["import", ab_rows.to_str().unwrap(), ab_summary.to_str().unwrap(), "--into", into, "--run-id", "ab", "--factor", "tool=ab"]);
    let hey = ["import", hey_rows.to_str().unwrap(), "--into", into, "--run-id", "hey", "--factor", "tool=hey"];
    analyze(&[&hey[..], &["--started-at", "2026-11-30T14:44:41Z"]].concat());
    let out = temp.path().join("out");
    analyze(&["report", into, "--out", out.to_str().unwrap(), "--lang", "en"]);
    (temp, out)
}

#[test]
fn whole_millisecond_rows_print_without_decimals_and_the_tool_s_figures_as_printed() {
    let (_temp, out) = report();
    let summary: serde_json::Value = serde_json::from_str(&read(&out.join("summary.json"))).unwrap();
    assert_eq!(summary["runs"][0]["latency_decimals"], 0, "ab -g: whole ms");
    assert_eq!(summary["runs"][1]["latency_decimals"], 1, "hey -o csv: 0.1 ms");
    // ab's "Time per request" (2.073) is its run time x concurrency / requests, not a mean of
    // latencies: the tool's mean is Connection Times' whole-ms mean.
    assert_eq!(summary["runs"][0]["tool_reported"]["latency_ms"]["mean"], 2.0, "ab's Connection Times mean");

    let ab = read(&out.join("runs/ab.html"));
    // ab's p95 of its 2,000 whole-ms rows is 5 ms: printed so, not "5.00".
    assert!(ab.contains("1,900th of 2,000 = 5 ms"), "the run's p95 fact");
    assert!(ab.contains("<th scope=\"row\">p95</th><td data-label=\"Value (ms)\" class=\"num\">5</td>"), "the percentile table");
    assert!(!ab.contains("5.00"), "no digit ab never had");
    // ab's own numbers as it printed them: its mean time per request, beside the rows' mean.
    assert!(ab.contains("<th scope=\"row\">mean</th><td data-label=\"ab (ms)\" class=\"num\">2</td>"), "the tool's mean as ab printed it");
    assert!(ab.contains("<dt>Mean time per request (ms)</dt><dd>2.18</dd>"), "the rows' mean is a mean: two decimals");
    let chart = read(&out.join("figures/ecdf-ab.svg"));
    assert!(chart.contains("1,900th of 2,000 = 5 ms"), "the ECDF's mark at the same digits");

    let report = read(&out.join("index.html"));
    let percentiles = &report[report.find("<table id=\"percentiles\"").unwrap()..];
    let percentiles = &percentiles[..percentiles.find("</table>").unwrap()];
    // Per condition with one run each: "n = 1" under the value, at the run's digits.
    let ab_row = &percentiles[percentiles.find(">ab<").unwrap()..];
    let ab_row = &ab_row[..ab_row.find("</tr>").unwrap()];
    assert!(ab_row.contains(">5</a>") && !ab_row.contains(".00"), "{ab_row}");
    let hey_row = &percentiles[percentiles.find(">hey<").unwrap()..];
    let hey_row = &hey_row[..hey_row.find("</tr>").unwrap()];
    // hey's tenths, kept where they are 0: p90 2.0, p95 4.1, the maximum 11.7.
    for value in [">2.0</a>", ">4.1</a>", ">11.7</a>"] {
        assert!(hey_row.contains(value), "{value} in {hey_row}");
    }
}
