//! The open-loop probe: one path (`/fast` in the slow-download study, a command plan's path for its
//! `open-loop` load) at a fixed rate, each request on a new TCP connection (or, when a command plan asks,
//! on kept-alive ones).
//!
//! Open loop means request k starts at its scheduled time whether or not earlier ones have finished: a
//! closed loop would stop sending while a worker is blocked and hide exactly the delay we measure
//! (coordinated omission). The requests are sent by a few event-driven threads ([`super::open_loop`]),
//! each owning a share of the schedule; none waits for another request.

use super::open_loop::{self, Connection, Spec};
use crate::clock::RunClock;
use crate::plan::open::Probe;
use anyhow::Context;
use std::net::SocketAddr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// One probe request as written to requests.csv.
#[derive(Debug, Clone, PartialEq)]
pub struct ProbeResult {
    pub seq: u32,
    /// When the schedule wanted it sent, ms from the run's start.
    pub scheduled_ms: f64,
    /// When its exchange began, ms from the run's start: the start of connect on a new connection, the
    /// write of the request on a kept-alive one. `sent_ms - scheduled_ms` is the send lag.
    pub sent_ms: f64,
    /// From `sent_ms` until the body was read; `None` when it failed or timed out.
    pub latency_ms: Option<f64>,
    /// HTTP status; 0 when there was no complete response.
    pub status: u16,
    pub body_bytes: u64,
}

/// The open-loop schedule: request k is due at `start_ms + k * 1000 / rate_per_s` ms.
pub fn schedule_ms(probe: &Probe) -> Vec<f64> {
    let spec = spec(SocketAddr::from(([127, 0, 0, 1], 0)), "/", probe, Connection::PerRequest);
    (0..probe.count).map(|k| spec.due_ms(k)).collect()
}

fn spec(addr: SocketAddr, path: &str, probe: &Probe, connection: Connection) -> Spec {
    Spec {
        addr,
        path: path.to_string(),
        connection,
        start_ms: probe.start_ms as f64,
        period_ms: 1000.0 / f64::from(probe.rate_per_s),
        count: probe.count,
        timeout: Duration::from_secs(probe.timeout_s),
    }
}

/// Requests per second one sending thread is given: a thread keeps a schedule of tens of thousands a
/// second on loopback (bench/OPEN_LOOP_RESULTS.md), more threads than cores only take turns.
const RATE_PER_THREAD: u32 = 20_000;

/// How many threads send a schedule of `rate_per_s`: one per [`RATE_PER_THREAD`], at most one per core.
pub fn threads_for(rate_per_s: u32, cores: usize) -> u32 {
    let cores = u32::try_from(cores.max(1)).unwrap_or(u32::MAX);
    rate_per_s.div_ceil(RATE_PER_THREAD).clamp(1, cores)
}

/// The sending threads of one run.
pub struct Probes {
    threads: Vec<JoinHandle<std::io::Result<Vec<ProbeResult>>>>,
}

impl Probes {
    /// Whether every thread has sent its share and seen every answer (or deadline, or the cancel).
    pub fn is_finished(&self) -> bool {
        self.threads.iter().all(JoinHandle::is_finished)
    }

    /// Every request that was sent, in schedule order. Requests not yet due when the run was cancelled
    /// were not sent and are not there (the run is then aborted and its rows are not kept).
    pub fn join(self) -> anyhow::Result<Vec<ProbeResult>> {
        let mut all = Vec::new();
        for thread in self.threads {
            let share = thread.join().map_err(|_| anyhow::anyhow!("an open-loop sending thread panicked"))?;
            all.extend(share.context("the open-loop client failed")?);
        }
        all.sort_unstable_by_key(|r| r.seq);
        Ok(all)
    }
}

/// Starts the threads that send `probe`'s schedule to `path` on `addr`.
pub fn spawn_probes(
    addr: SocketAddr,
    path: &str,
    probe: &Probe,
    connection: Connection,
    clock: RunClock,
    cancel: Arc<AtomicBool>,
) -> std::io::Result<Probes> {
    let spec = Arc::new(spec(addr, path, probe, connection));
    let workers = threads_for(probe.rate_per_s, crate::host::cpus());
    let threads = (0..workers)
        .map(|w| {
            let (spec, cancel) = (Arc::clone(&spec), Arc::clone(&cancel));
            std::thread::Builder::new().name(format!("open-loop-{w}")).spawn(move || open_loop::run(&spec, w, workers, clock, &cancel))
        })
        .collect::<std::io::Result<_>>()?;
    Ok(Probes { threads })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn study_schedule_is_72_requests_125_ms_apart_from_250_ms() {
        let probe = Probe { start_ms: 250, rate_per_s: 8, count: 72, timeout_s: 30 };
        let s = schedule_ms(&probe);
        assert_eq!(s.len(), 72);
        for (k, t) in s.iter().enumerate() {
            assert_eq!(*t, 250.0 + 125.0 * k as f64);
        }
        assert_eq!(s.last(), Some(&9125.0));
    }

    #[test]
    fn requests_start_on_schedule_even_when_the_server_never_answers() {
        // A listener that accepts into its backlog but never responds, so every request waits its
        // whole timeout. Open loop: each request is sent at its own time. A closed loop would send
        // request k only once request k-1 gave up, a full timeout (1 s) later. The test holds the
        // sends to that, not to a scheduling precision: on a shared machine how late a sleeping
        // thread wakes is luck (tens of ms under load), a second late is not.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let probe = Probe { start_ms: 20, rate_per_s: 50, count: 5, timeout_s: 1 };
        let clock = RunClock::start();
        let cancel = Arc::new(AtomicBool::new(false));
        let results = spawn_probes(addr, "/fast", &probe, Connection::PerRequest, clock, cancel).unwrap().join().unwrap();
        assert_eq!(results.len(), 5);
        let first_gave_up_ms = results[0].sent_ms + probe.timeout_s as f64 * 1000.0;
        for (k, r) in results.iter().enumerate() {
            assert_eq!(r.scheduled_ms, 20.0 + 20.0 * k as f64);
            // Never early (a microsecond of float rounding between Duration and ms aside).
            assert!(r.sent_ms >= r.scheduled_ms - 1e-3, "request {k} was sent early: {r:?}");
            assert!(r.sent_ms < first_gave_up_ms, "request {k} waited for an earlier one: {r:?}");
            assert_eq!((r.status, r.latency_ms), (0, None), "a timed-out request has no latency");
        }
        drop(listener);
    }

    #[test]
    fn a_sent_requests_result_is_48_bytes() {
        // What a thread keeps per request sent (measure/plans/README.md, "Memory").
        assert_eq!(std::mem::size_of::<ProbeResult>(), 48);
    }

    #[test]
    fn a_thread_per_20000_requests_a_second_up_to_the_cores() {
        assert_eq!([threads_for(8, 2), threads_for(20_000, 2), threads_for(20_001, 2), threads_for(90_000, 2)], [1, 1, 2, 2]);
        assert_eq!([threads_for(90_000, 8), threads_for(1_000_000, 8), threads_for(5, 0)], [5, 8, 1]);
    }

    #[test]
    fn cancelled_requests_are_not_sent() {
        let probe = Probe { start_ms: 10_000, rate_per_s: 1, count: 3, timeout_s: 1 };
        let cancel = Arc::new(AtomicBool::new(true));
        let addr: SocketAddr = "127.0.0.1:9".parse().unwrap();
        let sent = spawn_probes(addr, "/fast", &probe, Connection::PerRequest, RunClock::start(), cancel).unwrap().join().unwrap();
        assert!(sent.is_empty(), "{sent:?}");
    }
}
