//! `analyze import`: the outputs of other load generators become one run of a dataset.
//!
//! Each format has one parser (one file per tool) that turns one file into a [`Piece`]: rows
//! when the file has one line per request, the tool's own printed numbers ([`ToolReported`]) with
//! the rule it ranks by and the place of each, and what it says about the run (version, start
//! time). Every parser knows the complete shape of its format and refuses a file cut short. The
//! pieces of one invocation's files must agree (`agree.rs`) and are merged into one
//! [`ImportedRun`]; `write.rs` turns that into dataset files. Nothing here computes a statistic
//! of ours: the tool's numbers are kept as printed.

mod agree;
mod decimal;
mod doubts;
pub mod error;
mod json;
pub mod kept;
mod one_run;
pub mod reported;
pub mod stream;
mod text;
pub mod write;

mod ab;
mod artillery;
mod autocannon;
mod hdr;
mod hey;
mod jmeter;
mod k6;
mod locust;
mod oha;
mod requests;
mod siege;
mod tables;
mod vegeta;
mod wrk;

pub use error::{ImportError, ImportErrors};
pub use reported::{Count, Place, Printed, ToolReported};

pub use crate::model::{Format, Message, NoteKey, SendTimes, Tool};
use std::fmt;

/// The command's own words about each format and the detection from a file's text; the
/// format's identity and what its rows record are in [`crate::model::Format`].
impl Format {
    /// What the user would call the file, for the "detected" message.
    pub fn description(self) -> &'static str {
        match self {
            Format::AbGnuplot => "ab -g TSV (one row per request)",
            Format::AbPercentiles => "ab -e CSV (ab's percentage table)",
            Format::AbStdout => "ab's printed summary",
            Format::HeyCsv => "hey -o csv (one row per response)",
            Format::HeyText => "hey's printed summary",
            Format::WrkText => "wrk's printed summary",
            Format::SiegeVerbose => "siege -v lines (one per request)",
            Format::SiegeText => "siege's printed summary",
            Format::SiegeJson => "siege's JSON summary",
            Format::SiegeLog => "siege --log CSV",
            Format::LocustStats => "Locust --csv _stats.csv",
            Format::LocustHistory => "Locust --csv _stats_history.csv",
            Format::LocustFailures => "Locust --csv _failures.csv",
            Format::LocustExceptions => "Locust --csv _exceptions.csv",
            Format::LocustJson => "Locust --json",
            Format::K6Json => "k6 --out json (NDJSON points)",
            Format::K6Csv => "k6 --out csv",
            Format::VegetaCsv => "vegeta encode --to csv",
            Format::VegetaJson => "vegeta encode --to json",
            Format::OhaJson => "oha --output-format json",
            Format::OhaCsv => "oha --output-format csv (one row per response)",
            Format::OhaSqlite => "oha --db-url's sqlite database (one row per response)",
            Format::JmeterCsv => "JMeter JTL CSV",
            Format::AutocannonJson => "autocannon --json",
            Format::ArtilleryJson => "Artillery --output report",
            Format::K6Summary => "k6 --summary-export or handleSummary() data",
            Format::Wrk2Text => "wrk2 --latency's printed output",
            Format::HdrPercentiles => "an HdrHistogram percentile distribution (.hgrm)",
            Format::HdrLog => "an HdrHistogram interval log (.hlog)",
        }
    }

    /// What `--help` says about the format: the command that writes it and what to know.
    pub fn help(self) -> &'static str {
        match self {
            Format::AbGnuplot => "ab -g FILE: one row per completed request, sorted by total time; needs the same run's stdout (ab-stdout), which counts the failed requests (the rows carry no status: which rows failed is unknown, so the run's errors are ab's count and its percentiles rank every completed request); sends to the second, times to the ms",
            Format::AbPercentiles => "ab -e FILE: ab's percentage table, 0-100 %, to the µs; needs the same run's stdout, which counts the requests",
            Format::AbStdout => "ab's printed output (ab ... > stdout.txt), with its percentage table (do not run ab with -d); whole ms",
            Format::HeyCsv => "hey -o csv: one row per response (requests that got no response are not in it); import it with hey's summary of the same run to keep those",
            Format::HeyText => "hey's printed summary; hey keeps at most 1,000,000 results",
            Format::WrkText => "wrk --latency's printed output (without --latency wrk prints no percentiles); socket errors are connection events, not requests",
            Format::SiegeVerbose => "siege -v's lines (stdout), one per response; no send times; import with siege's summary (stderr) to count the failed requests",
            Format::SiegeText => "siege's printed summary (stderr); no percentiles",
            Format::SiegeJson => "siege --json-output's summary (stdout), with its LOG FILE trailer when logging",
            Format::SiegeLog => "siege --log=FILE: one line per run; import a log of one run",
            Format::LocustStats => "Locust --csv PREFIX: PREFIX_stats.csv, its Aggregated row; Locust writes it once a second, so beside the same run's --json (written at the end) it lags: import one of the two",
            Format::LocustHistory => "Locust --csv PREFIX: PREFIX_stats_history.csv, for the run's start; import with _stats.csv",
            Format::LocustFailures => "Locust --csv PREFIX: PREFIX_failures.csv; import with _stats.csv",
            Format::LocustExceptions => "Locust --csv PREFIX: PREFIX_exceptions.csv; import with _stats.csv",
            Format::LocustJson => "Locust --json (stdout): its response-time buckets, ranked by Locust's rule",
            Format::K6Json => "k6 run --out json=FILE: the http_req_duration points",
            Format::K6Csv => "k6 run --out csv=FILE: the http_req_duration points; sends to the second",
            Format::VegetaCsv => "vegeta encode --to csv: one row per result, ns",
            Format::VegetaJson => "vegeta encode --to json: one result per line, ns",
            Format::OhaJson => "oha --no-tui --output-format json: its summary, percentiles and status counts",
            Format::OhaCsv => "oha --no-tui --output-format csv: one row per response (start and duration in s, bytes, status; requests without a response are not in it); no start time",
            Format::OhaSqlite => "oha --db-url FILE: one row per response of one run (its start from the run column); import it with the same run's --output-format json to check its counts and ranks",
            Format::JmeterCsv => "a JMeter JTL CSV (timeStamp,elapsed,...): one row per sample",
            Format::AutocannonJson => "autocannon --json: its 15 percentiles (HdrHistogram's value at percentile over whole ms), mean, max, counts and start; latencies include non-2xx responses unless --excludeErrorStats; its min is the smallest non-zero time",
            Format::ArtilleryJson => "artillery run --output FILE: the aggregate counters and http.response_time (time to first byte; DDSketch estimates within 1 %); 4xx/5xx are responses for Artillery, errors here",
            Format::K6Summary => "k6 run --summary-export FILE or handleSummary()'s data as JSON: http_reqs, http_req_failed and http_req_duration's trend (k6 interpolates), thresholds kept in the note; with the same run's --out json or csv rows, one run (its trend ranks the requests without a response too)",
            Format::Wrk2Text => "wrk2 --latency's printed output: its Latency Distribution (HdrHistogram's C rule, rank round(p·n/100)) and spectrum; the histogram leaves out the first 10 s",
            Format::HdrPercentiles => "a .hgrm percentile distribution (HdrHistogram's outputPercentileDistribution, in ms): the rows at run_stats' percentiles, mean, max, count; errors not known",
            Format::HdrLog => "a .hlog interval log (V2 compressed histograms): the intervals added up, read by HdrHistogram's value at percentile; values in ns when Interval_Max is max/10^6; errors not known",
        }
    }

    /// Recognises a format from the start of a file's text (never from its name).
    pub fn detect(text: &str) -> Option<Format> {
        let text = text.trim_start_matches('\u{feff}');
        let first = text.lines().next().unwrap_or("").trim_end_matches('\r');
        let head = first.trim_start();
        let has = |needle: &str| text.contains(needle);
        if first.starts_with("starttime\tseconds\tctime\tdtime\tttime\twait") {
            return Some(Format::AbGnuplot);
        }
        if first == "Percentage served,Time in ms" {
            return Some(Format::AbPercentiles);
        }
        // Before the searches through the whole text below: a hey CSV may be half a gigabyte.
        if first.starts_with("response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code") {
            return Some(Format::HeyCsv);
        }
        if first == "request-start,DNS,DNS+dialup,Response-delay,request-duration,bytes,status" {
            return Some(Format::OhaCsv);
        }
        if first.starts_with("#[Histogram log format version")
            || has("\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"")
        {
            return Some(Format::HdrLog);
        }
        if head.split_whitespace().collect::<Vec<_>>() == ["Value", "Percentile", "TotalCount", "1/(1-Percentile)"] {
            return Some(Format::HdrPercentiles);
        }
        if first.starts_with("Running ") && has("Thread Stats") && has("Latency Distribution (HdrHistogram") {
            return Some(Format::Wrk2Text);
        }
        if head.starts_with('{') && has("\"latency\"") && has("\"throughput\"") && has("\"statusCodeStats\"") {
            return Some(Format::AutocannonJson);
        }
        if head.starts_with('{') && has("\"aggregate\"") && has("\"intermediate\"") && has("\"counters\"") {
            return Some(Format::ArtilleryJson);
        }
        if head.starts_with('{') && has("\"root_group\"") && has("\"metrics\"") && has("\"http_req_duration\"") {
            return Some(Format::K6Summary);
        }
        if has("This is ApacheBench") || (has("Complete requests:") && has("Time taken for tests:")) {
            return Some(Format::AbStdout);
        }
        if has("Summary:") && has("Requests/sec:") && has("Response time histogram:") && !has("Success rate:") {
            return Some(Format::HeyText);
        }
        if first.starts_with("Running ") && has("Thread Stats") {
            return Some(Format::WrkText);
        }
        if head.starts_with("HTTP/") && head.contains(" secs:") && head.contains("==>") {
            return Some(Format::SiegeVerbose);
        }
        if head.starts_with("Date & Time,") && head.contains("Trans") {
            return Some(Format::SiegeLog);
        }
        if head.starts_with('{') && has("\"transactions\"") && has("\"availability\"") {
            return Some(Format::SiegeJson);
        }
        if has("Transactions:") && has("Availability:") && has("Transaction rate:") {
            return Some(Format::SiegeText);
        }
        if first.starts_with("Type,Name,Request Count,Failure Count") {
            return Some(Format::LocustStats);
        }
        if first.starts_with("Timestamp,User Count,Type,Name,") {
            return Some(Format::LocustHistory);
        }
        if first.starts_with("Method,Name,Error,Occurrences") {
            return Some(Format::LocustFailures);
        }
        if first.starts_with("Count,Message,Traceback,Nodes") {
            return Some(Format::LocustExceptions);
        }
        if head.starts_with('[') && has("\"response_times\"") && has("\"num_requests\"") {
            return Some(Format::LocustJson);
        }
        if head.starts_with("{\"type\":\"Metric\"") || head.starts_with("{\"type\":\"Point\"") {
            return Some(Format::K6Json);
        }
        if first.starts_with("metric_name,timestamp,metric_value") {
            return Some(Format::K6Csv);
        }
        if head.starts_with('{') && has("\"latencyPercentiles\"") && has("\"summary\"") {
            return Some(Format::OhaJson);
        }
        if head.starts_with('{') && head.contains("\"latency\"") && head.contains("\"code\"") && head.contains("\"bytes_in\"") {
            return Some(Format::VegetaJson);
        }
        if vegeta::looks_like_csv(first) {
            return Some(Format::VegetaCsv);
        }
        if first.starts_with("timeStamp,elapsed,") {
            return Some(Format::JmeterCsv);
        }
        None
    }
}

/// What to do with a file that is a known tool's output in a form that does not import (the
/// "matches no known format" refusal says it): `None` for any other file.
pub fn undetected_hint(text: &str) -> Option<&'static str> {
    autocannon::printed_table(text.trim_start_matches('\u{feff}')).then_some(
        "it is autocannon's printed table, whose counts are rounded (\"13k requests\"): run autocannon with --json and import that output (autocannon-json)",
    )
}

/// One request as a tool recorded it, in 32 bytes (a run may hold tens of millions): what is not
/// recorded is held as a value no file can give (checked when the row is made).
#[derive(Clone, Copy)]
pub struct Row {
    sent_ns: i64,
    latency_ms: f64,
    body_bytes: u64,
    /// HTTP status; 0 when there was no response.
    pub status: u16,
    /// Index of its request name in its piece's [`Labels`]; [`NO_LABEL`] without one.
    label: u32,
}

/// The held values of what a row does not record.
const NO_SEND: i64 = i64::MIN;
const NO_BYTES: u64 = u64::MAX;
const NO_LABEL: u32 = u32::MAX;

/// The request names of a file's rows, each once, in the order first seen: a row holds the
/// index of its name, not the text (a run may hold tens of millions of rows and a few names).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Labels {
    names: Vec<String>,
    index: std::collections::HashMap<String, u32>,
}

impl Labels {
    /// The index of `name`, added when new.
    pub fn intern(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        let i = self.names.len() as u32;
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), i);
        i
    }

    /// [`Labels::intern`], checking a new name against the label rule (`request_row::check_label`)
    /// first: a name that breaks it is refused by `refuse`, which is given why and names the place.
    pub fn intern_checked(&mut self, name: &str, refuse: impl FnOnce(String) -> ImportError) -> Result<u32, ImportError> {
        if !self.index.contains_key(name) {
            if let Err(why) = request_row::check_label(name) {
                return Err(refuse(label_problem(name, &why)));
            }
        }
        Ok(self.intern(name))
    }

    /// The name at an index a row holds.
    pub fn name(&self, index: u32) -> Option<&str> {
        self.names.get(index as usize).map(String::as_str)
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    pub fn names(&self) -> &[String] {
        &self.names
    }
}

/// A response time (ms) read from a tool's file, refused by `refuse` (given why, naming the place)
/// when the request-row contract would refuse it (`request_row::latency_problem`): every row's
/// time is checked where it is read, so a refusal names its line and column.
pub fn response_time(latency_ms: f64, refuse: impl FnOnce(String) -> ImportError) -> Result<f64, ImportError> {
    match request_row::latency_problem(latency_ms) {
        Some(why) => Err(refuse(why)),
        None => Ok(latency_ms),
    }
}

/// Why a request name is refused, quoting its start (a name may be a pasted body of megabytes).
pub fn label_problem(name: &str, why: &str) -> String {
    let shown: String = name.chars().take(80).collect();
    let more = if shown.len() < name.len() { "…" } else { "" };
    format!("the request name {shown:?}{more} {why}")
}

impl Row {
    /// `sent_ns`: when it was sent, in ns from any origin shared by the run's rows (the writer
    /// makes the first send 0), exactly as the file gives it, `None` when the format has no send
    /// time; `latency_ms`: the response time, `None` without a response; `body_bytes`: the
    /// response body's size when the file gives it.
    pub fn new(sent_ns: Option<i64>, latency_ms: Option<f64>, status: u16, body_bytes: Option<u64>) -> Row {
        debug_assert!(sent_ns != Some(NO_SEND) && latency_ms.is_none_or(|l| !l.is_nan()) && body_bytes != Some(NO_BYTES));
        Row {
            sent_ns: sent_ns.unwrap_or(NO_SEND),
            latency_ms: latency_ms.unwrap_or(f64::NAN),
            body_bytes: body_bytes.unwrap_or(NO_BYTES),
            status,
            label: NO_LABEL,
        }
    }

    /// The row with its request name, an index into its piece's [`Labels`].
    pub fn labelled(self, label: u32) -> Row {
        debug_assert!(label != NO_LABEL);
        Row { label, ..self }
    }

    /// The index of its request name, `None` without one.
    pub fn label(&self) -> Option<u32> {
        (self.label != NO_LABEL).then_some(self.label)
    }

    pub fn sent_ns(&self) -> Option<i64> {
        (self.sent_ns != NO_SEND).then_some(self.sent_ns)
    }

    pub fn latency_ms(&self) -> Option<f64> {
        (!self.latency_ms.is_nan()).then_some(self.latency_ms)
    }

    pub fn body_bytes(&self) -> Option<u64> {
        (self.body_bytes != NO_BYTES).then_some(self.body_bytes)
    }
}

impl PartialEq for Row {
    fn eq(&self, other: &Row) -> bool {
        (self.sent_ns(), self.latency_ms(), self.status, self.body_bytes(), self.label())
            == (other.sent_ns(), other.latency_ms(), other.status, other.body_bytes(), other.label())
    }
}

impl fmt::Debug for Row {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Row")
            .field("sent_ns", &self.sent_ns())
            .field("latency_ms", &self.latency_ms())
            .field("status", &self.status)
            .field("body_bytes", &self.body_bytes())
            .field("label", &self.label())
            .finish()
    }
}

/// What one file says.
#[derive(Debug, Clone, Default)]
pub struct Piece {
    pub rows: Option<Vec<Row>>,
    /// The request names the rows' labels index (empty when the rows carry none).
    pub labels: Labels,
    /// The rows carry no status (ab -g): they need the counts of the same invocation's summary.
    pub rows_without_status: bool,
    /// The times the tool recorded for the requests of its rows that got no response (k6 records
    /// an http_req_duration for every request, and its summary's trend ranks them all): kept to
    /// check the rows against that summary, never a row's latency.
    pub unanswered_ms: Vec<f64>,
    pub reported: Option<ToolReported>,
    /// Responses per HTTP status as the tool counted them (hey's and oha's summaries), to check
    /// rows of the same run against.
    pub statuses: Option<(std::collections::BTreeMap<u16, u64>, Place)>,
    pub version: Option<String>,
    /// The run's start, when the file records it.
    pub started: Option<Start>,
    /// Facts a reader must know about these numbers (resolution, caps, what is unknown), as
    /// message keys (model/note.rs).
    pub notes: Vec<Message>,
}

/// When a run started, as a file records it: Unix ns, to a resolution.
#[derive(Debug, Clone, PartialEq)]
pub struct Start {
    pub unix_ns: i64,
    /// How finely the file records it (1 s for ab -g's seconds column).
    pub step_ns: i64,
    pub at: Place,
}

/// One input file: its name as given, its format, its sha256, and its path when it was read from
/// disk (the import keeps a copy of it under raw/<run_id>/, [`kept`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    pub name: String,
    pub format: Format,
    pub sha256: String,
    pub path: Option<std::path::PathBuf>,
}

/// One run of one tool, merged from the files of one invocation.
#[derive(Debug, Clone)]
pub struct ImportedRun {
    pub tool: Tool,
    pub version: Option<String>,
    pub started: Option<Start>,
    pub rows: Option<Vec<Row>>,
    /// The request names the rows' labels index (empty when the rows carry none).
    pub labels: Labels,
    /// The format of the file the rows came from.
    pub rows_format: Option<Format>,
    pub reported: Option<ToolReported>,
    pub notes: Vec<Message>,
    pub files: Vec<SourceFile>,
}

/// The list of formats `analyze import --help` ends with: each name, the file it is, what it
/// needs beside it and its traps.
pub fn formats_help() -> String {
    let width = Format::ALL.iter().map(|f| f.name().len()).max().unwrap_or(0);
    let mut text = String::from("Formats (detected from each file's content; --format NAME forces one):\n");
    for format in Format::ALL {
        text.push_str(&format!("  {:width$}  {}\n", format.name(), format.help()));
    }
    text.push_str("\nEvery file must be complete (a file cut short is refused with its place) and hold one run (a second run in it is refused where it begins), hold only values a run can have (counts to 10^12, read whole; times from 0 to 10^9 ms; no negative duration; a rate to 10^9/s that is the requests over the duration), and the files of one import must agree (counts, times, ranks); one dataset is written by one import at a time. A killed import leaves the dataset as it was; its unfinished copy in .analyze-staging is refused by check, skipped by site and removed by the next import.");
    text
}

/// Parses one file in a known format from its whole text (a database is read from its path
/// by [`stream::read`]).
pub fn parse_text(format: Format, file: &str, text: &str) -> Result<Piece, ImportError> {
    match format {
        Format::AbGnuplot => ab::gnuplot(file, text),
        Format::AbPercentiles => ab::percentiles(file, text),
        Format::AbStdout => ab::stdout(file, text),
        Format::HeyCsv => hey::csv(file, text),
        Format::HeyText => hey::summary(file, text),
        Format::WrkText => wrk::summary(file, text),
        Format::SiegeVerbose => siege::verbose(file, text),
        Format::SiegeText => siege::summary(file, text),
        Format::SiegeJson => siege::json(file, text),
        Format::SiegeLog => siege::log(file, text),
        Format::LocustStats => locust::stats(file, text),
        Format::LocustHistory => locust::history(file, text),
        Format::LocustFailures => locust::failures(file, text),
        Format::LocustExceptions => locust::exceptions(file, text),
        Format::LocustJson => locust::json(file, text),
        Format::K6Json => k6::json(file, text),
        Format::K6Csv => k6::csv(file, text),
        Format::VegetaCsv => vegeta::csv(file, text),
        Format::VegetaJson => vegeta::json(file, text),
        Format::OhaJson => oha::json(file, text),
        Format::OhaCsv => oha::csv(file, text),
        Format::OhaSqlite => Err(ImportError::file(file, "is an SQLite database: it is read from its path, not as text")),
        Format::JmeterCsv => jmeter::csv(file, text),
        Format::AutocannonJson => autocannon::json(file, text),
        Format::ArtilleryJson => artillery::json(file, text),
        Format::K6Summary => k6::summary(file, text),
        Format::Wrk2Text => wrk::wrk2(file, text),
        Format::HdrPercentiles => hdr::percentiles(file, text),
        Format::HdrLog => hdr::log(file, text),
    }
}

/// How a one-row-per-request text format is read a block at a time; `None` for a summary,
/// which is read whole. siege -v is put together whole ([`stream::Whole`]): its lines end in the
/// summary siege prints after them.
pub fn blocks(format: Format, file: &str) -> Option<Box<dyn stream::Blocks>> {
    if !format.has_rows() || format == Format::OhaSqlite {
        return None;
    }
    Some(match format {
        Format::HeyCsv => Box::new(hey::CsvBlocks::new(file)),
        Format::OhaCsv => Box::new(oha::CsvBlocks::new(file)),
        Format::VegetaCsv => Box::new(vegeta::Blocks::new(file, false)),
        Format::VegetaJson => Box::new(vegeta::Blocks::new(file, true)),
        Format::K6Json => Box::new(k6::JsonBlocks::new(file)),
        Format::K6Csv => Box::new(k6::CsvBlocks::new(file)),
        Format::JmeterCsv => Box::new(jmeter::Blocks::new(file)),
        Format::AbGnuplot => Box::new(ab::GnuplotBlocks::new(file)),
        _ => Box::new(stream::Whole::new(format, file)),
    })
}

/// The sha256 of a file's bytes, in lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    sha2::Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// Reads, detects (or takes the forced format), parses and merges the files of one invocation,
/// given as bytes. Every problem of every file is returned together.
pub fn read_run(files: &[(String, Vec<u8>)], forced: Option<Format>) -> Result<ImportedRun, ImportErrors> {
    read_sources(files.iter().map(|(name, bytes)| (name.clone(), stream::Source::Bytes(bytes))).collect(), forced)
}

/// [`read_run`] of files on disk, each read as a stream ([`stream::read`]).
pub fn read_paths(files: &[(String, std::path::PathBuf)], forced: Option<Format>) -> Result<ImportedRun, ImportErrors> {
    read_sources(files.iter().map(|(name, path)| (name.clone(), stream::Source::Path(path))).collect(), forced)
}

fn read_sources(files: Vec<(String, stream::Source)>, forced: Option<Format>) -> Result<ImportedRun, ImportErrors> {
    let mut problems = Vec::new();
    let mut parsed = Vec::new();
    for (name, source) in files {
        let path = match &source {
            stream::Source::Path(path) => Some(path.to_path_buf()),
            _ => None,
        };
        match read_file(&name, source, forced) {
            Ok(read) => parsed.push((SourceFile { name, format: read.format, sha256: read.sha256, path }, read.piece)),
            Err(error) => problems.push(error),
        }
    }
    if !problems.is_empty() {
        return Err(ImportErrors(problems));
    }
    agree::merge(parsed).map_err(ImportErrors)
}

/// One file's format (detected unless forced), what it says, and its sha256.
fn read_file(name: &str, source: stream::Source, forced: Option<Format>) -> Result<stream::Read_, ImportError> {
    let read = stream::read(name, source, forced)?;
    if let Some(reported) = &read.piece.reported {
        if let Some(first) = reported.check().into_iter().next() {
            return Err(first);
        }
    }
    Ok(read)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_name_round_trips() {
        for format in Format::ALL {
            assert_eq!(Format::from_name(format.name()), Some(format));
        }
    }

    #[test]
    fn sha256_of_abc_is_the_standard_vector() {
        assert_eq!(sha256_hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
