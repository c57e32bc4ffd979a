//! `analyze compare`'s comparability guard, permutation p and measured false-alarm rate (issue
//! 37) through the binary: the `tiny` fixture with its `[environment]` changed, and the committed
//! model study against its re-measurement.

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
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

/// The tiny fixture at `dir` with `keys` added to its `[environment]`.
fn with_environment(dir: &Path, keys: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let fixture = root().join("tests/fixtures/tiny");
    for entry in std::fs::read_dir(&fixture).unwrap() {
        let path = entry.unwrap().path();
        let mut text = std::fs::read_to_string(&path).unwrap();
        if path.file_name().unwrap() == "dataset.toml" {
            text = text.replacen("[environment]\n", &format!("[environment]\n{keys}"), 1);
        }
        std::fs::write(dir.join(path.file_name().unwrap()), text).unwrap();
    }
    dir.to_path_buf()
}

#[test]
fn two_datasets_differing_only_in_cpu_model_exit_3_naming_the_key() {
    let tmp = tempfile::tempdir().unwrap();
    let base = with_environment(&tmp.path().join("amd"), "cpu_model = \"AMD EPYC\"\ncores = \"2\"\n");
    let cand = with_environment(&tmp.path().join("intel"), "cpu_model = \"Intel Xeon\"\ncores = \"2\"\n");
    let output = compare(&base, &cand, &["--fail-on-regression", "10"]);
    assert_exit(&output, 3);
    let text = stdout(&output);
    assert!(
        text.contains("Environments: incomparable: cpu_model differs (AMD EPYC in the baseline, Intel Xeon in the candidate)"),
        "{text}"
    );
    assert!(text.contains("so the exit status is 3 whatever the runs show"), "{text}");
    assert!(text.contains("--allow-env cpu_model compares them all the same"), "{text}");
    let output = compare(&base, &cand, &["--lang", "ja"]);
    assert_exit(&output, 3);
    assert!(stdout(&output).contains("二つの測定は比較できません：cpu_modelが違う"), "{}", stdout(&output));

    let output = compare(&base, &cand, &["--allow-env", "cpu_model", "--format", "json"]);
    assert_exit(&output, 0);
    let json: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["comparability"]["verdict"], "comparable");
    assert_eq!(json["comparability"]["differing"][0]["key"], "cpu_model");
    assert_eq!(json["comparability"]["differing"][0]["allowed"], true);
    assert_eq!(json["comparability"]["checked"], serde_json::json!(["cores", "cpu_model"]));
}

#[test]
fn the_committed_re_measurement_of_the_model_study_stays_comparable() {
    let datasets = root().join("../datasets");
    let output = compare(&datasets.join("gunicorn-slow-client"), &datasets.join("gunicorn-slow-client-rerun"), &["--format", "json"]);
    assert_exit(&output, 0);
    let json: Value = serde_json::from_str(&stdout(&output)).unwrap();
    // Same CPU, count and kernel major (6.18.44-fc-v669 and -v857).
    assert_eq!(json["comparability"]["verdict"], "comparable");
    assert_eq!(json["comparability"]["checked"], serde_json::json!(["cpu_model", "cpus", "kernel"]));
}

#[test]
fn three_runs_a_side_have_a_permutation_p_of_at_least_a_tenth_and_say_so() {
    let datasets = root().join("../datasets");
    let (base, cand) = (datasets.join("gunicorn-slow-client"), datasets.join("gunicorn-slow-client-rerun"));
    let output = compare(&base, &cand, &["--format", "json"]);
    let json: Value = serde_json::from_str(&stdout(&output)).unwrap();
    for c in json["conditions"].as_array().unwrap() {
        let p = &c["permutation"];
        assert_eq!((p["relabellings"].as_u64(), p["exact"].as_bool()), (Some(20), Some(true)), "{c}");
        assert!(p["p"].as_f64().unwrap() >= 0.1 - 1e-12 && p["smallest_p"] == 0.1, "{c}");
    }
    let output = compare(&base, &cand, &["--format", "md"]);
    let md = stdout(&output);
    assert!(md.contains("permutation 0.100"), "{md}");
}

#[test]
fn a_re_measurement_given_with_aa_measures_the_gate_s_false_alarms() {
    let datasets = root().join("../datasets");
    let (base, again) = (datasets.join("gunicorn-slow-client"), datasets.join("gunicorn-slow-client-rerun"));
    let output = compare(&base, &again, &["--fail-on-regression", "10", "--aa", again.to_str().unwrap(), "--format", "json"]);
    assert_exit(&output, 0);
    let json: Value = serde_json::from_str(&stdout(&output)).unwrap();
    let gate = &json["gate"];
    assert_eq!(gate["nominal_alpha"], 0.05);
    assert_eq!(gate["threshold"], 0.1);
    // Ten matched conditions, none a supported regression beyond 10%: 0 of 10, Wilson [0, 0.2775].
    let rate = &gate["empirical_false_alarm"];
    assert_eq!((rate["fired"].as_u64(), rate["trials"].as_u64()), (Some(0), Some(10)));
    assert!((rate["high"].as_f64().unwrap() - 0.277_533).abs() < 1e-5, "{rate}");
    // Without --aa, three runs a condition give no split: no rate, and the page says why.
    let output = compare(&base, &again, &["--fail-on-regression", "10", "--format", "md"]);
    assert!(stdout(&output).contains("could not be measured here"), "{}", stdout(&output));
    let output = compare(&base, &again, &["--fail-on-regression", "10", "--aa", again.to_str().unwrap()]);
    assert!(stdout(&output).contains("on 10 A/A comparisons (the baseline against gunicorn-slow-client-rerun: 10 conditions), of pairs that measured the same thing, it fired 0 times: 0.0% (95% interval 0.0%–27.8%)"), "{}", stdout(&output));
}

#[test]
fn conditions_of_four_runs_are_split_into_aa_pairs() {
    // The app-servers-ab study has 5 runs a condition: 10 splits each. Against itself it compares
    // nothing (exit 4), and its conditions are split once, not once a side.
    let study = root().join("../datasets/app-servers-ab");
    let output = compare(&study, &study, &["--fail-on-regression", "10", "--format", "json"]);
    assert_exit(&output, 4);
    let json: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["nothing_compared"], "same_measurement");
    let sources = json["gate"]["sources"].as_array().unwrap();
    assert!(sources.iter().all(|s| s["kind"] == "split"), "{sources:?}");
    let conditions = sources.len() as u64;
    assert!(conditions > 1, "{sources:?}");
    let rate = &json["gate"]["empirical_false_alarm"];
    assert_eq!(rate["trials"].as_u64(), Some(10 * conditions), "{rate}");
    assert!(rate["rate"].as_f64().unwrap() <= 0.05, "{rate}");
}
