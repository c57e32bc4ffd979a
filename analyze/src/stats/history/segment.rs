//! Binary segmentation of a family of series (one per condition): the strongest split of each
//! series scored by the pooled t of its two sides, tested by shuffling the series' values
//! (whole measurements), Benjamini-Hochberg over the first tests, and further splits of the
//! series that pass at the threshold the first tests' rule gave.
//!
//! The cost grows about linearly with the series: every first test draws
//! [`MIN_PERMUTATIONS`] shuffles at most (fewer once [`SEQUENTIAL_STOP`] were as strong), and
//! only a test the false-discovery rule did not pass, yet whose p is within the rule's reach, draws
//! on up to the `full` count the family's first threshold needs (the same seed, so its first
//! shuffles are the same). When every condition changed, each passes on its first shuffles;
//! before, each drew the full count, `5 · conditions / q`, and the whole history grew with the
//! square of the conditions (docs/performance.md).

use super::null::NormalNull;
use super::split::best_of;
pub use super::split::MIN_SEGMENT;
use super::FALSE_FINDINGS_PER_CONDITION;
use crate::stats::difference;

/// The most changes reported for one condition.
pub const MAX_CHANGES: usize = 8;
/// The shuffles every first test draws; more only where the false-discovery rule needs a finer
/// p (`permutations_for`).
pub const MIN_PERMUTATIONS: u64 = 1999;
/// Shuffles as strong as the observed split after which a test stops early (Besag and Clifford's
/// sequential p, 1991): an unchanged condition reaches them within a few dozen shuffles, so only a
/// changed one pays for all of them.
pub const SEQUENTIAL_STOP: u64 = 20;

/// What a family's tests found, per series.
#[derive(Debug, Clone, Default)]
pub struct Found {
    /// The p of the first test (`None` without room for a split).
    pub first: Vec<Option<f64>>,
    /// The splits found (places in the series) with their p, in order of place.
    pub splits: Vec<Vec<(usize, f64)>>,
    /// The threshold every test of the family was held to: Benjamini-Hochberg's cut-off, R·q/m
    /// for R of m first tests passing (q/m when none passed), and never above
    /// [`FALSE_FINDINGS_PER_CONDITION`].
    pub threshold: f64,
}

/// What a split's score is referred to.
pub enum Null<'a> {
    /// Measurement means: shuffled where the shuffles' floor lies at a fifth of the first
    /// threshold or below ([`shuffles_reach`]: they adapt to the values, and gain power where a
    /// step makes them far from normal), else the strongest split of as many independent normal
    /// means ([`NormalNull`]), with no floor on p but the draws'.
    Normal(&'a mut NormalNull),
    /// Shuffles of the series' own values (whole measurements): for shares of failed requests,
    /// whose many zeros no normal distribution describes.
    Shuffle,
}

/// Tests every series of `family` (its values and seed) at false discovery rate `q`, the first
/// tests drawing up to `full` shuffles where the rule needs them (with [`Null::Shuffle`]).
pub fn family(family: &[(Vec<f64>, u64)], q: f64, full: u64, mut null: Null) -> Found {
    let scored: Vec<Option<(usize, f64)>> = family.iter().map(|(v, _)| strongest_split(v, 0, v.len())).collect();
    let tested = family.iter().filter(|(v, _)| v.len() >= 2 * MIN_SEGMENT).count().max(1);
    // Shuffles, which adapt to the values a history holds, where their floor lies at a fifth of
    // the first threshold or below; simulated normal means where it does not.
    let first_threshold = (q / tested as f64).min(FALSE_FINDINGS_PER_CONDITION);
    let mut test = |values: &[f64], lo: usize, hi: usize, t: f64, draws: u64, seed: u64| -> f64 {
        match &mut null {
            Null::Normal(null) if !shuffles_reach(hi - lo, first_threshold) => null.p(hi - lo, t),
            _ => permutation_p(values, lo, hi, t, draws, seed),
        }
    };
    let mut first: Vec<Option<f64>> = family
        .iter()
        .zip(&scored)
        .map(|((v, seed), s)| s.map(|(_, t)| test(v, 0, v.len(), t, MIN_PERMUTATIONS.min(full), *seed)))
        .collect();
    // Benjamini-Hochberg's cut-off, R·q/m, held to the false findings a series may give.
    let cut_off = |passes: &[bool]| -> f64 {
        let passed = passes.iter().filter(|p| **p).count().max(1);
        (passed as f64 * q / tested as f64).min(FALSE_FINDINGS_PER_CONDITION)
    };
    let passed = |first: &[Option<f64>]| -> Vec<bool> {
        let tested: Vec<usize> = (0..first.len()).filter(|&i| first[i].is_some()).collect();
        let p: Vec<f64> = tested.iter().filter_map(|&i| first[i]).collect();
        let mut out = vec![false; first.len()];
        for (&i, pass) in tested.iter().zip(difference::benjamini_hochberg(&p, q)) {
            out[i] = pass;
        }
        out
    };
    let mut passes = passed(&first);
    if full > MIN_PERMUTATIONS {
        let mut refined = false;
        for i in 0..family.len() {
            let (Some(p), Some((_, t))) = (first[i], scored[i]) else { continue };
            if !passes[i] && p <= q {
                let (v, seed) = &family[i];
                first[i] = Some(test(v, 0, v.len(), t, full, *seed));
                refined = true;
            }
        }
        if refined {
            passes = passed(&first);
        }
    }
    // Every further split is held to the cut-off the first tests' rule gave; shuffles are drawn
    // to reach a fifth of it.
    let threshold = cut_off(&passes);
    for (pass, p) in passes.iter_mut().zip(&first) {
        *pass = *pass && p.is_some_and(|p| p <= threshold);
    }
    let later = ((5.0 / threshold).ceil() as u64).clamp(MIN_PERMUTATIONS.min(full), full.max(MIN_PERMUTATIONS.min(full)));
    let splits = (0..family.len())
        .map(|i| {
            let (Some(p), Some((k, _)), true) = (first[i], scored[i], passes[i]) else { return Vec::new() };
            let (mu, seed) = (&family[i].0, family[i].1);
            let mut splits = vec![(k, p)];
            let mut pending = vec![(0, k), (k, mu.len())];
            while let Some((lo, hi)) = pending.pop() {
                if splits.len() >= MAX_CHANGES {
                    break;
                }
                let Some((k, t)) = strongest_split(mu, lo, hi) else { continue };
                let p = test(mu, lo, hi, t, later, seed ^ ((lo as u64) << 20) ^ hi as u64);
                if p <= threshold {
                    splits.push((k, p));
                    pending.extend([(lo, k), (k, hi)]);
                }
            }
            splits.sort_by_key(|&(k, _)| k);
            splits
        })
        .collect();
    Found { first, splits, threshold }
}

/// Whether shuffling `n` whole measurements can give a p of a fifth of `alpha`: the perfect step
/// and its mirror, 2 / C(n, n/2), at most `alpha` / 5 (14 measurements at 0.5%, 13 at 1%).
pub fn shuffles_reach(n: usize, alpha: f64) -> bool {
    let half = n / 2;
    let mut arrangements = 1.0f64;
    for i in 0..half {
        arrangements = arrangements * (n - i) as f64 / (i + 1) as f64;
    }
    2.0 / arrangements <= alpha / 5.0
}

/// The strongest split of `mu[lo..hi]` with [`MIN_SEGMENT`] on each side: its place (the first
/// index after it) and score; `None` without room for one.
pub fn strongest_split(mu: &[f64], lo: usize, hi: usize) -> Option<(usize, f64)> {
    best_of(&mu[lo..hi]).map(|(k, t)| (lo + k, t))
}

/// The permutation p of the strongest split of `mu[lo..hi]` scoring `observed`: the share of up to
/// `permutations` shuffles at least as strong, (1 + as strong) / (1 + shuffles); or, once
/// [`SEQUENTIAL_STOP`] shuffles were as strong, that many over the shuffles drawn.
pub fn permutation_p(mu: &[f64], lo: usize, hi: usize, observed: f64, permutations: u64, seed: u64) -> f64 {
    let mut values = mu[lo..hi].to_vec();
    let mut rng = crate::stats::random::SplitMix64(seed);
    let tolerance = 1e-9 * observed.abs().min(1e300);
    let mut as_strong = 0u64;
    for drawn in 1..=permutations {
        for i in (1..values.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            values.swap(i, j);
        }
        if best_of(&values).is_some_and(|(_, t)| t >= observed - tolerance) {
            as_strong += 1;
            if as_strong == SEQUENTIAL_STOP {
                return as_strong as f64 / drawn as f64;
            }
        }
    }
    (1 + as_strong) as f64 / (1 + permutations) as f64
}

/// A seed from a condition's id (FNV-1a), so each condition's permutations are its own and
/// repeatable.
pub fn seed(id: &str) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}
