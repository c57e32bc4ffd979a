//! The comparison of two reports of the `tiny` fixture, one with its run values changed as
//! each test needs. The fixture's p95 of repetition k is base·19 + 0.5·k (bases direct/0 = 1,
//! direct/2 = 100, nginx-on/0 = 1.5, nginx-on/2 = 2), three ok runs per condition.

use super::*;
use crate::model::NoInterval;

pub(crate) fn tiny() -> Report {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny");
    let mut dataset = crate::dataset::load(&dir).unwrap();
    crate::stats::build(&mut dataset, crate::stats::Detail::Statistics)
}

/// The report with each p95 of `condition`'s ok runs passed through `change` (by repetition
/// order), and the condition's spread recomputed.
pub(crate) fn changed(mut report: Report, condition: &str, mut change: impl FnMut(usize, f64) -> f64) -> Report {
    let c = report.conditions.iter().position(|x| x.id == condition).unwrap();
    let ids = report.conditions[c].runs.clone();
    let mut values = Vec::new();
    for (k, id) in ids.iter().enumerate() {
        let i = report.run_index(id).unwrap();
        let run = &mut report.runs[i];
        let v = change(k, run.percentiles_ms["95"]);
        run.percentiles_ms.insert("95".into(), v);
        run.headline_ms = Some(v);
        values.push(v);
    }
    let spread = Spread::of(&values);
    report.conditions[c].percentiles_ms.insert("95".into(), spread.unwrap());
    report.conditions[c].headline_ms = spread;
    report
}

fn plan(gate: Option<f64>) -> ComparePlan {
    ComparePlan { rules: Vec::new(), fail_on_regression: gate, allow_env: Vec::new(), skip_planning: false, verdicts_only: false }
}

fn condition<'a>(report: &'a ComparisonReport, id: &str) -> &'a ConditionComparison {
    report.conditions.iter().find(|c| c.condition_id == id).unwrap()
}

#[test]
fn a_dataset_against_itself_is_one_measurement_and_compares_nothing() {
    let r = compare(&tiny(), &tiny(), &plan(Some(0.1))).unwrap();
    assert_eq!(r.nothing_compared, Some(crate::report::compare::NothingCompared::SameMeasurement));
    assert!(r.conditions.is_empty() && r.summary.regressions.is_empty());
    assert!(r.gate_compared_nothing(), "the gate does not pass");
    assert_eq!(r.metric, "p95");
    assert!(!r.higher_is_better);
}

#[test]
fn a_slowdown_of_one_condition_by_half_is_a_supported_regression_of_that_condition_only() {
    let slow = changed(tiny(), "route=direct,downloads=2", |_, v| v * 1.5);
    let r = compare(&tiny(), &slow, &plan(Some(0.1))).unwrap();
    let c = condition(&r, "route=direct,downloads=2");
    // Scaling every run by 1.5 scales the geometric mean by 1.5 and leaves the log spread.
    assert!((c.ratio.unwrap() - 1.5).abs() < 1e-9, "{c:?}");
    assert!(c.ratio_low.unwrap() > 1.49 && c.ratio_high.unwrap() < 1.51, "{c:?}");
    assert_eq!(c.verdict, CompareVerdict::SupportedSlower);
    assert!(c.regression && c.fdr_supported);
    assert_eq!(c.base.median, Some(1901.0));
    assert_eq!(c.cand.median, Some(2851.5));
    assert_eq!(r.summary.regressions, vec!["route=direct,downloads=2".to_string()]);
    assert_eq!(r.summary.supported_slower, 1);
    // The same slowdown with a 60% gate is supported but no failure.
    let r = compare(&tiny(), &slow, &plan(Some(0.6))).unwrap();
    assert!(r.summary.regressions.is_empty());
    assert_eq!(condition(&r, "route=direct,downloads=2").verdict, CompareVerdict::SupportedSlower);
}

#[test]
fn a_speed_up_is_supported_faster_and_never_a_regression() {
    let fast = changed(tiny(), "route=direct,downloads=2", |_, v| v / 2.0);
    let r = compare(&tiny(), &fast, &plan(Some(0.1))).unwrap();
    let c = condition(&r, "route=direct,downloads=2");
    assert_eq!(c.verdict, CompareVerdict::SupportedFaster);
    assert!(!c.regression && !c.regression_undecided);
}

#[test]
fn a_large_noisy_slowdown_is_reported_with_the_runs_that_would_decide_it() {
    // direct/2 in the candidate: 1.2x, 2.4x and 1.0x the baseline's runs: a geometric mean
    // ratio of 1.442 with a log spread far too wide for three runs to tell.
    let noisy = changed(tiny(), "route=direct,downloads=2", |k, v| v * [1.2, 2.4, 1.0][k]);
    let r = compare(&tiny(), &noisy, &plan(Some(0.1))).unwrap();
    let c = condition(&r, "route=direct,downloads=2");
    assert!((c.ratio.unwrap() - (1.2f64 * 2.4).cbrt()).abs() < 1e-3, "{c:?}");
    assert_eq!(c.verdict, CompareVerdict::NotShown);
    assert!(!c.regression);
    assert!(r.summary.regressions.is_empty());
    // The observed 1.44 lies beyond the 10% gate, unsupported: undecided, not a failure.
    assert!(c.regression_undecided, "{c:?}");
    // What its runs could detect, and what would detect the gate's 10%: the model's own answer
    // at the interval's alpha (one comparison of four, none discovered: 1 - q/4).
    let d = c.detectable.unwrap();
    assert!((d.alpha - 0.05 / 4.0).abs() < 1e-12 && c.interval_level == Some(1.0 - 0.05 / 4.0), "{d:?}");
    let values = |side: &SideRuns| side.runs.iter().map(|r| r.value).collect::<Vec<f64>>();
    let e = Estimate::welch(&values(&c.base), &values(&c.cand)).unwrap();
    assert_eq!(d.change, e.detectable(d.alpha, 0.8));
    assert!(d.change > c.ratio.unwrap(), "the observed 1.44 was below what 3 noisy runs detect: {d:?}");
    assert_eq!((d.target, d.runs_a_side, d.rounds), (1.1, e.runs_a_side_for(1.1, d.alpha, 0.8), e.rounds_for(1.1, d.alpha, 0.8)));
    assert!(d.runs_a_side.unwrap() > 3, "{d:?}");
}

#[test]
fn one_run_a_side_gets_no_interval_and_no_chance_but_says_so() {
    let mut one = tiny();
    let c = one.conditions.iter().position(|x| x.id == "route=nginx-on,downloads=0").unwrap();
    one.conditions[c].runs.truncate(1);
    let r = compare(&tiny(), &one, &plan(None)).unwrap();
    let c = condition(&r, "route=nginx-on,downloads=0");
    assert_eq!(c.no_interval, Some(NoInterval::OneRun));
    assert_eq!((c.ratio_low, c.chance_if_no_difference), (None, None));
    assert_eq!(c.verdict, CompareVerdict::NotShown);
    assert_eq!(c.cand.runs.len(), 1);
    // No estimate, so no detectable change either.
    assert!(c.detectable.is_none(), "{c:?}");
}

#[test]
fn unmatched_conditions_are_listed_never_dropped() {
    let mut fewer = tiny();
    fewer.conditions.retain(|c| c.id != "route=nginx-on,downloads=2");
    let r = compare(&tiny(), &fewer, &plan(None)).unwrap();
    assert_eq!(r.summary.matched, 3);
    assert_eq!(r.only_in_baseline.len(), 1);
    assert_eq!(r.only_in_baseline[0].condition_id, "route=nginx-on,downloads=2");
    assert_eq!(r.only_in_baseline[0].reason, UnmatchedReason::NoCounterpart);
    assert_eq!(r.only_in_baseline[0].ok_runs, 3);
}

#[test]
fn benjamini_hochberg_runs_over_the_matched_conditions() {
    // Every condition slower by 1.5 in the candidate: four tiny p values, all discoveries.
    let mut slow = tiny();
    for id in ["route=direct,downloads=0", "route=direct,downloads=2", "route=nginx-on,downloads=0", "route=nginx-on,downloads=2"] {
        slow = changed(slow, id, |_, v| v * 1.5);
    }
    let r = compare(&tiny(), &slow, &plan(Some(0.1))).unwrap();
    assert_eq!(r.summary.with_interval, 4);
    assert!(r.conditions.iter().all(|c| c.fdr_supported && c.verdict == CompareVerdict::SupportedSlower), "{:?}", r.conditions);
    assert_eq!(r.summary.regressions.len(), 4);
}

#[test]
fn compare_json_has_the_documented_keys() {
    let again = changed(tiny(), "route=direct,downloads=0", |_, v| v * 1.001);
    let r = compare(&tiny(), &again, &plan(None)).unwrap();
    let json = serde_json::to_value(&r).unwrap();
    for key in ["schema_version", "baseline", "candidate", "metric", "conditions", "only_in_baseline", "only_in_candidate"] {
        assert!(json.get(key).is_some(), "{key}");
    }
    let first = &json["conditions"][0];
    for key in
        ["condition_id", "factors", "base", "cand", "ratio", "ratio_low", "ratio_high", "p_log_t", "chance_if_no_difference", "verdict"]
    {
        assert!(first.get(key).is_some(), "{key}");
    }
    for key in ["runs", "median", "min", "max"] {
        assert!(first["base"].get(key).is_some(), "{key}");
    }
    assert_eq!(json["baseline"]["dataset"], "tiny");
}

/// The model study (gunicorn-slow-client): ten conditions of three runs.
fn model_study() -> Report {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets/gunicorn-slow-client");
    let mut dataset = crate::dataset::load(&dir).unwrap();
    crate::stats::build(&mut dataset, crate::stats::Detail::Statistics)
}

/// A deterministic normal sampler (SplitMix64 and Box-Muller), so the trials are the same on
/// every machine.
struct Normal(u64);

impl Normal {
    fn uniform(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    fn draw(&mut self) -> f64 {
        let (u, v) = (self.uniform().max(1e-300), self.uniform());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
}

/// Each condition's mean and sample standard deviation of its runs' log p95: the spreads the
/// synthetic measurements are drawn with.
fn log_spreads(report: &Report) -> Vec<(f64, f64)> {
    report
        .conditions
        .iter()
        .map(|c| {
            let logs: Vec<f64> = c.runs.iter().map(|id| report.runs[report.run_index(id).unwrap()].percentiles_ms["95"].ln()).collect();
            let mean = logs.iter().sum::<f64>() / logs.len() as f64;
            let var = logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (logs.len() - 1) as f64;
            (mean, var.sqrt())
        })
        .collect()
}

/// The study with every ok run's p95 drawn afresh from its condition's log-normal spread, times
/// `factor` for condition `slowed`.
fn drawn(study: &Report, spreads: &[(f64, f64)], normal: &mut Normal, slowed: Option<(usize, f64)>) -> Report {
    let mut report = study.clone();
    for (c, &(mean, sd)) in spreads.iter().enumerate() {
        let factor = match slowed {
            Some((s, f)) if s == c => f,
            _ => 1.0,
        };
        report = changed(report, &study.conditions[c].id.clone(), |_, _| (mean + sd * normal.draw()).exp() * factor);
    }
    report
}

#[test]
fn the_gate_fires_on_at_most_5_percent_of_200_synthetic_aa_pairs_at_the_model_study_s_spreads() {
    let study = model_study();
    let spreads = log_spreads(&study);
    let mut normal = Normal(20_261_204);
    let fired = (0..200)
        .filter(|_| {
            let (a, b) = (drawn(&study, &spreads, &mut normal, None), drawn(&study, &spreads, &mut normal, None));
            !compare(&a, &b, &plan(Some(0.1))).unwrap().summary.regressions.is_empty()
        })
        .count();
    assert!(fired <= 10, "the gate fired on {fired} of 200 A/A pairs");
}

#[test]
fn a_1_5x_slowdown_at_3_runs_a_side_fails_the_gate_where_the_runs_agree_as_the_study_s_do() {
    // Each condition in turn 1.5 times slower in 20 drawn pairs: the gate must fire on that
    // condition wherever the study's own runs of it agree to a few per cent.
    let study = model_study();
    let spreads = log_spreads(&study);
    let mut normal = Normal(7);
    for (c, &(_, sd)) in spreads.iter().enumerate() {
        let caught = (0..20)
            .filter(|_| {
                let (a, b) = (drawn(&study, &spreads, &mut normal, None), drawn(&study, &spreads, &mut normal, Some((c, 1.5))));
                compare(&a, &b, &plan(Some(0.1))).unwrap().summary.regressions.contains(&study.conditions[c].id)
            })
            .count();
        // Measured with this seed: 20 of 20 at a log spread of 0.000 (direct/2 sync), 13 at 0.046,
        // 7 at 0.056, 3 at 0.088 and 0.111, none at 0.143 and above. The gate asks the interval
        // to lie beyond 10% at its false-coverage level (99.5% for one discovery of 10, on the
        // few degrees of freedom of 3 v 3 Welch), so three runs a side support a regression
        // beyond 10% only where the runs agree, which docs/statistics.md says; the verdict's
        // detectable change tells the user how far short the runs fall.
        let id = &study.conditions[c].id;
        eprintln!("{id}: caught in {caught} of 20 at a log spread of {sd:.3}");
        if sd < 0.01 {
            assert_eq!(caught, 20, "{id}: caught in {caught} of 20 at a log spread of {sd:.3}");
        } else if sd < 0.05 {
            assert!(caught >= 10, "{id}: caught in {caught} of 20 at a log spread of {sd:.3}");
        }
    }
}

/// Per-condition log spreads of the committed datasets' headline run values (site/*/en/
/// summary.json, 52 conditions with 2 runs or more: these are its 10th to 90th percentiles in
/// steps, the median 0.081).
const SPREADS: [f64; 7] = [0.019, 0.032, 0.056, 0.081, 0.101, 0.143, 0.234];

/// The tiny fixture as one synthetic sitting: each condition's three runs 100·exp(change + u +
/// σ·z), u ~ N(0, shift²) shared by every run of the sitting, σ the condition's spread.
fn sitting(rng: &mut crate::stats::random::SplitMix64, spreads: &[f64; 4], shift: f64, change: &[f64; 4]) -> Report {
    let u = shift * rng.normal();
    let mut report = tiny();
    let ids: Vec<String> = report.conditions.iter().map(|c| c.id.clone()).collect();
    for (i, id) in ids.iter().enumerate() {
        report = changed(report, id, |_, _| 100.0 * (change[i] + u + spreads[i] * rng.normal()).exp());
    }
    report
}

/// Whether a metric verdict disagrees with its interval: negligible with an interval reaching
/// beyond the threshold, supported with one that holds 1 (or lies inside the band), not shown
/// with one that excludes 1.
fn disagrees(c: &ConditionComparison, negligible: f64) -> bool {
    let (Some(low), Some(high)) = (c.ratio_low, c.ratio_high) else { return false };
    let inside = difference::within(low, negligible) && difference::within(high, negligible);
    let excludes = low > 1.0 || high < 1.0;
    match c.verdict {
        CompareVerdict::Negligible => !inside,
        CompareVerdict::SupportedFaster | CompareVerdict::SupportedSlower => inside || !excludes,
        CompareVerdict::NotShown => inside || excludes,
    }
}

#[derive(Debug, Default)]
struct Outcome {
    trials: usize,
    aa_fired: usize,
    detect_fired: usize,
    negligible_at_6: usize,
    negligible_tried: usize,
    disagreements: usize,
    verdicts: usize,
}

/// `trials` seeded trials of compare with `aa` re-measurements of the baseline and `bb` of the
/// candidate at a sitting shift of SD `shift` (log): an A/A pair (does any condition read
/// supported?), a pair with the A/A pair's printed detectable change in one condition (is it
/// supported?), and a pair with a true 6% difference everywhere (how often negligible?).
fn simulate(aa: usize, bb: usize, shift: f64, trials: usize, seed: u64) -> Outcome {
    let mut rng = crate::stats::random::SplitMix64(seed);
    let plan = ComparePlan { skip_planning: true, ..ComparePlan::default() };
    let mut out = Outcome { trials, ..Outcome::default() };
    let run = |rng: &mut crate::stats::random::SplitMix64, spreads: &[f64; 4], cand: &[f64; 4], out: &mut Outcome| {
        let base = sitting(rng, spreads, shift, &[0.0; 4]);
        let again: Vec<Report> = (0..aa).map(|_| sitting(rng, spreads, shift, &[0.0; 4])).collect();
        let candidate = sitting(rng, spreads, shift, cand);
        let more: Vec<Report> = (0..bb).map(|_| sitting(rng, spreads, shift, cand)).collect();
        let r = compare_sittings(&base, &candidate, &again, &more, &plan).unwrap();
        for c in &r.conditions {
            out.verdicts += 1;
            out.disagreements += usize::from(disagrees(c, r.thresholds.negligible_difference));
        }
        r
    };
    for t in 0..trials {
        let spreads: [f64; 4] = std::array::from_fn(|_| SPREADS[rng.below(SPREADS.len() as u64) as usize]);
        let same = run(&mut rng, &spreads, &[0.0; 4], &mut out);
        out.aa_fired +=
            usize::from(same.conditions.iter().any(|c| c.verdict != CompareVerdict::NotShown && c.verdict != CompareVerdict::Negligible));
        let j = t % 4;
        let printed = same.conditions[j].detectable.unwrap().change;
        let mut change = [0.0; 4];
        change[j] = printed.ln();
        let moved = run(&mut rng, &spreads, &change, &mut out);
        out.detect_fired += usize::from(moved.conditions[j].verdict == CompareVerdict::SupportedSlower);
        let six = run(&mut rng, &spreads, &[1.06f64.ln(); 4], &mut out);
        out.negligible_at_6 += six.conditions.iter().filter(|c| c.verdict == CompareVerdict::Negligible).count();
        out.negligible_tried += six.conditions.len();
    }
    out
}

fn check_outcome(label: &str, o: &Outcome) {
    let n = o.trials as f64;
    let (aa, detect, negligible) = (o.aa_fired as f64 / n, o.detect_fired as f64 / n, o.negligible_at_6 as f64 / o.negligible_tried as f64);
    eprintln!("{label}: A/A fired {aa:.4}, detected at the printed change {detect:.4}, negligible at a true 6% {negligible:.4}, disagreements {} of {}", o.disagreements, o.verdicts);
    // Tolerances of 2.5 binomial standard deviations at the trial count.
    let sd = |p: f64| 2.5 * (p * (1.0 - p) / n).sqrt();
    assert!(aa <= 0.05 + sd(0.05), "{label}: A/A fired {aa}");
    assert!(detect >= 0.80 - sd(0.8) && detect <= 0.90 + sd(0.9), "{label}: detected {detect}");
    assert!(negligible <= 0.05, "{label}: negligible at 6% {negligible}");
    assert_eq!(o.disagreements, 0, "{label}");
}

/// Issue 48's terms for three re-measurements of the baseline (`--aa`), 360 trials over sitting
/// shifts of 0, 0.03 and 0.06: A/A pairs fire at most 5% of the time (measured 1.39%), a true 6%
/// difference is never called negligible more than 5% of the time, no verdict disagrees with its
/// interval, and the printed detectable change is detected 80-90% of the time (83.3% of 360
/// trials). The full terms, and two sittings a side, with what each mend of 2026-12-08 changed:
/// [`sitting_designs_hold_their_terms_over_2000_trials`] and docs/statistics.md.
#[test]
fn sitting_designs_hold_their_terms() {
    let mut all = Outcome::default();
    for (k, shift) in [0.0, 0.03, 0.06].into_iter().enumerate() {
        let o = simulate(3, 0, shift, 120, 4800 + k as u64);
        all.trials += o.trials;
        all.aa_fired += o.aa_fired;
        all.detect_fired += o.detect_fired;
        all.negligible_at_6 += o.negligible_at_6;
        all.negligible_tried += o.negligible_tried;
        all.disagreements += o.disagreements;
        all.verdicts += o.verdicts;
    }
    let n = all.trials as f64;
    let (aa, detect) = (all.aa_fired as f64 / n, all.detect_fired as f64 / n);
    eprintln!("--aa ×3: A/A fired {aa:.4}, detected at the printed change {detect:.4}");
    assert!(aa <= 0.05 + 2.5 * (0.05 * 0.95 / n).sqrt(), "A/A fired {aa}");
    let tolerance = |p: f64| 2.5 * (p * (1.0 - p) / n).sqrt();
    assert!(detect >= 0.80 - tolerance(0.8) && detect <= 0.90 + tolerance(0.9), "detected {detect}");
    assert!((all.negligible_at_6 as f64 / all.negligible_tried as f64) <= 0.05);
    assert_eq!(all.disagreements, 0);
}

/// The 2,000-trial runs behind docs/statistics.md (`cargo test --release -p analyze --lib
/// sitting_designs_hold_their_terms_over_2000 -- --ignored --nocapture`).
#[test]
#[ignore]
fn sitting_designs_hold_their_terms_over_2000_trials() {
    // Every design is measured and printed before any term is judged, so one miss does not
    // hide the others' figures.
    let mut judged = Vec::new();
    for (aa, bb) in [(3, 0), (1, 1), (0, 0)] {
        for (k, shift) in [0.0, 0.03, 0.06].into_iter().enumerate() {
            let o = simulate(aa, bb, shift, 2000, 48_000 + k as u64);
            let label = format!("--aa ×{aa}, --bb ×{bb}, shift {shift}");
            if aa + bb > 0 {
                let n = o.trials as f64;
                eprintln!(
                    "{label}: A/A fired {:.4}, detected at the printed change {:.4}, negligible at a true 6% {:.4}, disagreements {} of {}",
                    o.aa_fired as f64 / n,
                    o.detect_fired as f64 / n,
                    o.negligible_at_6 as f64 / o.negligible_tried as f64,
                    o.disagreements,
                    o.verdicts
                );
                judged.push((label, o));
            } else {
                let n = o.trials as f64;
                eprintln!("{label} (no estimate): A/A fired {:.4}, detected {:.4}", o.aa_fired as f64 / n, o.detect_fired as f64 / n);
            }
        }
    }
    for (label, o) in &judged {
        check_outcome(label, o);
    }
}

/// A/A pairs whose one sitting a side shares a shift: without an estimate of it the verdicts
/// cannot hold their 5%, which is why the page says they assume no sitting effect.
#[test]
fn one_sitting_a_side_cannot_allow_for_a_sitting_shift() {
    let o = simulate(0, 0, 0.06, 150, 4900);
    let aa = o.aa_fired as f64 / o.trials as f64;
    assert!(aa > 0.10, "{aa}");
    let r = compare(&tiny(), &changed(tiny(), "route=direct,downloads=2", |_, v| v * 1.5), &plan(None)).unwrap();
    assert_eq!(r.sittings.design, Design::WelchOneSitting);
    assert_eq!((r.sittings.baseline.len(), r.sittings.candidate.len()), (1, 1));
}
