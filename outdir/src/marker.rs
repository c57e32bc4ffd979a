//! The ownership marker: a file in the written folder itself listing every file written into it.
//! Only this marker proves a folder is ours (a marker in a parent proves nothing about a folder a
//! user put inside it), and only the entries it lists may be deleted.

use crate::Error;
use std::collections::BTreeSet;
use std::path::Path;

/// The marker's file name, in the written folder's root.
pub const MARKER: &str = ".analyze-output";

/// The first line of every marker; markers of older versions hold only this line.
const HEADER: &str = "written by analyze; this folder is replaced whole on the next run";
const LISTING: &str = "; the files it wrote:";

/// What a folder's marker says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Marker {
    /// A marker of an older version: it lists nothing, so every entry counts as written by us.
    Legacy,
    /// The files written into the folder (relative, `/`-separated).
    Files(BTreeSet<String>),
}

impl Marker {
    /// Reads `dir/MARKER`; `None` when there is none (or it is not ours).
    pub fn read(dir: &Path) -> Result<Option<Marker>, Error> {
        let path = dir.join(MARKER);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(Error::io("read", path)(e)),
        };
        let mut lines = text.lines();
        let Some(first) = lines.next().and_then(|l| l.strip_prefix(HEADER)) else { return Ok(None) };
        Ok(Some(match first {
            "" => Marker::Legacy,
            LISTING => Marker::Files(lines.filter(|l| !l.is_empty()).map(str::to_string).collect()),
            _ => return Ok(None),
        }))
    }

    /// The marker's text for these files.
    pub fn render<'a>(files: impl IntoIterator<Item = &'a String>) -> Vec<u8> {
        let mut text = format!("{HEADER}{LISTING}\n");
        for file in files {
            text.push_str(file);
            text.push('\n');
        }
        text.into_bytes()
    }

    /// Whether `relative` (a file, or a folder holding listed files) was written by us.
    fn owns(&self, relative: &str, is_dir: bool) -> bool {
        match self {
            Marker::Legacy => true,
            Marker::Files(files) => {
                relative == MARKER
                    || files.contains(relative)
                    || (is_dir && files.range(format!("{relative}/")..).next().is_some_and(|f| f.starts_with(&format!("{relative}/"))))
            }
        }
    }

    /// The entries of `dir` (under `prefix`, relative to the marker's folder) this marker does not
    /// list, the outermost of each foreign subtree only, in sorted order. Symbolic links are
    /// entries, never followed.
    pub fn foreign(&self, dir: &Path, prefix: &str) -> Result<Vec<String>, Error> {
        let mut found = Vec::new();
        self.walk(dir, prefix, &mut found)?;
        found.sort();
        Ok(found)
    }

    fn walk(&self, dir: &Path, prefix: &str, found: &mut Vec<String>) -> Result<(), Error> {
        for entry in std::fs::read_dir(dir).map_err(Error::io("read", dir))? {
            let entry = entry.map_err(Error::io("read", dir))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let relative = format!("{prefix}{name}");
            let is_dir = entry.file_type().map_err(Error::io("read", entry.path()))?.is_dir();
            if !self.owns(&relative, is_dir) {
                found.push(relative);
            } else if is_dir {
                self.walk(&entry.path(), &format!("{relative}/"), found)?;
            }
        }
        Ok(())
    }
}

/// Every file under `dir`, relative, `/`-separated (for turning a legacy marker into a listing).
pub(crate) fn list_files(dir: &Path, prefix: &str, out: &mut BTreeSet<String>) -> Result<(), Error> {
    for entry in std::fs::read_dir(dir).map_err(Error::io("read", dir))? {
        let entry = entry.map_err(Error::io("read", dir))?;
        let relative = format!("{prefix}{}", entry.file_name().to_string_lossy());
        if entry.file_type().map_err(Error::io("read", entry.path()))?.is_dir() {
            list_files(&entry.path(), &format!("{relative}/"), out)?;
        } else if relative != MARKER {
            out.insert(relative);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_only_the_outermost_foreign_entries() {
        let dir = tempfile::tempdir().unwrap();
        for file in ["index.html", "runs/r1.html", "extra/notes.txt", "extra/deep/x", "runs/mine.txt"] {
            let path = dir.path().join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x").unwrap();
        }
        let marker = Marker::Files(["index.html", "runs/r1.html"].map(String::from).into());
        assert_eq!(marker.foreign(dir.path(), "").unwrap(), vec!["extra".to_string(), "runs/mine.txt".into()]);
        assert_eq!(Marker::Legacy.foreign(dir.path(), "").unwrap(), Vec::<String>::new());
    }

    #[test]
    fn reads_back_what_it_renders_and_old_markers() {
        let dir = tempfile::tempdir().unwrap();
        let files: BTreeSet<String> = ["a.txt", "sub/b.txt"].map(String::from).into();
        std::fs::write(dir.path().join(MARKER), Marker::render(&files)).unwrap();
        assert_eq!(Marker::read(dir.path()).unwrap(), Some(Marker::Files(files)));
        std::fs::write(dir.path().join(MARKER), format!("{HEADER}\n")).unwrap();
        assert_eq!(Marker::read(dir.path()).unwrap(), Some(Marker::Legacy));
        std::fs::write(dir.path().join(MARKER), "my own notes\n").unwrap();
        assert_eq!(Marker::read(dir.path()).unwrap(), None);
    }
}
