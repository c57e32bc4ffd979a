//! The dataset's CSV tables as an import rewrites them: records found by the `csv` crate, kept
//! byte for byte (quotes, line ends and all) except the rows of the run being replaced, whose
//! run id is compared as every reader of the dataset compares it, trimmed.

use super::error::ImportError;
use std::io::BufRead as _;
use std::path::Path;

/// The tables whose rows belong to runs: an import rewrites them when it replaces a run.
pub const RUN_TABLES: [&str; 9] =
    ["runs", "requests", "run_stats", "sources", "tool_labels", "large_responses", "tempfiles", "resources", "sessions"];

/// The level-1 tables of a run-level dataset (read instead of request rows).
const LEVEL1_TABLES: [&str; 5] = ["run_statuses", "run_ecdf", "run_points", "run_bands", "run_errors"];

/// Whether `name` is an entry a dataset folder may hold (datasets/README.md lists them): its
/// tables as CSV or Parquet, a folder of Parquet requests, its manifest, text and articles, and
/// what `measure` keeps beside them (servers.csv, raw/).
pub fn is_dataset_entry(name: &str, is_dir: bool) -> bool {
    let table = |stem: &str| RUN_TABLES.contains(&stem) || LEVEL1_TABLES.contains(&stem);
    if is_dir {
        return matches!(name, "requests" | "requests.parquet" | "raw");
    }
    let articles = crate::model::Lang::ALL.iter().any(|lang| match lang {
        crate::model::Lang::En => name == "article.md",
        other => name == format!("article.{}.md", other.code()),
    });
    articles
        || matches!(name, "dataset.toml" | "README.md" | "README.ja.md" | "plan.toml" | "servers.csv" | "level1.json")
        || name.strip_suffix(".csv").or_else(|| name.strip_suffix(".parquet")).is_some_and(table)
}

/// A small table read whole: its bytes and where each record (the header first) starts and
/// ends, with its trimmed run id and line.
pub struct Table {
    pub file: String,
    pub bytes: Vec<u8>,
    pub columns: Vec<String>,
    /// Every record after the header.
    pub records: Vec<Record>,
    /// The end of the header record.
    header_end: usize,
}

/// One record of a [`Table`].
pub struct Record {
    pub start: usize,
    pub end: usize,
    pub line: u64,
    /// The record's fields, trimmed.
    pub fields: Vec<String>,
}

impl Record {
    /// The trimmed value of a column.
    pub fn get(&self, column: usize) -> &str {
        self.fields.get(column).map_or("", String::as_str)
    }
}

fn not_csv(file: &str, error: &csv::Error) -> ImportError {
    match error.position() {
        Some(p) => ImportError::at(file, p.line(), 1, format!("is not valid CSV: {error} (run analyze check)")),
        None => ImportError::file(file, format!("is not valid CSV: {error} (run analyze check)")),
    }
}

impl Table {
    /// Reads `file` of `dir`; `None` when it does not exist.
    pub fn read(dir: &Path, file: &str) -> Result<Option<Table>, ImportError> {
        let path = dir.join(file);
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(ImportError::file(file, format!("cannot be read: {e}"))),
        };
        Table::parse(file, bytes).map(Some)
    }

    pub fn parse(file: &str, bytes: Vec<u8>) -> Result<Table, ImportError> {
        let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(&bytes[..]);
        let mut found: Vec<(usize, u64, Vec<String>)> = Vec::new();
        let mut record = csv::ByteRecord::new();
        loop {
            match reader.read_byte_record(&mut record) {
                Ok(true) => {
                    let position = record.position().expect("read records have a position");
                    let fields =
                        record.iter().map(|f| String::from_utf8_lossy(f).trim().trim_start_matches('\u{feff}').to_string()).collect();
                    found.push((position.byte() as usize, position.line(), fields));
                }
                Ok(false) => break,
                Err(error) => return Err(not_csv(file, &error)),
            }
        }
        // The reader puts a record's start on the `\n` of the CRLF before it: that byte ends the
        // record before.
        for record in &mut found {
            if record.0 > 0 && bytes[record.0 - 1] == b'\r' && bytes.get(record.0) == Some(&b'\n') {
                record.0 += 1;
            }
        }
        let Some((_, _, columns)) = found.first().cloned() else {
            return Err(ImportError::file(file, "is empty: it needs a header (run analyze check)"));
        };
        let ends: Vec<usize> = found.iter().skip(1).map(|f| f.0).chain(std::iter::once(bytes.len())).collect();
        let header_end = ends[0];
        let records = found
            .into_iter()
            .skip(1)
            .zip(ends.into_iter().skip(1))
            .map(|((start, line, fields), end)| Record { start, end, line, fields })
            .collect();
        Ok(Table { file: file.to_string(), bytes, columns, records, header_end })
    }

    /// The index of a column.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }

    /// The index of a required column.
    pub fn require(&self, name: &str) -> Result<usize, ImportError> {
        self.column(name).ok_or_else(|| ImportError::at(&self.file, 1, 1, format!("has no `{name}` column (run analyze check)")))
    }

    /// The records of run `run_id` (compared trimmed).
    pub fn of_run<'t>(&'t self, run_id: &'t str) -> impl Iterator<Item = &'t Record> + 't {
        let id = self.column("run_id");
        self.records.iter().filter(move |r| id.is_some_and(|c| r.get(c) == run_id))
    }

    /// The table's bytes without the records of `run_id`, with `replacement` (whole lines) in the
    /// place of its first record, or appended when it had none; every line ends with a newline.
    /// `None` when no record is left (a table with a header and no rows is refused by readers).
    pub fn rewritten(&self, run_id: &str, replacement: &[u8]) -> Option<Vec<u8>> {
        let id = self.column("run_id");
        let mut out = Vec::with_capacity(self.bytes.len() + replacement.len());
        out.extend_from_slice(&self.bytes[..self.header_end]);
        ensure_newline(&mut out);
        let mut placed = replacement.is_empty();
        let mut kept = 0;
        for record in &self.records {
            if id.is_some_and(|c| record.get(c) == run_id) {
                if !placed {
                    out.extend_from_slice(replacement);
                    placed = true;
                    kept += 1;
                }
                continue;
            }
            out.extend_from_slice(&self.bytes[record.start..record.end]);
            ensure_newline(&mut out);
            kept += 1;
        }
        if !placed {
            out.extend_from_slice(replacement);
            kept += 1;
        }
        (kept > 0).then_some(out)
    }

    /// The table with a column added at the end, empty in every existing row (a run_stats.csv of
    /// an older import, before `ranked`). Only for tables whose records are single lines.
    pub fn with_column(&self, name: &str) -> Table {
        let mut bytes = Vec::with_capacity(self.bytes.len() + self.records.len() + name.len() + 1);
        let line_with = |out: &mut Vec<u8>, line: &[u8], extra: &[u8]| {
            let body = line.strip_suffix(b"\n").unwrap_or(line);
            let (body, end) = match body.strip_suffix(b"\r") {
                Some(b) => (b, &b"\r\n"[..]),
                None => (body, &b"\n"[..]),
            };
            out.extend_from_slice(body);
            out.extend_from_slice(extra);
            out.extend_from_slice(end);
        };
        line_with(&mut bytes, &self.bytes[..self.header_end], format!(",{name}").as_bytes());
        for record in &self.records {
            line_with(&mut bytes, &self.bytes[record.start..record.end], b",");
        }
        Table::parse(&self.file, bytes).expect("a column added to a valid table")
    }
}

fn ensure_newline(out: &mut Vec<u8>) {
    if !out.is_empty() && !out.ends_with(b"\n") {
        out.push(b'\n');
    }
}

/// requests.csv, streamed: its header line, checked, then every record but those of `run_id`,
/// byte for byte, into `out` (which ends with a newline). Returns how many records were left
/// out. A file of hundreds of megabytes is read once and never held whole.
pub fn stream_without_run(
    path: &Path,
    file: &str,
    expected: &[&str],
    run_id: &str,
    out: &mut dyn std::io::Write,
) -> Result<u64, ImportError> {
    let io = |e: std::io::Error| ImportError::file(file, format!("cannot be read: {e}"));
    let open = || std::fs::File::open(path).map(|f| std::io::BufReader::with_capacity(1 << 20, f)).map_err(io);
    let mut header = Vec::new();
    open()?.read_until(b'\n', &mut header).map_err(io)?;
    let header_text = String::from_utf8_lossy(&header);
    let columns: Vec<&str> = header_text.trim_start_matches('\u{feff}').trim_end_matches(['\r', '\n']).split(',').collect();
    if columns != expected {
        return Err(ImportError::at(file, 1, 1, format!("import appends to a {file} whose header is exactly {}", expected.join(","))));
    }
    let id = columns.iter().position(|c| *c == "run_id").expect("the expected header has run_id");
    let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(open()?);
    let mut copier = Copier { raw: open()?, at: 0, last: None, written_last: None, buffer: vec![0; 1 << 16] };
    let staged = |e: std::io::Error| ImportError::file(file, format!("cannot be staged: {e}"));
    let mut record = csv::ByteRecord::new();
    // A record of the run starts a stretch left out up to the next record's start that is not the
    // run's; the stretches between are copied whole, not record by record.
    let mut left_out_from: Option<u64> = None;
    let mut removed = 0;
    let mut header_record = true;
    let end = std::fs::metadata(path).map_err(io)?.len();
    loop {
        let more = reader.read_byte_record(&mut record).map_err(|e| not_csv(file, &e))?;
        let start = if more { record.position().expect("read records have a position").byte() } else { end };
        let mine = more && !header_record && record.get(id).is_some_and(|f| String::from_utf8_lossy(f).trim() == run_id);
        header_record = false;
        match (left_out_from, mine) {
            (None, true) => {
                copier.copy_to(start, Some(&mut *out)).map_err(staged)?;
                // The reader puts a record's start on the `\n` of the CRLF before it: that byte
                // ends the record kept before.
                copier.finish_line(Some(&mut *out)).map_err(staged)?;
                left_out_from = Some(copier.at);
            }
            (Some(_), false) => {
                copier.copy_to(start, None).map_err(io)?;
                copier.finish_line(None).map_err(io)?;
                left_out_from = None;
            }
            _ => {}
        }
        removed += u64::from(mine);
        if !more {
            break;
        }
    }
    if left_out_from.is_none() {
        copier.copy_to(end, Some(&mut *out)).map_err(staged)?;
    }
    if copier.written_last.is_some_and(|b| b != b'\n') {
        out.write_all(b"\n").map_err(staged)?;
    }
    Ok(removed)
}

/// Reads a file front to back, copying or skipping up to a position.
struct Copier<R> {
    raw: R,
    /// The position read up to.
    at: u64,
    /// The last byte read, and the last byte written.
    last: Option<u8>,
    written_last: Option<u8>,
    buffer: Vec<u8>,
}

impl<R: std::io::BufRead> Copier<R> {
    /// Reads up to `until`, writing what it reads into `out` when there is one.
    fn copy_to(&mut self, until: u64, mut out: Option<&mut dyn std::io::Write>) -> std::io::Result<()> {
        while self.at < until {
            let want = (until - self.at).min(self.buffer.len() as u64) as usize;
            let n = self.raw.read(&mut self.buffer[..want])?;
            if n == 0 {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
            if let Some(out) = out.as_mut() {
                out.write_all(&self.buffer[..n])?;
                self.written_last = Some(self.buffer[n - 1]);
            }
            self.at += n as u64;
            self.last = Some(self.buffer[n - 1]);
        }
        Ok(())
    }

    /// After a `\r`, the `\n` that follows it belongs to the same line: read it too.
    fn finish_line(&mut self, out: Option<&mut dyn std::io::Write>) -> std::io::Result<()> {
        if self.last == Some(b'\r') && self.raw.fill_buf()?.first() == Some(&b'\n') {
            let at = self.at + 1;
            self.copy_to(at, out)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewriting_keeps_other_rows_byte_for_byte_and_compares_ids_trimmed() {
        let text = "run_id,repetition\r\nr1,1\r\n\"r2\",2\r\n r1 ,3\r\nr3,4";
        let table = Table::parse("runs.csv", text.as_bytes().to_vec()).unwrap();
        assert_eq!(table.of_run("r1").count(), 2);
        let out = table.rewritten("r1", b"r1,9\n").unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "run_id,repetition\r\nr1,9\n\"r2\",2\r\nr3,4\n");
        let only = Table::parse("run_stats.csv", b"run_id,x\nr1,1\n".to_vec()).unwrap();
        assert_eq!(only.rewritten("r1", b""), None, "no header-only table is written");
    }

    #[test]
    fn streaming_leaves_out_the_run_and_ends_with_a_newline() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("requests.csv");
        std::fs::write(&path, "run_id,seq\nr1,0\n\"r2\",0\nr1 ,1\nr3,0").unwrap();
        let mut out = Vec::new();
        let removed = stream_without_run(&path, "requests.csv", &["run_id", "seq"], "r1", &mut out).unwrap();
        assert_eq!(removed, 2);
        assert_eq!(String::from_utf8(out).unwrap(), "run_id,seq\n\"r2\",0\nr3,0\n");
        // CRLF lines, the run's rows first, between and last.
        std::fs::write(&path, "run_id,seq\r\nr1,0\r\nr2,0\r\nr1,1\r\nr2,1\r\nr1,2\r\n").unwrap();
        let mut out = Vec::new();
        assert_eq!(stream_without_run(&path, "requests.csv", &["run_id", "seq"], "r1", &mut out).unwrap(), 3);
        assert_eq!(String::from_utf8(out).unwrap(), "run_id,seq\r\nr2,0\r\nr2,1\r\n");
    }

    #[test]
    fn every_entry_of_the_committed_datasets_is_a_dataset_entry() {
        let datasets = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets");
        for dataset in std::fs::read_dir(&datasets).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()) {
            for entry in std::fs::read_dir(&dataset).unwrap().map(|e| e.unwrap()) {
                let name = entry.file_name().to_string_lossy().into_owned();
                assert!(
                    is_dataset_entry(&name, entry.path().is_dir()),
                    "{}/{name} would make --into refuse the dataset",
                    dataset.display()
                );
            }
        }
    }

    #[test]
    fn known_entries_of_a_dataset_and_foreign_ones() {
        for name in ["runs.csv", "requests.parquet", "article.ja.md", "servers.csv", "dataset.toml", "run_ecdf.csv"] {
            assert!(is_dataset_entry(name, false), "{name}");
        }
        assert!(is_dataset_entry("raw", true) && is_dataset_entry("requests", true));
        for (name, dir) in [("photo.jpg", false), (".git", true), ("notes.txt", false), ("runs", true)] {
            assert!(!is_dataset_entry(name, dir), "{name}");
        }
    }
}
