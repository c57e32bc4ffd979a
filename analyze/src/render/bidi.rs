//! Controls in text a reader sees. Dataset text that is not a name (a note, a title, a threshold
//! k6 printed, an article) may hold any character, and two kinds change what a page shows:
//!
//! - control characters (C0 but tab, line feed and carriage return; DEL; C1): ESC opens a
//!   terminal sequence when a Markdown twin is printed, NUL or a form feed breaks an SVG;
//! - bidirectional controls, U+202A–U+202E (embeddings and overrides) and U+2066–U+2069
//!   (isolates), which reorder the characters after them: text holding U+202E shows reversed,
//!   and can make a page say what its text does not (the "Trojan Source" trick).
//!
//! Every page, Markdown twin and figure shows each as a visible `\u{1b}` instead, as the terminal
//! does ([`crate::terminal::escape`]). Names never hold them (the names rule refuses them, see
//! `request_row::name`); this is the guard for free text, at the one place every page passes.
//! Tab, line feed and carriage return are the templates' own layout (and whitespace to HTML);
//! dataset text in Markdown has its line breaks made spaces by `markdown::escape`.

/// Which characters are hidden is the names rule's (`request_row::name`), so the terminal
/// ([`crate::terminal::escape`]) and the pages show the same ones.
pub use request_row::name::is_hidden;

/// `text` with every [`is_hidden`] character written as a visible `\u{..}` escape.
pub fn neutralised(text: String) -> String {
    if !has_hidden(&text) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_hidden(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether `text` holds an [`is_hidden`] character, without decoding it: a C0 control or DEL is
/// one byte; a C1 control is 0xC2 then 0x80..=0x9F; a bidirectional control is 0xE2 then 0x80
/// 0xAA..=0xAE (U+202A-U+202E) or 0x81 0xA6..=0xA9 (U+2066-U+2069). The single bytes are folded
/// in chunks without an early exit, which the compiler vectorises, and only the bytes after each
/// 0xC2 and 0xE2 (found by memchr) are looked at. Every page and figure passes here: a report's
/// 22 MB of SVG took 220M instructions character by character.
fn has_hidden(text: &str) -> bool {
    let bytes = text.as_bytes();
    let is_control_byte = |b: u8| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) || b == 0x7F;
    bytes.chunks(4096).any(|chunk| chunk.iter().fold(false, |bad, &b| bad | is_control_byte(b)))
        || memchr::memchr_iter(0xC2, bytes).any(|at| matches!(bytes.get(at + 1), Some(0x80..=0x9F)))
        || memchr::memchr_iter(0xE2, bytes).any(|at| matches!(bytes.get(at + 1..at + 3), Some([0x80, 0xAA..=0xAE] | [0x81, 0xA6..=0xA9])))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_byte_scan_finds_exactly_the_characters_a_character_scan_finds() {
        // Every character below U+0100 and U+2000-U+20FF (the controls' neighbours share their
        // first bytes), alone and inside other text, and characters whose encodings hold 0xC2 or
        // 0xE2 elsewhere.
        let around = ['\u{e2}', '\u{c2}', '\u{ff08}', '\u{3042}', '\u{1f600}', '\u{202f}', '\u{2029}', '\u{a0}'];
        for c in ('\u{0}'..='\u{ff}').chain('\u{2000}'..='\u{20ff}').chain(around) {
            for text in [c.to_string(), format!("p95 15.18{c}15.99 遅い"), format!("{c}\u{e2}"), format!("\u{2013}{c}\u{c2}")] {
                assert_eq!(has_hidden(&text), text.chars().any(is_hidden), "{:?}", text);
            }
        }
        assert!(has_hidden("a\u{202e}b") && has_hidden("\u{2069}") && !has_hidden("15.18\u{2013}15.99"));
        assert!(has_hidden("k6 \u{1b}[2J") && has_hidden("\u{7f}") && has_hidden("\u{9b}31m") && !has_hidden("a\tb\r\nc é"));
    }

    #[test]
    fn every_override_embedding_and_isolate_becomes_visible() {
        let text: String = ('\u{202a}'..='\u{202e}').chain('\u{2066}'..='\u{2069}').collect();
        assert_eq!(neutralised(text), "\\u{202a}\\u{202b}\\u{202c}\\u{202d}\\u{202e}\\u{2066}\\u{2067}\\u{2068}\\u{2069}");
        // Marks that only hint a direction (U+200E, U+200F) and right-to-left text stay.
        assert_eq!(neutralised("a\u{200e}b עברית".to_string()), "a\u{200e}b עברית");
    }

    #[test]
    fn control_characters_become_visible_and_layout_stays() {
        assert_eq!(neutralised("p(95)<2\u{1b}]0;owned\u{7}".to_string()), "p(95)<2\\u{1b}]0;owned\\u{7}");
        assert_eq!(neutralised("\u{0}\u{c}\u{7f}\u{85}".to_string()), "\\u{0}\\u{c}\\u{7f}\\u{85}");
        assert_eq!(neutralised("<p>\n\ta\r\n</p>".to_string()), "<p>\n\ta\r\n</p>");
    }
}
