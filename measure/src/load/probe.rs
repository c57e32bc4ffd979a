//! The open-loop probe: one path (`/fast` in the slow-download study, a command plan's path for its
//! `open-loop` load) at a fixed rate, each request on a new TCP connection.
//!
//! Open loop means request k starts at its scheduled time whether or not earlier ones have finished: a
//! closed loop would stop sending while a worker is blocked and hide exactly the delay we measure
//! (coordinated omission). So every request has its own thread, started at the beginning of the run and
//! sleeping until its time; none waits for another.

use super::http;
use crate::clock::{sleep_until, RunClock};
use crate::plan::open::Probe;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// One probe request as written to requests.csv.
#[derive(Debug, Clone, PartialEq)]
pub struct ProbeResult {
    pub seq: u32,
    /// When the schedule wanted it sent, ms from the run's start.
    pub scheduled_ms: f64,
    /// When connect started, ms from the run's start.
    pub sent_ms: f64,
    /// From the start of connect until the body was read; `None` when it failed or timed out.
    pub latency_ms: Option<f64>,
    /// HTTP status; 0 when there was no complete response.
    pub status: u16,
    pub body_bytes: u64,
}

/// The open-loop schedule: request k is due at `start_ms + k * 1000 / rate_per_s` ms.
pub fn schedule_ms(probe: &Probe) -> Vec<f64> {
    let period = 1000.0 / f64::from(probe.rate_per_s);
    (0..probe.count).map(|k| probe.start_ms as f64 + f64::from(k) * period).collect()
}

/// Starts one thread per scheduled request. A thread returns `None` when the run was cancelled before its
/// request was due (the run is then aborted and its rows are not kept).
pub fn spawn_probes(
    addr: SocketAddr,
    path: &str,
    probe: &Probe,
    clock: RunClock,
    cancel: Arc<AtomicBool>,
) -> std::io::Result<Vec<JoinHandle<Option<ProbeResult>>>> {
    let timeout = Duration::from_secs(probe.timeout_s);
    schedule_ms(probe)
        .into_iter()
        .enumerate()
        .map(|(k, scheduled_ms)| {
            let cancel = Arc::clone(&cancel);
            let path = path.to_string();
            std::thread::Builder::new().name(format!("probe-{k}")).stack_size(128 * 1024).spawn(move || {
                let due = clock.at_ms(scheduled_ms);
                if !sleep_until(due, Duration::from_millis(50), || cancel.load(Ordering::Relaxed)) {
                    return None;
                }
                Some(probe_once(addr, &path, k as u32, scheduled_ms, clock, timeout, &cancel))
            })
        })
        .collect()
}

/// One request on a fresh connection, bounded by `timeout`.
fn probe_once(
    addr: SocketAddr,
    path: &str,
    seq: u32,
    scheduled_ms: f64,
    clock: RunClock,
    timeout: Duration,
    cancel: &AtomicBool,
) -> ProbeResult {
    let start = Instant::now();
    let deadline = start + timeout;
    let mut result = ProbeResult { seq, scheduled_ms, sent_ms: clock.ms(start), latency_ms: None, status: 0, body_bytes: 0 };
    let Ok((mut stream, _)) = http::connect(addr, None, deadline) else {
        return result;
    };
    if http::send(&mut stream, &http::get_request(addr, path), deadline).is_err() {
        return result;
    }
    let response = http::read_response(&mut stream, deadline, 64 * 1024, cancel, |_| true);
    result.body_bytes = response.body_bytes;
    if response.result.is_ok() {
        result.latency_ms = Some(start.elapsed().as_secs_f64() * 1e3);
        result.status = response.status;
    }
    result
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
        let handles = spawn_probes(addr, "/fast", &probe, clock, cancel).unwrap();
        let results: Vec<ProbeResult> = handles.into_iter().map(|h| h.join().unwrap().unwrap()).collect();
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
    fn cancelled_requests_are_not_sent() {
        let probe = Probe { start_ms: 10_000, rate_per_s: 1, count: 3, timeout_s: 1 };
        let cancel = Arc::new(AtomicBool::new(true));
        let addr: SocketAddr = "127.0.0.1:9".parse().unwrap();
        let handles = spawn_probes(addr, "/fast", &probe, RunClock::start(), cancel).unwrap();
        assert!(handles.into_iter().all(|h| h.join().unwrap().is_none()));
    }
}
