//! siege 4: `-v` lines (one per request), its printed summary, its JSON summary (`json_output`)
//! and its `--log` CSV line. siege prints no percentile, only min, mean and max.
//!
//! Traps: times are seconds with two decimals (10 ms resolution); "Transactions" counts every
//! response including 4xx/5xx, "Successful transactions" those below 400, "Failed transactions"
//! the requests without a response; the log's date has no time zone.

use super::error::ImportError;
use super::reported::ToolReported;
use super::text::{parse_shifted, Csv, Lines};
use super::{Piece, Row};
use crate::model::Rule;

const RESOLUTION_NOTE: &str = "siege prints times in seconds with two decimals (10 ms resolution)";

/// The counts siege prints, in the units it prints them.
struct Counts {
    transactions: u64,
    successful: u64,
    failed: u64,
    response_s: String,
    rate: f64,
    longest_s: String,
    shortest_s: String,
}

fn reported(c: &Counts) -> Option<ToolReported> {
    let mut r = ToolReported::new(Rule::NoPercentiles);
    r.requests = Some(c.transactions + c.failed);
    r.errors = Some(c.failed + c.transactions.saturating_sub(c.successful));
    r.requests_per_s = Some(c.rate);
    r.mean_ms = Some(parse_shifted(&c.response_s, 3)?);
    r.max_ms = Some(parse_shifted(&c.longest_s, 3)?);
    r.min_ms = Some(parse_shifted(&c.shortest_s, 3)?);
    Some(r)
}

pub fn verbose(file: &str, text: &str) -> Result<Piece, ImportError> {
    let lines = Lines::new(file, text);
    let mut rows = Vec::new();
    let mut summary_from = None;
    for &(n, line) in &lines.lines {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with("** ") || trimmed.starts_with("The server is now under siege") {
            continue;
        }
        if trimmed.starts_with("Transactions:") || trimmed.starts_with("Lifting the server siege") {
            summary_from = Some(n);
            break;
        }
        let column = (line.len() - line.trim_start().len()) as u64 + 1;
        if trimmed.starts_with("[error]") || trimmed.starts_with("[alert]") {
            rows.push(Row { sent_ms: None, latency_ms: None, status: 0, body_bytes: None });
            continue;
        }
        // HTTP/1.1 200     0.00 secs:   20200 bytes ==> GET  /page.html
        let words: Vec<&str> = trimmed.split_whitespace().collect();
        let parsed = (words.len() >= 6 && words[0].starts_with("HTTP/") && words[3] == "secs:" && words[5] == "bytes")
            .then(|| (words[1].parse::<u16>().ok(), parse_shifted(words[2], 3), words[4].parse::<u64>().ok()));
        match parsed {
            Some((Some(status), Some(latency_ms), Some(bytes))) if (100..=599).contains(&status) => {
                rows.push(Row { sent_ms: None, latency_ms: Some(latency_ms), status, body_bytes: Some(bytes) });
            }
            _ => return Err(lines.bad(n, column, "expected `HTTP/1.1 STATUS SECONDS secs: BYTES bytes ==> METHOD URL`")),
        }
    }
    if rows.is_empty() {
        return Err(ImportError::file(file, "holds no request line"));
    }
    let mut piece = Piece {
        rows: Some(rows),
        notes: vec![
            RESOLUTION_NOTE.into(),
            "siege -v prints no send time: the rows are in the order siege printed them, without times".into(),
        ],
        ..Piece::default()
    };
    if summary_from.is_some() {
        let more = summary(file, text)?;
        piece.reported = more.reported;
        piece.version = more.version;
    }
    Ok(piece)
}

pub fn summary(file: &str, text: &str) -> Result<Piece, ImportError> {
    let lines = Lines::new(file, text);
    let word = |key: &str| -> Result<(u64, u64, String), ImportError> {
        let (n, column, value) = lines.require(key, "siege prints it when the run ends")?;
        Ok((n, column, value.split_whitespace().next().unwrap_or("").to_string()))
    };
    let count = |key: &str| -> Result<u64, ImportError> {
        let (n, column, w) = word(key)?;
        w.parse().map_err(|_| lines.bad(n, column, format!("{w:?} is not a count")))
    };
    let seconds = |key: &str| -> Result<String, ImportError> {
        let (n, column, w) = word(key)?;
        parse_shifted(&w, 3).map(|_| w.clone()).ok_or_else(|| lines.bad(n, column, format!("{w:?} is not a number of seconds")))
    };
    let counts = Counts {
        transactions: count("Transactions:")?,
        successful: count("Successful transactions:")?,
        failed: count("Failed transactions:")?,
        response_s: seconds("Response time:")?,
        rate: lines.number(lines.require("Transaction rate:", "siege prints it when the run ends")?)?,
        longest_s: seconds("Longest transaction:")?,
        shortest_s: seconds("Shortest transaction:")?,
    };
    let version = lines.value_after("** SIEGE").map(|(_, _, v)| v.to_string());
    Ok(Piece { reported: reported(&counts), version, notes: vec![RESOLUTION_NOTE.into()], ..Piece::default() })
}

pub fn json(file: &str, text: &str) -> Result<Piece, ImportError> {
    let value: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| ImportError::at(file, e.line() as u64, e.column() as u64, format!("not valid JSON: {e}")))?;
    let lines = Lines::new(file, text);
    let field = |key: &str| -> Result<&serde_json::Value, ImportError> {
        value.get(key).ok_or_else(|| ImportError::file(file, format!("has no \"{key}\" field (siege's json_output has it)")))
    };
    let place = |key: &str| -> (u64, u64) {
        lines.lines.iter().find_map(|&(n, l)| l.find(&format!("\"{key}\"")).map(|c| (n, c as u64 + 1))).unwrap_or((1, 1))
    };
    let count = |key: &str| -> Result<u64, ImportError> {
        let (n, c) = place(key);
        field(key)?.as_u64().ok_or_else(|| ImportError::at(file, n, c, format!("\"{key}\" is not a count")))
    };
    let number_text = |key: &str| -> Result<String, ImportError> {
        let (n, c) = place(key);
        let v = field(key)?;
        v.as_f64().map(|_| v.to_string()).ok_or_else(|| ImportError::at(file, n, c, format!("\"{key}\" is not a number")))
    };
    let counts = Counts {
        transactions: count("transactions")?,
        successful: count("successful_transactions")?,
        failed: count("failed_transactions")?,
        response_s: number_text("response_time")?,
        rate: {
            let (n, c) = place("transaction_rate");
            field("transaction_rate")?.as_f64().ok_or_else(|| ImportError::at(file, n, c, "\"transaction_rate\" is not a number"))?
        },
        longest_s: number_text("longest_transaction")?,
        shortest_s: number_text("shortest_transaction")?,
    };
    Ok(Piece { reported: reported(&counts), notes: vec![RESOLUTION_NOTE.into()], ..Piece::default() })
}

pub fn log(file: &str, text: &str) -> Result<Piece, ImportError> {
    let csv = Csv::parse(file, text, b',')?;
    if csv.rows.len() != 1 {
        let line = csv.rows.get(1).map_or(1, |r| r.0);
        return Err(ImportError::at(file, line, 1, format!("holds {} runs (one line each): import one run at a time", csv.rows.len())));
    }
    let row = &csv.rows[0];
    let text_of = |name: &str| -> Result<String, ImportError> { Ok(row.1[csv.column(name)?].1.trim().to_string()) };
    let count = |name: &str| -> Result<u64, ImportError> { csv.count(row, csv.column(name)?) };
    let seconds = |name: &str| -> Result<String, ImportError> {
        let column = csv.column(name)?;
        csv.number(row, column)?;
        text_of(name)
    };
    // OKAY counts responses below 400, Failed the requests without a response.
    let counts = Counts {
        transactions: count("Trans")?,
        successful: count("OKAY")?,
        failed: count("Failed")?,
        response_s: seconds("Resp Time")?,
        rate: csv.number(row, csv.column("Trans Rate")?)?,
        longest_s: String::new(),
        shortest_s: String::new(),
    };
    let mut r = ToolReported::new(Rule::NoPercentiles);
    r.requests = Some(counts.transactions + counts.failed);
    r.errors = Some(counts.failed + counts.transactions.saturating_sub(counts.successful));
    r.requests_per_s = Some(counts.rate);
    r.mean_ms = parse_shifted(&counts.response_s, 3);
    Ok(Piece {
        reported: Some(r),
        notes: vec![RESOLUTION_NOTE.into(), "siege's log line has no minimum or maximum, and its date no time zone (not used)".into()],
        ..Piece::default()
    })
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
        assert!(rows.iter().all(|r| r.status == 200 && r.body_bytes == Some(20200) && r.sent_ms.is_none()));
    }

    #[test]
    fn the_three_summaries_agree_on_counts() {
        for (format, file) in [(summary as fn(&str, &str) -> _, "siege-summary.txt"), (json, "siege.json"), (log, "siege.log")] {
            let r = format(file, &fixture(file)).unwrap().reported.unwrap();
            assert_eq!((r.requests, r.errors), (Some(200), Some(0)), "{file}");
            assert_eq!(r.rule, Rule::NoPercentiles);
        }
        let text = summary("siege-summary.txt", &fixture("siege-summary.txt")).unwrap();
        assert_eq!(text.version.as_deref(), Some("4.0.7"));
        assert_eq!(text.reported.unwrap().max_ms, Some(10.0));
    }

    #[test]
    fn a_log_with_two_runs_is_refused_at_the_second() {
        let text = fixture("siege.log") + fixture("siege.log").lines().nth(1).unwrap() + "\n";
        assert_eq!(log("siege.log", &text).unwrap_err().place, Some((3, 1)));
    }
}
