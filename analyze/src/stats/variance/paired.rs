//! Paired verdicts within a sitting (issue 47): where runs carry rounds (a plan with `order =
//! "rounds"` runs every condition once per round, in a fresh shuffled order), two levels of the
//! compared factor are compared by the within-round log ratios of their headline, which removes
//! whatever drift the host went through across the sitting: both levels of a round share it.
//!
//! The statistics are the shared model's ([`crate::stats::model`]): [`Estimate::paired`] (t on the
//! k rounds' differences of mean logs, k - 1 degrees of freedom, and what the pairing removed) and
//! [`paired_permutation_p`] (the exact p of swapping the labels within rounds, shown beside, which
//! cannot go below 2/2^k). This module only gathers the rounds, holds the verdicts to the review's
//! false discovery rate, and refuses a verdict below [`MIN_ROUNDS_FOR_VERDICT`] rounds, where the
//! permutation p cannot reach 5% whatever the data: the t interval alone would then rest wholly on
//! the normality of a handful of differences.

use super::super::difference::{self, FDR_Q};
use super::super::model::{paired_permutation_p, Estimate};
use crate::model::{RunStatus, Verdict};
use crate::report::review::PairedComparison;
use crate::report::RunResult;
use std::collections::BTreeMap;

/// The fewest rounds a paired verdict is given from: at k rounds the permutation p is at least
/// 2/2^k, 0.0625 at 5 rounds and 0.03125 at 6.
pub const MIN_ROUNDS_FOR_VERDICT: usize = 6;
/// The power the detectable change is stated at.
pub const POWER: f64 = 0.8;
/// The level of the paired interval and the alpha of the detectable change.
pub const ALPHA: f64 = 0.05;

/// The rounds of condition pairs: per pair (a, b) of `pairs`, (round, mean ln a, mean ln b) over the
/// rounds in which both have an ok run with a positive value of `value`. Runs without a round are
/// left out; a round with two runs of one condition (a resumed round) takes their mean log.
pub fn rounds_of(runs: &[RunResult], pairs: &[(usize, usize)], value: impl Fn(&RunResult) -> Option<f64>) -> Vec<Vec<(f64, f64)>> {
    // (condition, round) → (sum of logs, count).
    let mut logs: BTreeMap<(usize, i64), (f64, u32)> = BTreeMap::new();
    for run in runs.iter().filter(|r| r.status == RunStatus::Ok) {
        let (Some(round), Some(v)) = (run.round, value(run)) else { continue };
        if v > 0.0 && v.is_finite() {
            let entry = logs.entry((run.condition, round)).or_default();
            entry.0 += v.ln();
            entry.1 += 1;
        }
    }
    let mean = |c: usize, round: i64| logs.get(&(c, round)).map(|(sum, n)| sum / f64::from(*n));
    let rounds: std::collections::BTreeSet<i64> = logs.keys().map(|&(_, r)| r).collect();
    pairs.iter().map(|&(a, b)| rounds.iter().filter_map(|&r| Some((mean(a, r)?, mean(b, r)?))).collect()).collect()
}

/// The paired comparisons of `pairs` (a, b: b over a), from the rounds [`rounds_of`] gathered for
/// each: the interval, the two p, what the pairing removed, the detectable change, and the verdict,
/// with Benjamini-Hochberg at [`FDR_Q`] over the comparisons that have enough rounds. Pairs with
/// fewer than 2 shared rounds are left out.
pub fn compare(ids: &[String], pairs: &[(usize, usize)], rounds: &[Vec<(f64, f64)>], negligible: f64) -> Vec<PairedComparison> {
    let mut out: Vec<PairedComparison> = Vec::new();
    for (&(a, b), rounds) in pairs.iter().zip(rounds) {
        let k = rounds.len();
        if k < 2 {
            continue;
        }
        let diffs: Vec<f64> = rounds.iter().map(|&(x, y)| y - x).collect();
        let estimate = Estimate::paired(rounds);
        let mean_diff = diffs.iter().sum::<f64>() / k as f64;
        let interval = estimate.as_ref().ok().map(|e| e.interval(1.0 - ALPHA));
        let pairing = estimate.as_ref().ok().and_then(|e| e.pairing);
        out.push(PairedComparison {
            a,
            b,
            a_id: ids[a].clone(),
            b_id: ids[b].clone(),
            rounds: k,
            ratio: mean_diff.is_finite().then(|| mean_diff.exp()),
            ratio_low: interval.map(|i| i.0),
            ratio_high: interval.map(|i| i.1),
            p_t: estimate.as_ref().ok().map(Estimate::p),
            p_permutation: paired_permutation_p(&diffs),
            smallest_permutation_p: smallest_permutation_p(k),
            round_drift: pairing.map(|p| p.round_variance.max(0.0).sqrt()),
            narrower_by: estimate.as_ref().ok().and_then(|e| pairing.map(|p| p.unpaired_se / e.se)).filter(|r| r.is_finite()),
            detectable: estimate.as_ref().ok().map(|e| e.detectable(ALPHA, POWER)).filter(|d| d.is_finite()),
            rounds_for_5_percent: estimate.as_ref().ok().and_then(|e| e.rounds_for(1.05, ALPHA, POWER)),
            no_interval: estimate.err(),
            too_few_rounds: k < MIN_ROUNDS_FOR_VERDICT,
            fdr_supported: false,
            verdict: Verdict::NotShown,
        });
    }
    let judged: Vec<usize> = (0..out.len()).filter(|&i| !out[i].too_few_rounds && out[i].p_t.is_some()).collect();
    let p: Vec<f64> = judged.iter().filter_map(|&i| out[i].p_t).collect();
    for (&i, passes) in judged.iter().zip(difference::benjamini_hochberg(&p, FDR_Q)) {
        out[i].fdr_supported = passes;
    }
    for c in out.iter_mut().filter(|c| !c.too_few_rounds) {
        let interval = c.ratio_low.zip(c.ratio_high);
        c.verdict = c.ratio.map_or(Verdict::NotShown, |ratio| difference::verdict(ratio, interval, c.fdr_supported, negligible));
    }
    out
}

/// The smallest p the exact permutation test can give at `k` rounds: 2/2^k (the observed signs and
/// their mirror), 1 at one round or none.
pub fn smallest_permutation_p(k: usize) -> f64 {
    (2.0 / 2f64.powi(k.min(1_000) as i32)).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("c{i}")).collect()
    }

    #[test]
    fn the_permutation_floor_is_two_over_two_to_the_rounds() {
        assert_eq!(smallest_permutation_p(5), 0.0625);
        assert_eq!(smallest_permutation_p(6), 0.03125);
        assert_eq!(smallest_permutation_p(8), 2.0 / 256.0);
        assert_eq!(smallest_permutation_p(1), 1.0);
    }

    #[test]
    fn five_rounds_of_a_clear_difference_decide_nothing_and_six_do() {
        // new is 8% slower in every round (requests/s over old's about 0.926), with a drift of 10%
        // across rounds shared by both and a little noise of its own.
        let round = |r: usize| {
            let drift = 0.1 * r as f64 / 5.0;
            let noise = [0.004, -0.003, 0.002, -0.004, 0.003, -0.002][r];
            (1000f64.ln() + drift, 1000f64.ln() + drift + (1.0f64 / 1.08).ln() + noise)
        };
        let five: Vec<(f64, f64)> = (0..5).map(round).collect();
        let six: Vec<(f64, f64)> = (0..6).map(round).collect();
        let got = compare(&ids(2), &[(0, 1), (0, 1)], &[five, six], 0.05);
        assert!(got[0].too_few_rounds && got[0].verdict == Verdict::NotShown, "{:?}", got[0]);
        assert_eq!(got[0].p_permutation, 0.0625, "the floor at 5 rounds: every difference has one sign");
        assert!(got[0].ratio_high.unwrap() < 1.0, "its interval still excludes 1: {:?}", got[0]);
        assert!(!got[1].too_few_rounds);
        assert_eq!(got[1].verdict, Verdict::Supported, "{:?}", got[1]);
        assert!((1.0 / got[1].ratio.unwrap() - 1.08).abs() < 0.005, "{:?}", got[1]);
        assert!(got[1].narrower_by.unwrap() > 4.0, "the drift the pairing removed: {:?}", got[1]);
        assert!((got[1].round_drift.unwrap() - 0.037).abs() < 0.005, "SD of a 0-10% ramp over 6 rounds: {:?}", got[1]);
    }

    #[test]
    fn runs_pair_by_round_and_runs_without_a_round_are_left_out() {
        let fixture = crate::render::charts::tests::fixture().runs[0].clone();
        let run = |condition: usize, round: Option<i64>, rate: f64| RunResult {
            condition,
            round,
            requests_per_s: Some(rate),
            status: RunStatus::Ok,
            ..fixture.clone()
        };
        let runs = vec![run(0, Some(1), 100.0), run(1, Some(1), 50.0), run(1, Some(2), 60.0), run(0, None, 70.0), run(0, Some(3), 10.0)];
        let rounds = rounds_of(&runs, &[(0, 1)], |r| r.requests_per_s);
        assert_eq!(rounds, vec![vec![(100f64.ln(), 50f64.ln())]], "only round 1 has both");
    }
}
