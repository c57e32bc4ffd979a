//! Reading processes from `/proc`: `/proc/<pid>/stat` parsing and the process list.
//!
//! The second field of `stat` is the command name in parentheses and may itself contain spaces and
//! parentheses (`1234 (my (weird) name) S ...`), so the only safe split is at the LAST `)`. Processes can
//! exit at any moment; one that vanished between listing and reading is skipped, never an error.

use std::io;
use std::path::Path;

/// The fields of `/proc/<pid>/stat` the samplers use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcStat {
    pub pid: u32,
    /// The command name without the parentheses.
    pub comm: String,
    pub state: char,
    pub ppid: u32,
    /// Process group id (field 5): a server and its workers share the group we start them in.
    pub pgrp: u32,
    /// User CPU time in clock ticks (field 14).
    pub utime: u64,
    /// System CPU time in clock ticks (field 15).
    pub stime: u64,
    /// User and system CPU time of its children it has waited for, in clock ticks (fields 16 and 17).
    pub children_ticks: u64,
    /// Resident set size in pages (field 24).
    pub rss_pages: u64,
}

/// A stat line that does not have the documented shape.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("malformed /proc stat line: {0}")]
pub struct StatError(String);

/// Parses one `/proc/<pid>/stat` line (see proc(5)).
pub fn parse_stat(line: &str) -> Result<ProcStat, StatError> {
    let bad = |why: &str| StatError(format!("{why} in {line:?}"));
    let open = line.find(" (").ok_or_else(|| bad("no '('"))?;
    let close = line.rfind(')').ok_or_else(|| bad("no ')'"))?;
    if close < open {
        return Err(bad("')' before '('"));
    }
    let pid = line[..open].trim().parse().map_err(|_| bad("bad pid"))?;
    let comm = line[open + 2..close].to_string();
    // Fields from 3 (state) on; index i here is field i + 3 of proc(5).
    let rest: Vec<&str> = line[close + 1..].split_whitespace().collect();
    let field =
        |n: usize| -> Result<u64, StatError> { rest.get(n - 3).and_then(|s| s.parse().ok()).ok_or_else(|| bad(&format!("field {n}"))) };
    let state = rest.first().and_then(|s| s.chars().next()).ok_or_else(|| bad("no state"))?;
    Ok(ProcStat {
        pid,
        comm,
        state,
        ppid: field(4)? as u32,
        pgrp: field(5)? as u32,
        utime: field(14)?,
        stime: field(15)?,
        children_ticks: field(16)? + field(17)?,
        rss_pages: field(24)?,
    })
}

/// Reads `/proc/<pid>/stat`; `Ok(None)` when the process is gone.
pub fn read_stat(pid: u32) -> io::Result<Option<ProcStat>> {
    read_stat_at(&Path::new("/proc").join(pid.to_string()).join("stat"))
}

fn read_stat_at(path: &Path) -> io::Result<Option<ProcStat>> {
    match std::fs::read_to_string(path) {
        Ok(text) => parse_stat(text.trim_end()).map(Some).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e)),
        Err(e) if vanished(&e) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Whether an error means "the process or file is no longer there".
pub fn vanished(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::NotFound || e.raw_os_error() == Some(libc::ESRCH)
}

/// Every process currently in `/proc` (those that exit while listing are skipped).
pub fn list_processes() -> io::Result<Vec<ProcStat>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc")? {
        let Ok(entry) = entry else { continue };
        let name = entry.file_name();
        if !name.to_string_lossy().bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        // A malformed or unreadable stat of a foreign process is not ours to fail on.
        if let Ok(Some(stat)) = read_stat_at(&entry.path().join("stat")) {
            out.push(stat);
        }
    }
    Ok(out)
}

/// `pid` itself (when still listed) followed by its direct children: a server's master and its workers.
pub fn family(all: &[ProcStat], pid: u32) -> Vec<&ProcStat> {
    let master = all.iter().filter(|p| p.pid == pid);
    let children = all.iter().filter(|p| p.ppid == pid);
    master.chain(children).collect()
}

/// Clock ticks per second (USER_HZ) for the CPU times.
pub fn ticks_per_second() -> f64 {
    // SAFETY: sysconf has no preconditions.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if t > 0 {
        t as f64
    } else {
        100.0
    }
}

/// Page size in bytes for RSS.
pub fn page_size() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if p > 0 {
        p as u64
    } else {
        4096
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A real line's tail after the comm: state S, ppid 1, utime 250, stime 75, rss 2048 pages.
    const TAIL: &str = "S 1 1234 1234 0 -1 4194560 9000 0 0 0 250 75 0 0 20 0 1 0 5000 123456789 2048 \
                        18446744073709551615 1 1 0 0 0 0 0 16781312 134235139 0 0 0 17 1 0 0 0 0 0";

    #[test]
    fn parses_a_plain_name() {
        let s = parse_stat(&format!("1234 (nginx) {TAIL}")).unwrap();
        assert_eq!(
            s,
            ProcStat {
                pid: 1234,
                comm: "nginx".into(),
                state: 'S',
                ppid: 1,
                pgrp: 1234,
                utime: 250,
                stime: 75,
                children_ticks: 0,
                rss_pages: 2048
            }
        );
    }

    #[test]
    fn parses_names_with_spaces_and_parentheses() {
        for comm in ["my (weird) name", "a) b", "((", "x ) S 99 99", "gunicorn: worker"] {
            let s = parse_stat(&format!("1234 ({comm}) {TAIL}")).unwrap();
            assert_eq!(s.comm, comm);
            assert_eq!((s.ppid, s.utime, s.stime, s.rss_pages), (1, 250, 75, 2048), "comm {comm:?}");
        }
    }

    #[test]
    fn rejects_truncated_lines() {
        assert!(parse_stat("1234 (x) S 1 2").is_err());
        assert!(parse_stat("garbage").is_err());
        assert!(parse_stat("x (y) S 1 1234 1234 0").is_err());
    }

    #[test]
    fn reads_own_process() {
        let me = read_stat(std::process::id()).unwrap().unwrap();
        assert_eq!(me.pid, std::process::id());
        assert!(me.rss_pages > 0);
        let all = list_processes().unwrap();
        assert!(all.iter().any(|p| p.pid == me.pid));
        assert_eq!(family(&all, me.pid)[0].pid, me.pid);
    }

    #[test]
    fn a_gone_process_is_none() {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        assert_eq!(read_stat(pid).unwrap(), None);
    }
}
