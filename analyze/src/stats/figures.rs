//! The points the charts draw, reduced so a page stays small at 10^8 requests while keeping the
//! tail: a run with at most [`KEEP_ALL`] points is drawn whole; a larger one keeps, per pixel
//! column, the fastest and the slowest request and the requests at the column's own
//! [`COLUMN_QUANTILES`] (p50 and p95: the band where most requests lie, which the extremes alone
//! leave empty), plus every request slower than the latency at
//! the rank of p99 (or of the [`TAIL_CAP`]-th slowest, when that is higher), and of the requests
//! exactly that slow, per pixel column the first sent: at most [`TAIL_CAP`] + [`COLUMNS`] tail
//! points, however many requests tie. Charts say "N of M points drawn" when they reduce. Requests
//! without a 2xx response are kept apart and reduced alike ([`ERRORS_KEEP_ALL`]).
//!
//! Nothing here reads a file: the pass over requests kept each 2xx latency's send time beside it
//! and every request without a 2xx response ([`crate::dataset::Keep::Points`]), so [`run_series`]
//! reduces them from memory, before the statistics reorder the latencies.

use super::percentile::Sample;
use super::ranks::values_at_ranks;
use crate::dataset::precomputed::Level1;
use crate::dataset::{Dataset, ErrorRow, RunRequests};
use crate::model::Percentile;
use crate::report::{ErrorPoint, ErrorSeries, Figures, PointSeries, RunResult};
use rayon::prelude::*;
use std::cmp::Ordering;

/// Runs with at most this many points are drawn whole.
pub const KEEP_ALL: u64 = 4000;
/// Pixel columns of a reduced time series.
pub const COLUMNS: usize = 600;
/// At most this many tail points are kept per run.
pub const TAIL_CAP: u64 = 2000;
/// Evenly spaced ranks of a reduced ECDF.
pub const ECDF_STEPS: u64 = 1000;
/// The quantiles of its own requests each pixel column of a reduced time series keeps (by
/// nearest rank within the column), besides its fastest and slowest.
pub const COLUMN_QUANTILES: [Percentile; 2] = [Percentile::P50, Percentile::P95];

type Point = (f64, f64);
/// Per pixel column of a reduced time series: its fastest and slowest point.
type Columns = Vec<Option<(Point, Point)>>;

enum RunPoints {
    All(Vec<Point>),
    Reduced { columns: Columns, tail: Tail },
}

/// The tail of a reduced run: every point slower than the latency at the tail rank
/// ([`tail_from`]), of which there are fewer than `keep`, and of the points exactly as slow, per
/// pixel column the first sent. Ties at that latency sit on one horizontal line, so one point
/// per column draws them all, and a run of identical latencies keeps [`COLUMNS`] points, not
/// every row.
struct Tail {
    /// The latency at the tail rank.
    threshold: f64,
    slower: Vec<Point>,
    /// Per pixel column, the first point sent at exactly `threshold`.
    at_threshold: Vec<Option<Point>>,
}

/// A latency ordered for the tail: finite (checked at ingest), with -0.0 equal to 0.0 as `>`
/// compares them.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Latency(f64);

impl Eq for Latency {}

impl PartialOrd for Latency {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Latency {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.partial_cmp(&other.0).unwrap_or(Ordering::Equal)
    }
}

/// The `keep`-th largest of values read in any order (1 <= keep <= len), the value a sort would
/// put at rank len - keep + 1. A heap holds the `keep` largest so far, smallest on top; a value
/// enters only when it is larger than that, so ties cost one comparison each.
fn kth_largest(values: &[f64], keep: usize) -> f64 {
    debug_assert!(keep >= 1 && keep <= values.len());
    let mut largest = std::collections::BinaryHeap::with_capacity(keep);
    for &value in values {
        if largest.len() < keep {
            largest.push(std::cmp::Reverse(Latency(value)));
        } else if let Some(mut smallest) = largest.peek_mut() {
            if value > smallest.0 .0 {
                *smallest = std::cmp::Reverse(Latency(value));
            }
        }
    }
    largest.peek().map_or(f64::NEG_INFINITY, |r| r.0 .0)
}

impl Tail {
    fn new(threshold: f64) -> Self {
        Tail { threshold, slower: Vec::new(), at_threshold: vec![None; COLUMNS] }
    }

    #[inline]
    fn push(&mut self, point: Point, column: usize) {
        if point.1 > self.threshold {
            self.slower.push(point);
        } else if point.1 == self.threshold {
            keep_first(&mut self.at_threshold[column], point);
        }
    }

    fn into_points(self) -> Vec<Point> {
        let mut points = self.slower;
        points.extend(self.at_threshold.into_iter().flatten());
        points
    }
}

/// Keeps the earlier sent of two points as slow as each other (then the lower bits, so -0.0
/// before 0.0), so the choice does not depend on which worker read which row first.
#[inline]
fn keep_first(slot: &mut Option<Point>, point: Point) {
    let earlier = |kept: &Point| point.0.total_cmp(&kept.0).then(point.1.total_cmp(&kept.1)).is_lt();
    if slot.as_ref().is_none_or(earlier) {
        *slot = Some(point);
    }
}

/// Runs with at most this many errors have every one marked. Error marks are larger than the
/// points of 2xx responses, so fewer are drawn whole.
pub const ERRORS_KEEP_ALL: u64 = 1000;
/// Columns of a reduced run's error marks (two pixels each).
pub const ERROR_COLUMNS: usize = COLUMNS / 2;

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
            RunErrors::Reduced { last_sent_s, columns } => columns[column_of(point.t_s, *last_sent_s, ERROR_COLUMNS)].keep(point),
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

/// The column, of `columns`, of a send time in a reduced chart.
#[inline]
fn column_of(t_s: f64, last_sent_s: f64, columns: usize) -> usize {
    if last_sent_s > 0.0 {
        ((t_s / last_sent_s) * (columns - 1) as f64).clamp(0.0, (columns - 1) as f64) as usize
    } else {
        0
    }
}

impl RunPoints {
    /// Takes a run's rows (`sent_ms[i]` is the send time of `latencies_ms[i]`); a reduced run
    /// also needs each row's pixel column (`row_columns[i]`).
    fn push(&mut self, sent_ms: &[f64], latencies_ms: &[f64], row_columns: &[u16]) {
        let points = sent_ms.iter().zip(latencies_ms).map(|(&sent, &latency)| (sent / 1000.0, latency));
        match self {
            RunPoints::All(kept) => kept.extend(points),
            RunPoints::Reduced { columns, tail } => {
                for (point, &column) in points.zip(row_columns) {
                    let column = usize::from(column);
                    tail.push(point, column);
                    keep_extremes(&mut columns[column], (point, point));
                }
            }
        }
    }

    /// The points to draw, in drawing order.
    fn into_points(self) -> Vec<Point> {
        let mut points = match self {
            RunPoints::All(points) => points,
            RunPoints::Reduced { columns, tail, .. } => {
                let mut tail = tail.into_points();
                for (low, high) in columns.into_iter().flatten() {
                    tail.push(low);
                    tail.push(high);
                }
                tail
            }
        };
        points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
        points.dedup();
        points
    }
}

/// Widens a column's (fastest, slowest) by another pair. Ties go to the earlier send time, so a
/// column keeps the same two points however the rows were split between workers.
#[inline]
fn keep_extremes(slot: &mut Option<(Point, Point)>, (low, high): (Point, Point)) {
    match slot {
        None => *slot = Some((low, high)),
        Some((kept_low, kept_high)) => {
            // Faster, or as fast and earlier.
            if low.1.total_cmp(&kept_low.1).then(low.0.total_cmp(&kept_low.0)).is_lt() {
                *kept_low = low;
            }
            // Slower, or as slow and earlier.
            if high.1.total_cmp(&kept_high.1).then(kept_high.0.total_cmp(&high.0)).is_gt() {
                *kept_high = high;
            }
        }
    }
}

/// One run's time series and error marks, from the send times of its 2xx latencies (taken out
/// of `counted`, in step with `latencies_ms`) and its rows without one.
pub fn run_series(counted: &RunRequests, sent_ms: &[f64], error_rows: Vec<ErrorRow>) -> (PointSeries, ErrorSeries) {
    debug_assert_eq!(sent_ms.len(), counted.latencies_ms.len());
    let last_sent_s = counted.last_sent_ms.unwrap_or(0.0) / 1000.0;
    let n = counted.latencies_ms.len() as u64;
    let points = time_series(sent_ms, &counted.latencies_ms, last_sent_s);
    let errors = counted.errors();
    let mut marks = RunErrors::new(errors, last_sent_s);
    for row in error_rows {
        marks.push(ErrorPoint { t_s: row.sent_ms / 1000.0, latency_ms: row.latency_ms, status: row.status });
    }
    (PointSeries { points, total: n }, ErrorSeries { points: marks.into_points(), total: errors })
}

/// The time-series points of one run's 2xx responses (`sent_ms[i]` is the send time of
/// `latencies_ms[i]`, in any order), reduced past [`KEEP_ALL`], in drawing order.
fn time_series(sent_ms: &[f64], latencies_ms: &[f64], last_sent_s: f64) -> Vec<Point> {
    let n = latencies_ms.len() as u64;
    if n <= KEEP_ALL {
        let mut points = RunPoints::All(Vec::with_capacity(n as usize));
        points.push(sent_ms, latencies_ms, &[]);
        return points.into_points();
    }
    // The tail from the rank of p99 (at most TAIL_CAP ranks) up, and each row's pixel column
    // (COLUMNS < 2^16), found once for the two reductions below.
    let keep = n - tail_from(n) + 1;
    let (threshold, columns) = rayon::join(
        || kth_largest(latencies_ms, keep as usize),
        || sent_ms.par_iter().map(|&sent| column_of(sent / 1000.0, last_sent_s, COLUMNS) as u16).collect::<Vec<u16>>(),
    );
    // The extremes and tail, and the columns' quantiles, read the same rows: side by side on the
    // cores (a one-run dataset has no other run to overlap with).
    let (mut drawn, quantiles) = rayon::join(
        || {
            let mut points = RunPoints::Reduced { columns: vec![None; COLUMNS], tail: Tail::new(threshold) };
            points.push(sent_ms, latencies_ms, &columns);
            points.into_points()
        },
        || column_quantiles(sent_ms, latencies_ms, &columns),
    );
    drawn.extend(quantiles);
    drawn.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    drawn.dedup();
    drawn
}

/// Per pixel column of a reduced time series (`columns[i]` is row i's), the request at each of
/// [`COLUMN_QUANTILES`] of the column's own latencies (nearest rank), the first sent of those
/// exactly as slow. Linear in rows whatever their values: the rows' indices are put in column
/// order by counting (4 bytes a row), and each column's two ranks are found by selection
/// ([`Sample::percentiles`]), never by sorting, the columns spread over the cores. (A column of a
/// 10M-row campaign holds about 440 latencies, which [`values_at_ranks`] sorts outright: 13% of
/// such a report's CPU time, where selection takes a third of it.)
fn column_quantiles(sent_ms: &[f64], latencies_ms: &[f64], columns: &[u16]) -> Vec<Point> {
    // No run of requests has 2^32 rows: its latencies alone would be 32 GiB.
    assert!(u32::try_from(latencies_ms.len()).is_ok(), "a run of {} rows: more than 2^32", latencies_ms.len());
    let mut starts = vec![0usize; COLUMNS + 1];
    for &c in columns {
        starts[usize::from(c) + 1] += 1;
    }
    for c in 0..COLUMNS {
        starts[c + 1] += starts[c];
    }
    let mut fill = starts.clone();
    let mut order = vec![0u32; columns.len()];
    for (row, &c) in columns.iter().enumerate() {
        let slot = &mut fill[usize::from(c)];
        order[*slot] = row as u32;
        *slot += 1;
    }
    let per_column: Vec<Vec<Point>> = (0..COLUMNS)
        .into_par_iter()
        .map(|c| {
            let rows = &order[starts[c]..starts[c + 1]];
            if rows.is_empty() {
                return Vec::new();
            }
            let mut latencies: Vec<f64> = rows.iter().map(|&row| latencies_ms[row as usize]).collect();
            let Some(mut sample) = Sample::new(&mut latencies) else { return Vec::new() };
            sample
                .percentiles(&COLUMN_QUANTILES)
                .into_iter()
                .filter_map(|ranked| {
                    let mut kept = None;
                    for &row in rows {
                        let latency = latencies_ms[row as usize];
                        if latency.to_bits() == ranked.value.to_bits() {
                            keep_first(&mut kept, (sent_ms[row as usize] / 1000.0, latency));
                        }
                    }
                    kept
                })
                .collect()
        })
        .collect();
    per_column.into_iter().flatten().collect()
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
/// its tables hold, reduced as [`run_series`] reduces rows, put in its drawing order.
pub fn level1_series(level1: &Level1, counted: &[RunRequests]) -> (Vec<PointSeries>, Vec<ErrorSeries>) {
    level1
        .runs
        .iter()
        .zip(counted)
        .map(|(run, counted)| {
            let mut points = run.points.clone();
            points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
            points.dedup();
            let mut marks: Vec<ErrorPoint> =
                run.errors.iter().map(|&(t_s, latency_ms, status)| ErrorPoint { t_s, latency_ms, status }).collect();
            marks.sort_by(error_order);
            (PointSeries { points, total: run.ok_responses }, ErrorSeries { points: marks, total: counted.errors() })
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
            all.iter().filter(|p| p.latency_ms.is_none()).map(|p| column_of(p.t_s, 99.99, ERROR_COLUMNS)).collect();
        assert_eq!(points.iter().filter(|p| p.latency_ms.is_none()).count(), columns_with_none.len());
    }

    #[test]
    fn a_reduced_time_series_keeps_the_same_points_however_rows_are_split() {
        let points: Vec<Point> = (0..5000u32).map(|i| (f64::from(i) / 50.0, f64::from((i * 7919) % 97))).collect();
        let reduce = |split: usize| {
            let mut columns: Vec<Vec<Option<(Point, Point)>>> = vec![vec![None; COLUMNS]; split];
            for (i, &point) in points.iter().enumerate() {
                keep_extremes(&mut columns[(i * 31) % split][column_of(point.0, 99.98, COLUMNS)], (point, point));
            }
            let mut merged: Vec<Option<(Point, Point)>> = vec![None; COLUMNS];
            for part in columns {
                for (slot, pair) in merged.iter_mut().zip(part) {
                    if let Some(pair) = pair {
                        keep_extremes(slot, pair);
                    }
                }
            }
            merged
        };
        assert_eq!(reduce(1), reduce(2));
        assert_eq!(reduce(1), reduce(5));
        let column = reduce(1)[0].unwrap();
        let first: Vec<f64> = points.iter().filter(|p| column_of(p.0, 99.98, COLUMNS) == 0).map(|p| p.1).collect();
        let (fastest, slowest) = (first.iter().copied().fold(f64::INFINITY, f64::min), first.iter().copied().fold(0.0, f64::max));
        assert!(first.len() > 2 && fastest < slowest);
        assert_eq!((column.0 .1, column.1 .1), (fastest, slowest), "the fastest and the slowest of the first column");
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

    /// The plain reference of [`time_series`]: sort to find the latency at the tail rank, then
    /// look at each pixel column on its own.
    fn reference_time_series(sent_ms: &[f64], latencies_ms: &[f64], last_sent_s: f64) -> Vec<Point> {
        let points: Vec<Point> = sent_ms.iter().zip(latencies_ms).map(|(&s, &l)| (s / 1000.0, l)).collect();
        let n = points.len() as u64;
        let mut drawn = if n <= KEEP_ALL {
            points.clone()
        } else {
            let mut sorted = latencies_ms.to_vec();
            sorted.sort_by(f64::total_cmp);
            let threshold = sorted[(tail_from(n) - 1) as usize];
            let mut drawn: Vec<Point> = points.iter().copied().filter(|p| p.1 > threshold).collect();
            for column in 0..COLUMNS {
                let inside: Vec<Point> = points.iter().copied().filter(|p| column_of(p.0, last_sent_s, COLUMNS) == column).collect();
                let by_latency_then_send = |a: &&Point, b: &&Point| a.1.total_cmp(&b.1).then(a.0.total_cmp(&b.0));
                let by_latency_then_later = |a: &&Point, b: &&Point| a.1.total_cmp(&b.1).then(b.0.total_cmp(&a.0));
                drawn.extend(inside.iter().min_by(by_latency_then_send));
                drawn.extend(inside.iter().max_by(by_latency_then_later));
                drawn.extend(inside.iter().filter(|p| p.1 == threshold).min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1))));
                // The column's own quantiles: sort it, read the nearest rank, draw the first sent.
                let mut column_sorted: Vec<f64> = inside.iter().map(|p| p.1).collect();
                column_sorted.sort_by(f64::total_cmp);
                for q in COLUMN_QUANTILES {
                    if column_sorted.is_empty() {
                        break;
                    }
                    let value = column_sorted[(q.rank(column_sorted.len() as u64) - 1) as usize];
                    drawn.extend(
                        inside
                            .iter()
                            .filter(|p| p.1.to_bits() == value.to_bits())
                            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1))),
                    );
                }
            }
            drawn
        };
        drawn.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
        drawn.dedup();
        drawn
    }

    fn bits(points: &[Point]) -> Vec<(u64, u64)> {
        points.iter().map(|p| (p.0.to_bits(), p.1.to_bits())).collect()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(40))]

        /// Ties everywhere: the time series and the ECDF are the plain reference's, bit for bit.
        #[test]
        fn tied_latencies_reduce_as_the_plain_reference_does(kind in 0u8..3, n in 1usize..12_000, seed: u64) {
            let (sent, latencies, last_sent_s) = tied_run(kind, n, seed);
            let got = time_series(&sent, &latencies, last_sent_s);
            proptest::prop_assert_eq!(bits(&got), bits(&reference_time_series(&sent, &latencies, last_sent_s)));
            let marked = Some(Percentile::P95.rank(n as u64));
            let mut sorted = latencies.clone();
            sorted.sort_by(f64::total_cmp);
            proptest::prop_assert_eq!(bits(&ecdf(&latencies, marked).points), bits(&ecdf(&sorted, marked).points));
        }
    }

    #[test]
    fn a_run_of_identical_latencies_draws_one_tail_point_per_column() {
        let n = 200_000;
        let sent: Vec<f64> = (0..n).map(|i| f64::from(i) * 0.5).collect();
        let latencies = vec![5.0; n as usize];
        let points = time_series(&sent, &latencies, sent[sent.len() - 1] / 1000.0);
        // Per column: the fastest and the slowest are the first sent, as is the tail's one point.
        assert_eq!(points.len(), COLUMNS);
        assert!(points.iter().all(|p| p.1 == 5.0));
        assert_eq!(points[0], (0.0, 5.0));
    }

    #[test]
    fn the_tail_keeps_every_point_slower_than_the_tail_rank_and_the_first_at_it() {
        // 10,000 points, the tail from rank 9,900 (the 101 slowest): 99 take 9,902..=10,000 ms
        // and four take 9,901 ms, three of them sent within the first column.
        let mut latencies: Vec<f64> = (1..=10_000).map(f64::from).collect();
        let mut sent: Vec<f64> = (0..10_000).map(f64::from).collect();
        latencies[..3].fill(9_901.0);
        sent[..3].copy_from_slice(&[2.0, 1.0, 3.0]);
        let points = time_series(&sent, &latencies, 9.999);
        let tail: Vec<Point> = points.iter().copied().filter(|p| p.1 >= 9_901.0).collect();
        // 99 slower than 9,901 ms; at 9,901 ms one per column: (0.001 s, first column) and the
        // 9,901st point's own column.
        assert_eq!(tail.iter().filter(|p| p.1 > 9_901.0).count(), 99);
        assert_eq!(tail.iter().filter(|p| p.1 == 9_901.0).map(|p| p.0).collect::<Vec<_>>(), vec![0.001, 9.9]);
    }

    #[test]
    fn each_column_keeps_its_median_and_p95_not_only_its_extremes() {
        // gunicorn-slow-client's r06 in miniature: most requests near 10 ms, a band at 52 ms
        // (5-10% of each column) and a few at 1 s. The extremes alone draw 10 ms and 1 s only.
        let n = 60_000usize;
        let sent: Vec<f64> = (0..n).map(|i| i as f64).collect();
        let latencies: Vec<f64> = (0..n)
            .map(|i| match i % 100 {
                0 => 1000.0,
                k if k >= 91 => 52.0 + (k % 3) as f64 * 0.01,
                k => 9.0 + (k % 7) as f64 * 0.25,
            })
            .collect();
        let last_sent_s = sent[n - 1] / 1000.0;
        let points = time_series(&sent, &latencies, last_sent_s);
        let near_p95 = points.iter().filter(|p| (51.0..54.0).contains(&p.1)).count();
        assert!(near_p95 >= COLUMNS - 1, "one point near 52 ms per column: {near_p95}");
        let near_median = points.iter().filter(|p| (9.5..10.0).contains(&p.1)).count();
        assert!(near_median >= COLUMNS - 1, "one point at the median per column: {near_median}");
        assert_eq!(bits(&points), bits(&reference_time_series(&sent, &latencies, last_sent_s)));
    }

    #[test]
    fn column_quantiles_are_each_columns_nearest_rank_whatever_the_rows_order() {
        let n = 3_000_017;
        let sent: Vec<f64> = (0..n).map(|i| i as f64 * 0.01).collect();
        let latencies: Vec<f64> = (0..n).map(|i| ((i * 7919) % 1009) as f64).collect();
        let last_sent_s = sent[n - 1] / 1000.0;
        let columns_of = |sent: &[f64]| -> Vec<u16> { sent.iter().map(|&s| column_of(s / 1000.0, last_sent_s, COLUMNS) as u16).collect() };
        let got = column_quantiles(&sent, &latencies, &columns_of(&sent));
        assert_eq!(got.len(), COLUMNS * COLUMN_QUANTILES.len());
        // The plain reference of every column: sort it, index it, and the first sent of that value.
        for column in [0, 1, 300, COLUMNS - 1] {
            let inside: Vec<(f64, f64)> = sent
                .iter()
                .zip(&latencies)
                .filter(|(&s, _)| column_of(s / 1000.0, last_sent_s, COLUMNS) == column)
                .map(|(&s, &l)| (s / 1000.0, l))
                .collect();
            let mut sorted: Vec<f64> = inside.iter().map(|p| p.1).collect();
            sorted.sort_by(f64::total_cmp);
            let expected: Vec<Point> = COLUMN_QUANTILES
                .iter()
                .map(|q| sorted[(q.rank(sorted.len() as u64) - 1) as usize])
                .map(|value| *inside.iter().find(|p| p.1 == value).unwrap())
                .collect();
            let of_column: Vec<Point> = got.iter().filter(|p| column_of(p.0, last_sent_s, COLUMNS) == column).copied().collect();
            assert_eq!(of_column, expected, "column {column}");
        }
        // Rows in another order (as parallel readers hand them over): the same points.
        let (mut sent_r, mut latencies_r) = (sent.clone(), latencies.clone());
        sent_r.reverse();
        latencies_r.reverse();
        assert_eq!(column_quantiles(&sent_r, &latencies_r, &columns_of(&sent_r)), got);
    }

    #[test]
    fn kth_largest_is_the_value_a_sort_puts_at_the_rank() {
        let values = [3.0, 1.0, 3.0, 2.0, 3.0, 0.0];
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        for keep in 1..=values.len() {
            assert_eq!(kth_largest(&values, keep), sorted[values.len() - keep], "keep {keep}");
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
