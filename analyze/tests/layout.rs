//! How conditions are laid out in tables: dataset.toml's `series` orders the row factors, and a
//! factor it leaves out still separates rows, so no condition loses its cell.

use assert_cmd::Command;
use std::path::Path;

#[test]
fn a_factor_left_out_of_series_still_gets_its_own_rows() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("tiny");
    std::fs::create_dir_all(&dir).unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny");
    for entry in std::fs::read_dir(&fixture).unwrap() {
        let entry = entry.unwrap();
        // The article cites conditions by their two-factor ids, which a third factor renames.
        if entry.file_name() != "article.md" {
            std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
        }
    }
    // A third factor: the second and third repetitions use another worker.
    let runs = std::fs::read_to_string(dir.join("runs.csv")).unwrap();
    let mut lines = runs.lines();
    let mut out = format!("{},worker\n", lines.next().unwrap());
    for line in lines {
        let repetition: i64 = line.split(',').nth(3).unwrap().parse().unwrap();
        out.push_str(&format!("{line},{}\n", if repetition == 1 { "sync" } else { "gthread" }));
    }
    std::fs::write(dir.join("runs.csv"), out).unwrap();
    let manifest =
        std::fs::read_to_string(dir.join("dataset.toml")).unwrap().replace("x = \"downloads\"", "x = \"downloads\"\nseries = [\"route\"]");
    std::fs::write(dir.join("dataset.toml"), manifest).unwrap();
    // Only the three factors of runs.csv, not the manifest's list, when the manifest lists two:
    // drop its [[factors]] so every non-reserved column is a factor.
    let manifest = std::fs::read_to_string(dir.join("dataset.toml")).unwrap();
    let manifest = manifest.split("[[factors]]").next().unwrap().to_string() + "[environment]\nnote = \"synthetic\"\n";
    std::fs::write(dir.join("dataset.toml"), manifest).unwrap();

    let out = root.path().join("out");
    Command::cargo_bin("analyze").unwrap().args(["report", dir.to_str().unwrap(), "--out", out.to_str().unwrap()]).assert().success();
    let summary: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let names: Vec<&str> = summary["factors"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["route", "downloads", "worker"]);
    assert_eq!(summary["layout"]["x_factor"], 1);
    assert_eq!(summary["layout"]["series_factors"], serde_json::json!([0, 2]), "route as listed, then worker");
    let cells: Vec<u64> = summary["layout"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row["cells"].as_array().unwrap().iter().filter_map(|c| c.as_u64()))
        .collect();
    let conditions = summary["conditions"].as_array().unwrap().len();
    assert_eq!(conditions, 8, "2 routes x 2 downloads x 2 workers");
    let mut sorted = cells.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..conditions as u64).collect::<Vec<_>>(), "every condition has exactly one cell");
}

/// A dataset of one factor swept (concurrency 1 and 10, three runs each): one series, so the
/// variance review and the lead compare the levels of that factor, where they compared nothing
/// ("each condition stands alone"), and a bare-number level is named with its factor.
#[test]
fn a_sweep_of_one_factor_compares_its_levels() {
    let root = tempfile::tempdir().unwrap();
    let dir = sweep(root.path(), "");
    let out = root.path().join("out");
    Command::cargo_bin("analyze").unwrap().args(["report", dir.to_str().unwrap(), "--out", out.to_str().unwrap()]).assert().success();
    let summary: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let review = &summary["variance"];
    assert_eq!(review["comparison_summary"]["compared"], "concurrency");
    assert_eq!(review["comparisons"].as_array().unwrap().len(), 1, "1 vs 10");
    assert_eq!(review["comparisons"][0]["verdict"], "supported", "{}", review["comparisons"][0]);
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains("Conditions compared by p95 (lower is better) across the levels of Concurrency."), "{page}");
    // Medians 1.118 and 8.418 ms, as the lead rounds them (8.42 / 1.12 = 7.52); the ratio of
    // geometric means 7.54, said as such with the review's interval.
    let end = |key: &str| analyze::render::format::factor(review["comparisons"][0][key].as_f64().unwrap());
    let (low, high) = (end("ratio_low"), end("ratio_high"));
    assert!(
        page.contains(&format!(
            "Best Concurrency = 1, p95 1.12 ms; next Concurrency = 10, p95 8.42 ms (7.54× apart from the best as geometric means of runs, 95% interval {low}–{high}×, supported by the runs)"
        )),
        "{page}"
    );
    let variance = std::fs::read_to_string(out.join("variance.html")).unwrap();
    assert!(variance.contains("Of this 1 comparison, 1 shows a difference"), "{variance}");
}

/// The sweep: concurrency 1 and 10, three runs of 20 requests each, the second level about 7.5
/// times slower; `report` is dataset.toml's `[report]` table, if any.
fn sweep(root: &Path, report: &str) -> std::path::PathBuf {
    let dir = root.join("sweep");
    std::fs::create_dir_all(&dir).unwrap();
    let mut runs = String::from("run_id,repetition,started_at_utc,status,concurrency\n");
    let mut requests = String::from("run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\n");
    for (r, (concurrency, base)) in [(1, 1.0), (1, 1.1), (1, 1.2), (10, 8.0), (10, 8.4), (10, 8.8)].into_iter().enumerate() {
        let id = format!("r{}", r + 1);
        runs.push_str(&format!("{id},{},2026-12-06T0{r}:00:00Z,ok,{concurrency}\n", r % 3 + 1));
        for seq in 0..20 {
            // p95 of these 20 is the 19th: base + 0.018 ms.
            requests.push_str(&format!("{id},{seq},{seq},{seq},{:.3},200,5\n", base + 0.001 * f64::from(seq)));
        }
    }
    std::fs::write(dir.join("runs.csv"), runs).unwrap();
    std::fs::write(dir.join("requests.csv"), requests).unwrap();
    let manifest =
        "title = \"sweep\"\npercentile = 95\n[[factors]]\nname = \"concurrency\"\nlabel = { en = \"Concurrency\", ja = \"並列度\" }\n";
    std::fs::write(dir.join("dataset.toml"), format!("{manifest}{report}")).unwrap();
    dir
}

/// `report.compare = false`: the study compares no two conditions, sweep or not; `true` names no
/// factor and is refused at its place.
#[test]
fn a_study_that_compares_nothing_says_so_and_compare_true_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let dir = sweep(root.path(), "[report]\ncompare = false\n");
    let out = root.path().join("out");
    Command::cargo_bin("analyze").unwrap().args(["report", dir.to_str().unwrap(), "--out", out.to_str().unwrap()]).assert().success();
    let summary: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["variance"]["comparisons"].as_array().unwrap().len(), 0);
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains("Each condition stands alone: the study compares no two of them, so none is ranked."), "{page}");
    std::fs::write(dir.join("dataset.toml"), "title = \"sweep\"\n[report]\ncompare = true\n").unwrap();
    let refused = Command::cargo_bin("analyze").unwrap().args(["check", dir.to_str().unwrap()]).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("dataset.toml:3:11: report.compare: true names no factor"), "{said}");
}
