//! End to end, against the real `measure` and `analyze` binaries, Python's http.server on 127.0.0.1 and
//! hey (issue 47, the noise measure controls): a command plan's server and load tool run on disjoint CPU
//! sets recorded in `[environment]`; a warm-up reaches the server but none of its requests reach the
//! run's rows; runs.csv records the server's CPU share, the tool's and the steal time, which analyze does
//! not take for factors; and `measure doctor` runs its A/A rounds and prints a ratio of spreads with an
//! interval and a minimum detectable change per knob. The tests run one at a time.

use crate::common;

use common::{analyze_bin, assert_analyze_accepts, describe, read_csv, require_python_and_hey as require, PYTHON, SERIAL};
use std::path::Path;
use std::process::{Command, Output};

/// A command plan of Python's http.server, started through `sh`, which first writes the CPUs it may run
/// on into `{raw_dir}/cpus.txt`; `repetitions` runs of one condition under hey (`load`: extra `[load]`
/// lines).
fn plan_text(repetitions: u32, load: &str) -> String {
    format!(
        "kind = \"command\"\ndataset = \"d\"\ntitle = {{ en = \"t\", ja = \"t\" }}\ndescription = {{ en = \"d\", ja = \"d\" }}\n\
         seed = 5\nrepetitions = {repetitions}\norder = \"rounds\"\n[factors]\nconcurrency = [2]\n\n\
         [servers.py]\ncommand = [\"/bin/sh\", \"-c\", \"grep Cpus_allowed_list /proc/self/status > {{raw_dir}}/cpus.txt; \
         exec {PYTHON} -m http.server --bind 127.0.0.1 --directory {{run_dir}} {{port}}\"]\nready = \"/\"\n\n\
         [load]\ntool = \"hey\"\nconcurrency = \"{{concurrency}}\"\nrequests = 20\n{load}request_timeout_s = 5\nrun_timeout_s = 30\n\n\
         [sampling]\ninterval_ms = 100\n\n[host]\nload1_per_cpu_max = 1000.0\nidle_wait_max_s = 0\n"
    )
}

fn measure(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_measure")).args(args).arg("--analyze").arg(analyze_bin()).current_dir(dir).output().unwrap()
}

/// `key = "value"` of dataset.toml's `[environment]`.
fn environment(out: &Path, key: &str) -> Option<String> {
    let text = std::fs::read_to_string(out.join("dataset.toml")).unwrap();
    let table: toml::Table = text.parse().unwrap();
    table.get("environment")?.get(key)?.as_str().map(str::to_owned)
}

#[test]
fn a_pinned_run_with_a_warm_up_keeps_the_warm_up_out_of_its_rows_and_records_its_contention() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require();
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("plan.toml"), plan_text(2, "warmup_requests = 30\n")).unwrap();
    let out = measure(tmp.path(), &["run", "--plan", "plan.toml", "--out", "d"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let d = tmp.path().join("d");

    let cpus = std::thread::available_parallelism().unwrap().get();
    let server_cpus = environment(&d, "server_cpus");
    if cpus >= 2 {
        let (server, load) = (server_cpus.clone().unwrap(), environment(&d, "load_cpus").unwrap());
        assert_ne!(server, load, "disjoint sets");
        for run in ["r01", "r02"] {
            let seen = std::fs::read_to_string(d.join("raw").join(run).join("cpus.txt")).unwrap();
            assert_eq!(seen.split_whitespace().last(), Some(server.as_str()), "{run}'s server ran on its set: {seen}");
        }
    } else {
        assert_eq!(environment(&d, "pinned").as_deref(), Some("no (fewer than 2 CPUs)"));
    }

    let runs = read_csv(&d.join("runs.csv"));
    let requests = read_csv(&d.join("requests.csv"));
    assert_eq!(runs.len(), 2);
    for run in &runs {
        let id = &run["run_id"];
        assert_eq!(run["status"], "ok", "{run:?}");
        assert!(run["note"].contains("measure.warmup(what=\"30 requests\")"), "the note says the warm-up ran: {}", run["note"]);
        // The server answered the warm-up's 30 requests and the measured 20 (plus its ready check); the
        // run's rows hold the 20.
        let served = std::fs::read_to_string(d.join("raw").join(id).join("server.stderr")).unwrap();
        let gets = served.lines().filter(|l| l.contains("\"GET / HTTP/1.1\" 200")).count();
        assert!(gets >= 50, "{id}: the server saw {gets} GETs:\n{served}");
        assert_eq!(requests.iter().filter(|r| &r["run_id"] == id).count(), 20, "{id}: only the measured requests are rows");
        for column in ["server_cpu_share", "load_cpu_share"] {
            let value: f64 = run[column].parse().unwrap_or_else(|_| panic!("{id}: {column} = {:?}", run[column]));
            assert!(value.is_finite() && value >= 0.0, "{id}: {column} = {value}");
        }
        assert!(run["steal_pct"].is_empty() || run["steal_pct"].parse::<f64>().is_ok_and(|s| (0.0..=100.0).contains(&s)));
    }
    // The contention columns are measure's, not factors: the one factor is concurrency.
    let printed = assert_analyze_accepts(&d);
    assert!(!printed.contains("server_cpu_share"), "{printed}");
}

#[test]
fn a_warm_up_the_tool_cannot_run_is_refused_at_its_line() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let tmp = tempfile::tempdir().unwrap();
    let text = plan_text(2, "warmup_requests = 31\n");
    std::fs::write(tmp.path().join("plan.toml"), &text).unwrap();
    let out = measure(tmp.path(), &["run", "--plan", "plan.toml", "--out", "d", "--dry-run"]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    let line = text.lines().position(|l| l.starts_with("warmup_requests")).unwrap() + 1;
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("plan.toml:{line}:1: load.warmup_requests: 31 must be a multiple of the concurrency (2)")), "{err}");
}

#[test]
fn doctor_runs_its_rounds_and_reports_each_knob_with_an_interval_and_a_detectable_change() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require();
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("plan.toml"), plan_text(3, "")).unwrap();

    let dry = measure(tmp.path(), &["doctor", "--plan", "plan.toml", "--rounds", "2", "--out", "doc", "--dry-run"]);
    assert_eq!(dry.status.code(), Some(0), "{}", describe(&dry));
    let said = String::from_utf8_lossy(&dry.stdout);
    assert!(said.contains("2 rounds of 4 settings") && said.contains("8 runs, about "), "{said}");
    assert!(said.contains("warm-up of 2 s on/off"), "hey takes a duration: a 2-s warm-up: {said}");
    assert!(!tmp.path().join("doc").exists(), "a dry run writes nothing");

    let out = measure(tmp.path(), &["doctor", "--plan", "plan.toml", "--rounds", "2", "--out", "doc"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let table = String::from_utf8_lossy(&out.stdout).into_owned();
    for folder in ["pin-off-warmup-off", "pin-on-warmup-off", "pin-off-warmup-on", "pin-on-warmup-on"] {
        let line = table.lines().find(|l| l.starts_with(folder)).unwrap_or_else(|| panic!("{folder}: {table}"));
        let cells: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(cells[1], "2", "{folder}: two runs: {line}");
        let median: f64 = cells[2].parse().unwrap();
        assert!(median.is_finite() && median > 0.0, "{line}");
        assert_eq!(read_csv(&tmp.path().join("doc").join(folder).join("runs.csv")).len(), 2);
    }
    assert!(table.contains("median requests/s"), "{table}");
    assert!(table.contains("minimum detectable change with 3 runs a side"), "{table}");
    for knob in ["pinning", "warm-up"] {
        let line = table.lines().find(|l| l.starts_with(knob)).unwrap_or_else(|| panic!("{knob}: {table}"));
        let cells: Vec<&str> = line.split_whitespace().collect();
        let ratio: f64 = cells[1].trim_end_matches('x').parse().unwrap_or_else(|_| panic!("{line}"));
        let (low, high) = cells[2].split_once('-').unwrap();
        let (low, high): (f64, f64) = (low.parse().unwrap(), high.parse().unwrap());
        assert!(ratio.is_finite() && low.is_finite() && high.is_finite() && low <= ratio && ratio <= high, "{line}");
        let mdc: Vec<f64> = [cells[3], cells[5]].iter().map(|c| c.trim_end_matches(&['%', ';'][..]).parse().unwrap()).collect();
        assert!(mdc.iter().all(|m| m.is_finite() && *m > 0.0), "{line}");
        assert_eq!(line.contains("no measurable effect"), low <= 1.0 && 1.0 <= high, "{line}");
    }
}
