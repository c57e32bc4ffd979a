//! A folder that is updated, not rebuilt (a dataset that `analyze import` adds a run to): its next
//! version is built complete beside it from the current one, under the lock of its parent, and
//! then exchanged with it in one step. A reader or a kill sees the old folder or the new one,
//! never a mix of the two; concurrent updates of one folder wait for each other, so none is lost.
//!
//! Unlike [`crate::write_folder`], the folder carries no marker: the caller decides which of its
//! entries it knows ([`Update::entries`]) and carries over those it does not rewrite
//! ([`Update::carry`], hard links, so a large untouched file costs nothing).

use crate::file::{sync_folder, write_new};
use crate::folder::swap;
use crate::lock::Lock;
use crate::paths::{resolve_in_existing_parent, Target};
use crate::staging::{remove_stale, remove_stale_in_area, Kind, Staged};
use crate::Error;
use crate::STAGING;
use std::path::{Path, PathBuf};

/// The folder being updated, as the builder sees it.
pub struct Update {
    /// The current folder (resolved), when it exists.
    old: Option<PathBuf>,
    /// The staging folder the next version is built in.
    staged: PathBuf,
    /// The folder's real path.
    path: PathBuf,
}

impl Update {
    /// The current folder, when there is one.
    pub fn old(&self) -> Option<&Path> {
        self.old.as_deref()
    }

    /// The staging folder: whatever is in it when the builder returns becomes the folder.
    pub fn staged(&self) -> &Path {
        &self.staged
    }

    /// The real path of the folder being updated (symbolic links resolved), for messages.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The names of the current folder's entries, sorted, without the staging leftovers of dead
    /// runs (which the update removes): empty when the folder does not exist yet.
    pub fn entries(&self) -> Result<Vec<String>, Error> {
        let Some(old) = &self.old else { return Ok(Vec::new()) };
        let mut names = Vec::new();
        for entry in std::fs::read_dir(old).map_err(Error::io("read", old))? {
            let name = entry.map_err(Error::io("read", old))?.file_name().to_string_lossy().into_owned();
            if !crate::staging::is_staging_name(&name) {
                names.push(name);
            }
        }
        names.sort();
        Ok(names)
    }

    /// Carries the entry `name` of the current folder into the new version unchanged: a file by a
    /// hard link (a copy where the file system has none), a folder by a new folder of links.
    pub fn carry(&self, name: &str) -> Result<(), Error> {
        let Some(old) = &self.old else { return Ok(()) };
        link_tree(&old.join(name), &self.staged.join(name))
    }

    /// Writes a file of the new version (mode 0644 under the umask, fsync'd).
    pub fn write(&self, name: &str, bytes: &[u8]) -> Result<(), Error> {
        write_new(&self.staged.join(name), bytes)
    }
}

/// Builds the next version of `dir` with `build` and puts it in place in one exchange.
///
/// Under an exclusive lock on `dir`'s parent (held from before `build` runs until the exchange is
/// done, so what `build` reads is what it replaces): leftovers of killed updates are removed, a
/// fresh staging folder `NAME.new-PID-N` is created in the parent's staging area
/// ([`crate::STAGING`], where no reader looks for a folder) and marked [`crate::UNFINISHED`]
/// before anything is written into it, `build` fills it, the mark is taken off, and it is fsync'd
/// and exchanged with `dir` (or renamed into place when `dir` is new); the old version is then
/// removed, and the staging area when nothing else is in it. When `build` fails, nothing changes
/// and the staging folder is removed. `dir`'s parent must exist: a missing one is an error, never
/// created. An unfinished copy is refused as `dir`: it is never built upon.
pub fn update_folder<T, E: From<Error>>(dir: &Path, build: impl FnOnce(&Update) -> Result<T, E>) -> Result<T, E> {
    let target = resolve_in_existing_parent(dir)?;
    if let Some(unfinished) = crate::unfinished(&target.path) {
        return Err(Error::Unfinished(crate::Unfinished { path: dir.to_path_buf(), ..unfinished }).into());
    }
    let _lock = Lock::acquire(&target.parent)?;
    // What older versions staged beside the folder.
    remove_stale(&target.parent, Some(&target.name));
    let area = target.parent.join(STAGING);
    let outcome = update_in_area(&target, &area, build);
    // Under the lock, after the staging folder is gone: the area goes when nothing is left in it
    // (another dataset's killed copy keeps it).
    let _ = std::fs::remove_dir(&area);
    outcome
}

/// [`update_folder`] once the lock is held: stages in `area`, then swaps.
fn update_in_area<T, E: From<Error>>(target: &Target, area: &Path, build: impl FnOnce(&Update) -> Result<T, E>) -> Result<T, E> {
    make_area(area)?;
    remove_stale_in_area(area, &target.name);
    let staged = Staged::create_in_area(area, &target.name, "new", Kind::Folder)?;
    crate::unfinished::mark(staged.path(), &target.name)?;
    if let Ok(meta) = std::fs::metadata(&target.path) {
        // The new version keeps the folder's own mode (a private dataset stays private).
        std::fs::set_permissions(staged.path(), meta.permissions()).map_err(Error::io("set the mode of", staged.path()))?;
    }
    let update =
        Update { old: target.path.is_dir().then(|| target.path.clone()), staged: staged.path().to_path_buf(), path: target.path.clone() };
    let value = build(&update)?;
    crate::crash_point("update:built");
    crate::unfinished::unmark(staged.path())?;
    sync_tree(staged.path())?;
    crate::crash_point("update:staged");
    swap(&target.path, &target.parent, &target.name, staged, &[], Some(area))?;
    sync_folder(area)?;
    Ok(value)
}

/// Creates the staging area (mode 0755 under the umask) unless it is there; anything else of that
/// name is refused, never replaced.
fn make_area(area: &Path) -> Result<(), Error> {
    use std::os::unix::fs::DirBuilderExt;
    match std::fs::DirBuilder::new().mode(0o755).create(area) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && area.is_dir() && !area.is_symlink() => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(Error::NotAFolder(area.to_path_buf())),
        Err(e) => Err(Error::io("create", area)(e)),
    }
}

/// Takes a shared lock on the parent of `dir` for as long as the guard lives: readers of a folder
/// that [`update_folder`] updates hold it while they read, so an update waits for them and they
/// wait for an update, and what they read is one version of the folder.
pub fn read_lock(dir: &Path) -> Result<ReadLock, Error> {
    let real = std::fs::canonicalize(dir).map_err(Error::io("resolve", dir))?;
    let parent = real.parent().map_or_else(|| real.clone(), Path::to_path_buf);
    Ok(ReadLock { _lock: Lock::acquire_shared(&parent)? })
}

/// A shared lock on a folder's parent (see [`read_lock`]).
pub struct ReadLock {
    _lock: Lock,
}

/// Hard-links `from` (a file, or a folder recursively) to `to`; copies where linking is refused.
/// Symbolic links are recreated as links.
fn link_tree(from: &Path, to: &Path) -> Result<(), Error> {
    let meta = std::fs::symlink_metadata(from).map_err(Error::io("read", from))?;
    if meta.file_type().is_symlink() {
        let target = std::fs::read_link(from).map_err(Error::io("read", from))?;
        return std::os::unix::fs::symlink(&target, to).map_err(Error::io("create", to));
    }
    if meta.is_dir() {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        std::fs::DirBuilder::new().mode(meta.permissions().mode() & 0o7777).create(to).map_err(Error::io("create", to))?;
        for entry in std::fs::read_dir(from).map_err(Error::io("read", from))? {
            let entry = entry.map_err(Error::io("read", from))?;
            link_tree(&entry.path(), &to.join(entry.file_name()))?;
        }
        return Ok(());
    }
    if std::fs::hard_link(from, to).is_err() {
        std::fs::copy(from, to).map_err(Error::io("copy", from))?;
    }
    Ok(())
}

/// fsyncs every folder of a tree (files are fsync'd as they are written or were already on disk).
fn sync_tree(dir: &Path) -> Result<(), Error> {
    for entry in std::fs::read_dir(dir).map_err(Error::io("read", dir))? {
        let entry = entry.map_err(Error::io("read", dir))?;
        if entry.file_type().map_err(Error::io("read", entry.path()))?.is_dir() {
            sync_tree(&entry.path())?;
        }
    }
    sync_folder(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        names.sort();
        names
    }

    #[test]
    fn builds_the_next_version_from_the_current_one_and_leaves_nothing_beside_it() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("data");
        std::fs::create_dir_all(dir.join("raw/r1")).unwrap();
        std::fs::write(dir.join("raw/r1/out.txt"), "tool output").unwrap();
        std::fs::write(dir.join("runs.csv"), "old").unwrap();
        update_folder(&dir, |update| -> Result<(), Error> {
            assert_eq!(update.entries()?, vec!["raw", "runs.csv"]);
            update.carry("raw")?;
            update.write("runs.csv", b"new")
        })
        .unwrap();
        assert_eq!(std::fs::read_to_string(dir.join("runs.csv")).unwrap(), "new");
        assert_eq!(std::fs::read_to_string(dir.join("raw/r1/out.txt")).unwrap(), "tool output");
        assert_eq!(names(root.path()), vec!["data"]);
    }

    #[test]
    fn the_folder_keeps_its_mode() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("data");
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
        update_folder(&dir, |update| update.write("runs.csv", b"new")).unwrap();
        assert_eq!(std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777, 0o700);
    }

    #[test]
    fn a_failed_build_changes_nothing() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("data");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("runs.csv"), "old").unwrap();
        let outcome = update_folder(&dir, |update| -> Result<(), Error> {
            update.write("runs.csv", b"new")?;
            Err(Error::NotAFolder(PathBuf::from("refused")))
        });
        assert!(outcome.is_err());
        assert_eq!(std::fs::read_to_string(dir.join("runs.csv")).unwrap(), "old");
        assert_eq!(names(root.path()), vec!["data"]);
    }

    #[test]
    fn a_missing_parent_is_an_error_and_is_not_created() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("no/such/data");
        let error = update_folder(&dir, |_| -> Result<(), Error> { Ok(()) }).unwrap_err();
        assert!(error.to_string().contains("does not exist"), "{error}");
        assert!(!root.path().join("no").exists());
    }
}
