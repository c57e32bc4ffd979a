//! One closed-loop run: a fresh app server (and nginx in front when the plan says so) under the plan's load:
//! ab or hey, whose files are written straight into the dataset's `raw/<run_id>/` (importing them is the
//! study's next step), or measure's own sessions, whose requests and sessions are rows here.

use super::{as_root, join, CleanRun, Front, Verdict, Workload};
use crate::clock::RunClock;
use crate::dataset::rows;
use crate::dataset::{RunRecord, Table};
use crate::load::session::{spawn_sessions, SessionResult, SessionSpec};
use crate::load::tool::{self, ToolFiles, ToolProcess};
use crate::plan::closed::{ClosedLoop, Condition, ServerKind, Tool};
use crate::servers::appserver::{self, AppServerRun};
use crate::servers::nginx::{self, FrontRun, Upstream};
use crate::servers::python::PythonEnv;
use crate::servers::{free_port, loopback, ServerProcess};
use anyhow::{Context, Result};
use request_row::note_words::NoteKey;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// One condition of a closed-loop plan, with what it runs on.
pub(super) struct ClosedRun<'a> {
    pub plan: &'a ClosedLoop,
    /// Interpreter label → its ready virtual environment.
    pub pythons: &'a BTreeMap<String, PythonEnv>,
    pub condition: &'a Condition,
    /// Present when a server is behind nginx.
    pub nginx_bin: Option<&'a Path>,
    /// `measure/app/closed` (absolute).
    pub app_dir: &'a Path,
    /// Where a load tool writes its files.
    pub raw_dir: &'a Path,
}

/// The load of one run while it goes.
pub(super) enum Running {
    Tool(ToolProcess),
    Sessions(Vec<JoinHandle<Option<SessionResult>>>),
}

/// What the load left: the tool's files, or the sessions that were started.
pub(super) enum Ended {
    Tool(ToolFiles),
    Sessions(Vec<Option<SessionResult>>),
}

impl Workload for ClosedRun<'_> {
    type Load = Running;
    type Ended = Ended;

    fn start_servers(&self, run_id: &str, dir: &Path, servers: &mut Vec<ServerProcess>, record: &mut RunRecord) -> Result<Front> {
        let plan = self.plan;
        let condition = self.condition;
        let server = &plan.servers[&condition.server];
        let python = self.pythons.get(&condition.python).with_context(|| format!("no environment for python {}", condition.python))?;
        let app_port = free_port().context("no free port")?;
        let app_run = AppServerRun { server, env: python, app: plan.app, app_dir: self.app_dir, port: app_port, run_dir: dir };
        servers.push(appserver::start(&app_run, &plan.path)?);
        record.push(Table::Servers, rows::server_cells(run_id, server.kind.as_str(), app_port, servers[0].pid()));
        if !server.behind_nginx() {
            return Ok(Front { addr: loopback(app_port), temp: None });
        }
        let bin = self.nginx_bin.context("the plan needs nginx but the preflight found none")?;
        let nginx_port = free_port().context("no free port")?;
        let front = FrontRun {
            worker_processes: plan.nginx.worker_processes,
            listen_port: nginx_port,
            upstream_port: app_port,
            upstream: if server.kind == ServerKind::Fastcgi { Upstream::FastCgi } else { Upstream::Http },
            prefix: &dir.join("nginx"),
            as_root: as_root(),
        };
        let proxy = nginx::start_front(bin, &front, &plan.path)?;
        record.push(Table::Servers, rows::server_cells(run_id, "nginx", nginx_port, proxy.pid()));
        servers.push(proxy);
        Ok(Front { addr: loopback(nginx_port), temp: None })
    }

    /// flup's prefork master itself waits up to 10 s for its children before it kills them.
    fn grace(&self, server: &str) -> Duration {
        Duration::from_secs(if server == ServerKind::Fastcgi.as_str() { 15 } else { 10 })
    }

    fn bound(&self) -> (Duration, &'static str) {
        (self.plan.run_bound(), "the load did not finish within the run's time bound (load.run_timeout_s)")
    }

    fn sampling_interval(&self) -> Duration {
        Duration::from_millis(self.plan.sampling.interval_ms)
    }

    fn start_load(&self, addr: SocketAddr, _run_id: &str, _dir: &Path, clock: RunClock, cancel: &Arc<AtomicBool>) -> Result<Running> {
        let plan = self.plan;
        match plan.load.tool {
            Tool::Ab | Tool::Hey => {
                let raw = self.raw_dir;
                std::fs::create_dir_all(raw).with_context(|| format!("failed to create {}", raw.display()))?;
                let url = format!("http://{addr}{}", plan.path);
                let invocation = tool::command_line(plan.load.tool, &plan.load, self.condition.concurrency, &url, raw);
                Ok(Running::Tool(ToolProcess::start(invocation)?))
            }
            Tool::Sessions => {
                let spec = SessionSpec {
                    addr,
                    path: plan.path.clone(),
                    count: self.condition.concurrency,
                    ramp: Duration::from_secs(plan.load.ramp_s.unwrap_or(0)),
                    request_timeout: Duration::from_secs(plan.load.request_timeout_s),
                };
                Ok(Running::Sessions(spawn_sessions(&spec, clock, Arc::clone(cancel))?))
            }
        }
    }

    fn finished(running: &mut Running) -> Option<Option<String>> {
        match running {
            Running::Tool(process) => process
                .exit_status()
                .map(|status| (!status.success()).then(|| format!("the load tool failed ({status}): {}", process.output_tail()))),
            Running::Sessions(handles) => handles.iter().all(JoinHandle::is_finished).then_some(None),
        }
    }

    fn end_load(&self, running: Running, _run_id: &str, _clean: bool) -> Result<Ended> {
        match running {
            Running::Tool(mut process) => {
                process.kill();
                Ok(Ended::Tool(process.files.clone()))
            }
            Running::Sessions(handles) => Ok(Ended::Sessions(handles.into_iter().map(join).collect::<Result<_>>()?)),
        }
    }

    fn record(&self, ended: Ended, run: &CleanRun, record: &mut RunRecord, notes: &mut Vec<String>) -> Result<Verdict> {
        let sessions = match ended {
            Ended::Tool(files) => return Ok(Ok(Some(files))),
            Ended::Sessions(sessions) => sessions,
        };
        for session in sessions.into_iter().flatten() {
            for (step, request) in session.requests.iter().enumerate() {
                match rows::step_request_cells(run.run_id, request, crate::load::session::STEP_LABELS[step]) {
                    Ok(cells) => record.push(Table::StepRequests, cells),
                    Err(violation) => {
                        return Ok(Err(format!("request {} of session {} cannot be recorded: {violation}", request.seq, session.session)))
                    }
                }
            }
            record.push(Table::Sessions, rows::session_cells(run.run_id, &session));
        }
        if record.rows(Table::StepRequests).is_empty() {
            notes.push(super::note::message(NoteKey::MeasureNoSession, &[]));
        }
        Ok(Ok(None))
    }
}
