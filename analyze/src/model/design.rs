//! What an estimate of a difference between levels allowed for: the design of its standard error
//! and the sitting-to-sitting variance it included (computed by `stats::model`, reported by
//! compare's results).

use serde::Serialize;

/// The design that produced an estimate: what its standard error includes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Design {
    /// One sitting a side, Welch's t on the runs: assumes no sitting effect (τ² = 0).
    WelchOneSitting,
    /// One sitting a side, Welch's t with τ² estimated from other sittings (A/A sittings).
    WelchWithSittingVariance,
    /// Several sittings a side (on at least one side), the sittings' mean logs as units.
    SittingsASide,
    /// Both levels in each round of one sitting, t on the within-round differences.
    PairedRounds,
}

impl Design {
    /// Whether the standard error includes the sitting-to-sitting variance (or removes it, as
    /// pairing within rounds does); false only for Welch in one sitting a side.
    pub fn allows_for_sittings(self) -> bool {
        self != Design::WelchOneSitting
    }
}

/// An estimate of τ², the sitting-to-sitting variance of the log level, with its degrees of
/// freedom (Satterthwaite's, of the one-way ANOVA estimate).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SittingVariance {
    /// τ̂², truncated at 0.
    pub tau2: f64,
    /// The degrees of freedom of τ̂² (Satterthwaite); 0 when τ̂² is 0 (it then adds nothing).
    pub df: f64,
    /// How many sittings it came from.
    pub sittings: usize,
    /// The pooled within-sitting variance σ̂² of the log values, and its degrees of freedom.
    pub run_variance: f64,
    pub run_df: f64,
    /// τ̂² before truncation, (MSB - MSW)/n₀: negative where the sittings agree more than their
    /// runs. Pooling averages these and truncates once, since an average of estimates each
    /// truncated at 0 is biased up.
    #[serde(skip)]
    pub untruncated: f64,
    /// n₀, the runs a sitting counts for (the mean for equal sittings).
    #[serde(skip)]
    pub runs_per_sitting: f64,
}
