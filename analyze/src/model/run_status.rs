//! Whether a run enters the statistics (runs.csv `status`): the request-row contract's
//! [`RunStatus`], shared with measure, and how summary.json writes it.

pub use request_row::RunStatus;

/// summary.json's `status`: the word runs.csv holds (`ok`, `aborted`, `excluded`).
pub fn serialize<S: serde::Serializer>(status: &RunStatus, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(status.as_str())
}
