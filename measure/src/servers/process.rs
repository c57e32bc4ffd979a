//! One running server: started under its supervisor ([`super::supervisor`]), watched until it is ready or
//! fails, and stopped with every process it has, whatever it does.
//!
//! Under a supervisor, "the server" is every live descendant of the supervisor: a server whose first
//! process exits with status 0 while others of it live on (it daemonized) is running, and is stopped and
//! checked as a whole. Where no supervisor is available ([`super::supervisor::Keeper::ProcessGroup`]) the
//! server is its first process and its process group, as before the supervisor existed.

use super::listening::{self, Listener};
use super::probe::Probe;
use super::supervisor::{self, Keeper, Report};
use super::{exit_text, log_tail, seconds_text, ServerFailed};
use crate::cpus::CpuSet;
use crate::run::hook::{self, Moment};
use crate::sample::procfs;
use anyhow::{bail, Context, Result};
use std::fmt;
use std::fs::File;
use std::net::SocketAddr;
use std::os::fd::OwnedFd;
use std::os::unix::net::UnixStream;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::time::{Duration, Instant};

/// How long a supervisor may take to say that the server started.
const START_REPORT: Duration = Duration::from_secs(10);
/// How long a server's processes may listen only where measure does not look before it is told.
const ELSEWHERE_PATIENCE: Duration = Duration::from_secs(1);
/// How often the readiness wait looks at the sockets the server listens on.
const LISTENERS_EVERY: Duration = Duration::from_millis(200);

/// A running server: its processes and the logs to quote when it fails.
#[derive(Debug)]
pub struct ServerProcess {
    /// `gunicorn`, `nginx`, or a command plan's server name.
    pub name: String,
    /// The supervisor, or the server's first process when there is none.
    child: Child,
    /// The server's first process (also its process group).
    master: u32,
    watch: Watch,
    stop_signal: libc::c_int,
    logs: Vec<PathBuf>,
    stopped: bool,
}

/// How the server is watched.
#[derive(Debug)]
enum Watch {
    /// Under a supervisor: its socket (closing it stops everything left) and what it reported.
    Supervised { control: Option<UnixStream>, reports: Receiver<Report>, master_status: Option<i32>, gone: bool },
    /// By process group, the server being measure's own child.
    Group,
}

impl fmt::Display for ServerProcess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (pid {})", self.name, self.pid())
    }
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
        ServerProcess::spawn_with(name.into(), command, stop_signal, (out.try_clone()?, out), logs, None)
    }

    /// Spawns `command` as [`ServerProcess::spawn`] does, its stdout and stderr each to its own file, and
    /// (with `cpus`) its supervisor and every process of the server on those CPUs.
    pub fn spawn_split(
        name: impl Into<String>,
        command: Command,
        stop_signal: libc::c_int,
        (stdout, stderr): (&Path, &Path),
        cpus: Option<&CpuSet>,
    ) -> Result<ServerProcess> {
        let create = |path: &Path| File::create(path).with_context(|| format!("failed to create {}", path.display()));
        let files = (create(stdout)?, create(stderr)?);
        ServerProcess::spawn_with(name.into(), command, stop_signal, files, vec![stderr.to_path_buf(), stdout.to_path_buf()], cpus)
    }

    fn spawn_with(
        name: String,
        command: Command,
        stop_signal: libc::c_int,
        (out, err): (File, File),
        logs: Vec<PathBuf>,
        cpus: Option<&CpuSet>,
    ) -> Result<ServerProcess> {
        let program = command.get_program().to_string_lossy().into_owned();
        let server = match supervisor::keeper() {
            Keeper::Supervisor(exe) => {
                let (ours, theirs) = UnixStream::pair().context("failed to create the supervisor's socket")?;
                let mut sup = supervisor::command(&exe, stop_signal, &command);
                sup.stdin(Stdio::from(OwnedFd::from(theirs))).stdout(out).stderr(err).process_group(0);
                if let Some(cpus) = cpus {
                    cpus.apply_to(&mut sup);
                }
                let mut child = sup.spawn().with_context(|| format!("failed to start the supervisor of {name} ({})", exe.display()))?;
                let reports = supervisor::reader(ours.try_clone()?)?;
                let master = match reports.recv_timeout(START_REPORT) {
                    Ok(Report::Pid(pid)) => pid,
                    Ok(Report::Error(why)) => {
                        let _ = child.wait();
                        bail!("failed to start {name} ({program}): {why}");
                    }
                    Ok(other) => bail!("the supervisor of {name} said {other:?} before the server's pid (a bug in measure)"),
                    Err(e) => {
                        let _ = child.kill();
                        let _ = child.wait();
                        bail!("the supervisor of {name} did not say it started ({e})");
                    }
                };
                let watch = Watch::Supervised { control: Some(ours), reports, master_status: None, gone: false };
                ServerProcess { name, child, master, watch, stop_signal, logs, stopped: false }
            }
            Keeper::ProcessGroup(_) => {
                let mut command = command;
                command.stdin(Stdio::null()).stdout(out).stderr(err).process_group(0);
                if let Some(cpus) = cpus {
                    cpus.apply_to(&mut command);
                }
                // SAFETY: prctl is async-signal-safe and touches no memory of the parent. If measure dies
                // without stopping its servers, the kernel kills them (SIGKILL: a server may ignore SIGTERM).
                unsafe {
                    command.pre_exec(|| {
                        if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                            return Err(std::io::Error::last_os_error());
                        }
                        Ok(())
                    });
                }
                let child = command.spawn().with_context(|| format!("failed to start {name} ({program})"))?;
                let master = child.id();
                ServerProcess { name, child, master, watch: Watch::Group, stop_signal, logs, stopped: false }
            }
        };
        hook::stop_at(Moment::ServerStart);
        Ok(server)
    }

    /// The server's first process (also its process group).
    pub fn pid(&self) -> u32 {
        self.master
    }

    /// The process whose family the sampler reads: the first process while it runs, else (daemonized) the
    /// process it became, the supervisor's child.
    pub fn main_pid(&self) -> u32 {
        match &self.watch {
            Watch::Supervised { .. } => {
                let tops = supervisor::tops(self.child.id());
                if tops.contains(&self.master) {
                    self.master
                } else {
                    tops.first().copied().unwrap_or(self.master)
                }
            }
            Watch::Group => self.master,
        }
    }

    /// Takes in what the supervisor said.
    fn poll(&mut self) {
        let Watch::Supervised { reports, master_status, gone, .. } = &mut self.watch else { return };
        loop {
            match reports.try_recv() {
                Ok(Report::Master(status)) => *master_status = Some(status),
                Ok(Report::Gone) => *gone = true,
                Ok(_) => {}
                Err(TryRecvError::Empty) => break,
                // The supervisor has exited: nothing of the server is left to watch.
                Err(TryRecvError::Disconnected) => {
                    *gone = true;
                    break;
                }
            }
        }
    }

    /// How the server ended, once it has: its first process failed (a status other than 0), or nothing of
    /// it is left. A first process that exits with 0 while others of it run on has daemonized.
    pub fn ended(&mut self) -> Option<String> {
        self.poll();
        match &self.watch {
            Watch::Group => self.child.try_wait().ok().flatten().map(exit_text),
            Watch::Supervised { master_status, gone, .. } => {
                let status = master_status.map(ExitStatus::from_raw);
                match status {
                    Some(s) if !s.success() => Some(exit_text(s)),
                    _ if *gone => Some(status.map_or_else(|| "?".into(), exit_text)),
                    _ => None,
                }
            }
        }
    }

    /// The server's live processes.
    pub fn processes(&self) -> Vec<u32> {
        match &self.watch {
            Watch::Supervised { .. } => supervisor::descendants(self.child.id()),
            Watch::Group => procfs::list_processes()
                .map(|all| all.iter().filter(|p| p.pgrp == self.master && p.state != 'Z').map(|p| p.pid).collect())
                .unwrap_or_default(),
        }
    }

    /// The sockets the server's processes listen on.
    pub fn listeners(&self) -> Vec<Listener> {
        listening::of_pids(&self.processes())
    }

    /// The last lines of the server's logs, for error messages (see [`log_tail`]).
    pub fn log_tail(&self) -> String {
        log_tail::quote(&self.logs)
    }

    /// Polls `ready` until it passes, the server ends, its processes listen only where measure does not
    /// look for it (`target`: reported after [`ELSEWHERE_PATIENCE`], not after the whole timeout), or
    /// `timeout` passes (then the error says what `ready` got last).
    pub fn wait_ready(
        &mut self,
        target: SocketAddr,
        timeout: Duration,
        mut ready: impl FnMut(&Self) -> Result<(), Probe>,
    ) -> Result<(), ServerFailed> {
        let deadline = Instant::now() + timeout;
        let mut elsewhere_since: Option<Instant> = None;
        let mut looked: Option<Instant> = None;
        loop {
            if let Some(status) = self.ended() {
                return Err(ServerFailed::ExitedEarly { server: self.name.clone(), status, log: self.log_tail() });
            }
            let probe = match ready(self) {
                Ok(()) => return Ok(()),
                Err(probe) => probe,
            };
            if looked.is_none_or(|t| t.elapsed() >= LISTENERS_EVERY) {
                looked = Some(Instant::now());
                let listeners = self.listeners();
                if listeners.is_empty() || listeners.iter().any(|l| l.reaches(target)) {
                    elsewhere_since = None;
                } else if elsewhere_since.get_or_insert_with(Instant::now).elapsed() >= ELSEWHERE_PATIENCE {
                    return Err(self.elsewhere(target, &listeners));
                }
            }
            if Instant::now() >= deadline {
                return Err(ServerFailed::NotReady {
                    server: self.name.clone(),
                    seconds: seconds_text(timeout),
                    probe,
                    log: self.log_tail(),
                });
            }
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    /// The failure of a server whose processes listen, but not at `target`.
    pub fn elsewhere(&self, target: SocketAddr, listeners: &[Listener]) -> ServerFailed {
        let listening = listening::describe(listeners);
        if listeners.iter().any(|l| l.port == target.port()) {
            ServerFailed::WrongAddress { server: self.name.clone(), address: target.to_string(), listening }
        } else {
            ServerFailed::WrongPort { server: self.name.clone(), port: target.port(), listening }
        }
    }

    /// The server's exit during a run, once it has exited.
    pub fn exited(&mut self) -> Option<ServerFailed> {
        let status = self.ended()?;
        Some(ServerFailed::Exited { server: self.name.clone(), status, log: self.log_tail() })
    }

    /// Stops the server gracefully: the stop signal to its first process (or, daemonized, to the processes
    /// it became), a wait of at most `grace` until none of its processes is left, then SIGKILL to each.
    /// Returns whether everything went away without SIGKILL.
    pub fn stop(&mut self, grace: Duration) -> Result<bool> {
        let result = match self.watch {
            Watch::Group => self.stop_group(grace),
            Watch::Supervised { .. } => self.stop_supervised(grace),
        };
        self.stopped = true;
        result
    }

    fn stop_supervised(&mut self, grace: Duration) -> Result<bool> {
        let supervisor = self.child.id();
        let mut graceful = true;
        if !supervisor::descendants(supervisor).is_empty() {
            for pid in supervisor::tops(supervisor) {
                signal(pid as i32, self.stop_signal);
            }
            if !wait_for(grace, || supervisor::descendants(supervisor).is_empty()) {
                graceful = false;
                let killed = wait_for(Duration::from_secs(2), || {
                    let left = supervisor::descendants(supervisor);
                    for &pid in &left {
                        signal(pid as i32, libc::SIGKILL);
                    }
                    left.is_empty()
                });
                if !killed {
                    self.release();
                    bail!("processes of {} (under supervisor {supervisor}) survived SIGKILL", self.name);
                }
            }
        }
        self.release();
        Ok(graceful)
    }

    /// Lets go of the supervisor (it stops whatever is left and exits) and reaps it.
    fn release(&mut self) {
        if let Watch::Supervised { control, .. } = &mut self.watch {
            // Shut down, not only closed: the report reader holds a clone of the socket.
            if let Some(control) = control.take() {
                let _ = control.shutdown(std::net::Shutdown::Write);
            }
        }
        if !wait_for(supervisor::ORPHAN_GRACE + Duration::from_secs(3), || self.child.try_wait().ok().flatten().is_some()) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }

    fn stop_group(&mut self, grace: Duration) -> Result<bool> {
        let pgid = self.master as i32;
        let mut graceful = true;
        if self.ended().is_none() {
            signal(pgid, self.stop_signal);
            if !wait_for(grace, || self.child.try_wait().ok().flatten().is_some()) {
                graceful = false;
                signal(-pgid, libc::SIGKILL);
                self.child.wait().with_context(|| format!("failed to reap {}", self.name))?;
            }
        }
        if !wait_for(grace, || self.processes().is_empty()) {
            graceful = false;
            signal(-pgid, libc::SIGKILL);
            if !wait_for(Duration::from_secs(2), || self.processes().is_empty()) {
                bail!("processes of {} (group {pgid}) survived SIGKILL", self.name);
            }
        }
        Ok(graceful)
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        if self.stopped {
            return;
        }
        for pid in self.processes() {
            signal(pid as i32, libc::SIGKILL);
        }
        match self.watch {
            Watch::Group => {
                signal(-(self.master as i32), libc::SIGKILL);
                let _ = self.child.wait();
            }
            Watch::Supervised { .. } => self.release(),
        }
    }
}

/// Sends `sig` to `pid` (a negative pid addresses a process group). Errors such as ESRCH mean the target is
/// already gone, which is what every caller wants.
pub(super) fn signal(pid: i32, sig: libc::c_int) {
    // SAFETY: kill has no memory-safety preconditions; the targets are our own servers' processes.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::servers::loopback;

    fn nowhere() -> SocketAddr {
        loopback(1)
    }

    #[test]
    fn stops_a_server_and_its_children_by_signal() {
        let dir = tempfile::tempdir().unwrap();
        // A "master" with a child; TERM ends both (the shell forwards nothing, so the child is left to the
        // group check).
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "sleep 30 & echo started; wait"]);
        let mut server = ServerProcess::spawn("sh", cmd, libc::SIGTERM, &dir.path().join("out"), vec![]).unwrap();
        server
            .wait_ready(nowhere(), Duration::from_secs(5), |s| if s.log_tail().contains("started") { Ok(()) } else { Err(Probe::Waiting) })
            .unwrap();
        assert_eq!(server.processes().len(), 2, "sh and its sleep");
        let graceful = server.stop(Duration::from_millis(500)).unwrap();
        assert!(!graceful, "the orphaned sleep needed SIGKILL");
        assert!(server.processes().is_empty());
    }

    #[test]
    fn reports_a_server_that_exits_while_starting() {
        let dir = tempfile::tempdir().unwrap();
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo 'bind: address in use' >&2; exit 3"]);
        let mut server = ServerProcess::spawn("sh", cmd, libc::SIGTERM, &dir.path().join("out"), vec![]).unwrap();
        let err = server.wait_ready(nowhere(), Duration::from_secs(5), |_| Err(Probe::Waiting)).unwrap_err();
        assert!(matches!(&err, ServerFailed::ExitedEarly { status, .. } if status == "3"), "{err:?}");
        assert!(err.to_string().contains("exited while starting (3)") && err.to_string().contains("address in use"), "{err}");
        assert_eq!(err.note(), "measure.exited-early(server=sh, status=3, log=\"bind: address in use\")");
    }

    #[test]
    fn a_server_that_never_answers_is_not_ready_after_its_timeout_and_says_what_the_probe_got() {
        let dir = tempfile::tempdir().unwrap();
        let mut cmd = Command::new("sleep");
        cmd.arg("30");
        let mut server = ServerProcess::spawn("sleeper", cmd, libc::SIGTERM, &dir.path().join("out"), vec![]).unwrap();
        let target = loopback(4321);
        let err =
            server.wait_ready(target, Duration::from_millis(300), |_| Err(Probe::Refused { address: target.to_string() })).unwrap_err();
        let probe = Probe::Refused { address: "127.0.0.1:4321".into() };
        assert_eq!(err, ServerFailed::NotReady { server: "sleeper".into(), seconds: "0.3".into(), probe, log: String::new() });
        assert_eq!(err.note(), "measure.not-ready-refused(server=sleeper, seconds=0.3, address=127.0.0.1:4321, log=\"\")");
        server.stop(Duration::from_secs(2)).unwrap();
    }

    #[test]
    fn a_server_listening_on_another_port_is_told_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let port = crate::servers::free_port().unwrap();
        let mut cmd = Command::new("python3");
        cmd.args(["-m", "http.server", "--bind", "127.0.0.1", &port.to_string()]);
        let mut server = ServerProcess::spawn("py", cmd, libc::SIGTERM, &dir.path().join("out"), vec![]).unwrap();
        let started = Instant::now();
        let target = loopback(crate::servers::free_port().unwrap());
        let err = server.wait_ready(target, Duration::from_secs(20), |_| Err(Probe::Waiting)).unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
        assert_eq!(err, ServerFailed::WrongPort { server: "py".into(), port: target.port(), listening: format!("127.0.0.1:{port}") });
        server.stop(Duration::from_secs(2)).unwrap();
    }
}
