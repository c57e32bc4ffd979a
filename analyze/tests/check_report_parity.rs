//! "If check passes, report cannot hit a data error": a property test over generated datasets
//! (random factors, hostile run ids and levels, values, dataset.toml and articles) asserting that
//! no input makes `analyze check` pass and `analyze report` (or `analyze site`) fail.
//!
//! The case count is bounded so the test takes seconds; raise PROPTEST_CASES to search longer.

use analyze::cmd;
use proptest::prelude::*;
use std::fmt::Write as _;
use std::path::Path;

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) || text.trim() != text {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// A generated dataset: factors with per-run levels, run ids, latencies, and optional texts and
/// side tables (rows whose values may break their rules).
#[derive(Debug, Clone)]
struct Generated {
    factors: Vec<String>,
    runs: Vec<(String, Vec<String>, Vec<String>)>,
    manifest: Option<String>,
    article: Option<String>,
    /// Per side-table row: (run index, t or write start, a counter or write end).
    resources: Option<Vec<(usize, u8, u8)>>,
    large_responses: Option<Vec<(usize, u8, u8)>>,
}

fn side_rows() -> impl Strategy<Value = Option<Vec<(usize, u8, u8)>>> {
    prop_oneof![3 => Just(None), 1 => proptest::collection::vec((0usize..5, 0u8..4, 0u8..4), 1..5).prop_map(Some)]
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{1,6}",
        "[a-z]{1,3}[,=/_.#?%-][a-z]{0,3}",
        "\\PC{1,8}",
        "[a-z]{200,260}",
        Just("section".to_string()),
        Just("a_-1".to_string()),
        Just("a/".to_string()),
        Just("x\u{1}y".to_string()),
    ]
}

fn latency() -> impl Strategy<Value = String> {
    prop_oneof![
        30 => (0u32..100_000).prop_map(|v| format!("{}.{:03}", v / 1000, v % 1000)),
        1 => Just("abc".to_string()),
        1 => Just("-1".to_string()),
        1 => Just("1e308".to_string()),
    ]
}

fn generated() -> impl Strategy<Value = Generated> {
    let factor_names = proptest::collection::vec(
        prop_oneof![Just("route".to_string()), Just("a=b".to_string()), Just("x,y".to_string()), "[a-z]{1,5}"],
        1..3,
    );
    (factor_names, 1usize..5).prop_flat_map(|(factors, n_runs)| {
        let n_factors = factors.len();
        let run = (text(), proptest::collection::vec(text(), n_factors), proptest::collection::vec(latency(), 0..4));
        let runs = proptest::collection::vec(run, n_runs);
        let toml_string = |text: &str| text.replace('\\', "\\\\").replace('"', "\\\"");
        let manifest = proptest::option::of(prop_oneof![
            2 => Just("percentile = 99.9\n".to_string()),
            1 => Just("percentile = 12.3456\n".to_string()),
            2 => Just("percentile = 0.001\n".to_string()),
            1 => Just("[thresholds]\noutlier_ratio = 0\n".to_string()),
            1 => Just("x = \"route\"\nseries = [\"route\"]\n".to_string()),
            3 => proptest::sample::select(factors.clone()).prop_map(move |f| format!("x = \"{}\"\n", toml_string(&f))),
            3 => proptest::sample::select(factors.clone()).prop_map(move |f| format!(
                "[[factors]]\nname = \"{}\"\nlevels = [{{ value = \"a\" }}, {{ value = \"x\\u0001\", label = \"<b>\" }}]\n",
                toml_string(&f)
            )),
        ]);
        (Just(factors), runs, manifest, 0usize..9, side_rows(), side_rows()).prop_map(
            |(factors, runs, manifest, article, resources, large_responses)| {
                let article = match article {
                    0..=2 => None,
                    3 | 4 => Some(format!("p95 of the first run: {{{{ runs[\"{}\"].p95 }}}}", runs[0].0.replace('"', "'"))),
                    5 => Some("{{ runs.nope.p95 }}".to_string()),
                    6 | 7 => Some("Widest: {{ variance.widest_condition }}; runs {{ integrity.runs }}.".to_string()),
                    _ => Some("{{ conditions[\"route=x\"].headline.median }}".to_string()),
                };
                Generated { factors, runs, manifest, article, resources, large_responses }
            },
        )
    })
}

fn write(dir: &Path, dataset: &Generated) {
    std::fs::create_dir_all(dir).unwrap();
    let mut runs = String::from("run_id,repetition,started_at_utc,status,note");
    for factor in &dataset.factors {
        write!(runs, ",{}", csv_field(factor)).unwrap();
    }
    runs.push('\n');
    let mut requests = String::from("run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\n");
    for (i, (id, levels, latencies)) in dataset.runs.iter().enumerate() {
        let status = if latencies.is_empty() { "aborted" } else { "ok" };
        write!(runs, "{},1,2026-11-30T01:{:02}:00Z,{status},", csv_field(id), i % 60).unwrap();
        for level in levels {
            write!(runs, ",{}", csv_field(level)).unwrap();
        }
        runs.push('\n');
        for (seq, latency) in latencies.iter().enumerate() {
            writeln!(requests, "{},{seq},{}.0,{}.0,{latency},200,12", csv_field(id), seq * 10, seq * 10).unwrap();
        }
    }
    std::fs::write(dir.join("runs.csv"), runs).unwrap();
    std::fs::write(dir.join("requests.csv"), requests).unwrap();
    if let Some(manifest) = &dataset.manifest {
        std::fs::write(dir.join("dataset.toml"), manifest).unwrap();
    }
    if let Some(article) = &dataset.article {
        std::fs::write(dir.join("article.md"), article).unwrap();
    }
    let id = |run: usize| csv_field(&dataset.runs[run % dataset.runs.len()].0);
    if let Some(rows) = &dataset.resources {
        let mut csv = String::from("run_id,t_ms,process,pid,cpu_s,rss_bytes\n");
        for (run, t, cpu) in rows {
            writeln!(csv, "{},{t},gunicorn,7,{cpu},1000", id(*run)).unwrap();
        }
        std::fs::write(dir.join("resources.csv"), csv).unwrap();
    }
    if let Some(rows) = &dataset.large_responses {
        let mut csv = String::from("run_id,download_id,write_start_ms,write_end_ms,write_s,client_complete_s,bytes_received\n");
        for (i, (run, start, end)) in rows.iter().enumerate() {
            writeln!(csv, "{},d{},{start},{end},0.5,1.0,100", id(*run), i % 2).unwrap();
        }
        std::fs::write(dir.join("large_responses.csv"), csv).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn no_dataset_passes_check_and_fails_report(dataset in generated()) {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("datasets").join("ds");
        write(&dir, &dataset);
        let checked = cmd::check::run(&dir, false, false, false);
        if checked.is_ok() {
            let reported = cmd::report::run(&dir, &root.path().join("out"), None);
            prop_assert!(reported.is_ok(), "check passed, report failed: {:#}", reported.unwrap_err());
            let site = cmd::site::run(&root.path().join("datasets"), &root.path().join("site"), None);
            prop_assert!(site.is_ok(), "check passed, site failed: {:#}", site.unwrap_err());
        }
    }
}
