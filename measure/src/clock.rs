//! Time: one time line per run shared with the app, and UTC stamps for runs.csv.
//!
//! The app logs `time.monotonic()`, which is CLOCK_MONOTONIC on Linux; we read the same clock with
//! `clock_gettime(CLOCK_MONOTONIC)` at the run's origin, beside an [`Instant`], so app and harness times
//! land on one axis (ms from the run's start) without guessing offsets. Rust's `Instant` is also
//! CLOCK_MONOTONIC on Linux, and both anchors are taken back to back.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// CLOCK_MONOTONIC in seconds, the clock of Python's `time.monotonic()`.
pub fn monotonic_s() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; CLOCK_MONOTONIC always exists on Linux.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_MONOTONIC) failed");
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// The origin of one run: every time in the dataset is measured from here.
#[derive(Debug, Clone, Copy)]
pub struct RunClock {
    origin: Instant,
    origin_mono_s: f64,
}

impl RunClock {
    /// Starts the run's time line now.
    pub fn start() -> RunClock {
        let origin_mono_s = monotonic_s();
        let origin = Instant::now();
        RunClock { origin, origin_mono_s }
    }

    /// The instant of the origin, for scheduling.
    pub fn origin(&self) -> Instant {
        self.origin
    }

    /// Milliseconds from the origin to `t`.
    pub fn ms(&self, t: Instant) -> f64 {
        t.saturating_duration_since(self.origin).as_secs_f64() * 1e3
    }

    /// Milliseconds from the origin to a CLOCK_MONOTONIC time in seconds (as logged by the app).
    pub fn ms_from_monotonic(&self, mono_s: f64) -> f64 {
        (mono_s - self.origin_mono_s) * 1e3
    }

    /// The instant `ms` milliseconds after the origin.
    pub fn at_ms(&self, ms: f64) -> Instant {
        self.origin + Duration::from_secs_f64(ms.max(0.0) / 1e3)
    }
}

/// `2026-11-30T04:05:06Z`: RFC 3339 in UTC to the second.
pub fn rfc3339_utc(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    let s = secs % 86_400;
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", s / 3600, s / 60 % 60, s % 60)
}

/// `2026-11-30`: the UTC date.
pub fn date_utc(t: SystemTime) -> String {
    rfc3339_utc(t)[..10].to_string()
}

/// Days since 1970-01-01 to (year, month, day) in the proleptic Gregorian calendar
/// (Howard Hinnant's `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Sleeps until `deadline`, waking every `slice` to return early when `stop()` says so.
/// Returns false when stopped before the deadline.
pub fn sleep_until(deadline: Instant, slice: Duration, stop: impl Fn() -> bool) -> bool {
    loop {
        if stop() {
            return false;
        }
        let now = Instant::now();
        if now >= deadline {
            return true;
        }
        std::thread::sleep((deadline - now).min(slice));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_utc_stamps() {
        assert_eq!(rfc3339_utc(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        let t = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        assert_eq!(rfc3339_utc(t), "2023-11-14T22:13:20Z");
        // A leap day.
        let t = UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(rfc3339_utc(t), "2000-02-29T00:00:00Z");
        assert_eq!(date_utc(t), "2000-02-29");
    }

    #[test]
    fn monotonic_clock_matches_instant() {
        let clock = RunClock::start();
        std::thread::sleep(Duration::from_millis(20));
        let a = clock.ms_from_monotonic(monotonic_s());
        let b = clock.ms(Instant::now());
        assert!((a - b).abs() < 5.0, "CLOCK_MONOTONIC {a} ms vs Instant {b} ms");
        assert!(a >= 20.0);
    }

    #[test]
    fn sleep_until_stops_early() {
        let start = Instant::now();
        let finished = sleep_until(start + Duration::from_secs(5), Duration::from_millis(10), || true);
        assert!(!finished);
        assert!(start.elapsed() < Duration::from_secs(1));
    }
}
