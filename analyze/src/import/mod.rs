//! `analyze import`: the outputs of other load generators become one run of a dataset.
//!
//! Each format has one parser (one file per tool) that turns one file into a [`Piece`]: rows
//! when the file has one line per request, the tool's own printed numbers ([`ToolReported`]) with
//! the rule it ranks by, and what it says about the run (version, start time). The pieces of one
//! invocation's files are merged into one [`ImportedRun`]; `write.rs` turns that into dataset
//! files. Nothing here computes a statistic of ours: the tool's numbers are kept as printed.

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
mod siege;
mod vegeta;
mod wrk;

pub use error::{ImportError, ImportErrors};
pub use reported::ToolReported;

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
    /// To the whole second (ab -g).
    WholeSeconds,
    /// Not at all: every request is recorded as sent at 0 (siege -v).
    Missing,
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
            Format::AbGnuplot => SendTimes::WholeSeconds,
            Format::SiegeVerbose => SendTimes::Missing,
            _ => SendTimes::Recorded,
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
    /// When it was sent, in ms from any origin shared by the run's rows (the writer makes the
    /// first send 0). `None` when the format has no send time.
    pub sent_ms: Option<f64>,
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
    pub version: Option<String>,
    /// The run's start as Unix milliseconds, when the file says.
    pub started_unix_ms: Option<f64>,
    /// Facts a reader must know about these numbers (resolution, caps, what is unknown).
    pub notes: Vec<String>,
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
    pub started_unix_ms: Option<f64>,
    pub rows: Option<Vec<Row>>,
    pub reported: Option<ToolReported>,
    pub notes: Vec<String>,
    pub files: Vec<SourceFile>,
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
        merge(parsed).map_err(|e| ImportErrors(vec![e]))
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
    parse(format, name, text).map(|piece| (format, piece))
}

/// Merges the pieces of one invocation: one tool, at most one file of rows, the printed numbers
/// of every summary (a later file fills what an earlier one did not print).
fn merge(parsed: Vec<(SourceFile, Piece)>) -> Result<ImportedRun, ImportError> {
    let tool = parsed[0].0.format.tool();
    if let Some((other, _)) = parsed.iter().find(|(f, _)| f.format.tool() != tool) {
        return Err(ImportError::file(
            &other.name,
            format!(
                "is {} output but {} is {}: one import is one invocation of one tool",
                other.format.tool().name(),
                parsed[0].0.name,
                tool.name()
            ),
        ));
    }
    let with_rows: Vec<_> = parsed.iter().filter(|(_, p)| p.rows.is_some()).map(|(f, _)| f.name.as_str()).collect();
    if with_rows.len() > 1 {
        return Err(ImportError::file(
            with_rows[1],
            format!("has one row per request, and so has {}: import them as two runs", with_rows[0]),
        ));
    }
    let mut run =
        ImportedRun { tool, version: None, started_unix_ms: None, rows: None, reported: None, notes: Vec::new(), files: Vec::new() };
    let mut rows_without_status = None;
    for (file, piece) in parsed {
        run.version = run.version.or(piece.version);
        run.started_unix_ms = match (run.started_unix_ms, piece.started_unix_ms) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        if piece.rows.is_some() {
            run.rows = piece.rows;
            if piece.rows_without_status {
                rows_without_status = Some(file.name.clone());
            }
        }
        run.reported = match (run.reported.take(), piece.reported) {
            (Some(mut kept), Some(more)) => {
                kept.fill_from(more);
                Some(kept)
            }
            (a, b) => a.or(b),
        };
        for note in piece.notes {
            if !run.notes.contains(&note) {
                run.notes.push(note);
            }
        }
        run.files.push(file);
    }
    if let Some(rows_file) = rows_without_status {
        ab::give_status(&mut run, &rows_file)?;
    }
    Ok(run)
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
