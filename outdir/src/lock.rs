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
        let file = std::fs::File::open(folder).map_err(Error::io("open", folder))?;
        let fd = file.as_raw_fd();
        // SAFETY: flock on a descriptor we own; it only takes an advisory lock.
        if unsafe { libc::flock(fd, libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            let error = std::io::Error::last_os_error();
            if error.raw_os_error() != Some(libc::EWOULDBLOCK) {
                return Err(Error::io("lock", folder)(error));
            }
            eprintln!("waiting for another run writing into {} to finish", folder.display());
            loop {
                // SAFETY: as above, blocking this time.
                if unsafe { libc::flock(fd, libc::LOCK_EX) } == 0 {
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
