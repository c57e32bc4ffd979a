//! Parquet input, through the Apache `parquet` crate: the same tables and rules as CSV.
//!
//! requests.parquet is read by `reader` (row group by row group, a window of rows per column at a
//! time, straight into the contract's checks), so memory follows a window, not the file; only the
//! requests columns are decoded. The small tables are read a row at a time by `small` into the
//! text cells CSV gives. Places are rows (1-based), not lines.

mod reader;
mod run_ids;
mod small;

use super::error::{DataError, Place, Problems};
use super::requests::{validate, RawRequest, RequestSink, RowPlace, RunIndex, Scan};
use std::path::Path;

pub use small::read_text_table;

const DAMAGED: &str = "cannot be read as Parquet: the file is damaged (the Parquet reader stopped inside it)";

/// Reads requests.parquet, its row groups spread over worker threads, each with its own sink.
pub fn scan_requests<S: RequestSink>(path: &Path, runs: &RunIndex, make_sink: impl Fn() -> S + Sync) -> Result<Scan<S>, DataError> {
    let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let handle = std::fs::File::open(path).map_err(|e| DataError::file(&file, format!("cannot be read: {e}")))?;
    // The parquet crate stops on some damaged files with a panic rather than an error (an
    // unwrap in its footer parser, an index in its dictionary decoder): that is a damaged file.
    let opened = super::quiet_panic::catch(|| reader::open(handle))
        .unwrap_or_else(|_| Err(DAMAGED.to_string()))
        .map_err(|message| DataError::file(&file, message))?;
    let group_rows = opened.group_rows();
    let mut block_starts = Vec::with_capacity(group_rows.len());
    let mut next = 1u64;
    for &rows in &group_rows {
        block_starts.push(next);
        next += rows;
    }
    if next == 1 {
        return Err(DataError::file(&file, "has no rows"));
    }
    let groups = group_rows.len();
    let progress = super::progress::progress_bar_rows(next - 1);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, groups);
    let results: Vec<Result<(S, Problems), DataError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|worker| {
                let (opened, block_starts, progress, file, make_sink, group_rows) =
                    (&opened, &block_starts, &progress, &file, &make_sink, &group_rows);
                scope.spawn(move || {
                    let mut sink = make_sink();
                    let mut problems = Problems::default();
                    let mut window = reader::Window::default();
                    for group in (worker..groups).step_by(workers) {
                        let read = super::quiet_panic::catch(|| {
                            reader::read_group(
                                opened,
                                group,
                                group as u32,
                                block_starts[group],
                                runs,
                                file,
                                &mut window,
                                &mut sink,
                                &mut problems,
                            )
                        });
                        match read {
                            Ok(Ok(())) => {}
                            Ok(Err(message)) => return Err(DataError::file(file, message)),
                            Err(_) => return Err(DataError::file(file, DAMAGED)),
                        }
                        progress.inc(group_rows[group]);
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

/// One row's values as the reader decoded them; `run` is the run index, or the unknown id (when
/// it was kept).
struct RowValues<'a> {
    run: Result<u32, Option<&'a str>>,
    seq: Option<i64>,
    scheduled_ms: Option<f64>,
    sent_ms: Option<f64>,
    latency_ms: Option<f64>,
    status: Option<i64>,
    body_bytes: Option<i64>,
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
    let raw = RawRequest { seq, scheduled_ms, sent_ms, latency_ms: values.latency_ms, status, body_bytes: values.body_bytes };
    match validate(run, &raw) {
        Err(violation) => problems.push(error(violation.column.name(), violation.message)),
        Ok(_) if run == RunIndex::IGNORED => {}
        Ok(row) => sink.row(&row, place),
    }
}
