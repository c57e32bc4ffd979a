//! One open-loop run: Gunicorn (and nginx in front, with buffering off or on, as the route says) under the
//! slow downloads (from t = 0) and the open-loop probes (from `probe.start_ms`).
//!
//! The app logs each `/large` response it wrote; the rows join that log to the downloads. Gunicorn's master
//! silently replaces a worker that died or timed out, and the run then measured another server than
//! planned, so a run with more worker boots than workers is aborted.

use super::{as_root, join, CleanRun, Front, Verdict, Workload};
use crate::clock::RunClock;
use crate::dataset::rows::{self, ServerWrite};
use crate::dataset::{RunRecord, Table};
use crate::load::download::{spawn_download, DownloadResult, DownloadSpec};
use crate::load::open_loop::Connection;
use crate::load::probe::{self, spawn_probes, ProbeResult, Probes};
use crate::plan::open::{Condition, OpenLoop};
use crate::sample::TempWatch;
use crate::servers::app_log::{self, AppEvent};
use crate::servers::gunicorn::{self, GunicornInstall, GunicornRun};
use crate::servers::nginx::{self, NginxRun};
use crate::servers::{free_port, loopback, ServerProcess};
use anyhow::{Context, Result};
use request_row::note_words::NoteKey;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// One condition of the open-loop study, with what it runs on.
pub(super) struct OpenRun<'a> {
    pub plan: &'a OpenLoop,
    pub gunicorn: &'a GunicornInstall,
    pub condition: Condition,
    pub nginx_bin: Option<&'a Path>,
    /// Folder of app.py (absolute).
    pub app_dir: &'a Path,
}

/// The downloads and the probes while they run; the app log they are matched to comes with them.
pub(super) struct Clients {
    downloads: Vec<JoinHandle<DownloadResult>>,
    probes: Probes,
    app_log: PathBuf,
}

/// What the clients and the app logged.
pub(super) struct Ended {
    downloads: Vec<DownloadResult>,
    probes: Vec<ProbeResult>,
    events: Vec<AppEvent>,
}

impl Workload for OpenRun<'_> {
    type Load = Clients;
    type Ended = Ended;

    fn start_servers(&self, run_id: &str, dir: &Path, servers: &mut Vec<ServerProcess>, record: &mut RunRecord) -> Result<Front> {
        let app_port = free_port().context("no free port")?;
        let gunicorn_run = GunicornRun {
            install: self.gunicorn,
            plan: self.plan,
            worker: self.condition.worker,
            app_dir: self.app_dir,
            port: app_port,
            run_dir: dir,
            app_log: &dir.join(APP_LOG),
        };
        servers.push(gunicorn::start(&gunicorn_run)?);
        record.push(Table::Servers, rows::server_cells(run_id, "gunicorn", app_port, servers[0].pid()));
        let Some(buffering) = self.condition.route.nginx_buffering() else {
            return Ok(Front { addr: loopback(app_port), temp: None });
        };
        let bin = self.nginx_bin.context("the plan needs nginx but the preflight found none")?;
        let prefix = dir.join("nginx");
        let nginx_port = free_port().context("no free port")?;
        let nginx_run = NginxRun {
            settings: &self.plan.nginx,
            buffering,
            listen_port: nginx_port,
            upstream_port: app_port,
            prefix: &prefix,
            as_root: as_root(),
        };
        let server = nginx::start(bin, &nginx_run)?;
        record.push(Table::Servers, rows::server_cells(run_id, "nginx", nginx_port, server.pid()));
        let temp = TempWatch { master_pid: server.pid(), proxy_temp_path: nginx::proxy_temp_path(&prefix) };
        servers.push(server);
        Ok(Front { addr: loopback(nginx_port), temp: Some(temp) })
    }

    fn grace(&self, _server: &str) -> Duration {
        Duration::from_secs(self.plan.gunicorn.graceful_timeout_s + 5)
    }

    fn bound(&self) -> (Duration, &'static str) {
        let probe_end = probe::schedule_ms(&self.plan.probe).last().copied().unwrap_or(0.0);
        let probes = Duration::from_millis(probe_end as u64) + Duration::from_secs(self.plan.probe.timeout_s);
        let bound = DownloadSpec::from_plan(self.plan).timeout.max(probes) + Duration::from_secs(5);
        (bound, "the clients did not finish within the run's time bound")
    }

    fn sampling_interval(&self) -> Duration {
        Duration::from_millis(self.plan.sampling.interval_ms)
    }

    fn start_load(&self, addr: SocketAddr, run_id: &str, dir: &Path, clock: RunClock, cancel: &Arc<AtomicBool>) -> Result<Clients> {
        let spec = DownloadSpec::from_plan(self.plan);
        let downloads = (1..=self.condition.downloads)
            .map(|i| spawn_download(addr, run_id, format!("d{i}"), spec, Arc::clone(cancel)))
            .collect::<std::io::Result<Vec<_>>>()?;
        let probes = spawn_probes(addr, "/fast", &self.plan.probe, Connection::PerRequest, clock, Arc::clone(cancel))?;
        Ok(Clients { downloads, probes, app_log: dir.join(APP_LOG) })
    }

    fn finished(clients: &mut Clients) -> Option<Option<String>> {
        (clients.downloads.iter().all(JoinHandle::is_finished) && clients.probes.is_finished()).then_some(None)
    }

    fn end_load(&self, clients: Clients, run_id: &str, clean: bool) -> Result<Ended> {
        let downloads: Vec<DownloadResult> = clients.downloads.into_iter().map(join).collect::<Result<_>>()?;
        let probes = clients.probes.join()?;
        let events = if clean { wait_for_app_log(&clients.app_log, run_id, &downloads)? } else { Vec::new() };
        Ok(Ended { downloads, probes, events })
    }

    fn record(&self, ended: Ended, run: &CleanRun, record: &mut RunRecord, notes: &mut Vec<String>) -> Result<Verdict> {
        let boots = app_log::booted_pids(&ended.events).len();
        let workers = self.plan.worker_shape(self.condition.worker).processes as usize;
        if boots > workers {
            return Ok(Err(format!(
                "a Gunicorn worker was restarted during the run ({boots} boots for {workers} workers): {}",
                run.servers[0].log_tail()
            )));
        }
        for p in &ended.probes {
            match rows::request_cells(run.run_id, p) {
                Ok(cells) => record.push(Table::Requests, cells),
                Err(violation) => return Ok(Err(format!("probe request {} cannot be recorded: {violation}", p.seq))),
            }
        }
        let bytes = self.plan.large.bytes;
        for d in &ended.downloads {
            let write = ServerWrite::find(&ended.events, run.run_id, &d.download_id, |s| run.clock.ms_from_monotonic(s));
            if write.is_none() && d.status != 0 {
                notes.push(super::note::message(NoteKey::MeasureNoWrite, &[("download", &d.download_id)]));
            }
            if d.bytes_received < bytes {
                let why = d.error.as_deref().unwrap_or("closed early");
                notes.push(super::note::message(
                    NoteKey::MeasureShortDownload,
                    &[("download", &d.download_id), ("received", &d.bytes_received), ("bytes", &bytes), ("why", &super::note::reason(why))],
                ));
            }
            record.push(Table::Large, rows::large_cells(run.run_id, d, write));
        }
        Ok(Ok(None))
    }
}

/// The app's log of one run, in the run's folder.
const APP_LOG: &str = "app.jsonl";

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
