//! Snapshots of what the `tiny` fixture renders to: the Markdown report in both languages and
//! the two CSV exports. A change to any of them shows up as a reviewable diff in
//! `tests/snapshots/`; the numbers in them were checked by hand against the fixture's generator
//! (see `end_to_end.rs`: p95 of repetition k is base·19 + 0.5·k).

use assert_cmd::Command;
use std::path::{Path, PathBuf};

/// Renders the fixture in `lang` and returns the output folder (kept alive by the TempDir).
fn render(lang: &str) -> (tempfile::TempDir, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny");
    let output =
        Command::cargo_bin("analyze").unwrap().arg("report").arg(fixture).arg("--out").arg(&out).args(["--lang", lang]).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    (root, out)
}

fn read(out: &Path, file: &str) -> String {
    std::fs::read_to_string(out.join(file)).unwrap()
}

#[test]
fn report_md_en() {
    let (_root, out) = render("en");
    insta::assert_snapshot!("report_md_en", read(&out, "report.md"));
}

#[test]
fn report_md_ja() {
    let (_root, out) = render("ja");
    insta::assert_snapshot!("report_md_ja", read(&out, "report.md"));
}

#[test]
fn runs_csv() {
    let (_root, out) = render("en");
    insta::assert_snapshot!("runs_csv", read(&out, "runs.csv"));
}

#[test]
fn conditions_csv() {
    let (_root, out) = render("en");
    insta::assert_snapshot!("conditions_csv", read(&out, "conditions.csv"));
}
