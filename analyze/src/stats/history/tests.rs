//! The change points of `analyze history`: a hand-worked series, the ordering rules, and the
//! issue's calibration on synthetic histories of 30 measurements × 3 runs drawn with the
//! committed datasets' run spreads.

use super::*;
use crate::stats::random::SplitMix64;

#[test]
fn the_strongest_split_of_a_step_is_at_the_step() {
    // Four measurements at 0, four at 0.1, each side ±0.01: the split after the fourth scores
    // 0.1 / (s·sqrt(1/4 + 1/4)) with s² = 8·0.0001/6.
    let mu = [0.01, -0.01, 0.01, -0.01, 0.11, 0.09, 0.11, 0.09];
    let (k, t) = strongest_split(&mu, 0, mu.len()).unwrap();
    assert_eq!(k, 4);
    let s = (8.0 * 0.0001f64 / 6.0).sqrt();
    assert!((t - 0.1 / (s * 0.5f64.sqrt())).abs() < 1e-9, "{t}");
    // Every shuffle of these eight is weaker unless it keeps the four high ones together: p is
    // about 2/C(8,4) = 1/35, well below a flat series'.
    let p = permutation_p(&mu, 0, mu.len(), t, 1999, 1);
    assert!(p < 0.06, "{p}");
    let flat = [0.01, -0.01, 0.02, -0.02, 0.0, 0.01, -0.01, 0.0];
    let (_, t) = strongest_split(&flat, 0, flat.len()).unwrap();
    assert!(permutation_p(&flat, 0, flat.len(), t, 1999, 1) > 0.2);
}

#[test]
fn a_change_needs_two_measurements_on_each_side() {
    assert_eq!(strongest_split(&[0.0, 0.0, 1.0], 0, 3), None);
    // The newest measurement alone, however far off, is never a split.
    let mu = [0.0, 0.01, -0.01, 0.0, 0.01, 5.0];
    let (k, _) = strongest_split(&mu, 0, mu.len()).unwrap();
    assert!(k <= mu.len() - MIN_SEGMENT);
}

#[test]
fn revisions_order_numbers_as_numbers() {
    let mut v = vec!["v1.10", "v1.9", "v1.9.1", "v2", "v1.09b"];
    v.sort_by(|a, b| natural(a, b));
    // "09" is the number 9; then "." sorts before "b".
    assert_eq!(v, ["v1.9", "v1.9.1", "v1.09b", "v1.10", "v2"]);
}

#[test]
fn enough_permutations_for_the_first_threshold() {
    assert_eq!(permutations_for(1), MIN_PERMUTATIONS);
    // A hundred conditions at 5%: the first threshold is 0.0005, the smallest p a fifth of it.
    assert_eq!(permutations_for(100), 10_000);
    assert_eq!((family_q(1), family_q(3), family_q(10)), (0.01, 0.03, 0.05));
}

/// Every condition's sample standard deviation of its runs' log headline values, over the
/// committed datasets (tools-compared's one condition is six different tools, not repetitions,
/// and is left out).
fn committed_spreads() -> Vec<f64> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets");
    let mut spreads = Vec::new();
    let mut folders: Vec<_> =
        std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.join("runs.csv").exists()).collect();
    folders.sort();
    for folder in folders {
        if folder.ends_with("tools-compared") {
            continue;
        }
        let mut dataset = crate::dataset::load_with(&folder, crate::dataset::Keep::Latencies).unwrap();
        let report = crate::stats::build(&mut dataset, crate::stats::Detail::Statistics);
        let metric = Metric::of(&report);
        for c in &report.conditions {
            let logs: Vec<f64> = c
                .runs
                .iter()
                .filter_map(|id| metric.of_run(&report.runs[report.run_index(id).unwrap()]))
                .filter(|v| *v > 0.0)
                .map(f64::ln)
                .collect();
            if logs.len() >= 2 {
                let mean = logs.iter().sum::<f64>() / logs.len() as f64;
                spreads.push((logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (logs.len() - 1) as f64).sqrt());
            }
        }
    }
    spreads
}

#[test]
fn the_committed_run_spreads_are_the_ones_the_docs_give() {
    // docs/commands.md: the committed conditions' median run spread (log) is 8.1%, and 13 spread
    // 12% or more (the docs once said 5.6% and 16; 12 before static-file-servers was measured
    // again, idle, in 6 rounds, on 2026-12-08).
    let mut pool = committed_spreads();
    pool.sort_by(f64::total_cmp);
    let median = if pool.len() % 2 == 1 { pool[pool.len() / 2] } else { 0.5 * (pool[pool.len() / 2 - 1] + pool[pool.len() / 2]) };
    let wide = pool.iter().filter(|s| **s >= 0.12).count();
    eprintln!("{} spreads, median {median:.4}, {wide} at 0.12 or above", pool.len());
    assert!((median - 0.081).abs() < 0.0005, "median {median}");
    assert_eq!(wide, 13);
}

/// The model study, whose ten conditions and three runs each are the template of every
/// synthetic measurement.
fn template() -> Report {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets/gunicorn-slow-client");
    let mut dataset = crate::dataset::load(&dir).unwrap();
    crate::stats::build(&mut dataset, crate::stats::Detail::Statistics)
}

/// A history of `count` measurements of the template's conditions, condition c's runs drawn
/// log-normal at its median with spread `spreads[c]`, times `step` for condition `stepped` from
/// measurement `at` (0-based) on.
fn synthetic(template: &Report, count: usize, spreads: &[f64], stepped: Option<(usize, usize, f64)>, rng: &mut SplitMix64) -> Vec<Report> {
    sittings(template, count, spreads, &stepped.into_iter().collect::<Vec<_>>(), 0.0, rng)
}

/// As [`synthetic`], with any number of steps (condition, first measurement after it, factor)
/// and each sitting shifted by a normal log of standard deviation `shift`, shared by all its
/// conditions and runs.
fn sittings(
    template: &Report,
    count: usize,
    spreads: &[f64],
    steps: &[(usize, usize, f64)],
    shift: f64,
    rng: &mut SplitMix64,
) -> Vec<Report> {
    (0..count)
        .map(|m| {
            let mut report = template.clone();
            report.dataset.name = format!("m{m:02}");
            let sitting = shift * rng.normal();
            for (c, condition) in template.conditions.iter().enumerate() {
                let centre = condition.percentiles_ms["95"].median.ln() + sitting;
                let factor: f64 = steps.iter().filter(|(s, at, _)| *s == c && m >= *at).map(|(_, _, f)| f).product();
                for id in &condition.runs {
                    let i = report.run_index(id).unwrap();
                    let value = (centre + spreads[c] * rng.normal()).exp() * factor;
                    report.runs[i].percentiles_ms.insert("95".into(), value);
                    report.runs[i].started_at_utc = format!("2026-12-{:02}T00:00:00Z", m + 1);
                }
            }
            report
        })
        .collect()
}

/// Ten spreads drawn from the committed ones.
fn drawn_spreads(pool: &[f64], rng: &mut SplitMix64) -> Vec<f64> {
    (0..10).map(|_| pool[rng.below(pool.len() as u64) as usize]).collect()
}

#[test]
fn a_10_percent_step_is_found_within_two_measurements_where_the_runs_agree_as_most_committed_ones_do() {
    let pool = committed_spreads();
    assert!(pool.len() >= 30, "{} spreads", pool.len());
    let template = template();
    let mut rng = SplitMix64(20_261_204);
    let (mut found, mut false_findings, mut null_series) = (0, 0, 0);
    let mut by_spread: Vec<(f64, bool)> = Vec::new();
    let trials = 200;
    for _ in 0..trials {
        let spreads = drawn_spreads(&pool, &mut rng);
        let stepped = rng.below(10) as usize;
        let at = 5 + rng.below(21) as usize;
        let measurements = synthetic(&template, 30, &spreads, Some((stepped, at, 1.1)), &mut rng);
        let h = history(&measurements, Order::StartedAt, &[]).unwrap();
        for (c, condition) in h.conditions.iter().enumerate() {
            let true_after = at + 1;
            if c == stepped {
                let hit = condition.changes.iter().any(|ch| ch.after.abs_diff(true_after) <= 2);
                by_spread.push((spreads[c], hit));
                found += usize::from(hit);
                false_findings += condition.changes.iter().filter(|ch| ch.after.abs_diff(true_after) > 2).count();
            } else {
                null_series += 1;
                false_findings += condition.changes.len();
            }
        }
    }
    eprintln!("step found in {found} of {trials}; {false_findings} false findings over {null_series} unchanged series");
    let band = |low: f64, high: f64| {
        let hits: Vec<bool> = by_spread.iter().filter(|(s, _)| *s >= low && *s < high).map(|(_, h)| *h).collect();
        eprintln!("  spread {low}-{high}: {} of {}", hits.iter().filter(|h| **h).count(), hits.len());
        (hits.iter().filter(|h| **h).count(), hits.len())
    };
    // Measured with this seed over the committed datasets of 2026-12-07, against normal
    // measurement means (issue 48): 89 of 89 below a log spread of 0.06 (the committed median is
    // 0.081), 19 of 38 at 0.06-0.1, 11 of 42 at 0.1-0.15 and 0 of 31 above: 119 of 200 in all
    // (136 when whole measurements were shuffled, whose floor on p made 8 measurements mute). A
    // 10% step under a 12% run spread moves a measurement's mean of 3 runs by 1.4 of its own
    // standard deviations, which 30 measurements cannot tell from the sittings' wobble at the
    // false-alarm rate the A/A test holds (docs/commands.md).
    let (hits, of) = band(0.0, 0.06);
    assert!(hits * 100 >= of * 95, "below the median spread a 10% step is found within two measurements in {hits} of {of}");
    let _ = [band(0.06, 0.1), band(0.1, 0.15), band(0.15, 1.0)];
    assert!(found * 100 >= trials * 55, "a 10% step found within two measurements in {found} of {trials}");
    // With a true change in the history, Benjamini-Hochberg's threshold for the other conditions
    // rises with it (it holds the share of false findings among findings): at most 2 per 100.
    assert!(false_findings * 50 <= null_series, "{false_findings} false findings in {null_series} series");
}

/// The chance that a test told where the step is and what each condition's run spread is finds a
/// 10% step at one-sided level `alpha`, over the committed spreads and the synthetic steps' places
/// (after measurement 5 to 25 of 30, 3 runs each): an upper bound on any test that knows neither.
fn power_knowing_the_place(pool: &[f64], alpha: f64) -> f64 {
    use statrs::distribution::{ContinuousCDF, Normal};
    let normal = Normal::new(0.0, 1.0).unwrap();
    let z = normal.inverse_cdf(1.0 - alpha);
    let places: Vec<f64> = (5..=25).map(f64::from).collect();
    let mut sum = 0.0;
    for s in pool {
        for at in &places {
            let se = s * (1.0 / (3.0 * at) + 1.0 / (3.0 * (30.0 - at))).sqrt();
            sum += 1.0 - normal.cdf(z - 1.1f64.ln() / se);
        }
    }
    sum / (pool.len() * places.len()) as f64
}

#[test]
fn no_test_holding_the_false_alarm_rate_finds_a_10_percent_step_in_90_percent_of_trials() {
    // The issue asks for 90% of trials and at most 1 false finding per 100 unchanged series. A
    // test that knew where the step is and each condition's spread, given the whole of that 1%
    // for itself, would find the step in about 84% of trials at the committed spreads; at the 0.5%
    // Benjamini-Hochberg gives one change among 10 conditions, 81%. Even at 5% a series, five times
    // the false alarms allowed, it stays just short of 90% (89.9%; 90.1% before static-file-servers
    // was measured again with wider spreads).
    let pool = committed_spreads();
    let (strict, allowed, loose) =
        (power_knowing_the_place(&pool, family_q(10) / 10.0), power_knowing_the_place(&pool, 0.01), power_knowing_the_place(&pool, 0.05));
    eprintln!("knowing the place: {strict:.3} at 0.5%, {allowed:.3} at 1%, {loose:.3} at 5%");
    assert!(strict < allowed && allowed < loose && loose < 0.9, "{strict} {allowed} {loose}");
}

#[test]
fn a_a_histories_give_at_most_one_false_finding_per_100_series() {
    let pool = committed_spreads();
    let template = template();
    let mut rng = SplitMix64(7);
    let (mut findings, mut series) = (0, 0);
    for _ in 0..100 {
        let spreads = drawn_spreads(&pool, &mut rng);
        let h = history(&synthetic(&template, 30, &spreads, None, &mut rng), Order::StartedAt, &[]).unwrap();
        findings += h.summary.changes;
        series += h.conditions.len();
    }
    eprintln!("{findings} findings over {series} A/A series");
    assert!(findings * 100 <= series, "{findings} false findings in {series} series");
}

#[test]
fn a_30_percent_step_is_found_within_two_measurements_in_90_percent_of_trials() {
    // The step size at which the 90% holds over all the committed spreads, with the same
    // detector and false-alarm rule as the 10% test above. Measured with this seed: 162 of 200 at
    // 15%, 177 at 20%, 184 at 25%, 190 at 30%.
    let pool = committed_spreads();
    let template = template();
    let mut rng = SplitMix64(20_261_204);
    let mut found = 0;
    for _ in 0..200 {
        let spreads = drawn_spreads(&pool, &mut rng);
        let stepped = rng.below(10) as usize;
        let at = 5 + rng.below(21) as usize;
        let measurements = synthetic(&template, 30, &spreads, Some((stepped, at, 1.3)), &mut rng);
        let h = history(&measurements, Order::StartedAt, &[]).unwrap();
        found += usize::from(h.conditions[stepped].changes.iter().any(|ch| ch.after.abs_diff(at + 1) <= 2));
    }
    assert!(found * 10 >= 200 * 9, "a 30% step found within two measurements in {found} of 200");
}

/// `count` series of 30 measurements, each stepping by a log of 0.3 after the 15th, with a wobble
/// of 0.01: every condition changed.
fn stepped_family(count: usize) -> Vec<(Vec<f64>, u64)> {
    let mut rng = SplitMix64(46);
    (0..count)
        .map(|c| {
            let values = (0..30).map(|m| if m >= 15 { 0.3 } else { 0.0 } + 0.01 * rng.normal()).collect();
            (values, segment::seed(&format!("c{c}")))
        })
        .collect()
}

#[test]
fn when_every_condition_changed_each_shuffled_test_draws_the_fixed_shuffles_only() {
    // 400 conditions: the rule's first threshold is 0.05/400, so a test could draw 40,000
    // shuffles; with all 400 at the smallest p of 2,000 shuffles every one passes at rank 400's
    // threshold of 5% (held to 1%, the false findings a series may give), and no test needs
    // more. Each p is then 1/2000, not 1/40001: the cost is 2,000 shuffles a condition, not 100
    // times the conditions.
    let family = stepped_family(400);
    let found = segment::family(&family, family_q(400), permutations_for(400), segment::Null::Shuffle);
    assert_eq!(permutations_for(400), 40_000);
    assert!(found.first.iter().all(|p| *p == Some(1.0 / (1 + MIN_PERMUTATIONS) as f64)), "{:?}", &found.first[..3]);
    assert!(found.splits.iter().all(|s| s.iter().any(|&(k, _)| k == 15)), "{:?}", &found.splits[..3]);
    // Every further split is tested at the cut-off, 1% here: of the 800 flat halves about 8 split
    // again by chance.
    assert_eq!(found.threshold, FALSE_FINDINGS_PER_CONDITION);
    let again: usize = found.splits.iter().map(|s| s.len() - 1).sum();
    assert!(again <= 16, "{again} further splits of 800 flat halves");
}

#[test]
fn one_changed_condition_among_many_still_reaches_what_its_threshold_needs() {
    // One step among 400 flat series: its p must reach 0.05/400.
    let mut family = stepped_family(1);
    let mut rng = SplitMix64(7);
    family.extend((1..400).map(|c| ((0..30).map(|_| 0.01 * rng.normal()).collect(), segment::seed(&format!("c{c}")))));
    // 30 measurements' shuffles reach that threshold, so they are drawn, on to 40,000.
    let mut normal = null::NormalNull::new(permutations_for(400));
    let found = segment::family(&family, family_q(400), permutations_for(400), segment::Null::Normal(&mut normal));
    assert_eq!(found.first[0], Some(1.0 / 40_001.0));
    assert_eq!(found.splits[0].len(), 1);
    // 12 measurements' cannot (2/C(12,6) = 0.0022): the normal means' table gives 1/100,000.
    let short: Vec<(Vec<f64>, u64)> = family.iter().map(|(v, seed)| (v[9..21].to_vec(), *seed)).collect();
    let found = segment::family(&short, family_q(400), permutations_for(400), segment::Null::Normal(&mut normal));
    assert_eq!(found.first[0], Some(1.0 / (1 + null::NULL_DRAWS) as f64));
    assert!(!segment::shuffles_reach(12, 0.05 / 400.0) && segment::shuffles_reach(30, 0.05 / 400.0));
}

/// The figure in docs/performance.md: `cargo test --release -p analyze --lib
/// history_cost_over_conditions -- --ignored --nocapture`.
#[test]
#[ignore]
fn history_cost_over_conditions() {
    for count in [100, 400, 1600] {
        let family = stepped_family(count);
        let started = std::time::Instant::now();
        let mut normal = null::NormalNull::new(permutations_for(count));
        let found = segment::family(&family, family_q(count), permutations_for(count), segment::Null::Normal(&mut normal));
        assert!(found.splits.iter().all(|s| !s.is_empty()));
        eprintln!("{count} conditions × 30 measurements, all changed: {:.2} s", started.elapsed().as_secs_f64());
    }
}

/// What the calibration of issue 48 measures over `trials` synthetic histories of 30
/// measurements × 10 conditions × 3 runs at the committed spreads.
#[derive(Debug, Default)]
struct Calibration {
    /// One 10% step (after measurement 5 to 25), sittings unshifted: found within two.
    single_found: usize,
    /// The found single steps whose corrected 95% interval covers ×1.10, and their ratios' sum.
    covered: usize,
    found_ratio_sum: f64,
    /// Two 10% steps in one condition (after 5-12 and 18-25): both found within two.
    both_found: usize,
    /// The same step in a condition whose runs spread 0.25 (log): found, covered, and the sums of
    /// the corrected and the measured ratios of the found ones.
    wide_found: usize,
    wide_covered: usize,
    wide_ratio_sum: f64,
    wide_observed_sum: f64,
    /// False findings over unchanged series with a change elsewhere, per sitting shift.
    beside_change: [(usize, usize); 3],
    /// False findings over A/A series, per sitting shift.
    a_a: [(usize, usize); 3],
}

const SHIFTS: [f64; 3] = [0.0, 0.03, 0.06];

fn calibrate(trials: usize, seed: u64) -> Calibration {
    let pool = committed_spreads();
    let template = template();
    let mut rng = SplitMix64(seed);
    let mut out = Calibration::default();
    for trial in 0..trials {
        let spreads = drawn_spreads(&pool, &mut rng);
        let stepped = rng.below(10) as usize;
        let at = 5 + rng.below(21) as usize;
        let h = history(&sittings(&template, 30, &spreads, &[(stepped, at, 1.1)], 0.0, &mut rng), Order::StartedAt, &[]).unwrap();
        if let Some(ch) = h.conditions[stepped].changes.iter().find(|ch| ch.after.abs_diff(at + 1) <= WITHIN) {
            out.single_found += 1;
            out.found_ratio_sum += ch.ratio.unwrap();
            out.covered += usize::from(ch.low.unwrap() <= 1.1 && 1.1 <= ch.high.unwrap());
        }
        let mut wide = spreads.clone();
        wide[stepped] = 0.25;
        let h = history(&sittings(&template, 30, &wide, &[(stepped, at, 1.1)], 0.0, &mut rng), Order::StartedAt, &[]).unwrap();
        if let Some(ch) = h.conditions[stepped].changes.iter().find(|ch| ch.after.abs_diff(at + 1) <= WITHIN) {
            out.wide_found += 1;
            out.wide_ratio_sum += ch.ratio.unwrap();
            out.wide_observed_sum += ch.observed_ratio.unwrap();
            out.wide_covered += usize::from(ch.low.unwrap() <= 1.1 && 1.1 <= ch.high.unwrap());
        }
        let (a, b) = (5 + rng.below(8) as usize, 18 + rng.below(8) as usize);
        let h = history(&sittings(&template, 30, &spreads, &[(stepped, a, 1.1), (stepped, b, 1.1)], 0.0, &mut rng), Order::StartedAt, &[])
            .unwrap();
        let near = |at: usize| h.conditions[stepped].changes.iter().any(|ch| ch.after.abs_diff(at + 1) <= WITHIN);
        out.both_found += usize::from(near(a) && near(b));
        let shift = trial % 3;
        let h = history(&sittings(&template, 30, &spreads, &[(stepped, at, 1.1)], SHIFTS[shift], &mut rng), Order::StartedAt, &[]).unwrap();
        for (c, condition) in h.conditions.iter().enumerate().filter(|(c, _)| *c != stepped) {
            let _ = c;
            out.beside_change[shift].0 += condition.changes.len();
            out.beside_change[shift].1 += 1;
        }
        let h = history(&sittings(&template, 30, &spreads, &[], SHIFTS[shift], &mut rng), Order::StartedAt, &[]).unwrap();
        out.a_a[shift].0 += h.summary.changes;
        out.a_a[shift].1 += h.conditions.len();
    }
    eprintln!("{out:?}");
    eprintln!(
        "single 10% step found within two: {:.1}%; both of two: {:.1}%; coverage {:.1}% of found, mean ratio {:.3}",
        100.0 * out.single_found as f64 / trials as f64,
        100.0 * out.both_found as f64 / trials as f64,
        100.0 * out.covered as f64 / out.single_found.max(1) as f64,
        out.found_ratio_sum / out.single_found.max(1) as f64
    );
    eprintln!(
        "at a run spread of 0.25: found {}; coverage {:.1}%; mean ratio {:.3} corrected, {:.3} measured",
        out.wide_found,
        100.0 * out.wide_covered as f64 / out.wide_found.max(1) as f64,
        out.wide_ratio_sum / out.wide_found.max(1) as f64,
        out.wide_observed_sum / out.wide_found.max(1) as f64
    );
    for (i, shift) in SHIFTS.iter().enumerate() {
        let per = |(f, s): (usize, usize)| 100.0 * f as f64 / s.max(1) as f64;
        eprintln!("shift {shift}: {:.2} false per 100 beside a change, {:.2} per 100 A/A", per(out.beside_change[i]), per(out.a_a[i]));
    }
    out
}

/// The full calibration of issue 48 (2,000 trials, minutes):
/// `cargo test --release -p analyze --lib history_calibration_2000 -- --ignored --nocapture`;
/// its figures are in docs/statistics.md.
#[test]
#[ignore]
fn history_calibration_2000() {
    // HISTORY_TRIALS runs fewer while trying a change.
    let trials = std::env::var("HISTORY_TRIALS").ok().and_then(|t| t.parse().ok()).unwrap_or(2000);
    calibrate(trials, 48);
}

#[test]
fn found_changes_read_their_true_size_and_unchanged_conditions_hold_1_false_finding_per_100() {
    // A seeded sixtieth of the full calibration (`history_calibration_2000`, whose 2,000 trials
    // are in docs/statistics.md), with tolerances of about three standard errors at this count.
    let c = calibrate(60, 4848);
    // The found steps' 95% intervals, corrected for the split's selection, cover ×1.10 in at least
    // 90% of found changes in the full run; here at least 80% of about 40.
    assert!(c.single_found >= 30, "{c:?}");
    assert!(c.covered * 100 >= c.single_found * 80, "{} of {} cover", c.covered, c.single_found);
    // Corrected for the split's selection, they read the true ×1.10 on average.
    let mean = c.found_ratio_sum / c.single_found as f64;
    assert!((mean - 1.1).abs() < 0.03, "mean found ratio {mean}");
    // At most 1 false finding per 100 unchanged series in the full run, with sitting shifts of
    // 0, 0.03 and 0.06 and with or without a change elsewhere; here at most 2 per 100.
    let (findings, series) = c.beside_change.iter().chain(&c.a_a).fold((0, 0), |(f, s), (a, b)| (f + a, s + b));
    assert!(findings * 50 <= series, "{findings} false findings in {series} series");
}

#[test]
fn a_further_split_is_held_to_the_cut_off_not_to_the_largest_p_that_passed() {
    // Ten conditions; the first steps by a log of 1 after measurement 10 (its first test's p is
    // the smallest its shuffles give) and by d more after measurement 20, each measurement ±0.1;
    // d is the first of 0.10, 0.11, ... whose own test has a p above the first's and within
    // q/m = 0.005. The old rule, the largest p that passed, refused that second step;
    // Benjamini-Hochberg's cut-off, q/m with one condition passing, keeps it.
    let mut rng = SplitMix64(4801);
    let noise: Vec<f64> = (0..300).map(|_| 0.1 * rng.normal()).collect();
    let mut normal = null::NormalNull::new(permutations_for(10));
    let mut tried = Vec::new();
    for step in (10..=40).map(|d| f64::from(d) / 100.0) {
        let mut family: Vec<(Vec<f64>, u64)> = vec![(
            (0..30).map(|m| if m >= 20 { 1.0 + step } else if m >= 10 { 1.0 } else { 0.0 } + noise[m]).collect(),
            segment::seed("c0"),
        )];
        family.extend((1..10).map(|c| (noise[30 * c..30 * c + 30].to_vec(), segment::seed(&format!("c{c}")))));
        let found = segment::family(&family, family_q(10), permutations_for(10), segment::Null::Normal(&mut normal));
        let first = found.first[0].unwrap();
        let (k, t) = strongest_split(&family[0].0, 10, 30).unwrap();
        let seed = family[0].1 ^ (10u64 << 20) ^ 30;
        let second = permutation_p(&family[0].0, 10, 30, t, MIN_PERMUTATIONS, seed);
        tried.push((step, first, second));
        if k == 20 && first < second && second <= 0.005 {
            assert_eq!(found.threshold, 0.005);
            let places: Vec<usize> = found.splits[0].iter().map(|&(k, _)| k).collect();
            assert_eq!(places, [10, 20], "step {step}: {:?}", found.splits[0]);
            return;
        }
    }
    panic!("no step gave a second p between the first and 0.005: {tried:?}");
}
