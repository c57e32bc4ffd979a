//! Run notes in the page's language: each key's English and Japanese sentence lives with the key
//! in `request_row::note_words` (measure says the English one on its terminal); here a note's
//! items become one language's text, the user's own words kept as written.

use crate::model::{Lang, Message, Note, NoteItem, NoteKey};

/// One message in one language.
pub fn message_text(message: &Message, lang: Lang) -> String {
    let (en, ja) = message.key.words();
    let sentence = match lang {
        Lang::En => en,
        Lang::Ja => ja,
    };
    let values: Vec<(&str, &str)> = message.key.params().iter().copied().zip(message.values.iter().map(String::as_str)).collect();
    super::fill(sentence, &values)
}

/// A note in one language: the user's own words as written, each message in the language's
/// sentence, joined by `Strings::clause_sep` (English joins them with `; `, Japanese writes each
/// as a sentence).
pub fn note_text(note: &Note, lang: Lang) -> String {
    if note.is_own_text() {
        return note.as_str().to_string();
    }
    let parts: Vec<String> = note
        .items()
        .iter()
        .map(|item| match item {
            NoteItem::Message(m) => message_text(m, lang),
            NoteItem::Text(t) => t.clone(),
        })
        .collect();
    parts.join(super::strings(lang).clause_sep)
}

/// Every key's sentence with its parameters filled, for the glossary's tests.
pub fn samples(lang: Lang) -> Vec<String> {
    NoteKey::ALL
        .iter()
        .map(|&key| {
            let values: Vec<String> = key.params().iter().map(|_| "12".to_string()).collect();
            message_text(&Message { key, values }, lang)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_renders_per_language_and_own_words_stay_as_written() {
        let note = Note::parse("ab.summary-whole-ms; autocannon.duration(seconds=5.09)").unwrap();
        assert_eq!(
            note_text(&note, Lang::En),
            "ab prints whole milliseconds in its summary; autocannon's run took 5.09 s (its duration, to 0.01 s)"
        );
        assert_eq!(note_text(&note, Lang::Ja), "abの集計の表示は整数ミリ秒。autocannonの実行時間は5.09秒（0.01秒単位の記録）");
        let own = Note::parse("host busy; re-run later").unwrap();
        assert_eq!(note_text(&own, Lang::Ja), "host busy; re-run later");
    }
}
