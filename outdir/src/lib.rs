//! The one writer of analyze and measure: everything either puts on disk goes through here.
//!
//! - [`write_file`]: one file, replaced atomically (a temporary file beside it, fsync'd, renamed).
//! - [`write_folder`]: a whole folder, built complete beside the target and swapped in, so a
//!   failure leaves the previous folder as it was. The folder carries a [`MARKER`] that lists the
//!   files written into it; only that marker, in the folder itself, proves the folder is ours, and
//!   an entry it does not list is someone else's: the writer refuses to delete it.
//! - [`write_part`]: one subfolder and a few loose files of a folder written before (`analyze site
//!   --only`), keeping its marker exact.
//!
//! Every file is written mode 0644 and every folder 0755, both under the user's umask, and
//! fsync'd before the rename that publishes it. Writes into one parent folder are serialized by an
//! advisory lock on that folder. Staging names carry the writer's PID (`.NAME.new-PID-N`), so
//! those left by a killed run are recognised as dead and removed by the next run.

mod error;
mod file;
mod folder;
mod lock;
mod marker;
mod paths;
mod staging;

pub use error::Error;
pub use file::write_file;
pub use folder::{write_folder, write_part, Written};
pub use marker::MARKER;

/// Files to write: a path relative to the folder (`/`-separated), and its bytes.
pub type Files = std::collections::BTreeMap<String, Vec<u8>>;
