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
