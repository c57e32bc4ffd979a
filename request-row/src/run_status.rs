//! Whether a run enters the statistics: runs.csv's `status`, as measure writes it and analyze reads it.

/// Whether a run enters the statistics (runs.csv `status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RunStatus {
    /// Finished as planned: its rows enter the statistics.
    Ok,
    /// Stopped before it finished (a failure, or interrupted): `measure run --resume` runs it again.
    Aborted,
    /// Left out by hand, with the reason in the run's note.
    Excluded,
}

impl RunStatus {
    pub const ALL: [RunStatus; 3] = [RunStatus::Ok, RunStatus::Aborted, RunStatus::Excluded];

    /// The word runs.csv holds.
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Ok => "ok",
            RunStatus::Aborted => "aborted",
            RunStatus::Excluded => "excluded",
        }
    }

    /// The status a runs.csv word names, exactly as [`RunStatus::as_str`] writes it.
    pub fn parse(word: &str) -> Option<RunStatus> {
        RunStatus::ALL.into_iter().find(|s| s.as_str() == word)
    }
}

#[cfg(test)]
mod tests {
    use super::RunStatus;

    #[test]
    fn every_status_reads_back_as_written_and_nothing_else_is_one() {
        for status in RunStatus::ALL {
            assert_eq!(RunStatus::parse(status.as_str()), Some(status));
        }
        assert_eq!(RunStatus::parse("OK"), None);
        assert_eq!(RunStatus::parse(" ok"), None);
        assert_eq!(RunStatus::parse("failed"), None);
    }
}
