//! The cause hints through the binary, on the committed datasets: static-file-servers' http.server
//! at c=10 (listen backlog 5, a new connection per request) shows SYN retransmits in summary.json,
//! on both languages' pages and in the Markdown twin; gunicorn-slow-client shows no hint at all.

use crate::common::{repo, report};
use serde_json::Value;

/// The hints section of a rendered page, from its anchor to its end.
fn section(page: &str) -> Option<&str> {
    let start = page.find("<section id=\"hints-section\">")?;
    let rest = &page[start..];
    Some(&rest[..rest.find("</section>").unwrap_or(rest.len())])
}

#[test]
fn static_file_servers_hint_syn_retransmits_at_http_server_c10_in_every_output() {
    let dataset = repo().join("datasets/static-file-servers");
    let en = tempfile::tempdir().unwrap();
    report(&dataset, en.path(), "en");
    let summary: Value = serde_json::from_str(&std::fs::read_to_string(en.path().join("summary.json")).unwrap()).unwrap();
    let syn: Vec<&Value> = summary["hints"].as_array().unwrap().iter().filter(|h| h["kind"] == "syn_retransmit").collect();
    assert_eq!(syn.len(), 1, "{:#}", summary["hints"]);
    assert_eq!(syn[0]["condition_ids"][0], "server=http-server,concurrency=10");
    assert_eq!((syn[0]["slow"].as_u64(), syn[0]["near"].as_u64(), syn[0]["runs"].as_u64()), (Some(24), Some(24), Some(6)));

    let page = std::fs::read_to_string(en.path().join("index.html")).unwrap();
    let hints = section(&page).expect("the report has the hints section");
    assert!(hints.contains("a hint, not a measured cause"), "{hints}");
    assert!(
        hints.contains("24 of the 24 requests that took 1 s or longer took 1.00–1.04 s, just above the kernel&#x27;s SYN retransmission timeout (1 s), in 6 of 6 runs"),
        "{hints}"
    );
    let markdown = std::fs::read_to_string(en.path().join("report.md")).unwrap();
    assert!(markdown.contains("## Hints from the data") && markdown.contains("took 1.00–1.04 s"), "{markdown}");

    let ja = tempfile::tempdir().unwrap();
    report(&dataset, ja.path(), "ja");
    let page = std::fs::read_to_string(ja.path().join("index.html")).unwrap();
    let hints = section(&page).expect("the Japanese report has the hints section");
    assert!(hints.contains("データが示す手がかり") && hints.contains("測定した原因ではなく手がかりです"), "{hints}");
    assert!(hints.contains("1 s以上かかったリクエスト24件のうち24件が1.00〜1.04 sで"), "{hints}");
}

#[test]
fn a_dataset_whose_data_shows_no_cause_has_no_hints_section() {
    let out = tempfile::tempdir().unwrap();
    report(&repo().join("datasets/gunicorn-slow-client"), out.path(), "en");
    let summary: Value = serde_json::from_str(&std::fs::read_to_string(out.path().join("summary.json")).unwrap()).unwrap();
    assert!(summary.get("hints").is_none(), "{:#}", summary["hints"]);
    assert!(section(&std::fs::read_to_string(out.path().join("index.html")).unwrap()).is_none());
    assert!(!std::fs::read_to_string(out.path().join("report.md")).unwrap().contains("## Hints from the data"));
}
