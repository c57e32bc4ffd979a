//! The values a sort would put at many given ranks, found by counting instead of comparing, and
//! without reordering the values: the ECDF's ranks.
//!
//! The ECDF draws the value at about 1,000 evenly spaced ranks and at every rank of its tail
//! (bench/PROFILE.md). Selection found them in about log2(1000) partitions of the run's
//! latencies, the largest cost of `report` after decompression. Here each value becomes its
//! order key (an integer in [`f64::total_cmp`]'s order), one pass finds the keys' range, a second
//! counts the keys in equal-width buckets of that range (at most 2^16 counters, which stay in the
//! cache), which tells each rank's bucket and its place inside it, and a third copies out only
//! the keys of the buckets that hold a wanted rank. Those few are sorted, or, when one is large
//! (values crowded in a narrow range), counted again the same way inside its own range. The
//! answer is the sort's, bit for bit: equal keys are equal bits. For a handful of ranks (the
//! percentiles) the three passes cost about what selection does, so those stay with selection
//! ([`super::percentile`]).

/// Up to this many values are sorted outright: counting them would cost more than it saves.
const SORT_AT_MOST: usize = 4096;
/// At most 2^16 buckets: 256 KiB of counters.
const MAX_BUCKET_BITS: u32 = 16;

/// A value with an order key: an unsigned integer in the value's order, equal exactly when the
/// values are equal bit for bit.
trait OrderKey: Copy {
    fn order_key(self) -> u64;
}

impl OrderKey for f64 {
    /// [`f64::total_cmp`]'s order: -0.0 below 0.0, as there.
    #[inline(always)]
    fn order_key(self) -> u64 {
        let bits = self.to_bits();
        // A negative value has every bit flipped (larger magnitude, smaller key); any other has
        // its sign bit set, so it sorts above every negative one.
        bits ^ ((((bits as i64) >> 63) as u64) | (1 << 63))
    }
}

impl OrderKey for u64 {
    #[inline(always)]
    fn order_key(self) -> u64 {
        self
    }
}

#[inline]
fn from_order_key(key: u64) -> f64 {
    f64::from_bits(if key >> 63 == 1 { key ^ (1 << 63) } else { !key })
}

/// The values a sort by [`f64::total_cmp`] would put at each 1-based rank of `ranks` (in any
/// order, each in 1..=`values.len()`), in the order of `ranks`. `values` are read, not moved.
pub fn values_at_ranks(values: &[f64], ranks: &[u64]) -> Vec<f64> {
    let n = values.len() as u64;
    assert!(ranks.iter().all(|&r| (1..=n).contains(&r)), "a rank outside 1..={n}");
    let mut order: Vec<(u64, usize)> = ranks.iter().enumerate().map(|(at, &rank)| (rank, at)).collect();
    order.sort_unstable();
    let mut sorted_ranks: Vec<u64> = order.iter().map(|&(rank, _)| rank).collect();
    sorted_ranks.dedup();
    let keys = keys_at_ranks(values, &sorted_ranks);
    let mut out = vec![0.0; ranks.len()];
    let mut next = 0;
    for (rank, at) in order {
        while sorted_ranks[next] != rank {
            next += 1;
        }
        out[at] = from_order_key(keys[next]);
    }
    out
}

/// The keys at `ranks` (ascending, distinct, each in 1..=len) of `items`' keys sorted.
fn keys_at_ranks<T: OrderKey>(items: &[T], ranks: &[u64]) -> Vec<u64> {
    if ranks.is_empty() {
        return Vec::new();
    }
    // The counters are u32: a slice longer than that is sorted (no run of requests is).
    if items.len() <= SORT_AT_MOST || items.len() > u32::MAX as usize {
        let mut keys: Vec<u64> = items.iter().map(|&item| item.order_key()).collect();
        keys.sort_unstable();
        return ranks.iter().map(|&rank| keys[(rank - 1) as usize]).collect();
    }
    let (low, high) = items.iter().fold((u64::MAX, 0), |(low, high), &item| {
        let k = item.order_key();
        (low.min(k), high.max(k))
    });
    if low == high {
        return vec![low; ranks.len()];
    }
    // About a bucket for every four items, at most 2^16; the range's width decides the shift.
    let span = high - low;
    let bucket_bits = (usize::BITS - items.len().leading_zeros()).saturating_sub(2).clamp(1, MAX_BUCKET_BITS);
    let shift = (u64::BITS - span.leading_zeros()).saturating_sub(bucket_bits);
    let bucket = move |k: u64| ((k - low) >> shift) as usize;
    let mut counts = vec![0u32; bucket(high) + 1];
    for &item in items {
        counts[bucket(item.order_key())] += 1;
    }
    // The buckets holding a wanted rank, each with how many keys come before it.
    let mut wanted: Vec<(usize, u64)> = Vec::new();
    let (mut at, mut before) = (0usize, 0u64);
    for &rank in ranks {
        while before + u64::from(counts[at]) < rank {
            before += u64::from(counts[at]);
            at += 1;
        }
        if wanted.last().map(|&(b, _)| b) != Some(at) {
            wanted.push((at, before));
        }
    }
    // Each wanted bucket's keys copied out side by side; `counts` becomes the table from bucket
    // to its place in `wanted` (NOT_WANTED for the others).
    const NOT_WANTED: u32 = u32::MAX;
    let mut starts = Vec::with_capacity(wanted.len() + 1);
    let mut total = 0usize;
    for &(b, _) in &wanted {
        starts.push(total);
        total += counts[b] as usize;
    }
    starts.push(total);
    counts.fill(NOT_WANTED);
    for (slot, &(b, _)) in wanted.iter().enumerate() {
        counts[b] = slot as u32;
    }
    let mut fill = starts.clone();
    let mut gathered = vec![0u64; total];
    for &item in items {
        let k = item.order_key();
        let slot = counts[bucket(k)];
        if slot != NOT_WANTED {
            gathered[fill[slot as usize]] = k;
            fill[slot as usize] += 1;
        }
    }
    // Each bucket's ranks, found inside it: its keys are fewer than the slice's, since the
    // smallest and the largest key are in different buckets.
    let mut out = Vec::with_capacity(ranks.len());
    let mut next = 0;
    for (slot, &(_, before)) in wanted.iter().enumerate() {
        let inside = &gathered[starts[slot]..starts[slot + 1]];
        let end = next + ranks[next..].iter().take_while(|&&rank| rank <= before + inside.len() as u64).count();
        let local: Vec<u64> = ranks[next..end].iter().map(|&rank| rank - before).collect();
        out.extend(keys_at_ranks(inside, &local));
        next = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The plain reference: sort a copy, then index.
    fn sorted_at(values: &[f64], ranks: &[u64]) -> Vec<u64> {
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        ranks.iter().map(|&r| sorted[(r - 1) as usize].to_bits()).collect()
    }

    fn bits(values: &[f64]) -> Vec<u64> {
        values.iter().map(|v| v.to_bits()).collect()
    }

    #[test]
    fn order_keys_sort_as_total_cmp_does() {
        let values = [f64::NEG_INFINITY, -1e300, -1.0, -f64::MIN_POSITIVE, -0.0, 0.0, 5e-324, 1.0, 2.5, 1e300, f64::INFINITY];
        for pair in values.windows(2) {
            assert!(pair[0].order_key() < pair[1].order_key(), "{} < {}", pair[0], pair[1]);
        }
        for v in values {
            assert_eq!(from_order_key(v.order_key()).to_bits(), v.to_bits());
        }
    }

    #[test]
    fn the_ranks_of_a_shuffled_range_are_its_values() {
        // 1..=100,000 in a scrambled order: the value at rank r is r.
        let n = 100_000u64;
        let values: Vec<f64> = (0..n).map(|i| ((i * 7919) % n + 1) as f64).collect();
        let ranks = [1, 2, 50_000, 95_000, 99_000, 99_999, 100_000];
        assert_eq!(values_at_ranks(&values, &ranks), ranks.map(|r| r as f64).to_vec());
        // Ranks in any order, repeated, come back in that order.
        assert_eq!(values_at_ranks(&values, &[7, 3, 7]), vec![7.0, 3.0, 7.0]);
        assert!(values_at_ranks(&values, &[]).is_empty());
    }

    #[test]
    fn crowded_tied_and_signed_values_give_the_sort_s_bits() {
        let n = 50_000usize;
        // Most values in a sliver of the range, a far outlier each way, both zeros, many ties.
        let mut values: Vec<f64> = (0..n).map(|i| 1.0 + ((i * 31) % 977) as f64 * 1e-12).collect();
        values[7] = 1e300;
        values[8] = -1e300;
        values[9] = 0.0;
        values[10] = -0.0;
        values.extend(std::iter::repeat_n(3.0, 20_000));
        let ranks: Vec<u64> = (1..=values.len() as u64).step_by(97).chain([values.len() as u64]).collect();
        assert_eq!(bits(&values_at_ranks(&values, &ranks)), sorted_at(&values, &ranks));
        let same = vec![2.0; 10_000];
        assert_eq!(values_at_ranks(&same, &[1, 5_000, 10_000]), vec![2.0; 3]);
    }

    proptest! {
        #[test]
        fn every_rank_is_the_plain_sort_s(
            values in proptest::collection::vec(prop_oneof![
                0.0f64..1e4,
                (0u32..50).prop_map(f64::from),
                Just(-0.0),
                proptest::num::f64::NORMAL | proptest::num::f64::SUBNORMAL | proptest::num::f64::ZERO,
            ], 1..20_000),
            picks in proptest::collection::vec(any::<u64>(), 1..40),
        ) {
            let n = values.len() as u64;
            let ranks: Vec<u64> = picks.iter().map(|p| p % n + 1).chain([1, n]).collect();
            prop_assert_eq!(bits(&values_at_ranks(&values, &ranks)), sorted_at(&values, &ranks));
        }
    }
}
