//! The first pass over requests: per run, the 2xx latencies and the counters; and the check that
//! no (run_id, seq) appears twice, done without keeping every seq.

use super::error::{DataError, Place, Problems};
use super::requests::{RequestRow, RequestSink, RowPlace, RunIndex, Scan};
use super::table::TableSource;
use std::collections::BTreeMap;

/// What requests.csv says about one run.
#[derive(Debug, Clone, Default)]
pub struct RunRequests {
    /// Latencies of 2xx responses, in file order within each block (unsorted).
    pub latencies_ms: Vec<f64>,
    /// Every row of this run.
    pub requests: u64,
    /// Responses whose status is not 2xx.
    pub non_2xx: u64,
    /// Requests with no response (status 0).
    pub no_response: u64,
    /// Count per HTTP status (0 = no response).
    pub statuses: BTreeMap<u16, u64>,
    /// Largest `sent_ms - scheduled_ms`; `None` without rows.
    pub max_lag_ms: Option<f64>,
    /// Latest `sent_ms`, the x extent of the time-series chart.
    pub last_sent_ms: Option<f64>,
}

impl RunRequests {
    /// Requests that did not get a 2xx response.
    pub fn errors(&self) -> u64 {
        self.non_2xx + self.no_response
    }
}

/// One run's rows within one block: enough to prove seqs unique when they ascend.
#[derive(Debug, Clone, Copy)]
struct SeqSpan {
    block: u32,
    first: i64,
    last: i64,
}

#[derive(Default)]
struct RunAccumulator {
    counted: RunRequests,
    spans: Vec<SeqSpan>,
    /// A seq that did not ascend within a block: the cheap proof fails for this run.
    unordered: bool,
    /// (status, count), moved into `counted.statuses` when merged.
    status_counts: Vec<(u16, u64)>,
}

/// Pass-one sink of one worker.
pub struct Accumulator {
    runs: Vec<RunAccumulator>,
}

impl Accumulator {
    fn new(runs: usize) -> Self {
        Accumulator { runs: (0..runs).map(|_| RunAccumulator::default()).collect() }
    }
}

impl RequestSink for Accumulator {
    #[inline]
    fn row(&mut self, row: &RequestRow, place: RowPlace) {
        let run = &mut self.runs[row.run as usize];
        let counted = &mut run.counted;
        counted.requests += 1;
        match row.latency_ms {
            None => counted.no_response += 1,
            Some(latency) if (200..300).contains(&row.status) => counted.latencies_ms.push(latency),
            Some(_) => counted.non_2xx += 1,
        }
        // A run has few distinct statuses, almost always one: a short list beats a map per row.
        match run.status_counts.iter_mut().find(|(status, _)| *status == row.status) {
            Some((_, count)) => *count += 1,
            None => run.status_counts.push((row.status, 1)),
        }
        let lag = row.sent_ms - row.scheduled_ms;
        counted.max_lag_ms = Some(counted.max_lag_ms.map_or(lag, |m| m.max(lag)));
        counted.last_sent_ms = Some(counted.last_sent_ms.map_or(row.sent_ms, |m| m.max(row.sent_ms)));
        match run.spans.last_mut() {
            Some(span) if span.block == place.block => {
                if row.seq <= span.last {
                    run.unordered = true;
                }
                span.last = row.seq;
            }
            _ => run.spans.push(SeqSpan { block: place.block, first: row.seq, last: row.seq }),
        }
    }
}

/// Collects (seq, place) of the runs whose seqs could not be proven unique cheaply.
struct SeqCollector {
    wanted: Vec<bool>,
    seen: Vec<(u32, i64, RowPlace)>,
}

impl RequestSink for SeqCollector {
    fn row(&mut self, row: &RequestRow, place: RowPlace) {
        if self.wanted[row.run as usize] {
            self.seen.push((row.run, row.seq, place));
        }
    }
}

/// Pass one over requests: counts per run and the uniqueness of (run_id, seq).
pub fn read_requests(source: &TableSource, index: &RunIndex, runs: usize, problems: &mut Problems) -> Vec<RunRequests> {
    let file = source.file_name();
    let first = match scan(source, index, || Accumulator::new(runs)) {
        Ok(first) => first,
        Err(error) => {
            problems.push(error);
            return Vec::new();
        }
    };
    let clean = first.problems.is_empty();
    problems.extend(first.problems);
    let mut merged: Vec<RunAccumulator> = (0..runs).map(|_| RunAccumulator::default()).collect();
    for sink in first.sinks {
        for (target, part) in merged.iter_mut().zip(sink.runs) {
            merge(target, part);
        }
    }
    let mut suspects = vec![false; runs];
    for (run, acc) in merged.iter_mut().enumerate() {
        acc.spans.sort_by_key(|s| s.block);
        let ascending = acc.spans.windows(2).all(|w| w[1].first > w[0].last);
        suspects[run] = acc.unordered || !ascending;
    }
    // Only a clean file is rescanned: with bad rows, the first pass's problems come first.
    if clean && suspects.iter().any(|&s| s) {
        match scan(source, index, || SeqCollector { wanted: suspects.clone(), seen: Vec::new() }) {
            Ok(rescan) => {
                let mut seen: Vec<(u32, i64, u64)> = Vec::new();
                let places: Vec<_> = rescan.sinks.iter().flat_map(|s| s.seen.iter().copied()).collect();
                for (run, seq, place) in places {
                    seen.push((run, seq, rescan.absolute(place)));
                }
                seen.sort_unstable();
                // CSV places are lines, Parquet places rows: the message says which.
                let parquet = matches!(source, TableSource::Parquet(_));
                let mut first_of_group: Option<(u32, i64, u64)> = None;
                for (run, seq, at) in seen {
                    match first_of_group {
                        Some((r, s, first)) if r == run && s == seq => problems.push(if parquet {
                            DataError {
                                file: file.clone(),
                                place: Place::Row { row: at, column: Some("seq".to_string()) },
                                message: format!("seq {seq} of this run appears again (first on row {first})"),
                            }
                        } else {
                            DataError::line(&file, at, format!("seq {seq} of this run appears again (first on line {first})"))
                        }),
                        _ => first_of_group = Some((run, seq, at)),
                    }
                }
            }
            Err(error) => problems.push(error),
        }
    }
    merged.into_iter().map(|acc| acc.counted).collect()
}

fn scan<S: RequestSink>(source: &TableSource, index: &RunIndex, make: impl Fn() -> S + Sync) -> Result<Scan<S>, DataError> {
    match source {
        TableSource::Csv(path) => super::requests::scan_csv(path, index, make),
        TableSource::Parquet(path) => super::parquet::scan_requests(path, index, make),
    }
}

fn merge(target: &mut RunAccumulator, part: RunAccumulator) {
    let (into, from) = (&mut target.counted, part.counted);
    if into.latencies_ms.is_empty() {
        into.latencies_ms = from.latencies_ms;
    } else {
        into.latencies_ms.extend_from_slice(&from.latencies_ms);
    }
    into.requests += from.requests;
    into.non_2xx += from.non_2xx;
    into.no_response += from.no_response;
    for (status, count) in from.statuses.into_iter().chain(part.status_counts) {
        *into.statuses.entry(status).or_insert(0) += count;
    }
    into.max_lag_ms = max_option(into.max_lag_ms, from.max_lag_ms);
    into.last_sent_ms = max_option(into.last_sent_ms, from.last_sent_ms);
    target.spans.extend(part.spans);
    target.unordered |= part.unordered;
}

fn max_option(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, None) => a,
        (None, b) => b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(body: &str) -> (Vec<RunRequests>, Vec<String>) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("requests.csv");
        std::fs::write(&path, format!("run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\n{body}")).unwrap();
        let mut problems = Problems::default();
        let runs = read_requests(&TableSource::Csv(path), &RunIndex::new(["a", "b"]), 2, &mut problems);
        (runs, problems.errors().iter().map(ToString::to_string).collect())
    }

    #[test]
    fn counts_errors_and_lag_per_run() {
        let (runs, problems) = read("a,0,0,1,5.5,200,12\na,1,125,131,9,503,0\na,2,250,250,,0,\nb,0,0,0,2,204,0\n");
        assert!(problems.is_empty());
        assert_eq!(runs[0].latencies_ms, vec![5.5]);
        assert_eq!((runs[0].requests, runs[0].non_2xx, runs[0].no_response), (3, 1, 1));
        assert_eq!(runs[0].max_lag_ms, Some(6.0));
        assert_eq!(runs[1].latencies_ms, vec![2.0]);
    }

    #[test]
    fn finds_a_duplicate_seq_even_out_of_order() {
        let (_, problems) = read("a,0,0,0,1,200,0\na,2,0,0,1,200,0\nb,0,0,0,1,200,0\na,1,0,0,1,200,0\na,2,0,0,1,200,0\n");
        assert_eq!(problems, vec!["requests.csv:6: seq 2 of this run appears again (first on line 3)"]);
    }

    #[test]
    fn the_same_seq_in_two_runs_is_fine() {
        let (_, problems) = read("a,0,0,0,1,200,0\nb,0,0,0,1,200,0\n");
        assert!(problems.is_empty());
    }
}
