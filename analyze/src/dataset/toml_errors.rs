//! dataset.toml's refusals in the user's words. serde and toml say what a deserializer met
//! ("invalid type: map, expected a sequence", "data did not match any variant of untagged enum
//! Text"); a user needs the key it is at, with its line and column, and what to write instead.
//! The key is found from the error's place in the document (the spans toml_edit keeps); the
//! fix from the kind of mistake. Every message starts with the dotted key (`slo`,
//! `factors.levels.value`), as the checks after parsing (schema.rs) do.

use std::ops::Range;
use toml_edit::{Item, Table, Value};

/// The key at byte `offset` of `text`, dotted from the top (`report.headline`), array positions
/// left out; `None` when no key holds it (or the text is not TOML).
pub fn key_at(text: &str, offset: usize) -> Option<String> {
    let document = toml_edit::ImDocument::parse(text).ok()?;
    let mut path = Vec::new();
    in_table(document.as_table(), offset, &mut path).then(|| path.join("."))
}

fn holds(span: Option<Range<usize>>, offset: usize) -> bool {
    span.is_some_and(|s| s.contains(&offset) || (s.is_empty() && s.start == offset))
}

/// Finds the deepest key under `table` whose key or value holds `offset`, pushing its path.
fn in_table(table: &Table, offset: usize, path: &mut Vec<String>) -> bool {
    for (key, item) in table.iter() {
        path.push(key.to_string());
        if in_item(item, offset, path) || holds(table.key(key).and_then(|k| k.span()), offset) || holds(item.span(), offset) {
            return true;
        }
        path.pop();
    }
    false
}

fn in_item(item: &Item, offset: usize, path: &mut Vec<String>) -> bool {
    match item {
        Item::Table(table) => in_table(table, offset, path) || holds(table.span(), offset),
        Item::ArrayOfTables(tables) => tables.iter().any(|t| in_table(t, offset, path) || holds(t.span(), offset)),
        Item::Value(value) => in_value(value, offset, path),
        Item::None => false,
    }
}

fn in_value(value: &Value, offset: usize, path: &mut Vec<String>) -> bool {
    match value {
        Value::InlineTable(table) => {
            for (key, inner) in table.iter() {
                path.push(key.to_string());
                if in_value(inner, offset, path) || holds(table.key(key).and_then(|k| k.span()), offset) || holds(inner.span(), offset) {
                    return true;
                }
                path.pop();
            }
            false
        }
        Value::Array(array) => array.iter().any(|v| in_value(v, offset, path)),
        _ => false,
    }
}

/// The message for a refusal of dataset.toml: the key (when one holds the place), what is wrong
/// and what to write.
pub fn explain(text: &str, offset: Option<usize>, message: &str) -> String {
    let message = message.trim();
    if toml_edit::ImDocument::parse(text).is_err() {
        if let Some(key) = message.strip_prefix("duplicate key ").and_then(|rest| rest.split(' ').next()) {
            return format!("{key} is given twice: keep one (TOML allows each key once in a table)");
        }
        return format!("is not valid TOML here: {message} (a line is `key = value`, `[table]` or `[[list of tables]]`)");
    }
    let path = offset.and_then(|o| key_at(text, o)).unwrap_or_default();
    let fix = fix(&path, message);
    if path.is_empty() {
        fix
    } else {
        format!("{path}: {fix}")
    }
}

/// What is wrong at `path` and how to write it, from serde's words in `message`.
fn fix(path: &str, message: &str) -> String {
    let last = path.rsplit('.').next().filter(|l| !l.is_empty()).unwrap_or("key");
    let parent = path.rsplit_once('.').map_or("", |(p, _)| p);
    if let Some(rest) = message.strip_prefix("unknown field ") {
        let (key, expected) = rest.split_once(", expected ").unwrap_or((rest, ""));
        let place = if parent.is_empty() { "dataset.toml".to_string() } else { format!("`{parent}`") };
        let known = list(expected.trim_start_matches("one of "), "and");
        return format!("{key} is not a key of {place}, whose keys are {known}: check its spelling (keys are case-sensitive) or remove it");
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        let (value, expected) = rest.split_once(", expected ").unwrap_or((rest, ""));
        return format!("{value} is not a value of `{last}`: write one of {}", list(expected.trim_start_matches("one of "), "or"));
    }
    if let Some(field) = message.strip_prefix("missing field ") {
        let entry = if path.is_empty() { "dataset.toml".to_string() } else { format!("each `{path}` entry") };
        return format!("{entry} needs the key {field}: add `{} = …`", field.trim_matches('`'));
    }
    if let Some(rest) = message.strip_prefix("invalid type: ").or_else(|| message.strip_prefix("invalid value: ")) {
        let (found, expected) = rest.split_once(", expected ").unwrap_or((rest, ""));
        let shown = match found {
            "map" => "a table",
            "sequence" => "a list",
            other => other,
        };
        return format!("{shown} is not what `{last}` takes: {}", what_to_write(path, last, found, expected));
    }
    if let Some(rest) = message.strip_prefix("invalid length ") {
        return format!("has {rest}");
    }
    message.to_string()
}

/// The fix for a value of the wrong type: what the key takes, and an example of it.
fn what_to_write(path: &str, last: &str, found: &str, expected: &str) -> String {
    let number = ["f64", "f32", "u64", "u32", "i64", "i32", "usize", "integer", "floating point"];
    if expected.contains("sequence") {
        if found == "map" {
            return format!("it is a list: write `[[{path}]]` (two brackets) above each entry, or `{last} = [ … ]`");
        }
        return format!("it is a list: write `{last} = [ … ]`, each item between the brackets, separated by commas");
    }
    if expected.starts_with("a text") {
        return format!("it is {expected}, e.g. `{last} = \"Slow\"` or `{last} = {{ en = \"Slow\", ja = \"遅い\" }}`");
    }
    if expected.starts_with('u') && number.contains(&expected) {
        return format!("it is a whole number of 0 or more, e.g. `{last} = 1048576`");
    }
    if number.iter().any(|n| expected.contains(n)) {
        return format!("it is a number: write it without quotes, e.g. `{last} = 99.9`");
    }
    if expected.contains("string") || expected.contains("variant") {
        return format!("it is a string: write it in double quotes, e.g. `{last} = \"…\"`");
    }
    if expected.contains("bool") {
        return format!("it is `true` or `false`, without quotes: `{last} = true`");
    }
    if expected.contains("struct") || expected.contains("map") {
        return format!("it is a table: write `[{path}]` with its keys on the lines below, or `{last} = {{ … }}`");
    }
    format!("it takes {expected}")
}

/// serde's list of names (`` `a`, `b` ``) as a sentence's: `a`, `b` and `c` (`joint`: "and", "or").
fn list(names: &str, joint: &str) -> String {
    let names: Vec<&str> = names.split(", ").map(str::trim).filter(|n| !n.is_empty()).collect();
    match names.split_last() {
        None => "none".to_string(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} {joint} {last}", rest.join(", ")),
    }
}
