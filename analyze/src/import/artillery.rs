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
//!
//! Per endpoint (the `metrics-by-endpoint` plugin, on by default in Artillery 2): counters
//! `plugins.metrics-by-endpoint.<name>.codes.<status>` per response and `.errors.<code>` per
//! request without one, and a summary `plugins.metrics-by-endpoint.response_time.<name>` of the
//! same first-byte times and sketch. `<name>` is the request's path and query (with another
//! host's name before it, and " (name)" after it for a named request), so it may hold dots: the
//! counter's kind is found from the end. They are kept as the tool's per-label figures
//! ([`ReportedLabel`]), with this import's errors (non-2xx and no response), and refused when
//! they do not add up to the aggregate's counters.

use super::error::ImportError;
use super::json::{document, place};
use super::reported::{Count, Printed, ReportedLabel, ToolReported};
use super::{Message, NoteKey};
use super::{Piece, Start};
use crate::model::Rule;
use std::collections::BTreeMap;

/// The percentiles of an Artillery summary, by key, in thousandths of a percent.
const PRINTED: [(&str, u32); 6] = [("p50", 50_000), ("p75", 75_000), ("p90", 90_000), ("p95", 95_000), ("p99", 99_000), ("p999", 99_900)];

/// The summary of response times this import reads.
const RESPONSE_TIME: &str = "http.response_time";

/// The metrics-by-endpoint plugin's namespace (its `metricsNamespace` default).
const BY_ENDPOINT: &str = "plugins.metrics-by-endpoint.";

/// The resolution of Artillery's summaries: values rounded to 0.1 ms.
const SUMMARY_STEP: f64 = 0.1;

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Period {
    #[serde(deserialize_with = "super::json::count_map")]
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
    let endpoint_counters = a.counters.keys().filter(|k| k.starts_with(BY_ENDPOINT)).map(String::as_str);
    for name in ["http.requests", "http.responses"].into_iter().chain(endpoint_counters) {
        // A counter Artillery never incremented is absent, from the aggregate and from every
        // period alike (http.responses of a run against a server that was down): 0 on both sides.
        let periods: u64 = report.intermediate.iter().filter_map(|p| p.counters.get(name)).sum();
        if !report.intermediate.is_empty() && periods != a.counters.get(name).copied().unwrap_or(0) {
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
            Ok(Printed::new(v, SUMMARY_STEP, at(&["aggregate", "summaries", RESPONSE_TIME, key])))
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
    r.labels = endpoint_labels(&at, a, &codes, requests - responses)?;
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

/// One endpoint's counters in the aggregate: its responses by status, its requests without a
/// response, and the first of its counters (where its figures are said to be).
#[derive(Default)]
struct Endpoint {
    codes: BTreeMap<u16, u64>,
    no_response: u64,
    first_counter: Option<String>,
}

/// The plugin's per-endpoint figures of the aggregate as the tool's per-label figures; empty
/// when the report has none. `no_response` is the aggregate's requests without a response.
/// Refused when the endpoints' responses of a status do not add up to its `http.codes`, their
/// requests without a response to the aggregate's, or a summary counts other responses than
/// its endpoint's counters (a file edited, or a script whose plugin skips requests:
/// `ignoreUnnamedRequests`).
fn endpoint_labels(
    at: &dyn Fn(&[&str]) -> super::reported::Place,
    a: &Period,
    codes: &BTreeMap<u16, u64>,
    no_response: u64,
) -> Result<Vec<ReportedLabel>, ImportError> {
    let mut endpoints: BTreeMap<&str, Endpoint> = BTreeMap::new();
    for (key, &count) in &a.counters {
        let Some(rest) = key.strip_prefix(BY_ENDPOINT) else { continue };
        let status = rest.rfind(".codes.").and_then(|i| {
            let status = rest[i + ".codes.".len()..].parse::<u16>().ok().filter(|c| (100..=599).contains(c))?;
            Some((&rest[..i], status))
        });
        let endpoint = match status {
            Some((name, status)) => {
                let endpoint = endpoints.entry(name).or_default();
                *endpoint.codes.entry(status).or_default() += count;
                endpoint
            }
            None => match rest.rfind(".errors.") {
                Some(i) => {
                    let endpoint = endpoints.entry(&rest[..i]).or_default();
                    endpoint.no_response += count;
                    endpoint
                }
                // Another counter of the plugin's (a later version's): not a request count.
                None => continue,
            },
        };
        endpoint.first_counter.get_or_insert_with(|| key.clone());
    }
    if endpoints.is_empty() {
        return Ok(Vec::new());
    }
    for (&status, &total) in codes {
        let summed: u64 = endpoints.values().filter_map(|e| e.codes.get(&status)).sum();
        if summed != total {
            return Err(at(&["aggregate", "counters", &format!("http.codes.{status}")]).error(format!(
                "http.codes.{status} is {total} but the endpoints' {BY_ENDPOINT}….codes.{status} counters add up to {summed}: is the file edited, or does the script's metrics-by-endpoint skip requests (ignoreUnnamedRequests)?"
            )));
        }
    }
    if let Some((name, status)) = endpoints.iter().find_map(|(n, e)| e.codes.keys().find(|s| !codes.contains_key(s)).map(|s| (*n, *s))) {
        return Err(at(&["aggregate", "counters", &format!("{BY_ENDPOINT}{name}.codes.{status}")])
            .error(format!("{name} has {status} responses but the aggregate has no http.codes.{status}: is the file edited?")));
    }
    let summed: u64 = endpoints.values().map(|e| e.no_response).sum();
    if summed != no_response {
        return Err(at(&["aggregate", "counters", "http.requests"]).error(format!(
            "{no_response} requests without a response (http.requests less http.responses) but the endpoints' {BY_ENDPOINT}….errors.* counters add up to {summed}: is the file edited, or does the script's metrics-by-endpoint skip requests (ignoreUnnamedRequests)?"
        )));
    }
    let mut labels = Vec::new();
    for (name, endpoint) in &endpoints {
        let counter_at = at(&["aggregate", "counters", endpoint.first_counter.as_deref().unwrap_or("http.requests")]);
        let responses: u64 = endpoint.codes.values().sum();
        let non_2xx: u64 = endpoint.codes.iter().filter(|(s, _)| !(200..300).contains(*s)).map(|(_, n)| n).sum();
        let summary_name = format!("{BY_ENDPOINT}response_time.{name}");
        let summary_at = |key: &str| at(&["aggregate", "summaries", &summary_name, key]);
        let mut label = ReportedLabel {
            label: name.to_string(),
            requests: Count::new(responses + endpoint.no_response, counter_at.clone()),
            errors: Count::new(non_2xx + endpoint.no_response, counter_at),
            percentiles_ms: BTreeMap::new(),
            max_ms: None,
        };
        match a.summaries.get(&summary_name) {
            Some(summary) => {
                let value = |key: &str| -> Result<f64, ImportError> {
                    summary.get(key).copied().filter(|v| *v >= 0.0).ok_or_else(|| {
                        at(&["aggregate", "summaries", &summary_name])
                            .error(format!("{summary_name}.{key} is missing or negative: is the file cut or edited?"))
                    })
                };
                let count = value("count")?;
                if count != responses as f64 {
                    return Err(summary_at("count").error(format!(
                        "{summary_name} counts {count} response times but {name}'s codes counters (at {}) {responses} responses: is the file edited?",
                        label.requests.at
                    )));
                }
                for p in crate::model::Percentile::BY_LABEL {
                    let key = PRINTED.iter().find(|(_, milli)| *milli == p.thousandths()).map(|(key, _)| *key);
                    if let Some(key) = key {
                        label.percentiles_ms.insert(p.thousandths(), Printed::new(value(key)?, SUMMARY_STEP, summary_at(key)));
                    }
                }
                label.max_ms = Some(Printed::new(value("max")?, SUMMARY_STEP, summary_at("max")));
            }
            None if responses > 0 => {
                return Err(label
                    .requests
                    .at
                    .error(format!("{name} has {responses} responses but no summary {summary_name}: is the file cut or edited?")));
            }
            None => {}
        }
        labels.push(label);
    }
    Ok(labels)
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

    /// A label's name, requests, errors, p50, p95, p99 and max.
    type Figures<'a> = (&'a str, u64, u64, f64, f64, f64, Option<f64>);

    #[test]
    fn per_endpoint_figures_are_kept_as_the_file_holds_them() {
        let labels = json("report.json", &fixture()).unwrap().reported.unwrap().labels;
        let figures: Vec<Figures> = labels
            .iter()
            .map(|l| {
                let p = |milli: u32| l.percentiles_ms[&milli].value;
                (l.label.as_str(), l.requests.value, l.errors.value, p(50_000), p(95_000), p(99_000), l.max_ms.as_ref().map(|m| m.value))
            })
            .collect();
        // aggregate.summaries."plugins.metrics-by-endpoint.response_time./missing" and "./page.html".
        assert_eq!(
            figures,
            [("/missing", 500, 500, 2.0, 61.0, 113.3, Some(267.0)), ("/page.html", 500, 0, 15.0, 67.4, 106.7, Some(129.0))]
        );
        // Each is said to be where the file holds it: /page.html's first counter is on line 10.
        assert_eq!((labels[1].requests.at.line, labels[1].percentiles_ms[&95_000].at.line), (10, 62));
    }

    #[test]
    fn endpoints_that_do_not_add_up_to_the_aggregate_are_refused_at_its_counter() {
        // One 404 of /missing moved out of the plugin's counters (and out of the one period's).
        let edited = fixture()
            .replacen(
                "\"plugins.metrics-by-endpoint./missing.codes.404\": 500",
                "\"plugins.metrics-by-endpoint./missing.codes.404\": 499",
                1,
            )
            .replacen(
                "\"plugins.metrics-by-endpoint./missing.codes.404\": 160",
                "\"plugins.metrics-by-endpoint./missing.codes.404\": 159",
                1,
            );
        let error = json("report.json", &edited).unwrap_err();
        assert_eq!(error.place, Some((11, 7)), "{error}");
        assert!(error.message.contains("http.codes.404 is 500") && error.message.contains("add up to 499"), "{error}");
    }

    #[test]
    fn a_summary_that_counts_other_responses_than_its_endpoint_is_refused() {
        let text = fixture();
        let at = text.find("\"plugins.metrics-by-endpoint.response_time./missing\"").unwrap();
        let count = at + text[at..].find("\"count\": 500").unwrap();
        let edited = format!("{}\"count\": 501{}", &text[..count], &text[count + "\"count\": 500".len()..]);
        let error = json("report.json", &edited).unwrap_err();
        assert!(error.message.contains("counts 501 response times") && error.message.contains("500 responses"), "{error}");
    }
}
