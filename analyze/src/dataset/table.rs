//! Small tables (runs, large responses, temp files, resources) read into text cells with their
//! place, from CSV or Parquet, and typed column access that records every bad cell.
//!
//! These tables have one row per run or per sample (thousands of rows at most), so a uniform
//! text representation keeps one validation path for both formats. requests.csv, the large
//! table, has its own parallel reader in `requests.rs`.

use super::csv::{first_invalid_utf8, split_header, Record, Records};
use super::error::{shown, DataError, Place, Problems};
use super::number::{is_blank, parse_f64, parse_i64};
use std::path::{Path, PathBuf};

/// Where a table's data lives.
#[derive(Debug, Clone)]
pub enum TableSource {
    Csv(PathBuf),
    Parquet(PathBuf),
    /// A folder of Parquet files, possibly below hive partition folders (`requests/run_id=r1/`):
    /// requests only ([`TableSource::find_requests`]).
    ParquetFolder(PathBuf),
}

impl TableSource {
    /// Finds `stem.csv` or `stem.parquet` in `dir`. Both at once is an error: which one wins
    /// would be a guess.
    pub fn find(dir: &Path, stem: &str) -> Result<Option<TableSource>, DataError> {
        let csv = dir.join(format!("{stem}.csv"));
        let parquet = dir.join(format!("{stem}.parquet"));
        match (present(&csv)?, present(&parquet)?) {
            (true, true) => Err(DataError::file(&format!("{stem}.csv"), format!("both {stem}.csv and {stem}.parquet exist: keep one"))),
            (true, false) => Ok(Some(TableSource::Csv(csv))),
            (false, true) => Ok(Some(TableSource::Parquet(parquet))),
            (false, false) => Ok(None),
        }
    }

    /// [`TableSource::find`], or a folder of Parquet files: `stem/` (hive partitions, as Spark's
    /// `partitionBy` writes them) or `stem.parquet/` (Spark's `df.write.parquet("requests.parquet")`
    /// writes a folder of that name). More than one of these is an error.
    pub fn find_requests(dir: &Path, stem: &str) -> Result<Option<TableSource>, DataError> {
        let is_folder = |path: &Path| std::fs::metadata(path).is_ok_and(|meta| meta.is_dir());
        let csv = dir.join(format!("{stem}.csv"));
        let parquet = dir.join(format!("{stem}.parquet"));
        let mut found = Vec::new();
        if present(&csv)? {
            found.push(TableSource::Csv(csv));
        }
        if is_folder(&parquet) {
            found.push(TableSource::ParquetFolder(parquet));
        } else if present(&parquet)? {
            found.push(TableSource::Parquet(parquet));
        }
        let folder = dir.join(stem);
        if is_folder(&folder) {
            found.push(TableSource::ParquetFolder(folder));
        }
        let named: Vec<String> = found
            .iter()
            .map(|source| match source {
                TableSource::ParquetFolder(_) => format!("the folder {}", source.file_name()),
                _ => source.file_name(),
            })
            .collect();
        let message = match named.as_slice() {
            [] | [_] => return Ok(found.pop()),
            [a, b] => format!("both {a} and {b} exist: keep one"),
            [rest @ .., last] => format!("{} and {last} all exist: keep one", rest.join(", ")),
        };
        Err(DataError::file(&found[0].file_name(), message))
    }

    /// How messages name it: `requests.csv`, or `requests/` for a folder (whose files are named
    /// `requests/run_id=r1/part-0.parquet`).
    pub fn file_name(&self) -> String {
        let name = self.path().file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        match self {
            TableSource::ParquetFolder(_) => format!("{name}/"),
            _ => name,
        }
    }

    pub fn path(&self) -> &Path {
        match self {
            TableSource::Csv(path) | TableSource::Parquet(path) | TableSource::ParquetFolder(path) => path,
        }
    }
}

/// Whether `path` is a regular file (following symlinks); absent is `false`, and anything else
/// that exists there (a FIFO, a device such as a symlink to /dev/zero, a folder) is an error, so
/// it is never read, which could block or never end, nor reported as missing.
pub fn present(path: &Path) -> Result<bool, DataError> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => Ok(true),
        Ok(meta) => {
            let kind = if meta.is_dir() { "a folder" } else { "not a regular file (a pipe, socket or device?)" };
            Err(DataError::file(&name, format!("is {kind}: a table or text of a dataset must be a regular file")))
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            // A dangling symlink is there but points nowhere: say so rather than "missing".
            match std::fs::symlink_metadata(path) {
                Ok(_) => Err(DataError::file(&name, "is a symbolic link to nothing")),
                Err(_) => Ok(false),
            }
        }
        Err(error) => Err(DataError::file(&name, format!("cannot be read: {error}"))),
    }
}

/// One row of text cells and where it came from.
#[derive(Debug, Clone)]
pub struct TextRow {
    /// CSV: the 1-based physical line. Parquet: the 1-based row.
    pub place: u64,
    pub cells: Vec<String>,
}

/// A small table as text.
#[derive(Debug, Clone)]
pub struct TextTable {
    pub file: String,
    pub is_csv: bool,
    pub columns: Vec<String>,
    pub rows: Vec<TextRow>,
}

impl TextTable {
    /// Parses CSV bytes. Rows with the wrong number of fields and bytes that are not UTF-8 are
    /// recorded in `problems` and skipped. A header without rows is a table without rows: whether
    /// that is allowed is the dataset's rule ([`TextTable::check_not_empty`]).
    pub fn parse_csv(file: &str, bytes: &[u8], problems: &mut Problems) -> Option<TextTable> {
        if let Some((line, column, _)) = first_invalid_utf8(bytes) {
            problems.push(DataError {
                file: file.to_string(),
                place: Place::Line { line, field: None },
                message: format!("column {column}: a byte that is not UTF-8 (save the file as UTF-8)"),
            });
            return None;
        }
        let parsed = match split_header(file, bytes) {
            Ok(parsed) => parsed,
            Err(error) => {
                problems.push(error);
                return None;
            }
        };
        let mut records = Records::new(parsed.body);
        let mut record = Record::default();
        let mut rows = Vec::new();
        loop {
            match records.next_into(&mut record) {
                Ok(false) => break,
                Ok(true) => {}
                Err(error) => {
                    let line = record.line + parsed.header_lines;
                    problems.push(match error.field().and_then(|f| Some((f, parsed.columns.get(f)?))) {
                        Some((field, column)) => DataError::field(file, line, field + 1, column, error.to_string()),
                        None => DataError::line(file, line, error.to_string()),
                    });
                    if error.is_final() {
                        break;
                    }
                    continue;
                }
            }
            let line = record.line + parsed.header_lines;
            if record.len() != parsed.columns.len() {
                problems.push(DataError::line(file, line, format!("has {} fields, the header has {}", record.len(), parsed.columns.len())));
                continue;
            }
            let cells = (0..record.len()).map(|i| String::from_utf8_lossy(record.get(parsed.body, i)).into_owned()).collect();
            rows.push(TextRow { place: line, cells });
        }
        Some(TextTable { file: file.to_string(), is_csv: true, columns: parsed.columns, rows })
    }

    /// A problem when the table has no rows, in the words of its format.
    pub fn check_not_empty(&self, problems: &mut Problems) {
        if self.rows.is_empty() {
            problems.push(DataError::file(&self.file, if self.is_csv { "has a header but no data rows" } else { "has no rows" }));
        }
    }

    /// The index of a column, or a "missing column" problem naming the columns present.
    pub fn require(&self, column: &str, problems: &mut Problems) -> Option<usize> {
        let found = self.column(column);
        if found.is_none() {
            problems.push(DataError::file(&self.file, format!("missing column `{column}` (the header has: {})", self.columns.join(", "))));
        }
        found
    }

    pub fn column(&self, column: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == column)
    }

    /// A problem located at a cell.
    pub fn cell_error(&self, row: &TextRow, column: usize, message: impl Into<String>) -> DataError {
        let name = self.columns[column].clone();
        let place = if self.is_csv {
            Place::Line { line: row.place, field: Some((column + 1, name)) }
        } else {
            Place::Row { row: row.place, column: Some(name) }
        };
        DataError { file: self.file.clone(), place, message: message.into() }
    }

    /// How a message names another row: `line` in CSV, `row` in Parquet.
    pub fn place_word(&self) -> &'static str {
        if self.is_csv {
            "line"
        } else {
            "row"
        }
    }

    /// A problem located at a row.
    pub fn row_error(&self, row: &TextRow, message: impl Into<String>) -> DataError {
        let place = if self.is_csv { Place::Line { line: row.place, field: None } } else { Place::Row { row: row.place, column: None } };
        DataError { file: self.file.clone(), place, message: message.into() }
    }

    /// A finite number, or a problem.
    pub fn number(&self, row: &TextRow, column: usize, problems: &mut Problems) -> Option<f64> {
        let text = &row.cells[column];
        match parse_f64(text.as_bytes()) {
            Some(value) if value.is_finite() => Some(value),
            Some(_) => {
                problems.push(self.cell_error(row, column, format!("{} is not a finite number", shown(text))));
                None
            }
            None if is_blank(text.as_bytes()) => {
                problems.push(self.cell_error(row, column, "is empty, expected a number"));
                None
            }
            None => {
                problems.push(self.cell_error(row, column, format!("{} is not a number", shown(text))));
                None
            }
        }
    }

    /// A finite number that is not negative, or a problem.
    pub fn non_negative(&self, row: &TextRow, column: usize, problems: &mut Problems) -> Option<f64> {
        let value = self.number(row, column, problems)?;
        if value < 0.0 {
            problems.push(self.cell_error(row, column, format!("{value} is negative")));
            return None;
        }
        Some(value)
    }

    /// A finite number, or `None` without a problem when the cell is blank.
    pub fn optional_number(&self, row: &TextRow, column: usize, problems: &mut Problems) -> Option<f64> {
        if is_blank(row.cells[column].as_bytes()) {
            return None;
        }
        self.number(row, column, problems)
    }

    /// A whole number, or a problem.
    pub fn integer(&self, row: &TextRow, column: usize, problems: &mut Problems) -> Option<i64> {
        let text = &row.cells[column];
        match parse_i64(text.as_bytes()) {
            Some(value) => Some(value),
            None => {
                problems.push(self.cell_error(row, column, format!("{} is not a whole number", shown(text))));
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrong_field_count_names_the_line() {
        let mut problems = Problems::default();
        let table = TextTable::parse_csv("runs.csv", b"a,b\n1,2\n3\n", &mut problems).unwrap();
        assert_eq!(table.rows.len(), 1);
        assert_eq!(problems.errors()[0].to_string(), "runs.csv:3: has 1 fields, the header has 2");
    }

    #[test]
    fn non_utf8_names_line_and_column() {
        let mut problems = Problems::default();
        assert!(TextTable::parse_csv("runs.csv", b"a,b\n1,\xff\n", &mut problems).is_none());
        assert_eq!(problems.errors()[0].to_string(), "runs.csv:2: column 3: a byte that is not UTF-8 (save the file as UTF-8)");
    }

    #[test]
    fn number_problems_name_the_cell() {
        let mut problems = Problems::default();
        let table = TextTable::parse_csv("t.csv", b"x,y\n1,abc\n2,-1\n", &mut problems).unwrap();
        assert_eq!(table.number(&table.rows[0], 1, &mut problems), None);
        assert_eq!(table.non_negative(&table.rows[1], 1, &mut problems), None);
        let messages: Vec<String> = problems.errors().iter().map(ToString::to_string).collect();
        assert_eq!(messages, vec!["t.csv:2:2: y: \"abc\" is not a number", "t.csv:3:2: y: -1 is negative"]);
    }
}
