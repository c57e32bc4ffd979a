//! ApacheBench 2.3: `-g` TSV (one row per request), `-e` CSV (its percentage table, 0-100 %) and
//! its printed summary.
//!
//! Traps (checked against real output, `tests/fixtures/import/ab`): `-g` rows are sorted by total
//! time, not by send time; their start time has 1 s resolution and every time is whole ms; they
//! have no status column. The summary's percentage table takes rank floor(p·n/100)+1, and its
//! Connection Times "median" for an odd n is the mean of the values at 0-based indices n/2 and
//! n/2+1 (one above the middle), so it is not the median.

use super::error::ImportError;
use super::reported::ToolReported;
use super::text::{Csv, Lines};
use super::{ImportedRun, Piece, Row};
use crate::model::{percentile_key, Rule};

pub fn gnuplot(file: &str, text: &str) -> Result<Piece, ImportError> {
    let csv = Csv::parse(file, text, b'\t')?;
    let seconds = csv.column("seconds")?;
    let ttime = csv.column("ttime")?;
    let mut rows = Vec::with_capacity(csv.rows.len());
    for row in &csv.rows {
        let sent_s = csv.count(row, seconds)?;
        let total = csv.count(row, ttime)?;
        rows.push(Row { sent_ms: Some(sent_s as f64 * 1000.0), latency_ms: Some(total as f64), status: 0, body_bytes: None });
    }
    if rows.is_empty() {
        return Err(ImportError::file(file, "has a header but no request"));
    }
    // ab writes the rows sorted by total time; their order of sending is their start second.
    rows.sort_by(|a, b| a.sent_ms.partial_cmp(&b.sent_ms).expect("finite"));
    let started = rows.first().and_then(|r| r.sent_ms);
    Ok(Piece {
        rows: Some(rows),
        rows_without_status: true,
        started_unix_ms: started,
        notes: vec![
            "ab -g: send times have 1 s resolution and latencies are whole milliseconds; rows are re-ordered by send second (ab writes them sorted by total time)".into(),
        ],
        ..Piece::default()
    })
}

pub fn percentiles(file: &str, text: &str) -> Result<Piece, ImportError> {
    let csv = Csv::parse(file, text, b',')?;
    let mut reported = ToolReported::new(Rule::FloorPlusOne);
    for row in &csv.rows {
        let (column, label) = &row.1[0];
        let Some(key) = percentile_key(label) else {
            return Err(csv.lines.bad(row.0, *column, format!("{label:?} is not a percentage from 0 to 100")));
        };
        reported.percentiles_ms.insert(key, csv.number(row, 1)?);
    }
    if reported.percentiles_ms.len() != 101 {
        let last = csv.rows.last().map_or(1, |r| r.0);
        return Err(csv.lines.bad(
            last,
            1,
            format!("{} percentages where ab -e writes 101 (0 to 100): is the file truncated?", reported.percentiles_ms.len()),
        ));
    }
    reported.min_ms = reported.percentiles_ms.get(&0).copied();
    reported.max_ms = reported.percentiles_ms.get(&100_000).copied();
    Ok(Piece { reported: Some(reported), ..Piece::default() })
}

pub fn stdout(file: &str, text: &str) -> Result<Piece, ImportError> {
    let lines = Lines::new(file, text);
    let mut reported = ToolReported::new(Rule::FloorPlusOne);
    let version = lines.value_after("This is ApacheBench, Version").map(|(_, _, v)| v.split_whitespace().next().unwrap_or("").to_string());
    let complete = lines.count(lines.require("Complete requests:", "ab prints it when the run ends")?)?;
    let failed_at = lines.require("Failed requests:", "ab prints it when the run ends")?;
    let failed = lines.count(failed_at)?;
    let mut notes = Vec::new();
    // "Failed" includes Length failures (a body length differing from the first response's),
    // which are responses, not errors; the breakdown follows on the next line when failed > 0.
    let mut failed_without_response = failed;
    if failed > 0 {
        let breakdown = lines.lines.iter().find(|(n, _)| *n == failed_at.0 + 1).map(|(_, l)| *l).unwrap_or("");
        let length = breakdown
            .split(['(', ',', ')'])
            .find_map(|part| part.trim().strip_prefix("Length:").map(|v| v.trim().parse::<u64>()))
            .transpose()
            .map_err(|_| lines.bad(failed_at.0 + 1, 1, "the Length count of the failure breakdown is not a count"))?
            .unwrap_or(0);
        failed_without_response = failed.saturating_sub(length);
        if length > 0 {
            notes.push(format!(
                "ab counted {length} Length failures (a body length unlike the first response's); they are responses, not errors"
            ));
        }
    }
    let non_2xx = match lines.value_after("Non-2xx responses:") {
        Some(at) => lines.count(at)?,
        None => 0,
    };
    reported.requests = Some(complete + failed_without_response);
    reported.errors = Some(failed_without_response + non_2xx);
    reported.requests_per_s = Some(lines.number(lines.require("Requests per second:", "ab prints it when the run ends")?)?);
    if let Some((n, column, total)) = lines.value_after("Total:") {
        // min  mean[+/-sd]  median  max, whole ms
        let words: Vec<&str> = total.split_whitespace().collect();
        let numbers: Option<Vec<f64>> = words.iter().map(|w| super::text::parse_number(w)).collect();
        match numbers {
            Some(v) if v.len() == 5 => {
                reported.min_ms = Some(v[0]);
                reported.mean_ms = Some(v[1]);
                reported.max_ms = Some(v[4]);
                if complete % 2 == 1 && complete > 1 {
                    notes.push(format!(
                        "ab's Connection Times median ({} ms) for an odd count is the mean of the values at ranks {} and {}, not the median",
                        v[3],
                        complete / 2 + 1,
                        complete / 2 + 2
                    ));
                }
            }
            _ => return Err(lines.bad(n, column, "the Total row of Connection Times needs min, mean, sd, median and max")),
        }
    }
    let mut in_table = false;
    for &(n, line) in &lines.lines {
        if line.starts_with("Percentage of the requests served") {
            in_table = true;
            continue;
        }
        if !in_table {
            continue;
        }
        let trimmed = line.trim();
        let Some((label, rest)) = trimmed.split_once('%') else { break };
        let Some(key) = percentile_key(label) else { break };
        let value_text = rest.split_whitespace().next().unwrap_or("");
        let column = (line.len() - line.trim_start().len() + label.len() + 1 + (rest.len() - rest.trim_start().len())) as u64 + 1;
        let value =
            super::text::parse_number(value_text).ok_or_else(|| lines.bad(n, column, format!("{value_text:?} is not a number of ms")))?;
        reported.percentiles_ms.insert(key, value);
    }
    notes.push("ab prints whole milliseconds in its summary".into());
    Ok(Piece { reported: Some(reported), version, notes, ..Piece::default() })
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
    if let Some(requests) = reported.requests {
        if requests != rows.len() as u64 {
            return Err(ImportError::file(
                rows_file,
                format!("has {} rows but the summary counts {requests} requests: are they from the same ab run?", rows.len()),
            ));
        }
    }
    match reported.errors {
        Some(0) => {
            for row in rows.iter_mut() {
                row.status = 200;
            }
            run.notes.push("ab -g has no status column: every row is given status 200 because ab's summary counted no failure and no non-2xx response".into());
            Ok(())
        }
        Some(errors) => Err(ImportError::file(
            rows_file,
            format!("ab's summary counts {errors} failed or non-2xx requests, and ab -g does not say which rows they are: import the summary alone (a run without rows)"),
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
        assert!(rows.windows(2).all(|w| w[0].sent_ms <= w[1].sent_ms));
        // In the file they are sorted by total time, so the last line is the slowest request.
        let text = fixture("ab-g.tsv");
        let last_total: f64 = text.lines().last().unwrap().split('\t').nth(4).unwrap().parse().unwrap();
        assert_eq!(rows.iter().filter_map(|r| r.latency_ms).fold(0.0, f64::max), last_total);
        assert!(piece.rows_without_status);
    }

    #[test]
    fn stdout_gives_counts_rate_and_the_percentage_table() {
        let piece = stdout("ab-stdout.txt", &fixture("ab-stdout.txt")).unwrap();
        let r = piece.reported.unwrap();
        assert_eq!(piece.version.as_deref(), Some("2.3"));
        assert_eq!((r.requests, r.errors), (Some(2000), Some(0)));
        assert_eq!(r.requests_per_s, Some(1929.89));
        assert_eq!(r.percentiles_ms.get(&95_000), Some(&5.0));
        assert_eq!(r.percentiles_ms.get(&100_000), Some(&16.0));
        assert_eq!((r.min_ms, r.mean_ms, r.max_ms), (Some(0.0), Some(2.0), Some(16.0)));
        assert_eq!(r.rule, Rule::FloorPlusOne);
    }

    #[test]
    fn non_2xx_responses_count_as_errors() {
        let r = stdout("errors-stdout.txt", &fixture("errors-stdout.txt")).unwrap().reported.unwrap();
        assert_eq!((r.requests, r.errors), (Some(50), Some(50)));
    }

    #[test]
    fn odd_count_median_of_ab_is_not_the_median() {
        // 101 requests: ab's Connection Times median averages the 51st and 52nd values.
        let piece = stdout("odd-stdout.txt", &fixture("odd-stdout.txt")).unwrap();
        let note = piece.notes.iter().find(|n| n.contains("median")).expect("a note on ab's median");
        assert!(note.contains("ranks 51 and 52"), "{note}");
    }

    #[test]
    fn percentiles_file_has_ab_rule_and_101_rows() {
        let r = percentiles("ab-e.csv", &fixture("ab-e.csv")).unwrap().reported.unwrap();
        assert_eq!(r.percentiles_ms.len(), 101);
        assert_eq!(r.rule, Rule::FloorPlusOne);
        assert!(r.min_ms.unwrap() <= r.percentiles_ms[&95_000] && r.percentiles_ms[&95_000] <= r.max_ms.unwrap());
    }

    #[test]
    fn truncated_percentiles_file_names_its_last_line() {
        let text: String = fixture("ab-e.csv").lines().take(60).map(|l| format!("{l}\n")).collect();
        let error = percentiles("ab-e.csv", &text).unwrap_err();
        assert_eq!(error.place, Some((60, 1)));
    }
}
