//! Every file measure writes into a dataset, byte for byte, for each kind of plan: fixed rows and a fixed
//! environment are saved (as after the start-up, after runs, and after a resume that adds nothing), and the
//! folder must hold exactly the files in `testdata/written/<case>/`, with exactly their bytes. Those files
//! were written by measure before the open-loop and the closed-loop studies shared one driver, so a
//! restructuring that changes a byte of any dataset fails here.

use super::manifest::{fixture_environment, Environment};
use super::rows::{self, RunRow, RunStatus};
use super::{Dataset, RunRecord, Table};
use crate::load::download::DownloadResult;
use crate::load::probe::ProbeResult;
use crate::load::session::SessionResult;
use crate::plan::Plan;
use crate::sample::{ResourceSample, TempSample};
use std::path::{Path, PathBuf};

/// A committed plan as it was written before rounds (without `order`): these bytes and orders were
/// written for the whole-study shuffle, which a plan without `order` keeps.
fn before_rounds(text: &str) -> String {
    let text = text.replace("order = \"rounds\"\n", "");
    assert!(!text.contains("order ="), "{text}");
    text
}

fn written(case: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/dataset/testdata/written").join(case)
}

/// The names of the files below `dir`, sorted, and the bytes of each.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut names: Vec<String> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names.into_iter().map(|n| (n.clone(), std::fs::read(dir.join(&n)).unwrap())).collect()
}

/// `dir` holds exactly the committed files of `case`; a mismatch keeps `dir` for a look and names it.
fn assert_written_as_committed(dir: tempfile::TempDir, case: &str) {
    let (actual, expected) = (files(dir.path()), files(&written(case)));
    let names = |f: &[(String, Vec<u8>)]| f.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    let same = actual == expected;
    let kept = if same { PathBuf::new() } else { dir.keep() };
    assert_eq!(names(&actual), names(&expected), "{case}: the files written (kept in {})", kept.display());
    for ((name, bytes), (_, want)) in actual.iter().zip(&expected) {
        assert!(
            bytes == want,
            "{case}/{name} differs from the committed bytes (written in {}):\n--- written\n{}\n--- committed\n{}",
            kept.display(),
            String::from_utf8_lossy(bytes),
            String::from_utf8_lossy(want)
        );
    }
}

/// The fixture environment and the keys the READMEs print.
fn environment() -> Environment {
    let mut env = fixture_environment();
    for (k, v) in [("measured_on", "2026-11-30"), ("nginx", "nginx/1.22.1"), ("so_rcvbuf_reported", "16384"), ("resumed_on", "2026-12-01")]
    {
        env.insert(k.into(), v.into());
    }
    env
}

fn probe(seq: u32, latency_ms: Option<f64>, status: u16) -> ProbeResult {
    let scheduled_ms = 250.0 + 125.0 * f64::from(seq);
    ProbeResult { seq, scheduled_ms, sent_ms: scheduled_ms + 0.123_456, latency_ms, status, body_bytes: if status == 200 { 12 } else { 0 } }
}

fn resource(t_ms: f64, process: &'static str, pid: u32) -> ResourceSample {
    ResourceSample { t_ms, process: process.to_string(), pid, cpu_s: t_ms / 7e3, rss_bytes: 20_000_000 + u64::from(pid) }
}

fn open_record(id: &str) -> RunRecord {
    let mut r = RunRecord::default();
    for p in [probe(0, Some(1.234_5), 200), probe(1, None, 0), probe(2, Some(812.0), 200)] {
        r.push(Table::Requests, rows::request_cells(id, &p).unwrap());
    }
    let download = |n: u32, complete: Option<f64>, bytes: u64| DownloadResult {
        download_id: format!("d{n}"),
        client_complete_s: complete,
        bytes_received: bytes,
        status: 200,
        rcvbuf_reported: Some(16384),
        error: None,
    };
    let write = rows::ServerWrite { start_ms: 3.5, end_ms: 1998.25 };
    r.push(Table::Large, rows::large_cells(id, &download(1, Some(2.012_345_67), 1 << 20), Some(write)));
    r.push(Table::Large, rows::large_cells(id, &download(2, None, 4096), None));
    for (t, files) in [(0.0, 0), (200.0, 1), (400.0, 2)] {
        let sample = TempSample { t_ms: t, files, logical_bytes: files * 65_536 };
        r.push(Table::Tempfiles, rows::tempfile_cells(id, &sample));
    }
    for s in [resource(0.0, "gunicorn", 4001), resource(200.0, "gunicorn", 4002), resource(200.0, "nginx", 4100)] {
        r.push(Table::Resources, rows::resource_cells(id, &s));
    }
    r.push(Table::Servers, rows::server_cells(id, "gunicorn", 41_000, 4001));
    r.push(Table::Servers, rows::server_cells(id, "nginx", 41_001, 4100));
    r
}

fn open_plan() -> Plan {
    Plan::parse(&before_rounds(include_str!("../../plans/smoke.toml"))).unwrap()
}

fn run_row(plan: &Plan, i: usize, id: &str, status: RunStatus, note: &str) -> RunRow {
    RunRow {
        run_id: id.into(),
        slot: plan.run_order()[i].clone(),
        started_at_utc: format!("2026-11-30T15:0{i}:00Z"),
        status,
        note: note.into(),
        load1_before: Some(0.25 * i as f64),
        load1_after: (i != 1).then_some(1.5),
        recipe: "5f2c0e1a9b3d".into(),
        round: None,
        contention: Default::default(),
    }
}

#[test]
fn an_open_loop_dataset_is_written_byte_for_byte_as_before() {
    let plan = open_plan();
    let env = environment();
    let dir = tempfile::tempdir().unwrap();
    Dataset::default().save(dir.path(), &plan, &env).unwrap();
    assert_written_as_committed(dir, "open-start");

    let dir = tempfile::tempdir().unwrap();
    let mut dataset = Dataset::default();
    dataset.add(run_row(&plan, 0, "r01", RunStatus::Ok, ""), open_record("r01"));
    let note = "interrupted (SIGINT/SIGTERM); gunicorn needed SIGKILL to stop, \"twice\"";
    dataset.add(run_row(&plan, 1, "r02", RunStatus::Aborted, note), open_record("r02"));
    dataset.add(run_row(&plan, 1, "r03", RunStatus::Ok, "d2: 4096 of 1048576 bytes (closed early)"), open_record("r03"));
    dataset.save(dir.path(), &plan, &env).unwrap();
    // A resume that adds nothing leaves every byte.
    Dataset::load(dir.path(), &plan).unwrap().save(dir.path(), &plan, &env).unwrap();
    assert_written_as_committed(dir, "open-runs");
}

/// A closed-loop run's row, at other times and loads than [`run_row`]'s.
fn closed_run(plan: &Plan, i: usize, id: &str, status: RunStatus, note: &str) -> RunRow {
    RunRow {
        started_at_utc: format!("2026-11-30T16:0{i}:00Z"),
        load1_before: Some(0.5),
        load1_after: (i != 1).then_some(0.75),
        ..run_row(plan, i, id, status, note)
    }
}

fn session(n: u32, failed: bool) -> SessionResult {
    let at = 50.0 * f64::from(n);
    SessionResult {
        session: n,
        scheduled_ms: at,
        requests: vec![
            probe(n * 3, Some(10.5), 200),
            probe(n * 3 + 1, if failed { None } else { Some(31.25) }, if failed { 0 } else { 200 }),
        ],
        failure: failed.then(|| (1, "no response, \"timed out\"".to_string())),
    }
}

fn closed_record(id: &str, sessions: bool) -> RunRecord {
    let mut r = RunRecord::default();
    if sessions {
        for s in [session(0, false), session(1, true)] {
            for (step, p) in s.requests.iter().enumerate() {
                r.push(Table::StepRequests, rows::step_request_cells(id, p, crate::load::session::STEP_LABELS[step]).unwrap());
            }
            r.push(Table::Sessions, rows::session_cells(id, &s));
        }
    }
    for s in [resource(0.0, "fastcgi", 5001), resource(200.0, "nginx", 5100)] {
        r.push(Table::Resources, rows::resource_cells(id, &s));
    }
    r.push(Table::Servers, rows::server_cells(id, "fastcgi", 42_000, 5001));
    r.push(Table::Servers, rows::server_cells(id, "nginx", 42_001, 5100));
    r
}

fn closed_case(text: &str, sessions: bool, start: &str, runs: &str) {
    let plan = Plan::parse(&before_rounds(text)).unwrap();
    let env = environment();
    let dir = tempfile::tempdir().unwrap();
    Dataset::default().save(dir.path(), &plan, &env).unwrap();
    assert_written_as_committed(dir, start);

    let dir = tempfile::tempdir().unwrap();
    let mut dataset = Dataset::default();
    dataset.add(closed_run(&plan, 0, "r01", RunStatus::Ok, "ab: 3 non-2xx responses, statuses unknown"), closed_record("r01", sessions));
    dataset.add(closed_run(&plan, 1, "r02", RunStatus::Aborted, "the load did not finish; \"really\""), closed_record("r02", sessions));
    dataset.add(closed_run(&plan, 1, "r03", RunStatus::Ok, ""), closed_record("r03", sessions));
    dataset.save(dir.path(), &plan, &env).unwrap();
    Dataset::load(dir.path(), &plan).unwrap().save(dir.path(), &plan, &env).unwrap();
    assert_written_as_committed(dir, runs);
}

#[test]
fn a_closed_loop_dataset_of_sessions_is_written_byte_for_byte_as_before() {
    closed_case(include_str!("../../plans/fastcgi-vs-gunicorn.toml"), true, "sessions-start", "sessions-runs");
}

#[test]
fn a_closed_loop_dataset_of_a_tool_is_written_byte_for_byte_as_before() {
    closed_case(include_str!("../../plans/app-servers-ab.toml"), false, "ab-start", "ab-runs");
}

/// The plan.toml kept for a run with `--python`: the plan as run, rendered by the TOML crate.
#[test]
fn the_plan_kept_for_a_python_override_is_written_byte_for_byte_as_before() {
    use clap::Parser;
    let argv = [
        "measure",
        "run",
        "--plan",
        "plans/gthread-python-versions.toml",
        "--python",
        "3.14t=/opt/py/bin/python3.14t",
        "--python",
        "3.11-debian=/usr/bin/python3",
    ];
    let crate::cli::Command::Run(args) = crate::cli::Cli::try_parse_from(argv).unwrap().command else { panic!("run") };
    let plan = Plan::parse(include_str!("../../plans/gthread-python-versions.toml")).unwrap();
    let Plan::Closed(plan) = plan else { panic!("a closed-loop plan") };
    let path = args.plan.as_deref().unwrap();
    let (_, kept) = crate::study::closed::with_pythons(plan, &args.pythons, path).unwrap();
    let committed = std::fs::read_to_string(written("python-override").join("plan.toml")).unwrap();
    assert_eq!(kept, committed);
}

/// The seeded, shuffled order of every committed plan's runs as written before rounds (a kept plan.toml
/// without `order` goes on in it), as runs.csv names their slots, one a line.
#[test]
fn every_plans_run_order_is_as_before() {
    let order = |plan: Plan| plan.run_order().iter().map(|slot| rows::slot_cells(slot).join(",") + "\n").collect::<String>();
    for (name, text) in [
        ("study", include_str!("../../plans/study.toml")),
        ("smoke", include_str!("../../plans/smoke.toml")),
        ("app-servers-ab", include_str!("../../plans/app-servers-ab.toml")),
        ("gthread-python-versions", include_str!("../../plans/gthread-python-versions.toml")),
        ("fastcgi-vs-gunicorn", include_str!("../../plans/fastcgi-vs-gunicorn.toml")),
    ] {
        let lines = order(Plan::parse(&before_rounds(text)).unwrap());
        let path = written("run-order").join(format!("{name}.txt"));
        assert_eq!(lines, std::fs::read_to_string(&path).unwrap(), "{name}");
    }
}
