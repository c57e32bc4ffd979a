//! k6: `--out json=` (NDJSON: `Metric` declarations and `Point` samples) and `--out csv=`.
//! Rows are the `http_req_duration` points; every other metric is skipped. And its end-of-test
//! summary as JSON ([`summary`]): `--summary-export` or the data `handleSummary()` is given.
//!
//! Traps: the status is a string tag (`"200"`, `"0"` without a response); `expected_response`
//! is k6's own verdict (its response callback), which can differ from "2xx"; a point's time is
//! when k6 recorded the request, at its end, so the send time here is that time minus
//! http_req_duration (connection setup not included). The CSV's timestamp is whole seconds.

use super::error::ImportError;
use super::text::{decimal_ns, implausible_unix_ns, rfc3339_unix_ns, Csv, Lines};
use super::{Labels, Piece, Row, Start};
use super::{Message, NoteKey};

const METRIC: &str = "http_req_duration";

fn status_of(text: &str) -> Option<u16> {
    let code = text.trim().parse::<u16>().ok()?;
    (code == 0 || (100..=599).contains(&code)).then_some(code)
}

/// What the points of a file gave, with the resolution of its times.
fn finish(points: JsonBlocks, step_ns: i64, mut notes: Vec<Message>) -> Result<Piece, ImportError> {
    let Some((started, at)) = points.first else {
        return Err(ImportError::file(&points.file, format!("holds no {METRIC} point")));
    };
    if points.disagreements > 0 {
        notes.push(Message::new(NoteKey::K6Disagrees, &[&points.disagreements]));
    }
    Ok(Piece {
        rows: Some(points.rows),
        unanswered_ms: points.unanswered_ms,
        labels: points.labels,
        started: Some(Start { unix_ns: started, step_ns, at }),
        notes,
        ..Piece::default()
    })
}

/// A point's row: sent its duration before it was stamped, in whole ns (k6 measures ns and
/// prints ms with up to 6 decimals).
fn row(latency_ms: f64, end_unix_ns: i64, status: u16) -> Row {
    let answered = status != 0;
    let duration_ns = (latency_ms * 1e6).round() as i64;
    Row::new(Some(end_unix_ns - duration_ns), answered.then_some(latency_ms), status, None)
}

/// Keeps the earliest send and its place.
fn earliest(first: &mut Option<(i64, super::Place)>, row: &Row, at: impl FnOnce() -> super::Place) {
    let sent = row.sent_ns().expect("k6 rows have send times");
    if first.as_ref().is_none_or(|(s, _)| sent < *s) {
        *first = Some((sent, at()));
    }
}

/// k6's `--out json=` (one text): see [`JsonBlocks`].
pub fn json(file: &str, text: &str) -> Result<Piece, ImportError> {
    let mut blocks = JsonBlocks { file: file.to_string(), ..JsonBlocks::default() };
    super::stream::Blocks::block(&mut blocks, text, 1)?;
    super::stream::Blocks::finish(Box::new(blocks))
}

/// What a k6 file read block by block has given so far: its rows, how many points' k6 verdict
/// disagrees with "2xx", and its earliest send with its place.
#[derive(Default)]
pub struct JsonBlocks {
    file: String,
    rows: Vec<Row>,
    /// The values of the points without a response (status 0), which k6's summary ranks too.
    unanswered_ms: Vec<f64>,
    /// Request names: k6 groups a point by its `name` tag, which defaults to its `url`.
    labels: Labels,
    disagreements: u64,
    first: Option<(i64, super::Place)>,
    /// Each metric's declaration line: k6 declares a metric once per run, before its first point.
    declared: std::collections::HashMap<String, u64>,
}

impl JsonBlocks {
    pub fn new(file: &str) -> Self {
        JsonBlocks { file: file.to_string(), ..JsonBlocks::default() }
    }
}

impl super::stream::Blocks for JsonBlocks {
    fn block(&mut self, text: &str, first_line: u64) -> Result<(), ImportError> {
        #[derive(serde::Deserialize)]
        struct Line {
            #[serde(rename = "type")]
            kind: String,
            metric: String,
            data: serde_json::Value,
        }
        let lines = Lines::starting_at(&self.file, text, first_line);
        for &(n, line) in &lines.lines {
            if line.trim().is_empty() {
                continue;
            }
            let parsed: Line =
                serde_json::from_str(line).map_err(|e| lines.bad(n, e.column() as u64, format!("not a k6 JSON line: {e}")))?;
            if parsed.kind == "Metric" {
                if let Some(first) = self.declared.get(&parsed.metric) {
                    let what = format!("the metric {} declared again, the first time at line {first}", parsed.metric);
                    return Err(super::one_run::second_run(&self.file, n, &what));
                }
                self.declared.insert(parsed.metric.clone(), n);
            }
            if parsed.kind != "Point" || parsed.metric != METRIC {
                continue;
            }
            let column_of = |key: &str| line.find(&format!("\"{key}\"")).map_or(1, |c| c as u64 + 1);
            let value = parsed.data.get("value").and_then(serde_json::Value::as_f64);
            let value = value
                .filter(|v| *v >= 0.0)
                .ok_or_else(|| lines.bad(n, column_of("value"), "data.value is not a non-negative number of ms"))?;
            let value = super::response_time(value, |why| lines.bad(n, column_of("value"), format!("data.value: {why}")))?;
            let time = parsed.data.get("time").and_then(serde_json::Value::as_str).and_then(rfc3339_unix_ns);
            let time = time.ok_or_else(|| lines.bad(n, column_of("time"), "data.time is not an RFC 3339 time"))?;
            if let Some(why) = implausible_unix_ns(time) {
                return Err(lines.bad(n, column_of("time"), format!("data.time: {why}")));
            }
            let tags = parsed.data.get("tags");
            let tag = |name: &str| tags.and_then(|t| t.get(name)).and_then(serde_json::Value::as_str);
            let status = tag("status")
                .and_then(status_of)
                .ok_or_else(|| lines.bad(n, column_of("tags"), "tags.status is not an HTTP status (k6 tags every HTTP point with one)"))?;
            if let Some(expected) = tag("expected_response") {
                if (expected == "true") != (200..300).contains(&status) {
                    self.disagreements += 1;
                }
            }
            let name = tag("name").filter(|n| !n.is_empty()).or(tag("url")).unwrap_or("");
            let label = self.labels.intern_checked(name, |why| lines.bad(n, column_of("tags"), format!("tags.name: {why}")))?;
            let point = row(value, time, status).labelled(label);
            earliest(&mut self.first, &point, || lines.place(n, 1));
            if status == 0 {
                self.unanswered_ms.push(value);
            }
            self.rows.push(point);
        }
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<Piece, ImportError> {
        finish(*self, 1, vec![send_note()])
    }
}

fn send_note() -> Message {
    Message::plain(NoteKey::K6SendTimes)
}

/// k6's `--out csv=` (one text): see [`CsvBlocks`].
pub fn csv(file: &str, text: &str) -> Result<Piece, ImportError> {
    let mut blocks = CsvBlocks::new(file);
    super::stream::Blocks::block(&mut blocks, text, 1)?;
    super::stream::Blocks::finish(Box::new(blocks))
}

/// k6's `--out csv=` read block by block: the header from the first block.
pub struct CsvBlocks {
    points: JsonBlocks,
    header: Option<Vec<String>>,
}

impl CsvBlocks {
    pub fn new(file: &str) -> Self {
        CsvBlocks { points: JsonBlocks::new(file), header: None }
    }
}

impl super::stream::Blocks for CsvBlocks {
    fn block(&mut self, text: &str, first_line: u64) -> Result<(), ImportError> {
        let file = &self.points.file;
        let csv = match &self.header {
            Some(header) => Csv::block(file, header.clone(), text, first_line, b',')?,
            None => Csv::parse(file, text, b',')?,
        };
        self.header = Some(csv.header.clone());
        let (metric, timestamp, value, status) =
            (csv.column("metric_name")?, csv.column("timestamp")?, csv.column("metric_value")?, csv.column("status")?);
        let expected = csv.header.iter().position(|h| h == "expected_response");
        let (name, url) = (csv.header.iter().position(|h| h == "name"), csv.header.iter().position(|h| h == "url"));
        for r in &csv.rows {
            if r.1[metric].1 != METRIC {
                continue;
            }
            let v = csv.number(r, value)?;
            let v = super::response_time(v, |why| csv.lines.bad(r.0, r.1[value].0, format!("metric_value: {why}")))?;
            let (column, t) = &r.1[timestamp];
            let unix_ns = decimal_ns(t.trim(), 9).or_else(|| rfc3339_unix_ns(t));
            let unix_ns =
                unix_ns.ok_or_else(|| csv.lines.bad(r.0, *column, format!("timestamp {t:?} is neither Unix seconds nor RFC 3339")))?;
            if let Some(why) = implausible_unix_ns(unix_ns) {
                return Err(csv.lines.bad(r.0, *column, format!("timestamp {t}: {why}")));
            }
            let (column, s) = &r.1[status];
            let code = status_of(s).ok_or_else(|| csv.lines.bad(r.0, *column, format!("status {s:?} is not an HTTP status")))?;
            if let Some(e) = expected {
                if (r.1[e].1 == "true") != (200..300).contains(&code) {
                    self.points.disagreements += 1;
                }
            }
            let cell = |c: Option<usize>| c.map(|c| r.1[c].1.as_str()).filter(|t| !t.is_empty());
            let (cell_at, label) = match (cell(name), cell(url)) {
                (Some(n), _) => (name, n),
                (None, Some(u)) => (url, u),
                (None, None) => (None, ""),
            };
            let label_column = cell_at.map_or(1, |c| r.1[c].0);
            let what = cell_at.map_or("name", |c| csv.header[c].as_str());
            let label = self.points.labels.intern_checked(label, |why| csv.lines.bad(r.0, label_column, format!("{what}: {why}")))?;
            let point = row(v, unix_ns, code).labelled(label);
            earliest(&mut self.points.first, &point, || csv.lines.place(r.0, *column));
            if code == 0 {
                self.points.unanswered_ms.push(v);
            }
            self.points.rows.push(point);
        }
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<Piece, ImportError> {
        finish(self.points, 1_000_000_000, vec![send_note(), Message::plain(NoteKey::K6CsvSeconds)])
    }
}

/// One metric of a k6 summary: `--summary-export` writes its values at the top level and each
/// threshold as `true` when it FAILED (k6#1498); `handleSummary()` data nests them in `values`
/// and each threshold as `{"ok": bool}`.
#[derive(serde::Deserialize)]
struct Metric {
    values: Option<std::collections::BTreeMap<String, f64>>,
    #[serde(default)]
    thresholds: std::collections::BTreeMap<String, serde_json::Value>,
    #[serde(flatten)]
    rest: std::collections::BTreeMap<String, serde_json::Value>,
}

impl Metric {
    fn value(&self, key: &str) -> Option<f64> {
        match &self.values {
            Some(values) => values.get(key).copied(),
            None => self.rest.get(key).and_then(serde_json::Value::as_f64),
        }
    }

    /// Each threshold with whether it passed.
    fn thresholds(&self, name: &str) -> Result<Vec<(String, bool)>, String> {
        self.thresholds
            .iter()
            .map(|(expression, verdict)| {
                let passed = match (self.values.is_some(), verdict) {
                    (false, serde_json::Value::Bool(failed)) => !failed,
                    (true, serde_json::Value::Object(o)) => o
                        .get("ok")
                        .and_then(serde_json::Value::as_bool)
                        .ok_or_else(|| format!("{name} threshold {expression:?} has no ok"))?,
                    _ => {
                        return Err(format!(
                            "{name} threshold {expression:?} is neither summary-export's boolean nor handleSummary's {{\"ok\": bool}}"
                        ))
                    }
                };
                Ok((format!("{name}: {expression}"), passed))
            })
            .collect()
    }
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct State {
    test_run_duration_ms: f64,
}

#[derive(serde::Deserialize)]
struct Summary {
    metrics: std::collections::BTreeMap<String, Metric>,
    state: State,
    // Required, so that only k6's summary is taken for one.
    #[allow(dead_code)]
    root_group: serde_json::Value,
}

/// k6's end-of-test summary as JSON, in either form: `http_reqs` (count and rate),
/// `http_req_failed` (k6's verdict of each request: `passes` counts the failed ones, a rate metric
/// being true for them), `http_req_duration`'s trend (avg, min, med, max and the `p(N)` of
/// `summaryTrendStats`, interpolated) and every threshold with its verdict, kept in the note.
/// Traps: `med` is p50; a summary has no status counts and no count of the durations (k6 records
/// one for every request, failed ones too); the test's duration includes the start-up of its VUs.
pub fn summary(file: &str, text: &str) -> Result<Piece, ImportError> {
    use super::json::{document, place};
    use super::reported::{Count, Printed, ToolReported};
    let summary: Summary = document(file, text, "a k6 summary (--summary-export or handleSummary() data)")?;
    let at = |path: &[&str]| place(file, text, path);
    let metric = |name: &str| {
        summary.metrics.get(name).ok_or_else(|| at(&["metrics"]).error(format!("no {name} metric: is this the summary of an HTTP test?")))
    };
    let (reqs, failed, duration) = (metric("http_reqs")?, metric("http_req_failed")?, metric(METRIC)?);
    // Read from the text as k6 wrote them, whole: through a float 2^53+1 would be quoted rounded
    // and 2^64 saturated.
    let count = |m: &Metric, name: &str, key: &str| -> Result<Count, ImportError> {
        let missing = || at(&["metrics", name]).error(format!("{name}.{key} is missing: k6 writes it for every HTTP test"));
        m.value(key).ok_or_else(missing)?;
        super::json::count(file, text, &["metrics", name, key]).ok_or_else(missing)?
    };
    // In k6's order of the metrics (by name), so the first problem is the first in the file.
    let errors = count(failed, "http_req_failed", "passes")?;
    let succeeded = count(failed, "http_req_failed", "fails")?;
    let requests = count(reqs, "http_reqs", "count")?;
    if errors.value + succeeded.value != requests.value {
        return Err(errors.at.error(format!(
            "http_req_failed counts {} failed (here) and {} other requests (at {}), but http_reqs {} (at {}): is the file edited?",
            errors.value, succeeded.value, succeeded.at, requests.value, requests.at
        )));
    }
    let mut r = ToolReported::new(crate::model::Rule::Interpolated);
    r.ranked = Some(requests.value);
    r.requests = Some(requests);
    r.errors = Some(errors);
    r.requests_per_s = reqs.value("rate").map(|v| Printed::new(v, 0.0, at(&["metrics", "http_reqs", "rate"])));
    let duration_ms = summary.state.test_run_duration_ms;
    if duration_ms < 0.0 {
        let why = format!("testRunDurationMs {} is negative: a test lasts no time or more", super::reported::shown(duration_ms));
        return Err(at(&["state", "testRunDurationMs"]).error(why));
    }
    r.duration_s = Some(Printed::new(duration_ms / 1000.0, 0.0, at(&["state", "testRunDurationMs"])));
    let ms = |key: &str| duration.value(key).map(|v| Printed::new(v, 0.0, at(&["metrics", METRIC, key])));
    r.min_ms = ms("min");
    r.mean_ms = ms("avg");
    r.max_ms = ms("max");
    let stats: Vec<&String> = match &duration.values {
        Some(values) => values.keys().collect(),
        None => duration.rest.keys().collect(),
    };
    for key in stats {
        let milli = if key == "med" {
            Some(50_000)
        } else {
            key.strip_prefix("p(").and_then(|k| k.strip_suffix(')')).and_then(crate::model::percentile_key)
        };
        if let (Some(milli), Some(value)) = (milli, ms(key)) {
            r.percentiles_ms.insert(milli, value);
        }
    }
    let mut verdicts = Vec::new();
    for (name, m) in &summary.metrics {
        verdicts.extend(m.thresholds(name).map_err(|why| at(&["metrics", name, "thresholds"]).error(why))?);
    }
    let mut notes = vec![Message::plain(NoteKey::K6SummaryBasis)];
    for (threshold, passed) in &verdicts {
        notes.push(Message::new(if *passed { NoteKey::K6ThresholdPassed } else { NoteKey::K6ThresholdFailed }, &[threshold]));
    }
    Ok(Piece { reported: Some(r), notes, ..Piece::default() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> String {
        std::fs::read_to_string(format!("{}/tests/fixtures/import/k6/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    #[test]
    fn only_http_req_duration_points_become_rows_with_their_status_tag() {
        let piece = json("k6.json", &fixture("k6.json")).unwrap();
        let rows = piece.rows.unwrap();
        let lines = fixture("k6.json");
        let points = lines.lines().filter(|l| l.contains("\"Point\"") && l.contains("\"http_req_duration\"")).count();
        assert_eq!(rows.len(), points);
        assert!(lines.lines().any(|l| l.contains("\"http_reqs\"")), "the fixture has other metrics to skip");
        assert!(rows.iter().any(|r| r.status == 0 && r.latency_ms().is_none()), "a request without a response");
    }

    #[test]
    fn expected_response_disagreeing_with_2xx_is_said() {
        let line = r#"{"type":"Point","data":{"time":"2026-11-30T14:44:40.5Z","value":12.5,"tags":{"status":"200","expected_response":"false","method":"GET"}},"metric":"http_req_duration"}"#;
        let piece = json("k6.json", &format!("{line}\n")).unwrap();
        let row = piece.rows.unwrap()[0];
        assert_eq!(row.status, 200);
        assert_eq!(row.sent_ns(), Some(rfc3339_unix_ns("2026-11-30T14:44:40Z").unwrap() + 500_000_000 - 12_500_000));
        assert!(piece.notes.contains(&Message::new(NoteKey::K6Disagrees, &[&1])));
    }

    #[test]
    fn csv_and_json_fixtures_hold_the_same_requests() {
        let a = json("k6.json", &fixture("k6.json")).unwrap().rows.unwrap();
        let b = csv("k6.csv", &fixture("k6.csv")).unwrap().rows.unwrap();
        assert_eq!(a.len(), b.len());
        assert!(a.iter().zip(&b).all(|(x, y)| x.latency_ms() == y.latency_ms() && x.status == y.status));
    }

    #[test]
    fn both_summary_forms_give_the_same_numbers_and_thresholds() {
        let export = summary("export.json", &fixture("summary-export.json")).unwrap();
        let data = summary("data.json", &fixture("handle-summary.json")).unwrap();
        let (a, b) = (export.reported.unwrap(), data.reported.unwrap());
        assert_eq!(a.rule, crate::model::Rule::Interpolated);
        assert_eq!((a.requests.as_ref().unwrap().value, a.errors.as_ref().unwrap().value), (300, 3));
        let values = |r: &super::super::ToolReported| r.percentiles_ms.iter().map(|(k, v)| (*k, v.value)).collect::<Vec<_>>();
        assert_eq!(values(&a), values(&b));
        assert!(a.percentiles_ms.contains_key(&50_000) && a.percentiles_ms.contains_key(&95_000));
        // summary-export says `true` for a threshold that failed, handleSummary `ok: false`.
        for notes in [&export.notes, &data.notes] {
            assert!(
                notes.contains(&Message::new(NoteKey::K6ThresholdFailed, &[&"http_req_duration: p(95)<2"]))
                    && notes.contains(&Message::new(NoteKey::K6ThresholdPassed, &[&"http_req_failed: rate<0.05"])),
                "{notes:?}"
            );
        }
    }

    #[test]
    fn the_points_of_two_runs_in_one_file_are_refused_where_the_second_begins() {
        let one = fixture("k6.json");
        let error = json("both.json", &format!("{one}{one}")).unwrap_err();
        assert_eq!(error.place, Some((one.lines().count() as u64 + 1, 1)), "{error}");
        assert!(error.message.contains("the metric http_reqs declared again, the first time at line 1"), "{error}");
    }

    #[test]
    fn a_cut_json_line_names_line_and_column() {
        let text: String = fixture("k6.json").lines().take(5).collect::<Vec<_>>().join("\n");
        let cut = &text[..text.len() - 10];
        let error = json("k6.json", cut).unwrap_err();
        assert_eq!(error.place.unwrap().0, 5);
    }
}
