//! autocannon `--json`: its result object (latency, requests and throughput statistics from its
//! HdrHistograms, status counts, errors, the run's start and duration). A run without rows.
//!
//! Traps (autocannon 9's run.js, histUtil.js and hdr-histogram-percentiles-obj, checked on real
//! runs in `tests/fixtures/import/autocannon`): latencies are recorded in whole milliseconds
//! (the fraction is truncated) in an HdrHistogram of 5 significant digits, and its percentiles
//! are that histogram's value at percentile (the nearest rank ceil(p·n/100)); they include the
//! non-2xx responses unless autocannon ran with `--excludeErrorStats` (`latency.totalCount` says
//! how many were ranked); `min` is the smallest non-zero value, so a run of sub-millisecond
//! responses has p0.001 = 0 below its `min` of 1; the mean and stddev are rounded up to two
//! decimals; `requests.average` is the mean of the one-second samples as read back from an
//! HdrHistogram of 3 significant digits, not the requests over the duration (see
//! [`average_range`]); `errors` counts requests without a response (timeouts included, also
//! counted in `timeouts`); `requests.sent` counts every request written, those still in flight
//! when it stopped and those written to a connection the server closed too. The printed tables
//! (the default output and `-l`'s) round counts ("76k") and are not read: a file that is one is
//! refused with the hint to run autocannon with `--json` ([`printed_table`]).

use super::error::ImportError;
use super::json::{document, place};
use super::reported::{Count, Printed, ToolReported};
use super::{Message, NoteKey};
use super::{Piece, Start};
use crate::model::{percentile_key, percentile_label, Rule};
use std::collections::BTreeMap;

/// The percentiles autocannon prints (hdr-histogram-percentiles-obj), as its keys spell them.
const PRINTED: [&str; 15] =
    ["p0_001", "p0_01", "p0_1", "p1", "p2_5", "p10", "p25", "p50", "p75", "p90", "p97_5", "p99", "p99_9", "p99_99", "p99_999"];

#[derive(serde::Deserialize)]
struct Latency {
    mean: f64,
    min: f64,
    max: f64,
    #[serde(rename = "totalCount", deserialize_with = "super::json::count_field")]
    total_count: u64,
    #[serde(flatten)]
    percentiles: BTreeMap<String, serde_json::Value>,
}

#[derive(serde::Deserialize)]
struct Requests {
    average: f64,
    #[serde(deserialize_with = "super::json::count_field")]
    total: u64,
    #[serde(deserialize_with = "super::json::count_field")]
    sent: u64,
}

#[derive(serde::Deserialize)]
struct StatusCount {
    #[serde(deserialize_with = "super::json::count_field")]
    count: u64,
}

#[derive(serde::Deserialize)]
struct Output {
    start: String,
    duration: f64,
    /// `-w`'s worker threads; 0 (or absent) without them.
    #[serde(default)]
    workers: Option<u64>,
    #[serde(deserialize_with = "super::json::count_field")]
    samples: u64,
    #[serde(deserialize_with = "super::json::count_field")]
    errors: u64,
    #[serde(deserialize_with = "super::json::count_field")]
    timeouts: u64,
    #[serde(deserialize_with = "super::json::count_field")]
    non2xx: u64,
    #[serde(rename = "1xx", deserialize_with = "super::json::count_field")]
    xx1: u64,
    #[serde(rename = "2xx", deserialize_with = "super::json::count_field")]
    xx2: u64,
    #[serde(rename = "3xx", deserialize_with = "super::json::count_field")]
    xx3: u64,
    #[serde(rename = "4xx", deserialize_with = "super::json::count_field")]
    xx4: u64,
    #[serde(rename = "5xx", deserialize_with = "super::json::count_field")]
    xx5: u64,
    #[serde(rename = "statusCodeStats")]
    status_code_stats: BTreeMap<String, StatusCount>,
    latency: Latency,
    requests: Requests,
    // Required, so that a document without it is not taken for autocannon's.
    #[allow(dead_code)]
    throughput: serde_json::Value,
}

/// Whether `text` is one of autocannon's printed tables (its default output on stderr, or `-l`'s
/// with its percentile table): boxes of `Stat` rows with `Latency` and `Req/Sec`.
pub fn printed_table(text: &str) -> bool {
    text.trim_start().starts_with("Running ") && text.contains("│ Stat") && text.contains("│ Latency") && text.contains("│ Req/Sec")
}

/// The significant digits of autocannon's histogram of its one-second request counts (histUtil.js
/// builds it with `numberOfSignificantValueDigits: 3`; its latencies have 5).
const REQUESTS_DIGITS: u8 = 3;

/// The lowest and highest `requests.average` a run of `responses` responses in `samples`
/// one-second samples can print. autocannon records each second's count in an HdrHistogram and
/// prints the histogram's mean rounded up to 0.01; hdr-histogram-js's mean adds up each value's
/// median equivalent, the lowest value of its bucket plus half the bucket's width (rounded down).
/// A count below the histogram's sub-buckets (2,048 at 3 digits) is its own bucket; a larger count
/// v lies in a bucket at most v/1,024 wide, so its median equivalent is within v/2,048 of it. The
/// seconds add up to every response, so the mean is within `responses`/2,048 over the samples of
/// `responses/samples`. With `-w` workers `samples` adds up every worker's seconds while the
/// histogram holds one value per second of all workers (a second some worker did not report is
/// left out): the mean is then only known to lie between 0 and every response in one second.
fn average_range(responses: u64, samples: u64, workers: u64) -> (f64, f64) {
    if samples == 0 {
        return (0.0, 0.0);
    }
    let sub_buckets = super::hdr::sub_buckets_of(REQUESTS_DIGITS);
    // No second can count more than every response: below the sub-buckets, each is exact.
    let spread = if responses < sub_buckets { 0.0 } else { responses as f64 / sub_buckets as f64 };
    let (low, high) = match workers {
        0 => ((responses as f64 - spread) / samples as f64, (responses as f64 + spread) / samples as f64),
        _ => (0.0, responses as f64 + spread),
    };
    (low.max(0.0), (high * 100.0).ceil() / 100.0)
}

pub fn json(file: &str, text: &str) -> Result<Piece, ImportError> {
    if let Some(hint) = super::undetected_hint(text) {
        return Err(ImportError::at(file, 1, 1, format!("is not autocannon's --json result: {hint}")));
    }
    let out: Output = document(file, text, "autocannon's --json result")?;
    let at = |path: &[&str]| place(file, text, path);
    let responses = out.requests.total;
    let by_class = out.xx1 + out.xx2 + out.xx3 + out.xx4 + out.xx5;
    if by_class != responses || out.xx1 + out.xx3 + out.xx4 + out.xx5 != out.non2xx {
        return Err(at(&["non2xx"]).error(format!(
            "1xx to 5xx count {by_class} responses ({} not 2xx, non2xx says {}) but requests.total (at {}) {responses}: is the file edited?",
            by_class - out.xx2,
            out.non2xx,
            at(&["requests", "total"])
        )));
    }
    let mut statuses = BTreeMap::new();
    for (code, stats) in &out.status_code_stats {
        let status = code.parse::<u16>().ok().filter(|c| (100..=599).contains(c));
        let status = status.ok_or_else(|| at(&["statusCodeStats", code]).error(format!("{code:?} is not an HTTP status")))?;
        statuses.insert(status, stats.count);
    }
    if statuses.values().sum::<u64>() != responses {
        return Err(at(&["statusCodeStats"]).error(format!(
            "the status codes count {} responses but requests.total (at {}) {responses}: is the file edited?",
            statuses.values().sum::<u64>(),
            at(&["requests", "total"])
        )));
    }
    if out.latency.total_count > responses {
        return Err(at(&["latency", "totalCount"]).error(format!(
            "{} latencies of {responses} responses (at {}): autocannon records one per response at most",
            out.latency.total_count,
            at(&["requests", "total"])
        )));
    }
    let started =
        super::text::rfc3339_unix_ns(&out.start).ok_or_else(|| at(&["start"]).error(format!("{:?} is not an RFC 3339 time", out.start)))?;
    if let Some(why) = super::text::implausible_unix_ns(started) {
        return Err(at(&["start"]).error(format!("start: {why}")));
    }

    if let Some(problem) = super::reported::duration_problem(&Printed::new(out.duration, 0.01, at(&["duration"]))) {
        return Err(problem);
    }
    let (low, high) = average_range(responses, out.samples, out.workers.unwrap_or(0));
    // A relative 1e-9 for the division's own rounding.
    if !(out.requests.average >= low * (1.0 - 1e-9) && out.requests.average <= high * (1.0 + 1e-9)) {
        return Err(at(&["requests", "average"]).error(format!(
            "requests.average {} is not the mean of {} one-second samples of {responses} responses (at {}): autocannon reads it back from a histogram of {REQUESTS_DIGITS} significant digits, which puts it between {low:.2} and {high:.2}; is the file edited?",
            super::reported::shown(out.requests.average),
            out.samples,
            at(&["requests", "total"])
        )));
    }
    let mut r = ToolReported::new(Rule::HdrHistogram);
    let requests_at = at(&["requests", "total"]);
    r.requests = Some(Count::new(responses + out.errors, requests_at.clone()));
    r.errors = Some(Count::new(out.non2xx + out.errors, at(&["non2xx"])));
    r.ranked = Some(out.latency.total_count);
    // Whole ms, truncated: the true time is within 1 ms above the printed one.
    let ms = |value: f64, path: &[&str]| Printed::new(value, 1.0, at(path));
    r.max_ms = Some(ms(out.latency.max, &["latency", "max"]));
    r.mean_ms = Some(Printed::new(out.latency.mean, 0.01, at(&["latency", "mean"])));
    r.requests_per_s = Some(Printed::new(out.requests.average, 0.01, at(&["requests", "average"])));
    for key in PRINTED {
        let value = out.latency.percentiles.get(key).and_then(serde_json::Value::as_f64);
        let value = value
            .filter(|v| *v >= 0.0)
            .ok_or_else(|| at(&["latency"]).error(format!("latency.{key} is missing or not a number of ms: is the file cut or edited?")))?;
        let milli = percentile_key(&key[1..].replace('_', ".")).expect("autocannon's keys are percentiles");
        r.percentiles_ms.insert(milli, ms(value, &["latency", key]));
    }
    let lowest = r.percentiles_ms.values().next().map_or(0.0, |p| p.value);
    let mut notes = vec![Message::new(NoteKey::AutocannonBasis, &[&out.samples])];
    if lowest < out.latency.min {
        notes.push(Message::new(
            NoteKey::AutocannonMinNonZero,
            &[&out.latency.min, &percentile_label(*r.percentiles_ms.keys().next().expect("15 percentiles")), &lowest],
        ));
    } else {
        r.min_ms = Some(ms(out.latency.min, &["latency", "min"]));
    }
    if out.latency.total_count == responses {
        if out.non2xx > 0 {
            notes.push(Message::new(NoteKey::AutocannonNon2xxIncluded, &[&out.non2xx]));
        }
    } else {
        notes.push(Message::new(NoteKey::AutocannonRanked2xx, &[&out.latency.total_count, &responses]));
    }
    if out.requests.sent > responses + out.errors {
        notes.push(Message::new(NoteKey::AutocannonUnanswered, &[&out.requests.sent, &responses, &out.errors]));
    }
    if out.timeouts > 0 {
        notes.push(Message::new(NoteKey::AutocannonTimeouts, &[&out.timeouts, &out.errors]));
    }
    notes.push(Message::new(NoteKey::AutocannonDuration, &[&out.duration]));
    Ok(Piece {
        reported: Some(r),
        statuses: Some((statuses, at(&["statusCodeStats"]))),
        started: Some(Start { unix_ns: started, step_ns: 1_000_000, at: at(&["start"]) }),
        notes,
        ..Piece::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> String {
        std::fs::read_to_string(format!("{}/tests/fixtures/import/autocannon/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    #[test]
    fn a_real_run_keeps_its_fifteen_percentiles_and_counts() {
        let piece = json("autocannon.json", &fixture("autocannon.json")).unwrap();
        let r = piece.reported.unwrap();
        assert_eq!(r.rule, Rule::HdrHistogram);
        assert_eq!((r.requests.unwrap().value, r.errors.unwrap().value, r.ranked), (2000, 0, Some(2000)));
        assert_eq!(r.percentiles_ms.len(), 15);
        assert_eq!((r.percentiles_ms[&50_000].value, r.percentiles_ms[&99_999].value), (5.0, 128.0));
        assert_eq!(r.requests_per_s.map(|v| v.value), Some(400.0));
        assert_eq!(piece.started.map(|s| s.unix_ns), super::super::text::rfc3339_unix_ns("2026-12-01T12:02:51.902Z"));
    }

    #[test]
    fn min_is_the_smallest_non_zero_time_so_it_is_not_kept_below_a_zero_percentile() {
        let piece = json("autocannon.json", &fixture("autocannon.json")).unwrap();
        let r = piece.reported.unwrap();
        assert_eq!(r.percentiles_ms[&1].value, 0.0);
        assert_eq!(r.min_ms, None);
        assert!(piece.notes.iter().any(|n| n.key == NoteKey::AutocannonMinNonZero), "{:?}", piece.notes);
        assert!(r.check().is_empty());
    }

    #[test]
    fn non_2xx_latencies_are_ranked_unless_excluded() {
        let mixed = json("mixed.json", &fixture("mixed.json")).unwrap();
        let r = mixed.reported.as_ref().unwrap();
        assert_eq!((r.requests.as_ref().unwrap().value, r.errors.as_ref().unwrap().value, r.ranked), (937, 63, Some(937)));
        assert!(mixed.notes.contains(&Message::new(NoteKey::AutocannonNon2xxIncluded, &[&63])), "{:?}", mixed.notes);
        let excluded = json("mixed-exclude.json", &fixture("mixed-exclude.json")).unwrap();
        let r = excluded.reported.as_ref().unwrap();
        assert_eq!((r.requests.as_ref().unwrap().value, r.errors.as_ref().unwrap().value, r.ranked), (951, 49, Some(902)));
        assert!(excluded.notes.contains(&Message::new(NoteKey::AutocannonRanked2xx, &[&902, &951])), "{:?}", excluded.notes);
    }

    #[test]
    fn status_classes_that_do_not_add_up_are_refused_with_both_places() {
        let edited = fixture("mixed.json").replace("\"5xx\":63", "\"5xx\":64");
        let error = json("mixed.json", &edited).unwrap_err();
        assert!(error.message.contains("requests.total (at mixed.json:1:"), "{error}");
    }

    #[test]
    fn real_runs_of_a_fast_server_import_whatever_their_sample_count() {
        // 10,551 responses in 1 sample printed as 10,548; 36,962 in 3 as 12,321.34 (the exact
        // mean is 12,320.67); 71,768 in 5 as 14,354.4 (14,353.6).
        for (name, responses, average) in [("fast-1s.json", 10_551, 10_548.0), ("fast-3s.json", 36_962, 12_321.34), ("fast-5s.json", 71_768, 14_354.4)]
        {
            let piece = json(name, &fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
            let r = piece.reported.unwrap();
            assert_eq!((r.requests.unwrap().value, r.requests_per_s.unwrap().value), (responses, average), "{name}");
        }
    }

    #[test]
    fn the_average_may_be_off_by_half_a_bucket_of_three_significant_digits_per_sample() {
        // The run: 88,477 responses in 3 samples, printed as 29,497.34 (exact: 29,492.33).
        let (low, high) = average_range(88_477, 3, 0);
        assert!(low <= 29_492.33 && 29_497.34 <= high, "{low} {high}");
        // Each second within 1/2,048 of its count: 88,477 x (1 ± 1/2,048) / 3.
        assert_eq!((format!("{low:.2}"), format!("{high:.2}")), ("29477.93".to_string(), "29506.74".to_string()));
        // Below 2,048 a second, every count is its own bucket: only the rounding up to 0.01.
        assert_eq!(average_range(2_000, 3, 0), (2_000.0 / 3.0, 666.67));
        // With -w, the histogram holds the seconds of all workers, samples those of each worker.
        assert_eq!(average_range(1_000, 6, 2), (0.0, 1_000.0));
        assert_eq!(average_range(4_096, 6, 2), (0.0, 4_098.0));
        assert_eq!(average_range(0, 0, 0), (0.0, 0.0));
    }

    #[test]
    fn an_average_no_run_can_print_is_refused_at_its_place() {
        for edited in ["14454.4", "14254.4"] {
            let text = fixture("fast-5s.json").replace("\"average\":14354.4", &format!("\"average\":{edited}"));
            assert!(text.contains(edited));
            let error = json("fast-5s.json", &text).unwrap_err();
            assert!(error.message.contains("between 14346.59 and 14360.61"), "{error}");
            assert!(error.message.starts_with(&format!("requests.average {edited} is not the mean of 5 one-second samples")), "{error}");
        }
    }

    #[test]
    fn a_negative_duration_is_refused_at_its_place() {
        let text = fixture("fast-3s.json").replace("\"duration\":3.02", "\"duration\":-5");
        let error = json("fast-3s.json", &text).unwrap_err();
        assert_eq!(error.message, "the run's duration -5 s is negative: a run lasts no time or more");
        assert_eq!(error.place, Some((1, text.find("\"duration\"").unwrap() as u64 + 1)));
    }

    #[test]
    fn the_requests_written_without_an_answer_are_in_flight_not_resent() {
        // -d 5: 71,778 written, 71,768 answered, no error: the 10 connections' last requests.
        let piece = json("fast-5s.json", &fixture("fast-5s.json")).unwrap();
        let note = piece.notes.iter().find(|n| n.key == NoteKey::AutocannonUnanswered).expect("a note of the unanswered");
        assert_eq!(note, &Message::new(NoteKey::AutocannonUnanswered, &[&71_778, &71_768, &0]));
        let (en, ja) = note.key.words();
        assert!(en.contains("in flight when it stopped") && !en.contains("resen") && !ja.contains("送り直"), "{en} / {ja}");
        // Every request answered: nothing to say.
        let piece = json("autocannon.json", &fixture("autocannon.json")).unwrap();
        assert!(piece.notes.iter().all(|n| n.key != NoteKey::AutocannonUnanswered), "{:?}", piece.notes);
    }

    #[test]
    fn a_printed_table_is_refused_with_the_json_hint() {
        for name in ["table.txt", "latency-table.txt"] {
            let error = json(name, &fixture(name)).unwrap_err();
            assert!(error.message.contains("run autocannon with --json"), "{name}: {error}");
        }
    }
}
