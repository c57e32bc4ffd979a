//! The one writer of analyze and measure: everything either puts on disk goes through here.
//!
//! - [`write_file`]: one file, replaced atomically (a temporary file beside it, fsync'd, renamed).
//! - [`write_folder`] (and [`write_folder_with`], which takes the files as they are made): a
//!   whole folder, built complete beside the target and swapped in, so a
//!   failure leaves the previous folder as it was. The folder carries a [`MARKER`] that lists the
//!   files written into it; only that marker, in the folder itself, proves the folder is ours, and
//!   an entry it does not list is someone else's: the writer refuses to delete it.
//! - [`write_part`]: one subfolder and a few loose files of a folder written before (`analyze site
//!   --only`), keeping its marker exact.
//! - [`update_folder`]: the next version of a folder that is updated rather than rebuilt (a
//!   dataset), built from the current one beside it and exchanged with it in one step, under the
//!   lock of its parent; readers take [`read_lock`] to see one version. Its staging copy lives in
//!   the parent's staging area [`STAGING`] and carries [`UNFINISHED`] until it is whole, so a
//!   killed update leaves nothing a reader could take for the folder ([`unfinished`], [`leftovers`]).
//!
//! Every file is written mode 0644 and every folder 0755, both under the user's umask, and made
//! durable before the rename that publishes it (a lone file by fsync, a staged folder by one
//! `syncfs` on Linux). Writes into one parent folder are serialized by an
//! advisory lock on that folder. Staging names carry the writer's PID (`.NAME.new-PID-N`), so
//! those left by a killed run are recognised as dead and removed by the next run.

mod error;
mod file;
mod folder;
mod lock;
mod marker;
mod paths;
mod staging;
mod unfinished;
mod update;

pub use error::Error;
pub use file::write_file;
pub use folder::{write_folder, write_folder_with, write_part, Sink, Written};
pub use marker::MARKER;
pub use staging::is_staging_name;
pub use unfinished::{leftovers, unfinished, Unfinished, Why, STAGING, UNFINISHED};
pub use update::{read_lock, update_folder, ReadLock, Update};

/// Ends the process with SIGKILL when `OUTDIR_CRASH_AT` names this point: how the tests put a kill
/// exactly between two steps of a write (`update:built`, a copy filled but still marked unfinished;
/// `update:staged`, before the exchange; `swap:exchanged`,
/// after it and before the old folder is removed). Nothing else sets the variable.
pub(crate) fn crash_point(point: &str) {
    if std::env::var_os("OUTDIR_CRASH_AT").is_some_and(|at| at == point) {
        // SAFETY: sending a signal to this very process.
        unsafe {
            libc::kill(libc::getpid(), libc::SIGKILL);
        }
    }
}

/// Files to write: a path relative to the folder (`/`-separated), and its bytes.
pub type Files = std::collections::BTreeMap<String, Vec<u8>>;
