//! The run's request rows as requests.csv holds them: each checked against the request-row
//! contract every reader applies, numbered in the run's order with send times from its first send,
//! and staged as the dataset's next requests.csv (the current rows, then these).

use super::decimal;
use super::error::ImportError;
use super::tables::stream_without_run;
use super::{Labels, Row};
use crate::dataset::csv::field as csv_field;
use crate::dataset::requests::{RawRequest, COLUMNS as REQUEST_COLUMNS};
use std::io::{BufWriter, Write as _};
use std::path::Path;

/// The request rows of one run, every one checked against the request-row contract.
pub struct Requests<'a> {
    rows: &'a [Row],
    /// The request names the rows index; empty when they carry none.
    labels: &'a Labels,
    /// The earliest send (ns), which becomes 0.
    origin: i64,
}

impl<'a> Requests<'a> {
    /// Checks every row with `request_row::check`, the rule every reader applies; the error is the
    /// first row that breaks it, with its seq.
    pub fn check(rows: &'a [Row], labels: &'a Labels) -> Result<Self, (usize, request_row::Violation)> {
        let origin = rows.iter().filter_map(|r| r.sent_ns()).min().unwrap_or(0);
        let requests = Requests { rows, labels, origin };
        for seq in 0..rows.len() {
            let raw = requests.raw(seq);
            // `plausible` is `check` in a few comparisons (property-tested in request-row).
            if !request_row::plausible(raw.latency_ms, raw.status, raw.scheduled_ms, raw.sent_ms, raw.body_bytes) {
                request_row::check(&raw).map_err(|v| (seq, v))?;
            }
        }
        Ok(requests)
    }

    /// Row `seq` as the contract's values: seq in the run's order, send times from the first
    /// send, scheduled = sent (these tools do not schedule), no latency without a response.
    fn raw(&self, seq: usize) -> RawRequest {
        let row = &self.rows[seq];
        // Whole nanoseconds from the first send, subtracted exactly, so a send the file gives as
        // 0.6 ms after the first is written 0.6. Below 2^53 ns (104 days) the division is the
        // double nearest the decimal, which `Display` writes as that decimal. Rows without a send
        // time (siege -v) are at 0: the run's note says so.
        let sent = row.sent_ns().map_or(0.0, |s| (s - self.origin) as f64 / 1e6);
        RawRequest {
            seq: seq as i64,
            scheduled_ms: sent,
            sent_ms: sent,
            latency_ms: row.latency_ms(),
            status: i64::from(row.status),
            body_bytes: row.body_bytes().map(|b| b as i64),
        }
    }

    /// Every row as the contract's values, in seq order.
    pub fn raw_requests(&self) -> impl Iterator<Item = RawRequest> + '_ {
        (0..self.rows.len()).map(|seq| self.raw(seq))
    }

    /// Whether the rows carry more than one request name (then requests.csv gets its `label`
    /// column): a run of one name is the unnamed endpoint, so a one-label import changes no
    /// table's columns. Into a requests.csv that has the column, every run's names are written.
    pub fn labelled(&self) -> bool {
        self.labels.names().len() > 1
    }

    /// Each row's request name, in seq order ("" for a row without one).
    pub fn labels(&self) -> impl Iterator<Item = &str> + '_ {
        self.rows.iter().map(|row| row.label().and_then(|i| self.labels.name(i)).unwrap_or(""))
    }

    /// The first request name that breaks the label rule (`request_row::check_label`), and why.
    pub fn bad_label(&self) -> Option<(&str, String)> {
        self.labels.names().iter().find_map(|name| request_row::check_label(name).err().map(|why| (name.as_str(), why)))
    }
}

/// requests.csv lines of checked rows, in [`REQUEST_COLUMNS`] order; numbers as `Display`
/// writes them ([`decimal`]).
/// With `labels`, each line ends with its row's request name (the `label` column).
pub fn request_lines<'l>(
    run_id: &str,
    rows: impl Iterator<Item = RawRequest>,
    mut labels: Option<impl Iterator<Item = &'l str>>,
    out: &mut impl std::io::Write,
) -> std::io::Result<()> {
    let id = csv_field(run_id);
    let mut block = Vec::with_capacity(1 << 16);
    for raw in rows {
        block.extend_from_slice(id.as_bytes());
        block.push(b',');
        decimal::push_int(&mut block, raw.seq);
        block.push(b',');
        let scheduled = block.len();
        decimal::push(&mut block, raw.scheduled_ms);
        block.push(b',');
        if raw.sent_ms.to_bits() == raw.scheduled_ms.to_bits() {
            // The same number (these tools do not schedule): its text once more.
            block.extend_from_within(scheduled..);
        } else {
            decimal::push(&mut block, raw.sent_ms);
            block.push(b',');
        }
        if let Some(latency) = raw.latency_ms {
            decimal::push(&mut block, latency);
        }
        block.push(b',');
        decimal::push_int(&mut block, raw.status);
        block.push(b',');
        if let Some(bytes) = raw.body_bytes {
            decimal::push_int(&mut block, bytes);
        }
        if let Some(labels) = labels.as_mut() {
            block.push(b',');
            block.extend_from_slice(csv_field(labels.next().unwrap_or("")).as_bytes());
        }
        block.push(b'\n');
        if block.len() >= (1 << 16) - 256 {
            out.write_all(&block)?;
            block.clear();
        }
    }
    out.write_all(&block)
}

/// requests.csv of the next version: the current one without the replaced run's rows (streamed;
/// copied whole, which a file system may do by reference, when no run is replaced), then this
/// run's rows. The file has a `label` column when the current one has or this run's rows carry
/// request names; a current file without one is then rewritten with an empty label per row (the
/// unnamed endpoint), so every row has the same columns.
pub fn stage_requests(
    staged: &Path,
    old: Option<&Path>,
    run_id: &str,
    replacing: bool,
    rows: Option<&Requests>,
) -> Result<(), ImportError> {
    let file = "requests.csv";
    let io = |e: std::io::Error| ImportError::file(file, format!("cannot be staged: {e}"));
    let path = staged.join(file);
    let existing = old.map(|dir| dir.join(file)).filter(|p| p.is_file());
    let current_labelled = match &existing {
        Some(current) => check_requests_header(current)?,
        None => false,
    };
    let labelled = current_labelled || rows.is_some_and(Requests::labelled);
    let columns = header(labelled);
    let widen = existing.is_some() && labelled && !current_labelled;
    let out = match &existing {
        Some(current) if !replacing && !widen => {
            std::fs::copy(current, &path).map_err(io)?;
            let mut out = std::fs::OpenOptions::new().append(true).open(&path).map_err(io)?;
            if !ends_with_newline(&path).map_err(io)? {
                out.write_all(b"\n").map_err(io)?;
            }
            out
        }
        _ => {
            use std::os::unix::fs::OpenOptionsExt as _;
            std::fs::OpenOptions::new().write(true).create_new(true).mode(0o644).open(&path).map_err(io)?
        }
    };
    let mut out = BufWriter::with_capacity(1 << 20, out);
    match &existing {
        Some(current) if widen => {
            with_empty_labels(current, file, replacing.then_some(run_id), &mut out)?;
        }
        Some(current) if replacing => {
            stream_without_run(current, file, &columns, run_id, &mut out)?;
        }
        Some(_) => {}
        None => out.write_all(format!("{}\n", columns.join(",")).as_bytes()).map_err(io)?,
    }
    if let Some(rows) = rows {
        let labels = labelled.then(|| rows.labels());
        request_lines(run_id, rows.raw_requests(), labels, &mut out).map_err(io)?;
    }
    out.into_inner().map_err(|e| io(e.into_error()))?.sync_all().map_err(io)
}

/// requests.csv's header: the contract's columns, then `label` when the rows carry names.
fn header(labelled: bool) -> Vec<&'static str> {
    let mut columns = REQUEST_COLUMNS.to_vec();
    if labelled {
        columns.push(request_row::LABEL);
    }
    columns
}

/// The current requests.csv with a `label` column added, every row's empty, without the rows of
/// `leave_out` (the run being replaced).
fn with_empty_labels(current: &Path, file: &str, leave_out: Option<&str>, out: &mut impl std::io::Write) -> Result<(), ImportError> {
    let read = |e: &dyn std::fmt::Display| ImportError::file(file, format!("cannot be read: {e}"));
    let handle = std::fs::File::open(current).map_err(|e| read(&e))?;
    let mut reader = csv::ReaderBuilder::new().has_headers(true).from_reader(std::io::BufReader::with_capacity(1 << 20, handle));
    let mut writer = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(out);
    let staged = |e: csv::Error| ImportError::file(file, format!("cannot be staged: {e}"));
    writer.write_record(header(true)).map_err(staged)?;
    let id = REQUEST_COLUMNS.iter().position(|c| *c == "run_id").expect("the contract has run_id");
    let mut record = csv::ByteRecord::new();
    while reader.read_byte_record(&mut record).map_err(|e| read(&e))? {
        if leave_out.is_some_and(|run| record.get(id).is_some_and(|f| String::from_utf8_lossy(f).trim() == run)) {
            continue;
        }
        record.push_field(b"");
        writer.write_byte_record(&record).map_err(staged)?;
    }
    writer.flush().map_err(|e| ImportError::file(file, format!("cannot be staged: {e}")))
}

/// Refuses a requests.csv whose header is not exactly the one import writes rows for (the
/// contract's columns, with or without `label` after them); `true` when it has `label`.
fn check_requests_header(path: &Path) -> Result<bool, ImportError> {
    use std::io::BufRead as _;
    let mut header_line = Vec::new();
    std::fs::File::open(path)
        .map(std::io::BufReader::new)
        .and_then(|mut r| r.read_until(b'\n', &mut header_line))
        .map_err(|e| ImportError::file("requests.csv", format!("cannot be read: {e}")))?;
    let text = String::from_utf8_lossy(&header_line);
    let columns: Vec<&str> = text.trim_start_matches('\u{feff}').trim_end_matches(['\r', '\n']).split(',').collect();
    if columns == header(true) {
        return Ok(true);
    }
    if columns != REQUEST_COLUMNS {
        return Err(ImportError::at(
            "requests.csv",
            1,
            1,
            format!(
                "import appends to a requests.csv whose header is exactly {} (or that with ,{} after it)",
                REQUEST_COLUMNS.join(","),
                request_row::LABEL
            ),
        ));
    }
    Ok(false)
}

/// Whether a file is empty or ends with a newline.
fn ends_with_newline(path: &Path) -> std::io::Result<bool> {
    use std::io::{Read as _, Seek as _};
    let mut file = std::fs::File::open(path)?;
    let len = file.metadata()?.len();
    if len == 0 {
        return Ok(true);
    }
    file.seek(std::io::SeekFrom::Start(len - 1))?;
    let mut last = [0u8; 1];
    file.read_exact(&mut last)?;
    Ok(last[0] == b'\n')
}
