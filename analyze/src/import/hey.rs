//! hey: `-o csv` (one row per response: times in seconds, status, `offset` = send time from the
//! start) and its printed summary.
//!
//! Traps: the CSV holds only requests that got a response; hey's latency table takes the value at
//! 0-based index ceil(p·n/100), one rank above the nearest rank, over every response whatever its
//! status; its Requests/sec is every result (errors too) over Total; hey keeps at most 1,000,000
//! results, so beyond that its table, histogram and CSV cover the first million only.

use super::error::ImportError;
use super::reported::{Count, Printed, ToolReported};
use super::text::{decimal_ns, parse_shifted, step_of, CsvStream, Lines};
use super::{Message, NoteKey};
use super::{Piece, Row};
use crate::model::{percentile_key, Rule};
use std::collections::BTreeMap;

/// hey's `maxRes`: results beyond this many are counted in the average but not kept.
pub const MAX_RESULTS: usize = 1_000_000;

/// The percentiles hey prints, in order.
const PRINTED: [u32; 7] = [10_000, 25_000, 50_000, 75_000, 90_000, 95_000, 99_000];

/// The sections of hey's summary, in the order it prints them (the last one only with errors).
const SECTIONS: [&str; 6] = [
    "Summary:",
    "Response time histogram:",
    "Latency distribution:",
    "Details (average, fastest, slowest):",
    "Status code distribution:",
    "Error distribution:",
];

/// The lines of the Details section.
const DETAILS: [&str; 5] = ["DNS+dialup:", "DNS-lookup:", "req write:", "resp wait:", "resp read:"];

fn cap_note() -> Message {
    Message::new(NoteKey::HeyCap, &[&MAX_RESULTS])
}

/// A file of more rows than hey keeps was not cut by the cap: its rows are imported as they are.
fn beyond_cap_note(rows: usize) -> Message {
    Message::new(NoteKey::HeyBeyondCap, &[&rows, &MAX_RESULTS])
}

/// hey's `-o csv`, read a block at a time ([`CsvBlocks`]): a file may hold millions of rows.
pub fn csv(file: &str, text: &str) -> Result<Piece, ImportError> {
    let mut blocks = CsvBlocks::new(file);
    super::stream::Blocks::block(&mut blocks, text, 1)?;
    super::stream::Blocks::finish(Box::new(blocks))
}

/// The columns of hey's CSV this import reads.
struct Columns {
    header: Vec<String>,
    response_time: usize,
    status: usize,
    offset: usize,
}

/// hey's `-o csv` read block by block: the header from the first block, rows from every one.
pub struct CsvBlocks {
    file: String,
    columns: Option<Columns>,
    rows: Vec<Row>,
}

impl CsvBlocks {
    pub fn new(file: &str) -> Self {
        CsvBlocks { file: file.to_string(), columns: None, rows: Vec::new() }
    }
}

impl super::stream::Blocks for CsvBlocks {
    fn size_hint(&mut self, bytes: u64) {
        // hey writes at least 50 bytes a row (55 on average): room for every row at once, since
        // regrowing would hold the old rows and the new ones together.
        self.rows.reserve_exact((bytes / 50) as usize);
    }

    fn block(&mut self, text: &str, first_line: u64) -> Result<(), ImportError> {
        let csv = match &self.columns {
            Some(c) => CsvStream::block(&self.file, c.header.clone(), text, first_line, b','),
            None => {
                let csv = CsvStream::new(&self.file, text, b',')?;
                let columns = Columns {
                    response_time: csv.column("response-time")?,
                    status: csv.column("status-code")?,
                    offset: csv.column("offset")?,
                    header: csv.header.clone(),
                };
                self.columns = Some(columns);
                csv
            }
        };
        let &Columns { response_time, status, offset, .. } = self.columns.as_ref().expect("set above");
        let rows = &mut self.rows;
        csv.for_each_row(|line, fields| {
            let latency_ms = csv.shifted(line, fields, response_time, 3)?;
            let code = csv.count(line, fields, status)?;
            let column = fields[status].0;
            let code = u16::try_from(code)
                .ok()
                .filter(|c| (100..=599).contains(c))
                .ok_or_else(|| csv.bad(line, column, format!("status-code {code} is not an HTTP status")))?;
            let (offset_column, offset_text) = &fields[offset];
            let sent_ns = decimal_ns(offset_text.trim(), 9)
                .ok_or_else(|| csv.bad(line, *offset_column, format!("offset: {offset_text:?} is not a number of seconds")))?;
            if latency_ms < 0.0 || sent_ns < 0 {
                return Err(csv.bad(line, fields[response_time].0, "a negative time"));
            }
            let latency_ms = super::response_time(latency_ms, |why| {
                csv.bad(line, fields[response_time].0, format!("response-time {} s: {why}", fields[response_time].1.trim()))
            })?;
            rows.push(Row::new(Some(sent_ns), Some(latency_ms), code, None));
            Ok(())
        })
    }

    fn finish(self: Box<Self>) -> Result<Piece, ImportError> {
        let rows = self.rows;
        if self.columns.is_none() {
            return Err(ImportError::file(&self.file, "is empty"));
        }
        if rows.is_empty() {
            return Err(ImportError::file(&self.file, "has a header but no response"));
        }
        let mut notes = vec![Message::plain(NoteKey::HeyCsv)];
        if rows.len() == MAX_RESULTS {
            notes.push(cap_note());
        } else if rows.len() > MAX_RESULTS {
            notes.push(beyond_cap_note(rows.len()));
        }
        Ok(Piece { rows: Some(rows), notes, ..Piece::default() })
    }
}

/// A line of a section: its number, the line, and the column where its text starts.
type SectionLine<'a> = (u64, &'a str, u64);

pub fn summary(file: &str, text: &str) -> Result<Piece, ImportError> {
    let lines = Lines::new(file, text);
    // Every line under the section heading it follows; a heading is a line without indentation.
    let mut sections: Vec<(&str, u64, Vec<SectionLine>)> = Vec::new();
    for &(n, line) in &lines.lines {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if !line.starts_with([' ', '\t']) {
            let Some(&name) = SECTIONS.iter().find(|s| **s == trimmed) else {
                return Err(lines.bad(n, 1, format!("{trimmed:?} is not a section of hey's summary")));
            };
            sections.push((name, n, Vec::new()));
            continue;
        }
        let column = (line.len() - line.trim_start().len()) as u64 + 1;
        match sections.last_mut() {
            Some(section) => section.2.push((n, trimmed, column)),
            None => return Err(lines.bad(n, column, "hey's summary starts with `Summary:`")),
        }
    }
    let last_line = lines.lines.last().map_or(1, |(n, _)| *n);
    for (i, name) in SECTIONS[..5].iter().enumerate() {
        if sections.get(i).map(|s| s.0) != Some(name) {
            let at = sections.get(i).map_or(last_line, |s| s.1);
            return Err(lines.bad(at, 1, format!("expected hey's `{name}` section here: is the file cut short?")));
        }
    }
    if let Some(extra) = sections.get(6).or(sections.get(5).filter(|s| s.0 != SECTIONS[5])) {
        return Err(lines.bad(extra.1, 1, format!("{:?} after hey's last section", extra.0)));
    }
    let section = |name: &str| sections.iter().find(|s| s.0 == name).map_or(&[][..], |s| &s.2[..]);

    let mut reported = ToolReported::new(Rule::NearestRankPlusOne);
    let summary = section("Summary:");
    let seconds = |key: &str, shift: i32| -> Result<Printed, ImportError> {
        let &(n, line, column) = summary
            .iter()
            .find(|(_, l, _)| l.starts_with(key))
            .ok_or_else(|| lines.bad(sections[0].1, 1, format!("no `{key}` line in hey's Summary: is the file cut or edited?")))?;
        let value = line[key.len()..].trim_start();
        let value_column = column + (line.len() - value.len()) as u64;
        let number = value.strip_suffix(" secs").unwrap_or(value);
        lines.printed((n, value_column, number), shift)
    };
    reported.duration_s = Some(seconds("Total:", 0)?);
    reported.max_ms = Some(seconds("Slowest:", 3)?);
    reported.min_ms = Some(seconds("Fastest:", 3)?);
    reported.mean_ms = Some(seconds("Average:", 3)?);
    let rate = summary
        .iter()
        .find(|(_, l, _)| l.starts_with("Requests/sec:"))
        .ok_or_else(|| lines.bad(sections[0].1, 1, "no `Requests/sec:` line in hey's Summary: is the file cut or edited?"))?;
    let rate_value = rate.1["Requests/sec:".len()..].trim_start();
    reported.requests_per_s = Some(lines.printed((rate.0, rate.2 + (rate.1.len() - rate_value.len()) as u64, rate_value), 0)?);

    // "  0.003 [1653]\t|■■■■": eleven buckets, counting every response hey kept.
    let histogram = section("Response time histogram:");
    let mut kept = 0u64;
    for &(n, line, column) in histogram {
        let count = line.split_once('[').and_then(|(_, rest)| rest.split_once(']')).and_then(|(c, _)| c.parse::<u64>().ok());
        kept += count.ok_or_else(|| lines.bad(n, column, "expected a histogram line `SECONDS [COUNT] |bars`"))?;
    }
    if histogram.len() != 11 {
        return Err(lines.bad(
            sections[1].1,
            1,
            format!("{} histogram lines where hey prints 11: is the file cut or edited?", histogram.len()),
        ));
    }

    // "  95% in 0.0129 secs", all seven.
    let latency = section("Latency distribution:");
    for (i, &(n, line, column)) in latency.iter().enumerate() {
        let mut words = line.split_whitespace();
        let key = words.next().and_then(|w| w.strip_suffix('%')).and_then(percentile_key);
        let (value, unit) = (words.nth(1), words.next());
        let ms = value.and_then(|w| parse_shifted(w, 3));
        match (key, ms, unit, words.next()) {
            (Some(key), Some(ms), Some("secs"), None) if PRINTED.get(i) == Some(&key) || key == 0 => {
                let value_column = column + line.find(value.expect("parsed")).unwrap_or(0) as u64;
                reported
                    .percentiles_ms
                    .insert(key, Printed::new(ms, step_of(value.expect("parsed")) * 1000.0, lines.place(n, value_column)));
            }
            _ => return Err(lines.bad(n, column, "expected `P% in SECONDS secs`, for 10, 25, 50, 75, 90, 95 and 99 %")),
        }
    }
    if latency.len() != PRINTED.len() {
        return Err(lines.bad(sections[2].1, 1, format!("{} latency lines where hey prints 7: is the file cut or edited?", latency.len())));
    }
    // A zero entry ("0% in 0.0000 secs") is a percentile hey had no value for.
    reported.percentiles_ms.remove(&0);

    let details = section("Details (average, fastest, slowest):");
    for (i, name) in DETAILS.iter().enumerate() {
        let complete = details.get(i).is_some_and(|(_, line, _)| line.starts_with(name) && line.matches(" secs").count() == 3);
        if !complete {
            let at = details.get(i).map_or(sections[3].1, |d| d.0);
            return Err(lines.bad(
                at,
                1,
                format!("expected hey's `{name} A secs, B secs, C secs` line of Details: is the file cut or edited?"),
            ));
        }
    }

    // "  [200]\t2000 responses"
    let mut statuses = BTreeMap::new();
    let mut responses = 0u64;
    let mut non_2xx = 0u64;
    for &(n, line, column) in section("Status code distribution:") {
        let parsed = line.strip_prefix('[').and_then(|l| l.split_once(']')).and_then(|(code, rest)| {
            let count = rest.trim().strip_suffix(" responses")?.parse::<u64>().ok()?;
            Some((code.parse::<u16>().ok()?, count))
        });
        let (code, count) = parsed.ok_or_else(|| lines.bad(n, column, "expected `[CODE] COUNT responses`"))?;
        statuses.insert(code, count);
        responses += count;
        if !(200..300).contains(&code) {
            non_2xx += count;
        }
    }
    // "  [12]\tGet "http://...": dial tcp ...: connection refused"
    let mut failed = 0u64;
    for &(n, line, column) in section("Error distribution:") {
        let count = line.strip_prefix('[').and_then(|l| l.split_once(']')).and_then(|(c, _)| c.parse::<u64>().ok());
        failed += count.ok_or_else(|| lines.bad(n, column, "expected `[COUNT] ERROR`"))?;
    }
    let kept_all = kept == responses || (kept == MAX_RESULTS as u64 && responses > kept);
    if !kept_all {
        return Err(lines.bad(
            sections[4].1,
            1,
            format!(
                "the status codes count {responses} responses but the histogram (line {}) {kept}: is the file cut or edited?",
                sections[1].1
            ),
        ));
    }
    let at = lines.place(sections[4].1, 1);
    reported.requests = Some(Count::new(responses + failed, at.clone()));
    reported.errors = Some(Count::new(non_2xx + failed, at.clone()));
    reported.ranked = Some(kept);
    let mut notes = vec![Message::plain(NoteKey::HeySummary)];
    if responses as usize >= MAX_RESULTS {
        notes.push(cap_note());
    }
    Ok(Piece { reported: Some(reported), statuses: Some((statuses, at)), notes, ..Piece::default() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> String {
        std::fs::read_to_string(format!("{}/tests/fixtures/import/hey/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    #[test]
    fn csv_rows_are_milliseconds_with_exact_send_offsets() {
        let rows = csv("hey.csv", &fixture("hey.csv")).unwrap().rows.unwrap();
        assert_eq!(rows.len(), 2000);
        // First line: 0.0038,0.0000,0.0000,0.0000,0.0026,0.0011,200,0.0008
        assert_eq!(rows[0], Row::new(Some(800_000), Some(3.8), 200, None));
    }

    #[test]
    fn summary_keeps_hey_numbers_and_its_rank_plus_one_rule() {
        let r = summary("hey-summary.txt", &fixture("hey-summary.txt")).unwrap().reported.unwrap();
        assert_eq!(r.rule, Rule::NearestRankPlusOne);
        assert_eq!((r.requests.unwrap().value, r.errors.unwrap().value, r.ranked), (2000, 0, Some(2000)));
        assert_eq!(r.percentiles_ms[&95_000].value, 12.9);
        assert_eq!(r.percentiles_ms.len(), 7);
        assert_eq!(r.max_ms.map(|m| (m.value, m.at.line)), Some((25.8, 4)));
        assert_eq!(r.duration_s.map(|d| d.value), Some(1.4123));
    }

    #[test]
    fn a_million_rows_say_that_hey_capped_them() {
        let mut text = String::from("response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset\n");
        for i in 0..MAX_RESULTS {
            text.push_str(&format!("0.0010,0.0000,0.0000,0.0000,0.0010,0.0000,200,{}.0000\n", i / 1000));
        }
        let piece = csv("big.csv", &text).unwrap();
        assert_eq!(piece.rows.unwrap().len(), MAX_RESULTS);
        assert!(piece.notes.contains(&cap_note()));
        let smaller = csv("small.csv", &fixture("hey.csv")).unwrap();
        assert!(!smaller.notes.contains(&cap_note()));
        // One row more than hey keeps: not a capped run, so no cap note, and every row is kept.
        text.push_str("0.0010,0.0000,0.0000,0.0000,0.0010,0.0000,200,1000.0000\n");
        let beyond = csv("beyond.csv", &text).unwrap();
        assert_eq!(beyond.rows.unwrap().len(), MAX_RESULTS + 1);
        assert!(!beyond.notes.contains(&cap_note()), "{:?}", beyond.notes);
        assert!(beyond.notes.contains(&Message::new(NoteKey::HeyBeyondCap, &[&1_000_001, &1_000_000])), "{:?}", beyond.notes);
    }

    #[test]
    fn a_status_line_cut_off_is_caught_by_the_histogram() {
        let text = fixture("hey-summary.txt").replace("[200]\t2000 responses", "[200]\t1990 responses\n  [503]\t10 responses");
        let r = summary("hey.txt", &text).unwrap().reported.unwrap();
        assert_eq!((r.requests.unwrap().value, r.errors.unwrap().value), (2000, 10));
        let cut = fixture("hey-summary.txt").replace("[200]\t2000 responses", "[200]\t1990 responses");
        let error = summary("hey.txt", &cut).unwrap_err();
        assert!(error.message.contains("count 1990 responses but the histogram"), "{error}");
    }
}
