//! What the variance review and the exports say about synthetic datasets built for one behaviour
//! each: late runs flagged by the robust rule, the chance of every comparison, comparisons that
//! grow linearly with the conditions, and exports free of float noise.

use analyze::model::Verdict;
use analyze::report::review::{ComparisonScope, FlagKind};
use analyze::report::Report;
use std::fmt::Write;
use std::path::Path;

/// Writes a dataset of one factor `route` (a, b) and `n` (1, 2): `runs` rows of
/// (run_id, route, n, repetition), each with 20 requests whose latency is `base(run)` and whose
/// send lag is `lag(run)` ms.
fn write_dataset(dir: &Path, runs: &[(&str, &str, u32, u32)], latency: impl Fn(usize) -> f64, lag: impl Fn(usize) -> f64) {
    std::fs::create_dir_all(dir).unwrap();
    let mut runs_csv = String::from("run_id,route,n,repetition,started_at_utc,status\n");
    let mut requests = String::from("run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\n");
    for (i, (id, route, n, repetition)) in runs.iter().enumerate() {
        writeln!(runs_csv, "{id},{route},{n},{repetition},2026-11-30T04:{:02}:00Z,ok", i % 60).unwrap();
        for seq in 0..20 {
            let scheduled = 9000.0 + 125.0 * f64::from(seq);
            // The largest lag on the last request, the others on time.
            let sent = if seq == 19 { scheduled + lag(i) } else { scheduled };
            writeln!(requests, "{id},{seq},{scheduled:.3},{sent:.3},{:.3},200,12", latency(i) + f64::from(seq) * 0.001).unwrap();
        }
    }
    std::fs::write(dir.join("runs.csv"), runs_csv).unwrap();
    std::fs::write(dir.join("requests.csv"), requests).unwrap();
}

/// The fields of one CSV line; condition ids hold commas, so fields may be quoted.
fn fields(line: &str) -> Vec<String> {
    let (mut out, mut field, mut quoted) = (Vec::new(), String::new(), false);
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut field)),
            c => field.push(c),
        }
    }
    out.push(field);
    out
}

fn build(dir: &Path) -> Report {
    let mut dataset = analyze::dataset::load(dir).unwrap();
    analyze::stats::build(&mut dataset, analyze::stats::Detail::Statistics)
}

/// Twelve runs: routes a and b at n = 1 and 2, three repetitions each.
fn twelve_runs() -> Vec<(String, &'static str, u32, u32)> {
    let mut runs = Vec::new();
    for (k, (route, n)) in [("a", 1), ("a", 2), ("b", 1), ("b", 2)].into_iter().enumerate() {
        for repetition in 1..=3 {
            runs.push((format!("r{:02}", k * 3 + repetition as usize), route, n, repetition));
        }
    }
    runs
}

fn borrowed<'a>(runs: &'a [(String, &'static str, u32, u32)]) -> Vec<(&'a str, &'a str, u32, u32)> {
    runs.iter().map(|(id, route, n, rep)| (id.as_str(), *route, *n, *rep)).collect()
}

#[test]
fn runs_sent_late_against_the_datasets_own_lag_are_flagged_below_the_fixed_threshold() {
    let root = tempfile::tempdir().unwrap();
    let runs = twelve_runs();
    // Lags of 0.3-1.4 ms, and three runs 6.8, 13.7 and 11.0 ms late: all under the fixed 20 ms.
    let late = [(4, 6.8), (5, 13.7), (9, 11.0)];
    let lag = |i: usize| late.iter().find(|(r, _)| *r == i).map_or(0.3 + 0.1 * i as f64, |(_, l)| *l);
    write_dataset(root.path(), &borrowed(&runs), |_| 10.0, lag);
    let report = build(root.path());
    let noisy: Vec<(&str, f64)> = report
        .variance
        .flags
        .iter()
        .filter_map(|f| match f.kind {
            FlagKind::NoisyLag { max_lag_ms, .. } => Some((f.run_id.as_str(), max_lag_ms)),
            _ => None,
        })
        .collect();
    assert_eq!(noisy, vec![("r05", 6.8), ("r06", 13.7), ("r10", 11.0)]);
    assert!(!report.variance.flags.iter().any(|f| matches!(f.kind, FlagKind::ScheduleLag { .. })));
}

#[test]
fn every_comparison_carries_its_exact_chance_and_the_page_total() {
    let root = tempfile::tempdir().unwrap();
    let runs = twelve_runs();
    // a is 10 ms, b 20 ms at n = 1 (apart); at n = 2 both 30-32 ms (overlapping).
    let latency = |i: usize| match i / 3 {
        0 => 10.0 + i as f64 % 3.0,
        1 => 30.0 + i as f64 % 3.0,
        2 => 20.0 + i as f64 % 3.0,
        _ => 30.5 + i as f64 % 3.0,
    };
    write_dataset(root.path(), &borrowed(&runs), latency, |_| 0.5);
    let report = build(root.path());
    let comparisons = &report.variance.comparisons;
    assert_eq!(comparisons.len(), 2, "one pair per x level");
    for c in comparisons {
        assert_eq!((c.a_runs, c.b_runs), (3, 3));
        assert_eq!(c.chance_if_no_difference, 0.1);
    }
    let verdicts: Vec<Verdict> = comparisons.iter().map(|c| c.verdict).collect();
    // 10-12 ms against 20-22 ms: the ranges alone (a chance of 10%) could not say so, the
    // log-t interval does; 30-32 against 30.5-32.5 ms overlap and cannot be told apart.
    assert_eq!(verdicts, vec![Verdict::Supported, Verdict::NotShown]);
    assert_eq!(comparisons.iter().map(|c| c.ranges_overlap).collect::<Vec<_>>(), vec![false, true]);
    assert!(comparisons[0].fdr_supported && !comparisons[1].fdr_supported);
    let summary = &report.variance.comparison_summary;
    assert_eq!(summary.ranges_apart, 1);
    assert!((summary.expected_apart_by_chance - 0.2).abs() < 1e-12);
    assert_eq!(summary.scope, ComparisonScope::AllPairs);
}

#[test]
fn many_series_are_compared_with_their_neighbours_only() {
    let root = tempfile::tempdir().unwrap();
    // 40 routes at one n, two runs each: 40 series in one column, 39 neighbour pairs instead of 780.
    let ids: Vec<String> = (0..80).map(|i| format!("r{i:02}")).collect();
    let routes: Vec<String> = (0..40).map(|i| format!("s{i:02}")).collect();
    let runs: Vec<(&str, &str, u32, u32)> = (0..80).map(|i| (ids[i].as_str(), routes[i / 2].as_str(), 1, 1 + i as u32 % 2)).collect();
    write_dataset(root.path(), &runs, |i| 1.0 + i as f64, |_| 0.5);
    let report = build(root.path());
    assert_eq!(report.variance.comparisons.len(), 39);
    let summary = &report.variance.comparison_summary;
    assert_eq!(summary.scope, ComparisonScope::Neighbours);
    assert_eq!(summary.pairs_left_out, 780 - 39);
    assert!(report.variance.comparisons.iter().all(|c| c.chance_if_no_difference == 1.0 / 3.0), "2 runs against 2: 2/C(4,2)");
}

#[test]
fn one_run_per_condition_gives_no_comparison_no_chance_and_no_verdict() {
    let root = tempfile::tempdir().unwrap();
    let ids: Vec<String> = (0..4).map(|i| format!("r{i}")).collect();
    let routes: Vec<String> = (0..4).map(|i| format!("s{i}")).collect();
    let runs: Vec<(&str, &str, u32, u32)> = (0..4).map(|i| (ids[i].as_str(), routes[i].as_str(), 1, 1)).collect();
    write_dataset(root.path(), &runs, |i| 1.0 + i as f64, |_| 0.5);
    let report = build(root.path());
    assert!(report.variance.comparisons.is_empty());
    let summary = &report.variance.comparison_summary;
    assert_eq!(summary.pairs_with_one_run, 6);
    assert_eq!(summary.smallest_chance, None);
    let json = serde_json::to_string(&report).unwrap();
    assert!(!json.contains("-0.0"), "an empty sum is written as 0.0");
}

#[test]
fn exports_print_lags_at_the_precision_they_were_measured() {
    let root = tempfile::tempdir().unwrap();
    let runs = twelve_runs();
    // 9000.928 - 9000.000 is 0.9279999999998836 in binary floating point.
    write_dataset(root.path(), &borrowed(&runs), |_| 10.0, |_| 0.928);
    let report = build(root.path());
    let csv = analyze::render::exports::runs_csv(&report);
    let json = analyze::render::exports::summary_json(&report);
    assert!(!csv.contains("0.92799999"), "{csv}");
    assert!(!json.contains("0.92799999"));
    let mut lines = csv.lines().map(fields);
    let column = lines.next().unwrap().iter().position(|h| h == "max_lag_ms").unwrap();
    for row in lines {
        assert_eq!(row[column], "0.928");
    }
}

fn committed(name: &str) -> Report {
    build(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets").join(name))
}

#[test]
fn every_comparison_of_the_seed_001_re_measurement_is_a_supported_difference() {
    // Five servers at three concurrencies, 5 runs each of ab's requests/s: the ranges alone
    // (2/C(10,5) = 0.8% each, 16 comparisons) and the log-t interval agree.
    let report = committed("app-servers-ab");
    let comparisons = &report.variance.comparisons;
    assert_eq!(comparisons.len(), 16);
    for c in comparisons {
        assert_eq!(c.verdict, Verdict::Supported, "{} vs {}: {c:?}", c.a_id, c.b_id);
        // The interval excludes 1 and the ratio is more than 5% from it (uWSGI 1x1 against
        // Gunicorn 1x1 at c 5, the closest pair: 0.91, interval 0.87-0.95).
        assert!(c.ratio_low.unwrap() > 1.0 || c.ratio_high.unwrap() < 1.0, "{c:?}");
        let ratio = c.ratio.unwrap();
        assert!(ratio.max(1.0 / ratio) > 1.05, "{c:?}");
    }
}

#[test]
fn the_model_studys_four_largest_gaps_are_supported_at_three_runs_a_side() {
    let report = committed("gunicorn-slow-client");
    let mut comparisons: Vec<_> = report.variance.comparisons.iter().collect();
    let fold = |r: f64| r.max(1.0 / r);
    comparisons.sort_by(|a, b| fold(b.ratio.unwrap()).total_cmp(&fold(a.ratio.unwrap())));
    for c in &comparisons[..4] {
        assert_eq!((c.a_runs, c.b_runs), (3, 3));
        assert_eq!(c.chance_if_no_difference, 0.1, "the ranges alone could never say so");
        assert_eq!(c.verdict, Verdict::Supported, "{} vs {}: {c:?}", c.a_id, c.b_id);
    }
}

#[test]
fn the_interpreters_are_what_seed_002s_review_pairs() {
    let report = committed("gthread-python-versions");
    let summary = &report.variance.comparison_summary;
    assert_eq!(summary.compared.as_deref(), Some("python"));
    // Seven interpreters in one series: neighbours in level order.
    assert_eq!(report.variance.comparisons.len(), 6);
    for c in &report.variance.comparisons {
        let python = |id: &str| report.conditions.iter().find(|k| k.id == id).unwrap().factors["python"].clone();
        assert_ne!(python(&c.a_id), python(&c.b_id));
    }
}

#[test]
fn flags_that_hit_most_runs_are_said_once_with_their_cause() {
    use analyze::report::review::FlagCause;
    // ab loads both cores for a whole run, and the runs were measured back to back.
    let report = committed("app-servers-ab");
    let wide = &report.variance.dataset_flags;
    assert_eq!(wide.len(), 1);
    assert_eq!((wide[0].kind, wide[0].runs, wide[0].of), ("host_load", 54, 55));
    assert_eq!(wide[0].cause, Some(FlagCause::OwnLoad));
    assert!(!report.variance.flags.iter().any(|f| matches!(f.kind, FlagKind::HostLoad { .. })));
    // A closed loop is judged by the load before it: hey's runs of seed 002 start below 1.0.
    let report = committed("gthread-python-versions");
    assert!(report.variance.flags.iter().all(|f| !matches!(f.kind, FlagKind::HostLoad { .. })), "{:?}", report.variance.flags);
    assert!(report.runs.iter().all(|r| r.max_lag_ms.is_none()), "a closed loop has no schedule lag");
}

/// The spread table's interval for the median: its column where some condition has 6 runs (the
/// fewest whose smallest-to-largest interval covers the median 95% of the time: 1 - 2/2^6 =
/// 96.9%), and below 6 runs in every condition no column of dashes but a note saying why.
#[test]
fn the_interval_for_the_median_is_a_column_from_6_runs_and_a_note_below() {
    let variance_page = |per_condition: u32| -> String {
        let root = tempfile::tempdir().unwrap();
        let (dataset, out) = (root.path().join("d"), root.path().join("out"));
        let runs: Vec<(String, &str, u32, u32)> =
            ["a", "b"].iter().flat_map(|&route| (1..=per_condition).map(move |k| (format!("{route}{k}"), route, 1, k))).collect();
        write_dataset(&dataset, &borrowed(&runs), |i| 10.0 + i as f64, |_| 0.0);
        let output = assert_cmd::Command::cargo_bin("analyze")
            .unwrap()
            .args(["report", dataset.to_str().unwrap(), "--out", out.to_str().unwrap(), "--lang", "en"])
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        std::fs::read_to_string(out.join("variance.html")).unwrap()
    };
    let six = variance_page(6);
    assert!(six.contains(">Interval for the median<") && six.contains("For conditions with 6 or more runs"), "{six}");
    let five = variance_page(5);
    assert!(!five.contains(">Interval for the median<"), "{five}");
    assert!(five.contains("No condition has 6 runs or more, so no interval for the median is given"), "{five}");
}
