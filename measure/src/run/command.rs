//! One run of a command plan: the condition's server, started fresh from its command line on a free port,
//! under the plan's load: a tool whose files are written straight into the dataset's `raw/<run_id>/`
//! (importing them is the study's next step), or measure's own open-loop client, whose requests are rows
//! here. The server's stdout and stderr are kept in the same folder.

use super::{note, CleanRun, Front, ToolUse, Verdict, Workload};
use crate::clock::RunClock;
use crate::cpus::{CpuSet, Pinning};
use crate::dataset::rows;
use crate::dataset::{RunRecord, Table};
use crate::load::probe::{spawn_probes, ProbeResult, Probes};
use crate::load::tool::{self, ToolFiles, ToolProcess};
use crate::plan::command::{CommandPlan, Condition, LoadTool, RunLoad};
use crate::plan::open::Probe;
use crate::servers::command::{self as server, CommandServerRun};
use crate::servers::{free_port, loopback, ServerProcess};
use anyhow::{Context, Result};
use request_row::note_words::NoteKey;
use std::net::SocketAddr;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use std::time::Instant;

/// What the preflight made ready for every run of a command plan.
#[derive(Debug, Clone)]
pub struct Installed {
    /// The load tool's program (absent for measure's own open-loop client).
    pub tool: Option<PathBuf>,
    /// The folder measure runs in: relative programs and working directories start here.
    pub base_dir: PathBuf,
    /// Where the server and the tool run, when the plan pins them (`load.pin`, 2 or more CPUs).
    pub pinning: Option<Pinning>,
}

/// One condition of a command plan, with what it runs on.
pub(super) struct CommandRun<'a> {
    pub plan: &'a CommandPlan,
    pub installed: &'a Installed,
    pub condition: &'a Condition,
    /// The dataset's `raw/<run_id>/`: the server's output and the tool's files.
    pub raw_dir: &'a Path,
}

/// The load while it runs.
pub(super) enum Running {
    Tool(ToolProcess),
    OpenLoop(Probes),
}

/// What the load left.
pub(super) enum Ended {
    /// The tool's files, and what it used of its CPUs when it ended by itself.
    Tool(ToolFiles, Option<ToolUse>),
    OpenLoop(Vec<ProbeResult>),
}

impl CommandRun<'_> {
    /// The CPUs the load tool runs on, when pinned.
    fn load_set(&self) -> Option<CpuSet> {
        self.installed.pinning.as_ref().map(|p| p.load.clone())
    }

    /// How many CPUs the tool may use (wrk's default threads).
    fn tool_cpus(&self) -> usize {
        self.installed.pinning.as_ref().map_or_else(crate::host::cpus, |p| p.load.len())
    }

    fn load(&self) -> Result<RunLoad> {
        self.plan.load_of(self.condition).map_err(|p| anyhow::anyhow!("{p} (the plan's check should have refused it: a bug in measure)"))
    }
}

/// measure's open-loop client for `load`: requests at its rate from t = 0, each bounded by its timeout.
pub fn open_loop_probe(load: &RunLoad) -> Probe {
    Probe {
        start_ms: 0,
        rate_per_s: load.rate.unwrap_or(1),
        count: load.asked_requests().unwrap_or(0).try_into().unwrap_or(u32::MAX),
        timeout_s: load.request_timeout_s,
    }
}

impl Workload for CommandRun<'_> {
    type Load = Running;
    type Ended = Ended;

    fn start_servers(&self, run_id: &str, dir: &Path, servers: &mut Vec<ServerProcess>, record: &mut RunRecord) -> Result<Front> {
        let (name, settings) =
            self.plan.server_of(self.condition).context("the condition names no server of the plan (a bug in measure)")?;
        // The run's folder is the server's to read: an nginx master running as root serves it from workers
        // running as `nobody`.
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755))
            .with_context(|| format!("failed to open up {}", dir.display()))?;
        let port = free_port().context("no free port")?;
        let run = CommandServerRun {
            name,
            server: settings,
            condition: self.condition,
            port,
            run_id,
            run_dir: dir,
            raw_dir: self.raw_dir,
            base_dir: &self.installed.base_dir,
            cpus: self.installed.pinning.as_ref().map(|p| &p.server),
        };
        servers.push(server::start(&run)?);
        record.push(Table::Servers, rows::server_cells(run_id, name, port, servers[0].pid()));
        Ok(Front { addr: loopback(port), temp: None })
    }

    fn grace(&self, server: &str) -> Duration {
        Duration::from_secs(self.plan.servers.get(server).map_or(10, |s| s.stop_grace_s))
    }

    fn bound(&self) -> (Duration, &'static str) {
        (self.plan.run_bound(), "the load did not finish within the run's time bound (load.run_timeout_s)")
    }

    fn sampling_interval(&self) -> Duration {
        Duration::from_millis(self.plan.sampling.interval_ms)
    }

    fn start_load(&self, addr: SocketAddr, _run_id: &str, _dir: &Path, clock: RunClock, cancel: &Arc<AtomicBool>) -> Result<Running> {
        let load = self.load()?;
        if load.tool == LoadTool::OpenLoop {
            return Ok(Running::OpenLoop(spawn_probes(
                addr,
                &load.path,
                &open_loop_probe(&load),
                load.connection,
                clock,
                Arc::clone(cancel),
            )?));
        }
        let program = self.installed.tool.as_deref().context("the plan's tool was not found by the preflight (a bug in measure)")?;
        let url = format!("http://{addr}{}", load.path);
        let invocation =
            tool::invocation(&load, program, &url, self.raw_dir, self.tool_cpus()).context("no invocation of the plan's tool")?;
        Ok(Running::Tool(ToolProcess::start_on(invocation, self.load_set())?))
    }

    fn warm_up(&self, addr: SocketAddr, dir: &Path, interrupted: &AtomicBool) -> Result<Option<String>> {
        let load = self.load()?;
        let Some(warm) = self.plan.load.warmup_of(&load).map_err(|p| anyhow::anyhow!("{p} (a bug in measure)"))? else {
            return Ok(None);
        };
        let program = self.installed.tool.as_deref().context("the plan's tool was not found by the preflight (a bug in measure)")?;
        let folder = dir.join("warmup");
        std::fs::create_dir_all(&folder).with_context(|| format!("failed to create {}", folder.display()))?;
        let url = format!("http://{addr}{}", warm.path);
        let invocation = tool::invocation(&warm, program, &url, &folder, self.tool_cpus()).context("no invocation of the warm-up")?;
        let mut process = ToolProcess::start_on(invocation, self.load_set())?;
        let deadline = Instant::now() + self.plan.run_bound();
        let status = loop {
            if let Some(status) = process.exit_status() {
                break status;
            }
            if interrupted.load(Ordering::Relaxed) {
                anyhow::bail!("interrupted (SIGINT/SIGTERM) during the warm-up");
            }
            if Instant::now() > deadline {
                anyhow::bail!("the warm-up did not finish within load.run_timeout_s");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        if !status.success() {
            anyhow::bail!("the warm-up's load tool failed ({status}): {}", process.output_tail());
        }
        let what = match (warm.duration_s, warm.requests) {
            (Some(s), _) => format!("{s} s"),
            (None, Some(n)) => format!("{n} requests"),
            (None, None) => String::new(),
        };
        Ok(Some(note::message(NoteKey::MeasureWarmup, &[("what", &what)])))
    }

    fn tool_cpu(ended: &Ended) -> Option<ToolUse> {
        match ended {
            Ended::Tool(_, cpu) => cpu.clone(),
            Ended::OpenLoop(_) => None,
        }
    }

    fn finished(running: &mut Running) -> Option<Option<String>> {
        match running {
            Running::Tool(process) => process
                .exit_status()
                .map(|status| (!status.success()).then(|| format!("the load tool failed ({status}): {}", process.output_tail()))),
            Running::OpenLoop(probes) => probes.is_finished().then_some(None),
        }
    }

    fn end_load(&self, running: Running, _run_id: &str, _clean: bool) -> Result<Ended> {
        match running {
            Running::Tool(mut process) => {
                let cpu = process.cpu();
                process.kill();
                let set = self.load_set().map_or_else(|| "all".to_string(), |s| s.to_string());
                Ok(Ended::Tool(process.files.clone(), cpu.map(|c| (self.plan.load.tool.as_str(), c, set))))
            }
            Running::OpenLoop(probes) => Ok(Ended::OpenLoop(probes.join()?)),
        }
    }

    fn record(&self, ended: Ended, run: &CleanRun, record: &mut RunRecord, _notes: &mut Vec<String>) -> Result<Verdict> {
        let probes = match ended {
            Ended::Tool(files, _) => return Ok(Ok(Some(files))),
            Ended::OpenLoop(probes) => probes,
        };
        for p in &probes {
            match rows::request_cells(run.run_id, p) {
                Ok(cells) => record.push(Table::Requests, cells),
                Err(violation) => return Ok(Err(format!("request {} cannot be recorded: {violation}", p.seq))),
            }
        }
        Ok(Ok(None))
    }
}
