//! Resolving the target a user named: `.`, relative paths and symbolic links.

use crate::Error;
use std::path::{Path, PathBuf};

/// The real path a folder write goes to, and the parent it is staged in.
pub(crate) struct Target {
    pub path: PathBuf,
    pub parent: PathBuf,
    pub name: String,
}

/// Resolves `out` to an absolute path without symbolic links. A symbolic link is written through:
/// the link stays and the folder it points to is replaced. `.` and `..` resolve to the folders they
/// name. A missing target's parent folders are created.
pub(crate) fn resolve(out: &Path) -> Result<Target, Error> {
    let path = match std::fs::symlink_metadata(out) {
        Ok(meta) => {
            let real = std::fs::canonicalize(out).map_err(|source| match meta.file_type().is_symlink() {
                true => Error::DanglingLink { link: out.to_path_buf(), target: std::fs::read_link(out).unwrap_or_default() },
                false => Error::Io { action: "resolve", path: out.to_path_buf(), source },
            })?;
            if !real.is_dir() {
                return Err(Error::NotAFolder(out.to_path_buf()));
            }
            real
        }
        Err(_) => {
            let name = out.file_name().ok_or_else(|| Error::NotAFolder(out.to_path_buf()))?;
            let parent = match out.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                _ => PathBuf::from("."),
            };
            std::fs::create_dir_all(&parent).map_err(Error::io("create", &parent))?;
            std::fs::canonicalize(&parent).map_err(Error::io("resolve", &parent))?.join(name)
        }
    };
    let parent = path.parent().ok_or_else(|| Error::NotAFolder(path.clone()))?.to_path_buf();
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).ok_or_else(|| Error::NotAFolder(path.clone()))?;
    Ok(Target { path, parent, name })
}

/// [`resolve`] for a target whose parent must already exist: nothing is created.
pub(crate) fn resolve_in_existing_parent(out: &Path) -> Result<Target, Error> {
    if std::fs::symlink_metadata(out).is_err() {
        let parent = match out.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if !parent.is_dir() {
            return Err(Error::MissingParent { path: out.to_path_buf(), parent });
        }
    }
    resolve(out)
}

/// Checks a relative path from a file list: no absolute path, no `..`, no line break (the marker
/// lists one path per line).
pub(crate) fn check_relative(dir: &Path, relative: &str) -> Result<(), Error> {
    let bad = |why| Err(Error::BadPath { dir: dir.to_path_buf(), path: relative.to_string(), why });
    if relative.is_empty() || relative.starts_with('/') {
        return bad("not a relative path");
    }
    if relative.split('/').any(|part| part.is_empty() || part == "." || part == "..") {
        return bad("empty, `.` or `..` path components");
    }
    if relative.contains(['\n', '\r']) {
        return bad("a line break in a file name");
    }
    Ok(())
}
