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

/// The first line a command prints (stdout, else stderr), bounded by `timeout`: a version string. `None`
/// when it cannot run, prints nothing or outlives the bound (it is then killed).
pub fn first_line(program: &Path, args: &[&str], timeout: Duration) -> Option<String> {
    let out = tempfile::tempfile().ok()?;
    let err = tempfile::tempfile().ok()?;
    let mut child =
        Command::new(program).args(args).stdin(Stdio::null()).stdout(out.try_clone().ok()?).stderr(err.try_clone().ok()?).spawn().ok()?;
    let deadline = Instant::now() + timeout;
    while child.try_wait().ok()?.is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    [out, err].into_iter().find_map(|mut file| {
        use std::io::{Read, Seek};
        let mut text = String::new();
        file.seek(std::io::SeekFrom::Start(0)).ok()?;
        file.take(64 * 1024).read_to_string(&mut text).ok()?;
        let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
        Some(line.chars().take(200).collect())
    })
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
