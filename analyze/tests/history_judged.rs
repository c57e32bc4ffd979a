//! `analyze history` against hostile histories through the binary (issue 46): failed requests
//! judged first, datasets given twice, starts written with offsets and fractions, histories
//! without starts, an environment key a middle measurement lacks, a factor added on the way, too
//! few measurements, revisions equal as numbers, folders of one name, a newest measurement of
//! another metric, series differing only in case, and a site's history page.

use assert_cmd::Command;
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Output;

/// How to build one measurement.
#[derive(Clone)]
struct Spec {
    /// The folder, under the root.
    folder: String,
    /// Latency multiplier of route=a.
    slow_a: f64,
    /// How many of route=a's 20 requests per run answer 503.
    failed_a: usize,
    /// Each run's start (run k of condition c), or none.
    start: Option<String>,
    /// An extra factor column and its level (route=a and route=b alike).
    extra_factor: Option<(&'static str, &'static str)>,
    /// Top-level dataset.toml lines (before `[history]`).
    top: String,
    /// After `[history] series`.
    history: String,
}

fn spec(m: usize) -> Spec {
    Spec {
        folder: format!("m{m:02}"),
        slow_a: 1.0,
        failed_a: 0,
        start: Some(format!("2026-11-{:02}T00:00:00Z", m + 1)),
        extra_factor: None,
        top: format!("title = \"measurement {m}\"\n"),
        history: "series = \"probe\"\n".into(),
    }
}

/// Writes a measurement of two conditions, three runs each of 20 requests: route=a's p95 is
/// about 10 ms (times `slow_a`), route=b's about 20 ms, with a small wobble per measurement.
fn write(root: &Path, m: usize, s: &Spec) -> PathBuf {
    let dir = root.join(&s.folder);
    std::fs::create_dir_all(&dir).unwrap();
    let extra_head = s.extra_factor.map_or(String::new(), |(f, _)| format!(",{f}"));
    let mut runs = format!("run_id,route{extra_head},repetition,started_at_utc,status\n");
    let mut requests = String::from("run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\n");
    for (c, (route, base)) in [("a", 10.0 * s.slow_a), ("b", 20.0)].into_iter().enumerate() {
        for k in 0..3 {
            let id = format!("r{}{k}", c + 1);
            let extra = s.extra_factor.map_or(String::new(), |(_, level)| format!(",{level}"));
            writeln!(runs, "{id},{route}{extra},{},{},ok", k + 1, s.start.clone().unwrap_or_default()).unwrap();
            let wobble = 1.0 + 0.01 * (((m * 7 + k * 3 + c) % 5) as f64 - 2.0);
            for q in 0..20 {
                let latency = base * wobble * (0.5 + q as f64 / 38.0);
                // The last (slowest) `failed_a` requests of route=a fail: the survivors are the fastest.
                let status = if c == 0 && q >= 20 - s.failed_a { 503 } else { 200 };
                writeln!(requests, "{id},{q},{t:.3},{t:.3},{latency:.3},{status},12", t = q as f64 * 10.0).unwrap();
            }
        }
    }
    std::fs::write(dir.join("runs.csv"), runs).unwrap();
    std::fs::write(dir.join("requests.csv"), requests).unwrap();
    std::fs::write(dir.join("dataset.toml"), format!("{}[history]\n{}", s.top, s.history)).unwrap();
    dir
}

/// Twelve measurements, `change` shaping each spec.
fn twelve(root: &Path, change: impl Fn(usize, &mut Spec)) -> Vec<PathBuf> {
    (0..12)
        .map(|m| {
            let mut s = spec(m);
            change(m, &mut s);
            write(root, m, &s)
        })
        .collect()
}

fn run(args: &[&str], dirs: &[PathBuf]) -> Output {
    Command::cargo_bin("analyze").unwrap().arg("history").args(dirs).args(args).output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn assert_exit(output: &Output, code: i32) {
    assert_eq!(output.status.code(), Some(code), "{}\n{}", stdout(output), stderr(output));
}

fn json(args: &[&str], dirs: &[PathBuf]) -> Value {
    let output = run(&[args, &["--format", "json"]].concat(), dirs);
    serde_json::from_str(&stdout(&output)).unwrap_or_else(|e| panic!("{e}: {}", stderr(&output)))
}

fn condition<'a>(json: &'a Value, id: &str) -> &'a Value {
    json["conditions"].as_array().unwrap().iter().find(|c| c["condition_id"] == id).unwrap_or_else(|| panic!("{id}: {json}"))
}

fn datasets(json: &Value) -> Vec<String> {
    json["measurements"].as_array().unwrap().iter().map(|m| m["dataset"].as_str().unwrap().to_string()).collect()
}

#[test]
fn a_measurement_whose_requests_fail_more_is_worse_not_faster() {
    // From measurement 7, 19 of route=a's 20 requests answer 503 and the survivor is fast.
    let tmp = tempfile::tempdir().unwrap();
    let dirs = twelve(tmp.path(), |m, s| s.failed_a = if m >= 6 { 19 } else { 0 });
    let json = json(&[], &dirs);
    let a = condition(&json, "route=a");
    assert_eq!(a["changes"].as_array().unwrap().len(), 1, "{a}");
    let change = &a["changes"][0];
    assert_eq!((change["before"].as_u64(), change["after"].as_u64()), (Some(6), Some(7)), "{change}");
    assert_eq!((change["worse"].as_bool(), change["decided_by"].as_str()), (Some(true), Some("failures")), "{change}");
    assert_eq!(change["failures"]["verdict"], "rise");
    assert_eq!(json["summary"]["better"], 0);
    let text = stdout(&run(&[], &dirs));
    assert!(text.contains("a: more requests failed"), "{text}");
    assert!(!text.contains("faster"), "{text}");
    assert!(text.contains("The new level is worse in 1 and better in 0."), "{text}");
    let ja = stdout(&run(&["--lang", "ja"], &dirs));
    assert!(ja.contains("a：失敗したリクエストが増えた"), "{ja}");
}

#[test]
fn a_measurement_whose_requests_all_failed_is_named_and_judged() {
    let tmp = tempfile::tempdir().unwrap();
    let dirs = twelve(tmp.path(), |m, s| s.failed_a = if m >= 6 { 20 } else { 0 });
    let json = json(&[], &dirs);
    let a = condition(&json, "route=a");
    assert_eq!(a["all_failed"], serde_json::json!([7, 8, 9, 10, 11, 12]));
    let change = &a["changes"][0];
    assert_eq!((change["before"].as_u64(), change["after"].as_u64()), (Some(6), Some(7)), "{a}");
    assert_eq!((change["worse"].as_bool(), change["failures"]["verdict"].as_str()), (Some(true), Some("no_responses")));
    let text = stdout(&run(&[], &dirs));
    assert!(text.contains("a: no request got a 2xx response"), "{text}");
    assert!(text.contains("a in measurement 7 (m06)"), "{text}");
}

#[test]
fn an_error_rate_headline_keeps_its_zeros() {
    // 0% errors, then 50% from measurement 7: a change, worse, not "No change found".
    let tmp = tempfile::tempdir().unwrap();
    let dirs = twelve(tmp.path(), |m, s| {
        s.failed_a = if m >= 6 { 10 } else { 0 };
        s.top.push_str("[report]\nheadline = \"error_rate\"\n");
    });
    let json = json(&[], &dirs);
    let a = condition(&json, "route=a");
    assert_eq!(a["measurements"].as_array().unwrap().len(), 12, "every measurement has a value, 0% included");
    assert_eq!(a["changes"].as_array().unwrap().len(), 1, "{a}");
    assert_eq!((a["changes"][0]["after"].as_u64(), a["changes"][0]["worse"].as_bool()), (Some(7), Some(true)));
    let text = stdout(&run(&[], &dirs));
    assert!(!text.contains("No change found"), "{text}");
    assert!(text.contains("a: more requests failed"), "{text}");
}

#[test]
fn a_dataset_given_twice_counts_once_with_a_note() {
    let tmp = tempfile::tempdir().unwrap();
    let mut dirs = twelve(tmp.path(), |_, _| ());
    dirs.push(tmp.path().join("m01").join("."));
    dirs.push(tmp.path().join("m01/../m01"));
    let json = json(&[], &dirs);
    assert_eq!(json["summary"]["measurements"], 12);
    assert_eq!(json["duplicates"].as_array().unwrap().len(), 2);
    assert_eq!(json["duplicates"][0]["same_as"], "m01");
    let text = stdout(&run(&[], &dirs));
    assert!(text.contains("12, in order of when each was measured"), "{text}");
    assert!(text.contains("Given more than once and counted once"), "{text}");
}

#[test]
fn starts_with_offsets_and_fractions_order_as_instants() {
    // Measurement m starts at 2026-11-01 00:00 UTC plus m hours; the odd ones are written at
    // -05:00 (their text sorts before every even one's) and the even ones with a fraction.
    let tmp = tempfile::tempdir().unwrap();
    let dirs = twelve(tmp.path(), |m, s| {
        s.slow_a = if m >= 6 { 1.3 } else { 1.0 };
        s.start = Some(if m % 2 == 1 {
            let (day, hour) = if m < 5 { ("2026-10-31", 19 + m) } else { ("2026-11-01", m - 5) };
            format!("{day}T{hour:02}:00:00-05:00")
        } else {
            format!("2026-11-01T{m:02}:00:00.5Z")
        });
    });
    let mut reversed = dirs.clone();
    reversed.reverse();
    let json = json(&[], &reversed);
    assert_eq!(json["by"], "started_at");
    assert_eq!(datasets(&json), (0..12).map(|m| format!("m{m:02}")).collect::<Vec<_>>());
    let a = condition(&json, "route=a");
    assert_eq!(a["changes"].as_array().unwrap().len(), 1, "{a}");
    assert_eq!(a["changes"][0]["after"], 7);
}

#[test]
fn without_starts_the_folders_order_naturally_and_the_heading_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let dirs = twelve(tmp.path(), |m, s| {
        s.folder = format!("night-{}", m + 1);
        s.start = None;
    });
    let json = json(&[], &dirs);
    assert_eq!(json["by"], "dataset_name");
    assert_eq!(datasets(&json)[..3], ["night-1", "night-2", "night-3"]);
    assert_eq!(datasets(&json)[11], "night-12");
    let text = stdout(&run(&[], &dirs));
    assert!(text.contains("in the natural order of their folder names"), "{text}");
    assert!(!text.contains("when each was measured"), "{text}");
}

#[test]
fn an_environment_key_that_changes_across_a_measurement_lacking_it_is_found() {
    let tmp = tempfile::tempdir().unwrap();
    let dirs = twelve(tmp.path(), |m, s| match m {
        0..=5 => s.top.push_str("[environment]\ncpu_model = \"AMD EPYC\"\n"),
        6 => {}
        _ => s.top.push_str("[environment]\ncpu_model = \"Intel Xeon\"\n"),
    });
    let output = run(&["--format", "json"], &dirs);
    assert_exit(&output, 3);
    let json: Value = serde_json::from_str(&stdout(&output)).unwrap();
    let change = &json["environment_changes"][0];
    assert_eq!((change["before"].as_u64(), change["after"].as_u64()), (Some(6), Some(8)), "{json}");
    assert_eq!(
        (change["differing"][0]["before"].as_str(), change["differing"][0]["after"].as_str()),
        (Some("AMD EPYC"), Some("Intel Xeon"))
    );
    let text = stdout(&run(&[], &dirs));
    assert!(text.contains("cpu_model differs (AMD EPYC in measurement 6, Intel Xeon in measurement 8)"), "{text}");
    assert!(!text.contains("baseline") && !text.contains("candidate"), "{text}");
}

#[test]
fn a_factor_added_at_one_level_is_set_aside() {
    let tmp = tempfile::tempdir().unwrap();
    let dirs = twelve(tmp.path(), |m, s| {
        s.slow_a = if m >= 6 { 1.5 } else { 1.0 };
        s.extra_factor = (m >= 6).then_some(("tls", "on"));
    });
    let json = json(&[], &dirs);
    assert_eq!(json["summary"]["conditions"], 2, "{json}");
    assert_eq!(json["set_aside"][0]["factor"], "tls");
    assert_eq!(json["set_aside"][0]["held_by"], serde_json::json!([7, 8, 9, 10, 11, 12]));
    let a = condition(&json, "route=a");
    assert_eq!(a["measurements"].as_array().unwrap().len(), 12);
    assert_eq!((a["changes"][0]["after"].as_u64(), a["changes"][0]["worse"].as_bool()), (Some(7), Some(true)), "{a}");
    assert!(stdout(&run(&[], &dirs)).contains("The factor tls is set aside"));
}

#[test]
fn too_few_measurements_do_not_read_as_no_change() {
    // Three measurements leave no room for 2 on each side of a change: nothing is tested.
    let tmp = tempfile::tempdir().unwrap();
    let dirs: Vec<PathBuf> = (0..3).map(|m| write(tmp.path(), m, &spec(m))).collect();
    let text = stdout(&run(&[], &dirs));
    assert!(!text.contains("No change found"), "{text}");
    assert!(text.contains("Nothing could be tested yet"), "{text}");
}

#[test]
fn six_measurements_can_show_a_change_and_say_what_step_they_would_find() {
    // Against normal measurement means, 6 measurements have no floor on p: "No change found" is
    // true of them, and each condition states the step it would find 90% of the time.
    let tmp = tempfile::tempdir().unwrap();
    let dirs: Vec<PathBuf> = (0..6).map(|m| write(tmp.path(), m, &spec(m))).collect();
    let text = stdout(&run(&[], &dirs));
    assert!(text.contains("No change found"), "{text}");
    assert!(text.contains("The step each condition would find 90% of the time within 2 measurements"), "{text}");
    let json = json(&[], &dirs);
    let step = condition(&json, "route=a")["detectable_step"].as_f64().unwrap();
    assert!(step > 1.0 && step < 2.0, "{step}");
    let ja = stdout(&run(&["--lang", "ja"], &dirs));
    assert!(ja.contains("90%の確率で見つける段差"), "{ja}");
}

#[test]
fn an_error_rate_history_says_from_how_many_measurements_its_shuffles_can_show_a_change() {
    // Shares are tested by shuffling whole measurements: 6 cannot give a p below 2/C(6,3) = 0.1,
    // and the count the page names is the fewest whose smallest p passes the first threshold.
    let tmp = tempfile::tempdir().unwrap();
    let dirs: Vec<PathBuf> = (0..6)
        .map(|m| {
            let mut s = spec(m);
            s.top.push_str("[report]\nheadline = \"error_rate\"\n");
            write(tmp.path(), m, &s)
        })
        .collect();
    let json = json(&[], &dirs);
    let needed = json["thresholds"]["min_measurements"].as_u64().unwrap();
    // Two conditions at q = 2%: the first threshold is 1%, which 2/C(10,5) = 0.0079 first reaches.
    assert_eq!(needed, 10);
    let text = stdout(&run(&[], &dirs));
    assert!(text.contains("No change can be shown yet: whole measurements are shuffled, so 6 measurements"), "{text}");
    assert!(text.contains("from 10 measurements on, a change can be shown"), "{text}");
    let ja = stdout(&run(&["--lang", "ja"], &dirs));
    assert!(ja.contains("まだ変化を示せません") && ja.contains("10件の測定から"), "{ja}");
}

#[test]
fn revisions_equal_as_numbers_order_the_same_whatever_the_arguments() {
    let tmp = tempfile::tempdir().unwrap();
    let dirs = twelve(tmp.path(), |m, s| {
        let revision = match m {
            0 => "10".to_string(),
            1 => "010".to_string(),
            _ => format!("{}", 10 + m),
        };
        s.history.push_str(&format!("revision = \"{revision}\"\n"));
    });
    let forward = json(&["--by", "revision"], &dirs);
    let mut reversed = dirs.clone();
    reversed.reverse();
    let backward = json(&["--by", "revision"], &reversed);
    assert_eq!(datasets(&forward), datasets(&backward));
    assert_eq!(datasets(&forward)[..2], ["m01", "m00"], "\"010\" before \"10\" by their text");
}

#[test]
fn folders_of_one_name_are_called_by_their_parents() {
    let tmp = tempfile::tempdir().unwrap();
    let dirs = twelve(tmp.path(), |m, s| s.folder = format!("night{m:02}/ds"));
    let json = json(&[], &dirs);
    assert_eq!(datasets(&json)[..2], ["night00/ds", "night01/ds"]);
}

#[test]
fn a_newest_measurement_of_another_metric_is_the_one_named() {
    let tmp = tempfile::tempdir().unwrap();
    let dirs = twelve(tmp.path(), |m, s| {
        if m == 11 {
            s.top.push_str("percentile = 99\n");
        }
    });
    let output = run(&[], &dirs);
    assert_exit(&output, 2);
    let err = stderr(&output);
    assert!(err.contains("p99 (m11)"), "{err}");
    assert!(err.contains("p95 (m00, m01"), "{err}");
}

#[test]
fn the_site_refuses_series_that_differ_only_in_case() {
    let tmp = tempfile::tempdir().unwrap();
    let datasets = tmp.path().join("datasets");
    twelve(&datasets, |m, s| s.history = format!("series = \"{}\"\n", if m < 6 { "nightly" } else { "Nightly" }));
    let site = tmp.path().join("site");
    let output = Command::cargo_bin("analyze").unwrap().arg("site").arg(&datasets).arg("--out").arg(&site).output().unwrap();
    assert_exit(&output, 2);
    let err = stderr(&output);
    assert!(err.contains("m06/dataset.toml:3:10: history.series: \"Nightly\" and m00's \"nightly\" differ only in case"), "{err}");
    assert!(!site.join("history").exists());
}

#[test]
fn a_site_history_page_says_no_exit_status_and_no_baseline() {
    let tmp = tempfile::tempdir().unwrap();
    let datasets = tmp.path().join("datasets");
    twelve(&datasets, |m, s| {
        s.top.push_str(&format!("[environment]\ncpu_model = \"{}\"\n", if m >= 6 { "Intel Xeon" } else { "AMD EPYC" }))
    });
    let site = tmp.path().join("site");
    let output = Command::cargo_bin("analyze").unwrap().arg("site").arg(&datasets).arg("--out").arg(&site).output().unwrap();
    assert_exit(&output, 0);
    for lang in ["en", "ja"] {
        let page = std::fs::read_to_string(site.join(format!("history/probe/{lang}/index.html"))).unwrap();
        assert!(!page.contains("--allow-env"), "{lang}: a site takes no --allow-env");
        assert!(!page.contains("exit status") && !page.contains("終了ステータス"), "{lang}");
        assert!(!page.contains("baseline") && !page.contains("ベースライン"), "{lang}");
    }
    let page = std::fs::read_to_string(site.join("history/probe/en/index.html")).unwrap();
    assert!(page.contains("cpu_model differs (AMD EPYC in measurement 6, Intel Xeon in measurement 7)"), "{page}");
}
