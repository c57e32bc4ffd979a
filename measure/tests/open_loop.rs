//! measure's open-loop client against a tiny server on 127.0.0.1 (a std listener in this file): 20,000
//! requests at a fixed rate, a new connection each (the default) and kept alive, every one recorded with
//! its intended send time, in schedule order, with its send time and its response. How late the sends are
//! is the benchmark's to measure (bench/OPEN_LOOP_RESULTS.md), not a test's: a busy machine would break it.

use measure::clock::RunClock;
use measure::load::open_loop::Connection;
use measure::load::probe::{spawn_probes, ProbeResult};
use measure::plan::open::Probe;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The tests run one at a time: each sends thousands of requests a second on a shared machine.
static SERIAL: Mutex<()> = Mutex::new(());

const BODY: &[u8] = b"{\"ok\": true}";

/// A server that answers every request on a connection until the client or the request closes it, and
/// counts its connections. A connection whose first request asks to close is answered in the accept loop
/// (thousands a second: a thread each would cost more than the client it serves); a kept-alive one gets a
/// thread. It stops accepting once `stop` is set and one more connection arrives, or after 60 s.
struct Server {
    addr: SocketAddr,
    connections: Arc<AtomicU64>,
    requests: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
}

impl Server {
    fn start() -> Server {
        // A deep accept queue: a stalled moment of a busy machine should not drop connections.
        let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
        socket.bind(&SocketAddr::from(([127, 0, 0, 1], 0)).into()).unwrap();
        socket.listen(4096).unwrap();
        let listener: TcpListener = socket.into();
        let addr = listener.local_addr().unwrap();
        let (connections, requests, stop) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)), Arc::new(AtomicBool::new(false)));
        let (c, r, s) = (Arc::clone(&connections), Arc::clone(&requests), Arc::clone(&stop));
        std::thread::spawn(move || {
            let until = Instant::now() + Duration::from_secs(60);
            for stream in listener.incoming() {
                if s.load(Ordering::Relaxed) || Instant::now() > until {
                    break;
                }
                let Ok(mut stream) = stream else { continue };
                c.fetch_add(1, Ordering::Relaxed);
                let mut buf = Vec::new();
                if answer(&mut stream, &mut buf, &r, true) {
                    let r = Arc::clone(&r);
                    std::thread::spawn(move || answer(&mut stream, &mut buf, &r, false));
                }
            }
        });
        Server { addr, connections, requests, stop }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Wakes the accept loop so it sees the flag.
        let _ = TcpStream::connect(self.addr);
    }
}

/// Answers each request head on `stream` with [`BODY`] (`buf` holds what was read and not yet answered);
/// with `first`, only the first one. True when the connection stays open for more.
fn answer(stream: &mut TcpStream, buf: &mut Vec<u8>, requests: &AtomicU64, first: bool) -> bool {
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut chunk = [0u8; 4096];
    loop {
        while let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
            buf.drain(..end + 4);
            requests.fetch_add(1, Ordering::Relaxed);
            let close = head.contains("connection: close");
            let reply = format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\nContent-Type: application/json\r\n\r\n", BODY.len());
            if stream.write_all(&[reply.as_bytes(), BODY].concat()).is_err() || close {
                return false;
            }
            if first {
                return true;
            }
        }
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => return false,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
        }
    }
}

/// `count` requests at `rate` a second from t = 0, each bounded by 10 s.
fn send(addr: SocketAddr, rate: u32, count: u32, connection: Connection) -> Vec<ProbeResult> {
    let probe = Probe { start_ms: 0, rate_per_s: rate, count, timeout_s: 10 };
    let cancel = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let results = spawn_probes(addr, "/fast", &probe, connection, RunClock::start(), cancel).unwrap().join().unwrap();
    // Bounded: the schedule lasts count / rate seconds and each request at most its timeout more.
    assert!(started.elapsed() < Duration::from_secs(u64::from(count / rate) + 11), "{:?}", started.elapsed());
    results
}

/// Every request is there once, in schedule order, with its intended time, a send time never before it,
/// and a complete response.
fn assert_every_request_recorded(results: &[ProbeResult], rate: u32, count: u32) {
    assert_eq!(results.len(), count as usize);
    let period_ms = 1000.0 / f64::from(rate);
    for (k, r) in results.iter().enumerate() {
        assert_eq!(r.seq, k as u32, "schedule order");
        assert!((r.scheduled_ms - k as f64 * period_ms).abs() < 1e-9, "request {k} is due at k / rate: {r:?}");
        // The lag (sent - scheduled) is there and never negative (a microsecond of float rounding aside).
        assert!(r.sent_ms.is_finite() && r.sent_ms >= r.scheduled_ms - 1e-3, "request {k} was sent early: {r:?}");
        assert_eq!((r.status, r.body_bytes), (200, BODY.len() as u64), "request {k}: {r:?}");
        assert!(r.latency_ms.is_some_and(|l| l > 0.0), "request {k} has its latency: {r:?}");
    }
}

#[test]
fn twenty_thousand_requests_each_on_a_new_connection_are_all_recorded_in_schedule_order() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let server = Server::start();
    let (rate, count) = (4_000, 20_000);
    let results = send(server.addr, rate, count, Connection::PerRequest);
    assert_every_request_recorded(&results, rate, count);
    assert_eq!(server.requests.load(Ordering::Relaxed), u64::from(count));
    assert_eq!(server.connections.load(Ordering::Relaxed), u64::from(count), "a new connection per request");
}

#[test]
fn twenty_thousand_kept_alive_requests_are_all_recorded_on_far_fewer_connections() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let server = Server::start();
    let (rate, count) = (4_000, 20_000);
    let results = send(server.addr, rate, count, Connection::KeepAlive);
    assert_every_request_recorded(&results, rate, count);
    assert_eq!(server.requests.load(Ordering::Relaxed), u64::from(count));
    // A connection is opened only when a request is due while every open one is busy; how many depends on
    // how fast this machine answers, not on the schedule, so the bound is loose.
    let connections = server.connections.load(Ordering::Relaxed);
    assert!(connections <= u64::from(count) / 4, "{connections} connections for {count} kept-alive requests");
}

#[test]
fn a_server_that_closes_kept_alive_connections_gets_every_request_on_a_fresh_one() {
    // nginx ends a kept-alive connection after `keepalive_requests` with `Connection: close`; the client
    // must not send on it again. This server says so on every response.
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let count = 200;
    let server = std::thread::spawn(move || {
        for _ in 0..count {
            let (mut s, _) = listener.accept().unwrap();
            s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
            let mut buf = [0u8; 4096];
            let _ = s.read(&mut buf);
            let reply = format!("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: {}\r\n\r\n", BODY.len());
            let _ = s.write_all(&[reply.as_bytes(), BODY].concat());
        }
    });
    let results = send(addr, 1_000, count, Connection::KeepAlive);
    assert_every_request_recorded(&results, 1_000, count);
    server.join().unwrap();
}
