//! siege 4: `-v` lines (one per response), its printed summary (stderr), its JSON summary
//! (`--json-output`, stdout) and its `--log` CSV line. siege prints no percentile, only min, mean
//! and max.
//!
//! Traps (main.c, log.c, data.c, browser.c and response.c of siege 4.0.7): times are seconds
//! with two decimals (10 ms resolution); "Transactions" counts the responses except those with
//! status 408 or 500-509, which siege counts as "Failed transactions" with the requests that got
//! no response; "Successful transactions" are the responses below 400 (and 401, 407); the
//! transaction rate is transactions over the elapsed time; `-v` prints a line for every response,
//! failed ones included; when siege logs, it appends a trailer to stdout (`LOG FILE: PATH` and two
//! lines on how to turn it off), after the `-v` lines or the JSON; the log's date has no time zone.

use super::error::ImportError;
use super::reported::{Count, Place, Printed, ToolReported};
use super::text::{parse_shifted, step_of, Csv, Lines};
use super::{ImportedRun, Labels, Piece, Row};
use super::{Message, NoteKey};
use crate::model::Rule;

const RESOLUTION_NOTE: NoteKey = NoteKey::SiegeResolution;

/// The counts siege prints, each with its place.
struct Counts {
    transactions: Count,
    successful: Count,
    failed: Count,
    response_s: Option<Printed>,
    rate: Printed,
    elapsed_s: Printed,
    longest_s: Option<Printed>,
    shortest_s: Option<Printed>,
}

fn ms(seconds: &Printed) -> Printed {
    Printed::new(seconds.value * 1000.0, seconds.step * 1000.0, seconds.at.clone())
}

fn reported(c: Counts) -> Result<ToolReported, ImportError> {
    if c.successful.value > c.transactions.value {
        return Err(c.successful.at.error(format!(
            "{} successful transactions of {} (at {}): is the file edited?",
            c.successful.value, c.transactions.value, c.transactions.at
        )));
    }
    let mut r = ToolReported::new(Rule::NoPercentiles);
    r.requests = Some(Count::new(c.transactions.value + c.failed.value, c.transactions.at.clone()));
    r.errors = Some(Count::new(c.failed.value + (c.transactions.value - c.successful.value), c.failed.at.clone()));
    r.rate_count = Some(c.transactions);
    r.requests_per_s = Some(c.rate);
    r.duration_s = Some(c.elapsed_s);
    r.mean_ms = c.response_s.as_ref().map(ms);
    r.max_ms = c.longest_s.as_ref().map(ms);
    r.min_ms = c.shortest_s.as_ref().map(ms);
    Ok(r)
}

/// The trailer siege prints to stdout when it logs: where the log is, as a note, and the line
/// the trailer starts on (`None` without one). A trailer cut short is refused.
fn trailer(lines: &Lines) -> Result<Option<(u64, Message)>, ImportError> {
    let Some(start) = lines.lines.iter().position(|(_, l)| l.starts_with("LOG FILE: ")) else { return Ok(None) };
    let (n, first) = lines.lines[start];
    let rest: Vec<&str> = lines.lines[start + 1..].iter().map(|(_, l)| *l).filter(|l| !l.trim().is_empty()).collect();
    let complete = rest.len() == 2
        && rest[0] == "You can disable this log file notification by editing"
        && rest[1].ends_with("and changing 'show-logfile' to false.");
    if !complete {
        let last = lines.lines.last().map_or(n, |(l, _)| *l);
        return Err(lines.bad(last, 1, "siege's LOG FILE trailer is not its three lines: the file is cut short or edited"));
    }
    let path = first["LOG FILE: ".len()..].trim();
    Ok(Some((n, Message::new(NoteKey::SiegeLogged, &[&path]))))
}

pub fn verbose(file: &str, text: &str) -> Result<Piece, ImportError> {
    let lines = Lines::new(file, text);
    let trailer = trailer(&lines)?;
    let end = trailer.as_ref().map_or(u64::MAX, |(n, _)| *n);
    let mut rows = Vec::new();
    // Request names: the URL each line ends with, as siege prints it (a path, or the whole URL).
    let mut labels = Labels::default();
    let mut summary_from = None;
    for &(n, line) in lines.lines.iter().filter(|(n, _)| *n < end) {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with("** ") || trimmed.starts_with("The server is now under siege") {
            continue;
        }
        if trimmed.starts_with("Transactions:") || trimmed.starts_with("Lifting the server siege") {
            summary_from = Some(n);
            break;
        }
        let column = (line.len() - line.trim_start().len()) as u64 + 1;
        // Messages of failed requests (when stderr went into the same file): the summary counts them.
        if trimmed.starts_with("[error]") || trimmed.starts_with("[alert]") {
            continue;
        }
        // HTTP/1.1 200     0.00 secs:   20200 bytes ==> GET  /page.html
        let words: Vec<&str> = trimmed.split_whitespace().collect();
        let parsed = (words.len() >= 8 && words[0].starts_with("HTTP/") && words[3] == "secs:" && words[5] == "bytes" && words[6] == "==>")
            .then(|| (words[1].parse::<u16>().ok(), parse_shifted(words[2], 3), words[4].parse::<u64>().ok()));
        match parsed {
            Some((Some(status), Some(latency_ms), Some(bytes))) if (100..=599).contains(&status) => {
                let time_column = (words[2].as_ptr() as usize - line.as_ptr() as usize) as u64 + 1;
                let latency_ms = super::response_time(latency_ms, |why| lines.bad(n, time_column, format!("the response time: {why}")))?;
                let url = words[8..].join(" ");
                // The words are slices of the line: the URL's column is where its first word starts.
                let url_column = words.get(8).map_or(column, |w| (w.as_ptr() as usize - line.as_ptr() as usize) as u64 + 1);
                let label = labels.intern_checked(&url, |why| lines.bad(n, url_column, format!("the request: {why}")))?;
                rows.push(Row::new(None, Some(latency_ms), status, Some(bytes)).labelled(label));
            }
            _ => return Err(lines.bad(n, column, "expected `HTTP/1.1 STATUS SECONDS secs: BYTES bytes ==> METHOD URL`")),
        }
    }
    if rows.is_empty() {
        return Err(ImportError::file(file, "holds no request line"));
    }
    let mut piece = Piece {
        rows: Some(rows),
        labels,
        notes: vec![Message::plain(RESOLUTION_NOTE), Message::plain(NoteKey::SiegeVerboseOrder)],
        ..Piece::default()
    };
    if summary_from.is_some() {
        let more = summary(file, text)?;
        piece.reported = more.reported;
        piece.version = more.version;
    }
    piece.notes.extend(trailer.map(|(_, note)| note));
    Ok(piece)
}

/// The summary's `Key:  value` line: the value's first word with its place, and the words after it.
fn value<'a>(lines: &Lines<'a>, key: &str) -> Result<(Place, &'a str, Vec<&'a str>), ImportError> {
    let (n, column, value) = lines.require(key, "siege prints it when the run ends: the file is cut short")?;
    let mut words = value.split_whitespace();
    let word = words.next().unwrap_or("");
    Ok((lines.place(n, column), word, words.collect()))
}

pub fn summary(file: &str, text: &str) -> Result<Piece, ImportError> {
    let lines = Lines::new(file, text);
    let trailer = trailer(&lines)?;
    let count = |key: &str, unit: &[&str]| -> Result<Count, ImportError> {
        let (at, word, rest) = value(&lines, key)?;
        match (word.parse::<u64>(), rest == unit) {
            (Ok(v), true) => Ok(Count::new(v, at)),
            _ => Err(at.error(format!("{word:?} is not siege's count `{}`", [&["N"][..], unit].concat().join(" ")))),
        }
    };
    let decimal = |key: &str, unit: &[&str]| -> Result<Printed, ImportError> {
        let (at, word, rest) = value(&lines, key)?;
        let two_decimals = word.split_once('.').is_some_and(|(_, f)| f.len() == 2);
        match (word.parse::<f64>(), two_decimals && rest == unit) {
            (Ok(v), true) if v.is_finite() && v >= 0.0 => Ok(Printed::new(v, step_of(word), at)),
            _ => Err(at.error(format!(
                "{word:?} is not siege's `{}` (two decimals): the file is cut or edited",
                [&["N.NN"][..], unit].concat().join(" ")
            ))),
        }
    };
    let counts = Counts {
        transactions: count("Transactions:", &["hits"])?,
        successful: count("Successful transactions:", &[])?,
        failed: count("Failed transactions:", &[])?,
        response_s: Some(decimal("Response time:", &["secs"])?),
        rate: decimal("Transaction rate:", &["trans/sec"])?,
        elapsed_s: decimal("Elapsed time:", &["secs"])?,
        longest_s: Some(decimal("Longest transaction:", &[])?),
        shortest_s: Some(decimal("Shortest transaction:", &[])?),
    };
    for (key, unit) in [("Availability:", &["%"][..]), ("Data transferred:", &["MB"]), ("Throughput:", &["MB/sec"]), ("Concurrency:", &[])]
    {
        decimal(key, unit)?;
    }
    let version = lines.value_after("** SIEGE").map(|(_, _, v)| v.to_string());
    let mut notes = vec![Message::plain(RESOLUTION_NOTE)];
    notes.extend(trailer.map(|(_, note)| note));
    Ok(Piece { reported: Some(reported(counts)?), version, notes, ..Piece::default() })
}

pub fn json(file: &str, text: &str) -> Result<Piece, ImportError> {
    // The JSON object, then nothing but siege's LOG FILE trailer.
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<serde_json::Value>();
    let value = match stream.next() {
        Some(Ok(value)) => value,
        Some(Err(e)) => return Err(ImportError::at(file, e.line() as u64, e.column() as u64, format!("not valid JSON: {e}"))),
        None => return Err(ImportError::file(file, "is empty")),
    };
    let rest = &text[stream.byte_offset()..];
    let lines = Lines::new(file, text);
    let trailer = trailer(&lines)?;
    if !rest.trim().is_empty() && trailer.is_none() {
        let line = text[..stream.byte_offset()].lines().count() as u64 + 1;
        return Err(ImportError::at(file, line, 1, "text after siege's JSON that is not its LOG FILE trailer"));
    }
    let place = |key: &str| -> Place {
        let (n, c) = lines.lines.iter().find_map(|&(n, l)| l.find(&format!("\"{key}\"")).map(|c| (n, c as u64 + 1))).unwrap_or((1, 1));
        lines.place(n, c)
    };
    let field = |key: &str| -> Result<&serde_json::Value, ImportError> {
        value.get(key).ok_or_else(|| ImportError::file(file, format!("has no \"{key}\" field (siege's json_output has it)")))
    };
    // Read from the text, whole, as the file has it (a float or 2^64 is quoted, never rounded).
    let count = |key: &str| -> Result<Count, ImportError> {
        field(key)?;
        super::json::count(file, text, &[key]).unwrap_or_else(|| Err(place(key).error(format!("\"{key}\" is not a count"))))
    };
    // siege prints every number of its JSON with two decimals.
    let number = |key: &str| -> Result<Printed, ImportError> {
        let at = place(key);
        let v = field(key)?.as_f64().filter(|v| *v >= 0.0).ok_or_else(|| at.error(format!("\"{key}\" is not a number ≥ 0")))?;
        Ok(Printed::new(v, 0.01, at))
    };
    let counts = Counts {
        transactions: count("transactions")?,
        successful: count("successful_transactions")?,
        failed: count("failed_transactions")?,
        response_s: Some(number("response_time")?),
        rate: number("transaction_rate")?,
        elapsed_s: number("elapsed_time")?,
        longest_s: Some(number("longest_transaction")?),
        shortest_s: Some(number("shortest_transaction")?),
    };
    let mut notes = vec![Message::plain(RESOLUTION_NOTE)];
    notes.extend(trailer.map(|(_, note)| note));
    Ok(Piece { reported: Some(reported(counts)?), notes, ..Piece::default() })
}

pub fn log(file: &str, text: &str) -> Result<Piece, ImportError> {
    let csv = Csv::parse(file, text, b',')?;
    if csv.rows.len() != 1 {
        let line = csv.rows.get(1).map_or(1, |r| r.0);
        return Err(ImportError::at(file, line, 1, format!("holds {} runs (one line each): import one run at a time", csv.rows.len())));
    }
    let row = &csv.rows[0];
    let count = |name: &str| -> Result<Count, ImportError> {
        let column = csv.column(name)?;
        Ok(Count::new(csv.count(row, column)?, csv.lines.place(row.0, row.1[column].0)))
    };
    let decimal = |name: &str| -> Result<Printed, ImportError> {
        let column = csv.column(name)?;
        let value = csv.number(row, column)?;
        let text = row.1[column].1.trim();
        if text.split_once('.').is_none_or(|(_, f)| f.len() != 2) {
            return Err(csv.lines.bad(row.0, row.1[column].0, format!("{name}: {text:?} is not siege's two decimals: is the line cut?")));
        }
        Ok(Printed::new(value, step_of(text), csv.lines.place(row.0, row.1[column].0)))
    };
    // OKAY counts responses below 400, Failed the requests without a response.
    let counts = Counts {
        transactions: count("Trans")?,
        successful: count("OKAY")?,
        failed: count("Failed")?,
        response_s: Some(decimal("Resp Time")?),
        rate: decimal("Trans Rate")?,
        elapsed_s: decimal("Elap Time")?,
        longest_s: None,
        shortest_s: None,
    };
    Ok(Piece {
        reported: Some(reported(counts)?),
        notes: vec![Message::plain(RESOLUTION_NOTE), Message::plain(NoteKey::SiegeLogLine)],
        ..Piece::default()
    })
}

/// The statuses siege counts as failed transactions rather than transactions (browser.c).
fn failed_status(status: u16) -> bool {
    status == 408 || (500..=509).contains(&status)
}

/// siege -v prints a line per response only: the summary's failed transactions that are not a
/// 408 or 5xx line (requests without a response) become rows without a response, after the others
/// (siege does not say when they were). The lines must be the summary's transactions.
pub fn add_failed_requests(run: &mut ImportedRun) -> Result<(), ImportError> {
    let Some(rows) = run.rows.as_mut() else { return Ok(()) };
    let rows_file = run.files.iter().find(|f| f.format == super::Format::SiegeVerbose).map_or("", |f| f.name.as_str());
    let Some((transactions, failed)) =
        run.reported.as_ref().and_then(|r| Some((r.rate_count.clone()?, r.requests.as_ref()?.value - r.rate_count.as_ref()?.value)))
    else {
        run.notes.push(Message::plain(NoteKey::SiegeUncounted));
        return Ok(());
    };
    let failed_lines = rows.iter().filter(|r| failed_status(r.status)).count() as u64;
    let counted = rows.len() as u64 - failed_lines;
    if counted != transactions.value || failed_lines > failed {
        return Err(ImportError::file(
            rows_file,
            format!(
                "has {counted} responses siege counts as transactions and {failed_lines} it counts as failed (408, 5xx), but the summary counts {} transactions (at {}) and {failed} failed: are they from the same run?",
                transactions.value, transactions.at
            ),
        ));
    }
    let unanswered = failed - failed_lines;
    rows.extend(std::iter::repeat_n(Row::new(None, None, 0, None), unanswered as usize));
    if unanswered > 0 {
        run.notes.push(Message::new(NoteKey::SiegeUnanswered, &[&unanswered]));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> String {
        std::fs::read_to_string(format!("{}/tests/fixtures/import/siege/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    #[test]
    fn verbose_lines_are_rows_with_10_ms_resolution() {
        let piece = verbose("siege-verbose.txt", &fixture("siege-verbose.txt")).unwrap();
        let rows = piece.rows.unwrap();
        assert_eq!(rows.len(), 200);
        assert!(rows.iter().all(|r| r.status == 200 && r.body_bytes() == Some(20200) && r.sent_ns().is_none()));
    }

    #[test]
    fn the_three_summaries_agree_on_counts() {
        for (format, file) in [(summary as fn(&str, &str) -> _, "siege-summary.txt"), (json, "siege.json"), (log, "siege.log")] {
            // 200 transactions, 200 successful, none failed.
            let r = format(file, &fixture(file)).unwrap().reported.unwrap();
            assert_eq!((r.requests.unwrap().value, r.errors.unwrap().value), (200, 0), "{file}");
            assert_eq!(r.rule, Rule::NoPercentiles);
        }
        let text = summary("siege-summary.txt", &fixture("siege-summary.txt")).unwrap();
        assert_eq!(text.version.as_deref(), Some("4.0.7"));
        assert_eq!(text.reported.unwrap().max_ms.map(|m| m.value), Some(10.0));
    }

    #[test]
    fn a_run_with_500s_counts_them_as_failed_and_their_lines_as_responses() {
        // Real: 179 transactions and 21 failed, all 21 of them 500s with a -v line each.
        let r = summary("mixed-summary.txt", &fixture("mixed-summary.txt")).unwrap().reported.unwrap();
        assert_eq!((r.requests.as_ref().unwrap().value, r.errors.as_ref().unwrap().value, r.ranked), (200, 21, None));
        let rows = verbose("mixed-verbose.txt", &fixture("mixed-verbose.txt")).unwrap().rows.unwrap();
        assert_eq!((rows.len(), rows.iter().filter(|r| r.status == 500).count()), (200, 21));
    }

    #[test]
    fn a_log_with_two_runs_is_refused_at_the_second() {
        let text = fixture("siege.log") + fixture("siege.log").lines().nth(1).unwrap() + "\n";
        assert_eq!(log("siege.log", &text).unwrap_err().place, Some((3, 1)));
    }

    #[test]
    fn the_log_file_trailer_is_read_and_kept_as_provenance() {
        let trailer = "LOG FILE: /var/log/siege.log\nYou can disable this log file notification by editing\n/root/.siege/siege.conf and changing 'show-logfile' to false.\n";
        let piece = json("siege.json", &(fixture("siege.json") + trailer)).unwrap();
        assert!(piece.notes.contains(&Message::new(NoteKey::SiegeLogged, &[&"/var/log/siege.log"])), "{:?}", piece.notes);
        let piece = verbose("v.txt", &(fixture("siege-verbose.txt") + trailer)).unwrap();
        assert_eq!(piece.rows.unwrap().len(), 200);
        let cut = &trailer[..trailer.len() - 30];
        assert!(json("siege.json", &(fixture("siege.json") + cut + "\n")).is_err());
    }
}
