//! `analyze site` over several measurements of one study (issue 46, items 32 and 38): a broken
//! dataset is listed with its error while the others are rendered, and the index tells the cards
//! of one title apart (folder, date, revision, aborted runs) and links the comparison and the
//! history pages.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

/// A copy of the tiny fixture at `dir`, each file passed through `edit(name, text)`.
fn copy_of(dir: &Path, edit: impl Fn(&str, String) -> String) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny");
    for entry in std::fs::read_dir(fixture).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        std::fs::write(dir.join(&name), edit(&name, std::fs::read_to_string(&path).unwrap())).unwrap();
    }
    dir.to_path_buf()
}

/// dataset.toml with a `[history]` of series "tiny" at `revision`.
fn in_history(text: String, revision: &str) -> String {
    format!("{text}\n[history]\nseries = \"tiny\"\nrevision = \"{revision}\"\n")
}

/// A page's text: tags dropped, the slashes tera escapes restored, spaces collapsed.
fn text(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                out.push(' ');
            }
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&#x2F;", "/").split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn one_broken_dataset_is_listed_with_its_error_and_the_others_are_rendered() {
    let root = tempfile::tempdir().unwrap();
    let datasets = root.path().join("datasets");
    copy_of(&datasets.join("tiny"), |name, text| if name == "dataset.toml" { in_history(text, "a1b2c3") } else { text });
    copy_of(&datasets.join("tiny-rerun"), |name, text| match name {
        "dataset.toml" => format!("baseline = \"tiny\"\n{}", in_history(text, "d4e5f6")),
        // r02 aborted: the index says so beside the runs.
        "runs.csv" => text.replace("r02,direct,0,2,2026-11-30T01:01:00Z,ok,", "r02,direct,0,2,2026-11-30T01:01:00Z,aborted,killed"),
        _ => text,
    });
    copy_of(&datasets.join("tiny-broken"), |name, text| {
        if name == "runs.csv" {
            text.replace("r03,direct,0,3,2026-11-30T01:02:00Z", "r03,direct,0,3,yesterday")
        } else {
            text
        }
    });
    let site = root.path().join("site");
    let output = Command::cargo_bin("analyze").unwrap().arg("site").arg(&datasets).arg("--out").arg(&site).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("tiny-broken") && stderr.contains("runs.csv:4"), "the error names the file and line: {stderr}");
    // The readable datasets are rendered all the same, with their comparison and history.
    for page in ["tiny/en/index.html", "tiny-rerun/ja/index.html", "tiny-rerun/compare/en/index.html", "history/tiny/en/index.html"] {
        assert!(site.join(page).is_file(), "{page}");
    }
    assert!(!site.join("tiny-broken").exists());

    let en = std::fs::read_to_string(site.join("index.html")).unwrap().replace("&#x2F;", "/");
    let page = text(&en);
    assert!(page.contains("Folder: tiny · Measured: 2026-11-30 · Revision: a1b2c3 · Runs: 13 (1 excluded)"), "{page}");
    assert!(page.contains("Folder: tiny-rerun · Measured: 2026-11-30 · Revision: d4e5f6 · Runs: 13 (1 aborted, 1 excluded)"), "{page}");
    assert!(en.contains("href=\"tiny-rerun/compare/en/index.html\">Compared with its baseline</a>"), "{en}");
    assert_eq!(en.matches("href=\"history/tiny/en/index.html\">History of tiny</a>").count(), 2, "{en}");
    assert!(page.contains("Datasets not shown"), "{page}");
    let broken = &page[page.find("Datasets not shown").unwrap()..];
    assert!(broken.contains("tiny-broken") && broken.contains("runs.csv:4"), "{broken}");

    let ja = text(&std::fs::read_to_string(site.join("index.ja.html")).unwrap());
    assert!(ja.contains("フォルダ：tiny-rerun") && ja.contains("リビジョン：d4e5f6") && ja.contains("13（うち中断1回、除外1回）"), "{ja}");
    assert!(ja.contains("表示していないデータセット") && ja.contains("ベースラインとの比較"), "{ja}");
}
