//! Just enough HTTP/1.1 for `GET` over loopback: with `Connection: close`, or kept alive by the open-loop
//! client when its plan asks.
//!
//! Our own code rather than an HTTP library because the experiment is about the socket: we set SO_RCVBUF
//! before `connect`, read at most a chunk per call so pacing is exact, and time connect and last byte
//! ourselves. Head parsing and when a response is complete ([`Reading`]) are pure functions over bytes, so
//! they are tested without a server, and the blocking reader here and the event-driven open-loop client
//! share them.

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
    /// The server said `Connection: close`: the connection ends with this response.
    pub close: bool,
    /// The body is sent in chunks (`Transfer-Encoding: chunked`).
    pub chunked: bool,
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
    let mut head = Head { status, content_length: None, len: end + 4, location: None, close: false, chunked: false };
    for line in lines {
        if let Some((name, value)) = line.split_once(':') {
            let (name, value) = (name.trim(), value.trim());
            if name.eq_ignore_ascii_case("content-length") {
                let n = value.parse::<u64>().map_err(|_| HttpError::Malformed(format!("{line:?}")))?;
                head.content_length = Some(n);
            } else if name.eq_ignore_ascii_case("location") {
                head.location = Some(value.to_string());
            } else if name.eq_ignore_ascii_case("connection") {
                head.close |= value.split(',').any(|t| t.trim().eq_ignore_ascii_case("close"));
            } else if name.eq_ignore_ascii_case("transfer-encoding") {
                head.chunked |= value.split(',').any(|t| t.trim().eq_ignore_ascii_case("chunked"));
            }
        }
    }
    // A head that has both: the chunks frame the body (RFC 9112 6.3).
    if head.chunked {
        head.content_length = None;
    }
    Ok(Some(head))
}

/// The request line and headers of a `GET` that asks the server to close afterwards.
pub fn get_request(addr: SocketAddr, path: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nUser-Agent: measure\r\nConnection: close\r\n\r\n").into_bytes()
}

/// A `GET` that leaves the connection open for the next request (HTTP/1.1's default).
pub fn get_request_keep_alive(addr: SocketAddr, path: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nUser-Agent: measure\r\n\r\n").into_bytes()
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

/// A response as far as it has arrived: fed the bytes as they come, it says when the response is complete
/// (the one home of that rule). Complete means: the body reached its Content-Length, the last chunk of a
/// chunked body arrived, or the status has no body (1xx, 204, 304); otherwise it ends at EOF.
#[derive(Debug, Default)]
pub struct Reading {
    head_buf: Vec<u8>,
    head: Option<Head>,
    /// Bytes after the head (a chunked body's framing included).
    body: u64,
    chunks: Chunks,
}

/// Where a chunked body is.
#[derive(Debug, Default)]
enum Chunks {
    /// Reading a chunk-size line (the bytes so far).
    #[default]
    Size,
    /// This many bytes of chunk data and its CRLF are still to come.
    Data(u64),
    /// After the last chunk: trailer lines until an empty one (the bytes so far).
    Trailer,
    Done,
}

/// The longest head (or chunk-size line) read before the response is called malformed.
const MAX_HEAD: usize = 64 * 1024;

impl Reading {
    /// Takes the next bytes read; `Ok(true)` once the response is complete.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<bool, HttpError> {
        if self.head.is_some() {
            self.body += bytes.len() as u64;
            self.frame(bytes)?;
            return Ok(self.complete());
        }
        self.head_buf.extend_from_slice(bytes);
        match parse_head(&self.head_buf)? {
            Some(h) => {
                let rest = self.head_buf.split_off(h.len);
                self.body = rest.len() as u64;
                self.head = Some(h);
                self.head_buf.clear();
                self.frame(&rest)?;
            }
            None if self.head_buf.len() > MAX_HEAD => return Err(HttpError::Malformed("head longer than 64 KiB".into())),
            None => {}
        }
        Ok(self.complete())
    }

    /// Follows a chunked body's framing over `bytes` of it (`head_buf` holds a partial size or trailer line).
    fn frame(&mut self, mut bytes: &[u8]) -> Result<(), HttpError> {
        if !self.head.as_ref().is_some_and(|h| h.chunked) {
            return Ok(());
        }
        while !bytes.is_empty() {
            match self.chunks {
                Chunks::Done => return Ok(()),
                Chunks::Data(n) => {
                    let take = n.min(bytes.len() as u64);
                    bytes = &bytes[take as usize..];
                    self.chunks = if take == n { Chunks::Size } else { Chunks::Data(n - take) };
                }
                Chunks::Size | Chunks::Trailer => {
                    let (line_end, rest) = match bytes.iter().position(|&b| b == b'\n') {
                        Some(i) => (true, i + 1),
                        None => (false, bytes.len()),
                    };
                    self.head_buf.extend_from_slice(&bytes[..rest]);
                    bytes = &bytes[rest..];
                    if self.head_buf.len() > MAX_HEAD {
                        return Err(HttpError::Malformed("chunk line longer than 64 KiB".into()));
                    }
                    if !line_end {
                        continue;
                    }
                    let line = std::mem::take(&mut self.head_buf);
                    let text = String::from_utf8_lossy(&line);
                    let text = text.trim_end_matches(['\r', '\n']);
                    self.chunks = match self.chunks {
                        Chunks::Trailer if text.is_empty() => Chunks::Done,
                        Chunks::Trailer => Chunks::Trailer,
                        _ => {
                            let size = text.split(';').next().unwrap_or_default().trim();
                            let size = u64::from_str_radix(size, 16).map_err(|_| HttpError::Malformed(format!("chunk size {text:?}")))?;
                            if size == 0 {
                                Chunks::Trailer
                            } else {
                                Chunks::Data(size.saturating_add(2))
                            }
                        }
                    };
                }
            }
        }
        Ok(())
    }

    /// Whether the response is complete without waiting for EOF.
    pub fn complete(&self) -> bool {
        match &self.head {
            None => false,
            Some(h) if matches!(h.status, 100..=199 | 204 | 304) => true,
            Some(h) if h.chunked => matches!(self.chunks, Chunks::Done),
            Some(h) => h.content_length.is_some_and(|cl| self.body >= cl),
        }
    }

    /// Whether the connection may carry another request after this complete response: the server did not
    /// say it closes, and no byte came beyond the response.
    pub fn reusable(&self) -> bool {
        self.complete()
            && self
                .head
                .as_ref()
                .is_some_and(|h| !h.close && !(100..=199).contains(&h.status) && h.content_length.is_none_or(|cl| self.body == cl))
    }

    /// What the connection's end (EOF) means for the response read so far.
    pub fn at_eof(&self) -> Result<(), HttpError> {
        match &self.head {
            _ if self.complete() => Ok(()),
            None => Err(HttpError::NoHead),
            Some(Head { content_length: Some(cl), .. }) => Err(HttpError::Truncated { expected: *cl, got: self.body }),
            Some(Head { chunked: true, .. }) => Err(HttpError::Malformed("connection closed before the last chunk".into())),
            Some(_) => Ok(()),
        }
    }

    /// The status; 0 while no head has arrived.
    pub fn status(&self) -> u16 {
        self.head.as_ref().map_or(0, |h| h.status)
    }

    /// Bytes after the head so far.
    pub fn body_bytes(&self) -> u64 {
        self.body
    }

    /// The `Location` header, when the head had one.
    pub fn location(&self) -> Option<String> {
        self.head.as_ref().and_then(|h| h.location.clone())
    }
}

/// Reads one response, at most `chunk` bytes per `read`, until it is complete (see [`Reading`]), `deadline`
/// passes, `cancel` is set or `after_read(total bytes read so far)` returns false. `after_read` is where a
/// slow client sleeps. Reads wait at most [`CANCEL_CHECK`] at a time so a cancel is seen promptly.
pub fn read_response(
    stream: &mut TcpStream,
    deadline: Instant,
    chunk: usize,
    cancel: &AtomicBool,
    mut after_read: impl FnMut(u64) -> bool,
) -> Response {
    let mut buf = vec![0u8; chunk.max(1)];
    let mut reading = Reading::default();
    let mut total = 0u64;
    let response = |reading: &Reading, result: Result<(), HttpError>| Response {
        status: reading.status(),
        body_bytes: reading.body_bytes(),
        result,
        location: reading.location(),
    };
    loop {
        if reading.complete() {
            return response(&reading, Ok(()));
        }
        if cancel.load(Ordering::Relaxed) {
            return response(&reading, Err(HttpError::Cancelled));
        }
        let timeout = deadline.saturating_duration_since(Instant::now());
        if timeout.is_zero() {
            return response(&reading, Err(HttpError::Timeout));
        }
        if let Err(e) = stream.set_read_timeout(Some(timeout.min(CANCEL_CHECK))) {
            return response(&reading, Err(e.into()));
        }
        let n = match stream.read(&mut buf) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            // A slice ran out: look at the deadline and the cancel flag again.
            Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => continue,
            Err(e) => return response(&reading, Err(e.into())),
        };
        if n == 0 {
            return response(&reading, reading.at_eof());
        }
        total += n as u64;
        if let Err(e) = reading.feed(&buf[..n]) {
            return response(&Reading::default(), Err(e));
        }
        if !after_read(total) {
            return response(&reading, Err(HttpError::Cancelled));
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
        assert_eq!(head, Head { status: 200, content_length: Some(12), len: raw.len() - 12, location: None, close: false, chunked: false });
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

    /// `raw` fed in pieces of `piece` bytes: whether each feed said complete.
    fn feed_in_pieces(raw: &[u8], piece: usize) -> (Reading, Vec<bool>) {
        let mut reading = Reading::default();
        let done = raw.chunks(piece).map(|p| reading.feed(p).unwrap()).collect();
        (reading, done)
    }

    #[test]
    fn a_response_is_complete_at_its_content_length_whatever_the_pieces() {
        let raw = b"HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n{\"ok\": true}";
        for piece in [1, 3, 7, raw.len()] {
            let (reading, done) = feed_in_pieces(raw, piece);
            assert_eq!(done.iter().position(|&d| d), Some(done.len() - 1), "complete at the last byte, piece {piece}");
            assert_eq!((reading.status(), reading.body_bytes(), reading.reusable()), (200, 12, true));
        }
    }

    #[test]
    fn a_chunked_response_is_complete_at_its_last_chunk_and_counts_its_bytes_as_sent() {
        let raw = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\nhello\r\nA\r\n0123456789\r\n0\r\nX-T: 1\r\n\r\n";
        let body = raw.len() - raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap() - 4;
        for piece in [1, 2, 5, raw.len()] {
            let (reading, done) = feed_in_pieces(raw, piece);
            assert_eq!(done.iter().position(|&d| d), Some(done.len() - 1), "complete at the last byte, piece {piece}");
            assert_eq!((reading.body_bytes(), reading.reusable()), (body as u64, true));
        }
        let (reading, done) = feed_in_pieces(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n", 4);
        assert!(!done.iter().any(|&d| d));
        assert!(matches!(reading.at_eof(), Err(HttpError::Malformed(_))), "closed before the last chunk");
        let mut bad = Reading::default();
        assert!(matches!(bad.feed(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"), Err(HttpError::Malformed(_))));
    }

    #[test]
    fn a_response_without_a_body_is_complete_at_its_head_and_one_that_says_close_is_not_reused() {
        let (reading, done) = feed_in_pieces(b"HTTP/1.1 204 No Content\r\n\r\n", 100);
        assert_eq!((done, reading.reusable()), (vec![true], true));
        let (reading, done) = feed_in_pieces(b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok", 100);
        assert_eq!((done, reading.reusable()), (vec![true], false));
        // Without a length, only the end of the connection ends the body.
        let (reading, done) = feed_in_pieces(b"HTTP/1.1 200 OK\r\n\r\nsome", 100);
        assert_eq!(done, [false]);
        assert!(reading.at_eof().is_ok());
        assert!(!reading.reusable());
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
