//! Statistics: nearest-rank percentiles per run, medians and ranges per condition, the variance
//! review, and the reduced point sets the charts draw. The only layer that computes numbers.

pub mod bands;
pub mod build;
pub mod by_run;
pub mod comparability;
pub mod compare;
pub mod difference;
pub mod failures;
pub mod figures;
pub mod hints;
pub mod history;
pub mod intended;
pub mod labels;
pub mod large;
pub mod model;
pub mod percentile;
pub mod permutation;
pub mod precision;
pub mod printed;
pub mod published;
pub mod random;
pub mod ranks;
pub mod resolvable;
pub mod resources;
pub mod sessions;
pub mod slo;
pub mod standing;
pub mod summary;
pub mod throughput;
pub mod tool_reported;
pub mod variance;

pub use build::{build, Detail};
