//! Samplers that run beside the load: every `interval_ms`, the CPU time and RSS of every server process
//! (master and workers of each group) and, behind nginx, its open temp files.
//!
//! Processes are found anew at every tick (the master plus its direct children) so a worker that Gunicorn
//! respawns is still seen. Sampling only reads `/proc`; it never signals or waits on a server.

pub mod procfs;
pub mod tempfiles;

use crate::clock::{sleep_until, RunClock};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// A server process group to sample: the master and its children.
#[derive(Debug, Clone)]
pub struct Group {
    /// `gunicorn`, `nginx` or a command plan's server, as written in resources.csv.
    pub name: String,
    pub master_pid: u32,
}

/// nginx's temp files: whose workers to look at and which folder counts.
#[derive(Debug, Clone)]
pub struct TempWatch {
    pub master_pid: u32,
    pub proxy_temp_path: PathBuf,
}

/// One temp-file sample (tempfiles.csv).
#[derive(Debug, Clone, PartialEq)]
pub struct TempSample {
    pub t_ms: f64,
    pub files: u64,
    pub logical_bytes: u64,
}

/// One process sample (resources.csv).
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceSample {
    pub t_ms: f64,
    pub process: String,
    pub pid: u32,
    /// Cumulative user + system CPU time.
    pub cpu_s: f64,
    pub rss_bytes: u64,
}

/// Everything sampled in one run.
#[derive(Debug, Default)]
pub struct Samples {
    pub tempfiles: Vec<TempSample>,
    pub resources: Vec<ResourceSample>,
}

/// What to sample and how often.
#[derive(Debug, Clone)]
pub struct SamplerConfig {
    pub groups: Vec<Group>,
    pub temp: Option<TempWatch>,
    pub interval: Duration,
    /// Upper bound on the sampling time, whatever happens to the stop flag.
    pub max_duration: Duration,
}

/// Samples at t = 0, interval, 2·interval, ... until `stop` is set (or `max_duration` passes).
pub fn spawn_sampler(config: SamplerConfig, clock: RunClock, stop: Arc<AtomicBool>) -> std::io::Result<JoinHandle<Samples>> {
    std::thread::Builder::new().name("sampler".into()).spawn(move || {
        let ticks_per_s = procfs::ticks_per_second();
        let page = procfs::page_size();
        let max_ticks = (config.max_duration.as_millis() / config.interval.as_millis().max(1)) as u32 + 1;
        let mut samples = Samples::default();
        for tick in 0..max_ticks {
            let due = clock.origin() + config.interval * tick;
            if !sleep_until(due, Duration::from_millis(50), || stop.load(Ordering::Relaxed)) {
                break;
            }
            sample_once(&config, clock, ticks_per_s, page, &mut samples);
        }
        samples
    })
}

fn sample_once(config: &SamplerConfig, clock: RunClock, ticks_per_s: f64, page: u64, out: &mut Samples) {
    let t_ms = clock.ms(std::time::Instant::now());
    let Ok(all) = procfs::list_processes() else { return };
    for group in &config.groups {
        for p in procfs::family(&all, group.master_pid) {
            out.resources.push(ResourceSample {
                t_ms,
                process: group.name.clone(),
                pid: p.pid,
                cpu_s: (p.utime + p.stime) as f64 / ticks_per_s,
                rss_bytes: p.rss_pages * page,
            });
        }
    }
    if let Some(watch) = &config.temp {
        let links: Vec<_> = all
            .iter()
            .filter(|p| p.ppid == watch.master_pid)
            .flat_map(|w| {
                let fd_dir = PathBuf::from(format!("/proc/{}/fd", w.pid));
                tempfiles::list_fd_links(&fd_dir, &watch.proxy_temp_path)
            })
            .collect();
        let usage = tempfiles::measure(&links);
        out.tempfiles.push(TempSample { t_ms, files: usage.files, logical_bytes: usage.logical_bytes });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_own_process_and_child_until_stopped() {
        let mut child = std::process::Command::new("sleep").arg("5").spawn().unwrap();
        let config = SamplerConfig {
            groups: vec![Group { name: "self".into(), master_pid: std::process::id() }],
            temp: Some(TempWatch { master_pid: std::process::id(), proxy_temp_path: "/nonexistent".into() }),
            interval: Duration::from_millis(20),
            max_duration: Duration::from_secs(10),
        };
        let stop = Arc::new(AtomicBool::new(false));
        let handle = spawn_sampler(config, RunClock::start(), Arc::clone(&stop)).unwrap();
        std::thread::sleep(Duration::from_millis(110));
        stop.store(true, Ordering::Relaxed);
        let samples = handle.join().unwrap();
        child.kill().unwrap();
        child.wait().unwrap();
        assert!((4..=8).contains(&samples.tempfiles.len()), "{} ticks", samples.tempfiles.len());
        assert!(samples.tempfiles.iter().all(|t| t.files == 0));
        assert!(samples.resources.iter().any(|r| r.pid == child.id()));
        let me: Vec<_> = samples.resources.iter().filter(|r| r.pid == std::process::id()).collect();
        assert_eq!(me.len(), samples.tempfiles.len());
        assert!(me.iter().all(|r| r.rss_bytes > 0 && r.process == "self"));
        assert!(me.windows(2).all(|w| w[0].cpu_s <= w[1].cpu_s && w[0].t_ms < w[1].t_ms));
    }

    #[test]
    fn sampling_is_bounded_without_a_stop() {
        let config =
            SamplerConfig { groups: vec![], temp: None, interval: Duration::from_millis(10), max_duration: Duration::from_millis(50) };
        let handle = spawn_sampler(config, RunClock::start(), Arc::new(AtomicBool::new(false))).unwrap();
        handle.join().unwrap();
    }
}
