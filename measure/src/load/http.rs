//! Just enough HTTP/1.1 for `GET` with `Connection: close` over loopback.
//!
//! Our own code rather than an HTTP library because the experiment is about the socket: we set SO_RCVBUF
//! before `connect`, read at most a chunk per call so pacing is exact, and time connect and last byte
//! ourselves. Head parsing is a pure function over bytes so it is tested without a server.

use socket2::{Domain, SockAddr, Socket, Type};
use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The longest a read blocks before the cancel flag is looked at again.
pub const CANCEL_CHECK: Duration = Duration::from_millis(100);

/// Why an exchange ended without a complete response.
#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    #[error("timed out")]
    Timeout,
    #[error("cancelled")]
    Cancelled,
    #[error("connection closed after {got} of {expected} body bytes")]
    Truncated { expected: u64, got: u64 },
    #[error("connection closed before the response head")]
    NoHead,
    #[error("malformed response head: {0}")]
    Malformed(String),
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// The parts of a response head the harness uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    pub status: u16,
    pub content_length: Option<u64>,
    /// Bytes of the head including the blank line.
    pub len: usize,
    /// Where a redirect points (the `Location` header), as sent.
    pub location: Option<String>,
}

/// Parses a response head from the start of `buf`; `Ok(None)` while the blank line has not arrived.
pub fn parse_head(buf: &[u8]) -> Result<Option<Head>, HttpError> {
    let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") else {
        return Ok(None);
    };
    let text = std::str::from_utf8(&buf[..end]).map_err(|_| HttpError::Malformed("not UTF-8".into()))?;
    let mut lines = text.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let mut parts = status_line.splitn(3, ' ');
    let version = parts.next().unwrap_or_default();
    if !version.starts_with("HTTP/1.") {
        return Err(HttpError::Malformed(format!("status line {status_line:?}")));
    }
    let status =
        parts.next().and_then(|s| s.parse::<u16>().ok()).ok_or_else(|| HttpError::Malformed(format!("status line {status_line:?}")))?;
    let mut content_length = None;
    let mut location = None;
    for line in lines {
        if let Some((name, value)) = line.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                let n = value.trim().parse::<u64>().map_err(|_| HttpError::Malformed(format!("{line:?}")))?;
                content_length = Some(n);
            } else if name.trim().eq_ignore_ascii_case("location") {
                location = Some(value.trim().to_string());
            }
        }
    }
    Ok(Some(Head { status, content_length, len: end + 4, location }))
}

/// The request line and headers of a `GET` that asks the server to close afterwards.
pub fn get_request(addr: SocketAddr, path: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nUser-Agent: measure\r\nConnection: close\r\n\r\n").into_bytes()
}

/// A `POST` of a form (`application/x-www-form-urlencoded` body) that asks the server to close afterwards.
pub fn post_form_request(addr: SocketAddr, path: &str, form: &str) -> Vec<u8> {
    format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nUser-Agent: measure\r\nConnection: close\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{form}",
        form.len()
    )
    .into_bytes()
}

/// Connects to `addr` by `deadline`, with SO_RCVBUF set first when asked; returns the socket and the
/// receive buffer size the kernel reports afterwards (Linux doubles the request for bookkeeping).
pub fn connect(addr: SocketAddr, rcvbuf: Option<usize>, deadline: Instant) -> Result<(TcpStream, usize), HttpError> {
    let socket = Socket::new(Domain::for_address(addr), Type::STREAM, None)?;
    if let Some(size) = rcvbuf {
        // Must precede connect: the window scale is negotiated in the handshake.
        socket.set_recv_buffer_size(size)?;
    }
    let reported = socket.recv_buffer_size()?;
    let timeout = deadline.saturating_duration_since(Instant::now());
    if timeout.is_zero() {
        return Err(HttpError::Timeout);
    }
    socket.connect_timeout(&SockAddr::from(addr), timeout).map_err(timeout_or_io)?;
    Ok((socket.into(), reported))
}

/// Sends `request` completely.
pub fn send(stream: &mut TcpStream, request: &[u8], deadline: Instant) -> Result<(), HttpError> {
    let timeout = deadline.saturating_duration_since(Instant::now());
    if timeout.is_zero() {
        return Err(HttpError::Timeout);
    }
    stream.set_write_timeout(Some(timeout))?;
    stream.write_all(request).map_err(timeout_or_io)
}

/// What was read of one response.
#[derive(Debug)]
pub struct Response {
    /// 0 when no head arrived.
    pub status: u16,
    pub body_bytes: u64,
    /// `Ok` when the body is complete (Content-Length reached, or EOF without one).
    pub result: Result<(), HttpError>,
    /// The `Location` header, when the head had one.
    pub location: Option<String>,
}

/// Reads one response, at most `chunk` bytes per `read`, until the body is complete, `deadline` passes,
/// `cancel` is set or `after_read(total bytes read so far)` returns false. `after_read` is where a slow
/// client sleeps. Reads wait at most [`CANCEL_CHECK`] at a time so a cancel is seen promptly.
pub fn read_response(
    stream: &mut TcpStream,
    deadline: Instant,
    chunk: usize,
    cancel: &AtomicBool,
    mut after_read: impl FnMut(u64) -> bool,
) -> Response {
    let mut buf = vec![0u8; chunk.max(1)];
    let mut head_buf: Vec<u8> = Vec::new();
    let mut head: Option<Head> = None;
    let (mut total, mut body) = (0u64, 0u64);
    let response = |head: &Option<Head>, body: u64, result: Result<(), HttpError>| Response {
        status: head.as_ref().map_or(0, |h| h.status),
        body_bytes: body,
        result,
        location: head.as_ref().and_then(|h| h.location.clone()),
    };
    loop {
        if let Some(h) = &head {
            if h.content_length.is_some_and(|cl| body >= cl) {
                return response(&head, body, Ok(()));
            }
        }
        if cancel.load(Ordering::Relaxed) {
            return response(&head, body, Err(HttpError::Cancelled));
        }
        let timeout = deadline.saturating_duration_since(Instant::now());
        if timeout.is_zero() {
            return response(&head, body, Err(HttpError::Timeout));
        }
        if let Err(e) = stream.set_read_timeout(Some(timeout.min(CANCEL_CHECK))) {
            return response(&head, body, Err(e.into()));
        }
        let n = match stream.read(&mut buf) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            // A slice ran out: look at the deadline and the cancel flag again.
            Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => continue,
            Err(e) => return response(&head, body, Err(e.into())),
        };
        if n == 0 {
            let result = match &head {
                None => Err(HttpError::NoHead),
                Some(Head { content_length: Some(cl), .. }) => Err(HttpError::Truncated { expected: *cl, got: body }),
                Some(_) => Ok(()),
            };
            return response(&head, body, result);
        }
        total += n as u64;
        match &head {
            Some(_) => body += n as u64,
            None => {
                head_buf.extend_from_slice(&buf[..n]);
                match parse_head(&head_buf) {
                    Ok(Some(h)) => {
                        body = (head_buf.len() - h.len) as u64;
                        head = Some(h);
                        head_buf = Vec::new();
                    }
                    Ok(None) if head_buf.len() > 64 * 1024 => {
                        return response(&None, 0, Err(HttpError::Malformed("head longer than 64 KiB".into())))
                    }
                    Ok(None) => {}
                    Err(e) => return response(&None, 0, Err(e)),
                }
            }
        }
        if !after_read(total) {
            return response(&head, body, Err(HttpError::Cancelled));
        }
    }
}

fn timeout_or_io(e: io::Error) -> HttpError {
    match e.kind() {
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => HttpError::Timeout,
        _ => HttpError::Io(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    static NEVER: AtomicBool = AtomicBool::new(false);

    #[test]
    fn parses_status_and_length() {
        let raw = b"HTTP/1.1 200 OK\r\nServer: x\r\ncontent-length: 12\r\n\r\n{\"ok\": true}";
        let head = parse_head(raw).unwrap().unwrap();
        assert_eq!(head, Head { status: 200, content_length: Some(12), len: raw.len() - 12, location: None });
        let redirect = parse_head(b"HTTP/1.1 302 Found\r\nLocation: /\r\nContent-Length: 0\r\n\r\n").unwrap().unwrap();
        assert_eq!((redirect.status, redirect.location.as_deref()), (302, Some("/")));
    }

    #[test]
    fn waits_for_the_blank_line() {
        assert!(parse_head(b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n").unwrap().is_none());
    }

    #[test]
    fn rejects_garbage_status_line() {
        assert!(matches!(parse_head(b"SSH-2.0-x\r\n\r\n"), Err(HttpError::Malformed(_))));
        assert!(matches!(parse_head(b"HTTP/1.1 abc\r\n\r\n"), Err(HttpError::Malformed(_))));
    }

    /// A one-shot server on loopback that writes `reply` in pieces and closes.
    fn serve_once(reply: &'static [u8], pieces: usize) -> SocketAddr {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        std::thread::spawn(move || {
            let (mut s, _) = listener.accept().unwrap();
            let mut req = [0u8; 1024];
            let _ = s.read(&mut req);
            for piece in reply.chunks(reply.len().div_ceil(pieces)) {
                s.write_all(piece).unwrap();
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        addr
    }

    #[test]
    fn reads_a_response_split_across_reads() {
        let addr = serve_once(b"HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n{\"ok\": true}", 4);
        let deadline = Instant::now() + Duration::from_secs(5);
        let (mut s, reported) = connect(addr, Some(8192), deadline).unwrap();
        assert!(reported >= 8192);
        send(&mut s, &get_request(addr, "/fast"), deadline).unwrap();
        let mut calls = 0;
        let r = read_response(&mut s, deadline, 7, &NEVER, |_| {
            calls += 1;
            true
        });
        assert!(r.result.is_ok(), "{:?}", r.result);
        assert_eq!((r.status, r.body_bytes), (200, 12));
        assert!(calls >= 8, "reads are capped at the chunk size");
    }

    #[test]
    fn reports_a_truncated_body() {
        let addr = serve_once(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort", 1);
        let deadline = Instant::now() + Duration::from_secs(5);
        let (mut s, _) = connect(addr, None, deadline).unwrap();
        send(&mut s, &get_request(addr, "/large"), deadline).unwrap();
        let r = read_response(&mut s, deadline, 1024, &NEVER, |_| true);
        assert_eq!((r.status, r.body_bytes), (200, 5));
        assert!(matches!(r.result, Err(HttpError::Truncated { expected: 100, got: 5 })));
    }

    #[test]
    fn times_out_on_a_silent_server() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let deadline = Instant::now() + Duration::from_millis(100);
        let (mut s, _) = connect(addr, None, deadline).unwrap();
        send(&mut s, &get_request(addr, "/fast"), deadline).unwrap();
        let r = read_response(&mut s, deadline, 1024, &NEVER, |_| true);
        assert!(matches!(r.result, Err(HttpError::Timeout)), "{:?}", r.result);
        drop(listener);
    }

    #[test]
    fn a_cancel_ends_a_blocked_read() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        let (mut s, _) = connect(addr, None, deadline).unwrap();
        let cancel = AtomicBool::new(true);
        let start = Instant::now();
        let r = read_response(&mut s, deadline, 1024, &cancel, |_| true);
        assert!(matches!(r.result, Err(HttpError::Cancelled)));
        assert!(start.elapsed() < Duration::from_secs(1));
        drop(listener);
    }
}
