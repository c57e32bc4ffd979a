//! Whole folders: built complete beside the target, then swapped in with one atomic exchange.

use crate::file::{sync_folder, write_unsynced};
use crate::lock::Lock;
use crate::marker::{list_files, Marker, MARKER};
use crate::paths::{check_relative, resolve};
use crate::staging::{remove_stale, Kind, Staged};
use crate::{Error, Files};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// How many foreign entries an error names before it says "and N more".
const SHOWN: usize = 10;

/// What a folder write did besides writing the files.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// The real folder written: `--out` with `.`, `..` and symbolic links resolved.
    pub path: PathBuf,
    /// Foreign top-level entries carried over into the new folder (from `keep`).
    pub kept: Vec<String>,
}

/// Writes `files` as the whole content of `out` (plus its [`MARKER`]), atomically.
///
/// `out` may be missing, empty, or a folder this writer wrote before (its marker lists what it
/// wrote). Entries the marker does not list are refused with their names, except top-level names
/// in `keep` (a site's `.git` or `CNAME`), which are moved into the new folder. A symbolic link
/// is written through: the link stays and the folder it points to is replaced.
pub fn write_folder(out: &Path, files: &Files, keep: &[&str]) -> Result<Written, Error> {
    write_folder_with(out, keep, |sink| {
        for (relative, bytes) in files {
            sink.write(relative, bytes)?;
        }
        Ok::<(), Error>(())
    })
}

/// Where [`write_folder_with`] puts files as they are made: each is written into the staging
/// folder at once, so a folder of 10^5 files never has to be held in memory.
pub struct Sink<'a> {
    staged: &'a Path,
    /// The folder's final path, for the messages about bad relative paths.
    target: &'a Path,
    folders: BTreeSet<PathBuf>,
    files: BTreeSet<String>,
}

impl Sink<'_> {
    /// Writes one file (relative, `/`-separated) into the new folder. A path written twice is
    /// an error: the second would silently replace the first.
    pub fn write(&mut self, relative: &str, bytes: &[u8]) -> Result<(), Error> {
        check_relative(self.target, relative)?;
        if !self.files.insert(relative.to_string()) {
            return Err(Error::BadPath { dir: self.target.to_path_buf(), path: relative.to_string(), why: "it is written twice" });
        }
        let file = self.staged.join(relative);
        if let Some(folder) = file.parent() {
            if self.folders.insert(folder.to_path_buf()) {
                use std::os::unix::fs::DirBuilderExt;
                std::fs::DirBuilder::new().recursive(true).mode(0o755).create(folder).map_err(Error::io("create", folder))?;
            }
        }
        write_unsynced(&file, bytes)
    }

    /// How many files were written so far.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// [`write_folder`] with the files made by `fill`, which hands each to the [`Sink`] as soon as
/// it exists. The target is checked before `fill` runs (so a refused folder costs no work), and
/// the new folder replaces it only when `fill` succeeds; on an error it is removed and the old
/// folder stays as it was.
pub fn write_folder_with<E: From<Error>>(out: &Path, keep: &[&str], fill: impl FnOnce(&mut Sink) -> Result<(), E>) -> Result<Written, E> {
    let target = resolve(out)?;
    let _lock = Lock::acquire(&target.parent)?;
    remove_stale(&target.parent, Some(&target.name));
    let mut kept = Vec::new();
    if target.path.exists() {
        let foreign = match Marker::read(&target.path)? {
            Some(marker) => {
                // Leftovers of a killed `write_part` inside a folder that is ours.
                remove_stale(&target.path, None);
                marker.foreign(&target.path, "")?
            }
            None => top_level(&target.path)?,
        };
        let (carried, refused): (Vec<String>, Vec<String>) = foreign.into_iter().partition(|f| keep.contains(&f.as_str()));
        refuse(&target.path, refused)?;
        kept = carried;
    }
    let staged = Staged::create(&target.parent, &target.name, "new", Kind::Folder)?;
    let mut sink = Sink {
        staged: staged.path(),
        target: &target.path,
        folders: BTreeSet::from([staged.path().to_path_buf()]),
        files: BTreeSet::new(),
    };
    fill(&mut sink)?;
    let (files, folders) = (sink.files, sink.folders);
    write_unsynced(&staged.path().join(MARKER), &Marker::render(&files))?;
    sync_staged(staged.path(), &files, &folders)?;
    swap(&target.path, &target.parent, &target.name, staged, &kept, None)?;
    Ok(Written { path: target.path, kept })
}

/// Replaces the subfolder `sub` of `root` with `files` and writes `loose` files into `root`,
/// each atomically, keeping `root`'s marker exact. `root` must have been written whole before;
/// entries under `sub` that its marker does not list are refused.
pub fn write_part(root: &Path, sub: &str, files: &Files, loose: &Files) -> Result<Written, Error> {
    let target = resolve(root)?;
    let marker = match target.path.exists() {
        true => Marker::read(&target.path)?,
        false => None,
    };
    let Some(marker) = marker else { return Err(Error::NotWrittenBefore(root.to_path_buf())) };
    check_relative(&target.path, sub)?;
    for name in loose.keys() {
        check_relative(&target.path, name)?;
    }
    // Outer lock: a whole rebuild of `root`; inner: writers of `root`'s own entries.
    let _outer = Lock::acquire(&target.parent)?;
    let _inner = Lock::acquire(&target.path)?;
    let leaf = sub.rsplit('/').next().unwrap_or(sub);
    let sub_parent = match sub.rsplit_once('/') {
        Some((folder, _)) => target.path.join(folder),
        None => target.path.clone(),
    };
    remove_stale(&sub_parent, Some(leaf));
    let sub_path = target.path.join(sub);
    if sub_path.exists() {
        refuse(&target.path, marker.foreign(&sub_path, &format!("{sub}/"))?)?;
    }
    let mut listed = match marker {
        Marker::Files(files) => files,
        Marker::Legacy => {
            let mut all = BTreeSet::new();
            list_files(&target.path, "", &mut all)?;
            all
        }
    };
    let prefix = format!("{sub}/");
    let new: BTreeSet<String> = files.keys().map(|f| format!("{prefix}{f}")).chain(loose.keys().cloned()).collect();
    // First the union, so a crash before the end leaves nothing of ours unlisted; then the exact list.
    listed.extend(new.iter().cloned());
    crate::write_file(&target.path.join(MARKER), &Marker::render(&listed))?;
    std::fs::create_dir_all(&sub_parent).map_err(Error::io("create", &sub_parent))?;
    let staged = stage(&sub_parent, leaf, &sub_path, files)?;
    swap(&sub_path, &sub_parent, leaf, staged, &[], None)?;
    for (name, bytes) in loose {
        crate::write_file(&target.path.join(name), bytes)?;
    }
    listed.retain(|f| !f.starts_with(&prefix) || new.contains(f));
    crate::write_file(&target.path.join(MARKER), &Marker::render(&listed))?;
    Ok(Written { path: target.path, kept: Vec::new() })
}

/// Every entry of a folder without a marker: all of them are someone else's.
fn top_level(dir: &Path) -> Result<Vec<String>, Error> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(Error::io("read", dir))? {
        names.push(entry.map_err(Error::io("read", dir))?.file_name().to_string_lossy().into_owned());
    }
    names.sort();
    Ok(names)
}

fn refuse(dir: &Path, foreign: Vec<String>) -> Result<(), Error> {
    if foreign.is_empty() {
        return Ok(());
    }
    let count = foreign.len();
    let shown = foreign.into_iter().take(SHOWN).collect();
    Err(Error::Foreign { dir: dir.to_path_buf(), count, shown })
}

/// Writes every file into a fresh staging folder beside `path`.
fn stage(parent: &Path, name: &str, path: &Path, files: &Files) -> Result<Staged, Error> {
    let staged = Staged::create(parent, name, "new", Kind::Folder)?;
    let mut sink =
        Sink { staged: staged.path(), target: path, folders: BTreeSet::from([staged.path().to_path_buf()]), files: BTreeSet::new() };
    for (relative, bytes) in files {
        sink.write(relative, bytes)?;
    }
    let (written, folders) = (sink.files, sink.folders);
    sync_staged(staged.path(), &written, &folders)?;
    Ok(staged)
}

/// Makes a staged folder durable before it is swapped in: its files' data, then its folders.
/// On Linux one `syncfs` of the file system stands for an fsync per file (10^5 of them took
/// minutes on a shared disk); elsewhere each file is fsync'd.
fn sync_staged(staged: &Path, files: &BTreeSet<String>, folders: &BTreeSet<PathBuf>) -> Result<(), Error> {
    #[cfg(target_os = "linux")]
    {
        let _ = files;
        use std::os::fd::AsRawFd;
        let folder = std::fs::File::open(staged).map_err(Error::io("sync", staged))?;
        // SAFETY: a valid open descriptor; syncfs only flushes.
        if unsafe { libc::syncfs(folder.as_raw_fd()) } != 0 {
            return Err(Error::io("sync", staged)(std::io::Error::last_os_error()));
        }
    }
    #[cfg(not(target_os = "linux"))]
    for relative in files.iter().map(String::as_str).chain([MARKER]) {
        let path = staged.join(relative);
        std::fs::File::open(&path).and_then(|f| f.sync_all()).map_err(Error::io("sync", &path))?;
    }
    for folder in folders {
        sync_folder(folder)?;
    }
    Ok(())
}

/// Puts the staged folder at `path`: moves `kept` entries of the old folder into it, exchanges the
/// two in one step (two renames where the file system cannot exchange), removes the old folder.
/// On failure the old folder is back in place with its kept entries. Where the file system cannot
/// exchange, the old folder is moved aside into `area` when given (an update's staging area),
/// else beside `path`.
pub(crate) fn swap(path: &Path, parent: &Path, name: &str, staged: Staged, kept: &[String], area: Option<&Path>) -> Result<(), Error> {
    if std::fs::symlink_metadata(path).is_err() {
        std::fs::rename(staged.path(), path).map_err(Error::io("move the new folder into", path))?;
        staged.publish();
        return sync_folder(parent);
    }
    let mut moved = Vec::new();
    let mut outcome = Ok(());
    for entry in kept {
        match std::fs::rename(path.join(entry), staged.path().join(entry)) {
            Ok(()) => moved.push(entry),
            Err(e) => {
                outcome = Err(Error::io("carry over", path.join(entry))(e));
                break;
            }
        }
    }
    if outcome.is_ok() {
        outcome = exchange(staged.path(), path, area.unwrap_or(parent), name, area.is_some());
    }
    if let Err(error) = outcome {
        for entry in moved {
            let _ = std::fs::rename(staged.path().join(entry), path.join(entry));
        }
        return Err(error);
    }
    crate::crash_point("swap:exchanged");
    // `staged` now names the old folder; dropping it removes it (a failure there is left to the
    // next run, which removes leftovers of dead runs).
    drop(staged);
    sync_folder(parent)
}

/// Exchanges `staged` and `path` atomically (Linux `renameat2`), so `path` never goes missing.
fn exchange(staged: &Path, path: &Path, aside: &Path, name: &str, in_area: bool) -> Result<(), Error> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let cstring = |p: &Path| CString::new(p.as_os_str().as_bytes()).map_err(|_| Error::NotAFolder(p.to_path_buf()));
    let (a, b) = (cstring(staged)?, cstring(path)?);
    // SAFETY: two valid NUL-terminated paths; renameat2 only renames.
    let result = unsafe { libc::renameat2(libc::AT_FDCWD, a.as_ptr(), libc::AT_FDCWD, b.as_ptr(), libc::RENAME_EXCHANGE) };
    if result == 0 {
        return Ok(());
    }
    let error = std::io::Error::last_os_error();
    if !matches!(error.raw_os_error(), Some(libc::EINVAL) | Some(libc::ENOSYS) | Some(libc::EOPNOTSUPP)) {
        return Err(Error::io("move the new folder into", path)(error));
    }
    // No exchange here: move the old folder aside under a name the next run recognises, then the
    // new one in.
    let old = Staged::reserve(aside, name, "old", in_area);
    std::fs::rename(path, old.path()).map_err(Error::io("move aside", path))?;
    if let Err(e) = std::fs::rename(staged, path) {
        let _ = std::fs::rename(old.path(), path);
        old.publish();
        return Err(Error::io("move the new folder into", path)(e));
    }
    std::fs::rename(old.path(), staged).map_err(Error::io("move aside", old.path()))?;
    old.publish();
    Ok(())
}
