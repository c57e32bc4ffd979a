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
    if !has_control(&text) {
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

/// Whether `text` holds a control, without decoding it: each is three bytes in UTF-8, 0xE2 then
/// 0x80 0xAA..=0xAE (U+202A-U+202E) or 0x81 0xA6..=0xA9 (U+2066-U+2069), so only the bytes after
/// each 0xE2 (found by memchr) are looked at. Every page and figure passes here: a report's 22 MB
/// of SVG took 220M instructions character by character.
fn has_control(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr_iter(0xE2, bytes).any(|at| matches!(bytes.get(at + 1..at + 3), Some([0x80, 0xAA..=0xAE] | [0x81, 0xA6..=0xA9])))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_byte_scan_finds_exactly_the_controls_a_character_scan_finds() {
        // Every character U+2000-U+20FF (the controls' neighbours share their first bytes), alone
        // and inside other text, and characters whose encodings hold 0xE2 elsewhere.
        for c in ('\u{2000}'..='\u{20ff}').chain(['\u{e2}', '\u{ff08}', '\u{3042}', '\u{1f600}', '\u{202f}', '\u{2029}']) {
            for text in [c.to_string(), format!("p95 15.18{c}15.99 遅い"), format!("{c}\u{e2}"), format!("\u{2013}{c}")] {
                assert_eq!(has_control(&text), text.chars().any(is_control), "{:?}", text);
            }
        }
        assert!(has_control("a\u{202e}b") && has_control("\u{2069}") && !has_control("15.18\u{2013}15.99"));
    }

    #[test]
    fn every_override_embedding_and_isolate_becomes_visible() {
        let text: String = ('\u{202a}'..='\u{202e}').chain('\u{2066}'..='\u{2069}').collect();
        assert_eq!(neutralised(text), "\\u{202a}\\u{202b}\\u{202c}\\u{202d}\\u{202e}\\u{2066}\\u{2067}\\u{2068}\\u{2069}");
        // Marks that only hint a direction (U+200E, U+200F) and right-to-left text stay.
        assert_eq!(neutralised("a\u{200e}b עברית".to_string()), "a\u{200e}b עברית");
    }
}
