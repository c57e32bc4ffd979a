//! The one rule for names from data (request_row::name, datasets/README.md "Names and notes"):
//! a run id, a factor's name and levels, a request's label and a session step's name are trimmed,
//! one line, without control characters, bounded and distinct, or refused at their place (exit 2);
//! a note is free text, shown with its control characters as visible escapes on every page.

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

const RUNS_HEADER: &str = "run_id,route,repetition,started_at_utc,status,note";

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// A dataset of two runs (a1: route `routes[0]`, a2: `routes[1]`), five requests each, the
/// requests labelled by `labels` in turn when it is not empty; `notes` is each run's note.
fn dataset(root: &Path, routes: [&str; 2], notes: [&str; 2], labels: &[&str]) -> PathBuf {
    let dir = root.join("ds");
    std::fs::create_dir_all(&dir).unwrap();
    let mut runs = format!("{RUNS_HEADER}\n");
    let mut requests = String::from("run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes");
    requests.push_str(if labels.is_empty() { "\n" } else { ",label\n" });
    for (i, (route, note)) in routes.iter().zip(notes).enumerate() {
        runs.push_str(&format!("a{},{},1,2026-11-30T01:0{i}:00Z,ok,{}\n", i + 1, csv_field(route), csv_field(note)));
        for seq in 0..5 {
            requests.push_str(&format!("a{},{seq},{}.000,{}.250,{}.500,200,12", i + 1, seq * 125, seq * 125, seq + 1));
            if !labels.is_empty() {
                requests.push_str(&format!(",{}", csv_field(labels[seq % labels.len()])));
            }
            requests.push('\n');
        }
    }
    std::fs::write(dir.join("runs.csv"), runs).unwrap();
    std::fs::write(dir.join("requests.csv"), requests).unwrap();
    dir
}

fn analyze(args: &[&std::ffi::OsStr]) -> Output {
    Command::cargo_bin("analyze").unwrap().args(args).output().unwrap()
}

fn check(dir: &Path) -> Output {
    analyze(&["check".as_ref(), dir.as_os_str()])
}

fn report(dir: &Path, out: &Path) -> Output {
    analyze(&["report".as_ref(), dir.as_os_str(), "--out".as_ref(), out.as_os_str()])
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Asserts `check` exits 2 and prints each of `expected` as one of its problem lines, and no
/// control character raw.
fn assert_refused(dir: &Path, expected: &[&str]) {
    let output = check(dir);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{text}");
    for line in expected {
        assert!(text.lines().any(|l| l.trim() == *line), "expected the line\n  {line}\ngot\n{text}");
    }
    assert!(!text.chars().any(|c| c.is_control() && c != '\n'), "a raw control character in {text:?}");
}

/// Every file under `dir` with its text (lossy), sorted by path.
fn texts_under(dir: &Path) -> Vec<(String, String)> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(base, &path, out);
            } else {
                let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
                out.push((path.strip_prefix(base).unwrap().to_string_lossy().into_owned(), text));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// No page, Markdown file, figure or CSV under `out` holds a control character (but tab and line
/// breaks) raw.
fn assert_no_raw_controls(out: &Path) {
    for (file, text) in texts_under(out) {
        if file.ends_with(".json") {
            continue;
        }
        let raw = text.chars().find(|&c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'));
        assert_eq!(raw, None, "{file} holds a raw control character");
    }
}

// ---- 1. control characters: names refused, notes escaped ----------------------------------

#[test]
fn a_level_holding_esc_is_refused_at_its_cell() {
    let root = tempfile::tempdir().unwrap();
    let dir = dataset(root.path(), ["direct\u{1b}[31m", "nginx"], ["", ""], &[]);
    assert_refused(&dir, &["runs.csv:2:2: route: holds the control character '\\u{1b}': a level is one line of text"]);
    let out = root.path().join("out");
    assert_eq!(report(&dir, &out).status.code(), Some(2));
    assert!(!out.exists(), "nothing is written");
}

#[test]
fn a_note_holding_esc_shows_it_escaped_on_every_page_markdown_file_figure_and_csv() {
    let root = tempfile::tempdir().unwrap();
    let note = "threshold p(95)<2\u{1b}]0;owned\u{7} failed";
    let dir = dataset(root.path(), ["direct", "nginx"], [note, ""], &[]);
    std::fs::write(dir.join("dataset.toml"), "title = \"Slow\\u001b[2J clients\"\n").unwrap();
    let out = root.path().join("out");
    let output = report(&dir, &out);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_no_raw_controls(&out);
    let shown = "threshold p(95)&lt;2\\u{1b}]0;owned\\u{7} failed";
    for page in ["index.html", "runs/a1.html"] {
        let html = std::fs::read_to_string(out.join(page)).unwrap();
        assert!(html.contains(shown), "{page} shows the note with its escapes");
        assert!(html.contains("Slow\\u{1b}[2J clients"), "{page} shows the title with its escape");
    }
    let markdown = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(markdown.contains("threshold p(95)\\<2\\u{1b}\\]0;owned\\u{7} failed"), "{markdown}");
    let runs = std::fs::read_to_string(out.join("runs.csv")).unwrap();
    assert!(runs.contains("threshold p(95)<2\\u{1b}]0;owned\\u{7} failed"), "{runs}");
    // The data keeps the text: JSON escapes the control itself.
    let summary: Value = serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["runs"][0]["note"], note);
}

/// k6's threshold expressions come into a run's note through `analyze import`: one holding ESC
/// is imported (a note is free text) and shown escaped in report.md, the HTML and compare.md.
#[test]
fn a_k6_threshold_holding_esc_is_imported_and_shown_escaped() {
    let root = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import/k6/handle-summary.json");
    let summary = std::fs::read_to_string(fixture).unwrap().replace("\"p(95)<2\"", "\"p(95)<2\\u001b]0;owned\\u0007\"");
    assert!(summary.contains("\\u001b"), "the fixture has the threshold");
    let file = root.path().join("summary.json");
    std::fs::write(&file, summary).unwrap();
    let dir = root.path().join("k6");
    for (run, level) in [("k1", "k6"), ("k2", "k6-again")] {
        let output = analyze(&[
            "import".as_ref(),
            file.as_os_str(),
            "--into".as_ref(),
            dir.as_os_str(),
            "--run-id".as_ref(),
            run.as_ref(),
            "--factor".as_ref(),
            format!("tool={level}").as_ref(),
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
        assert!(!String::from_utf8_lossy(&output.stdout).contains('\u{1b}'), "the terminal gets no raw ESC");
    }
    let out = root.path().join("out");
    let output = report(&dir, &out);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_no_raw_controls(&out);
    let markdown = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(markdown.contains("p(95)\\<2\\u{1b}\\]0;owned\\u{7}"), "{markdown}");
    let html = std::fs::read_to_string(out.join("runs/k1.html")).unwrap();
    assert!(html.contains("p(95)&lt;2\\u{1b}]0;owned\\u{7}"), "the run page shows the threshold with its escapes");
}

/// Two datasets whose titles and notes hold ESC: their comparison (compare.md, the pages, the
/// figures and the terminal summary) shows each as `\u{1b}`.
#[test]
fn a_comparison_of_datasets_with_esc_in_their_text_shows_it_escaped() {
    let root = tempfile::tempdir().unwrap();
    let mut dirs = Vec::new();
    for name in ["base", "cand"] {
        let dir = dataset(&root.path().join(name), ["direct", "nginx"], ["k6 p(95)<2\u{1b}[2J", ""], &[]);
        std::fs::write(dir.join("dataset.toml"), format!("title = \"{name}\\u001b]0;owned\\u0007\"\n")).unwrap();
        dirs.push(dir);
    }
    let out = root.path().join("cmp");
    let output = analyze(&["compare".as_ref(), dirs[0].as_os_str(), dirs[1].as_os_str(), "--out".as_ref(), out.as_os_str()]);
    assert!(matches!(output.status.code(), Some(0 | 1)), "{}", stderr(&output));
    assert!(!String::from_utf8_lossy(&output.stdout).chars().any(|c| c.is_control() && c != '\n'), "the terminal summary");
    assert_no_raw_controls(&out);
    let markdown = std::fs::read_to_string(out.join("en/compare.md")).unwrap();
    assert!(markdown.contains("base\\u{1b}\\]0;owned\\u{7}"), "{markdown}");
}

// ---- 2. labels are trimmed: one endpoint ----------------------------------------------------

#[test]
fn labels_that_differ_only_in_surrounding_spaces_are_one_endpoint() {
    let root = tempfile::tempdir().unwrap();
    let dir = dataset(root.path(), ["direct", "nginx"], ["", ""], &[" a", "a", "a ", "b", "b"]);
    let out = root.path().join("out");
    let output = report(&dir, &out);
    assert!(output.status.success(), "{}", stderr(&output));
    let summary: Value = serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let labels: Vec<(&str, u64)> = summary["runs"][0]["labels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["label"].as_str().unwrap(), l["requests"].as_u64().unwrap()))
        .collect();
    assert_eq!(labels, [("a", 3), ("b", 2)], "three rows of ` a`, `a`, `a ` are one endpoint");
}

#[test]
fn a_label_holding_a_line_break_or_esc_is_refused_at_its_cell() {
    let root = tempfile::tempdir().unwrap();
    let dir = dataset(root.path(), ["direct", "nginx"], ["", ""], &["get", "post\u{1b}[2J", "get\nagain"]);
    assert_refused(
        &dir,
        &[
            "requests.csv:3:8: label: holds the control character '\\u{1b}': a request name is one line of text",
            "requests.csv:4:8: label: holds the control character '\\n': a request name is one line of text",
        ],
    );
}

// ---- 3. session steps --------------------------------------------------------------------

#[test]
fn session_steps_that_are_empty_repeated_multi_line_or_100000_characters_are_refused_at_their_place() {
    let root = tempfile::tempdir().unwrap();
    let dir = dataset(root.path(), ["direct", "nginx"], ["", ""], &[]);
    let long = "x".repeat(100_000);
    let toml = format!(
        "[sessions]\nsteps = [\n  \"GET the page\",\n  \"  \",\n  {{ en = \"GET the page\", ja = \"ページ表示\" }},\n  \"POST\\nthe form\",\n  \"{long}\",\n  \" GET the page \",\n]\n"
    );
    std::fs::write(dir.join("dataset.toml"), toml).unwrap();
    assert_refused(
        &dir,
        &[
            "dataset.toml:4:3: sessions.steps: step 1's name is empty: a step's name has at least one character besides spaces",
            "dataset.toml:5:3: sessions.steps: step 2's name \"GET the page\" is step 0's too: each step needs a name of its own",
            "dataset.toml:6:3: sessions.steps: step 3's name holds the control character '\\n': a step's name is one line of text",
            "dataset.toml:7:3: sessions.steps: step 4's name is 100000 bytes long, more than the 1024 a step's name may have",
            "dataset.toml:8:3: sessions.steps: step 5's name \"GET the page\" is step 0's too: each step needs a name of its own",
        ],
    );
    let output = check(&dir);
    assert!(stderr(&output).len() < 3_000, "the long name is not echoed: {} bytes", stderr(&output).len());
}

// ---- 4. one rule: run ids, factor names, levels in dataset.toml --------------------------------

#[test]
fn run_ids_factor_names_and_dataset_toml_levels_follow_the_same_rule() {
    let root = tempfile::tempdir().unwrap();
    let dir = dataset(root.path(), ["direct", "nginx"], ["", ""], &[]);
    let runs = std::fs::read_to_string(dir.join("runs.csv")).unwrap();
    let runs = runs.replacen("a1,", "\"a\u{202e}1\",", 1).replacen("route", "ro\tute", 1);
    std::fs::write(dir.join("runs.csv"), runs).unwrap();
    assert_refused(
        &dir,
        &[
            "runs.csv:1:2: header: the column \"ro\\tute\": holds the control character '\\t': a factor's name is one line of text",
            "runs.csv:2:1: run_id: holds the bidirectional control \\u{202e}: a run id reads as the characters it holds, so it has none",
        ],
    );

    let dir = dataset(&root.path().join("b"), ["direct", "nginx"], ["", ""], &[]);
    let toml = "[[factors]]\nname = \"route\"\nlevels = [{ value = \" direct \" }, { value = \"direct\" }, { value = \"x\\u0007\" }, { value = \"nginx\", label = { en = \"\", ja = \"NGINX経由\" } }]\n";
    std::fs::write(dir.join("dataset.toml"), toml).unwrap();
    assert_refused(
        &dir,
        &[
            "dataset.toml:3:45: levels.value: the level \"direct\" of \"route\" is listed twice",
            "dataset.toml:3:67: levels.value: holds the control character '\\u{7}': a level is one line of text",
            "dataset.toml:3:107: levels.label.en: is empty: a level's label has at least one character besides spaces",
        ],
    );
}

#[test]
fn a_trimmed_level_in_dataset_toml_names_the_runs_level() {
    let root = tempfile::tempdir().unwrap();
    let dir = dataset(root.path(), ["direct", "nginx"], ["", ""], &[]);
    std::fs::write(dir.join("dataset.toml"), "[[factors]]\nname = \" route\"\nlevels = [{ value = \"nginx \", label = \"via NGINX\" }]\n")
        .unwrap();
    let out = root.path().join("out");
    let output = report(&dir, &out);
    assert!(output.status.success(), "{}", stderr(&output));
    let summary: Value = serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    let conditions: Vec<&str> = summary["conditions"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!(conditions, ["route=nginx", "route=direct"], "the listed level first");
}

#[test]
fn a_note_longer_than_16_kib_is_refused_at_its_cell() {
    let root = tempfile::tempdir().unwrap();
    let note = "n".repeat(16 * 1024 + 1);
    let dir = dataset(root.path(), ["direct", "nginx"], [&note, "fine"], &[]);
    assert_refused(&dir, &["runs.csv:2:6: note: is 16385 bytes long, more than the 16384 a note may have"]);
}

/// `analyze import` applies the same rule to its flags: a run id or a level that check would
/// refuse is refused at the flag, and nothing is written.
#[test]
fn import_refuses_a_run_id_or_level_that_breaks_the_rule_at_its_flag() {
    let root = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import/hey/hey.csv");
    let dir = root.path().join("d");
    let long = format!("tool={}", "x".repeat(1_100));
    for (run_id, factor, expected) in [
        ("r\u{202e}1", "tool=hey", "--run-id \"r\\u{202e}1\": holds the bidirectional control \\u{202e}: a run id reads as the characters it holds, so it has none"),
        ("r1", long.as_str(), "is 1100 bytes long, more than the 1024 a level may have"),
    ] {
        let output = analyze(&[
            "import".as_ref(),
            fixture.as_os_str(),
            "--into".as_ref(),
            dir.as_os_str(),
            "--run-id".as_ref(),
            run_id.as_ref(),
            "--factor".as_ref(),
            factor.as_ref(),
        ]);
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        assert!(stderr(&output).contains(expected), "{}", stderr(&output));
        assert!(!dir.exists(), "nothing is written");
    }
}
