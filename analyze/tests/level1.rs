//! A dataset of run-level tables (level 1 computed elsewhere, as spark/analyze_level1.py writes
//! it) is reported as the same dataset's rows are, and `analyze check` refuses tables that
//! contradict each other or the report's rule, naming the file, line and column, exit 2.
//!
//! Two runs: a1 with five 2xx responses, a2 with four and one 503. The tables are written from
//! the same numbers as the rows, so the two reports must agree value for value.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

const SEND_MS: [f64; 5] = [0.25, 125.25, 250.25, 375.25, 500.25];
const LATENCY_MS: [f64; 5] = [1.5, 2.5, 3.5, 4.5, 5.5];
/// Request 2 of run a2 got a 503.
const ERROR_SEQ: usize = 2;

const RUNS: &str =
    "run_id,route,repetition,started_at_utc,status,note\na1,direct,1,2026-11-30T01:00:00Z,ok,\na2,nginx,1,2026-11-30T01:01:00Z,ok,\n";
const STATS_HEADER: &str = "run_id,rule,requests,ok_responses,errors,non_2xx,no_response,p50_ms,p50_rank,p90_ms,p90_rank,p95_ms,p95_rank,p99_ms,p99_rank,p99_9_ms,p99_9_rank,headline_percentile,headline_ms,headline_rank,min_ms,max_ms,max_lag_ms,last_sent_ms,mean_ms,first_sent_ms,last_done_ms";
// a1 ranks 3, 5, 5, 5, 5 of 5; a2 ranks 2, 4, 4, 4, 4 of its 4 2xx latencies (1.5, 2.5, 4.5, 5.5).
const STATS_A1: &str = "a1,nearest-rank,5,5,0,0,0,3.5,3,5.5,5,5.5,5,5.5,5,5.5,5,95,5.5,5,1.5,5.5,0.25,500.25,3.5,0.25,505.75";
const STATS_A2: &str = "a2,nearest-rank,5,4,1,1,0,2.5,2,5.5,4,5.5,4,5.5,4,5.5,4,95,5.5,4,1.5,5.5,0.25,500.25,3.5,0.25,505.75";

struct Folder(tempfile::TempDir);

impl Folder {
    fn new() -> Folder {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir(root.path().join("ds")).unwrap();
        Folder(root)
    }

    fn dir(&self) -> PathBuf {
        self.0.path().join("ds")
    }

    fn write(&self, file: &str, text: &str) {
        std::fs::write(self.dir().join(file), text).unwrap();
    }

    /// Replaces `from` by `to` in `file`, which must contain it.
    fn edit(&self, file: &str, from: &str, to: &str) {
        let text = std::fs::read_to_string(self.dir().join(file)).unwrap();
        assert!(text.contains(from), "{file} lacks {from:?}");
        self.write(file, &text.replacen(from, to, 1));
    }
}

fn status_of(run: &str, seq: usize) -> u16 {
    if run == "a2" && seq == ERROR_SEQ {
        503
    } else {
        200
    }
}

fn rows() -> Folder {
    let folder = Folder::new();
    folder.write("runs.csv", RUNS);
    let mut requests = String::from("run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\n");
    for run in ["a1", "a2"] {
        for seq in 0..5 {
            let status = status_of(run, seq);
            requests += &format!("{run},{seq},{},{},{},{status},12\n", SEND_MS[seq] - 0.25, SEND_MS[seq], LATENCY_MS[seq]);
        }
    }
    folder.write("requests.csv", &requests);
    folder
}

fn tables() -> Folder {
    let folder = Folder::new();
    folder.write("runs.csv", RUNS);
    folder.write(
        "level1.json",
        "{\"engine\": \"Apache Spark\", \"version\": \"9.9.9\", \"rule\": \"nearest-rank\", \"requests\": \"requests.csv\"}\n",
    );
    folder.write("run_stats.csv", &format!("{STATS_HEADER}\n{STATS_A1}\n{STATS_A2}\n"));
    folder.write("run_statuses.csv", "run_id,status,requests\na1,200,5\na2,200,4\na2,503,1\n");
    let (mut ecdf, mut points, mut errors) =
        ("run_id,rank,latency_ms\n".to_string(), "run_id,t_s,latency_ms\n".to_string(), "run_id,t_s,latency_ms,status\n".to_string());
    for run in ["a1", "a2"] {
        let mut rank = 0;
        for seq in 0..5 {
            // Written as analyze computes a send time in seconds, in Rust's shortest round-trip form.
            let t_s = SEND_MS[seq] / 1000.0;
            if status_of(run, seq) == 200 {
                rank += 1;
                ecdf += &format!("{run},{rank},{}\n", LATENCY_MS[seq]);
                points += &format!("{run},{t_s},{}\n", LATENCY_MS[seq]);
            } else {
                errors += &format!("{run},{t_s},{},503\n", LATENCY_MS[seq]);
            }
        }
    }
    folder.write("run_ecdf.csv", &ecdf);
    folder.write("run_points.csv", &points);
    // Both runs are drawn point by point: no columns of send time.
    folder.write("run_bands.csv", &format!("{BANDS_HEADER}\n"));
    folder.write("run_errors.csv", &errors);
    folder
}

const BANDS_HEADER: &str = "run_id,column,requests,p50_ms,p95_ms,max_ms,slowest_t_s,send_times";

fn analyze(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::cargo_bin("analyze").unwrap().args(args).output().unwrap()
}

fn report(dataset: &Path, out: &Path) {
    let done = analyze(&["report".as_ref(), dataset.as_os_str(), "--out".as_ref(), out.as_os_str()]);
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
}

fn check(folder: &Folder) -> (i32, String) {
    let done = analyze(&["check".as_ref(), folder.dir().as_os_str()]);
    (done.status.code().unwrap(), String::from_utf8_lossy(&done.stderr).into_owned())
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn run_level_tables_give_the_report_of_the_rows_and_say_what_computed_them() {
    let (from_rows, from_tables) = (rows(), tables());
    let out = tempfile::tempdir().unwrap();
    let (a, b) = (out.path().join("rows"), out.path().join("tables"));
    report(&from_rows.dir(), &a);
    report(&from_tables.dir(), &b);
    let mut summary = json(&b.join("summary.json"));
    let engine = summary.as_object_mut().unwrap().remove("level1").expect("summary.json names what computed level 1");
    assert_eq!(engine, serde_json::json!({ "engine": "Apache Spark", "version": "9.9.9" }));
    // Latency from the intended send needs each row's lag beside its latency: level-1 tables do
    // not carry it (yet), so the rows' report has it and the tables' report leaves it out.
    let mut from_rows = json(&a.join("summary.json"));
    for part in ["runs", "conditions"] {
        for item in from_rows[part].as_array_mut().unwrap() {
            let intended = item.as_object_mut().unwrap().remove("from_intended_ms");
            assert!(intended.is_some_and(|v| v["95"].is_number() || v["95"]["median"].is_number()), "{part}: the rows give it");
        }
        assert!(summary[part].as_array().unwrap().iter().all(|item| item.get("from_intended_ms").is_none()), "{part}");
    }
    assert_eq!(summary, from_rows, "every other statistic as from the rows");
    assert_eq!(summary["runs"][1]["percentile_ranks"]["50"], 2);
    let figures: Vec<PathBuf> = std::fs::read_dir(a.join("figures")).unwrap().map(|e| e.unwrap().path()).collect();
    assert!(figures.len() >= 4, "{figures:?}");
    for figure in figures {
        let name = figure.file_name().unwrap();
        if name.to_string_lossy().starts_with("send-lag-") {
            assert!(!b.join("figures").join(name).exists(), "no send lags in level-1 tables");
            continue;
        }
        assert_eq!(std::fs::read(&figure).unwrap(), std::fs::read(b.join("figures").join(name)).unwrap(), "{name:?}");
    }
    for file in ["runs.csv", "conditions.csv"] {
        assert_eq!(std::fs::read(a.join(file)).unwrap(), std::fs::read(b.join(file)).unwrap(), "{file}");
    }
    let (run_from_rows, run_from_tables) =
        (std::fs::read_to_string(a.join("runs/a2.html")).unwrap(), std::fs::read_to_string(b.join("runs/a2.html")).unwrap());
    assert!(run_from_rows.contains("From the intended send") && !run_from_tables.contains("From the intended send"));
    let page = std::fs::read_to_string(b.join("index.html")).unwrap();
    assert!(page.contains("computed from the request rows by Apache Spark 9.9.9"), "Methods says so");
    assert!(!std::fs::read_to_string(a.join("index.html")).unwrap().contains("Apache Spark"));
    let done = analyze(&["check".as_ref(), from_tables.dir().as_os_str()]);
    assert!(done.status.success());
    let said = String::from_utf8_lossy(&done.stdout);
    assert!(said.contains("level 1 (per-run statistics, chart points) computed by Apache Spark 9.9.9"), "{said}");
}

/// `analyze check` on the tables after one edit: exit 2 and each expected line on stderr.
fn refused(edits: &[(&str, &str, &str)], expected: &[&str]) {
    let folder = tables();
    for (file, from, to) in edits {
        folder.edit(file, from, to);
    }
    let (code, stderr) = check(&folder);
    assert_eq!(code, 2, "{stderr}");
    for line in expected {
        assert!(stderr.contains(line), "expected {line:?} in:\n{stderr}");
    }
}

#[test]
fn a_run_of_run_stats_missing_from_runs_csv_is_refused_at_its_cell() {
    refused(&[("run_stats.csv", "\na2,", "\nzz,")], &["run_stats.csv:3:1: run_id: \"zz\" is not a run of runs.csv"]);
}

#[test]
fn a_negative_count_is_refused_at_its_cell() {
    refused(&[("run_stats.csv", "a2,nearest-rank,5,4,1,1,0", "a2,nearest-rank,5,4,1,-1,0")], &["run_stats.csv:3:6: non_2xx:"]);
    refused(&[("run_statuses.csv", "a2,503,1", "a2,503,-1")], &["run_statuses.csv:4:3: requests: -1 is negative"]);
}

#[test]
fn a_p50_above_the_p95_is_refused() {
    refused(&[("run_stats.csv", "a1,nearest-rank,5,5,0,0,0,3.5", "a1,nearest-rank,5,5,0,0,0,7.5")], &["run_stats.csv:2:10: p90_ms:"]);
}

#[test]
fn a_rank_other_than_the_nearest_rank_is_refused() {
    refused(
        &[("run_stats.csv", "a1,nearest-rank,5,5,0,0,0,3.5,3", "a1,nearest-rank,5,5,0,0,0,3.5,2")],
        &["run_stats.csv:2:8: p50_ms: was taken at rank 2, not the nearest rank 3 of 5"],
    );
    refused(&[("run_stats.csv", "a1,nearest-rank", "a1,floor-plus-one")], &["run_stats.csv:2:2: rule: is floor-plus-one"]);
}

#[test]
fn counts_that_do_not_add_up_are_refused() {
    refused(
        &[("run_stats.csv", "a2,nearest-rank,5,4,1,1,0", "a2,nearest-rank,6,4,1,1,0")],
        &["run_stats.csv:3:3: requests: 6 is not ok_responses + non_2xx + no_response = 5"],
    );
    refused(
        &[("run_statuses.csv", "a2,503,1", "a2,503,2")],
        &["run_statuses.csv:4: the run's statuses add up to 6 requests, run_stats says 5"],
    );
}

#[test]
fn chart_points_of_unknown_runs_or_ranks_are_refused() {
    refused(&[("run_points.csv", "\na2,", "\nzz,")], &["run_points.csv:7:1: run_id: run_id \"zz\" is not in runs.csv"]);
    refused(&[("run_ecdf.csv", "a2,4,", "a2,5,")], &["run_ecdf.csv:10:2: rank: 5 is not a rank of the run's 4 2xx responses (1 to 4)"]);
}

#[test]
fn rows_beside_run_level_tables_and_a_missing_run_row_are_refused() {
    let folder = tables();
    folder.write("requests.csv", "run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\na1,0,0,0,1,200,0\n");
    let (code, stderr) = check(&folder);
    assert_eq!(code, 2);
    assert!(stderr.contains("requests.csv: is here beside level1.json"), "{stderr}");
    refused(&[("run_stats.csv", &format!("\n{STATS_A2}"), "")], &["runs.csv:3: run \"a2\" has no valid row in run_stats.csv"]);
    refused(&[("level1.json", "nearest-rank", "floor-plus-one")], &["level1.json: rule \"floor-plus-one\""]);
}

/// One run of 1,000 2xx responses, 10 ms apart, as rows and as the tables the Spark job writes,
/// each table worked out here from the rows by the plain rules: sort and take the nearest rank
/// ceil(p·n/100); per column of send time (floor(t / last send · 100)) its count, p50, p95,
/// slowest (first sent of those as slow) and distinct send times up to 3.
fn large_run() -> (Folder, Folder) {
    let n = 1000usize;
    let sent: Vec<f64> = (0..n).map(|i| i as f64 * 10.0 + 0.25).collect();
    let latency: Vec<f64> = (0..n).map(|i| ((i * 7919) % 97) as f64 * 0.5 + 1.0).collect();
    let runs = "run_id,route,repetition,started_at_utc,status,note\nb1,direct,1,2026-11-30T01:00:00Z,ok,\n";
    let rows = Folder::new();
    rows.write("runs.csv", runs);
    let mut requests = String::from("run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\n");
    for i in 0..n {
        requests += &format!("b1,{i},{},{},{},200,12\n", sent[i] - 0.25, sent[i], latency[i]);
    }
    rows.write("requests.csv", &requests);

    let mut sorted = latency.clone();
    sorted.sort_by(f64::total_cmp);
    let rank = |thousandths: usize, n: usize| (thousandths * n).div_ceil(100_000).max(1);
    let at = |thousandths: usize| (sorted[rank(thousandths, n) - 1], rank(thousandths, n));
    let mut stats = "b1,nearest-rank,1000,1000,0,0,0".to_string();
    for p in [50_000, 90_000, 95_000, 99_000, 99_900] {
        let (value, r) = at(p);
        stats += &format!(",{value},{r}");
    }
    let (p95, r95) = at(95_000);
    let mean = sorted.iter().sum::<f64>() / n as f64;
    let last_done = sent.iter().zip(&latency).map(|(s, l)| s + l).fold(0.0, f64::max);
    stats += &format!(",95,{p95},{r95},{},{},0.25,{},{mean},{},{last_done}", sorted[0], sorted[n - 1], sent[n - 1], sent[0]);
    let tables = Folder::new();
    tables.write("runs.csv", runs);
    tables.write(
        "level1.json",
        "{\"engine\": \"Apache Spark\", \"version\": \"9.9.9\", \"rule\": \"nearest-rank\", \"requests\": \"requests.csv\"}\n",
    );
    tables.write("run_stats.csv", &format!("{STATS_HEADER}\nb1,{}\n", &stats[3..]));
    tables.write("run_statuses.csv", "run_id,status,requests\nb1,200,1000\n");
    let ecdf: String = sorted.iter().enumerate().map(|(i, v)| format!("b1,{},{v}\n", i + 1)).collect();
    tables.write("run_ecdf.csv", &format!("run_id,rank,latency_ms\n{ecdf}"));
    tables.write("run_points.csv", "run_id,t_s,latency_ms\n");
    tables.write("run_errors.csv", "run_id,t_s,latency_ms,status\n");
    let last_s = sent[n - 1] / 1000.0;
    let mut bands = format!("{BANDS_HEADER}\n");
    for column in 0..100 {
        let inside: Vec<(f64, f64)> = (0..n)
            .map(|i| (sent[i] / 1000.0, latency[i]))
            .filter(|(t, _)| (((t / last_s) * 100.0).floor().clamp(0.0, 99.0) as usize) == column)
            .collect();
        if inside.is_empty() {
            continue;
        }
        let mut values: Vec<f64> = inside.iter().map(|p| p.1).collect();
        values.sort_by(f64::total_cmp);
        let k = values.len();
        let max = values[k - 1];
        let slowest = inside.iter().filter(|p| p.1 == max).map(|p| p.0).fold(f64::INFINITY, f64::min);
        let (p50, p95) = (values[rank(50_000, k) - 1], values[rank(95_000, k) - 1]);
        bands += &format!("b1,{column},{k},{p50},{p95},{max},{slowest},{}\n", k.min(3));
    }
    tables.write("run_bands.csv", &bands);
    (rows, tables)
}

#[test]
fn a_large_run_is_drawn_from_run_bands_as_from_its_rows() {
    let (rows, tables) = large_run();
    let out = tempfile::tempdir().unwrap();
    let (a, b) = (out.path().join("rows"), out.path().join("tables"));
    report(&rows.dir(), &a);
    report(&tables.dir(), &b);
    for figure in ["figures/latency-over-time-b1.svg", "figures/ecdf-b1.svg"] {
        let (from_rows, from_tables) = (std::fs::read_to_string(a.join(figure)).unwrap(), std::fs::read_to_string(b.join(figure)).unwrap());
        assert_eq!(from_rows, from_tables, "{figure}");
    }
    let series = std::fs::read_to_string(a.join("figures/latency-over-time-b1.svg")).unwrap();
    assert!(series.contains("100 columns of send time and their 100 slowest responses (dots) stand for 1,000 2xx responses"), "{series}");
}

#[test]
fn columns_out_of_range_twice_or_not_adding_up_are_refused() {
    let refused_bands = |from: &str, to: &str, expected: &str| {
        let (_, tables) = large_run();
        tables.edit("run_bands.csv", from, to);
        let (code, stderr) = check(&tables);
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains(expected), "expected {expected:?} in:\n{stderr}");
    };
    refused_bands("\nb1,99,", "\nb1,100,", "run_bands.csv:101:2: column: 100 is not a column of send time (0 to 99)");
    refused_bands("\nb1,99,", "\nb1,98,", "run_bands.csv:101:2: column: column 98 of this run already has a row (line 100)");
    refused_bands("\nb1,0,10,", "\nb1,0,11,", "the run's columns add up to 1001 2xx responses, run_stats says 1000");
    refused_bands("\nb1,0,10,", "\nb1,0,0,", "run_bands.csv:2: needs requests >= 1 and p50_ms <= p95_ms <= max_ms");
}
