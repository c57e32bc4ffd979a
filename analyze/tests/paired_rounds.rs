//! Paired verdicts within rounds (issue 47), by seeded simulation of interleaved sittings: two
//! builds, each run once per round in a shuffled order, 8 rounds, the host drifting by 10% across
//! the sitting (a ramp over the 16 runs' times, shared by whichever build runs then) with run noise
//! of 1% (log SD; what pinning reached on this machine kind, issue 47) on top.
//!
//! - The paired interval (t on the rounds' log ratios) is at most half as wide as the unpaired
//!   Welch interval on the same runs, which takes the drift for run-to-run noise.
//! - On A/A sittings the paired verdict fires (says "supported") in at most 5% of 1,000 trials, and
//!   its interval misses 1 in about 5% (it is calibrated, not merely cautious).
//! - A change of 8% is found in nearly every sitting.
//!
//! A trial takes microseconds: 1,000 of them run in well under a second.

use analyze::model::Verdict;
use analyze::stats::difference;
use analyze::stats::random::SplitMix64;
use analyze::stats::variance::paired;

const ROUNDS: usize = 8;
/// The host's drift across the sitting: 10%, as a log.
const DRIFT: f64 = 0.0953;
/// Run-to-run noise (log SD).
const NOISE: f64 = 0.01;

/// One sitting of `ROUNDS` rounds: per round (ln a, ln b) with b's true level `effect` (a log) above
/// a's; each round runs the two in a shuffled order, and the drift follows the run's place in time.
fn sitting(rng: &mut SplitMix64, effect: f64) -> Vec<(f64, f64)> {
    let runs = 2 * ROUNDS;
    (0..ROUNDS)
        .map(|r| {
            let b_first = rng.below(2) == 1;
            let at = |slot: usize| DRIFT * (2 * r + slot) as f64 / (runs - 1) as f64;
            let (slot_a, slot_b) = if b_first { (1, 0) } else { (0, 1) };
            let a = 7.0 + at(slot_a) + NOISE * rng.normal();
            let b = 7.0 + effect + at(slot_b) + NOISE * rng.normal();
            (a, b)
        })
        .collect()
}

fn judge(rounds: Vec<(f64, f64)>) -> analyze::report::review::PairedComparison {
    let ids = vec!["old".to_string(), "new".to_string()];
    paired::compare(&ids, &[(0, 1)], &[rounds], 0.05).remove(0)
}

#[test]
fn with_a_drift_of_10_percent_the_paired_interval_is_at_most_half_the_unpaired_width() {
    let mut rng = SplitMix64(47);
    let mut ratios = Vec::new();
    for _ in 0..200 {
        let rounds = sitting(&mut rng, 0.0);
        let a: Vec<f64> = rounds.iter().map(|r| r.0.exp()).collect();
        let b: Vec<f64> = rounds.iter().map(|r| r.1.exp()).collect();
        let unpaired = difference::log_ratio(&a, &b).unwrap();
        let p = judge(rounds);
        let paired_width = (p.ratio_high.unwrap() / p.ratio_low.unwrap()).ln();
        ratios.push(paired_width / (unpaired.high / unpaired.low).ln());
    }
    ratios.sort_by(f64::total_cmp);
    let median = ratios[ratios.len() / 2];
    let within_half = ratios.iter().filter(|&&r| r <= 0.5).count();
    assert!(median <= 0.5, "paired width over unpaired, median of 200 sittings: {median:.3}");
    assert!(within_half >= 180, "at most half as wide in {within_half} of 200 sittings (median {median:.3})");
}

#[test]
fn on_a_a_sittings_the_paired_verdict_fires_at_most_5_percent_of_1000_trials() {
    let mut rng = SplitMix64(2026);
    let (mut fired, mut missed_one) = (0, 0);
    for _ in 0..1000 {
        let p = judge(sitting(&mut rng, 0.0));
        fired += usize::from(p.verdict == Verdict::Supported);
        missed_one += usize::from(p.ratio_low.unwrap() > 1.0 || p.ratio_high.unwrap() < 1.0);
    }
    assert!(fired <= 50, "A/A sittings found different: {fired} of 1,000");
    // The 95% interval misses 1 about 5% of the time: 50 expected, 36 to 64 at 2 standard errors.
    assert!((36..=64).contains(&missed_one), "A/A intervals without 1: {missed_one} of 1,000");
}

#[test]
fn a_change_of_8_percent_is_found_in_nearly_every_sitting_despite_the_drift() {
    let mut rng = SplitMix64(8);
    let slower = (1.0f64 / 1.08).ln();
    let found = (0..200).filter(|_| judge(sitting(&mut rng, slower)).verdict == Verdict::Supported).count();
    assert!(found >= 196, "found {found} of 200");
}
