//! Whether two sets of run values differ, and by how much: the one rule behind the variance
//! review's comparisons and `analyze compare`.
//!
//! Runs are the sample, never requests. For two groups of n, m ≥ 2 positive run values, the
//! size of the difference is the ratio of their geometric means, b over a, with a 95%
//! confidence interval from Welch's t-test on the natural logarithms of the values (the
//! Welch-Satterthwaite degrees of freedom) and its two-sided p. The assumption is that run-to-run
//! variation is log-normal: multiplicative, as latencies and rates vary. Over the comparisons of
//! one review, the false discovery rate is held at [`FDR_Q`] by Benjamini and Hochberg's step-up
//! rule (1995). A verdict is *negligible* only by equivalence: the interval lies wholly inside
//! the practical threshold (±5% by default), whatever the p; *supported* when the rule passes and
//! it is not negligible; *not shown* otherwise. (A significant difference whose point ratio lies
//! within the threshold was once called negligible whatever its interval: a true 6% difference
//! then read "negligible" 12-23% of the time.) The estimate itself, and the detectable change
//! that replaced "runs needed", live in [`super::model`].
//!
//! `analyze compare` adds two things on the same footing: the direction of a supported
//! difference ([`directed`]) and whether an interval lies wholly beyond a regression threshold
//! ([`regression_beyond`]).

use crate::model::{CompareVerdict, NoInterval, Verdict};
use serde::Serialize;

/// The false discovery rate the verdicts of one review keep.
pub const FDR_Q: f64 = 0.05;
/// The confidence level of the ratio's interval.
pub const INTERVAL_LEVEL: f64 = 0.95;

/// The ratio of geometric means b/a with its Welch interval on the logs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LogRatio {
    /// exp(mean(ln b) - mean(ln a)).
    pub ratio: f64,
    pub low: f64,
    pub high: f64,
    /// Two-sided p of Welch's t on the logs.
    pub p: f64,
    /// Welch-Satterthwaite degrees of freedom.
    pub df: f64,
}

/// The ratio b/a of geometric means with its 95% interval and p, or why there is none.
pub fn log_ratio(a: &[f64], b: &[f64]) -> Result<LogRatio, NoInterval> {
    let estimate = super::model::Estimate::welch(a, b)?;
    let (low, high) = estimate.interval(INTERVAL_LEVEL);
    Ok(LogRatio { ratio: estimate.ratio(), low, high, p: estimate.p(), df: estimate.df })
}

/// Benjamini-Hochberg at false discovery rate `q`: which of the p values are discoveries. The
/// largest k with p(k) ≤ k·q/m among the sorted p values, and every p ranked at or below it.
pub fn benjamini_hochberg(p: &[f64], q: f64) -> Vec<bool> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&i, &j| p[i].total_cmp(&p[j]));
    let cutoff = (1..=m).rev().find(|&k| p[order[k - 1]] <= k as f64 * q / m as f64).unwrap_or(0);
    let mut passes = vec![false; m];
    for &i in &order[..cutoff] {
        passes[i] = true;
    }
    passes
}

/// Whether a ratio lies within the practical threshold: max(r, 1/r) - 1 < `negligible`.
pub fn within(ratio: f64, negligible: f64) -> bool {
    ratio > 0.0 && ratio.max(1.0 / ratio) - 1.0 < negligible
}

/// The ratios [`within`] the practical threshold, as the ends of the open band they fill:
/// 1 / (1 + `negligible`) to 1 + `negligible` (0.952 to 1.05 for 5%), for a chart to shade.
pub fn negligible_band(negligible: f64) -> (f64, f64) {
    (1.0 / (1.0 + negligible), 1.0 + negligible)
}

/// The verdict of one comparison from its ratio b/a and interval (`None`: no interval), whether
/// it passed the false-discovery rule, and the practical threshold (a fraction, dataset.toml's
/// `thresholds.negligible_difference`): negligible when the whole interval lies within the
/// threshold (equivalence), else supported when discovered, else not shown.
pub fn verdict(ratio: f64, interval: Option<(f64, f64)>, discovery: bool, negligible: f64) -> Verdict {
    let Some((low, high)) = interval else { return Verdict::NotShown };
    if ratio.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return Verdict::NotShown;
    }
    if within(low, negligible) && within(high, negligible) {
        Verdict::Negligible
    } else if discovery {
        Verdict::Supported
    } else {
        Verdict::NotShown
    }
}

/// The ratio of the geometric means of `b` and `a`, `None` when a side is empty or a value is not
/// positive.
pub fn geometric_mean_ratio(a: &[f64], b: &[f64]) -> Option<f64> {
    let log_mean = |v: &[f64]| -> Option<f64> {
        (!v.is_empty() && v.iter().all(|&x| x > 0.0)).then(|| v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64)
    };
    Some((log_mean(b)? - log_mean(a)?).exp())
}

/// The verdict of a candidate against its baseline (the ratio is candidate over baseline): a
/// supported difference gets the direction `higher_is_better` calls better.
pub fn directed(verdict: Verdict, ratio: f64, higher_is_better: bool) -> CompareVerdict {
    match verdict {
        Verdict::Supported if (ratio > 1.0) == higher_is_better => CompareVerdict::SupportedFaster,
        Verdict::Supported => CompareVerdict::SupportedSlower,
        Verdict::Negligible => CompareVerdict::Negligible,
        Verdict::NotShown => CompareVerdict::NotShown,
    }
}

/// Whether the 95% interval of the ratio candidate/baseline lies wholly on the worse side of a
/// regression `threshold` (a fraction: 0.1 for 10%): above 1 + threshold where lower is better,
/// below 1 - threshold where higher is better (a 10% fall of requests/s is a ratio under 0.9).
pub fn regression_beyond(low: f64, high: f64, threshold: f64, higher_is_better: bool) -> bool {
    if higher_is_better {
        high < 1.0 - threshold
    } else {
        low > 1.0 + threshold
    }
}

/// The log of the ratio a regression `threshold` stands for, signed as the ratio moves: ln(1 +
/// threshold) where lower is better, ln(1 - threshold) where higher is better; `None` for a
/// fall of 100% or more, which no positive ratio reaches.
pub fn regression_log_limit(threshold: f64, higher_is_better: bool) -> Option<f64> {
    let limit = if higher_is_better { 1.0 - threshold } else { 1.0 + threshold };
    (limit > 0.0).then(|| limit.ln())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance * b.abs().max(1e-300)
    }

    #[test]
    fn the_negligible_band_is_where_within_holds() {
        for negligible in [0.01, 0.05, 0.2] {
            let (low, high) = negligible_band(negligible);
            for inside in [low * 1.000001, 1.0, high * 0.999999] {
                assert!(within(inside, negligible), "{inside} in {negligible}");
            }
            for outside in [low * 0.999999, high * 1.000001] {
                assert!(!within(outside, negligible), "{outside} out of {negligible}");
            }
        }
    }

    #[test]
    fn log_ratio_of_a_hand_worked_case() {
        // a = e^{0, 0.2, 0.4}, b = e^{1, 1.1, 1.3}: logs with means 0.2 and 1.13333, sample
        // variances 0.04 and 0.023333; se² = 0.04/3 + 0.023333/3 = 0.021111, se = 0.145297;
        // df = 0.021111² / ((0.013333²)/2 + (0.0077778²)/2) = 3.740933; t = 0.93333 / 0.145297 =
        // 6.423641. scipy.stats.ttest_ind(equal_var=False) gives the same t, df and p = 0.0037870;
        // scipy.stats.t.ppf(0.975, 3.740933) = 2.853943, so the interval is
        // exp(0.93333 ± 2.853943·0.145297) = [1.679784, 3.849725] around exp(0.93333) = 2.542972.
        let a = [0.0f64, 0.2, 0.4].map(f64::exp);
        let b = [1.0f64, 1.1, 1.3].map(f64::exp);
        let r = log_ratio(&a, &b).unwrap();
        assert!(close(r.ratio, 2.542_972, 1e-6), "{r:?}");
        assert!(close(r.df, 3.740_933, 1e-6), "{r:?}");
        assert!(close(r.p, 0.003_787_05, 1e-5), "{r:?}");
        assert!(close(r.low, 1.679_784, 1e-6), "{r:?}");
        assert!(close(r.high, 3.849_725, 1e-6), "{r:?}");
        // b over a, so the other way round is the reciprocal with the same p.
        let back = log_ratio(&b, &a).unwrap();
        assert!(close(back.ratio, 1.0 / r.ratio, 1e-12) && close(back.low, 1.0 / r.high, 1e-12));
        assert!(close(back.p, r.p, 1e-12));
    }

    #[test]
    fn identical_runs_have_no_spread_at_every_scale() {
        // Each side's runs identical: no interval, whatever the magnitude (the rounding of a mean
        // of logs once decided it: 5 against 6 was "supported", 52 against 60 not).
        for scale in [1e-6, 0.001, 0.3, 1.0, 5.0, 52.0, 1e3, 7.77e5, 1e12] {
            let a = [5.0 * scale; 3];
            let b = [6.0 * scale; 3];
            assert_eq!(log_ratio(&a, &b), Err(NoInterval::NoSpread), "scale {scale}");
            let a = [52.0 * scale; 5];
            assert_eq!(log_ratio(&a, &[60.0 * scale; 5]), Err(NoInterval::NoSpread), "scale {scale}");
        }
        // One side identical, the other varying: an interval from the varying side alone.
        let r = log_ratio(&[5.0; 3], &[6.0, 6.5, 7.0]).unwrap();
        assert!(r.low < r.ratio && r.ratio < r.high);
    }

    #[test]
    fn equal_groups_give_a_ratio_of_one_and_p_of_one() {
        let r = log_ratio(&[10.0, 12.0, 11.0], &[11.0, 10.0, 12.0]).unwrap();
        assert!(close(r.ratio, 1.0, 1e-12) && close(r.p, 1.0, 1e-12), "{r:?}");
        assert!(r.low < 1.0 && r.high > 1.0);
    }

    #[test]
    fn no_interval_without_two_runs_a_side_positive_values_or_spread() {
        assert_eq!(log_ratio(&[1.0], &[2.0, 3.0]), Err(NoInterval::OneRun));
        assert_eq!(log_ratio(&[0.0, 1.0], &[2.0, 3.0]), Err(NoInterval::ZeroValue));
        assert_eq!(log_ratio(&[52.0, 52.0, 52.0], &[60.0, 60.0, 60.0]), Err(NoInterval::NoSpread));
        // One side without spread is fine: the other side's variance carries the interval.
        let r = log_ratio(&[52.0, 52.0, 52.0], &[60.0, 61.0, 59.0]).unwrap();
        assert!(close(r.df, 2.0, 1e-12), "{r:?}");
    }

    #[test]
    fn a_3953_fold_gap_over_three_runs_a_side_has_a_tiny_p() {
        // The model study's direct vs buffering-on at 2 downloads: ~1.5 ms against ~5,900 ms.
        let r = log_ratio(&[1.52, 1.49, 1.61], &[5945.1, 6012.4, 5890.0]).unwrap();
        assert!(r.p < 1e-5, "{r:?}");
        assert!(r.low > 3000.0 && r.high < 5000.0, "{r:?}");
    }

    #[test]
    fn benjamini_hochberg_by_hand() {
        // m = 5, q = 0.05: thresholds 0.01, 0.02, 0.03, 0.04, 0.05 for the sorted p values
        // 0.001, 0.012, 0.035, 0.039, 0.2: the largest k with p(k) ≤ k·q/m is 4 (0.039 ≤ 0.04),
        // so the first four pass although 0.035 > 0.03 (step-up, not step-down).
        let p = [0.2, 0.039, 0.001, 0.035, 0.012];
        assert_eq!(benjamini_hochberg(&p, 0.05), vec![false, true, true, true, true]);
        // Bonferroni would have passed only 0.001 (≤ 0.01).
        assert_eq!(benjamini_hochberg(&[0.04, 0.3], 0.05), vec![false, false]);
        assert_eq!(benjamini_hochberg(&[0.04], 0.05), vec![true]);
        assert_eq!(benjamini_hochberg(&[], 0.05), Vec::<bool>::new());
        // Ties at the cut-off pass together.
        assert_eq!(benjamini_hochberg(&[0.05, 0.05], 0.05), vec![true, true]);
    }

    /// A plain reference: for every k from m down, test the k smallest against k·q/m.
    fn bh_reference(p: &[f64], q: f64) -> Vec<bool> {
        let m = p.len();
        let mut sorted: Vec<f64> = p.to_vec();
        sorted.sort_by(f64::total_cmp);
        let mut threshold = f64::NEG_INFINITY;
        for k in (1..=m).rev() {
            if sorted[k - 1] <= k as f64 * q / m as f64 {
                threshold = sorted[k - 1];
                break;
            }
        }
        p.iter().map(|&v| v <= threshold).collect()
    }

    proptest::proptest! {
        #[test]
        fn benjamini_hochberg_matches_the_reference(p in proptest::collection::vec(0.0f64..0.2, 0..30)) {
            proptest::prop_assert_eq!(benjamini_hochberg(&p, 0.05), bh_reference(&p, 0.05));
        }
    }

    #[test]
    fn verdicts_by_size_and_discovery() {
        let interval = |ratio: f64, low: f64, high: f64| (ratio, Some((low, high)));
        let verdict = |(ratio, interval): (f64, Option<(f64, f64)>), discovery: bool, negligible: f64| {
            verdict(ratio, interval, discovery, negligible)
        };
        // 762 vs 548 req/s: a 1.39x ratio, discovered: supported.
        assert_eq!(verdict(interval(1.39, 1.3, 1.5), true, 0.05), Verdict::Supported);
        // The same ratio not discovered: not shown.
        assert_eq!(verdict(interval(1.39, 0.9, 2.1), false, 0.05), Verdict::NotShown);
        // Discovered but 2% apart, the whole interval within ±5%: negligible.
        assert_eq!(verdict(interval(1.02, 1.01, 1.03), true, 0.05), Verdict::Negligible);
        // Discovered, 2% apart, but the interval reaching 8%: not shown negligible, so supported
        // (the old rule called it negligible by its point ratio).
        assert_eq!(verdict(interval(1.02, 1.001, 1.08), true, 0.05), Verdict::Supported);
        // Not discovered, but the whole interval within ±5%: negligible.
        assert_eq!(verdict(interval(1.0, 0.97, 1.04), false, 0.05), Verdict::Negligible);
        // Not discovered, interval reaching beyond 5%: not shown.
        assert_eq!(verdict(interval(1.0, 0.9, 1.1), false, 0.05), Verdict::NotShown);
        // Below 1 counts by its reciprocal: 0.9 is more than 5% away.
        assert_eq!(verdict(interval(0.9, 0.88, 0.92), true, 0.05), Verdict::Supported);
        assert_eq!(verdict((1.5, None), true, 0.05), Verdict::NotShown);
    }

    #[test]
    fn within_is_symmetric_in_log_space() {
        assert!(within(1.04, 0.05) && within(1.0 / 1.04, 0.05));
        assert!(!within(1.05, 0.05) && !within(1.0 / 1.05, 0.05));
        assert!(!within(0.0, 0.05));
    }

    #[test]
    fn directions_follow_the_metric() {
        // Latency: a ratio below 1 is the candidate being faster.
        assert_eq!(directed(Verdict::Supported, 0.8, false), CompareVerdict::SupportedFaster);
        assert_eq!(directed(Verdict::Supported, 1.5, false), CompareVerdict::SupportedSlower);
        // Requests/s: a ratio above 1 is more requests/s, the better side.
        assert_eq!(directed(Verdict::Supported, 1.5, true), CompareVerdict::SupportedFaster);
        assert_eq!(directed(Verdict::Supported, 0.8, true), CompareVerdict::SupportedSlower);
        assert_eq!(directed(Verdict::Negligible, 0.99, true), CompareVerdict::Negligible);
        assert_eq!(directed(Verdict::NotShown, 3.0, false), CompareVerdict::NotShown);
    }

    #[test]
    fn a_regression_is_an_interval_wholly_beyond_the_threshold() {
        assert!(regression_beyond(1.45, 1.55, 0.10, false));
        assert!(!regression_beyond(1.05, 1.55, 0.10, false), "reaches below 1.10");
        // Requests/s: a 10% fall is a ratio below 0.9.
        assert!(regression_beyond(0.70, 0.85, 0.10, true));
        assert!(!regression_beyond(0.70, 0.95, 0.10, true));
        assert_eq!(regression_log_limit(0.1, false), Some(1.1f64.ln()));
        assert_eq!(regression_log_limit(0.1, true), Some(0.9f64.ln()));
        assert_eq!(regression_log_limit(1.0, true), None);
    }
}
