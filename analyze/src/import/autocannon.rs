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
//! decimals; `requests.average` is the mean of the one-second samples, not the requests over the
//! duration; `errors` counts requests without a response (timeouts included, also counted in
//! `timeouts`); `requests.sent` counts requests written, resent ones too. The text table rounds
//! counts ("76k") and is not read.

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

pub fn json(file: &str, text: &str) -> Result<Piece, ImportError> {
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

    // requests.average is the mean of one-second samples, which together hold at most every
    // response: it is at most requests.total over the samples (rounded up to 0.01).
    let most = responses as f64 / out.samples.max(1) as f64 + 0.01;
    if !(out.requests.average >= 0.0 && out.requests.average <= most * (1.0 + 1e-9)) {
        return Err(at(&["requests", "average"]).error(format!(
            "requests.average {} is not the mean of {} one-second samples of {responses} responses (at {}): at most {most:.2}; is the file edited?",
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
    if out.requests.sent != responses + out.errors {
        notes.push(Message::new(NoteKey::AutocannonResent, &[&out.requests.sent, &responses, &out.errors]));
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
}
