//! The bounds of a plan's numbers, in one place for the three kinds of plan. A number outside its bounds
//! is refused at its key before anything is written: an hour-long `run_timeout_s` of 2^63 seconds would
//! overflow the clock a run is timed with, a `duration_s` × `rate` past 2^64 would wrap to no request at
//! all. The bounds are far above any study on one machine, so a plan that needs more is a typo.

use super::locate::KeyPath;
use super::Problem;

/// Most seconds of anything in one run: a load's length, a run's bound, a download's slack.
pub const MAX_RUN_S: u64 = 86_400;

/// Most seconds one request may take, and a server may take to start or to stop.
pub const MAX_WAIT_S: u64 = 600;

/// Most runs per condition.
pub const MAX_REPETITIONS: u64 = 1_000;

/// Longest period of the samplers, in ms.
pub const MAX_INTERVAL_MS: u64 = 60_000;

/// Most requests one run may ask a tool for.
pub const MAX_REQUESTS: u64 = 100_000_000;

/// Most requests per second a load may be asked for.
pub const MAX_RATE: u64 = 1_000_000;

/// Most processes or threads of one server.
pub const MAX_WORKERS: u64 = 1_024;

/// Largest size in bytes of a response, a block, a read or a socket buffer.
pub const MAX_BYTES: u64 = 1 << 30;

/// Largest `load1_per_cpu_max`.
pub const MAX_LOAD_PER_CPU: f64 = 1_000.0;

/// A whole number's bounds and its unit, as the message says them.
#[derive(Debug, Clone, Copy)]
pub struct Bound {
    pub min: u64,
    pub max: u64,
    pub unit: &'static str,
}

/// `min..=max` of `unit`.
pub const fn range(min: u64, max: u64, unit: &'static str) -> Bound {
    Bound { min, max, unit }
}

/// Seconds of a run: 1 to [`MAX_RUN_S`].
pub const RUN_S: Bound = range(1, MAX_RUN_S, "seconds");
/// Seconds of a wait: 1 to [`MAX_WAIT_S`].
pub const WAIT_S: Bound = range(1, MAX_WAIT_S, "seconds");
/// Repetitions: 1 to [`MAX_REPETITIONS`].
pub const REPETITIONS: Bound = range(1, MAX_REPETITIONS, "runs");
/// Sampling period: 1 to [`MAX_INTERVAL_MS`].
pub const INTERVAL_MS: Bound = range(1, MAX_INTERVAL_MS, "ms");
/// Requests of a run: 1 to [`MAX_REQUESTS`].
pub const REQUESTS: Bound = range(1, MAX_REQUESTS, "requests");
/// A rate: 1 to [`MAX_RATE`].
pub const RATE: Bound = range(1, MAX_RATE, "requests per second");
/// Processes or threads: 1 to [`MAX_WORKERS`].
pub const WORKERS: Bound = range(1, MAX_WORKERS, "");
/// Bytes: 1 to [`MAX_BYTES`].
pub const BYTES: Bound = range(1, MAX_BYTES, "bytes");

impl Bound {
    /// The problem of `value` at `key`, if it is out of bounds.
    pub fn check(self, key: KeyPath, value: u64) -> Option<Problem> {
        if (self.min..=self.max).contains(&value) {
            return None;
        }
        let unit = if self.unit.is_empty() { String::new() } else { format!(" {}", self.unit) };
        let message = if self.min == 1 && value == 0 {
            format!("must be positive (1 to {}{unit})", self.max)
        } else {
            format!("is {value}; it must be {} to {}{unit}", self.min, self.max)
        };
        Some(Problem::new(key, message))
    }

    /// [`Bound::check`] pushed onto `problems`.
    pub fn push(self, problems: &mut Vec<Problem>, key: KeyPath, value: u64) {
        problems.extend(self.check(key, value));
    }
}

/// The problem of a `load1_per_cpu_max` that is not a positive number up to [`MAX_LOAD_PER_CPU`].
pub fn load_per_cpu(key: KeyPath, value: f64) -> Option<Problem> {
    (!(value.is_finite() && value > 0.0 && value <= MAX_LOAD_PER_CPU))
        .then(|| Problem::new(key, format!("must be a positive number up to {MAX_LOAD_PER_CPU}")))
}

/// The problem of a run bound too short for the load it bounds: a load planned to last `planned_s`
/// seconds, whose last requests may take `request_timeout_s` more, is aborted by a shorter
/// `run_timeout_s` in every run.
pub fn run_timeout_covers(key: KeyPath, run_timeout_s: u64, planned_s: u64, request_timeout_s: u64, what: &str) -> Option<Problem> {
    let needed = planned_s.saturating_add(request_timeout_s);
    (run_timeout_s < needed).then(|| {
        Problem::new(
            key,
            format!(
                "{run_timeout_s} s would abort every run: {what} lasts {planned_s} s and its last requests may take \
                 request_timeout_s = {request_timeout_s} s more, so make it at least {needed}"
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_out_of_bounds_says_the_bounds() {
        let key = || KeyPath::root("load").key("run_timeout_s");
        assert_eq!(RUN_S.check(key(), 60), None);
        assert_eq!(RUN_S.check(key(), 0).unwrap().to_string(), "load.run_timeout_s: must be positive (1 to 86400 seconds)");
        assert_eq!(
            RUN_S.check(key(), 9_223_372_036_854_775_807).unwrap().to_string(),
            "load.run_timeout_s: is 9223372036854775807; it must be 1 to 86400 seconds"
        );
    }

    #[test]
    fn a_run_bound_must_outlast_the_load_and_its_last_requests() {
        let key = || KeyPath::root("load").key("run_timeout_s");
        assert_eq!(run_timeout_covers(key(), 30, 20, 10, "the load"), None);
        let p = run_timeout_covers(key(), 29, 20, 10, "the load").unwrap().to_string();
        assert!(p.starts_with("load.run_timeout_s: 29 s would abort every run") && p.ends_with("at least 30"), "{p}");
        assert!(load_per_cpu(key(), f64::NAN).is_some() && load_per_cpu(key(), 0.5).is_none());
    }
}
