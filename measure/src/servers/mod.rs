//! Starting, watching and stopping the real servers (Gunicorn, nginx) of one run.
//!
//! Every server starts fresh for every run, in its own process group so a Ctrl-C on the terminal reaches
//! only the harness (which then stops the servers gracefully) and so that "all of the server is gone" can be
//! checked and, as a last resort, enforced by process group. Stopping is by PID with the server's graceful
//! signal, then a bounded wait, then SIGKILL. A [`ServerProcess`] that is dropped without `stop` is killed.

pub mod app_log;
pub mod appserver;
pub mod command;
pub mod gunicorn;
pub mod listening;
pub mod nginx;
pub mod python;

use crate::load::http;
use crate::sample::procfs;
use anyhow::{bail, Context, Result};
use std::fmt;
use std::fs::File;
use std::net::{SocketAddr, TcpListener};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

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
    /// It was still running but never passed its readiness check.
    #[error("{server} was not ready after {seconds} s: {log}")]
    NotReady { server: String, seconds: String, log: String },
    /// It listens, but not on the port measure gave it.
    #[error("{server} listens on {listening}, not on its port {port}")]
    WrongPort { server: String, port: u16, listening: String },
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
            ServerFailed::NotReady { server, seconds, log } => {
                message(NoteKey::MeasureNotReady, &[("server", server), ("seconds", seconds), ("log", &reason(log))])
            }
            ServerFailed::WrongPort { server, port, listening } => {
                message(NoteKey::MeasureWrongPort, &[("server", server), ("port", port), ("listening", listening)])
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

impl fmt::Display for ServerProcess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (pid {})", self.name, self.pid())
    }
}

/// A running server: its master process and the logs to quote when it fails.
#[derive(Debug)]
pub struct ServerProcess {
    /// `gunicorn`, `nginx`, or a command plan's server name.
    pub name: String,
    child: Child,
    stop_signal: libc::c_int,
    logs: Vec<PathBuf>,
    stopped: bool,
}

impl ServerProcess {
    /// Spawns `command` in a new process group with output to `output_log`. `extra_logs` are files the
    /// server writes itself, quoted in errors.
    pub fn spawn(
        name: impl Into<String>,
        command: Command,
        stop_signal: libc::c_int,
        output_log: &Path,
        extra_logs: Vec<PathBuf>,
    ) -> Result<ServerProcess> {
        let out = File::create(output_log).with_context(|| format!("failed to create {}", output_log.display()))?;
        let mut logs = vec![output_log.to_path_buf()];
        logs.extend(extra_logs);
        ServerProcess::spawn_with(name.into(), command, stop_signal, (out.try_clone()?, out), logs)
    }

    /// Spawns `command` as [`ServerProcess::spawn`] does, its stdout and stderr each to its own file.
    pub fn spawn_split(
        name: impl Into<String>,
        command: Command,
        stop_signal: libc::c_int,
        stdout: &Path,
        stderr: &Path,
    ) -> Result<ServerProcess> {
        let create = |path: &Path| File::create(path).with_context(|| format!("failed to create {}", path.display()));
        let files = (create(stdout)?, create(stderr)?);
        ServerProcess::spawn_with(name.into(), command, stop_signal, files, vec![stderr.to_path_buf(), stdout.to_path_buf()])
    }

    fn spawn_with(
        name: String,
        mut command: Command,
        stop_signal: libc::c_int,
        (out, err): (File, File),
        logs: Vec<PathBuf>,
    ) -> Result<ServerProcess> {
        command.stdin(Stdio::null()).stdout(out).stderr(err).process_group(0);
        // SAFETY: prctl is async-signal-safe and touches no memory of the parent. If the harness dies
        // without stopping its servers, the kernel sends them SIGTERM instead of leaving them running.
        unsafe {
            command.pre_exec(|| {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let program = command.get_program().to_string_lossy().into_owned();
        let child = command.spawn().with_context(|| format!("failed to start {name} ({program})"))?;
        Ok(ServerProcess { name, child, stop_signal, logs, stopped: false })
    }

    /// The master's PID (also the process group id).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `Some` once the master has exited.
    pub fn exit_status(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// The last lines of the server's logs, for error messages.
    pub fn log_tail(&self) -> String {
        let mut lines: Vec<String> = Vec::new();
        for path in &self.logs {
            if let Ok(text) = std::fs::read_to_string(path) {
                lines.extend(text.lines().map(str::to_owned));
            }
        }
        let start = lines.len().saturating_sub(8);
        lines[start..].join(" | ")
    }

    /// Polls `ready` until it returns true, the master exits or `timeout` passes.
    pub fn wait_ready(&mut self, timeout: Duration, mut ready: impl FnMut(&Self) -> bool) -> Result<(), ServerFailed> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.exit_status() {
                return Err(ServerFailed::ExitedEarly { server: self.name.clone(), status: exit_text(status), log: self.log_tail() });
            }
            if ready(self) {
                return Ok(());
            }
            if Instant::now() >= deadline {
                return Err(ServerFailed::NotReady { server: self.name.clone(), seconds: seconds_text(timeout), log: self.log_tail() });
            }
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    /// The server's exit during a run, once it has exited.
    pub fn exited(&mut self) -> Option<ServerFailed> {
        let status = self.exit_status()?;
        Some(ServerFailed::Exited { server: self.name.clone(), status: exit_text(status), log: self.log_tail() })
    }

    /// Stops the server gracefully: the stop signal to the master, a wait of at most `grace`, then SIGKILL;
    /// afterwards checks that no process of its group is left (again SIGKILL after a bounded wait).
    /// Returns whether everything went away without SIGKILL.
    pub fn stop(&mut self, grace: Duration) -> Result<bool> {
        let pgid = self.pid() as i32;
        let mut graceful = true;
        if self.exit_status().is_none() {
            signal(pgid, self.stop_signal);
            if !wait_for(grace, || self.exit_status().is_some()) {
                graceful = false;
                signal(-pgid, libc::SIGKILL);
                self.child.wait().with_context(|| format!("failed to reap {}", self.name))?;
            }
        }
        if !wait_for(grace, || group_gone(pgid as u32)) {
            graceful = false;
            signal(-pgid, libc::SIGKILL);
            if !wait_for(Duration::from_secs(2), || group_gone(pgid as u32)) {
                self.stopped = true;
                bail!("processes of {} (group {pgid}) survived SIGKILL", self.name);
            }
        }
        self.stopped = true;
        Ok(graceful)
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        if !self.stopped {
            signal(-(self.pid() as i32), libc::SIGKILL);
            let _ = self.child.wait();
        }
    }
}

/// Sends `sig` to `pid` (a negative pid addresses a process group). Errors such as ESRCH mean the target is
/// already gone, which is what every caller wants.
fn signal(pid: i32, sig: libc::c_int) {
    // SAFETY: kill has no memory-safety preconditions; the targets are our own children's PID and group.
    unsafe {
        libc::kill(pid, sig);
    }
}

/// Polls `done` every 20 ms for at most `timeout`.
fn wait_for(timeout: Duration, mut done: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + timeout;
    loop {
        if done() {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// No live process is left in group `pgid` (zombies waiting for a reaper other than us do not count).
fn group_gone(pgid: u32) -> bool {
    procfs::list_processes().is_ok_and(|all| !all.iter().any(|p| p.pgrp == pgid && p.state != 'Z'))
}

/// Whether `GET path` at `addr` answers 200 within a second.
pub fn answers_ok(addr: SocketAddr, path: &str) -> bool {
    http_status(addr, path) == Some(200)
}

/// The status `GET path` at `addr` answers with within a second, if it answers.
pub fn http_status(addr: SocketAddr, path: &str) -> Option<u16> {
    let deadline = Instant::now() + Duration::from_secs(1);
    let (mut stream, _) = http::connect(addr, None, deadline).ok()?;
    http::send(&mut stream, &http::get_request(addr, path), deadline).ok()?;
    let never = AtomicBool::new(false);
    let r = http::read_response(&mut stream, deadline, 64 * 1024, &never, |_| true);
    r.result.is_ok().then_some(r.status)
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
    fn stops_a_server_and_its_children_by_signal() {
        let dir = tempfile::tempdir().unwrap();
        // A "master" with a child; TERM ends both (the shell forwards nothing, so the child is left to the
        // group check).
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "sleep 30 & echo started; wait"]);
        let mut server = ServerProcess::spawn("sh", cmd, libc::SIGTERM, &dir.path().join("out"), vec![]).unwrap();
        server.wait_ready(Duration::from_secs(5), |s| s.log_tail().contains("started")).unwrap();
        let pgid = server.pid();
        assert!(!group_gone(pgid));
        let graceful = server.stop(Duration::from_millis(500)).unwrap();
        assert!(!graceful, "the orphaned sleep needed SIGKILL");
        assert!(group_gone(pgid));
    }

    #[test]
    fn reports_a_server_that_exits_while_starting() {
        let dir = tempfile::tempdir().unwrap();
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo 'bind: address in use' >&2; exit 3"]);
        let mut server = ServerProcess::spawn("sh", cmd, libc::SIGTERM, &dir.path().join("out"), vec![]).unwrap();
        let err = server.wait_ready(Duration::from_secs(5), |_| false).unwrap_err();
        assert!(matches!(&err, ServerFailed::ExitedEarly { status, .. } if status == "3"), "{err:?}");
        assert!(err.to_string().contains("exited while starting (3)") && err.to_string().contains("address in use"), "{err}");
        assert_eq!(err.note(), "measure.exited-early(server=sh, status=3, log=\"bind: address in use\")");
    }

    #[test]
    fn a_server_that_never_answers_is_not_ready_after_its_timeout() {
        let dir = tempfile::tempdir().unwrap();
        let mut cmd = Command::new("sleep");
        cmd.arg("30");
        let mut server = ServerProcess::spawn("sleeper", cmd, libc::SIGTERM, &dir.path().join("out"), vec![]).unwrap();
        let err = server.wait_ready(Duration::from_millis(300), |_| false).unwrap_err();
        assert_eq!(err, ServerFailed::NotReady { server: "sleeper".into(), seconds: "0.3".into(), log: String::new() });
        assert_eq!(err.note(), "measure.not-ready(server=sleeper, seconds=0.3, log=\"\")");
        server.stop(Duration::from_secs(2)).unwrap();
    }

    #[test]
    fn exits_are_told_by_code_or_signal_name() {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(exit_text(ExitStatus::from_raw(3 << 8)), "3");
        assert_eq!(exit_text(ExitStatus::from_raw(libc::SIGKILL)), "SIGKILL");
        assert_eq!(seconds_text(Duration::from_secs(20)), "20");
        assert_eq!(seconds_text(Duration::from_millis(1500)), "1.5");
    }
}
