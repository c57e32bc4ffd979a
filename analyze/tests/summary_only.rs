//! Runs imported from a tool's summary alone (no per-request rows) show the tool's counts
//! wherever a count appears, and a headline the tool printed, marked as the tool's, never 0 and
//! never a bare dash: the real wrk, autocannon and Artillery outputs of the import fixtures.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import")
}

fn analyze(args: &[&str]) -> String {
    let output = Command::cargo_bin("analyze").unwrap().args(args).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

/// A dataset of one run per tool (factor `tool`), each from its tool's summary file; `rows` adds
/// a run of hey with its rows.
fn dataset(dir: &Path, rows: bool) -> PathBuf {
    let dataset = dir.join("tools");
    let into = dataset.to_str().unwrap();
    let mut runs = vec![("wrk", "wrk/wrk.txt"), ("autocannon", "autocannon/autocannon.json"), ("artillery", "artillery/report.json")];
    if rows {
        runs.insert(0, ("hey", "hey/hey.csv"));
    }
    for (tool, file) in runs {
        let file = fixtures().join(file);
        analyze(&["import", file.to_str().unwrap(), "--into", into, "--run-id", tool, "--factor", &format!("tool={tool}")]);
    }
    dataset
}

fn report(dataset: &Path, out: &Path, lang: &str) {
    analyze(&["report", dataset.to_str().unwrap(), "--out", out.to_str().unwrap(), "--lang", lang]);
}

/// A page's text: tags dropped, the entities of quotes and slashes restored, spaces collapsed.
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
    let out = out.replace("&#x27;", "'").replace("&quot;", "\"").replace("&#x2F;", "/");
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The HTML of the table with this id.
fn table<'a>(page: &'a str, id: &str) -> &'a str {
    let start = page.find(&format!("id=\"{id}\"")).unwrap_or_else(|| panic!("no table {id}"));
    let end = page[start..].find("</table>").unwrap();
    &page[start..start + end]
}

/// The row of a table whose header cell is `name`, as text.
fn row(table: &str, name: &str) -> String {
    let rows: Vec<&str> = table.split("<tr>").collect();
    let found = rows.iter().find(|r| text(r).starts_with(&format!("{name} "))).unwrap_or_else(|| panic!("no row {name}: {table}"));
    text(found)
}

#[test]
fn summary_json_keeps_the_rows_requests_and_gives_the_tools_counts_with_their_source() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    report(&dataset(dir.path(), false), &out, "en");
    let summary: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    let run = |id: &str| summary["runs"].as_array().unwrap().iter().find(|r| r["run_id"] == id).unwrap().clone();
    // The tools' own counts: wrk's "7654 requests in 3.01s", autocannon's 2,000, Artillery's 1,000 with 500 4xx/5xx.
    for (id, requests, errors, source) in
        [("wrk", 7654, 0, "wrk summary"), ("autocannon", 2000, 0, "autocannon summary"), ("artillery", 1000, 500, "artillery summary")]
    {
        let run = run(id);
        assert_eq!(run["requests"], 0, "{id}: requests stays the rows'");
        assert_eq!(run["requests_counted"], serde_json::json!({ "value": requests, "errors": errors, "source": source }), "{id}");
    }
    // wrk prints p50, p75, p90 and p99: its p99 stands for the p95, at the rank its rule takes.
    assert_eq!(
        run("wrk")["headline_printed"],
        serde_json::json!({ "percentile": "99", "value_ms": 6.53, "rank": 7578, "ranked": 7654, "tool": "wrk" })
    );
    assert_eq!(run("wrk")["headline_ms"], serde_json::Value::Null, "never in the headline itself");
    assert_eq!(run("artillery")["headline_printed"]["percentile"], "95");
    assert_eq!(run("autocannon")["headline_printed"]["percentile"], "97.5");
    let counted = &summary["integrity"]["requests_counted"];
    assert_eq!(counted["value"], 7654 + 2000 + 1000);
    assert_eq!(counted["errors"], 500);
    assert_eq!(counted["by_tools"], 7654 + 2000 + 1000);
    assert_eq!(summary["integrity"]["requests"], 0);
    let wrk = summary["conditions"].as_array().unwrap().iter().find(|c| c["id"] == "tool=wrk").unwrap();
    assert_eq!(wrk["headline_printed"]["percentile"], "99");
    assert_eq!(wrk["headline_printed"]["median"], 6.53);
    // runs.csv carries the counts and the printed headline too.
    let csv = std::fs::read_to_string(out.join("runs.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let wrk_line: Vec<&str> = csv.lines().find(|l| l.starts_with("wrk,")).unwrap().split(',').collect();
    let at = |name: &str| wrk_line[header.iter().position(|h| *h == name).unwrap()];
    assert_eq!((at("requests"), at("requests_counted"), at("requests_counted_source")), ("0", "7654", "wrk summary"));
    assert_eq!((at("headline_printed_percentile"), at("headline_printed_ms")), ("99", "6.53"));
}

#[test]
fn the_report_shows_the_tools_counts_and_printed_headlines_never_zero_or_a_bare_dash() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    report(&dataset(dir.path(), false), &out, "en");
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    let all = text(&page);
    assert!(all.contains("Requests 10,654 (as their tools counted them: no run has per-request rows)"), "{all}");
    assert!(all.contains("Errors (non-2xx or no response) 500 (as their tools counted them)"), "{all}");
    let runs = table(&page, "runs");
    assert_eq!(
        row(runs, "wrk"),
        "wrk wrk 1 ok 6.53 p99 as wrk printed it; no p95 printed 7,578/7,654 by wrk's rule 0 as wrk counted them \
         wrk counts 3xx responses as successes and prints no minimum; it records whole microseconds and prints two decimals of each time's unit"
    );
    assert!(row(runs, "artillery").contains("63.4 as Artillery printed it 950/1,000 by Artillery's rule 500 as Artillery counted them"));
    let headline = table(&page, "headline");
    assert!(!headline.contains(">–<"), "no condition's headline is a bare dash: {headline}");
    let cells = text(headline);
    assert!(cells.contains("6.53 n = 1 p99 as wrk printed it; no p95 printed"), "{cells}");
    assert!(cells.contains("29 n = 1 p97.5 as autocannon printed it; no p95 printed"), "{cells}");
    assert!(cells.contains("50.00% errors 63.4 n = 1 as Artillery printed it"), "{cells}");
    assert!(all.contains("wrk, p99 6.53 ms (as wrk printed it; no p95 printed)"), "the lead: {all}");
    // Not drawn beside p95s, and not reviewed: said so.
    let chart = std::fs::read_to_string(out.join("figures/headline-by-condition.svg")).unwrap();
    assert!(chart.contains("Not drawn: artillery, autocannon and wrk"), "{chart}");
    let variance = text(&std::fs::read_to_string(out.join("variance.html")).unwrap());
    assert!(variance.contains("Not reviewed: artillery, autocannon and wrk"), "{variance}");
    assert!(variance.contains("wrk: p99 6.53 ms (as wrk printed it; no p95 printed)"), "{variance}");
    assert!(variance.contains("500 of 1,000 requests got no 2xx response (as Artillery counted them)"), "{variance}");
    let run_page = text(&std::fs::read_to_string(out.join("runs/wrk.html")).unwrap());
    assert!(run_page.contains("p95 p99 6.53 ms (as wrk printed it; no p95 printed)"), "{run_page}");
}

#[test]
fn the_japanese_report_says_the_same_in_japanese() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    report(&dataset(dir.path(), false), &out, "ja");
    let all = text(&std::fs::read_to_string(out.join("index.html")).unwrap());
    assert!(all.contains("リクエスト数 10,654件（各ツールの集計値。リクエストごとの行のある測定はありません）"), "{all}");
    assert!(all.contains("6.53 n = 1 wrkが表示したp99（p95の表示なし）"), "{all}");
    assert!(all.contains("wrkはp99 6.53 ms（wrkの表示値。p95の表示なし）"), "{all}");
    let variance = text(&std::fs::read_to_string(out.join("variance.html")).unwrap());
    assert!(variance.contains("artillery、autocannon、wrkはレビューの対象外です"), "{variance}");
}

#[test]
fn beside_runs_with_rows_the_integrity_section_says_which_part_the_tool_counted() {
    let dir = tempfile::tempdir().unwrap();
    let data = dataset(dir.path(), true);
    let out = dir.path().join("out");
    report(&data, &out, "en");
    let all = text(&std::fs::read_to_string(out.join("index.html")).unwrap());
    // hey's 2,000 rows and the three tools' 10,654.
    assert!(all.contains("Requests 12,654 (10,654 of them as their tools counted them, in 3 runs without per-request rows)"), "{all}");
    assert!(all.contains("Errors (non-2xx or no response) 500 (non-2xx: 0, no response: 0, 500 as their tools counted them)"), "{all}");
    let check = analyze(&["check", data.to_str().unwrap()]);
    assert!(check.contains("requests: 12,654 (10,654 as the tools of 3 runs without rows counted them), errors: 500"), "{check}");
    assert!(check.contains("wrk: p99 6.53 ms (as wrk printed it; no p95 printed; 1 run)"), "{check}");
}
