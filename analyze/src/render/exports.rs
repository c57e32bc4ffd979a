//! The machine-readable exports: summary.json and the per-run and per-condition CSV tables.

use crate::dataset::csv;
use crate::report::Report;
use crate::report::Spread;

/// summary.json: the whole report but the chart points, pretty-printed, ending in a newline.
pub fn summary_json(report: &Report) -> String {
    // Measured first, then written into a buffer of that size: grown by doubling, the buffer of
    // 10^5 runs (150 MB) would briefly need three times that while it moves.
    let mut counter = ByteCount(0);
    serde_json::to_writer_pretty(&mut counter, report).expect("a report always serializes");
    let mut bytes = Vec::with_capacity(counter.0 + 1);
    serde_json::to_writer_pretty(&mut bytes, report).expect("a report always serializes");
    bytes.push(b'\n');
    String::from_utf8(bytes).expect("serde_json writes UTF-8")
}

/// A writer that only counts the bytes written to it.
struct ByteCount(usize);

impl std::io::Write for ByteCount {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0 += bytes.len();
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn number(value: Option<f64>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

/// One row per run, every statistic of the run, numbers unrounded.
pub fn runs_csv(report: &Report) -> String {
    let percentile_keys: Vec<String> = report
        .runs
        .iter()
        .flat_map(|r| r.percentiles_ms.keys().cloned())
        .filter(|k| k != "95")
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let mut header = vec!["run_id".to_string(), "condition".to_string()];
    header.extend(report.factors.iter().map(|f| f.name.clone()));
    header.extend(
        [
            "repetition",
            "status",
            "note",
            "requests",
            "ok_responses",
            "errors",
            "non_2xx",
            "no_response",
            "p95_ms",
            "p95_rank",
            "headline_ms",
            "headline_rank",
        ]
        .map(String::from),
    );
    header.extend(percentile_keys.iter().map(|k| format!("p{k}_ms")));
    header.extend(
        ["max_lag_ms", "large_responses", "incomplete_large_responses", "write_s_median", "complete_s_median", "tempfile_peak_bytes"]
            .map(String::from),
    );
    let with_sessions = report.runs.iter().any(|r| r.sessions.is_some());
    if with_sessions {
        header.extend(RUN_SESSION_COLUMNS.map(String::from));
    }
    // Present when some run has no rows: its counts and headline are its tool's.
    let with_counted = report.runs.iter().any(|r| r.requests_counted.tool().is_some() || r.headline_printed.is_some());
    if with_counted {
        header.extend(RUN_COUNTED_COLUMNS.map(String::from));
    }
    let mut out = csv::line(&header);
    for run in &report.runs {
        let mut fields = vec![run.run_id.clone(), report.conditions[run.condition].id.clone()];
        fields.extend(report.factors.iter().map(|f| run.factors.get(&f.name).cloned().unwrap_or_default()));
        fields.extend([
            run.repetition.to_string(),
            run.status.as_str().to_string(),
            // A note is free text (names cannot hold controls): a CSV is also read in a terminal,
            // so its controls are shown as on a page. JSON escapes them by its own rule.
            crate::render::bidi::neutralised(run.note.to_string()),
            run.requests.to_string(),
            run.ok_responses.to_string(),
            run.errors.to_string(),
            run.non_2xx.to_string(),
            run.no_response.to_string(),
            number(run.p95_ms),
            run.p95_rank.map(|r| r.to_string()).unwrap_or_default(),
            number(run.headline_ms),
            run.headline_rank.map(|r| r.to_string()).unwrap_or_default(),
        ]);
        fields.extend(percentile_keys.iter().map(|k| number(run.percentiles_ms.get(k).copied())));
        fields.extend([
            number(run.max_lag_ms),
            run.large_responses.to_string(),
            run.incomplete_large_responses.to_string(),
            number(run.write_s_median),
            number(run.complete_s_median),
            run.tempfile_peak_bytes.map(|b| b.to_string()).unwrap_or_default(),
        ]);
        if with_sessions {
            fields.extend(run_session_fields(run.sessions.as_deref()));
        }
        if with_counted {
            fields.extend(run_counted_fields(run));
        }
        out.push_str(&csv::line(&fields));
    }
    out
}

/// One row per condition: its runs and each summary as median, min, max.
pub fn conditions_csv(report: &Report) -> String {
    let spreads = ["headline_ms", "p95_ms", "write_s", "complete_s", "tempfile_peak_bytes", "write_s_pooled", "complete_s_pooled"];
    let mut header = vec!["condition".to_string()];
    header.extend(report.factors.iter().map(|f| f.name.clone()));
    header.extend(["ok_runs", "run_ids", "left_out_runs", "representative_run"].map(String::from));
    for name in spreads {
        header.extend(["median", "min", "max"].map(|s| format!("{name}_{s}")));
    }
    let with_sessions = report.conditions.iter().any(|c| c.sessions.is_some());
    if with_sessions {
        header.extend(["sessions", "sessions_failed"].map(String::from));
        for name in CONDITION_SESSION_SPREADS {
            header.extend(["median", "min", "max"].map(|s| format!("{name}_{s}")));
        }
    }
    let with_printed = report.conditions.iter().any(|c| c.headline_printed.is_some());
    if with_printed {
        header.push("headline_printed_percentile".to_string());
        header.extend(["median", "min", "max"].map(|s| format!("headline_printed_ms_{s}")));
    }
    let mut out = csv::line(&header);
    for condition in &report.conditions {
        let mut fields = vec![condition.id.clone()];
        fields.extend(report.factors.iter().map(|f| condition.factors.get(&f.name).cloned().unwrap_or_default()));
        fields.extend([
            condition.runs.len().to_string(),
            condition.runs.join(" "),
            condition.left_out_runs.join(" "),
            condition.representative_run.clone().unwrap_or_default(),
        ]);
        let all: [Option<Spread>; 7] = [
            condition.headline_ms,
            condition.p95_ms,
            condition.write_s,
            condition.complete_s,
            condition.tempfile_peak_bytes,
            condition.write_s_pooled,
            condition.complete_s_pooled,
        ];
        for spread in all {
            fields.extend(spread_fields(spread));
        }
        if with_sessions {
            let s = condition.sessions.as_ref();
            fields.extend([s.map(|s| s.sessions.to_string()).unwrap_or_default(), s.map(|s| s.failed.to_string()).unwrap_or_default()]);
            let spreads = [s.map(|s| s.failed_share), s.and_then(|s| s.min_ms), s.and_then(|s| s.mean_ms), s.and_then(|s| s.max_ms)];
            let ranked = [s.and_then(|s| s.median_ms), s.and_then(|s| s.p95_ms)];
            for spread in spreads.into_iter().chain(ranked) {
                fields.extend(spread_fields(spread));
            }
        }
        if with_printed {
            let printed = condition.headline_printed.as_ref();
            fields.push(printed.map(|p| p.percentile.clone()).unwrap_or_default());
            fields.extend(spread_fields(printed.map(|p| p.spread)));
        }
        out.push_str(&csv::line(&fields));
    }
    out
}

fn spread_fields(spread: Option<Spread>) -> [String; 3] {
    [number(spread.map(|s| s.median)), number(spread.map(|s| s.min)), number(spread.map(|s| s.max))]
}

/// runs.csv's session columns, present when some run has sessions (sessions.csv).
const RUN_SESSION_COLUMNS: [&str; 10] = [
    "sessions",
    "sessions_failed",
    "sessions_failed_share",
    "session_min_ms",
    "session_mean_ms",
    "session_max_ms",
    "session_p50_ms",
    "session_p50_rank",
    "session_p95_ms",
    "session_p95_rank",
];

/// runs.csv's columns of a run's counts as counted (`requests_counted`: the rows', else its
/// tool's) and of the percentile its tool printed for the headline, present when some run has no rows.
const RUN_COUNTED_COLUMNS: [&str; 5] =
    ["requests_counted", "errors_counted", "requests_counted_source", "headline_printed_percentile", "headline_printed_ms"];

fn run_counted_fields(run: &crate::report::RunResult) -> [String; 5] {
    let counted = &run.requests_counted;
    let printed = run.headline_printed.as_deref();
    [
        counted.value.to_string(),
        counted.errors.map(|e| e.to_string()).unwrap_or_default(),
        counted.source.to_string(),
        printed.map(|p| p.percentile.clone()).unwrap_or_default(),
        number(printed.map(|p| p.value_ms)),
    ]
}

/// conditions.csv's session spreads (each as `_median`, `_min`, `_max`), after `sessions` and `sessions_failed`.
const CONDITION_SESSION_SPREADS: [&str; 6] =
    ["sessions_failed_share", "session_min_ms", "session_mean_ms", "session_max_ms", "session_p50_ms", "session_p95_ms"];

fn run_session_fields(s: Option<&crate::report::RunSessions>) -> Vec<String> {
    let Some(s) = s else { return vec![String::new(); RUN_SESSION_COLUMNS.len()] };
    let rank = |r: Option<u64>| r.map(|r| r.to_string()).unwrap_or_default();
    vec![
        s.sessions.to_string(),
        s.failed.to_string(),
        s.failed_share.to_string(),
        number(s.min_ms),
        number(s.mean_ms),
        number(s.max_ms),
        number(s.median_ms),
        rank(s.median_rank),
        number(s.p95_ms),
        rank(s.p95_rank),
    ]
}
