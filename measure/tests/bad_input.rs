//! Bad input stops `measure run` with exit 2 and the file, line and column, as in analyze, before any
//! server is installed or started: a plan that does not parse or validate, and a dataset given to
//! `--resume` whose table is cut short inside a quoted field.

use crate::common;

use common::{describe, manifest};
use std::path::Path;
use std::process::{Command, Output};

fn measure(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_measure")).arg("run").args(args).output().unwrap()
}

/// The smoke plan with its `repetitions = 1` line replaced; returns the plan's path and that line's number.
fn smoke_plan_with_repetitions(dir: &Path, value: &str) -> (std::path::PathBuf, usize) {
    let text = std::fs::read_to_string(manifest().join("plans/smoke.toml")).unwrap();
    let line = text.lines().position(|l| l == "repetitions = 1").expect("smoke.toml sets repetitions = 1") + 1;
    let path = dir.join("bad.toml");
    std::fs::write(&path, text.replace("repetitions = 1\n", &format!("repetitions = {value}\n"))).unwrap();
    (path, line)
}

#[test]
fn a_plan_that_is_not_toml_exits_2_at_its_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let (plan, line) = smoke_plan_with_repetitions(dir.path(), "three");
    let out = dir.path().join("out");
    let result = measure(&["--plan".as_ref(), plan.as_os_str(), "--out".as_ref(), out.as_os_str()]);
    assert_eq!(result.status.code(), Some(2), "{}", describe(&result));
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(stderr.contains(&format!("{}:{line}:15: ", plan.display())), "{}", describe(&result));
    assert!(!out.exists(), "nothing is written for a bad plan");
}

#[test]
fn a_plan_that_breaks_a_rule_exits_2_naming_the_file_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let (plan, line) = smoke_plan_with_repetitions(dir.path(), "0");
    let out = dir.path().join("out");
    let result = measure(&["--plan".as_ref(), plan.as_os_str(), "--out".as_ref(), out.as_os_str()]);
    assert_eq!(result.status.code(), Some(2), "{}", describe(&result));
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(stderr.contains(&format!("{}:{line}:1: repetitions: must be positive", plan.display())), "{}", describe(&result));
}

#[test]
fn a_plan_with_several_problems_reports_them_all_at_their_places_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    // Before: the typos were reported one a run, and run_timeout_s = 2^63-1 passed, then --dry-run and run
    // panicked on a Duration overflow after writing plan.toml, README.md and dataset.toml.
    let text = std::fs::read_to_string(manifest().join("plans/static-file-servers.toml"))
        .unwrap()
        .replace("run_timeout_s = 60", "run_timeout_s = 9223372036854775807")
        .replace("stop_signal = \"QUIT\"", "stop_signl = \"QUIT\"")
        .replace("seed = ", "sead = 1\nseed = ");
    let plan = dir.path().join("plan.toml");
    std::fs::write(&plan, &text).unwrap();
    let at = |needle: &str| text.lines().position(|l| l.starts_with(needle)).unwrap() + 1;
    for dry_run in [true, false] {
        let out = dir.path().join("out");
        let mut args = vec!["--plan".as_ref(), plan.as_os_str(), "--out".as_ref(), out.as_os_str()];
        if dry_run {
            args.push("--dry-run".as_ref());
        }
        let result = measure(&args);
        assert_eq!(result.status.code(), Some(2), "{}", describe(&result));
        let stderr = String::from_utf8_lossy(&result.stderr);
        let p = plan.display();
        for expected in [
            format!("error: {p}:{}:1: sead: unknown key (a typo?)", at("sead")),
            format!("error: {p}:{}:1: servers.nginx.stop_signl: unknown key (a typo?)", at("stop_signl")),
            format!("error: {p}:{}:1: load.run_timeout_s: is 9223372036854775807; it must be 1 to 86400 seconds", at("run_timeout_s")),
        ] {
            assert!(stderr.contains(&expected), "{expected}\n{}", describe(&result));
        }
        assert!(!out.exists(), "nothing is written for a bad plan");
        // With the typos fixed, the number out of bounds is refused at its place, again before anything is written.
        let fixed = text.replace("sead = 1\n", "").replace("stop_signl", "stop_signal");
        std::fs::write(&plan, &fixed).unwrap();
        let result = measure(&args);
        std::fs::write(&plan, &text).unwrap();
        assert_eq!(result.status.code(), Some(2), "{}", describe(&result));
        let line = fixed.lines().position(|l| l.starts_with("run_timeout_s")).unwrap() + 1;
        let expected = format!("error: {p}:{line}:1: load.run_timeout_s: is 9223372036854775807; it must be 1 to 86400 seconds");
        assert!(String::from_utf8_lossy(&result.stderr).contains(&expected), "{expected}\n{}", describe(&result));
        assert!(!out.exists(), "nothing is written for a bad plan");
    }
}

#[test]
fn resuming_a_runs_csv_cut_inside_a_quote_exits_2_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    std::fs::copy(manifest().join("plans/smoke.toml"), out.join("plan.toml")).unwrap();
    let runs = "run_id,route,downloads,worker,repetition,started_at_utc,status,note,load1_before,load1_after\n\
                r01,direct,1,sync,1,2026-11-30T00:00:00Z,aborted,\"interrupted, then cut";
    std::fs::write(out.join("runs.csv"), runs).unwrap();
    let result = measure(&["--resume".as_ref(), "--out".as_ref(), out.as_os_str()]);
    assert_eq!(result.status.code(), Some(2), "{}", describe(&result));
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(stderr.contains(&format!("{}:2:8: ", out.join("runs.csv").display())), "{}", describe(&result));
    assert_eq!(std::fs::read_to_string(out.join("runs.csv")).unwrap(), runs, "the dataset is left as it was");
    let mut names: Vec<_> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name()).collect();
    names.sort();
    assert_eq!(names, ["plan.toml", "runs.csv"], "nothing was added");
}
