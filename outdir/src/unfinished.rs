//! What an update that did not finish leaves, and how a reader recognises it, so that no part of
//! it is ever taken for the folder it was to replace.
//!
//! [`crate::update_folder`] builds a folder's next version in the staging area [`STAGING`], a
//! folder of the parent that holds no dataset and that no reader lists, as `NAME.new-PID-N`.
//! From the moment it is created until it is whole and checked, the copy carries the file
//! [`UNFINISHED`], which says which folder it was for and which process built it. A `kill -9`
//! leaves the copy there, marked: [`unfinished`] tells a reader (`analyze check`, `analyze site`)
//! that a folder is such a copy, wherever it was moved or renamed to, and [`leftovers`] lists
//! those of a parent folder. The next update of the same folder, under the parent's lock, removes
//! the copies of dead processes; the staging area itself is removed when it is empty.

use crate::staging::{alive, is_staging_name, staging_pid};
use crate::Error;
use std::path::{Path, PathBuf};

/// The staging area: a folder in the parent of the folders being updated.
pub const STAGING: &str = ".analyze-staging";

/// The file an unfinished copy carries until it is whole.
pub const UNFINISHED: &str = ".analyze-unfinished";

/// The marker's first line; the lines after it name the folder and the process.
const HEADER: &str = "This is the staging copy of an update that has not finished (analyze import). It may hold part of a run: \
it is not a dataset, analyze check refuses it and analyze site skips it. The next import into the same dataset removes it.";

/// Why a folder is an unfinished copy, not the folder it was built for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Why {
    /// It carries [`UNFINISHED`] outside the staging area: it was moved or renamed.
    Marked,
    /// It is in a staging area (marked, or whole and checked but not yet published, or the old
    /// version on its way out).
    InStagingArea,
    /// It is named as the staging folders of older versions were, `.NAME.new-PID-N` beside the
    /// folder.
    StagingName,
    /// It is the staging area itself.
    Area,
}

/// An unfinished copy: which folder it was for and which process built it, as far as known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} is {}", self.path.display(), self.reason())]
pub struct Unfinished {
    pub path: PathBuf,
    pub why: Why,
    /// The name of the folder the copy was built for.
    pub folder: Option<String>,
    /// The process that built it.
    pub pid: Option<i32>,
}

impl Unfinished {
    /// Whether the process that built the copy still runs (then an update is under way).
    pub fn alive(&self) -> bool {
        self.pid.is_some_and(alive)
    }

    /// What the folder is: which folder it was for, whether its process is gone, and what to do,
    /// in words that follow "PATH is".
    pub fn reason(&self) -> String {
        if self.why == Why::Area {
            return "the staging area of `analyze import` (where it builds a dataset's next version), not a dataset".to_string();
        }
        let into = self.folder.as_deref().map_or_else(|| "a dataset".to_string(), |f| format!("the dataset {f}"));
        let process = match self.pid {
            Some(pid) if alive(pid) => format!(" (process {pid} is still building it)"),
            Some(pid) => format!(" (process {pid} ended before it finished: killed or crashed)"),
            None => String::new(),
        };
        let (marked, then) = match self.why {
            Why::Marked => (
                format!(" It carries {UNFINISHED}, which only such a copy has, and was moved out of the staging area."),
                "delete this folder and run the import again",
            ),
            _ => (String::new(), "run the import again, which removes this copy"),
        };
        format!(
            "the staging copy of an `analyze import` into {into} that did not finish{process}: it may hold part of a run, \
             so it is not a dataset and is never published.{marked} {into_cap} is as it was before that import: {then}",
            into_cap = capitalise(&into)
        )
    }
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// Whether `dir` is an unfinished copy ([`Why`] says how it is known), `None` for any other folder.
pub fn unfinished(dir: &Path) -> Option<Unfinished> {
    let path = dir.to_path_buf();
    let marker = read_marker(dir);
    let real = std::fs::canonicalize(dir).ok()?;
    let name = real.file_name()?.to_str()?;
    if name == STAGING {
        return Some(Unfinished { path, why: Why::Area, folder: None, pid: None });
    }
    let named = || parts(name.strip_prefix('.').unwrap_or(name)).map(|(f, p)| (Some(f.to_string()), Some(p)));
    let (folder, pid) = marker.clone().or_else(named).unwrap_or((None, None));
    if real.parent().and_then(Path::file_name).is_some_and(|p| p == STAGING) {
        return Some(Unfinished { path, why: Why::InStagingArea, folder, pid });
    }
    if is_staging_name(name) {
        return Some(Unfinished { path, why: Why::StagingName, folder, pid });
    }
    marker.map(|(folder, pid)| Unfinished { path, why: Why::Marked, folder, pid })
}

/// The unfinished copies of updates into folders of `parent`: those in its staging area, and the
/// staging folders older versions left beside the folders. Sorted by path.
pub fn leftovers(parent: &Path) -> Vec<Unfinished> {
    let mut found = Vec::new();
    let folders = |dir: &Path| -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
        entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect()
    };
    for path in folders(&parent.join(STAGING)) {
        found.extend(unfinished(&path));
    }
    for path in folders(parent) {
        if path.file_name().and_then(|n| n.to_str()).is_some_and(is_staging_name) {
            found.extend(unfinished(&path));
        }
    }
    found.sort_by(|a, b| a.path.cmp(&b.path));
    found
}

/// `NAME` and `PID` of `NAME.new-PID-N` or `NAME.old-PID-N`.
fn parts(rest: &str) -> Option<(&str, i32)> {
    let pid = staging_pid(rest, None)?;
    let (folder, _) = rest.rsplit_once(".new-").or_else(|| rest.rsplit_once(".old-"))?;
    Some((folder, pid))
}

/// The folder and process a marker names; `None` without a marker.
fn read_marker(dir: &Path) -> Option<(Option<String>, Option<i32>)> {
    let text = std::fs::read_to_string(dir.join(UNFINISHED)).ok()?;
    let field = |key: &str| text.lines().find_map(|l| l.strip_prefix(key)).map(str::trim);
    Some((field("folder:").map(str::to_string), field("process:").and_then(|p| p.parse().ok())))
}

/// Marks a fresh staging copy as unfinished, durably, before anything else is written into it.
pub(crate) fn mark(staged: &Path, folder: &str) -> Result<(), Error> {
    let text = format!("{HEADER}\nfolder: {folder}\nprocess: {}\n", std::process::id());
    crate::file::write_new(&staged.join(UNFINISHED), text.as_bytes())?;
    crate::file::sync_folder(staged)
}

/// Takes the mark off a copy that is whole and checked, just before it is published.
pub(crate) fn unmark(staged: &Path) -> Result<(), Error> {
    let path = staged.join(UNFINISHED);
    std::fs::remove_file(&path).map_err(Error::io("remove", &path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marked_copy_is_unfinished_wherever_it_is_moved() {
        let root = tempfile::tempdir().unwrap();
        let copy = root.path().join("renamed");
        std::fs::create_dir(&copy).unwrap();
        assert_eq!(unfinished(&copy), None);
        mark(&copy, "mine").unwrap();
        let found = unfinished(&copy).unwrap();
        assert_eq!((found.why.clone(), found.folder.as_deref(), found.pid), (Why::Marked, Some("mine"), Some(std::process::id() as i32)));
        assert!(found.to_string().contains("the dataset mine that did not finish (process"), "{found}");
        unmark(&copy).unwrap();
        assert_eq!(unfinished(&copy), None);
    }

    #[test]
    fn copies_in_the_area_and_old_staging_names_are_listed_with_their_dataset() {
        let root = tempfile::tempdir().unwrap();
        // PIDs are below 2^22 on Linux: these cannot be running.
        for dir in [".analyze-staging/mine.new-99999999-3", ".mine.new-99999998-0", "mine", ".hidden"] {
            std::fs::create_dir_all(root.path().join(dir)).unwrap();
        }
        let found = leftovers(root.path());
        let listed: Vec<(Why, Option<&str>, Option<i32>, bool)> =
            found.iter().map(|u| (u.why.clone(), u.folder.as_deref(), u.pid, u.alive())).collect();
        assert_eq!(
            listed,
            vec![(Why::InStagingArea, Some("mine"), Some(99999999), false), (Why::StagingName, Some("mine"), Some(99999998), false)]
        );
        assert_eq!(unfinished(&root.path().join("mine")), None);
        assert_eq!(unfinished(&root.path().join(STAGING)).map(|u| u.why), Some(Why::Area));
    }
}
