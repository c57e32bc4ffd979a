//! End to end, against the real `measure` and `analyze` binaries and Python's http.server on 127.0.0.1
//! (issue 47): a plan in rounds runs every condition once per round, each round in its own seeded
//! shuffled order, as `--dry-run` prints it and runs.csv records it (its `round` column, which `analyze`
//! does not take for a factor); a kept plan.toml without `order` goes on in the whole-study shuffle it
//! was started with; and dataset.toml leads with the headline that fits the load: requests/s (the
//! percentile beside) under hey without a rate, the percentile under measure's own client at a fixed rate.
//! The tests run one at a time.

use crate::common;

use common::{analyze_bin, assert_analyze_accepts, describe, read_csv, require_python_and_hey as require, PYTHON, SERIAL};
use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::process::{Command, Output};

type Row = HashMap<String, String>;

/// A command plan of Python's http.server (a factor `flavour` of two levels the server ignores, and
/// `concurrency`), `repetitions` rounds (`order`: its line, or none), under `load` (the `[load]` lines).
fn plan_text(repetitions: u32, order: &str, concurrency: &str, load: &str) -> String {
    format!(
        "kind = \"command\"\ndataset = \"d\"\ntitle = {{ en = \"t\", ja = \"t\" }}\ndescription = {{ en = \"d\", ja = \"d\" }}\n\
         seed = 11\nrepetitions = {repetitions}\n{order}\n[factors]\nflavour = [\"a\", \"b\"]\nconcurrency = [{concurrency}]\n\n\
         [servers.py]\ncommand = [\"{PYTHON}\", \"-m\", \"http.server\", \"--bind\", \"127.0.0.1\", \"--directory\", \"{{run_dir}}\", \"{{port}}\"]\n\
         ready = \"/\"\n\n[load]\n{load}request_timeout_s = 5\nrun_timeout_s = 30\n\n[sampling]\ninterval_ms = 100\n\n\
         [host]\nload1_per_cpu_max = 1000.0\nidle_wait_max_s = 0\n"
    )
}

const HEY_LOAD: &str = "tool = \"hey\"\nconcurrency = \"{concurrency}\"\nrequests = 20\n";

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_measure")).arg("run").args(args).arg("--analyze").arg(analyze_bin()).current_dir(dir).output().unwrap()
}

/// The `(condition, round)` of each run line `--dry-run` printed (`  r01  flavour=a, concurrency=1  (round 1)`).
fn dry_run_order(out: &Output) -> Vec<(String, String)> {
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .filter_map(|l| l.trim_start().strip_prefix('r').filter(|_| l.starts_with("  r")))
        .filter_map(|l| {
            let (_, rest) = l.split_once("  ")?;
            let (condition, which) = rest.rsplit_once("  (")?;
            Some((condition.to_string(), which.trim_end_matches(')').to_string()))
        })
        .collect()
}

fn condition(row: &Row) -> String {
    format!("flavour={}, concurrency={}", row["flavour"], row["concurrency"])
}

/// `[report]`'s lines of dataset.toml, up to the next blank line.
fn report_table(out: &Path) -> String {
    let text = std::fs::read_to_string(out.join("dataset.toml")).unwrap();
    let Some(at) = text.find("[report]\n") else { return String::new() };
    text[at..].split("\n\n").next().unwrap_or_default().to_string()
}

#[test]
fn a_plan_in_rounds_runs_every_condition_once_per_round_and_leads_with_requests_per_s_under_hey() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require();
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("plan.toml"), plan_text(3, "order = \"rounds\"\n", "1, 2", HEY_LOAD)).unwrap();

    let dry = run(tmp.path(), &["--plan", "plan.toml", "--out", "d", "--dry-run"]);
    assert_eq!(dry.status.code(), Some(0), "{}", describe(&dry));
    let stdout = String::from_utf8_lossy(&dry.stdout).into_owned();
    assert!(
        stdout.contains(
            "run order (seed 11, in rounds: each round runs every condition once, in its own shuffled order), 12 of 12 runs to go:"
        ),
        "{stdout}"
    );
    let planned = dry_run_order(&dry);
    assert_eq!(planned.len(), 12, "{stdout}");
    let all: BTreeSet<&str> = planned.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(all.len(), 4, "{stdout}");
    for (k, round) in planned.chunks(4).enumerate() {
        assert!(round.iter().all(|(_, which)| *which == format!("round {}", k + 1)), "{stdout}");
        assert_eq!(
            round.iter().map(|(c, _)| c.as_str()).collect::<BTreeSet<_>>(),
            all,
            "round {} runs every condition once: {stdout}",
            k + 1
        );
    }
    let rounds: Vec<Vec<&str>> = planned.chunks(4).map(|r| r.iter().map(|(c, _)| c.as_str()).collect()).collect();
    assert!(rounds.iter().any(|r| *r != rounds[0]), "each round has its own order: {stdout}");
    assert_eq!(dry_run_order(&run(tmp.path(), &["--plan", "plan.toml", "--out", "d", "--dry-run"])), planned, "seeded");
    assert!(!tmp.path().join("d").exists(), "--dry-run writes nothing");

    let study = run(tmp.path(), &["--plan", "plan.toml", "--out", "d"]);
    assert_eq!(study.status.code(), Some(0), "{}", describe(&study));
    let out = tmp.path().join("d");
    let rows = read_csv(&out.join("runs.csv"));
    let measured: Vec<(String, String)> = rows.iter().map(|r| (condition(r), format!("round {}", r["round"]))).collect();
    assert_eq!(measured, planned, "runs.csv records the runs in the order and rounds --dry-run printed");
    assert!(rows.iter().all(|r| r["status"] == "ok" && r["round"] == r["repetition"]), "{rows:?}");
    assert_eq!(report_table(&out), "[report]\nheadline = \"requests_per_s\"\nbeside = [\"percentile\"]");
    let checked = assert_analyze_accepts(&out);
    assert!(checked.contains("runs: 12 (12 ok), conditions: 4, requests: 240"), "round is not a factor: {checked}");
}

#[test]
fn a_kept_plan_without_order_resumes_in_its_whole_study_shuffle_and_a_fixed_rate_leads_with_the_percentile() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require();
    let tmp = tempfile::tempdir().unwrap();
    let load = "tool = \"open-loop\"\nrate = 100\nrequests = 10\n";
    // A plan written before rounds: no `order`. Its dataset is cut after 2 runs, as a study stopped there.
    std::fs::write(tmp.path().join("plan.toml"), plan_text(2, "", "1", load)).unwrap();
    let planned = dry_run_order(&run(tmp.path(), &["--plan", "plan.toml", "--out", "d", "--dry-run"]));
    assert_eq!(planned.len(), 4);
    assert!(planned.iter().all(|(_, which)| which.starts_with("repetition ")), "no rounds: {planned:?}");
    let study = run(tmp.path(), &["--plan", "plan.toml", "--out", "d"]);
    assert_eq!(study.status.code(), Some(0), "{}", describe(&study));
    let out = tmp.path().join("d");
    let runs_csv = std::fs::read_to_string(out.join("runs.csv")).unwrap();
    let kept: Vec<&str> = runs_csv.lines().take(3).collect();
    std::fs::write(out.join("runs.csv"), kept.join("\n") + "\n").unwrap();
    let resumed_dry = dry_run_order(&run(tmp.path(), &["--resume", "--out", "d", "--dry-run"]));
    assert_eq!(resumed_dry, planned[2..], "the rest of the whole-study shuffle");
    let resumed = run(tmp.path(), &["--resume", "--out", "d"]);
    assert_eq!(resumed.status.code(), Some(0), "{}", describe(&resumed));
    let rows = read_csv(&out.join("runs.csv"));
    let measured: Vec<(String, String)> = rows.iter().map(|r| (condition(r), format!("repetition {}", r["repetition"]))).collect();
    assert_eq!(measured, planned);
    assert!(rows.iter().all(|r| r["round"].is_empty()), "a shuffled plan has no rounds: {rows:?}");
    assert_eq!(report_table(&out), "", "a plan written before rounds keeps analyze's default headline");

    // The same plan written now (order = "rounds") at a fixed rate leads with the percentile.
    std::fs::write(tmp.path().join("now.toml"), plan_text(1, "order = \"rounds\"\n", "1", load)).unwrap();
    let now = run(tmp.path(), &["--plan", "now.toml", "--out", "e"]);
    assert_eq!(now.status.code(), Some(0), "{}", describe(&now));
    assert_eq!(report_table(&tmp.path().join("e")), "[report]\nheadline = \"percentile\"");
    assert_analyze_accepts(&tmp.path().join("e"));
}
