//! The readiness probes of a starting server, and what each got when it failed, so that a server that is
//! not ready says why ("GET / answered 404", nothing listening at the address) in its run's note.

use crate::load::http::{self, HttpError};
use std::fmt;
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// What a failed probe got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Probe {
    /// Nothing accepted a connection at `address`.
    Refused { address: String },
    /// `GET path` answered with a status the check does not take for ready.
    Answered { path: String, status: u16 },
    /// A connection, but no whole response to `GET path` within a second.
    Silent { path: String },
    /// The server is still starting by measure's own check (e.g. not every worker has booted).
    Waiting,
}

impl fmt::Display for Probe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Probe::Refused { address } => write!(f, "nothing accepted connections on {address}"),
            Probe::Answered { path, status } => write!(f, "GET {path} answered {status}"),
            Probe::Silent { path } => write!(f, "GET {path} got no response within 1 s"),
            Probe::Waiting => write!(f, "still starting"),
        }
    }
}

/// `GET path` at `addr` within a second: ready when the status passes `ok`.
pub fn http(addr: SocketAddr, path: &str, ok: impl Fn(u16) -> bool) -> Result<(), Probe> {
    let deadline = Instant::now() + Duration::from_secs(1);
    let (mut stream, _) = match http::connect(addr, None, deadline) {
        Ok(connected) => connected,
        Err(HttpError::Io(e)) if e.kind() == std::io::ErrorKind::ConnectionRefused => {
            return Err(Probe::Refused { address: addr.to_string() })
        }
        Err(_) => return Err(Probe::Silent { path: path.to_string() }),
    };
    let silent = || Probe::Silent { path: path.to_string() };
    http::send(&mut stream, &http::get_request(addr, path), deadline).map_err(|_| silent())?;
    let never = AtomicBool::new(false);
    let r = http::read_response(&mut stream, deadline, 64 * 1024, &never, |_| true);
    match r.result {
        Ok(_) if ok(r.status) => Ok(()),
        Ok(_) => Err(Probe::Answered { path: path.to_string(), status: r.status }),
        Err(_) => Err(silent()),
    }
}

/// `GET path` answers 200 (the built-in servers' check).
pub fn http_200(addr: SocketAddr, path: &str) -> Result<(), Probe> {
    http(addr, path, |status| status == 200)
}

/// A TCP connection to `addr` is accepted within 200 ms.
pub fn tcp(addr: SocketAddr) -> Result<(), Probe> {
    match TcpStream::connect_timeout(&addr, Duration::from_millis(200)) {
        Ok(_) => Ok(()),
        Err(_) => Err(Probe::Refused { address: addr.to_string() }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::net::TcpListener;

    #[test]
    fn a_probe_says_the_status_it_got_or_that_nothing_listens() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let server = std::thread::spawn(move || {
            let (mut s, _) = listener.accept().unwrap();
            let mut buf = [0u8; 1024];
            let _ = s.read(&mut buf).unwrap();
            s.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").unwrap();
        });
        let got = http_200(addr, "/").unwrap_err();
        server.join().unwrap();
        assert_eq!(got.to_string(), "GET / answered 404");
        // The listener is gone now: refused.
        assert_eq!(http_200(addr, "/").unwrap_err().to_string(), format!("nothing accepted connections on {addr}"));
        assert_eq!(tcp(addr).unwrap_err(), Probe::Refused { address: addr.to_string() });
    }
}
