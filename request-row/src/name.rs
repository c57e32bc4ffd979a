//! The one rule for names that come from data: a run id, a factor's name and its levels, a
//! request's label, a session step's name. A name is what a page, a table row or a file name
//! tells one thing from another by, so each of analyze's readers (runs.csv, requests.csv/.parquet,
//! tool_labels.csv, dataset.toml) applies this one rule, as do the writers of request labels
//! (measure, analyze import, through [`crate::check_label`]), and a name that breaks it is
//! refused at its place rather than shown:
//!
//! - it is trimmed: surrounding whitespace is not part of it (` a`, `a` and `a ` are one name);
//! - it is not empty once trimmed;
//! - it is one line with no control character (a newline, a tab, ESC, NUL: each would change what
//!   a table, a page or a terminal shows) and no bidirectional control (U+202A–U+202E,
//!   U+2066–U+2069, which make it read as other characters than it holds);
//! - it is at most [`MAX_NAME_BYTES`] bytes of UTF-8;
//! - within its list (the runs, a factor's levels, the steps) it is distinct; the caller checks
//!   that, since only it knows the list.
//!
//! A note (runs.csv `note`) is free text, not a name: see [`check_note`].

use std::fmt;

/// The longest name accepted, in bytes: a request name or a URL with its query; a longer one is
/// a broken file or a body pasted into the column, not a name a report can show.
pub const MAX_NAME_BYTES: usize = 1024;

/// The longest note accepted, in bytes: a paragraph of several sentences (the longest note an
/// importer writes is a few hundred bytes), not a file pasted into a cell.
pub const MAX_NOTE_BYTES: usize = 16 * 1024;

/// Why a text is not a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameError {
    /// Empty, or only whitespace.
    Empty,
    /// Longer than [`MAX_NAME_BYTES`] (its length in bytes, trimmed).
    TooLong(usize),
    /// Holds this control character (a line break included).
    Control(char),
    /// Holds this bidirectional control.
    Bidi(char),
}

impl NameError {
    /// The message after the place and the column's name, for a name of the kind `what` (with its
    /// article: "a run id", "a request name").
    pub fn message(self, what: &str) -> String {
        match self {
            NameError::Empty => format!("is empty: {what} has at least one character besides spaces"),
            NameError::TooLong(bytes) => format!("is {bytes} bytes long, more than the {MAX_NAME_BYTES} {what} may have"),
            NameError::Control(c) => format!("holds the control character {c:?}: {what} is one line of text"),
            NameError::Bidi(c) => {
                format!("holds the bidirectional control {}: {what} reads as the characters it holds, so it has none", c.escape_unicode())
            }
        }
    }
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message("a name"))
    }
}

impl std::error::Error for NameError {}

/// Whether `c` is a bidirectional embedding, override or isolate control.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Whether `c` is shown as its `\u{..}` escape wherever free text is shown (a page, a figure, the
/// terminal): a bidirectional control ([`is_bidi_control`]), or a control character other than
/// tab, line feed and carriage return. A name holds none of them ([`check_name`]); free text may,
/// and is shown with them escaped.
pub fn is_hidden(c: char) -> bool {
    (c.is_control() && !matches!(c, '\t' | '\n' | '\r')) || is_bidi_control(c)
}

/// The name `text` stands for (trimmed), or why it is none.
pub fn check_name(text: &str) -> Result<&str, NameError> {
    let name = text.trim();
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    if name.len() > MAX_NAME_BYTES {
        return Err(NameError::TooLong(name.len()));
    }
    if let Some(c) = name.chars().find(|&c| c.is_control() || is_bidi_control(c)) {
        return Err(if c.is_control() { NameError::Control(c) } else { NameError::Bidi(c) });
    }
    Ok(name)
}

/// A note's bound: at most [`MAX_NOTE_BYTES`]. Any other text is allowed (several sentences, a
/// line break, a character a name may not hold): a note is shown, never used to tell things
/// apart, and whoever shows it escapes it (a control character reaches no page, Markdown file or
/// terminal raw: it shows as `\u{1b}`).
pub fn check_note(text: &str) -> Result<(), String> {
    let note = text.trim();
    if note.len() > MAX_NOTE_BYTES {
        return Err(format!("is {} bytes long, more than the {MAX_NOTE_BYTES} a note may have", note.len()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_trimmed_one_line_of_bounded_text() {
        assert_eq!(check_name(" a "), Ok("a"));
        assert_eq!(check_name("GET /users/{id}?q=<x>&y"), Ok("GET /users/{id}?q=<x>&y"), "markup is data, escaped where shown");
        assert_eq!(check_name("直接 · 2"), Ok("直接 · 2"));
        assert_eq!(check_name(""), Err(NameError::Empty));
        assert_eq!(check_name(" \t "), Err(NameError::Empty));
        assert_eq!(check_name("a\nb"), Err(NameError::Control('\n')));
        assert_eq!(check_name("a\u{1b}[2Jb"), Err(NameError::Control('\u{1b}')));
        assert_eq!(check_name("a\u{9b}b"), Err(NameError::Control('\u{9b}')), "a C1 control");
        assert_eq!(check_name("a\u{202e}b"), Err(NameError::Bidi('\u{202e}')));
        assert_eq!(check_name(&"x".repeat(MAX_NAME_BYTES)).map(str::len), Ok(MAX_NAME_BYTES));
        assert_eq!(check_name(&format!(" {} ", "é".repeat(513))), Err(NameError::TooLong(1026)));
    }

    #[test]
    fn each_refusal_says_what_the_name_is() {
        assert_eq!(
            NameError::Control('\t').message("a request name"),
            "holds the control character '\\t': a request name is one line of text"
        );
        assert_eq!(NameError::Empty.message("a step's name"), "is empty: a step's name has at least one character besides spaces");
        assert_eq!(NameError::TooLong(2000).message("a level"), "is 2000 bytes long, more than the 1024 a level may have");
        assert_eq!(
            NameError::Bidi('\u{2067}').message("a run id"),
            "holds the bidirectional control \\u{2067}: a run id reads as the characters it holds, so it has none"
        );
    }

    #[test]
    fn a_note_is_free_text_of_bounded_length() {
        assert_eq!(check_note("host busy.\nRe-ran later; the \u{1b} came from k6"), Ok(()));
        assert!(check_note(&"n".repeat(MAX_NOTE_BYTES)).is_ok());
        assert_eq!(
            check_note(&"n".repeat(MAX_NOTE_BYTES + 1)),
            Err("is 16385 bytes long, more than the 16384 a note may have".to_string())
        );
    }
}
