//! The committed `tiny` fixture through the binary: `report`, `check` and `site`, asserting on
//! the contents of what they write.
//!
//! How the fixture was made (read back from its CSVs): run k of a condition is repetition k
//! (1-3), and its 20 latencies are base·(seq+1) + 0.5·k for seq 0..19, so its nearest-rank p95
//! is the 19th of 20: base·19 + 0.5·k. Bases: direct/0 = 1.0, direct/2 = 100.0,
//! nginx-on/0 = 1.5, nginx-on/2 = 2.0. Run r04 (direct/2, k = 1) has two extra rows, one 503 and
//! one without a response; r13 (direct/2) is excluded and must not enter any statistic.

use assert_cmd::Command;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny")
}

/// The conditions as (summary.json id, base latency, runs in repetition order).
const CONDITIONS: [(&str, f64, [&str; 3]); 4] = [
    ("route=direct,downloads=0", 1.0, ["r01", "r02", "r03"]),
    ("route=direct,downloads=2", 100.0, ["r04", "r05", "r06"]),
    ("route=nginx-on,downloads=0", 1.5, ["r07", "r08", "r09"]),
    ("route=nginx-on,downloads=2", 2.0, ["r10", "r11", "r12"]),
];

/// The hand-worked p95 of repetition `k` of a condition with this base.
fn p95(base: f64, k: u32) -> f64 {
    base * 19.0 + 0.5 * f64::from(k)
}

fn analyze() -> Command {
    Command::cargo_bin("analyze").unwrap()
}

fn assert_exit(output: &Output, code: i32) {
    assert_eq!(
        output.status.code(),
        Some(code),
        "expected exit status {code}\n--- stdout\n{}\n--- stderr\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Renders `dataset` into `out` and asserts success.
fn report(dataset: &Path, out: &Path, lang: Option<&str>) {
    let mut command = analyze();
    command.arg("report").arg(dataset).arg("--out").arg(out);
    if let Some(lang) = lang {
        command.args(["--lang", lang]);
    }
    assert_exit(&command.output().unwrap(), 0);
}

/// A rendered report in a temp dir that lives as long as the value.
struct Rendered {
    _root: tempfile::TempDir,
    out: PathBuf,
}

impl Rendered {
    fn tiny(lang: Option<&str>) -> Rendered {
        let root = tempfile::tempdir().unwrap();
        let out = root.path().join("out");
        report(&fixture(), &out, lang);
        Rendered { _root: root, out }
    }

    fn text(&self, file: &str) -> String {
        std::fs::read_to_string(self.out.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
    }

    fn summary(&self) -> Value {
        serde_json::from_str(&self.text("summary.json")).unwrap()
    }
}

/// Every file under `dir` (hidden ones included), by relative path with `/` separators.
fn read_tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(base: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(base, &path, out);
            } else {
                let relative = path.strip_prefix(base).unwrap().to_string_lossy().replace('\\', "/");
                out.insert(relative, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut files = BTreeMap::new();
    walk(dir, dir, &mut files);
    files
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// Undoes the HTML escaping of attribute values and text that the templates apply.
fn unescape(html: &str) -> String {
    html.replace("&#x2F;", "/")
        .replace("&#x27;", "'")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The values of every `href="..."` and `src="..."` attribute, unescaped.
fn links(html: &str) -> Vec<String> {
    let mut found = Vec::new();
    for attribute in ["href=\"", "src=\""] {
        let mut rest = html;
        while let Some(start) = rest.find(attribute) {
            rest = &rest[start + attribute.len()..];
            let end = rest.find('"').unwrap();
            found.push(unescape(&rest[..end]));
            rest = &rest[end..];
        }
    }
    found
}

/// Joins a relative link to the folder of `page` (both relative to the output root).
fn resolve(page: &str, link: &str) -> String {
    let mut parts: Vec<&str> = page.split('/').collect();
    parts.pop();
    for part in link.split('/') {
        match part {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            other => parts.push(other),
        }
    }
    parts.join("/")
}

/// Every local link and image of every HTML page under `root` names a file that exists, and
/// every `#fragment` names an id on that page.
fn assert_links_resolve(files: &BTreeMap<String, Vec<u8>>) {
    let mut checked = 0;
    for (page, bytes) in files.iter().filter(|(p, _)| p.ends_with(".html")) {
        let html = String::from_utf8_lossy(bytes);
        for link in links(&html) {
            if link.starts_with("http://") || link.starts_with("https://") || link.starts_with("mailto:") {
                continue;
            }
            let (path, fragment) = match link.split_once('#') {
                Some((path, fragment)) => (path, Some(fragment)),
                None => (link.as_str(), None),
            };
            let target = if path.is_empty() { page.clone() } else { resolve(page, path) };
            let Some(target_bytes) = files.get(&target) else {
                panic!("{page} links to {link}, but {target} does not exist");
            };
            if let Some(fragment) = fragment {
                let target_html = String::from_utf8_lossy(target_bytes);
                assert!(
                    unescape(&target_html).contains(&format!("id=\"{fragment}\"")),
                    "{page} links to {link}, but {target} has no id {fragment:?}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} links checked");
}

fn run<'a>(summary: &'a Value, id: &str) -> &'a Value {
    summary["runs"].as_array().unwrap().iter().find(|r| r["run_id"] == id).unwrap_or_else(|| panic!("no run {id} in summary.json"))
}

fn condition<'a>(summary: &'a Value, id: &str) -> &'a Value {
    summary["conditions"].as_array().unwrap().iter().find(|c| c["id"] == id).unwrap_or_else(|| panic!("no condition {id} in summary.json"))
}

// ---- summary.json -------------------------------------------------------------------------

#[test]
fn summary_json_has_each_runs_p95_at_rank_19_of_20() {
    let summary = Rendered::tiny(None).summary();
    for (_, base, runs) in CONDITIONS {
        for (k, id) in (1..=3).zip(runs) {
            let r = run(&summary, id);
            assert_eq!(r["p95_ms"].as_f64(), Some(p95(base, k)), "run {id}");
            assert_eq!(r["p95_rank"], 19, "run {id}");
            assert_eq!(r["ok_responses"], 20, "run {id}");
        }
    }
}

#[test]
fn summary_json_has_median_min_and_max_p95_per_condition() {
    let summary = Rendered::tiny(None).summary();
    assert_eq!(summary["conditions"].as_array().unwrap().len(), 4);
    for (id, base, _) in CONDITIONS {
        let spread = &condition(&summary, id)["p95_ms"];
        assert_eq!(spread["median"].as_f64(), Some(p95(base, 2)), "{id}");
        assert_eq!(spread["min"].as_f64(), Some(p95(base, 1)), "{id}");
        assert_eq!(spread["max"].as_f64(), Some(p95(base, 3)), "{id}");
        assert_eq!(spread["n"], 3, "{id}");
    }
    // The hand-worked values, spelled out for the slow condition.
    let slow = &condition(&summary, "route=direct,downloads=2")["p95_ms"];
    assert_eq!((slow["median"].as_f64(), slow["min"].as_f64(), slow["max"].as_f64()), (Some(1901.0), Some(1900.5), Some(1901.5)));
}

#[test]
fn summary_json_names_the_median_run_as_representative() {
    let summary = Rendered::tiny(None).summary();
    for (id, _, runs) in CONDITIONS {
        let c = condition(&summary, id);
        assert_eq!(c["representative_run"], runs[1], "{id}");
        assert_eq!(c["runs"], serde_json::json!(runs), "{id}");
    }
}

#[test]
fn summary_json_counts_requests_and_errors_of_ok_runs() {
    let summary = Rendered::tiny(None).summary();
    let integrity = &summary["integrity"];
    // 12 ok runs × 20 requests, plus r04's 503 and its request without a response.
    assert_eq!(integrity["requests"], 242);
    assert_eq!(integrity["ok_responses"], 240);
    assert_eq!(integrity["errors"], 2);
    assert_eq!(integrity["non_2xx"], 1);
    assert_eq!(integrity["no_response"], 1);
    assert_eq!(integrity["runs"], 13);
    assert_eq!(integrity["runs_by_status"], serde_json::json!({"ok": 12, "aborted": 0, "excluded": 1}));

    let r04 = run(&summary, "r04");
    assert_eq!((r04["requests"].as_u64(), r04["errors"].as_u64()), (Some(22), Some(2)));
    assert_eq!(r04["statuses"], serde_json::json!({"0": 1, "200": 20, "503": 1}));
}

#[test]
fn an_excluded_run_is_in_no_condition() {
    let summary = Rendered::tiny(None).summary();
    for c in summary["conditions"].as_array().unwrap() {
        assert!(!c["runs"].as_array().unwrap().iter().any(|r| r == "r13"), "r13 is in {}", c["id"]);
        assert_ne!(c["representative_run"], "r13");
    }
    assert_eq!(condition(&summary, "route=direct,downloads=2")["left_out_runs"], serde_json::json!(["r13"]));
    assert_eq!(run(&summary, "r13")["status"], "excluded");
    assert_eq!(run(&summary, "r13")["note"], "host busy, rerun");
}

// ---- index.html and run pages -------------------------------------------------------------

/// The `<td ...>...</td>` of index.html whose text starts with `text`.
fn cell_with<'a>(html: &'a str, text: &str) -> &'a str {
    let at = html.find(&format!(">{text}<")).unwrap_or_else(|| panic!("no cell shows {text}"));
    let start = html[..at].rfind("<td").unwrap();
    let end = at + html[at..].find("</td>").unwrap();
    &html[start..end]
}

#[test]
fn index_html_shows_the_headline_median_linked_to_the_representative_run() {
    let rendered = Rendered::tiny(None);
    let html = unescape(&rendered.text("index.html"));
    let cell = cell_with(&html, "1,901.00");
    assert!(cell.contains("<a href=\"runs/r05.html\">1,901.00</a>"), "the median must link to run r05's page: {cell}");
    assert!(cell.contains("1,900.50–1,901.50"), "the cell must show the range: {cell}");
    assert!(cell.contains("href=\"variance.html#condition-"), "the range must link to the variance page: {cell}");
    for text in ["20.00", "29.50", "39.00"] {
        let cell = cell_with(&html, text);
        assert!(cell.contains("<a href=\"runs/r"), "{text} must link to its representative run: {cell}");
    }
}

#[test]
fn index_html_escapes_the_title() {
    let html = Rendered::tiny(None).text("index.html");
    assert!(html.contains("<h1>Tiny fixture &lt;study&gt;</h1>"));
    assert!(!html.contains("<study>"));
}

#[test]
fn every_run_has_a_page_that_links_back_to_its_row() {
    let rendered = Rendered::tiny(None);
    let index = unescape(&rendered.text("index.html"));
    for number in 1..=13 {
        let id = format!("r{number:02}");
        let page = unescape(&rendered.text(&format!("runs/{id}.html")));
        assert!(page.contains(&format!("href=\"../index.html#run-{id}\"")), "runs/{id}.html does not link back");
        assert!(index.contains(&format!("id=\"run-{id}\"")), "index.html has no row anchor for {id}");
        assert!(index.contains(&format!("href=\"runs/{id}.html\"")), "index.html does not link to {id}");
    }
}

#[test]
fn a_run_page_shows_its_p95_with_its_rank() {
    let page = Rendered::tiny(None).text("runs/r04.html");
    assert!(page.contains("19th of 20 = 1,900.50 ms"), "{page}");
    assert!(page.contains("2 of 22 requests got no 2xx response"), "r04's page must show its flag");
}

#[test]
fn errors_are_marked_on_their_runs_time_series_only() {
    let rendered = Rendered::tiny(None);
    let r04 = rendered.text("figures/latency-over-time-r04.svg");
    assert!(
        r04.contains("1 response with a non-2xx status (crosses, at their latency) and 1 request with no response"),
        "r04's 503 at 2.75 s and its unanswered request at 2.875 s"
    );
    assert!(r04.contains("non-2xx response") && r04.contains("no response (top edge)"), "the legend names both marks");
    let r01 = rendered.text("figures/latency-over-time-r01.svg");
    assert!(!r01.contains("non-2xx"), "a run without errors has no error legend");
}

#[test]
fn every_link_and_image_in_the_report_resolves() {
    let rendered = Rendered::tiny(None);
    assert_links_resolve(&read_tree(&rendered.out));
}

// ---- report.md ----------------------------------------------------------------------------

/// Cells of a Markdown table line: `|` not escaped by a backslash separate them.
fn markdown_cells(line: &str) -> usize {
    let bytes = line.as_bytes();
    (0..bytes.len()).filter(|&i| bytes[i] == b'|' && (i == 0 || bytes[i - 1] != b'\\')).count().saturating_sub(1)
}

#[test]
fn report_md_has_github_tables() {
    let md = Rendered::tiny(None).text("report.md");
    assert!(md.contains("| Route | Slow downloads = 0 | Slow downloads = 2 |\n| --- | ---: | ---: |\n"), "{md}");
    // 20 requests a run do not resolve p95 (0.95^20 = 0.36 > 2.5%; it needs 72): each cell says so.
    assert!(md.contains("| direct | [20.00](runs/r02.html) ([19.50–20.50](variance.html#condition-0); needs ≥ 72 requests) | [1,901.00](runs/r05.html) ([1,900.50–1,901.50](variance.html#condition-1); needs ≥ 72 requests) |"), "{md}");

    // Every table: a header, a separator of the same width, rows of the same width.
    let lines: Vec<&str> = md.lines().collect();
    let mut tables = 0;
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].starts_with('|') {
            i += 1;
            continue;
        }
        let start = i;
        while i < lines.len() && lines[i].starts_with('|') {
            i += 1;
        }
        let table = &lines[start..i];
        assert!(table.len() >= 2, "a table needs a header and a separator: {table:?}");
        assert!(start == 0 || lines[start - 1].is_empty(), "a table must follow a blank line: {:?}", lines[start - 1]);
        let width = markdown_cells(table[0]);
        let separator: Vec<&str> = table[1].trim_matches('|').split('|').map(str::trim).collect();
        assert_eq!(separator.len(), width, "separator width: {}", table[1]);
        assert!(separator.iter().all(|s| matches!(*s, "---" | "---:" | ":---" | ":---:")), "separator: {}", table[1]);
        for row in &table[2..] {
            assert_eq!(markdown_cells(row), width, "row width: {row}");
        }
        tables += 1;
    }
    assert!(tables >= 3, "found {tables} tables");
}

#[test]
fn every_image_and_link_in_report_md_exists() {
    let rendered = Rendered::tiny(None);
    let md = rendered.text("report.md");
    let mut images = 0;
    let mut rest = md.as_str();
    while let Some(start) = rest.find("](") {
        let is_image = rest[..start].rfind("![").is_some_and(|bang| !rest[bang..start].contains(']'));
        rest = &rest[start + 2..];
        let end = rest.find(')').unwrap();
        let target = rest[..end].split('#').next().unwrap();
        if !target.is_empty() && !target.starts_with("http") {
            assert!(rendered.out.join(target).is_file(), "report.md refers to {target}, which does not exist");
        }
        if is_image {
            assert!(target.ends_with(".svg"), "{target}");
            images += 1;
        }
        rest = &rest[end..];
    }
    assert!(images >= 2, "report.md shows {images} images");
}

// ---- CSV exports -------------------------------------------------------------------------

#[test]
fn runs_csv_has_one_column_per_name() {
    // A repeated header name makes readers rename or drop a column (pandas: `p95_ms.1`).
    let csv = Rendered::tiny(None).text("runs.csv");
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let mut seen = std::collections::BTreeSet::new();
    let repeated: Vec<&str> = header.iter().copied().filter(|name| !seen.insert(*name)).collect();
    assert!(repeated.is_empty(), "runs.csv repeats the columns {repeated:?} in its header: {header:?}");
}

#[test]
fn conditions_csv_lists_the_excluded_run_as_left_out() {
    let csv = Rendered::tiny(None).text("conditions.csv");
    let row = csv.lines().find(|l| l.starts_with("\"route=direct,downloads=2\"")).unwrap();
    assert!(row.contains(",r04 r05 r06,r13,r05,1901,1900.5,1901.5,"), "{row}");
}

// ---- determinism --------------------------------------------------------------------------

#[test]
fn rendering_twice_gives_byte_identical_folders() {
    let first = Rendered::tiny(None);
    let second = Rendered::tiny(None);
    // The same dataset from another place on disk renders the same too (no absolute paths).
    let elsewhere = tempfile::tempdir().unwrap();
    let copy = elsewhere.path().join("nested/tiny");
    copy_dir(&fixture(), &copy);
    let third = elsewhere.path().join("out");
    report(&copy, &third, None);

    let a = read_tree(&first.out);
    let b = read_tree(&second.out);
    let c = read_tree(&third);
    assert!(a.len() > 20, "{} files", a.len());
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    assert_eq!(a.keys().collect::<Vec<_>>(), c.keys().collect::<Vec<_>>());
    for (path, bytes) in &a {
        assert!(&b[path] == bytes, "{path} differs between two renders");
        assert!(&c[path] == bytes, "{path} differs when the dataset is elsewhere");
    }
}

#[test]
fn rendering_into_its_own_output_again_replaces_it() {
    let rendered = Rendered::tiny(None);
    let before = read_tree(&rendered.out);
    // Files analyze wrote, changed or removed since: a second render puts back exactly its own.
    // (A file it did not write is refused instead: tests/nothing_lost.rs.)
    std::fs::write(rendered.out.join("index.html"), "edited by hand").unwrap();
    std::fs::remove_file(rendered.out.join("runs.csv")).unwrap();
    report(&fixture(), &rendered.out, None);
    assert!(read_tree(&rendered.out) == before, "a second render must replace the folder whole");
}

#[test]
fn refuses_to_replace_a_folder_it_did_not_write() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("mine");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("notes.txt"), "keep me").unwrap();
    let output = analyze().arg("report").arg(fixture()).arg("--out").arg(&out).output().unwrap();
    assert_exit(&output, 2);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.starts_with("error: ") && stderr.contains("holds an entry analyze did not write (notes.txt)"), "{stderr}");
    assert_eq!(read_tree(&out).into_keys().collect::<Vec<_>>(), vec!["notes.txt"]);
}

// ---- languages ----------------------------------------------------------------------------

#[test]
fn lang_ja_renders_japanese_headings() {
    let rendered = Rendered::tiny(Some("ja"));
    let md = rendered.text("report.md");
    assert!(md.starts_with("# 小さな検証用データ\n"), "{md}");
    assert!(md.contains("\n## 集計方法\n"), "{md}");
    assert!(!md.contains("## Methods"), "{md}");
    let html = rendered.text("index.html");
    assert!(html.contains("<html lang=\"ja\">"));
    assert!(html.contains("<h2>集計方法</h2>"));
    // Numbers are the same in every language.
    assert!(unescape(&html).contains("<a href=\"runs/r05.html\">1,901.00</a>"));
}

#[test]
fn english_is_the_default_language() {
    let rendered = Rendered::tiny(None);
    assert!(rendered.text("index.html").contains("<html lang=\"en\">"));
    assert!(rendered.text("report.md").contains("\n## Methods\n"));
}

// ---- check --------------------------------------------------------------------------------

#[test]
fn check_prints_condition_medians_and_warns_about_errors() {
    let output = analyze().arg("check").arg(fixture()).output().unwrap();
    assert_exit(&output, 0);
    let stdout = String::from_utf8(output.stdout).unwrap();
    for line in [
        "  direct · 0: p95 median 20.00 ms (19.50–20.50, 3 runs)",
        "  direct · 2: p95 median 1,901.00 ms (1,900.50–1,901.50, 3 runs)",
        "  nginx, buffering on · 0: p95 median 29.50 ms (29.00–30.00, 3 runs)",
        "  nginx, buffering on · 2: p95 median 39.00 ms (38.50–39.50, 3 runs)",
        "warning: run r04: 2 of 22 requests got no 2xx response",
    ] {
        assert!(stdout.lines().any(|l| l == line), "missing line {line:?} in\n{stdout}");
    }
    assert!(!stdout.contains("warning: run r13"), "an excluded run is a note, not a warning:\n{stdout}");
}

#[test]
fn check_strict_fails_on_warnings() {
    let output = analyze().args(["check", "--strict"]).arg(fixture()).output().unwrap();
    assert_exit(&output, 1);
    assert!(String::from_utf8_lossy(&output.stdout).contains("warning: run r04: 2 of 22 requests got no 2xx response"));
}

#[test]
fn check_writes_nothing() {
    let root = tempfile::tempdir().unwrap();
    let copy = root.path().join("tiny");
    copy_dir(&fixture(), &copy);
    let before = read_tree(root.path());
    assert_exit(&analyze().arg("check").arg(&copy).output().unwrap(), 0);
    assert!(read_tree(root.path()) == before, "check changed the dataset folder");
}

// ---- site ---------------------------------------------------------------------------------

#[test]
fn site_renders_every_dataset_in_both_languages() {
    let root = tempfile::tempdir().unwrap();
    let datasets = root.path().join("datasets");
    copy_dir(&fixture(), &datasets.join("tiny"));
    let site = root.path().join("site");
    assert_exit(&analyze().arg("site").arg(&datasets).arg("--out").arg(&site).output().unwrap(), 0);

    let files = read_tree(&site);
    for file in ["index.html", "tiny/en/index.html", "tiny/ja/index.html", "tiny/en/report.md", "tiny/ja/summary.json"] {
        assert!(files.contains_key(file), "the site has no {file}");
    }
    let index = unescape(&String::from_utf8_lossy(&files["index.html"]));
    assert!(index.contains("href=\"tiny/en/index.html\"") && index.contains("href=\"tiny/ja/index.html\""), "{index}");
    assert!(index.contains("<a href=\"tiny/en/runs/r05.html\">1,901.00</a>"), "the site index shows the headline table");

    let en = unescape(&String::from_utf8_lossy(&files["tiny/en/index.html"]));
    let ja = unescape(&String::from_utf8_lossy(&files["tiny/ja/index.html"]));
    assert!(en.contains("href=\"../ja/index.html\"") && ja.contains("href=\"../en/index.html\""), "the languages link to each other");
    assert!(ja.contains("<html lang=\"ja\">") && ja.contains("集計方法"));
    assert!(en.contains("<html lang=\"en\">") && en.contains("Methods"));
    assert_links_resolve(&files);
}

#[test]
fn every_page_s_language_switch_leads_to_the_same_page_in_the_other_language() {
    let root = tempfile::tempdir().unwrap();
    let datasets = root.path().join("datasets");
    copy_dir(&fixture(), &datasets.join("tiny"));
    std::fs::write(datasets.join("tiny/README.md"), "# Tiny\n\nHow it was measured.\n").unwrap();
    let site = root.path().join("site");
    assert_exit(&analyze().arg("site").arg(&datasets).arg("--out").arg(&site).output().unwrap(), 0);

    let files = read_tree(&site);
    let mut kinds = std::collections::BTreeSet::new();
    for (page, bytes) in files.iter().filter(|(p, _)| p.starts_with("tiny/") && p.ends_with(".html")) {
        let html = unescape(&String::from_utf8_lossy(bytes));
        let (lang, other) = if page.starts_with("tiny/en/") { ("en", "ja") } else { ("ja", "en") };
        let marker = format!("\" hreflang=\"{other}\"");
        let end = html.find(&marker).unwrap_or_else(|| panic!("{page} has no language switch"));
        let href = &html[html[..end].rfind("href=\"").unwrap() + 6..end];
        let counterpart = page.replacen(&format!("tiny/{lang}/"), &format!("tiny/{other}/"), 1);
        assert_eq!(resolve(page, href), counterpart, "{page}: its switch {href}");
        assert!(files.contains_key(&counterpart), "{counterpart} exists");
        kinds.insert(page.rsplit('/').nth(1).unwrap().to_string() + "/" + page.rsplit('/').next().unwrap());
    }
    for kind in ["en/index.html", "en/variance.html", "en/dataset.html", "runs/r05.html", "ja/index.html"] {
        assert!(kinds.contains(kind), "a {kind} page was checked: {kinds:?}");
    }
}

#[test]
fn the_report_links_its_dataset_page_and_downloads_before_its_findings() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("tiny");
    copy_dir(&fixture(), &dataset);
    std::fs::write(dataset.join("README.md"), "# Tiny\n\nHow it was measured.\n").unwrap();
    let out = root.path().join("out");
    assert_exit(&analyze().args(["report"]).arg(&dataset).arg("--out").arg(&out).output().unwrap(), 0);
    let out = out.as_path();
    let html = unescape(&std::fs::read_to_string(out.join("index.html")).unwrap());
    let top = &html[..html.find("<section id=\"integrity\">").unwrap()];
    let downloads = &top[top.find("<p class=\"meta\" id=\"downloads\">").expect("the links at the top")..];
    let downloads = &downloads[..downloads.find("</p>").unwrap()];
    for href in ["dataset.html", "runs.csv", "conditions.csv", "summary.json", "report.md"] {
        assert!(downloads.contains(&format!("href=\"{href}\"")), "{href} linked at the top: {downloads}");
        assert!(out.join(href).is_file(), "{href} is written");
    }
}
