//! nginx's buffered temp files, counted through `/proc/<worker pid>/fd`.
//!
//! nginx unlinks a proxy temp file right after creating it and keeps writing and reading it through the open
//! descriptor, so listing the temp folder shows nothing. The descriptors still point at the file: `readlink`
//! gives the old path with " (deleted)" appended, and `stat` through the `/proc/<pid>/fd/<n>` path itself
//! reaches the open file. The same file may be open in several descriptors (or workers), so files are
//! de-duplicated by (device, inode). A descriptor closed (or reused for another file) between listing and
//! stat is skipped.

use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// One open descriptor whose target lies under the watched folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FdLink {
    /// `/proc/<pid>/fd/<n>`: stat through this, not through the target, which may be unlinked.
    pub fd_path: PathBuf,
    /// The target with any " (deleted)" suffix removed.
    pub target: PathBuf,
    pub deleted: bool,
}

/// Files and their summed logical size (st_size), not disk usage.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TempUsage {
    pub files: u64,
    pub logical_bytes: u64,
}

/// Splits a readlink target into the path and whether the kernel marked it deleted.
pub fn strip_deleted(target: &OsStr) -> (PathBuf, bool) {
    const SUFFIX: &[u8] = b" (deleted)";
    let bytes = target.as_bytes();
    match bytes.strip_suffix(SUFFIX) {
        Some(path) => (PathBuf::from(OsStr::from_bytes(path)), true),
        None => (PathBuf::from(target), false),
    }
}

/// The descriptors in `fd_dir` (e.g. `/proc/1234/fd`) that point under `under`. A process or descriptor
/// that disappears while listing is skipped.
pub fn list_fd_links(fd_dir: &Path, under: &Path) -> Vec<FdLink> {
    let Ok(entries) = std::fs::read_dir(fd_dir) else {
        return Vec::new();
    };
    let mut links = Vec::new();
    for entry in entries.flatten() {
        let fd_path = entry.path();
        let Ok(raw) = std::fs::read_link(&fd_path) else { continue };
        let (target, deleted) = strip_deleted(raw.as_os_str());
        if target.starts_with(under) && target != under {
            links.push(FdLink { fd_path, target, deleted });
        }
    }
    links
}

/// Stats every link through its fd path, skipping vanished ones and counting each (device, inode) once.
pub fn measure(links: &[FdLink]) -> TempUsage {
    let mut seen = BTreeSet::new();
    let mut usage = TempUsage::default();
    for link in links {
        // Gone (ENOENT) or unreadable: skipped, as the file is no longer ours to count.
        let Ok(meta) = std::fs::metadata(&link.fd_path) else { continue };
        // The descriptor number may have been closed and reused for another file since listing.
        if !still_points_to(link) {
            continue;
        }
        if meta.is_file() && seen.insert((meta.dev(), meta.ino())) {
            usage.files += 1;
            usage.logical_bytes += meta.len();
        }
    }
    usage
}

fn still_points_to(link: &FdLink) -> bool {
    std::fs::read_link(&link.fd_path).is_ok_and(|raw| strip_deleted(raw.as_os_str()).0 == link.target)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::File;
    use std::io::Write;

    fn self_fd() -> PathBuf {
        PathBuf::from(format!("/proc/{}/fd", std::process::id()))
    }

    #[test]
    fn strips_the_deleted_marker() {
        assert_eq!(strip_deleted(OsStr::new("/t/p/01 (deleted)")), (PathBuf::from("/t/p/01"), true));
        assert_eq!(strip_deleted(OsStr::new("/t/p/01")), (PathBuf::from("/t/p/01"), false));
    }

    #[test]
    fn counts_open_files_under_the_folder_even_after_unlink_and_once_per_inode() {
        let dir = tempfile::tempdir().unwrap();
        let other = tempfile::tempdir().unwrap();
        let write = |path: &Path, n: usize| {
            let mut f = File::create(path).unwrap();
            f.write_all(&vec![7u8; n]).unwrap();
            f
        };
        let a = write(&dir.path().join("a"), 1000);
        let b = write(&dir.path().join("b"), 300);
        let a_again = File::open(dir.path().join("a")).unwrap();
        let outside = write(&other.path().join("c"), 5000);
        std::fs::remove_file(dir.path().join("a")).unwrap();

        let links = list_fd_links(&self_fd(), dir.path());
        assert_eq!(links.len(), 3, "a twice and b, not the file elsewhere: {links:?}");
        assert_eq!(links.iter().filter(|l| l.deleted).count(), 2);
        assert_eq!(measure(&links), TempUsage { files: 2, logical_bytes: 1300 });
        drop((a, b, a_again, outside));
    }

    #[test]
    fn a_file_closed_between_listing_and_stat_is_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let mut keep = File::create(dir.path().join("keep")).unwrap();
        keep.write_all(&[1; 10]).unwrap();
        let mut gone = File::create(dir.path().join("gone")).unwrap();
        gone.write_all(&[1; 99]).unwrap();
        std::fs::remove_file(dir.path().join("gone")).unwrap();

        let links = list_fd_links(&self_fd(), dir.path());
        assert_eq!(links.len(), 2);
        drop(gone);
        assert_eq!(measure(&links), TempUsage { files: 1, logical_bytes: 10 });
        drop(keep);
    }

    #[test]
    fn a_missing_process_lists_nothing() {
        assert!(list_fd_links(Path::new("/proc/999999999/fd"), Path::new("/tmp")).is_empty());
    }
}
