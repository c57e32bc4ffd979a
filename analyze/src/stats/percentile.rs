//! Nearest-rank percentiles of a run's values, by selection. The rank itself (ceil(p·n/100),
//! Hyndman & Fan's definition 1) is defined once, in [`crate::model::Percentile::rank`]; this
//! module finds the values at those ranks without a full sort. polars' `higher` interpolation is
//! not this rule (it picks the 20th of 20 at p95).

use crate::model::Percentile;
use serde::Serialize;

/// A percentile's value with the rank it was taken at.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RankedValue {
    pub value: f64,
    /// 1-based rank in the ascending order.
    pub rank: u64,
    /// How many values were ranked.
    pub n: u64,
}

/// Values that are finite and not NaN, the precondition of ranking. Built only by validated
/// ingest (latencies are checked finite and non-negative there).
pub struct Sample<'a> {
    values: &'a mut [f64],
}

impl<'a> Sample<'a> {
    /// `None` when empty or when a value is not finite.
    pub fn new(values: &'a mut [f64]) -> Option<Sample<'a>> {
        (!values.is_empty() && values.iter().all(|v| v.is_finite())).then_some(Sample { values })
    }

    pub fn len(&self) -> u64 {
        self.values.len() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The value at a 1-based rank (1..=len), by selection. The slice is reordered.
    pub fn at_rank(&mut self, rank: u64) -> f64 {
        assert!(rank >= 1 && rank <= self.len(), "rank {rank} outside 1..={}", self.len());
        let (_, nth, _) = self.values.select_nth_unstable_by((rank - 1) as usize, f64::total_cmp);
        *nth
    }

    /// Every requested percentile, by selection (O(n) each, no full sort). The slice is
    /// reordered. Results come back in the order of `percentiles`.
    pub fn percentiles(&mut self, percentiles: &[Percentile]) -> Vec<RankedValue> {
        let n = self.len();
        let mut order: Vec<(u64, usize)> = percentiles.iter().enumerate().map(|(i, p)| (p.rank(n), i)).collect();
        order.sort_unstable();
        // Latencies are never negative, and for values whose sign bit is clear the bits order
        // them as `total_cmp` does; comparing the bits saved a quarter of the selection's time
        // (333,333 values, 5 ranks: 1.2-1.5 ms against 1.6-1.9 ms). -0.0 has its sign bit set,
        // so a sample holding one is ranked by `total_cmp`, which puts it below 0.0.
        if self.values.iter().all(|v| v.is_sign_positive()) {
            select_ascending(self.values, &order, n, percentiles.len(), |a, b| a.to_bits().cmp(&b.to_bits()))
        } else {
            select_ascending(self.values, &order, n, percentiles.len(), f64::total_cmp)
        }
    }
}

/// The values at `order`'s ranks (ascending, each with its slot in the result), by selection.
fn select_ascending(
    values: &mut [f64],
    order: &[(u64, usize)],
    n: u64,
    slots: usize,
    compare: impl Fn(&f64, &f64) -> std::cmp::Ordering + Copy,
) -> Vec<RankedValue> {
    let mut results = vec![RankedValue { value: 0.0, rank: 0, n }; slots];
    // Each selection leaves everything after the selected index >= it, so the next (higher)
    // rank is searched in that tail only.
    let mut floor = 0usize;
    let mut last: Option<(u64, f64)> = None;
    for &(rank, slot) in order {
        let value = match last {
            Some((r, v)) if r == rank => v,
            _ => {
                let index = (rank - 1) as usize;
                let tail = &mut values[floor..];
                let (_, nth, _) = tail.select_nth_unstable_by(index - floor, compare);
                let value = *nth;
                floor = index + 1;
                value
            }
        };
        last = Some((rank, value));
        results[slot] = RankedValue { value, rank, n };
    }
    results
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn rank_vectors_match_the_definition() {
        // (n, p50, p95, p99, p99.9), worked by hand: ceil(p·n/100).
        let cases: [(u64, [u64; 4]); 9] = [
            (1, [1, 1, 1, 1]),
            (2, [1, 2, 2, 2]),
            (19, [10, 19, 19, 19]),
            (20, [10, 19, 20, 20]),
            (21, [11, 20, 21, 21]),
            (72, [36, 69, 72, 72]),
            (100, [50, 95, 99, 100]),
            (1000, [500, 950, 990, 999]),
            (2000, [1000, 1900, 1980, 1998]),
        ];
        for (n, expected) in cases {
            let got = [Percentile::P50, Percentile::P95, Percentile::P99, Percentile::P99_9].map(|p| p.rank(n));
            assert_eq!(got, expected, "n = {n}");
        }
    }

    #[test]
    fn p95_of_72_values_is_the_69th() {
        let mut values: Vec<f64> = (1..=72).rev().map(f64::from).collect();
        let mut sample = Sample::new(&mut values).unwrap();
        let result = sample.percentiles(&[Percentile::P95]);
        assert_eq!(result[0], RankedValue { value: 69.0, rank: 69, n: 72 });
    }

    #[test]
    fn p95_of_20_values_is_the_19th_not_the_20th() {
        let mut values: Vec<f64> = (1..=20).map(f64::from).collect();
        let result = Sample::new(&mut values).unwrap().percentiles(&[Percentile::P95]);
        assert_eq!(result[0].value, 19.0);
    }

    #[test]
    fn p99_9_of_1000_is_the_999th() {
        assert_eq!(Percentile::new(99.9).unwrap().rank(1000), 999);
    }

    #[test]
    fn empty_or_non_finite_samples_are_refused() {
        assert!(Sample::new(&mut []).is_none());
        assert!(Sample::new(&mut [1.0, f64::NAN]).is_none());
    }

    /// The plain reference: sort, then index.
    fn reference(values: &[f64], p: Percentile) -> f64 {
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        let rank = (p.value() * sorted.len() as f64 / 100.0).ceil().max(1.0) as usize;
        sorted[rank - 1]
    }

    proptest! {
        #[test]
        fn selection_agrees_with_a_plain_sort(values in proptest::collection::vec(0.0f64..1e6, 1..500)) {
            // p values whose float rank is exact for these n, so the plain reference is right.
            let ps = [Percentile::P50, Percentile::P90, Percentile::P95, Percentile::P99];
            let mut copy = values.clone();
            let got = Sample::new(&mut copy).unwrap().percentiles(&ps);
            for (p, result) in ps.iter().zip(got) {
                prop_assert_eq!(result.value, reference(&values, *p));
            }
        }

        #[test]
        fn selection_agrees_with_a_plain_sort_across_zero_and_sign(
            values in proptest::collection::vec(prop_oneof![Just(0.0f64), Just(-0.0f64), -5.0f64..5.0, 0.0f64..1e6], 1..300),
        ) {
            // A -0.0 or a negative value takes `total_cmp`'s order (-0.0 below 0.0); without them
            // the bits decide: both must give the sort's value, bit for bit.
            let ps = [Percentile::P50, Percentile::P90, Percentile::P95, Percentile::P99];
            let mut copy = values.clone();
            let got = Sample::new(&mut copy).unwrap().percentiles(&ps);
            for (p, result) in ps.iter().zip(got) {
                prop_assert_eq!(result.value.to_bits(), reference(&values, *p).to_bits());
            }
        }

        #[test]
        fn rank_is_the_smallest_covering_p_percent(n in 1u64..1_000_000, thousandths in 1u32..100_000) {
            let p = Percentile::new(f64::from(thousandths) / 1000.0).unwrap();
            let rank = p.rank(n);
            // rank/n >= p/100, and (rank-1)/n < p/100 unless rank is 1: exactly, in integers.
            prop_assert!(u128::from(rank) * 100_000 >= u128::from(thousandths) * u128::from(n));
            prop_assert!(rank == 1 || u128::from(rank - 1) * 100_000 < u128::from(thousandths) * u128::from(n));
        }
    }
}
