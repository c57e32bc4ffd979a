//! An ab `-g` run whose summary counts failed requests imports (issue 38), where it was refused:
//! ab writes a row for every completed request and no status, so which rows failed is unknown.
//! The rows are the run's requests and its latencies, every one ranked; its errors are ab's own
//! count (its non-2xx responses and its receive failures), and that count is what every error
//! rate, the failures-first comparison and the SLOs judge. The run is real:
//! `fixtures/import/ab/failed-*` (`generate-ab-failures.sh`: `ab -r -n 200 -c 2 -g` against
//! `server.py fail`, which answers 500, resets, or a 200 of another length).

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import/ab").join(name)
}

fn analyze(args: &[&str]) -> Output {
    Command::cargo_bin("analyze").unwrap().args(args).output().unwrap()
}

fn said(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

fn ok(output: Output) -> String {
    assert!(output.status.success(), "{}", said(&output));
    String::from_utf8(output.stdout).unwrap()
}

/// Imports these files as run `id` of condition `route=a`.
fn import(dataset: &Path, id: &str, files: &[PathBuf]) -> Output {
    let mut args: Vec<String> = vec!["import".into()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    args.extend(["--into", dataset.to_str().unwrap(), "--run-id", id, "--factor", "route=a"].map(String::from));
    analyze(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

fn failed_run() -> [PathBuf; 2] {
    [fixture("failed-g.tsv"), fixture("failed-stdout.txt")]
}

fn clean_run() -> [PathBuf; 2] {
    [fixture("ab-g.tsv"), fixture("ab-stdout.txt")]
}

/// The integer ab printed after `label` in its summary (`Non-2xx responses:`, `Receive:`).
fn printed(label: &str) -> u64 {
    let text = std::fs::read_to_string(fixture("failed-stdout.txt")).unwrap();
    let at = text.find(label).unwrap_or_else(|| panic!("no {label}")) + label.len();
    let digits: String = text[at..].trim_start().chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap()
}

/// The -g file's total times (ms), one per data line, in the file's order.
fn gnuplot_ttimes() -> Vec<f64> {
    let text = std::fs::read_to_string(fixture("failed-g.tsv")).unwrap();
    text.lines().skip(1).map(|l| l.split('\t').nth(4).unwrap().parse().unwrap()).collect()
}

/// A page's text: tags dropped, entities restored, spaces collapsed.
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

fn report(dataset: &Path, out: &Path, lang: &str) -> Value {
    ok(analyze(&["report", dataset.to_str().unwrap(), "--out", out.to_str().unwrap(), "--lang", lang]));
    serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap()
}

fn page(path: PathBuf) -> String {
    text(&std::fs::read_to_string(path).unwrap())
}

#[test]
fn the_real_run_imports_its_rows_with_abs_count_of_failures() {
    let dir = tempfile::tempdir().unwrap();
    let dataset = dir.path().join("d");
    ok(import(&dataset, "failed", &failed_run()));
    let (non_2xx, receive, failed) = (printed("Non-2xx responses:"), printed("Receive:"), printed("Failed requests:"));
    assert_eq!((non_2xx, receive, failed), (20, 20, 103), "what ab printed");
    let runs = std::fs::read_to_string(dataset.join("runs.csv")).unwrap();
    assert!(runs.contains("ab.failures-unplaced(errors=40, requests=200, non_2xx=20, receive=20)"), "{runs}");
    let stats = std::fs::read_to_string(dataset.join("run_stats.csv")).unwrap();
    assert!(stats.lines().nth(1).unwrap().starts_with("failed,ab,floor-plus-one,200,40,"), "{stats}");

    let summary = report(&dataset, &dir.path().join("en"), "en");
    let run = &summary["runs"][0];
    let ttimes = gnuplot_ttimes();
    // The requests are the rows ab wrote, one per completed request.
    assert_eq!(run["requests"].as_u64(), Some(ttimes.len() as u64));
    assert_eq!(run["requests"], 200);
    // The errors are ab's: its non-2xx responses and its receive failures (a reset that ab also
    // counts as a length and an exception failure is one request), not Failed + Non-2xx (123).
    assert_eq!(
        run["requests_counted"],
        serde_json::json!({"value": 200, "errors": non_2xx + receive, "source": "rows + ab summary errors"})
    );
    assert_ne!(non_2xx + receive, failed + non_2xx);
    assert_eq!(run["error_rate"], 0.2);
    // The latencies are every row's: the p95 is the 190th of the 200 total times.
    let mut sorted = ttimes.clone();
    sorted.sort_by(f64::total_cmp);
    assert_eq!(run["percentiles_ms"]["95"].as_f64(), Some(sorted[189]));
    assert_eq!((run["percentile_ranks"]["95"].as_u64(), run["ok_responses"].as_u64()), (Some(190), Some(200)));
    let integrity = &summary["integrity"]["requests_counted"];
    assert_eq!(
        (integrity["value"].as_u64(), integrity["errors"].as_u64(), integrity["ok_responses"].as_u64()),
        (Some(200), Some(40), Some(160))
    );
    assert_eq!(integrity["unplaced_errors"], 40);
}

#[test]
fn the_report_and_run_pages_say_whose_count_the_errors_are_in_both_languages() {
    let dir = tempfile::tempdir().unwrap();
    let dataset = dir.path().join("d");
    ok(import(&dataset, "failed", &failed_run()));
    report(&dataset, &dir.path().join("en"), "en");
    report(&dataset, &dir.path().join("ja"), "ja");

    let run = page(dir.path().join("en/runs/failed.html"));
    assert!(run.contains("Error rate 20.00%"), "{run}");
    assert!(run.contains("2xx responses 160 (as ab counted them; its rows do not say which)"), "{run}");
    assert!(run.contains("Errors (non-2xx or no response) 40 (as ab counted them; its rows do not say which)"), "{run}");
    assert!(
        run.contains("ab counted 40 of these 200 requests without a 2xx response, and its rows do not say which: these percentiles rank every completed request, those 40 among them"),
        "{run}"
    );
    assert!(run.contains("HTTP statuses not known: ab's rows say none, and each was given 200"), "{run}");
    let index = page(dir.path().join("en/index.html"));
    assert!(
        index.contains(
            "Errors (non-2xx or no response) 40 (non-2xx: 0, no response: 0, 40 as ab counted them, in rows that do not say which)"
        ),
        "{index}"
    );
    assert!(index.contains("2xx responses 160 (160 as ab counted them, in rows that do not say which)"), "{index}");
    // The failing condition's percentiles are not "2xx responses only": they rank the failures too.
    assert!(
        index.contains("failed requests ranked too: ab's rows do not say which; 20.00% of requests failed (median of runs)"),
        "{index}"
    );
    assert!(!index.contains("2xx responses only"), "{index}");

    let run = page(dir.path().join("ja/runs/failed.html"));
    assert!(run.contains("エラー率 20.00%"), "{run}");
    assert!(run.contains("エラー（2xx以外または応答なし） 40件（abの集計値。どの行かは不明）"), "{run}");
    assert!(run.contains("abはこの200件のリクエストのうち40件を2xxの応答なしと数えましたが、行にはどれかが書かれていません。"), "{run}");
    assert!(run.contains("abは200件のリクエストのうち40件を2xxの応答なしと数えた（2xx以外の応答20件、受信の失敗20件）"), "the note: {run}");
    let index = page(dir.path().join("ja/index.html"));
    assert!(
        index.contains("失敗したリクエストも順位に含む。abの行はどれが失敗か示さない。リクエストの20.00%が失敗（回の中央値）"),
        "{index}"
    );
}

#[test]
fn compare_judges_its_failures_first_and_check_slo_sees_its_error_share() {
    let dir = tempfile::tempdir().unwrap();
    let (base, cand) = (dir.path().join("base"), dir.path().join("cand"));
    for r in 1..=3 {
        ok(import(&base, &format!("clean-{r}"), &clean_run()));
        ok(import(&cand, &format!("failed-{r}"), &failed_run()));
    }
    let output = analyze(&["compare", base.to_str().unwrap(), cand.to_str().unwrap(), "--fail-on-regression", "10", "--format", "json"]);
    assert_eq!(output.status.code(), Some(1), "{}", said(&output));
    let json: Value = serde_json::from_str(&String::from_utf8_lossy(&output.stdout)).unwrap();
    let c = &json["conditions"][0];
    assert_eq!((c["decided_by"].as_str(), c["failures"]["verdict"].as_str()), (Some("failures"), Some("rise")), "{c}");
    assert_eq!((c["failures"]["cand"]["errors"].as_u64(), c["failures"]["cand"]["requests"].as_u64()), (Some(120), Some(600)));
    assert_eq!((c["failures"]["base"]["errors"].as_u64(), c["failures"]["base"]["requests"].as_u64()), (Some(0), Some(6000)));
    // By latency alone the candidate (p95 1 ms) would be the faster.
    assert!(c["ratio"].as_f64().unwrap() < 1.0, "{c}");
    let output = analyze(&["compare", base.to_str().unwrap(), cand.to_str().unwrap(), "--fail-on-regression", "10"]);
    let said_text = said(&output);
    assert!(said_text.contains("a: candidate worse: more requests failed, fails the gate"), "{said_text}");
    assert!(said_text.contains("failed 0.00% → 20.00%"), "{said_text}");

    std::fs::write(cand.join("dataset.toml"), "title = \"ab with failures\"\n[[slo]]\nmetric = \"p95\"\nmax = 10\n").unwrap();
    let output = analyze(&["check", cand.to_str().unwrap(), "--slo"]);
    assert_eq!(output.status.code(), Some(1), "{}", said(&output));
    let text = said(&output);
    assert!(text.contains("slo a: p95 ≤ 10 ms: fail: 20.00% of requests failed (at most 1%), median 1 ms, 0 of 3 runs met it"), "{text}");
    assert!(text.contains("errors: 120 (120 as ab counted them, in the rows of 3 runs that do not say which)"), "{text}");
}

#[test]
fn rows_that_are_not_abs_complete_requests_are_refused_at_their_place() {
    let dir = tempfile::tempdir().unwrap();
    let gnuplot = std::fs::read_to_string(fixture("failed-g.tsv")).unwrap();
    let last = gnuplot.lines().last().unwrap();
    let more = dir.path().join("more-g.tsv");
    std::fs::write(&more, format!("{gnuplot}{last}\n")).unwrap();
    let fewer = dir.path().join("fewer-g.tsv");
    let lines: Vec<&str> = gnuplot.lines().collect();
    std::fs::write(&fewer, lines[..lines.len() - 1].iter().map(|l| format!("{l}\n")).collect::<String>()).unwrap();
    let dataset = dir.path().join("d");
    let stdout = fixture("failed-stdout.txt");

    let output = import(&dataset, "more", &[more.clone(), stdout.clone()]);
    assert_eq!(output.status.code(), Some(2), "{}", said(&output));
    let message = said(&output);
    assert!(message.contains(&format!("{}:202:1: row 201 of 201, past the 200 complete requests", more.display())), "{message}");
    assert!(message.contains("failed-stdout.txt:20:25"), "{message}");

    let output = import(&dataset, "fewer", &[fewer, stdout.clone()]);
    assert_eq!(output.status.code(), Some(2), "{}", said(&output));
    let message = said(&output);
    assert!(message.contains(&format!("{}:20:25: ab counted 200 complete requests, but", stdout.display())), "{message}");
    assert!(message.contains("has 199 rows"), "{message}");
    assert!(!dataset.exists(), "a refused import leaves nothing");
}
