//! Why an imported file was refused: always the file, and the line and column when there is one.

use std::fmt;

/// One problem in one input file of `analyze import`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ImportError {
    /// The file as the user named it on the command line.
    pub file: String,
    /// 1-based line and column; `None` for a problem with the whole file.
    pub place: Option<(u64, u64)>,
    pub message: String,
}

impl ImportError {
    pub fn at(file: &str, line: u64, column: u64, message: impl Into<String>) -> Self {
        ImportError { file: file.to_string(), place: Some((line, column)), message: message.into() }
    }

    pub fn file(file: &str, message: impl Into<String>) -> Self {
        ImportError { file: file.to_string(), place: None, message: message.into() }
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.place {
            Some((line, column)) => write!(f, "{}:{}:{}: {}", self.file, line, column, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// Every problem of one import, reported together.
#[derive(Debug, thiserror::Error)]
#[error("nothing was imported; {} problem(s):\n  {}", .0.len(), .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n  "))]
pub struct ImportErrors(pub Vec<ImportError>);
