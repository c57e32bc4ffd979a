//! Text written into SVG: the five XML entities, in content and attribute values alike. A file
//! of its own so the writers of marks, compacted paths and documents share it without using
//! each other.

/// Text for XML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_escaped(&mut out, text);
    out
}

/// [`escape`] onto the end of `out`.
pub fn push_escaped(out: &mut String, text: &str) {
    // The five are ASCII, so the text between them is copied as whole slices, not char by char.
    let mut plain = 0;
    for (at, byte) in text.bytes().enumerate() {
        let entity = match byte {
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'&' => "&amp;",
            b'"' => "&quot;",
            b'\'' => "&apos;",
            _ => continue,
        };
        out.push_str(&text[plain..at]);
        out.push_str(entity);
        plain = at + 1;
    }
    out.push_str(&text[plain..]);
}
