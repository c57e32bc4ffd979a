//! How often the gate cries wolf: `--fail-on-regression` applied, by the same [`compare`] that
//! judges the real pair, to pairs that measured the same thing (A/A pairs), and the share of their
//! trials on which it fired, with its Wilson interval.
//!
//! The A/A pairs available: the baseline against each dataset given as a re-measurement of it
//! (`--aa`), one trial per matched condition; and, on each side, every condition with at least 4
//! ok runs split into two halves, one trial per split (at most [`SPLITS_PER_CONDITION`] splits a
//! condition, the first in lexicographic order of the runs chosen). Splits of one condition share
//! runs, so their trials are not independent: the interval is then narrower than the truth, as the
//! page says. Three runs a condition give no split: the model study's pairs need `--aa`.

use super::{compare, same_measurement, ComparePlan};
use crate::report::compare::{AaSetAside, AaSource, FalseAlarm, GateCalibration};
use crate::report::Report;

/// The most splits one condition contributes.
pub const SPLITS_PER_CONDITION: usize = 35;
/// The fewest ok runs a condition needs to be split (two halves of at least 2).
pub const SPLIT_RUNS: usize = 4;

/// The gate's calibration before any A/A pair is counted.
pub fn uncalibrated(fail_on_regression: Option<f64>) -> GateCalibration {
    GateCalibration {
        nominal_alpha: super::FDR_Q,
        threshold: fail_on_regression.unwrap_or(0.0),
        empirical_false_alarm: None,
        sources: Vec::new(),
        why_not: Some("no_aa_pair"),
        set_aside: Vec::new(),
    }
}

/// The calibration of the gate of `plan` from the A/A pairs `baseline`, `candidate` and the
/// re-measurements `aa` of the baseline give. Each measurement counts once: an `--aa` dataset that
/// is the baseline itself (or the candidate, or an `--aa` dataset before it) is set aside, since a
/// measurement against itself never fires and would only make the rate look small; and when the
/// candidate is the baseline, its conditions are split once.
pub fn calibrate(baseline: &Report, candidate: &Report, aa: &[Report], plan: &ComparePlan) -> GateCalibration {
    let threshold = plan.fail_on_regression.unwrap_or(0.0);
    let gate = ComparePlan { rules: Vec::new(), fail_on_regression: Some(threshold), allow_env: Vec::new(), skip_planning: true, verdicts_only: true };
    let mut sources = Vec::new();
    let mut set_aside = Vec::new();
    let mut counted: Vec<&Report> = Vec::new();
    for again in aa {
        let same_as = if same_measurement(baseline, again) {
            Some("baseline".to_string())
        } else {
            counted.iter().find(|earlier| same_measurement(earlier, again)).map(|earlier| earlier.dataset.name.clone())
        };
        if let Some(same_as) = same_as {
            set_aside.push(AaSetAside { dataset: again.dataset.name.clone(), same_as });
            continue;
        }
        counted.push(again);
        if let Ok(pair) = compare(baseline, again, &gate) {
            sources.push(AaSource {
                kind: "aa_dataset",
                dataset: again.dataset.name.clone(),
                condition_id: None,
                // Conditions without a value of the metric were not compared: no trial.
                trials: pair.summary.matched - pair.without_metric.as_ref().map_or(0, |w| w.conditions.len() as u64),
                fired: pair.summary.regressions.len() as u64,
            });
        }
    }
    let sides: &[&Report] = if same_measurement(baseline, candidate) { &[baseline] } else { &[baseline, candidate] };
    for side in sides {
        sources.extend(splits(side, &gate));
    }
    let trials: u64 = sources.iter().map(|s| s.trials).sum();
    let fired: u64 = sources.iter().map(|s| s.fired).sum();
    let mut calibration = uncalibrated(plan.fail_on_regression);
    if trials > 0 {
        let (low, high) = wilson(fired, trials);
        calibration.empirical_false_alarm = Some(FalseAlarm { fired, trials, rate: fired as f64 / trials as f64, low, high });
        calibration.why_not = None;
    }
    calibration.sources = sources;
    calibration.set_aside = set_aside;
    calibration
}

/// One trial per split of each condition of `report` with at least [`SPLIT_RUNS`] ok runs: the
/// condition alone on both sides, each side holding one half of its runs.
fn splits(report: &Report, gate: &ComparePlan) -> Vec<AaSource> {
    let splittable: Vec<usize> = (0..report.conditions.len()).filter(|&c| report.conditions[c].runs.len() >= SPLIT_RUNS).collect();
    if splittable.is_empty() {
        return Vec::new();
    }
    // Two copies without the figures, whose one condition takes each half in turn.
    let light = || {
        let mut r = Report { figures: Default::default(), ..report.clone() };
        r.conditions.truncate(1);
        r
    };
    let (mut first, mut second) = (light(), light());
    let mut out = Vec::new();
    for c in splittable {
        let condition = &report.conditions[c];
        let runs = &condition.runs;
        let (mut trials, mut fired) = (0, 0);
        for half in halves(runs.len()).into_iter().take(SPLITS_PER_CONDITION) {
            let (a, b): (Vec<String>, Vec<String>) = {
                let mut a = Vec::new();
                let mut b = Vec::new();
                for (i, run) in runs.iter().enumerate() {
                    if half.contains(&i) {
                        a.push(run.clone())
                    } else {
                        b.push(run.clone())
                    }
                }
                (a, b)
            };
            first.conditions[0] = crate::report::ConditionResult { runs: a, ..condition.clone() };
            second.conditions[0] = crate::report::ConditionResult { runs: b, ..condition.clone() };
            // A half whose runs have no value of the metric compares nothing: no trial.
            if let Some(pair) = compare(&first, &second, gate).ok().filter(|pair| pair.nothing_compared.is_none()) {
                trials += 1;
                fired += u64::from(!pair.summary.regressions.is_empty());
            }
        }
        out.push(AaSource { kind: "split", dataset: report.dataset.name.clone(), condition_id: Some(condition.id.clone()), trials, fired });
    }
    out
}

/// The index sets of the first half of every split of `k` runs into halves of k/2 (rounded down)
/// and the rest; for even k, those holding run 0, so a split and its mirror count once.
fn halves(k: usize) -> Vec<Vec<usize>> {
    let size = k / 2;
    let mut out = Vec::new();
    let mut chosen = Vec::with_capacity(size);
    fn walk(k: usize, size: usize, start: usize, chosen: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if chosen.len() == size {
            out.push(chosen.clone());
            return;
        }
        for i in start..k {
            chosen.push(i);
            walk(k, size, i + 1, chosen, out);
            chosen.pop();
        }
    }
    walk(k, size, 0, &mut chosen, &mut out);
    if k % 2 == 0 {
        out.retain(|half| half.contains(&0));
    }
    out
}

/// The Wilson score interval at 95% of `fired` of `trials`. Its lower end for 0 fired is 0 and its
/// upper end for all fired is 1 exactly (the formula's two terms cancel there only up to rounding,
/// which printed as 0.0000000000000003%).
pub fn wilson(fired: u64, trials: u64) -> (f64, f64) {
    let z = 1.959_963_984_540_054_f64;
    let n = trials as f64;
    let p = fired as f64 / n;
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denominator;
    let low = if fired == 0 { 0.0 } else { (centre - half).max(0.0) };
    let high = if fired == trials { 1.0 } else { (centre + half).min(1.0) };
    (low, high)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_of_hand_worked_counts() {
        // 0 of 20: [0, z²/(n + z²)] = [0, 3.8415/23.8415] = [0, 0.16113].
        let (low, high) = wilson(0, 20);
        assert!(low == 0.0 && (high - 0.161_125).abs() < 1e-5, "{high}");
        // 5 of 100: centre (0.05 + 0.019207)/1.038415 = 0.066647, half 0.045030: [0.02154, 0.11175].
        let (low, high) = wilson(5, 100);
        assert!((low - 0.021_54).abs() < 1e-4 && (high - 0.111_75).abs() < 1e-4, "{low} {high}");
    }

    #[test]
    fn wilson_ends_are_exact_at_none_and_all_fired() {
        for trials in 1..=200 {
            assert_eq!(wilson(0, trials).0, 0.0, "0 of {trials}");
            assert_eq!(wilson(trials, trials).1, 1.0, "{trials} of {trials}");
        }
    }

    #[test]
    fn splits_count_each_halving_once() {
        assert_eq!(halves(4), vec![vec![0, 1], vec![0, 2], vec![0, 3]]);
        assert_eq!(halves(5).len(), 10);
        assert_eq!(halves(6).len(), 10);
        assert!(halves(3).iter().all(|h| h.len() == 1), "3 runs give halves of 1, which SPLIT_RUNS leaves out");
    }
}
