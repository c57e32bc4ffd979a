//! The end of a server's logs, quoted when it fails: read from the tail of each file, so the memory it
//! takes is bounded whatever the server wrote (a server writing 400 MB to stderr costs [`TAIL_BYTES`]
//! per file), bytes that are not UTF-8 replaced (U+FFFD) rather than the quote emptied, and the quote
//! bounded from its start, so the last line, where the reason usually is, stays whole after long lines.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// How much of the end of each log is read.
pub const TAIL_BYTES: u64 = 64 * 1024;
/// How many lines the quote keeps at most.
pub const LINES: usize = 8;
/// How many characters the quote keeps at most (a run's note stays short); what is cut is its start.
pub const CHARS: usize = 500;

/// The last lines of `logs` (in order: each file's lines after the previous file's), joined by ` | `
/// and at most [`CHARS`] long (`...` and the end when longer).
pub fn quote(logs: &[PathBuf]) -> String {
    let mut lines: Vec<String> = Vec::new();
    for path in logs {
        lines.extend(last_lines(path));
    }
    let start = lines.len().saturating_sub(LINES);
    bounded(&lines[start..].join(" | "))
}

/// The lines of the last [`TAIL_BYTES`] of `path` (none when it cannot be read), blank ones left out;
/// the first line is dropped when the tail starts inside it.
fn last_lines(path: &Path) -> Vec<String> {
    let Ok(mut file) = File::open(path) else { return Vec::new() };
    let Ok(len) = file.seek(SeekFrom::End(0)) else { return Vec::new() };
    let from = len.saturating_sub(TAIL_BYTES);
    if file.seek(SeekFrom::Start(from)).is_err() {
        return Vec::new();
    }
    let mut bytes = Vec::with_capacity((len - from) as usize);
    if file.take(TAIL_BYTES).read_to_end(&mut bytes).is_err() {
        return Vec::new();
    }
    let text = String::from_utf8_lossy(&bytes);
    let mut lines = text.lines();
    if from > 0 {
        lines.next();
    }
    lines.filter(|l| !l.trim().is_empty()).map(str::to_owned).collect()
}

/// `text`, or `...` and its last `CHARS - 3` characters.
fn bounded(text: &str) -> String {
    let count = text.chars().count();
    if count <= CHARS {
        return text.to_string();
    }
    let skip = count - (CHARS - 3);
    format!("...{}", text.chars().skip(skip).collect::<String>())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }

    #[test]
    fn the_reason_after_eight_long_lines_is_kept_whole() {
        let dir = tempfile::tempdir().unwrap();
        let mut text = String::new();
        for i in 0..8 {
            text.push_str(&format!("warning {i}: {}\n", "x".repeat(200)));
        }
        text.push_str("FATAL: could not bind 127.0.0.1:8000\n");
        let quote = quote(&[log(dir.path(), "err", text.as_bytes())]);
        assert!(quote.ends_with(" | FATAL: could not bind 127.0.0.1:8000"), "{quote}");
        assert!(quote.starts_with("...x"), "{quote}");
        assert_eq!(quote.chars().count(), CHARS);
    }

    #[test]
    fn a_byte_that_is_not_utf8_is_replaced_not_the_quote_emptied() {
        let dir = tempfile::tempdir().unwrap();
        let quote = quote(&[log(dir.path(), "err", b"caf\xe9 opened\nbind failed\n")]);
        assert_eq!(quote, "caf\u{fffd} opened | bind failed");
    }

    #[test]
    fn only_the_tail_of_a_huge_log_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let mut bytes = vec![b'y'; 3 * TAIL_BYTES as usize];
        bytes.extend_from_slice(b"\nlast words\n");
        let path = log(dir.path(), "err", &bytes);
        // The line the tail starts inside is dropped, not quoted as if whole.
        assert_eq!(last_lines(&path), ["last words"]);
        assert_eq!(quote(&[path]), "last words");
    }

    #[test]
    fn the_last_lines_of_several_logs_follow_each_other() {
        let dir = tempfile::tempdir().unwrap();
        let a = log(dir.path(), "a", b"1\n2\n\n3\n");
        let b = log(dir.path(), "b", b"4\n5\n6\n7\n8\n9\n");
        assert_eq!(quote(&[a, b, dir.path().join("missing")]), "2 | 3 | 4 | 5 | 6 | 7 | 8 | 9");
    }
}
