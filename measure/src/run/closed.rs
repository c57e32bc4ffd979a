//! One closed-loop run: a fresh app server (and nginx in front when the plan says so), the load (ab, hey
//! or measure's sessions) and the CPU/RSS sampler on one time line, everything stopped by PID afterwards.
//!
//! The harness watches for Ctrl-C, a server that exits, a tool that fails and the plan's time bound; a run
//! that cannot finish cleanly is `aborted` with a note and its rows are not kept. The tools' files are
//! written straight into the dataset's `raw/<run_id>/`; importing them is the study's next step.

use super::{join, one_line, watch};
use crate::clock::RunClock;
use crate::dataset::rows;
use crate::load::session::{spawn_sessions, SessionResult, SessionSpec};
use crate::load::tool::{self, ToolFiles, ToolProcess};
use crate::plan::closed::{ClosedPlan, Condition, Tool};
use crate::sample::{spawn_sampler, Group, SamplerConfig};
use crate::servers::appserver::{self, AppServerRun};
use crate::servers::nginx::{self, FrontRun, Upstream};
use crate::servers::python::PythonEnv;
use crate::servers::{free_port, loopback, ServerProcess};
use crate::study::closed_data::{session_cells, ClosedRecord};
use anyhow::{Context, Result};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// What every run of a closed-loop study shares.
#[derive(Debug, Clone, Copy)]
pub struct ClosedEnv<'a> {
    pub plan: &'a ClosedPlan,
    /// Interpreter label → its ready virtual environment.
    pub pythons: &'a BTreeMap<String, PythonEnv>,
    /// Present when a server is behind nginx.
    pub nginx_bin: Option<&'a Path>,
    /// `measure/app/closed` (absolute).
    pub app_dir: &'a Path,
    pub interrupted: &'a AtomicBool,
}

/// The outcome of one run.
#[derive(Debug)]
pub struct ClosedRunResult {
    pub status: rows::RunStatus,
    pub note: String,
    pub record: ClosedRecord,
    /// The tool's files to import (ab, hey), present for an `ok` run.
    pub tool_files: Option<ToolFiles>,
}

/// How long a server may take to stop gracefully; flup's prefork master itself waits up to 10 s for its
/// children before it kills them.
fn grace(name: &str) -> Duration {
    Duration::from_secs(if name == "fastcgi" { 15 } else { 10 })
}

/// Runs `condition` under `run_id`; the tool writes its files into `raw_dir`.
pub fn execute(env: &ClosedEnv, run_id: &str, condition: &Condition, raw_dir: &Path) -> ClosedRunResult {
    let mut servers: Vec<ServerProcess> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let outcome = measure(env, run_id, condition, raw_dir, &mut servers, &mut notes);
    // Reverse start order: nginx before the app server behind it.
    let mut stop_failed = None;
    while let Some(mut server) = servers.pop() {
        match server.stop(grace(server.name)) {
            Ok(true) => {}
            Ok(false) => notes.push(format!("{} needed SIGKILL to stop", server.name)),
            Err(e) => stop_failed = Some(format!("{e:#}")),
        }
    }
    let aborted = |why: String, mut notes: Vec<String>| {
        notes.insert(0, why);
        ClosedRunResult {
            status: rows::RunStatus::Aborted,
            note: one_line(&notes.join("; ")),
            record: ClosedRecord::default(),
            tool_files: None,
        }
    };
    match (outcome, stop_failed) {
        (Ok(Ok((record, tool_files))), None) => {
            ClosedRunResult { status: rows::RunStatus::Ok, note: one_line(&notes.join("; ")), record, tool_files }
        }
        (Ok(Ok(_)), Some(why)) => aborted(why, notes),
        (Ok(Err(why)), _) => aborted(why, notes),
        (Err(e), _) => aborted(format!("{e:#}"), notes),
    }
}

/// The load of one run while it goes.
enum Running {
    Tool(ToolProcess),
    Sessions(Vec<JoinHandle<Option<SessionResult>>>),
}

type Measured = std::result::Result<(ClosedRecord, Option<ToolFiles>), String>;

fn measure(
    env: &ClosedEnv,
    run_id: &str,
    condition: &Condition,
    raw_dir: &Path,
    servers: &mut Vec<ServerProcess>,
    notes: &mut Vec<String>,
) -> Result<Measured> {
    let plan = env.plan;
    let server = &plan.servers[&condition.server];
    let python = env.pythons.get(&condition.python).with_context(|| format!("no environment for python {}", condition.python))?;
    let run_dir = tempfile::Builder::new().prefix("measure-run-").tempdir().context("failed to create the run folder")?;
    let dir = run_dir.path().canonicalize()?;
    let mut record = ClosedRecord::default();

    let app_port = free_port().context("no free port")?;
    let app_run = AppServerRun { server, env: python, app: plan.app, app_dir: env.app_dir, port: app_port, run_dir: &dir };
    servers.push(appserver::start(&app_run, &plan.path)?);
    record.servers.push(rows::server_cells(run_id, server.kind.as_str(), app_port, servers[0].pid()));
    let mut port = app_port;
    if server.behind_nginx() {
        let bin = env.nginx_bin.context("the plan needs nginx but the preflight found none")?;
        let nginx_port = free_port().context("no free port")?;
        let front = FrontRun {
            worker_processes: plan.nginx.worker_processes,
            listen_port: nginx_port,
            upstream_port: app_port,
            upstream: if server.kind.as_str() == "fastcgi" { Upstream::FastCgi } else { Upstream::Http },
            prefix: &dir.join("nginx"),
            // SAFETY: geteuid has no preconditions.
            as_root: unsafe { libc::geteuid() } == 0,
        };
        let proxy = nginx::start_front(bin, &front, &plan.path)?;
        record.servers.push(rows::server_cells(run_id, "nginx", nginx_port, proxy.pid()));
        servers.push(proxy);
        port = nginx_port;
    }
    let addr = loopback(port);
    let groups = servers.iter().map(|s| Group { name: s.name, master_pid: s.pid() }).collect();

    // t = 0 of the run.
    let clock = RunClock::start();
    let cancel = Arc::new(AtomicBool::new(false));
    let stop_sampling = Arc::new(AtomicBool::new(false));
    let _guard = super::StopOnDrop(vec![Arc::clone(&cancel), Arc::clone(&stop_sampling)]);
    let bound = plan.run_bound();
    let sampler_config = SamplerConfig {
        groups,
        temp: None,
        interval: Duration::from_millis(plan.sampling.interval_ms),
        max_duration: bound + Duration::from_secs(5),
    };
    let sampler = spawn_sampler(sampler_config, clock, Arc::clone(&stop_sampling))?;
    let mut running = match plan.load.tool {
        Tool::Ab | Tool::Hey => {
            let url = format!("http://{addr}{}", plan.path);
            let (program, args, files) = tool::command_line(plan.load.tool, &plan.load, condition.concurrency, &url, raw_dir);
            Running::Tool(ToolProcess::spawn(&program, &args, files)?)
        }
        Tool::Sessions => {
            let spec = SessionSpec {
                addr,
                path: plan.path.clone(),
                count: condition.concurrency,
                ramp: Duration::from_secs(plan.load.ramp_s.unwrap_or(0)),
                request_timeout: Duration::from_secs(plan.load.request_timeout_s),
            };
            Running::Sessions(spawn_sessions(&spec, clock, Arc::clone(&cancel))?)
        }
    };

    let overdue = "the load did not finish within the run's time bound (load.run_timeout_s)";
    let abort = watch(env.interrupted, servers, clock.origin() + bound, overdue, || load_finished(&mut running));
    if abort.is_some() {
        cancel.store(true, Ordering::Relaxed);
    }
    let outcome = match running {
        Running::Tool(mut process) => {
            process.kill();
            Some(process.files.clone())
        }
        Running::Sessions(handles) => {
            let sessions = handles.into_iter().map(join).collect::<Result<Vec<_>>>()?;
            if abort.is_none() {
                for session in sessions.into_iter().flatten() {
                    for request in &session.requests {
                        match rows::request_cells(run_id, request) {
                            Ok(cells) => record.requests.push(cells),
                            Err(violation) => {
                                let why = format!("request {} of session {} cannot be recorded: {violation}", request.seq, session.session);
                                stop_sampling.store(true, Ordering::Relaxed);
                                join(sampler)?;
                                return Ok(Err(why));
                            }
                        }
                    }
                    record.sessions.push(session_cells(run_id, &session));
                }
            }
            None
        }
    };
    stop_sampling.store(true, Ordering::Relaxed);
    let samples = join(sampler)?;
    if let Some(why) = abort {
        return Ok(Err(why));
    }
    for r in &samples.resources {
        record.resources.push(rows::resource_cells(run_id, r));
    }
    if record.requests.is_empty() && outcome.is_none() {
        notes.push("no session was started".into());
    }
    Ok(Ok((record, outcome)))
}

/// Whether the load has finished: `Some(None)` when it has, `Some(Some(why))` when the tool failed.
fn load_finished(running: &mut Running) -> Option<Option<String>> {
    match running {
        Running::Tool(process) => process
            .exit_status()
            .map(|status| (!status.success()).then(|| format!("the load tool failed ({status}): {}", process.output_tail()))),
        Running::Sessions(handles) => handles.iter().all(JoinHandle::is_finished).then_some(None),
    }
}
