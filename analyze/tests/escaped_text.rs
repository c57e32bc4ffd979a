//! The README's "escaped text" and the article sandbox: hostile dataset text and articles reach
//! neither the pages' hrefs, nor report.md as raw HTML, nor the terminal as control sequences, nor
//! the environment, and a runaway article fails fast with its file and line.

use assert_cmd::Command;
use std::path::{Path, PathBuf};
use std::process::Output;

const HOSTILE_ROUTE: &str = "[x](javascript:alert(1))";

/// A two-run dataset whose route factor has the values `routes`, with `article` as article.md.
fn dataset(root: &Path, routes: [&str; 2], article: &str) -> PathBuf {
    let dir = root.join("ds");
    std::fs::create_dir_all(&dir).unwrap();
    let mut runs = String::from("run_id,route,repetition,started_at_utc,status,note\n");
    let mut requests = String::from("run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\n");
    for (i, route) in routes.iter().enumerate() {
        runs.push_str(&format!("a{i},\"{route}\",1,2026-11-30T01:0{i}:00Z,ok,\n"));
        for seq in 0..5 {
            requests.push_str(&format!("a{i},{seq},{}.000,{}.250,{}.500,200,12\n", seq * 125, seq * 125, seq + 1));
        }
    }
    std::fs::write(dir.join("runs.csv"), runs).unwrap();
    std::fs::write(dir.join("requests.csv"), requests).unwrap();
    std::fs::write(dir.join("article.md"), article).unwrap();
    dir
}

fn report(dir: &Path, out: &Path) -> Output {
    Command::cargo_bin("analyze")
        .unwrap()
        .env("ANALYZE_TEST_SECRET", "hunter2")
        .arg("report")
        .arg(dir)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn hrefs(html: &str) -> Vec<String> {
    html.split("href=\"").skip(1).filter_map(|rest| rest.split('"').next()).map(String::from).collect()
}

#[test]
fn article_links_and_cited_dataset_text_never_become_dangerous_hrefs_or_raw_html() {
    let root = tempfile::tempdir().unwrap();
    let article = "Links: [a](javascript:alert(2)), <javascript:alert(3)>, [b](JaVaScRiPt&#58;alert(4)), ![c](javascript:alert(5)), [ok](https://example.org).\n\n\
         Cited: {% for id, c in conditions %}{% if id is starting_with(\"route=[\") %}{{ c.label }}{% endif %}{% endfor %}.\n\n\
         <script>alert(6)</script>\n\nInline <img src=x onerror=alert(7)>.\n";
    let dir = dataset(root.path(), [HOSTILE_ROUTE, "<img src=x onerror=alert(8)>"], article);
    let out = root.path().join("out");
    let output = report(&dir, &out);
    assert!(output.status.success(), "{}", stderr(&output));

    let html = std::fs::read_to_string(out.join("index.html")).unwrap();
    let links = hrefs(&html);
    assert!(links.contains(&"https://example.org".to_string()), "{links:?}");
    assert!(links.iter().all(|l| !l.to_ascii_lowercase().contains("javascript")), "{links:?}");
    assert!(!html.contains("<script>alert") && !html.contains("<img src=x"), "raw HTML in index.html");
    assert!(html.contains("Cited: [x](javascript:alert(1))."), "the factor value shows as text");

    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    // An escaped `\]` is text; an unescaped `](` would open a link.
    let unescaped = md.to_ascii_lowercase().replace("\\]", "").replace("\\<", "");
    for raw in ["<script", "<img", "](javascript:", "<javascript:"] {
        assert!(!unescaped.contains(raw), "{raw} in report.md:\n{md}");
    }
    assert!(md.contains("Cited: \\[x\\](javascript:alert(1))."), "{md}");
    assert!(md.contains("\\<script\\>alert(6)\\</script\\>"), "{md}");
}

#[test]
fn an_article_cannot_read_the_environment() {
    let root = tempfile::tempdir().unwrap();
    let dir = dataset(root.path(), ["direct", "nginx"], "Intro.\n\nToken: {{ get_env(name=\"ANALYZE_TEST_SECRET\") }}\n");
    let out = root.path().join("out");
    let output = report(&dir, &out);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("article.md:3: `get_env` is not available in an article"), "{}", stderr(&output));
    assert!(!stderr(&output).contains("hunter2"));
    assert!(!out.exists(), "nothing is written");
}

#[test]
fn a_runaway_article_loop_fails_fast_naming_its_file_and_line() {
    let root = tempfile::tempdir().unwrap();
    let article = "Intro.\n\n{% for i in range(end=3000000) %}{% for j in range(end=3000000) %}{{ i }}{% endfor %}{% endfor %}\n";
    let dir = dataset(root.path(), ["direct", "nginx"], article);
    let started = std::time::Instant::now();
    let output = report(&dir, &root.path().join("out"));
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("article.md:3: `range` calls share one budget of 10000 numbers per article"), "{}", stderr(&output));
    // Not a speed target: a bound on a hang (it ran for good before the sandbox).
    assert!(started.elapsed().as_secs() < 60);
    let includes = dataset(&root.path().join("x"), ["direct", "nginx"], "{% include \"/etc/passwd\" %}\n");
    let output = report(&includes, &root.path().join("out2"));
    assert!(stderr(&output).contains("article.md:1: `{% include %}` is not available in an article"), "{}", stderr(&output));
}

#[test]
fn check_and_errors_print_control_characters_as_visible_escapes() {
    let root = tempfile::tempdir().unwrap();
    // A level is a name: ESC in it is refused at its cell, and the message shows it escaped.
    let dir = dataset(root.path(), ["direct\u{1b}]0;owned\u{7}", "nginx"], "Plain.\n");
    let output = Command::cargo_bin("analyze").unwrap().arg("check").arg(&dir).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(!stderr(&output).contains('\u{1b}') && !stderr(&output).contains('\u{7}'), "{:?}", stderr(&output));
    assert!(
        stderr(&output).contains("runs.csv:2:2: route: holds the control character '\\u{1b}': a level is one line of text"),
        "{}",
        stderr(&output)
    );

    // A bad value echoed in an error message is escaped the same way.
    let dir = dataset(&root.path().join("b"), ["direct", "nginx"], "Plain.\n");
    let requests = dir.join("requests.csv");
    let text = std::fs::read_to_string(&requests).unwrap().replacen("1.500", "1\u{1b}[2J", 1);
    std::fs::write(&requests, text).unwrap();
    let output = Command::cargo_bin("analyze").unwrap().arg("check").arg(&dir).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(!stderr(&output).contains('\u{1b}') && stderr(&output).contains("1\\u{1b}[2J"), "{}", stderr(&output));
}
