//! Whether a run's percentile is resolved by its number of values, or is only its maximum.
//!
//! With n values drawn from a distribution, the chance that all n fall below its p-th percentile
//! is (p/100)^n. While that chance is above [`CHANCE`] (2.5%, one tail of 95%), the run's maximum
//! is not shown to lie above the p-th percentile: the sample cannot tell that percentile from its
//! largest value, so a page says "= max (needs ≥ N requests)" instead of reading the number as a
//! tail estimate, where N, the fewest values that resolve it, is the least n with (p/100)^n ≤
//! 2.5%. For p99.9 that is 3,688 (0.999^3688 = 0.02498 ≤ 0.025 < 0.999^3687 = 0.02500); a run of
//! 72 requests resolves p95 (0.95^72 = 0.0249) and neither p99 (needs 368) nor p99.9.
//!
//! The one home of this rule: the run results carry its verdict per percentile
//! (`RunResult::unresolved_percentiles`), the views only word it.

use crate::model::Percentile;

/// The largest chance that every value lies below the percentile at which it counts as
/// resolved.
pub const CHANCE: f64 = 0.025;

/// The chance that `n` values all lie below percentile `p`: (p/100)^n.
pub fn chance_all_below(p: Percentile, n: u64) -> f64 {
    let q = p.value() / 100.0;
    // powi takes an i32; beyond it the chance is 0 for every p a report can hold (p ≤ 99.999).
    i32::try_from(n).map_or(0.0, |n| q.powi(n))
}

/// Whether `n` values resolve percentile `p`: (p/100)^n ≤ [`CHANCE`].
pub fn resolved(p: Percentile, n: u64) -> bool {
    chance_all_below(p, n) <= CHANCE
}

/// The fewest values that resolve percentile `p`: the least n with (p/100)^n ≤ [`CHANCE`].
pub fn requests_needed(p: Percentile) -> u64 {
    let q = p.value() / 100.0;
    // The logarithms' quotient, then the exact rule at the boundary (the quotient can be off by
    // one in its last bits).
    let mut n = (CHANCE.ln() / q.ln()).ceil().max(1.0) as u64;
    while !resolved(p, n) {
        n += 1;
    }
    while n > 1 && resolved(p, n - 1) {
        n -= 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(value: f64) -> Percentile {
        Percentile::new(value).unwrap()
    }

    /// By hand: ln 0.025 / ln 0.999 = -3.688879 / -0.0010005 = 3687.04, so 3,688;
    /// 0.999^3687 = e^(-3.688843) = 0.0250009 and 0.999^3688 = e^(-3.689844) = 0.0249759.
    #[test]
    fn p99_9_needs_3688_values() {
        assert!(0.999f64.powi(3688) <= 0.025 && 0.025 < 0.999f64.powi(3687));
        assert_eq!(requests_needed(Percentile::P99_9), 3688);
        assert!(resolved(Percentile::P99_9, 3688) && !resolved(Percentile::P99_9, 3687));
    }

    /// A run of 72 requests: 0.95^72 = 0.0249 resolves p95 (it needs 72: 0.95^71 = 0.0262), 0.99^72 =
    /// 0.485 does not resolve p99 (it needs 368: 0.99^367 = 0.02501, 0.99^368 = 0.02476).
    #[test]
    fn a_run_of_72_resolves_p95_but_not_p99_or_p99_9() {
        assert!(resolved(Percentile::P95, 72) && !resolved(Percentile::P95, 71));
        assert!(!resolved(Percentile::P99, 72) && !resolved(Percentile::P99_9, 72));
        assert_eq!([50.0, 90.0, 95.0, 99.0, 99.99].map(|v| requests_needed(p(v))), [6, 36, 72, 368, 36_887]);
    }

    #[test]
    fn the_rule_holds_at_every_boundary() {
        for value in [1.0, 25.0, 50.0, 75.5, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95, 99.99, 99.999] {
            let needed = requests_needed(p(value));
            assert!(chance_all_below(p(value), needed) <= CHANCE, "p{value}");
            assert!(needed == 1 || chance_all_below(p(value), needed - 1) > CHANCE, "p{value}");
        }
    }
}
