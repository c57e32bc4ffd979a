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
        if e.is_data() && (e.to_string().contains(", expected u64") || e.to_string().starts_with(BEYOND)) {
            if let Some(error) = not_a_count(file, text, line, column) {
                return error;
            }
        }
        let cut = if e.is_eof() { ": the file is cut short" } else { "" };
        ImportError::at(file, line, column, format!("not {what}: {e}{cut}"))
    })
}

/// A count serde_json could not take as a u64 (`1e3`, `300.5`, `-1`, 2^64), quoted as the file
/// has it at its own column: serde_json's message quotes the number it parsed (1.8446744073709552e19
/// for 18446744073709551616) and places it at its last character.
fn not_a_count(file: &str, text: &str, line: u64, column: u64) -> Option<ImportError> {
    let row_at: usize = text.split_inclusive('\n').take(line as usize - 1).map(str::len).sum();
    let row = text[row_at..].split_inclusive('\n').next()?;
    let end = row.char_indices().nth(column as usize - 1).map(|(i, c)| i + c.len_utf8())?;
    let number = |c: char| c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E');
    // serde_json places the error at the number's last character, or (raised after it was read)
    // at what follows it.
    let end = row[..end].trim_end_matches(|c: char| !number(c)).len();
    let start = row[..end].rfind(|c: char| !number(c)).map_or(0, |i| i + 1);
    let token = &row[start..end];
    let key =
        text[..row_at + start].trim_end().strip_suffix(':').and_then(|k| k.trim_end().strip_suffix('"')).and_then(|k| k.rsplit('"').next());
    let why = super::reported::count_problem(token)?;
    let start_column = row[..start].chars().count() as u64 + 1;
    Some(ImportError::at(
        file,
        line,
        start_column,
        match key {
            Some(key) => format!("{key}: {why}"),
            None => why,
        },
    ))
}

/// What [`count_field`] says of a count beyond [`super::reported::MAX_COUNT`], for [`document`] to
/// find and quote from the text.
const BEYOND: &str = "a count beyond 10^12";

/// serde's `deserialize_with` for a count of a JSON summary: a whole number up to
/// [`super::reported::MAX_COUNT`], so that no sum of a few counts can overflow; anything else
/// is refused by [`document`], quoted as the file has it.
pub fn count_field<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
    use serde::Deserialize as _;
    let n = u64::deserialize(deserializer)?;
    match n <= super::reported::MAX_COUNT {
        true => Ok(n),
        false => Err(serde::de::Error::custom(BEYOND)),
    }
}

/// A map of counts (per status, per counter name), each read by [`count_field`].
pub fn count_map<'de, D, K>(deserializer: D) -> Result<std::collections::BTreeMap<K, u64>, D::Error>
where
    D: serde::Deserializer<'de>,
    K: serde::Deserialize<'de> + Ord,
{
    use serde::Deserialize as _;
    #[derive(serde::Deserialize)]
    struct Whole(#[serde(deserialize_with = "count_field")] u64);
    let map = std::collections::BTreeMap::<K, Whole>::deserialize(deserializer)?;
    Ok(map.into_iter().map(|(k, Whole(n))| (k, n)).collect())
}

/// The count at the end of `path` (see [`place`]) read from the text as the file has it: whole,
/// exact (never through a float), at most [`super::reported::MAX_COUNT`], placed at its own
/// line and column; `None` when the key is not there.
pub fn count(file: &str, text: &str, path: &[&str]) -> Option<Result<super::reported::Count, ImportError>> {
    let key_at = offset(text, path)?;
    let after_key = key_at + path.last().map_or(0, |k| k.len() + 2);
    let rest = &text[after_key..];
    let value = rest.trim_start().strip_prefix(':')?.trim_start();
    let value_at = text.len() - value.len();
    let token = &value[..value.find(|c: char| matches!(c, ',' | '}' | ']') || c.is_whitespace()).unwrap_or(value.len())];
    let at = place_of(file, text, value_at);
    let key = path.last().copied().unwrap_or("");
    Some(match super::reported::count_problem(token) {
        Some(why) => Err(at.error(format!("{key}: {why}"))),
        None => Ok(super::reported::Count::new(token.parse().expect("digits, checked"), at)),
    })
}

/// The byte offset of the last key of `path` (as `"key"`), each key searched for after the one
/// before it.
fn offset(text: &str, path: &[&str]) -> Option<usize> {
    let mut at = 0;
    for key in path {
        at += text[at..].find(&format!("\"{key}\""))?;
    }
    Some(at)
}

/// The place of a byte offset of the text.
fn place_of(file: &str, text: &str, at: usize) -> Place {
    let before = &text[..at];
    let line = before.bytes().filter(|&b| b == b'\n').count() as u64 + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) as u64 + 1;
    Place::new(file, line, column)
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
    match offset(text, path) {
        Some(at) => place_of(file, text, at),
        None => Place::new(file, 1, 1),
    }
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
    fn counts_are_read_whole_and_quoted_as_the_file_has_them() {
        let text = "{\"m\": {\"count\": 999999999999},\n \"n\": {\"count\":  18446744073709551616, \"x\": 1e3}}";
        let exact = count("f.json", text, &["m", "count"]).unwrap().unwrap();
        assert_eq!((exact.value, exact.at), (999_999_999_999, Place::new("f.json", 1, 17)));
        let error = count("f.json", text, &["n", "count"]).unwrap().unwrap_err();
        assert_eq!(error.place, Some((2, 18)));
        assert!(error.message.starts_with("count: 18446744073709551616 is beyond 10^12"), "{}", error.message);
        let error = count("f.json", text, &["n", "x"]).unwrap().unwrap_err();
        assert_eq!(error.message, "x: 1e3 is not a count (a whole number, written in digits)");
        assert!(count("f.json", text, &["n", "y"]).is_none());
        // A count serde refuses as a u64 is quoted from the text too, at its first character.
        #[derive(serde::Deserialize, Debug)]
        struct Counted {
            #[allow(dead_code)]
            total: u64,
        }
        let error = document::<Counted>("f.json", "{\"total\":\n   18446744073709551616}", "a test").unwrap_err();
        assert_eq!(error.place, Some((2, 4)));
        assert!(error.message.starts_with("total: 18446744073709551616 is beyond 10^12"), "{}", error.message);
        #[derive(serde::Deserialize, Debug)]
        struct Bounded {
            #[allow(dead_code)]
            #[serde(deserialize_with = "count_field")]
            total: u64,
            #[allow(dead_code)]
            #[serde(deserialize_with = "count_map")]
            codes: std::collections::BTreeMap<String, u64>,
        }
        let error = document::<Bounded>("f.json", "{\"total\": 18446744073709551615 , \"codes\": {}}", "a test").unwrap_err();
        assert_eq!(error.place, Some((1, 11)), "{error}");
        assert!(error.message.starts_with("total: 18446744073709551615 is beyond 10^12"), "{}", error.message);
        let error = document::<Bounded>("f.json", "{\"total\": 1, \"codes\": {\"200\": 1000000000001}}", "a test").unwrap_err();
        assert_eq!(error.place, Some((1, 31)), "{error}");
        assert!(error.message.starts_with("200: 1000000000001 is beyond 10^12"), "{}", error.message);
    }

    #[test]
    fn a_cut_document_is_refused_at_its_end() {
        let error = document::<serde_json::Value>("f.json", "{\"a\": [1,\n 2", "a test").unwrap_err();
        assert_eq!(error.place, Some((2, 2)));
        assert!(error.message.contains("cut short"), "{}", error.message);
    }
}
