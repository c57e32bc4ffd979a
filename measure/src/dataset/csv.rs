//! The CSV dialect of the dataset, through the `csv` crate: comma separated, a header row, `\n` line ends,
//! a field quoted only when it holds a comma, a quote or a line break (quotes doubled inside), as `analyze`
//! reads it. Reading (for `--resume`) also accepts CRLF line ends and a UTF-8 byte order mark, and
//! refuses a file that ends inside a quoted field, which the `csv` crate reads without a word.

/// A table that cannot be written or read back, with the 1-based line of the record and, where one
/// field is at fault, its 1-based column.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("line {line}: {message}")]
pub struct CsvError {
    pub line: u64,
    pub column: Option<u64>,
    pub message: String,
}

impl CsvError {
    fn from_csv(e: &::csv::Error, fallback_line: u64) -> CsvError {
        let line = e.position().map_or(fallback_line, ::csv::Position::line);
        let message = match e.kind() {
            ::csv::ErrorKind::UnequalLengths { expected_len, len, .. } => format!("{len} fields, the header has {expected_len}"),
            _ => e.to_string(),
        };
        CsvError { line, column: None, message }
    }
}

/// Renders a table; every row must have the header's width (a row that does not is measure's bug, refused).
pub fn render<H: AsRef<str>, S: AsRef<str>>(header: &[H], rows: &[Vec<S>]) -> Result<String, CsvError> {
    let mut writer = ::csv::WriterBuilder::new()
        .terminator(::csv::Terminator::Any(b'\n'))
        .quote_style(::csv::QuoteStyle::Necessary)
        .from_writer(Vec::new());
    writer.write_record(header.iter().map(|h| h.as_ref())).map_err(|e| CsvError::from_csv(&e, 1))?;
    for (i, row) in rows.iter().enumerate() {
        let line = i as u64 + 2;
        writer.write_record(row.iter().map(|c| c.as_ref())).map_err(|e| CsvError::from_csv(&e, line))?;
    }
    let bytes = writer.into_inner().map_err(|e| CsvError { line: 0, column: None, message: e.to_string() })?;
    String::from_utf8(bytes).map_err(|e| CsvError { line: 0, column: None, message: e.to_string() })
}

/// Parses a table into its header and rows; every row must have the header's width.
pub fn parse(text: &str) -> Result<(Vec<String>, Vec<Vec<String>>), CsvError> {
    if let Some((line, column)) = unclosed_quote(text) {
        let message = "a quoted field opens here and no quote closes it (the file ends inside it: cut short?)".into();
        return Err(CsvError { line, column: Some(column), message });
    }
    let mut reader = ::csv::ReaderBuilder::new().has_headers(true).flexible(false).from_reader(text.as_bytes());
    let header: Vec<String> = reader.headers().map_err(|e| CsvError::from_csv(&e, 1))?.iter().map(str::to_owned).collect();
    if header.is_empty() || header == [""] {
        return Err(CsvError { line: 1, column: None, message: "no header row".into() });
    }
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| CsvError::from_csv(&e, 0))?;
        rows.push(record.iter().map(str::to_owned).collect());
    }
    Ok((header, rows))
}

/// The line and column (field) where a quoted field opens that no quote closes. The `csv` crate
/// reads such a field to the end of the file and returns it as whole, so a table cut short inside a
/// quoted note would be resumed as if nothing were missing. Quotes count only at the start of a
/// field, as the crate reads them; `""` inside a quoted field is a quote.
fn unclosed_quote(text: &str) -> Option<(u64, u64)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let (mut line, mut column) = (1u64, 1u64);
    let mut opened: Option<(u64, u64)> = None;
    let mut field_start = true;
    let mut bytes = text.bytes().peekable();
    while let Some(byte) = bytes.next() {
        if opened.is_some() {
            match byte {
                b'"' if bytes.peek() == Some(&b'"') => {
                    bytes.next();
                }
                b'"' => opened = None,
                b'\n' => line += 1,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' if field_start => opened = Some((line, column)),
            b',' => column += 1,
            b'\n' => (line, column) = (line + 1, 1),
            _ => {}
        }
        field_start = matches!(byte, b',' | b'\n');
    }
    opened
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(cells: &[&str]) -> Vec<String> {
        cells.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn quotes_only_when_needed_and_round_trips() {
        let rows = vec![row(&["r01", "plain", ""]), row(&["r02", "a, \"b\"\nc", "x"])];
        let text = render(&["run_id", "note", "v"], &rows).unwrap();
        assert_eq!(text, "run_id,note,v\nr01,plain,\nr02,\"a, \"\"b\"\"\nc\",x\n");
        let (header, back) = parse(&text).unwrap();
        assert_eq!(header, row(&["run_id", "note", "v"]));
        assert_eq!(back, rows);
    }

    /// Every hostile value a note or an error message can carry, as the hand-written writer quoted it.
    #[test]
    fn hostile_values_are_quoted_exactly_as_before_and_read_back() {
        let cases: [(&str, &str); 12] = [
            ("", ""),
            (" leading and trailing ", " leading and trailing "),
            ("a,b", "\"a,b\""),
            ("say \"hi\"", "\"say \"\"hi\"\"\""),
            ("\"", "\"\"\"\""),
            ("line\nbreak", "\"line\nbreak\""),
            ("carriage\rreturn", "\"carriage\rreturn\""),
            ("crlf\r\nend", "\"crlf\r\nend\""),
            ("tab\there; semi;colon", "tab\there; semi;colon"),
            ("#not a comment", "#not a comment"),
            ("'single' \\back\\slash", "'single' \\back\\slash"),
            ("ユニコード, 日本語", "\"ユニコード, 日本語\""),
        ];
        for (value, written) in cases {
            let text = render(&["run_id", "note"], &[row(&["r01", value])]).unwrap();
            assert_eq!(text, format!("run_id,note\nr01,{written}\n"), "{value:?}");
            let (_, back) = parse(&text).unwrap();
            assert_eq!(back, [row(&["r01", value])], "{value:?}");
        }
    }

    #[test]
    fn refuses_to_write_a_row_of_another_width() {
        let err = render(&["a", "b"], &[row(&["1", "2"]), row(&["3"])]).unwrap_err();
        assert_eq!(err.line, 3, "{err}");
    }

    #[test]
    fn accepts_crlf_and_bom() {
        let (header, rows) = parse("\u{feff}a,b\r\n1,2\r\n").unwrap();
        assert_eq!((header, rows), (row(&["a", "b"]), vec![row(&["1", "2"])]));
    }

    #[test]
    fn names_the_line_of_a_short_row() {
        let err = parse("a,b\n1,2\n3\n").unwrap_err();
        assert_eq!((err.line, err.message.as_str()), (3, "1 fields, the header has 2"));
        let err = parse("a,b\n\"x\ny\",2\n3\n").unwrap_err();
        assert_eq!(err.line, 4, "a quoted line break moves the line on");
    }

    #[test]
    fn refuses_a_file_that_ends_inside_a_quoted_field() {
        // The csv crate alone reads this as two whole rows.
        let err = parse("run_id,note\nr01,plain\nr02,\"cut short\nin the middle").unwrap_err();
        assert_eq!((err.line, err.column), (3, Some(2)), "{err}");
        assert!(err.message.contains("no quote closes it"), "{err}");
        let err = parse("a,b\n\"x\"\"\n").unwrap_err();
        assert_eq!((err.line, err.column), (2, Some(1)), "a doubled quote does not close the field");
    }

    #[test]
    fn closed_quotes_anywhere_are_whole() {
        let text = "\u{feff}\"a\",b\r\n\"x,\"\"y\"\"\nz\",2\r\nw\"v,3\n";
        let (header, rows) = parse(text).unwrap();
        assert_eq!(header, row(&["a", "b"]));
        assert_eq!(rows, vec![row(&["x,\"y\"\nz", "2"]), row(&["w\"v", "3"])], "a quote inside an unquoted field is text");
    }

    #[test]
    fn an_empty_file_has_no_header() {
        assert_eq!(parse("").unwrap_err().message, "no header row");
    }
}
