//! Parquet input: the same tables and rules as CSV, read column by column.
//!
//! requests.parquet is read by the direct reader (`direct`: row group by row group, a page per
//! column at a time), or by polars in slices of `SLICE_ROWS` rows when the file uses something
//! the direct reader does not decode. Either way only the columns a statistic needs are read, so
//! memory follows a page or a slice, not the file, and every row goes through the same checks
//! (`accept_row`). The small tables go through polars. Places are rows (1-based), not lines.

mod direct;
mod meta;
mod thrift;

use super::error::{DataError, Place, Problems};
use super::number::{is_blank, parse_f64, parse_i64};
use super::requests::{validate, RawRequest, RequestSink, RowBatch, RowPlace, RunIndex, Scan};
use super::table::{TextRow, TextTable};
use direct::DirectError;
use polars::prelude::*;
use std::path::Path;

const SLICE_ROWS: usize = 1 << 20;

fn file_error(file: &str, error: impl std::fmt::Display) -> DataError {
    let error = error.to_string();
    // polars' words for a column type this build does not read (timestamps, dates, 8/16-bit
    // integers): say what to write instead.
    let hint = if error.contains("cannot create series from") {
        " (analyze reads Parquet columns of strings, 32- and 64-bit integers, floats and doubles; \
         write times as RFC 3339 strings such as 2025-01-06T09:00:00Z)"
    } else {
        ""
    };
    DataError::file(file, format!("cannot be read as Parquet: {error}{hint}"))
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

/// Which Parquet decoder reads requests.parquet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decoder {
    /// The direct reader, or polars when the file uses something the direct reader does not
    /// decode (or it finds the file damaged: polars then gives its own verdict).
    Auto,
    Polars,
    /// Only the direct reader; an error when it cannot read the file.
    Direct,
}

/// Reads requests.parquet, spread over worker threads, each with its own sink.
pub fn scan_requests<S: RequestSink>(path: &Path, runs: &RunIndex, make_sink: impl Fn() -> S + Sync) -> Result<Scan<S>, DataError> {
    scan_requests_with(path, runs, make_sink, Decoder::Auto)
}

pub fn scan_requests_with<S: RequestSink>(
    path: &Path,
    runs: &RunIndex,
    make_sink: impl Fn() -> S + Sync,
    decoder: Decoder,
) -> Result<Scan<S>, DataError> {
    let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    match decoder {
        Decoder::Polars => scan_with_polars(path, &file, runs, make_sink),
        Decoder::Direct => scan_direct(path, &file, runs, &make_sink).map_err(|e| file_error(&file, e)),
        Decoder::Auto => match scan_direct(path, &file, runs, &make_sink) {
            Ok(scan) => Ok(scan),
            Err(_) => scan_with_polars(path, &file, runs, make_sink),
        },
    }
}

/// Reads row groups round-robin over the workers, decoding pages straight into the row checks.
fn scan_direct<S: RequestSink>(
    path: &Path,
    file: &str,
    runs: &RunIndex,
    make_sink: &(impl Fn() -> S + Sync),
) -> Result<Scan<S>, DirectError> {
    let handle = std::fs::File::open(path)?;
    let plan = direct::plan(&handle)?;
    let mut block_starts = Vec::with_capacity(plan.group_rows.len());
    let mut next = 1u64;
    for &rows in &plan.group_rows {
        block_starts.push(next);
        next += rows;
    }
    if next == 1 {
        // polars says so in the words the CSV path uses.
        return Err(DirectError::Corrupt("has no rows".to_string()));
    }
    let groups = plan.group_rows.len();
    let progress = super::progress::progress_bar_rows(next - 1);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, groups);
    let results: Vec<Result<(S, Problems), DirectError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|worker| {
                let (plan, handle, block_starts, progress) = (&plan, &handle, &block_starts, &progress);
                scope.spawn(move || {
                    let mut sink = make_sink();
                    let mut problems = Problems::default();
                    let mut columns = direct::Columns::new();
                    let mut scratch = direct::Scratch::new();
                    let mut coder = direct::RunCoder::new(runs);
                    for group in (worker..groups).step_by(workers) {
                        let mut feed = DirectFeed { block_start: block_starts[group], file, sink: &mut sink, problems: &mut problems };
                        columns.read_group(handle, plan, group, &mut scratch, &mut coder, &mut feed)?;
                        progress.inc(plan.group_rows[group]);
                    }
                    Ok((sink, problems))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a parquet worker panicked")).collect()
    });
    progress.finish_and_clear();
    gather(results, block_starts)
}

/// One scan from the workers' sinks and problems, or the first worker's error.
fn gather<S, E>(results: Vec<Result<(S, Problems), E>>, block_starts: Vec<u64>) -> Result<Scan<S>, E> {
    let mut sinks = Vec::with_capacity(results.len());
    let mut problems = Problems::default();
    for result in results {
        let (sink, found) = result?;
        sinks.push(sink);
        problems.extend(found);
    }
    Ok(Scan { sinks, problems, block_starts, seq_field: None })
}

/// Hands the direct reader's rows to the row checks and the sink.
struct DirectFeed<'a, S> {
    block_start: u64,
    file: &'a str,
    sink: &'a mut S,
    problems: &'a mut Problems,
}

impl<S: RequestSink> direct::Rows for DirectFeed<'_, S> {
    fn needs_all_columns(&self) -> bool {
        self.sink.needs_all_columns()
    }

    #[inline]
    fn row(&mut self, raw: &direct::RawRow, place: RowPlace, coder: &direct::RunCoder) {
        let run = match raw.run {
            Some(code) if direct::is_unknown(code) => Err(coder.unknown_text(code)),
            Some(run) => Ok(run),
            None => Err(Some("")),
        };
        let values = RowValues {
            run,
            seq: raw.seq,
            scheduled_ms: raw.scheduled_ms,
            sent_ms: raw.sent_ms,
            latency_ms: raw.latency_ms,
            status: raw.status,
        };
        accept_row(values, self.block_start + place.within - 1, place, self.file, self.sink, self.problems);
    }

    #[inline]
    fn batch(&mut self, batch: &RowBatch, first: RowPlace) {
        self.sink.rows(batch, first);
    }
}

/// Reads requests.parquet through polars in slices of [`SLICE_ROWS`] rows.
fn scan_with_polars<S: RequestSink>(
    path: &Path,
    file: &str,
    runs: &RunIndex,
    make_sink: impl Fn() -> S + Sync,
) -> Result<Scan<S>, DataError> {
    let file = file.to_string();
    let open = || std::fs::File::open(path).map_err(|e| DataError::file(&file, format!("cannot be read: {e}")));
    // This build of polars panics on a DECIMAL column; say what is wrong instead.
    if let Some(column) = open().ok().and_then(|handle| direct::decimal_column(&handle)) {
        return Err(DataError::file(
            &file,
            format!("column `{column}` is a DECIMAL; analyze reads numbers stored as INT32, INT64, FLOAT or DOUBLE"),
        ));
    }
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
                        let handle = open()?;
                        // polars panics on some column types this build lacks; that is a bad file, not a crash.
                        let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            let mut reader = ParquetReader::new(handle)
                                .with_columns(Some(COLUMNS.map(String::from).to_vec()))
                                .with_slice(Some((offset, length)))
                                .read_parallel(ParallelStrategy::None);
                            reader.set_metadata(metadata.clone());
                            reader.finish()
                        }));
                        let frame = match read {
                            Ok(frame) => frame.map_err(|e| file_error(file, e))?,
                            Err(panic) => {
                                let message =
                                    panic.downcast_ref::<String>().cloned().or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()));
                                return Err(file_error(file, message.unwrap_or_else(|| "polars failed".to_string())));
                            }
                        };
                        feed(&frame, block as u32, offset, runs, file, &mut sink, &mut problems).map_err(|e| file_error(file, e))?;
                    }
                    Ok((sink, problems))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a parquet worker panicked")).collect()
    });
    gather(results, slices.iter().map(|&(offset, _)| offset as u64 + 1).collect())
}

/// The columns a statistic needs; `body_bytes` is not read from Parquet (its type already says
/// it is a number).
const COLUMNS: [&str; 6] = ["run_id", "seq", "scheduled_ms", "sent_ms", "latency_ms", "status"];

/// One row's values as either decoder read them; `run` is the run index, or the unknown id (when
/// it was kept).
struct RowValues<'a> {
    run: Result<u32, Option<&'a str>>,
    seq: Option<i64>,
    scheduled_ms: Option<f64>,
    sent_ms: Option<f64>,
    latency_ms: Option<f64>,
    status: Option<i64>,
}

/// The row checks both decoders share: a problem is kept with its row, a good row goes to the sink.
#[inline]
fn accept_row<S: RequestSink>(values: RowValues, row_number: u64, place: RowPlace, file: &str, sink: &mut S, problems: &mut Problems) {
    let error = |column: &str, message: String| DataError {
        file: file.to_string(),
        place: Place::Row { row: row_number, column: Some(column.to_string()) },
        message,
    };
    let run = match values.run {
        Ok(run) => run,
        Err(Some(id)) => {
            problems.push(error("run_id", format!("run_id {id:?} is not in runs.csv")));
            return;
        }
        Err(None) => {
            problems.push(error("run_id", "is not in runs.csv (one of hundreds of unknown run ids)".to_string()));
            return;
        }
    };
    let (Some(seq), Some(scheduled_ms), Some(sent_ms), Some(status)) = (values.seq, values.scheduled_ms, values.sent_ms, values.status)
    else {
        problems.push(DataError {
            file: file.to_string(),
            place: Place::Row { row: row_number, column: None },
            message: "seq, scheduled_ms, sent_ms and status must not be null".to_string(),
        });
        return;
    };
    // body_bytes is not read from Parquet yet: its rule is checked by the CSV readers and measure.
    let raw = RawRequest { seq, scheduled_ms, sent_ms, latency_ms: values.latency_ms, status, body_bytes: None };
    match validate(run, &raw) {
        Err(violation) => problems.push(error(violation.column.name(), violation.message)),
        Ok(_) if run == RunIndex::IGNORED => {}
        Ok(row) => sink.row(&row, place),
    }
}

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
    // A string column converts to null where it holds no number: those rows are refused here,
    // naming the text, instead of reading as empty.
    let mut unreadable: Vec<Option<(&str, String)>> = vec![None; frame.height()];
    for name in ["seq", "scheduled_ms", "sent_ms", "latency_ms", "status"] {
        let column = frame.column(name)?;
        if column.dtype() != &DataType::String {
            continue;
        }
        let whole = matches!(name, "seq" | "status");
        for (index, text) in column.str()?.iter().enumerate() {
            let Some(text) = text else { continue };
            let bytes = text.as_bytes();
            let readable = if whole { parse_i64(bytes).is_some() } else { parse_f64(bytes).is_some() || is_blank(bytes) };
            if !readable && unreadable[index].is_none() {
                let what = if whole { "whole number" } else { "number" };
                unreadable[index] = Some((name, format!("{text:?} is not a {what}")));
            }
        }
    }
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
        let run = match (run_id, last) {
            (Some(id), Some((last_id, run))) if id == last_id => run,
            (Some(id), _) => {
                let run = runs.get(id.as_bytes());
                last = Some((id, run));
                run
            }
            (None, _) => None,
        };
        let within = index as u64 + 1;
        if let Some((column, message)) = unreadable[index].take() {
            problems.push(DataError {
                file: file.to_string(),
                place: Place::Row { row: offset as u64 + within, column: Some(column.to_string()) },
                message,
            });
            continue;
        }
        let values = RowValues { run: run.ok_or(Some(run_id.unwrap_or(""))), seq, scheduled_ms, sent_ms, latency_ms, status };
        accept_row(values, offset as u64 + within, RowPlace { block, within }, file, sink, problems);
    }
    Ok(())
}
