//! Artillery `run --output report.json`: the aggregate counters, rates and `http.response_time`
//! summary of the run, and its intermediate periods. A run without rows.
//!
//! Traps (Artillery 2's int-core engine_http.js and ssms.js, checked on a real run in
//! `tests/fixtures/import/artillery`): `http.response_time` is the time to the first byte of
//! the response (got's `timings.phases.firstByte`), in whole ms; its percentiles are DDSketch
//! estimates (relative accuracy 1 %, the bucket of 0-based rank q·(n-1)), rounded to 0.1 ms, so
//! one may lie up to 1 % outside the true min and max; `errors.*` counters count requests without
//! a response, and a 404 or 500 is a response (`http.codes.404`), not an error of Artillery's,
//! though this report counts every non-2xx as an error; `http.request_rate` is the mean of the
//! periods' rates, rounded to a whole number; each intermediate period covers 10 s.

use super::error::ImportError;
use super::json::{document, place};
use super::reported::{Count, Printed, ToolReported};
use super::{Message, NoteKey};
use super::{Piece, Start};
use crate::model::Rule;
use std::collections::BTreeMap;

/// The percentiles of an Artillery summary, by key, in thousandths of a percent.
const PRINTED: [(&str, u32); 6] = [("p50", 50_000), ("p75", 75_000), ("p90", 90_000), ("p95", 95_000), ("p99", 99_000), ("p999", 99_900)];

/// The summary of response times this import reads.
const RESPONSE_TIME: &str = "http.response_time";

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Period {
    counters: BTreeMap<String, u64>,
    #[serde(default)]
    rates: BTreeMap<String, f64>,
    #[serde(default)]
    summaries: BTreeMap<String, BTreeMap<String, f64>>,
    first_metric_at: i64,
    last_metric_at: i64,
}

#[derive(serde::Deserialize)]
struct Report {
    aggregate: Period,
    intermediate: Vec<Period>,
}

pub fn json(file: &str, text: &str) -> Result<Piece, ImportError> {
    let report: Report = document(file, text, "Artillery's --output report")?;
    let at = |path: &[&str]| place(file, text, path);
    let a = &report.aggregate;
    let counter = |name: &str| a.counters.get(name).copied();
    let requests = counter("http.requests").ok_or_else(|| {
        at(&["aggregate", "counters"]).error("no http.requests counter: the report of a run without HTTP requests has nothing to import")
    })?;
    let responses = counter("http.responses").unwrap_or(0);
    let mut codes = BTreeMap::new();
    for (name, &count) in &a.counters {
        if let Some(code) = name.strip_prefix("http.codes.") {
            let status = code.parse::<u16>().ok().filter(|c| (100..=599).contains(c));
            let status = status.ok_or_else(|| at(&["aggregate", "counters", name]).error(format!("{code:?} is not an HTTP status")))?;
            codes.insert(status, count);
        }
    }
    let counters_at = at(&["aggregate", "counters", "http.requests"]);
    if codes.values().sum::<u64>() != responses || responses > requests {
        return Err(at(&["aggregate", "counters", "http.responses"]).error(format!(
            "{responses} responses, but its http.codes count {} and http.requests (at {counters_at}) {requests}: is the file edited?",
            codes.values().sum::<u64>()
        )));
    }
    // Each counter of the whole run is the sum of the periods' (Artillery adds them up).
    for name in ["http.requests", "http.responses"] {
        let periods: u64 = report.intermediate.iter().filter_map(|p| p.counters.get(name)).sum();
        if !report.intermediate.is_empty() && Some(periods) != a.counters.get(name).copied() {
            return Err(at(&["intermediate"]).error(format!(
                "the intermediate periods count {periods} {name} but the aggregate (at {}) {}: is the file edited or cut?",
                at(&["aggregate", "counters", name]),
                a.counters.get(name).copied().unwrap_or(0)
            )));
        }
    }
    let no_response: u64 = a.counters.iter().filter(|(k, _)| k.starts_with("errors.")).map(|(_, v)| v).sum();
    let non_2xx: u64 = codes.iter().filter(|(s, _)| !(200..300).contains(*s)).map(|(_, n)| n).sum();

    let mut r = ToolReported::new(Rule::DdSketch);
    r.requests = Some(Count::new(requests, counters_at.clone()));
    r.errors = Some(Count::new(non_2xx + (requests - responses), counters_at));
    if let Some(times) = a.summaries.get(RESPONSE_TIME) {
        let value = |key: &str| -> Result<Printed, ImportError> {
            let v = times.get(key).copied().filter(|v| *v >= 0.0);
            let v = v.ok_or_else(|| {
                at(&["aggregate", "summaries", RESPONSE_TIME])
                    .error(format!("{RESPONSE_TIME}.{key} is missing or negative: is the file cut or edited?"))
            })?;
            Ok(Printed::new(v, 0.1, at(&["aggregate", "summaries", RESPONSE_TIME, key])))
        };
        r.min_ms = Some(value("min")?);
        r.max_ms = Some(value("max")?);
        r.mean_ms = Some(value("mean")?);
        for (key, milli) in PRINTED {
            r.percentiles_ms.insert(milli, value(key)?);
        }
        let count = value("count")?;
        r.ranked = Some(count.value as u64);
    }
    if let Some(&rate) = a.rates.get("http.request_rate") {
        r.requests_per_s = Some(Printed::new(rate, 1.0, at(&["aggregate", "rates", "http.request_rate"])));
    }
    let started = a.first_metric_at.checked_mul(1_000_000).filter(|ns| super::text::implausible_unix_ns(*ns).is_none());
    let started = started.ok_or_else(|| at(&["aggregate", "firstMetricAt"]).error("firstMetricAt is not a plausible time in Unix ms"))?;
    let mut notes = vec![Message::plain(NoteKey::ArtilleryBasis)];
    let not_found: u64 = codes.iter().filter(|(s, _)| (400..600).contains(*s)).map(|(_, n)| n).sum();
    if not_found > 0 {
        notes.push(Message::new(NoteKey::ArtilleryErrorStatuses, &[&not_found, &counter("vusers.failed").unwrap_or(0)]));
    }
    if no_response > 0 {
        let kinds: Vec<String> =
            a.counters.iter().filter_map(|(k, v)| k.strip_prefix("errors.").map(|kind| format!("{kind} {v}"))).collect();
        notes.push(Message::new(NoteKey::ArtilleryErrors, &[&kinds.join(", ")]));
    }
    notes.push(Message::new(
        NoteKey::ArtilleryPeriods,
        &[&report.intermediate.len(), &format!("{:.3}", (a.last_metric_at - a.first_metric_at) as f64 / 1000.0)],
    ));
    Ok(Piece {
        reported: Some(r),
        statuses: Some((codes, at(&["aggregate", "counters", "http.responses"]))),
        started: Some(Start { unix_ns: started, step_ns: 1_000_000, at: at(&["aggregate", "firstMetricAt"]) }),
        notes,
        ..Piece::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture() -> String {
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/import/artillery/report.json")).unwrap()
    }

    #[test]
    fn a_real_report_keeps_its_counters_and_sketch_percentiles() {
        let piece = json("report.json", &fixture()).unwrap();
        let r = piece.reported.unwrap();
        assert_eq!(r.rule, Rule::DdSketch);
        assert_eq!((r.requests.as_ref().unwrap().value, r.ranked), (1000, Some(1000)));
        assert_eq!(r.percentiles_ms[&95_000].value, 63.4);
        assert_eq!(r.percentiles_ms[&99_900].value, 162.4);
        assert_eq!(r.requests_per_s.as_ref().map(|v| v.value), Some(40.0));
        assert!(r.check().is_empty(), "{:?}", r.check());
    }

    #[test]
    fn its_404s_are_responses_for_artillery_and_errors_here() {
        let piece = json("report.json", &fixture()).unwrap();
        assert_eq!(piece.reported.unwrap().errors.unwrap().value, 500);
        assert!(piece.notes.iter().any(|n| *n == Message::new(NoteKey::ArtilleryErrorStatuses, &[&500, &0])), "{:?}", piece.notes);
    }

    #[test]
    fn periods_that_do_not_add_up_to_the_aggregate_are_refused() {
        let edited = fixture().replacen("\"http.requests\": 1000", "\"http.requests\": 1001", 1);
        let error = json("report.json", &edited).unwrap_err();
        assert!(error.message.contains("intermediate periods count 1000"), "{error}");
    }
}
