//! Facts about the host: the load average before and after each run, and the environment recorded in
//! dataset.toml (kernel, CPUs, versions, TCP buffer settings, the SO_RCVBUF the kernel reports back).

use crate::dataset::manifest::Environment;
use crate::plan::open::OpenLoop;
use std::process::Command;

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
    fn linux_reports_at_least_the_requested_rcvbuf() {
        assert!(so_rcvbuf_reported(8192).unwrap() >= 8192);
    }
}
