//! The SVG document around a drawing: plotters' backend into a string, made lighter
//! ([`super::compact`]), then the accessible name and description (`<title>`, `<desc>`, `role="img"`, `aria-labelledby`) after the
//! opening tag. A drawing error becomes a small SVG that says so, never a panic.

use super::labels;
use super::marks::Pointable;
use super::style::{font_size, FONT, INK, TEXT_PX};
use super::xml::escape;
use crate::model::Lang;
use plotters::coord::Shift;
use plotters::prelude::*;

/// What a figure is, for screen readers and for the unique ids of its title and description.
pub struct About {
    /// Unique per figure: derived from the chart function, the run and the language.
    pub id: String,
    pub title: String,
    pub desc: String,
}

type SvgArea<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type SvgResult = Result<(), DrawingAreaErrorKind<std::io::Error>>;

/// Draws with `draw` on an SVG of `size` and returns the accessible document.
pub fn render(size: (u32, u32), lang: Lang, about: &About, draw: impl FnOnce(&SvgArea) -> SvgResult) -> String {
    render_pointable(size, lang, about, |root, _| draw(root))
}

/// [`render`] for a figure with marks a reader can point at: `draw` adds them to the
/// [`Pointable`] it is given, and they are written in their layers' places.
pub fn render_pointable(size: (u32, u32), lang: Lang, about: &About, draw: impl FnOnce(&SvgArea, &mut Pointable) -> SvgResult) -> String {
    let mut buffer = String::new();
    let mut marks = Pointable::default();
    let outcome = {
        let root = SVGBackend::with_string(&mut buffer, size).into_drawing_area();
        let drawn = root.fill(&WHITE).and_then(|()| draw(&root, &mut marks));
        drawn.and_then(|()| root.present())
    };
    let document = match outcome {
        Ok(()) => accessible(&marks.fill_in(&super::compact::compact(&buffer)), about, lang),
        Err(error) => accessible(&failure(size, &labels::failed(lang, &error.to_string())), about, lang),
    };
    xml_legal(document)
}

/// Whether XML 1.0 allows `c` in a document. Dataset text (a title, a note) may hold control
/// characters; one of them makes the whole SVG unparseable, so a browser shows a broken image.
/// [`crate::render::bidi::neutralised`] shows them as `\u{..}` escapes, at the one place every
/// figure passes, rather than at each label; what XML forbids beyond them (U+FFFE, U+FFFF) is
/// dropped.
fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// The document with control characters and bidirectional controls shown as escapes
/// ([`crate::render::bidi`]) and without the other characters XML forbids.
pub fn xml_legal(document: String) -> String {
    let document = crate::render::bidi::neutralised(document);
    if all_xml_chars(&document) {
        return document;
    }
    document.chars().filter(|&c| is_xml_char(c)).collect()
}

/// `document.chars().all(is_xml_char)` without decoding characters: a `str` holds no surrogates,
/// so the only characters XML forbids in it are the controls below U+20 but tab, newline and
/// carriage return (single bytes) and U+FFFE and U+FFFF (0xEF 0xBF 0xBE or 0xBF). The bytes are
/// folded in chunks without an early exit, which the compiler vectorises; the 0xEF lead bytes are
/// found by memchr.
fn all_xml_chars(document: &str) -> bool {
    let bytes = document.as_bytes();
    let is_bad_control = |b: u8| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r');
    let controls = bytes.chunks(4096).any(|chunk| chunk.iter().fold(false, |bad, &b| bad | is_bad_control(b)));
    !controls && !memchr::memchr_iter(0xEF, bytes).any(|at| matches!(bytes.get(at + 1..at + 3), Some([0xBF, 0xBE | 0xBF])))
}

/// A figure that only says why it is missing.
fn failure(size: (u32, u32), message: &str) -> String {
    let (w, h) = size;
    format!(
        "<svg width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" xmlns=\"http://www.w3.org/2000/svg\">\n\
         <rect x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" fill=\"#FFFFFF\"/>\n\
         <text x=\"{x}\" y=\"{y}\" text-anchor=\"middle\" font-family=\"{FONT}\" font-size=\"{px}\" fill=\"{ink}\">{text}</text>\n</svg>\n",
        x = w / 2,
        y = h / 2,
        px = TEXT_PX,
        ink = hex(INK),
        text = escape(message),
    )
}

/// Adds `role`, `aria-labelledby` and `lang` to the `<svg>` tag and puts `<title>` and `<desc>`
/// first inside it.
pub fn accessible(svg: &str, about: &About, lang: Lang) -> String {
    let Some(start) = svg.find("<svg") else { return svg.to_string() };
    let Some(end) = svg[start..].find('>').map(|i| start + i) else { return svg.to_string() };
    let (open, rest) = (&svg[..end], &svg[end + 1..]);
    let id = escape(&about.id);
    let mut out = String::with_capacity(svg.len() + about.title.len() + about.desc.len() + 200);
    out.push_str(open.trim_end_matches('/'));
    out.push_str(&format!(" role=\"img\" aria-labelledby=\"{id}-title {id}-desc\" lang=\"{}\">\n", lang.code()));
    out.push_str(&format!("<title id=\"{id}-title\">{}</title>\n", escape(&about.title)));
    out.push_str(&format!("<desc id=\"{id}-desc\">{}</desc>", escape(&about.desc)));
    out.push_str(rest);
    out
}

fn hex(color: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", color.0, color.1, color.2)
}

/// A text style of `px` CSS pixels.
pub fn text_style(px: f64, color: RGBColor) -> TextStyle<'static> {
    (FONT, font_size(px)).into_font().color(&color)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_byte_scan_agrees_with_the_character_rule() {
        // Every character below U+80, around the forbidden U+FFFE and U+FFFF, and others whose
        // encodings hold 0xEF or 0xBF, alone, in text and past a 4096-byte chunk boundary.
        let long = "x".repeat(4095);
        let chars = (0u32..0x80).chain(0xFFF0..=0xFFFF).chain([0xD7FF, 0xE000, 0xFF08, 0x3042, 0x10000, 0x1F600, 0xBF, 0xEF]);
        for c in chars.filter_map(char::from_u32) {
            for text in [c.to_string(), format!("遅い{c}（x）"), format!("{long}{c}"), format!("{c}\u{ef}\u{bf}")] {
                assert_eq!(all_xml_chars(&text), text.chars().all(is_xml_char), "{:?}", c);
            }
        }
    }

    #[test]
    fn escape_writes_the_five_entities_and_leaves_the_rest() {
        let reference = |text: &str| -> String {
            text.chars()
                .map(|c| match c {
                    '<' => "&lt;".to_string(),
                    '>' => "&gt;".to_string(),
                    '&' => "&amp;".to_string(),
                    '"' => "&quot;".to_string(),
                    '\'' => "&apos;".to_string(),
                    c => c.to_string(),
                })
                .collect()
        };
        for text in ["", "plain", "<a href=\"x&y\">it's</a>", "遅い<遅い>&", "&&&", "\u{202e}'é'", "<"] {
            assert_eq!(escape(text), reference(text), "{text:?}");
        }
        assert_eq!(escape("a<b & 'c'"), "a&lt;b &amp; &apos;c&apos;");
    }

    #[test]
    fn controls_are_shown_escaped_and_other_characters_xml_forbids_are_dropped() {
        let text = "a\u{0}b\u{1}\u{8}\u{b}\u{c}\u{e}\u{1f}c\u{fffe}\u{ffff}d\t\n\r é 遅い 😀";
        assert_eq!(xml_legal(text.to_string()), "a\\u{0}b\\u{1}\\u{8}\\u{b}\\u{c}\\u{e}\\u{1f}cd\t\n\r é 遅い 😀");
    }

    #[test]
    fn title_and_desc_come_first_with_their_ids() {
        let svg = "<svg width=\"10\" height=\"10\" viewBox=\"0 0 10 10\" xmlns=\"http://www.w3.org/2000/svg\">\n<rect/>\n</svg>\n";
        let about = About { id: "fig-1".into(), title: "A < B".into(), desc: "x & y".into() };
        let out = accessible(svg, &about, Lang::Ja);
        assert_eq!(
            out,
            "<svg width=\"10\" height=\"10\" viewBox=\"0 0 10 10\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" \
             aria-labelledby=\"fig-1-title fig-1-desc\" lang=\"ja\">\n<title id=\"fig-1-title\">A &lt; B</title>\n\
             <desc id=\"fig-1-desc\">x &amp; y</desc>\n<rect/>\n</svg>\n"
        );
    }
}
