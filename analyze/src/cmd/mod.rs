//! One module per subcommand. Each returns the process exit status.

pub mod check;
pub mod compare;
pub mod history;
pub mod import;
pub mod report;
pub mod site;

/// Exit statuses: 0 clean, 1 warnings under `--strict`, 2 errors.
pub const EXIT_WARNINGS: i32 = 1;
/// A supported regression beyond `compare --fail-on-regression`, or an objective `check --slo`
/// finds failed.
pub const EXIT_FAILED: i32 = 1;
pub const EXIT_ERRORS: i32 = 2;
/// `compare` and `history` across measurements whose environments differ in a key that must
/// match (`stats::comparability`).
pub const EXIT_INCOMPARABLE: i32 = 3;
/// `compare --fail-on-regression` that compared nothing it was asked to judge: the two sides are
/// one measurement, no condition matched, or a matched condition's runs have no value of the
/// metric (`ComparisonReport::gate_compared_nothing`). Such a gate neither passes nor finds a
/// regression.
pub const EXIT_NOTHING_COMPARED: i32 = 4;
