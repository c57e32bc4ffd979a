//! Whether a run enters the statistics (runs.csv `status`).

use serde::Serialize;

/// Whether a run enters the statistics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RunStatus {
    Ok,
    Aborted,
    Excluded,
}

impl RunStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Ok => "ok",
            RunStatus::Aborted => "aborted",
            RunStatus::Excluded => "excluded",
        }
    }
}
