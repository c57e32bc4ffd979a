//! End to end: the `measure` binary runs the smoke plan against a real Gunicorn (directly) and a real nginx
//! on loopback; the tests read the written dataset themselves and then ask `analyze check` about it.
//!
//! Nothing is skipped: a missing nginx or Python fails the test with the command that installs it. The
//! tests run one at a time (they share the venv and the machine's two cores).

use crate::common;

use common::{assert_analyze_accepts, assert_no_server_of_ours_left, describe, manifest, read_csv, SERIAL};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const LARGE_BYTES: u64 = 1 << 20;
const PROBES: usize = 16;

/// Fails (never skips) when a server is not installed.
fn require_tools() {
    assert!(Path::new("/usr/sbin/nginx").exists(), "nginx is not installed: install it with `apt-get install -y nginx-light`");
    let python = Command::new("python3").arg("--version").output();
    assert!(
        python.is_ok_and(|o| o.status.success()),
        "python3 is not installed (measure creates its Gunicorn venv with it): `apt-get install -y python3 python3-venv`"
    );
}

/// The smoke plan with only the conditions whose route is in `routes`.
fn smoke_plan(routes: &[&str], dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(manifest().join("plans/smoke.toml")).unwrap();
    let mut plan: toml::Table = text.parse().unwrap();
    let blocks = plan["conditions"].as_array_mut().unwrap();
    for block in blocks.iter_mut() {
        let route = block.get_mut("route").unwrap().as_array_mut().unwrap();
        route.retain(|r| routes.contains(&r.as_str().unwrap()));
    }
    blocks.retain(|b| !b["route"].as_array().unwrap().is_empty());
    let path = dir.join("plan.toml");
    std::fs::write(&path, toml::to_string(&plan).unwrap()).unwrap();
    path
}

fn measure_cmd(plan: &Path, out: &Path) -> Command {
    let mut cmd = common::measure_cmd(plan, out);
    cmd.arg("--venv").arg(manifest().join(".venv"));
    cmd
}

/// Checks what every clean smoke dataset must hold; returns the runs.
fn assert_clean_dataset(dir: &Path, expected_runs: usize) -> Vec<HashMap<String, String>> {
    let runs = read_csv(&dir.join("runs.csv"));
    assert_eq!(runs.len(), expected_runs);
    let ok: Vec<_> = runs.iter().filter(|r| r["status"] == "ok").collect();
    let requests = read_csv(&dir.join("requests.csv"));
    let large = read_csv(&dir.join("large_responses.csv"));
    for run in &ok {
        let id = &run["run_id"];
        let probes: Vec<_> = requests.iter().filter(|r| &r["run_id"] == id).collect();
        assert_eq!(probes.len(), PROBES, "{id}");
        for p in &probes {
            assert_eq!(p["status"], "200", "{id}: {p:?}");
            assert_eq!(p["body_bytes"], "12", "{id}: {p:?}");
            let latency: f64 = p["latency_ms"].parse().unwrap_or_else(|_| panic!("{id}: no latency in {p:?}"));
            assert!(latency > 0.0 && latency < 10_000.0, "{id}: {p:?}");
            let (scheduled, sent): (f64, f64) = (p["scheduled_ms"].parse().unwrap(), p["sent_ms"].parse().unwrap());
            assert!(sent >= scheduled && sent - scheduled < 1000.0, "{id}: {p:?}");
        }
        let downloads: usize = run["downloads"].parse().unwrap();
        let got: Vec<_> = large.iter().filter(|r| &r["run_id"] == id).collect();
        assert_eq!(got.len(), downloads, "{id}");
        for d in got {
            assert_eq!(d["bytes_received"].parse::<u64>().unwrap(), LARGE_BYTES, "{id}: {d:?}");
            let complete: f64 = d["client_complete_s"].parse().unwrap();
            // 1 MiB at 512 KiB/s.
            assert!((1.95..6.0).contains(&complete), "{id}: {d:?}");
            let (start, end): (f64, f64) = (d["write_start_ms"].parse().unwrap(), d["write_end_ms"].parse().unwrap());
            assert!(start >= 0.0 && end >= start && end <= complete * 1e3 + 50.0, "{id}: {d:?}");
        }
    }
    let resources = read_csv(&dir.join("resources.csv"));
    for run in &ok {
        assert!(resources.iter().any(|r| r["run_id"] == run["run_id"] && r["process"] == "gunicorn"));
    }
    let meta = std::fs::read_to_string(dir.join("dataset.toml")).unwrap();
    assert!(meta.contains("large_response_bytes = 1048576"), "{meta}");
    assert!(dir.join("plan.toml").exists() && dir.join("README.md").exists());
    runs
}

#[test]
fn smoke_plan_direct_to_gunicorn_writes_a_clean_dataset() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require_tools();
    let tmp = tempfile::tempdir().unwrap();
    let plan = smoke_plan(&["direct"], tmp.path());
    let out_dir = tmp.path().join("dataset");
    let started = Instant::now();
    let out = measure_cmd(&plan, &out_dir).output().unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    eprintln!("direct smoke: {:.1} s", started.elapsed().as_secs_f64());

    let runs = assert_clean_dataset(&out_dir, 3);
    assert!(runs.iter().all(|r| r["status"] == "ok"), "{runs:?}");
    assert!(runs.iter().any(|r| r["worker"] == "gthread"));
    let ids: Vec<&str> = runs.iter().map(|r| r["run_id"].as_str()).collect();
    assert_eq!(ids, ["r01", "r02", "r03"]);
    let servers = read_csv(&out_dir.join("servers.csv"));
    assert!(servers.iter().all(|s| s["server"] == "gunicorn" && s["port"].parse::<u16>().unwrap() > 0));
    assert_analyze_accepts(&out_dir);
}

#[test]
fn smoke_plan_through_nginx_writes_a_clean_dataset() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require_tools();
    let tmp = tempfile::tempdir().unwrap();
    let plan = smoke_plan(&["nginx-off", "nginx-on"], tmp.path());
    let out_dir = tmp.path().join("dataset");
    let started = Instant::now();
    let out = measure_cmd(&plan, &out_dir).output().unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    eprintln!("nginx smoke: {:.1} s", started.elapsed().as_secs_f64());

    let runs = assert_clean_dataset(&out_dir, 4);
    assert!(runs.iter().all(|r| r["status"] == "ok"), "{runs:?}");
    let tempfiles = read_csv(&out_dir.join("tempfiles.csv"));
    let resources = read_csv(&out_dir.join("resources.csv"));
    for run in &runs {
        let id = &run["run_id"];
        let samples = tempfiles.iter().filter(|t| &t["run_id"] == id).count();
        // About 2.2 s of run at one sample per 200 ms.
        assert!(samples >= 8, "{id}: {samples} temp-file samples");
        let nginx_pids: std::collections::BTreeSet<&str> =
            resources.iter().filter(|r| &r["run_id"] == id && r["process"] == "nginx").map(|r| r["pid"].as_str()).collect();
        assert_eq!(nginx_pids.len(), 2, "{id}: nginx master and one worker");
    }
    assert_analyze_accepts(&out_dir);
}

#[test]
fn an_interrupted_study_resumes_into_the_same_dataset() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require_tools();
    let tmp = tempfile::tempdir().unwrap();
    let plan_text = std::fs::read_to_string(smoke_plan(&["direct"], tmp.path())).unwrap();
    // Two runs: direct with 0 and 2 downloads, sync workers.
    let mut plan: toml::Table = plan_text.parse().unwrap();
    plan["conditions"].as_array_mut().unwrap().truncate(1);
    let plan_path = tmp.path().join("two-runs.toml");
    std::fs::write(&plan_path, toml::to_string(&plan).unwrap()).unwrap();
    let out_dir = tmp.path().join("dataset");

    let mut child: Child = measure_cmd(&plan_path, &out_dir).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    // Wait for the first run to be saved, then interrupt the second one midway.
    let deadline = Instant::now() + Duration::from_secs(120);
    while std::fs::read_to_string(out_dir.join("runs.csv")).map_or(0, |t| t.lines().count()) < 2 {
        assert!(Instant::now() < deadline, "the first run never finished");
        assert!(child.try_wait().unwrap().is_none(), "measure ended early");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(1200));
    // SAFETY: kill has no memory-safety preconditions; the PID is our child's.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--resume"), "{}", describe(&out));

    let runs = read_csv(&out_dir.join("runs.csv"));
    assert_eq!(runs.len(), 2, "{runs:?}");
    assert_eq!((runs[0]["status"].as_str(), runs[1]["status"].as_str()), ("ok", "aborted"));
    assert!(runs[1]["note"].contains("interrupted"), "{runs:?}");
    // No server of the aborted run is left behind.
    assert_no_server_of_ours_left();

    // What a user adds to dataset.toml between the runs survives the resume, comment included.
    let meta_path = out_dir.join("dataset.toml");
    let published = "\n# Typed in by hand while the study waited.\n[published]\noriginal = { title = \"元の記事\" }\n\
                     [[published.tables]]\nid = \"p95\"\nmetric = \"p95\"\nunit = \"ms\"\n\
                     values = [\n    { condition = \"route=direct,downloads=0,worker=sync\", value = 1.57 },\n]\n";
    std::fs::write(&meta_path, std::fs::read_to_string(&meta_path).unwrap() + published).unwrap();

    let out = measure_cmd(&plan_path, &out_dir).arg("--resume").output().unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    let meta = std::fs::read_to_string(&meta_path).unwrap();
    assert!(meta.ends_with(published), "the user's [published] was dropped:\n{meta}");
    let runs = assert_clean_dataset(&out_dir, 3);
    let summary: Vec<(&str, &str)> = runs.iter().map(|r| (r["run_id"].as_str(), r["status"].as_str())).collect();
    assert_eq!(summary, [("r01", "ok"), ("r02", "aborted"), ("r03", "ok")]);
    assert_eq!((&runs[1]["downloads"], &runs[1]["repetition"]), (&runs[2]["downloads"], &runs[2]["repetition"]));
    let requests = read_csv(&out_dir.join("requests.csv"));
    assert!(requests.iter().all(|r| r["run_id"] != "r02"), "no rows of the aborted run");
    assert!(std::fs::read_to_string(out_dir.join("dataset.toml")).unwrap().contains("resumed_on"));
    assert_analyze_accepts(&out_dir);
}

#[test]
fn a_missing_nginx_is_reported_before_any_run() {
    let tmp = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(manifest().join("plans/smoke.toml")).unwrap();
    let plan = tmp.path().join("plan.toml");
    std::fs::write(&plan, text.replace("/usr/sbin/nginx", "/nonexistent/sbin/nginx")).unwrap();
    let out_dir = tmp.path().join("dataset");
    let out = measure_cmd(&plan, &out_dir).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("apt-get install -y nginx-light"), "{}", describe(&out));
    assert!(!out_dir.join("runs.csv").exists());
}
