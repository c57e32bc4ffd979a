//! Latency from the intended send, and the send lag over a run.
//!
//! An open-loop client that falls behind its schedule times the requests it sent late from when
//! they finally left, and so hides the stall that delayed them (coordinated omission). Timed from
//! the scheduled send instead, each 2xx response takes `latency_ms + (sent_ms - scheduled_ms)`.
//! A run's percentiles of those values are nearest ranks, as every percentile here
//! ([`crate::model::Percentile::rank`]), over the same 2xx responses the service latency ranks.

use super::percentile::Sample;
use super::precision;
use crate::dataset::RunRequests;
use crate::model::{Percentile, SortedMap};
use crate::report::{IntendedGap, LagSeries, Millis, Seconds};

/// Per percentile key of `wanted` (the report's percentiles), the nearest-rank value of
/// `latency + lag` over a run's 2xx responses (`lags` in step with `latencies`; empty means every
/// lag is 0). `None` without 2xx responses. The tests' entry; the report consumes the lags
/// ([`percentiles_of_lags`]).
#[cfg(test)]
pub fn percentiles(latencies: &[f64], lags: &[f64], wanted: &[Percentile]) -> Option<SortedMap<String, Millis>> {
    let lags = if lags.is_empty() { vec![0.0; latencies.len()] } else { lags.to_vec() };
    percentiles_of_lags(latencies, lags, wanted)
}

/// [`percentiles`] computed in the lags' own vector (which it consumes): each lag becomes its
/// latency from the intended send in place, so a run of 10M rows needs no third 80 MB vector.
pub fn percentiles_of_lags(latencies: &[f64], mut lags: Vec<f64>, wanted: &[Percentile]) -> Option<SortedMap<String, Millis>> {
    debug_assert_eq!(lags.len(), latencies.len());
    for (lag, latency) in lags.iter_mut().zip(latencies) {
        *lag += latency;
    }
    let mut sample = Sample::new(&mut lags)?;
    let values = sample.percentiles(wanted);
    // A sum of two measured values: rounded to a nanosecond like every derived value.
    Some(wanted.iter().zip(values).map(|(p, v)| (p.key(), precision::ms(v.value))).collect())
}

/// The percentile whose value from the intended send differs most from the service latency's,
/// when that difference is more than `negligible` of the service value (dataset.toml's
/// `thresholds.negligible_difference`) and more than `floor_ms` (`thresholds.noisy_lag_floor_ms`,
/// 1 ms): a client's constant dispatch overhead of a tenth of a millisecond is more than 5% of a
/// 1 ms response, but no stall.
pub fn gap(
    service: &SortedMap<String, Millis>,
    intended: &SortedMap<String, Millis>,
    negligible: f64,
    floor_ms: f64,
) -> Option<IntendedGap> {
    intended
        .iter()
        .filter_map(|(key, &i)| {
            let s = *service.get(key)?;
            let relative = if s > 0.0 {
                (i - s).abs() / s
            } else if i != s {
                f64::INFINITY
            } else {
                0.0
            };
            (relative > negligible && (i - s).abs() > floor_ms)
                .then(|| (relative, IntendedGap { key: key.clone(), service_ms: s, intended_ms: i }))
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, gap)| gap)
}

/// Up to this many responses a run's send lags are all drawn; above it, per pixel column of the
/// scheduled time the smallest and the largest lag, so the chart keeps every stall.
pub const KEEP_ALL: usize = 2_000;
const COLUMNS: usize = 760;

/// `x.round() as usize` for `x` >= 0, without the call to libm's `round` that x86-64's baseline
/// instructions need for every point: `x` less its whole part is exact, so a half rounds up as
/// `round` does (away from zero).
#[inline(always)]
fn nearest_column(x: f64) -> usize {
    let whole = x as usize;
    if x - whole as f64 >= 0.5 {
        whole + 1
    } else {
        whole
    }
}

/// The send lag of each 2xx response against its scheduled time (s since the run's start), for
/// the send-lag chart: every point of a small run, else each column's least and greatest lag.
/// Read before the statistics reorder the latencies (the lags and send times are in step).
pub fn lag_series(counted: &RunRequests) -> LagSeries {
    lag_series_of(&counted.sent_ms, &counted.lag_ms, counted.latencies_ms.len() as u64)
}

/// [`lag_series`] from a run's send times and lags (in step) and its count of 2xx responses.
pub fn lag_series_of(sent_ms: &[f64], lag_ms: &[f64], total: u64) -> LagSeries {
    if lag_ms.is_empty() || sent_ms.len() != lag_ms.len() {
        return LagSeries { points: Vec::new(), total, all_zero: lag_ms.is_empty() };
    }
    let scheduled = sent_ms.iter().zip(lag_ms).map(|(sent, lag)| ((sent - lag) / 1000.0, *lag));
    let mut points: Vec<(Seconds, Millis)> = if lag_ms.len() <= KEEP_ALL {
        scheduled.map(|(t, lag)| (precision::seconds(t), precision::ms(lag))).collect()
    } else {
        // The latest scheduled time divided once: a correctly rounded division by 1000 keeps
        // the order, so the largest quotient is the quotient of the largest.
        let latest_ms = sent_ms.iter().zip(lag_ms).map(|(sent, lag)| sent - lag).fold(0.0, f64::max);
        let end = (latest_ms / 1000.0).max(f64::MIN_POSITIVE);
        let last_column = (COLUMNS - 1) as f64;
        // A point's column is the nearest whole number to `x = ms / 1000 / end * last_column`
        // (`ms` its scheduled time). One product gives x to within a few units in its last place
        // (5e-13 at most at 759): the same nearest whole number, unless x lies within EDGE of a
        // half, where the two divisions decide. The divisions and the store each compare waited
        // on (below) were the loop's time: sparing either alone measured nothing, both a third.
        let per_ms = last_column / (end * 1000.0);
        let exact_column = |ms: f64| nearest_column(((ms / 1000.0).max(0.0) / end) * last_column).min(COLUMNS - 1);
        const EDGE: f64 = 1e-9;
        // Per column, the point of its smallest lag and the point of its largest, in two arrays
        // whose first values every lag replaces (lags are finite): a loop of compares, where an
        // `Option` per column made each of the 333,333 points of a run a chain of branches.
        // Points are kept by their scheduled time in ms: dividing by 1000 keeps the order, so
        // the one kept has the earliest time in seconds too (or one equal to it).
        let mut low = vec![(f64::INFINITY, f64::INFINITY); COLUMNS];
        let mut high = vec![(f64::INFINITY, f64::NEG_INFINITY); COLUMNS];
        // The column being filled is held apart from the arrays, in registers: consecutive
        // points mostly share one, and each compare waited on the store of the point before.
        let mut current = 0;
        let (mut column_low, mut column_high) = (low[0], high[0]);
        for (sent, &lag) in sent_ms.iter().zip(lag_ms) {
            let ms = sent - lag;
            let x = ms.max(0.0) * per_ms;
            let whole = x as usize;
            let fraction = x - whole as f64;
            let column =
                if (fraction - 0.5).abs() < EDGE { exact_column(ms) } else { (whole + usize::from(fraction >= 0.5)).min(COLUMNS - 1) };
            if column != current {
                (low[current], high[current]) = (column_low, column_high);
                current = column;
                (column_low, column_high) = (low[column], high[column]);
            }
            // Ties go to the earlier scheduled time, so the rows' order (a CSV file or a
            // folder of Parquet parts) does not change what is drawn.
            if lag < column_low.1 || (lag == column_low.1 && ms < column_low.0) {
                column_low = (ms, lag);
            }
            if lag > column_high.1 || (lag == column_high.1 && ms < column_high.0) {
                column_high = (ms, lag);
            }
        }
        (low[current], high[current]) = (column_low, column_high);
        low.into_iter()
            .zip(high)
            .filter(|&(_, (_, high_lag))| high_lag != f64::NEG_INFINITY)
            .flat_map(|(low, high)| if low == high { vec![low] } else { vec![low, high] })
            .map(|(ms, lag)| (precision::seconds(ms / 1000.0), precision::ms(lag)))
            .collect()
    };
    points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    LagSeries { points, total, all_zero: false }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain reference of a reduced lag series: every point into its column, then per
    /// column the smallest lag and the largest, each at its earliest scheduled time.
    fn reference_lag_series(sent_ms: &[f64], lag_ms: &[f64]) -> Vec<(f64, f64)> {
        let points: Vec<(f64, f64)> = sent_ms.iter().zip(lag_ms).map(|(sent, lag)| ((sent - lag) / 1000.0, *lag)).collect();
        let end = points.iter().map(|p| p.0).fold(0.0, f64::max).max(f64::MIN_POSITIVE);
        let mut out = Vec::new();
        for column in 0..COLUMNS {
            let inside: Vec<(f64, f64)> = points
                .iter()
                .copied()
                .filter(|(t, _)| ((((t.max(0.0) / end) * (COLUMNS - 1) as f64).round() as usize).min(COLUMNS - 1)) == column)
                .collect();
            let Some(&first) = inside.first() else { continue };
            let earliest = |a: (f64, f64), b: (f64, f64), pick: fn(f64, f64) -> bool| {
                if pick(b.1, a.1) || (b.1 == a.1 && b.0 < a.0) {
                    b
                } else {
                    a
                }
            };
            let low = inside.iter().fold(first, |a, &b| earliest(a, b, |x, y| x < y));
            let high = inside.iter().fold(first, |a, &b| earliest(a, b, |x, y| x > y));
            out.push(low);
            if high != low {
                out.push(high);
            }
        }
        let mut out: Vec<(f64, f64)> = out.into_iter().map(|(t, lag)| (precision::seconds(t), precision::ms(lag))).collect();
        out.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
        out
    }

    #[test]
    fn a_point_at_a_columns_half_goes_where_the_two_divisions_put_it() {
        // Scheduled 759 s long, so x is the time in s: a point every 0.5 s puts every other one
        // at a half (or the double next to it), where the product and the divisions may part.
        let n: u32 = 3_000;
        let lag_ms: Vec<f64> = (0..n).map(|i| f64::from((i * 37) % 11)).collect();
        let sent_ms: Vec<f64> = (0..n).map(|i| (f64::from(i) * 500.0).min(759_000.0) + lag_ms[i as usize]).collect();
        let series = lag_series_of(&sent_ms, &lag_ms, u64::from(n));
        assert_eq!(series.points, reference_lag_series(&sent_ms, &lag_ms));
        // And times of any size, some negative, some at one scale's halves.
        for scale in [1e-3, 0.37, 1.0, 13.0, 1e6] {
            let sent_ms: Vec<f64> = (0..n).map(|i| (f64::from(i) - 40.0) * scale * 0.5 + lag_ms[i as usize]).collect();
            assert_eq!(lag_series_of(&sent_ms, &lag_ms, u64::from(n)).points, reference_lag_series(&sent_ms, &lag_ms), "{scale}");
        }
    }

    #[test]
    fn nearest_column_rounds_as_round_does() {
        let mut x = 0.0f64;
        for _ in 0..200_000 {
            assert_eq!(nearest_column(x), x.round() as usize, "{x}");
            x += 0.003_7;
        }
        for x in [0.0, 0.5, 1.5, 2.5, 0.499_999_999_999_999_94, 758.5, 759.0, 1.0 - f64::EPSILON / 2.0] {
            assert_eq!(nearest_column(x), x.round() as usize, "{x}");
        }
    }

    #[test]
    fn a_reduced_lag_series_keeps_each_columns_extremes_whatever_the_rows_order() {
        // 20,000 sends 5 ms apart, lags in whole ms with many ties, one stall of 900 ms.
        let n = 20_000;
        let lag_ms: Vec<f64> = (0..n).map(|i| if i == 12_345 { 900.0 } else { ((i * 7919) % 13) as f64 }).collect();
        let sent_ms: Vec<f64> = (0..n).map(|i| i as f64 * 5.0 + lag_ms[i]).collect();
        let series = lag_series_of(&sent_ms, &lag_ms, n as u64);
        assert_eq!(series.points, reference_lag_series(&sent_ms, &lag_ms));
        assert!(series.points.len() <= 2 * COLUMNS && series.points.len() > COLUMNS, "{}", series.points.len());
        assert!(series.points.contains(&(61.725, 900.0)), "the stall is kept");
        let (mut sent_r, mut lag_r) = (sent_ms.clone(), lag_ms.clone());
        sent_r.reverse();
        lag_r.reverse();
        assert_eq!(lag_series_of(&sent_r, &lag_r, n as u64).points, series.points);
    }

    /// The plain reference: sort every latency + lag and take the value at ceil(p·n/100).
    fn reference(latencies: &[f64], lags: &[f64], p: f64) -> f64 {
        let mut values: Vec<f64> = latencies.iter().zip(lags).map(|(l, g)| l + g).collect();
        values.sort_by(f64::total_cmp);
        let rank = ((p * values.len() as f64 / 100.0).ceil() as usize).max(1);
        values[rank - 1]
    }

    #[test]
    fn a_stalled_client_shows_in_the_tail_from_the_intended_send() {
        // 100 responses of 2 ms; the client stalled and sent the last 10 up to 200 ms late.
        let latencies = vec![2.0; 100];
        let lags: Vec<f64> = (0..100).map(|i| if i >= 90 { 20.0 * (i - 89) as f64 } else { 0.0 }).collect();
        let intended = percentiles(&latencies, &lags, &Percentile::STANDARD).unwrap();
        assert_eq!(intended["50"], 2.0);
        // The 95th of 100: lag 20·(95-90) = 100 ms (ranks 91-100 hold lags 20 to 200).
        assert_eq!(intended["95"], 102.0);
        assert_eq!(intended["99"], 182.0);
        let service = percentiles(&latencies, &[], &Percentile::STANDARD).unwrap();
        assert_eq!(service["99"], 2.0, "timed from the actual send, the stall is invisible");
        let gap = gap(&service, &intended, 0.05, 1.0).unwrap();
        assert_eq!((gap.key.as_str(), gap.service_ms, gap.intended_ms), ("99.9", 2.0, 202.0));
    }

    #[test]
    fn equals_the_plain_reference_on_random_lags() {
        let mut state = 11u64;
        let mut next = move || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as f64 / (1u64 << 31) as f64
        };
        for n in [1usize, 2, 19, 72, 1000] {
            let latencies: Vec<f64> = (0..n).map(|_| (next() * 1000.0).round() / 1000.0).collect();
            let lags: Vec<f64> = (0..n).map(|_| ((next() - 0.1) * 50.0).round() / 1000.0).collect();
            let intended = percentiles(&latencies, &lags, &Percentile::STANDARD).unwrap();
            for p in Percentile::STANDARD {
                assert_eq!(intended[&p.key()], precision::ms(reference(&latencies, &lags, p.value())), "n {n} p{p}");
            }
        }
    }

    #[test]
    fn no_gap_within_the_threshold_and_none_without_responses() {
        let service: SortedMap<String, f64> = [("95".to_string(), 10.0)].into_iter().collect();
        let close: SortedMap<String, f64> = [("95".to_string(), 10.4)].into_iter().collect();
        assert_eq!(gap(&service, &close, 0.05, 1.0), None);
        // 12% more, but 0.12 ms: a dispatch overhead, not a stall.
        let overhead: SortedMap<String, f64> = [("95".to_string(), 1.12)].into_iter().collect();
        let fast: SortedMap<String, f64> = [("95".to_string(), 1.0)].into_iter().collect();
        assert_eq!(gap(&fast, &overhead, 0.05, 1.0), None);
        assert!(gap(&fast, &overhead, 0.05, 0.1).is_some());
        assert!(percentiles(&[], &[], &Percentile::STANDARD).is_none());
    }

    #[test]
    fn a_long_run_keeps_each_columns_least_and_greatest_lag() {
        let n = 10_000;
        let counted = RunRequests {
            latencies_ms: vec![1.0; n],
            sent_ms: (0..n).map(|i| i as f64 + if i == 5_000 { 900.0 } else { 0.5 }).collect(),
            lag_ms: (0..n).map(|i| if i == 5_000 { 900.0 } else { 0.5 }).collect(),
            ..RunRequests::default()
        };
        let series = lag_series(&counted);
        assert!(series.points.len() <= 2 * COLUMNS, "{}", series.points.len());
        assert!(series.points.iter().any(|&(t, lag)| lag == 900.0 && t == 5.0), "the stall is kept at its scheduled time");
        assert_eq!(series.total, n as u64);
    }

    #[test]
    fn the_rows_order_does_not_change_the_thinned_lags() {
        // Equal lags everywhere: which point a column keeps must not depend on the rows' order
        // (a CSV file against a folder of Parquet parts of the same rows).
        let n = 9_000;
        let sent: Vec<f64> = (0..n).map(|i| i as f64 * 0.25 + 0.5).collect();
        let lags: Vec<f64> = (0..n).map(|i| if i % 7 == 0 { 2.0 } else { 0.5 }).collect();
        let forward = RunRequests { latencies_ms: vec![1.0; n], sent_ms: sent.clone(), lag_ms: lags.clone(), ..RunRequests::default() };
        let backward = RunRequests {
            latencies_ms: vec![1.0; n],
            sent_ms: sent.into_iter().rev().collect(),
            lag_ms: lags.into_iter().rev().collect(),
            ..RunRequests::default()
        };
        assert_eq!(lag_series(&forward).points, lag_series(&backward).points);
    }
}
