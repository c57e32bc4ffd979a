//! What `analyze import` reads: every cut point of every summary fixture is refused with its
//! place (or, where only what carries no number is cut, gives the same numbers); the files of one
//! invocation must agree; every fixture and every subset of an invocation's files imports and then
//! passes `analyze check`, or is refused with the dataset left byte for byte; and the fixes for
//! ab, wrk and the tools' ranks hold on real files of those tools with errors.

use analyze::import::{read_run, ImportedRun};
use assert_cmd::cargo::cargo_bin;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import").join(path)
}

fn bytes(path: &str) -> Vec<u8> {
    std::fs::read(fixture(path)).unwrap()
}

fn analyze() -> Command {
    Command::new(cargo_bin("analyze"))
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

fn import(dataset: &Path, run_id: &str, files: &[PathBuf]) -> Output {
    analyze().arg("import").args(files).arg("--into").arg(dataset).args(["--run-id", run_id, "--factor", "tool=t"]).output().unwrap()
}

/// The numbers of an imported run, without the places they were read at and the notes.
fn numbers(run: &ImportedRun) -> String {
    let reported = run.reported.as_ref().map(|r| {
        let value = |p: &Option<analyze::import::Printed>| p.as_ref().map(|p| p.value);
        format!(
            "{} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
            r.rule.name(),
            r.requests.as_ref().map(|c| c.value),
            r.errors.as_ref().map(|c| c.value),
            r.ranked,
            value(&r.requests_per_s),
            value(&r.min_ms),
            value(&r.mean_ms),
            value(&r.max_ms),
            value(&r.duration_s),
            r.percentiles_ms.iter().map(|(k, v)| (*k, v.value)).collect::<Vec<_>>()
        )
    });
    format!("{reported:?} {:?} {:?}", run.rows, run.started.as_ref().map(|s| s.unix_ns))
}

/// The summary fixtures, each with the files of its invocation it is imported with (unchanged).
/// An HdrHistogram interval log is not among them: it has no end (a log cut after a whole interval
/// is the log of a shorter run), so only a cut line is refused; beside the .hgrm of its run, the
/// counts of the two disagree (see `files_of_one_run_of_the_new_formats_agree_...`).
const SUMMARIES: [(&str, &[&str]); 31] = [
    ("ab/ab-stdout.txt", &[]),
    ("ab/ab-e.csv", &["ab/ab-stdout.txt"]),
    ("ab/mixed-stdout.txt", &[]),
    ("ab/mixed-e.csv", &["ab/mixed-stdout.txt"]),
    ("ab/reset-stdout.txt", &[]),
    ("ab/odd-stdout.txt", &[]),
    ("hey/hey-summary.txt", &[]),
    ("hey/mixed-summary.txt", &[]),
    ("hey/reset-summary.txt", &[]),
    ("wrk/wrk.txt", &[]),
    ("wrk/closing.txt", &[]),
    ("siege/siege-summary.txt", &[]),
    ("siege/mixed-summary.txt", &["siege/mixed-verbose.txt"]),
    ("siege/siege.json", &[]),
    ("siege/mixed.json", &[]),
    ("siege/mixed.log", &[]),
    ("locust/run_stats.csv", &[]),
    ("locust/mixed_stats.csv", &[]),
    ("locust/mixed.json", &[]),
    ("oha/oha.json", &[]),
    ("oha/reset.json", &[]),
    ("oha/db.json", &["oha/oha.db"]),
    ("autocannon/autocannon.json", &[]),
    ("autocannon/mixed.json", &[]),
    ("autocannon/mixed-exclude.json", &[]),
    ("artillery/report.json", &[]),
    ("k6/summary-export.json", &[]),
    ("k6/handle-summary.json", &[]),
    ("hdrhistogram/load.hgrm", &[]),
    ("hdrhistogram/load.hgrm", &["hdrhistogram/load.hlog"]),
    ("wrk2/wrk2.txt", &[]),
];

#[test]
fn every_cut_of_every_summary_is_refused_at_its_place_or_changes_no_number() {
    let mut report = Vec::new();
    for (file, companions) in SUMMARIES {
        let whole = bytes(file);
        let name = format!("/cut/{}", file.rsplit('/').next().unwrap());
        let with = |content: Vec<u8>| {
            let mut files = vec![(name.clone(), content)];
            files.extend(companions.iter().map(|c| (format!("/whole/{c}"), bytes(c))));
            read_run(&files, None)
        };
        let expected = numbers(&with(whole.clone()).unwrap_or_else(|e| panic!("{file} whole: {e}")));
        let (mut refused, mut same) = (0, 0);
        for cut in 0..whole.len() {
            match with(whole[..cut].to_vec()) {
                Err(errors) => {
                    let first = &errors.0[0];
                    assert!(
                        first.file == name || first.message.contains(&name),
                        "{file} cut at {cut}: the error names another file: {first}"
                    );
                    refused += 1;
                }
                Ok(run) => {
                    assert_eq!(numbers(&run), expected, "{file} cut at byte {cut} of {} gives other numbers", whole.len());
                    // Only what carries no number may be missing: blank lines, a trailer, a message.
                    same += 1;
                }
            }
        }
        report.push(format!("{file}: {} cuts, {refused} refused, {same} with the same numbers", whole.len()));
    }
    eprintln!("{}", report.join("\n"));
}

#[test]
fn a_cut_ab_or_hey_summary_is_refused_where_it_stops() {
    let cases =
        [("ab/ab-stdout.txt", 664, "ab-stdout.txt:"), ("hey/hey-summary.txt", 664, "hey-summary.txt:"), ("wrk/wrk.txt", 391, "wrk.txt:")];
    for (file, cut, place) in cases {
        let content = bytes(file)[..cut].to_vec();
        let error = read_run(&[(file.to_string(), content)], None).unwrap_err();
        assert!(error.to_string().contains(place), "{file}: {error}");
    }
}

/// Refused with a message naming both files' places.
fn refused_with_both(files: &[(&str, Vec<u8>)], first: &str, second: &str) {
    let named: Vec<(String, Vec<u8>)> = files.iter().map(|(n, b)| (n.to_string(), b.clone())).collect();
    let error = read_run(&named, None).unwrap_err().to_string();
    assert!(error.contains(first) && error.contains(second), "expected {first} and {second} in: {error}");
}

#[test]
fn files_that_are_not_of_one_run_are_refused_with_both_places() {
    // Two ab stdouts of one invocation: there is one.
    refused_with_both(&[("a.txt", bytes("ab/ab-stdout.txt")), ("b.txt", bytes("ab/mixed-stdout.txt"))], "b.txt", "a.txt");
    // ab -e of one run beside the stdout of another.
    refused_with_both(&[("e.csv", bytes("ab/mixed-e.csv")), ("stdout.txt", bytes("ab/ab-stdout.txt"))], "e.csv:", "stdout.txt:");
    // hey's CSV of one run beside the summary of another (hey writes one or the other).
    refused_with_both(&[("hey.csv", bytes("hey/hey.csv")), ("summary.txt", bytes("hey/mixed-summary.txt"))], "hey.csv", "summary.txt:");
    // Locust's --json of one run beside the _stats.csv of another; and the two of one run (Locust
    // writes the CSV once a second, the JSON at the end: 2,054 and 2,531 requests).
    refused_with_both(&[("s.csv", bytes("locust/run_stats.csv")), ("l.json", bytes("locust/locust.json"))], "s.csv:", "l.json:");
    refused_with_both(
        &[("s.csv", bytes("locust/both_stats.csv")), ("l.json", bytes("locust/both.json"))],
        "s.csv:3:13: 2054 requests here but 2531 at l.json:7:9",
        "once a second",
    );
    // siege's -v lines of one run beside the summary of another.
    refused_with_both(&[("v.txt", bytes("siege/siege-verbose.txt")), ("s.txt", bytes("siege/mixed-summary.txt"))], "v.txt", "s.txt:");
}

#[test]
fn files_of_one_run_of_the_new_formats_agree_and_files_of_two_runs_are_refused_with_both_places() {
    // oha's sqlite rows and its JSON summary of the same run agree (counts, statuses, ranks) ...
    assert!(read_run(&[("oha.db".into(), bytes("oha/oha.db")), ("db.json".into(), bytes("oha/db.json"))], None).is_ok());
    // ... but not with the summary of another run.
    refused_with_both(&[("oha.db", bytes("oha/oha.db")), ("oha.json", bytes("oha/oha.json"))], "oha.db", "oha.json:");
    // The Java library's interval log and percentile distribution of one histogram agree ...
    let both = read_run(&[("l.hgrm".into(), bytes("hdrhistogram/load.hgrm")), ("l.hlog".into(), bytes("hdrhistogram/load.hlog"))], None);
    assert_eq!(both.unwrap().reported.unwrap().requests.unwrap().value, 3000);
    // ... and a log without its last interval (a log cut after a whole line) does not.
    let log = String::from_utf8(bytes("hdrhistogram/load.hlog")).unwrap();
    let shorter: String = log.lines().take(log.lines().count() - 1).map(|l| format!("{l}\n")).collect();
    refused_with_both(&[("l.hgrm", bytes("hdrhistogram/load.hgrm")), ("l.hlog", shorter.into_bytes())], "l.hgrm:", "l.hlog:");
    // autocannon with and without --excludeErrorStats are two runs of one tool: refused as two files of one format.
    refused_with_both(
        &[("a.json", bytes("autocannon/mixed.json")), ("b.json", bytes("autocannon/mixed-exclude.json"))],
        "b.json",
        "a.json",
    );
}

#[test]
fn the_note_of_a_run_of_two_files_states_each_rule_once() {
    let note = |files: &[(&str, &str)]| {
        let files: Vec<(String, Vec<u8>)> = files.iter().map(|(name, path)| ((*name).to_string(), bytes(path))).collect();
        let notes = read_run(&files, None).unwrap().notes;
        analyze::render::i18n::notes::note_text(&analyze::model::Note::of(&notes), analyze::model::Lang::En)
    };
    // oha's sqlite rows and its JSON summary both name oha's rank rule: the run's note says it once.
    let oha = note(&[("page.db", "oha/page.db"), ("page-db.json", "oha/page-db.json")]);
    assert_eq!(oha.matches("floor(p·n/100)+1").count(), 1, "{oha}");
    // The log and the distribution of one histogram state its precision once, and say which file
    // records ns and which prints ms rather than calling the same values both.
    let hdr = note(&[("load.hlog", "hdrhistogram/load.hlog"), ("load.hgrm", "hdrhistogram/load.hgrm")]);
    assert_eq!(hdr.matches("3 significant digits").count(), 1, "{hdr}");
    assert!(hdr.contains("the log records ns") && hdr.contains("the .hgrm prints times in ms"), "{hdr}");
    // Artillery's run length in seconds, as every other duration of a note.
    let artillery = note(&[("report.json", "artillery/report.json")]);
    assert!(artillery.contains("the run lasted 25.076 s"), "{artillery}");
}

#[test]
fn a_summary_whose_numbers_contradict_each_other_is_refused_with_both_places() {
    let edit = |file: &str, from: &str, to: &str| {
        let text = String::from_utf8(bytes(file)).unwrap();
        assert!(text.contains(from), "{file} has {from:?}");
        (file.rsplit('/').next().unwrap().to_string(), text.replacen(from, to, 1).into_bytes())
    };
    let cases = [
        // ab: 99,999 requests/s for 2,000 requests in 1.036 s; p95 below p90; errors above requests.
        (edit("ab/ab-stdout.txt", "1929.89 [#/sec]", "99999.00 [#/sec]"), "ab-stdout.txt:32:", "ab-stdout.txt:27:"),
        (edit("ab/ab-stdout.txt", "  95%      5", "  95%      3"), "ab-stdout.txt:50:", "ab-stdout.txt:49:"),
        (edit("ab/mixed-stdout.txt", "Non-2xx responses:      102", "Non-2xx responses:      1002"), "mixed-stdout.txt:", "requests"),
        // hey: p50 above p75; the slowest below the fastest.
        (edit("hey/hey-summary.txt", "50% in 0.0015 secs", "50% in 0.0019 secs"), "hey-summary.txt:30:", "hey-summary.txt:29:"),
        (edit("hey/hey-summary.txt", "Slowest:\t0.0258", "Slowest:\t0.0001"), "hey-summary.txt:5:", "hey-summary.txt:4:"),
        // wrk: p99 above its max.
        (edit("wrk/wrk.txt", "99%    6.53ms", "99%   16.53ms"), "wrk.txt:10:", "wrk.txt:4:"),
    ];
    for ((name, content), first, second) in cases {
        let error = read_run(&[(name.clone(), content)], None).unwrap_err().to_string();
        assert!(error.contains(first) && error.contains(second), "{name}: expected {first} and {second} in: {error}");
    }
}

/// Every file under a folder with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir).map_or_else(
        |_| BTreeMap::new(),
        |entries| {
            entries
                .map(|e| e.unwrap().path())
                .filter(|p| p.is_file())
                .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
                .collect()
        },
    )
}

/// Each tool's files of one invocation (real outputs, or for k6, vegeta and JMeter their
/// documented formats).
const INVOCATIONS: [&[&str]; 29] = [
    &["ab/ab-g.tsv", "ab/ab-e.csv", "ab/ab-stdout.txt"],
    &["ab/mixed-g.tsv", "ab/mixed-e.csv", "ab/mixed-stdout.txt"],
    &["ab/reset-e.csv", "ab/reset-stdout.txt"],
    &["ab/odd-g.tsv", "ab/odd-stdout.txt"],
    &["ab/errors-g.tsv", "ab/errors-stdout.txt"],
    &["ab/aborted-stdout.txt"],
    &["hey/hey.csv"],
    &["hey/hey-summary.txt"],
    &["hey/mixed.csv"],
    &["hey/mixed-summary.txt"],
    &["hey/reset.csv"],
    &["hey/reset-summary.txt"],
    &["wrk/wrk.txt"],
    &["wrk/closing.txt", "wrk/close.txt"],
    &["siege/siege-verbose.txt", "siege/siege-summary.txt", "siege/siege.log"],
    &["siege/mixed-verbose.txt", "siege/mixed-summary.txt", "siege/mixed.log"],
    &["siege/siege.json", "siege/mixed.json"],
    &["siege/same-run.json", "siege/same-run.log"],
    &["locust/run_stats.csv", "locust/run_stats_history.csv", "locust/run_failures.csv", "locust/run_exceptions.csv"],
    &["locust/mixed_stats.csv", "locust/mixed_stats_history.csv", "locust/mixed_failures.csv", "locust/mixed_exceptions.csv"],
    &["locust/locust.json", "locust/mixed.json", "oha/oha.json", "oha/mixed.json", "oha/reset.json"],
    &["k6/k6.json", "k6/k6.csv", "vegeta/vegeta.csv", "vegeta/vegeta.json", "jmeter/jmeter.jtl"],
    &["autocannon/autocannon.json", "autocannon/mixed.json", "autocannon/mixed-exclude.json"],
    &["artillery/report.json"],
    &["oha/oha.csv", "oha/mixed.csv"],
    &["oha/oha.db", "oha/db.json", "oha/oha.json"],
    &["k6/summary-export.json", "k6/handle-summary.json", "k6/k6.json"],
    &["hdrhistogram/load.hgrm", "hdrhistogram/load.hlog"],
    &["wrk2/wrk2.txt", "wrk/wrk.txt"],
];

#[test]
fn every_fixture_and_subset_imports_and_passes_check_or_is_refused_unchanged() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("d");
    assert!(import(&dataset, "base", &[fixture("hey/hey.csv")]).status.success());
    let (mut imported, mut refused) = (0, 0);
    for (i, files) in INVOCATIONS.iter().enumerate() {
        for mask in 1u32..(1 << files.len()) {
            let subset: Vec<PathBuf> = files.iter().enumerate().filter(|(b, _)| mask & (1 << b) != 0).map(|(_, f)| fixture(f)).collect();
            let before = snapshot(&dataset);
            let out = import(&dataset, &format!("s{i}-{mask}"), &subset);
            match out.status.code() {
                Some(0) => {
                    let check = analyze().arg("check").arg(&dataset).output().unwrap();
                    assert!(matches!(check.status.code(), Some(0 | 1)), "{subset:?} imported, then check refused: {}", text(&check));
                    imported += 1;
                }
                Some(2) => {
                    assert_eq!(snapshot(&dataset), before, "{subset:?} was refused but changed the dataset: {}", text(&out));
                    assert!(text(&out).contains("error: "), "{}", text(&out));
                    refused += 1;
                }
                other => panic!("{subset:?}: exit {other:?}: {}", text(&out)),
            }
        }
    }
    assert_eq!(std::fs::read_dir(root.path()).unwrap().count(), 1, "nothing staged is left");
    eprintln!("{imported} subsets imported, {refused} refused");
    // Every file of a tool whose output can be imported alone did import alone.
    for file in [
        "hey/hey.csv",
        "hey/reset-summary.txt",
        "wrk/closing.txt",
        "siege/mixed.json",
        "locust/mixed_stats.csv",
        "oha/reset.json",
        "ab/mixed-stdout.txt",
        "autocannon/mixed.json",
        "artillery/report.json",
        "oha/oha.db",
        "oha/oha.csv",
        "k6/handle-summary.json",
        "hdrhistogram/load.hlog",
        "hdrhistogram/load.hgrm",
        "wrk2/wrk2.txt",
    ] {
        let alone = import(&root.path().join("alone"), &file.replace('/', "-"), &[fixture(file)]);
        assert!(alone.status.success(), "{file} alone: {}", text(&alone));
    }
}

#[test]
fn every_committed_fixture_imports_with_its_companions_without_started_at_and_passes_check() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("d");
    let invocations: [&[&str]; 44] = [
        &["ab/ab-g.tsv", "ab/ab-e.csv", "ab/ab-stdout.txt"],
        &["ab/mixed-e.csv", "ab/mixed-stdout.txt"],
        &["ab/reset-e.csv", "ab/reset-stdout.txt"],
        &["ab/odd-g.tsv", "ab/odd-stdout.txt"],
        &["ab/errors-stdout.txt"],
        &["hey/hey.csv"],
        &["hey/hey-summary.txt"],
        &["hey/mixed.csv"],
        &["hey/mixed-summary.txt"],
        &["hey/reset.csv"],
        &["hey/reset-summary.txt"],
        &["wrk/wrk.txt"],
        &["wrk/closing.txt"],
        &["wrk/close.txt"],
        &["siege/siege-verbose.txt", "siege/siege-summary.txt", "siege/siege.log"],
        &["siege/siege.json"],
        &["siege/mixed-verbose.txt", "siege/mixed-summary.txt", "siege/mixed.log"],
        &["siege/mixed.json"],
        &["siege/same-run.json", "siege/same-run.log"],
        &["locust/run_stats.csv", "locust/run_stats_history.csv", "locust/run_failures.csv", "locust/run_exceptions.csv"],
        &["locust/locust.json"],
        &["locust/mixed_stats.csv", "locust/mixed_stats_history.csv", "locust/mixed_failures.csv", "locust/mixed_exceptions.csv"],
        &["locust/mixed.json"],
        &["locust/both.json"],
        &["oha/oha.json"],
        &["oha/mixed.json"],
        &["oha/reset.json"],
        &["k6/k6.json"],
        &["k6/k6.csv"],
        &["vegeta/vegeta.csv"],
        &["vegeta/vegeta.json"],
        &["jmeter/jmeter.jtl"],
        &["ab/mixed-stdout.txt"],
        &["autocannon/autocannon.json"],
        &["autocannon/mixed.json"],
        &["autocannon/mixed-exclude.json"],
        &["artillery/report.json"],
        &["oha/oha.csv"],
        &["oha/mixed.csv"],
        &["oha/oha.db", "oha/db.json"],
        &["k6/summary-export.json"],
        &["k6/handle-summary.json"],
        &["hdrhistogram/load.hgrm", "hdrhistogram/load.hlog"],
        &["wrk2/wrk2.txt"],
    ];
    for (i, files) in invocations.iter().enumerate() {
        let out = import(&dataset, &format!("run{i}"), &files.iter().map(|f| fixture(f)).collect::<Vec<_>>());
        assert!(out.status.success(), "{files:?}: {}", text(&out));
    }
    let check = analyze().arg("check").arg(&dataset).output().unwrap();
    assert!(matches!(check.status.code(), Some(0 | 1)), "{}", text(&check));
    assert_eq!(std::fs::read_to_string(dataset.join("runs.csv")).unwrap().lines().count(), 1 + invocations.len());
}

fn summary_json(dataset: &Path) -> serde_json::Value {
    let out = dataset.parent().unwrap().join(format!("{}-report", dataset.file_name().unwrap().to_string_lossy()));
    let report = analyze().arg("report").arg(dataset).arg("--out").arg(&out).output().unwrap();
    assert!(report.status.success(), "{}", text(&report));
    serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap()
}

fn run<'a>(summary: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    summary["runs"].as_array().unwrap().iter().find(|r| r["run_id"] == id).unwrap()
}

#[test]
fn real_ab_wrk_hey_oha_and_locust_files_with_errors_give_the_tools_counts_and_ranks() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("d");
    let runs: [(&str, &[&str]); 7] = [
        ("ab-500s", &["ab/mixed-e.csv", "ab/mixed-stdout.txt"]),
        ("ab-rows", &["ab/ab-g.tsv", "ab/ab-stdout.txt"]),
        ("wrk-closing", &["wrk/closing.txt"]),
        ("hey-reset", &["hey/reset-summary.txt"]),
        ("oha-reset", &["oha/reset.json"]),
        ("locust-500s", &["locust/mixed_stats.csv", "locust/mixed_stats_history.csv", "locust/mixed_failures.csv"]),
        ("siege-500s", &["siege/mixed-verbose.txt", "siege/mixed-summary.txt"]),
    ];
    for (id, files) in runs {
        let out = import(&dataset, id, &files.iter().map(|f| fixture(f)).collect::<Vec<_>>());
        assert!(out.status.success(), "{id}: {}", text(&out));
    }
    let summary = summary_json(&dataset);
    let tool = |id: &str| run(&summary, id)["tool_reported"].clone();
    // ab: 1,000 completed, 102 of them 500s (each also a length failure: 102 errors, not 204);
    // ab ranks all 1,000, so its p95 (from -e, rank round(p·n/100)+1) is the 951st of 1,000.
    let ab = tool("ab-500s");
    assert_eq!((ab["requests"].as_u64(), ab["errors"].as_u64(), ab["ranked"].as_u64()), (Some(1000), Some(102), Some(1000)));
    assert_eq!(ab["rule"], "rounded-plus-one");
    assert_eq!(ab["ranks"]["95"], 951);
    // ab -g's sends are whole seconds, and the run took 1.036 s: ab's own 1,929.89/s, not a
    // rate over a span of one latency.
    let rows = run(&summary, "ab-rows");
    assert_eq!(rows["requests_per_s"], 1929.89);
    assert_eq!(rows["throughput_from"], "tool-coarse");
    // wrk against a server that closes every connection after its response: 9,569 requests,
    // 9,566 read errors that are connection events, no error.
    let wrk = tool("wrk-closing");
    assert_eq!((wrk["requests"].as_u64(), wrk["errors"].as_u64(), wrk["ranked"].as_u64()), (Some(9569), Some(0), Some(9569)));
    assert_eq!(run(&summary, "wrk-closing")["error_rate"], 0.0);
    assert!(run(&summary, "wrk-closing")["note"].as_str().unwrap().contains("read=9566"));
    // hey: 892 responses and 108 resets; it ranks the 892.
    let hey = tool("hey-reset");
    assert_eq!((hey["requests"].as_u64(), hey["errors"].as_u64(), hey["ranked"].as_u64()), (Some(1000), Some(108), Some(892)));
    assert_eq!(hey["ranks"]["95"], 849, "ceil(0.95 × 892) + 1");
    // oha: 903 responses and 97 connection errors; it ranks the 903 (floor(p·n/100)+1).
    let oha = tool("oha-reset");
    assert_eq!((oha["requests"].as_u64(), oha["errors"].as_u64(), oha["ranked"].as_u64()), (Some(1000), Some(97), Some(903)));
    assert_eq!(oha["ranks"]["95"], 858);
    // Locust ranks every request, the 87 failures (500s) too.
    let locust = tool("locust-500s");
    assert_eq!((locust["requests"].as_u64(), locust["errors"].as_u64(), locust["ranked"].as_u64()), (Some(962), Some(87), Some(962)));
    // siege: 179 transactions and 21 failed, all 500s with a -v line each: 200 rows.
    let siege = run(&summary, "siege-500s");
    assert_eq!((siege["requests"].as_u64(), siege["errors"].as_u64()), (Some(200), Some(21)));
}

#[test]
fn a_start_the_files_record_wins_and_none_is_recorded_as_such() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("d");
    let ab = [fixture("ab/ab-g.tsv"), fixture("ab/ab-stdout.txt")];
    let differing = analyze()
        .arg("import")
        .args(&ab)
        .arg("--into")
        .arg(&dataset)
        .args(["--run-id", "ab", "--started-at", "2026-11-30T15:00:00Z"])
        .output()
        .unwrap();
    assert_eq!(differing.status.code(), Some(2));
    assert!(
        text(&differing).contains("records the run's start as 2026-11-30T14:44:39Z") && text(&differing).contains("ab-g.tsv:"),
        "{}",
        text(&differing)
    );
    let agreeing = analyze()
        .arg("import")
        .args(&ab)
        .arg("--into")
        .arg(&dataset)
        .args(["--run-id", "ab", "--started-at", "2026-11-30T14:44:39Z"])
        .output()
        .unwrap();
    assert!(agreeing.status.success(), "{}", text(&agreeing));
    let hey =
        analyze().arg("import").arg(fixture("hey/hey-summary.txt")).arg("--into").arg(&dataset).args(["--run-id", "hey"]).output().unwrap();
    assert!(hey.status.success(), "{}", text(&hey));
    assert!(text(&hey).contains("start not recorded"), "{}", text(&hey));
    let runs = std::fs::read_to_string(dataset.join("runs.csv")).unwrap();
    assert!(runs.lines().any(|l| l.starts_with("hey,2,,ok,")), "{runs}");
    let out = root.path().join("out");
    for lang in ["en", "ja"] {
        let report = analyze().arg("report").arg(&dataset).arg("--out").arg(&out).args(["--lang", lang]).output().unwrap();
        assert!(report.status.success(), "{}", text(&report));
        let page = std::fs::read_to_string(out.join("runs/hey.html")).unwrap();
        let words = if lang == "en" { "start not recorded" } else { "開始時刻の記録なし" };
        assert!(page.contains(words), "{lang}: the run page says the start was not recorded");
        assert!(std::fs::read_to_string(out.join("runs/ab.html")).unwrap().contains("2026-11-30T14:44:39Z"));
    }
}

#[test]
fn send_times_are_written_exactly_as_the_files_give_them() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("d");
    let vegeta = root.path().join("v.csv");
    std::fs::write(&vegeta, "1796049880000000000,200,1000000,0,20,,,,0,GET,http://x/,\n1796049880000600000,200,1000000,0,20,,,,1,GET,http://x/,\n1796049880123456789,200,1000000,0,20,,,,2,GET,http://x/,\n").unwrap();
    assert!(import(&dataset, "v", std::slice::from_ref(&vegeta)).status.success());
    let requests = std::fs::read_to_string(dataset.join("requests.csv")).unwrap();
    let sent: Vec<&str> = requests.lines().skip(1).map(|l| l.split(',').nth(3).unwrap()).collect();
    assert_eq!(sent, ["0", "0.6", "123.456789"]);
    for stamp in ["0", "99999999999999999999"] {
        std::fs::write(
            &vegeta,
            format!("1796049880000000000,200,1000000,0,20,,,,0,GET,http://x/,\n{stamp},200,1000000,0,20,,,,1,GET,http://x/,\n"),
        )
        .unwrap();
        let out = import(&dataset, "w", std::slice::from_ref(&vegeta));
        assert_eq!(out.status.code(), Some(2), "{stamp}");
        assert!(text(&out).contains(&format!("{}:2:1: timestamp", vegeta.display())), "{}", text(&out));
    }
}

#[test]
fn files_that_count_nothing_are_refused_naming_the_file_that_does() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("d");
    for (files, needed) in [
        (&["ab/ab-e.csv"][..], "ab's stdout"),
        (&["locust/run_stats_history.csv"][..], "PREFIX_stats.csv"),
        (&["locust/run_failures.csv", "locust/run_exceptions.csv"][..], "PREFIX_stats.csv"),
        (&["ab/aborted-stdout.txt"][..], "Time taken for tests"),
    ] {
        let out = import(&dataset, "r", &files.iter().map(|f| fixture(f)).collect::<Vec<_>>());
        assert_eq!(out.status.code(), Some(2), "{files:?}");
        assert!(text(&out).contains(needed), "{files:?}: {}", text(&out));
    }
    assert!(!dataset.exists());
}

#[test]
fn the_new_tools_numbers_are_set_beside_ours_on_the_run_page_with_their_rules_ranks() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("d");
    let runs: [(&str, &[&str]); 7] = [
        ("autocannon", &["autocannon/mixed-exclude.json"]),
        ("artillery", &["artillery/report.json"]),
        ("oha-db", &["oha/oha.db", "oha/db.json"]),
        ("hdr", &["hdrhistogram/load.hgrm", "hdrhistogram/load.hlog"]),
        ("k6", &["k6/summary-export.json"]),
        ("wrk2", &["wrk2/wrk2.txt"]),
        ("oha-csv", &["oha/oha.csv"]),
    ];
    for (id, files) in runs {
        let out = import(&dataset, id, &files.iter().map(|f| fixture(f)).collect::<Vec<_>>());
        assert!(out.status.success(), "{id}: {}", text(&out));
    }
    let summary = summary_json(&dataset);
    let tool = |id: &str| run(&summary, id)["tool_reported"].clone();
    // autocannon --excludeErrorStats ranked its 902 2xx responses of 951: p99 is the 893rd.
    let ac = tool("autocannon");
    assert_eq!((ac["rule"].as_str(), ac["ranked"].as_u64(), ac["ranks"]["99"].as_u64()), (Some("hdr-histogram"), Some(902), Some(893)));
    assert_eq!(ac["percentiles_ms"]["97.5"], 183.0);
    // Artillery's sketch reads 0-based rank q·(n-1): p95 of 1,000 is the 950th.
    let art = tool("artillery");
    assert_eq!((art["rule"].as_str(), art["ranks"]["95"].as_u64(), art["errors"].as_u64()), (Some("ddsketch"), Some(950), Some(500)));
    // wrk2's C library rounds p·n/100: p99 of its 39,500 histogram values is the 39,105th.
    let wrk2 = tool("wrk2");
    assert_eq!(
        (wrk2["rule"].as_str(), wrk2["ranked"].as_u64(), wrk2["ranks"]["99"].as_u64()),
        (Some("hdr-histogram-rounded"), Some(39500), Some(39105))
    );
    assert_eq!((wrk2["requests"].as_u64(), wrk2["percentiles_ms"]["99.999"].as_f64()), (Some(60018), Some(12.5)));
    // A histogram cannot count failed requests: no errors, no error rate.
    let hdr = tool("hdr");
    assert_eq!((hdr["errors"].is_null(), hdr["requests"].as_u64(), hdr["ranks"]["50"].as_u64()), (true, Some(3000), Some(1500)));
    assert!(run(&summary, "hdr")["error_rate"].is_null());
    // oha's sqlite rows beside its summary of the same run: its rank floor(p·n/100)+1 over every
    // response, and ours (nearest rank over the 2xx rows) beside it.
    let oha = tool("oha-db");
    let ranked = oha["ranked"].as_u64().unwrap();
    assert_eq!(oha["ranks"]["95"].as_u64(), Some(ranked * 95 / 100 + 1));
    assert!(oha["nearest_rank_ms"]["95"].as_f64().is_some(), "{oha}");
    assert_eq!(tool("k6")["rule"], "interpolated");
    let out = root.path().join("site");
    for lang in ["en", "ja"] {
        let report = analyze().arg("report").arg(&dataset).arg("--out").arg(&out).args(["--lang", lang]).output().unwrap();
        assert!(report.status.success(), "{}", text(&report));
        let page = std::fs::read_to_string(out.join("runs/autocannon.html")).unwrap();
        assert!(page.contains("tool-numbers") && page.contains("183"), "{lang}: autocannon's p97.5 in its table");
        let hdr = std::fs::read_to_string(out.join("runs/hdr.html")).unwrap();
        let words = if lang == "en" { "HdrHistogram&#x27;s value at percentile" } else { "HdrHistogramのパーセンタイル値" };
        assert!(hdr.contains(words) || hdr.contains("HdrHistogram's value at percentile"), "{lang}: the rule named on the page");
    }
}
