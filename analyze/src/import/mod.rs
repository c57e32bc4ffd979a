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
pub mod error;
pub mod reported;
mod text;
pub mod write;

mod ab;
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

use std::fmt;

/// The load generators whose output can be imported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tool {
    Ab,
    Hey,
    Wrk,
    Siege,
    Locust,
    K6,
    Vegeta,
    Oha,
    Jmeter,
}

impl Tool {
    pub fn name(self) -> &'static str {
        match self {
            Tool::Ab => "ab",
            Tool::Hey => "hey",
            Tool::Wrk => "wrk",
            Tool::Siege => "siege",
            Tool::Locust => "locust",
            Tool::K6 => "k6",
            Tool::Vegeta => "vegeta",
            Tool::Oha => "oha",
            Tool::Jmeter => "jmeter",
        }
    }
}

/// One file format of one tool. The names are what `--format` takes and what provenance records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Format {
    AbGnuplot,
    AbPercentiles,
    AbStdout,
    HeyCsv,
    HeyText,
    WrkText,
    SiegeVerbose,
    SiegeText,
    SiegeJson,
    SiegeLog,
    LocustStats,
    LocustHistory,
    LocustFailures,
    LocustExceptions,
    LocustJson,
    K6Json,
    K6Csv,
    VegetaCsv,
    VegetaJson,
    OhaJson,
    JmeterCsv,
}

/// How a rows format records send times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SendTimes {
    /// To the millisecond or finer.
    Recorded,
    /// To the whole second (ab -g, k6 --out csv).
    WholeSeconds,
    /// Not at all: every request is recorded as sent at 0 (siege -v).
    Missing,
}

impl SendTimes {
    /// The resolution of the send times in ms; `None` when there are none.
    pub fn step_ms(self, format: Format) -> Option<f64> {
        match self {
            SendTimes::Missing => None,
            SendTimes::WholeSeconds => Some(1000.0),
            SendTimes::Recorded => Some(match format {
                Format::HeyCsv => 0.1,
                Format::JmeterCsv => 1.0,
                // k6 JSON: RFC 3339 to the ns; vegeta: Unix ns.
                _ => 0.000_001,
            }),
        }
    }
}

impl Format {
    pub const ALL: [Format; 21] = [
        Format::AbGnuplot,
        Format::AbPercentiles,
        Format::AbStdout,
        Format::HeyCsv,
        Format::HeyText,
        Format::WrkText,
        Format::SiegeVerbose,
        Format::SiegeText,
        Format::SiegeJson,
        Format::SiegeLog,
        Format::LocustStats,
        Format::LocustHistory,
        Format::LocustFailures,
        Format::LocustExceptions,
        Format::LocustJson,
        Format::K6Json,
        Format::K6Csv,
        Format::VegetaCsv,
        Format::VegetaJson,
        Format::OhaJson,
        Format::JmeterCsv,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Format::AbGnuplot => "ab-gnuplot",
            Format::AbPercentiles => "ab-percentiles",
            Format::AbStdout => "ab-stdout",
            Format::HeyCsv => "hey-csv",
            Format::HeyText => "hey-text",
            Format::WrkText => "wrk-text",
            Format::SiegeVerbose => "siege-verbose",
            Format::SiegeText => "siege-text",
            Format::SiegeJson => "siege-json",
            Format::SiegeLog => "siege-log",
            Format::LocustStats => "locust-stats",
            Format::LocustHistory => "locust-history",
            Format::LocustFailures => "locust-failures",
            Format::LocustExceptions => "locust-exceptions",
            Format::LocustJson => "locust-json",
            Format::K6Json => "k6-json",
            Format::K6Csv => "k6-csv",
            Format::VegetaCsv => "vegeta-csv",
            Format::VegetaJson => "vegeta-json",
            Format::OhaJson => "oha-json",
            Format::JmeterCsv => "jmeter-csv",
        }
    }

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
            Format::JmeterCsv => "JMeter JTL CSV",
        }
    }

    pub fn tool(self) -> Tool {
        match self {
            Format::AbGnuplot | Format::AbPercentiles | Format::AbStdout => Tool::Ab,
            Format::HeyCsv | Format::HeyText => Tool::Hey,
            Format::WrkText => Tool::Wrk,
            Format::SiegeVerbose | Format::SiegeText | Format::SiegeJson | Format::SiegeLog => Tool::Siege,
            Format::LocustStats | Format::LocustHistory | Format::LocustFailures | Format::LocustExceptions | Format::LocustJson => {
                Tool::Locust
            }
            Format::K6Json | Format::K6Csv => Tool::K6,
            Format::VegetaCsv | Format::VegetaJson => Tool::Vegeta,
            Format::OhaJson => Tool::Oha,
            Format::JmeterCsv => Tool::Jmeter,
        }
    }

    /// Whether files of this format hold one row per request.
    pub fn has_rows(self) -> bool {
        matches!(
            self,
            Format::AbGnuplot
                | Format::HeyCsv
                | Format::SiegeVerbose
                | Format::K6Json
                | Format::K6Csv
                | Format::VegetaCsv
                | Format::VegetaJson
                | Format::JmeterCsv
        )
    }

    /// How finely this format's rows record when each request was sent, which bounds what the
    /// span from the first send to the last completion (and requests/s from rows) can say.
    pub fn send_times(self) -> SendTimes {
        match self {
            Format::AbGnuplot | Format::K6Csv => SendTimes::WholeSeconds,
            Format::SiegeVerbose => SendTimes::Missing,
            _ => SendTimes::Recorded,
        }
    }

    /// The resolution (ms) of this rows format's send times, `None` without send times.
    pub fn send_step_ms(self) -> Option<f64> {
        self.send_times().step_ms(self)
    }

    /// The resolution (ms) of this rows format's latencies.
    pub fn latency_step_ms(self) -> f64 {
        match self {
            Format::AbGnuplot | Format::JmeterCsv => 1.0,
            Format::HeyCsv => 0.1,
            Format::SiegeVerbose => 10.0,
            _ => 0.000_001,
        }
    }

    /// Whether files of this format are one JSON document (complete when it parses), rather than
    /// lines that each end with a newline.
    pub fn is_json_document(self) -> bool {
        matches!(self, Format::SiegeJson | Format::LocustJson | Format::OhaJson)
    }

    /// What `--help` says about the format: the command that writes it and what to know.
    pub fn help(self) -> &'static str {
        match self {
            Format::AbGnuplot => "ab -g FILE: one row per request, sorted by total time; needs the same run's stdout (ab-stdout), which says whether any request failed (the rows carry no status); sends to the second, times to the ms",
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
            Format::JmeterCsv => "a JMeter JTL CSV (timeStamp,elapsed,...): one row per sample",
        }
    }

    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
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

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One request as a tool recorded it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Row {
    /// When it was sent, in ns from any origin shared by the run's rows (the writer makes the
    /// first send 0), exactly as the file gives it. `None` when the format has no send time.
    pub sent_ns: Option<i64>,
    /// Response time in ms; `None` when there was no response.
    pub latency_ms: Option<f64>,
    /// HTTP status; 0 when there was no response.
    pub status: u16,
    pub body_bytes: Option<u64>,
}

/// What one file says.
#[derive(Debug, Clone, Default)]
pub struct Piece {
    pub rows: Option<Vec<Row>>,
    /// The rows carry no status (ab -g): they need the counts of the same invocation's summary.
    pub rows_without_status: bool,
    pub reported: Option<ToolReported>,
    /// Responses per HTTP status as the tool counted them (hey's and oha's summaries), to check
    /// rows of the same run against.
    pub statuses: Option<(std::collections::BTreeMap<u16, u64>, Place)>,
    pub version: Option<String>,
    /// The run's start, when the file records it.
    pub started: Option<Start>,
    /// Facts a reader must know about these numbers (resolution, caps, what is unknown).
    pub notes: Vec<String>,
}

/// When a run started, as a file records it: Unix ns, to a resolution.
#[derive(Debug, Clone, PartialEq)]
pub struct Start {
    pub unix_ns: i64,
    /// How finely the file records it (1 s for ab -g's seconds column).
    pub step_ns: i64,
    pub at: Place,
}

/// One input file: its name as given, its format, and its sha256.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    pub name: String,
    pub format: Format,
    pub sha256: String,
}

/// One run of one tool, merged from the files of one invocation.
#[derive(Debug, Clone)]
pub struct ImportedRun {
    pub tool: Tool,
    pub version: Option<String>,
    pub started: Option<Start>,
    pub rows: Option<Vec<Row>>,
    /// The format of the file the rows came from.
    pub rows_format: Option<Format>,
    pub reported: Option<ToolReported>,
    pub notes: Vec<String>,
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
    text.push_str("\nEvery file must be complete (a file cut short is refused with its place) and the files of one import must agree (counts, times, ranks); one dataset is written by one import at a time.");
    text
}

/// Parses one file in a known format.
pub fn parse(format: Format, file: &str, text: &str) -> Result<Piece, ImportError> {
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
        Format::JmeterCsv => jmeter::csv(file, text),
    }
}

/// The sha256 of a file's bytes, in lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    sha2::Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// Reads, detects (or takes the forced format), parses and merges the files of one invocation.
/// Every problem of every file is returned together. The files' sha256 are computed on another
/// thread while they are parsed.
pub fn read_run(files: &[(String, Vec<u8>)], forced: Option<Format>) -> Result<ImportedRun, ImportErrors> {
    std::thread::scope(|scope| {
        let hashes = scope.spawn(|| files.iter().map(|(_, bytes)| sha256_hex(bytes)).collect::<Vec<_>>());
        let mut problems = Vec::new();
        let mut parsed = Vec::new();
        for (index, (name, bytes)) in files.iter().enumerate() {
            match read_file(name, bytes, forced) {
                Ok((format, piece)) => parsed.push((index, format, piece)),
                Err(error) => problems.push(error),
            }
        }
        let hashes = hashes.join().expect("sha256 does not panic");
        if !problems.is_empty() {
            return Err(ImportErrors(problems));
        }
        let parsed = parsed
            .into_iter()
            .map(|(index, format, piece)| (SourceFile { name: files[index].0.clone(), format, sha256: hashes[index].clone() }, piece))
            .collect();
        agree::merge(parsed).map_err(ImportErrors)
    })
}

/// One file's format (detected unless forced) and what it says.
fn read_file(name: &str, bytes: &[u8], forced: Option<Format>) -> Result<(Format, Piece), ImportError> {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => {
            let valid = &bytes[..error.valid_up_to()];
            let line = valid.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
            let column = valid.iter().rev().take_while(|&&b| b != b'\n').count() as u64 + 1;
            return Err(ImportError::at(name, line, column, "a byte that is not UTF-8: is this a text output of a load generator?"));
        }
    };
    let Some(format) = forced.or_else(|| Format::detect(text)) else {
        return Err(ImportError::at(
            name,
            1,
            1,
            "matches no known format (ab, hey, wrk, siege, Locust, k6, vegeta, oha, JMeter outputs; see `analyze import --help`)",
        ));
    };
    if !format.is_json_document() && !text.is_empty() && !text.ends_with('\n') {
        let last = text.lines().count() as u64;
        let column = text.lines().last().map_or(0, |l| l.chars().count()) as u64 + 1;
        return Err(ImportError::at(
            name,
            last,
            column,
            format!(
                "the file ends in the middle of a line: it is cut short ({} ends every line of it with a newline)",
                format.tool().name()
            ),
        ));
    }
    let piece = parse(format, name, text)?;
    if let Some(reported) = &piece.reported {
        if let Some(first) = reported.check().into_iter().next() {
            return Err(first);
        }
    }
    Ok((format, piece))
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
