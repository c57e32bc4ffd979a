//! Text bound for the terminal. Dataset text (factor values, notes, run ids, file names) can hold
//! control characters; written raw, `\x1b]0;...` retitles the terminal or worse. Every line
//! analyze prints goes through [`escape`].

/// `text` with every control character except line breaks and tabs, and every bidirectional
/// override, written as a visible `\u{..}` escape.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        // A page's hidden characters, and a carriage return, which would overwrite the line.
        if request_row::name::is_hidden(c) || c == '\r' {
            out.push_str(&c.escape_unicode().to_string());
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
    fn control_characters_become_visible_escapes() {
        assert_eq!(escape("r1\x1b]0;owned\x07 ok\n\tnext"), "r1\\u{1b}]0;owned\\u{7} ok\n\tnext");
        assert_eq!(escape("\u{9b}31m \u{202e}abc"), "\\u{9b}31m \\u{202e}abc");
        assert_eq!(escape("直接 · 2 · sync"), "直接 · 2 · sync");
    }
}
