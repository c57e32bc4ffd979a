//! The one statistical model behind every verdict that compares two sets of runs: `analyze
//! compare` (one or several sittings a side), the variance review's pairs and its paired verdicts
//! over interleaved rounds.
//!
//! The model, on the natural logarithm of a run's value:
//!
//! ```text
//! ln(run value) = level effect + sitting effect + run noise
//!                 sitting effect ~ N(0, τ²), shared by the runs of one sitting
//!                 run noise      ~ N(0, σ²), one per run
//! ```
//!
//! A sitting is everything measured in one go on one host state (a dataset; an interleaved round
//! is a sitting of its own). What a comparison can estimate depends on its design ([`Design`]):
//!
//! - **Welch in one sitting** ([`Estimate::welch`]): one sitting a side. σ² is seen, τ² is not:
//!   the difference of the two sittings' means carries 2τ² that the runs cannot show, so the
//!   interval assumes τ² = 0. Welch's t on the logs, Welch-Satterthwaite degrees of freedom.
//! - **Welch with an external τ²** ([`Estimate::with_sitting_variance`]): the same, with τ²
//!   estimated elsewhere (A/A sittings of the baseline, `--aa`; the conditions' estimates pooled
//!   by [`SittingVariance::pool`]): se² = s_a²/n + s_b²/m + 2τ̂², its degrees of freedom by
//!   Satterthwaite over the three terms (τ̂² with its own).
//! - **Sittings a side** ([`Estimate::sittings`]): several sittings a side. Each sitting's mean
//!   log is one unit (its variance τ² + σ²/n holds both effects), and the level of a side is the
//!   plain mean of its sittings' means. Student's t on the sitting means, their variance pooled
//!   over both sides (a side of one sitting takes the other's), ka + kb - 2 degrees of freedom.
//! - **Paired rounds** ([`Estimate::paired`]): both levels measured in each of k rounds of one
//!   sitting. The within-round difference of mean logs removes the round's effect; t on the k
//!   differences, k - 1 degrees of freedom; [`paired_permutation_p`] is the exact sign-flip p
//!   beside it, which cannot go below 2/2^k.
//!
//! Every estimate is a difference b over a of log levels with a standard error and degrees of
//! freedom; its interval, p and detectable change ([`Estimate::detectable`]) follow by one rule.
//!
//! The detectable change is the smallest ratio the same design would detect with probability
//! `power` by a two-sided t-test at `alpha`, from the spread this estimate saw, allowing for that
//! spread's own uncertainty: the printed change D = exp(k·se) where k solves
//! E[P(|ln D + se·Z| > t_crit·se·S₁)] = power over the estimated se = se·S₀ as well, S₀ and S₁
//! independent, sqrt(χ²_ν₀/ν₀) and sqrt(χ²_ν/ν): ν the test's degrees of freedom, ν₀ the same
//! or, for a τ̂² from k sittings, at most k - 1. That is the power of a new experiment of the
//! same design at the printed change, averaged over what this experiment could have printed, and
//! it is at least `power` on average (noncentral t with a random noncentrality; checked by seeded
//! simulation in the tests below, with 3 runs a side the hard case).

use crate::model::NoInterval;
pub use crate::model::{Design, SittingVariance};
use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

pub use super::permutation::paired_permutation_p;

impl SittingVariance {
    /// The one-way random-effects ANOVA estimate from sittings of the same thing (each a list of
    /// positive run values): τ̂² = (MSB - MSW)/n₀, n₀ = (N - Σnᵢ²/N)/(k - 1), truncated at 0; its
    /// degrees of freedom (MSB - MSW)² / (MSB²/(k - 1) + MSW²/(N - k)). `None` below 2 sittings
    /// with a run, without a sitting of 2 runs, or with a value that is not positive.
    pub fn of_sittings(sittings: &[Vec<f64>]) -> Option<SittingVariance> {
        let used: Vec<&Vec<f64>> = sittings.iter().filter(|s| !s.is_empty()).collect();
        let k = used.len();
        let total: usize = used.iter().map(|s| s.len()).sum();
        if k < 2 || total <= k || used.iter().any(|s| s.iter().any(|&v| !(v > 0.0 && v.is_finite()))) {
            return None;
        }
        let stats: Vec<(f64, f64, usize)> = used
            .iter()
            .map(|s| {
                let (mean, var) = mean_and_variance(s.iter().map(|v| v.ln()));
                (mean, if s.len() > 1 { var } else { 0.0 }, s.len())
            })
            .collect();
        let n = total as f64;
        let grand = stats.iter().map(|&(m, _, c)| m * c as f64).sum::<f64>() / n;
        let msb = stats.iter().map(|&(m, _, c)| c as f64 * (m - grand) * (m - grand)).sum::<f64>() / (k - 1) as f64;
        let msw = stats.iter().map(|&(_, v, c)| v * (c - 1) as f64).sum::<f64>() / (n - k as f64);
        let n0 = (n - stats.iter().map(|&(_, _, c)| (c * c) as f64).sum::<f64>() / n) / (k - 1) as f64;
        let untruncated = (msb - msw) / n0;
        let tau2 = untruncated.max(0.0);
        let df = if tau2 > 0.0 { (msb - msw).powi(2) / (msb * msb / (k - 1) as f64 + msw * msw / (n - k as f64)) } else { 0.0 };
        Some(SittingVariance { tau2, df, sittings: k, run_variance: msw, run_df: n - k as f64, untruncated, runs_per_sitting: n0 })
    }

    /// Several estimates (of the conditions of the same sittings) as one. Every condition
    /// estimates the same τ² (a sitting's shift is shared), but not equally well: a condition
    /// whose runs spread widely sees τ² through far more noise. So the untruncated estimates are
    /// averaged with weights 1/Var(τ̃ᵢ²), Var(τ̃ᵢ²) = 2/n₀²·((MSWᵢ + n₀τ²)²/(kᵢ - 1) + MSWᵢ²/(Nᵢ - kᵢ))
    /// at the pooled τ² (iterated from the plain mean until it settles), and truncated at 0 once. Its
    /// degrees of freedom 2τ̂⁴/Var(τ̂²), at most the sittings - 1 of one condition (the
    /// conditions of a sitting share its shift, so their estimates are not independent); σ̂²
    /// averaged with weights its degrees of freedom; `sittings` the most of one condition.
    /// `None` without an estimate from 2 sittings.
    pub fn pool(all: &[SittingVariance]) -> Option<SittingVariance> {
        let used: Vec<&SittingVariance> = all.iter().filter(|v| v.sittings >= 2 && v.run_df > 0.0).collect();
        if used.is_empty() {
            return None;
        }
        // The variance of one condition's untruncated estimate were τ² the truth.
        let variance = |v: &SittingVariance, tau2: f64| {
            let n0 = v.runs_per_sitting;
            2.0 / (n0 * n0) * ((v.run_variance + n0 * tau2).powi(2) / (v.sittings - 1) as f64 + v.run_variance.powi(2) / v.run_df)
        };
        let mut tau2 = (used.iter().map(|v| v.untruncated).sum::<f64>() / used.len() as f64).max(0.0);
        let mut var = 0.0;
        for _ in 0..50 {
            // A condition whose runs all agree exactly (a tool's coarse resolution) cannot be
            // weighed: it is left out of the average.
            let weights: Vec<f64> = used.iter().map(|v| 1.0 / variance(v, tau2)).map(|w| if w.is_finite() { w } else { 0.0 }).collect();
            let total: f64 = weights.iter().sum();
            if total <= 0.0 {
                return Some(pooled_runs(&used));
            }
            let next = (used.iter().zip(&weights).map(|(v, w)| v.untruncated * w).sum::<f64>() / total).max(0.0);
            var = 1.0 / total;
            let settled = (next - tau2).abs() <= 1e-12 * next;
            tau2 = next;
            if settled {
                break;
            }
        }
        let sittings = used.iter().map(|v| v.sittings).max().unwrap_or(0);
        let df = if tau2 > 0.0 && var > 0.0 { (2.0 * tau2 * tau2 / var).min((sittings - 1) as f64) } else { 0.0 };
        Some(SittingVariance { tau2, df, untruncated: tau2, ..pooled_runs(&used) })
    }
}

/// The run spread of several estimates as one: σ̂² averaged with weights its degrees of freedom,
/// n₀ likewise; `sittings` the most of one condition (τ̂² left at 0 for the caller to set).
fn pooled_runs(used: &[&SittingVariance]) -> SittingVariance {
    let run_df: f64 = used.iter().map(|v| v.run_df).sum();
    let weighted = |f: fn(&SittingVariance) -> f64| used.iter().map(|v| f(v) * v.run_df).sum::<f64>() / run_df;
    SittingVariance {
        tau2: 0.0,
        df: 0.0,
        sittings: used.iter().map(|v| v.sittings).max().unwrap_or(0),
        run_variance: weighted(|v| v.run_variance),
        run_df,
        untruncated: 0.0,
        runs_per_sitting: weighted(|v| v.runs_per_sitting),
    }
}

/// What pairing within rounds removed: the between-round drift.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Pairing {
    /// The standard error the same rounds would have had unpaired (Welch on the per-round mean
    /// logs of each side): sqrt((s_a² + s_b²)/k).
    pub unpaired_se: f64,
    /// The between-round variance of the log level the pairing removed: (s_a² + s_b² - s_d²)/2,
    /// the covariance of the two sides over rounds (may be negative by chance; then nothing was
    /// removed).
    pub round_variance: f64,
}

/// The difference b over a of two log levels, its standard error and degrees of freedom, and
/// the design that produced them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Estimate {
    /// mean(ln b) - mean(ln a), by the design's own means.
    pub log_ratio: f64,
    /// Its standard error.
    pub se: f64,
    /// The t distribution's degrees of freedom.
    pub df: f64,
    pub design: Design,
    /// The units a side: runs (Welch), sittings (sittings a side), rounds (paired; both sides).
    pub units: [usize; 2],
    /// The pooled run-to-run (within-sitting) log standard deviation σ̂ and its degrees of
    /// freedom, for planning; `None` where no sitting had 2 runs.
    pub run_log_sd: Option<f64>,
    pub run_log_sd_df: f64,
    /// The sitting-to-sitting variance this estimate includes, where it has one.
    pub sitting_variance: Option<SittingVariance>,
    /// For paired rounds: what the pairing removed.
    pub pairing: Option<Pairing>,
}

impl Estimate {
    /// Welch's t on the logs of the runs of one sitting a side (`a` the baseline, `b` the
    /// candidate): the ratio b/a of geometric means. `Err` below 2 runs a side, for a value that
    /// is not positive, and when neither side varies.
    pub fn welch(a: &[f64], b: &[f64]) -> Result<Estimate, NoInterval> {
        if a.len() < 2 || b.len() < 2 {
            return Err(NoInterval::OneRun);
        }
        if a.iter().chain(b).any(|&v| v.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater)) {
            return Err(NoInterval::ZeroValue);
        }
        let (mean_a, var_a) = mean_and_variance(a.iter().map(|v| v.ln()));
        let (mean_b, var_b) = mean_and_variance(b.iter().map(|v| v.ln()));
        let (n, m) = (a.len() as f64, b.len() as f64);
        let (wa, wb) = (var_a / n, var_b / m);
        let se2 = wa + wb;
        if se2 <= 0.0 {
            return Err(NoInterval::NoSpread);
        }
        let df = se2 * se2 / (wa * wa / (n - 1.0) + wb * wb / (m - 1.0));
        let run_df = n + m - 2.0;
        Ok(Estimate {
            log_ratio: mean_b - mean_a,
            se: se2.sqrt(),
            df,
            design: Design::WelchOneSitting,
            units: [a.len(), b.len()],
            run_log_sd: Some((((n - 1.0) * var_a + (m - 1.0) * var_b) / run_df).sqrt()),
            run_log_sd_df: run_df,
            sitting_variance: None,
            pairing: None,
        })
    }

    /// A one-sitting-a-side Welch estimate with the sitting-to-sitting variance `v` added to
    /// both sides: se² = s_a²/n + s_b²/m + 2τ̂², Satterthwaite's degrees of freedom over the three
    /// terms. `a` and `b` are the same runs [`Estimate::welch`] had. With τ̂² = 0 the estimate is
    /// Welch's, only named as allowing for sittings.
    pub fn with_sitting_variance(a: &[f64], b: &[f64], v: SittingVariance) -> Result<Estimate, NoInterval> {
        let welch = Estimate::welch(a, b)?;
        let (_, var_a) = mean_and_variance(a.iter().map(|x| x.ln()));
        let (_, var_b) = mean_and_variance(b.iter().map(|x| x.ln()));
        let (n, m) = (a.len() as f64, b.len() as f64);
        let (wa, wb, wt) = (var_a / n, var_b / m, 2.0 * v.tau2);
        let se2 = wa + wb + wt;
        let tau_term = if v.df > 0.0 { wt * wt / v.df } else { 0.0 };
        let df = se2 * se2 / (wa * wa / (n - 1.0) + wb * wb / (m - 1.0) + tau_term);
        Ok(Estimate { se: se2.sqrt(), df, design: Design::WelchWithSittingVariance, sitting_variance: Some(v), ..welch })
    }

    /// Several sittings a side (each a list of positive run values; `a` the baseline's
    /// sittings, `b` the candidate's): each sitting's mean log is a unit, each side's level the
    /// mean of its units. Student's t on the units, their variance pooled over both sides (a side
    /// of one sitting is taken to vary as the other side's do), ka + kb - 2 degrees of freedom.
    /// Sittings without a run are left out.
    /// `Err(OneRun)` with fewer than 3 sittings in all or an empty side, `NoSpread` when the
    /// sitting means do not vary.
    pub fn sittings(a: &[Vec<f64>], b: &[Vec<f64>]) -> Result<Estimate, NoInterval> {
        let a: Vec<&Vec<f64>> = a.iter().filter(|s| !s.is_empty()).collect();
        let b: Vec<&Vec<f64>> = b.iter().filter(|s| !s.is_empty()).collect();
        if a.is_empty() || b.is_empty() || a.len() + b.len() < 3 {
            return Err(NoInterval::OneRun);
        }
        if a.iter().chain(&b).any(|s| s.iter().any(|&v| v.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater))) {
            return Err(NoInterval::ZeroValue);
        }
        let means = |side: &[&Vec<f64>]| -> Vec<f64> { side.iter().map(|s| mean_and_variance(s.iter().map(|v| v.ln())).0).collect() };
        let (ma, mb) = (means(&a), means(&b));
        let (mean_a, var_a) = mean_and_variance(ma.iter().copied());
        let (mean_b, var_b) = mean_and_variance(mb.iter().copied());
        let (ka, kb) = (ma.len() as f64, mb.len() as f64);
        // Student's t on the sitting means, their variance pooled over both sides: a side of one
        // sitting has no spread of its own and takes the other's. Not Welch's: at 2 sittings a
        // side its degrees of freedom swing between 1 and 2 with the sample's own variances, and
        // its critical value with them (8.9 to 51 at 1.25%), which no stated detectable change
        // can hold to; with as many sittings a side, Student's t keeps its level under unequal
        // variances.
        let df = ka + kb - 2.0;
        let pooled = ((ka - 1.0) * var_a + (kb - 1.0) * var_b) / df;
        let se2 = pooled * (1.0 / ka + 1.0 / kb);
        if se2 <= 0.0 {
            return Err(NoInterval::NoSpread);
        }
        let all: Vec<Vec<f64>> = a.iter().chain(&b).map(|s| s.to_vec()).collect();
        let within = within_sitting(&all);
        let tau: Vec<SittingVariance> = [&a, &b]
            .iter()
            .filter(|side| side.len() >= 2)
            .filter_map(|side| SittingVariance::of_sittings(&side.iter().map(|s| s.to_vec()).collect::<Vec<_>>()))
            .collect();
        Ok(Estimate {
            log_ratio: mean_b - mean_a,
            se: se2.sqrt(),
            df,
            design: Design::SittingsASide,
            units: [ma.len(), mb.len()],
            run_log_sd: within.map(|(var, _)| var.sqrt()),
            run_log_sd_df: within.map_or(0.0, |(_, df)| df),
            sitting_variance: SittingVariance::pool(&tau),
            pairing: None,
        })
    }

    /// Paired rounds: per round, (mean ln a, mean ln b) of the runs of each level in that round.
    /// t on the within-round differences d = ln b - ln a, k - 1 degrees of freedom. `Err(OneRun)`
    /// below 2 rounds, `ZeroValue` for a log that is not finite, `NoSpread` when every round's
    /// difference is the same.
    pub fn paired(rounds: &[(f64, f64)]) -> Result<Estimate, NoInterval> {
        let k = rounds.len();
        if k < 2 {
            return Err(NoInterval::OneRun);
        }
        if rounds.iter().any(|&(x, y)| !(x.is_finite() && y.is_finite())) {
            return Err(NoInterval::ZeroValue);
        }
        let (mean_d, var_d) = mean_and_variance(rounds.iter().map(|&(x, y)| y - x));
        if var_d <= 0.0 {
            return Err(NoInterval::NoSpread);
        }
        let (_, var_a) = mean_and_variance(rounds.iter().map(|&(x, _)| x));
        let (_, var_b) = mean_and_variance(rounds.iter().map(|&(_, y)| y));
        let kf = k as f64;
        Ok(Estimate {
            log_ratio: mean_d,
            se: (var_d / kf).sqrt(),
            df: kf - 1.0,
            design: Design::PairedRounds,
            units: [k, k],
            // One run a level a round: a difference holds two runs' noise, Var(d) = 2σ².
            run_log_sd: Some((var_d / 2.0).sqrt()),
            run_log_sd_df: kf - 1.0,
            sitting_variance: None,
            pairing: Some(Pairing { unpaired_se: ((var_a + var_b) / kf).sqrt(), round_variance: (var_a + var_b - var_d) / 2.0 }),
        })
    }

    /// exp(log_ratio): the ratio b/a of the levels.
    pub fn ratio(&self) -> f64 {
        self.log_ratio.exp()
    }

    /// The t statistic.
    pub fn t(&self) -> f64 {
        self.log_ratio / self.se
    }

    /// The two-sided `level` interval of the ratio (t with the estimate's degrees of freedom).
    pub fn interval(&self, level: f64) -> (f64, f64) {
        let critical = t_quantile(1.0 - (1.0 - level) / 2.0, self.df);
        ((self.log_ratio - critical * self.se).exp(), (self.log_ratio + critical * self.se).exp())
    }

    /// The two-sided p of the t statistic.
    pub fn p(&self) -> f64 {
        match StudentsT::new(0.0, 1.0, self.df) {
            Ok(t) => (2.0 * t.cdf(-(self.log_ratio / self.se).abs())).min(1.0),
            Err(_) => 1.0,
        }
    }

    /// The smallest ratio change (≥ 1; 1.10 for 10%) the same design detects with probability
    /// `power` by a two-sided t-test at `alpha`, from the spread it saw, allowing for that
    /// spread's uncertainty (module doc). Infinite when no change is detectable.
    pub fn detectable(&self, alpha: f64, power: f64) -> f64 {
        // The spread at what it is known to; the new experiment's test at its own degrees of
        // freedom, as its verdict will be (at the spread's, the critical value of 3 df where the
        // test has 5 overstated the change: found in 92% of trials at a 0.06 sitting shift).
        (multiplier(self.spread_df(), self.df, alpha, power) * self.se).exp()
    }

    /// The degrees of freedom the standard error's own spread is known to. A τ̂² from k sittings
    /// is known to no more than k - 1, whatever Satterthwaite's count says of the sum (and τ̂²
    /// truncated at 0 says it none): the next sitting may well show the τ² this one did not.
    fn spread_df(&self) -> f64 {
        match (self.design, self.sitting_variance) {
            (Design::WelchWithSittingVariance, Some(v)) if v.sittings >= 2 => self.df.min((v.sittings - 1) as f64),
            _ => self.df,
        }
    }

    /// The fewest runs a side, in one sitting a side, whose design would detect a change of
    /// `target` (a ratio ≥ 1, or its reciprocal) at `alpha` and `power`, from this estimate's run
    /// spread (and τ̂² where it has one: then no number of runs beats 2τ̂², and more than
    /// [`MAX_PLANNED`] may be needed). `None` when it has no run spread or needs more than
    /// [`MAX_PLANNED`].
    pub fn runs_a_side_for(&self, target: f64, alpha: f64, power: f64) -> Option<u64> {
        let sd = self.run_log_sd.filter(|s| *s > 0.0)?;
        let var = sd * sd;
        let (tau2, tau_df) = self.sitting_variance.map_or((0.0, 0.0), |v| (v.tau2, v.df));
        let spread_df = self.run_log_sd_df.min(if tau2 > 0.0 { self.df.max(1.0) } else { f64::INFINITY });
        plan(
            target,
            |n| {
                let n = n as f64;
                let (w, wt) = (var / n, 2.0 * tau2);
                let se2 = 2.0 * w + wt;
                let tau_term = if tau_df > 0.0 { wt * wt / tau_df } else { 0.0 };
                let df = se2 * se2 / (2.0 * w * w / (n - 1.0) + tau_term);
                (se2.sqrt(), df)
            },
            spread_df,
            alpha,
            power,
        )
    }

    /// The fewest interleaved rounds (both levels once a round) that would detect `target` at
    /// `alpha` and `power`: the round's effect cancels, a difference holds two runs' noise
    /// (Var = 2σ²), t on k - 1 degrees of freedom. `None` without a run spread or beyond
    /// [`MAX_PLANNED`].
    pub fn rounds_for(&self, target: f64, alpha: f64, power: f64) -> Option<u64> {
        let sd = self.run_log_sd.filter(|s| *s > 0.0)?;
        let var_d = 2.0 * sd * sd;
        plan(target, |k| ((var_d / k as f64).sqrt(), k as f64 - 1.0), self.run_log_sd_df, alpha, power)
    }
}

/// The most runs a side or rounds [`Estimate::runs_a_side_for`] and [`Estimate::rounds_for`]
/// look for.
pub const MAX_PLANNED: u64 = 1000;

/// The fewest n in 2..=MAX_PLANNED whose design (standard error and degrees of freedom at n)
/// detects `target` at `alpha` and `power`, the spread known to `spread_df` degrees of freedom.
fn plan(target: f64, design: impl Fn(u64) -> (f64, f64), spread_df: f64, alpha: f64, power: f64) -> Option<u64> {
    if !(target.is_finite() && target > 0.0 && target != 1.0) {
        return None;
    }
    let goal = target.ln().abs();
    let detects = |n: u64| {
        let (se, df) = design(n);
        multiplier(spread_df, df, alpha, power) * se <= goal
    };
    if !detects(MAX_PLANNED) {
        return None;
    }
    // Detection only improves with n (a smaller se on more degrees of freedom): bisect.
    let (mut low, mut high) = (1u64, MAX_PLANNED);
    while high - low > 1 {
        let middle = (low + high) / 2;
        if detects(middle) {
            high = middle;
        } else {
            low = middle;
        }
    }
    Some(high.max(2))
}

/// The mean and the sample variance (n - 1 in the denominator), two passes for accuracy. Equal
/// values have a variance of exactly 0: the mean of three ln(5) need not be ln(5) to the last
/// bit, and that rounding must not decide whether runs vary (5 ms against 6 ms would then be
/// "supported" and 52 against 60 ms "no spread").
pub(crate) fn mean_and_variance(values: impl Iterator<Item = f64> + Clone) -> (f64, f64) {
    let mut all = values.clone();
    if let Some(first) = all.next() {
        if all.all(|v| v == first) {
            return (first, 0.0);
        }
    }
    let n = values.clone().count() as f64;
    let mean = values.clone().sum::<f64>() / n;
    let squares: f64 = values.map(|v| (v - mean) * (v - mean)).sum();
    (mean, squares / (n - 1.0))
}

/// The pooled within-sitting variance of the logs and its degrees of freedom, over sittings of 2
/// runs or more; `None` when none has 2.
fn within_sitting(sittings: &[Vec<f64>]) -> Option<(f64, f64)> {
    let (mut squares, mut df) = (0.0, 0.0);
    for s in sittings.iter().filter(|s| s.len() >= 2) {
        let (_, var) = mean_and_variance(s.iter().map(|v| v.ln()));
        squares += var * (s.len() - 1) as f64;
        df += (s.len() - 1) as f64;
    }
    (df > 0.0).then(|| (squares / df, df))
}

/// The `q` quantile of Student's t with `df` degrees of freedom (the normal's beyond 1e7).
pub fn t_quantile(q: f64, df: f64) -> f64 {
    // Beyond 1e7 the t and the normal agree to 1e-7, and statrs's t inverse takes minutes there.
    if df > 1e7 {
        return Normal::new(0.0, 1.0).map_or(f64::INFINITY, |n| n.inverse_cdf(q));
    }
    StudentsT::new(0.0, 1.0, df).map_or(f64::INFINITY, |t| t.inverse_cdf(q))
}

/// Points of the quadrature over S = sqrt(χ²_ν/ν).
const NODES: usize = 40;

/// The quadrature of S = sqrt(χ²_ν/ν): (s, weight) pairs, midpoints of an even grid over
/// 7 standard deviations either side (S's density ∝ s^(ν-1)·exp(-ν·s²/2)), weights summing to 1.
/// A single point at 1 beyond 10⁶ degrees of freedom.
fn chi_nodes(df: f64) -> Vec<(f64, f64)> {
    if !df.is_finite() || df > 1e6 {
        return vec![(1.0, 1.0)];
    }
    let sd = (1.0 / (2.0 * df)).sqrt();
    let (low, high) = ((1.0 - 7.0 * sd).max(0.0), 1.0 + 7.0 * sd.max(0.2));
    let step = (high - low) / NODES as f64;
    let log_density = |s: f64| (df - 1.0) * s.ln() - df * s * s / 2.0;
    let points: Vec<f64> = (0..NODES).map(|i| low + (i as f64 + 0.5) * step).collect();
    let top = points.iter().map(|&s| log_density(s)).fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = points.iter().map(|&s| (log_density(s) - top).exp()).collect();
    let total: f64 = weights.iter().sum();
    points.into_iter().zip(weights).map(|(s, w)| (s, w / total)).collect()
}

/// The standard normal's distribution function, by the Chebyshev fit of erfc in Numerical
/// Recipes (fractional error below 1.2e-7: ample for a power, and fast enough to sum over a grid).
fn phi(x: f64) -> f64 {
    let z = (x / std::f64::consts::SQRT_2).abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07 + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x < 0.0 {
        0.5 * erfc
    } else {
        1.0 - 0.5 * erfc
    }
}

/// The power of the two-sided t-test at `alpha` (`critical` = its t quantile on `df1`) when the
/// true difference is k times the estimated standard error of an earlier experiment whose
/// spread had `df0` degrees of freedom: E[Φ(k·S₀ - c·S₁) + Φ(-k·S₀ - c·S₁)].
fn averaged_power(k: f64, critical: f64, s0: &[(f64, f64)], s1: &[(f64, f64)]) -> f64 {
    let mut sum = 0.0;
    for &(a, wa) in s0 {
        let mut inner = 0.0;
        for &(b, wb) in s1 {
            inner += wb * (phi(k * a - critical * b) + phi(-k * a - critical * b));
        }
        sum += wa * inner;
    }
    sum
}

/// The multiple k of an estimated standard error at which a new experiment (its t on `df1`
/// degrees of freedom) detects the change with probability `power` at two-sided `alpha`,
/// averaged over the estimate's own spread (`df0` degrees of freedom). Infinite for a power
/// that cannot be reached or degrees of freedom that are not positive.
pub fn multiplier(df0: f64, df1: f64, alpha: f64, power: f64) -> f64 {
    if !(df0 > 0.0 && df1 > 0.0 && alpha > 0.0 && alpha < 1.0 && power > 0.0 && power < 1.0) {
        return f64::INFINITY;
    }
    // A comparison plans runs and rounds for every condition at the same few degrees of freedom
    // and levels, and each answer costs some 30,000 normal evaluations: remember them.
    thread_local! {
        static KNOWN: std::cell::RefCell<std::collections::HashMap<[u64; 4], f64>> = Default::default();
    }
    let key = [df0.to_bits(), df1.to_bits(), alpha.to_bits(), power.to_bits()];
    if let Some(known) = KNOWN.with(|k| k.borrow().get(&key).copied()) {
        return known;
    }
    let answer = solve_multiplier(df0, df1, alpha, power);
    KNOWN.with(|k| {
        let mut known = k.borrow_mut();
        // Bounded: continuous degrees of freedom (Welch's) rarely repeat.
        if known.len() >= 100_000 {
            known.clear();
        }
        known.insert(key, answer);
    });
    answer
}

fn solve_multiplier(df0: f64, df1: f64, alpha: f64, power: f64) -> f64 {
    let critical = t_quantile(1.0 - alpha / 2.0, df1);
    let (s0, s1) = (chi_nodes(df0), chi_nodes(df1));
    let (mut low, mut high) = (0.0, critical + 4.0);
    while averaged_power(high, critical, &s0, &s1) < power {
        low = high;
        high *= 2.0;
        if high > 1e6 {
            return f64::INFINITY;
        }
    }
    while high - low > 1e-6 * high {
        let middle = 0.5 * (low + high);
        if averaged_power(middle, critical, &s0, &s1) < power {
            low = middle;
        } else {
            high = middle;
        }
    }
    high
}

#[cfg(test)]
mod tests;
