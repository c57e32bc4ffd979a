//! A percentile that a run's requests do not resolve ((p/100)^n > 2.5%: the chance that every
//! request lies below it; `stats::resolvable`) cannot be told from the run's maximum, and every
//! page says so. Hand-worked: a run of 72 requests ranks p99.9 and p99 at the 72nd value (its
//! maximum), and 0.999^72 = 0.93 and 0.99^72 = 0.49 are above 2.5%: p99.9 needs 3,688 requests
//! (0.999^3688 = 0.02498 ≤ 0.025 < 0.999^3687 = 0.02500), p99 needs 368; p95 is the 69th
//! (ceil(0.95·72) = 69) and 0.95^72 = 0.0249 resolves it.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

/// Two runs of 72 requests each (latencies 1..=72 ms, then 101..=172 ms), one factor.
fn dataset(root: &Path, toml: &str) -> PathBuf {
    let dir = root.join("ds");
    std::fs::create_dir_all(&dir).unwrap();
    let mut runs = String::from("run_id,route,repetition,started_at_utc,status,note\n");
    let mut requests = String::from("run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\n");
    for (i, (id, route)) in [("r1", "direct"), ("r2", "nginx")].iter().enumerate() {
        runs.push_str(&format!("{id},{route},1,2026-11-30T01:0{i}:00Z,ok,\n"));
        for seq in 0..72 {
            requests.push_str(&format!("{id},{seq},{}.000,{}.000,{}.000,200,12\n", seq * 100, seq * 100, 100 * i + seq + 1));
        }
    }
    std::fs::write(dir.join("runs.csv"), runs).unwrap();
    std::fs::write(dir.join("requests.csv"), requests).unwrap();
    std::fs::write(dir.join("dataset.toml"), toml).unwrap();
    dir
}

fn report(dir: &Path, out: &Path, lang: &str) {
    let output =
        Command::cargo_bin("analyze").unwrap().arg("report").arg(dir).arg("--out").arg(out).args(["--lang", lang]).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
}

/// The cells of the row of `p` in the run page's percentile table.
fn percentile_row(html: &str, p: &str) -> Vec<String> {
    let row = html
        .split("<tr>")
        .find(|r| r.contains(&format!(">{p}</th>")) || r.contains(&format!(">{p}</td>")))
        .unwrap_or_else(|| panic!("no row {p}"));
    row.split("<td").skip(1).map(|c| c.split_once('>').unwrap().1.split("</td>").next().unwrap().trim().to_string()).collect()
}

#[test]
fn a_run_of_72_requests_shows_p99_9_as_the_maximum_that_needs_3688_requests() {
    let root = tempfile::tempdir().unwrap();
    let dir = dataset(root.path(), "");
    let out = root.path().join("en");
    report(&dir, &out, "en");
    let page = std::fs::read_to_string(out.join("runs/r1.html")).unwrap();
    assert_eq!(percentile_row(&page, "p99.9")[0], "= max (needs ≥ 3,688 requests)");
    assert_eq!(percentile_row(&page, "p99")[0], "= max (needs ≥ 368 requests)");
    assert_eq!(percentile_row(&page, "p95")[0], "69.00", "resolved: the 69th of 72");
    let summary: serde_json::Value = serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["runs"][0]["unresolved_percentiles"], serde_json::json!({ "99": 368, "99.9": 3688 }));
    assert_eq!(summary["conditions"][0]["unresolved_percentiles"], serde_json::json!({ "99": 368, "99.9": 3688 }));
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        index.contains("p99 (needs ≥ 368 requests) and p99.9 (needs ≥ 3,688 requests) fall on the last rank"),
        "the note under the percentile table"
    );

    let ja = root.path().join("ja");
    report(&dir, &ja, "ja");
    let page = std::fs::read_to_string(ja.join("runs/r1.html")).unwrap();
    assert_eq!(percentile_row(&page, "p99.9")[0], "＝最大値（3,688件以上のリクエストが必要）");
}

/// An objective and a headline on p99.9 with 72 requests a run: the verdicts say they judge values
/// no run resolves.
#[test]
fn verdicts_on_an_unresolved_percentile_say_so() {
    let root = tempfile::tempdir().unwrap();
    let dir = dataset(root.path(), "percentile = 99.9\n[[slo]]\nmetric = \"p99.9\"\nmax = 100\n");
    let out = root.path().join("en");
    report(&dir, &out, "en");
    let markdown = std::fs::read_to_string(out.join("report.md")).unwrap();
    let slo_rows: Vec<&str> = markdown.lines().filter(|l| l.contains("p99.9 ≤ 100")).collect();
    assert_eq!(slo_rows.len(), 2, "{markdown}");
    for row in slo_rows {
        assert!(row.contains("p99.9 cannot be told from the maximum with these runs' requests (needs ≥ 3,688 requests)"), "{row}");
    }
    let headline = markdown.lines().find(|l| l.starts_with("| p99.9 (ms) |")).unwrap();
    assert_eq!(headline.matches("needs ≥ 3,688 requests").count(), 2, "under each condition's headline value: {headline}");
    assert!(
        markdown.contains("With these runs' requests p99.9 cannot be told from each run's maximum (needs ≥ 3,688 requests)."),
        "the lead says it ranks maxima:\n{markdown}"
    );

    // The tiny fixture's runs of 20 requests do not resolve its headline p95 (it needs 72): the
    // variance review's verdicts on it say so.
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny");
    let tiny = root.path().join("tiny");
    report(&fixture, &tiny, "en");
    let variance = std::fs::read_to_string(tiny.join("variance.html")).unwrap();
    let verdicts = variance.matches("p95 cannot be told from the maximum with these runs&#x27; requests (needs ≥ 72 requests)").count();
    assert_eq!(verdicts, 2, "one per comparison");
}

/// A comparison on a headline percentile that no run of a side resolves says so under each
/// verdict, in the text, the JSON and both languages: the tiny fixture's runs of 20 requests
/// against the same values measured a day later (p95 needs 72; the fixture against itself would
/// compare nothing).
#[test]
fn a_comparison_on_an_unresolved_percentile_says_so() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny");
    let tmp = tempfile::tempdir().unwrap();
    let later = tmp.path().join("tiny-later");
    std::fs::create_dir_all(&later).unwrap();
    for entry in std::fs::read_dir(&fixture).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap().replace("2026-11-30T", "2026-12-01T");
        std::fs::write(later.join(path.file_name().unwrap()), text).unwrap();
    }
    let compare = |args: &[&str]| {
        let output = Command::cargo_bin("analyze").unwrap().arg("compare").arg(&fixture).arg(&later).args(args).output().unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).unwrap()
    };
    let text = compare(&[]);
    assert_eq!(text.matches("p95 cannot be told from the maximum with these runs' requests (needs ≥ 72 requests)").count(), 4, "{text}");
    let json: serde_json::Value = serde_json::from_str(&compare(&["--format", "json"])).unwrap();
    for c in json["conditions"].as_array().unwrap() {
        assert_eq!(c["unresolved_needs"], 72, "{c}");
    }
    let ja = compare(&["--lang", "ja"]);
    assert_eq!(ja.matches("この測定のリクエスト数ではp95を最大値と区別できない（72件以上のリクエストが必要）").count(), 4, "{ja}");
}
