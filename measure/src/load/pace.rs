//! Pacing math of the slow clients, kept pure so it can be tested without a socket.
//!
//! A client reads at most `read_chunk_bytes` per tick; after each read it sleeps until the moment the bytes
//! read so far are "due" at the target rate (`bytes / rate` after the request was sent). The last read is
//! followed by the same wait, so a download that is never starved finishes at `size / rate` (8 s in the
//! study) and a starved one finishes later: the completion time then measures the server, not the pacing.

use std::time::Duration;

/// How long to sleep after `bytes_done` bytes were read `elapsed` after the request was sent, so that the
/// average rate never exceeds `rate_bytes_per_s`. Zero when the client is behind schedule.
pub fn pace_delay(bytes_done: u64, rate_bytes_per_s: u64, elapsed: Duration) -> Duration {
    due_at(bytes_done, rate_bytes_per_s).saturating_sub(elapsed)
}

/// When `bytes` are due at `rate_bytes_per_s`, counted from the request.
pub fn due_at(bytes: u64, rate_bytes_per_s: u64) -> Duration {
    assert!(rate_bytes_per_s > 0, "the plan validates a positive rate");
    Duration::from_secs_f64(bytes as f64 / rate_bytes_per_s as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: u64 = 1 << 20;

    #[test]
    fn sleeps_until_bytes_are_due() {
        // 1 MiB at 2 MiB/s is due at 0.5 s; 0.2 s have passed.
        assert_eq!(pace_delay(MIB, 2 * MIB, Duration::from_millis(200)), Duration::from_millis(300));
    }

    #[test]
    fn never_sleeps_when_behind() {
        assert_eq!(pace_delay(MIB, 2 * MIB, Duration::from_secs(1)), Duration::ZERO);
        assert_eq!(pace_delay(0, 2 * MIB, Duration::ZERO), Duration::ZERO);
    }

    #[test]
    fn study_download_is_due_at_eight_seconds() {
        assert_eq!(due_at(16 * MIB, 2 * MIB), Duration::from_secs(8));
        assert_eq!(due_at(MIB, 512 * 1024), Duration::from_secs(2));
    }

    /// A reader on a virtual clock whose reads take no time and return `got` bytes each.
    fn simulate(total: u64, got: u64, rate: u64) -> (Duration, u64) {
        let (mut now, mut done, mut ticks) = (Duration::ZERO, 0, 0);
        while done < total {
            done += got.min(total - done);
            now += pace_delay(done, rate, now);
            ticks += 1;
        }
        (now, ticks)
    }

    #[test]
    fn unstarved_reader_finishes_at_size_over_rate() {
        let (t, ticks) = simulate(16 * MIB, 16 * 1024, 2 * MIB);
        assert!((t.as_secs_f64() - 8.0).abs() < 1e-6, "{t:?}");
        assert_eq!(ticks, 1024);
        // Short reads (the kernel returns less than asked) change the tick count, not the duration.
        let (t, ticks) = simulate(16 * MIB, 5000, 2 * MIB);
        assert!((t.as_secs_f64() - 8.0).abs() < 1e-6, "{t:?}");
        assert_eq!(ticks, (16 * MIB).div_ceil(5000));
    }

    #[test]
    fn average_rate_never_exceeds_target() {
        let rate = 2 * MIB;
        let mut now = Duration::ZERO;
        let mut done = 0;
        for _ in 0..100 {
            done += 16 * 1024;
            now += pace_delay(done, rate, now);
            assert!(done as f64 / now.as_secs_f64() <= rate as f64 * (1.0 + 1e-9));
        }
    }
}
