//! Facts about the host: the load average before and after each run, and the environment recorded in
//! dataset.toml (kernel, CPUs, versions, TCP buffer settings, the SO_RCVBUF the kernel reports back).

use crate::dataset::manifest::Environment;
use crate::plan::open::OpenLoop;
use sha2::Digest;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The 1-minute load average from `/proc/loadavg`.
pub fn load1() -> Option<f64> {
    parse_loadavg(&std::fs::read_to_string("/proc/loadavg").ok()?)
}

/// The first field of a `/proc/loadavg` line.
pub fn parse_loadavg(text: &str) -> Option<f64> {
    text.split_whitespace().next()?.parse().ok()
}

/// The host's CPU time so far, from the `cpu` line of `/proc/stat`, in clock ticks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CpuTimes {
    /// Every state's ticks summed (guest time is already inside user and nice).
    pub total: u64,
    /// Ticks a hypervisor ran something else while this VM wanted the CPU.
    pub steal: u64,
}

impl CpuTimes {
    /// Now; `None` where `/proc/stat` cannot be read or has no steal field (kernels before 2.6.11).
    pub fn now() -> Option<CpuTimes> {
        parse_proc_stat(&std::fs::read_to_string("/proc/stat").ok()?)
    }

    /// The percentage of the host's CPU time stolen between `self` and `later`; `None` when no time passed.
    pub fn steal_pct(self, later: CpuTimes) -> Option<f64> {
        let total = later.total.checked_sub(self.total).filter(|&t| t > 0)?;
        Some(100.0 * later.steal.saturating_sub(self.steal) as f64 / total as f64)
    }
}

/// The `cpu` line of a `/proc/stat` text: user nice system idle iowait irq softirq steal [guest guest_nice].
pub fn parse_proc_stat(text: &str) -> Option<CpuTimes> {
    let line = text.lines().find(|l| l.starts_with("cpu "))?;
    let fields: Vec<u64> = line.split_whitespace().skip(1).map(str::parse).collect::<Result<_, _>>().ok()?;
    let steal = *fields.get(7)?;
    Some(CpuTimes { total: fields.iter().take(8).sum(), steal })
}

/// CPUs available to this process.
pub fn cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn read_trimmed(path: &str) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    Some(text.split_whitespace().collect::<Vec<_>>().join(" "))
}

fn cpu_model() -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    text.lines().find(|l| l.starts_with("model name")).and_then(|l| l.split_once(':')).map(|(_, v)| v.trim().to_string())
}

/// The receive buffer size Linux reports after `SO_RCVBUF = requested` (it doubles the value to leave room
/// for bookkeeping, so this is not the TCP window).
pub fn so_rcvbuf_reported(requested: usize) -> std::io::Result<usize> {
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None)?;
    socket.set_recv_buffer_size(requested)?;
    socket.recv_buffer_size()
}

/// The version of a Debian package, when dpkg knows it (for tools that print none themselves, as hey).
pub fn package_version(package: &str) -> Option<String> {
    let out = Command::new("dpkg-query").args(["-W", "-f=${Version}", package]).output().ok()?;
    let v = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !v.is_empty()).then_some(v)
}

/// Versions of the tools a study used, found by the preflight.
#[derive(Debug, Clone)]
pub struct Versions {
    pub python: String,
    pub gunicorn: String,
    /// `None` when the plan does not use nginx.
    pub nginx: Option<String>,
}

/// The machine's part of an `[environment]`: kernel, architecture, CPUs and their model.
pub fn machine() -> Environment {
    let mut env = Environment::new();
    env.insert("kernel".into(), read_trimmed("/proc/sys/kernel/osrelease").unwrap_or_else(|| "unknown".into()));
    env.insert("arch".into(), std::env::consts::ARCH.into());
    env.insert("cpus".into(), cpus().to_string());
    env.insert("cpu_model".into(), cpu_model().unwrap_or_else(|| "unknown".into()));
    env
}

/// The `[environment]` of a new open-loop dataset: the machine, the tools' versions, the TCP buffer settings
/// and the SO_RCVBUF the kernel reports back for the plan's.
pub fn environment(plan: &OpenLoop, versions: &Versions, measured_on: &str) -> Environment {
    let mut env = machine();
    let mut put = |k: &str, v: Option<String>| {
        env.insert(k.to_string(), v.unwrap_or_else(|| "unknown".into()));
    };
    put("python", Some(versions.python.clone()));
    put("gunicorn", Some(versions.gunicorn.clone()));
    put("nginx", Some(versions.nginx.clone().unwrap_or_else(|| "not used".into())));
    if versions.nginx.is_some() {
        put("nginx_package", package_version("nginx-light").map(|v| format!("nginx-light {v}")));
    }
    put("tcp_rmem", read_trimmed("/proc/sys/net/ipv4/tcp_rmem"));
    put("tcp_wmem", read_trimmed("/proc/sys/net/ipv4/tcp_wmem"));
    put("so_rcvbuf_requested", Some(plan.download.so_rcvbuf_bytes.to_string()));
    put("so_rcvbuf_reported", so_rcvbuf_reported(plan.download.so_rcvbuf_bytes).ok().map(|n| n.to_string()));
    put("measured_on", Some(measured_on.to_string()));
    put("harness", Some(harness()));
    env
}

/// The CPU frequency governor of cpu0, when the kernel exposes it (not in most containers and VMs).
fn governor() -> Option<String> {
    read_trimmed("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor").filter(|g| !g.is_empty())
}

/// The sha256 of `bytes`, in hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    sha2::Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// The sha256 of a file's content, in hex.
pub fn file_sha256(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut file = std::fs::File::open(path).ok()?;
    let mut hasher = sha2::Sha256::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = file.read(&mut buf).ok()?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Some(hasher.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// The machine of a command plan's study as `[environment]` keys a later comparison can check one by one:
/// `cpu_model`, `cores` (the CPUs this process may use), `governor` (when readable), `kernel`, `arch` and
/// `hostname_sha256` (which machine, without naming it).
pub fn fingerprint() -> Environment {
    let mut env = Environment::new();
    env.insert("cpu_model".into(), cpu_model().unwrap_or_else(|| "unknown".into()));
    env.insert("cores".into(), cpus().to_string());
    if let Some(governor) = governor() {
        env.insert("governor".into(), governor);
    }
    env.insert("kernel".into(), read_trimmed("/proc/sys/kernel/osrelease").unwrap_or_else(|| "unknown".into()));
    env.insert("arch".into(), std::env::consts::ARCH.into());
    if let Some(host) = read_trimmed("/proc/sys/kernel/hostname") {
        env.insert("hostname_sha256".into(), sha256_hex(host.as_bytes()));
    }
    env
}

/// What a command run by [`bounded_output`] did.
struct Finished {
    success: bool,
    stdout: String,
    stderr: String,
}

/// Runs a command with no input, bounded by `timeout` (then killed), keeping the first 64 KiB of each of
/// its outputs. `None` when it cannot run or outlives the bound.
fn bounded_output(program: &Path, args: &[&str], timeout: Duration) -> Option<Finished> {
    let out = tempfile::tempfile().ok()?;
    let err = tempfile::tempfile().ok()?;
    let mut child =
        Command::new(program).args(args).stdin(Stdio::null()).stdout(out.try_clone().ok()?).stderr(err.try_clone().ok()?).spawn().ok()?;
    let deadline = Instant::now() + timeout;
    let status = loop {
        if let Some(status) = child.try_wait().ok()? {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let read = |mut file: std::fs::File| {
        use std::io::{Read, Seek};
        let mut text = String::new();
        file.seek(std::io::SeekFrom::Start(0)).ok()?;
        file.take(64 * 1024).read_to_string(&mut text).ok()?;
        Some(text)
    };
    Some(Finished { success: status.success(), stdout: read(out).unwrap_or_default(), stderr: read(err).unwrap_or_default() })
}

/// The first line of `text` that is not blank, trimmed, at most 200 characters.
fn first_nonblank(text: &str) -> Option<String> {
    let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    Some(line.chars().take(200).collect())
}

/// The first line a command prints (stdout, else stderr), bounded by `timeout`: a version string. `None`
/// when it cannot run, prints nothing or outlives the bound (it is then killed).
pub fn first_line(program: &Path, args: &[&str], timeout: Duration) -> Option<String> {
    let done = bounded_output(program, args, timeout)?;
    first_nonblank(&done.stdout).or_else(|| first_nonblank(&done.stderr))
}

/// The first line a command prints on stdout when it succeeds (a revision: `git rev-parse HEAD`);
/// otherwise why not, with the start of what it said on stderr.
pub fn success_line(program: &Path, args: &[&str], timeout: Duration) -> Result<String, String> {
    let done = bounded_output(program, args, timeout).ok_or_else(|| format!("could not run it, or it ran past {} s", timeout.as_secs()))?;
    let said = first_nonblank(&done.stderr).map(|l| format!(": {l}")).unwrap_or_default();
    match first_nonblank(&done.stdout) {
        Some(line) if done.success => Ok(line),
        Some(_) => Err(format!("it failed{said}")),
        None => Err(format!("it printed nothing{said}")),
    }
}

/// Names skipped inside a hashed folder: a repository's own data, and Python's byte-code caches, which
/// running the server rewrites.
const UNHASHED: [&str; 2] = [".git", "__pycache__"];

/// The sha256 of the content of `paths` (files or folders, relative to `base`), one digest for all: each
/// file's path as given (and, in a folder, below it, sorted), its length and its bytes. The same code
/// gives the same digest wherever it is checked out; a symbolic link counts as the path it points to.
pub fn tree_sha256(base: &Path, paths: &[String]) -> std::io::Result<String> {
    let mut hasher = sha2::Sha256::new();
    for path in paths {
        hash_entry(&mut hasher, &base.join(path), path)?;
    }
    Ok(hasher.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

fn hash_entry(hasher: &mut sha2::Sha256, path: &Path, name: &str) -> std::io::Result<()> {
    let meta = std::fs::symlink_metadata(path)?;
    if meta.file_type().is_symlink() {
        let target = std::fs::read_link(path)?;
        hasher.update(format!("link\0{name}\0{}\0", target.display()).as_bytes());
    } else if meta.is_dir() {
        let mut entries: Vec<String> =
            std::fs::read_dir(path)?.map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned())).collect::<std::io::Result<_>>()?;
        entries.sort();
        for entry in entries.iter().filter(|e| !UNHASHED.contains(&e.as_str())) {
            hash_entry(hasher, &path.join(entry), &format!("{name}/{entry}"))?;
        }
    } else {
        let bytes = std::fs::read(path)?;
        hasher.update(format!("file\0{name}\0{}\0", bytes.len()).as_bytes());
        hasher.update(&bytes);
    }
    Ok(())
}

/// The name a program is published by: its file name, without the folders (a user's home, a virtual
/// environment) it was found in.
pub fn program_name(program: &Path) -> String {
    program.file_name().map_or_else(|| program.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// `program` as the OS would run it: a name without `/` found on PATH, else the path itself; `None` when
/// there is no executable file there.
pub fn which(program: &Path) -> Option<std::path::PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let executable = |p: &Path| p.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0);
    if program.components().count() > 1 || program.is_absolute() {
        return executable(program).then(|| program.to_path_buf());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(program)).find(|p| executable(p))
}

/// This harness and its version, as `[environment]` records it.
pub fn harness() -> String {
    format!("measure {}", env!("CARGO_PKG_VERSION"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steal_is_its_share_of_the_cpu_time_between_two_readings() {
        let before = parse_proc_stat("cpu  100 0 50 800 10 0 0 40 0 0\ncpu0 1 2 3\n").unwrap();
        assert_eq!(before, CpuTimes { total: 1000, steal: 40 });
        let after = parse_proc_stat("cpu  200 0 100 1600 10 0 0 90 0 0\n").unwrap();
        assert_eq!(before.steal_pct(after), Some(5.0), "50 of 1,000 ticks");
        assert_eq!(before.steal_pct(before), None, "no time passed");
        assert_eq!(parse_proc_stat("cpu  1 2 3 4\n"), None, "no steal field");
        assert!(CpuTimes::now().is_some());
    }

    #[test]
    fn parses_load1() {
        assert_eq!(parse_loadavg("2.51 0.94 0.35 5/101 6214\n"), Some(2.51));
        assert_eq!(parse_loadavg(""), None);
        assert!(load1().is_some());
    }

    #[test]
    fn the_fingerprint_has_its_structured_keys() {
        let env = fingerprint();
        for key in ["cpu_model", "cores", "kernel", "arch", "hostname_sha256"] {
            assert!(env.contains_key(key), "{key}: {env:?}");
        }
        assert_eq!(env["cores"], cpus().to_string());
        assert_eq!(env["hostname_sha256"].len(), 64);
        assert_eq!(sha256_hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    #[test]
    fn the_first_line_of_a_command_is_its_version() {
        let sh = Path::new("/bin/sh");
        assert_eq!(first_line(sh, &["-c", "echo; echo 'v 1.2 '; echo more"], Duration::from_secs(5)).as_deref(), Some("v 1.2"));
        assert_eq!(first_line(sh, &["-c", "echo on-stderr >&2"], Duration::from_secs(5)).as_deref(), Some("on-stderr"));
        assert_eq!(first_line(sh, &["-c", "sleep 5"], Duration::from_millis(200)), None, "bounded");
        assert_eq!(first_line(Path::new("/nonexistent/x"), &[], Duration::from_secs(1)), None);
    }

    #[test]
    fn a_revision_is_what_a_command_that_succeeds_prints() {
        let sh = Path::new("/bin/sh");
        assert_eq!(success_line(sh, &["-c", "echo 1a2b3c"], Duration::from_secs(5)), Ok("1a2b3c".into()));
        assert_eq!(
            success_line(sh, &["-c", "echo 'fatal: not a git repository' >&2; exit 128"], Duration::from_secs(5)),
            Err("it printed nothing: fatal: not a git repository".into()),
            "what a failing git says on stderr is not a revision"
        );
        assert_eq!(success_line(sh, &["-c", "echo x; exit 1"], Duration::from_secs(5)), Err("it failed".into()));
    }

    #[test]
    fn code_hashes_the_same_wherever_it_is_and_changes_with_a_byte() {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        for dir in [a.path(), b.path()] {
            std::fs::create_dir_all(dir.join("app/__pycache__")).unwrap();
            std::fs::write(dir.join("app/main.py"), "print('hi')\n").unwrap();
            std::fs::write(dir.join("app/util.py"), "X = 1\n").unwrap();
            std::fs::write(dir.join("pyproject.toml"), "[project]\n").unwrap();
        }
        std::fs::write(b.path().join("app/__pycache__/main.pyc"), "cache").unwrap();
        let paths = ["app".to_string(), "pyproject.toml".to_string()];
        let digest = tree_sha256(a.path(), &paths).unwrap();
        assert_eq!(digest.len(), 64);
        assert_eq!(tree_sha256(b.path(), &paths).unwrap(), digest, "another checkout, a byte-code cache: the same code");
        std::fs::write(b.path().join("app/util.py"), "X = 2\n").unwrap();
        assert_ne!(tree_sha256(b.path(), &paths).unwrap(), digest);
        assert!(tree_sha256(a.path(), &["missing".to_string()]).is_err());
    }

    #[test]
    fn a_program_is_published_by_its_name() {
        assert_eq!(program_name(Path::new("/home/me/proj/.venv/bin/granian")), "granian");
        assert_eq!(program_name(Path::new("nginx")), "nginx");
    }

    #[test]
    fn programs_are_found_on_path_or_where_they_are() {
        assert_eq!(which(Path::new("sh")).map(|p| p.is_absolute()), Some(true));
        assert_eq!(which(Path::new("/bin/sh")).as_deref(), Some(Path::new("/bin/sh")));
        assert_eq!(which(Path::new("no-such-program-here")), None);
        assert_eq!(which(Path::new("/etc/passwd")), None, "not executable");
    }

    #[test]
    fn linux_reports_at_least_the_requested_rcvbuf() {
        assert!(so_rcvbuf_reported(8192).unwrap() >= 8192);
    }
}
