//! wrk 4: its printed summary with `--latency` (thread stats, latency distribution 50/75/90/99,
//! requests, socket errors, non-2xx/3xx responses, requests/sec, transfer/sec). A run without rows.
//!
//! Traps (wrk.c and stats.c of wrk 4.1.0): latencies are recorded in whole microseconds, one
//! count per microsecond, and a percentile is the value at rank round(p/100·n + 1/2) = floor(p·n/100)+1
//! of them; every time is printed with two decimals of its own unit (`79.00us`, `1.23ms`, `2.00s`,
//! `1.00m`). `N requests in T` counts completed responses of any status; `Non-2xx or 3xx
//! responses` counts those above 399; `Socket errors` are connection events, not requests: a
//! read error is counted whenever the server closes a connection, even right after a complete
//! response, and a timeout is a response slower than `--timeout`, which is left out of the
//! latency statistics.

use super::error::ImportError;
use super::reported::{Count, Printed, ToolReported};
use super::text::{duration_ms, Lines};
use super::Piece;
use super::{Message, NoteKey};
use crate::model::{percentile_key, Rule};

/// The percentiles `--latency` prints, in order.
const PRINTED: [u32; 4] = [50_000, 75_000, 90_000, 99_000];

/// The percentiles wrk2's `--latency` prints, in order (from its HdrHistogram).
const PRINTED_WRK2: [u32; 8] = [50_000, 75_000, 90_000, 99_000, 99_900, 99_990, 99_999, 100_000];

/// What differs between wrk's summary and wrk2's.
struct Dialect {
    printed: &'static [u32],
    heading: &'static str,
    rule: Rule,
}

const WRK: Dialect = Dialect { printed: &PRINTED, heading: "Latency Distribution", rule: Rule::FloorPlusOne };

const WRK2: Dialect =
    Dialect { printed: &PRINTED_WRK2, heading: "Latency Distribution (HdrHistogram - Recorded Latency)", rule: Rule::HdrHistogramRounded };

/// wrk's socket error counts.
#[derive(Default)]
struct SocketErrors {
    connect: u64,
    read: u64,
    write: u64,
    timeout: u64,
}

pub fn summary(file: &str, text: &str) -> Result<Piece, ImportError> {
    summary_of(file, text, &WRK)
}

/// wrk2 `--latency` (giltene/wrk2, which is not packaged here: the fixture is its README's
/// output): wrk's summary with its latencies in an HdrHistogram. Traps: the Latency Distribution
/// is the C library's `hdr_value_at_percentile` (rank round(p·n/100), [`Rule::HdrHistogramRounded`]);
/// the histogram leaves out the first 10 s of calibration, so it ranks fewer values than the
/// requests counted; latencies are measured from when the constant-rate plan meant to send each
/// request (coordinated omission corrected); the Detailed Percentile spectrum that follows is a
/// `.hgrm` distribution (`hdr.rs`), whose footer gives the mean and max to the µs.
pub fn wrk2(file: &str, text: &str) -> Result<Piece, ImportError> {
    let mut piece = summary_of(file, text, &WRK2)?;
    let lines = Lines::new(file, text);
    let header = lines.lines.iter().position(|(_, l)| l.trim() == "Detailed Percentile spectrum:");
    let header = header.ok_or_else(|| lines.bad(1, 1, "no `Detailed Percentile spectrum:`: wrk2 prints it with --latency"))?;
    let spectrum = super::hdr::spectrum(&lines, header + 1)?;
    let reported = piece.reported.as_mut().expect("a wrk summary has numbers");
    reported.mean_ms = Some(spectrum.mean.clone());
    reported.max_ms = Some(spectrum.max.clone());
    reported.ranked = Some(spectrum.total.value);
    let requests = reported.requests.as_ref().map_or(0, |c| c.value);
    piece.notes.retain(|n| n.key != NoteKey::WrkBasis);
    piece.notes.splice(0..0, [Message::plain(NoteKey::Wrk2Corrected), spectrum.precision_note(), Message::plain(NoteKey::Wrk2Rank)]);
    if spectrum.total.value < requests {
        piece.notes.push(Message::new(NoteKey::Wrk2Calibration, &[&spectrum.total.value, &requests]));
    }
    Ok(piece)
}

fn summary_of(file: &str, text: &str, dialect: &Dialect) -> Result<Piece, ImportError> {
    let lines = Lines::new(file, text);
    let mut reported = ToolReported::new(dialect.rule);
    let time = |at: (u64, u64, &str), index: usize| -> Result<Printed, ImportError> {
        let (n, column, value) = at;
        let word = value.split_whitespace().nth(index).unwrap_or("");
        let offset = value.split_whitespace().take(index).map(str::len).sum::<usize>();
        let word_column = column + value[offset..].find(word).map_or(0, |i| offset + i) as u64;
        let (ms, step) =
            duration_ms(word).ok_or_else(|| lines.bad(n, word_column, format!("{word:?} is not a time with a unit (us, ms, s, m, h)")))?;
        Ok(Printed::new(ms, step, lines.place(n, word_column)))
    };
    lines.require("Running ", "wrk prints it first")?;
    let latency = lines.require("Latency ", "wrk prints the thread stats first")?;
    reported.mean_ms = Some(time(latency, 0)?);
    reported.max_ms = Some(time(latency, 2)?);
    let heading = lines.lines.iter().position(|(_, l)| l.trim() == dialect.heading);
    let Some(heading) = heading else {
        return Err(lines.bad(latency.0, 1, "no Latency Distribution: run wrk with --latency"));
    };
    for (i, &milli) in dialect.printed.iter().enumerate() {
        let Some(&(n, line)) = lines.lines.get(heading + 1 + i) else {
            let last = lines.lines.last().map_or(1, |(n, _)| *n);
            return Err(lines.bad(
                last,
                1,
                format!("the Latency Distribution ends before its {}% line: the file is cut short", crate::model::percentile_label(milli)),
            ));
        };
        let trimmed = line.trim();
        let column = (line.len() - line.trim_start().len()) as u64 + 1;
        let parsed = trimmed.split_once(char::is_whitespace).and_then(|(label, value)| {
            let key = label.strip_suffix('%').and_then(percentile_key)?;
            (key == milli).then_some(value.trim())
        });
        let Some(value) = parsed else {
            return Err(lines.bad(
                n,
                column,
                format!("expected wrk's `{}%  TIME` line of the Latency Distribution", crate::model::percentile_label(milli)),
            ));
        };
        let value_column = column + trimmed.find(value).unwrap_or(0) as u64;
        let (ms, step) = duration_ms(value).ok_or_else(|| lines.bad(n, value_column, format!("{value:?} is not a time with a unit")))?;
        reported.percentiles_ms.insert(milli, Printed::new(ms, step, lines.place(n, value_column)));
    }
    let (n, column, done) = lines
        .lines
        .iter()
        .find_map(|&(n, l)| {
            l.trim().split_once(" requests in ").map(|(count, rest)| (n, (l.len() - l.trim_start().len()) as u64 + 1, (count, rest)))
        })
        .ok_or_else(|| lines.bad(lines.lines.last().map_or(1, |l| l.0), 1, "no `N requests in T` line: the file is cut short"))?;
    let completed: u64 = done.0.parse().map_err(|_| lines.bad(n, column, format!("{:?} is not a count of requests", done.0)))?;
    let completed = Count::new(completed, lines.place(n, column));
    // "3.01s, 149.24MB read"
    let runtime = done.1.split(',').next().unwrap_or("");
    let runtime_column = column + (done.0.len() + " requests in ".len()) as u64;
    let (runtime_ms, runtime_step) =
        duration_ms(runtime).ok_or_else(|| lines.bad(n, runtime_column, format!("{runtime:?} is not a duration with a unit")))?;
    if !done.1.trim_end().ends_with(" read") {
        return Err(lines.bad(n, runtime_column, "expected `N requests in T, SIZE read`"));
    }
    reported.duration_s = Some(Printed::new(runtime_ms / 1000.0, runtime_step / 1000.0, lines.place(n, runtime_column)));
    let mut socket = SocketErrors::default();
    if let Some((n, column, text)) = lines.value_after("Socket errors:") {
        for part in text.split(',') {
            let mut words = part.split_whitespace();
            let (kind, count) = (words.next(), words.next().and_then(|w| w.parse::<u64>().ok()));
            let slot = match kind {
                Some("connect") => &mut socket.connect,
                Some("read") => &mut socket.read,
                Some("write") => &mut socket.write,
                Some("timeout") => &mut socket.timeout,
                _ => return Err(lines.bad(n, column, format!("{part:?}: expected `connect N, read N, write N, timeout N`"))),
            };
            *slot = count.ok_or_else(|| lines.bad(n, column, format!("{part:?}: expected `kind COUNT`")))?;
        }
    }
    let status_errors = match lines.value_after("Non-2xx or 3xx responses:") {
        Some(at) => lines.count(at)?,
        None => 0,
    };
    reported.errors = Some(Count::new(status_errors, completed.at.clone()));
    reported.ranked = Some(completed.value.saturating_sub(socket.timeout));
    reported.requests = Some(completed);
    reported.requests_per_s = Some(lines.printed(lines.require("Requests/sec:", "wrk prints it after the counts")?, 0)?);
    // The last line wrk prints: `Transfer/sec:     49.62MB` (a cut one has no unit).
    let (n, column, transfer) = lines.require("Transfer/sec:", "wrk prints it last: the file is cut short")?;
    let complete = transfer.strip_suffix('B').is_some_and(|t| {
        let number = t.trim_end_matches(['K', 'M', 'G', 'T', 'P']);
        number.split_once('.').is_some_and(|(_, f)| f.len() == 2) && number.parse::<f64>().is_ok()
    });
    if !complete {
        return Err(lines.bad(n, column, format!("{transfer:?} is not wrk's transfer rate (like 49.62MB): the file is cut short")));
    }
    let mut notes = vec![Message::plain(NoteKey::WrkBasis)];
    if socket.connect + socket.read + socket.write + socket.timeout > 0 {
        notes.push(Message::new(NoteKey::WrkSocketErrors, &[&socket.connect, &socket.read, &socket.write, &socket.timeout]));
    }
    Ok(Piece { reported: Some(reported), notes, ..Piece::default() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixture_gives_milliseconds_from_every_unit() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/import/wrk/wrk.txt")).unwrap();
        let r = summary("wrk.txt", &text).unwrap().reported.unwrap();
        assert_eq!(r.mean_ms.map(|m| m.value), Some(1.70));
        assert_eq!(r.max_ms.map(|m| (m.value, m.step)), Some((11.61, 0.01)));
        assert_eq!(r.percentiles_ms[&99_000].value, 6.53);
        assert_eq!((r.requests.unwrap().value, r.errors.unwrap().value), (7654, 0));
        assert_eq!(r.requests_per_s.map(|v| v.value), Some(2544.90));
        assert_eq!(r.duration_s.map(|d| d.value), Some(3.01));
    }

    #[test]
    fn socket_errors_are_not_requests_and_non_2xx_are_errors() {
        let text = "Running 10s test @ http://127.0.0.1:8080/\n  2 threads and 10 connections\n  Thread Stats   Avg      Stdev     Max   +/- Stdev\n    Latency   790.00us    2.39ms    1.20s   88.06%\n    Req/Sec    13.68k     4.91k   23.44k    60.00%\n  Latency Distribution\n     50%   79.00us\n     75%    1.23ms\n     90%    1.10s\n     99%    1.20s\n  82205 requests in 10.04s, 24.15MB read\n  Socket errors: connect 0, read 3, write 0, timeout 7\n  Non-2xx or 3xx responses: 5\nRequests/sec:   8187.75\nTransfer/sec:      2.41MB\n";
        let piece = summary("wrk.txt", text).unwrap();
        let r = piece.reported.unwrap();
        assert_eq!(r.mean_ms.map(|m| m.value), Some(0.79));
        assert_eq!(r.percentiles_ms[&50_000].value, 0.079);
        assert_eq!(r.percentiles_ms[&90_000].value, 1100.0);
        assert_eq!((r.requests.unwrap().value, r.errors.unwrap().value, r.ranked), (82205, 5, Some(82198)));
        assert!(piece.notes.iter().any(|n| n.key == NoteKey::WrkSocketErrors && n.value("read") == Some("3")));
    }

    #[test]
    fn a_unitless_latency_names_its_place() {
        let text = "Running 1s test @ http://x/\n  Thread Stats   Avg      Stdev     Max   +/- Stdev\n    Latency   790.00    2.39ms    1.20s   88.06%\n";
        let error = summary("wrk.txt", text).unwrap_err();
        assert_eq!(error.place, Some((3, 15)));
    }
}
