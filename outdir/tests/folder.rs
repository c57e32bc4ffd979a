//! `write_folder` and `write_part` as a caller sees them: what ends up on disk and what is refused.

use outdir::{write_folder, write_part, Files, MARKER};
use std::path::Path;

fn files(pairs: &[(&str, &str)]) -> Files {
    pairs.iter().map(|(p, b)| (p.to_string(), b.as_bytes().to_vec())).collect()
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    names
}

#[test]
fn replaces_its_own_folder_whole_and_lists_what_it_wrote() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    write_folder(&out, &files(&[("a.txt", "1"), ("sub/b.txt", "2")]), &[]).unwrap();
    write_folder(&out, &files(&[("c.txt", "3")]), &[]).unwrap();
    assert!(!out.join("a.txt").exists() && !out.join("sub").exists());
    assert_eq!(std::fs::read_to_string(out.join("c.txt")).unwrap(), "3");
    let marker = std::fs::read_to_string(out.join(MARKER)).unwrap();
    assert_eq!(marker.lines().skip(1).collect::<Vec<_>>(), vec!["c.txt"]);
    assert_eq!(names(root.path()), vec!["out"]);
}

#[test]
fn refuses_a_folder_it_did_not_write() {
    let root = tempfile::tempdir().unwrap();
    std::fs::write(root.path().join("precious.txt"), "keep").unwrap();
    let error = write_folder(root.path(), &files(&[("a.txt", "1")]), &[]).unwrap_err();
    assert!(error.to_string().contains("holds an entry analyze did not write (precious.txt)"), "{error}");
    assert_eq!(std::fs::read_to_string(root.path().join("precious.txt")).unwrap(), "keep");
}

#[test]
fn a_marker_in_the_parent_proves_nothing_about_a_folder_inside() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    write_folder(&out, &files(&[("index.html", "1")]), &[]).unwrap();
    std::fs::create_dir(out.join("mine")).unwrap();
    std::fs::write(out.join("mine/data.csv"), "keep").unwrap();
    let error = write_folder(&out.join("mine"), &files(&[("index.html", "2")]), &[]).unwrap_err();
    assert!(error.to_string().contains("(data.csv)"), "{error}");
    assert_eq!(std::fs::read_to_string(out.join("mine/data.csv")).unwrap(), "keep");
}

#[test]
fn a_failed_write_leaves_the_old_folder_and_no_staging_behind() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    write_folder(&out, &files(&[("index.html", "old")]), &[]).unwrap();
    // `a` cannot be both a file and a folder: the write fails half way through staging.
    let error = write_folder(&out, &files(&[("a", "1"), ("a/b", "2")]), &[]);
    assert!(error.is_err());
    assert_eq!(std::fs::read_to_string(out.join("index.html")).unwrap(), "old");
    assert_eq!(names(root.path()), vec!["out"]);
}

#[test]
fn kept_entries_move_into_the_new_folder() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("site");
    write_folder(&out, &files(&[("index.html", "1")]), &[".git", "CNAME"]).unwrap();
    std::fs::create_dir(out.join(".git")).unwrap();
    std::fs::write(out.join(".git/HEAD"), "ref").unwrap();
    let written = write_folder(&out, &files(&[("index.html", "2")]), &[".git", "CNAME"]).unwrap();
    assert_eq!(written.kept, vec![".git".to_string()]);
    assert_eq!(std::fs::read_to_string(out.join(".git/HEAD")).unwrap(), "ref");
    assert_eq!(std::fs::read_to_string(out.join("index.html")).unwrap(), "2");
}

#[test]
fn a_part_replaces_one_subfolder_and_keeps_the_listing_exact() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("site");
    assert!(write_part(&out, "a", &files(&[("x", "1")]), &Files::new()).is_err(), "a part needs a whole folder first");
    write_folder(&out, &files(&[("index.html", "1"), ("a/old.html", "1"), ("b/keep.html", "1")]), &[]).unwrap();
    write_part(&out, "a", &files(&[("new.html", "2")]), &files(&[("index.html", "2")])).unwrap();
    assert!(!out.join("a/old.html").exists());
    assert_eq!(std::fs::read_to_string(out.join("a/new.html")).unwrap(), "2");
    assert_eq!(std::fs::read_to_string(out.join("b/keep.html")).unwrap(), "1");
    let marker = std::fs::read_to_string(out.join(MARKER)).unwrap();
    assert_eq!(marker.lines().skip(1).collect::<Vec<_>>(), vec!["a/new.html", "b/keep.html", "index.html"]);
    assert_eq!(names(&out), vec![MARKER, "a", "b", "index.html"]);
    // A foreign file in the part is refused.
    std::fs::write(out.join("a/mine.txt"), "keep").unwrap();
    let error = write_part(&out, "a", &files(&[("new.html", "3")]), &Files::new()).unwrap_err();
    assert!(error.to_string().contains("(a/mine.txt)"), "{error}");
}

#[test]
fn files_handed_over_one_at_a_time_replace_the_folder_only_when_all_are_made() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    write_folder(&out, &files(&[("index.html", "old")]), &[]).unwrap();
    // The maker fails after two files: the old folder stays, and nothing of the new one.
    let failed = outdir::write_folder_with(&out, &[], |sink| {
        sink.write("index.html", b"new")?;
        sink.write("runs/r1.html", b"r1")?;
        Err(Boxed("the third page failed".to_string()))
    });
    assert_eq!(failed.unwrap_err().0, "the third page failed");
    assert_eq!(std::fs::read_to_string(out.join("index.html")).unwrap(), "old");
    assert_eq!(names(root.path()), vec!["out"]);
    // Handed over in any order, listed sorted in the marker; a path handed over twice is refused.
    outdir::write_folder_with(&out, &[], |sink| {
        sink.write("z.html", b"z")?;
        sink.write("a/b.html", b"b")?;
        assert_eq!(sink.len(), 2);
        Ok::<(), outdir::Error>(())
    })
    .unwrap();
    let marker = std::fs::read_to_string(out.join(MARKER)).unwrap();
    assert_eq!(marker.lines().skip(1).collect::<Vec<_>>(), vec!["a/b.html", "z.html"]);
    let twice = outdir::write_folder_with(&out, &[], |sink| {
        sink.write("a.html", b"1")?;
        sink.write("a.html", b"2")
    });
    assert!(twice.unwrap_err().to_string().contains("\"a.html\""), "named");
    assert_eq!(std::fs::read_to_string(out.join("z.html")).unwrap(), "z");
}

impl From<outdir::Error> for Boxed {
    fn from(error: outdir::Error) -> Self {
        Boxed(error.to_string())
    }
}

/// Lets a test's maker fail with its own error type.
#[derive(Debug)]
struct Boxed(String);
