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
    (0..count)
        .map(|m| {
            let mut report = template.clone();
            report.dataset.name = format!("m{m:02}");
            for (c, condition) in template.conditions.iter().enumerate() {
                let centre = condition.percentiles_ms["95"].median.ln();
                let factor = match stepped {
                    Some((s, at, f)) if s == c && m >= at => f,
                    _ => 1.0,
                };
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
    // Measured with this seed over the committed datasets of 2026-12-04: 97 of 97 below a log
    // spread of 0.06 (the committed median is 0.056), 30 of 45 at 0.06-0.1, 8 of 31 at 0.1-0.15 and
    // 1 of 27 above: 136 of 200 in all. A 10% step under a 12% run spread moves a measurement's
    // mean of 3 runs by 1.4 of its own standard deviations, which 30 measurements cannot tell from
    // the sittings' wobble at the false-alarm rate the A/A test holds (docs/commands.md).
    let (hits, of) = band(0.0, 0.06);
    assert!(hits * 100 >= of * 95, "below the median spread a 10% step is found within two measurements in {hits} of {of}");
    let _ = [band(0.06, 0.1), band(0.1, 0.15), band(0.15, 1.0)];
    assert!(found * 100 >= trials * 60, "a 10% step found within two measurements in {found} of {trials}");
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
    // for itself, would find the step in about 85% of trials at the committed spreads; at the 0.5%
    // Benjamini-Hochberg gives one change among 10 conditions, 83%. Only at 5% a series, five times
    // the false alarms allowed, does it reach 90%.
    let pool = committed_spreads();
    let (strict, allowed, loose) =
        (power_knowing_the_place(&pool, family_q(10) / 10.0), power_knowing_the_place(&pool, 0.01), power_knowing_the_place(&pool, 0.05));
    eprintln!("knowing the place: {strict:.3} at 0.5%, {allowed:.3} at 1%, {loose:.3} at 5%");
    assert!(strict < allowed && allowed < 0.9 && loose > 0.9, "{strict} {allowed} {loose}");
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
fn when_every_condition_changed_each_test_draws_the_fixed_shuffles_only() {
    // 400 conditions: the rule's first threshold is 0.05/400, so a test could draw 40,000
    // shuffles; with all 400 at the smallest p of 2,000 shuffles every one passes at rank 400's
    // threshold of 5%, and no test needs more. Each p is then 1/2000, not 1/40001: the cost is
    // 2,000 shuffles a condition, not 100 times the conditions.
    let family = stepped_family(400);
    let found = segment::family(&family, family_q(400), permutations_for(400));
    assert_eq!(permutations_for(400), 40_000);
    assert!(found.first.iter().all(|p| *p == Some(1.0 / (1 + MIN_PERMUTATIONS) as f64)), "{:?}", &found.first[..3]);
    assert!(found.splits.iter().all(|s| s.len() == 1 && s[0].0 == 15), "{:?}", &found.splits[..3]);
}

#[test]
fn one_changed_condition_among_many_still_draws_what_its_threshold_needs() {
    // One step among 400 flat series: its p must reach 0.05/400; 2,000 shuffles cannot show it,
    // so its test draws on to 40,000 and passes.
    let mut family = stepped_family(1);
    let mut rng = SplitMix64(7);
    family.extend((1..400).map(|c| ((0..30).map(|_| 0.01 * rng.normal()).collect(), segment::seed(&format!("c{c}")))));
    let found = segment::family(&family, family_q(400), permutations_for(400));
    assert_eq!(found.first[0], Some(1.0 / 40_001.0));
    assert_eq!(found.splits[0].len(), 1);
}

/// The figure in docs/performance.md: `cargo test --release -p analyze --lib
/// history_cost_over_conditions -- --ignored --nocapture`.
#[test]
#[ignore]
fn history_cost_over_conditions() {
    for count in [100, 400, 1600] {
        let family = stepped_family(count);
        let started = std::time::Instant::now();
        let found = segment::family(&family, family_q(count), permutations_for(count));
        assert!(found.splits.iter().all(|s| !s.is_empty()));
        eprintln!("{count} conditions × 30 measurements, all changed: {:.2} s", started.elapsed().as_secs_f64());
    }
}
