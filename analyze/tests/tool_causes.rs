//! The run page's sentences on why a tool's own number differs from ours, computed from the run:
//! the committed `tools-compared` dataset (ab with its -g rows and stdout, siege with its -v rows
//! and summary, summary-only runs); hey's rows and a summary of another run are refused together.

use crate::common::{repo, report};
use assert_cmd::Command;
use std::path::Path;

/// The notes under the tool's table, as text (tags dropped, entities of quotes restored).
fn notes(page: &str) -> Vec<String> {
    let start = page.find("id=\"tool-numbers\"").expect("the run page has the tool's table");
    let rest = &page[start..];
    let end = rest.find("</section>").unwrap_or(rest.len());
    rest[..end]
        .split("<p")
        .skip(1)
        .map(|p| {
            let inner = &p[p.find('>').unwrap() + 1..p.find("</p>").unwrap()];
            inner.replace("&#x27;", "'").replace("&quot;", "\"").replace("&#x2F;", "/")
        })
        .collect()
}

#[test]
fn ab_run_page_explains_its_requests_per_s_by_the_whole_second_send_times() {
    let out = tempfile::tempdir().unwrap();
    report(&repo().join("datasets/tools-compared"), out.path(), "en");
    let notes = notes(&std::fs::read_to_string(out.path().join("runs/ab.html")).unwrap());
    // 2,000 requests at ab's 1,929.89/s (shown whole from 1,000 up) is 1.036 s; the rows' 997.5/s over 2,000 responses is 2.005 s.
    let rate = notes.iter().find(|n| n.starts_with("ab printed 1,930 requests/s")).expect("the rate sentence");
    assert!(rate.contains("2,000 requests over the 1.036 s it timed"), "{rate}");
    assert!(rate.contains("From the rows, 997.5: 2,000 responses over 2.005 s"), "{rate}");
    assert!(rate.contains("to the whole second") && rate.contains("here by 0.969 s"), "{rate}");
    // ab ranks floor(p·n/100)+1: at p95 of 2,000 values the 1,901st, where the nearest rank is the 1,900th.
    assert!(
        notes.iter().any(|n| n.contains("1,901st of 2,000, where the nearest rank is the 1,900th"))
            || notes.iter().any(|n| n.contains("same value")),
        "{notes:#?}"
    );
    let last = notes.last().unwrap();
    assert!(last.starts_with("Printed by ab: "), "the last note is a sentence of its own: {last}");
}

#[test]
fn siege_run_page_says_its_rows_have_no_send_times() {
    let out = tempfile::tempdir().unwrap();
    report(&repo().join("datasets/tools-compared"), out.path(), "ja");
    let notes = notes(&std::fs::read_to_string(out.path().join("runs/siege.html")).unwrap());
    assert!(notes.iter().any(|n| n.contains("行には送信時刻がなく")), "{notes:#?}");
    assert!(notes.last().unwrap().starts_with("Siegeの表示値："), "{notes:#?}");
}

#[test]
fn a_summary_only_run_page_ends_with_a_capitalised_sentence() {
    let out = tempfile::tempdir().unwrap();
    report(&repo().join("datasets/tools-compared"), out.path(), "en");
    let notes = notes(&std::fs::read_to_string(out.path().join("runs/oha.html")).unwrap());
    assert!(notes.iter().any(|n| n.contains("This run has no rows")), "{notes:#?}");
    assert!(notes.last().unwrap().starts_with("Printed by oha: Requests/s 554.447 "), "{notes:#?}");
}

#[test]
fn a_summary_only_run_page_gives_the_tool_s_counts_not_zero_requests() {
    let out = tempfile::tempdir().unwrap();
    report(&repo().join("datasets/tools-compared"), out.path(), "en");
    let page = std::fs::read_to_string(out.path().join("runs/artillery.html")).unwrap();
    // Artillery counted 1,000 requests, 500 of them 4xx or 5xx: none is "0" on its page.
    assert!(page.contains("<dt>Requests</dt><dd>1,000 (as Artillery counted them: the run has no per-request rows)</dd>"), "{page}");
    assert!(page.contains("<dd>500 (as Artillery counted them)</dd>"), "2xx and errors");
    assert!(!page.contains("<dd>0</dd>"), "no count of zero rows");
    let page = std::fs::read_to_string(out.path().join("runs/hdrhistogram.html")).unwrap();
    assert!(page.contains("not known: HdrHistogram&#x27;s output does not count failed requests"), "a histogram counts no failures");
}

#[test]
fn hey_rows_beside_the_summary_of_another_run_are_refused() {
    // hey writes its CSV or its summary, never both: hey.csv and hey-summary.txt are two runs, and
    // their values at the ranks hey takes disagree, so they are refused together.
    let dir = tempfile::tempdir().unwrap();
    let dataset = dir.path().join("hey");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import/hey");
    let output = Command::cargo_bin("analyze")
        .unwrap()
        .args(["import"])
        .arg(fixtures.join("hey.csv"))
        .arg(fixtures.join("hey-summary.txt"))
        .args(["--into", dataset.to_str().unwrap(), "--run-id", "hey"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("are they from the same run?") && stderr.contains("hey-summary.txt:"), "{stderr}");
    assert!(!dataset.exists());
}
