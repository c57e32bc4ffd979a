//! requests.csv, read in parallel blocks with bounded memory.
//!
//! requests.csv can hold 10^8 rows (4 GB). One thread reads the file in blocks that end at a
//! record boundary; worker threads tokenize and validate blocks and hand each good row to a
//! [`RequestSink`] of their own; sinks are merged at the end. Only what a statistic needs is kept
//! (the 2xx latencies of each run as `f64`, counters), never the file or its other columns.
//! Problems are recorded against (block, line within block) and placed on absolute lines once
//! every block's line count is known. Cells are decoded here; the rules are the contract's
//! ([`validate`]), shared with Parquet and measure's writer.

use super::fast_row::FastLayout;
use super::{first_invalid_utf8, overlong_record, split_header, Record, Records, TokenError, MAX_RECORD_BYTES};
use crate::dataset::error::{DataError, Place, Problems};
use crate::dataset::number::{is_blank, parse_f64, parse_i64};
use crate::dataset::progress::progress_bar_bytes;
use crate::dataset::requests::{validate, Column, RawRequest, RequestRow, RequestSink, RowPlace, RunIndex, Scan, COLUMNS};
use std::io::Read;
use std::path::Path;
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::{Arc, Mutex};

const BLOCK_BYTES: usize = 8 << 20;
/// Per worker, so the total stays bounded even when every row is bad.
const MAX_PENDING_PER_WORKER: usize = 64;

/// A problem waiting for its absolute line.
#[derive(Debug, Clone)]
struct Pending {
    place: RowPlace,
    field: Option<(usize, String)>,
    message: String,
}

/// Reads requests.csv through `make_sink()` sinks, one per worker thread.
pub fn scan_csv<S: RequestSink>(path: &Path, runs: &RunIndex, make_sink: impl Fn() -> S + Sync) -> Result<Scan<S>, DataError> {
    let file_name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut file = std::fs::File::open(path).map_err(|e| DataError::file(&file_name, format!("cannot be read: {e}")))?;
    let total_bytes = file.metadata().map(|m| m.len()).unwrap_or(0);
    let read_error = |e: std::io::Error| DataError::file(&file_name, format!("cannot be read: {e}"));

    // A small file is one block: read into a buffer of its size, by one worker (a history reads a
    // thousand datasets of a few kB, where two threads and two 8 MiB buffers each cost more than
    // the parse; bench/history.py).
    let block_bytes = (total_bytes as usize).saturating_add(4096).min(BLOCK_BYTES);
    // The header, from the start of the first block.
    let mut first = Vec::with_capacity(block_bytes);
    (&mut file).take(BLOCK_BYTES as u64).read_to_end(&mut first).map_err(read_error)?;
    let (columns, header_len, header_lines) = {
        let parsed = split_header(&file_name, &first)?;
        let header_len = first.len() - parsed.body.len();
        (parsed.columns, header_len, parsed.header_lines)
    };
    let mut slots = [usize::MAX; 7];
    let mut missing = Vec::new();
    for (slot, name) in COLUMNS.iter().enumerate() {
        match columns.iter().position(|c| c == name) {
            Some(index) => slots[slot] = index,
            None => missing.push(*name),
        }
    }
    if !missing.is_empty() {
        return Err(DataError::file(
            &file_name,
            format!(
                "missing column{} `{}` (the header has: {})",
                if missing.len() == 1 { "" } else { "s" },
                missing.join("`, `"),
                columns.join(", ")
            ),
        ));
    }
    let fast = FastLayout::new(&slots, columns.len());
    let layout = Layout { columns, slots, fast };

    let workers =
        if total_bytes as usize <= BLOCK_BYTES { 1 } else { std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 8) };
    let (block_sender, block_receiver) = sync_channel::<Block>(workers * 2);
    let (spare_sender, spare_receiver) = sync_channel::<Vec<u8>>(workers * 3);
    let block_receiver = Arc::new(Mutex::new(block_receiver));
    let progress = progress_bar_bytes(total_bytes);

    // Plain scoped threads, not rayon's pool: this is a pipeline, not a fan-out. The workers
    // block on the channel while this thread reads, and a rayon worker blocked on a channel
    // holds a pool thread the rest of the program may be waiting for.
    let outcome = std::thread::scope(|scope| {
        let mut handles = Vec::with_capacity(workers);
        for _ in 0..workers {
            let receiver = Arc::clone(&block_receiver);
            let spare = spare_sender.clone();
            let layout = &layout;
            let make_sink = &make_sink;
            handles.push(scope.spawn(move || worker(layout, runs, make_sink(), &receiver, &spare)));
        }
        drop(spare_sender);

        // Read blocks that end after a newline outside quotes; carry the rest over.
        let mut carry: Vec<u8> = first[header_len..].to_vec();
        drop(first);
        let mut block_index = 0u32;
        let mut reached_end = false;
        let mut read_failure = None;
        while !reached_end || !carry.is_empty() {
            let mut buffer = spare_receiver.try_recv().unwrap_or_else(|_| Vec::with_capacity(block_bytes + 4096));
            buffer.clear();
            buffer.extend_from_slice(&carry);
            carry.clear();
            if !reached_end {
                let want = BLOCK_BYTES.saturating_sub(buffer.len()).max(4096) as u64;
                match (&mut file).take(want).read_to_end(&mut buffer) {
                    Ok(0) => reached_end = true,
                    Ok(n) => progress.inc(n as u64),
                    Err(error) => {
                        read_failure = Some(read_error(error));
                        break;
                    }
                }
            }
            let split = if reached_end { buffer.len() } else { split_point(&buffer) };
            if split == 0 && !reached_end {
                if buffer.len() <= MAX_RECORD_BYTES {
                    // A record longer than what is left of the block: read on into the same buffer.
                    carry = buffer;
                    continue;
                }
                // A record longer than a record may be starts this block: it is named, then
                // skipped to its end without being kept, so the file is read once and memory
                // stays at a block.
                let skipped = match skip_record(&mut file, buffer, &progress) {
                    Ok(skipped) => skipped,
                    Err(error) => {
                        read_failure = Some(read_error(error));
                        break;
                    }
                };
                reached_end = skipped.reached_end;
                carry = skipped.rest;
                let block = Block::TooLong { index: block_index, error: skipped.error, lines: skipped.lines };
                if block_sender.send(block).is_err() {
                    break;
                }
                block_index += 1;
                continue;
            }
            carry.extend_from_slice(&buffer[split..]);
            buffer.truncate(split);
            if buffer.is_empty() {
                continue;
            }
            if block_sender.send(Block::Rows(block_index, buffer)).is_err() {
                break;
            }
            block_index += 1;
        }
        drop(block_sender);
        let results: Vec<WorkerResult<S>> = handles.into_iter().map(|h| h.join().expect("a request worker panicked")).collect();
        (results, block_index, read_failure)
    });
    progress.finish_and_clear();
    let (results, blocks, read_failure) = outcome;
    if let Some(error) = read_failure {
        return Err(error);
    }

    let mut block_lines = vec![0u64; blocks as usize];
    for result in &results {
        for &(block, lines) in &result.block_lines {
            block_lines[block as usize] = lines;
        }
    }
    let mut block_starts = Vec::with_capacity(block_lines.len().max(1));
    let mut next = header_lines + 1;
    for lines in &block_lines {
        block_starts.push(next);
        next += lines;
    }
    if block_starts.is_empty() {
        block_starts.push(next);
    }
    let mut problems = Problems::default();
    let mut sinks = Vec::with_capacity(results.len());
    let mut pending_total = 0u64;
    let mut all_pending = Vec::new();
    for result in results {
        pending_total += result.dropped;
        all_pending.extend(result.pending);
        sinks.push(result.sink);
    }
    all_pending.sort_by_key(|p| (p.place.block, p.place.within));
    for pending in all_pending {
        let line = block_starts[pending.place.block as usize] + pending.place.within - 1;
        problems.push(DataError { file: file_name.clone(), place: Place::Line { line, field: pending.field }, message: pending.message });
    }
    problems.add_uncounted(pending_total);
    let block_files = vec![0; block_starts.len()];
    Ok(Scan { sinks, problems, block_starts, files: vec![file_name], block_files, seq_field: Some(layout.slots[Column::Seq.index()] + 1) })
}

/// What the reading thread hands a worker.
enum Block {
    /// Whole records, in file order, numbered.
    Rows(u32, Vec<u8>),
    /// One record past [`MAX_RECORD_BYTES`], skipped unread: what is wrong with it and the
    /// physical lines it took.
    TooLong { index: u32, error: TokenError, lines: u64 },
}

/// An over-long record read past: what is wrong with it, its lines, and what follows it.
struct Skipped {
    error: TokenError,
    lines: u64,
    rest: Vec<u8>,
    reached_end: bool,
}

/// Reads on from `start` (the start of a record, with no newline outside quotes in it) to the
/// end of that record, a block at a time, keeping only the bytes after it.
fn skip_record(file: &mut std::fs::File, start: Vec<u8>, progress: &indicatif::ProgressBar) -> std::io::Result<Skipped> {
    let named = overlong_record(&start[..start.len().min(MAX_RECORD_BYTES + 1)], 0);
    let error = |bytes| match named {
        TokenError::RecordTooLong { .. } => TokenError::RecordTooLong { bytes },
        ref field => field.clone(),
    };
    let mut in_quotes = false;
    let mut newlines = 0u64;
    let mut length = 0usize;
    let mut previous = 0u8;
    let mut chunk = start;
    loop {
        for (i, &byte) in chunk.iter().enumerate() {
            match byte {
                b'"' => in_quotes = !in_quotes,
                b'\n' => {
                    newlines += 1;
                    if !in_quotes {
                        // The record's bytes without its line end, as the tokenizer counts them.
                        let bytes = length + i - usize::from(previous == b'\r');
                        let rest = chunk[i + 1..].to_vec();
                        return Ok(Skipped { error: error(bytes), lines: newlines, rest, reached_end: false });
                    }
                }
                _ => {}
            }
            previous = byte;
        }
        length += chunk.len();
        chunk.clear();
        match (&mut *file).take(BLOCK_BYTES as u64).read_to_end(&mut chunk)? {
            0 => return Ok(Skipped { error: error(length), lines: newlines + 1, rest: Vec::new(), reached_end: true }),
            n => progress.inc(n as u64),
        }
    }
}

struct Layout {
    columns: Vec<String>,
    /// Index in the file of each of [`COLUMNS`].
    slots: [usize; 7],
    fast: FastLayout,
}

struct WorkerResult<S> {
    sink: S,
    pending: Vec<Pending>,
    dropped: u64,
    block_lines: Vec<(u32, u64)>,
}

fn worker<S: RequestSink>(
    layout: &Layout,
    runs: &RunIndex,
    mut sink: S,
    receiver: &Mutex<Receiver<Block>>,
    spare: &std::sync::mpsc::SyncSender<Vec<u8>>,
) -> WorkerResult<S> {
    let mut pending = Vec::new();
    let mut dropped = 0u64;
    let mut block_lines = Vec::new();
    let mut record = Record::default();
    let mut last_run: (Vec<u8>, u32) = (Vec::new(), u32::MAX);
    loop {
        let next = receiver.lock().expect("block queue poisoned").recv();
        let Ok(next) = next else { break };
        let mut report = |place: RowPlace, field: Option<usize>, message: String| {
            if pending.len() < MAX_PENDING_PER_WORKER {
                // A field beyond the header has no column to name: the line alone is the place.
                let field = field.and_then(|i| Some((i + 1, layout.columns.get(i)?.clone())));
                pending.push(Pending { place, field, message });
            } else {
                dropped += 1;
            }
        };
        let (block, bytes) = match next {
            Block::Rows(block, bytes) => (block, bytes),
            Block::TooLong { index, error, lines } => {
                report(RowPlace { block: index, within: 1 }, error.field(), error.to_string());
                block_lines.push((index, lines));
                continue;
            }
        };
        // Lines the fast path accepts are proven UTF-8 (when it reads every column); the block is
        // checked whole only when some line was not, or a column was skipped unread.
        let mut general_path_used = !layout.fast.proves_utf8();
        let mut records = Records::new(&bytes);
        loop {
            if let Some((row, used)) = layout.fast.parse_line(records.remaining(), runs, &mut last_run) {
                let place = RowPlace { block, within: records.lines() + 1 };
                records.consume_line(used);
                if row.run != RunIndex::IGNORED {
                    sink.row(&row, place);
                }
                continue;
            }
            match records.next_into(&mut record) {
                Ok(true) => general_path_used = true,
                Ok(false) => break,
                Err(error) => {
                    general_path_used = true;
                    report(RowPlace { block, within: record.line }, error.field(), error.to_string());
                    if error.is_final() {
                        break;
                    }
                    continue;
                }
            }
            let place = RowPlace { block, within: record.line };
            if record.len() != layout.columns.len() {
                report(place, None, format!("has {} fields, the header has {}", record.len(), layout.columns.len()));
                continue;
            }
            match parse_row(layout, runs, &record, &bytes, &mut last_run) {
                Ok(row) if row.run == RunIndex::IGNORED => {}
                Ok(row) => sink.row(&row, place),
                Err((field, message)) => report(place, Some(field), message),
            }
        }
        if general_path_used {
            if let Some((line, column, _)) = first_invalid_utf8(&bytes) {
                report(
                    RowPlace { block, within: line },
                    None,
                    format!("column {column}: a byte that is not UTF-8 (save the file as UTF-8)"),
                );
            }
        }
        block_lines.push((block, records.lines()));
        let _ = spare.try_send(bytes);
    }
    WorkerResult { sink, pending, dropped, block_lines }
}

/// Decodes one record and validates it; the error names the field (index in the file) and what
/// is wrong.
#[inline]
fn parse_row(
    layout: &Layout,
    runs: &RunIndex,
    record: &Record,
    source: &[u8],
    last_run: &mut (Vec<u8>, u32),
) -> Result<RequestRow, (usize, String)> {
    let [run_col, seq_col, scheduled_col, sent_col, latency_col, status_col, body_col] = layout.slots;
    let run_id = record.get(source, run_col);
    let run = if run_id == last_run.0.as_slice() {
        last_run.1
    } else {
        let Some(run) = runs.get(run_id) else {
            return Err((run_col, format!("run_id {:?} is not in runs.csv", String::from_utf8_lossy(run_id))));
        };
        last_run.0.clear();
        last_run.0.extend_from_slice(run_id);
        last_run.1 = run;
        run
    };
    let seq_text = record.get(source, seq_col);
    let Some(seq) = parse_i64(seq_text) else {
        return Err((seq_col, not_a("whole number", seq_text)));
    };
    let scheduled_ms = number(record.get(source, scheduled_col)).map_err(|m| (scheduled_col, m))?;
    let sent_ms = number(record.get(source, sent_col)).map_err(|m| (sent_col, m))?;
    let status_text = record.get(source, status_col);
    let Some(status) = parse_i64(status_text) else {
        return Err((
            status_col,
            format!("{:?} is not an HTTP status (0 for no response, else 100-999)", String::from_utf8_lossy(status_text)),
        ));
    };
    let latency_text = record.get(source, latency_col);
    let latency_ms = if is_blank(latency_text) { None } else { Some(number(latency_text).map_err(|m| (latency_col, m))?) };
    let body_text = record.get(source, body_col);
    let body_bytes =
        if is_blank(body_text) { None } else { Some(parse_i64(body_text).ok_or_else(|| (body_col, not_a("byte count", body_text)))?) };
    let raw = RawRequest { seq, scheduled_ms, sent_ms, latency_ms, status, body_bytes };
    validate(run, &raw).map_err(|violation| (layout.slots[violation.column.index()], violation.message))
}

/// A cell as a number (maybe NaN or infinite: the contract names those), or what it is instead.
#[inline]
fn number(text: &[u8]) -> Result<f64, String> {
    match parse_f64(text) {
        Some(value) => Ok(value),
        None if is_blank(text) => Err("is empty, expected a number".to_string()),
        None => Err(not_a("number", text)),
    }
}

#[cold]
fn not_a(what: &str, text: &[u8]) -> String {
    format!("{:?} is not a {what}", String::from_utf8_lossy(text))
}

/// Where to cut a block that starts at a record boundary so that it ends after a newline outside
/// quotes (0 when there is none yet). The next block then starts at a record boundary too.
fn split_point(buffer: &[u8]) -> usize {
    if memchr::memchr(b'"', buffer).is_none() {
        return memchr::memrchr(b'\n', buffer).map_or(0, |p| p + 1);
    }
    let mut in_quotes = false;
    let mut cut = 0;
    for (i, &byte) in buffer.iter().enumerate() {
        match byte {
            b'"' => in_quotes = !in_quotes,
            b'\n' if !in_quotes => cut = i + 1,
            _ => {}
        }
    }
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Collect(Vec<(RequestRow, RowPlace)>);
    impl RequestSink for Collect {
        fn row(&mut self, row: &RequestRow, place: RowPlace) {
            self.0.push((*row, place));
        }
    }

    fn scan(text: &str) -> Scan<Collect> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("requests.csv");
        std::fs::write(&path, text).unwrap();
        scan_csv(&path, &RunIndex::new(["a", "b"]), || Collect(Vec::new())).unwrap()
    }

    const HEADER: &str = "run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\n";

    #[test]
    fn reads_good_rows() {
        let result = scan(&format!("{HEADER}a,0,0,0.5,1.25,200,12\nb,0,125,125.1,,0,\n"));
        let mut rows: Vec<_> = result.sinks.into_iter().flat_map(|s| s.0).map(|(r, _)| r).collect();
        rows.sort_by_key(|r| r.run);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].latency_ms, Some(1.25));
        assert_eq!(rows[1].latency_ms, None);
        assert_eq!(rows[1].status, 0);
        assert!(result.problems.is_empty());
    }

    #[test]
    fn reports_every_bad_row_with_its_line_and_column() {
        let text = format!(
            "{HEADER}a,0,0,0,abc,200,12\na,1,0,0,-1,200,12\nzz,2,0,0,1,200,12\na,3,0,0,NaN,200,12\na,4,0,0,,200,0\na,5,0,0,1,200\na,6,0,0,1,abc,1\n"
        );
        let result = scan(&text);
        let messages: Vec<String> = result.problems.errors().iter().map(ToString::to_string).collect();
        assert_eq!(
            messages,
            vec![
                "requests.csv:2:5: latency_ms: \"abc\" is not a number",
                "requests.csv:3:5: latency_ms: -1 is negative: a latency cannot be",
                "requests.csv:4:1: run_id: run_id \"zz\" is not in runs.csv",
                "requests.csv:5:5: latency_ms: is NaN, expected a number",
                "requests.csv:6:5: latency_ms: is empty but status is 200 (a request with no response has status 0)",
                "requests.csv:7: has 6 fields, the header has 7",
                "requests.csv:8:6: status: \"abc\" is not an HTTP status (0 for no response, else 100-999)",
            ]
        );
    }

    #[test]
    fn accepts_crlf_bom_quotes_and_extra_columns_in_any_order() {
        let text = "\u{feff}note,status,latency_ms,body_bytes,sent_ms,scheduled_ms,seq,run_id\r\n\"x, y\",200,2.5,12,1,0,0,\"a\"\r\n";
        let result = scan(text);
        assert!(result.problems.is_empty(), "{:?}", result.problems.errors());
        let rows: Vec<_> = result.sinks.into_iter().flat_map(|s| s.0).collect();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].0.latency_ms, Some(2.5));
    }

    #[test]
    fn names_missing_columns() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("requests.csv");
        std::fs::write(&path, "run_id,seq\na,1\n").unwrap();
        let error = scan_csv(&path, &RunIndex::new(["a"]), || Collect(Vec::new())).err().unwrap();
        assert_eq!(
            error.to_string(),
            "requests.csv: missing columns `scheduled_ms`, `sent_ms`, `latency_ms`, `status`, `body_bytes` (the header has: run_id, seq)"
        );
    }

    #[test]
    fn lines_stay_right_across_many_blocks() {
        // More than one block: the bad row near the end must still name its true line.
        let mut text = String::from(HEADER);
        let rows = 400_000;
        for seq in 0..rows {
            text.push_str(&format!("a,{seq},{seq}.000,{seq}.125,1.500,200,12\n"));
        }
        text.push_str("a,x,0,0,1,200,12\n");
        assert!(text.len() > BLOCK_BYTES * 2);
        let result = scan(&text);
        let messages: Vec<String> = result.problems.errors().iter().map(ToString::to_string).collect();
        assert_eq!(messages, vec![format!("requests.csv:{}:2: seq: \"x\" is not a whole number", rows + 2)]);
        let total: usize = result.sinks.iter().map(|s| s.0.len()).sum();
        assert_eq!(total, rows);
    }

    #[test]
    fn refuses_what_the_request_row_contract_refuses() {
        let text = format!("{HEADER}a,0,0,0,1,42,12\na,1,0,0,1e308,200,12\na,2,0,0,1,200,-5\na,3,1e300,0,1,200,12\n");
        let result = scan(&text);
        let messages: Vec<String> = result.problems.errors().iter().map(ToString::to_string).collect();
        assert_eq!(
            messages,
            vec![
                "requests.csv:2:6: status: 42 is not an HTTP status (0 for no response, else 100-999)",
                "requests.csv:3:5: latency_ms: 1e308 is above 10^9 ms (about 11.6 days), more than any request can plausibly take",
                "requests.csv:4:7: body_bytes: -5 is negative: a byte count cannot be",
                "requests.csv:5:3: scheduled_ms: 1e300 is beyond ±10^15 ms (about 31,700 years): not a plausible time",
            ]
        );
    }

    #[test]
    fn run_ids_are_trimmed_as_in_runs_csv() {
        let result = scan(&format!("{HEADER} a ,0,0,0,1,200,12\n\"b \",0,0,0,1,200,12\n"));
        assert!(result.problems.is_empty(), "{:?}", result.problems.errors());
        let mut runs: Vec<u32> = result.sinks.into_iter().flat_map(|s| s.0).map(|(r, _)| r.run).collect();
        runs.sort_unstable();
        assert_eq!(runs, vec![0, 1]);
    }

    fn standard_layout() -> Layout {
        let columns: Vec<String> = COLUMNS.iter().map(|c| c.to_string()).collect();
        let slots = [0, 1, 2, 3, 4, 5, 6];
        Layout { fast: FastLayout::new(&slots, columns.len()), columns, slots }
    }

    proptest::proptest! {
        /// The fast path may leave any line to the general path, but a line it accepts the
        /// general path accepts too, with the same row to the bit.
        #[test]
        fn the_fast_path_accepts_only_what_the_general_path_accepts(
            run in "a|b|zz| a|\"a\"",
            seq in "[0-9]{1,3}|-1|x|",
            scheduled in "[0-9]{1,9}(\\.[0-9]{0,7})?|-5|1e3|inf|",
            sent in "[0-9]{1,9}(\\.[0-9]{0,7})?|1e20|NaN",
            latency in "[0-9]{1,10}(\\.[0-9]{0,6})?|-1|1e308|abc|",
            status in "0|200|204|42|99|100|503|999|1000|abc|",
            body in "[0-9]{1,5}|-5|x|",
        ) {
            let line = format!("{run},{seq},{scheduled},{sent},{latency},{status},{body}\n");
            let layout = standard_layout();
            let runs = RunIndex::new(["a", "b"]);
            if let Some((fast, used)) = layout.fast.parse_line(line.as_bytes(), &runs, &mut (Vec::new(), u32::MAX)) {
                let mut records = Records::new(line.as_bytes());
                let mut record = Record::default();
                proptest::prop_assert_eq!(records.next_into(&mut record), Ok(true));
                let general = parse_row(&layout, &runs, &record, line.as_bytes(), &mut (Vec::new(), u32::MAX));
                proptest::prop_assert_eq!(general, Ok(fast), "{}", line);
                proptest::prop_assert_eq!(used, line.len());
            }
        }
    }

    #[test]
    fn split_point_never_cuts_inside_quotes() {
        assert_eq!(split_point(b"a,1\nb,2\nc"), 8);
        assert_eq!(split_point(b"a,\"x\ny\"\nb"), 8);
        assert_eq!(split_point(b"a,\"x\ny"), 0);
    }
}
