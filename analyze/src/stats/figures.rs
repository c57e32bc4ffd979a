//! The points the charts draw, reduced so a page stays small at 10^8 requests while keeping the
//! tail: a run with at most [`KEEP_ALL`] points is drawn whole; a larger one keeps, per pixel
//! column, the fastest and the slowest request, plus every request above the run's p99 (at most
//! [`TAIL_CAP`] of them, the slowest). Charts say "N of M points drawn" when they reduce.

use super::percentile::{Percentile, Sample};
use crate::dataset::requests::{RequestRow, RequestSink, RowPlace, RunIndex};
use crate::dataset::table::TableSource;
use crate::dataset::{DataError, Dataset};
use crate::report::{Figures, PointSeries, RunResult};

/// Runs with at most this many points are drawn whole.
pub const KEEP_ALL: u64 = 4000;
/// Pixel columns of a reduced time series.
pub const COLUMNS: usize = 600;
/// At most this many tail points are kept per run.
pub const TAIL_CAP: u64 = 2000;
/// Evenly spaced ranks of a reduced ECDF.
pub const ECDF_STEPS: u64 = 1000;

type Point = (f64, f64);

enum RunPoints {
    All(Vec<Point>),
    Reduced { last_sent_s: f64, tail_from_ms: f64, columns: Vec<Option<(Point, Point)>>, tail: Vec<Point> },
}

struct SeriesSink {
    runs: Vec<RunPoints>,
}

impl RequestSink for SeriesSink {
    #[inline]
    fn row(&mut self, row: &RequestRow, _place: RowPlace) {
        let Some(latency) = row.latency_ms else { return };
        if !(200..300).contains(&row.status) {
            return;
        }
        let point = (row.sent_ms / 1000.0, latency);
        match &mut self.runs[row.run as usize] {
            RunPoints::All(points) => points.push(point),
            RunPoints::Reduced { last_sent_s, tail_from_ms, columns, tail } => {
                if latency >= *tail_from_ms {
                    tail.push(point);
                }
                let column = if *last_sent_s > 0.0 {
                    ((point.0 / *last_sent_s) * (COLUMNS - 1) as f64).clamp(0.0, (COLUMNS - 1) as f64) as usize
                } else {
                    0
                };
                let slot = &mut columns[column];
                match slot {
                    None => *slot = Some((point, point)),
                    Some((low, high)) => {
                        if latency < low.1 {
                            *low = point;
                        }
                        if latency > high.1 {
                            *high = point;
                        }
                    }
                }
            }
        }
    }
}

/// Computes every chart input. Sorts each run's latencies in place.
pub fn compute(dataset: &mut Dataset, runs: &[RunResult]) -> Result<Figures, DataError> {
    let plans: Vec<(bool, f64, f64)> = dataset
        .requests
        .iter_mut()
        .map(|counted| {
            let n = counted.latencies_ms.len() as u64;
            if n <= KEEP_ALL {
                return (true, 0.0, 0.0);
            }
            let p99 = Percentile::P99.rank(n);
            let from_rank = p99.max(n.saturating_sub(TAIL_CAP) + 1);
            let threshold = Sample::new(&mut counted.latencies_ms).map_or(f64::INFINITY, |mut s| s.at_rank(from_rank));
            (false, counted.last_sent_ms.unwrap_or(0.0) / 1000.0, threshold)
        })
        .collect();
    let make = || SeriesSink {
        runs: plans
            .iter()
            .map(|&(all, last_sent_s, tail_from_ms)| {
                if all {
                    RunPoints::All(Vec::new())
                } else {
                    RunPoints::Reduced { last_sent_s, tail_from_ms, columns: vec![None; COLUMNS], tail: Vec::new() }
                }
            })
            .collect(),
    };
    let index = RunIndex::new(dataset.runs.iter().map(|r| r.run_id.as_str()));
    let scan = match &dataset.requests_source {
        TableSource::Csv(path) => crate::dataset::requests::scan_csv(path, &index, make),
        TableSource::Parquet(path) => crate::dataset::parquet::scan_requests(path, &index, make),
    };
    // The file was validated moments ago: a failure or a bad row now means it changed underneath,
    // and charts drawn from it could disagree with the tables.
    let scan = scan?;
    if !scan.problems.is_empty() {
        let file = dataset.requests_source.file_name();
        return Err(DataError::file(&file, "changed while it was being read: run the report again"));
    }
    let sinks = scan.sinks;
    let mut merged: Vec<Vec<Point>> = vec![Vec::new(); dataset.runs.len()];
    for sink in sinks {
        for (out, part) in merged.iter_mut().zip(sink.runs) {
            match part {
                RunPoints::All(points) => out.extend(points),
                RunPoints::Reduced { columns, tail, .. } => {
                    for (low, high) in columns.into_iter().flatten() {
                        out.push(low);
                        out.push(high);
                    }
                    out.extend(tail);
                }
            }
        }
    }
    let time_series = merged
        .into_iter()
        .zip(runs)
        .map(|(mut points, run)| {
            // Workers finish blocks in any order: sorting makes the output deterministic.
            points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
            points.dedup();
            PointSeries { points, total: run.ok_responses }
        })
        .collect();

    let ecdf = ecdf_all(dataset, runs);
    let large_responses = (0..dataset.runs.len())
        .map(|run| {
            let mut points: Vec<(f64, Option<f64>)> = dataset
                .large_responses
                .iter()
                .flatten()
                .filter(|r| r.run as usize == run)
                .filter_map(|r| r.write_s.map(|w| (w, r.client_complete_s)))
                .collect();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            points
        })
        .collect();
    let tempfiles = (0..dataset.runs.len())
        .map(|run| {
            let mut points: Vec<(f64, f64)> = dataset
                .tempfiles
                .iter()
                .flatten()
                .filter(|s| s.run as usize == run)
                .map(|s| (s.t_ms / 1000.0, s.logical_bytes as f64))
                .collect();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            points
        })
        .collect();
    let resources = (0..dataset.runs.len()).map(|run| super::resources::series(dataset, run)).collect();
    Ok(Figures { time_series, ecdf, large_responses, tempfiles, resources })
}

/// Sorted latencies as (value, rank / n), reduced past [`KEEP_ALL`] to evenly spaced ranks plus
/// the tail above p99 and the headline rank.
fn ecdf_all(dataset: &mut Dataset, runs: &[RunResult]) -> Vec<PointSeries> {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let chunk = dataset.requests.len().div_ceil(threads).max(1);
    let mut out: Vec<PointSeries> = vec![PointSeries::default(); dataset.requests.len()];
    std::thread::scope(|scope| {
        for ((requests, slots), results) in dataset.requests.chunks_mut(chunk).zip(out.chunks_mut(chunk)).zip(runs.chunks(chunk)) {
            scope.spawn(move || {
                for ((counted, slot), run) in requests.iter_mut().zip(slots.iter_mut()).zip(results) {
                    counted.latencies_ms.sort_unstable_by(f64::total_cmp);
                    *slot = ecdf(&counted.latencies_ms, run.headline_rank);
                }
            });
        }
    });
    out
}

/// The ECDF of sorted values.
pub fn ecdf(sorted: &[f64], marked_rank: Option<u64>) -> PointSeries {
    let n = sorted.len() as u64;
    if n == 0 {
        return PointSeries::default();
    }
    let point = |rank: u64| (sorted[(rank - 1) as usize], rank as f64 / n as f64);
    if n <= KEEP_ALL {
        return PointSeries { points: (1..=n).map(point).collect(), total: n };
    }
    let mut ranks: Vec<u64> = (1..=ECDF_STEPS).map(|k| (k * n).div_ceil(ECDF_STEPS)).collect();
    let tail_from = Percentile::P99.rank(n).max(n.saturating_sub(TAIL_CAP) + 1);
    ranks.extend(tail_from..=n);
    ranks.push(1);
    ranks.extend(marked_rank);
    ranks.sort_unstable();
    ranks.dedup();
    PointSeries { points: ranks.into_iter().map(point).collect(), total: n }
}

#[cfg(test)]
mod tests {
    use super::*;

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
