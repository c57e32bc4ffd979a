//! hey: `-o csv` (one row per response: times in seconds, status, `offset` = send time from the
//! start) and its printed summary.
//!
//! Traps: the CSV holds only requests that got a response; hey's latency table takes the value at
//! 0-based index ceil(p·n/100), one rank above the nearest rank; hey keeps at most 1,000,000
//! results, so beyond that its table, status counts and CSV cover the first million only.

use super::error::ImportError;
use super::reported::ToolReported;
use super::text::{parse_shifted, CsvStream, Lines};
use super::{Piece, Row};
use crate::model::{percentile_key, Rule};

/// hey's `maxRes`: results beyond this many are counted in the average but not kept.
pub const MAX_RESULTS: usize = 1_000_000;

fn cap_note() -> String {
    format!("hey keeps at most {MAX_RESULTS} results: this run reached that cap, so requests after the first {MAX_RESULTS} responses are missing from hey's rows and tables")
}

/// A file of more rows than hey keeps was not cut by the cap: its rows are imported as they are.
fn beyond_cap_note(rows: usize) -> String {
    format!("this hey CSV has {rows} rows, more than the {MAX_RESULTS} results hey keeps: it was not written by a stock hey (a modified or generated file), and no row is missing for the cap")
}

/// hey's `-o csv`, read line by line ([`CsvStream`]): a file may hold millions of rows.
pub fn csv(file: &str, text: &str) -> Result<Piece, ImportError> {
    let csv = CsvStream::new(file, text, b',')?;
    let response_time = csv.column("response-time")?;
    let status = csv.column("status-code")?;
    let offset = csv.column("offset")?;
    // hey writes about 55 bytes a row: room for every row at once, without regrowing.
    let mut rows = Vec::with_capacity(text.len() / 48);
    csv.for_each_row(|line, fields| {
        let latency_ms = csv.shifted(line, fields, response_time, 3)?;
        let code = csv.count(line, fields, status)?;
        let column = fields[status].0;
        let code = u16::try_from(code)
            .ok()
            .filter(|c| (100..=599).contains(c))
            .ok_or_else(|| csv.bad(line, column, format!("status-code {code} is not an HTTP status")))?;
        let sent_ms = csv.shifted(line, fields, offset, 3)?;
        if latency_ms < 0.0 || sent_ms < 0.0 {
            return Err(csv.bad(line, fields[response_time].0, "a negative time"));
        }
        rows.push(Row { sent_ms: Some(sent_ms), latency_ms: Some(latency_ms), status: code, body_bytes: None });
        Ok(())
    })?;
    if rows.is_empty() {
        return Err(ImportError::file(file, "has a header but no response"));
    }
    let mut notes =
        vec!["hey -o csv: times have 0.1 ms resolution; requests that got no response are not in the file (hey's summary counts them)"
            .to_string()];
    if rows.len() == MAX_RESULTS {
        notes.push(cap_note());
    } else if rows.len() > MAX_RESULTS {
        notes.push(beyond_cap_note(rows.len()));
    }
    Ok(Piece { rows: Some(rows), notes, ..Piece::default() })
}

pub fn summary(file: &str, text: &str) -> Result<Piece, ImportError> {
    let lines = Lines::new(file, text);
    let mut reported = ToolReported::new(Rule::NearestRankPlusOne);
    let seconds = |key: &str| -> Result<f64, ImportError> { lines.shifted(lines.require(key, "hey prints it in its Summary")?, 3) };
    reported.max_ms = Some(seconds("Slowest:")?);
    reported.min_ms = Some(seconds("Fastest:")?);
    reported.mean_ms = Some(seconds("Average:")?);
    reported.requests_per_s = Some(lines.number(lines.require("Requests/sec:", "hey prints it in its Summary")?)?);
    let mut section = "";
    let (mut responses, mut non_2xx, mut failed) = (0u64, 0u64, 0u64);
    for &(n, line) in &lines.lines {
        let trimmed = line.trim();
        if trimmed.ends_with(':') && !line.starts_with(' ') {
            section = trimmed;
            continue;
        }
        if trimmed.is_empty() {
            continue;
        }
        let column = (line.len() - line.trim_start().len()) as u64 + 1;
        match section {
            "Latency distribution:" => {
                // "95% in 0.0129 secs"
                let mut words = trimmed.split_whitespace();
                let key = words.next().and_then(percentile_key);
                let value = words.nth(1).and_then(|w| parse_shifted(w, 3));
                match (key, value) {
                    (Some(key), Some(value)) => {
                        reported.percentiles_ms.insert(key, value);
                    }
                    _ => return Err(lines.bad(n, column, "expected `P% in SECONDS secs`")),
                }
            }
            "Status code distribution:" | "Error distribution:" => {
                // "[200]	2000 responses" or "[12]	Get http://...: dial tcp ...: connection refused"
                let Some((code, rest)) = trimmed.strip_prefix('[').and_then(|t| t.split_once(']')) else {
                    return Err(lines.bad(n, column, "expected `[CODE] COUNT responses` or `[COUNT] ERROR`"));
                };
                let code = code.parse::<u64>().map_err(|_| lines.bad(n, column + 1, format!("{code:?} is not a number")))?;
                if section == "Error distribution:" {
                    failed += code;
                } else {
                    let count = rest.split_whitespace().next().and_then(|w| w.parse::<u64>().ok());
                    let count = count.ok_or_else(|| lines.bad(n, column, "expected a count of responses"))?;
                    responses += count;
                    if !(200..300).contains(&code) {
                        non_2xx += count;
                    }
                }
            }
            _ => {}
        }
    }
    if reported.percentiles_ms.is_empty() {
        let last = lines.lines.last().map_or(1, |(n, _)| *n);
        return Err(lines.bad(last, 1, "no Latency distribution: is the file truncated?"));
    }
    reported.requests = Some(responses + failed);
    reported.errors = Some(non_2xx + failed);
    let mut notes = vec!["hey prints times in seconds with 4 decimals (0.1 ms)".to_string()];
    if responses as usize >= MAX_RESULTS {
        notes.push(cap_note());
    }
    Ok(Piece { reported: Some(reported), notes, ..Piece::default() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> String {
        std::fs::read_to_string(format!("{}/tests/fixtures/import/hey/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    #[test]
    fn csv_rows_are_milliseconds_with_send_offsets() {
        let rows = csv("hey.csv", &fixture("hey.csv")).unwrap().rows.unwrap();
        assert_eq!(rows.len(), 2000);
        // First line: 0.0038,0.0000,0.0000,0.0000,0.0026,0.0011,200,0.0008
        assert_eq!(rows[0], Row { sent_ms: Some(0.8), latency_ms: Some(3.8), status: 200, body_bytes: None });
    }

    #[test]
    fn summary_keeps_hey_numbers_and_its_rank_plus_one_rule() {
        let r = summary("hey-summary.txt", &fixture("hey-summary.txt")).unwrap().reported.unwrap();
        assert_eq!(r.rule, Rule::NearestRankPlusOne);
        assert_eq!((r.requests, r.errors), (Some(2000), Some(0)));
        assert_eq!(r.percentiles_ms[&95_000], 12.9);
        assert_eq!(r.percentiles_ms.len(), 7);
        assert_eq!(r.max_ms, Some(25.8));
    }

    #[test]
    fn a_million_rows_say_that_hey_capped_them() {
        let mut text = String::from("response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset\n");
        for i in 0..MAX_RESULTS {
            text.push_str(&format!("0.0010,0.0000,0.0000,0.0000,0.0010,0.0000,200,{}.0000\n", i / 1000));
        }
        let piece = csv("big.csv", &text).unwrap();
        assert_eq!(piece.rows.unwrap().len(), MAX_RESULTS);
        assert!(piece.notes.iter().any(|n| n.contains("at most 1000000 results")));
        let smaller = csv("small.csv", &fixture("hey.csv")).unwrap();
        assert!(!smaller.notes.iter().any(|n| n.contains("at most")));
        // One row more than hey keeps: not a capped run, so no cap note, and every row is kept.
        text.push_str("0.0010,0.0000,0.0000,0.0000,0.0010,0.0000,200,1000.0000\n");
        let beyond = csv("beyond.csv", &text).unwrap();
        assert_eq!(beyond.rows.unwrap().len(), MAX_RESULTS + 1);
        assert!(!beyond.notes.iter().any(|n| n.contains("reached that cap")), "{:?}", beyond.notes);
        assert!(beyond.notes.iter().any(|n| n.contains("1000001 rows, more than the 1000000 results hey keeps")), "{:?}", beyond.notes);
    }

    #[test]
    fn errors_and_non_2xx_statuses_count_as_errors() {
        let text = fixture("hey-summary.txt").replace("[200]\t2000 responses", "[200]\t1990 responses\n  [503]\t6 responses\n\nError distribution:\n  [4]\tGet \"http://127.0.0.1:1/\": dial tcp: connection refused");
        let r = summary("hey.txt", &text).unwrap().reported.unwrap();
        assert_eq!((r.requests, r.errors), (Some(2000), Some(10)));
    }
}
