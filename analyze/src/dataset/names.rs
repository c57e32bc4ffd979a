//! The names rule (`request_row::name`: trimmed, one line, no control character, at most
//! [`MAX_NAME_BYTES`], distinct within its list) as ingest applies it: at a cell of a table, at a
//! column of a header. dataset.toml's names (factors, levels, session steps) are checked at their
//! line and column by `schema.rs` with the same rule. A note is free text: `request_row::name::check_note`.

use super::error::{DataError, Place, Problems};
use super::table::{TextRow, TextTable};
pub use request_row::name::{check_name, NameError, MAX_NAME_BYTES};

/// The name in a cell (trimmed), or `None` with the problem at the cell. `what` is the kind of
/// name with its article ("a run id"); `empty` is the message for an empty cell.
pub fn cell<'a>(table: &TextTable, row: &'a TextRow, column: usize, what: &str, empty: &str, problems: &mut Problems) -> Option<&'a str> {
    match check_name(&row.cells[column]) {
        Ok(name) => Some(name),
        Err(NameError::Empty) => {
            problems.push(table.cell_error(row, column, empty));
            None
        }
        Err(error) => {
            problems.push(table.cell_error(row, column, error.message(what)));
            None
        }
    }
}

/// Whether a column's name in the header is a name; else the problem at the header's field (a
/// CSV's line 1) or column (Parquet).
pub fn header(table: &TextTable, column: usize, what: &str, problems: &mut Problems) -> bool {
    let name = &table.columns[column];
    let Err(error) = check_name(name) else { return true };
    let message = format!("the column {}: {}", super::error::shown(name), error.message(what));
    let place = if table.is_csv { Place::Line { line: 1, field: Some((column + 1, "header".to_string())) } } else { Place::File };
    problems.push(DataError { file: table.file.clone(), place, message });
    false
}
