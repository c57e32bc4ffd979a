//! Helpers every integration test module may share (the suite is one binary, `main.rs`).

use assert_cmd::Command;
use std::path::{Path, PathBuf};

/// The repository's root, where `datasets/` and `site/` are committed.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `analyze report DATASET --out OUT --lang LANG`, which must succeed.
pub fn report(dataset: &Path, out: &Path, lang: &str) {
    let output = Command::cargo_bin("analyze")
        .unwrap()
        .args(["report", dataset.to_str().unwrap(), "--out", out.to_str().unwrap(), "--lang", lang])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
}
