//! The permutation p of a difference between two sets of run values: the distribution-free check
//! beside Welch's p, which assumes log-normal run-to-run variation.
//!
//! The statistic is the absolute difference of the mean logs, |mean(ln b) - mean(ln a)|; under no
//! difference every relabelling of the n + m runs into groups of n and m is as likely. The
//! two-sided p is the share of relabellings whose statistic is at least the observed one (the
//! observed labelling counts). Up to [`EXACT_LIMIT`] relabellings all are enumerated; beyond,
//! [`SAMPLED`] are drawn with a fixed seed (so the same runs give the same p) and p is
//! (1 + at least as large) / (1 + drawn). With n + m runs the smallest p there can be is
//! 2 / C(n + m, n) when no two values tie: 0.10 at 3 runs a side, so a "p < 0.05" from Welch's
//! test at 3 against 3 rests on its assumption, never on the labels alone.

use serde::Serialize;

/// The most relabellings enumerated; C(14, 7) = 3,432 and C(16, 8) = 12,870 are.
pub const EXACT_LIMIT: u64 = 20_000;
/// How many relabellings are drawn beyond the limit.
pub const SAMPLED: u64 = 9_999;

/// The permutation test of two groups of run values.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Permutation {
    /// Two-sided p.
    pub p: f64,
    /// C(n + m, n): every way to relabel the runs.
    pub relabellings: u64,
    /// The smallest p these group sizes allow: 2 / C(n + m, n) when n = m (the labelling that
    /// swaps the groups is always as extreme as the observed one), else 1 / C(n + m, n).
    pub smallest_p: f64,
    /// Whether every relabelling was enumerated (else [`SAMPLED`] were drawn).
    pub exact: bool,
}

/// The permutation test of `a` against `b`; `None` when a side has fewer than 2 runs or a value is
/// not positive (no logarithm).
pub fn permutation_p(a: &[f64], b: &[f64]) -> Option<Permutation> {
    if a.len() < 2 || b.len() < 2 || a.iter().chain(b).any(|&v| v.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater)) {
        return None;
    }
    let logs: Vec<f64> = a.iter().chain(b).map(|v| v.ln()).collect();
    let (n, m) = (a.len(), b.len());
    let total: f64 = logs.iter().sum();
    let statistic = |sum_a: f64| (sum_a / n as f64 - (total - sum_a) / m as f64).abs();
    let observed = statistic(logs[..n].iter().sum());
    // A relabelling ties the observed one when equal up to the sums' rounding.
    let tolerance = 1e-12 * (1.0 + observed.abs() + logs.iter().map(|l| l.abs()).fold(0.0, f64::max));
    let at_least = |s: f64| s >= observed - tolerance;
    let relabellings = choose(n + m, n);
    let smallest_p = (if n == m { 2.0 } else { 1.0 } / relabellings as f64).min(1.0);
    if relabellings <= EXACT_LIMIT {
        let mut count = 0u64;
        for_each_subset_sum(&logs, n, &mut |sum| count += u64::from(at_least(statistic(sum))));
        return Some(Permutation { p: count as f64 / relabellings as f64, relabellings, smallest_p, exact: true });
    }
    let mut rng = super::random::SplitMix64(0x5EED_2026_1204 ^ ((n as u64) << 32) ^ m as u64);
    let mut order: Vec<usize> = (0..n + m).collect();
    let mut count = 0u64;
    for _ in 0..SAMPLED {
        // A partial Fisher-Yates shuffle: the first n places are a uniform n-subset.
        for i in 0..n {
            let j = i + rng.below((n + m - i) as u64) as usize;
            order.swap(i, j);
        }
        count += u64::from(at_least(statistic(order[..n].iter().map(|&i| logs[i]).sum())));
    }
    Some(Permutation { p: (1 + count) as f64 / (1 + SAMPLED) as f64, relabellings, smallest_p, exact: false })
}

/// The most rounds whose 2^k sign flips [`paired_permutation_p`] enumerates; beyond, [`SAMPLED`]
/// flips are drawn with a fixed seed.
pub const PAIRED_EXACT_ROUNDS: usize = 20;

/// The exact sign-flip permutation p of paired rounds: under no difference, swapping the two
/// labels within a round flips the sign of its difference `diffs[i]` (ln b - ln a), and every
/// one of the 2^k flips is as likely. The statistic is |Σ d|; p is the share of flips at least
/// as extreme, the observed one counted, so it cannot go below 2/2^k (the observed signs and
/// their mirror): 0.0625 at 5 rounds, 0.03125 at 6. Beyond [`PAIRED_EXACT_ROUNDS`] rounds,
/// (1 + at least as large) / (1 + [`SAMPLED`]) over a seeded draw. 1 for no rounds.
pub fn paired_permutation_p(diffs: &[f64]) -> f64 {
    let k = diffs.len();
    if k == 0 {
        return 1.0;
    }
    let observed = diffs.iter().sum::<f64>().abs();
    let tolerance = 1e-12 * (1.0 + diffs.iter().map(|d| d.abs()).sum::<f64>());
    let extreme = |flips: &mut dyn FnMut(usize) -> bool| {
        let sum: f64 = diffs.iter().enumerate().map(|(i, d)| if flips(i) { -d } else { *d }).sum();
        sum.abs() >= observed - tolerance
    };
    if k <= PAIRED_EXACT_ROUNDS {
        let total = 1u64 << k;
        let count = (0..total).filter(|&mask| extreme(&mut |i| mask & (1 << i) != 0)).count();
        return count as f64 / total as f64;
    }
    let mut rng = super::random::SplitMix64(0x5EED_2026_1207 ^ k as u64);
    let mut count = 0u64;
    for _ in 0..SAMPLED {
        let mut bits = rng.next_u64();
        let mut flips = |i: usize| {
            if i % 64 == 0 && i > 0 {
                bits = rng.next_u64();
            }
            (bits >> (i % 64)) & 1 == 1
        };
        count += u64::from(extreme(&mut flips));
    }
    (1 + count) as f64 / (1 + SAMPLED) as f64
}

/// C(n, k), saturating at u64::MAX.
fn choose(n: usize, k: usize) -> u64 {
    let k = k.min(n - k);
    let mut c: u64 = 1;
    for i in 0..k {
        // c·(n - i) / (i + 1) stays whole at every step.
        c = match c.checked_mul((n - i) as u64) {
            Some(product) => product / (i as u64 + 1),
            None => return u64::MAX,
        };
    }
    c
}

/// Calls `visit` with the sum of every subset of `k` of `values`.
fn for_each_subset_sum(values: &[f64], k: usize, visit: &mut dyn FnMut(f64)) {
    fn walk(values: &[f64], k: usize, start: usize, sum: f64, visit: &mut dyn FnMut(f64)) {
        if k == 0 {
            visit(sum);
            return;
        }
        for i in start..=values.len() - k {
            walk(values, k - 1, i + 1, sum + values[i], visit);
        }
    }
    walk(values, k, 0, 0.0, visit);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain reference: every relabelling as a bit mask.
    fn reference(a: &[f64], b: &[f64]) -> f64 {
        let all: Vec<f64> = a.iter().chain(b).map(|v| v.ln()).collect();
        let n = a.len();
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        let observed = (mean(&all[..n]) - mean(&all[n..])).abs();
        let (mut count, mut total) = (0, 0);
        for mask in 0u32..(1 << all.len()) {
            if mask.count_ones() as usize != n {
                continue;
            }
            let x: Vec<f64> = (0..all.len()).filter(|i| mask & (1 << i) != 0).map(|i| all[i]).collect();
            let y: Vec<f64> = (0..all.len()).filter(|i| mask & (1 << i) == 0).map(|i| all[i]).collect();
            total += 1;
            if (mean(&x) - mean(&y)).abs() >= observed - 1e-12 {
                count += 1;
            }
        }
        count as f64 / total as f64
    }

    #[test]
    fn three_runs_a_side_have_20_relabellings_and_a_smallest_p_of_a_tenth() {
        // Wholly apart: only the observed labelling and its mirror are as extreme.
        let p = permutation_p(&[10.0, 11.0, 12.0], &[20.0, 21.0, 22.0]).unwrap();
        assert_eq!((p.relabellings, p.exact), (20, true));
        assert!((p.p - 0.1).abs() < 1e-12 && (p.smallest_p - 0.1).abs() < 1e-12, "{p:?}");
        // Interleaved: most relabellings are as extreme.
        let p = permutation_p(&[10.0, 12.0, 14.0], &[11.0, 13.0, 15.0]).unwrap();
        assert!(p.p > 0.5, "{p:?}");
    }

    #[test]
    fn agrees_with_the_bitmask_reference() {
        let cases: [(&[f64], &[f64]); 4] = [
            (&[1.0, 2.0, 3.0], &[2.5, 3.5, 4.5, 5.0]),
            (&[5.0, 5.0, 6.0], &[5.0, 6.0, 6.0]),
            (&[100.0, 130.0], &[90.0, 95.0, 99.0, 150.0, 160.0]),
            (&[1.1, 1.2, 1.3, 1.4, 1.5, 1.6], &[1.25, 1.35, 1.45, 1.55, 1.65, 1.75]),
        ];
        for (a, b) in cases {
            let ours = permutation_p(a, b).unwrap();
            assert!((ours.p - reference(a, b)).abs() < 1e-12, "{a:?} {b:?}: {ours:?}");
        }
    }

    #[test]
    fn large_groups_are_sampled_with_a_fixed_seed() {
        let a: Vec<f64> = (0..12).map(|i| 100.0 + i as f64).collect();
        let b: Vec<f64> = (0..12).map(|i| 103.0 + i as f64).collect();
        let p = permutation_p(&a, &b).unwrap();
        assert!(!p.exact && p.relabellings == 2_704_156);
        assert_eq!(permutation_p(&a, &b), Some(p), "the same runs give the same p");
        // Means 3 apart at a spread of 3.6: Welch's t is 2.04 on 22 degrees of freedom, p 0.053.
        assert!(p.p > 0.03 && p.p < 0.09, "{p:?}");
    }

    #[test]
    fn paired_sign_flips_by_hand() {
        // Three rounds, all differences positive and distinct: of the 8 flips only the observed
        // signs and their mirror reach |Σd| = 0.6, so p = 2/8.
        assert!((paired_permutation_p(&[0.1, 0.2, 0.3]) - 0.25).abs() < 1e-12);
        // 0.3, -0.1, 0.1: |Σ| = 0.3; flips of (±0.3, ±0.1, ±0.1) with |Σ| ≥ 0.3: the ±0.1 pair
        // cancelling or adding (0.3+0.1-0.1, 0.3-0.1+0.1, 0.3+0.1+0.1, 0.3-0.1-0.1 = 0.1 no)
        // gives 3 of 4 for each sign of 0.3: p = 6/8.
        assert!((paired_permutation_p(&[0.3, -0.1, 0.1]) - 0.75).abs() < 1e-12);
        // The floor 2/2^k at 6 rounds.
        assert!((paired_permutation_p(&[0.1, 0.11, 0.12, 0.13, 0.14, 0.15]) - 2.0 / 64.0).abs() < 1e-12);
        // Against a plain reference on a few cases.
        for diffs in [vec![0.05, -0.02, 0.07, 0.01], vec![-0.3, 0.2, 0.1, 0.4, -0.05], vec![0.0, 0.0, 0.1]] {
            let k = diffs.len();
            let observed = diffs.iter().sum::<f64>().abs();
            let count = (0..1u32 << k)
                .filter(|mask| {
                    let s: f64 = (0..k).map(|i| if mask & (1 << i) != 0 { -diffs[i] } else { diffs[i] }).sum();
                    s.abs() >= observed - 1e-12
                })
                .count();
            assert!((paired_permutation_p(&diffs) - count as f64 / (1u32 << k) as f64).abs() < 1e-12, "{diffs:?}");
        }
        // Sampled beyond 20 rounds, the same p each time; a clear shift gives the floor of the draw.
        let many: Vec<f64> = (0..24).map(|i| 0.1 + 0.001 * i as f64).collect();
        assert_eq!(paired_permutation_p(&many), paired_permutation_p(&many));
        assert!((paired_permutation_p(&many) - 1.0 / (1 + SAMPLED) as f64).abs() < 1e-12);
    }

    #[test]
    fn no_test_without_two_runs_a_side_or_a_logarithm() {
        assert_eq!(permutation_p(&[1.0], &[2.0, 3.0]), None);
        assert_eq!(permutation_p(&[0.0, 1.0], &[2.0, 3.0]), None);
        assert_eq!(choose(6, 3), 20);
        assert_eq!(choose(200, 100), u64::MAX);
    }
}
