//! Reading an input file as a stream: its first block decides the format (a file that matches
//! none is refused after it, however large), a one-row-per-request format is then parsed a block
//! of whole lines at a time ([`Blocks`]), so memory follows the rows kept and not the file, and
//! the sha256 is taken of the bytes as they go by. A summary is small: it is read whole (up to
//! [`SUMMARY_LIMIT`]) and parsed as one text. oha's sqlite output is a database, read through
//! SQLite from its path.

use super::error::ImportError;
use super::{Format, Piece};
use sha2::Digest as _;
use std::io::Read;

/// How much is read at a time: the first block is what a format is detected from.
pub const BLOCK: usize = 4 << 20;

/// The largest summary (a tool's printed numbers) read: the real ones are a few kB.
pub const SUMMARY_LIMIT: u64 = 64 << 20;

/// A one-row-per-request format read a block of whole lines at a time.
pub trait Blocks {
    /// The file's size in bytes, before its first block: room for its rows can be made at once.
    fn size_hint(&mut self, _bytes: u64) {}
    /// Reads the whole lines `text` (each ending with a newline), the first of which is line
    /// `first_line` (1-based) of the file; the first block starts with the file's first line.
    fn block(&mut self, text: &str, first_line: u64) -> Result<(), ImportError>;
    /// What the file says, once every block is read.
    fn finish(self: Box<Self>) -> Result<Piece, ImportError>;
}

/// Where an input comes from: a file (what `analyze import` reads) or bytes (tests).
pub enum Source<'a> {
    Path(&'a std::path::Path),
    Bytes(&'a [u8]),
    /// Any reader (a test's endless one).
    Reader(Box<dyn Read + 'a>),
}

/// One input read: its format, what it says, and its sha256.
pub struct Read_ {
    pub format: Format,
    pub piece: Piece,
    pub sha256: String,
}

/// The magic of an SQLite 3 database file.
const SQLITE_MAGIC: &[u8] = b"SQLite format 3\0";

fn io_error(name: &str, e: &std::io::Error) -> ImportError {
    ImportError::file(name, format!("cannot be read: {e}"))
}

/// Fills `buffer` from `reader` up to its capacity or the end; returns whether the end came.
fn fill(reader: &mut dyn Read, buffer: &mut Vec<u8>, want: usize) -> std::io::Result<bool> {
    let start = buffer.len();
    buffer.resize(start + want, 0);
    let mut filled = start;
    while filled < buffer.len() {
        match reader.read(&mut buffer[filled..]) {
            Ok(0) => {
                buffer.truncate(filled);
                return Ok(true);
            }
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(false)
}

/// The 1-based line and column of the first byte that is not UTF-8 in `bytes`, which start at
/// line `first_line`.
fn not_utf8(name: &str, bytes: &[u8], first_line: u64) -> Option<ImportError> {
    let error = std::str::from_utf8(bytes).err()?;
    let valid = &bytes[..error.valid_up_to()];
    // A character cut by the end of a block is not an error: the next block completes it.
    error.error_len()?;
    let line = first_line + memchr::memchr_iter(b'\n', valid).count() as u64;
    let column = valid.iter().rev().take_while(|&&b| b != b'\n').count() as u64 + 1;
    Some(ImportError::at(name, line, column, "a byte that is not UTF-8: is this a text output of a load generator?"))
}

/// Reads one input: detects its format from its first block (unless forced), then parses it.
pub fn read(name: &str, source: Source, forced: Option<Format>) -> Result<Read_, ImportError> {
    let mut size = None;
    let (mut reader, path): (Box<dyn Read + '_>, Option<&std::path::Path>) = match source {
        Source::Path(path) => {
            let file = std::fs::File::open(path).map_err(|e| io_error(name, &e))?;
            size = file.metadata().ok().map(|m| m.len());
            (Box::new(file), Some(path))
        }
        Source::Bytes(bytes) => {
            size = Some(bytes.len() as u64);
            (Box::new(bytes), None)
        }
        Source::Reader(reader) => (reader, None),
    };
    let mut hasher = sha2::Sha256::new();
    let mut head = Vec::new();
    let mut ended = fill(&mut reader, &mut head, BLOCK).map_err(|e| io_error(name, &e))?;
    if head.starts_with(SQLITE_MAGIC) || forced == Some(Format::OhaSqlite) {
        if let Some(format) = forced.filter(|f| *f != Format::OhaSqlite) {
            return Err(ImportError::at(name, 1, 1, format!("is an SQLite database, not {}", format.description())));
        }
        return read_sqlite(name, path, reader, head, ended, hasher);
    }
    // Detection reads the head as text up to its last whole line (a block may cut a character).
    let cut = if ended { head.len() } else { memchr::memrchr(b'\n', &head).map_or(0, |i| i + 1) };
    if let Some(error) = not_utf8(name, &head[..cut], 1) {
        return Err(error);
    }
    let head_text = std::str::from_utf8(&head[..cut]).unwrap_or_default();
    let Some(format) = forced.or_else(|| Format::detect(head_text)) else {
        if let Some(hint) = super::undetected_hint(head_text) {
            return Err(ImportError::at(name, 1, 1, format!("matches no known format: {hint}")));
        }
        return Err(ImportError::at(
            name,
            1,
            1,
            format!(
                "matches no known format ({}; see `analyze import --help`){}",
                super::Tool::ALL.map(super::Tool::name).join(", "),
                if ended { "" } else { ": only its first 4 MiB were read" }
            ),
        ));
    };
    let piece = match super::blocks(format, name) {
        Some(mut blocks) => {
            if let Some(size) = size {
                blocks.size_hint(size);
            }
            let mut first_line = 1;
            let mut one_run = super::one_run::OneRun::new(format, name);
            let mut carry: Vec<u8> = Vec::new();
            let mut buffer = head;
            loop {
                hasher.update(&buffer);
                let mut data = std::mem::take(&mut carry);
                data.extend_from_slice(&buffer);
                let whole = if ended { data.len() } else { memchr::memrchr(b'\n', &data).map_or(0, |i| i + 1) };
                let (lines, rest) = data.split_at(whole);
                let (complete, last) = match (ended, lines.last()) {
                    (true, Some(&b)) if b != b'\n' => {
                        let start = memchr::memrchr(b'\n', lines).map_or(0, |i| i + 1);
                        (&lines[..start], Some(&lines[start..]))
                    }
                    _ => (lines, None),
                };
                if let Some(error) = not_utf8(name, complete, first_line) {
                    return Err(error);
                }
                let text = std::str::from_utf8(complete).map_err(|_| ImportError::file(name, "a byte that is not UTF-8"))?;
                if !text.is_empty() {
                    one_run.block(text, first_line)?;
                    blocks.block(text, first_line)?;
                }
                first_line += memchr::memchr_iter(b'\n', complete).count() as u64;
                if let Some(last) = last {
                    if let Some(error) = not_utf8(name, last, first_line) {
                        return Err(error);
                    }
                    let column = String::from_utf8_lossy(last).chars().count() as u64 + 1;
                    return Err(ImportError::at(
                        name,
                        first_line,
                        column,
                        format!(
                            "the file ends in the middle of a line: it is cut short ({} ends every line of it with a newline)",
                            format.tool().name()
                        ),
                    ));
                }
                if ended {
                    break;
                }
                carry = rest.to_vec();
                buffer = Vec::with_capacity(BLOCK);
                ended = fill(&mut reader, &mut buffer, BLOCK).map_err(|e| io_error(name, &e))?;
            }
            blocks.finish()?
        }
        None => {
            let mut all = head;
            if !ended {
                let limit = SUMMARY_LIMIT - all.len() as u64;
                (&mut reader).take(limit + 1).read_to_end(&mut all).map_err(|e| io_error(name, &e))?;
                if all.len() as u64 > SUMMARY_LIMIT {
                    return Err(ImportError::file(
                        name,
                        format!(
                            "is larger than {} MiB, and {} is a summary of a few kB: is it the right file?",
                            SUMMARY_LIMIT >> 20,
                            format.description()
                        ),
                    ));
                }
            }
            hasher.update(&all);
            if let Some(error) = not_utf8(name, &all, 1) {
                return Err(error);
            }
            let text = std::str::from_utf8(&all).map_err(|_| ImportError::file(name, "a byte that is not UTF-8"))?;
            if !format.is_json_document() && !text.is_empty() && !text.ends_with('\n') {
                let last = text.lines().count() as u64;
                let column = text.lines().last().map_or(0, |l| l.chars().count()) as u64 + 1;
                return Err(ImportError::at(
                    name,
                    last,
                    column,
                    format!(
                        "the file ends in the middle of a line: it is cut short ({} ends every line of it with a newline)",
                        format.tool().name()
                    ),
                ));
            }
            super::one_run::OneRun::new(format, name).block(text, 1)?;
            super::parse_text(format, name, text)?
        }
    };
    Ok(Read_ { format, piece, sha256: hex(hasher) })
}

fn hex(hasher: sha2::Sha256) -> String {
    hasher.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// oha's sqlite output: the database is read by SQLite from its path (bytes are written to a
/// private temporary file first), hashed as it is.
fn read_sqlite(
    name: &str,
    path: Option<&std::path::Path>,
    mut reader: Box<dyn Read + '_>,
    mut head: Vec<u8>,
    ended: bool,
    mut hasher: sha2::Sha256,
) -> Result<Read_, ImportError> {
    if !ended {
        reader.read_to_end(&mut head).map_err(|e| io_error(name, &e))?;
    }
    hasher.update(&head);
    let temporary;
    let path = match path {
        Some(path) => path.to_path_buf(),
        None => {
            temporary = tempfile::NamedTempFile::new().map_err(|e| io_error(name, &e))?;
            std::fs::write(temporary.path(), &head).map_err(|e| io_error(name, &e))?;
            temporary.path().to_path_buf()
        }
    };
    drop(head);
    let piece = super::oha::sqlite(name, &path)?;
    Ok(Read_ { format: Format::OhaSqlite, piece, sha256: hex(hasher) })
}

/// A format not yet read block by block: its blocks are put together and parsed as one text.
pub struct Whole {
    format: Format,
    name: String,
    text: String,
}

impl Whole {
    pub fn new(format: Format, name: &str) -> Self {
        Whole { format, name: name.to_string(), text: String::new() }
    }
}

impl Blocks for Whole {
    fn block(&mut self, text: &str, _first_line: u64) -> Result<(), ImportError> {
        self.text.push_str(text);
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<Piece, ImportError> {
        super::parse_text(self.format, &self.name, &self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_file_that_matches_nothing_is_refused_after_its_first_block() {
        // An endless reader of lines that are no format: reading it all would never end.
        struct Endless(std::rc::Rc<std::cell::Cell<u64>>);
        impl Read for Endless {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                self.0.set(self.0.get() + buf.len() as u64);
                for (i, b) in buf.iter_mut().enumerate() {
                    *b = if i % 64 == 63 { b'\n' } else { b'x' };
                }
                Ok(buf.len())
            }
        }
        let read = std::rc::Rc::new(std::cell::Cell::new(0));
        let error = super::read("huge.txt", Source::Reader(Box::new(Endless(read.clone()))), None).err().unwrap();
        assert!(error.message.contains("matches no known format") && error.message.contains("first 4 MiB"), "{error}");
        assert_eq!(read.get(), BLOCK as u64);
    }

    #[test]
    fn a_character_cut_by_a_block_is_not_an_error_but_a_bad_byte_is() {
        let text = "ab\ncé";
        let bytes = text.as_bytes();
        assert!(not_utf8("f", &bytes[..bytes.len() - 1], 1).is_none());
        let error = not_utf8("f", b"ab\nc\xff\n", 1).unwrap();
        assert_eq!(error.place, Some((2, 2)));
    }
}
