//! One run: fresh servers, the load and the samplers on one time line, then the rows.
//!
//! Sequence: Gunicorn (and nginx) start on free ports and are waited for; the run's clock starts; samplers,
//! downloads (at t = 0) and probes (from `probe.start_ms`) run; the harness watches for Ctrl-C, a server
//! that exits and the run's time bound; then everything is joined, the app log is matched to the downloads
//! and the servers are stopped, whatever happened. A run that cannot finish cleanly is `aborted` with a note.

pub mod closed;

use crate::clock::RunClock;
use crate::dataset::rows::{self, RunStatus, ServerWrite};
use crate::dataset::{RunRecord, Table};
use crate::load::download::{spawn_download, DownloadResult, DownloadSpec};
use crate::load::probe::{self, spawn_probes, ProbeResult};
use crate::plan::{Condition, Plan};
use crate::sample::{spawn_sampler, Group, SamplerConfig, TempWatch};
use crate::servers::app_log::{self, AppEvent};
use crate::servers::gunicorn::{self, GunicornInstall, GunicornRun};
use crate::servers::nginx::{self, NginxRun};
use crate::servers::{free_port, loopback, ServerProcess};
use anyhow::{Context, Result};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What every run of a study shares.
#[derive(Debug, Clone, Copy)]
pub struct RunEnv<'a> {
    pub plan: &'a Plan,
    pub install: &'a GunicornInstall,
    /// Present when the plan goes through nginx.
    pub nginx_bin: Option<&'a Path>,
    /// Folder of app.py (absolute).
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
}

/// Runs one condition under `run_id`.
pub fn execute(env: &RunEnv, run_id: &str, condition: Condition) -> RunResult {
    let mut servers: Vec<ServerProcess> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let outcome = measure(env, run_id, condition, &mut servers, &mut notes);
    // Reverse start order: nginx before the Gunicorn it proxies to.
    let mut stop_failed = None;
    while let Some(mut server) = servers.pop() {
        let grace = Duration::from_secs(env.plan.gunicorn.graceful_timeout_s + 5);
        match server.stop(grace) {
            Ok(true) => {}
            Ok(false) => notes.push(format!("{} needed SIGKILL to stop", server.name)),
            Err(e) => stop_failed = Some(format!("{e:#}")),
        }
    }
    let (status, record) = match outcome {
        Ok(Measured::Complete(record)) if stop_failed.is_none() => (RunStatus::Ok, record),
        Ok(Measured::Complete(_)) => {
            notes.insert(0, stop_failed.unwrap_or_default());
            (RunStatus::Aborted, RunRecord::default())
        }
        Ok(Measured::Aborted(why)) => {
            notes.insert(0, why);
            (RunStatus::Aborted, RunRecord::default())
        }
        Err(e) => {
            notes.insert(0, format!("{e:#}"));
            (RunStatus::Aborted, RunRecord::default())
        }
    };
    RunResult { status, note: one_line(&notes.join("; ")), record }
}

enum Measured {
    Complete(RunRecord),
    Aborted(String),
}

/// Sets the cancel and stop flags when dropped, so an early `?` never leaves client threads running on.
pub(crate) struct StopOnDrop(pub(crate) Vec<Arc<AtomicBool>>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        for flag in &self.0 {
            flag.store(true, Ordering::Relaxed);
        }
    }
}

fn measure(
    env: &RunEnv,
    run_id: &str,
    condition: Condition,
    servers: &mut Vec<ServerProcess>,
    notes: &mut Vec<String>,
) -> Result<Measured> {
    let plan = env.plan;
    let run_dir = tempfile::Builder::new().prefix("measure-run-").tempdir().context("failed to create the run folder")?;
    let dir = run_dir.path().canonicalize()?;
    let app_log_path = dir.join("app.jsonl");
    let mut record = RunRecord::default();

    let app_port = free_port().context("no free port")?;
    let gunicorn_run = GunicornRun {
        install: env.install,
        plan,
        worker: condition.worker,
        app_dir: env.app_dir,
        port: app_port,
        run_dir: &dir,
        app_log: &app_log_path,
    };
    servers.push(gunicorn::start(&gunicorn_run)?);
    record.push(Table::Servers, rows::server_cells(run_id, "gunicorn", app_port, servers[0].pid()));

    let mut temp = None;
    let mut port = app_port;
    if let Some(buffering) = condition.route.nginx_buffering() {
        let bin = env.nginx_bin.context("the plan needs nginx but the preflight found none")?;
        let prefix = dir.join("nginx");
        let nginx_port = free_port().context("no free port")?;
        let nginx_run = NginxRun {
            settings: &plan.nginx,
            buffering,
            listen_port: nginx_port,
            upstream_port: app_port,
            prefix: &prefix,
            // SAFETY: geteuid has no preconditions.
            as_root: unsafe { libc::geteuid() } == 0,
        };
        let server = nginx::start(bin, &nginx_run)?;
        record.push(Table::Servers, rows::server_cells(run_id, "nginx", nginx_port, server.pid()));
        temp = Some(TempWatch { master_pid: server.pid(), proxy_temp_path: nginx::proxy_temp_path(&prefix) });
        servers.push(server);
        port = nginx_port;
    }
    let addr = loopback(port);
    let groups = servers.iter().map(|s| Group { name: s.name, master_pid: s.pid() }).collect();

    // t = 0 of the run.
    let clock = RunClock::start();
    let cancel = Arc::new(AtomicBool::new(false));
    let stop_sampling = Arc::new(AtomicBool::new(false));
    let _guard = StopOnDrop(vec![Arc::clone(&cancel), Arc::clone(&stop_sampling)]);
    let spec = DownloadSpec::from_plan(plan);
    let probe_end = probe::schedule_ms(&plan.probe).last().copied().unwrap_or(0.0);
    let bound =
        spec.timeout.max(Duration::from_millis(probe_end as u64) + Duration::from_secs(plan.probe.timeout_s)) + Duration::from_secs(5);
    let sampler_config = SamplerConfig {
        groups,
        temp,
        interval: Duration::from_millis(plan.sampling.interval_ms),
        max_duration: bound + Duration::from_secs(5),
    };
    let sampler = spawn_sampler(sampler_config, clock, Arc::clone(&stop_sampling))?;
    let downloads = (1..=condition.downloads)
        .map(|i| spawn_download(addr, run_id, format!("d{i}"), spec, Arc::clone(&cancel)))
        .collect::<std::io::Result<Vec<_>>>()?;
    let probes = spawn_probes(addr, &plan.probe, clock, Arc::clone(&cancel))?;

    let all_done = || downloads.iter().all(JoinHandle::is_finished) && probes.iter().all(JoinHandle::is_finished);
    let overdue = "the clients did not finish within the run's time bound";
    let abort = watch(env.interrupted, servers, clock.origin() + bound, overdue, || all_done().then_some(None));
    if abort.is_some() {
        cancel.store(true, Ordering::Relaxed);
    }
    let downloads: Vec<DownloadResult> = downloads.into_iter().map(join).collect::<Result<_>>()?;
    let probes: Vec<Option<ProbeResult>> = probes.into_iter().map(join).collect::<Result<_>>()?;
    let events = if abort.is_none() { wait_for_app_log(&app_log_path, run_id, &downloads)? } else { Vec::new() };
    stop_sampling.store(true, Ordering::Relaxed);
    let samples = join(sampler)?;
    if let Some(why) = abort {
        return Ok(Measured::Aborted(why));
    }

    // Gunicorn's master silently replaces a worker that died or timed out: the run then measured a
    // different server than planned.
    let boots = app_log::booted_pids(&events).len();
    let workers = plan.worker_shape(condition.worker).processes as usize;
    if boots > workers {
        return Ok(Measured::Aborted(format!(
            "a Gunicorn worker was restarted during the run ({boots} boots for {workers} workers): {}",
            servers[0].log_tail()
        )));
    }
    for p in probes.iter().flatten() {
        match rows::request_cells(run_id, p) {
            Ok(cells) => record.push(Table::Requests, cells),
            Err(violation) => return Ok(Measured::Aborted(format!("probe request {} cannot be recorded: {violation}", p.seq))),
        }
    }
    for d in &downloads {
        let write = ServerWrite::find(&events, run_id, &d.download_id, |s| clock.ms_from_monotonic(s));
        if write.is_none() && d.status != 0 {
            notes.push(format!("{}: the app logged no write", d.download_id));
        }
        if d.bytes_received < plan.large.bytes {
            let why = d.error.as_deref().unwrap_or("closed early");
            notes.push(format!("{}: {} of {} bytes ({why})", d.download_id, d.bytes_received, plan.large.bytes));
        }
        record.push(Table::Large, rows::large_cells(run_id, d, write));
    }
    for t in &samples.tempfiles {
        record.push(Table::Tempfiles, rows::tempfile_cells(run_id, t));
    }
    for r in &samples.resources {
        record.push(Table::Resources, rows::resource_cells(run_id, r));
    }
    Ok(Measured::Complete(record))
}

/// Polls every 20 ms until `finished` says the load is over (`Some(None)`, or `Some(Some(why))` when it
/// failed), the study is interrupted, a server exits or `deadline` passes; returns why the run must be
/// aborted, if it must. Both kinds of run watch their load through this one loop.
pub(crate) fn watch(
    interrupted: &AtomicBool,
    servers: &mut [ServerProcess],
    deadline: Instant,
    overdue: &str,
    mut finished: impl FnMut() -> Option<Option<String>>,
) -> Option<String> {
    loop {
        if let Some(outcome) = finished() {
            return outcome;
        }
        if interrupted.load(Ordering::Relaxed) {
            return Some("interrupted (SIGINT/SIGTERM)".into());
        }
        for server in servers.iter_mut() {
            if let Some(status) = server.exit_status() {
                return Some(format!("{} exited during the run ({status}): {}", server.name, server.log_tail()));
            }
        }
        if Instant::now() > deadline {
            return Some(overdue.into());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The server logs a response when it closes the body, a moment after the client may have read the last
/// byte; wait (briefly, bounded) until every download that got a response has its line.
fn wait_for_app_log(path: &Path, run_id: &str, downloads: &[DownloadResult]) -> Result<Vec<AppEvent>> {
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let events = app_log::read(path)?;
        let logged = |id: &str| {
            events.iter().any(|e| matches!(e, AppEvent::Large { download_id, run_id: r, .. } if download_id == id && r == run_id))
        };
        if downloads.iter().filter(|d| d.status != 0).all(|d| logged(&d.download_id)) || Instant::now() > deadline {
            return Ok(events);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

pub(crate) fn join<T>(handle: JoinHandle<T>) -> Result<T> {
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
    fn notes_are_single_line_and_bounded() {
        assert_eq!(one_line("a\n  b | c\r\n"), "a b | c");
        assert_eq!(one_line(&"x ".repeat(1000)).chars().count(), 500);
    }
}
