//! The writer's errors; each names the path it concerns.

use std::path::PathBuf;

/// Writing failed, or was refused so that nothing is lost.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The operating system refused an operation.
    #[error("cannot {action} {}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The folder holds entries this writer did not write; replacing it would delete them.
    #[error(
        "{} holds {} analyze did not write ({}{}): move {} away or choose another --out",
        dir.display(),
        if *count == 1 { "an entry".to_string() } else { format!("{count} entries") },
        shown.join(", "),
        if *count > shown.len() { format!(", and {} more", count - shown.len()) } else { String::new() },
        if *count == 1 { "it" } else { "them" }
    )]
    Foreign { dir: PathBuf, count: usize, shown: Vec<String> },
    /// The target exists and is not a folder.
    #[error("{} exists and is not a folder: choose another --out", .0.display())]
    NotAFolder(PathBuf),
    /// A symbolic link whose target is missing.
    #[error("{} is a symbolic link to {}, which does not exist: create the folder it points to or choose another --out", link.display(), target.display())]
    DanglingLink { link: PathBuf, target: PathBuf },
    /// The folder to create is in a folder that does not exist.
    #[error("cannot create {}: the folder {} does not exist (create it first, or choose another path)", path.display(), parent.display())]
    MissingParent { path: PathBuf, parent: PathBuf },
    /// A folder updated in part must have been written whole before.
    #[error("{} is not a folder written by analyze (no {} in it): build it whole first", .0.display(), crate::MARKER)]
    NotWrittenBefore(PathBuf),
    /// The folder to update is the staging copy of an update that did not finish.
    #[error("{0}")]
    Unfinished(crate::Unfinished),
    /// A relative path that would leave the folder or cannot be listed in the marker.
    #[error("cannot write {path:?} into {}: {why}", dir.display())]
    BadPath { dir: PathBuf, path: String, why: &'static str },
}

impl Error {
    pub(crate) fn io(action: &'static str, path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Error {
        let path = path.into();
        move |source| Error::Io { action, path, source }
    }
}
