//! Starting, watching and stopping the real servers of one run (Gunicorn, nginx, the closed-loop app
//! servers, a command plan's server).
//!
//! Every server starts fresh for every run under its own supervisor ([`supervisor`]), a copy of measure
//! that is the parent of every process of the server (a daemonizing one included) and stops them all when
//! measure lets go of it or dies, SIGKILL included. The server runs in its own process group so a Ctrl-C
//! on the terminal reaches only measure (which then stops the servers gracefully). Stopping is with the
//! server's graceful signal, then a bounded wait, then SIGKILL to each of its processes
//! ([`ServerProcess::stop`]). A [`ServerProcess`] that is dropped without `stop` is killed.

pub mod app_log;
pub mod appserver;
pub mod command;
pub mod gunicorn;
pub mod listening;
pub mod log_tail;
pub mod nginx;
pub mod probe;
pub mod process;
pub mod python;
pub mod supervisor;

pub use probe::Probe;
pub use process::ServerProcess;

use std::net::{SocketAddr, TcpListener};
use std::process::ExitStatus;
use std::time::Duration;

/// How long a server may take to accept connections and serve `/fast`.
pub const READY_TIMEOUT: Duration = Duration::from_secs(20);

/// A port on 127.0.0.1 that was free a moment ago (the kernel picks it when binding port 0).
pub fn free_port() -> std::io::Result<u16> {
    Ok(TcpListener::bind(("127.0.0.1", 0))?.local_addr()?.port())
}

/// Why a server did not start or did not last, as the run's note says it (each a message key of
/// analyze's notes, so a report says it in its own language).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ServerFailed {
    /// The server's process ended before it was ready.
    #[error("{server} exited while starting ({status}): {log}")]
    ExitedEarly { server: String, status: String, log: String },
    /// It was still running but never passed its readiness check; `probe` is what the check got last.
    #[error("{server} was not ready after {seconds} s ({probe}): {log}")]
    NotReady { server: String, seconds: String, probe: Probe, log: String },
    /// It listens, but not on the port measure gave it.
    #[error("{server} listens on {listening}, not on its port {port}")]
    WrongPort { server: String, port: u16, listening: String },
    /// It listens on its port, but at another address than the one measure connects to (`[::1]`,
    /// `127.0.0.2`).
    #[error("{server} listens on {listening}, not on {address}")]
    WrongAddress { server: String, address: String, listening: String },
    /// It exited while the load ran.
    #[error("{server} exited during the run ({status}): {log}")]
    Exited { server: String, status: String, log: String },
}

impl ServerFailed {
    /// The note item of a run aborted for this reason.
    pub fn note(&self) -> String {
        use crate::run::note::{message, reason};
        use request_row::note_words::NoteKey;
        match self {
            ServerFailed::ExitedEarly { server, status, log } => {
                message(NoteKey::MeasureExitedEarly, &[("server", server), ("status", status), ("log", &reason(log))])
            }
            ServerFailed::NotReady { server, seconds, probe, log } => {
                let log = reason(log);
                match probe {
                    Probe::Refused { address } => message(
                        NoteKey::MeasureNotReadyRefused,
                        &[("server", server), ("seconds", seconds), ("address", address), ("log", &log)],
                    ),
                    Probe::Answered { path, status } => message(
                        NoteKey::MeasureNotReadyStatus,
                        &[("server", server), ("seconds", seconds), ("path", path), ("status", status), ("log", &log)],
                    ),
                    Probe::Silent { path } => {
                        message(NoteKey::MeasureNotReadySilent, &[("server", server), ("seconds", seconds), ("path", path), ("log", &log)])
                    }
                    Probe::Waiting => message(NoteKey::MeasureNotReady, &[("server", server), ("seconds", seconds), ("log", &log)]),
                }
            }
            ServerFailed::WrongPort { server, port, listening } => {
                message(NoteKey::MeasureWrongPort, &[("server", server), ("port", port), ("listening", listening)])
            }
            ServerFailed::WrongAddress { server, address, listening } => {
                message(NoteKey::MeasureWrongAddress, &[("server", server), ("address", address), ("listening", listening)])
            }
            ServerFailed::Exited { server, status, log } => {
                message(NoteKey::MeasureExited, &[("server", server), ("status", status), ("log", &reason(log))])
            }
        }
    }
}

/// How a process ended, in words no language needs: its exit code, or the signal's name.
pub fn exit_text(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => code.to_string(),
        (None, Some(signal)) => signal_name(signal),
        (None, None) => "?".into(),
    }
}

/// `SIGKILL` for 9.
fn signal_name(signal: libc::c_int) -> String {
    let known = [
        (libc::SIGHUP, "SIGHUP"),
        (libc::SIGINT, "SIGINT"),
        (libc::SIGQUIT, "SIGQUIT"),
        (libc::SIGILL, "SIGILL"),
        (libc::SIGABRT, "SIGABRT"),
        (libc::SIGBUS, "SIGBUS"),
        (libc::SIGFPE, "SIGFPE"),
        (libc::SIGKILL, "SIGKILL"),
        (libc::SIGSEGV, "SIGSEGV"),
        (libc::SIGPIPE, "SIGPIPE"),
        (libc::SIGTERM, "SIGTERM"),
    ];
    known.iter().find(|(n, _)| *n == signal).map_or_else(|| format!("signal {signal}"), |(_, name)| (*name).to_string())
}

/// A duration in seconds as a note writes it: `20`, `0.5`.
pub fn seconds_text(d: Duration) -> String {
    let s = d.as_secs_f64();
    let text = format!("{s:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// `127.0.0.1:port`.
pub fn loopback(port: u16) -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], port))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_ports_are_bindable() {
        let port = free_port().unwrap();
        assert_ne!(port, 0);
        TcpListener::bind(("127.0.0.1", port)).unwrap();
    }

    #[test]
    fn exits_are_told_by_code_or_signal_name() {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(exit_text(ExitStatus::from_raw(3 << 8)), "3");
        assert_eq!(exit_text(ExitStatus::from_raw(libc::SIGKILL)), "SIGKILL");
        assert_eq!(seconds_text(Duration::from_secs(20)), "20");
        assert_eq!(seconds_text(Duration::from_millis(1500)), "1.5");
    }

    #[test]
    fn a_not_ready_note_says_what_the_probe_got() {
        let not_ready = |probe| ServerFailed::NotReady { server: "mine".into(), seconds: "20".into(), probe, log: "booting".into() };
        assert_eq!(
            not_ready(Probe::Answered { path: "/".into(), status: 404 }).note(),
            "measure.not-ready-status(server=mine, seconds=20, path=/, status=404, log=booting)"
        );
        assert_eq!(
            not_ready(Probe::Refused { address: "127.0.0.1:8000".into() }).note(),
            "measure.not-ready-refused(server=mine, seconds=20, address=127.0.0.1:8000, log=booting)"
        );
        assert_eq!(not_ready(Probe::Silent { path: "/".into() }).note(), "measure.not-ready-silent(server=mine, seconds=20, path=/, log=booting)");
        assert_eq!(not_ready(Probe::Waiting).note(), "measure.not-ready(server=mine, seconds=20, log=booting)");
        let wrong = ServerFailed::WrongAddress { server: "mine".into(), address: "127.0.0.1:8000".into(), listening: "[::1]:8000".into() };
        assert_eq!(wrong.note(), "measure.wrong-address(server=mine, address=127.0.0.1:8000, listening=[::1]:8000)");
    }
}
