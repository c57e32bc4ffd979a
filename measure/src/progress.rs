//! Progress on stderr: a bar with runs done, the current condition and the time left when stderr is a
//! terminal; one plain line per event otherwise (CI logs, pipes).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// Reports a study's progress.
pub struct Progress {
    bar: Option<ProgressBar>,
    total: usize,
    done: usize,
    /// The plan's guess of one run, used until runs have been timed.
    estimate: Duration,
    took: Vec<Duration>,
}

impl Progress {
    /// A reporter for `total` runs.
    pub fn new(total: usize, estimate: Duration) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
            let style =
                ProgressStyle::with_template("{bar:30.cyan/blue} {pos}/{len} runs  {msg}").unwrap_or_else(|_| ProgressStyle::default_bar());
            bar.set_style(style);
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        Progress { bar, total, done: 0, estimate, took: Vec::new() }
    }

    /// Prints a line above the bar (or plainly).
    pub fn say(&self, message: &str) {
        match &self.bar {
            Some(bar) => bar.println(message),
            None => eprintln!("{message}"),
        }
    }

    /// Announces a run.
    pub fn start_run(&self, run_id: &str, condition: &dyn std::fmt::Display) {
        let left = format_duration(time_left(self.total - self.done, &self.took, self.estimate));
        match &self.bar {
            Some(bar) => bar.set_message(format!("{run_id}: {condition}  (about {left} left)")),
            None => eprintln!("[{}/{}] {run_id}: {condition} (about {left} left)", self.done + 1, self.total),
        }
    }

    /// Records a finished run; its note (runs.csv's keys) is said in English.
    pub fn finish_run(&mut self, run_id: &str, status: &str, note: &str, took: Duration) {
        self.done += 1;
        self.took.push(took);
        let note = if note.is_empty() { String::new() } else { format!(": {}", request_row::note_words::english(note)) };
        let line = format!("{run_id} {status} in {:.1} s{note}", took.as_secs_f64());
        match &self.bar {
            Some(bar) => {
                bar.inc(1);
                if status != "ok" || !note.is_empty() {
                    bar.println(line);
                }
            }
            None => eprintln!("{line}"),
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// How many runs the plan's estimate counts for in the blend of [`time_left`].
const ESTIMATE_WEIGHT: u32 = 3;

/// Remaining runs times a run's expected length: the plan's estimate blended with the runs measured so
/// far, the estimate counting as [`ESTIMATE_WEIGHT`] runs. Before any run it is the estimate; one run
/// moves it a quarter of the way to that run's length (the mean alone made "1m 00s left" read "36s left"
/// after one short run); after many runs it is their mean.
pub fn time_left(remaining: usize, took: &[Duration], estimate: Duration) -> Duration {
    let measured: Duration = took.iter().sum();
    let runs = u32::try_from(took.len()).unwrap_or(u32::MAX).saturating_add(ESTIMATE_WEIGHT);
    let per_run = (estimate * ESTIMATE_WEIGHT + measured) / runs;
    per_run * u32::try_from(remaining).unwrap_or(u32::MAX)
}

/// `6m 05s`, `42s`.
pub fn format_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 60 {
        format!("{}m {:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_left_starts_from_the_estimate_and_moves_steadily_to_the_measured_mean() {
        let est = Duration::from_secs(12);
        assert_eq!(time_left(5, &[], est), Duration::from_secs(60));
        // One run of 9 s: 4 runs of (3 x 12 + 9) / 4 = 11.25 s, not 4 x 9 = 36 s.
        let one = [Duration::from_secs(9)];
        assert_eq!(time_left(4, &one, est), Duration::from_secs(45));
        // Each run left moves the figure by about a run's length, not by a third of the total.
        let before = time_left(5, &[], est).as_secs_f64();
        let after = time_left(4, &one, est).as_secs_f64();
        assert!(before - after <= 12.0 + 3.0, "{before} -> {after}");
        // Many runs of 9 s: their mean wins.
        let many = [Duration::from_secs(9); 57];
        assert_eq!(time_left(10, &many, est), Duration::from_secs(91) + Duration::from_millis(500));
        assert_eq!(time_left(0, &many, est), Duration::ZERO);
    }

    #[test]
    fn formats_minutes() {
        assert_eq!(format_duration(Duration::from_secs(365)), "6m 05s");
        assert_eq!(format_duration(Duration::from_secs(42)), "42s");
    }
}
