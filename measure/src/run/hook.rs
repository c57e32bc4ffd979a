//! The test hook that makes a kill at a named moment of a study deterministic: with
//! `MEASURE_TEST_STOP_AT=<moment>` (one of [`Moment::NAMES`]) and `MEASURE_TEST_STOP_FILE=<path>` in its
//! environment, measure writes its pid into the file the first time it reaches that moment and then waits
//! there ([`HOLD`] at most, then exits with status 99), so an end-to-end test can SIGKILL it exactly
//! there. Without those variables (every real use) it does nothing.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The variable naming the moment.
pub const STOP_AT: &str = "MEASURE_TEST_STOP_AT";
/// The variable naming the file written at that moment.
pub const STOP_FILE: &str = "MEASURE_TEST_STOP_FILE";
/// How long measure waits at the moment for the test to kill it.
pub const HOLD: Duration = Duration::from_secs(60);

/// A moment of a study a test can stop measure at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moment {
    /// A server has been started and is not ready yet.
    ServerStart,
    /// The load runs.
    Load,
    /// A run's tool files are about to be imported (the run is kept as pending).
    Import,
    /// A run has been saved and the next one has not started.
    BetweenRuns,
    /// The dataset has been saved, and the run's pending files not yet removed.
    Save,
}

impl Moment {
    /// The names `MEASURE_TEST_STOP_AT` takes.
    pub const NAMES: [(&'static str, Moment); 5] = [
        ("server-start", Moment::ServerStart),
        ("load", Moment::Load),
        ("import", Moment::Import),
        ("between-runs", Moment::BetweenRuns),
        ("save", Moment::Save),
    ];

    /// The name of the moment.
    pub fn name(self) -> &'static str {
        Moment::NAMES.iter().find(|(_, m)| *m == self).map_or("?", |(name, _)| name)
    }
}

/// Stops here if the environment asks for `moment` (once per process).
pub fn stop_at(moment: Moment) {
    static STOPPED: AtomicBool = AtomicBool::new(false);
    let Some(wanted) = std::env::var_os(STOP_AT) else { return };
    if wanted != moment.name() || STOPPED.swap(true, Ordering::Relaxed) {
        return;
    }
    let Some(file) = std::env::var_os(STOP_FILE) else { return };
    // The file appears whole: written beside and renamed.
    let file = std::path::PathBuf::from(file);
    let partial = file.with_extension("partial");
    if std::fs::write(&partial, std::process::id().to_string()).and_then(|()| std::fs::rename(&partial, &file)).is_err() {
        return;
    }
    std::thread::sleep(HOLD);
    eprintln!("measure: {STOP_AT}={}: not killed within {} s", moment.name(), HOLD.as_secs());
    std::process::exit(99);
}
