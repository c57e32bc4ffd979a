//! Locust 2: `--csv` files (`_stats.csv`, `_stats_history.csv`, `_failures.csv`,
//! `_exceptions.csv`) and `--json`. Runs without rows: Locust keeps a histogram, not requests.
//!
//! Trap: Locust rounds each response time into a bucket first (whole ms below 100 ms, then to 10
//! ms below 1 s, 100 ms below 10 s, 1 s above) and then takes the bucket at rank floor(p·n)+1, so
//! its 100 % can be below the true maximum it prints beside it. The `--json` histogram holds
//! the rounded buckets; its percentiles are recomputed here by Locust's own rule.
//!
//! Request names: Locust keeps one histogram per (method, name), so per name it has figures,
//! not rows. Both forms give them: one `_stats.csv` row per (Type, Name) before `Aggregated`,
//! one `--json` entry per (method, name). They are kept as the tool's per-label figures
//! ([`ReportedLabel`], labelled "GET /path" as Locust's tables group them), refused when they
//! do not add up to the whole run.

use super::error::ImportError;
use super::reported::{Count, Printed, ReportedLabel, ToolReported};
use super::text::{implausible_unix_ns, Csv, CsvRow};
use super::{Message, NoteKey};
use super::{Piece, Start};
use crate::model::{percentile_key, Percentile, Rule};
use std::collections::BTreeMap;

/// Locust prints floats as Python's repr (the shortest text that reads back): no rounding step.
const EXACT: f64 = 0.0;

/// The percentiles Locust prints in its tables.
const PRINTED: [u32; 11] = [50_000, 66_000, 75_000, 80_000, 90_000, 95_000, 98_000, 99_000, 99_900, 99_990, 100_000];

fn aggregated<'c>(csv: &'c Csv, what: &str) -> Result<&'c CsvRow, ImportError> {
    let name = csv.column("Name")?;
    csv.rows.iter().rev().find(|row| row.1[name].1 == "Aggregated").ok_or_else(|| {
        let last = csv.rows.last().map_or(1, |r| r.0);
        csv.lines.bad(last, 1, format!("no Aggregated row: {what}"))
    })
}

pub fn stats(file: &str, text: &str) -> Result<Piece, ImportError> {
    let csv = Csv::parse(file, text, b',')?;
    let row = aggregated(&csv, "Locust writes it last; is the file truncated?")?;
    if csv.rows.last().map(|r| r.0) != Some(row.0) {
        return Err(csv.lines.bad(csv.rows.last().map_or(1, |r| r.0), 1, "a row after the Aggregated row, which Locust writes last"));
    }
    let place = |column: usize| csv.lines.place(row.0, row.1[column].0);
    let count = |name: &str| -> Result<Count, ImportError> {
        let column = csv.column(name)?;
        Ok(Count::new(csv.count(row, column)?, place(column)))
    };
    let number = |name: &str| -> Result<Printed, ImportError> {
        let column = csv.column(name)?;
        Ok(Printed::new(csv.number(row, column)?, EXACT, place(column)))
    };
    let mut r = ToolReported::new(Rule::RoundedBuckets);
    let requests = count("Request Count")?;
    let failures = count("Failure Count")?;
    // The Aggregated row is the sum of the rows above it (one per request name).
    let name = csv.column("Name")?;
    for (what, column, total) in
        [("Request Count", csv.column("Request Count")?, &requests), ("Failure Count", csv.column("Failure Count")?, &failures)]
    {
        let mut sum = 0;
        for other in csv.rows.iter().filter(|r| r.0 != row.0 && r.1[name].1 != "Aggregated") {
            sum += csv.count(other, column)?;
        }
        if sum != total.value {
            return Err(total
                .at
                .error(format!("the Aggregated {what} is {} but the rows above it add up to {sum}: is the file edited?", total.value)));
        }
    }
    r.labels = stats_labels(&csv, row.0)?;
    r.ranked = Some(requests.value);
    r.requests = Some(requests);
    r.errors = Some(failures);
    r.requests_per_s = Some(number("Requests/s")?);
    r.min_ms = Some(number("Min Response Time")?);
    r.mean_ms = Some(number("Average Response Time")?);
    r.max_ms = Some(number("Max Response Time")?);
    for (index, name) in csv.header.iter().enumerate() {
        let Some(key) = name.strip_suffix('%').and_then(percentile_key) else { continue };
        if row.1[index].1 == "N/A" {
            continue;
        }
        r.percentiles_ms.insert(key, Printed::new(csv.number(row, index)?, EXACT, place(index)));
    }
    Ok(Piece { reported: Some(r), notes: vec![bucket_note()], ..Piece::default() })
}

/// "GET /path": a request name as Locust's tables group it, by its Type (method) and Name.
fn label_of(method: &str, name: &str) -> String {
    if method.is_empty() {
        name.to_string()
    } else {
        format!("{method} {name}")
    }
}

/// The `_stats.csv` rows above the Aggregated one (`aggregated_line`): one per (Type, Name).
fn stats_labels(csv: &Csv, aggregated_line: u64) -> Result<Vec<ReportedLabel>, ImportError> {
    let (kind, name) = (csv.column("Type")?, csv.column("Name")?);
    let (requests, failures, max) = (csv.column("Request Count")?, csv.column("Failure Count")?, csv.column("Max Response Time")?);
    let percentiles: Vec<(u32, usize)> = Percentile::BY_LABEL
        .iter()
        .filter_map(|p| {
            csv.header
                .iter()
                .position(|h| h.strip_suffix('%').and_then(percentile_key) == Some(p.thousandths()))
                .map(|i| (p.thousandths(), i))
        })
        .collect();
    let mut labels = Vec::new();
    for row in csv.rows.iter().filter(|r| r.0 != aggregated_line) {
        let place = |column: usize| csv.lines.place(row.0, row.1[column].0);
        let mut label = ReportedLabel {
            label: label_of(&row.1[kind].1, &row.1[name].1),
            requests: Count::new(csv.count(row, requests)?, place(requests)),
            errors: Count::new(csv.count(row, failures)?, place(failures)),
            percentiles_ms: BTreeMap::new(),
            max_ms: Some(Printed::new(csv.number(row, max)?, EXACT, place(max))),
        };
        for &(key, column) in &percentiles {
            if row.1[column].1 != "N/A" {
                label.percentiles_ms.insert(key, Printed::new(csv.number(row, column)?, EXACT, place(column)));
            }
        }
        labels.push(label);
    }
    Ok(labels)
}

fn bucket_note() -> Message {
    Message::plain(NoteKey::LocustBuckets)
}

pub fn history(file: &str, text: &str) -> Result<Piece, ImportError> {
    let csv = Csv::parse(file, text, b',')?;
    let timestamp = csv.column("Timestamp")?;
    let mut started: Option<Start> = None;
    for row in &csv.rows {
        let t = csv.count(row, timestamp)?;
        let ns = i64::try_from(t).ok().and_then(|t| t.checked_mul(1_000_000_000)).unwrap_or(i64::MAX);
        if let Some(why) = implausible_unix_ns(ns) {
            return Err(csv.lines.bad(row.0, row.1[timestamp].0, format!("Timestamp: {why}")));
        }
        if started.as_ref().is_none_or(|s| ns < s.unix_ns) {
            started = Some(Start { unix_ns: ns, step_ns: 1_000_000_000, at: csv.lines.place(row.0, row.1[timestamp].0) });
        }
    }
    aggregated(&csv, "Locust writes one per second")?;
    Ok(Piece { started, ..Piece::default() })
}

pub fn failures(file: &str, text: &str) -> Result<Piece, ImportError> {
    let csv = Csv::parse(file, text, b',')?;
    let occurrences = csv.column("Occurrences")?;
    let mut total = 0;
    for row in &csv.rows {
        total += csv.count(row, occurrences)?;
    }
    Ok(Piece { notes: if total > 0 { vec![Message::new(NoteKey::LocustFailures, &[&total])] } else { Vec::new() }, ..Piece::default() })
}

pub fn exceptions(file: &str, text: &str) -> Result<Piece, ImportError> {
    let csv = Csv::parse(file, text, b',')?;
    csv.column("Count")?;
    Ok(Piece::default())
}

/// Locust's `calculate_response_time_percentile`: the largest bucket below which at most
/// floor(n·p) responses fall, i.e. the bucket at rank floor(n·p)+1.
pub fn bucket_percentile(buckets: &BTreeMap<u64, (f64, u64)>, n: u64, milli: u32) -> Option<f64> {
    let below_allowed = (n as f64 * (f64::from(milli) / 100_000.0)) as u64;
    let mut processed = 0;
    for (value, count) in buckets.values().rev() {
        processed += count;
        if n - processed <= below_allowed {
            return Some(*value);
        }
    }
    None
}

pub fn json(file: &str, text: &str) -> Result<Piece, ImportError> {
    #[derive(serde::Deserialize)]
    struct Entry {
        #[serde(default)]
        name: String,
        #[serde(default)]
        method: String,
        #[serde(deserialize_with = "super::json::count_field")]
        num_requests: u64,
        #[serde(deserialize_with = "super::json::count_field")]
        num_failures: u64,
        #[serde(default, deserialize_with = "super::json::count_field")]
        num_none_requests: u64,
        total_response_time: f64,
        min_response_time: Option<f64>,
        max_response_time: f64,
        start_time: f64,
        last_request_timestamp: Option<f64>,
        #[serde(deserialize_with = "super::json::count_map")]
        response_times: BTreeMap<String, u64>,
    }
    let entries: Vec<Entry> = super::json::document(file, text, "Locust's --json")?;
    if entries.is_empty() {
        return Err(ImportError::file(file, "lists no request type"));
    }
    // Buckets keyed by their value in µs, so they sort as numbers and merge across entries.
    let mut buckets: BTreeMap<u64, (f64, u64)> = BTreeMap::new();
    let mut r = ToolReported::new(Rule::RoundedBuckets);
    let (mut n, mut failures, mut total_ms) = (0, 0, 0.0);
    let (mut start, mut end) = (f64::INFINITY, f64::NEG_INFINITY);
    let (mut min_ms, mut max_ms): (Option<f64>, Option<f64>) = (None, None);
    let entry_place = |index: usize, key: &str| {
        let (line, column) = nth_place(text, &format!("\"{key}\""), index);
        super::reported::Place::new(file, line, column)
    };
    for (index, entry) in entries.iter().enumerate() {
        let mut own: BTreeMap<u64, (f64, u64)> = BTreeMap::new();
        for (key, count) in &entry.response_times {
            let value: f64 = key.parse().ok().filter(|v: &f64| v.is_finite() && *v >= 0.0).ok_or_else(|| {
                let (line, column) = place_of(text, &format!("\"{key}\""));
                ImportError::at(file, line, column, format!("response time bucket {key:?} is not a number"))
            })?;
            let bucket = (value * 1000.0).round() as u64;
            buckets.entry(bucket).or_insert((value, 0)).1 += count;
            own.entry(bucket).or_insert((value, 0)).1 += count;
        }
        // Each entry's histogram holds its own requests: a name whose buckets do not add up is refused there.
        let counted: u64 = own.values().map(|(_, c)| c).sum();
        if counted != entry.num_requests {
            return Err(entry_place(index, "num_requests").error(format!(
                "{}: its response_times hold {counted} responses but num_requests says {}: is the file edited?",
                label_of(&entry.method, &entry.name),
                entry.num_requests
            )));
        }
        let derived = |value: f64, key: &str| Printed::new(value, EXACT, entry_place(index, key));
        r.labels.push(ReportedLabel {
            label: label_of(&entry.method, &entry.name),
            requests: Count::new(entry.num_requests, entry_place(index, "num_requests")),
            errors: Count::new(entry.num_failures, entry_place(index, "num_failures")),
            percentiles_ms: Percentile::BY_LABEL
                .iter()
                .filter_map(|p| {
                    bucket_percentile(&own, entry.num_requests, p.thousandths()).map(|v| (p.thousandths(), derived(v, "response_times")))
                })
                .collect(),
            max_ms: (entry.num_requests > 0).then(|| derived(entry.max_response_time, "max_response_time")),
        });
        n += entry.num_requests;
        failures += entry.num_failures;
        total_ms += entry.total_response_time;
        min_ms = match (min_ms, entry.min_response_time) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        max_ms = Some(max_ms.map_or(entry.max_response_time, |m| m.max(entry.max_response_time)));
        start = start.min(entry.start_time);
        end = end.max(entry.last_request_timestamp.unwrap_or(entry.start_time));
        let _ = entry.num_none_requests;
    }
    let counted: u64 = buckets.values().map(|(_, c)| c).sum();
    if counted != n {
        return Err(ImportError::file(file, format!("its response_times hold {counted} responses but num_requests says {n}")));
    }
    let place = |key: &str| {
        let (line, column) = place_of(text, &format!("\"{key}\""));
        super::reported::Place::new(file, line, column)
    };
    let derived = |value: f64, key: &str| Printed::new(value, EXACT, place(key));
    r.requests = Some(Count::new(n, place("num_requests")));
    r.errors = Some(Count::new(failures, place("num_failures")));
    r.ranked = Some(n);
    r.min_ms = min_ms.map(|v| derived(v, "min_response_time"));
    r.max_ms = max_ms.map(|v| derived(v, "max_response_time"));
    if n > 0 {
        r.mean_ms = Some(derived(total_ms / n as f64, "total_response_time"));
        for milli in PRINTED {
            if let Some(v) = bucket_percentile(&buckets, n, milli) {
                r.percentiles_ms.insert(milli, derived(v, "response_times"));
            }
        }
    }
    if end > start {
        r.requests_per_s = Some(derived(n as f64 / (end - start), "last_request_timestamp"));
    }
    let start_ns = (start * 1e9).round();
    let start_ns = if start_ns.is_finite() && start_ns.abs() < 9.2e18 { start_ns as i64 } else { i64::MAX };
    if let Some(why) = implausible_unix_ns(start_ns) {
        return Err(place("start_time").error(format!("start_time: {why}")));
    }
    Ok(Piece {
        reported: Some(r),
        started: Some(Start { unix_ns: start_ns, step_ns: 1_000, at: place("start_time") }),
        notes: vec![bucket_note(), Message::plain(NoteKey::LocustJson)],
        ..Piece::default()
    })
}

fn place_of(text: &str, needle: &str) -> (u64, u64) {
    nth_place(text, needle, 0)
}

/// The line and column of the `index`-th (0-based) line holding `needle`: each entry of Locust's
/// `--json` has each key once, so the n-th `"num_requests"` is entry n's.
fn nth_place(text: &str, needle: &str, index: usize) -> (u64, u64) {
    text.lines().enumerate().filter_map(|(i, l)| l.find(needle).map(|c| (i as u64 + 1, c as u64 + 1))).nth(index).unwrap_or((1, 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> String {
        std::fs::read_to_string(format!("{}/tests/fixtures/import/locust/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    #[test]
    fn stats_csv_gives_the_aggregated_row() {
        let r = stats("run_stats.csv", &fixture("run_stats.csv")).unwrap().reported.unwrap();
        assert_eq!((r.requests.unwrap().value, r.errors.unwrap().value, r.ranked), (5972, 0, Some(5972)));
        assert_eq!(r.percentiles_ms[&95_000].value, 6.0);
        assert_eq!(r.percentiles_ms[&99_990].value, 28.0);
        assert_eq!(r.rule, Rule::RoundedBuckets);
    }

    #[test]
    fn json_percentiles_are_bucket_values_below_the_true_maximum() {
        let r = json("locust.json", &fixture("locust.json")).unwrap().reported.unwrap();
        assert_eq!(r.requests.unwrap().value, 5176);
        // The slowest response took 142.8 ms; Locust's bucket for it is 140.
        assert_eq!(r.max_ms.unwrap().value, 142.8091880000011);
        assert_eq!(r.percentiles_ms[&100_000].value, 140.0);
        // 5176 · 0.95 = 4917.2: rank 4918 of the bucketed values.
        let mut sorted: Vec<f64> = Vec::new();
        let entries: serde_json::Value = serde_json::from_str(&fixture("locust.json")).unwrap();
        for (k, v) in entries[0]["response_times"].as_object().unwrap() {
            sorted.extend(std::iter::repeat_n(k.parse::<f64>().unwrap(), v.as_u64().unwrap() as usize));
        }
        sorted.sort_by(f64::total_cmp);
        assert_eq!(r.percentiles_ms[&95_000].value, sorted[4917]);
    }

    #[test]
    fn history_gives_the_start_second() {
        let piece = history("h.csv", &fixture("run_stats_history.csv")).unwrap();
        assert_eq!(piece.started.unwrap().unix_ns, 1_796_049_887_000_000_000);
    }

    #[test]
    fn stats_without_the_aggregated_row_is_truncated() {
        let text: String = fixture("run_stats.csv").lines().take(2).map(|l| format!("{l}\n")).collect();
        assert_eq!(stats("s.csv", &text).unwrap_err().place, Some((2, 1)));
    }

    #[test]
    fn an_aggregated_row_that_is_not_the_sum_of_the_rows_is_refused() {
        let text = fixture("run_stats.csv").replacen("GET,/page.html,5972,", "GET,/page.html,5971,", 1);
        let error = stats("s.csv", &text).unwrap_err();
        assert_eq!(error.place, Some((3, 13)));
        assert!(error.message.contains("add up to 5971"), "{error}");
    }
}
