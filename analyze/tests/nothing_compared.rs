//! A gate that compared nothing never passes (issue 46, items 12, 14, 15, 33 and 34), through the
//! binary: a dataset against itself or a copy of it, runs without the compared metric (autocannon
//! prints p97.5, not p95), and `--aa` datasets that are the baseline or each other.

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny")
}

fn analyze(args: &[&std::ffi::OsStr]) -> Output {
    Command::cargo_bin("analyze").unwrap().args(args).output().unwrap()
}

fn compare(baseline: &Path, candidate: &Path, args: &[&str]) -> Output {
    Command::cargo_bin("analyze").unwrap().arg("compare").arg(baseline).arg(candidate).args(args).output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn assert_exit(output: &Output, code: i32) {
    assert_eq!(output.status.code(), Some(code), "{}\n{}", stdout(output), String::from_utf8_lossy(&output.stderr));
}

fn json(output: &Output) -> Value {
    serde_json::from_str(&stdout(output)).unwrap_or_else(|e| panic!("{e}: {}", stdout(output)))
}

/// A copy of the tiny fixture at `dir`, with every latency of run r01 multiplied by `factor`.
fn copy(dir: &Path, factor: f64) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    for entry in std::fs::read_dir(fixture()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let mut text = std::fs::read_to_string(&path).unwrap();
        if name == "requests.csv" && factor != 1.0 {
            text = text
                .lines()
                .map(|line| {
                    let mut fields: Vec<String> = line.split(',').map(str::to_string).collect();
                    if fields[0] == "r01" && !fields[4].is_empty() {
                        fields[4] = format!("{:.3}", fields[4].parse::<f64>().unwrap() * factor);
                    }
                    fields.join(",") + "\n"
                })
                .collect();
        }
        std::fs::write(dir.join(&name), text).unwrap();
    }
    dir.to_path_buf()
}

#[test]
fn a_dataset_against_itself_or_its_copy_compares_nothing_and_its_gate_exits_4() {
    let tmp = tempfile::tempdir().unwrap();
    let copied = copy(&tmp.path().join("tiny-copy"), 1.0);
    for candidate in [fixture(), copied] {
        let output = compare(&fixture(), &candidate, &["--fail-on-regression", "5"]);
        assert_exit(&output, 4);
        let text = stdout(&output);
        assert!(
            text.contains(
                "The baseline and the candidate are one measurement (the same runs, start times and values): there is nothing to compare"
            ),
            "{text}"
        );
        assert!(!text.contains("cannot tell") && !text.contains("runs a side would"), "no verdict of a condition against itself: {text}");
        assert!(text.contains("so the gate does not pass: the exit status is 4."), "{text}");
        // Without a gate the comparison says the same and exits 0.
        let output = compare(&fixture(), &candidate, &["--format", "json"]);
        assert_exit(&output, 0);
        let report = json(&output);
        assert_eq!(report["nothing_compared"], "same_measurement");
        assert_eq!(report["conditions"], serde_json::json!([]));
    }
    let ja = compare(&fixture(), &fixture(), &["--fail-on-regression", "5", "--lang", "ja"]);
    assert_exit(&ja, 4);
    assert!(
        stdout(&ja).contains("ベースラインと比較対象は同じ測定です") && stdout(&ja).contains("終了ステータスは4です"),
        "{}",
        stdout(&ja)
    );
}

#[test]
fn equal_titles_are_told_apart_by_their_folders() {
    let tmp = tempfile::tempdir().unwrap();
    let rerun = copy(&tmp.path().join("tiny-rerun"), 1.01);
    let text = stdout(&compare(&fixture(), &rerun, &[]));
    assert!(text.starts_with("Comparison: Tiny fixture <study>, tiny-rerun against tiny\n"), "{text}");
    let ja = stdout(&compare(&fixture(), &rerun, &["--lang", "ja"]));
    assert!(!ja.lines().next().unwrap().contains("Tiny fixture <study>／ベースライン：Tiny fixture <study>"), "{ja}");
    assert!(ja.lines().next().unwrap().contains("tiny-rerun／ベースライン：tiny"), "{ja}");
}

#[test]
fn the_baseline_and_a_repeated_aa_dataset_count_once() {
    let tmp = tempfile::tempdir().unwrap();
    let again = copy(&tmp.path().join("tiny-again"), 1.01);
    let candidate = copy(&tmp.path().join("tiny-cand"), 1.02);
    let (base, aa) = (fixture(), again.to_str().unwrap().to_string());
    let args = ["--fail-on-regression", "5", "--format", "json", "--aa", base.to_str().unwrap(), "--aa", &aa, "--aa", &aa, "--aa", &aa];
    let output = compare(&base, &candidate, &args);
    assert_exit(&output, 0);
    let gate = &json(&output)["gate"];
    // One re-measurement, 4 conditions: 4 trials, not 16 (nor 12 of the baseline against itself).
    assert_eq!(gate["empirical_false_alarm"]["trials"], 4, "{gate}");
    assert_eq!(gate["sources"].as_array().unwrap().len(), 1, "{gate}");
    assert_eq!(
        gate["set_aside"],
        serde_json::json!([
            { "dataset": "tiny", "same_as": "baseline" },
            { "dataset": "tiny-again", "same_as": "tiny-again" },
            { "dataset": "tiny-again", "same_as": "tiny-again" }
        ])
    );
    // 0 fired: the interval starts at 0 exactly, not at a rounding remainder.
    assert_eq!(gate["empirical_false_alarm"]["fired"], 0);
    assert_eq!(gate["empirical_false_alarm"]["low"].as_f64(), Some(0.0));
    let text = stdout(&compare(&base, &candidate, &args[..2].iter().chain(&args[4..]).copied().collect::<Vec<_>>()));
    assert!(text.contains("on 4 A/A comparisons (the baseline against tiny-again: 4 conditions)"), "{text}");
    assert!(
        text.contains(
            "Not counted as A/A pairs: tiny (the same measurement as the baseline), tiny-again (given more than once) and tiny-again (given more than once)"
        ),
        "{text}"
    );
}

/// A dataset of condition `route=a` with 3 runs imported from autocannon's JSON (p97.5, no p95,
/// no rows), each started on `day` of December 2026.
/// A dataset of three autocannon runs of route `a`, measured on day `day` of December 2026.
fn autocannon(dir: &Path, day: u32) -> PathBuf {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import/autocannon/autocannon.json");
    let text = std::fs::read_to_string(source).unwrap();
    std::fs::create_dir_all(dir).unwrap();
    let dataset = dir.join("dataset");
    for k in 1..=3 {
        let file = dir.join(format!("run{k}.json"));
        std::fs::write(&file, text.replace("2026-12-01T12:02:51", &format!("2026-12-{day:02}T12:0{k}:51"))).unwrap();
        import_run(&file, &dataset, &format!("r{k}"), "a", k);
    }
    dataset
}

/// Imports one autocannon file into `dataset` as run `run_id`, repetition `repetition` of `route`.
fn import_run(file: &Path, dataset: &Path, run_id: &str, route: &str, repetition: u32) {
    let output = analyze(&[
        "import".as_ref(),
        file.as_os_str(),
        "--into".as_ref(),
        dataset.as_os_str(),
        "--run-id".as_ref(),
        run_id.as_ref(),
        "--factor".as_ref(),
        format!("route={route}").as_ref(),
        "--repetition".as_ref(),
        repetition.to_string().as_ref(),
    ]);
    assert_exit(&output, 0);
}

#[test]
fn runs_without_the_compared_percentile_fail_to_pass_the_gate_naming_what_they_have() {
    let tmp = tempfile::tempdir().unwrap();
    let base = autocannon(&tmp.path().join("base"), 1);
    let cand = autocannon(&tmp.path().join("cand"), 2);
    let output = compare(&base, &cand, &["--fail-on-regression", "5"]);
    assert_exit(&output, 4);
    let text = stdout(&output);
    assert!(!text.contains("no ok run"), "each side has 3 ok runs: {text}");
    assert!(text.contains("baseline: no p95 in its ok runs, candidate: no p95 in its ok runs"), "{text}");
    assert!(text.contains("they have requests/s and p97.5 as autocannon printed it"), "{text}");
    assert!(
        text.contains(
            "--fail-on-regression 5.0%: a could not be compared by p95; a gate passes only what it compared, so the exit status is 4."
        ),
        "{text}"
    );
    let report = json(&compare(&base, &cand, &["--format", "json"]));
    assert_eq!(report["nothing_compared"], "no_value");
    assert_eq!(report["without_metric"]["available"], serde_json::json!(["requests_per_s", "p97.5"]));
    assert_eq!(report["without_metric"]["printed_by"], serde_json::json!(["autocannon"]));
    let ja = stdout(&compare(&base, &cand, &["--fail-on-regression", "5", "--lang", "ja"]));
    assert!(ja.contains("あるのは毎秒リクエスト数、autocannonが出力したp97.5") && ja.contains("終了ステータスは4です"), "{ja}");
}

#[test]
fn a_report_of_runs_with_only_their_tools_summaries_says_why_none_is_ranked_and_what_would_rank_them() {
    let tmp = tempfile::tempdir().unwrap();
    let dataset = autocannon(&tmp.path().join("base"), 1);
    // A second route, so the study compares two conditions.
    for k in 1..=3 {
        import_run(&tmp.path().join(format!("base/run{k}.json")), &dataset, &format!("s{k}"), "b", k);
    }
    for (lang, words) in [
        ("en", "No condition is ranked by p95: its runs hold only their tools' summaries, not the rows p95 is taken from (requests/s ranks them"),
        ("ja", "どの条件にもp95による順位は付かない。どの測定もツールの集計値だけで、p95を求める行がないため（毎秒リクエスト数なら順位が付く"),
    ] {
        let out = tmp.path().join(format!("report-{lang}"));
        let output = analyze(&["report".as_ref(), dataset.as_os_str(), "--out".as_ref(), out.as_os_str(), "--lang".as_ref(), lang.as_ref()]);
        assert_exit(&output, 0);
        let md = std::fs::read_to_string(out.join("report.md")).unwrap();
        assert!(md.contains(words), "{md}");
        assert!(md.contains("p97.5"), "the percentile autocannon printed is named: {md}");
    }
}
