//! The small Parquet tables (runs, large responses, temp files, resources) as text cells, through
//! the `parquet` crate's row reader: one row per run or per sample, so a row at a time is cheap,
//! and the text cells go through the same typed checks as CSV's (`TextTable`).

use crate::dataset::error::{DataError, Place, Problems};
use crate::dataset::table::{TextRow, TextTable};
use parquet::file::reader::FileReader;
use parquet::file::serialized_reader::SerializedFileReader;
use parquet::record::Field;
use std::path::Path;

/// What analyze reads from Parquet, for messages about anything else.
const READS: &str = "analyze reads Parquet columns of strings, integers, floats, doubles and booleans \
                     (write times as RFC 3339 strings such as 2025-01-06T09:00:00Z)";

/// Reads a small Parquet table as text cells (numbers in their shortest exact form).
pub fn read_text_table(path: &Path, file: &str, problems: &mut Problems) -> Option<TextTable> {
    let reader = match std::fs::File::open(path)
        .map_err(|e| format!("cannot be read: {e}"))
        .and_then(|f| SerializedFileReader::new(f).map_err(|e| format!("cannot be read as Parquet: {e}")))
    {
        Ok(reader) => reader,
        Err(message) => {
            problems.push(DataError::file(file, message));
            return None;
        }
    };
    let schema = reader.metadata().file_metadata().schema();
    let columns: Vec<String> = schema.get_fields().iter().map(|f| f.name().to_string()).collect();
    let rows_iter = match reader.get_row_iter(None) {
        Ok(rows) => rows,
        Err(error) => {
            problems.push(DataError::file(file, format!("cannot be read as Parquet: {error}")));
            return None;
        }
    };
    let mut rows = Vec::new();
    for (index, row) in rows_iter.enumerate() {
        let place = index as u64 + 1;
        let row = match row {
            Ok(row) => row,
            Err(error) => {
                problems.push(DataError::file(file, format!("cannot be read as Parquet: {error}")));
                return None;
            }
        };
        let mut cells = Vec::with_capacity(columns.len());
        for (name, field) in row.get_column_iter() {
            match cell(field) {
                Ok(text) => cells.push(text),
                Err(what) => {
                    // A type is the same in every row: say it once, for the whole file.
                    problems.push(DataError::file(file, format!("column `{name}` is {what}; {READS}")));
                    return None;
                }
            }
        }
        if cells.len() != columns.len() {
            problems.push(DataError {
                file: file.to_string(),
                place: Place::Row { row: place, column: None },
                message: format!("has {} values, the schema has {} columns", cells.len(), columns.len()),
            });
            continue;
        }
        rows.push(TextRow { place, cells });
    }
    Some(TextTable { file: file.to_string(), is_csv: false, columns, rows })
}

/// A cell as text, or what kind of value it holds when that is not a number or a string.
fn cell(field: &Field) -> Result<String, &'static str> {
    Ok(match field {
        Field::Null => String::new(),
        Field::Bool(b) => b.to_string(),
        Field::Byte(v) => v.to_string(),
        Field::Short(v) => v.to_string(),
        Field::Int(v) => v.to_string(),
        Field::Long(v) => v.to_string(),
        Field::UByte(v) => v.to_string(),
        Field::UShort(v) => v.to_string(),
        Field::UInt(v) => v.to_string(),
        Field::ULong(v) => v.to_string(),
        Field::Float(v) => v.to_string(),
        Field::Double(v) => v.to_string(),
        Field::Str(s) => s.clone(),
        Field::Date(_) => return Err("a DATE"),
        Field::TimeMillis(_) | Field::TimeMicros(_) => return Err("a TIME"),
        Field::TimestampMillis(_) | Field::TimestampMicros(_) => return Err("a TIMESTAMP"),
        Field::Decimal(_) => return Err("a DECIMAL"),
        Field::Bytes(_) => return Err("binary (not UTF-8 text)"),
        Field::Group(_) | Field::ListInternal(_) | Field::MapInternal(_) => return Err("nested (a list, map or struct)"),
        _ => return Err("of a type analyze does not read"),
    })
}
