//! Data problems found while reading a dataset, each with the place it was found.
//!
//! Ingest collects every problem it can (up to [`MAX_REPORTED`]) before failing, so a user fixes a
//! file in one pass instead of one error per run of the tool.

use std::fmt;

/// How many problems are kept; the rest are only counted.
pub const MAX_REPORTED: usize = 50;

/// How many characters of a user's text a message quotes.
pub const SHOWN_CHARS: usize = 60;
/// The longest message printed whole; a longer one (however it was built) is cut.
const MAX_MESSAGE_BYTES: usize = 600;

/// A user's text as a message quotes it: in quotes with control characters escaped, and a long
/// one cut to its first [`SHOWN_CHARS`] characters and its size, so a 6 MB field or a file
/// without newlines gives a short message instead of an echo of the file.
pub fn shown(text: &str) -> String {
    match text.char_indices().nth(SHOWN_CHARS) {
        None => format!("{text:?}"),
        Some((cut, _)) => format!("{:?}… ({} bytes)", &text[..cut], text.len()),
    }
}

/// A message no longer than [`MAX_MESSAGE_BYTES`] (plus a note of its full size).
fn bounded(message: &str) -> std::borrow::Cow<'_, str> {
    if message.len() <= MAX_MESSAGE_BYTES {
        return message.into();
    }
    let mut cut = MAX_MESSAGE_BYTES;
    while !message.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}… (a message of {} bytes, cut)", &message[..cut], message.len()).into()
}

/// Where in a table a problem was found.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Place {
    /// The whole file (missing, empty, unreadable).
    File,
    /// A 1-based line of a CSV file, and optionally the 1-based field and its column name.
    Line { line: u64, field: Option<(usize, String)> },
    /// A 1-based row of a Parquet file, and optionally the column name.
    Row { row: u64, column: Option<String> },
    /// A 1-based line and character column of a text file (dataset.toml, an article).
    Text { line: u64, column: usize },
}

/// One problem in one file.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct DataError {
    /// File name relative to the dataset folder, e.g. `requests.csv`.
    pub file: String,
    pub place: Place,
    pub message: String,
}

impl DataError {
    pub fn file(file: &str, message: impl Into<String>) -> Self {
        DataError { file: file.to_string(), place: Place::File, message: message.into() }
    }

    pub fn line(file: &str, line: u64, message: impl Into<String>) -> Self {
        DataError { file: file.to_string(), place: Place::Line { line, field: None }, message: message.into() }
    }

    pub fn field(file: &str, line: u64, field: usize, column: &str, message: impl Into<String>) -> Self {
        DataError { file: file.to_string(), place: Place::Line { line, field: Some((field, column.to_string())) }, message: message.into() }
    }

    /// A problem at a line and character column of a text file.
    pub fn at(file: &str, line: u64, column: usize, message: impl Into<String>) -> Self {
        DataError { file: file.to_string(), place: Place::Text { line, column }, message: message.into() }
    }
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let message = bounded(&self.message);
        match &self.place {
            Place::File => write!(f, "{}: {}", self.file, message),
            Place::Line { line, field: None } => write!(f, "{}:{}: {}", self.file, line, message),
            Place::Line { line, field: Some((field, column)) } => {
                write!(f, "{}:{}:{}: {}: {}", self.file, line, field, bounded(column), message)
            }
            Place::Row { row, column: None } => write!(f, "{}: row {}: {}", self.file, row, message),
            Place::Row { row, column: Some(column) } => {
                write!(f, "{}: row {}: {}: {}", self.file, row, bounded(column), message)
            }
            Place::Text { line, column } => write!(f, "{}:{}:{}: {}", self.file, line, column, message),
        }
    }
}

impl std::error::Error for DataError {}

/// A bounded collection of problems: keeps the first [`MAX_REPORTED`] and counts the rest.
#[derive(Debug, Default, Clone)]
pub struct Problems {
    kept: Vec<DataError>,
    dropped: u64,
}

impl Problems {
    pub fn push(&mut self, error: DataError) {
        if self.kept.len() < MAX_REPORTED {
            self.kept.push(error);
        } else {
            self.dropped += 1;
        }
    }

    pub fn extend(&mut self, other: Problems) {
        self.dropped += other.dropped;
        for error in other.kept {
            self.push(error);
        }
    }

    /// Counts problems that were found but not kept elsewhere.
    pub fn add_uncounted(&mut self, count: u64) {
        self.dropped += count;
    }

    pub fn is_empty(&self) -> bool {
        self.kept.is_empty() && self.dropped == 0
    }

    pub fn len(&self) -> u64 {
        self.kept.len() as u64 + self.dropped
    }

    pub fn errors(&self) -> &[DataError] {
        &self.kept
    }

    /// Fails with every kept problem when there is any.
    pub fn into_result(mut self) -> Result<(), InvalidDataset> {
        if self.is_empty() {
            return Ok(());
        }
        self.kept.sort();
        Err(InvalidDataset { errors: self.kept, more: self.dropped })
    }
}

/// The dataset cannot be analysed: every problem found, in file and line order.
#[derive(Debug, thiserror::Error)]
pub struct InvalidDataset {
    pub errors: Vec<DataError>,
    /// Problems found beyond the ones kept.
    pub more: u64,
}

impl fmt::Display for InvalidDataset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.errors.len() as u64 + self.more;
        writeln!(f, "the dataset has {} problem{}:", total, if total == 1 { "" } else { "s" })?;
        for error in &self.errors {
            writeln!(f, "  {error}")?;
        }
        if self.more > 0 {
            writeln!(f, "  ... and {} more", self.more)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_field_is_quoted_by_its_start_and_size() {
        let long = "x".repeat(6_000_000);
        let quoted = shown(&long);
        assert_eq!(quoted, format!("{:?}… (6000000 bytes)", "x".repeat(60)));
        assert_eq!(shown("abc\u{1b}]0;x"), "\"abc\\u{1b}]0;x\"");
    }

    #[test]
    fn a_message_however_built_is_bounded() {
        let error = DataError::line("runs.csv", 1, format!("missing column: {}", "y".repeat(1_000_000)));
        let text = error.to_string();
        assert!(text.len() < 700, "{} bytes", text.len());
        assert!(text.ends_with("… (a message of 1000016 bytes, cut)"), "{}", &text[text.len() - 60..]);
    }
}
