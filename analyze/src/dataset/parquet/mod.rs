//! Parquet input, through the Apache `parquet` crate: the same tables and rules as CSV.
//!
//! requests.parquet is read by `reader` (row group by row group, a window of rows per column at a
//! time, straight into the contract's checks), so memory follows a window, not the file; only the
//! requests columns are decoded. A `requests/` folder of Parquet files (`hive` lists them, with the
//! run their `run_id=` folder names) is read the same way, its files' row groups one after the
//! other in sorted path order, spread over the same workers: one file is a folder of one part.
//! The small tables are read a row at a time by `small` into the text cells CSV gives. Places are
//! rows (1-based, within each file), not lines.

mod hive;
mod reader;
mod run_ids;
mod small;

use super::error::{shown, DataError, Place, Problems};
use super::requests::{validate, RawRequest, RequestSink, RowPlace, RunIndex, Scan};
use std::path::{Path, PathBuf};

pub use small::read_text_table;

const DAMAGED: &str = "cannot be read as Parquet: the file is damaged (the Parquet reader stopped inside it)";

/// A file to read, its row groups counted and the run its folder names looked up.
struct Prepared {
    name: String,
    path: PathBuf,
    /// The run code and id of its `run_id=` folder.
    folder_run: Option<(u32, String)>,
    group_rows: Vec<u64>,
}

/// Opens `path` as requests (its footer and columns) and drops it again, keeping what the
/// workers need to share its row groups; the error names what is wrong with the file.
fn prepare(name: &str, path: &Path, folder_run: Option<(u32, String)>) -> Result<Prepared, DataError> {
    let opened = open(name, path, folder_run.is_none())?;
    Ok(Prepared { name: name.to_string(), path: path.to_path_buf(), folder_run, group_rows: opened.group_rows() })
}

fn open(name: &str, path: &Path, run_id_required: bool) -> Result<reader::Opened, DataError> {
    let handle = std::fs::File::open(path).map_err(|e| DataError::file(name, format!("cannot be read: {e}")))?;
    // The parquet crate stops on some damaged files with a panic rather than an error (an
    // unwrap in its footer parser, an index in its dictionary decoder): that is a damaged file.
    super::quiet_panic::catch(|| reader::open(handle, run_id_required))
        .unwrap_or_else(|_| Err(DAMAGED.to_string()))
        .map_err(|message| DataError::file(name, message))
}

/// Reads requests.parquet, its row groups spread over worker threads, each with its own sink.
pub fn scan_requests<S: RequestSink>(path: &Path, runs: &RunIndex, make_sink: impl Fn() -> S + Sync) -> Result<Scan<S>, DataError> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let file = prepare(&name, path, None)?;
    if file.group_rows.iter().sum::<u64>() == 0 {
        return Err(DataError::file(&name, "has no rows"));
    }
    scan_files(vec![file], Problems::default(), runs, make_sink)
}

/// Reads a folder of Parquet files (`requests/`, shown as `shown_as`), every file's row groups
/// spread over worker threads as one file's are. A file that cannot be read is a problem of its
/// own and the others are still read, so every problem is found in one pass.
pub fn scan_folder<S: RequestSink>(
    folder: &Path,
    shown_as: &str,
    runs: &RunIndex,
    make_sink: impl Fn() -> S + Sync,
) -> Result<Scan<S>, DataError> {
    let top = shown_as.trim_end_matches('/');
    let (parts, listing) = hive::list(folder, top);
    let mut problems = Problems::default();
    let listed = parts.len();
    if listed == 0 && listing.is_empty() {
        return Err(DataError::file(
            shown_as,
            "holds no Parquet files: write requests/run_id=<run>/part-0.parquet, or requests.csv instead",
        ));
    }
    for problem in listing {
        problems.push(problem);
    }
    let mut files = Vec::with_capacity(parts.len());
    for part in parts {
        let folder_run = match part.run_id.as_deref().map(|id| (runs.get(id.as_bytes()), id)) {
            None => None,
            // A run whose runs.csv row was rejected: its requests are skipped, as its rows would be.
            Some((Some(RunIndex::IGNORED), _)) => continue,
            Some((Some(run), id)) => Some((run, id.to_string())),
            Some((None, id)) => {
                problems
                    .push(DataError::file(&part.name, format!("is in the folder run_id={}, a run that runs.csv does not list", shown(id))));
                continue;
            }
        };
        match prepare(&part.name, &part.path, folder_run) {
            Ok(file) => files.push(file),
            Err(problem) => problems.push(problem),
        }
    }
    if problems.is_empty() && files.iter().all(|f| f.group_rows.iter().sum::<u64>() == 0) {
        return Err(DataError::file(
            shown_as,
            format!("has {listed} Parquet file{} and no rows in them", if listed == 1 { "" } else { "s" }),
        ));
    }
    scan_files(files, problems, runs, make_sink)
}

/// Reads `files` in order: every row group is a block, the groups spread over worker threads (in
/// turn, as a deck is dealt), each worker with its own sink. `problems` are those already found.
fn scan_files<S: RequestSink>(
    files: Vec<Prepared>,
    mut problems: Problems,
    runs: &RunIndex,
    make_sink: impl Fn() -> S + Sync,
) -> Result<Scan<S>, DataError> {
    // Every row group of every file in order: its file, its index in the file, its rows.
    let mut groups: Vec<(usize, usize, u64)> = Vec::new();
    let mut block_starts = Vec::new();
    let mut block_files = Vec::new();
    let mut total = 0u64;
    for (f, file) in files.iter().enumerate() {
        let mut next = 1u64;
        for (g, &rows) in file.group_rows.iter().enumerate() {
            groups.push((f, g, rows));
            block_starts.push(next);
            block_files.push(f as u32);
            next += rows;
            total += rows;
        }
    }
    let progress = super::progress::progress_bar_rows(total);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, groups.len().max(1));
    let results: Vec<Result<(S, Problems), DataError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|worker| {
                let (files, groups, block_starts, progress, make_sink) = (&files, &groups, &block_starts, &progress, &make_sink);
                scope.spawn(move || {
                    let mut sink = make_sink();
                    let mut problems = Problems::default();
                    let mut window = reader::Window::default();
                    // The file this worker has open: each worker opens a file once for its groups.
                    let mut opened: Option<(usize, reader::Opened)> = None;
                    for block in (worker..groups.len()).step_by(workers) {
                        let (f, group, rows) = groups[block];
                        let file = &files[f];
                        if opened.as_ref().is_none_or(|(open_file, _)| *open_file != f) {
                            opened = Some((f, open(&file.name, &file.path, file.folder_run.is_none())?));
                        }
                        let (_, reader) = opened.as_ref().expect("opened above");
                        let at = reader::Group {
                            index: group,
                            block: block as u32,
                            first_row: block_starts[block],
                            file: &file.name,
                            folder_run: file.folder_run.as_ref().map(|(run, id)| (*run, id.as_str())),
                        };
                        let read =
                            super::quiet_panic::catch(|| reader::read_group(reader, &at, runs, &mut window, &mut sink, &mut problems));
                        match read {
                            Ok(Ok(())) => {}
                            Ok(Err(message)) => return Err(DataError::file(&file.name, message)),
                            Err(_) => return Err(DataError::file(&file.name, DAMAGED)),
                        }
                        progress.inc(rows);
                    }
                    Ok((sink, problems))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a parquet worker panicked")).collect()
    });
    progress.finish_and_clear();
    let mut sinks = Vec::with_capacity(results.len());
    for result in results {
        let (sink, found) = result?;
        sinks.push(sink);
        problems.extend(found);
    }
    let names = files.into_iter().map(|f| f.name).collect();
    Ok(Scan { sinks, problems, block_starts, files: names, block_files, seq_field: None })
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

/// The rows' (run, status, latency, label) of requests.parquet or of a folder of parts, for the
/// per-label pass (`dataset::labels`), through the row reader: `false` when no file has a
/// `label` column. The first pass has checked every other value; rows it skipped (unknown or
/// rejected runs) are skipped here too.
pub fn label_rows(source: &super::table::TableSource, index: &RunIndex, problems: &mut Problems, add: &mut super::labels::RowSink) -> bool {
    use parquet::file::reader::FileReader;
    use parquet::record::Field;
    let files: Vec<(String, PathBuf, Option<String>)> = match source {
        super::table::TableSource::ParquetFolder(folder) => {
            let shown_as = source.file_name();
            hive::list(folder, shown_as.trim_end_matches('/')).0.into_iter().map(|p| (p.name, p.path, p.run_id)).collect()
        }
        _ => vec![(source.file_name(), source.path().to_path_buf(), None)],
    };
    let mut found = false;
    for (name, path, folder_run) in files {
        let opened = std::fs::File::open(&path)
            .map_err(|e| e.to_string())
            .and_then(|f| parquet::file::serialized_reader::SerializedFileReader::new(f).map_err(|e| e.to_string()));
        let reader = match opened {
            Ok(reader) => reader,
            Err(error) => {
                problems.push(DataError::file(&name, format!("cannot be read as Parquet: {error}")));
                continue;
            }
        };
        let fields = reader.metadata().file_metadata().schema().get_fields().iter().map(|f| f.name().to_string()).collect::<Vec<_>>();
        if !fields.iter().any(|f| f == request_row::LABEL) {
            continue;
        }
        found = true;
        let folder_run = folder_run.and_then(|id| index.get(id.as_bytes()));
        let rows = match reader.get_row_iter(None) {
            Ok(rows) => rows,
            Err(error) => {
                problems.push(DataError::file(&name, format!("cannot be read as Parquet: {error}")));
                continue;
            }
        };
        for (number, row) in rows.enumerate() {
            let row = match row {
                Ok(row) => row,
                Err(error) => {
                    problems.push(DataError::file(&name, format!("cannot be read as Parquet: {error}")));
                    break;
                }
            };
            let (mut run, mut status, mut latency, mut label) = (folder_run, None, None, Ok(String::new()));
            for (column, field) in row.get_column_iter() {
                let number_of = |field: &Field| match field {
                    Field::Int(v) => Some(f64::from(*v)),
                    Field::Long(v) => Some(*v as f64),
                    Field::Float(v) => Some(f64::from(*v)),
                    Field::Double(v) => Some(*v),
                    _ => None,
                };
                match column.as_str() {
                    "run_id" => {
                        if let Field::Str(id) = field {
                            run = index.get(id.as_bytes());
                        }
                    }
                    "status" => status = number_of(field).map(|s| s as i64),
                    "latency_ms" => latency = number_of(field),
                    request_row::LABEL => {
                        label = match field {
                            Field::Null => Ok(String::new()),
                            Field::Str(text) => request_row::label_text(text).map(str::to_string),
                            _ => Err("is not text: a request name is a string".to_string()),
                        }
                    }
                    _ => {}
                }
            }
            let (Some(run), Some(status)) = (run.filter(|&r| r != RunIndex::IGNORED), status) else { continue };
            match label {
                Ok(label) => add(run, status, latency, &label),
                Err(message) => problems.push(DataError {
                    file: name.clone(),
                    place: Place::Row { row: number as u64 + 1, column: Some(request_row::LABEL.to_string()) },
                    message,
                }),
            }
        }
    }
    found
}
