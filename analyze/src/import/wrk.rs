//! wrk 4: its printed summary with `--latency` (thread stats, latency distribution 50/75/90/99,
//! requests, socket errors, non-2xx/3xx responses, requests/sec). A run without rows.
//!
//! Traps: every time carries its own unit (`79.00us`, `1.23ms`, `2.00s`, `1.00m`), counts carry
//! k/M suffixes; the percentiles come from an HdrHistogram; 3xx responses count as successes.

use super::error::ImportError;
use super::reported::ToolReported;
use super::text::{duration_ms, Lines};
use super::Piece;
use crate::model::{percentile_key, Rule};

pub fn summary(file: &str, text: &str) -> Result<Piece, ImportError> {
    let lines = Lines::new(file, text);
    let mut reported = ToolReported::new(Rule::HdrHistogram);
    let time = |at: (u64, u64, &str), index: usize| -> Result<f64, ImportError> {
        let (n, column, value) = at;
        let word = value.split_whitespace().nth(index).unwrap_or("");
        duration_ms(word).ok_or_else(|| lines.bad(n, column, format!("{word:?} is not a time with a unit (us, ms, s, m, h)")))
    };
    let latency = lines.require("Latency ", "wrk prints the thread stats first")?;
    reported.mean_ms = Some(time(latency, 0)?);
    reported.max_ms = Some(time(latency, 2)?);
    let mut in_distribution = false;
    for &(n, line) in &lines.lines {
        let trimmed = line.trim();
        if trimmed == "Latency Distribution" {
            in_distribution = true;
            continue;
        }
        if !in_distribution {
            continue;
        }
        let Some((label, value)) = trimmed.split_once(char::is_whitespace) else { break };
        let Some(key) = label.strip_suffix('%').and_then(percentile_key) else { break };
        let column = (line.len() - line.trim_start().len() + label.len()) as u64 + 1;
        let value = value.trim();
        let ms = duration_ms(value).ok_or_else(|| lines.bad(n, column, format!("{value:?} is not a time with a unit")))?;
        reported.percentiles_ms.insert(key, ms);
    }
    if reported.percentiles_ms.is_empty() {
        return Err(lines.bad(latency.0, 1, "no Latency Distribution: run wrk with --latency"));
    }
    let (n, column, done) = lines
        .lines
        .iter()
        .find_map(|&(n, l)| {
            l.trim().split_once(" requests in ").map(|(count, rest)| (n, (l.len() - l.trim_start().len()) as u64 + 1, (count, rest)))
        })
        .ok_or_else(|| lines.bad(lines.lines.last().map_or(1, |l| l.0), 1, "no `N requests in T` line: is the file truncated?"))?;
    let completed: u64 = done.0.parse().map_err(|_| lines.bad(n, column, format!("{:?} is not a count of requests", done.0)))?;
    let mut socket_errors = 0;
    if let Some((n, column, text)) = lines.value_after("Socket errors:") {
        for part in text.split(',') {
            let count = part.split_whitespace().nth(1).and_then(|w| w.parse::<u64>().ok());
            socket_errors += count.ok_or_else(|| lines.bad(n, column, format!("{part:?}: expected `kind COUNT`")))?;
        }
    }
    let non_2xx_3xx = match lines.value_after("Non-2xx or 3xx responses:") {
        Some(at) => lines.count(at)?,
        None => 0,
    };
    reported.requests = Some(completed + socket_errors);
    reported.errors = Some(socket_errors + non_2xx_3xx);
    reported.requests_per_s = Some(lines.number(lines.require("Requests/sec:", "wrk prints it last")?)?);
    Ok(Piece {
        reported: Some(reported),
        notes: vec!["wrk counts 3xx responses as successes and prints no minimum; its percentiles come from an HdrHistogram".into()],
        ..Piece::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixture_gives_milliseconds_from_every_unit() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/import/wrk/wrk.txt")).unwrap();
        let r = summary("wrk.txt", &text).unwrap().reported.unwrap();
        assert_eq!(r.mean_ms, Some(1.70));
        assert_eq!(r.max_ms, Some(11.61));
        assert_eq!(r.percentiles_ms[&99_000], 6.53);
        assert_eq!((r.requests, r.errors), (Some(7654), Some(0)));
        assert_eq!(r.requests_per_s, Some(2544.90));
    }

    #[test]
    fn microseconds_seconds_and_errors_are_read() {
        let text = "Running 10s test @ http://127.0.0.1:8080/\n  2 threads and 10 connections\n  Thread Stats   Avg      Stdev     Max   +/- Stdev\n    Latency   790.00us    2.39ms    1.20s   88.06%\n    Req/Sec    13.68k     4.91k   23.44k    60.00%\n  Latency Distribution\n     50%   79.00us\n     75%    1.23ms\n     90%    1.10s\n     99%    1.20s\n  82205 requests in 10.04s, 24.15MB read\n  Socket errors: connect 0, read 3, write 0, timeout 7\n  Non-2xx or 3xx responses: 5\nRequests/sec:  8187.75\nTransfer/sec:      2.41MB\n";
        let r = summary("wrk.txt", text).unwrap().reported.unwrap();
        assert_eq!(r.mean_ms, Some(0.79));
        assert_eq!(r.percentiles_ms[&50_000], 0.079);
        assert_eq!(r.percentiles_ms[&90_000], 1100.0);
        assert_eq!((r.requests, r.errors), (Some(82215), Some(15)));
    }

    #[test]
    fn a_unitless_latency_names_its_place() {
        let text = "Running 1s test @ http://x/\n  Thread Stats   Avg      Stdev     Max   +/- Stdev\n    Latency   790.00    2.39ms    1.20s   88.06%\n";
        let error = summary("wrk.txt", text).unwrap_err();
        assert_eq!(error.place, Some((3, 15)));
    }
}
