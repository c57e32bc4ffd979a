//! What the strongest split of a series of measurement means is worth when nothing changed, by
//! simulation: the p of a split, the score a split must reach at a given threshold, the step a
//! series would find 90% of the time, and a found change's ratio and interval corrected for the
//! split having been chosen because it was strong.
//!
//! Under no change, a condition's measurement means (each the mean of its runs' logs, its sitting's
//! shift included) are taken as independent draws of one normal distribution. The strongest split's
//! pooled t ([`super::segment`]) does not depend on that distribution's centre or spread, so its
//! distribution depends only on the number of measurements: it is simulated once per count, with a
//! seed taken from the count, and sorted ([`NormalNull`]). A p is then the share of simulated
//! scores at least as strong, (1 + as strong) / (1 + draws): unlike shuffling whole measurements,
//! whose smallest p is 2 / C(n, n/2) (1/35 at 8 measurements), it has no floor but the draws', so 8
//! measurements split 4 | 4 by a clear step pass any threshold the draws reach.
//!
//! A found change's step is corrected for its selection as a truncated normal (the conditional
//! inference of Lee, Sun, Sun and Taylor, 2016, simplified to the one event that selected it): the
//! split's score z = |d| / se was kept because it reached the critical score c, so its estimate and
//! interval are those of a normal mean μ observed as z given |Z| ≥ c: the point where z is the
//! conditional median, and the interval between the conditional 2.5% and 97.5% points. Without the
//! correction, at a run spread of 0.25 (log) a true ×1.10 read ×1.23 on average and its 95%
//! interval covered the truth in 36% of the found changes (issue 48).

use super::split::{best_of, MIN_SEGMENT};
use crate::stats::random::SplitMix64;
use statrs::distribution::{ContinuousCDF, Normal, StudentsT};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The chance of finding a step that the detectable step is stated at.
pub const DETECT_POWER: f64 = 0.9;
/// How far from the step's true place a found change may fall and still count as found.
pub const WITHIN: usize = 2;
/// Simulated series per step tried when a detectable step is searched for.
const DETECT_TRIALS: usize = 400;
/// The seed of the simulated scores; the count of measurements is mixed in.
const NULL_SEED: u64 = 0x6e75_6c6c_2026_1207;

/// The fewest simulated histories a table holds. With one fixed seed the table is the same for
/// every history, so its own error is not averaged away: at 1,999 draws the 1% point of the
/// 30-measurement table let through 1.5% of unchanged series in the calibration; at 99,999 that
/// error is about 0.03%.
pub const NULL_DRAWS: u64 = 99_999;
/// The most simulated values a table is built from: a history of 1,000 measurements gets 20,000
/// draws of 1,000 (its smallest p 1/20,001), so the cost stays about linear in the measurements.
const TABLE_VALUES: u64 = 20_000_000;
/// The fewest draws a table holds whatever its count of measurements.
const MIN_TABLE_DRAWS: u64 = 9_999;

/// Tables by (count of measurements, draws), shared by every history the process builds: a
/// table depends on nothing else.
type Tables = HashMap<(usize, u64), Arc<Vec<f64>>>;
static TABLES: OnceLock<Mutex<Tables>> = OnceLock::new();
/// Detectable steps by (count of measurements, threshold's bits, draws).
type Detectable = HashMap<(usize, u64, u64), Option<f64>>;
static DETECTABLE: OnceLock<Mutex<Detectable>> = OnceLock::new();

/// The simulated strongest-split scores of independent normal series, one sorted table per count
/// of measurements, and the detectable steps found from them.
pub struct NormalNull {
    draws: u64,
}

impl NormalNull {
    /// Tables of at least `draws` simulated series each, and at least [`NULL_DRAWS`] (the
    /// smallest p is 1 / (1 + draws)).
    pub fn new(draws: u64) -> Self {
        NormalNull { draws: draws.max(NULL_DRAWS) }
    }

    /// The simulated histories the table of `n` measurements holds: the draws asked for, fewer
    /// where `n` is so large that [`TABLE_VALUES`] bounds them, never fewer than
    /// [`MIN_TABLE_DRAWS`].
    pub fn draws(&self, n: usize) -> u64 {
        (TABLE_VALUES / n.max(1) as u64).clamp(MIN_TABLE_DRAWS, self.draws)
    }

    /// The smallest p a test of `n` measurements can give.
    pub fn smallest_p(&self, n: usize) -> f64 {
        1.0 / (1 + self.draws(n)) as f64
    }

    fn table(&mut self, n: usize) -> Arc<Vec<f64>> {
        let draws = self.draws(n);
        let cache = TABLES.get_or_init(|| Mutex::new(HashMap::new()));
        if let Some(table) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&(n, draws)) {
            return Arc::clone(table);
        }
        let table = Arc::new(scores(n, draws));
        cache.lock().unwrap_or_else(|e| e.into_inner()).insert((n, draws), Arc::clone(&table));
        table
    }

    /// The p of a strongest split scoring `observed` among `n` measurement means.
    pub fn p(&mut self, n: usize, observed: f64) -> f64 {
        let tolerance = 1e-9 * observed.abs().min(1e300);
        let table = self.table(n);
        let as_strong = table.len() - table.partition_point(|&t| t < observed - tolerance);
        (1 + as_strong) as f64 / (1 + table.len()) as f64
    }

    /// The score a strongest split of `n` measurement means must reach for its p to be at most
    /// `alpha`; infinite when no score can.
    pub fn critical(&mut self, n: usize, alpha: f64) -> f64 {
        let table = self.table(n);
        // p ≤ alpha holds with at most `allowed` simulated scores as strong.
        let allowed = (alpha * (1 + table.len()) as f64 + 1e-9).floor() as i64 - 1;
        if allowed < 0 || table.is_empty() {
            return f64::INFINITY;
        }
        let allowed = (allowed as usize).min(table.len() - 1);
        // Just above the (allowed + 1)-th strongest simulated score.
        let at = table[table.len() - 1 - allowed];
        at * (1.0 + 1e-9) + f64::MIN_POSITIVE
    }

    /// The step (on the log scale, in standard deviations of one measurement mean) that a test at
    /// `alpha` finds within [`WITHIN`] measurements of its place in [`DETECT_POWER`] of the series
    /// of `n` measurements, the step placed evenly from a sixth to five sixths into the series;
    /// `None` when no step can be found so often (too few measurements).
    pub fn detectable(&mut self, n: usize, alpha: f64) -> Option<f64> {
        let cache = DETECTABLE.get_or_init(|| Mutex::new(HashMap::new()));
        let key = (n, alpha.to_bits(), self.draws);
        if let Some(found) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return *found;
        }
        let found = self.search(n, alpha);
        cache.lock().unwrap_or_else(|e| e.into_inner()).insert(key, found);
        found
    }

    fn search(&mut self, n: usize, alpha: f64) -> Option<f64> {
        if n < 2 * MIN_SEGMENT {
            return None;
        }
        let critical = self.critical(n, alpha);
        if !critical.is_finite() {
            return None;
        }
        let places = places(n);
        let mut rng = SplitMix64(NULL_SEED ^ 0xde7e_c7ab ^ ((n as u64) << 32));
        let noise: Vec<Vec<f64>> = (0..DETECT_TRIALS).map(|_| (0..n).map(|_| rng.normal()).collect()).collect();
        let power = |step: f64| -> f64 {
            let mut values = vec![0.0; n];
            let mut found = 0usize;
            for (trial, z) in noise.iter().enumerate() {
                let at = places[trial % places.len()];
                for (i, v) in values.iter_mut().enumerate() {
                    *v = z[i] + if i >= at { step } else { 0.0 };
                }
                if best_of(&values).is_some_and(|(k, t)| t >= critical && k.abs_diff(at) <= WITHIN) {
                    found += 1;
                }
            }
            found as f64 / DETECT_TRIALS as f64
        };
        let mut high = 4.0;
        while power(high) < DETECT_POWER {
            high *= 2.0;
            if high > 1e3 {
                return None;
            }
        }
        let mut low = 0.0;
        for _ in 0..30 {
            let mid = 0.5 * (low + high);
            if power(mid) >= DETECT_POWER {
                high = mid;
            } else {
                low = mid;
            }
        }
        Some(high)
    }
}

/// The places a step is put at when the detectable step is simulated: the first measurement after
/// it, from a sixth to five sixths into the series (the 5 to 25 of 30), at least
/// [`MIN_SEGMENT`] from either end.
fn places(n: usize) -> Vec<usize> {
    let first = (n.div_ceil(6)).max(MIN_SEGMENT);
    let last = (5 * n / 6).min(n - MIN_SEGMENT).max(first);
    (first..=last).collect()
}

/// `draws` strongest-split scores of `n` independent standard normal values, sorted.
fn scores(n: usize, draws: u64) -> Vec<f64> {
    let mut rng = SplitMix64(NULL_SEED ^ ((n as u64) << 32));
    let mut values = vec![0.0; n];
    let mut out: Vec<f64> = (0..draws)
        .filter_map(|_| {
            for v in values.iter_mut() {
                *v = rng.normal();
            }
            best_of(&values).map(|(_, t)| t)
        })
        .collect();
    out.sort_by(f64::total_cmp);
    out
}

/// A found step corrected for its selection: `step` (log) with standard error `se` on `df` degrees
/// of freedom, kept because its score |step| / se reached `critical`. Returns the corrected step
/// and its `level` interval, all on the log scale. The interval's width allows for the spread's
/// own uncertainty by scaling `se` by Student's t over the normal quantile at `df`.
pub fn selected(step: f64, se: f64, df: f64, critical: f64, level: f64) -> (f64, f64, f64) {
    let normal = Normal::new(0.0, 1.0).expect("a standard normal");
    let tail = (1.0 - level) / 2.0;
    let widen = StudentsT::new(0.0, 1.0, df.max(1.0)).map_or(1.0, |t| t.inverse_cdf(1.0 - tail) / normal.inverse_cdf(1.0 - tail)).max(1.0);
    let se = se * widen;
    if !(se > 0.0 && se.is_finite()) {
        return (step, step, step);
    }
    let z = step.abs() / se;
    let c = critical.min(z).max(0.0);
    // The chance that Z ≤ z given |Z| ≥ c when Z ~ N(μ, 1): falls as μ rises.
    let conditional = |mu: f64| -> f64 {
        let below = normal.cdf(-c - mu);
        let above = normal.cdf(mu - c);
        let between = (normal.cdf(z - mu) - normal.cdf(c - mu)).max(0.0);
        let total = below + above;
        if total <= 0.0 {
            return if mu < z { 1.0 } else { 0.0 };
        }
        ((below + between) / total).clamp(0.0, 1.0)
    };
    let solve = |target: f64| -> f64 {
        let (mut low, mut high) = (-c - 40.0, z + 40.0);
        for _ in 0..200 {
            let mid = 0.5 * (low + high);
            if conditional(mid) > target {
                low = mid;
            } else {
                high = mid;
            }
        }
        0.5 * (low + high)
    };
    let sign = if step < 0.0 { -1.0 } else { 1.0 };
    let (point, a, b) = (solve(0.5) * se * sign, solve(1.0 - tail) * se * sign, solve(tail) * se * sign);
    (point, a.min(b), a.max(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_selected_step_far_beyond_its_threshold_keeps_its_normal_interval() {
        // z = 20 against a critical score of 3: the selection removes nothing near z.
        let (point, low, high) = selected(0.2, 0.01, 1e6, 3.0, 0.95);
        assert!((point - 0.2).abs() < 1e-6, "{point}");
        assert!((low - (0.2 - 1.959_964 * 0.01)).abs() < 1e-5 && (high - (0.2 + 1.959_964 * 0.01)).abs() < 1e-5, "{low} {high}");
    }

    #[test]
    fn a_step_just_past_its_threshold_is_pulled_back_toward_no_change() {
        // z = 3.2 just past c = 3: a true step of 0 could well have given it, so the corrected
        // point is well below 3.2 standard errors and the interval reaches below 0... or near it.
        let (point, low, high) = selected(-0.032, 0.01, 1e6, 3.0, 0.95);
        assert!(point > -0.032 + 0.005, "{point}");
        assert!(high > -0.012 && low < -0.032, "{low} {high}");
    }

    #[test]
    fn a_p_has_no_floor_but_the_draws() {
        let mut null = NormalNull::new(1999);
        // A perfect 4 | 4 step: no within spread, an infinite score.
        assert_eq!(null.p(8, f64::INFINITY), 1.0 / (1 + NULL_DRAWS) as f64);
        assert!(null.p(8, 0.5) > 0.5);
        // The critical score at 1% is exceeded by about 1% of the simulated scores.
        let c = null.critical(30, 0.01);
        assert!(null.p(30, c) <= 0.01 && null.p(30, c * 0.99) > 0.009, "{c}");
    }
}
