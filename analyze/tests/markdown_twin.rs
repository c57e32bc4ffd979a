//! The Markdown twin must parse as CommonMark with GitHub tables, and every image and local link it
//! references must exist: checked with a real CommonMark parser on the fixture and on the default
//! dataset that `just report` publishes.

use assert_cmd::Command;
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use std::path::Path;

struct TableShape {
    header_cells: usize,
    row_cells: Vec<usize>,
}

/// Renders `dataset` in `lang` and returns the output folder.
fn render(dataset: &Path, lang: &str) -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    Command::cargo_bin("analyze")
        .unwrap()
        .args(["report", dataset.to_str().unwrap(), "--out", out.path().join("r").to_str().unwrap(), "--lang", lang])
        .assert()
        .success();
    out
}

fn check_twin(folder: &Path) -> (Vec<TableShape>, usize) {
    let markdown = std::fs::read_to_string(folder.join("report.md")).unwrap();
    let mut tables = Vec::new();
    let mut images = 0;
    let mut in_head = false;
    for event in Parser::new_ext(&markdown, Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::Table(_)) => tables.push(TableShape { header_cells: 0, row_cells: Vec::new() }),
            Event::Start(Tag::TableHead) => in_head = true,
            Event::End(TagEnd::TableHead) => in_head = false,
            Event::Start(Tag::TableRow) => tables.last_mut().unwrap().row_cells.push(0),
            Event::Start(Tag::TableCell) => {
                let table = tables.last_mut().unwrap();
                if in_head {
                    table.header_cells += 1;
                } else {
                    *table.row_cells.last_mut().unwrap() += 1;
                }
            }
            Event::Start(Tag::Image { dest_url, .. }) => {
                images += 1;
                assert!(folder.join(dest_url.as_ref()).is_file(), "report.md shows {dest_url}, which does not exist");
            }
            Event::Start(Tag::Link { dest_url, .. }) => {
                let target = dest_url.split('#').next().unwrap();
                if !target.is_empty() && !target.contains("://") {
                    assert!(folder.join(target).is_file(), "report.md links to {dest_url}, which does not exist");
                }
            }
            Event::Html(html) | Event::InlineHtml(html) => panic!("report.md holds raw HTML: {html}"),
            _ => {}
        }
    }
    (tables, images)
}

#[test]
fn the_fixtures_twin_is_commonmark_with_whole_tables() {
    let dataset = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny");
    for lang in ["en", "ja"] {
        let out = render(&dataset, lang);
        let (tables, images) = check_twin(&out.path().join("r"));
        // Headline, percentiles, write vs completion, temp files, CPU and memory, runs.
        assert_eq!(tables.len(), 6, "{lang}");
        for table in &tables {
            assert!(table.header_cells >= 2);
            assert!(table.row_cells.iter().all(|&cells| cells == table.header_cells), "{lang}: a row with a missing cell");
        }
        assert_eq!(tables[5].row_cells.len(), 13, "every run has a row");
        // Headline, time series, an ECDF of the conditions per x level (2), write vs completion, temp files.
        assert_eq!(images, 6, "{lang}");
    }
}

#[test]
fn the_default_datasets_twin_is_commonmark_with_whole_tables() {
    let dataset = Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets/gunicorn-slow-client");
    let out = render(&dataset, "en");
    let (tables, images) = check_twin(&out.path().join("r"));
    // Headline, the original's three tables (p95, write, completion), percentiles, write vs
    // completion, temp files, CPU and memory, runs, setup.
    assert_eq!(tables.len(), 10);
    for table in &tables {
        assert!(table.row_cells.iter().all(|&cells| cells == table.header_cells));
    }
    let published: Vec<usize> = tables[1..4].iter().map(|t| t.row_cells.len()).collect();
    assert_eq!(published, [10, 3, 3], "16 published values in the original's three tables");
    assert_eq!(tables[7].row_cells.len(), 16, "a row per condition and process group its runs sampled");
    assert_eq!(tables[8].row_cells.len(), 30, "30 runs");
    assert!(images >= 3);
}
