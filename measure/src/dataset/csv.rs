//! The small CSV dialect of the dataset: comma separated, header row, `\n` line ends, fields quoted only
//! when they hold a comma, quote or line break. Reading (for `--resume`) accepts what we write plus CRLF.

/// A line that cannot be read back.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("line {line}: {message}")]
pub struct CsvError {
    pub line: usize,
    pub message: String,
}

/// Renders a table.
pub fn render(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut out = String::new();
    push_row(&mut out, header.iter().copied());
    for row in rows {
        push_row(&mut out, row.iter().map(String::as_str));
    }
    out
}

fn push_row<'a>(out: &mut String, fields: impl Iterator<Item = &'a str>) {
    for (i, field) in fields.enumerate() {
        if i > 0 {
            out.push(',');
        }
        if field.contains([',', '"', '\n', '\r']) {
            out.push('"');
            out.push_str(&field.replace('"', "\"\""));
            out.push('"');
        } else {
            out.push_str(field);
        }
    }
    out.push('\n');
}

/// Parses a table into its header and rows; every row must have the header's width.
pub fn parse(text: &str) -> Result<(Vec<String>, Vec<Vec<String>>), CsvError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut records = Vec::new();
    let mut record = Vec::new();
    let mut field = String::new();
    let (mut quoted, mut line, mut record_line) = (false, 1, 1);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => {
                if c == '\n' {
                    line += 1;
                }
                field.push(c);
            }
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',') => record.push(std::mem::take(&mut field)),
            (false, '\r') if chars.peek() == Some(&'\n') => {}
            (false, '\n') => {
                record.push(std::mem::take(&mut field));
                records.push((record_line, std::mem::take(&mut record)));
                line += 1;
                record_line = line;
            }
            (false, c) => field.push(c),
        }
    }
    if quoted {
        return Err(CsvError { line: record_line, message: "unterminated quoted field".into() });
    }
    if !field.is_empty() || !record.is_empty() {
        record.push(field);
        records.push((record_line, record));
    }
    let mut records = records.into_iter();
    let Some((_, header)) = records.next() else {
        return Err(CsvError { line: 1, message: "no header row".into() });
    };
    let mut rows = Vec::new();
    for (line, row) in records {
        if row.len() != header.len() {
            let message = format!("{} fields, the header has {}", row.len(), header.len());
            return Err(CsvError { line, message });
        }
        rows.push(row);
    }
    Ok((header, rows))
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
        let text = render(&["run_id", "note", "v"], &rows);
        assert_eq!(text, "run_id,note,v\nr01,plain,\nr02,\"a, \"\"b\"\"\nc\",x\n");
        let (header, back) = parse(&text).unwrap();
        assert_eq!(header, row(&["run_id", "note", "v"]));
        assert_eq!(back, rows);
    }

    #[test]
    fn accepts_crlf_and_bom() {
        let (header, rows) = parse("\u{feff}a,b\r\n1,2\r\n").unwrap();
        assert_eq!((header, rows), (row(&["a", "b"]), vec![row(&["1", "2"])]));
    }

    #[test]
    fn names_the_line_of_a_short_row() {
        let err = parse("a,b\n1,2\n3\n").unwrap_err();
        assert_eq!(err.line, 3);
    }
}
