//! One run, of either kind of plan: fresh servers, the load and the samplers on one time line, then the rows.
//!
//! Sequence, the same for both kinds: the servers start on free ports and are waited for; the run's clock
//! starts; the sampler and the load run; the harness watches for Ctrl-C, a server that exits, a load that
//! fails and the run's time bound; then the load is ended, the sampler joined, the rows taken and the
//! servers stopped, whatever happened. A run that cannot finish cleanly is `aborted` with a note and its rows
//! are not kept. What differs between the kinds (which servers, which load, which rows) is a [`Workload`]:
//! [`open`] (Gunicorn, maybe behind nginx, under slow downloads and open-loop probes), [`closed`] (an app
//! server under ab, hey or measure's sessions) and [`command`] (a command plan's server under its tool).

pub mod closed;
pub mod command;
pub mod hook;
pub mod note;
pub mod open;

use crate::clock::RunClock;
use crate::dataset::rows::{self, Contention, RunStatus};
use crate::dataset::{RunRecord, Table};
use crate::host;
use crate::load::tool::{ToolCpu, ToolFiles};
use crate::plan::{Condition, Plan};
use crate::sample::{procfs, spawn_sampler, Group, SamplerConfig, TempWatch};
use crate::servers::gunicorn::GunicornInstall;
use crate::servers::python::PythonEnv;
use crate::servers::{ServerFailed, ServerProcess};
use anyhow::{Context, Result};
use request_row::note_words::NoteKey;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The app servers' software, made ready by the preflight.
#[derive(Debug)]
pub enum Installed {
    /// The open-loop study's Gunicorn, in its virtual environment.
    Gunicorn(GunicornInstall),
    /// A closed-loop plan's virtual environments, by interpreter label.
    Pythons(BTreeMap<String, PythonEnv>),
    /// A command plan's load tool and the folder its relative paths start from.
    Command(command::Installed),
}

/// What every run of a study shares.
#[derive(Debug, Clone, Copy)]
pub struct RunEnv<'a> {
    pub plan: &'a Plan,
    pub installed: &'a Installed,
    /// Present when the plan goes through nginx.
    pub nginx_bin: Option<&'a Path>,
    /// The folder of the app the servers load (absolute).
    pub app_dir: &'a Path,
    /// Set by SIGINT/SIGTERM.
    pub interrupted: &'a AtomicBool,
}

/// The outcome of one run.
#[derive(Debug)]
pub struct RunResult {
    pub status: RunStatus,
    /// Why it was aborted, or what looked odd in an ok run.
    pub note: String,
    pub record: RunRecord,
    /// The load tool's files to import (ab, hey), present for an `ok` run.
    pub tool_files: Option<ToolFiles>,
    /// The host contention during the load, measured for a run that ended cleanly.
    pub contention: Contention,
}

/// Runs one condition under `run_id`; a load tool writes its files into `raw_dir`.
pub fn execute(env: &RunEnv, run_id: &str, condition: &Condition, raw_dir: &Path) -> RunResult {
    match (env.plan, env.installed, condition) {
        (Plan::Open(plan), Installed::Gunicorn(gunicorn), Condition::Open(condition)) => {
            let workload = open::OpenRun { plan, gunicorn, condition: *condition, nginx_bin: env.nginx_bin, app_dir: env.app_dir };
            drive(env.interrupted, run_id, &workload)
        }
        (Plan::Closed(plan), Installed::Pythons(pythons), Condition::Closed(condition)) => {
            let workload = closed::ClosedRun { plan, pythons, condition, nginx_bin: env.nginx_bin, app_dir: env.app_dir, raw_dir };
            drive(env.interrupted, run_id, &workload)
        }
        (Plan::Command(plan), Installed::Command(installed), Condition::Command(condition)) => {
            let workload = command::CommandRun { plan, installed, condition, raw_dir };
            drive(env.interrupted, run_id, &workload)
        }
        _ => aborted(Abort::Why(format!("condition {condition} is not of the kind of the plan being run (a bug in measure)")), Vec::new()),
    }
}

/// What differs between the two kinds of run: the servers, the load, and the rows the load leaves.
trait Workload {
    /// The load while it runs.
    type Load;
    /// What the load left once it has ended.
    type Ended;

    /// Starts the servers (each recorded in servers.csv, in start order) and says where the load goes.
    fn start_servers(&self, run_id: &str, dir: &Path, servers: &mut Vec<ServerProcess>, record: &mut RunRecord) -> Result<Front>;
    /// How long `server` may take to stop gracefully.
    fn grace(&self, server: &str) -> Duration;
    /// The run's time bound from t = 0, and the note of a run that outlives it.
    fn bound(&self) -> (Duration, &'static str);
    /// The period of the samples.
    fn sampling_interval(&self) -> Duration;
    /// Runs a warm-up load against `addr` before t = 0, its output left in `dir` (the run's folder, removed
    /// after the run) and never in the run's rows; returns the note that says it ran. None by default.
    fn warm_up(&self, _addr: SocketAddr, _dir: &Path, _interrupted: &AtomicBool) -> Result<Option<String>> {
        Ok(None)
    }
    /// What the load tool used of its CPUs, once it has ended by itself (none for measure's own clients).
    fn tool_cpu(_ended: &Self::Ended) -> Option<ToolUse> {
        None
    }
    /// Starts the load at t = 0 against `addr` (`dir` is the run's folder); it stops early once `cancel` is set.
    fn start_load(&self, addr: SocketAddr, run_id: &str, dir: &Path, clock: RunClock, cancel: &Arc<AtomicBool>) -> Result<Self::Load>;
    /// `Some(None)` once the load is over, `Some(Some(why))` when it failed.
    fn finished(load: &mut Self::Load) -> Option<Option<String>>;
    /// Ends what is left of the load and gathers what it left (while the sampler still runs); `clean` when
    /// nothing aborted the run.
    fn end_load(&self, load: Self::Load, run_id: &str, clean: bool) -> Result<Self::Ended>;
    /// Puts the load's rows into `record` and what looked odd into `notes`; `Err(why)` when the run cannot be
    /// kept. Returns the tool's files to import, if the load was a tool.
    fn record(&self, ended: Self::Ended, run: &CleanRun, record: &mut RunRecord, notes: &mut Vec<String>) -> Result<Verdict>;
}

/// Where the load goes once the servers are up, and the temp folder to watch (nginx buffering to disk).
struct Front {
    addr: SocketAddr,
    temp: Option<TempWatch>,
}

/// A run whose load has ended cleanly, as [`Workload::record`] sees it.
struct CleanRun<'a> {
    run_id: &'a str,
    clock: RunClock,
    servers: &'a [ServerProcess],
}

/// What a clean run leaves: its rows, the tool's files to import, and the host contention.
type Measured = (RunRecord, Option<ToolFiles>, Contention);

/// A load tool's name, what it used of its CPUs, and those CPUs (`0-1`, or `all` unpinned).
pub(crate) type ToolUse = (&'static str, ToolCpu, String);

/// What [`Workload::record`] decided: keep the run (with the tool's files, if any) or abort it, and why.
type Verdict = std::result::Result<Option<ToolFiles>, String>;

/// Why a run was aborted: in words (an error's text, quoted in `measure.aborted`), or a note of its own.
#[derive(Debug, Clone, PartialEq)]
enum Abort {
    Why(String),
    Note(String),
}

impl Abort {
    /// An error's abort: its own note when a server failed, else its text.
    fn of_error(e: &anyhow::Error) -> Abort {
        match e.chain().find_map(|c| c.downcast_ref::<ServerFailed>()) {
            Some(failed) => Abort::Note(failed.note()),
            None => Abort::Why(format!("{e:#}")),
        }
    }
}

/// Runs `workload` and stops its servers (in reverse start order: nginx before the app server behind it),
/// whatever happened.
fn drive<W: Workload>(interrupted: &AtomicBool, run_id: &str, workload: &W) -> RunResult {
    let mut servers: Vec<ServerProcess> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let outcome = measure(interrupted, run_id, workload, &mut servers, &mut notes);
    let mut stop_failed = None;
    while let Some(mut server) = servers.pop() {
        match server.stop(workload.grace(&server.name)) {
            Ok(true) => {}
            Ok(false) => notes.push(note::message(NoteKey::MeasureSigkill, &[("server", &server.name)])),
            Err(e) => stop_failed = Some(Abort::Why(format!("{e:#}"))),
        }
    }
    match (outcome, stop_failed) {
        (Ok(Ok((record, tool_files, contention))), None) => {
            RunResult { status: RunStatus::Ok, note: note::join(&notes), record, tool_files, contention }
        }
        (Ok(Ok(_)), Some(why)) | (Ok(Err(why)), _) => aborted(why, notes),
        (Err(e), _) => aborted(Abort::of_error(&e), notes),
    }
}

/// An aborted run: why first in its note, and no rows.
fn aborted(why: Abort, mut notes: Vec<String>) -> RunResult {
    let first = match why {
        Abort::Why(text) => note::message(NoteKey::MeasureAborted, &[("why", &note::reason(&text))]),
        Abort::Note(item) => item,
    };
    notes.insert(0, first);
    RunResult {
        status: RunStatus::Aborted,
        note: note::join(&notes),
        record: RunRecord::default(),
        tool_files: None,
        contention: Contention::default(),
    }
}

/// Sets the cancel and stop flags when dropped, so an early `?` never leaves client threads running on.
struct StopOnDrop(Vec<Arc<AtomicBool>>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        for flag in &self.0 {
            flag.store(true, Ordering::Relaxed);
        }
    }
}

fn measure<W: Workload>(
    interrupted: &AtomicBool,
    run_id: &str,
    workload: &W,
    servers: &mut Vec<ServerProcess>,
    notes: &mut Vec<String>,
) -> Result<std::result::Result<Measured, Abort>> {
    let run_dir = tempfile::Builder::new().prefix("measure-run-").tempdir().context("failed to create the run folder")?;
    let dir = run_dir.path().canonicalize()?;
    let mut record = RunRecord::default();
    let front = workload.start_servers(run_id, &dir, servers, &mut record)?;
    let groups = servers.iter().map(|s| Group { name: s.name.clone(), master_pid: s.main_pid() }).collect();
    if let Some(warmed) = workload.warm_up(front.addr, &dir, interrupted)? {
        notes.push(warmed);
    }

    // t = 0 of the run.
    let clock = RunClock::start();
    let cpu_before = host::CpuTimes::now();
    let server_before = server_ticks(servers);
    let cancel = Arc::new(AtomicBool::new(false));
    let stop_sampling = Arc::new(AtomicBool::new(false));
    let _guard = StopOnDrop(vec![Arc::clone(&cancel), Arc::clone(&stop_sampling)]);
    let (bound, overdue) = workload.bound();
    let sampler_config =
        SamplerConfig { groups, temp: front.temp, interval: workload.sampling_interval(), max_duration: bound + Duration::from_secs(5) };
    let sampler = spawn_sampler(sampler_config, clock, Arc::clone(&stop_sampling))?;
    let mut load = workload.start_load(front.addr, run_id, &dir, clock, &cancel)?;
    hook::stop_at(hook::Moment::Load);

    let abort = watch(interrupted, servers, clock.origin() + bound, overdue, || W::finished(&mut load));
    if abort.is_some() {
        cancel.store(true, Ordering::Relaxed);
    }
    let load_s = clock.origin().elapsed().as_secs_f64();
    let server_after = server_ticks(servers);
    let ended = workload.end_load(load, run_id, abort.is_none())?;
    let cpu_after = host::CpuTimes::now();
    stop_sampling.store(true, Ordering::Relaxed);
    let samples = join(sampler)?;
    if let Some(why) = abort {
        return Ok(Err(why));
    }
    let tool = W::tool_cpu(&ended);
    if let Some((name, cpu, set)) = &tool {
        if let Some(share) = cpu.share().filter(|s| *s >= SATURATED) {
            let pct = format!("{:.0}", (100.0 * share).min(100.0));
            notes.push(note::message(NoteKey::MeasureLoadSaturated, &[("tool", name), ("share", &pct), ("cpus", set)]));
        }
    }
    let contention = Contention {
        server_cpu_share: server_cpu_share(&server_before, &server_after, load_s, procfs::ticks_per_second()),
        load_cpu_share: tool.and_then(|(_, cpu, _)| cpu.share()),
        steal_pct: cpu_before.zip(cpu_after).and_then(|(a, b)| a.steal_pct(b)),
    };
    let clean = CleanRun { run_id, clock, servers };
    let tool_files = match workload.record(ended, &clean, &mut record, notes)? {
        Ok(files) => files,
        Err(why) => return Ok(Err(Abort::Why(why))),
    };
    for t in &samples.tempfiles {
        record.push(Table::Tempfiles, rows::tempfile_cells(run_id, t));
    }
    for r in &samples.resources {
        record.push(Table::Resources, rows::resource_cells(run_id, r));
    }
    Ok(Ok((record, tool_files, contention)))
}

/// A load tool that kept at least this share of its CPUs busy measured itself as much as the server.
pub const SATURATED: f64 = 0.9;

/// Each live process of the servers with its CPU time so far (user + system, in clock ticks).
fn server_ticks(servers: &[ServerProcess]) -> BTreeMap<u32, u64> {
    servers
        .iter()
        .flat_map(ServerProcess::processes)
        .filter_map(|pid| procfs::read_stat(pid).ok().flatten().map(|s| (pid, s.utime + s.stime)))
        .collect()
}

/// The CPU seconds the server's processes used per wall second of the load: for each process alive at
/// its end, its CPU time then less its CPU time at the start (0 for one born during the load), summed,
/// over the load's `wall_s`. A process that exited during the load is not counted. `None` without time.
pub fn server_cpu_share(before: &BTreeMap<u32, u64>, after: &BTreeMap<u32, u64>, wall_s: f64, ticks_per_s: f64) -> Option<f64> {
    if wall_s <= 0.0 || ticks_per_s <= 0.0 {
        return None;
    }
    let ticks: u64 = after.iter().map(|(pid, t)| t.saturating_sub(before.get(pid).copied().unwrap_or(0))).sum();
    Some(ticks as f64 / ticks_per_s / wall_s)
}

/// Polls every 20 ms until `finished` says the load is over (`Some(None)`, or `Some(Some(why))` when it
/// failed), the study is interrupted, a server exits or `deadline` passes; returns why the run must be
/// aborted, if it must.
fn watch(
    interrupted: &AtomicBool,
    servers: &mut [ServerProcess],
    deadline: Instant,
    overdue: &str,
    mut finished: impl FnMut() -> Option<Option<String>>,
) -> Option<Abort> {
    loop {
        if let Some(outcome) = finished() {
            return outcome.map(Abort::Why);
        }
        if interrupted.load(Ordering::Relaxed) {
            return Some(Abort::Why("interrupted (SIGINT/SIGTERM)".into()));
        }
        for server in servers.iter_mut() {
            if let Some(failed) = server.exited() {
                return Some(Abort::Note(failed.note()));
            }
        }
        if Instant::now() > deadline {
            return Some(Abort::Why(overdue.into()));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether measure runs as root (then nginx needs `user root;` to write the run's folder).
pub(crate) fn as_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

fn join<T>(handle: JoinHandle<T>) -> Result<T> {
    let name = handle.thread().name().unwrap_or("thread").to_string();
    handle.join().map_err(|_| anyhow::anyhow!("the {name} thread panicked"))
}

/// Notes go into one CSV cell: keep them on one line and reasonably short.
pub(crate) fn one_line(s: &str) -> String {
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() > 500 {
        flat.chars().take(497).collect::<String>() + "..."
    } else {
        flat
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_servers_cpu_share_sums_each_process_over_the_load() {
        // Over 2 s at 100 ticks/s: the master used 20 ticks, a worker 100, a worker born during the load 40.
        let before: BTreeMap<u32, u64> = [(1, 500), (2, 1000), (9, 70)].into();
        let after: BTreeMap<u32, u64> = [(1, 520), (2, 1100), (3, 40)].into();
        let share = server_cpu_share(&before, &after, 2.0, 100.0).unwrap();
        assert!((share - 0.8).abs() < 1e-12, "{share}");
        assert_eq!(server_cpu_share(&before, &after, 0.0, 100.0), None, "no time");
    }

    #[test]
    fn notes_are_single_line_and_bounded() {
        assert_eq!(one_line("a\n  b | c\r\n"), "a b | c");
        assert_eq!(one_line(&"x ".repeat(1000)).chars().count(), 500);
    }
}
