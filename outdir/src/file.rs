//! One file replaced atomically: readers see the old bytes or the new, never a part.

use crate::staging::{self, Kind, Staged};
use crate::Error;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` through `.NAME.new-PID-N` beside it: mode 0644 under the umask,
/// fsync'd, renamed over `path`, then the folder fsync'd so the rename survives a crash.
/// Leftovers of killed runs for this name are removed first.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).ok_or_else(|| Error::NotAFolder(path.to_path_buf()))?;
    staging::remove_stale(&folder, Some(&name));
    let staged = Staged::create(&folder, &name, "new", Kind::File)?;
    write_new(staged.path(), bytes)?;
    std::fs::rename(staged.path(), path).map_err(Error::io("replace", path))?;
    staged.publish();
    sync_folder(&folder)
}

/// Writes and fsyncs an existing (just created) or new file, mode 0644 under the umask.
pub(crate) fn write_new(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let file = create(path, bytes)?;
    file.sync_all().map_err(Error::io("write", path))
}

/// [`write_new`] without the fsync: for a staged folder, synced whole before it is published.
pub(crate) fn write_unsynced(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    create(path, bytes).map(drop)
}

fn create(path: &Path, bytes: &[u8]) -> Result<std::fs::File, Error> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut file =
        std::fs::OpenOptions::new().write(true).create(true).truncate(true).mode(0o644).open(path).map_err(Error::io("create", path))?;
    file.write_all(bytes).map_err(Error::io("write", path))?;
    Ok(file)
}

/// fsyncs a folder, making the renames and creations in it durable.
pub(crate) fn sync_folder(folder: &Path) -> Result<(), Error> {
    std::fs::File::open(folder).and_then(|f| f.sync_all()).map_err(Error::io("sync", folder))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn replaces_a_file_readable_by_others_and_leaves_nothing_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("index.html");
        std::fs::write(&path, "old").unwrap();
        write_file(&path, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        // 0644 under the usual umask 022; never the 0600 of a temporary file.
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        // SAFETY: reading the umask means setting it; it is set back at once.
        let umask: u32 = unsafe {
            let m = libc::umask(0o022);
            libc::umask(m);
            m
        };
        assert_eq!(mode, 0o644 & !umask);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
