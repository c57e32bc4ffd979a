//! Parquet input through polars: the same tables and rules as CSV, read column by column.
//!
//! requests.parquet is read in slices of [`SLICE_ROWS`] rows and only the columns a statistic
//! needs, so memory follows the slice, not the file. Places are rows (1-based), not lines.

use super::error::{DataError, Place, Problems};
use super::requests::{check_row_values, RequestRow, RequestSink, RowPlace, RunIndex, Scan};
use super::table::{TextRow, TextTable};
use polars::prelude::*;
use std::path::Path;

const SLICE_ROWS: usize = 1 << 20;

fn file_error(file: &str, error: impl std::fmt::Display) -> DataError {
    DataError::file(file, format!("cannot be read as Parquet: {error}"))
}

/// Reads a small Parquet table as text cells (numbers in their shortest exact form).
pub fn read_text_table(path: &Path, file: &str, problems: &mut Problems) -> Option<TextTable> {
    let frame = std::fs::File::open(path)
        .map_err(|e| file_error(file, e))
        .and_then(|f| ParquetReader::new(f).finish().map_err(|e| file_error(file, e)));
    let frame = match frame {
        Ok(frame) => frame,
        Err(error) => {
            problems.push(error);
            return None;
        }
    };
    let columns: Vec<String> = frame.columns().iter().map(|c| c.name().to_string()).collect();
    let mut rows = Vec::with_capacity(frame.height());
    for index in 0..frame.height() {
        let mut cells = Vec::with_capacity(columns.len());
        for column in frame.columns() {
            let cell = match column.get(index) {
                Ok(AnyValue::Null) => String::new(),
                Ok(AnyValue::String(text)) => text.to_string(),
                Ok(AnyValue::StringOwned(text)) => text.to_string(),
                Ok(value) => value.to_string(),
                Err(error) => {
                    problems.push(DataError {
                        file: file.to_string(),
                        place: Place::Row { row: index as u64 + 1, column: Some(column.name().to_string()) },
                        message: error.to_string(),
                    });
                    String::new()
                }
            };
            cells.push(cell);
        }
        rows.push(TextRow { place: index as u64 + 1, cells });
    }
    if rows.is_empty() {
        problems.push(DataError::file(file, "has no rows"));
    }
    Some(TextTable { file: file.to_string(), is_csv: false, columns, rows })
}

/// Reads requests.parquet in slices, spread over worker threads, each with its own sink.
pub fn scan_requests<S: RequestSink>(path: &Path, runs: &RunIndex, make_sink: impl Fn() -> S + Sync) -> Result<Scan<S>, DataError> {
    let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let open = || std::fs::File::open(path).map_err(|e| DataError::file(&file, format!("cannot be read: {e}")));
    let mut first = ParquetReader::new(open()?);
    let schema = first.schema().map_err(|e| file_error(&file, e))?;
    let missing: Vec<&str> = COLUMNS.into_iter().filter(|name| schema.get(name).is_none()).collect();
    if !missing.is_empty() {
        return Err(DataError::file(
            &file,
            format!("missing column{} `{}`", if missing.len() == 1 { "" } else { "s" }, missing.join("`, `")),
        ));
    }
    let metadata = first.get_metadata().map_err(|e| file_error(&file, e))?.clone();
    let total_rows = metadata.num_rows;
    if total_rows == 0 {
        return Err(DataError::file(&file, "has no rows"));
    }
    let slices: Vec<(usize, usize)> =
        (0..total_rows).step_by(SLICE_ROWS).map(|offset| (offset, SLICE_ROWS.min(total_rows - offset))).collect();
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, slices.len());
    let results: Vec<Result<(S, Problems), DataError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|worker| {
                let (slices, metadata, file, make_sink, open) = (&slices, &metadata, &file, &make_sink, &open);
                scope.spawn(move || {
                    let mut sink = make_sink();
                    let mut problems = Problems::default();
                    for (block, &(offset, length)) in slices.iter().enumerate().skip(worker).step_by(workers) {
                        let mut reader = ParquetReader::new(open()?)
                            .with_columns(Some(COLUMNS.map(String::from).to_vec()))
                            .with_slice(Some((offset, length)))
                            .read_parallel(ParallelStrategy::None);
                        reader.set_metadata(metadata.clone());
                        let frame = reader.finish().map_err(|e| file_error(file, e))?;
                        feed(&frame, block as u32, offset, runs, file, &mut sink, &mut problems).map_err(|e| file_error(file, e))?;
                    }
                    Ok((sink, problems))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a parquet worker panicked")).collect()
    });
    let mut sinks = Vec::with_capacity(workers);
    let mut problems = Problems::default();
    for result in results {
        let (sink, found) = result?;
        sinks.push(sink);
        problems.extend(found);
    }
    Ok(Scan { sinks, problems, block_starts: slices.iter().map(|&(offset, _)| offset as u64 + 1).collect() })
}

/// The columns a statistic needs; `body_bytes` is not read from Parquet (its type already says
/// it is a number).
const COLUMNS: [&str; 6] = ["run_id", "seq", "scheduled_ms", "sent_ms", "latency_ms", "status"];

fn feed<S: RequestSink>(
    frame: &DataFrame,
    block: u32,
    offset: usize,
    runs: &RunIndex,
    file: &str,
    sink: &mut S,
    problems: &mut Problems,
) -> PolarsResult<()> {
    let run_ids = frame.column("run_id")?.cast(&DataType::String)?;
    let seqs = frame.column("seq")?.cast(&DataType::Int64)?;
    let scheduled = frame.column("scheduled_ms")?.cast(&DataType::Float64)?;
    let sent = frame.column("sent_ms")?.cast(&DataType::Float64)?;
    let latency = frame.column("latency_ms")?.cast(&DataType::Float64)?;
    let status = frame.column("status")?.cast(&DataType::Int64)?;
    let rows = run_ids
        .str()?
        .iter()
        .zip(seqs.i64()?.iter())
        .zip(scheduled.f64()?.iter())
        .zip(sent.f64()?.iter())
        .zip(latency.f64()?.iter())
        .zip(status.i64()?.iter());
    // Rows come grouped by run: compare with the last id rather than hash every row's.
    let mut last: Option<(&str, Option<u32>)> = None;
    for (index, (((((run_id, seq), scheduled_ms), sent_ms), latency_ms), status)) in rows.enumerate() {
        let row_number = (offset + index) as u64 + 1;
        let error = |column: &str, message: String| DataError {
            file: file.to_string(),
            place: Place::Row { row: row_number, column: Some(column.to_string()) },
            message,
        };
        let run = match (run_id, last) {
            (Some(id), Some((last_id, run))) if id == last_id => run,
            (Some(id), _) => {
                let run = runs.get(id.as_bytes());
                last = Some((id, run));
                run
            }
            (None, _) => None,
        };
        let Some(run) = run else {
            problems.push(error("run_id", format!("run_id {:?} is not in runs.csv", run_id.unwrap_or(""))));
            continue;
        };
        let (Some(seq), Some(scheduled_ms), Some(sent_ms), Some(status)) = (seq, scheduled_ms, sent_ms, status) else {
            problems.push(DataError {
                file: file.to_string(),
                place: Place::Row { row: row_number, column: None },
                message: "seq, scheduled_ms, sent_ms and status must not be null".to_string(),
            });
            continue;
        };
        if let Err((column, message)) = check_row_values(latency_ms, status, scheduled_ms, sent_ms) {
            problems.push(error(column, message));
            continue;
        }
        if run == RunIndex::IGNORED {
            continue;
        }
        let row = RequestRow { run, seq, scheduled_ms, sent_ms, latency_ms, status: status as u16 };
        sink.row(&row, RowPlace { block, within: index as u64 + 1 });
    }
    Ok(())
}
