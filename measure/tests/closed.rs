//! End to end: smoke versions of the three closed-loop plans (seeds 001-003) run against the real servers
//! on loopback (uWSGI, Gunicorn, Django runserver, flup FastCGI behind nginx), with the seeds' own tools
//! (ab, hey) imported by `analyze import`, and measure's session client. The tests read the written dataset
//! themselves, then ask `analyze check` about it.
//!
//! Each smoke plan is the committed plan with fewer requests, shorter runs and one repetition, so the test
//! follows the plan a user runs. Nothing is skipped: a missing tool fails with the command that installs
//! it. The tests run one at a time (they share the virtual environments and the machine's two cores).

use crate::common;

use common::{assert_analyze_accepts, assert_no_server_of_ours_left, describe, manifest, read_csv, SERIAL};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Fails (never skips) when a tool is not installed.
fn require(paths: &[(&str, &str)]) {
    for (path, install) in paths {
        assert!(Path::new(path).exists(), "{path} is not installed: install it with `{install}`");
    }
}

const NGINX: (&str, &str) = ("/usr/sbin/nginx", "apt-get install -y nginx-light");
const AB: (&str, &str) = ("/usr/bin/ab", "apt-get install -y apache2-utils");
const HEY: (&str, &str) = ("/usr/bin/hey", "apt-get install -y hey");
const UWSGI: (&str, &str) = ("/usr/bin/uwsgi", "apt-get install -y uwsgi uwsgi-plugin-python3");
const PYTHON: (&str, &str) = ("/usr/bin/python3", "apt-get install -y python3 python3-venv");

/// A committed plan with `edit` applied, written to `dir`.
fn smoke_plan(name: &str, dir: &Path, edit: impl FnOnce(&mut toml::Table)) -> PathBuf {
    let text = std::fs::read_to_string(manifest().join("plans").join(format!("{name}.toml"))).unwrap();
    let mut plan: toml::Table = text.parse().unwrap();
    plan.insert("repetitions".into(), 1.into());
    edit(&mut plan);
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, toml::to_string(&plan).unwrap()).unwrap();
    path
}

fn table<'a>(plan: &'a mut toml::Table, key: &str) -> &'a mut toml::Table {
    plan.get_mut(key).unwrap().as_table_mut().unwrap()
}

fn measure_cmd(plan: &Path, out: &Path) -> Command {
    let mut cmd = common::measure_cmd(plan, out);
    cmd.arg("--venvs").arg(manifest().join(".venvs")).arg("--analyze").arg(common::analyze_bin());
    cmd
}

fn rows_of<'a>(rows: &'a [HashMap<String, String>], run_id: &str) -> Vec<&'a HashMap<String, String>> {
    rows.iter().filter(|r| r["run_id"] == run_id).collect()
}

/// What every closed-loop run must leave: an ok row, CPU/RSS samples of its servers, their ports.
fn assert_runs_ok(dir: &Path, expected: usize) -> Vec<HashMap<String, String>> {
    let runs = read_csv(&dir.join("runs.csv"));
    assert_eq!(runs.len(), expected, "{runs:?}");
    assert!(runs.iter().all(|r| r["status"] == "ok"), "{runs:?}");
    let resources = read_csv(&dir.join("resources.csv"));
    let servers = read_csv(&dir.join("servers.csv"));
    for run in &runs {
        let id = &run["run_id"];
        let served: Vec<_> = rows_of(&servers, id);
        assert!(!served.is_empty(), "{id}: no server recorded");
        for s in served {
            assert!(rows_of(&resources, id).iter().any(|r| r["process"] == s["server"]), "{id}: {} not sampled", s["server"]);
        }
    }
    for s in &servers {
        let pid: i32 = s["pid"].parse().unwrap();
        // SAFETY: signal 0 only asks whether the process exists.
        let alive = unsafe { libc::kill(pid, 0) } == 0;
        assert!(!alive, "{} of {} (pid {pid}) is still running", s["server"], s["run_id"]);
    }
    assert_no_server_of_ours_left();
    runs
}

#[test]
fn app_servers_smoke_imports_every_ab_request_of_every_server_of_the_plan() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require(&[AB, UWSGI, PYTHON]);
    let tmp = tempfile::tempdir().unwrap();
    // Every server the committed plan defines (one and two processes), once each at concurrency 5.
    let mut every: Vec<String> = Vec::new();
    let plan = smoke_plan("app-servers-ab", tmp.path(), |p| {
        table(p, "load").insert("requests".into(), 200.into());
        table(p, "load").insert("run_timeout_s".into(), 60.into());
        every = p["servers"].as_table().unwrap().keys().cloned().collect();
        let mut block = toml::Table::new();
        block.insert("server".into(), toml::Value::Array(every.iter().map(|s| s.as_str().into()).collect()));
        block.insert("python".into(), toml::Value::Array(vec!["3.11".into()]));
        block.insert("concurrency".into(), toml::Value::Array(vec![5.into()]));
        p.insert("conditions".into(), toml::Value::Array(vec![block.into()]));
    });
    let out_dir = tmp.path().join("dataset");
    let started = Instant::now();
    let out = measure_cmd(&plan, &out_dir).output().unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    eprintln!("app-servers smoke: {:.1} s", started.elapsed().as_secs_f64());

    every.sort_unstable();
    assert_eq!(every, ["gunicorn-1x1", "gunicorn-2x1", "runserver", "uwsgi-1x1", "uwsgi-2x1"]);
    let runs = assert_runs_ok(&out_dir, every.len());
    let mut servers: Vec<&str> = runs.iter().map(|r| r["server"].as_str()).collect();
    servers.sort_unstable();
    assert_eq!(servers, every);
    let requests = read_csv(&out_dir.join("requests.csv"));
    let stats = read_csv(&out_dir.join("run_stats.csv"));
    for run in &runs {
        let id = &run["run_id"];
        assert_eq!(run["concurrency"], "5");
        let rows = rows_of(&requests, id);
        assert_eq!(rows.len(), 200, "{id}: every request of ab -n 200");
        assert!(rows.iter().all(|r| r["status"] == "200"), "{id}");
        let stat = rows_of(&stats, id);
        assert_eq!((stat.len(), stat[0]["tool"].as_str(), stat[0]["requests"].as_str(), stat[0]["errors"].as_str()), (1, "ab", "200", "0"));
        // The tool's own files stay with the dataset, as ab wrote them.
        let ab = std::fs::read_to_string(out_dir.join("raw").join(id).join("ab.txt")).unwrap();
        assert!(ab.contains("Complete requests:      200") && ab.contains("/users/"), "{id}: {ab}");
    }
    assert_analyze_accepts(&out_dir);
}

/// The plan's interpreters that exist here, at most `n` (each one is a virtual environment to build).
fn interpreters_here(n: usize) -> Vec<String> {
    let text = std::fs::read_to_string(manifest().join("plans/gthread-python-versions.toml")).unwrap();
    let plan: toml::Table = text.parse().unwrap();
    let home = PathBuf::from(std::env::var_os("HOME").unwrap());
    let mut here: Vec<String> = plan["interpreters"]
        .as_table()
        .unwrap()
        .iter()
        .filter(|(_, path)| {
            let path = path.as_str().unwrap();
            path.strip_prefix("~/").map_or_else(|| PathBuf::from(path), |rest| home.join(rest)).exists()
        })
        .map(|(label, _)| label.clone())
        .collect();
    // Debian's python3 first: it is on every machine of this kind.
    here.sort_by_key(|l| !l.ends_with("debian"));
    here.truncate(n);
    here
}

#[test]
fn gthread_smoke_runs_hey_on_each_interpreter_here_and_imports_its_rows() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require(&[HEY, PYTHON]);
    let pythons = interpreters_here(2);
    assert!(!pythons.is_empty(), "none of the plan's interpreters exists here");
    let tmp = tempfile::tempdir().unwrap();
    let labels = pythons.clone();
    let plan = smoke_plan("gthread-python-versions", tmp.path(), move |p| {
        table(p, "load").insert("duration_s".into(), 1.into());
        let block = p["conditions"].as_array_mut().unwrap()[0].as_table_mut().unwrap();
        block.insert("python".into(), toml::Value::Array(labels.into_iter().map(Into::into).collect()));
    });
    let out_dir = tmp.path().join("dataset");
    let out = measure_cmd(&plan, &out_dir).output().unwrap();
    assert!(out.status.success(), "{}", describe(&out));

    let runs = assert_runs_ok(&out_dir, pythons.len());
    let requests = read_csv(&out_dir.join("requests.csv"));
    for run in &runs {
        let rows = rows_of(&requests, &run["run_id"]);
        // One second of two clients against a 14-byte app: hundreds of requests even on a busy machine.
        assert!(rows.len() > 50, "{}: {} rows", run["run_id"], rows.len());
        assert!(rows.iter().all(|r| r["status"] == "200"));
    }
    let meta = std::fs::read_to_string(out_dir.join("dataset.toml")).unwrap();
    for label in &pythons {
        assert!(meta.contains(&format!("\"python_{label}\" = ")), "{label} missing from {meta}");
    }
    assert!(meta.contains("gunicorn = \"23.0.0\""), "{meta}");
    assert_analyze_accepts(&out_dir);
}

fn sessions_plan(dir: &Path, sessions: i64) -> PathBuf {
    smoke_plan("fastcgi-vs-gunicorn", dir, |p| {
        let load = table(p, "load");
        load.insert("ramp_s".into(), 1.into());
        load.insert("request_timeout_s".into(), 10.into());
        load.insert("run_timeout_s".into(), 40.into());
        let block = p["conditions"].as_array_mut().unwrap()[0].as_table_mut().unwrap();
        block.insert("concurrency".into(), toml::Value::Array(vec![sessions.into()]));
    })
}

#[test]
fn fastcgi_smoke_records_every_request_of_every_session_behind_nginx() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require(&[NGINX, PYTHON]);
    let tmp = tempfile::tempdir().unwrap();
    let plan = sessions_plan(tmp.path(), 20);
    let out_dir = tmp.path().join("dataset");
    let started = Instant::now();
    let out = measure_cmd(&plan, &out_dir).output().unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    eprintln!("fastcgi smoke: {:.1} s", started.elapsed().as_secs_f64());

    let runs = assert_runs_ok(&out_dir, 3);
    assert!(runs.iter().all(|r| r["note"].is_empty()), "every server stopped gracefully: {runs:?}");
    let servers = read_csv(&out_dir.join("servers.csv"));
    let sessions = read_csv(&out_dir.join("sessions.csv"));
    let requests = read_csv(&out_dir.join("requests.csv"));
    for run in &runs {
        let id = &run["run_id"];
        let kinds: Vec<&str> = rows_of(&servers, id).iter().map(|s| s["server"].as_str()).collect();
        let app = if run["server"] == "gunicorn-5" { "gunicorn" } else { "fastcgi" };
        assert_eq!(kinds, [app, "nginx"], "{id}");
        let s = rows_of(&sessions, id);
        assert_eq!(s.len(), 20, "{id}");
        let r = rows_of(&requests, id);
        let sent: usize = s.iter().map(|x| x["requests"].parse::<usize>().unwrap()).sum();
        assert_eq!(r.len(), sent, "{id}: every request a row");
        for session in &s {
            if session["failed_step"].is_empty() {
                assert_eq!(session["requests"], "3", "{id}: {session:?}");
                assert!(session["session_ms"].parse::<f64>().unwrap() > 0.0, "{id}: {session:?}");
            } else {
                assert!(session["session_ms"].is_empty(), "a failed session has no time: {session:?}");
            }
        }
        // 20 sessions over 1 s on a 2-core machine: most complete.
        assert!(s.iter().filter(|x| x["failed_step"].is_empty()).count() >= 15, "{id}: {s:?}");
    }
    assert_analyze_accepts(&out_dir);
}

#[test]
fn an_interrupted_closed_loop_study_resumes_into_the_same_dataset() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require(&[NGINX, PYTHON]);
    let tmp = tempfile::tempdir().unwrap();
    let plan = sessions_plan(tmp.path(), 10);
    let out_dir = tmp.path().join("dataset");
    let mut child = measure_cmd(&plan, &out_dir).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(180);
    while std::fs::read_to_string(out_dir.join("runs.csv")).map_or(0, |t| t.lines().count()) < 2 {
        assert!(Instant::now() < deadline, "the first run never finished");
        assert!(child.try_wait().unwrap().is_none(), "measure ended early");
        std::thread::sleep(Duration::from_millis(50));
    }
    // Into the second run's ramp (its servers start in about a second).
    std::thread::sleep(Duration::from_millis(1500));
    // SAFETY: kill has no memory-safety preconditions; the PID is our child's.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", describe(&out));
    let runs = read_csv(&out_dir.join("runs.csv"));
    assert_eq!(runs.len(), 2, "{runs:?}");
    assert_eq!((runs[0]["status"].as_str(), runs[1]["status"].as_str()), ("ok", "aborted"));
    assert_no_server_of_ours_left();

    // What a user adds to dataset.toml between the runs survives the resume, comment included.
    let meta_path = out_dir.join("dataset.toml");
    let condition = format!("server={},python={},sessions=10", runs[0]["server"], runs[0]["python"]);
    let published = format!(
        "\n# Typed in by hand while the study waited.\n[[published.tables]]\nid = \"p95\"\nmetric = \"p95\"\nunit = \"ms\"\n\
         values = [\n    {{ condition = \"{condition}\", value = 40 }},\n]\n"
    );
    std::fs::write(&meta_path, std::fs::read_to_string(&meta_path).unwrap() + &published).unwrap();

    let out = measure_cmd(&plan, &out_dir).arg("--resume").output().unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    let meta = std::fs::read_to_string(&meta_path).unwrap();
    assert!(meta.ends_with(&published) && meta.contains("resumed_on = "), "the user's [published] was dropped:\n{meta}");
    let runs = read_csv(&out_dir.join("runs.csv"));
    let summary: Vec<&str> = runs.iter().map(|r| r["status"].as_str()).collect();
    assert_eq!(summary, ["ok", "aborted", "ok", "ok"]);
    assert_eq!(runs[1]["server"], runs[2]["server"], "the aborted slot is run again first");
    let requests = read_csv(&out_dir.join("requests.csv"));
    assert!(requests.iter().all(|r| r["run_id"] != runs[1]["run_id"]), "no rows of the aborted run");
    assert_analyze_accepts(&out_dir);
}

#[test]
fn a_missing_interpreter_is_reported_before_any_run() {
    let tmp = tempfile::tempdir().unwrap();
    let plan = smoke_plan("gthread-python-versions", tmp.path(), |_| {});
    let out_dir = tmp.path().join("dataset");
    let out = measure_cmd(&plan, &out_dir).args(["--python", "3.14t=/nonexistent/bin/python3.14t"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("/nonexistent/bin/python3.14t") && stderr.contains("does not exist"), "{stderr}");
    assert!(!out_dir.join("runs.csv").exists());
}
