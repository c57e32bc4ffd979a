//! `analyze site --only NAME` rebuilds one dataset's folder and the index, and leaves the other
//! datasets' files as they were.

use assert_cmd::Command;
use std::path::Path;

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

fn site(args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("analyze").unwrap().arg("site").args(args).assert()
}

#[test]
fn only_rebuilds_the_named_dataset_and_the_index() {
    let root = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny");
    let datasets = root.path().join("datasets");
    copy_dir(&fixture, &datasets.join("alpha"));
    copy_dir(&fixture, &datasets.join("beta"));
    let out = root.path().join("site");
    let (datasets_arg, out_arg) = (datasets.to_str().unwrap(), out.to_str().unwrap());

    // --only needs a site built whole first.
    site(&[datasets_arg, "--out", out_arg, "--only", "alpha"]).failure().code(2);
    site(&[datasets_arg, "--out", out_arg]).success();

    // Change both datasets' titles; rebuild only alpha.
    for name in ["alpha", "beta"] {
        let manifest = datasets.join(name).join("dataset.toml");
        let text = std::fs::read_to_string(&manifest).unwrap().replace("Tiny fixture <study>", &format!("Retitled {name}"));
        std::fs::write(manifest, text).unwrap();
    }
    let beta_before = std::fs::read(out.join("beta/en/index.html")).unwrap();
    site(&[datasets_arg, "--out", out_arg, "--only", "alpha"]).success();

    assert!(std::fs::read_to_string(out.join("alpha/en/index.html")).unwrap().contains("Retitled alpha"));
    assert_eq!(std::fs::read(out.join("beta/en/index.html")).unwrap(), beta_before, "beta was not rendered again");
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(index.contains("Retitled alpha") && index.contains("Retitled beta"), "the index lists every dataset as it is now");
    assert!(out.join("beta/ja/runs/r01.html").is_file());

    site(&[datasets_arg, "--out", out_arg, "--only", "gamma"]).failure().code(2);
}

/// A dataset that is a measurement of a history is rebuilt with its history: the history page
/// shows the dataset as it is now, and the site's full build gives the same bytes.
#[test]
fn only_rebuilds_the_histories_the_dataset_is_a_measurement_of() {
    let root = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny");
    let datasets = root.path().join("datasets");
    for name in ["alpha", "beta"] {
        copy_dir(&fixture, &datasets.join(name));
        let manifest = datasets.join(name).join("dataset.toml");
        let text = std::fs::read_to_string(&manifest).unwrap();
        std::fs::write(&manifest, format!("{text}\n[history]\nseries = \"tiny\"\n")).unwrap();
    }
    let out = root.path().join("site");
    let (datasets_arg, out_arg) = (datasets.to_str().unwrap(), out.to_str().unwrap());
    site(&[datasets_arg, "--out", out_arg]).success();
    let page = out.join("history/tiny/en/index.html");
    assert!(!std::fs::read_to_string(&page).unwrap().contains("Retitled alpha"));

    let manifest = datasets.join("alpha").join("dataset.toml");
    let text = std::fs::read_to_string(&manifest).unwrap().replace("Tiny fixture <study>", "Retitled alpha");
    std::fs::write(manifest, text).unwrap();
    site(&[datasets_arg, "--out", out_arg, "--only", "alpha"]).success();
    let partial = std::fs::read(&page).unwrap();
    assert!(String::from_utf8_lossy(&partial).contains("Retitled alpha"), "the history names the measurement by its new title");

    let whole = root.path().join("whole");
    site(&[datasets_arg, "--out", whole.to_str().unwrap()]).success();
    assert_eq!(partial, std::fs::read(whole.join("history/tiny/en/index.html")).unwrap(), "as the whole build writes it");
}
