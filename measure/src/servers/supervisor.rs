//! The supervisor: what stops a server whatever it does, even when measure itself is killed (SIGKILL).
//!
//! measure does not start a server itself. It starts a copy of its own binary, `measure __supervise`,
//! which makes itself a child subreaper (`prctl(PR_SET_CHILD_SUBREAPER)`), starts the server in a new
//! process group, and stays its parent: a server that daemonizes (forks, `setsid`, lets its first process
//! exit: nginx without `daemon off;`) is reparented to the supervisor, not to init, so every process of a
//! server is a descendant of its supervisor. The supervisor's stdin is one end of a socket pair whose other
//! end only measure holds (close-on-exec, so no other child inherits it). When that end closes, because
//! measure stopped the server and let go of it or because measure died (SIGKILL included), the supervisor
//! sends the server's stop signal to its top processes, waits [`ORPHAN_GRACE`], SIGKILLs every descendant
//! left, and exits once none is left.
//!
//! Over the same socket the supervisor tells measure, one line each: `pid N` (the server's first
//! process) or `error TEXT` (it could not be started), `master STATUS` when that first process has ended
//! (the raw wait status), and `gone` when no descendant is left. A first process that ends with status 0
//! while others of it live on has daemonized: the server runs on ([`super::ServerProcess`] watches the
//! descendants).
//!
//! What outlives measure: nothing measure started, unless the supervisor itself is SIGKILLed by someone
//! else (then the server's first process still gets SIGKILL from `PR_SET_PDEATHSIG`, but a daemonized
//! process would stay). Where the supervisor cannot run (no `/proc/self/exe`, or a kernel without child
//! subreapers), measure says so at start, records `server_stop = process-group` in the dataset's
//! `[environment]`, and stops servers by process group as before: a daemonizing server then escapes.

use crate::sample::procfs;
use std::collections::BTreeSet;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::FromRawFd;
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The hidden subcommand the supervisor runs as.
pub const SUBCOMMAND: &str = "__supervise";

/// How long the supervisor lets a server stop on its stop signal after measure has gone, before SIGKILL.
pub const ORPHAN_GRACE: Duration = Duration::from_secs(2);

/// The binary that runs `__supervise`: set once by `main` (the `measure` binary itself).
static PROGRAM: OnceLock<PathBuf> = OnceLock::new();

/// How this process stops its servers, as the dataset's `[environment]` records it (`server_stop`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Keeper {
    /// Every server under a supervisor: nothing outlives measure.
    Supervisor(PathBuf),
    /// No supervisor (why): servers are stopped by process group, and one that daemonizes or outlives a
    /// killed measure is not stopped.
    ProcessGroup(String),
}

impl Keeper {
    /// The `server_stop` value of `[environment]`.
    pub fn record(&self) -> &'static str {
        match self {
            Keeper::Supervisor(_) => "supervisor",
            Keeper::ProcessGroup(_) => "process-group",
        }
    }
}

/// Lets this process start supervisors (`main` calls it with the measure binary). Returns how servers
/// will be stopped: under a supervisor when the binary and child subreapers are available.
pub fn enable() -> Keeper {
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => return Keeper::ProcessGroup(format!("measure cannot find its own binary ({e})")),
    };
    enable_with(exe)
}

/// [`enable`] with the binary to run (an end-to-end test of the library gives the built measure).
pub fn enable_with(exe: PathBuf) -> Keeper {
    if !subreaper_available() {
        return Keeper::ProcessGroup("this kernel has no child subreapers (PR_SET_CHILD_SUBREAPER, Linux 3.4)".into());
    }
    let exe = PROGRAM.get_or_init(|| exe).clone();
    Keeper::Supervisor(exe)
}

/// How servers are stopped now: the supervisor once [`enable`]d, else by process group.
pub fn keeper() -> Keeper {
    match PROGRAM.get() {
        Some(exe) => Keeper::Supervisor(exe.clone()),
        None => Keeper::ProcessGroup("measure's supervisor is not enabled in this process".into()),
    }
}

/// The `server_stop` value to record for this study; says on stderr, at the study's start, when servers
/// cannot be supervised here and what that leaves unstopped.
pub fn announce() -> &'static str {
    let keeper = keeper();
    if let Keeper::ProcessGroup(why) = &keeper {
        eprintln!(
            "warning: servers run without measure's supervisor ({why}): they are stopped by process group, so a server \
             that daemonizes, or one still running when measure is killed, may be left running"
        );
    }
    keeper.record()
}

/// Whether the kernel knows PR_SET_CHILD_SUBREAPER (asked without setting it: GET on this process).
fn subreaper_available() -> bool {
    let mut flag: libc::c_int = 0;
    // SAFETY: PR_GET_CHILD_SUBREAPER writes one int to the pointer, which lives for the call.
    unsafe { libc::prctl(libc::PR_GET_CHILD_SUBREAPER, &mut flag as *mut libc::c_int) == 0 }
}

/// The command line of a supervisor that runs `program args` and stops it with `stop_signal`.
pub fn command(exe: &Path, stop_signal: libc::c_int, server: &Command) -> Command {
    let mut c = Command::new(exe);
    c.arg(SUBCOMMAND).arg(stop_signal.to_string()).arg("--").arg(server.get_program()).args(server.get_args());
    if let Some(dir) = server.get_current_dir() {
        c.current_dir(dir);
    }
    for (key, value) in server.get_envs() {
        match value {
            Some(value) => c.env(key, value),
            None => c.env_remove(key),
        };
    }
    c
}

/// What the supervisor said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Report {
    /// The server's first process.
    Pid(u32),
    /// It could not be started.
    Error(String),
    /// The first process ended with this raw wait status.
    Master(i32),
    /// No process of the server is left.
    Gone,
}

impl Report {
    /// One line of the protocol (without its newline); `None` for a line it does not know.
    pub fn parse(line: &str) -> Option<Report> {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        match word {
            "pid" => rest.parse().ok().map(Report::Pid),
            "error" => Some(Report::Error(rest.to_string())),
            "master" => rest.parse().ok().map(Report::Master),
            "gone" => Some(Report::Gone),
            _ => None,
        }
    }
}

/// Reads the supervisor's reports from `socket` into a channel until it closes.
pub fn reader(socket: UnixStream) -> std::io::Result<std::sync::mpsc::Receiver<Report>> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new().name("supervisor-reports".into()).spawn(move || {
        for line in BufReader::new(socket).lines() {
            let Ok(line) = line else { break };
            if let Some(report) = Report::parse(&line) {
                if tx.send(report).is_err() {
                    break;
                }
            }
        }
    })?;
    Ok(rx)
}

/// The live processes below `root` (its descendants, not itself; zombies left out).
pub fn descendants(root: u32) -> Vec<u32> {
    let Ok(all) = procfs::list_processes() else { return Vec::new() };
    let mut found: BTreeSet<u32> = BTreeSet::new();
    let mut frontier = vec![root];
    while let Some(parent) = frontier.pop() {
        for p in all.iter().filter(|p| p.ppid == parent && p.state != 'Z') {
            if found.insert(p.pid) {
                frontier.push(p.pid);
            }
        }
    }
    found.into_iter().collect()
}

/// The direct children of `root` that live: the server's first process, or what it daemonized into.
pub fn tops(root: u32) -> Vec<u32> {
    procfs::list_processes()
        .map(|all| all.iter().filter(|p| p.ppid == root && p.state != 'Z').map(|p| p.pid).collect())
        .unwrap_or_default()
}

/// `measure __supervise SIGNAL -- PROGRAM ARGS...`: the supervisor process (see the module doc). Its
/// stdin is the socket to measure; its stdout and stderr are the server's.
pub fn main(args: &[OsString]) -> ExitCode {
    let (stop_signal, program, rest) = match args {
        [signal, dashes, program, rest @ ..] if dashes == "--" => match signal.to_str().and_then(|s| s.parse::<libc::c_int>().ok()) {
            Some(signal) => (signal, program, rest),
            None => return usage(),
        },
        _ => return usage(),
    };
    // SAFETY: fd 0 is the socket measure gave us as stdin; we own it from here on.
    let control = unsafe { UnixStream::from_raw_fd(0) };
    let Ok(mut report) = control.try_clone() else { return ExitCode::from(1) };
    // SAFETY: prctl with an integer argument has no memory-safety preconditions.
    if unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong) } != 0 {
        let _ = writeln!(report, "error cannot become a child subreaper: {}", std::io::Error::last_os_error());
        return ExitCode::from(1);
    }
    let mut server = Command::new(program);
    // The socket stays ours: the server gets no stdin.
    server.args(rest).stdin(Stdio::null()).process_group(0);
    // SAFETY: prctl is async-signal-safe and touches no memory of the parent. Should this supervisor be
    // killed, the server's first process goes with it.
    unsafe {
        server.pre_exec(|| {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let master = match server.spawn() {
        Ok(child) => child.id(),
        Err(e) => {
            let _ = writeln!(report, "error {e}");
            return ExitCode::from(1);
        }
    };
    if writeln!(report, "pid {master}").is_err() {
        // measure is gone already.
        stop_all(stop_signal);
    }
    let watcher = std::thread::Builder::new().name("measure-gone".into()).spawn(move || {
        // Anything measure writes is ignored; the end of the stream is the order to stop.
        let mut control = control;
        let mut sink = [0u8; 64];
        while matches!(control.read(&mut sink), Ok(n) if n > 0) {}
        stop_all(stop_signal);
    });
    if watcher.is_err() {
        stop_all(stop_signal);
    }
    let own = std::process::id();
    loop {
        let mut status: libc::c_int = 0;
        // SAFETY: waitpid writes the status to a local int.
        let pid = unsafe { libc::waitpid(-1, &mut status, 0) };
        if pid == master as libc::pid_t {
            let _ = writeln!(report, "master {status}");
        } else if pid < 0 {
            match std::io::Error::last_os_error().raw_os_error() {
                Some(libc::EINTR) => continue,
                // No child left, and as a subreaper every orphaned descendant would be our child.
                _ => {
                    if descendants(own).is_empty() {
                        let _ = writeln!(report, "gone");
                        return ExitCode::SUCCESS;
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
            }
        }
    }
}

/// measure has let go: the stop signal to the server's top processes, [`ORPHAN_GRACE`], then SIGKILL to
/// every descendant until none is left; the main loop reaps them and exits.
fn stop_all(stop_signal: libc::c_int) {
    let own = std::process::id();
    for pid in tops(own) {
        signal(pid, stop_signal);
    }
    let deadline = Instant::now() + ORPHAN_GRACE;
    while Instant::now() < deadline && !descendants(own).is_empty() {
        std::thread::sleep(Duration::from_millis(20));
    }
    loop {
        let left = descendants(own);
        if left.is_empty() {
            std::process::exit(0);
        }
        for pid in left {
            signal(pid, libc::SIGKILL);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn signal(pid: u32, sig: libc::c_int) {
    // SAFETY: kill has no memory-safety preconditions; the targets are our own descendants.
    unsafe {
        libc::kill(pid as libc::pid_t, sig);
    }
}

fn usage() -> ExitCode {
    eprintln!("measure {SUBCOMMAND} is measure's own: it runs a server for `measure run` (SIGNAL -- PROGRAM ARGS...)");
    ExitCode::from(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_are_read_line_by_line() {
        assert_eq!(Report::parse("pid 1234"), Some(Report::Pid(1234)));
        assert_eq!(Report::parse("error No such file or directory (os error 2)"), Some(Report::Error("No such file or directory (os error 2)".into())));
        assert_eq!(Report::parse("master 768"), Some(Report::Master(768)));
        assert_eq!(Report::parse("gone"), Some(Report::Gone));
        assert_eq!(Report::parse("pid x"), None);
        assert_eq!(Report::parse("hello"), None);
    }

    #[test]
    fn the_supervisor_runs_the_servers_command_in_its_folder_with_its_environment() {
        let mut server = Command::new("python3");
        server.args(["-m", "http.server"]).current_dir("/srv").env("A", "1").env_remove("B");
        let c = command(Path::new("/bin/measure"), libc::SIGQUIT, &server);
        let args: Vec<String> = c.get_args().map(|a| a.to_string_lossy().into_owned()).collect();
        assert_eq!(args, [SUBCOMMAND, "3", "--", "python3", "-m", "http.server"]);
        assert_eq!(c.get_current_dir(), Some(Path::new("/srv")));
        let envs: Vec<_> = c.get_envs().map(|(k, v)| (k.to_string_lossy().into_owned(), v.map(|v| v.to_string_lossy().into_owned()))).collect();
        assert_eq!(envs, [("A".to_string(), Some("1".to_string())), ("B".to_string(), None)]);
    }

    #[test]
    fn descendants_are_found_through_the_whole_tree() {
        let mut child = Command::new("sh").args(["-c", "sleep 5 & sleep 5 & wait"]).spawn().unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut found = Vec::new();
        while Instant::now() < deadline && found.len() < 3 {
            found = descendants(std::process::id()).into_iter().filter(|p| *p == child.id() || tops(child.id()).contains(p)).collect();
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(found.len(), 3, "sh and its two sleeps: {found:?}");
        for pid in tops(child.id()) {
            signal(pid, libc::SIGKILL);
        }
        child.kill().unwrap();
        child.wait().unwrap();
    }
}
