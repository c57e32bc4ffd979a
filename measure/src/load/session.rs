//! measure's own client for seed 003's ramped sessions: `count` sessions start evenly over `ramp`
//! (session k at k·ramp/count), each on its own thread. A session makes the seed's three requests: GET the
//! page, POST the form (following its redirect, as the seed's client library did), GET the page again.
//! Each request is one row; the POST's row runs from sending the POST to the end of the page it redirects
//! to and carries that page's status, so a row's status says whether the request as the user saw it
//! succeeded (the 302 in between is expected, not an error). Every HTTP exchange uses a new connection. A
//! request that fails (no response, a timeout, an unexpected status, a POST that does not redirect) ends
//! its session, which is then counted as failed.
//!
//! The seed's client reported min/max/average session time over the sessions that did not fail and the
//! share that failed; the rows here (per request and per session) let `analyze` compute those and our
//! percentiles from the same data. Nothing is computed here.

use super::http;
use super::probe::ProbeResult;
use crate::clock::{sleep_until, RunClock};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Requests of one session.
pub const STEPS: u32 = 3;

/// Each step's label in requests.csv (the step is `seq mod 3`): GET the page, POST the form (its row
/// includes following the redirect), GET the page again.
pub const STEP_LABELS: [&str; STEPS as usize] = ["get-page", "post-form", "get-page-again"];

/// Each step's name in the reports (dataset.toml's `sessions.steps`), so a failed session is
/// said to have failed at a step a reader knows, in the words of the dataset's description.
pub fn step_names() -> [crate::plan::Text; STEPS as usize] {
    [
        ("GET the page", "ページ表示"),
        ("POST the form and follow its redirect", "フォームのPOSTとリダイレクトの追跡"),
        ("GET the page again", "ページの再表示"),
    ]
    .map(|(en, ja)| crate::plan::Text::new(en, ja))
}

/// What the sessions of one run do.
#[derive(Debug, Clone)]
pub struct SessionSpec {
    pub addr: SocketAddr,
    /// The page (seed 003: `/`).
    pub path: String,
    pub count: u32,
    pub ramp: Duration,
    /// Bound of each request, from connect to the end of the body.
    pub request_timeout: Duration,
}

/// One session: its requests (as request rows) and how it ended.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionResult {
    pub session: u32,
    /// When the ramp wanted it started, ms from the run's start.
    pub scheduled_ms: f64,
    /// The requests sent, in order (rows of requests.csv; `seq` = session · 3 + step).
    pub requests: Vec<ProbeResult>,
    /// `None` for a session whose three requests succeeded; else the step (0-2) that failed and why.
    pub failure: Option<(u32, String)>,
}

impl SessionResult {
    /// From the first send to the end of the last response, for a session that did not fail.
    pub fn duration_ms(&self) -> Option<f64> {
        if self.failure.is_some() {
            return None;
        }
        let first = self.requests.first()?;
        let last = self.requests.last()?;
        Some(last.sent_ms + last.latency_ms? - first.sent_ms)
    }
}

/// When session k is due: k · ramp / count ms after the run's start.
pub fn schedule_ms(count: u32, ramp: Duration) -> Vec<f64> {
    let period = ramp.as_secs_f64() * 1e3 / f64::from(count.max(1));
    (0..count).map(|k| f64::from(k) * period).collect()
}

/// Starts one thread per session. A thread returns `None` when the run was cancelled before its session
/// was due.
pub fn spawn_sessions(
    spec: &SessionSpec,
    clock: RunClock,
    cancel: Arc<AtomicBool>,
) -> std::io::Result<Vec<JoinHandle<Option<SessionResult>>>> {
    schedule_ms(spec.count, spec.ramp)
        .into_iter()
        .enumerate()
        .map(|(k, scheduled_ms)| {
            let cancel = Arc::clone(&cancel);
            let spec = spec.clone();
            std::thread::Builder::new().name(format!("session-{k}")).stack_size(128 * 1024).spawn(move || {
                if !sleep_until(clock.at_ms(scheduled_ms), Duration::from_millis(50), || cancel.load(Ordering::Relaxed)) {
                    return None;
                }
                Some(run_session(&spec, k as u32, scheduled_ms, clock, &cancel))
            })
        })
        .collect()
}

/// The path of a `Location` header: `/x` as is, `http://host/x` → `/x`.
pub fn location_path(location: &str) -> Option<String> {
    if location.starts_with('/') {
        return Some(location.to_string());
    }
    let rest = location.strip_prefix("http://").or_else(|| location.strip_prefix("https://"))?;
    Some(rest.find('/').map_or_else(|| "/".to_string(), |i| rest[i..].to_string()))
}

fn run_session(spec: &SessionSpec, session: u32, scheduled_ms: f64, clock: RunClock, cancel: &AtomicBool) -> SessionResult {
    let mut result = SessionResult { session, scheduled_ms, requests: Vec::new(), failure: None };
    let form = format!("text=session+{session}");
    for step in 0..STEPS {
        // The first request keeps the ramp's schedule; the next ones are due when the previous one ended.
        let scheduled = if step == 0 { scheduled_ms } else { clock.ms(Instant::now()) };
        let seq = session * STEPS + step;
        let (row, error) = if step == 1 {
            post_and_follow(spec, &form, seq, scheduled, clock, cancel)
        } else {
            let (row, _, error) = exchange(spec, &http::get_request(spec.addr, &spec.path), seq, scheduled, clock, cancel);
            (row, error)
        };
        let failure = error.or_else(|| (!(200..300).contains(&row.status)).then(|| format!("status {}", row.status)));
        result.requests.push(row);
        if let Some(why) = failure {
            result.failure = Some((step, why));
            break;
        }
    }
    result
}

/// POSTs the form and GETs where it redirects: one row from the POST's send to the end of that page.
fn post_and_follow(
    spec: &SessionSpec,
    form: &str,
    seq: u32,
    scheduled_ms: f64,
    clock: RunClock,
    cancel: &AtomicBool,
) -> (ProbeResult, Option<String>) {
    let (post, location, error) = exchange(spec, &http::post_form_request(spec.addr, &spec.path, form), seq, scheduled_ms, clock, cancel);
    if error.is_some() {
        return (post, error);
    }
    if !(300..400).contains(&post.status) {
        let why = format!("the POST answered {} instead of a redirect", post.status);
        return (post, Some(why));
    }
    let Some(next) = location.as_deref().and_then(location_path) else {
        return (post, Some("a redirect without a usable Location".into()));
    };
    let (page, _, error) = exchange(spec, &http::get_request(spec.addr, &next), seq, scheduled_ms, clock, cancel);
    let latency_ms = page.latency_ms.map(|_| clock.ms(Instant::now()) - post.sent_ms);
    (ProbeResult { sent_ms: post.sent_ms, latency_ms, ..page }, error)
}

/// One request on a fresh connection; returns its row, the Location header and the error, if any.
fn exchange(
    spec: &SessionSpec,
    request: &[u8],
    seq: u32,
    scheduled_ms: f64,
    clock: RunClock,
    cancel: &AtomicBool,
) -> (ProbeResult, Option<String>, Option<String>) {
    let start = Instant::now();
    let deadline = start + spec.request_timeout;
    let sent_ms = clock.ms(start);
    let mut row = ProbeResult { seq, scheduled_ms, sent_ms, latency_ms: None, status: 0, body_bytes: 0 };
    let mut stream = match http::connect(spec.addr, None, deadline) {
        Ok((s, _)) => s,
        Err(e) => return (row, None, Some(format!("connect: {e}"))),
    };
    if let Err(e) = http::send(&mut stream, request, deadline) {
        return (row, None, Some(format!("send: {e}")));
    }
    let response = http::read_response(&mut stream, deadline, 64 * 1024, cancel, |_| true);
    row.status = response.status;
    row.body_bytes = response.body_bytes;
    match response.result {
        Ok(()) => {
            row.latency_ms = Some(start.elapsed().as_secs_f64() * 1e3);
            (row, response.location, None)
        }
        Err(e) => {
            // A response that did not complete counts as none.
            row.status = 0;
            (row, None, Some(e.to_string()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::net::TcpListener;

    #[test]
    fn sessions_start_evenly_over_the_ramp() {
        let s = schedule_ms(500, Duration::from_secs(10));
        assert_eq!(s.len(), 500);
        assert_eq!((s[0], s[1], s[50], s[499]), (0.0, 20.0, 1000.0, 9980.0));
    }

    #[test]
    fn redirect_locations_become_paths() {
        assert_eq!(location_path("/").as_deref(), Some("/"));
        assert_eq!(location_path("http://127.0.0.1:8000/page?x=1").as_deref(), Some("/page?x=1"));
        assert_eq!(location_path("http://127.0.0.1:8000").as_deref(), Some("/"));
        assert_eq!(location_path("page"), None);
    }

    /// A loopback server that answers `replies` in order, one connection each, and records the requests.
    fn server(replies: Vec<&'static str>) -> (SocketAddr, JoinHandle<Vec<String>>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let handle = std::thread::spawn(move || {
            let mut seen = Vec::new();
            for reply in replies {
                let (mut s, _) = listener.accept().unwrap();
                let mut buf = [0u8; 4096];
                let n = s.read(&mut buf).unwrap();
                seen.push(String::from_utf8_lossy(&buf[..n]).into_owned());
                s.write_all(reply.as_bytes()).unwrap();
            }
            seen
        });
        (addr, handle)
    }

    fn spec(addr: SocketAddr) -> SessionSpec {
        SessionSpec { addr, path: "/".into(), count: 1, ramp: Duration::from_millis(1), request_timeout: Duration::from_secs(5) }
    }

    #[test]
    fn a_session_gets_posts_and_follows_the_redirect() {
        let page = "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\npage";
        let (addr, handle) = server(vec![page, "HTTP/1.1 302 Found\r\nLocation: /next\r\nContent-Length: 0\r\n\r\n", page, page]);
        let never = AtomicBool::new(false);
        let r = run_session(&spec(addr), 7, 140.0, RunClock::start(), &never);
        let seen = handle.join().unwrap();
        assert_eq!(r.failure, None);
        let statuses: Vec<u16> = r.requests.iter().map(|q| q.status).collect();
        assert_eq!(statuses, [200, 200, 200], "the POST's row ends with the page it redirects to");
        assert_eq!(r.requests.iter().map(|q| q.seq).collect::<Vec<_>>(), [21, 22, 23]);
        assert_eq!(r.requests[0].scheduled_ms, 140.0);
        assert!(seen[0].starts_with("GET / HTTP/1.1") && seen[2].starts_with("GET /next HTTP/1.1"), "{seen:?}");
        assert!(seen[1].starts_with("POST / HTTP/1.1") && seen[1].ends_with("\r\n\r\ntext=session+7"), "{seen:?}");
        assert!(seen[3].starts_with("GET / HTTP/1.1"), "{seen:?}");
        let post = &r.requests[1];
        assert!(post.sent_ms >= r.requests[0].sent_ms + r.requests[0].latency_ms.unwrap() - 0.01);
        assert!(r.duration_ms().unwrap() > 0.0);
    }

    #[test]
    fn a_failed_request_ends_the_session_and_leaves_it_out_of_the_times() {
        let page = "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\npage";
        let (addr, handle) = server(vec![page, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n"]);
        let never = AtomicBool::new(false);
        let r = run_session(&spec(addr), 0, 0.0, RunClock::start(), &never);
        handle.join().unwrap();
        assert_eq!(r.requests.len(), 2, "the third request is never sent");
        assert_eq!(r.requests[1].status, 502);
        assert_eq!(r.failure, Some((1, "the POST answered 502 instead of a redirect".into())));
        assert_eq!(r.duration_ms(), None);
    }
}
