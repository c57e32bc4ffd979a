//! The app's JSON-lines log (written by `measure/app/app.py`): worker boots and, per /large response, when
//! the app started returning it and when the server had written its last chunk (CLOCK_MONOTONIC seconds).

use anyhow::{Context, Result};
use serde::Deserialize;
use std::path::Path;

/// One line of the app log.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "event", rename_all = "lowercase")]
pub enum AppEvent {
    /// A worker process imported the app.
    Boot { pid: u32, t_s: f64 },
    /// The body iterable of a /large response was closed.
    Large {
        download_id: String,
        run_id: String,
        pid: u32,
        /// When the app was called for the response.
        start_s: f64,
        /// When the server closed the body iterable, after its last write.
        end_s: f64,
        /// Blocks handed to the server; below `blocks` when the server gave up early.
        blocks_handed: u64,
        blocks: u64,
    },
}

/// Parses log text; a malformed line is an error naming its line number.
pub fn parse(text: &str) -> Result<Vec<AppEvent>> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| serde_json::from_str(line).with_context(|| format!("app log line {}: {line:?}", i + 1)))
        .collect()
}

/// Reads the log; a log that does not exist yet is empty.
pub fn read(path: &Path) -> Result<Vec<AppEvent>> {
    match std::fs::read_to_string(path) {
        Ok(text) => parse(&text).with_context(|| format!("in {}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e).with_context(|| format!("failed to read {}", path.display())),
    }
}

/// Distinct worker PIDs that have booted.
pub fn booted_pids(events: &[AppEvent]) -> Vec<u32> {
    let mut pids: Vec<u32> = events
        .iter()
        .filter_map(|e| match e {
            AppEvent::Boot { pid, .. } => Some(*pid),
            AppEvent::Large { .. } => None,
        })
        .collect();
    pids.sort_unstable();
    pids.dedup();
    pids
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_boot_and_large_lines() {
        let text = r#"{"event":"boot","pid":11,"t_s":5.5}
{"event":"boot","pid":12,"t_s":5.6}
{"event":"boot","pid":11,"t_s":5.7}

{"event":"large","download_id":"d1","run_id":"r03","pid":12,"start_s":10.0,"end_s":16.5,"blocks_handed":256,"blocks":256}
"#;
        let events = parse(text).unwrap();
        assert_eq!(events.len(), 4);
        assert_eq!(booted_pids(&events), vec![11, 12]);
        assert!(matches!(&events[3], AppEvent::Large { download_id, end_s, .. } if download_id == "d1" && *end_s == 16.5));
    }

    #[test]
    fn names_the_bad_line() {
        let err = parse("{\"event\":\"boot\",\"pid\":1,\"t_s\":0}\nnot json\n").unwrap_err();
        assert!(format!("{err:#}").contains("line 2"), "{err:#}");
    }

    #[test]
    fn matches_the_app_source() {
        // The app writes exactly these keys; keep the two sides in step.
        let app = include_str!("../../app/app.py");
        for key in ["\"download_id\"", "\"run_id\"", "\"start_s\"", "\"end_s\"", "\"blocks_handed\"", "\"t_s\""] {
            assert!(app.contains(key), "app.py no longer logs {key}");
        }
    }
}
