//! A note several runs share (an importer's 300-character tool note on every ab run) is listed
//! once under the run table and named by its number in the rows; a note of one run stays in its row.

use crate::common::report;

#[test]
fn a_note_shared_by_runs_is_listed_once_and_named_by_number() {
    let temp = tempfile::tempdir().unwrap();
    let dataset = temp.path().join("notes");
    std::fs::create_dir_all(&dataset).unwrap();
    let shared = "the tool prints whole milliseconds";
    std::fs::write(
        dataset.join("runs.csv"),
        format!(
            "run_id,route,repetition,started_at_utc,status,note\n\
             a,x,1,2026-11-30T01:00:00Z,ok,{shared}\nb,x,2,2026-11-30T01:01:00Z,ok,{shared}\nc,y,1,2026-11-30T01:02:00Z,ok,restarted the server first\n"
        ),
    )
    .unwrap();
    let mut requests = String::from("run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\n");
    for run in ["a", "b", "c"] {
        for seq in 0..5 {
            requests += &format!("{run},{seq},{},{},1.5,200,12\n", seq * 100, seq * 100);
        }
    }
    std::fs::write(dataset.join("requests.csv"), requests).unwrap();
    for (lang, reference) in [("en", "note 1"), ("ja", "注1")] {
        let out = temp.path().join(lang);
        report(&dataset, &out, lang);
        let page = std::fs::read_to_string(out.join("index.html")).unwrap();
        let runs = &page[page.find("<section id=\"run-section\">").unwrap()..];
        let runs = &runs[..runs.find("</section>").unwrap()];
        assert_eq!(runs.matches(shared).count(), 1, "{lang}: listed once");
        assert_eq!(runs.matches(&format!("\">{reference}</td>")).count(), 2, "{lang}: both rows name it");
        assert!(runs.contains("\">restarted the server first</td>"), "{lang}: one run's note stays in its row");
        let markdown = std::fs::read_to_string(out.join("report.md")).unwrap();
        assert!(markdown.contains(&format!("1. {shared}")), "{lang}: the Markdown twin lists it");
    }
}
