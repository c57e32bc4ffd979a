//! End to end, against the real `measure` and `analyze` binaries (issue 47, "did my change make it
//! slower"): `measure init --compare OLD NEW` writes a plan of two builds interleaved in rounds; run on
//! loopback with two builds of one small Python server, one doing twice the work per request, the
//! report's paired verdict finds the new build slower, with rounds in runs.csv and both builds in each
//! round; the same plan with identical builds reports a ratio whose interval holds 1. Short runs (200
//! requests at concurrency 1, 8 rounds): the effect is about ×1.5, far beyond a shared host's noise;
//! small effects and rates belong to the benchmark.

use crate::common;

use common::{analyze_bin, assert_analyze_accepts, describe, read_csv, SERIAL};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output};

const PYTHON: &str = "/usr/bin/python3";
const HEY: &str = "/usr/bin/hey";

/// A single-threaded http.server that busy-loops `sys.argv[2]` iterations before each answer.
const SERVER: &str = r#"import http.server, sys
WORK = int(sys.argv[2])
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        total = 0
        for i in range(WORK):
            total += i
        body = b"ok %d\n" % (total & 1)
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
"#;

/// Iterations of the old build's loop: about 1 ms of Python per request.
const WORK: u32 = 20_000;

fn measure(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_measure")).args(args).current_dir(dir).output().unwrap()
}

/// `measure init --compare` for builds doing `old` and `new` iterations, made short for a test: 200
/// requests at concurrency 1 a run instead of 5 s at 10, no idle wait; then run, imported and reported.
/// Returns the dataset and the report's summary.json.
fn run_compare(dir: &Path, old: u32, new: u32) -> (std::path::PathBuf, serde_json::Value) {
    let server = dir.join("server.py");
    std::fs::write(&server, SERVER).unwrap();
    let command = |work: u32| format!("{PYTHON} {} {{port}} {work}", server.display());
    let init = measure(dir, &["init", "plan.toml", "--compare", &command(old), &command(new)]);
    assert_eq!(init.status.code(), Some(0), "{}", describe(&init));
    let plan = std::fs::read_to_string(dir.join("plan.toml")).unwrap();
    let short = plan
        .replace("concurrency = 10\nduration_s = 5\n", "concurrency = 1\nrequests = 200\n")
        .replace("load1_per_cpu_max = 0.5\nidle_wait_max_s = 60", "load1_per_cpu_max = 1000.0\nidle_wait_max_s = 0");
    assert_ne!(short, plan, "the test shortens the written plan's load");
    std::fs::write(dir.join("plan.toml"), short).unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_measure"))
        .args(["run", "--plan", "plan.toml", "--out", "d", "--analyze"])
        .arg(analyze_bin())
        .current_dir(dir)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", describe(&run));
    let out = dir.join("d");
    assert_analyze_accepts(&out);
    let report = dir.join("report");
    let rendered = Command::new(analyze_bin()).arg("report").arg(&out).arg("--out").arg(&report).output().unwrap();
    assert_eq!(rendered.status.code(), Some(0), "{}", describe(&rendered));
    let summary = serde_json::from_str(&std::fs::read_to_string(report.join("summary.json")).unwrap()).unwrap();
    (out, summary)
}

/// Every round of runs.csv runs both builds once.
fn assert_both_builds_in_each_round(out: &Path) {
    let rows = read_csv(&out.join("runs.csv"));
    assert_eq!(rows.len(), 16, "{rows:?}");
    for round in 1..=8 {
        let builds: BTreeSet<&str> = rows.iter().filter(|r| r["round"] == round.to_string()).map(|r| r["server"].as_str()).collect();
        assert_eq!(builds, BTreeSet::from(["new", "old"]), "round {round}: {rows:?}");
    }
    assert!(rows.iter().all(|r| r["status"] == "ok"), "{rows:?}");
}

fn require() {
    for (path, install) in [(PYTHON, "apt-get install -y python3"), (HEY, "apt-get install -y hey")] {
        assert!(Path::new(path).exists(), "{path} is not installed: install it with `{install}`");
    }
}

#[test]
fn twice_the_work_per_request_is_found_slower_by_the_paired_verdict() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require();
    let tmp = tempfile::tempdir().unwrap();
    let (out, summary) = run_compare(tmp.path(), WORK, 2 * WORK);
    assert_both_builds_in_each_round(&out);
    let paired = &summary["variance"]["paired"][0];
    assert_eq!((paired["a_id"].as_str(), paired["b_id"].as_str()), (Some("server=old"), Some("server=new")), "{paired}");
    assert_eq!(paired["rounds"], 8, "{paired}");
    let (ratio, high) = (paired["ratio"].as_f64().unwrap(), paired["ratio_high"].as_f64().unwrap());
    assert!(ratio < 0.9 && high < 1.0, "new's requests/s over old's, below 1 with its interval: {paired}");
    assert_eq!(paired["verdict"], "supported", "{paired}");
    assert_eq!(paired["smallest_permutation_p"].as_f64(), Some(2.0 / 256.0), "{paired}");
}

#[test]
fn identical_builds_give_a_paired_interval_that_holds_one() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require();
    let tmp = tempfile::tempdir().unwrap();
    let (out, summary) = run_compare(tmp.path(), WORK, WORK);
    assert_both_builds_in_each_round(&out);
    let paired = &summary["variance"]["paired"][0];
    let (low, high) = (paired["ratio_low"].as_f64().unwrap(), paired["ratio_high"].as_f64().unwrap());
    assert!(low <= 1.0 && 1.0 <= high, "identical builds: the interval holds 1: {paired}");
    assert_ne!(paired["verdict"], "supported", "{paired}");
}
