//! The summary formats that are one JSON document (autocannon, Artillery, k6's summaries, oha):
//! parsed by serde_json, whose errors give the line and column (a document cut short fails at its
//! end), and the place of a value found from the path of keys that leads to it.

use super::error::ImportError;
use super::reported::Place;

/// Parses one JSON document, or says where it stops being `what`.
pub fn document<T: serde::de::DeserializeOwned>(file: &str, text: &str, what: &str) -> Result<T, ImportError> {
    serde_json::from_str(text).map_err(|e| {
        let (line, column) = (e.line() as u64, e.column() as u64);
        if e.is_syntax() && e.to_string().starts_with("trailing characters") && second_document(text, line, column) {
            return super::one_run::second_run(file, line, "a second JSON document after the first one closed");
        }
        let cut = if e.is_eof() { ": the file is cut short" } else { "" };
        ImportError::at(file, line, column, format!("not {what}: {e}{cut}"))
    })
}

/// Whether line `line` starts a JSON object or array at serde_json's place of trailing characters
/// (`column`): the first document closed and a second one begins there.
fn second_document(text: &str, line: u64, column: u64) -> bool {
    let Some(rest) = text.split_inclusive('\n').nth(line as usize - 1) else { return false };
    // The column is at the character that was not expected (`}{`), or just past it after blanks.
    let at = |n: u64| rest.char_indices().nth(n as usize).map_or(rest.len(), |(i, _)| i);
    let opens = |text: &str| text.trim_start().starts_with(['{', '[']);
    opens(&rest[at(column.saturating_sub(1))..]) || opens(&rest[..at(column)])
}

/// The place of the last key of `path`, each key searched for (as `"key"`) after the one before
/// it: `["latency", "p50"]` is the `p50` of the `latency` object, not of the one before it. The
/// document's start when a key is not found (serde found the value, so this only names a place).
pub fn place(file: &str, text: &str, path: &[&str]) -> Place {
    let mut at = 0;
    for key in path {
        let needle = format!("\"{key}\"");
        match text[at..].find(&needle) {
            Some(found) => at += found,
            None => return Place::new(file, 1, 1),
        }
    }
    let before = &text[..at];
    let line = before.bytes().filter(|&b| b == b'\n').count() as u64 + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) as u64 + 1;
    Place::new(file, line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_found_after_its_parent() {
        let text = "{\"a\": {\"p50\": 1},\n \"b\": {\n   \"p50\": 2}}";
        assert_eq!(place("f.json", text, &["b", "p50"]), Place::new("f.json", 3, 4));
        assert_eq!(place("f.json", text, &["p50"]), Place::new("f.json", 1, 8));
    }

    #[test]
    fn a_second_document_is_a_second_run() {
        let error = document::<serde_json::Value>("f.json", "{\"a\": 1}\n{\"a\": 2}\n", "a test").unwrap_err();
        assert_eq!(error.place, Some((2, 1)));
        assert!(error.message.starts_with("a second run begins here"), "{}", error.message);
        let error = document::<serde_json::Value>("f.json", "{\"a\": 1}\nx\n", "a test").unwrap_err();
        assert!(error.message.starts_with("not a test: trailing characters"), "{}", error.message);
    }

    #[test]
    fn a_cut_document_is_refused_at_its_end() {
        let error = document::<serde_json::Value>("f.json", "{\"a\": [1,\n 2", "a test").unwrap_err();
        assert_eq!(error.place, Some((2, 2)));
        assert!(error.message.contains("cut short"), "{}", error.message);
    }
}
