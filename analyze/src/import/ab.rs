//! ApacheBench 2.3: `-g` TSV (one row per request), `-e` CSV (its percentage table, 0-100 %) and
//! its printed summary.
//!
//! Traps (checked against ab.c and real output, `tests/fixtures/import/ab`): `-g` rows are sorted
//! by total time, not by send time; their start time has 1 s resolution and every time is whole ms
//! (rounded); they have no status column. The printed table takes the sorted times at 0-based
//! index floor(p·n/100), rank floor(p·n/100)+1, rounded to whole ms; `-e` takes index
//! `(int)(0.5 + p·n/100)`, rank round(p·n/100)+1, to the µs. Both rank every completed request,
//! whatever its status. The Connection Times "median" for an odd n is the mean of the values at
//! 0-based indices n/2 and n/2+1 (one above the middle), so it is not the median. Connect and
//! exception failures are connections that never carried a request; Length failures are
//! responses whose body length differs from the first one's.

use super::error::ImportError;
use super::reported::{Count, Printed, ToolReported};
use super::text::{implausible_unix_ns, parse_number, step_of, Csv, Lines};
use super::{ImportedRun, Piece, Row, Start};
use super::{Message, NoteKey};
use crate::model::{percentile_key, Rule};

/// The percentages ab 2.3 prints in its table, in order.
const TABLE: [u32; 9] = [50_000, 66_000, 75_000, 80_000, 90_000, 95_000, 98_000, 99_000, 100_000];

/// `ab -g` (one text): see [`GnuplotBlocks`].
pub fn gnuplot(file: &str, text: &str) -> Result<Piece, ImportError> {
    let mut blocks = GnuplotBlocks::new(file);
    super::stream::Blocks::block(&mut blocks, text, 1)?;
    super::stream::Blocks::finish(Box::new(blocks))
}

/// `ab -g` read block by block: the header from the first block; the rows are put in their
/// order of sending once all are read.
pub struct GnuplotBlocks {
    file: String,
    header: Option<Vec<String>>,
    rows: Vec<Row>,
    first: Option<(i64, u64)>,
}

impl GnuplotBlocks {
    pub fn new(file: &str) -> Self {
        GnuplotBlocks { file: file.to_string(), header: None, rows: Vec::new(), first: None }
    }
}

impl super::stream::Blocks for GnuplotBlocks {
    fn block(&mut self, text: &str, first_line: u64) -> Result<(), ImportError> {
        let file = self.file.clone();
        let csv = match self.header.take() {
            Some(header) => Csv::block(&file, header, text, first_line, b'\t')?,
            None => Csv::parse(&file, text, b'\t')?,
        };
        self.header = Some(csv.header.clone());
        let seconds = csv.column("seconds")?;
        let ttime = csv.column("ttime")?;
        for row in &csv.rows {
            let sent_s = csv.count(row, seconds)?;
            let sent_ns = i64::try_from(sent_s).ok().and_then(|s| s.checked_mul(1_000_000_000)).unwrap_or(i64::MAX);
            if let Some(why) = implausible_unix_ns(sent_ns) {
                return Err(csv.lines.bad(row.0, row.1[seconds].0, format!("seconds: {why}")));
            }
            if self.first.is_none_or(|(s, _)| sent_ns < s) {
                self.first = Some((sent_ns, row.0));
            }
            let total = csv.count(row, ttime)?;
            let total = super::response_time(total as f64, |why| csv.lines.bad(row.0, row.1[ttime].0, format!("ttime: {why}")))?;
            self.rows.push(Row::new(Some(sent_ns), Some(total), 0, None));
        }
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<Piece, ImportError> {
        let Some((started, line)) = self.first else { return Err(ImportError::file(&self.file, "has a header but no request")) };
        let mut rows = self.rows;
        // ab writes the rows sorted by total time; their order of sending is their start second.
        rows.sort_by_key(|r| r.sent_ns());
        Ok(Piece {
            rows: Some(rows),
            rows_without_status: true,
            started: Some(Start { unix_ns: started, step_ns: 1_000_000_000, at: super::Place::new(&self.file, line, 1) }),
            notes: vec![Message::plain(NoteKey::AbGnuplot)],
            ..Piece::default()
        })
    }
}

/// `ab -e`: `Percentage served,Time in ms`, then `%d,%.3f` for 0 to 100, nothing else.
pub fn percentiles(file: &str, text: &str) -> Result<Piece, ImportError> {
    let csv = Csv::parse(file, text, b',')?;
    if csv.header != ["Percentage served", "Time in ms"] {
        return Err(ImportError::at(file, 1, 1, "the header is not ab -e's `Percentage served,Time in ms`"));
    }
    let mut reported = ToolReported::new(Rule::RoundedPlusOne);
    for (expected, row) in csv.rows.iter().enumerate() {
        let (column, label) = &row.1[0];
        if label.parse::<usize>().ok() != Some(expected) {
            return Err(csv.lines.bad(
                row.0,
                *column,
                format!("{label:?} where ab -e writes {expected}: the lines go 0 to 100, one per percent"),
            ));
        }
        let (value_column, value_text) = &row.1[1];
        let value = csv.number(row, 1)?;
        if value_text.split_once('.').is_none_or(|(_, f)| f.len() != 3) || value < 0.0 {
            return Err(csv.lines.bad(
                row.0,
                *value_column,
                format!("{value_text:?} is not ab -e's time (ms with 3 decimals): is the file cut or edited?"),
            ));
        }
        let key = percentile_key(label).expect("0 to 100");
        reported.percentiles_ms.insert(key, Printed::new(value, 0.001, csv.lines.place(row.0, *value_column)));
    }
    if reported.percentiles_ms.len() != 101 {
        let last = csv.rows.last().map_or(1, |r| r.0);
        return Err(csv.lines.bad(
            last,
            1,
            format!("{} percentages where ab -e writes 101 (0 to 100): the file is cut short", reported.percentiles_ms.len()),
        ));
    }
    reported.min_ms = reported.percentiles_ms.get(&0).cloned();
    reported.max_ms = reported.percentiles_ms.get(&100_000).cloned();
    Ok(Piece { reported: Some(reported), ..Piece::default() })
}

/// The failures ab breaks its `Failed requests` count into.
#[derive(Default)]
struct Failures {
    connect: u64,
    receive: u64,
    length: u64,
    exceptions: u64,
}

pub fn stdout(file: &str, text: &str) -> Result<Piece, ImportError> {
    let lines = Lines::new(file, text);
    let mut reported = ToolReported::new(Rule::FloorPlusOne);
    let version = lines
        .require("This is ApacheBench, Version", "ab prints it first")
        .map(|(_, _, v)| v.split_whitespace().next().unwrap_or("").to_string())?;
    let ends = "ab prints it when the run ends";
    let duration = lines.require("Time taken for tests:", ends)?;
    reported.duration_s = Some(lines.printed(duration, 0)?);
    let complete = lines.counted(lines.require("Complete requests:", ends)?)?;
    let failed_at = lines.require("Failed requests:", ends)?;
    let failed = lines.count(failed_at)?;
    let mut failures = Failures::default();
    if failed > 0 {
        // "   (Connect: 0, Receive: 0, Length: 12, Exceptions: 0)" follows when failed > 0.
        let breakdown = lines.lines.iter().find(|(n, _)| *n == failed_at.0 + 1).map_or("", |(_, l)| *l);
        let bad = || {
            lines.bad(
                failed_at.0 + 1,
                1,
                "expected ab's breakdown `(Connect: N, Receive: N, Length: N, Exceptions: N)` of the failed requests",
            )
        };
        let inner = breakdown.trim().strip_prefix('(').and_then(|b| b.strip_suffix(')')).ok_or_else(bad)?;
        for part in inner.split(',') {
            let (kind, count) = part.trim().split_once(": ").ok_or_else(bad)?;
            let count: u64 = count.trim().parse().map_err(|_| bad())?;
            match kind {
                "Connect" => failures.connect = count,
                "Receive" => failures.receive = count,
                "Length" => failures.length = count,
                "Exceptions" => failures.exceptions = count,
                _ => return Err(bad()),
            }
        }
    }
    let non_2xx = match lines.value_after("Non-2xx responses:") {
        Some(at) => lines.count(at)?,
        None => 0,
    };
    let mut notes = Vec::new();
    // Requests are the completed ones (with or without a good response); a connection that failed
    // carried none. Receive failures completed without a response ab could read.
    reported.requests = Some(complete.clone());
    reported.ranked = Some(complete.value);
    reported.errors = Some(Count::new(non_2xx + failures.receive, complete.at.clone()));
    if failed > 0 {
        notes.push(Message::new(
            NoteKey::AbFailures,
            &[&failed, &failures.connect, &failures.receive, &failures.length, &failures.exceptions],
        ));
    }
    if let Some(at) = lines.value_after("Write errors:") {
        notes.push(Message::new(NoteKey::AbWriteErrors, &[&lines.count(at)?]));
    }
    if complete.value == 0 {
        return Err(complete.at.error("ab completed no request: there is nothing to import"));
    }
    reported.requests_per_s = Some(lines.printed(lines.require("Requests per second:", ends)?, 0)?);

    let (n, column, total) = lines.require("Total:", "ab prints Connection Times for a run that completed requests")?;
    // min mean[+/-sd] median max (or, with -S, min avg max), whole ms.
    let words: Vec<&str> = total.split_whitespace().collect();
    let numbers: Option<Vec<f64>> = words.iter().map(|w| parse_number(w)).collect();
    let at = |i: usize| -> Printed {
        let offset = total.find(words[i]).unwrap_or(0) as u64;
        Printed::new(parse_number(words[i]).expect("parsed above"), step_of(words[i]), lines.place(n, column + offset))
    };
    match numbers {
        Some(v) if v.len() == 5 => {
            reported.min_ms = Some(at(0));
            reported.mean_ms = Some(at(1));
            reported.max_ms = Some(at(4));
            if complete.value % 2 == 1 && complete.value > 1 {
                notes.push(Message::new(NoteKey::AbOddMedian, &[&v[3], &(complete.value / 2 + 1), &(complete.value / 2 + 2)]));
            }
        }
        Some(v) if v.len() == 3 => {
            reported.min_ms = Some(at(0));
            reported.mean_ms = Some(at(1));
            reported.max_ms = Some(at(2));
        }
        _ => return Err(lines.bad(n, column, "the Total row of Connection Times needs min, mean, sd, median and max")),
    }
    if complete.value > 1 {
        read_table(&lines, &mut reported)?;
    }
    notes.push(Message::plain(NoteKey::AbSummaryWholeMs));
    Ok(Piece { reported: Some(reported), version: Some(version), notes, ..Piece::default() })
}

/// ab's percentage table: every one of its nine lines, the last one ` 100%  N (longest request)`.
fn read_table(lines: &Lines, reported: &mut ToolReported) -> Result<(), ImportError> {
    let heading = lines.lines.iter().position(|(_, l)| l.starts_with("Percentage of the requests served"));
    let Some(heading) = heading else {
        let last = lines.lines.last().map_or(1, |(n, _)| *n);
        return Err(lines.bad(
            last,
            1,
            "no `Percentage of the requests served` table after Connection Times: the file is cut short, or ab ran with -d (run it without -d)",
        ));
    };
    let table = &lines.lines[heading + 1..];
    for (i, &milli) in TABLE.iter().enumerate() {
        let Some(&(n, line)) = table.get(i) else {
            let last = lines.lines.last().map_or(1, |(n, _)| *n);
            return Err(lines.bad(last, 1, format!("the percentage table ends before its {}% line: the file is cut short", milli / 1000)));
        };
        let trimmed = line.trim_start();
        let expected = format!("{}%", milli / 1000);
        let column = (line.len() - trimmed.len()) as u64 + 1;
        let rest = trimmed
            .strip_prefix(&expected)
            .ok_or_else(|| lines.bad(n, column, format!("expected ab's `{expected}` line of the percentage table")))?;
        let word = rest.split_whitespace().next().unwrap_or("");
        let tail = rest.trim_start().strip_prefix(word).unwrap_or("").trim();
        let closing = if milli == 100_000 { "(longest request)" } else { "" };
        let value_column = column + (expected.len() + rest.len() - rest.trim_start().len()) as u64;
        match (parse_number(word), tail == closing) {
            (Some(value), true) if word.bytes().all(|b| b.is_ascii_digit()) => {
                reported.percentiles_ms.insert(milli, Printed::new(value, 1.0, lines.place(n, value_column)));
            }
            _ => {
                let shape = if closing.is_empty() { format!("{expected} MS") } else { format!("{expected} MS {closing}") };
                return Err(lines.bad(n, value_column, format!("expected `{shape}` (whole ms): is the file cut or edited?")));
            }
        }
    }
    Ok(())
}

/// ab's `-g` rows carry no status: they get one from the same invocation's summary, which must
/// have counted no failure. Otherwise which rows failed is unknown, and the import is refused.
pub fn give_status(run: &mut ImportedRun, rows_file: &str) -> Result<(), ImportError> {
    let Some(reported) = &run.reported else {
        return Err(ImportError::file(
            rows_file,
            "ab -g has no status column: import it together with the same run's printed summary (ab ... > stdout.txt), which counts failures",
        ));
    };
    let rows = run.rows.as_mut().expect("rows_without_status comes with rows");
    if let Some(requests) = &reported.requests {
        if requests.value != rows.len() as u64 {
            return Err(ImportError::file(
                rows_file,
                format!(
                    "has {} rows but the summary counts {} requests (at {}): are they from the same ab run?",
                    rows.len(),
                    requests.value,
                    requests.at
                ),
            ));
        }
    }
    match &reported.errors {
        Some(errors) if errors.value == 0 => {
            for row in rows.iter_mut() {
                row.status = 200;
            }
            run.notes.push(Message::plain(NoteKey::AbStatusAssumed));
            Ok(())
        }
        Some(errors) => Err(ImportError::file(
            rows_file,
            format!(
                "ab's summary counts {} requests without a 2xx response (at {}), and ab -g does not say which rows they are: import the summary alone (a run without rows)",
                errors.value, errors.at
            ),
        )),
        None => Err(ImportError::file(rows_file, "ab's summary does not count failures: the rows' statuses are unknown")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> String {
        std::fs::read_to_string(format!("{}/tests/fixtures/import/ab/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    #[test]
    fn gnuplot_rows_are_reordered_by_send_second() {
        let piece = gnuplot("ab-g.tsv", &fixture("ab-g.tsv")).unwrap();
        let rows = piece.rows.unwrap();
        assert_eq!(rows.len(), 2000);
        assert!(rows.windows(2).all(|w| w[0].sent_ns() <= w[1].sent_ns()));
        // In the file they are sorted by total time, so the last line is the slowest request.
        let text = fixture("ab-g.tsv");
        let last_total: f64 = text.lines().last().unwrap().split('\t').nth(4).unwrap().parse().unwrap();
        assert_eq!(rows.iter().filter_map(|r| r.latency_ms()).fold(0.0, f64::max), last_total);
        assert!(piece.rows_without_status);
        // The earliest send second, not the first line's (the lines are sorted by total time).
        assert_eq!(piece.started.unwrap().unix_ns, 1_796_049_879_000_000_000);
    }

    #[test]
    fn stdout_gives_counts_rate_and_the_percentage_table() {
        let piece = stdout("ab-stdout.txt", &fixture("ab-stdout.txt")).unwrap();
        let r = piece.reported.unwrap();
        assert_eq!(piece.version.as_deref(), Some("2.3"));
        assert_eq!((r.requests.unwrap().value, r.errors.unwrap().value, r.ranked), (2000, 0, Some(2000)));
        assert_eq!(r.requests_per_s.as_ref().map(|p| (p.value, p.step)), Some((1929.89, 0.01)));
        assert_eq!(r.duration_s.as_ref().map(|p| p.value), Some(1.036));
        assert_eq!(r.percentiles_ms[&95_000].value, 5.0);
        assert_eq!(r.percentiles_ms[&100_000].value, 16.0);
        assert_eq!(r.percentiles_ms[&100_000].at.line, 53);
        assert_eq!((r.min_ms.unwrap().value, r.mean_ms.unwrap().value, r.max_ms.unwrap().value), (0.0, 2.0, 16.0));
        assert_eq!(r.rule, Rule::FloorPlusOne);
    }

    #[test]
    fn non_2xx_responses_count_as_errors() {
        let r = stdout("errors-stdout.txt", &fixture("errors-stdout.txt")).unwrap().reported.unwrap();
        assert_eq!((r.requests.unwrap().value, r.errors.unwrap().value), (50, 50));
    }

    #[test]
    fn a_reset_counted_three_times_is_one_error() {
        // Real (ab -r against a server that resets one connection in ten): 285 failed requests,
        // 95 receive + 95 length + 95 exceptions, are 95 requests without a response of 1000.
        let r = stdout("reset-stdout.txt", &fixture("reset-stdout.txt")).unwrap().reported.unwrap();
        assert_eq!((r.requests.unwrap().value, r.errors.unwrap().value, r.ranked), (1000, 95, Some(1000)));
        // And 102 responses of 500 (each a length failure too) are 102 errors, not 204.
        let r = stdout("mixed-stdout.txt", &fixture("mixed-stdout.txt")).unwrap().reported.unwrap();
        assert_eq!((r.requests.unwrap().value, r.errors.unwrap().value, r.ranked), (1000, 102, Some(1000)));
    }

    #[test]
    fn an_aborted_run_is_refused() {
        let error = stdout("aborted-stdout.txt", &fixture("aborted-stdout.txt")).unwrap_err();
        assert!(error.message.contains("Time taken for tests"), "{error}");
    }

    #[test]
    fn odd_count_median_of_ab_is_not_the_median() {
        // 101 requests: ab's Connection Times median averages the 51st and 52nd values.
        let piece = stdout("odd-stdout.txt", &fixture("odd-stdout.txt")).unwrap();
        let note = piece.notes.iter().find(|n| n.key == NoteKey::AbOddMedian).expect("a note on ab's median");
        assert_eq!((note.value("low"), note.value("high")), (Some("51"), Some("52")), "{note}");
    }

    #[test]
    fn percentiles_file_has_ab_e_rule_and_101_rows() {
        let r = percentiles("ab-e.csv", &fixture("ab-e.csv")).unwrap().reported.unwrap();
        assert_eq!(r.percentiles_ms.len(), 101);
        assert_eq!(r.rule, Rule::RoundedPlusOne);
        assert!(r.min_ms.unwrap().value <= r.percentiles_ms[&95_000].value && r.percentiles_ms[&95_000].value <= r.max_ms.unwrap().value);
    }

    #[test]
    fn truncated_percentiles_file_names_its_last_line() {
        let text: String = fixture("ab-e.csv").lines().take(60).map(|l| format!("{l}\n")).collect();
        let error = percentiles("ab-e.csv", &text).unwrap_err();
        assert_eq!(error.place, Some((60, 1)));
    }

    #[test]
    fn a_stdout_cut_inside_its_table_or_run_with_d_is_refused() {
        let whole = fixture("ab-stdout.txt");
        let cut: String = whole.lines().take(51).map(|l| format!("{l}\n")).collect();
        let error = stdout("ab-stdout.txt", &cut).unwrap_err();
        assert!(error.message.contains("before its 99% line"), "{error}");
        let without_table: String = whole.lines().take(42).map(|l| format!("{l}\n")).collect();
        let error = stdout("ab-stdout.txt", &without_table).unwrap_err();
        assert!(error.message.contains("ab ran with -d"), "{error}");
    }
}
