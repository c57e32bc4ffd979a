//! Latency over time, reduced to what a reader can see and point at on a chart a phone loads
//! quickly. A run of at most [`MARK_ALL`] 2xx responses is drawn point by point, each point a
//! mark with its own title. A larger run is cut into [`COLUMNS`] equal columns of send time,
//! from 0 to its last send; each column a response was sent in keeps how many it holds, their
//! p50 and p95 by nearest rank within the column ([`Percentile::rank`], the one rule of every
//! percentile here), their slowest latency and when the slowest was sent (of responses as slow,
//! the first sent). The chart draws the p50-to-p95 band and the median line across the
//! columns and marks each column's slowest response: the tail stays visible however many
//! requests there are, and the page weighs the same at 10^4 and 10^8 rows.
//!
//! A column ([`crate::model::time_columns`]) is about six pixels of the chart wide, not one: each column is a hover area with
//! its own title, and a title per pixel column would weigh more than the points it replaces.
//!
//! The columns are found in one pass that is linear in rows whatever their values: the rows'
//! indices are put in column order by counting (4 bytes a row), and each column's ranks are
//! found by selection ([`Sample::percentiles`]), never by sorting, the columns spread over the
//! cores.

use super::percentile::Sample;
use crate::model::Percentile;
use crate::report::{ErrorSeries, Seconds, TimeColumn, TimeSeries};
use rayon::prelude::*;

/// Runs with at most this many 2xx responses are drawn point by point: each a mark with a
/// title, a few hundred at most.
pub const MARK_ALL: u64 = 300;
/// The quantiles of its own responses each column keeps, by nearest rank within the column.
pub const COLUMN_QUANTILES: [Percentile; 2] = [Percentile::P50, Percentile::P95];
pub use crate::model::time_columns::{column_of, column_span, COLUMNS, MIN_SEND_TIMES};

/// The time series of one run's 2xx responses (`sent_ms[i]` is the send time of
/// `latencies_ms[i]`, rows in any order): every point of a run of at most [`MARK_ALL`], else
/// its columns. The same rows in any order give the same series.
pub fn time_series(sent_ms: &[f64], latencies_ms: &[f64], last_sent_s: Seconds) -> TimeSeries {
    debug_assert_eq!(sent_ms.len(), latencies_ms.len());
    let total = latencies_ms.len() as u64;
    if total <= MARK_ALL {
        let mut points: Vec<(f64, f64)> = sent_ms.iter().zip(latencies_ms).map(|(&sent, &latency)| (sent / 1000.0, latency)).collect();
        points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
        points.dedup();
        return TimeSeries { points, columns: Vec::new(), total };
    }
    TimeSeries { points: Vec::new(), columns: columns(sent_ms, latencies_ms, last_sent_s), total }
}

/// The columns a response was sent in, in time order.
fn columns(sent_ms: &[f64], latencies_ms: &[f64], last_sent_s: Seconds) -> Vec<TimeColumn> {
    // No run of requests has 2^32 rows: its latencies alone would be 32 GiB.
    assert!(u32::try_from(latencies_ms.len()).is_ok(), "a run of {} rows: more than 2^32", latencies_ms.len());
    let of_row: Vec<u16> = sent_ms.par_iter().map(|&sent| column_of(sent / 1000.0, last_sent_s) as u16).collect();
    // The rows' indices in column order, by counting.
    let mut starts = vec![0usize; COLUMNS + 1];
    for &c in &of_row {
        starts[usize::from(c) + 1] += 1;
    }
    for c in 0..COLUMNS {
        starts[c + 1] += starts[c];
    }
    let mut fill = starts.clone();
    let mut order = vec![0u32; of_row.len()];
    for (row, &c) in of_row.iter().enumerate() {
        let slot = &mut fill[usize::from(c)];
        order[*slot] = row as u32;
        *slot += 1;
    }
    drop(of_row);
    (0..COLUMNS)
        .into_par_iter()
        .filter_map(|c| {
            let rows = &order[starts[c]..starts[c + 1]];
            column(c, rows, sent_ms, latencies_ms, last_sent_s)
        })
        .collect()
}

/// Column `c` of the rows `rows` (indices into `sent_ms` and `latencies_ms`); `None` when empty.
fn column(c: usize, rows: &[u32], sent_ms: &[f64], latencies_ms: &[f64], last_sent_s: Seconds) -> Option<TimeColumn> {
    let mut latencies: Vec<f64> = rows.iter().map(|&row| latencies_ms[row as usize]).collect();
    let ranked = Sample::new(&mut latencies)?.percentiles(&COLUMN_QUANTILES);
    // The slowest by the order the ranks use (`total_cmp`), then of those the first sent.
    let mut slowest: Option<(f64, f64)> = None;
    let mut times: Vec<f64> = Vec::with_capacity(MIN_SEND_TIMES);
    for &row in rows {
        let (sent, latency) = (sent_ms[row as usize], latencies_ms[row as usize]);
        let replace = match slowest {
            None => true,
            Some((kept_sent, kept)) => latency.total_cmp(&kept).then(kept_sent.total_cmp(&sent)).is_gt(),
        };
        if replace {
            slowest = Some((sent, latency));
        }
        if times.len() < MIN_SEND_TIMES && !times.contains(&sent) {
            times.push(sent);
        }
    }
    let (slowest_sent_ms, max_ms) = slowest?;
    let (from_s, to_s) = column_span(c, last_sent_s);
    Some(TimeColumn {
        from_s,
        to_s,
        requests: rows.len() as u64,
        p50_ms: ranked[0].value,
        p95_ms: ranked[1].value,
        max_ms,
        slowest_s: slowest_sent_ms / 1000.0,
        send_times: times.len() as u8,
    })
}

/// The distinct send times of a run's requests, counted up to [`MIN_SEND_TIMES`]: of its points
/// and error marks, and of each column the count it kept. A column of one send time is that of
/// its slowest response, and is matched against the others; a column of more counts them apart
/// (its times are not kept), so an error sent at the same instant as such a column's responses
/// counts once more.
pub fn distinct_send_times(series: &TimeSeries, errors: &ErrorSeries) -> usize {
    let mut known: Vec<f64> = series.points.iter().map(|p| p.0).chain(errors.points.iter().map(|e| e.t_s)).collect();
    let mut apart = 0usize;
    for column in &series.columns {
        match column.send_times {
            1 => known.push(column.slowest_s),
            n => apart += usize::from(n),
        }
    }
    known.sort_by(f64::total_cmp);
    known.dedup_by(|a, b| a == b);
    (known.len() + apart).min(MIN_SEND_TIMES)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::ErrorPoint;

    /// The plain reference of one column: filter its rows, sort their latencies, read the
    /// nearest ranks ceil(p·n/100) off the sorted list; the slowest's first send by a scan.
    fn reference(sent_ms: &[f64], latencies_ms: &[f64], last_sent_s: f64) -> Vec<TimeColumn> {
        let mut out = Vec::new();
        for c in 0..COLUMNS {
            let inside: Vec<(f64, f64)> =
                sent_ms.iter().zip(latencies_ms).filter(|(&s, _)| column_of(s / 1000.0, last_sent_s) == c).map(|(&s, &l)| (s, l)).collect();
            if inside.is_empty() {
                continue;
            }
            let mut sorted: Vec<f64> = inside.iter().map(|p| p.1).collect();
            sorted.sort_by(f64::total_cmp);
            let n = sorted.len();
            let at = |p: f64| sorted[((p * n as f64 / 100.0).ceil() as usize).max(1) - 1];
            let max = sorted[n - 1];
            let first_slowest = inside.iter().filter(|p| p.1.to_bits() == max.to_bits()).map(|p| p.0).fold(f64::INFINITY, f64::min);
            let mut times: Vec<f64> = inside.iter().map(|p| p.0).collect();
            times.sort_by(f64::total_cmp);
            times.dedup();
            let (from_s, to_s) = column_span(c, last_sent_s);
            out.push(TimeColumn {
                from_s,
                to_s,
                requests: n as u64,
                p50_ms: at(50.0),
                p95_ms: at(95.0),
                max_ms: max,
                slowest_s: first_slowest / 1000.0,
                send_times: times.len().min(MIN_SEND_TIMES) as u8,
            });
        }
        out
    }

    #[test]
    fn a_column_keeps_its_count_nearest_rank_p50_p95_and_first_sent_slowest() {
        // Worked by hand. 400 responses over 0..=10 s: columns of 0.1 s. Column 0 (sent before
        // 100 ms) holds 20 responses of 1..=20 ms, sent every 3 ms in reverse order of latency,
        // and a second 20 ms at 60 ms: 21 values, so p50 is the 11th (11 ms), p95 the 20th
        // (ceil(19.95); 20 ms), the slowest 20 ms, first sent at 0 ms (the later tie loses).
        let mut sent: Vec<f64> = (0..20).map(|i| f64::from(i) * 3.0).collect();
        let mut latencies: Vec<f64> = (1..=20).rev().map(f64::from).collect();
        sent.push(60.0);
        latencies.push(20.0);
        // The other 379 responses from 1 s on, all 5 ms, the last at 10 s.
        for i in 0..379 {
            sent.push(1000.0 + f64::from(i) * 9000.0 / 378.0);
            latencies.push(5.0);
        }
        let series = time_series(&sent, &latencies, 10.0);
        assert!(series.banded() && series.points.is_empty());
        assert_eq!(series.total, 400);
        let first = series.columns[0];
        assert_eq!((first.from_s, first.to_s), (0.0, 0.1));
        assert_eq!(first.requests, 21);
        assert_eq!((first.p50_ms, first.p95_ms, first.max_ms, first.slowest_s), (11.0, 20.0, 20.0, 0.0));
        assert_eq!(first.send_times, 3);
        let last = series.columns.last().unwrap();
        assert_eq!((last.to_s, last.max_ms, last.slowest_s), (10.0, 5.0, last.slowest_s));
        assert!(last.from_s < 10.0 && last.slowest_s >= last.from_s);
        assert!(series.columns.windows(2).all(|w| w[0].to_s <= w[1].from_s), "in time order");
        assert_eq!(series.columns.iter().map(|c| c.requests).sum::<u64>(), 400);
    }

    #[test]
    fn a_small_run_keeps_every_point_in_send_order_once() {
        let sent = [20.0, 10.0, 10.0, 30.0];
        let latencies = [2.0, 1.0, 1.0, 3.0];
        let series = time_series(&sent, &latencies, 0.03);
        assert_eq!(series.points, vec![(0.01, 1.0), (0.02, 2.0), (0.03, 3.0)]);
        assert!(!series.banded() && series.coincide());
        assert_eq!(series.total, 4);
    }

    #[test]
    fn one_past_mark_all_is_drawn_in_columns() {
        let n = MARK_ALL as usize + 1;
        let sent: Vec<f64> = (0..n).map(|i| i as f64).collect();
        let series = time_series(&sent, &vec![1.0; n], (n - 1) as f64 / 1000.0);
        assert!(series.banded());
        assert_eq!(series.columns.len(), COLUMNS, "301 sends over 100 columns fill every one");
        assert!(series.columns.iter().all(|c| c.p50_ms == 1.0 && c.p95_ms == 1.0 && c.max_ms == 1.0));
    }

    #[test]
    fn sends_at_one_instant_make_one_column() {
        let n = 1000;
        let latencies: Vec<f64> = (0..n).map(f64::from).collect();
        let series = time_series(&vec![0.0; n as usize], &latencies, 0.0);
        assert_eq!(series.columns.len(), 1);
        let only = series.columns[0];
        assert_eq!((only.from_s, only.to_s, only.requests, only.send_times), (0.0, 0.0, 1000, 1));
        // 1000 values 0..=999: p50 rank 500 (499 ms), p95 rank 950 (949 ms).
        assert_eq!((only.p50_ms, only.p95_ms, only.max_ms), (499.0, 949.0, 999.0));
        assert_eq!(distinct_send_times(&series, &ErrorSeries::default()), 1);
    }

    /// Rows with ties of every kind, dealt out shuffled as parallel readers hand them over.
    fn tied_rows(n: usize, seed: u64) -> (Vec<f64>, Vec<f64>, f64) {
        let mut state = seed | 1;
        let mut next = move || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            state >> 33
        };
        let coarse = seed % 3 == 0;
        let mut rows: Vec<(f64, f64)> = (0..n)
            .map(|i| {
                let latency = match next() % 100 {
                    0 => 1000.0 + (next() % 3) as f64,
                    1 => -0.0,
                    k if k < 6 => 0.0,
                    _ => (next() % 12) as f64 + (next() % 4) as f64 * 0.25,
                };
                let sent = if coarse { ((i / 1000) * 1000) as f64 } else { i as f64 * 0.25 };
                (sent, latency)
            })
            .collect();
        for i in (1..rows.len()).rev() {
            rows.swap(i, (next() % (i as u64 + 1)) as usize);
        }
        let last_sent_s = rows.iter().map(|r| r.0).fold(0.0, f64::max) / 1000.0;
        let (sent, latencies) = rows.into_iter().unzip();
        (sent, latencies, last_sent_s)
    }

    fn bits(columns: &[TimeColumn]) -> Vec<[u64; 8]> {
        columns
            .iter()
            .map(|c| {
                let f = |v: f64| v.to_bits();
                [f(c.from_s), f(c.to_s), c.requests, f(c.p50_ms), f(c.p95_ms), f(c.max_ms), f(c.slowest_s), u64::from(c.send_times)]
            })
            .collect()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(40))]

        /// Ties, zeros of both signs and sends on whole seconds: the columns are the plain
        /// reference's, bit for bit, whatever order the rows come in.
        #[test]
        fn columns_are_the_plain_references(n in (MARK_ALL as usize + 1)..12_000, seed: u64) {
            let (sent, latencies, last_sent_s) = tied_rows(n, seed);
            let got = time_series(&sent, &latencies, last_sent_s);
            proptest::prop_assert_eq!(bits(&got.columns), bits(&reference(&sent, &latencies, last_sent_s)));
            let (mut sent_r, mut latencies_r) = (sent.clone(), latencies.clone());
            sent_r.reverse();
            latencies_r.reverse();
            proptest::prop_assert_eq!(time_series(&sent_r, &latencies_r, last_sent_s), got);
        }
    }

    #[test]
    fn distinct_send_times_counts_points_errors_and_columns() {
        let error = |t_s: f64| ErrorPoint { t_s, latency_ms: None, status: 0 };
        let errors = |times: &[f64]| ErrorSeries { points: times.iter().map(|&t| error(t)).collect(), total: times.len() as u64 };
        let points = TimeSeries { points: vec![(0.0, 1.0), (0.0, 2.0)], columns: Vec::new(), total: 2 };
        assert_eq!(distinct_send_times(&points, &errors(&[])), 1);
        assert_eq!(distinct_send_times(&points, &errors(&[0.0, 1.0])), 2);
        assert_eq!(distinct_send_times(&points, &errors(&[1.0, 2.0, 3.0])), MIN_SEND_TIMES);
        let one =
            TimeColumn { from_s: 0.0, to_s: 0.0, requests: 500, p50_ms: 1.0, p95_ms: 2.0, max_ms: 3.0, slowest_s: 0.0, send_times: 1 };
        let banded = TimeSeries { points: Vec::new(), columns: vec![one], total: 500 };
        assert_eq!(distinct_send_times(&banded, &errors(&[0.0])), 1, "an error at the column's one instant");
        let two = TimeColumn { send_times: 2, ..one };
        assert_eq!(distinct_send_times(&TimeSeries { columns: vec![two], ..banded.clone() }, &errors(&[])), 2);
    }

    #[test]
    fn column_edges_follow_the_column_rule() {
        let last = 7.3;
        for c in 0..COLUMNS {
            let (from, to) = column_span(c, last);
            assert_eq!(column_of((from + to) / 2.0, last), c, "column {c} holds its middle");
            // In floating point a send time at a column's very start may round into the one before.
            assert!((c.saturating_sub(1)..=c).contains(&column_of(from, last)), "column {c}");
            assert!(from < to);
        }
        assert_eq!(column_of(last, last), COLUMNS - 1);
        assert_eq!(column_span(COLUMNS - 1, last).1, last);
        assert_eq!(column_span(0, 0.0), (0.0, 0.0));
    }
}
