//! The one pass over requests: per run, the 2xx latencies and the counters (and, for a report,
//! what its charts need: each 2xx latency's send time and every request without a 2xx response);
//! and the check that no (run_id, seq) appears twice, done without keeping every seq.

use super::error::{DataError, Place, Problems};
use super::packed::TimesMs;
use super::requests::{scan, RequestRow, RequestSink, RowBatch, RowPlace, RunIndex};
use super::table::TableSource;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// What requests.csv says about one run.
#[derive(Debug, Clone, Default)]
pub struct RunRequests {
    /// Latencies of 2xx responses, in file order within each block (unsorted), once
    /// [`RunRequests::unpack`] has run.
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
    /// With [`Keep::Points`], once unpacked: the send lag `sent_ms - scheduled_ms` of each
    /// latency of `latencies_ms`, in the same order, for latency from the intended send; empty
    /// while every lag is 0 (a closed loop records its sends as scheduled), so closed-loop
    /// datasets pay nothing for it.
    pub lag_ms: Vec<f64>,
    /// Latest `sent_ms`, the x extent of the time-series chart.
    pub last_sent_ms: Option<f64>,
    /// With [`Keep::Points`], once unpacked: the `sent_ms` of each latency of `latencies_ms`, in
    /// the same order (the charts take them before the statistics reorder the latencies).
    pub sent_ms: Vec<f64>,
    /// With [`Keep::Points`]: every request without a 2xx response, in no particular order.
    pub error_rows: Vec<ErrorRow>,
    /// Earliest `sent_ms` and latest `sent_ms + latency_ms` of a response: the span over which
    /// requests per second are counted.
    pub first_sent_ms: Option<f64>,
    pub last_done_ms: Option<f64>,
    /// The 2xx responses' times as the pass kept them, one part per worker that read some (in
    /// the workers' order), until [`RunRequests::unpack`] moves them into `latencies_ms`,
    /// `sent_ms` and `lag_ms`. The parts are not merged first: that copied half of every run
    /// of a CSV file, which a worker reads block by block, and held both copies for a moment.
    pub(crate) loaded: Vec<Loaded>,
}

/// A run's 2xx responses as one worker read them, in step: their latencies, their send times (with
/// [`Keep::Points`]) and, once a send lag is not 0, their scheduled times (before it, each row's
/// scheduled time is its send time). For a report each is packed ([`TimesMs`]): the pass holds
/// every run at once, and 8 bytes a response in place of 24 (the latency in 4, the send and
/// scheduled times as 2-byte steps) is a third of what a report of 10^8 requests needs.
#[derive(Debug, Clone, Default)]
pub(crate) struct Loaded {
    latencies: TimesMs,
    sent: TimesMs,
    scheduled: TimesMs,
}

impl Loaded {
    fn new(packed: bool) -> Self {
        Loaded { latencies: TimesMs::new(packed), sent: TimesMs::ascending(packed), scheduled: TimesMs::ascending(packed) }
    }

    /// From here on the scheduled times are kept: the rows before had none but their send time.
    fn keep_scheduled(&mut self) {
        if self.scheduled.is_empty() {
            self.scheduled = self.sent.clone();
        }
    }
}

/// A request without a 2xx response, as its run's time-series chart marks it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ErrorRow {
    pub sent_ms: f64,
    /// `None` when no response arrived.
    pub latency_ms: Option<f64>,
    pub status: u16,
}

/// What the pass keeps of each request besides the counters and the 2xx latencies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// Only what the statistics need (`analyze check`): 8 bytes per 2xx response.
    Latencies,
    /// Also what the charts and the latency from the intended send need (`analyze report`):
    /// each 2xx response's send time and, in an open loop, its scheduled time, and every request
    /// without a 2xx response, so the report reads the file once. While they are whole
    /// microseconds, a 2xx response's latency takes 4 bytes and its send and scheduled times 2
    /// each, mostly ([`TimesMs`]).
    Points,
}

impl RunRequests {
    /// Requests that did not get a 2xx response.
    pub fn errors(&self) -> u64 {
        self.non_2xx + self.no_response
    }

    /// The run's latencies, send times and lags as `f64`, the bits read (the lag is `sent_ms -
    /// scheduled_ms`, computed as the pass computed it; 0 in a part whose lags all were). The
    /// statistics call it run by run and free the send times and lags after the run's charts,
    /// so only the runs being computed hold all three as `f64`.
    pub fn unpack(&mut self) {
        let parts = std::mem::take(&mut self.loaded);
        let total: usize = parts.iter().map(|part| part.latencies.len()).sum();
        if total == 0 {
            return;
        }
        debug_assert!(self.latencies_ms.is_empty() && self.sent_ms.is_empty() && self.lag_ms.is_empty());
        let with_lags = parts.iter().any(|part| !part.scheduled.is_empty());
        // Part by part, each freed once copied out.
        for part in parts {
            let start = self.sent_ms.len();
            part.latencies.unpack_into(&mut self.latencies_ms, total);
            if !part.sent.is_empty() {
                part.sent.unpack_into(&mut self.sent_ms, total);
            }
            if part.scheduled.is_empty() {
                if with_lags {
                    self.lag_ms.resize(self.sent_ms.len(), 0.0);
                }
            } else {
                part.scheduled.unpack_into(&mut self.lag_ms, total);
                for (lag, sent) in self.lag_ms[start..].iter_mut().zip(&self.sent_ms[start..]) {
                    *lag = sent - *lag;
                }
            }
        }
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
    /// This worker's part of the run's 2xx times.
    part: Loaded,
    spans: Vec<SeqSpan>,
    /// A seq that did not ascend within a block: the cheap proof fails for this run.
    unordered: bool,
    /// (status, count), moved into `counted.statuses` when merged.
    status_counts: Vec<(u16, u64)>,
}

/// A run with less room than this left is given room for the rest of its block
/// ([`Accumulator::expect_run_rows`]): a window of rows (the Parquet reader's 8K).
const RESERVE_BELOW: usize = 8 * 1024;

/// Pass-one sink of one worker.
pub struct Accumulator {
    runs: Vec<RunAccumulator>,
    points: bool,
}

impl Accumulator {
    fn new(runs: usize, keep: Keep) -> Self {
        let points = keep == Keep::Points;
        let run = || RunAccumulator { part: Loaded::new(points), ..RunAccumulator::default() };
        Accumulator { runs: (0..runs).map(|_| run()).collect(), points }
    }
}

impl RequestSink for Accumulator {
    /// Room for the rest of the block at once when the run's rows come together (a window of
    /// one run), where growing by doubling copies the values and faults their pages twice. Only
    /// a run that has outgrown its room gets more, so rows spread over many runs reserve nothing.
    fn expect_run_rows(&mut self, run: u32, rows: usize) {
        let loaded = &mut self.runs[run as usize].part;
        if loaded.latencies.spare() >= RESERVE_BELOW {
            return;
        }
        loaded.latencies.reserve(rows);
        if self.points {
            loaded.sent.reserve(rows);
            if !loaded.scheduled.is_empty() {
                loaded.scheduled.reserve(rows);
            }
        }
    }

    /// Column by column: the same counts as [`Accumulator::row`] on each row (tested), without
    /// the per-row bookkeeping when a batch has a single status.
    fn rows(&mut self, batch: &RowBatch, first: RowPlace) {
        let n = batch.len();
        let Some(&status) = batch.status.first() else { return };
        if batch.status.iter().any(|&s| s != status) {
            for i in 0..n {
                self.row(&batch.row(i), RowPlace { block: first.block, within: first.within + i as u64 });
            }
            return;
        }
        let status = status as u16;
        let run = &mut self.runs[batch.run as usize];
        let counted = &mut run.counted;
        counted.requests += n as u64;
        // Every row of a batch has a latency: a 2xx one is ranked, any other is a non-2xx error.
        if (200..300).contains(&status) {
            let loaded = &mut run.part;
            if self.points
                && (!loaded.scheduled.is_empty()
                    || batch.sent_ms.iter().zip(batch.scheduled_ms).any(|(sent, scheduled)| sent - scheduled != 0.0))
            {
                loaded.keep_scheduled();
                loaded.scheduled.extend_from_slice(batch.scheduled_ms);
            }
            loaded.latencies.extend_from_slice(batch.latency_ms);
            if self.points {
                loaded.sent.extend_from_slice(batch.sent_ms);
            }
        } else {
            counted.non_2xx += n as u64;
            if self.points {
                let rows = batch.sent_ms.iter().zip(batch.latency_ms);
                counted.error_rows.extend(rows.map(|(&sent_ms, &latency)| ErrorRow { sent_ms, latency_ms: Some(latency), status }));
            }
        }
        match run.status_counts.iter_mut().find(|(s, _)| *s == status) {
            Some((_, count)) => *count += n as u64,
            None => run.status_counts.push((status, n as u64)),
        }
        let lag = batch.sent_ms.iter().zip(batch.scheduled_ms).map(|(sent, scheduled)| sent - scheduled).fold(f64::NEG_INFINITY, f64::max);
        counted.max_lag_ms = Some(counted.max_lag_ms.map_or(lag, |m| m.max(lag)));
        let last_sent = batch.sent_ms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        counted.last_sent_ms = Some(counted.last_sent_ms.map_or(last_sent, |m| m.max(last_sent)));
        let first_sent = batch.sent_ms.iter().copied().fold(f64::INFINITY, f64::min);
        counted.first_sent_ms = Some(counted.first_sent_ms.map_or(first_sent, |m| m.min(first_sent)));
        let last_done = batch.sent_ms.iter().zip(batch.latency_ms).map(|(s, l)| s + l).fold(f64::NEG_INFINITY, f64::max);
        counted.last_done_ms = Some(counted.last_done_ms.map_or(last_done, |m| m.max(last_done)));
        if batch.seq.windows(2).any(|pair| pair[1] <= pair[0]) {
            run.unordered = true;
        }
        let (seq_first, seq_last) = (batch.seq[0], batch.seq[n - 1]);
        match run.spans.last_mut() {
            Some(span) if span.block == first.block => {
                if seq_first <= span.last {
                    run.unordered = true;
                }
                span.last = seq_last;
            }
            _ => run.spans.push(SeqSpan { block: first.block, first: seq_first, last: seq_last }),
        }
    }

    #[inline]
    fn row(&mut self, row: &RequestRow, place: RowPlace) {
        let run = &mut self.runs[row.run as usize];
        let counted = &mut run.counted;
        counted.requests += 1;
        match row.latency_ms {
            Some(latency) if (200..300).contains(&row.status) => {
                let loaded = &mut run.part;
                if self.points && (!loaded.scheduled.is_empty() || row.sent_ms - row.scheduled_ms != 0.0) {
                    loaded.keep_scheduled();
                    loaded.scheduled.push(row.scheduled_ms);
                }
                loaded.latencies.push(latency);
                if self.points {
                    loaded.sent.push(row.sent_ms);
                }
            }
            other => {
                if other.is_some() {
                    counted.non_2xx += 1;
                } else {
                    counted.no_response += 1;
                }
                if self.points {
                    counted.error_rows.push(ErrorRow { sent_ms: row.sent_ms, latency_ms: row.latency_ms, status: row.status });
                }
            }
        }
        // A run has few distinct statuses, almost always one: a short list beats a map per row.
        match run.status_counts.iter_mut().find(|(status, _)| *status == row.status) {
            Some((_, count)) => *count += 1,
            None => run.status_counts.push((row.status, 1)),
        }
        let lag = row.sent_ms - row.scheduled_ms;
        counted.max_lag_ms = Some(counted.max_lag_ms.map_or(lag, |m| m.max(lag)));
        counted.last_sent_ms = Some(counted.last_sent_ms.map_or(row.sent_ms, |m| m.max(row.sent_ms)));
        counted.first_sent_ms = Some(counted.first_sent_ms.map_or(row.sent_ms, |m| m.min(row.sent_ms)));
        if let Some(latency) = row.latency_ms {
            let done = row.sent_ms + latency;
            counted.last_done_ms = Some(counted.last_done_ms.map_or(done, |m| m.max(done)));
        }
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
pub fn read_requests(source: &TableSource, index: &RunIndex, runs: usize, keep: Keep, problems: &mut Problems) -> Vec<RunRequests> {
    let first = match scan(source, index, || Accumulator::new(runs, keep)) {
        Ok(first) => first,
        Err(error) => {
            problems.push(error);
            return Vec::new();
        }
    };
    let clean = first.problems.is_empty();
    problems.extend(first.problems);
    // Each run's parts in the workers' order, as before, but the runs merged side by side on the
    // cores: the merge copies every latency a second worker read.
    let mut parts: Vec<Vec<RunAccumulator>> = (0..runs).map(|_| Vec::with_capacity(first.sinks.len())).collect();
    for sink in first.sinks {
        for (run_parts, part) in parts.iter_mut().zip(sink.runs) {
            run_parts.push(part);
        }
    }
    let mut merged: Vec<RunAccumulator> = parts
        .into_par_iter()
        .map(|run_parts| {
            let mut target = RunAccumulator::default();
            for part in run_parts {
                merge(&mut target, part);
            }
            target
        })
        .collect();
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
                // Blocks are numbered in file order and, within a file, in line (row) order.
                let mut seen: Vec<(u32, i64, u32, u64)> = rescan
                    .sinks
                    .iter()
                    .flat_map(|s| s.seen.iter().map(|&(run, seq, place)| (run, seq, place.block, place.within)))
                    .collect();
                seen.sort_unstable();
                // CSV places are lines (with the seq field), Parquet places rows: the message says which.
                let mut first_of_group: Option<(u32, i64, RowPlace)> = None;
                for (run, seq, block, within) in seen {
                    let at = RowPlace { block, within };
                    match first_of_group {
                        Some((r, s, first)) if r == run && s == seq => {
                            let row = rescan.absolute(at);
                            let (place, earlier) = match rescan.seq_field {
                                Some(field) => (Place::Line { line: row, field: Some((field, "seq".to_string())) }, "line"),
                                None => (Place::Row { row, column: Some("seq".to_string()) }, "row"),
                            };
                            // In a folder of files the first may be in another file: then it is named.
                            let (file, first_file) = (rescan.file_of(at), rescan.file_of(first));
                            let elsewhere = if file == first_file { String::new() } else { format!(" of {first_file}") };
                            problems.push(DataError {
                                file: file.to_string(),
                                place,
                                message: format!(
                                    "{seq} appears again in this run (first on {earlier} {}{elsewhere})",
                                    rescan.absolute(first)
                                ),
                            });
                        }
                        _ => first_of_group = Some((run, seq, at)),
                    }
                }
            }
            Err(error) => problems.push(error),
        }
    }
    merged.into_iter().map(|acc| acc.counted).collect()
}

fn merge(target: &mut RunAccumulator, part: RunAccumulator) {
    let (into, from) = (&mut target.counted, part.counted);
    into.loaded.extend(from.loaded);
    if !part.part.latencies.is_empty() {
        into.loaded.push(part.part);
    }
    if into.error_rows.is_empty() {
        into.error_rows = from.error_rows;
    } else {
        into.error_rows.extend_from_slice(&from.error_rows);
    }
    into.requests += from.requests;
    into.non_2xx += from.non_2xx;
    into.no_response += from.no_response;
    for (status, count) in from.statuses.into_iter().chain(part.status_counts) {
        *into.statuses.entry(status).or_insert(0) += count;
    }
    into.max_lag_ms = max_option(into.max_lag_ms, from.max_lag_ms);
    into.last_sent_ms = max_option(into.last_sent_ms, from.last_sent_ms);
    into.first_sent_ms = match (into.first_sent_ms, from.first_sent_ms) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    into.last_done_ms = max_option(into.last_done_ms, from.last_done_ms);
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
        let mut runs = read_requests(&TableSource::Csv(path), &RunIndex::new(["a", "b"]), 2, Keep::Points, &mut problems);
        runs.iter_mut().for_each(RunRequests::unpack);
        (runs, problems.errors().iter().map(ToString::to_string).collect())
    }

    #[test]
    fn counts_errors_and_lag_per_run() {
        let (runs, problems) = read("a,0,0,1,5.5,200,12\na,1,125,131,9,503,0\na,2,250,250,,0,\nb,0,0,0,2,204,0\n");
        assert!(problems.is_empty());
        assert_eq!(runs[0].latencies_ms, vec![5.5]);
        assert_eq!(runs[0].sent_ms, vec![1.0], "each latency's send time");
        assert_eq!(
            runs[0].error_rows,
            vec![ErrorRow { sent_ms: 131.0, latency_ms: Some(9.0), status: 503 }, ErrorRow { sent_ms: 250.0, latency_ms: None, status: 0 }]
        );
        assert_eq!((runs[0].requests, runs[0].non_2xx, runs[0].no_response), (3, 1, 1));
        assert_eq!(runs[0].max_lag_ms, Some(6.0));
        assert_eq!(runs[1].latencies_ms, vec![2.0]);
    }

    #[test]
    fn lags_are_kept_beside_the_latencies_only_once_one_is_not_zero() {
        let (runs, _) = read("a,0,0,0,5,200,0\na,1,10,10,6,200,0\na,2,20,23,7,200,0\na,3,30,30,8,503,0\nb,0,0,0,2,200,0\n");
        assert_eq!(runs[0].lag_ms, vec![0.0, 0.0, 3.0], "zeros filled in before the first lag");
        assert!(runs[1].lag_ms.is_empty(), "a closed loop keeps no lags");
    }

    #[test]
    fn finds_a_duplicate_seq_even_out_of_order() {
        let (_, problems) = read("a,0,0,0,1,200,0\na,2,0,0,1,200,0\nb,0,0,0,1,200,0\na,1,0,0,1,200,0\na,2,0,0,1,200,0\n");
        assert_eq!(problems, vec!["requests.csv:6:2: seq: 2 appears again in this run (first on line 3)"]);
    }

    #[test]
    fn batches_count_exactly_what_rows_count() {
        // Two runs in three blocks, some 503s with latencies, a seq that goes backwards, lags
        // of both signs: fed as batches and row by row, the counts must agree to the bit.
        let mut rows = Vec::new();
        let mut state = 7u64;
        let mut next = move || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            state >> 33
        };
        for (block, run, seqs) in [(0u32, 0u32, 0..300i64), (0, 1, 0..50), (1, 0, 300..600), (2, 1, 40..90)] {
            for seq in seqs {
                let status = match next() % 50 {
                    0 => 503,
                    1 => 500,
                    _ => 200,
                };
                let scheduled = seq as f64 * 0.25;
                let sent = scheduled + (next() % 2000) as f64 / 1000.0 - 0.5;
                rows.push((
                    block,
                    RequestRow {
                        run,
                        seq,
                        scheduled_ms: scheduled,
                        sent_ms: sent,
                        latency_ms: Some((next() % 10_000) as f64 / 7.0),
                        status,
                    },
                ));
            }
        }
        // A seq that steps back inside block 1, so the cheap uniqueness proof fails for run 0.
        let (a, b) = (rows[400].1.seq, rows[401].1.seq);
        (rows[400].1.seq, rows[401].1.seq) = (b, a);
        let mut by_row = Accumulator::new(2, Keep::Points);
        let mut within = 0;
        for (i, &(block, row)) in rows.iter().enumerate() {
            within = if i > 0 && rows[i - 1].0 == block { within + 1 } else { 1 };
            by_row.row(&row, RowPlace { block, within });
        }
        // Batches: runs of the same block, run and status (as the reader cuts them), in pieces of
        // at most 37 rows.
        let mut by_batch = Accumulator::new(2, Keep::Points);
        let mut start = 0;
        while start < rows.len() {
            let (block, first) = rows[start];
            let mut end = start;
            while end < rows.len() && end - start < 37 && rows[end].0 == block && rows[end].1.run == first.run {
                end += 1;
            }
            let part = &rows[start..end];
            let column = |f: fn(&RequestRow) -> f64| part.iter().map(|(_, r)| f(r)).collect::<Vec<f64>>();
            let (scheduled, sent, latency) = (column(|r| r.scheduled_ms), column(|r| r.sent_ms), column(|r| r.latency_ms.unwrap()));
            let seq: Vec<i64> = part.iter().map(|(_, r)| r.seq).collect();
            let status: Vec<i64> = part.iter().map(|(_, r)| i64::from(r.status)).collect();
            let within = rows[..start].iter().rev().take_while(|(b, _)| *b == block).count() as u64 + 1;
            let batch =
                RowBatch { run: first.run, seq: &seq, scheduled_ms: &scheduled, sent_ms: &sent, latency_ms: &latency, status: &status };
            by_batch.rows(&batch, RowPlace { block, within });
            start = end;
        }
        let bits = |values: &[f64]| values.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        for (run, (a, b)) in by_row.runs.iter().zip(&by_batch.runs).enumerate() {
            let (mut x, mut y) = (a.counted.clone(), b.counted.clone());
            x.loaded.push(a.part.clone());
            y.loaded.push(b.part.clone());
            x.unpack();
            y.unpack();
            // Unpacked, the values read: latencies and send times as in the rows, lags as
            // `sent - scheduled` (some send times are whole microseconds, some are not).
            let ok: Vec<&RequestRow> =
                rows.iter().map(|(_, r)| r).filter(|r| r.run == run as u32 && (200..300).contains(&r.status)).collect();
            assert_eq!(bits(&x.latencies_ms), bits(&ok.iter().map(|r| r.latency_ms.unwrap()).collect::<Vec<_>>()));
            assert_eq!(bits(&x.sent_ms), bits(&ok.iter().map(|r| r.sent_ms).collect::<Vec<_>>()));
            assert_eq!(bits(&x.lag_ms), bits(&ok.iter().map(|r| r.sent_ms - r.scheduled_ms).collect::<Vec<_>>()));
            assert!(!x.latencies_ms.is_empty());
            assert_eq!(
                x.latencies_ms.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                y.latencies_ms.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
            );
            assert_eq!(
                x.sent_ms.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                y.sent_ms.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
            );
            assert_eq!(x.sent_ms.len(), x.latencies_ms.len());
            assert_eq!(x.lag_ms.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), y.lag_ms.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
            assert_eq!(x.lag_ms.len(), x.latencies_ms.len(), "lags of both signs: kept in step");
            assert_eq!(x.error_rows, y.error_rows);
            assert_eq!(x.error_rows.len() as u64, x.errors());
            assert_eq!((x.requests, x.non_2xx, x.no_response), (y.requests, y.non_2xx, y.no_response));
            assert_eq!(x.max_lag_ms.map(f64::to_bits), y.max_lag_ms.map(f64::to_bits));
            assert_eq!(x.last_sent_ms.map(f64::to_bits), y.last_sent_ms.map(f64::to_bits));
            assert_eq!(x.first_sent_ms.map(f64::to_bits), y.first_sent_ms.map(f64::to_bits));
            assert_eq!(x.last_done_ms.map(f64::to_bits), y.last_done_ms.map(f64::to_bits));
            let mut statuses = (a.status_counts.clone(), b.status_counts.clone());
            statuses.0.sort_unstable();
            statuses.1.sort_unstable();
            assert_eq!(statuses.0, statuses.1);
            assert_eq!(a.unordered, b.unordered);
            let spans = |r: &RunAccumulator| r.spans.iter().map(|s| (s.block, s.first, s.last)).collect::<Vec<_>>();
            assert_eq!(spans(a), spans(b));
        }
        assert!(by_row.runs[0].unordered && !by_row.runs[1].unordered, "the swapped seqs are seen");
        assert!(by_row.runs[0].counted.non_2xx > 0, "some 5xx rows were counted");
    }

    #[test]
    fn the_same_seq_in_two_runs_is_fine() {
        let (_, problems) = read("a,0,0,0,1,200,0\nb,0,0,0,1,200,0\n");
        assert!(problems.is_empty());
    }
}
