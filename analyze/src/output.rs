//! The one place that writes to disk. A report folder is built complete in a temporary folder
//! beside the target, then swapped in by rename: a failure leaves the old folder as it was.

use anyhow::{bail, Context as _, Result};
use std::path::Path;

/// Marks a folder as written by analyze, so replacing it never deletes a user's own files.
pub const MARKER: &str = ".analyze-output";

/// Writes `files` as the whole content of `dir`, atomically.
pub fn write_folder(dir: &Path, files: &crate::render::Files) -> Result<()> {
    if dir.exists() {
        let empty = std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?.next().is_none();
        let written_by_us = dir.join(MARKER).exists() || dir.parent().is_some_and(|p| p.join(MARKER).exists());
        if !dir.is_dir() || (!empty && !written_by_us) {
            bail!("{} exists and was not written by analyze (no {MARKER} file): choose another --out or remove it", dir.display());
        }
    }
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::env::current_dir().context("cannot find the current folder")?,
    };
    std::fs::create_dir_all(&parent).with_context(|| format!("cannot create {}", parent.display()))?;
    let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
    let staging = tempfile::Builder::new()
        .prefix(&format!(".{name}.new-"))
        .tempdir_in(&parent)
        .with_context(|| format!("cannot create a temporary folder in {}", parent.display()))?;
    for (relative, bytes) in files {
        let path = staging.path().join(relative);
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder).with_context(|| format!("cannot create {}", folder.display()))?;
        }
        std::fs::write(&path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
    }
    std::fs::write(staging.path().join(MARKER), b"written by analyze; this folder is replaced whole on the next run\n")?;
    let staged = staging.keep();
    if dir.exists() {
        let old = tempfile::Builder::new().prefix(&format!(".{name}.old-")).tempdir_in(&parent)?.keep();
        std::fs::remove_dir(&old)?;
        std::fs::rename(dir, &old).with_context(|| format!("cannot move the old {} aside", dir.display()))?;
        if let Err(error) = std::fs::rename(&staged, dir) {
            let _ = std::fs::rename(&old, dir);
            let _ = std::fs::remove_dir_all(&staged);
            return Err(error).with_context(|| format!("cannot move the new report into {}", dir.display()));
        }
        std::fs::remove_dir_all(&old).with_context(|| format!("cannot remove the old report at {}", old.display()))?;
    } else if let Err(error) = std::fs::rename(&staged, dir) {
        let _ = std::fs::remove_dir_all(&staged);
        return Err(error).with_context(|| format!("cannot move the new report into {}", dir.display()));
    }
    Ok(())
}

/// Writes one file atomically: a temporary file beside it, then a rename.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::env::current_dir().context("cannot find the current folder")?,
    };
    let mut temporary = tempfile::NamedTempFile::new_in(&folder).with_context(|| format!("cannot write in {}", folder.display()))?;
    std::io::Write::write_all(&mut temporary, bytes).with_context(|| format!("cannot write {}", path.display()))?;
    temporary.persist(path).with_context(|| format!("cannot move the new file into {}", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(pairs: &[(&str, &str)]) -> crate::render::Files {
        pairs.iter().map(|(p, b)| (p.to_string(), b.as_bytes().to_vec())).collect()
    }

    #[test]
    fn replaces_its_own_folder_whole() {
        let root = tempfile::tempdir().unwrap();
        let out = root.path().join("out");
        write_folder(&out, &files(&[("a.txt", "1"), ("sub/b.txt", "2")])).unwrap();
        write_folder(&out, &files(&[("c.txt", "3")])).unwrap();
        assert!(!out.join("a.txt").exists());
        assert_eq!(std::fs::read_to_string(out.join("c.txt")).unwrap(), "3");
        let leftovers: Vec<_> = std::fs::read_dir(root.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(leftovers, vec![std::ffi::OsString::from("out")]);
    }

    #[test]
    fn refuses_a_folder_it_did_not_write() {
        let root = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join("precious.txt"), "keep").unwrap();
        let error = write_folder(root.path(), &files(&[("a.txt", "1")])).unwrap_err();
        assert!(error.to_string().contains("was not written by analyze"));
        assert_eq!(std::fs::read_to_string(root.path().join("precious.txt")).unwrap(), "keep");
    }
}
