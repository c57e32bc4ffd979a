//! A corpus of hostile and careless datasets, one class per test, each generated here from one
//! small valid dataset (two runs of one factor, five requests each): what a user reads (exit
//! status, the message with its place) and what is written (pages, ids, links, images).

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

const RUNS_HEADER: &str = "run_id,route,repetition,started_at_utc,status,note";
const REQUESTS_HEADER: &str = "run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes";

/// Runs.csv rows (without header) as (id, route, start); requests: five per run, latency
/// `base + seq` where `base` is 1 for the first run, 10 for the second, and so on.
struct Spec<'a> {
    runs: Vec<(&'a str, &'a str, &'a str)>,
    extra_columns: Option<(&'a str, Vec<&'a str>)>,
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// Writes a dataset folder `name` under `root` and returns its path.
fn write_dataset(root: &Path, name: &str, spec: &Spec) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let mut runs = String::from(RUNS_HEADER);
    if let Some((column, _)) = &spec.extra_columns {
        runs.push_str(&format!(",{column}"));
    }
    runs.push('\n');
    let mut requests = format!("{REQUESTS_HEADER}\n");
    for (i, (id, route, start)) in spec.runs.iter().enumerate() {
        runs.push_str(&format!("{},{},1,{start},ok,", csv_field(id), csv_field(route)));
        if let Some((_, values)) = &spec.extra_columns {
            runs.push_str(&format!(",{}", csv_field(values[i])));
        }
        runs.push('\n');
        let base = 10f64.powi(i as i32);
        for seq in 0..5 {
            requests.push_str(&format!("{},{seq},{}.0,{}.5,{},200,12\n", csv_field(id), seq * 100, seq * 100, base + f64::from(seq)));
        }
    }
    std::fs::write(dir.join("runs.csv"), runs).unwrap();
    std::fs::write(dir.join("requests.csv"), requests).unwrap();
    dir
}

fn two_runs() -> Spec<'static> {
    Spec { runs: vec![("a1", "direct", "2026-11-30T01:00:00Z"), ("a2", "nginx", "2026-11-30T01:01:00Z")], extra_columns: None }
}

fn analyze() -> Command {
    Command::cargo_bin("analyze").unwrap()
}

fn check(dir: &Path) -> Output {
    analyze().arg("check").arg(dir).output().unwrap()
}

fn report(dir: &Path, out: &Path) -> Output {
    analyze().arg("report").arg(dir).arg("--out").arg(out).output().unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn assert_exit(output: &Output, code: i32) {
    assert_eq!(
        output.status.code(),
        Some(code),
        "expected exit {code}\n--- stdout\n{}\n--- stderr\n{}",
        String::from_utf8_lossy(&output.stdout),
        stderr(output)
    );
}

/// Asserts check exits 2 with `expected` among its problem lines.
fn assert_refused(dir: &Path, expected: &str) {
    let output = check(dir);
    assert_exit(&output, 2);
    let text = stderr(&output);
    assert!(text.lines().any(|l| l.trim() == expected), "expected the line\n  {expected}\ngot\n{text}");
}

fn summary(out: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap()
}

/// Every file under `dir`, relative, sorted.
fn files_under(dir: &Path) -> Vec<String> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(base, &path, out);
            } else {
                out.push(path.strip_prefix(base).unwrap().to_string_lossy().into_owned());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// Every value of `attribute="..."` in an HTML page.
fn attribute_values(html: &str, attribute: &str) -> Vec<String> {
    let needle = format!(" {attribute}=\"");
    html.split(&needle).skip(1).map(|rest| rest.split('"').next().unwrap().to_string()).collect()
}

/// The text of an HTML attribute or element as a browser reads it (tera escapes `&<>"'/`).
fn html_unescape(text: &str) -> String {
    text.replace("&#x2F;", "/")
        .replace("&#x27;", "'")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            out.push(u8::from_str_radix(&text[i + 1..i + 3], 16).unwrap());
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

// ---- wrong numbers: names ----------------------------------------------------------------

#[test]
fn run_ids_that_sanitize_alike_get_their_own_pages() {
    let root = tempfile::tempdir().unwrap();
    let spec =
        Spec { runs: vec![("a_-1", "direct", "2026-11-30T01:00:00Z"), ("a/", "nginx", "2026-11-30T01:01:00Z")], extra_columns: None };
    let dir = write_dataset(root.path(), "ds", &spec);
    let out = root.path().join("out");
    assert_exit(&report(&dir, &out), 0);
    let pages: Vec<String> = files_under(&out).into_iter().filter(|f| f.starts_with("runs/")).collect();
    assert_eq!(pages.len(), 2, "{pages:?}");
    // Each page shows its own run: a_-1 has latencies 1-5 ms, a/ 10-14 ms.
    let title = |html: &str| html_unescape(html.split("<h1").nth(1).unwrap().split("</h1>").next().unwrap());
    let page_of = |id: &str| {
        pages
            .iter()
            .map(|p| std::fs::read_to_string(out.join(p)).unwrap())
            .find(|html| title(html).ends_with(&format!(">Run {id} – ds")))
            .unwrap_or_else(|| panic!("no page titled {id}"))
    };
    assert!(page_of("a_-1").contains("5.00"), "a_-1's p95 is 5.00 ms");
    assert!(page_of("a/").contains("14.0"), "a/'s p95 is 14.0 ms");
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    let mut ids = attribute_values(&index, "id");
    let count = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), count, "duplicate HTML ids in index.html");
}

#[test]
fn a_run_id_of_240_characters_passes_check_and_report() {
    let root = tempfile::tempdir().unwrap();
    let long = "r".repeat(240);
    let spec = Spec { runs: vec![(&long, "direct", "2026-11-30T01:00:00Z"), ("a2", "nginx", "2026-11-30T01:01:00Z")], extra_columns: None };
    let dir = write_dataset(root.path(), "ds", &spec);
    assert_exit(&check(&dir), 0);
    let out = root.path().join("out");
    assert_exit(&report(&dir, &out), 0);
    for file in files_under(&out) {
        for part in file.split('/') {
            assert!(part.len() < 120, "{part} is {} bytes", part.len());
        }
    }
}

#[test]
fn a_level_holding_a_separator_does_not_take_another_conditions_id() {
    let root = tempfile::tempdir().unwrap();
    let spec = Spec {
        runs: vec![("a1", "x,worker=y", "2026-11-30T01:00:00Z"), ("a2", "x", "2026-11-30T01:01:00Z")],
        extra_columns: Some(("worker", vec!["z", "y,worker=z"])),
    };
    let dir = write_dataset(root.path(), "ds", &spec);
    let out = root.path().join("out");
    assert_exit(&report(&dir, &out), 0);
    let ids: Vec<String> = summary(&out)["conditions"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap().to_string()).collect();
    assert_eq!(ids.len(), 2);
    assert_ne!(ids[0], ids[1], "{ids:?}");
    assert!(ids.contains(&"route=x\\,worker\\=y,worker=z".to_string()), "{ids:?}");
}

#[test]
fn an_article_cites_each_of_two_look_alike_conditions_by_its_own_id() {
    let root = tempfile::tempdir().unwrap();
    let spec = Spec {
        runs: vec![("a1", "x,worker=y", "2026-11-30T01:00:00Z"), ("a2", "x", "2026-11-30T01:01:00Z")],
        extra_columns: Some(("worker", vec!["z", "y,worker=z"])),
    };
    let dir = write_dataset(root.path(), "ds", &spec);
    // a1's p95 is 5.00 ms (latencies 1-5), a2's 14.0 ms (10-14).
    std::fs::write(
        dir.join("article.md"),
        "first {{ conditions[\"route=x\\,worker\\=y,worker=z\"].headline.median }}, \
         second {{ conditions[\"route=x,worker=y\\,worker\\=z\"].headline.median }}\n",
    )
    .unwrap();
    let out = root.path().join("out");
    assert_exit(&report(&dir, &out), 0);
    let markdown = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(markdown.contains("first 5.00, second 14.0"), "{markdown}");
}

// ---- wrong numbers: percentile, side tables, times ----------------------------------------

#[test]
fn a_percentile_that_cannot_be_held_exactly_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let dir = write_dataset(root.path(), "ds", &two_runs());
    std::fs::write(dir.join("dataset.toml"), "percentile = 99.9995\n").unwrap();
    assert_refused(
        &dir,
        "dataset.toml:1:14: percentile: 99.9995 is finer than a thousandth of a percent: write at most three decimals (a report states its percentile exactly, never rounded)",
    );
}

#[test]
fn a_resource_sample_repeated_or_a_falling_cpu_counter_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let dir = write_dataset(root.path(), "ds", &two_runs());
    std::fs::write(
        dir.join("resources.csv"),
        "run_id,t_ms,process,pid,cpu_s,rss_bytes\na1,0,g,7,0.5,100\na1,0,g,7,0.5,100\na1,100,g,7,0.2,100\n",
    )
    .unwrap();
    let output = check(&dir);
    assert_exit(&output, 2);
    let text = stderr(&output);
    assert!(text.contains("resources.csv:3:2: t_ms: pid 7 is sampled twice at 0 ms (first on line 2)"), "{text}");
    assert!(text.contains("resources.csv:4:5: cpu_s: 0.2 is less than 0.5 at 0 ms"), "{text}");
}

#[test]
fn a_repeated_download_or_a_write_ending_before_it_starts_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let dir = write_dataset(root.path(), "ds", &two_runs());
    let header = "run_id,download_id,write_start_ms,write_end_ms,write_s,client_complete_s,bytes_received";
    std::fs::write(
        dir.join("large_responses.csv"),
        format!("{header}\na1,d1,1,2,0.001,1,10\na1,d1,1,2,0.001,1,10\na2,d1,9,3,0.001,1,10\n"),
    )
    .unwrap();
    let output = check(&dir);
    assert_exit(&output, 2);
    let text = stderr(&output);
    assert!(text.contains("large_responses.csv:3:2: download_id: download \"d1\" of run \"a1\" appears twice (first on line 2)"), "{text}");
    assert!(text.contains("large_responses.csv:4:4: write_end_ms: 3 is before write_start_ms 9"), "{text}");
}

#[test]
fn a_start_time_that_never_existed_is_refused() {
    for (bad, column) in [("2026-02-30T01:00:00Z", 4), ("2026-11-30T99:99:99Z", 4), ("2026-11-30T01:00:00+99:99", 4)] {
        let root = tempfile::tempdir().unwrap();
        let spec = Spec { runs: vec![("a1", "direct", bad), ("a2", "nginx", "2026-11-30T01:01:00Z")], extra_columns: None };
        let dir = write_dataset(root.path(), "ds", &spec);
        assert_refused(
            &dir,
            &format!("runs.csv:2:{column}: started_at_utc: \"{bad}\" is not an RFC 3339 time (e.g. 2026-11-30T04:05:06Z)"),
        );
    }
}

#[test]
fn the_measured_date_is_the_utc_date_of_the_first_run() {
    let root = tempfile::tempdir().unwrap();
    // 08:00 in Tokyo on 1 December is 23:00 UTC on 30 November.
    let spec = Spec {
        runs: vec![("a1", "direct", "2026-12-01T08:00:00+09:00"), ("a2", "nginx", "2026-12-01T09:00:00+09:00")],
        extra_columns: None,
    };
    let dir = write_dataset(root.path(), "ds", &spec);
    let out = root.path().join("out");
    assert_exit(&report(&dir, &out), 0);
    assert_eq!(summary(&out)["dataset"]["measured"], "2026-11-30");
}

// ---- schema strictness ---------------------------------------------------------------------

#[test]
fn dataset_toml_naming_an_unknown_factor_or_a_bad_threshold_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let dir = write_dataset(root.path(), "ds", &two_runs());
    std::fs::write(
        dir.join("dataset.toml"),
        "x = \"rout\"\nseries = [\"route\"]\n[thresholds]\nlag_ms = nan\noutlier_ratio = 0\n\n[[factors]]\nname = \"status\"\n",
    )
    .unwrap();
    let output = check(&dir);
    assert_exit(&output, 2);
    let text = stderr(&output);
    for expected in [
        "dataset.toml:4:10: thresholds.lag_ms: NaN is not a positive number",
        "dataset.toml:5:17: thresholds.outlier_ratio: 0 is not a positive number",
        "dataset.toml:8:8: factors.name: \"status\" is a runs.csv column with its own meaning",
    ] {
        assert!(text.contains(expected), "expected {expected}\n{text}");
    }
}

#[test]
fn x_naming_no_factor_is_refused_with_its_place() {
    let root = tempfile::tempdir().unwrap();
    let dir = write_dataset(root.path(), "ds", &two_runs());
    std::fs::write(dir.join("dataset.toml"), "title = \"t\"\nx = \"rout\"\nseries = [\"route\"]\n").unwrap();
    let output = check(&dir);
    assert_exit(&output, 2);
    let text = stderr(&output);
    assert!(text.contains("dataset.toml:2:5: x: \"rout\" is not a factor of this dataset (its factors: route)"), "{text}");
}

#[test]
fn series_naming_the_x_factor_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let dir = write_dataset(root.path(), "ds", &two_runs());
    std::fs::write(dir.join("dataset.toml"), "x = \"route\"\nseries = [\"route\"]\n").unwrap();
    assert_refused(&dir, "dataset.toml:2:11: series: \"route\" is the x factor: a factor is either on the x axis or in the series");
}

#[test]
fn a_factor_or_level_listed_twice_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let dir = write_dataset(root.path(), "ds", &two_runs());
    std::fs::write(dir.join("dataset.toml"), "[[factors]]\nname = \"route\"\nlevels = [{ value = \"direct\" }, { value = \"direct\" }]\n")
        .unwrap();
    assert_refused(&dir, "dataset.toml:3:43: levels.value: the level \"direct\" of \"route\" is listed twice");
}

#[test]
fn an_unknown_key_in_a_nested_table_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let dir = write_dataset(root.path(), "ds", &two_runs());
    std::fs::write(dir.join("dataset.toml"), "[thresholds]\nlag = 5\n").unwrap();
    let output = check(&dir);
    assert_exit(&output, 2);
    assert!(stderr(&output).contains("dataset.toml:2:1: thresholds.lag: `lag` is not a key of `thresholds`"), "{}", stderr(&output));
}

#[test]
fn a_runs_column_named_twice_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let dir = write_dataset(root.path(), "ds", &two_runs());
    std::fs::write(dir.join("runs.csv"), "run_id,route,repetition,started_at_utc,status,route\na1,x,1,2026-11-30T01:00:00Z,ok,y\n")
        .unwrap();
    assert_refused(&dir, "runs.csv:1:6: header: the column \"route\" appears twice (first as field 2)");
}

// ---- output safety -------------------------------------------------------------------------

#[test]
fn control_characters_in_dataset_text_leave_every_svg_valid_xml() {
    let root = tempfile::tempdir().unwrap();
    // Names holding them are refused at their place (the names rule).
    let spec = Spec {
        runs: vec![("a1", "dir\u{1}ect\u{b}", "2026-11-30T01:00:00Z"), ("a\u{1f}2", "nginx", "2026-11-30T01:01:00Z")],
        extra_columns: None,
    };
    let dir = write_dataset(root.path(), "names", &spec);
    assert_refused(&dir, "runs.csv:2:2: route: holds the control character '\\u{1}': a level is one line of text");
    assert_refused(&dir, "runs.csv:3:1: run_id: holds the control character '\\u{1f}': a run id is one line of text");
    // Free text holding them is shown, escaped: every figure stays valid XML.
    let dir = write_dataset(root.path(), "ds", &two_runs());
    std::fs::write(dir.join("dataset.toml"), "title = \"dir\\u0001ect\\u000b \\u000cx\"\ndescription = \"a\\u001fb\"\n").unwrap();
    let runs = std::fs::read_to_string(dir.join("runs.csv")).unwrap().replacen(",ok,\n", ",ok,busy\u{c}x\u{1}y\n", 1);
    std::fs::write(dir.join("runs.csv"), runs).unwrap();
    let out = root.path().join("out");
    assert_exit(&report(&dir, &out), 0);
    let svgs: Vec<String> = files_under(&out).into_iter().filter(|f| f.ends_with(".svg")).collect();
    assert!(svgs.len() >= 5, "{svgs:?}");
    for svg in svgs {
        let text = std::fs::read_to_string(out.join(&svg)).unwrap();
        let bad = text.chars().find(|&c| matches!(c, '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}'));
        assert_eq!(bad, None, "{svg} holds a character XML forbids");
    }
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(index.contains("dir\\u{1}ect\\u{b} \\u{c}x") && index.contains("busy\\u{c}x\\u{1}y"), "the title and the note, escaped");
}

#[test]
fn site_links_reach_dataset_folders_whose_names_look_like_url_syntax() {
    let root = tempfile::tempdir().unwrap();
    let datasets = root.path().join("datasets");
    for name in ["h#1", "q?x=1", "100%25"] {
        write_dataset(&datasets, name, &two_runs());
    }
    let out = root.path().join("site");
    assert_exit(&analyze().arg("site").arg(&datasets).arg("--out").arg(&out).output().unwrap(), 0);
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    let hrefs: Vec<String> =
        attribute_values(&index, "href").iter().map(|h| html_unescape(h)).filter(|h| !h.starts_with('#') && !h.contains("://")).collect();
    assert!(hrefs.iter().any(|h| h == "h%231/en/index.html"), "{hrefs:?}");
    assert!(hrefs.iter().any(|h| h == "100%2525/ja/index.html"), "{hrefs:?}");
    for href in &hrefs {
        let path = href.split('#').next().unwrap();
        assert!(!path.contains('?'), "{href} would be read as a query");
        assert!(out.join(percent_decode(path)).is_file(), "{href} leads nowhere");
    }
}

#[test]
fn a_dataset_folder_named_like_a_site_file_is_refused_before_anything_is_written() {
    let root = tempfile::tempdir().unwrap();
    let datasets = root.path().join("datasets");
    write_dataset(&datasets, "index.html", &two_runs());
    write_dataset(&datasets, "fine", &two_runs());
    let out = root.path().join("site");
    let output = analyze().arg("site").arg(&datasets).arg("--out").arg(&out).output().unwrap();
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("the dataset folder \"index.html\" has the name of the site's own page index.html"),
        "{}",
        stderr(&output)
    );
    assert!(!out.exists());
}

/// 2,500 runs of one request each, ten runs to each of 250 levels: more than one page lists.
fn many_runs(root: &Path) -> PathBuf {
    let dir = root.join("many");
    std::fs::create_dir_all(&dir).unwrap();
    let mut runs = format!("{RUNS_HEADER}\n");
    let mut requests = format!("{REQUESTS_HEADER}\n");
    for r in 0..2_500 {
        runs.push_str(&format!("r{r},l{},{},2026-11-30T01:00:00Z,ok,\n", r % 250, r / 250 + 1));
        requests.push_str(&format!("r{r},0,0,0,{},200,12\n", 1 + r % 7));
    }
    std::fs::write(dir.join("runs.csv"), runs).unwrap();
    std::fs::write(dir.join("requests.csv"), requests).unwrap();
    dir
}

#[test]
fn a_report_of_2500_runs_lists_them_1000_to_a_page_and_every_run_links_back_to_its_row() {
    let root = tempfile::tempdir().unwrap();
    let dir = many_runs(root.path());
    let out = root.path().join("out");
    assert_exit(&report(&dir, &out), 0);
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(!index.contains("id=\"runs\""), "no run table on the report page");
    assert!(index.contains("2,500 runs are too many for one page: they are listed 1,000 to a page below, and all of them in runs.csv."));
    let hrefs: Vec<String> = attribute_values(&index, "href").iter().map(|h| html_unescape(h)).collect();
    for page in ["run-list/1.html", "run-list/2.html", "run-list/3.html"] {
        assert!(hrefs.iter().any(|h| h == page), "{page}");
    }
    assert!(!out.join("run-list/4.html").exists());
    let markdown = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(markdown.contains("- [Runs 2,001–2,500](run-list/3.html)\n"), "{}", &markdown[markdown.len().saturating_sub(3000)..]);
    // Each list page holds its runs, each row anchored; each run page's link back finds its row.
    let mut rows = 0;
    for page in 1..=3 {
        let html = std::fs::read_to_string(out.join(format!("run-list/{page}.html"))).unwrap();
        let anchors: Vec<String> = attribute_values(&html, "id").into_iter().filter(|id| id.starts_with("run-r")).collect();
        assert_eq!(anchors.len(), if page < 3 { 1000 } else { 500 }, "page {page}");
        rows += anchors.len();
    }
    assert_eq!(rows, 2500);
    for run in [0, 999, 1000, 2499] {
        let html = std::fs::read_to_string(out.join(format!("runs/r{run}.html"))).unwrap();
        let back = html_unescape(html.split("<p><a href=\"").nth(1).unwrap().split('"').next().unwrap());
        let (page, anchor) = back.strip_prefix("../").unwrap().split_once('#').unwrap();
        assert_eq!(page, format!("run-list/{}.html", run / 1000 + 1), "r{run}");
        let list = std::fs::read_to_string(out.join(page)).unwrap();
        assert!(list.contains(&format!("id=\"{anchor}\"")), "r{run}: no row {anchor} on {page}");
    }
    assert_eq!(summary(&out)["runs"].as_array().unwrap().len(), 2500, "the data keeps every run");
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_to_a_folder_named_like_another_dataset_gets_a_site_folder_of_its_own() {
    let root = tempfile::tempdir().unwrap();
    let datasets = root.path().join("datasets");
    write_dataset(&datasets, "x", &two_runs());
    let elsewhere = write_dataset(&root.path().join("elsewhere"), "x", &two_runs());
    std::fs::write(elsewhere.join("dataset.toml"), "title = \"Elsewhere\"\n").unwrap();
    std::os::unix::fs::symlink(&elsewhere, datasets.join("y")).unwrap();
    let out = root.path().join("site");
    let output = analyze().arg("site").arg(&datasets).arg("--out").arg(&out).output().unwrap();
    assert_exit(&output, 0);
    assert!(stderr(&output).contains("rendered 2 of 2 datasets"), "{}", stderr(&output));
    let title = |name: &str| {
        let html = std::fs::read_to_string(out.join(name).join("en/index.html")).unwrap();
        html_unescape(html.split("<h1>").nth(1).unwrap().split("</h1>").next().unwrap())
    };
    assert_eq!((title("x"), title("y")), ("x".to_string(), "Elsewhere".to_string()));
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    let hrefs: Vec<String> = attribute_values(&index, "href").iter().map(|h| html_unescape(h)).collect();
    for link in ["x/en/index.html", "y/en/index.html"] {
        assert!(hrefs.iter().any(|h| h == link), "{link} not in {hrefs:?}");
    }
}

#[test]
fn two_dataset_folders_one_folder_on_a_case_blind_file_system_are_refused() {
    let root = tempfile::tempdir().unwrap();
    let datasets = root.path().join("datasets");
    write_dataset(&datasets, "Study", &two_runs());
    write_dataset(&datasets, "study", &two_runs());
    let out = root.path().join("site");
    let output = analyze().arg("site").arg(&datasets).arg("--out").arg(&out).output().unwrap();
    assert_exit(&output, 2);
    assert!(
        stderr(&output).contains("the dataset folders \"Study\" and \"study\" would be one folder of the site: rename one of them"),
        "{}",
        stderr(&output)
    );
    assert!(!out.exists());
}

#[test]
fn an_article_link_to_another_host_without_a_scheme_is_text() {
    let root = tempfile::tempdir().unwrap();
    let dir = write_dataset(root.path(), "ds", &two_runs());
    std::fs::write(
        dir.join("article.md"),
        "[f](//evil.example/x), [g](/\\evil.example/y), ![h](//evil.example/i.png), [ok](https://ok.example/) and [rel](variance.html).\n",
    )
    .unwrap();
    let out = root.path().join("out");
    assert_exit(&report(&dir, &out), 0);
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    let article = index.split("class=\"article\"").nth(1).unwrap().split("</section>").next().unwrap();
    let links: Vec<String> = attribute_values(article, "href").into_iter().chain(attribute_values(article, "src")).collect();
    assert_eq!(links, vec!["https://ok.example/", "variance.html"], "{article}");
    assert!(article.contains("<p>f, g, h, <a"), "{article}");
    let markdown = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(!markdown.contains("evil.example"), "{markdown}");
}

#[test]
fn bidirectional_controls_show_as_escapes_on_every_page_and_figure() {
    let root = tempfile::tempdir().unwrap();
    // In a name they are refused: "direct" then an override that would show "exe.html" as "lmth.exe".
    let spec = Spec {
        runs: vec![("a1", "direct\u{202e}lmth.exe", "2026-11-30T01:00:00Z"), ("a\u{2067}2", "nginx", "2026-11-30T01:01:00Z")],
        extra_columns: None,
    };
    let names = write_dataset(root.path(), "names", &spec);
    assert_refused(
        &names,
        "runs.csv:2:2: route: holds the bidirectional control \\u{202e}: a level reads as the characters it holds, so it has none",
    );
    assert_refused(
        &names,
        "runs.csv:3:1: run_id: holds the bidirectional control \\u{2067}: a run id reads as the characters it holds, so it has none",
    );
    // In free text (a title, a note, the article) they are shown.
    let dir = write_dataset(root.path(), "ds", &two_runs());
    std::fs::write(dir.join("dataset.toml"), "title = \"direct\u{202e}lmth.exe\"\n").unwrap();
    let runs = std::fs::read_to_string(dir.join("runs.csv")).unwrap().replacen(",ok,\n", ",ok,busy \u{2067}x\u{2069}\n", 1);
    std::fs::write(dir.join("runs.csv"), runs).unwrap();
    std::fs::write(dir.join("article.md"), "Isolated: \u{2066}abc\u{2069}; embedded: \u{202b}def\u{202c}.\n").unwrap();
    let out = root.path().join("out");
    assert_exit(&report(&dir, &out), 0);
    let is_bidi = |c: char| matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    for file in files_under(&out).into_iter().filter(|f| f.ends_with(".html") || f.ends_with(".md") || f.ends_with(".svg")) {
        let text = std::fs::read_to_string(out.join(&file)).unwrap();
        assert!(!text.chars().any(is_bidi), "{file} holds a bidirectional control");
    }
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(index.contains("direct\\u{202e}lmth.exe"), "the override shows where it is");
    assert!(index.contains("Isolated: \\u{2066}abc\\u{2069}; embedded: \\u{202b}def\\u{202c}."), "in the article too");
    let markdown = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(markdown.contains("direct\\u{202e}lmth.exe") && markdown.contains("busy \\u{2067}x\\u{2069}"), "{markdown}");
    // The data keeps the text as it is.
    assert_eq!(summary(&out)["runs"][0]["note"], "busy \u{2067}x\u{2069}");
}

#[test]
fn a_word_of_1000_characters_may_wrap_and_an_autolink_look_alike_is_escaped_once() {
    let root = tempfile::tempdir().unwrap();
    // A level of 1,000 bytes: under the names rule's 1,024.
    let word = "w".repeat(1_000);
    let spec = Spec { runs: vec![("a1", &word, "2026-11-30T01:00:00Z"), ("a2", "nginx", "2026-11-30T01:01:00Z")], extra_columns: None };
    let dir = write_dataset(root.path(), "ds", &spec);
    std::fs::write(dir.join("article.md"), format!("See <http://ok.example/?a=<b>> and {word}.\n")).unwrap();
    let out = root.path().join("out");
    assert_exit(&report(&dir, &out), 0);
    for page in ["index.html", "runs/a1.html", "variance.html"] {
        let html = std::fs::read_to_string(out.join(page)).unwrap();
        assert!(html.contains(&word), "{page}");
        // The page's own stylesheet, at the address it links.
        let href = html.split("<link rel=\"stylesheet\" href=\"").nth(1).unwrap().split('"').next().unwrap();
        let css = std::fs::read_to_string(out.join(page).parent().unwrap().join(href)).unwrap();
        let rule = css.lines().find(|l| l.contains("overflow-wrap: anywhere")).unwrap_or_else(|| panic!("{page}: no wrapping rule"));
        // Prose wraps anywhere; table cells keep their words (a wide table scrolls in its frame).
        for selector in ["p", "li", "dt", "dd", "h1", "caption", "figcaption"] {
            assert!(rule.split('{').next().unwrap().split(',').any(|s| s.trim() == selector), "{selector} in {rule}");
        }
    }
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(index.contains("See &lt;http://ok.example/?a=&lt;b&gt;&gt; and"), "the text once escaped");
    assert!(!index.contains("&amp;lt;"), "escaped twice");
    let markdown = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(markdown.contains("See <http://ok.example/?a=\\<b\\>> and"), "{markdown}");
}

#[test]
fn a_range_budget_spent_by_nested_loops_says_it_is_shared_and_how_much_is_used() {
    let root = tempfile::tempdir().unwrap();
    let dir = write_dataset(root.path(), "ds", &two_runs());
    std::fs::write(
        dir.join("article.md"),
        "Intro.\n\n{% for i in range(end=100) %}{% for j in range(end=100) %}{% for k in range(end=100) %}{% endfor %}{% endfor %}{% endfor %}\n",
    )
    .unwrap();
    let output = check(&dir);
    assert_exit(&output, 2);
    let expected = "article.md:3: `range` calls share one budget of 10000 numbers per article (a range inside a loop counts each \
                    time it runs): 10000 are used, and this one asks for 100 more";
    assert!(stderr(&output).contains(expected), "{}", stderr(&output));
}

// ---- messages ------------------------------------------------------------------------------

#[test]
fn a_long_field_is_summarised_not_echoed() {
    let root = tempfile::tempdir().unwrap();
    let dir = write_dataset(root.path(), "ds", &two_runs());
    // Long, but under the 64 KiB a field may hold (a longer one is refused as such, below).
    let status = "x".repeat(60_000);
    std::fs::write(
        dir.join("runs.csv"),
        format!("{RUNS_HEADER}\na1,direct,1,2026-11-30T01:00:00Z,{status},\na2,nginx,2,2026-11-30T01:01:00Z,ok,\n"),
    )
    .unwrap();
    let output = check(&dir);
    assert_exit(&output, 2);
    let text = stderr(&output);
    assert!(text.len() < 2_000, "{} bytes of message", text.len());
    assert!(text.contains(&format!("runs.csv:2:5: status: \"{}\"… (60000 bytes) is not a status", "x".repeat(60))), "{text}");
}

// ---- cost: work bounded by what a dataset holds ---------------------------------------------

/// What a field or record over its limit is told (dataset/csv/mod.rs), after `file:line[:field: column]: `.
const FIELD_TOO_LONG: &str = "the field is longer than 65536 bytes, the most a field may hold (a quote left open, or not this table?)";

#[test]
fn a_field_of_20_mb_or_a_line_of_20_mb_is_refused_at_its_place_and_the_rest_is_read() {
    let root = tempfile::tempdir().unwrap();
    let dir = write_dataset(root.path(), "ds", &two_runs());
    let rows = std::fs::read_to_string(dir.join("requests.csv")).unwrap();
    let (head, tail) = rows.split_at(rows.match_indices('\n').nth(5).unwrap().0 + 1);
    // Line 7: body_bytes is 20 MB of digits. Line 8: a bad latency the reader still reaches.
    // Line 14 (after the five rows of a2): 20 MB of extra fields.
    let digits = "7".repeat(20_000_000);
    let extra = ",1".repeat(10_000_000);
    let text = format!("{head}a1,9,0,0,1,200,{digits}\na1,10,0,0,x,200,12\n{tail}a2,9,0,0,1,200,12{extra}\n");
    std::fs::write(dir.join("requests.csv"), text).unwrap();
    let output = check(&dir);
    assert_exit(&output, 2);
    let text = stderr(&output);
    assert!(text.len() < 2_000, "{} bytes of message", text.len());
    for expected in [
        format!("requests.csv:7:7: body_bytes: {FIELD_TOO_LONG}"),
        "requests.csv:8:5: latency_ms: \"x\" is not a number".to_string(),
        format!(
            "requests.csv:14: the record is {} bytes long, more than the 1048576 a record may hold (a quote left open, or not this table?)",
            "a2,9,0,0,1,200,12".len() + extra.len()
        ),
    ] {
        assert!(text.lines().any(|l| l.trim() == expected), "expected the line\n  {expected}\ngot\n{text}");
    }
}

#[test]
fn a_field_over_64_kib_in_runs_csv_is_refused_at_its_field() {
    let root = tempfile::tempdir().unwrap();
    let dir = write_dataset(root.path(), "ds", &two_runs());
    let note = "n".repeat(6_000_000);
    std::fs::write(
        dir.join("runs.csv"),
        format!("{RUNS_HEADER}\na1,direct,1,2026-11-30T01:00:00Z,ok,\"{note}\"\na2,nginx,2,2026-11-30T01:01:00Z,ok,\n"),
    )
    .unwrap();
    assert_refused(&dir, &format!("runs.csv:2:6: note: {FIELD_TOO_LONG}"));
}

#[test]
fn a_run_of_200000_identical_latencies_draws_a_bounded_chart() {
    let root = tempfile::tempdir().unwrap();
    let dir = write_dataset(root.path(), "ds", &two_runs());
    let mut requests = format!("{REQUESTS_HEADER}\n");
    for seq in 0..200_000 {
        requests.push_str(&format!("a1,{seq},{seq}.0,{seq}.0,5,200,12\n"));
    }
    requests.push_str("a2,0,0.0,0.5,7,200,12\n");
    std::fs::write(dir.join("requests.csv"), requests).unwrap();
    let out = root.path().join("out");
    assert_exit(&report(&dir, &out), 0);
    let svg = std::fs::read_to_string(out.join("figures/latency-over-time-a1.svg")).unwrap();
    // 100 columns of send time, each a band of no height at 5 ms and its slowest mark: the
    // chart weighs the same as for any other 200,000 requests.
    assert!(
        svg.contains("100 columns of send time and their 100 slowest responses (dots) stand for 200,000 2xx responses"),
        "{}",
        svg.len()
    );
    assert_eq!(svg.matches("<title>slowest of its column: sent at ").count(), 100);
    assert!(svg.len() < 40_000, "{} bytes", svg.len());
    let ecdf = std::fs::read_to_string(out.join("figures/ecdf-a1.svg")).unwrap();
    assert!(ecdf.len() < 200_000, "{} bytes", ecdf.len());
    assert_eq!(summary(&out)["runs"][0]["percentiles_ms"]["99.9"], 5.0);
}

#[test]
fn a_file_of_6_mb_without_a_newline_gives_a_short_message() {
    let root = tempfile::tempdir().unwrap();
    let dir = write_dataset(root.path(), "ds", &two_runs());
    let mut cr_only = String::from(REQUESTS_HEADER);
    let mut seq = 0;
    while cr_only.len() < 6_000_000 {
        cr_only.push_str(&format!("\ra1,{seq},0.0,0.5,1.5,200,12"));
        seq += 1;
    }
    std::fs::write(dir.join("requests.csv"), cr_only).unwrap();
    let output = check(&dir);
    assert_exit(&output, 2);
    let text = stderr(&output);
    assert!(text.len() < 1_000, "{} bytes of message", text.len());
    assert!(text.contains("requests.csv:1: the header holds a carriage return: the lines seem to end in CR alone"), "{text}");
}

#[test]
fn a_toml_file_that_is_not_utf8_names_the_line_and_column() {
    let root = tempfile::tempdir().unwrap();
    let dir = write_dataset(root.path(), "ds", &two_runs());
    std::fs::write(dir.join("dataset.toml"), b"title = \"ok\"\nx = \"ro\xffute\"\n").unwrap();
    assert_refused(&dir, "dataset.toml:2:8: a byte that is not UTF-8 (save the file as UTF-8)");
}

#[cfg(unix)]
#[test]
fn a_fifo_or_a_device_given_as_a_table_is_not_a_regular_file() {
    let root = tempfile::tempdir().unwrap();
    let dir = write_dataset(root.path(), "ds", &two_runs());
    std::os::unix::fs::symlink("/dev/zero", dir.join("resources.csv")).unwrap();
    let status = std::process::Command::new("mkfifo").arg(dir.join("article.md")).status().unwrap();
    assert!(status.success());
    let output = check(&dir);
    assert_exit(&output, 2);
    let text = stderr(&output);
    assert!(text.contains("resources.csv: is not a regular file (a pipe, socket or device?)"), "{text}");
    assert!(text.contains("article.md: is not a regular file (a pipe, socket or device?)"), "{text}");
    std::fs::remove_file(dir.join("requests.csv")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("requests.csv")).unwrap();
    let text = stderr(&check(&dir));
    assert!(text.contains("requests.csv: is not a regular file"), "{text}");
    assert!(!text.contains("is missing"), "{text}");
}

// ---- check == report minus rendering -------------------------------------------------------

#[test]
fn an_article_citing_a_missing_name_fails_check_as_it_fails_report() {
    let root = tempfile::tempdir().unwrap();
    let dir = write_dataset(root.path(), "ds", &two_runs());
    std::fs::write(dir.join("article.md"), "Fine: {{ runs.a1.p95 }} ms.\n\nMissing: {{ runs.nope.p95 }}.\n").unwrap();
    let checked = check(&dir);
    assert_exit(&checked, 2);
    assert!(stderr(&checked).contains("article.md:3:"), "{}", stderr(&checked));
    let reported = report(&dir, &root.path().join("out"));
    assert_exit(&reported, 2);
    assert_eq!(stderr(&checked), stderr(&reported), "check and report say the same");
}

#[test]
fn a_damaged_parquet_file_is_that_files_error_without_the_readers_panic() {
    let root = tempfile::tempdir().unwrap();
    let dir = write_dataset(root.path(), "ds", &two_runs());
    std::fs::remove_file(dir.join("requests.csv")).unwrap();
    // One byte of the footer's column metadata changed: the parquet crate panics on it in a
    // worker thread ("column start and length should not be negative").
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/parquet-writers/polars_zstd_stats.parquet");
    let mut bytes = std::fs::read(fixture).unwrap();
    bytes[9935] = 0x11;
    std::fs::write(dir.join("requests.parquet"), bytes).unwrap();
    let output = analyze().arg("check").arg(&dir).env("RUST_BACKTRACE", "1").output().unwrap();
    assert_exit(&output, 2);
    let text = stderr(&output);
    assert!(text.contains("requests.parquet: cannot be read as Parquet: the file is damaged"), "{text}");
    assert!(!text.contains("panicked"), "{text}");
    assert!(!text.contains("stack backtrace"), "{text}");
}

#[test]
fn check_of_250_levels_lists_50_and_counts_the_rest_unless_all() {
    let root = tempfile::tempdir().unwrap();
    let dir = many_runs(root.path());
    let output = check(&dir);
    assert_exit(&output, 0);
    let text = String::from_utf8(output.stdout).unwrap();
    let levels = text.lines().filter(|l| l.starts_with("  l") && l.contains(" median ")).count();
    assert_eq!(levels, 50, "{text}");
    assert!(text.contains("  … and 200 more conditions (--all lists them; summary.json holds them all)\n"), "{text}");
    // Each level's ten runs have p95s 1-7 ms: some are flagged, and at most 50 of them listed.
    let flagged = text.lines().filter(|l| l.starts_with("warning: run ") || l.starts_with("note: run ")).count();
    assert!(flagged <= 50, "{flagged}");
    let all = analyze().arg("check").arg(&dir).arg("--all").output().unwrap();
    assert_exit(&all, 0);
    let all = String::from_utf8(all.stdout).unwrap();
    assert_eq!(all.lines().filter(|l| l.starts_with("  l") && l.contains(" median ")).count(), 250);
    assert!(!all.contains(" more conditions "), "{all}");
    let every_flag = all.lines().filter(|l| l.starts_with("warning: run ") || l.starts_with("note: run ")).count();
    // r0, r7, r14, …: p95 1 ms against a median of 3.5-4 ms.
    assert_eq!(every_flag, 358, "{all}");
    assert!(text.contains(&format!("  … and {} more flagged runs ", every_flag - 50)), "{text}");
}
