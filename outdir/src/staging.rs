//! Staging names carry the writer's PID, `.NAME.new-PID-N` (and `.NAME.old-PID-N` for a folder on
//! its way out), so a later run can tell a leftover of a dead run from the work of a live one.
//! A [`Staged`] path is removed when dropped (errors and panics) and when the process is ended by
//! SIGINT, SIGTERM or SIGHUP while it exists; what a SIGKILL leaves, [`remove_stale`] removes.

use crate::Error;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, Once};

static COUNTER: AtomicU64 = AtomicU64::new(0);
/// Staging paths that exist right now, for the signal thread to remove.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
static SIGNALS: Once = Once::new();

/// A staging file or folder, removed on drop unless [`Staged::publish`]ed.
pub(crate) struct Staged {
    path: PathBuf,
    published: bool,
}

/// What to create at a staging path.
#[derive(Clone, Copy)]
pub(crate) enum Kind {
    Folder,
    File,
}

impl Staged {
    /// Creates a fresh staging entry `.NAME.KIND-PID-N` in `parent`; `kind_word` is `new` or `old`.
    pub fn create(parent: &Path, name: &str, kind_word: &str, kind: Kind) -> Result<Staged, Error> {
        Staged::create_named(parent, &format!(".{name}.{kind_word}"), kind)
    }

    /// Creates a fresh staging entry `NAME.KIND-PID-N` in a staging area (a folder of its own,
    /// where no dot is needed to keep it out of sight).
    pub fn create_in_area(area: &Path, name: &str, kind_word: &str, kind: Kind) -> Result<Staged, Error> {
        Staged::create_named(area, &format!("{name}.{kind_word}"), kind)
    }

    /// Creates `STEM-PID-N` in `parent`, with the first N not taken.
    fn create_named(parent: &Path, stem: &str, kind: Kind) -> Result<Staged, Error> {
        loop {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let path = parent.join(format!("{stem}-{}-{n}", std::process::id()));
            let created = match kind {
                Kind::Folder => {
                    use std::os::unix::fs::DirBuilderExt;
                    std::fs::DirBuilder::new().mode(0o755).create(&path).map(|_| ())
                }
                Kind::File => {
                    use std::os::unix::fs::OpenOptionsExt;
                    std::fs::OpenOptions::new().write(true).create_new(true).mode(0o644).open(&path).map(|_| ())
                }
            };
            match created {
                // Only folders answer signals: a program with its own Ctrl-C handling (measure) writes
                // files, and leftover files are removed by the next run.
                Ok(()) => return Ok(Staged::track(path, matches!(kind, Kind::Folder))),
                // A dead run with a reused PID left this name: take the next one.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(Error::io("create a staging entry in", parent)(e)),
            }
        }
    }

    /// A name for an entry that does not exist yet (`rename` will create it), tracked the same way:
    /// `.NAME.KIND-PID-N` beside the folder, or `NAME.KIND-PID-N` in a staging area.
    pub fn reserve(parent: &Path, name: &str, kind_word: &str, in_area: bool) -> Staged {
        let stem = if in_area { format!("{name}.{kind_word}") } else { format!(".{name}.{kind_word}") };
        loop {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let path = parent.join(format!("{stem}-{}-{n}", std::process::id()));
            if std::fs::symlink_metadata(&path).is_err() {
                return Staged::track(path, true);
            }
        }
    }

    fn track(path: PathBuf, on_signal: bool) -> Staged {
        if on_signal {
            SIGNALS.call_once(start_signal_thread);
        }
        LIVE.lock().unwrap_or_else(|e| e.into_inner()).push(path.clone());
        Staged { path, published: false }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The entry was renamed into place: nothing to remove any more.
    pub fn publish(mut self) {
        self.published = true;
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        LIVE.lock().unwrap_or_else(|e| e.into_inner()).retain(|p| p != &self.path);
        if !self.published {
            remove(&self.path);
        }
    }
}

fn remove(path: &Path) {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => {
            let _ = std::fs::remove_dir_all(path);
        }
        Ok(_) => {
            let _ = std::fs::remove_file(path);
        }
        Err(_) => {}
    }
}

/// On SIGINT, SIGTERM or SIGHUP: remove the live staging entries, then end as the signal would.
/// A thread, not a handler, does the removing, so it may allocate and call the file system.
fn start_signal_thread() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else { return };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            for path in LIVE.lock().unwrap_or_else(|e| e.into_inner()).iter() {
                remove(path);
            }
            std::process::exit(128 + signal);
        }
    });
}

/// Removes `.NAME.new-PID-N` and `.NAME.old-PID-N` entries in `parent` whose process is gone
/// (any NAME when `name` is `None`). Entries of live processes, and names without a PID, are left
/// alone.
pub(crate) fn remove_stale(parent: &Path, name: Option<&str>) {
    remove_stale_where(parent, name, true);
}

/// [`remove_stale`] in a staging area, whose entries are `NAME.new-PID-N` (no leading dot).
pub(crate) fn remove_stale_in_area(area: &Path, name: &str) {
    remove_stale_where(area, Some(name), false);
}

fn remove_stale_where(parent: &Path, name: Option<&str>, dotted: bool) {
    let Ok(entries) = std::fs::read_dir(parent) else { return };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(text) = file_name.to_str() else { continue };
        let rest = match dotted {
            true => text.strip_prefix('.'),
            false => Some(text),
        };
        if rest.and_then(|r| staging_pid(r, name)).is_some_and(|pid| !alive(pid)) {
            remove(&entry.path());
        }
    }
}

/// Whether `name` is a staging name of this writer (`.NAME.new-PID-N`, `.NAME.old-PID-N`), or
/// one of the temporary files `.requests.csv.new-XXXXXX` that `analyze import` staged before it
/// wrote through [`crate::update_folder`] (only ever left by a killed import).
pub fn is_staging_name(name: &str) -> bool {
    let Some(rest) = name.strip_prefix('.') else { return false };
    if let Some(random) = rest.strip_prefix("requests.csv.new-") {
        return random.len() == 6 && random.bytes().all(|b| b.is_ascii_alphanumeric());
    }
    staging_pid(rest, None).is_some()
}

/// The PID of a staging name without its leading dot (`NAME.new-PID-N`), for any NAME or `name`.
pub(crate) fn staging_pid(rest: &str, name: Option<&str>) -> Option<i32> {
    let tail = match name {
        Some(name) => rest.strip_prefix(name).and_then(|r| r.strip_prefix(".new-").or_else(|| r.strip_prefix(".old-")))?,
        None => rest.rsplit_once(".new-").or_else(|| rest.rsplit_once(".old-")).map(|(_, tail)| tail)?,
    };
    let (pid, n) = tail.split_once('-')?;
    let pid = pid.parse::<i32>().ok()?;
    (pid > 0 && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())).then_some(pid)
}

/// Whether a process with this PID exists (signal 0 checks without sending anything).
pub(crate) fn alive(pid: i32) -> bool {
    // SAFETY: kill with signal 0 sends nothing; it only reports whether the process exists.
    let result = unsafe { libc::kill(pid, 0) };
    result == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removes_leftovers_of_dead_runs_only() {
        let root = tempfile::tempdir().unwrap();
        let live = format!(".out.new-{}-0", std::process::id());
        // PIDs are below 2^22 on Linux: this one cannot be running.
        for name in [live.as_str(), ".out.new-99999999-3", ".out.old-99999999-4", ".out.new-abc", ".other.new-99999999-1"] {
            std::fs::create_dir(root.path().join(name)).unwrap();
        }
        let left = || {
            let mut left: Vec<_> = std::fs::read_dir(root.path()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
            left.sort();
            left
        };
        remove_stale(root.path(), Some("out"));
        let mut expected = vec![".other.new-99999999-1".to_string(), ".out.new-abc".into(), live.clone()];
        expected.sort();
        assert_eq!(left(), expected);
        remove_stale(root.path(), None);
        expected.remove(0);
        assert_eq!(left(), expected);
    }

    #[test]
    fn a_dropped_staging_folder_is_removed() {
        let root = tempfile::tempdir().unwrap();
        let staged = Staged::create(root.path(), "out", "new", Kind::Folder).unwrap();
        std::fs::write(staged.path().join("a"), "1").unwrap();
        drop(staged);
        assert_eq!(std::fs::read_dir(root.path()).unwrap().count(), 0);
    }
}
