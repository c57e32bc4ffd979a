//! Reading the tools' text: lines with their numbers, `Key: value` lines, comma-separated fields
//! with their columns, numbers with the units the tools print. Every failure names line and column.

use super::error::ImportError;
use std::borrow::Cow;

/// What an error on the last line says when the text does not end with a newline.
const CUT_SHORT: &str = " (the file ends without a newline: is it truncated?)";

/// The lines of a text with their 1-based numbers, a trailing `\r` removed: how every reader
/// here numbers lines.
fn numbered(text: &str) -> impl Iterator<Item = (u64, &str)> {
    text.lines().enumerate().map(|(i, l)| (i as u64 + 1, l.strip_suffix('\r').unwrap_or(l)))
}

/// A file's text, split into lines that remember their 1-based number.
pub struct Lines<'a> {
    pub file: &'a str,
    pub lines: Vec<(u64, &'a str)>,
    /// The text did not end with a newline: the last line may be cut short.
    pub unterminated: bool,
}

impl<'a> Lines<'a> {
    pub fn new(file: &'a str, text: &'a str) -> Self {
        Lines::starting_at(file, text, 1)
    }

    /// The lines of a block of a file whose first line is line `first_line` of the file.
    pub fn starting_at(file: &'a str, text: &'a str, first_line: u64) -> Self {
        let unterminated = !text.is_empty() && !text.ends_with('\n');
        let lines = numbered(text).map(|(n, l)| (n + first_line - 1, l)).collect();
        Lines { file, lines, unterminated }
    }

    /// The place of a line and column of this file.
    pub fn place(&self, line: u64, column: u64) -> super::reported::Place {
        super::reported::Place::new(self.file, line, column)
    }

    /// A printed value's first word as a number times 10^`shift`, with its place and the step
    /// of its printed digits in the shifted unit.
    pub fn printed(&self, at: (u64, u64, &str), shift: i32) -> Result<super::reported::Printed, ImportError> {
        let value = self.shifted(at, shift)?;
        let word = at.2.split_whitespace().next().unwrap_or("");
        Ok(super::reported::Printed::new(value, step_of(word) * 10f64.powi(shift), self.place(at.0, at.1)))
    }

    /// A printed count with its place.
    pub fn counted(&self, at: (u64, u64, &str)) -> Result<super::reported::Count, ImportError> {
        Ok(super::reported::Count::new(self.count(at)?, self.place(at.0, at.1)))
    }

    /// The error for a line whose content does not fit, with a hint when it is the cut-short last line.
    pub fn bad(&self, line: u64, column: u64, message: impl Into<String>) -> ImportError {
        let mut message = message.into();
        if self.unterminated && self.lines.last().is_some_and(|(n, _)| *n == line) {
            message.push_str(CUT_SHORT);
        }
        ImportError::at(self.file, line, column, message)
    }

    /// The first line starting (after indentation) with `key`, with the text after it trimmed
    /// and the column where that text starts.
    pub fn value_after(&self, key: &str) -> Option<(u64, u64, &'a str)> {
        self.lines.iter().find_map(|&(n, line)| {
            let trimmed = line.trim_start();
            let rest = trimmed.strip_prefix(key)?;
            let value = rest.trim_start();
            let column = (line.len() - value.len()) as u64 + 1;
            Some((n, column, value.trim_end()))
        })
    }

    /// Like [`Lines::value_after`] but the key is required.
    pub fn require(&self, key: &str, what: &str) -> Result<(u64, u64, &'a str), ImportError> {
        self.value_after(key).ok_or_else(|| {
            let last = self.lines.last().map_or(1, |(n, _)| *n);
            ImportError::at(self.file, last, 1, format!("no `{}` line: {what} (is the file complete?)", key.trim()))
        })
    }

    /// The first word of a value times 10^`shift`.
    pub fn shifted(&self, (line, column, value): (u64, u64, &str), shift: i32) -> Result<f64, ImportError> {
        let word = value.split_whitespace().next().unwrap_or("");
        parse_shifted(word, shift).ok_or_else(|| self.bad(line, column, format!("{word:?} is not a number")))
    }

    pub fn count(&self, at: (u64, u64, &str)) -> Result<u64, ImportError> {
        let (line, column, value) = at;
        let word = value.split_whitespace().next().unwrap_or("");
        word.parse::<u64>().map_err(|_| self.bad(line, column, format!("{word:?} is not a count")))
    }
}

/// A finite number in plain decimal notation (what the tools print); `None` otherwise.
pub fn parse_number(word: &str) -> Option<f64> {
    let ok = !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'));
    word.parse::<f64>().ok().filter(|v| ok && v.is_finite())
}

/// A decimal number times 10^`shift` (shift may be negative), done on the digits so that
/// `0.0038` s becomes exactly the double nearest 3.8 ms, not 3.8000000000000003.
pub fn parse_shifted(word: &str, shift: i32) -> Option<f64> {
    shifted_plain(word.as_bytes(), shift).or_else(|| shifted_text(word, shift))
}

/// [`parse_shifted`] by moving the decimal point in the text and parsing the result.
fn shifted_text(word: &str, shift: i32) -> Option<f64> {
    parse_number(word)?;
    if word.contains(['e', 'E']) {
        return parse_number(word).map(|v| v * 10f64.powi(shift));
    }
    let (sign, digits) = match word.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", word.strip_prefix('+').unwrap_or(word)),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let all = format!("{whole}{fraction}");
    let point = whole.len() as i64 + i64::from(shift);
    let text = if point <= 0 {
        format!("{sign}0.{}{all}", "0".repeat((-point) as usize))
    } else if point as usize >= all.len() {
        format!("{sign}{all}{}", "0".repeat(point as usize - all.len()))
    } else {
        format!("{sign}{}.{}", &all[..point as usize], &all[point as usize..])
    };
    text.parse().ok()
}

/// [`parse_shifted`] of a plain decimal (`-?digits(.digits)?`, at most 15 digits) without building
/// a string: the digits are an integer below 2^53 and the shifted power of ten is exact (at most
/// 10^22), so one IEEE multiplication or division rounds the decimal correctly, exactly as
/// `str::parse` of the shifted text does (Clinger's fast path; see dataset/number.rs). `None` for
/// anything else, which the general path then reads.
fn shifted_plain(word: &[u8], shift: i32) -> Option<f64> {
    use crate::dataset::number::POWERS_OF_TEN;
    let (negative, digits) = match word.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, word),
    };
    let (whole, fraction) = match memchr::memchr(b'.', digits) {
        Some(point) => (&digits[..point], &digits[point + 1..]),
        None => (digits, &[][..]),
    };
    if whole.is_empty() || (fraction.is_empty() && whole.len() < digits.len()) || whole.len() + fraction.len() > 15 {
        return None;
    }
    let mut mantissa: u64 = 0;
    for &byte in whole.iter().chain(fraction) {
        if !byte.is_ascii_digit() {
            return None;
        }
        mantissa = mantissa * 10 + u64::from(byte - b'0');
    }
    let exponent = shift - fraction.len() as i32;
    let power = *POWERS_OF_TEN.get(exponent.unsigned_abs() as usize)?;
    let value = if exponent >= 0 { mantissa as f64 * power } else { mantissa as f64 / power };
    Some(if negative { -value } else { value })
}

/// An RFC 3339 time (`2017-05-09T14:34:45.625742514+02:00`, `...Z`) as Unix nanoseconds, read
/// by the dataset's one RFC 3339 parser: exact, so the same instant given in Unix ns elsewhere is
/// the same integer.
pub fn rfc3339_unix_ns(text: &str) -> Option<i64> {
    let instant = crate::dataset::time::parse_rfc3339(text)?;
    instant.unix_seconds.checked_mul(1_000_000_000)?.checked_add(i64::from(instant.nanos))
}

/// Unix nanoseconds as an RFC 3339 UTC time to the second (`2026-11-30T04:42:28Z`), the form
/// of runs.csv `started_at_utc`.
pub fn unix_ns_to_rfc3339(ns: i64) -> String {
    crate::dataset::time::Instant { unix_seconds: ns.div_euclid(1_000_000_000), nanos: 0 }.utc_rfc3339_seconds()
}

/// The earliest and the latest Unix time (ns) a tool's record of a run may carry: 2000-01-01 and
/// 2100-01-01. A timestamp outside is a unit mistake or a damaged file, never a run (a vegeta
/// timestamp of 0 would otherwise make a run 57 years long).
pub const PLAUSIBLE_UNIX_NS: std::ops::Range<i64> = 946_684_800_000_000_000..4_102_444_800_000_000_000;

/// Why a Unix time (ns) is refused, or `None` when it is plausible.
pub fn implausible_unix_ns(ns: i64) -> Option<String> {
    (!PLAUSIBLE_UNIX_NS.contains(&ns)).then(|| {
        format!(
            "{} is not a plausible time of a run (before 2000 or after 2100): a unit mistake or a damaged file?",
            unix_ns_to_rfc3339(ns)
        )
    })
}

/// A decimal of at most 9 fraction digits times 10^`shift`, as a whole number of nanoseconds
/// when `shift` makes the unit seconds (9), milliseconds (6) or microseconds (3): `0.0008` s is
/// exactly 800000 ns. `None` for anything else or a value beyond i64.
pub fn decimal_ns(word: &str, shift: u32) -> Option<i64> {
    let (negative, digits) = match word.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, word),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    if whole.is_empty() && fraction.is_empty() || fraction.len() as u32 > shift {
        return None;
    }
    if !whole.bytes().chain(fraction.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let whole: i64 = if whole.is_empty() { 0 } else { whole.parse().ok()? };
    let fraction_value: i64 = if fraction.is_empty() { 0 } else { fraction.parse().ok()? };
    let scale = 10i64.checked_pow(shift)?;
    let fraction_scale = 10i64.checked_pow(shift - fraction.len() as u32)?;
    let value = whole.checked_mul(scale)?.checked_add(fraction_value.checked_mul(fraction_scale)?)?;
    Some(if negative { -value } else { value })
}

/// The printed resolution of a plain decimal word: 10^-(digits after the point), 1 for a whole
/// number (`0.0038` → 0.0001).
pub fn step_of(word: &str) -> f64 {
    match word.split_once('.') {
        Some((_, fraction)) => 10f64.powi(-(fraction.bytes().take_while(u8::is_ascii_digit).count() as i32)),
        None => 1.0,
    }
}

/// A duration as wrk prints it (`79.00us`, `1.23ms`, `2.00s`, `1.50m`, `1.00h`), in milliseconds,
/// with the step of its printed digits in ms (`1.23ms` → 0.01).
pub fn duration_ms(word: &str) -> Option<(f64, f64)> {
    let split = word.find(|c: char| c.is_ascii_alphabetic())?;
    let (number, unit) = word.split_at(split);
    let (value, unit_ms) = match unit {
        "us" => (parse_shifted(number, -3)?, 0.001),
        "ms" => (parse_shifted(number, 0)?, 1.0),
        "s" => (parse_shifted(number, 3)?, 1000.0),
        "m" => (parse_number(number)? * 60_000.0, 60_000.0),
        "h" => (parse_number(number)? * 3_600_000.0, 3_600_000.0),
        _ => return None,
    };
    Some((value, step_of(number) * unit_ms))
}

/// One CSV line split into fields, each with its 1-based column. Double quotes may wrap a field
/// (with `""` inside); a line may not hold a newline inside quotes (no tool here writes one).
pub fn split_csv(line: &str, separator: u8) -> Result<Vec<(u64, String)>, (u64, String)> {
    let bytes = line.as_bytes();
    let mut fields = Vec::new();
    let mut i = 0;
    loop {
        let start = i;
        let mut value = String::new();
        if bytes.get(i) == Some(&b'"') {
            i += 1;
            loop {
                match bytes.get(i) {
                    None => return Err((start as u64 + 1, "a quoted field is not closed".into())),
                    Some(b'"') if bytes.get(i + 1) == Some(&b'"') => {
                        value.push('"');
                        i += 2;
                    }
                    Some(b'"') => {
                        i += 1;
                        break;
                    }
                    Some(_) => {
                        let ch = line[i..].chars().next().expect("in bounds");
                        value.push(ch);
                        i += ch.len_utf8();
                    }
                }
            }
            if i < bytes.len() && bytes[i] != separator {
                return Err((i as u64 + 1, "text after a closing quote".into()));
            }
        } else {
            let end = bytes[i..].iter().position(|&b| b == separator).map_or(bytes.len(), |p| i + p);
            value.push_str(&line[i..end]);
            i = end;
        }
        fields.push((start as u64 + 1, value));
        if i >= bytes.len() {
            return Ok(fields);
        }
        i += 1;
    }
}

/// A data row of a CSV file: its line and its fields, each with its column.
pub type CsvRow = (u64, Vec<(u64, String)>);

/// A CSV file with a header: the column names and every data row with its line number.
pub struct Csv<'a> {
    pub lines: Lines<'a>,
    pub header: Vec<String>,
    pub rows: Vec<CsvRow>,
}

impl<'a> Csv<'a> {
    /// Parses a whole CSV file; every row must have the header's number of fields.
    pub fn parse(file: &'a str, text: &'a str, separator: u8) -> Result<Csv<'a>, ImportError> {
        let lines = Lines::new(file, text);
        let Some(&(header_line, header_text)) = lines.lines.first() else {
            return Err(ImportError::file(file, "is empty"));
        };
        let header: Vec<String> = split_csv(header_text.trim_start_matches('\u{feff}'), separator)
            .map_err(|(column, message)| lines.bad(header_line, column, message))?
            .into_iter()
            .map(|(_, name)| name.trim().to_string())
            .collect();
        Csv::rows(lines, header, 1, separator)
    }

    /// A later block of a CSV file read a block at a time ([`super::stream::Blocks`]): whole
    /// lines after the header, the first of them line `first_line` of the file.
    pub fn block(file: &'a str, header: Vec<String>, text: &'a str, first_line: u64, separator: u8) -> Result<Csv<'a>, ImportError> {
        Csv::rows(Lines::starting_at(file, text, first_line), header, 0, separator)
    }

    fn rows(lines: Lines<'a>, header: Vec<String>, skip: usize, separator: u8) -> Result<Csv<'a>, ImportError> {
        let mut rows = Vec::with_capacity(lines.lines.len());
        for &(n, line) in &lines.lines[skip.min(lines.lines.len())..] {
            if line.trim().is_empty() {
                continue;
            }
            let fields = split_csv(line, separator).map_err(|(column, message)| lines.bad(n, column, message))?;
            if fields.len() != header.len() {
                let column = fields.last().map_or(1, |(c, v)| c + v.len() as u64);
                return Err(lines.bad(n, column, format!("{} fields where the header has {}", fields.len(), header.len())));
            }
            rows.push((n, fields));
        }
        Ok(Csv { lines, header, rows })
    }

    /// The index of a required column.
    pub fn column(&self, name: &str) -> Result<usize, ImportError> {
        self.header.iter().position(|h| h == name).ok_or_else(|| {
            ImportError::at(self.lines.file, 1, 1, format!("no `{name}` column (the header has: {})", self.header.join(", ")))
        })
    }

    /// A cell as a finite number.
    pub fn number(&self, row: &CsvRow, column: usize) -> Result<f64, ImportError> {
        let (column_at, text) = &row.1[column];
        parse_number(text.trim()).ok_or_else(|| self.lines.bad(row.0, *column_at, not_a_number(&self.header[column], text)))
    }

    /// A cell as a non-negative integer.
    pub fn count(&self, row: &CsvRow, column: usize) -> Result<u64, ImportError> {
        let (column_at, text) = &row.1[column];
        count_cell(text).ok_or_else(|| self.lines.bad(row.0, *column_at, not_a_count(&self.header[column], text)))
    }
}

/// A cell as a non-negative integer, surrounding spaces allowed.
fn count_cell(text: &str) -> Option<u64> {
    trim_cell(text).parse::<u64>().ok()
}

/// `text.trim()`, without looking at characters when both ends are visible ASCII (nearly always).
fn trim_cell(text: &str) -> &str {
    let bytes = text.as_bytes();
    match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) if first.is_ascii_graphic() && last.is_ascii_graphic() => text,
        _ => text.trim(),
    }
}

fn not_a_number(column: &str, text: &str) -> String {
    format!("{column}: {text:?} is not a number")
}

fn not_a_count(column: &str, text: &str) -> String {
    format!("{column}: {text:?} is not a whole number")
}

/// The fields of one CSV line, each with its 1-based column; borrowed from the text unless quoted.
pub type Fields<'a> = Vec<(u64, Cow<'a, str>)>;

/// A CSV file of one row per request, read one line at a time: the header, field and error rules
/// of [`Csv::parse`], but no line or field is kept, and a line without quotes is split in place
/// rather than copied field by field, so a file of ten million rows costs no allocation per row.
pub struct CsvStream<'a> {
    pub file: &'a str,
    text: &'a str,
    pub header: Vec<String>,
    separator: u8,
    /// The file's line number of the text's first line.
    first_line: u64,
    /// Whether the text starts with the header (the file's first block).
    with_header: bool,
}

impl<'a> CsvStream<'a> {
    /// Reads the header; every data row must later have its number of fields.
    pub fn new(file: &'a str, text: &'a str, separator: u8) -> Result<Self, ImportError> {
        let mut stream = CsvStream { file, text, header: Vec::new(), separator, first_line: 1, with_header: true };
        let Some((header_line, header_text)) = numbered(text).next() else {
            return Err(ImportError::file(file, "is empty"));
        };
        stream.header = split_csv(header_text.trim_start_matches('\u{feff}'), separator)
            .map_err(|(column, message)| stream.bad(header_line, column, message))?
            .into_iter()
            .map(|(_, name)| name.trim().to_string())
            .collect();
        Ok(stream)
    }

    /// A later block of the same file: whole lines after the header, the first of them line
    /// `first_line` of the file.
    pub fn block(file: &'a str, header: Vec<String>, text: &'a str, first_line: u64, separator: u8) -> Self {
        CsvStream { file, text, header, separator, first_line, with_header: false }
    }

    /// The index of a required column.
    pub fn column(&self, name: &str) -> Result<usize, ImportError> {
        self.header
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| ImportError::at(self.file, 1, 1, format!("no `{name}` column (the header has: {})", self.header.join(", "))))
    }

    /// The error for a line whose content does not fit, with [`Lines::bad`]'s hint when it is the
    /// cut-short last line (found by counting lines only when there is an error).
    pub fn bad(&self, line: u64, column: u64, message: impl Into<String>) -> ImportError {
        let mut message = message.into();
        let unterminated = !self.text.is_empty() && !self.text.ends_with('\n');
        if unterminated && numbered(self.text).last().is_some_and(|(n, _)| n + self.first_line - 1 == line) {
            message.push_str(CUT_SHORT);
        }
        ImportError::at(self.file, line, column, message)
    }

    /// Calls `row` with the number and fields of every data line that is not blank, in order;
    /// stops at the first error.
    pub fn for_each_row(&self, mut row: impl FnMut(u64, &[(u64, Cow<'a, str>)]) -> Result<(), ImportError>) -> Result<(), ImportError> {
        let mut fields: Fields<'a> = Vec::with_capacity(self.header.len());
        let offset = self.first_line - 1;
        for (n, line) in numbered(self.text).skip(usize::from(self.with_header)) {
            let n = n + offset;
            // A line starting with a visible ASCII character is not blank; only others are trimmed.
            if !line.as_bytes().first().is_some_and(u8::is_ascii_graphic) && line.trim().is_empty() {
                continue;
            }
            fields.clear();
            // One pass: split at separators, unless a quote shows that split_csv must read the line.
            let mut start = 0;
            let mut quoted = false;
            for (i, &byte) in line.as_bytes().iter().enumerate() {
                if byte == self.separator {
                    fields.push((start as u64 + 1, Cow::Borrowed(&line[start..i])));
                    start = i + 1;
                } else if byte == b'"' {
                    quoted = true;
                    break;
                }
            }
            if quoted {
                fields.clear();
                let split = split_csv(line, self.separator).map_err(|(column, message)| self.bad(n, column, message))?;
                fields.extend(split.into_iter().map(|(column, value)| (column, Cow::Owned(value))));
            } else {
                fields.push((start as u64 + 1, Cow::Borrowed(&line[start..])));
            }
            if fields.len() != self.header.len() {
                let column = fields.last().map_or(1, |(c, v)| c + v.len() as u64);
                return Err(self.bad(n, column, format!("{} fields where the header has {}", fields.len(), self.header.len())));
            }
            row(n, &fields)?;
        }
        Ok(())
    }

    /// A cell as a number times 10^`shift` (seconds to ms: 3; ns to ms: -6).
    pub fn shifted(&self, line: u64, fields: &[(u64, Cow<str>)], column: usize, shift: i32) -> Result<f64, ImportError> {
        let (column_at, text) = &fields[column];
        parse_shifted(trim_cell(text), shift).ok_or_else(|| self.bad(line, *column_at, not_a_number(&self.header[column], text)))
    }

    /// A cell as a non-negative integer, as [`Csv::count`].
    pub fn count(&self, line: u64, fields: &[(u64, Cow<str>)], column: usize) -> Result<u64, ImportError> {
        let (column_at, text) = &fields[column];
        count_cell(text).ok_or_else(|| self.bad(line, *column_at, not_a_count(&self.header[column], text)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrk_units_become_milliseconds() {
        assert_eq!(duration_ms("79.00us").map(|d| d.0), Some(0.079));
        assert_eq!(duration_ms("1.23ms"), Some((1.23, 0.01)));
        assert_eq!(duration_ms("2.00s").map(|d| d.0), Some(2000.0));
        assert_eq!(duration_ms("1.50m").map(|d| d.0), Some(90_000.0));
        assert_eq!(duration_ms("3ns"), None);
    }

    #[test]
    fn rfc3339_times_round_trip_through_unix_ns() {
        assert_eq!(rfc3339_unix_ns("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(rfc3339_unix_ns("2017-05-09T14:34:45.625742514+02:00"), Some(1_494_333_285_625_742_514));
        assert_eq!(unix_ns_to_rfc3339(1_494_333_285_625_742_514), "2017-05-09T12:34:45Z");
        assert_eq!(unix_ns_to_rfc3339(1_796_049_880_000_000_000), "2026-11-30T14:44:40Z");
        assert_eq!(rfc3339_unix_ns("2026-13-30T14:44:40Z"), None);
        assert_eq!(rfc3339_unix_ns("yesterday"), None);
    }

    #[test]
    fn decimals_become_exact_nanoseconds() {
        assert_eq!(decimal_ns("0.0008", 9), Some(800_000));
        assert_eq!(decimal_ns("1796049880", 9), Some(1_796_049_880_000_000_000));
        assert_eq!(decimal_ns("12.5", 6), Some(12_500_000));
        assert_eq!(decimal_ns("0.1234567891", 9), None, "finer than a nanosecond");
        assert_eq!(decimal_ns("1e3", 9), None);
        assert_eq!(decimal_ns("99999999999999999999", 9), None);
        assert!(implausible_unix_ns(0).is_some());
        assert!(implausible_unix_ns(1_796_049_880_000_000_000).is_none());
    }

    #[test]
    fn shifting_is_exact_on_the_digits() {
        assert_eq!(parse_shifted("0.0038", 3), Some(3.8));
        assert_eq!(parse_shifted("1234567", -6), Some(1.234567));
        assert_eq!(parse_shifted("12", 3), Some(12000.0));
        assert_eq!(parse_shifted("-0.5", 1), Some(-5.0));
        assert_eq!(parse_shifted("abc", 3), None);
    }

    proptest::proptest! {
        #[test]
        fn plain_decimals_shift_as_the_text_does(whole in 0u64..100_000_000, fraction in 0u64..10_000_000, places in 0usize..8, negative: bool, shift in -9i32..9) {
            let sign = if negative { "-" } else { "" };
            let word = if places == 0 { format!("{sign}{whole}") } else { format!("{sign}{whole}.{:0places$}", fraction % 10u64.pow(places as u32)) };
            proptest::prop_assert_eq!(parse_shifted(&word, shift).map(f64::to_bits), shifted_text(&word, shift).map(f64::to_bits), "{}", word);
        }
    }

    #[test]
    fn words_the_fast_path_leaves_to_the_text_path() {
        for word in ["5.", ".5", "+5", "1e3", "-", "", "1.2.3", "0.00000000000000000001", "12345678901234567"] {
            assert_eq!(parse_shifted(word, 3).map(f64::to_bits), shifted_text(word, 3).map(f64::to_bits), "{word}");
        }
    }

    #[test]
    fn streamed_rows_and_errors_are_those_of_the_whole_file_parse() {
        let text = "a,b,c\r\n1,\"x, \"\"y\"\"\",3\n\n  \n4, 5 ,6\r\n";
        let whole = Csv::parse("f.csv", text, b',').unwrap();
        let stream = CsvStream::new("f.csv", text, b',').unwrap();
        assert_eq!(stream.header, whole.header);
        let mut rows = Vec::new();
        stream
            .for_each_row(|n, fields| {
                rows.push((n, fields.iter().map(|(c, v)| (*c, v.to_string())).collect::<Vec<_>>()));
                Ok(())
            })
            .unwrap();
        assert_eq!(rows, whole.rows);
        for bad in ["a,b\n1,2\n3\n", "a,b\n1,2\n1,\"open\n", "a,b\n1,2\n1,2,3"] {
            let whole = Csv::parse("f.csv", bad, b',').err().unwrap();
            let streamed = CsvStream::new("f.csv", bad, b',').unwrap().for_each_row(|_, _| Ok(())).err().unwrap();
            assert_eq!(streamed, whole, "{bad:?}");
        }
    }

    #[test]
    fn quoted_fields_keep_their_commas_and_columns() {
        let fields = split_csv("1,\"a, \"\"b\"\"\",c", b',').unwrap();
        assert_eq!(fields, vec![(1, "1".into()), (3, "a, \"b\"".into()), (14, "c".into())]);
        assert_eq!(split_csv("1,\"open", b','), Err((3, "a quoted field is not closed".into())));
    }
}
