//! Serializes writers into one parent folder: an advisory `flock` on the folder itself, so no
//! lock file is left among the user's files. Released when the lock is dropped or the process ends.

use crate::Error;
use std::os::fd::AsRawFd;
use std::path::Path;

/// An exclusive lock on a folder, held until dropped.
pub(crate) struct Lock {
    _folder: std::fs::File,
}

impl Lock {
    /// Takes the lock on `folder`, waiting (and saying so) while another run holds it.
    pub fn acquire(folder: &Path) -> Result<Lock, Error> {
        Lock::take(folder, libc::LOCK_EX)
    }

    /// Takes a shared lock on `folder` (readers: many at once, but none while a writer holds it).
    pub fn acquire_shared(folder: &Path) -> Result<Lock, Error> {
        Lock::take(folder, libc::LOCK_SH)
    }

    fn take(folder: &Path, mode: libc::c_int) -> Result<Lock, Error> {
        let file = std::fs::File::open(folder).map_err(Error::io("open", folder))?;
        let fd = file.as_raw_fd();
        // SAFETY: flock on a descriptor we own; it only takes an advisory lock.
        if unsafe { libc::flock(fd, mode | libc::LOCK_NB) } != 0 {
            let error = std::io::Error::last_os_error();
            if error.raw_os_error() != Some(libc::EWOULDBLOCK) {
                return Err(Error::io("lock", folder)(error));
            }
            let other = if mode == libc::LOCK_SH { "writing into" } else { "reading or writing" };
            eprintln!("waiting for another run {other} {} to finish", folder.display());
            loop {
                // SAFETY: as above, blocking this time.
                if unsafe { libc::flock(fd, mode) } == 0 {
                    break;
                }
                let error = std::io::Error::last_os_error();
                if error.kind() != std::io::ErrorKind::Interrupted {
                    return Err(Error::io("lock", folder)(error));
                }
            }
        }
        Ok(Lock { _folder: file })
    }
}
