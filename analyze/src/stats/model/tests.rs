use super::*;
use crate::stats::difference::log_ratio;
use crate::stats::random::SplitMix64;

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance * b.abs().max(1e-300)
}

#[test]
fn welch_is_the_variance_reviews_rule_to_the_last_bit() {
    // The hand-worked case of difference::log_ratio (scipy's ttest_ind, equal_var=False).
    let a = [0.0f64, 0.2, 0.4].map(f64::exp);
    let b = [1.0f64, 1.1, 1.3].map(f64::exp);
    let e = Estimate::welch(&a, &b).unwrap();
    assert!(close(e.ratio(), 2.542_972, 1e-6) && close(e.df, 3.740_933, 1e-6) && close(e.p(), 0.003_787_05, 1e-5), "{e:?}");
    let (low, high) = e.interval(0.95);
    assert!(close(low, 1.679_784, 1e-6) && close(high, 3.849_725, 1e-6));
    let r = log_ratio(&a, &b).unwrap();
    assert_eq!((r.ratio, r.low, r.high, r.p, r.df), (e.ratio(), low, high, e.p(), e.df));
    assert_eq!(e.design, Design::WelchOneSitting);
    assert!(!e.design.allows_for_sittings());
    // The pooled run spread: (2·0.04 + 2·0.023333)/4 = 0.0316667.
    assert!(close(e.run_log_sd.unwrap(), 0.031_666_67f64.sqrt(), 1e-6) && e.run_log_sd_df == 4.0);
    assert_eq!(Estimate::welch(&[1.0], &[2.0, 3.0]), Err(NoInterval::OneRun));
    assert_eq!(Estimate::welch(&[0.0, 1.0], &[2.0, 3.0]), Err(NoInterval::ZeroValue));
    assert_eq!(Estimate::welch(&[2.0, 2.0], &[3.0, 3.0]), Err(NoInterval::NoSpread));
}

#[test]
fn paired_rounds_by_hand() {
    // d = 0.1, 0.05, 0.2: mean 0.116667, s² = (0.016667² + 0.066667² + 0.083333²)/2 = 0.0058333,
    // se = sqrt(0.0058333/3) = 0.0440959, t = 2.645751 on 2 df: p = 1 - t/sqrt(t² + 2) = 1 - 2.645751/3 = 0.1180829.
    let rounds = [(0.0, 0.1), (0.2, 0.25), (0.1, 0.3)];
    let e = Estimate::paired(&rounds).unwrap();
    assert!(close(e.log_ratio, 0.116_666_667, 1e-8) && close(e.se, 0.044_095_855, 1e-7) && e.df == 2.0, "{e:?}");
    assert!(close(e.t(), 2.645_751_3, 1e-7));
    assert!(close(e.p(), 0.118_082_9, 1e-6), "{}", e.p());
    // Unpaired: s_a² = 0.01 (0, 0.2, 0.1), s_b² = 0.0108333 (0.1, 0.25, 0.3): the drift the
    // pairing removed is (0.01 + 0.0108333 - 0.0058333)/2 = 0.0075.
    let pairing = e.pairing.unwrap();
    assert!(close(pairing.round_variance, 0.0075, 1e-9), "{pairing:?}");
    assert!(close(pairing.unpaired_se, (0.020_833_33f64 / 3.0).sqrt(), 1e-6));
    assert_eq!(e.design, Design::PairedRounds);
    assert_eq!(Estimate::paired(&[(0.0, 1.0)]), Err(NoInterval::OneRun));
    assert_eq!(Estimate::paired(&[(0.0, 1.0), (0.5, 1.5)]), Err(NoInterval::NoSpread));
}

#[test]
fn sittings_a_side_are_student_s_t_on_the_sitting_means() {
    let e = |v: &[f64]| v.iter().map(|x| x.exp()).collect::<Vec<f64>>();
    // Sitting means 0.1, 0.2 against 0.6, 0.5: each side's variance 0.005, pooled 0.005 on 2 df,
    // se² = 0.005·(1/2 + 1/2).
    let a = vec![e(&[0.0, 0.2]), e(&[0.1, 0.3])];
    let b = vec![e(&[0.5, 0.7]), e(&[0.4, 0.6])];
    let s = Estimate::sittings(&a, &b).unwrap();
    assert!(close(s.log_ratio, 0.4, 1e-12) && close(s.se, 0.005f64.sqrt(), 1e-12) && close(s.df, 2.0, 1e-12), "{s:?}");
    assert_eq!((s.design, s.units), (Design::SittingsASide, [2, 2]));
    // Against a plain reference: Student's t with the pooled variance, on the sitting means.
    let mut rng = SplitMix64(7);
    for _ in 0..20 {
        let side = |rng: &mut SplitMix64, k: usize, shift: f64| -> Vec<Vec<f64>> {
            (0..k).map(|_| (0..3 + rng.below(3) as usize).map(|_| (shift + 0.1 * rng.normal()).exp()).collect()).collect()
        };
        let (ka, kb) = (2 + rng.below(3) as usize, 2 + rng.below(3) as usize);
        let (a, b) = (side(&mut rng, ka, 0.0), side(&mut rng, kb, 0.05));
        let mean_log = |s: &Vec<f64>| s.iter().map(|v| v.ln()).sum::<f64>() / s.len() as f64;
        let (ma, mb): (Vec<f64>, Vec<f64>) = (a.iter().map(mean_log).collect(), b.iter().map(mean_log).collect());
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        let squares = |v: &[f64]| v.iter().map(|x| (x - mean(v)).powi(2)).sum::<f64>();
        let df = (ka + kb - 2) as f64;
        let se = ((squares(&ma) + squares(&mb)) / df * (1.0 / ka as f64 + 1.0 / kb as f64)).sqrt();
        let difference = mean(&mb) - mean(&ma);
        let t = statrs::distribution::StudentsT::new(0.0, 1.0, df).unwrap();
        let p = 2.0 * statrs::distribution::ContinuousCDF::cdf(&t, -(difference / se).abs());
        let ours = Estimate::sittings(&a, &b).unwrap();
        assert!(close(ours.log_ratio, difference, 1e-12) && close(ours.se, se, 1e-12) && close(ours.p(), p, 1e-9), "{ours:?} {p}");
    }
    // One sitting against two: the two's spread of means stands for both, 1 + 2 - 2 = 1 df.
    let one = Estimate::sittings(&a[..1], &b).unwrap();
    assert!(close(one.se, (0.005f64 * 1.5).sqrt(), 1e-12) && one.df == 1.0, "{one:?}");
    assert_eq!(Estimate::sittings(&a[..1], &b[..1]), Err(NoInterval::OneRun));
}

#[test]
fn sitting_variance_by_the_balanced_anova() {
    // Three sittings of 2: logs (0, 0.2), (0.3, 0.5), (0.1, 0.1). Means 0.1, 0.4, 0.1, grand
    // 0.2; MSB = 2·(0.01 + 0.04 + 0.01)/2 = 0.06; MSW = (0.02 + 0.02 + 0)/3 = 0.013333;
    // τ² = (0.06 - 0.013333)/2 = 0.023333; df = 0.046667² / (0.06²/2 + 0.013333²/3) = 1.171315.
    let e = |v: &[f64]| v.iter().map(|x| x.exp()).collect::<Vec<f64>>();
    let v = SittingVariance::of_sittings(&[e(&[0.0, 0.2]), e(&[0.3, 0.5]), e(&[0.1, 0.1])]).unwrap();
    assert!(close(v.tau2, 0.023_333_333, 1e-7) && close(v.run_variance, 0.013_333_333, 1e-7), "{v:?}");
    assert!(close(v.df, 1.171_315, 1e-6), "{v:?}");
    assert_eq!((v.sittings, v.run_df), (3, 3.0));
    // Sittings that agree more than their runs do: τ² truncated at 0, adding nothing.
    let flat = SittingVariance::of_sittings(&[e(&[0.0, 0.2]), e(&[0.2, 0.0])]).unwrap();
    assert_eq!((flat.tau2, flat.df), (0.0, 0.0));
    assert!(SittingVariance::of_sittings(&[e(&[0.0, 0.2])]).is_none());
    assert!(close(flat.untruncated, -0.01, 1e-12), "{flat:?}");
    // Pooling averages the untruncated estimates (0.023333 and -0.01), each weighted by
    // 1/Var at the pooled τ²: Var = 2/n₀²·((MSW + n₀τ²)²/(k - 1) + MSW²/(N - k)), n₀ = 2. From
    // the plain mean 0.006667 it settles (12 steps) at τ² = 0.0143889, weights 0.732 and
    // 0.268, Var 0.00034605, df = 2τ⁴/Var = 1.1966 (below the cap of 3 - 1).
    let pooled = SittingVariance::pool(&[v, flat]).unwrap();
    assert!(close(pooled.tau2, 0.014_388_867_690_896, 1e-9), "{pooled:?}");
    assert!(close(pooled.df, 1.196_578_5, 1e-6), "{pooled:?}");
    assert_eq!((pooled.sittings, pooled.run_df), (3, 5.0));
    // The plain average of the truncated estimates would be 0.01167 whatever the spreads; here
    // a pool of estimates that are each below 0 is 0, not the mean of their positive parts.
    let below = SittingVariance::pool(&[flat, flat]).unwrap();
    assert_eq!((below.tau2, below.df), (0.0, 0.0));
}

#[test]
fn pooling_weighs_each_condition_s_sitting_variance_by_how_well_its_runs_let_it_see_tau() {
    // The same sittings' shifts seen through a tight condition (σ = 0.02) and a loose one
    // (σ = 0.3): at τ = 0 the loose one's estimate is mostly noise, and the pool follows the
    // tight one. Sittings: 4 of 3 runs each.
    let e = |v: &[f64]| v.iter().map(|x| x.exp()).collect::<Vec<f64>>();
    let tight =
        SittingVariance::of_sittings(&[e(&[0.0, 0.02, -0.02]), e(&[0.01, 0.03, -0.01]), e(&[-0.01, 0.01, -0.03]), e(&[0.0, 0.02, -0.02])])
            .unwrap();
    let loose =
        SittingVariance::of_sittings(&[e(&[0.0, 0.3, -0.3]), e(&[0.6, 0.9, 0.3]), e(&[-0.2, 0.1, -0.5]), e(&[0.0, 0.3, -0.3])]).unwrap();
    // Tight: means 0, 0.01, -0.01, 0: MSB = 0.0002, MSW = 0.0004, τ̃² = -0.0000667. Loose: means
    // 0, 0.6, -0.2, 0: MSB = 0.36, MSW = 0.09, τ̃² = 0.09. Their plain mean would be 0.045.
    assert!(close(tight.untruncated, -0.000_066_666_667, 1e-6) && close(loose.untruncated, 0.09, 1e-9), "{tight:?} {loose:?}");
    let pooled = SittingVariance::pool(&[tight, loose]).unwrap();
    assert_eq!((pooled.tau2, pooled.df), (0.0, 0.0), "{pooled:?}");
}

#[test]
fn an_external_sitting_variance_widens_welch_by_two_tau_squared() {
    let a = [0.0f64, 0.2, 0.4].map(f64::exp);
    let b = [1.0f64, 1.1, 1.3].map(f64::exp);
    let welch = Estimate::welch(&a, &b).unwrap();
    let none =
        SittingVariance { tau2: 0.0, df: 0.0, sittings: 2, run_variance: 0.03, run_df: 4.0, untruncated: 0.0, runs_per_sitting: 3.0 };
    let same = Estimate::with_sitting_variance(&a, &b, none).unwrap();
    assert_eq!((same.se, same.df, same.design), (welch.se, welch.df, Design::WelchWithSittingVariance));
    // τ² = 0.01 on 3 df: se² = 0.021111 + 0.02 = 0.041111; df = 0.041111² / (0.013333²/2 +
    // 0.0077778²/2 + 0.02²/3) = 0.00169012 / 0.000252 ≈ 6.7.
    let v = SittingVariance { tau2: 0.01, df: 3.0, ..none };
    let wide = Estimate::with_sitting_variance(&a, &b, v).unwrap();
    assert!(close(wide.se, 0.041_111_11f64.sqrt(), 1e-6), "{wide:?}");
    let df = 0.041_111_11f64.powi(2) / (0.013_333_33f64.powi(2) / 2.0 + 0.007_777_78f64.powi(2) / 2.0 + 0.0004 / 3.0);
    assert!(close(wide.df, df, 1e-5), "{wide:?} {df}");
    // Wider, though not always a larger p: its degrees of freedom grew too (3.7 to 6.7).
    let (low, high) = (welch.interval(0.95), wide.interval(0.95));
    assert!(wide.se > welch.se && high.0 < low.0 && high.1 > low.1);
}

#[test]
fn the_multiplier_is_z_plus_z_with_a_known_spread_and_grows_with_its_uncertainty() {
    // Normal limit: z(0.975) + z(0.8) = 1.959964 + 0.841621 = 2.801585.
    assert!(close(multiplier(1e9, 1e9, 0.05, 0.8), 2.801_585, 2e-3), "{}", multiplier(1e9, 1e9, 0.05, 0.8));
    // A known spread (df0 infinite) and t on 10 df: the noncentral t's own answer, δ with
    // P(|t'(10, δ)| > 2.228139) = 0.8, is 3.1100 (P(|Z + δ| > 2.228139·S) integrated over S on a
    // 20,000-point grid, erf from Python's math module).
    let known = multiplier(f64::INFINITY, 10.0, 0.05, 0.8);
    assert!((known - 3.1100).abs() < 0.002, "{known}");
    // The spread's own uncertainty asks for more, most at few degrees of freedom.
    let (k4, k10, k100) = (multiplier(4.0, 4.0, 0.05, 0.8), multiplier(10.0, 10.0, 0.05, 0.8), multiplier(100.0, 100.0, 0.05, 0.8));
    assert!(k4 > k10 && k10 > k100 && k100 > 2.80 && k10 > known, "{k4} {k10} {k100}");
    assert!(multiplier(0.0, 4.0, 0.05, 0.8).is_infinite());
}

/// 3 v 3 log-normal runs: a Welch experiment prints its detectable change; a second experiment
/// of the same design with that true change fires at 5% as often as promised (80% at least on
/// average, not far above).
#[test]
fn the_detectable_change_is_detected_80_percent_of_the_time_at_three_runs_a_side() {
    let trials = 600;
    let mut rng = SplitMix64(20_261_207);
    let mut fired = 0;
    for _ in 0..trials {
        let sd = 0.08;
        let draw = |rng: &mut SplitMix64, shift: f64| -> Vec<f64> { (0..3).map(|_| (shift + sd * rng.normal()).exp()).collect() };
        let first = Estimate::welch(&draw(&mut rng, 0.0), &draw(&mut rng, 0.0)).unwrap();
        let change = first.detectable(0.05, 0.8).ln();
        let second = Estimate::welch(&draw(&mut rng, 0.0), &draw(&mut rng, change)).unwrap();
        fired += usize::from(second.p() < 0.05);
    }
    let rate = fired as f64 / trials as f64;
    eprintln!("fired at the printed change: {rate}");
    // 600 trials: a binomial SD of 0.016 at 0.8.
    assert!((0.78..=0.92).contains(&rate), "{rate}");
}

#[test]
fn paired_and_runs_planning_find_the_first_design_that_detects() {
    let a = [0.0f64, 0.1, 0.2, 0.05, 0.15].map(f64::exp);
    let b = [0.1f64, 0.25, 0.2, 0.15, 0.3].map(f64::exp);
    let e = Estimate::welch(&a, &b).unwrap();
    let n = e.runs_a_side_for(1.10, 0.05, 0.8).unwrap();
    let k = e.rounds_for(1.10, 0.05, 0.8).unwrap();
    // Brute force: the first n whose detectable change at the spread is ≤ 1.10.
    let sd = e.run_log_sd.unwrap();
    let brute = (2..).find(|&n: &u64| {
        let nf = n as f64;
        multiplier(e.run_log_sd_df, 2.0 * nf - 2.0, 0.05, 0.8) * sd * (2.0 / nf).sqrt() <= 1.1f64.ln()
    });
    assert_eq!(Some(n), brute);
    // Rounds have fewer degrees of freedom for the same noise: at least as many as runs a side.
    assert!(k >= n && k <= n + 3, "{n} {k}");
    // The reciprocal is the same change; no change or more than the bound gives none.
    assert_eq!(e.runs_a_side_for(1.0 / 1.10, 0.05, 0.8), Some(n));
    assert_eq!(e.runs_a_side_for(1.0, 0.05, 0.8), None);
    assert_eq!(e.runs_a_side_for(1.0001, 0.05, 0.8), None);
    // With a sitting variance, no number of runs a side beats 2τ²: a change within it needs
    // rounds.
    let v =
        SittingVariance { tau2: 0.01, df: 5.0, sittings: 6, run_variance: sd * sd, run_df: 8.0, untruncated: 0.01, runs_per_sitting: 3.0 };
    let with = Estimate::with_sitting_variance(&a, &b, v).unwrap();
    assert_eq!(with.runs_a_side_for(1.10, 0.05, 0.8), None);
    assert_eq!(with.rounds_for(1.10, 0.05, 0.8), Some(k));
}

/// Welch's t on 3 v 3 log values is conservative: equal spreads, no difference, and it fires at
/// 3.45% for a nominal 5%, 0.24% for a nominal 0.5% (docs/statistics.md).
#[test]
fn welch_at_three_runs_a_side_holds_less_than_its_nominal_level() {
    let trials = 100_000;
    let mut rng = SplitMix64(48);
    let (mut at5, mut at05) = (0, 0);
    for _ in 0..trials {
        let a: Vec<f64> = (0..3).map(|_| (0.1 * rng.normal()).exp()).collect();
        let b: Vec<f64> = (0..3).map(|_| (0.1 * rng.normal()).exp()).collect();
        let p = Estimate::welch(&a, &b).unwrap().p();
        at5 += usize::from(p < 0.05);
        at05 += usize::from(p < 0.005);
    }
    let (r5, r05) = (at5 as f64 / trials as f64, at05 as f64 / trials as f64);
    eprintln!("Welch 3 v 3: {r5} at 5%, {r05} at 0.5%");
    // SDs over 100,000 trials: 0.00058 and 0.00015.
    assert!((r5 - 0.0345).abs() < 0.0025, "{r5}");
    assert!((r05 - 0.0024).abs() < 0.0006, "{r05}");
}
