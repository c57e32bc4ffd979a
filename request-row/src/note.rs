//! The syntax of a run's note (runs.csv `note`), written by measure and read by analyze: items
//! separated by `;`; an item is a key (`ab.summary-whole-ms`) or a key with parameters
//! (`siege.logged(path="/var/log/siege.log")`); a value holding a space or one of `,;()="\` is
//! quoted, with `\"` and `\\` inside the quotes. An item that does not start like a key is the
//! user's own text.
//!
//! This module owns the syntax only (writing, splitting, tokenizing); which keys exist, their
//! parameters and their sentences are [`crate::note_words`]'.

use std::fmt;

/// What joins a run's note items in runs.csv.
pub const SEPARATOR: &str = "; ";

/// The characters that make a value need quotes (besides whitespace, and being empty).
const SPECIAL: &str = ",;()=\"\\";

/// Writes one item: `key`, or `key(name=value, ...)` with each value quoted when it must be.
pub fn write_item<'a, W: fmt::Write>(out: &mut W, key: &str, params: impl IntoIterator<Item = (&'a str, &'a str)>) -> fmt::Result {
    out.write_str(key)?;
    let mut any = false;
    for (name, value) in params {
        out.write_str(if any { ", " } else { "(" })?;
        any = true;
        write!(out, "{name}=")?;
        write_value(out, value)?;
    }
    if any {
        out.write_str(")")?;
    }
    Ok(())
}

/// One item as a string (see [`write_item`]).
pub fn item<'a>(key: &str, params: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut out = String::new();
    write_item(&mut out, key, params).expect("writing to a String cannot fail");
    out
}

fn write_value<W: fmt::Write>(out: &mut W, value: &str) -> fmt::Result {
    if !value.is_empty() && !value.chars().any(|c| c.is_whitespace() || SPECIAL.contains(c)) {
        return out.write_str(value);
    }
    out.write_str("\"")?;
    for c in value.chars() {
        if c == '"' || c == '\\' {
            out.write_str("\\")?;
        }
        out.write_char(c)?;
    }
    out.write_str("\"")
}

/// A run's note items joined as runs.csv holds them; empty items are left out.
pub fn join<S: AsRef<str>>(items: impl IntoIterator<Item = S>) -> String {
    let items: Vec<S> = items.into_iter().filter(|i| !i.as_ref().is_empty()).collect();
    items.iter().map(AsRef::as_ref).collect::<Vec<&str>>().join(SEPARATOR)
}

/// Text that breaks the syntax: where (a byte offset into the text given) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub at: usize,
    pub message: String,
}

fn error(at: usize, message: String) -> SyntaxError {
    SyntaxError { at, message }
}

/// The `;`-separated items with their byte offsets; a `;` inside quotes or parentheses is part of
/// its item.
pub fn split_items(text: &str) -> Result<Vec<(usize, &str)>, SyntaxError> {
    let mut items = Vec::new();
    let (mut start, mut depth, mut quoted, mut escaped) = (0, 0usize, false, false);
    let mut quote_at = 0;
    for (i, c) in text.char_indices() {
        if quoted {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => quoted = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' if depth > 0 => {
                quoted = true;
                quote_at = i;
            }
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ';' if depth == 0 => {
                items.push((start, &text[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    if quoted {
        return Err(error(quote_at, "a quoted value has no closing `\"`".into()));
    }
    items.push((start, &text[start..]));
    Ok(items)
}

/// The length in bytes of a key at the start of `item` (`ns.name[.name…]`: lowercase words of
/// letters, digits and inner `-`, the first starting with a letter, then the end or `(`), if it
/// starts with one.
pub fn key_length(item: &str) -> Option<usize> {
    let bytes = item.as_bytes();
    let word = |from: usize, first_digit_ok: bool| {
        let mut end = from;
        while end < bytes.len() && (bytes[end].is_ascii_lowercase() || bytes[end].is_ascii_digit() || (end > from && bytes[end] == b'-')) {
            if end == from && !first_digit_ok && !bytes[end].is_ascii_lowercase() {
                return from;
            }
            end += 1;
        }
        end
    };
    let mut end = word(0, false);
    if end == 0 {
        return None;
    }
    let mut parts = 1;
    while end < bytes.len() && bytes[end] == b'.' {
        let next = word(end + 1, true);
        if next == end + 1 {
            return None;
        }
        end = next;
        parts += 1;
    }
    (parts > 1 && (end == bytes.len() || bytes[end] == b'(')).then_some(end)
}

/// The parameters of an item whose key is `key_length` bytes long, read one piece at a time so
/// the reader can check each name before its value is read. `None` when the key has no
/// parentheses; offsets are bytes into the item.
pub fn params(item: &str, key_length: usize) -> Result<Option<Params<'_>>, SyntaxError> {
    let rest = &item[key_length..];
    if rest.is_empty() {
        return Ok(None);
    }
    if !rest.ends_with(')') {
        return Err(error(item.len(), format!("`{}(` has no closing `)`", &item[..key_length])));
    }
    let inner = &rest[1..rest.len() - 1];
    Ok(Some(Params { inner, base: key_length + 1, chars: inner.char_indices().peekable() }))
}

/// A tokenizer over `name=value, ...` inside an item's parentheses.
pub struct Params<'a> {
    inner: &'a str,
    base: usize,
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
}

impl<'a> Params<'a> {
    fn skip_space(&mut self) {
        while self.chars.peek().is_some_and(|(_, c)| c.is_whitespace()) {
            self.chars.next();
        }
    }

    /// The next parameter's name and its offset, up to its `=`; `None` at the end.
    pub fn name(&mut self) -> Result<Option<(usize, &'a str)>, SyntaxError> {
        self.skip_space();
        let Some(&(start, _)) = self.chars.peek() else { return Ok(None) };
        let mut end = start;
        while let Some(&(i, c)) = self.chars.peek() {
            if c == '=' {
                break;
            }
            end = i + c.len_utf8();
            self.chars.next();
        }
        let name = self.inner[start..end].trim();
        if self.chars.next().is_none() {
            return Err(error(self.base + start, format!("`{name}` has no `=` and value")));
        }
        Ok(Some((self.base + start, name)))
    }

    /// The value of parameter `name` (just read by [`Params::name`]), unquoted.
    pub fn value(&mut self, name: &str) -> Result<String, SyntaxError> {
        let mut value = String::new();
        if self.chars.peek().is_some_and(|(_, c)| *c == '"') {
            self.chars.next();
            let mut escaped = false;
            for (_, c) in self.chars.by_ref() {
                match (escaped, c) {
                    (true, c) => {
                        value.push(c);
                        escaped = false;
                    }
                    (false, '\\') => escaped = true,
                    (false, '"') => break,
                    (false, c) => value.push(c),
                }
            }
            return Ok(value);
        }
        while let Some(&(i, c)) = self.chars.peek() {
            if c == ',' {
                break;
            }
            if "()\"=".contains(c) {
                return Err(error(self.base + i, format!("the value of `{name}` holds `{c}`: quote it (\"…\")")));
            }
            value.push(c);
            self.chars.next();
        }
        Ok(value.trim().to_string())
    }

    /// After the value of `name`: whether another parameter follows (`,`), or the end.
    pub fn more(&mut self, name: &str) -> Result<bool, SyntaxError> {
        self.skip_space();
        match self.chars.next() {
            None => Ok(false),
            Some((_, ',')) => Ok(true),
            Some((i, c)) => Err(error(self.base + i, format!("`{c}` after the value of `{name}`: expected `,` or `)`"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_quoted_only_when_they_must_be() {
        assert_eq!(item("measure.no-session", []), "measure.no-session");
        assert_eq!(item("measure.sigkill", [("server", "nginx")]), "measure.sigkill(server=nginx)");
        assert_eq!(
            item("measure.aborted", [("why", "port 8000: \"busy\"; retry")]),
            r#"measure.aborted(why="port 8000: \"busy\"; retry")"#
        );
        assert_eq!(item("hey.beyond-cap", [("rows", "2"), ("max", "")]), r#"hey.beyond-cap(rows=2, max="")"#);
        assert_eq!(join(["a.b", "", "c.d(x=1)"]), "a.b; c.d(x=1)");
    }

    /// A parameter as a reader sees it: its offset, name and value.
    type Piece = (usize, String, String);

    /// The key's length and every parameter of one item.
    fn read(item: &str) -> Result<(usize, Vec<Piece>), SyntaxError> {
        let length = key_length(item).expect("a key");
        let mut pieces = Vec::new();
        if let Some(mut params) = params(item, length)? {
            while let Some((at, name)) = params.name()? {
                let value = params.value(name)?;
                pieces.push((at, name.to_string(), value));
                if !params.more(name)? {
                    break;
                }
            }
        }
        Ok((length, pieces))
    }

    #[test]
    fn written_items_read_back() {
        let written = item("siege.logged", [("path", "/var/log/a b; \"c\""), ("n", "3")]);
        let (length, pieces) = read(&written).unwrap();
        assert_eq!(length, "siege.logged".len());
        assert_eq!(pieces, vec![(13, "path".into(), "/var/log/a b; \"c\"".into()), (41, "n".into(), "3".into())]);
        assert_eq!(split_items(&join([written.as_str(), "own words"])).unwrap().len(), 2);
    }

    #[test]
    fn broken_syntax_says_where_and_why() {
        assert_eq!(read("hey.cap(max=3").unwrap_err(), error(13, "`hey.cap(` has no closing `)`".into()));
        assert_eq!(read("hey.cap(max)").unwrap_err(), error(8, "`max` has no `=` and value".into()));
        assert_eq!(read("hey.cap(max=a=b)").unwrap_err().at, 13);
        assert_eq!(read("hey.cap(max=\"1\" 2)").unwrap_err().message, "`2` after the value of `max`: expected `,` or `)`");
        assert_eq!(split_items("a.b(x=\"y)").unwrap_err(), error(6, "a quoted value has no closing `\"`".into()));
        assert_eq!(key_length("x.y z"), None, "a key ends at the end or at `(`");
        assert_eq!(key_length("Ab.c"), None);
        assert_eq!(key_length("ab.summary-whole-ms"), Some(19));
    }
}
