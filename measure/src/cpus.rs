//! CPU sets: which CPUs this process may use, how a command plan's runs split them between the server and
//! the load tool, and the `sched_setaffinity` that puts a child on its set before it runs its program.
//!
//! Pinning keeps the load tool and the server off each other's CPUs, so a run's figures stop depending on
//! where the scheduler happened to put them (issue 47 reports, on a 2-core VM with two CPU-bound programs
//! coming and going, an A/A of 8 rounds of 2-s runs whose SD of log requests/s fell from 0.025 to 0.008
//! pinned; `measure doctor` measures it on the host at hand). The set is applied in the
//! child between fork and exec, so every process the server forks later inherits it; the supervisor
//! ([`crate::servers::supervisor`]) is pinned with its server and idles.

use std::fmt;

/// A set of CPU numbers, ascending and without repeats.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CpuSet(Vec<usize>);

impl CpuSet {
    /// The CPUs `cpus` names (sorted, repeats dropped); `None` when empty.
    pub fn new(mut cpus: Vec<usize>) -> Option<CpuSet> {
        cpus.sort_unstable();
        cpus.dedup();
        (!cpus.is_empty()).then_some(CpuSet(cpus))
    }

    /// The CPUs this process may run on (`sched_getaffinity`); `None` where the kernel does not say.
    pub fn allowed() -> Option<CpuSet> {
        // SAFETY: cpu_set_t is plain data; sched_getaffinity writes at most its size into it.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        let ok = unsafe { libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) } == 0;
        if !ok {
            return None;
        }
        // SAFETY: CPU_ISSET reads the set within its bounds (i < CPU_SETSIZE).
        CpuSet::new((0..libc::CPU_SETSIZE as usize).filter(|&i| unsafe { libc::CPU_ISSET(i, &set) }).collect())
    }

    /// How many CPUs.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Never true: a set has at least one CPU.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The CPU numbers, ascending.
    pub fn cpus(&self) -> &[usize] {
        &self.0
    }

    /// The set as a `cpu_set_t`, built before a fork so the child only passes it to the kernel.
    fn raw(&self) -> libc::cpu_set_t {
        // SAFETY: cpu_set_t is plain data; CPU_SET writes within its bounds for i < CPU_SETSIZE.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        for &i in self.0.iter().filter(|&&i| i < libc::CPU_SETSIZE as usize) {
            unsafe { libc::CPU_SET(i, &mut set) };
        }
        set
    }

    /// Makes the process `command` starts run on this set from before it execs its program (so its own
    /// children inherit it). A set the kernel refuses fails the spawn, with the kernel's error.
    pub fn apply_to(&self, command: &mut std::process::Command) {
        use std::os::unix::process::CommandExt;
        let set = self.raw();
        // SAFETY: sched_setaffinity is a plain system call (async-signal-safe); `set` was built before the
        // fork and is only read.
        unsafe {
            command.pre_exec(move || {
                if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
}

/// `0-2,5`: ranges of consecutive CPUs, as taskset and /sys write them.
impl fmt::Display for CpuSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        let mut i = 0;
        while i < self.0.len() {
            let start = self.0[i];
            let mut end = start;
            while i + 1 < self.0.len() && self.0[i + 1] == end + 1 {
                i += 1;
                end = self.0[i];
            }
            if !first {
                f.write_str(",")?;
            }
            first = false;
            if end == start {
                write!(f, "{start}")?;
            } else {
                write!(f, "{start}-{end}")?;
            }
            i += 1;
        }
        Ok(())
    }
}

/// Where a pinned run's processes go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pinning {
    /// The server's processes (and their supervisor).
    pub server: CpuSet,
    /// The load tool's processes.
    pub load: CpuSet,
}

impl Pinning {
    /// Splits `allowed` into two disjoint sets: the load tool gets the upper half (rounded down, at least
    /// one CPU), the server the rest, so on 2 CPUs each gets one and on an odd count the server the extra
    /// one. `None` below 2 CPUs, where there is nothing to split.
    pub fn split(allowed: &CpuSet) -> Option<Pinning> {
        let n = allowed.len();
        if n < 2 {
            return None;
        }
        let load = (n / 2).max(1);
        let (server, tool) = allowed.cpus().split_at(n - load);
        Some(Pinning { server: CpuSet::new(server.to_vec())?, load: CpuSet::new(tool.to_vec())? })
    }

    /// The pinning of this host's allowed CPUs, when `wanted` and there are 2 or more.
    pub fn for_host(wanted: bool) -> Option<Pinning> {
        if !wanted {
            return None;
        }
        Pinning::split(&CpuSet::allowed()?)
    }

    /// The `[environment]` keys that record it: `server_cpus` and `load_cpus`, or `pinned = "no"` with why.
    pub fn environment(pinning: Option<&Pinning>, wanted: bool) -> Vec<(String, String)> {
        match pinning {
            Some(p) => vec![("server_cpus".into(), p.server.to_string()), ("load_cpus".into(), p.load.to_string())],
            None if !wanted => vec![("pinned".into(), "no (load.pin = false)".into())],
            None => vec![("pinned".into(), "no (fewer than 2 CPUs)".into())],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(cpus: &[usize]) -> CpuSet {
        CpuSet::new(cpus.to_vec()).unwrap()
    }

    #[test]
    fn sets_print_as_ranges() {
        assert_eq!(set(&[0]).to_string(), "0");
        assert_eq!(set(&[3, 0, 1, 2, 5]).to_string(), "0-3,5");
        assert_eq!(set(&[1, 3, 4, 7]).to_string(), "1,3-4,7");
        assert_eq!(CpuSet::new(vec![]), None);
    }

    #[test]
    fn two_cpus_give_one_each_and_one_cpu_gives_no_pinning() {
        let p = Pinning::split(&set(&[0, 1])).unwrap();
        assert_eq!((p.server.to_string(), p.load.to_string()), ("0".into(), "1".into()));
        let p = Pinning::split(&set(&[0, 1, 2, 3, 4])).unwrap();
        assert_eq!((p.server.to_string(), p.load.to_string()), ("0-2".into(), "3-4".into()));
        assert_eq!(Pinning::split(&set(&[2])), None);
    }

    #[test]
    fn a_pinned_child_runs_on_its_set_only() {
        let Some(allowed) = CpuSet::allowed() else { return };
        let one = set(&[allowed.cpus()[allowed.len() - 1]]);
        let mut command = std::process::Command::new("sh");
        command.args(["-c", "grep Cpus_allowed_list /proc/self/status"]);
        one.apply_to(&mut command);
        let out = command.output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(text.split_whitespace().last(), Some(one.to_string().as_str()), "{text}");
    }
}
