//! requests.parquet through the Apache `parquet` crate's column readers.
//!
//! Each worker takes whole row groups and reads them a window of rows at a time: every requests
//! column into a reused buffer (the crate decompresses and decodes pages: every codec, encoding
//! and page version it knows), then the rows of the window through the contract. Runs of clean
//! rows of one run and one status go to the sink as a [`RowBatch`]; any other row goes through
//! [`super::accept_row`], which names what is wrong. Cells that cannot be a number (a string
//! column holding `abc`, an unsigned value too large for a whole number) are problems placed at
//! their row and column. Only flat, top-level columns are read; anything else is an error that
//! says what the column is.

use super::run_ids::{self, RunIds};
use super::{accept_row, RowValues};
use crate::dataset::error::{shown, DataError, Place, Problems};
use crate::dataset::number::{parse_f64, parse_i64};
use crate::dataset::requests::{plausible, Column, RequestSink, RowBatch, RowPlace, RunIndex};
use bytes::Bytes;
use parquet::basic::{ConvertedType, LogicalType, Type as Physical};
use parquet::column::reader::{ColumnReader, ColumnReaderImpl};
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, FloatType, Int32Type, Int64Type};
use parquet::file::reader::{ChunkReader, Length};
use parquet::file::reader::{FileReader, RowGroupReader};
use parquet::file::serialized_reader::SerializedFileReader;
use parquet::schema::types::ColumnDescriptor;
use std::fs::File;
use std::os::unix::fs::FileExt;

/// A file read with positioned reads, so row groups can be read from several threads at once
/// (the crate's `File` reader seeks a shared file offset, which races between threads).
pub struct Positioned(std::sync::Arc<File>);

impl Length for Positioned {
    fn len(&self) -> u64 {
        self.0.metadata().map_or(0, |m| m.len())
    }
}

/// A [`std::io::Read`] at an offset of a [`Positioned`] file.
pub struct PositionedRead {
    file: std::sync::Arc<File>,
    at: u64,
}

impl std::io::Read for PositionedRead {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        let n = self.file.read_at(buffer, self.at)?;
        self.at += n as u64;
        Ok(n)
    }
}

impl ChunkReader for Positioned {
    type T = std::io::BufReader<PositionedRead>;

    fn get_read(&self, start: u64) -> parquet::errors::Result<Self::T> {
        Ok(std::io::BufReader::new(PositionedRead { file: std::sync::Arc::clone(&self.0), at: start }))
    }

    fn get_bytes(&self, start: u64, length: usize) -> parquet::errors::Result<Bytes> {
        let mut buffer = vec![0u8; length];
        self.0.read_exact_at(&mut buffer, start)?;
        Ok(Bytes::from(buffer))
    }
}

/// Rows decoded per column before they are checked: large enough that a window costs little,
/// small enough that seven columns of it (about 0.5 MB with the flags) stay in the L2 cache, where
/// the crate's zeroing of each decode buffer and the checks find them. 32K rows took 4% more CPU
/// time for `check` of the bench's 10M-row Parquet (bench/PROFILE.md); 4K rows no less than 8K.
const WINDOW: usize = 8 * 1024;

/// How a column's cells become the value a row needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    RunId,
    Integer,
    Float,
}

fn target(column: Column) -> Target {
    match column {
        Column::RunId => Target::RunId,
        Column::Seq | Column::Status | Column::BodyBytes => Target::Integer,
        Column::ScheduledMs | Column::SentMs | Column::LatencyMs => Target::Float,
    }
}

/// Which leaf column holds each contract column (`body_bytes` may be absent), and whether
/// integers stored in it are unsigned.
pub struct Layout {
    leaves: [Option<usize>; 7],
    unsigned: [bool; 7],
}

/// The file opened, its footer read and its columns checked.
pub struct Opened {
    pub reader: SerializedFileReader<Positioned>,
    pub layout: Layout,
}

impl Opened {
    /// Rows of each row group.
    pub fn group_rows(&self) -> Vec<u64> {
        self.reader.metadata().row_groups().iter().map(|g| g.num_rows().max(0) as u64).collect()
    }
}

/// Opens `file` and finds the requests columns; the error says what is wrong with the file.
/// `run_id` may be absent only when `run_id_required` is false (the file's folder names the run).
pub fn open(file: File, run_id_required: bool) -> Result<Opened, String> {
    let reader = SerializedFileReader::new(Positioned(std::sync::Arc::new(file))).map_err(|e| format!("cannot be read as Parquet: {e}"))?;
    let schema = reader.metadata().file_metadata().schema_descr();
    let mut leaves = [None; 7];
    let mut unsigned = [false; 7];
    let mut missing = Vec::new();
    for column in Column::ALL {
        let name = column.name();
        let top_level = (0..schema.num_columns()).find(|&i| {
            let path = schema.column(i).path().parts().to_vec();
            path.len() == 1 && path[0] == name
        });
        let Some(leaf) = top_level else {
            if (0..schema.num_columns()).any(|i| schema.column(i).path().parts().first().map(String::as_str) == Some(name)) {
                return Err(format!(
                    "column `{name}` is nested (a list, map or struct): analyze reads flat columns of numbers and strings"
                ));
            }
            if column != Column::BodyBytes && (column != Column::RunId || run_id_required) {
                missing.push(name);
            }
            continue;
        };
        let descriptor = schema.column(leaf);
        if descriptor.max_rep_level() > 0 {
            return Err(format!("column `{name}` is repeated: analyze reads one value per row"));
        }
        unsigned[column.index()] = check_type(name, target(column), &descriptor)?;
        leaves[column.index()] = Some(leaf);
    }
    if !missing.is_empty() {
        return Err(format!("missing column{} `{}`", if missing.len() == 1 { "" } else { "s" }, missing.join("`, `")));
    }
    Ok(Opened { reader, layout: Layout { leaves, unsigned } })
}

/// Refuses column types whose values are not the numbers or strings a row needs; says whether
/// an integer column is unsigned.
fn check_type(name: &str, target: Target, descriptor: &ColumnDescriptor) -> Result<bool, String> {
    let logical = descriptor.logical_type_ref();
    let converted = descriptor.converted_type();
    let physical = descriptor.physical_type();
    let refuse = |what: &str| {
        Err(format!(
            "column `{name}` is {what}; analyze reads Parquet columns of strings, 32- and 64-bit integers, floats and doubles \
             (write times as RFC 3339 strings such as 2025-01-06T09:00:00Z, and numbers as integers or doubles)"
        ))
    };
    if matches!(logical, Some(LogicalType::Decimal { .. })) || converted == ConvertedType::DECIMAL {
        return Err(format!("column `{name}` is a DECIMAL; analyze reads numbers stored as INT32, INT64, FLOAT or DOUBLE"));
    }
    match logical {
        Some(LogicalType::Date) => return refuse("a DATE"),
        Some(LogicalType::Time { .. }) => return refuse("a TIME"),
        Some(LogicalType::Timestamp { .. }) => return refuse("a TIMESTAMP"),
        Some(LogicalType::Json | LogicalType::Bson | LogicalType::Uuid) => return refuse("not numbers or text"),
        _ => {}
    }
    if matches!(
        converted,
        ConvertedType::DATE
            | ConvertedType::TIME_MILLIS
            | ConvertedType::TIME_MICROS
            | ConvertedType::TIMESTAMP_MILLIS
            | ConvertedType::TIMESTAMP_MICROS
            | ConvertedType::INTERVAL
    ) {
        return refuse("a date or time");
    }
    let unsigned = matches!(logical, Some(LogicalType::Integer(int)) if !int.is_signed)
        || matches!(converted, ConvertedType::UINT_8 | ConvertedType::UINT_16 | ConvertedType::UINT_32 | ConvertedType::UINT_64);
    match (physical, target) {
        (Physical::INT32 | Physical::INT64 | Physical::BYTE_ARRAY, _) => Ok(unsigned),
        (Physical::FLOAT | Physical::DOUBLE, Target::Integer | Target::Float) => Ok(false),
        (Physical::FLOAT | Physical::DOUBLE, Target::RunId) => refuse("a floating-point number"),
        (Physical::BOOLEAN, _) => refuse("a BOOLEAN"),
        (Physical::INT96, _) => refuse("an INT96 timestamp"),
        (Physical::FIXED_LEN_BYTE_ARRAY, _) => refuse("a FIXED_LEN_BYTE_ARRAY"),
    }
}

/// One column's typed reader and its decoded window.
enum Values {
    I32(ColumnReaderImpl<Int32Type>, Vec<i32>),
    I64(ColumnReaderImpl<Int64Type>, Vec<i64>),
    F32(ColumnReaderImpl<FloatType>, Vec<f32>),
    F64(ColumnReaderImpl<DoubleType>, Vec<f64>),
    Bytes(ColumnReaderImpl<ByteArrayType>, Vec<ByteArray>),
}

/// A column chunk being read, with definition levels when the column is nullable.
struct Chunk {
    values: Values,
    levels: Vec<i16>,
    max_level: i16,
}

impl Chunk {
    fn new(group: &dyn RowGroupReader, leaf: usize) -> parquet::errors::Result<Chunk> {
        let max_level = group.metadata().column(leaf).column_descr().max_def_level();
        let values = match group.get_column_reader(leaf)? {
            ColumnReader::Int32ColumnReader(r) => Values::I32(r, Vec::new()),
            ColumnReader::Int64ColumnReader(r) => Values::I64(r, Vec::new()),
            ColumnReader::FloatColumnReader(r) => Values::F32(r, Vec::new()),
            ColumnReader::DoubleColumnReader(r) => Values::F64(r, Vec::new()),
            ColumnReader::ByteArrayColumnReader(r) => Values::Bytes(r, Vec::new()),
            _ => return Err(parquet::errors::ParquetError::General("a column type checked away changed".to_string())),
        };
        Ok(Chunk { values, levels: Vec::new(), max_level })
    }

    /// Reads the next `rows` rows; the count actually read.
    fn read(&mut self, rows: usize) -> parquet::errors::Result<usize> {
        self.levels.clear();
        let levels = (self.max_level > 0).then_some(&mut self.levels);
        let (records, _, _) = match &mut self.values {
            Values::I32(r, v) => {
                v.clear();
                r.read_records(rows, levels, None, v)?
            }
            Values::I64(r, v) => {
                v.clear();
                r.read_records(rows, levels, None, v)?
            }
            Values::F32(r, v) => {
                v.clear();
                r.read_records(rows, levels, None, v)?
            }
            Values::F64(r, v) => {
                v.clear();
                r.read_records(rows, levels, None, v)?
            }
            Values::Bytes(r, v) => {
                v.clear();
                r.read_records(rows, levels, None, v)?
            }
        };
        Ok(records)
    }

    /// Per row of the window, the index of its value among the decoded values (`None` for a
    /// null); `None` as a whole when every row has a value (row `i` is value `i`).
    fn positions(&self, rows: usize) -> Option<Vec<Option<usize>>> {
        if self.max_level == 0 || self.levels.iter().all(|&l| l == self.max_level) {
            return None;
        }
        let mut next = 0;
        Some(
            (0..rows)
                .map(|i| {
                    (self.levels.get(i) == Some(&self.max_level)).then(|| {
                        next += 1;
                        next - 1
                    })
                })
                .collect(),
        )
    }
}

/// A window of one column as the rows need it.
#[derive(Default)]
struct Numbers<T> {
    values: Vec<T>,
    valid: Vec<bool>,
}

impl<T: Copy + Default> Numbers<T> {
    /// `rows` rows, none valid. Values are left as they were: a row's value is read only when
    /// it is valid, so only the flags need clearing.
    fn clear(&mut self, rows: usize) {
        self.values.resize(rows, T::default());
        self.valid.clear();
        self.valid.resize(rows, false);
    }
}

/// A cell that is present but cannot be the number its column needs.
struct BadCell {
    row: usize,
    column: Column,
    message: String,
}

/// Reused buffers of one worker.
#[derive(Default)]
pub struct Window {
    /// Run code of each row of the window ([`UNKNOWN`] and up for ids runs.csv lacks, [`NULL_RUN`]).
    run_codes: Vec<u32>,
    seq: Numbers<i64>,
    scheduled_ms: Numbers<f64>,
    sent_ms: Numbers<f64>,
    latency_ms: Numbers<f64>,
    status: Numbers<i64>,
    body_bytes: Numbers<i64>,
    bad: Vec<BadCell>,
    /// Per row: every value a batch row needs is present and passes the row checks.
    clean: Vec<bool>,
    /// Texts of the unknown run ids of this row group, for the messages (codes from [`UNKNOWN`]).
    unknown: Vec<String>,
    last_id: Vec<u8>,
    last_run: u32,
}

/// Run codes at and above this stand for run ids that runs.csv does not have.
const UNKNOWN: u32 = 0x8000_0000;
/// A null run id.
const NULL_RUN: u32 = run_ids::NULL;
/// Unknown ids whose text is kept per window (only the first problems are shown).
const KEPT_UNKNOWN: usize = 64;

fn is_unknown(code: u32) -> bool {
    (UNKNOWN..NULL_RUN).contains(&code)
}

impl Window {
    fn run_code(&mut self, id: &[u8], runs: &RunIndex) -> u32 {
        if !self.last_id.is_empty() && self.last_id == id {
            return self.last_run;
        }
        let code = self.lookup(id, runs);
        self.last_id.clear();
        self.last_id.extend_from_slice(id);
        self.last_run = code;
        code
    }

    /// The run code of `id`; an unknown id keeps its text (once) for the messages.
    fn lookup(&mut self, id: &[u8], runs: &RunIndex) -> u32 {
        if let Some(run) = runs.get(id) {
            return run;
        }
        let text = String::from_utf8_lossy(id);
        match self.unknown.iter().position(|known| *known == text) {
            Some(at) => UNKNOWN + at as u32,
            None if self.unknown.len() < KEPT_UNKNOWN => {
                self.unknown.push(text.into_owned());
                UNKNOWN + self.unknown.len() as u32 - 1
            }
            None => UNKNOWN + KEPT_UNKNOWN as u32,
        }
    }
}

/// Dictionary entries to run codes, for [`RunIds`].
struct Lookup<'a> {
    window: &'a mut Window,
    runs: &'a RunIndex,
}

impl run_ids::Codes for Lookup<'_> {
    fn code(&mut self, id: &[u8]) -> u32 {
        self.window.lookup(id, self.runs)
    }
}

/// The `run_id` column of a row group: through its dictionary ([`RunIds`]) while its pages are
/// dictionary-encoded strings, else through the crate's typed reader.
enum RunColumn {
    // Both boxed: each is hundreds of bytes, and there is one per row group.
    Dictionary(Box<RunIds>, std::sync::Arc<ColumnDescriptor>),
    Typed(Box<Chunk>),
}

impl RunColumn {
    fn new(group: &dyn RowGroupReader, leaf: usize) -> parquet::errors::Result<RunColumn> {
        let descriptor = group.metadata().column(leaf).column_descr_ptr();
        if descriptor.physical_type() == Physical::BYTE_ARRAY && descriptor.max_def_level() <= 1 {
            let nullable = descriptor.max_def_level() == 1;
            return Ok(RunColumn::Dictionary(Box::new(RunIds::new(group.get_column_page_reader(leaf)?, nullable)), descriptor));
        }
        Ok(RunColumn::Typed(Box::new(Chunk::new(group, leaf)?)))
    }

    /// Puts the run codes of the next `rows` rows in `w.run_codes`; the count actually read.
    fn read(&mut self, rows: usize, unsigned: bool, runs: &RunIndex, w: &mut Window) -> Result<usize, String> {
        let damaged = |e: parquet::errors::ParquetError| format!("cannot be read as Parquet: {e}");
        w.run_codes.clear();
        let mut codes = std::mem::take(&mut w.run_codes);
        let mut got = 0;
        if let RunColumn::Dictionary(ids, descriptor) = self {
            match ids.read(rows, &mut codes, &mut Lookup { window: w, runs }).map_err(damaged)? {
                run_ids::Read::Codes(n) => got = n,
                run_ids::Read::Fallback(pages) => {
                    got = codes.len();
                    let max_level = descriptor.max_def_level();
                    let reader = parquet::column::reader::ColumnReaderImpl::<ByteArrayType>::new(std::sync::Arc::clone(descriptor), pages);
                    *self = RunColumn::Typed(Box::new(Chunk { values: Values::Bytes(reader, Vec::new()), levels: Vec::new(), max_level }));
                }
            }
        }
        if let RunColumn::Typed(chunk) = self {
            let want = rows - got;
            if want > 0 {
                let read = chunk.read(want).map_err(damaged)?;
                typed_codes(chunk, read, unsigned, runs, w, &mut codes)?;
                got += read;
            }
        }
        w.run_codes = codes;
        Ok(got)
    }
}

/// The run codes of `rows` rows a typed reader decoded, appended to `codes`.
fn typed_codes(chunk: &Chunk, rows: usize, unsigned: bool, runs: &RunIndex, w: &mut Window, codes: &mut Vec<u32>) -> Result<(), String> {
    let present: Vec<Option<usize>> = chunk.positions(rows).unwrap_or_else(|| (0..rows).map(Some).collect());
    for at in present {
        let code = match (at, &chunk.values) {
            (None, _) => NULL_RUN,
            (Some(k), Values::Bytes(_, v)) => w.run_code(v[k].data(), runs),
            (Some(k), Values::I32(_, v)) => w.run_code(integer_text(i64::from(v[k]), unsigned, 32).as_bytes(), runs),
            (Some(k), Values::I64(_, v)) => w.run_code(integer_text(v[k], unsigned, 64).as_bytes(), runs),
            _ => return Err("cannot be read as Parquet: column `run_id` changed type".to_string()),
        };
        codes.push(code);
    }
    Ok(())
}

/// Where a row group is and whose rows it holds.
pub struct Group<'a> {
    pub index: usize,
    pub block: u32,
    /// The group's first row in its file, 1-based: problems are placed on rows from it.
    pub first_row: u64,
    /// The file as messages name it.
    pub file: &'a str,
    /// The run its `run_id=` folder names (a run code of `runs`), if one does: every row is that
    /// run, and a `run_id` column must agree with it.
    pub folder_run: Option<(u32, &'a str)>,
}

/// Reads row group `at.index` of `opened` into `sink`.
pub fn read_group<S: RequestSink>(
    opened: &Opened,
    at: &Group,
    runs: &RunIndex,
    window: &mut Window,
    sink: &mut S,
    problems: &mut Problems,
) -> Result<(), String> {
    let (block, first_row, file) = (at.block, at.first_row, at.file);
    let damaged = |e: parquet::errors::ParquetError| format!("cannot be read as Parquet: {e}");
    let reader = opened.reader.get_row_group(at.index).map_err(damaged)?;
    let rows = reader.metadata().num_rows().max(0) as usize;
    let mut run_column = match opened.layout.leaves[Column::RunId.index()] {
        Some(leaf) => Some(RunColumn::new(reader.as_ref(), leaf).map_err(damaged)?),
        None => None,
    };
    let run_unsigned = opened.layout.unsigned[Column::RunId.index()];
    // Unknown ids are numbered per row group (the dictionary's codes live as long as it does).
    window.unknown.clear();
    window.last_id.clear();
    let mut chunks: Vec<(Column, Chunk)> = Vec::with_capacity(6);
    for column in Column::ALL.into_iter().filter(|&c| c != Column::RunId) {
        if let Some(leaf) = opened.layout.leaves[column.index()] {
            chunks.push((column, Chunk::new(reader.as_ref(), leaf).map_err(damaged)?));
        }
    }
    let mut done = 0usize;
    while done < rows {
        let want = WINDOW.min(rows - done);
        match (&mut run_column, at.folder_run) {
            (Some(run_column), _) => {
                let got = run_column.read(want, run_unsigned, runs, window)?;
                if got != want {
                    return Err(format!(
                        "cannot be read as Parquet: column `run_id` ends {} rows into a row group of {rows} rows",
                        done + got
                    ));
                }
            }
            (None, Some((run, _))) => {
                window.run_codes.clear();
                window.run_codes.resize(want, run);
            }
            (None, None) => return Err("has no column `run_id` and no run_id= folder above it names the run".to_string()),
        }
        for (column, chunk) in &mut chunks {
            let got = chunk.read(want).map_err(damaged)?;
            if got != want {
                return Err(format!(
                    "cannot be read as Parquet: column `{}` ends {} rows into a row group of {rows} rows",
                    column.name(),
                    done + got
                ));
            }
        }
        fill_window(&mut chunks, &opened.layout, want, window)?;
        if let (Some(_), Some((run, folder))) = (&run_column, at.folder_run) {
            check_folder_run(window, want, run, folder, runs);
        }
        if let Some(&run) = window.run_codes.first() {
            if run < UNKNOWN && run != RunIndex::IGNORED && window.run_codes[..want].iter().all(|&code| code == run) {
                sink.expect_run_rows(run, rows - done);
            }
        }
        let start = RowPlace { block, within: done as u64 + 1 };
        check_window(window, want, start, first_row + done as u64, file, sink, problems);
        done += want;
    }
    Ok(())
}

/// Marks the rows whose `run_id` is not the run their folder names (`run`, `run_id=folder`).
fn check_folder_run(w: &mut Window, rows: usize, run: u32, folder: &str, runs: &RunIndex) {
    let before = w.bad.len();
    for (i, &code) in w.run_codes[..rows].iter().enumerate() {
        if code == run {
            continue;
        }
        let id = match code {
            NULL_RUN => "null".to_string(),
            code if is_unknown(code) => w.unknown.get((code - UNKNOWN) as usize).map_or_else(|| "another run".to_string(), |id| shown(id)),
            code => runs.id(code).map_or_else(|| "another run".to_string(), shown),
        };
        let message = format!("is {id}, but the file is in the folder run_id={}: a row's run and its folder must agree", shown(folder));
        w.bad.push(BadCell { row: i, column: Column::RunId, message });
    }
    if w.bad.len() > before {
        w.bad.sort_by_key(|b| (b.row, b.column));
    }
}

/// Turns the decoded columns into the window's rows.
fn fill_window(chunks: &mut [(Column, Chunk)], layout: &Layout, rows: usize, w: &mut Window) -> Result<(), String> {
    w.bad.clear();
    for numbers in [&mut w.seq, &mut w.status, &mut w.body_bytes] {
        numbers.clear(rows);
    }
    for numbers in [&mut w.scheduled_ms, &mut w.sent_ms, &mut w.latency_ms] {
        numbers.clear(rows);
    }
    for (column, chunk) in chunks {
        // The column's usual type: values straight into the window, nulls spread by the levels.
        let levels = (chunk.max_level > 0).then_some((&chunk.levels[..], chunk.max_level));
        let unsigned = layout.unsigned[column.index()];
        let copied = match (*column, &mut chunk.values) {
            (Column::ScheduledMs | Column::SentMs | Column::LatencyMs, Values::F64(_, v)) => {
                let target = match column {
                    Column::ScheduledMs => &mut w.scheduled_ms,
                    Column::SentMs => &mut w.sent_ms,
                    _ => &mut w.latency_ms,
                };
                take(v, levels, rows, target)
            }
            (Column::Seq | Column::Status | Column::BodyBytes, Values::I64(_, v)) if !unsigned => {
                let target = match column {
                    Column::Seq => &mut w.seq,
                    Column::Status => &mut w.status,
                    _ => &mut w.body_bytes,
                };
                take(v, levels, rows, target)
            }
            (Column::Seq | Column::Status | Column::BodyBytes, Values::I32(_, v)) if !unsigned => {
                let target = match column {
                    Column::Seq => &mut w.seq,
                    Column::Status => &mut w.status,
                    _ => &mut w.body_bytes,
                };
                spread(v, levels, rows, target, i64::from)
            }
            _ => false,
        };
        if copied {
            continue;
        }
        let positions = chunk.positions(rows);
        let present: Vec<Option<usize>> = positions.unwrap_or_else(|| (0..rows).map(Some).collect());
        match column {
            Column::RunId => return Err("cannot be read as Parquet: column `run_id` read twice".to_string()),
            Column::Seq | Column::Status | Column::BodyBytes => {
                let target = match column {
                    Column::Seq => &mut w.seq,
                    Column::Status => &mut w.status,
                    _ => &mut w.body_bytes,
                };
                for (i, at) in present.iter().enumerate() {
                    let Some(k) = *at else { continue };
                    let value = match &chunk.values {
                        Values::I32(_, v) => Ok(if unsigned { i64::from(v[k] as u32) } else { i64::from(v[k]) }),
                        Values::I64(_, v) if unsigned => i64::try_from(v[k] as u64).map_err(|_| format!("{} is too large", v[k] as u64)),
                        Values::I64(_, v) => Ok(v[k]),
                        Values::F32(_, v) => whole(f64::from(v[k])),
                        Values::F64(_, v) => whole(v[k]),
                        Values::Bytes(_, v) => parse_i64(v[k].data())
                            .ok_or_else(|| format!("{:?} is not a whole number", String::from_utf8_lossy(v[k].data()))),
                    };
                    match value {
                        Ok(value) => {
                            target.values[i] = value;
                            target.valid[i] = true;
                        }
                        Err(message) => w.bad.push(BadCell { row: i, column: *column, message }),
                    }
                }
            }
            Column::ScheduledMs | Column::SentMs | Column::LatencyMs => {
                let target = match column {
                    Column::ScheduledMs => &mut w.scheduled_ms,
                    Column::SentMs => &mut w.sent_ms,
                    _ => &mut w.latency_ms,
                };
                for (i, at) in present.iter().enumerate() {
                    let Some(k) = *at else { continue };
                    let value = match &chunk.values {
                        Values::F64(_, v) => Some(v[k]),
                        Values::F32(_, v) => Some(f64::from(v[k])),
                        Values::I32(_, v) => Some(if unsigned { f64::from(v[k] as u32) } else { f64::from(v[k]) }),
                        Values::I64(_, v) => Some(if unsigned { v[k] as u64 as f64 } else { v[k] as f64 }),
                        Values::Bytes(_, v) => {
                            let text = v[k].data();
                            match parse_f64(text) {
                                Some(value) => Some(value),
                                None if crate::dataset::number::is_blank(text) => None,
                                None => {
                                    let message = format!("{:?} is not a number", String::from_utf8_lossy(text));
                                    w.bad.push(BadCell { row: i, column: *column, message });
                                    None
                                }
                            }
                        }
                    };
                    if let Some(value) = value {
                        target.values[i] = value;
                        target.valid[i] = true;
                    }
                }
            }
        }
    }
    w.bad.sort_by_key(|b| (b.row, b.column));
    mark_clean(w, rows);
    Ok(())
}

/// Fills `w.clean`: one pass over the window's columns side by side, so the row checks run as a
/// loop of comparisons without branches, not once per row behind the batch logic.
fn mark_clean(w: &mut Window, rows: usize) {
    let mut clean = std::mem::take(&mut w.clean);
    clean.clear();
    clean.resize(rows, false);
    let (latency, status, scheduled, sent, body) = (
        &w.latency_ms.values[..rows],
        &w.status.values[..rows],
        &w.scheduled_ms.values[..rows],
        &w.sent_ms.values[..rows],
        &w.body_bytes.values[..rows],
    );
    let (seq_valid, scheduled_valid, sent_valid, latency_valid, status_valid, body_valid) = (
        &w.seq.valid[..rows],
        &w.scheduled_ms.valid[..rows],
        &w.sent_ms.valid[..rows],
        &w.latency_ms.valid[..rows],
        &w.status.valid[..rows],
        &w.body_bytes.valid[..rows],
    );
    for (j, ok) in clean.iter_mut().enumerate() {
        let present = seq_valid[j] & scheduled_valid[j] & sent_valid[j] & latency_valid[j] & status_valid[j];
        *ok = present & plausible(Some(latency[j]), status[j], scheduled[j], sent[j], body_valid[j].then_some(body[j]));
    }
    w.clean = clean;
}

/// Puts `rows` rows of a column into `target`: `values` are the non-null values in order,
/// `levels` (with the level of a present value) say which rows have one. False, leaving the
/// row-by-row path to say what is wrong, when the levels and values disagree.
#[inline]
fn spread<T: Copy, U: Copy + Default>(
    values: &[T],
    levels: Option<(&[i16], i16)>,
    rows: usize,
    target: &mut Numbers<U>,
    convert: impl Fn(T) -> U,
) -> bool {
    match levels {
        Some((levels, present)) if levels.len() == rows && values.len() < rows => {
            let mut next = values.iter();
            for (i, &level) in levels.iter().enumerate() {
                if level == present {
                    let Some(&value) = next.next() else { return false };
                    target.values[i] = convert(value);
                    target.valid[i] = true;
                }
            }
            true
        }
        _ if values.len() == rows => {
            for (out, &value) in target.values.iter_mut().zip(values) {
                *out = convert(value);
            }
            target.valid.fill(true);
            true
        }
        _ => false,
    }
}

/// [`spread`] for values already of the window's type: the decoded buffer becomes the window's
/// (the window's old buffer goes back to the reader to fill next), and nulls are spread in place
/// from the end, so no value is copied twice.
fn take<T: Copy + Default>(values: &mut Vec<T>, levels: Option<(&[i16], i16)>, rows: usize, target: &mut Numbers<T>) -> bool {
    match levels {
        Some((levels, present)) if levels.len() == rows && values.len() < rows => {
            let count = values.len();
            if levels.iter().filter(|&&l| l == present).count() != count {
                return false;
            }
            std::mem::swap(values, &mut target.values);
            target.values.resize(rows, T::default());
            let mut next = count;
            for i in (0..rows).rev() {
                if levels[i] == present {
                    next -= 1;
                    target.values[i] = target.values[next];
                    target.valid[i] = true;
                }
            }
            true
        }
        _ if values.len() == rows => {
            std::mem::swap(values, &mut target.values);
            target.valid.fill(true);
            true
        }
        _ => false,
    }
}

/// A float that holds a whole number, as an integer.
fn whole(value: f64) -> Result<i64, String> {
    if value.fract() == 0.0 && value.abs() < 9.2e18 {
        Ok(value as i64)
    } else {
        Err(format!("{value} is not a whole number"))
    }
}

/// An integer run id as text, as a CSV file would hold it.
fn integer_text(value: i64, unsigned: bool, bits: u32) -> String {
    match (unsigned, bits) {
        (true, 32) => (value as u32).to_string(),
        (true, _) => (value as u64).to_string(),
        _ => value.to_string(),
    }
}

/// Checks the window's rows and hands the good ones to the sink.
fn check_window<S: RequestSink>(
    w: &Window,
    rows: usize,
    start: RowPlace,
    first_row: u64,
    file: &str,
    sink: &mut S,
    problems: &mut Problems,
) {
    let mut bad = w.bad.iter().peekable();
    let mut i = 0;
    while i < rows {
        let place = RowPlace { block: start.block, within: start.within + i as u64 };
        let row_number = first_row + i as u64;
        if bad.peek().is_some_and(|b| b.row == i) {
            let cell = bad.next().expect("peeked");
            while bad.peek().is_some_and(|b| b.row == i) {
                bad.next();
            }
            problems.push(DataError {
                file: file.to_string(),
                place: Place::Row { row: row_number, column: Some(cell.column.name().to_string()) },
                message: cell.message.clone(),
            });
            i += 1;
            continue;
        }
        let run = w.run_codes[i];
        let next_bad = bad.peek().map_or(rows, |b| b.row);
        if run < UNKNOWN && run != RunIndex::IGNORED && w.clean[i] {
            let status = w.status.values[i];
            let mut end = i + 1;
            while end < next_bad && w.run_codes[end] == run && w.status.values[end] == status && w.clean[end] {
                end += 1;
            }
            let batch = RowBatch {
                run,
                seq: &w.seq.values[i..end],
                scheduled_ms: &w.scheduled_ms.values[i..end],
                sent_ms: &w.sent_ms.values[i..end],
                latency_ms: &w.latency_ms.values[i..end],
                status: &w.status.values[i..end],
            };
            sink.rows(&batch, place);
            i = end;
            continue;
        }
        let value = |n: &Numbers<f64>| n.valid[i].then_some(n.values[i]);
        let int = |n: &Numbers<i64>| n.valid[i].then_some(n.values[i]);
        let run = match run {
            NULL_RUN => Err(Some("")),
            code if is_unknown(code) => Err(w.unknown.get((code - UNKNOWN) as usize).map(String::as_str)),
            run => Ok(run),
        };
        let values = RowValues {
            run,
            seq: int(&w.seq),
            scheduled_ms: value(&w.scheduled_ms),
            sent_ms: value(&w.sent_ms),
            latency_ms: value(&w.latency_ms),
            status: int(&w.status),
            body_bytes: int(&w.body_bytes),
        };
        accept_row(values, row_number, place, file, sink, problems);
        i += 1;
    }
}
