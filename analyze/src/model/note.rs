//! A run's note (runs.csv `note`): what importers and measure record about a run, stored as message
//! keys with parameters, never as English prose, so each language renders its own sentence
//! (`request_row::note_words` holds every key with its English and Japanese sentence).
//!
//! Syntax (written and tokenized by the request-row contract's `note` module, which measure
//! writes with too): items separated by `;`. An item is a key (`ab.summary-whole-ms`) or a key
//! with parameters (`autocannon.duration(seconds=5.09)`, `siege.logged(path="/var/log/siege.log")`);
//! a value holding a space or one of `,;()="\` is quoted, with `\"` and `\\` inside the quotes.
//! This module knows the keys: an item that does not start like a key (a lowercase namespace, a
//! dot, a lowercase name, then the end or `(`) is the user's own text, shown as written in both
//! languages. An item that starts like a key of a known namespace must be a known key with
//! exactly its parameters.

use request_row::note as note_syntax;
use serde::{Serialize, Serializer};
use std::fmt;

pub use request_row::note_words::NoteKey;

/// One message: a key and its parameters' values, in the key's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub key: NoteKey,
    pub values: Vec<String>,
}

impl Message {
    /// A message of a key without parameters.
    pub fn plain(key: NoteKey) -> Message {
        debug_assert!(key.params().is_empty(), "{} takes parameters", key.key());
        Message { key, values: Vec::new() }
    }

    /// A message with its values, one per parameter in the key's order.
    pub fn new(key: NoteKey, values: &[&dyn fmt::Display]) -> Message {
        assert_eq!(values.len(), key.params().len(), "{} takes {:?}", key.key(), key.params());
        Message { key, values: values.iter().map(ToString::to_string).collect() }
    }

    /// The value of one parameter.
    pub fn value(&self, param: &str) -> Option<&str> {
        self.key.params().iter().position(|p| *p == param).map(|i| self.values[i].as_str())
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        note_syntax::write_item(f, self.key.key(), self.key.params().iter().copied().zip(self.values.iter().map(String::as_str)))
    }
}

/// One item of a note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoteItem {
    Message(Message),
    /// The user's own words, shown as written.
    Text(String),
}

/// A run's note: its items, and the text as runs.csv holds it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Note {
    raw: String,
    items: Vec<NoteItem>,
}

/// A note that does not parse: where in the cell (1-based character; a byte offset inside the
/// parser) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteError {
    pub at: usize,
    pub message: String,
}

/// Joins messages the way runs.csv stores them.
pub fn join(messages: &[Message]) -> String {
    note_syntax::join(messages.iter().map(ToString::to_string))
}

impl Note {
    /// A note of messages (what importers and measure write).
    pub fn of(messages: &[Message]) -> Note {
        Note { raw: join(messages), items: messages.iter().cloned().map(NoteItem::Message).collect() }
    }

    /// Parses a runs.csv note.
    pub fn parse(text: &str) -> Result<Note, NoteError> {
        let raw = text.trim().to_string();
        let mut items = Vec::new();
        let in_chars = |e: NoteError| NoteError { at: char_at(&raw, e.at), message: e.message };
        for (start, item) in note_syntax::split_items(&raw).map_err(|e| in_chars(e.into()))? {
            let trimmed = item.trim_start();
            let start = start + (item.len() - trimmed.len());
            let item = trimmed.trim_end();
            if item.is_empty() {
                continue;
            }
            items.push(parse_item(item, start).map_err(in_chars)?);
        }
        Ok(Note { raw, items })
    }

    pub fn as_str(&self) -> &str {
        &self.raw
    }

    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }

    pub fn items(&self) -> &[NoteItem] {
        &self.items
    }

    /// Whether the note is only the user's own words (shown as written).
    pub fn is_own_text(&self) -> bool {
        self.items.iter().all(|i| matches!(i, NoteItem::Text(_)))
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.raw)
    }
}

impl Serialize for Note {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.raw)
    }
}

fn char_at(text: &str, byte: usize) -> usize {
    text[..byte].chars().count() + 1
}

impl From<note_syntax::SyntaxError> for NoteError {
    fn from(e: note_syntax::SyntaxError) -> NoteError {
        NoteError { at: e.at, message: e.message }
    }
}

/// One item: its syntax read by the contract's tokenizer, each name and value checked against
/// the key's parameters as they come (so a wrong name is named before a later value's quoting).
fn parse_item(item: &str, offset: usize) -> Result<NoteItem, NoteError> {
    let at = |byte: usize| offset + byte;
    let shifted = |e: note_syntax::SyntaxError| NoteError { at: at(e.at), message: e.message };
    let Some(length) = note_syntax::key_length(item) else { return Ok(NoteItem::Text(item.to_string())) };
    let name = &item[..length];
    let Some(key) = NoteKey::from_key(name) else {
        let namespace = name.split('.').next().unwrap_or_default();
        let known: Vec<&str> = NoteKey::ALL.iter().filter(|k| k.namespace() == namespace).map(|k| k.key()).collect();
        if known.is_empty() {
            return Ok(NoteItem::Text(item.to_string()));
        }
        return Err(NoteError {
            at: at(0),
            message: format!("`{name}` is not a note key; the keys of {namespace} are {}", known.join(", ")),
        });
    };
    let mut values: Vec<Option<String>> = vec![None; key.params().len()];
    let Some(mut params) = note_syntax::params(item, length).map_err(shifted)? else {
        if !key.params().is_empty() {
            return Err(NoteError {
                at: at(0),
                message: format!("`{name}` needs its parameters: {name}({})", key.params().join("=…, ") + "=…"),
            });
        }
        return Ok(NoteItem::Message(Message { key, values: Vec::new() }));
    };
    while let Some((param_at, param)) = params.name().map_err(shifted)? {
        let Some(index) = key.params().iter().position(|p| *p == param) else {
            return Err(NoteError {
                at: at(param_at),
                message: format!("`{name}` has no parameter `{param}`; its parameters are {}", key.params().join(", ")),
            });
        };
        let value = params.value(param).map_err(shifted)?;
        if values[index].replace(value).is_some() {
            return Err(NoteError { at: at(param_at), message: format!("`{param}` is given twice") });
        }
        if !params.more(param).map_err(shifted)? {
            break;
        }
    }
    let missing: Vec<&str> = key.params().iter().zip(&values).filter(|(_, v)| v.is_none()).map(|(p, _)| *p).collect();
    if !missing.is_empty() {
        return Err(NoteError { at: at(0), message: format!("`{name}` lacks {}", missing.join(", ")) });
    }
    Ok(NoteItem::Message(Message { key, values: values.into_iter().map(Option::unwrap_or_default).collect() }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_unique_and_round_trips() {
        let mut seen = std::collections::HashSet::new();
        for &key in NoteKey::ALL {
            assert!(seen.insert(key.key()), "{} twice", key.key());
            let values: Vec<String> = key.params().iter().map(|p| format!("{p} (a; \"b\")")).collect();
            let message = Message { key, values };
            let note = Note::parse(&message.to_string()).unwrap();
            assert_eq!(note.items(), &[NoteItem::Message(message)]);
        }
    }

    #[test]
    fn keys_and_the_users_own_words_mix() {
        let note = Note::parse("ab.summary-whole-ms; autocannon.duration(seconds=5.09); host busy, re-run; e.g. later").unwrap();
        assert_eq!(
            note.items(),
            &[
                NoteItem::Message(Message::plain(NoteKey::AbSummaryWholeMs)),
                NoteItem::Message(Message::new(NoteKey::AutocannonDuration, &[&"5.09"])),
                NoteItem::Text("host busy, re-run".into()),
                NoteItem::Text("e.g. later".into()),
            ]
        );
        assert!(Note::parse("the host was busy").unwrap().is_own_text());
        assert_eq!(Note::parse("x.y").unwrap().items(), &[NoteItem::Text("x.y".into())], "an unknown namespace is text");
    }

    #[test]
    fn malformed_keys_say_where_and_why() {
        let error = |text: &str| Note::parse(text).unwrap_err();
        assert_eq!(error("ab.summary-whole-ms; ab.nope").at, 22);
        assert!(error("ab.nope").message.contains("the keys of ab are ab.gnuplot-resolution"));
        let e = error("hey.cap(max=3");
        assert_eq!((e.at, e.message.as_str()), (14, "`hey.cap(` has no closing `)`"));
        let e = error("hey.cap(rows=3)");
        assert_eq!((e.at, e.message.as_str()), (9, "`hey.cap` has no parameter `rows`; its parameters are max"));
        assert_eq!(error("hey.cap").message, "`hey.cap` needs its parameters: hey.cap(max=…)");
        assert_eq!(error("hey.beyond-cap(rows=2)").message, "`hey.beyond-cap` lacks max");
        assert_eq!(error("siege.logged(path=\"/var/log)").message, "a quoted value has no closing `\"`");
        assert_eq!(error("hey.cap(max=1, max=2)").message, "`max` is given twice");
    }
}
