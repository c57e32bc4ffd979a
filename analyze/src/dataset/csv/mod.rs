//! A small CSV tokenizer that knows where it is.
//!
//! Why not the `csv` crate or polars' reader: every problem must be reported as
//! `file:line:field: column: what`, and requests.csv can hold 10^8 rows that are parsed in
//! parallel blocks. This tokenizer works on a byte slice (a whole small file or one block of a
//! large one), counts physical lines (a quoted field may span lines), accepts CRLF and quoted
//! fields (`""` is an escaped quote), and never allocates per record on the unquoted fast path.
//!
//! Work per record is bounded: a field longer than [`MAX_FIELD_BYTES`] or a record longer than
//! [`MAX_RECORD_BYTES`] is an error at its place, found in one pass over its bytes, and the
//! tokenizer carries on after it, so a 100 MB field costs what reading 100 MB costs.

mod fast_row;
/// requests.csv in parallel blocks, and its fast path.
pub mod requests;

use super::error::DataError;
use memchr::memchr;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The longest field of any table: a run id, a level, a number or a note of a dataset is far
/// shorter, so a longer one is a broken file (a lost quote, a binary pasted in), not data.
pub const MAX_FIELD_BYTES: usize = 64 << 10;
/// The longest record (one line, or the lines of one record whose quoted field spans lines).
pub const MAX_RECORD_BYTES: usize = 1 << 20;

/// Why a record could not be tokenized. After [`TokenError::FieldTooLong`] and
/// [`TokenError::RecordTooLong`] the record has been consumed and reading may go on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenError {
    /// A quote opened in the record is never closed: the rest of the input is one field.
    UnclosedQuote,
    /// Field `field` (0-based) holds more than [`MAX_FIELD_BYTES`].
    FieldTooLong { field: usize },
    /// The record holds more than [`MAX_RECORD_BYTES`]: `bytes` of them.
    RecordTooLong { bytes: usize },
}

impl TokenError {
    /// The 0-based field the error is at, when it is at one.
    pub fn field(&self) -> Option<usize> {
        match self {
            TokenError::FieldTooLong { field, .. } => Some(*field),
            _ => None,
        }
    }

    /// Whether the tokenizer stopped (the rest of the input cannot be split into records).
    pub fn is_final(&self) -> bool {
        *self == TokenError::UnclosedQuote
    }
}

impl std::fmt::Display for TokenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TokenError::UnclosedQuote => write!(f, "a quote in this record is never closed"),
            TokenError::FieldTooLong { .. } => write!(
                f,
                "the field is longer than {MAX_FIELD_BYTES} bytes, the most a field may hold (a quote left open, or not this table?)"
            ),
            TokenError::RecordTooLong { bytes } => write!(
                f,
                "the record is {bytes} bytes long, more than the {MAX_RECORD_BYTES} a record may hold (a quote left open, or not this table?)"
            ),
        }
    }
}

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
    pub fn next_into(&mut self, record: &mut Record) -> Result<bool, TokenError> {
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
                // The first field over its limit is named; only a record short enough is split.
                let whole = line.len() <= MAX_RECORD_BYTES;
                let mut start = 0;
                for (field, end) in memchr::memchr_iter(b',', line).chain([line.len()]).enumerate() {
                    if end - start > MAX_FIELD_BYTES {
                        record.fields.clear();
                        return Err(TokenError::FieldTooLong { field });
                    }
                    if whole {
                        record.fields.push(FieldSpan { in_scratch: false, start: base + start, end: base + end });
                    }
                    start = end + 1;
                }
                if !whole {
                    return Err(TokenError::RecordTooLong { bytes: line.len() });
                }
                return Ok(true);
            }
            self.read_quoted(record)?;
            return Ok(true);
        }
    }

    /// The slow path: a record with at least one quote, which may span several lines. Past a
    /// limit it keeps no more bytes but reads on to the record's end, so the next record starts
    /// where it should.
    fn read_quoted(&mut self, record: &mut Record) -> Result<(), TokenError> {
        let source = self.source;
        let record_start = self.position;
        let mut i = self.position;
        let mut too_long: Option<usize> = None;
        loop {
            // At the start of a field.
            let field = record.fields.len();
            let keep = too_long.is_none() && i - record_start <= MAX_RECORD_BYTES;
            let start = record.scratch.len();
            let mut kept = Kept { scratch: &mut record.scratch, start, over: !keep };
            if i < source.len() && source[i] == b'"' {
                i += 1;
                loop {
                    let Some(offset) = memchr::memchr2(b'"', b'\n', &source[i..]) else {
                        self.position = source.len();
                        return Err(TokenError::UnclosedQuote);
                    };
                    kept.push(&source[i..i + offset]);
                    i += offset;
                    if source[i] == b'\n' {
                        self.lines += 1;
                        kept.push(b"\n");
                        i += 1;
                    } else if source.get(i + 1) == Some(&b'"') {
                        kept.push(b"\"");
                        i += 2;
                    } else {
                        i += 1;
                        break;
                    }
                }
                // Text between the closing quote and the separator is kept, as most readers do.
                let end = i + source[i..].iter().position(|b| matches!(b, b',' | b'\n' | b'\r')).unwrap_or(source.len() - i);
                kept.push(&source[i..end]);
                i = end;
            } else {
                let end = i + memchr::memchr2(b',', b'\n', &source[i..]).unwrap_or(source.len() - i);
                let text = &source[i..end];
                // A CR before the line's end belongs to a CRLF; before a comma it is text.
                let at_line_end = end == source.len() || source[end] == b'\n';
                kept.push(if at_line_end { text.strip_suffix(b"\r").unwrap_or(text) } else { text });
                i = end;
            }
            let over = kept.over;
            if keep && over {
                too_long = Some(field);
            }
            if !over {
                record.fields.push(FieldSpan { in_scratch: true, start, end: record.scratch.len() });
            }
            if i < source.len() && source[i] == b',' {
                i += 1;
                continue;
            }
            let record_end = i;
            if i < source.len() {
                if source[i] == b'\r' && source.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                i += 1;
            }
            self.lines += 1;
            self.position = i;
            if let Some(field) = too_long {
                record.fields.clear();
                return Err(TokenError::FieldTooLong { field });
            }
            if record_end - record_start > MAX_RECORD_BYTES {
                record.fields.clear();
                return Err(TokenError::RecordTooLong { bytes: record_end - record_start });
            }
            return Ok(());
        }
    }
}

/// The bytes of one quoted-path field as they are unescaped, up to [`MAX_FIELD_BYTES`]: past it
/// the field is `over` and nothing more is kept.
struct Kept<'a> {
    scratch: &'a mut Vec<u8>,
    start: usize,
    over: bool,
}

impl Kept<'_> {
    #[inline]
    fn push(&mut self, bytes: &[u8]) {
        if self.over {
            return;
        }
        if self.scratch.len() - self.start + bytes.len() > MAX_FIELD_BYTES {
            self.scratch.truncate(self.start);
            self.over = true;
            return;
        }
        self.scratch.extend_from_slice(bytes);
    }
}

/// What is wrong with a record that starts `prefix` and goes on past [`MAX_RECORD_BYTES`]
/// (a reader that streams a file stops keeping it there): its first field over
/// [`MAX_FIELD_BYTES`] (quote-aware, in the raw bytes), else the record's own length, `bytes`.
pub fn overlong_record(prefix: &[u8], bytes: usize) -> TokenError {
    let mut in_quotes = false;
    let mut field = 0;
    let mut field_start = 0;
    for (i, &byte) in prefix.iter().enumerate() {
        match byte {
            b'"' => in_quotes = !in_quotes,
            b',' if !in_quotes => {
                if i - field_start > MAX_FIELD_BYTES {
                    return TokenError::FieldTooLong { field };
                }
                field += 1;
                field_start = i + 1;
            }
            _ => {}
        }
    }
    if prefix.len() - field_start > MAX_FIELD_BYTES {
        return TokenError::FieldTooLong { field };
    }
    TokenError::RecordTooLong { bytes }
}

/// A CSV file split into its header and body.
pub struct HeaderAndBody<'a> {
    pub columns: Vec<String>,
    pub body: &'a [u8],
    /// Physical lines the header took (1 unless a quoted name spans lines).
    pub header_lines: u64,
}

const CR_ALONE: &str =
    "the header holds a carriage return: the lines seem to end in CR alone (old Mac style); save the file with LF or CRLF line ends";

/// Strips a UTF-8 BOM and reads the header row. Column names are trimmed.
pub fn split_header<'a>(file: &str, bytes: &'a [u8]) -> Result<HeaderAndBody<'a>, DataError> {
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(DataError::file(file, "is empty: expected a header row and data rows"));
    }
    // A file whose lines end in CR alone is one giant line: say so before it is a record too long.
    let first_line = &bytes[..memchr(b'\n', bytes).unwrap_or(bytes.len()).min(MAX_RECORD_BYTES + 1)];
    if first_line.len() > MAX_RECORD_BYTES && memchr::memchr_iter(b'\r', first_line).any(|at| first_line.get(at + 1) != Some(&b'\n')) {
        return Err(DataError::line(file, 1, CR_ALONE));
    }
    let mut records = Records::new(bytes);
    let mut record = Record::default();
    match records.next_into(&mut record) {
        Ok(true) => {}
        Ok(false) => return Err(DataError::file(file, "is empty: expected a header row")),
        Err(error) => {
            return Err(match error.field() {
                Some(field) => DataError::field(file, 1, field + 1, "header", error.to_string()),
                None => DataError::line(file, 1, error.to_string()),
            })
        }
    }
    let mut columns = Vec::with_capacity(record.len());
    for index in 0..record.len() {
        if memchr(b'\r', record.get(bytes, index)).is_some() {
            // Else every line of such a file would be read as one giant header row.
            return Err(DataError::line(file, 1, CR_ALONE));
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

/// A field as the dataset's tables write it: quoted only when it must be (a comma, a quote or a
/// line break), a quote doubled, as the tokenizer above reads it back.
pub fn field(value: &str) -> String {
    if value.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value.to_string()
    }
}

/// One record of fields, each written by [`field`], ended by a newline.
pub fn line<S: AsRef<str>>(fields: &[S]) -> String {
    let mut line = fields.iter().map(|f| field(f.as_ref())).collect::<Vec<_>>().join(",");
    line.push('\n');
    line
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
    fn written_fields_quote_only_what_must_be_and_read_back_as_written() {
        assert_eq!(field("plain"), "plain");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("two\nlines"), "\"two\nlines\"");
        let fields = ["r01", "a,b", "say \"hi\"", "two\r\nlines", ""];
        let text = line(&fields);
        assert_eq!(text, "r01,\"a,b\",\"say \"\"hi\"\"\",\"two\r\nlines\",\n");
        assert_eq!(all_records(text.as_bytes()), [(1, fields.iter().map(|f| f.to_string()).collect::<Vec<_>>())]);
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
        assert_eq!(error, TokenError::UnclosedQuote);
        assert_eq!(error.to_string(), "a quote in this record is never closed");
    }

    /// Reads every record, errors included, as (line, fields or the error).
    fn records_and_errors(text: &[u8]) -> Vec<(u64, Result<Vec<String>, TokenError>)> {
        let mut records = Records::new(text);
        let mut record = Record::default();
        let mut out = Vec::new();
        loop {
            match records.next_into(&mut record) {
                Ok(false) => break,
                Ok(true) => out.push((
                    record.line,
                    Ok((0..record.len()).map(|i| String::from_utf8_lossy(record.get(text, i)).into_owned()).collect()),
                )),
                Err(error) => {
                    let stop = error.is_final();
                    out.push((record.line, Err(error)));
                    if stop {
                        break;
                    }
                }
            }
        }
        out
    }

    #[test]
    fn a_field_over_the_limit_is_an_error_at_its_field_and_reading_goes_on() {
        let long = "7".repeat(MAX_FIELD_BYTES + 1);
        let fits = "7".repeat(MAX_FIELD_BYTES);
        for text in [format!("a,{long},c\nb,1,2\n"), format!("a,\"{long}\",c\nb,1,2\n"), format!("\"a\",{long}\nb,1,2\n")] {
            let got = records_and_errors(text.as_bytes());
            assert_eq!(got[0], (1, Err(TokenError::FieldTooLong { field: 1 })), "{}", &text[..20]);
            assert_eq!(got[1], (2, Ok(vec!["b".into(), "1".into(), "2".into()])));
        }
        let got = records_and_errors(format!("a,{fits}\n").as_bytes());
        assert_eq!(got[0].1.as_ref().map(|f| f[1].len()), Ok(MAX_FIELD_BYTES), "a field at the limit is read");
    }

    #[test]
    fn a_quoted_field_over_the_limit_across_lines_keeps_the_line_count() {
        let long = "x\n".repeat(MAX_FIELD_BYTES);
        let text = format!("a,\"{long}\",c\nb\n");
        let got = records_and_errors(text.as_bytes());
        assert_eq!(got[0], (1, Err(TokenError::FieldTooLong { field: 1 })));
        assert_eq!(got[1], (MAX_FIELD_BYTES as u64 + 2, Ok(vec!["b".into()])));
    }

    #[test]
    fn a_record_over_the_limit_is_an_error_and_reading_goes_on() {
        let many = "1,".repeat(MAX_RECORD_BYTES / 2 + 1);
        for text in [format!("{many}z\nb\n"), format!("\"q\",{many}z\nb\n")] {
            let got = records_and_errors(text.as_bytes());
            // The record's bytes without its line end: the fields, the commas and the quotes.
            let bytes = text.find('\n').unwrap();
            assert_eq!(got[0], (1, Err(TokenError::RecordTooLong { bytes })));
            assert_eq!(got[1], (2, Ok(vec!["b".into()])));
        }
    }

    #[test]
    fn an_overlong_record_seen_in_part_is_named_by_its_first_long_field() {
        let long = "7".repeat(MAX_FIELD_BYTES + 1);
        assert_eq!(overlong_record(format!("a,b,{long}").as_bytes(), 9), TokenError::FieldTooLong { field: 2 });
        assert_eq!(overlong_record(format!("a,\"b,{long}\",c").as_bytes(), 9), TokenError::FieldTooLong { field: 1 });
        assert_eq!(overlong_record("1,".repeat(1000).as_bytes(), 9), TokenError::RecordTooLong { bytes: 9 });
    }

    #[test]
    fn a_header_field_over_the_limit_names_its_place() {
        let error = split_header("t.csv", format!("a,{}\n1,2\n", "b".repeat(MAX_FIELD_BYTES + 1)).as_bytes()).err().unwrap();
        assert!(error.to_string().starts_with("t.csv:1:2: header: the field is longer than 65536 bytes"), "{error}");
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
