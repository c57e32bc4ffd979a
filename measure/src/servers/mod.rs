//! Starting, watching and stopping the real servers (Gunicorn, nginx) of one run.
//!
//! Every server starts fresh for every run, in its own process group so a Ctrl-C on the terminal reaches
//! only the harness (which then stops the servers gracefully) and so that "all of the server is gone" can be
//! checked and, as a last resort, enforced by process group. Stopping is by PID with the server's graceful
//! signal, then a bounded wait, then SIGKILL. A [`ServerProcess`] that is dropped without `stop` is killed.

pub mod app_log;
pub mod appserver;
pub mod gunicorn;
pub mod nginx;
pub mod python;

use crate::load::http;
use crate::sample::procfs;
use anyhow::{bail, Context, Result};
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

/// A running server: its master process and the logs to quote when it fails.
#[derive(Debug)]
pub struct ServerProcess {
    /// `gunicorn` or `nginx`.
    pub name: &'static str,
    child: Child,
    stop_signal: libc::c_int,
    logs: Vec<PathBuf>,
    stopped: bool,
}

impl ServerProcess {
    /// Spawns `command` in a new process group with output to `output_log`. `extra_logs` are files the
    /// server writes itself, quoted in errors.
    pub fn spawn(
        name: &'static str,
        mut command: Command,
        stop_signal: libc::c_int,
        output_log: &Path,
        extra_logs: Vec<PathBuf>,
    ) -> Result<ServerProcess> {
        let out = File::create(output_log).with_context(|| format!("failed to create {}", output_log.display()))?;
        command.stdin(Stdio::null()).stdout(out.try_clone()?).stderr(out).process_group(0);
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
        let mut logs = vec![output_log.to_path_buf()];
        logs.extend(extra_logs);
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
    pub fn wait_ready(&mut self, timeout: Duration, mut ready: impl FnMut(&Self) -> bool) -> Result<()> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.exit_status() {
                bail!("{} exited while starting ({status}): {}", self.name, self.log_tail());
            }
            if ready(self) {
                return Ok(());
            }
            if Instant::now() >= deadline {
                bail!("{} was not ready after {timeout:?}: {}", self.name, self.log_tail());
            }
            std::thread::sleep(Duration::from_millis(25));
        }
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
    let deadline = Instant::now() + Duration::from_secs(1);
    let Ok((mut stream, _)) = http::connect(addr, None, deadline) else {
        return false;
    };
    if http::send(&mut stream, &http::get_request(addr, path), deadline).is_err() {
        return false;
    }
    let never = AtomicBool::new(false);
    let r = http::read_response(&mut stream, deadline, 64 * 1024, &never, |_| true);
    r.result.is_ok() && r.status == 200
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
        let err = server.wait_ready(Duration::from_secs(5), |_| false).unwrap_err().to_string();
        assert!(err.contains("exited while starting") && err.contains("address in use"), "{err}");
    }
}
