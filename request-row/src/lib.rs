//! The request-row contract: what one row of `requests.csv` / `requests.parquet` is, and the one
//! validation every reader and writer of it applies.
//!
//! analyze's three readers (the CSV fast path, the CSV general path, the Parquet reader) decode a
//! row's cells into a [`RawRequest`] in their own way (text, pages) and then ask [`check`] (or its
//! quick form [`plausible`]) whether the values are a request; measure asks the same before it
//! writes a row, so it never writes what analyze refuses. Decoding problems ("abc" is not a
//! number) belong to each format; every rule about values lives here, once.
//!
//! The run statuses runs.csv allows ([`RunStatus`]) and the syntax of a run's note ([`note`]) are
//! part of the same contract.
//!
//! The crate has no dependencies so that measure builds it in a second.

use std::collections::HashMap;
use std::fmt;

pub mod columns;
pub mod name;
pub mod note;
pub mod note_words;
mod run_status;
pub use run_status::RunStatus;

/// The columns of the requests table, in [`Column`] order. Readers find them by name; other
/// columns are allowed and ignored.
pub const COLUMNS: [&str; 7] = ["run_id", "seq", "scheduled_ms", "sent_ms", "latency_ms", "status", "body_bytes"];

/// The optional column naming each request's endpoint or step, as the tool grouped its requests
/// (JMeter's `label`, Locust's `Name`, k6's `name` tag, a URL, measure's session steps). A table
/// without it has one unnamed endpoint; an empty cell is the unnamed endpoint too.
pub const LABEL: &str = "label";

/// The longest label accepted, in bytes (the names rule's bound, [`name::MAX_NAME_BYTES`]).
pub const MAX_LABEL_BYTES: usize = name::MAX_NAME_BYTES;

/// The one rule for a label's text (the readers and both writers apply it): the names rule
/// ([`name::check_name`]: trimmed, one line, no control character, bounded), except that an empty
/// (or blank) label is the unnamed endpoint. Any other text is data, escaped by whoever shows it.
pub fn check_label(label: &str) -> Result<(), String> {
    label_text(label).map(|_| ())
}

/// The label `label` stands for: trimmed (so ` a`, `a` and `a ` are one endpoint), `""` for the
/// unnamed endpoint; or why it is no label.
pub fn label_text(label: &str) -> Result<&str, String> {
    if label.trim().is_empty() {
        return Ok("");
    }
    name::check_name(label).map_err(|e| e.message("a request name"))
}

/// One column of the requests table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Column {
    RunId,
    Seq,
    ScheduledMs,
    SentMs,
    LatencyMs,
    Status,
    BodyBytes,
}

impl Column {
    /// Every column, in [`COLUMNS`] order.
    pub const ALL: [Column; 7] =
        [Column::RunId, Column::Seq, Column::ScheduledMs, Column::SentMs, Column::LatencyMs, Column::Status, Column::BodyBytes];

    /// The column's name in a file header.
    pub fn name(self) -> &'static str {
        COLUMNS[self.index()]
    }

    /// The column's position in [`COLUMNS`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// The largest latency accepted: 10^9 ms, about 11.6 days. No load test waits that long for a
/// response; a larger value is a unit or parsing mistake (1e308 ms would also make every sum and
/// chart axis infinite), so it is refused rather than ranked.
pub const MAX_LATENCY_MS: f64 = 1e9;

/// The largest magnitude accepted for `scheduled_ms` and `sent_ms`: 10^15 ms, about 31,700 years,
/// which leaves room for Unix-epoch milliseconds (about 1.8e12 today) and keeps
/// `sent_ms - scheduled_ms` finite and exact to the microsecond.
pub const MAX_TIME_MS: f64 = 1e15;

/// How much earlier than `scheduled_ms` a request may be sent: 1 ms, for two readings of one
/// clock rounded apart. A request leaves when it is due or later (an open-loop generator waits for
/// its schedule; a closed-loop one schedules each request when it sends it); one sent earlier
/// than this is a broken clock or a mislabelled column, and every schedule lag computed from it
/// (the intended-send percentiles) would be negative.
pub const EARLY_SEND_MS: f64 = 1.0;

/// A request's values as a reader decoded them, before the rules are applied.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RawRequest {
    pub seq: i64,
    pub scheduled_ms: f64,
    pub sent_ms: f64,
    /// `None` when no response arrived (an empty cell or a null).
    pub latency_ms: Option<f64>,
    pub status: i64,
    /// `None` when the cell is empty (or the column is not read).
    pub body_bytes: Option<i64>,
}

/// One validated request, its run given by index (see [`RunIndex`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RequestRow {
    /// Index of the run in runs.csv order.
    pub run: u32,
    pub seq: i64,
    pub scheduled_ms: f64,
    pub sent_ms: f64,
    /// `None` when no response arrived.
    pub latency_ms: Option<f64>,
    /// HTTP status (100-999); 0 when no response arrived.
    pub status: u16,
}

/// Why a row is not a request: the column and what is wrong with its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pub column: Column,
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.column.name(), self.message)
    }
}

impl std::error::Error for Violation {}

/// Whether `status` is 0 (no response) or an HTTP status code (100-999).
#[inline(always)]
pub fn is_status(status: i64) -> bool {
    status == 0 || (100..=999).contains(&status)
}

/// Whether a row passes [`check`], in a few comparisons: the common case on the hot paths. Equal
/// to `check(..).is_ok()` for every input (property-tested below).
#[inline(always)]
pub fn plausible(latency_ms: Option<f64>, status: i64, scheduled_ms: f64, sent_ms: f64, body_bytes: Option<i64>) -> bool {
    // NaN fails every comparison, so the bounds also refuse it.
    is_status(status)
        && scheduled_ms.abs() <= MAX_TIME_MS
        && sent_ms.abs() <= MAX_TIME_MS
        && sent_ms >= scheduled_ms - EARLY_SEND_MS
        && match latency_ms {
            Some(latency) => (0.0..=MAX_LATENCY_MS).contains(&latency),
            None => status == 0,
        }
        && body_bytes.is_none_or(|bytes| bytes >= 0)
}

/// The one validation of a request's values; the error names the first column (in file order)
/// that breaks a rule.
pub fn check(raw: &RawRequest) -> Result<(), Violation> {
    let fail = |column, message: String| Err(Violation { column, message });
    for (column, value) in [(Column::ScheduledMs, raw.scheduled_ms), (Column::SentMs, raw.sent_ms)] {
        if let Some(message) = not_finite(value) {
            return fail(column, message);
        }
        if value.abs() > MAX_TIME_MS {
            return fail(column, format!("{} is beyond ±10^15 ms (about 31,700 years): not a plausible time", show(value)));
        }
    }
    if raw.sent_ms < raw.scheduled_ms - EARLY_SEND_MS {
        return fail(
            Column::SentMs,
            format!(
                "{} is {} ms before scheduled_ms {}: a request is sent when it is due or later (at most {EARLY_SEND_MS} ms early, for clock rounding)",
                show(raw.sent_ms),
                show(raw.scheduled_ms - raw.sent_ms),
                show(raw.scheduled_ms)
            ),
        );
    }
    if !is_status(raw.status) {
        return fail(Column::Status, format!("{} is not an HTTP status (0 for no response, else 100-999)", raw.status));
    }
    match raw.latency_ms {
        None if raw.status != 0 => {
            return fail(Column::LatencyMs, format!("is empty but status is {} (a request with no response has status 0)", raw.status))
        }
        None => {}
        Some(latency) => {
            if let Some(message) = latency_problem(latency) {
                return fail(Column::LatencyMs, message);
            }
        }
    }
    if let Some(bytes) = raw.body_bytes {
        if bytes < 0 {
            return fail(Column::BodyBytes, format!("{bytes} is negative: a byte count cannot be"));
        }
    }
    Ok(())
}

/// Why a response time (ms) is not one a request can have: not finite, negative, or above
/// [`MAX_LATENCY_MS`]; `None` for a plausible one. The latency rule of [`check`], for a writer that
/// checks each value where it reads it (`analyze import`, at the place in the tool's file).
pub fn latency_problem(latency: f64) -> Option<String> {
    if let Some(message) = not_finite(latency) {
        return Some(message);
    }
    if latency < 0.0 {
        return Some(format!("{} is negative: a latency cannot be", show(latency)));
    }
    if latency > MAX_LATENCY_MS {
        return Some(format!("{} is above 10^9 ms (about 11.6 days), more than any request can plausibly take", show(latency)));
    }
    None
}

/// Validates `raw` as a request of run `run`.
pub fn validate(run: u32, raw: &RawRequest) -> Result<RequestRow, Violation> {
    if !plausible(raw.latency_ms, raw.status, raw.scheduled_ms, raw.sent_ms, raw.body_bytes) {
        check(raw)?;
    }
    Ok(RequestRow {
        run,
        seq: raw.seq,
        scheduled_ms: raw.scheduled_ms,
        sent_ms: raw.sent_ms,
        latency_ms: raw.latency_ms,
        status: raw.status as u16,
    })
}

fn not_finite(value: f64) -> Option<String> {
    if value.is_nan() {
        Some("is NaN, expected a number".to_string())
    } else if value.is_infinite() {
        Some(format!("{:?} is not a finite number", value.to_string()))
    } else {
        None
    }
}

/// A value as a message shows it: plain decimals, or an exponent when that would be very long.
fn show(value: f64) -> String {
    if value.abs() >= 1e15 {
        format!("{value:e}")
    } else {
        value.to_string()
    }
}

/// Maps run ids to run indexes (runs.csv order). Ids are compared after trimming surrounding
/// whitespace, exactly as runs.csv's ids are trimmed, so ` r01` in the requests is run `r01`.
#[derive(Debug, Clone, Default)]
pub struct RunIndex {
    ids: HashMap<Vec<u8>, u32>,
}

impl RunIndex {
    /// The index of runs.csv's (trimmed) run ids, in order.
    pub fn new<'a>(run_ids: impl IntoIterator<Item = &'a str>) -> Self {
        let ids = run_ids.into_iter().enumerate().map(|(i, id)| (id.trim().as_bytes().to_vec(), i as u32)).collect();
        RunIndex { ids }
    }

    /// Also knows these ids (runs.csv rows that were rejected), as [`RunIndex::IGNORED`].
    pub fn ignoring<'a>(mut self, run_ids: impl IntoIterator<Item = &'a str>) -> Self {
        for id in run_ids {
            self.ids.entry(id.trim().as_bytes().to_vec()).or_insert(Self::IGNORED);
        }
        self
    }

    /// The index of a run whose runs.csv row was rejected: its requests are skipped silently.
    pub const IGNORED: u32 = u32::MAX;

    /// The run of `id`, or `None` when runs.csv does not list it.
    #[inline]
    pub fn get(&self, id: &[u8]) -> Option<u32> {
        match self.ids.get(id) {
            Some(&run) => Some(run),
            None => self.get_trimmed(id),
        }
    }

    /// The id of run `run`, for a message (a search of every id: never per row of good data).
    #[cold]
    pub fn id(&self, run: u32) -> Option<&str> {
        self.ids.iter().find(|&(_, &index)| index == run && run != Self::IGNORED).and_then(|(id, _)| std::str::from_utf8(id).ok())
    }

    #[cold]
    fn get_trimmed(&self, id: &[u8]) -> Option<u32> {
        let text = std::str::from_utf8(id).ok()?;
        let trimmed = text.trim();
        if trimmed.len() == text.len() {
            return None;
        }
        self.ids.get(trimmed.as_bytes()).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn raw() -> RawRequest {
        RawRequest { seq: 1, scheduled_ms: 0.0, sent_ms: 0.5, latency_ms: Some(1.25), status: 200, body_bytes: Some(12) }
    }

    fn message(raw: RawRequest) -> String {
        check(&raw).unwrap_err().to_string()
    }

    #[test]
    fn a_label_is_one_line_of_bounded_text() {
        assert_eq!(check_label("GET /users/{id}"), Ok(()));
        assert_eq!(check_label(""), Ok(()));
        assert_eq!([label_text(" a"), label_text("a"), label_text("a ")], [Ok("a"), Ok("a"), Ok("a")], "one endpoint");
        assert_eq!(label_text("  "), Ok(""), "blank is the unnamed endpoint");
        assert!(check_label("a\u{202e}b").is_err());
        assert_eq!(check_label("<script>&\"'"), Ok(()), "markup is data, escaped where shown");
        assert_eq!(check_label("a\nb"), Err("holds the control character '\\n': a request name is one line of text".to_string()));
        assert!(check_label(&"x".repeat(MAX_LABEL_BYTES)).is_ok());
        assert_eq!(
            check_label(&"x".repeat(MAX_LABEL_BYTES + 1)),
            Err("is 1025 bytes long, more than the 1024 a request name may have".to_string())
        );
    }

    #[test]
    fn columns_are_named_in_file_order() {
        assert_eq!(Column::ALL.map(Column::name), COLUMNS);
    }

    #[test]
    fn accepts_a_response_and_a_request_without_one() {
        assert_eq!(check(&raw()), Ok(()));
        assert_eq!(check(&RawRequest { latency_ms: None, status: 0, body_bytes: None, ..raw() }), Ok(()));
        let row = validate(3, &raw()).unwrap();
        assert_eq!((row.run, row.seq, row.latency_ms, row.status), (3, 1, Some(1.25), 200));
    }

    #[test]
    fn refuses_statuses_1_to_99_and_above_999() {
        for status in [1, 42, 99, 1000, -1] {
            assert_eq!(
                message(RawRequest { status, ..raw() }),
                format!("status: {status} is not an HTTP status (0 for no response, else 100-999)")
            );
        }
        for status in [0, 100, 200, 999] {
            assert_eq!(check(&RawRequest { status, ..raw() }), Ok(()), "{status}");
        }
    }

    #[test]
    fn refuses_an_absurd_latency_and_states_the_bound() {
        assert_eq!(
            message(RawRequest { latency_ms: Some(1e308), ..raw() }),
            "latency_ms: 1e308 is above 10^9 ms (about 11.6 days), more than any request can plausibly take"
        );
        assert_eq!(check(&RawRequest { latency_ms: Some(MAX_LATENCY_MS), ..raw() }), Ok(()));
        assert_eq!(
            message(RawRequest { sent_ms: -1e300, ..raw() }),
            "sent_ms: -1e300 is beyond ±10^15 ms (about 31,700 years): not a plausible time"
        );
    }

    #[test]
    fn refuses_a_send_more_than_a_millisecond_before_its_schedule() {
        assert_eq!(
            message(RawRequest { scheduled_ms: 1000.0, sent_ms: 0.0, ..raw() }),
            "sent_ms: 0 is 1000 ms before scheduled_ms 1000: a request is sent when it is due or later (at most 1 ms early, for clock rounding)"
        );
        assert_eq!(check(&RawRequest { scheduled_ms: 1000.0, sent_ms: 999.0, ..raw() }), Ok(()), "1 ms early: clock rounding");
        assert_eq!(check(&RawRequest { scheduled_ms: 1000.0, sent_ms: 1500.0, ..raw() }), Ok(()), "late is a lag");
    }

    #[test]
    fn refuses_a_negative_body_byte_count() {
        assert_eq!(message(RawRequest { body_bytes: Some(-5), ..raw() }), "body_bytes: -5 is negative: a byte count cannot be");
    }

    #[test]
    fn names_nan_infinity_negative_and_missing_latencies() {
        assert_eq!(message(RawRequest { latency_ms: Some(f64::NAN), ..raw() }), "latency_ms: is NaN, expected a number");
        assert_eq!(message(RawRequest { latency_ms: Some(f64::INFINITY), ..raw() }), "latency_ms: \"inf\" is not a finite number");
        assert_eq!(message(RawRequest { latency_ms: Some(-1.5), ..raw() }), "latency_ms: -1.5 is negative: a latency cannot be");
        assert_eq!(
            message(RawRequest { latency_ms: None, ..raw() }),
            "latency_ms: is empty but status is 200 (a request with no response has status 0)"
        );
        assert_eq!(message(RawRequest { scheduled_ms: f64::NEG_INFINITY, ..raw() }), "scheduled_ms: \"-inf\" is not a finite number");
    }

    #[test]
    fn run_ids_are_trimmed_as_runs_csv_trims_them() {
        let index = RunIndex::new(["r01", " r02 "]).ignoring(["r03"]);
        assert_eq!(index.get(b"r01"), Some(0));
        assert_eq!(index.get(b" r01\t"), Some(0));
        assert_eq!(index.get(b"r02"), Some(1));
        assert_eq!(index.get(b"r03 "), Some(RunIndex::IGNORED));
        assert_eq!(index.get(b"r0"), None);
        assert_eq!(index.get(b"r 01"), None);
        assert_eq!((index.id(0), index.id(1), index.id(2), index.id(RunIndex::IGNORED)), (Some("r01"), Some("r02"), None, None));
    }

    fn any_f64() -> impl Strategy<Value = f64> {
        prop_oneof![
            proptest::num::f64::ANY,
            -2e15..2e15f64,
            -10.0..2e9f64,
            Just(MAX_LATENCY_MS),
            Just(MAX_TIME_MS),
            Just(-MAX_TIME_MS),
            Just(-0.0),
        ]
    }

    proptest! {
        #[test]
        fn plausible_is_exactly_check(
            latency in proptest::option::of(any_f64()),
            status in prop_oneof![-5i64..1100, any::<i64>()],
            scheduled in any_f64(),
            sent in any_f64(),
            body in proptest::option::of(-3i64..3),
        ) {
            let raw = RawRequest { seq: 0, scheduled_ms: scheduled, sent_ms: sent, latency_ms: latency, status, body_bytes: body };
            prop_assert_eq!(plausible(latency, status, scheduled, sent, body), check(&raw).is_ok());
        }
    }
}
