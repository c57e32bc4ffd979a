//! Bidirectional controls in text a reader sees. U+202A–U+202E (embeddings and overrides) and
//! U+2066–U+2069 (isolates) reorder the characters after them: a run id or a factor value holding
//! U+202E shows reversed, and can make a page say what its text does not (the "Trojan Source"
//! trick). Every page, Markdown twin and figure shows them as a visible `\u{202e}` instead, as
//! the terminal does ([`crate::terminal::escape`]); the data files (JSON, CSV) keep the text as
//! it is.

/// Whether `c` is a bidirectional embedding, override or isolate control.
pub fn is_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with every bidirectional control written as a visible `\u{..}` escape.
pub fn neutralised(text: String) -> String {
    if !text.chars().any(is_control) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_control(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_override_embedding_and_isolate_becomes_visible() {
        let text: String = ('\u{202a}'..='\u{202e}').chain('\u{2066}'..='\u{2069}').collect();
        assert_eq!(neutralised(text), "\\u{202a}\\u{202b}\\u{202c}\\u{202d}\\u{202e}\\u{2066}\\u{2067}\\u{2068}\\u{2069}");
        // Marks that only hint a direction (U+200E, U+200F) and right-to-left text stay.
        assert_eq!(neutralised("a\u{200e}b עברית".to_string()), "a\u{200e}b עברית");
    }
}
