//! The request-row contract as analyze's readers use it: the row, the run index, the column list
//! and the one validation (all from the `request-row` crate, which measure's writer shares), plus
//! the sink every reader hands good rows to and the scan result.
//!
//! Every reader (`csv::requests` with its fast path `csv::fast_row`, and `parquet`, for one file or a
//! folder of them) decodes a row into a
//! [`RawRequest`] and passes it through [`validate`] (or proves it with [`plausible`]), so a value
//! is accepted or refused by one rule whatever the format. This module reads nothing itself:
//! [`scan`] only picks the reader for a source.

pub use request_row::{check, plausible, validate, Column, RawRequest, RequestRow, RunIndex, Violation, COLUMNS};

use super::error::{DataError, Problems};
use super::table::TableSource;

/// Where a row was found before absolute line numbers are known.
#[derive(Debug, Clone, Copy)]
pub struct RowPlace {
    pub block: u32,
    /// 1-based line (CSV) or row (Parquet) within the block.
    pub within: u64,
}

/// Receives every good row of one worker.
pub trait RequestSink: Send {
    fn row(&mut self, row: &RequestRow, place: RowPlace);

    /// Consecutive rows of one block and one run, every value present (a response with a
    /// latency) and past the row checks; the first is at `first`. A sink may take them column by
    /// column; by default each is a [`RequestSink::row`].
    fn rows(&mut self, batch: &RowBatch, first: RowPlace) {
        for i in 0..batch.len() {
            self.row(&batch.row(i), RowPlace { block: first.block, within: first.within + i as u64 });
        }
    }

    /// The next rows are all of `run`, and at most `rows` rows of the current block follow: a
    /// reader that knows its block's rows says so, and a sink may size that run's buffers once
    /// instead of growing them.
    fn expect_run_rows(&mut self, _run: u32, _rows: usize) {}
}

/// Rows as columns of equal length, for [`RequestSink::rows`].
pub struct RowBatch<'a> {
    pub run: u32,
    pub seq: &'a [i64],
    pub scheduled_ms: &'a [f64],
    pub sent_ms: &'a [f64],
    pub latency_ms: &'a [f64],
    /// HTTP statuses, already checked by [`plausible`].
    pub status: &'a [i64],
}

impl RowBatch<'_> {
    pub fn len(&self) -> usize {
        self.seq.len()
    }

    pub fn is_empty(&self) -> bool {
        self.seq.is_empty()
    }

    pub fn row(&self, i: usize) -> RequestRow {
        RequestRow {
            run: self.run,
            seq: self.seq[i],
            scheduled_ms: self.scheduled_ms[i],
            sent_ms: self.sent_ms[i],
            latency_ms: Some(self.latency_ms[i]),
            status: self.status[i] as u16,
        }
    }
}

/// What a scan produced: one sink per worker, and every problem placed.
pub struct Scan<S> {
    pub sinks: Vec<S>,
    pub problems: Problems,
    /// Absolute 1-based line (or row) of each block's first line in its file, to place rows
    /// reported later.
    pub block_starts: Vec<u64>,
    /// The files read, as messages name them (one, except for a folder of Parquet files), and
    /// the index into `files` of each block's file.
    pub files: Vec<String>,
    pub block_files: Vec<u32>,
    /// CSV: the 1-based field of `seq` in the file, so a later problem with a seq (a duplicate)
    /// names line and column. `None` for Parquet, whose places are rows.
    pub seq_field: Option<usize>,
}

impl<S> Scan<S> {
    /// Converts a block-relative place to an absolute line (CSV) or row (Parquet).
    pub fn absolute(&self, place: RowPlace) -> u64 {
        self.block_starts[place.block as usize] + place.within - 1
    }

    /// The name of the file a block was read from.
    pub fn file_of(&self, place: RowPlace) -> &str {
        &self.files[self.block_files[place.block as usize] as usize]
    }
}

/// Reads the requests table, whatever its format, through `make()` sinks (one per worker).
pub fn scan<S: RequestSink>(source: &TableSource, index: &RunIndex, make: impl Fn() -> S + Sync) -> Result<Scan<S>, DataError> {
    match source {
        TableSource::Csv(path) => super::csv::requests::scan_csv(path, index, make),
        TableSource::Parquet(path) => super::parquet::scan_requests(path, index, make),
        TableSource::ParquetFolder(path) => super::parquet::scan_folder(path, &source.file_name(), index, make),
    }
}
