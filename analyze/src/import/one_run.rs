//! One file is one run. Outputs of two runs put in one file (`cat a.hlog b.hlog > both.hlog`, a
//! log a tool appended to, a shell loop's `>>`) would otherwise be read as one run of twice the
//! requests, started when either began. Each format has lines that a run's output holds once:
//! a CSV's header, ab's `Complete requests:`, wrk's `Running 10s test @`, siege's
//! `Transactions:`, an interval log's `#[StartTime:`; a second one is refused at the line where
//! the second run's output begins. The row formats that have no such line tell runs apart by
//! their own numbering (vegeta's `seq`, k6's metric declarations), in their parsers; the JSON
//! documents end where they close (a second document is refused by [`crate::import::json`]).

use super::error::ImportError;
use super::Format;

/// The refusal of a file that holds a second run, at the line where it begins.
pub fn second_run(file: &str, line: u64, what: &str) -> ImportError {
    ImportError::at(
        file,
        line,
        1,
        format!(
            "a second run begins here ({what}): one file is one run; split the file and import each run by itself (one analyze import each, with its own --run-id)"
        ),
    )
}

/// The lines a run's output holds once in a format read whole, and the lines it may begin with
/// (the second run's output starts at the first of these after the first run's key line).
fn keys(format: Format) -> Option<(&'static [&'static str], &'static [&'static str])> {
    Some(match format {
        Format::AbStdout => (&["Complete requests:"], &["This is ApacheBench"]),
        Format::WrkText | Format::Wrk2Text => (&["Running "], &["Running "]),
        Format::HeyText => (&["Summary:"], &["Summary:"]),
        Format::SiegeText => (&["Transactions:"], &["** SIEGE"]),
        Format::SiegeVerbose => (&["Transactions:"], &["** SIEGE", "HTTP/"]),
        Format::HdrLog => {
            (&["#[StartTime:", "#[BaseTime:", "#[Histogram log format version", "\"StartTimestamp\",\"Interval_Length\""], &["#", "\""])
        }
        _ => return None,
    })
}

/// Whether a format's first line is a header its tool writes once per run, at the top.
fn has_header(format: Format) -> bool {
    matches!(
        format,
        Format::AbGnuplot
            | Format::AbPercentiles
            | Format::HeyCsv
            | Format::OhaCsv
            | Format::K6Csv
            | Format::JmeterCsv
            | Format::LocustStats
            | Format::LocustHistory
            | Format::LocustFailures
            | Format::LocustExceptions
            | Format::SiegeLog
    )
}

/// Checks the lines of one file, a block at a time, for the start of a second run.
pub struct OneRun {
    format: Format,
    file: String,
    /// The file's first line, when the format's first line is its header.
    header: Option<String>,
    /// Per key of [`keys`], the line it was first seen at.
    seen: Vec<Option<u64>>,
    /// The first line since the last key line that may begin a run's output.
    candidate: Option<u64>,
    /// Whether a key line was seen: the lines after it may begin a second run.
    after_key: bool,
}

impl OneRun {
    pub fn new(format: Format, file: &str) -> Self {
        let count = keys(format).map_or(0, |(k, _)| k.len());
        OneRun { format, file: file.to_string(), header: None, seen: vec![None; count], candidate: None, after_key: false }
    }

    /// Reads the whole lines `text`, the first of which is line `first_line` of the file.
    pub fn block(&mut self, text: &str, first_line: u64) -> Result<(), ImportError> {
        let header_format = has_header(self.format);
        let keys = keys(self.format);
        if !header_format && keys.is_none() {
            return Ok(());
        }
        for (i, line) in text.split_inclusive('\n').enumerate() {
            let n = first_line + i as u64;
            let line = line.trim_end_matches(['\n', '\r']);
            if header_format {
                match &self.header {
                    None if n == 1 => self.header = Some(line.trim_start_matches('\u{feff}').to_string()),
                    Some(header) if line == header && !line.is_empty() => {
                        return Err(second_run(&self.file, n, "the header line again, the first at line 1"));
                    }
                    _ => {}
                }
            }
            if let Some((keys, starts)) = keys {
                let trimmed = line.trim_start();
                if self.after_key {
                    if starts.iter().any(|s| trimmed.starts_with(s)) {
                        self.candidate = self.candidate.or(Some(n));
                    } else if self.format == Format::HdrLog && !trimmed.is_empty() {
                        // An interval line: a log's header is one block of lines, just before a key.
                        self.candidate = None;
                    }
                }
                if let Some(k) = keys.iter().position(|key| trimmed.starts_with(key)) {
                    if let Some(first) = self.seen[k] {
                        let begins = self.candidate.unwrap_or(n);
                        let what = format!("{:?} again, the first at line {first}", keys[k].trim_end_matches(':'));
                        return Err(second_run(&self.file, begins, &what));
                    }
                    self.seen[k] = Some(n);
                    self.after_key = true;
                    self.candidate = None;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> String {
        std::fs::read_to_string(format!("{}/tests/fixtures/import/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    /// The fixture twice, and the line the second copy's first text is at.
    fn twice(name: &str) -> (String, u64) {
        let text = fixture(name);
        let blank = text.lines().take_while(|l| l.trim().is_empty()).count() as u64;
        (format!("{text}{text}"), text.lines().count() as u64 + 1 + blank)
    }

    #[test]
    fn a_second_run_is_refused_where_it_begins_in_every_format_that_can_tell() {
        let cases = [
            (Format::HdrLog, "hdrhistogram/load.hlog"),
            (Format::AbStdout, "ab/ab-stdout.txt"),
            (Format::WrkText, "wrk/wrk.txt"),
            (Format::Wrk2Text, "wrk2/wrk2.txt"),
            (Format::SiegeText, "siege/siege-summary.txt"),
            (Format::HeyText, "hey/hey-summary.txt"),
            (Format::HeyCsv, "hey/hey.csv"),
            (Format::K6Csv, "k6/k6.csv"),
            (Format::JmeterCsv, "jmeter/jmeter.jtl"),
            (Format::AbGnuplot, "ab/ab-g.tsv"),
        ];
        for (format, name) in cases {
            let (text, second) = twice(name);
            let mut check = OneRun::new(format, "both");
            let error = check.block(&text, 1).unwrap_err();
            assert_eq!(error.place, Some((second, 1)), "{name}: {error}");
            assert!(error.message.starts_with("a second run begins here"), "{name}: {error}");
            assert!(OneRun::new(format, "one").block(&fixture(name), 1).is_ok(), "{name} alone is one run");
        }
    }

    #[test]
    fn a_header_split_across_blocks_is_still_found() {
        let (text, second) = twice("hey/hey.csv");
        let cut = text.match_indices('\n').nth(1500).unwrap().0 + 1;
        let mut check = OneRun::new(Format::HeyCsv, "both");
        check.block(&text[..cut], 1).unwrap();
        let error = check.block(&text[cut..], 1502).unwrap_err();
        assert_eq!(error.place, Some((second, 1)));
    }
}
