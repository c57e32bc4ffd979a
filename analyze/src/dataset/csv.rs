//! A small CSV tokenizer that knows where it is.
//!
//! Why not the `csv` crate or polars' reader: every problem must be reported as
//! `file:line:field: column: what`, and requests.csv can hold 10^8 rows that are parsed in
//! parallel blocks. This tokenizer works on a byte slice (a whole small file or one block of a
//! large one), counts physical lines (a quoted field may span lines), accepts CRLF and quoted
//! fields (`""` is an escaped quote), and never allocates per record on the unquoted fast path.

use super::error::DataError;
use memchr::memchr;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// One record's fields: ranges into the source block, or into the record's own scratch buffer
/// when a field was quoted and had to be unescaped.
#[derive(Default)]
pub struct Record {
    /// 1-based physical line on which the record starts, relative to the start of the slice
    /// being tokenized (callers add the slice's own offset).
    pub line: u64,
    fields: Vec<FieldSpan>,
    scratch: Vec<u8>,
}

#[derive(Clone, Copy)]
struct FieldSpan {
    in_scratch: bool,
    start: usize,
    end: usize,
}

impl Record {
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// The bytes of field `index` (0-based), unescaped.
    #[inline]
    pub fn get<'a>(&'a self, source: &'a [u8], index: usize) -> &'a [u8] {
        let span = self.fields[index];
        if span.in_scratch {
            &self.scratch[span.start..span.end]
        } else {
            &source[span.start..span.end]
        }
    }
}

/// Tokenizes records out of a byte slice that starts at a record boundary.
pub struct Records<'a> {
    source: &'a [u8],
    position: usize,
    /// Physical lines consumed so far.
    lines: u64,
}

impl<'a> Records<'a> {
    pub fn new(source: &'a [u8]) -> Self {
        Records { source, position: 0, lines: 0 }
    }

    /// The bytes not yet consumed.
    pub fn remaining(&self) -> &'a [u8] {
        &self.source[self.position..]
    }

    /// Consumes one physical line of `bytes` bytes that a caller parsed itself.
    pub fn consume_line(&mut self, bytes: usize) {
        self.position += bytes;
        self.lines += 1;
    }

    /// Physical lines consumed so far (newlines seen, plus a final unterminated line).
    pub fn lines(&self) -> u64 {
        self.lines
    }

    /// Reads the next non-blank record into `record`; false at the end of the slice.
    /// A quote left open at the end is an error naming the line it opened on.
    pub fn next_into(&mut self, record: &mut Record) -> Result<bool, String> {
        loop {
            if self.position >= self.source.len() {
                return Ok(false);
            }
            record.fields.clear();
            record.scratch.clear();
            record.line = self.lines + 1;
            let rest = &self.source[self.position..];
            let line_end = memchr(b'\n', rest).unwrap_or(rest.len());
            let mut line = &rest[..line_end];
            if line.last() == Some(&b'\r') {
                line = &line[..line.len() - 1];
            }
            if memchr(b'"', line).is_none() {
                let advance = (line_end + 1).min(rest.len());
                let base = self.position;
                self.position += advance;
                self.lines += 1;
                if line.is_empty() {
                    continue;
                }
                let mut start = 0;
                for comma in memchr::memchr_iter(b',', line) {
                    record.fields.push(FieldSpan { in_scratch: false, start: base + start, end: base + comma });
                    start = comma + 1;
                }
                record.fields.push(FieldSpan { in_scratch: false, start: base + start, end: base + line.len() });
                return Ok(true);
            }
            self.read_quoted(record)?;
            return Ok(true);
        }
    }

    /// The slow path: a record with at least one quote, which may span several lines.
    fn read_quoted(&mut self, record: &mut Record) -> Result<(), String> {
        let source = self.source;
        let mut i = self.position;
        loop {
            // At the start of a field.
            let start = record.scratch.len();
            if i < source.len() && source[i] == b'"' {
                i += 1;
                loop {
                    if i >= source.len() {
                        return Err("a quote in this record is never closed".to_string());
                    }
                    let byte = source[i];
                    if byte == b'"' {
                        if source.get(i + 1) == Some(&b'"') {
                            record.scratch.push(b'"');
                            i += 2;
                            continue;
                        }
                        i += 1;
                        break;
                    }
                    if byte == b'\n' {
                        self.lines += 1;
                    }
                    record.scratch.push(byte);
                    i += 1;
                }
                // Text between the closing quote and the separator is kept, as most readers do.
                while i < source.len() && !matches!(source[i], b',' | b'\n' | b'\r') {
                    record.scratch.push(source[i]);
                    i += 1;
                }
            } else {
                while i < source.len() && !matches!(source[i], b',' | b'\n') {
                    record.scratch.push(source[i]);
                    i += 1;
                }
                if record.scratch.last() == Some(&b'\r') && (i >= source.len() || source[i] == b'\n') {
                    record.scratch.pop();
                }
            }
            record.fields.push(FieldSpan { in_scratch: true, start, end: record.scratch.len() });
            if i >= source.len() {
                self.lines += 1;
                self.position = i;
                return Ok(());
            }
            match source[i] {
                b',' => i += 1,
                b'\r' => {
                    i += 1;
                    if i < source.len() && source[i] == b'\n' {
                        i += 1;
                    }
                    self.lines += 1;
                    self.position = i;
                    return Ok(());
                }
                _ => {
                    i += 1;
                    self.lines += 1;
                    self.position = i;
                    return Ok(());
                }
            }
        }
    }
}

/// A CSV file split into its header and body.
pub struct HeaderAndBody<'a> {
    pub columns: Vec<String>,
    pub body: &'a [u8],
    /// Physical lines the header took (1 unless a quoted name spans lines).
    pub header_lines: u64,
}

/// Strips a UTF-8 BOM and reads the header row. Column names are trimmed.
pub fn split_header<'a>(file: &str, bytes: &'a [u8]) -> Result<HeaderAndBody<'a>, DataError> {
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(DataError::file(file, "is empty: expected a header row and data rows"));
    }
    let mut records = Records::new(bytes);
    let mut record = Record::default();
    match records.next_into(&mut record) {
        Ok(true) => {}
        Ok(false) => return Err(DataError::file(file, "is empty: expected a header row")),
        Err(message) => return Err(DataError::line(file, 1, message)),
    }
    let mut columns = Vec::with_capacity(record.len());
    for index in 0..record.len() {
        if memchr(b'\r', record.get(bytes, index)).is_some() {
            // Else every line of such a file would be read as one giant header row.
            return Err(DataError::line(
                file,
                1,
                "the header holds a carriage return: the lines seem to end in CR alone (old Mac style); save the file with LF or CRLF line ends",
            ));
        }
        let name = std::str::from_utf8(record.get(bytes, index))
            .map_err(|_| DataError::field(file, 1, index + 1, "header", "is not valid UTF-8"))?;
        let name = name.trim().to_string();
        if let Some(first) = columns.iter().position(|c| *c == name).filter(|_| !name.is_empty()) {
            // Which of the two a reader would use is a guess; for runs.csv both would be factors of one name.
            return Err(DataError::field(
                file,
                1,
                index + 1,
                "header",
                format!("the column {} appears twice (first as field {})", super::error::shown(&name), first + 1),
            ));
        }
        columns.push(name);
    }
    let header_lines = records.lines();
    let body = &bytes[records.position..];
    Ok(HeaderAndBody { columns, body, header_lines })
}

/// Finds the 1-based line and column (in characters) of the first invalid UTF-8 byte in `bytes`.
pub fn first_invalid_utf8(bytes: &[u8]) -> Option<(u64, usize, usize)> {
    // The SIMD check is several times faster on the valid (usual) case; std locates the error.
    if simdutf8::basic::from_utf8(bytes).is_ok() {
        return None;
    }
    let error = std::str::from_utf8(bytes).err()?;
    let offset = error.valid_up_to();
    let before = &bytes[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    let column = String::from_utf8_lossy(&bytes[line_start..offset]).chars().count() + 1;
    Some((line, column, offset))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_records(text: &[u8]) -> Vec<(u64, Vec<String>)> {
        let mut records = Records::new(text);
        let mut record = Record::default();
        let mut out = Vec::new();
        while records.next_into(&mut record).unwrap() {
            let fields = (0..record.len()).map(|i| String::from_utf8(record.get(text, i).to_vec()).unwrap()).collect();
            out.push((record.line, fields));
        }
        out
    }

    #[test]
    fn splits_plain_fields_and_counts_lines() {
        let got = all_records(b"a,b,c\n1,,3\n");
        assert_eq!(got, vec![(1, vec!["a".into(), "b".into(), "c".into()]), (2, vec!["1".into(), "".into(), "3".into()])]);
    }

    #[test]
    fn accepts_crlf_and_a_missing_final_newline() {
        let got = all_records(b"a,b\r\n1,2");
        assert_eq!(got, vec![(1, vec!["a".into(), "b".into()]), (2, vec!["1".into(), "2".into()])]);
    }

    #[test]
    fn unescapes_quoted_fields_spanning_lines() {
        let got = all_records(b"\"x, y\",\"say \"\"hi\"\"\"\r\n\"two\nlines\",z\nlast,1\n");
        assert_eq!(got[0], (1, vec!["x, y".into(), "say \"hi\"".into()]));
        assert_eq!(got[1], (2, vec!["two\nlines".into(), "z".into()]));
        assert_eq!(got[2], (4, vec!["last".into(), "1".into()]));
    }

    #[test]
    fn skips_blank_lines_but_keeps_counting() {
        let got = all_records(b"a\n\n\nb\n");
        assert_eq!(got, vec![(1, vec!["a".into()]), (4, vec!["b".into()])]);
    }

    #[test]
    fn an_unclosed_quote_names_its_line() {
        let mut records = Records::new(b"a\n\"open,b\nc\n");
        let mut record = Record::default();
        assert!(records.next_into(&mut record).unwrap());
        let error = records.next_into(&mut record).unwrap_err();
        assert_eq!(error, "a quote in this record is never closed");
    }

    #[test]
    fn header_strips_bom_and_trims_names() {
        let parsed = split_header("t.csv", b"\xEF\xBB\xBFrun_id, seq \n1,2\n").unwrap();
        assert_eq!(parsed.columns, vec!["run_id", "seq"]);
        assert_eq!(parsed.body, b"1,2\n");
    }

    #[test]
    fn cr_only_line_ends_are_named_not_read_as_one_header() {
        let error = split_header("t.csv", b"a,b\r1,2\r3,4\r").err().unwrap();
        assert_eq!(
            error.to_string(),
            "t.csv:1: the header holds a carriage return: the lines seem to end in CR alone (old Mac style); save the file with LF or CRLF line ends"
        );
        assert!(split_header("t.csv", b"a,b\r\n1,2\r\n").is_ok());
        assert!(split_header("t.csv", b"\"a\rb\",c\n1,2\n").is_err(), "a CR inside a quoted name is refused too");
    }

    #[test]
    fn a_column_named_twice_is_an_error() {
        let error = split_header("runs.csv", b"run_id,route,status,route\n").err().unwrap();
        assert_eq!(error.to_string(), "runs.csv:1:4: header: the column \"route\" appears twice (first as field 2)");
        assert!(split_header("t.csv", b"a,,b,\n").is_ok(), "unnamed extra columns are accepted");
    }

    #[test]
    fn empty_file_is_an_error() {
        let error = split_header("t.csv", b"").err().unwrap();
        assert_eq!(error.to_string(), "t.csv: is empty: expected a header row and data rows");
    }

    #[test]
    fn locates_invalid_utf8() {
        assert_eq!(first_invalid_utf8(b"ab\ncd\xffe\n"), Some((2, 3, 5)));
        assert_eq!(first_invalid_utf8(b"fine"), None);
    }
}
