//! A run with one 2xx response gets no charts of its own (its ECDF and its latency over time
//! would be one point each): its page gives the value in words. A run with two or more keeps both.

use crate::common::report;
use std::path::Path;

/// A dataset of run `one` (one request, 4 ms) and run `three` (three requests), one condition each.
fn dataset(dir: &Path) -> std::path::PathBuf {
    let data = dir.join("few");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(
        data.join("runs.csv"),
        "run_id,route,repetition,started_at_utc,status,note\none,a,1,2026-12-01T00:00:00Z,ok,\nthree,b,1,2026-12-01T00:01:00Z,ok,\n",
    )
    .unwrap();
    std::fs::write(
        data.join("requests.csv"),
        "run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\none,0,0,0.5,4,200,12\n\
         three,0,0,0.5,3,200,12\nthree,1,100,100.5,5,200,12\nthree,2,200,200.5,7,200,12\n",
    )
    .unwrap();
    data
}

#[test]
fn a_run_of_one_response_has_its_value_in_words_and_no_charts() {
    let dir = tempfile::tempdir().unwrap();
    let data = dataset(dir.path());
    let out = dir.path().join("out");
    report(&data, &out, "en");
    let figures = out.join("figures");
    assert!(!figures.join("ecdf-one.svg").exists() && !figures.join("latency-over-time-one.svg").exists());
    assert!(figures.join("ecdf-three.svg").exists() && figures.join("latency-over-time-three.svg").exists());
    let page = std::fs::read_to_string(out.join("runs/one.html")).unwrap();
    assert!(
        page.contains("The run has one 2xx response, of 4.00 ms: its distribution and its course over time would be one point each, so no chart is drawn."),
        "{page}"
    );
    assert!(!page.contains("ecdf-one.svg") && !page.contains("latency-over-time-one.svg"), "no link to a chart not drawn");
    let three = std::fs::read_to_string(out.join("runs/three.html")).unwrap();
    assert!(three.contains("ecdf-three.svg") && !three.contains("one 2xx response"));
    // No page links a chart that was not drawn.
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(!index.contains("latency-over-time-one.svg"));

    let ja = dir.path().join("ja");
    report(&data, &ja, "ja");
    let page = std::fs::read_to_string(ja.join("runs/one.html")).unwrap();
    assert!(page.contains("この測定の2xx応答は1件（4.00 ms）だけです。分布も時間の推移も1点になるため、グラフは描きません。"), "{page}");
}
