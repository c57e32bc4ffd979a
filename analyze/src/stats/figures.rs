//! The points the charts draw, reduced so a page stays small at 10^8 requests while keeping the
//! tail. Latency over time is [`super::bands`]'s. An ECDF of at most [`KEEP_ALL`] values is drawn
//! whole; a larger one at [`ECDF_STEPS`] evenly spaced ranks, the tail from p99 up (at most
//! [`TAIL_CAP`] ranks) and the headline rank. Requests without a 2xx response are kept apart:
//! every one up to [`ERRORS_KEEP_ALL`], else per error column the fastest and the slowest error
//! response and the first request with no response, at most [`ERRORS_KEEP_ALL`] marks. Charts
//! say how many points they draw of how many.
//!
//! Nothing here reads a file: the pass over requests kept each 2xx latency's send time beside it
//! and every request without a 2xx response ([`crate::dataset::Keep::Points`]), so [`run_series`]
//! reduces them from memory, before the statistics reorder the latencies.

use super::ranks::values_at_ranks;
use crate::dataset::precomputed::Level1;
use crate::dataset::{Dataset, ErrorRow, RunRequests};
use crate::model::time_columns::{column_of, COLUMNS};
use crate::model::Percentile;
use crate::report::{ErrorPoint, ErrorSeries, Figures, PointSeries, RunResult, TimeColumn, TimeSeries};
use rayon::prelude::*;
use std::cmp::Ordering;

/// ECDFs of at most this many values are drawn whole.
pub const KEEP_ALL: u64 = 4000;
/// At most this many tail ranks are kept per ECDF.
pub const TAIL_CAP: u64 = 2000;
/// Evenly spaced ranks of a reduced ECDF.
pub const ECDF_STEPS: u64 = 1000;

/// Runs with at most this many errors have every one marked; a run with more keeps at most as
/// many marks (three per column of send time). Each mark has its own title, so a few hundred at
/// most.
pub const ERRORS_KEEP_ALL: u64 = 300;
/// Columns of a reduced run's error marks: the columns of send time its 2xx responses are drawn
/// in ([`crate::model::time_columns`]), by the same rule.
pub const ERROR_COLUMNS: usize = COLUMNS;

/// What one column of a reduced run keeps of its errors.
#[derive(Debug, Clone, Copy, Default)]
struct ErrorColumn {
    fastest: Option<ErrorPoint>,
    slowest: Option<ErrorPoint>,
    first_unanswered: Option<ErrorPoint>,
}

impl ErrorColumn {
    /// Keeps `point` if it is the fastest or slowest error response of the column, or its first
    /// request with no response. Ties go to the earlier send time, then the lower status, so what
    /// is kept does not depend on which worker saw which row first.
    fn keep(&mut self, point: ErrorPoint) {
        let earlier = |a: &ErrorPoint, b: &ErrorPoint| a.t_s.total_cmp(&b.t_s).then(a.status.cmp(&b.status)).is_lt();
        let Some(latency) = point.latency_ms else {
            if self.first_unanswered.as_ref().is_none_or(|kept| earlier(&point, kept)) {
                self.first_unanswered = Some(point);
            }
            return;
        };
        let beats = |kept: &ErrorPoint, wanted: Ordering| {
            let order = latency.total_cmp(&kept.latency_ms.unwrap_or(latency));
            order == wanted || (order.is_eq() && earlier(&point, kept))
        };
        if self.fastest.as_ref().is_none_or(|kept| beats(kept, Ordering::Less)) {
            self.fastest = Some(point);
        }
        if self.slowest.as_ref().is_none_or(|kept| beats(kept, Ordering::Greater)) {
            self.slowest = Some(point);
        }
    }

    fn points(self) -> impl Iterator<Item = ErrorPoint> {
        // The fastest and the slowest are one point when the column has one error response.
        let slowest = self.slowest.filter(|s| Some(*s) != self.fastest);
        [self.fastest, slowest, self.first_unanswered].into_iter().flatten()
    }
}

/// The requests without a 2xx response of one run: all of them, or per error column the fastest
/// and slowest error response and the first request with no response.
enum RunErrors {
    All(Vec<ErrorPoint>),
    Reduced { last_sent_s: f64, columns: Vec<ErrorColumn> },
}

impl RunErrors {
    fn new(errors: u64, last_sent_s: f64) -> Self {
        if errors <= ERRORS_KEEP_ALL {
            RunErrors::All(Vec::new())
        } else {
            RunErrors::Reduced { last_sent_s, columns: vec![ErrorColumn::default(); ERROR_COLUMNS] }
        }
    }

    #[inline]
    fn push(&mut self, point: ErrorPoint) {
        match self {
            RunErrors::All(points) => points.push(point),
            RunErrors::Reduced { last_sent_s, columns } => columns[column_of(point.t_s, *last_sent_s)].keep(point),
        }
    }

    fn into_points(self) -> Vec<ErrorPoint> {
        let mut points = match self {
            RunErrors::All(points) => points,
            RunErrors::Reduced { columns, .. } => columns.into_iter().flat_map(ErrorColumn::points).collect(),
        };
        // Workers read blocks in any order, so rows arrive in any order: sorting makes the
        // output deterministic.
        points.sort_by(error_order);
        points
    }
}

/// Drawing order: send time, then latency (no response last), then status.
fn error_order(a: &ErrorPoint, b: &ErrorPoint) -> Ordering {
    let latency = |p: &ErrorPoint| (p.latency_ms.is_none(), p.latency_ms.unwrap_or(0.0));
    let (a_latency, b_latency) = (latency(a), latency(b));
    a.t_s.total_cmp(&b.t_s).then(a_latency.0.cmp(&b_latency.0)).then(a_latency.1.total_cmp(&b_latency.1)).then(a.status.cmp(&b.status))
}

/// One run's time series and error marks, from the send times of its 2xx latencies (taken out
/// of `counted`, in step with `latencies_ms`) and its rows without one.
pub fn run_series(counted: &RunRequests, sent_ms: &[f64], error_rows: Vec<ErrorRow>) -> (TimeSeries, ErrorSeries) {
    debug_assert_eq!(sent_ms.len(), counted.latencies_ms.len());
    let last_sent_s = counted.last_sent_ms.unwrap_or(0.0) / 1000.0;
    let series = super::bands::time_series(sent_ms, &counted.latencies_ms, last_sent_s);
    let errors = counted.errors();
    let mut marks = RunErrors::new(errors, last_sent_s);
    for row in error_rows {
        marks.push(ErrorPoint { t_s: row.sent_ms / 1000.0, latency_ms: row.latency_ms, status: row.status });
    }
    (series, ErrorSeries { points: marks.into_points(), total: errors })
}

/// Every chart input but the time series and error marks ([`run_series`], [`level1_series`]).
pub fn compute(dataset: &mut Dataset, runs: &[RunResult]) -> Figures {
    let ecdf = match &dataset.level1 {
        Some(level1) => level1_ecdf(level1),
        None => ecdf_all(dataset, runs),
    };
    let side = super::by_run::SideTables::of(dataset);
    let large_responses = (0..dataset.runs.len())
        .map(|run| {
            let mut points: Vec<(f64, Option<f64>)> =
                side.large.get(run).iter().filter_map(|r| r.write_s.map(|w| (w, r.client_complete_s))).collect();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            points
        })
        .collect();
    let tempfiles = (0..dataset.runs.len())
        .map(|run| {
            let mut points: Vec<(f64, f64)> = side.tempfiles.get(run).iter().map(|s| (s.t_ms / 1000.0, s.logical_bytes as f64)).collect();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            points
        })
        .collect();
    let resources = (0..dataset.runs.len()).map(|run| super::resources::series(side.resources.get(run))).collect();
    Figures { ecdf, large_responses, tempfiles, resources, ..Figures::default() }
}

/// The time series and error marks of a dataset whose level 1 was computed elsewhere: the points
/// and columns its tables hold, reduced as [`run_series`] reduces rows, put in its drawing order.
pub fn level1_series(level1: &Level1, counted: &[RunRequests]) -> (Vec<TimeSeries>, Vec<ErrorSeries>) {
    level1
        .runs
        .iter()
        .zip(counted)
        .map(|(run, counted)| {
            let mut points = run.points.clone();
            points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
            points.dedup();
            let last_sent_s = counted.last_sent_ms.unwrap_or(0.0) / 1000.0;
            let mut columns: Vec<TimeColumn> = run
                .columns
                .iter()
                .map(|c| {
                    let (from_s, to_s) = super::bands::column_span(c.column, last_sent_s);
                    let (requests, p50_ms, p95_ms, max_ms, slowest_s, send_times) =
                        (c.requests, c.p50_ms, c.p95_ms, c.max_ms, c.slowest_s, c.send_times);
                    TimeColumn { from_s, to_s, requests, p50_ms, p95_ms, max_ms, slowest_s, send_times }
                })
                .collect();
            columns.sort_by(|a, b| a.from_s.total_cmp(&b.from_s));
            let mut marks: Vec<ErrorPoint> =
                run.errors.iter().map(|&(t_s, latency_ms, status)| ErrorPoint { t_s, latency_ms, status }).collect();
            marks.sort_by(error_order);
            (TimeSeries { points, columns, total: run.ok_responses }, ErrorSeries { points: marks, total: counted.errors() })
        })
        .unzip()
}

/// The ECDF points of a dataset whose level 1 was computed elsewhere: (value, rank / n) at the
/// ranks [`ecdf`] draws.
fn level1_ecdf(level1: &Level1) -> Vec<PointSeries> {
    let point = |n: u64| move |&(rank, value): &(u64, f64)| (value, rank as f64 / n as f64);
    level1
        .runs
        .iter()
        .map(|run| PointSeries { points: run.ecdf.iter().map(point(run.ok_responses)).collect(), total: run.ok_responses })
        .collect()
}

/// Each run's latencies as (value, rank / n) in sorted order, reduced past [`KEEP_ALL`] to evenly
/// spaced ranks plus the tail above p99 and the headline rank.
fn ecdf_all(dataset: &Dataset, runs: &[RunResult]) -> Vec<PointSeries> {
    dataset.requests.par_iter().zip(runs).map(|(counted, run)| ecdf(&counted.latencies_ms, run.headline_rank)).collect()
}

/// The ECDF of values in any order: every point up to [`KEEP_ALL`], else the points at
/// [`ecdf_ranks`], the values a sort would put there ([`values_at_ranks`]; nothing is reordered).
pub fn ecdf(values: &[f64], marked_rank: Option<u64>) -> PointSeries {
    let n = values.len() as u64;
    if n == 0 {
        return PointSeries::default();
    }
    let ranks = ecdf_ranks(n, marked_rank);
    let at = values_at_ranks(values, &ranks);
    PointSeries { points: ranks.into_iter().zip(at).map(|(rank, value)| (value, rank as f64 / n as f64)).collect(), total: n }
}

/// The 1-based ranks an ECDF of `n` values draws, ascending: all of them up to [`KEEP_ALL`];
/// else [`ECDF_STEPS`] evenly spaced ranks, the tail above p99 (at most [`TAIL_CAP`]), the first
/// and the marked rank.
fn ecdf_ranks(n: u64, marked_rank: Option<u64>) -> Vec<u64> {
    if n <= KEEP_ALL {
        return (1..=n).collect();
    }
    let mut ranks: Vec<u64> = (1..=ECDF_STEPS).map(|k| (k * n).div_ceil(ECDF_STEPS)).collect();
    ranks.extend(tail_from(n)..=n);
    ranks.push(1);
    ranks.extend(marked_rank.filter(|&r| (1..=n).contains(&r)));
    ranks.sort_unstable();
    ranks.dedup();
    ranks
}

fn tail_from(n: u64) -> u64 {
    Percentile::P99.rank(n).max(n.saturating_sub(TAIL_CAP) + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(t_s: f64, latency_ms: Option<f64>, status: u16) -> ErrorPoint {
        ErrorPoint { t_s, latency_ms, status }
    }

    #[test]
    fn a_few_errors_are_all_kept_in_send_order() {
        let mut errors = RunErrors::new(3, 10.0);
        errors.push(error(2.0, None, 0));
        errors.push(error(1.0, Some(30.0), 503));
        errors.push(error(1.0, Some(5.0), 500));
        assert_eq!(errors.into_points(), vec![error(1.0, Some(5.0), 500), error(1.0, Some(30.0), 503), error(2.0, None, 0)]);
    }

    #[test]
    fn many_errors_keep_per_column_the_extremes_and_the_first_unanswered_whatever_the_row_order() {
        // 10,000 errors over 100 s: several of each kind in every error column.
        let all: Vec<ErrorPoint> = (0..10_000u32)
            .map(|i| {
                let t = f64::from(i) / 100.0;
                if i % 5 == 0 {
                    error(t, None, 0)
                } else {
                    error(t, Some(f64::from((i * 7919) % 1000)), 503)
                }
            })
            .collect();
        // Rows in file order, or dealt out in `split` interleaved parts read one after another
        // (as workers' blocks arrive).
        let reduce = |split: usize| {
            let mut errors = RunErrors::new(all.len() as u64, 99.99);
            for part in (0..split).rev() {
                for (_, &point) in all.iter().enumerate().filter(|(i, _)| (i * 31) % split == part) {
                    errors.push(point);
                }
            }
            errors.into_points()
        };
        let points = reduce(1);
        assert_eq!(points, reduce(3), "the same points whatever order the rows arrive in");
        assert!(points.len() <= 3 * ERROR_COLUMNS, "{}", points.len());
        // The fastest and slowest error responses of all are kept, and so is the first unanswered request.
        let latencies = || all.iter().filter_map(|p| p.latency_ms);
        let (fastest, slowest) = (latencies().fold(f64::INFINITY, f64::min), latencies().fold(0.0, f64::max));
        assert!(points.iter().any(|p| p.latency_ms == Some(fastest)) && points.iter().any(|p| p.latency_ms == Some(slowest)));
        assert_eq!(points.iter().find(|p| p.latency_ms.is_none()), Some(&error(0.0, None, 0)));
        // Every column keeps exactly one unanswered request, the column's first.
        let columns_with_none: std::collections::BTreeSet<usize> =
            all.iter().filter(|p| p.latency_ms.is_none()).map(|p| column_of(p.t_s, 99.99)).collect();
        assert_eq!(points.iter().filter(|p| p.latency_ms.is_none()).count(), columns_with_none.len());
    }

    #[test]
    fn a_column_with_one_error_response_marks_it_once() {
        let mut column = ErrorColumn::default();
        column.keep(error(1.0, Some(5.0), 503));
        assert_eq!(column.points().count(), 1);
        column.keep(error(1.1, Some(5.0), 503));
        assert_eq!(column.points().collect::<Vec<_>>(), vec![error(1.0, Some(5.0), 503)], "a tie goes to the earlier");
    }

    #[test]
    fn the_ecdf_of_values_in_any_order_is_that_of_a_full_sort() {
        let mut state = 99u64;
        let mut next = move || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            state >> 11
        };
        for n in [10usize, 4000, 4001, 5000, 123_457] {
            // Log-normal-ish latencies with duplicates, zeros of both signs and a heavy tail.
            let mut values = Vec::with_capacity(n);
            for _ in 0..n {
                let value = match next() % 100 {
                    0 => 0.0,
                    1 => -0.0,
                    2 => 5.0,
                    k => ((next() % 1000) as f64 / 100.0).exp() * (1.0 + (k % 7) as f64),
                };
                values.push(if next() % 997 == 0 { value * 1e6 } else { value });
            }
            for marked in [None, Some((n as u64 * 95).div_ceil(100)), Some(2)] {
                // The plain reference: sort, then read the drawn ranks.
                let mut sorted = values.clone();
                sorted.sort_unstable_by(f64::total_cmp);
                let expected: Vec<(u64, u64)> = ecdf_ranks(n as u64, marked)
                    .into_iter()
                    .map(|rank| (sorted[(rank - 1) as usize].to_bits(), (rank as f64 / n as f64).to_bits()))
                    .collect();
                let got = ecdf(&values, marked);
                let bits = |s: &PointSeries| s.points.iter().map(|p| (p.0.to_bits(), p.1.to_bits())).collect::<Vec<_>>();
                assert_eq!(bits(&got), expected, "n = {n}, marked {marked:?}");
            }
        }
    }

    /// A run's latencies of one kind with the send times of a closed loop read back in any
    /// order: `kind` 0 is all equal, 1 two-valued, 2 whole milliseconds with a tail; every
    /// `coarse`-th run sends on whole seconds as ab reports them, so send times tie too.
    fn tied_run(kind: u8, n: usize, seed: u64) -> (Vec<f64>, Vec<f64>, f64) {
        let mut state = seed | 1;
        let mut next = move || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            state >> 33
        };
        let coarse = seed % 3 == 0;
        let mut rows: Vec<(f64, f64)> = (0..n)
            .map(|i| {
                let latency = match kind {
                    0 => 7.0,
                    1 => [3.0, 250.0][(next() % 2) as usize],
                    _ => match next() % 100 {
                        0 => 1000.0 + (next() % 3) as f64,
                        k if k < 5 => 0.0,
                        _ => (next() % 12) as f64,
                    },
                };
                let sent = if coarse { ((i / 1000) * 1000) as f64 } else { i as f64 * 0.25 };
                (sent, latency)
            })
            .collect();
        // Workers hand rows over in blocks in any order: deal them out shuffled.
        for i in (1..rows.len()).rev() {
            rows.swap(i, (next() % (i as u64 + 1)) as usize);
        }
        let last_sent_s = rows.iter().map(|r| r.0).fold(0.0, f64::max) / 1000.0;
        let (sent, latencies) = rows.into_iter().unzip();
        (sent, latencies, last_sent_s)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(40))]

        /// Ties everywhere: the ECDF of the rows in any order is that of the sorted rows, bit for bit.
        #[test]
        fn tied_latencies_reduce_as_the_plain_reference_does(kind in 0u8..3, n in 1usize..12_000, seed: u64) {
            let (_, latencies, _) = tied_run(kind, n, seed);
            let bits = |points: &[(f64, f64)]| points.iter().map(|p| (p.0.to_bits(), p.1.to_bits())).collect::<Vec<_>>();
            let marked = Some(Percentile::P95.rank(n as u64));
            let mut sorted = latencies.clone();
            sorted.sort_by(f64::total_cmp);
            proptest::prop_assert_eq!(bits(&ecdf(&latencies, marked).points), bits(&ecdf(&sorted, marked).points));
        }
    }

    #[test]
    fn small_ecdf_keeps_every_point() {
        let series = ecdf(&[1.0, 2.0, 3.0, 4.0], Some(4));
        assert_eq!(series.points, vec![(1.0, 0.25), (2.0, 0.5), (3.0, 0.75), (4.0, 1.0)]);
        assert!(!series.reduced());
    }

    #[test]
    fn large_ecdf_keeps_the_tail_and_the_marked_rank() {
        let values: Vec<f64> = (1..=100_000).map(f64::from).collect();
        let series = ecdf(&values, Some(95_000));
        assert!(series.reduced());
        assert_eq!(series.total, 100_000);
        // The tail above p99 is whole: ranks 99,000..100,000.
        let tail = series.points.iter().filter(|p| p.0 >= 99_000.0).count();
        assert_eq!(tail, 1001);
        assert!(series.points.contains(&(95_000.0, 0.95)));
        assert!(series.points.len() < 2100, "{}", series.points.len());
    }
}
