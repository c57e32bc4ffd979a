//! The column names of the dataset tables both programs write or read, each once: measure writes
//! runs.csv, analyze reads it and writes run_stats.csv on import. A column added here (a `round`,
//! a contention reading) is added for both.

/// runs.csv's first column.
pub const RUN_ID: &str = "run_id";
/// runs.csv's column after the factors.
pub const REPETITION: &str = "repetition";
/// The recipe the run was measured under (measure's fingerprint, docs/commands.md "Recipes").
pub const RECIPE: &str = "recipe";
/// The round of a plan in rounds (measure/plans/README.md, "Run order"), empty for a shuffled plan.
pub const ROUND: &str = "round";
/// The CPU seconds the server's processes used per wall second of the load, read from `/proc` at its
/// start and end: 1.0 is one CPU kept busy. A run whose server got markedly less than its condition's
/// other runs was starved by something else on the host (analyze flags it).
pub const SERVER_CPU_SHARE: &str = "server_cpu_share";
/// The share of its CPUs' time the load tool used (its CPU seconds, with the children it waited for, over
/// its wall seconds times the CPUs it could run on); empty for measure's own clients. At 0.9 or more the
/// run's note says the tool saturated its CPUs.
pub const LOAD_CPU_SHARE: &str = "load_cpu_share";
/// The percentage of the host's CPU time a hypervisor stole during the load (`/proc/stat`); empty where
/// unreadable.
pub const STEAL_PCT: &str = "steal_pct";

/// runs.csv's columns after the factors and the repetition, in order.
pub const RUNS_TAIL: &[&str] =
    &["started_at_utc", "status", "note", "load1_before", "load1_after", RECIPE, ROUND, SERVER_CPU_SHARE, LOAD_CPU_SHARE, STEAL_PCT];

/// runs.csv's own columns: a factor may not take their names. [`RUN_ID`], [`REPETITION`], then
/// [`RUNS_TAIL`].
pub const RUNS_RESERVED: &[&str] = &[
    RUN_ID,
    REPETITION,
    "started_at_utc",
    "status",
    "note",
    "load1_before",
    "load1_after",
    RECIPE,
    ROUND,
    SERVER_CPU_SHARE,
    LOAD_CPU_SHARE,
    STEAL_PCT,
];

/// run_stats.csv's columns before the percentiles, in order (datasets/README.md documents each).
pub const RUN_STATS_LEADING: &[&str] = &[RUN_ID, "tool", "rule", "requests", "errors", "requests_per_s", "min_ms", "mean_ms", "max_ms"];
/// run_stats.csv's column for how many response times the tool ranked: after the percentiles.
pub const RUN_STATS_RANKED: &str = "ranked";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reserved_columns_are_the_first_two_then_the_tail() {
        let joined: Vec<&str> = [RUN_ID, REPETITION].iter().chain(RUNS_TAIL).copied().collect();
        assert_eq!(joined, RUNS_RESERVED);
    }
}
