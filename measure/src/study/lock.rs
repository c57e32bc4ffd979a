//! One study at a time on a dataset: `measure run` holds an advisory `flock` on
//! `raw/.measure.lock` in the dataset folder from before it reads the dataset until it ends, and a
//! second `measure run` on the same folder is refused at once, naming the holder's pid (written into
//! the file). `--dry-run` writes nothing and takes no lock.
//!
//! Why this file and not the folder itself: each `analyze import` of a run publishes the dataset's
//! next version by exchanging the folder with a staged copy (under the lock of the *parent* folder,
//! which measure therefore must not hold: the import would wait on it for ever). A lock on the
//! folder would stay with the old version; the staged copy carries `raw/` over as hard links, so the
//! lock file of the new version is the very file measure holds locked. `raw/` is a folder analyze
//! keeps as it is (a top-level file of its own would be refused by the import as foreign).
//!
//! The file is removed when the study ends. A process that opened it just before and locks it then
//! sees that the path no longer names the file it locked, and takes the lock again on the new one.

use crate::dataset::RAW_DIR;
use anyhow::{bail, Context, Result};
use std::io::{Read, Seek, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// The lock file, relative to the dataset folder.
pub const LOCK_FILE: &str = ".measure.lock";

/// The lock of one study on its dataset folder, held until dropped.
#[derive(Debug)]
pub struct DatasetLock {
    /// The open lock file: the lock lasts as long as it is open.
    _file: std::fs::File,
    path: PathBuf,
    /// Folders this lock created (the dataset's, `raw/`), removed again when they are left empty.
    created: Vec<PathBuf>,
}

/// The path of the lock file of the dataset `out`.
pub fn lock_path(out: &Path) -> PathBuf {
    out.join(RAW_DIR).join(LOCK_FILE)
}

impl DatasetLock {
    /// Takes the lock on the dataset folder `out` (creating the folder and `raw/` when missing), or
    /// refuses at once when another process holds it.
    pub fn take(out: &Path) -> Result<DatasetLock> {
        let raw = out.join(RAW_DIR);
        let mut created = Vec::new();
        for dir in [out, raw.as_path()] {
            if !dir.exists() {
                std::fs::create_dir_all(dir).with_context(|| format!("failed to create {}", dir.display()))?;
                created.push(dir.to_path_buf());
            }
        }
        let path = lock_path(out);
        loop {
            let mut file = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .with_context(|| format!("failed to open {}", path.display()))?;
            // SAFETY: flock on a descriptor we own; it only takes an advisory lock.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
                let error = std::io::Error::last_os_error();
                if error.raw_os_error() != Some(libc::EWOULDBLOCK) {
                    return Err(error).with_context(|| format!("failed to lock {}", path.display()));
                }
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                let holder = holder.trim();
                let who = if holder.is_empty() { "another measure".to_string() } else { format!("another measure (pid {holder})") };
                bail!(
                    "{} is in use: {who} is running a study on it (it holds {}); wait for it to end, or stop it, then run again",
                    out.display(),
                    path.display()
                );
            }
            // The holder before us may have removed the file between our open and our lock: then the
            // lock is on a file nobody else will open; take it again on the one the path names.
            let same = match (file.metadata(), std::fs::metadata(&path)) {
                (Ok(held), Ok(named)) => held.ino() == named.ino() && held.dev() == named.dev(),
                _ => false,
            };
            if !same {
                continue;
            }
            file.set_len(0)
                .and_then(|()| file.rewind())
                .and_then(|()| write!(file, "{}", std::process::id()))
                .with_context(|| format!("failed to write {}", path.display()))?;
            return Ok(DatasetLock { _file: file, path, created });
        }
    }
}

impl Drop for DatasetLock {
    fn drop(&mut self) {
        // Removed while still locked, so no other process can lock it and then lose it to us.
        let _ = std::fs::remove_file(&self.path);
        for dir in self.created.iter().rev() {
            // Only an empty folder goes (one this lock created and nothing was written into).
            let _ = std::fs::remove_dir(dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_a_dataset_is_refused_naming_the_holder() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("d");
        let held = DatasetLock::take(&out).unwrap();
        assert_eq!(std::fs::read_to_string(lock_path(&out)).unwrap(), std::process::id().to_string());
        let err = DatasetLock::take(&out).unwrap_err().to_string();
        assert!(err.contains(&format!("{} is in use: another measure (pid {})", out.display(), std::process::id())), "{err}");
        drop(held);
        assert!(!out.exists(), "the folders the lock made for nothing are gone");
        let again = DatasetLock::take(&out).unwrap();
        std::fs::write(out.join("plan.toml"), "kept").unwrap();
        drop(again);
        assert!(out.join("plan.toml").exists() && !lock_path(&out).exists() && !out.join(RAW_DIR).exists());
    }
}
