//! The one home of the rules for text that becomes Markdown: how dataset text is escaped (the
//! `md` filter and every value an article cites), which link schemes are safe, and how an
//! author's article is made inert before it is rendered to HTML and copied into report.md.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use std::ops::Range;

/// Escapes text for Markdown (tables included): every character Markdown or HTML reads as syntax
/// is backslash-escaped, so the text shows as itself and never becomes a link, an image, HTML or
/// a table cell break. Backslashes rather than entities: an entity inside `<…>` would turn it
/// into an autolink whose text shows the entity (`&lt;` escaped twice).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            c => push_escaped(&mut out, c),
        }
    }
    out
}

/// Pushes `c`, backslash-escaped when Markdown or HTML would read it as syntax.
fn push_escaped(out: &mut String, c: char) {
    if matches!(c, '&' | '<' | '>' | '|' | '\\' | '*' | '_' | '[' | ']' | '`' | '#') {
        out.push('\\');
    }
    out.push(c);
}

/// Raw HTML of an article as text: [`escape`]d, its line breaks kept.
fn inert(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len() + 16);
    for c in raw.chars() {
        match c {
            '\n' | '\r' => out.push(c),
            c => push_escaped(&mut out, c),
        }
    }
    out
}

/// Whether a link destination may reach a page: http, https, mailto, or no scheme and no
/// authority (a relative path or a fragment). Browsers ignore tabs and line breaks inside a URL
/// and leading spaces and controls, so they are ignored here too before the scheme is read. A
/// destination starting with two slashes (`//host/x`, and `\\host` or `/\host`, since browsers
/// read a backslash as a slash) names another host with the page's own scheme, and a network
/// share under file:// on Windows: refused.
pub fn safe_url(url: &str) -> bool {
    let cleaned: String = url.trim_start_matches(|c: char| c <= ' ').chars().filter(|c| !matches!(c, '\t' | '\n' | '\r')).collect();
    let scheme_end = cleaned.find([':', '/', '\\', '?', '#']);
    match scheme_end {
        Some(end) if cleaned[end..].starts_with(':') => {
            let scheme = cleaned[..end].to_ascii_lowercase();
            matches!(scheme.as_str(), "http" | "https" | "mailto")
        }
        _ => {
            let mut start = cleaned.chars();
            !matches!((start.next(), start.next()), (Some('/' | '\\'), Some('/' | '\\')))
        }
    }
}

/// The article's Markdown made inert, for both the HTML page and report.md: raw HTML becomes
/// text (backslash escapes), and a link or image whose destination is not [`safe_url`] becomes its text.
/// Everything else is left byte for byte.
pub fn sanitize(markdown: &str) -> String {
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    let mut open: Option<(Range<usize>, String)> = None;
    let mut depth = 0usize;
    for (event, range) in Parser::new_ext(markdown, Options::ENABLE_TABLES).into_offset_iter() {
        if let Some((_, text)) = open.as_mut() {
            match event {
                Event::Start(Tag::Link { .. } | Tag::Image { .. }) => depth += 1,
                Event::End(TagEnd::Link | TagEnd::Image) if depth > 0 => depth -= 1,
                Event::End(TagEnd::Link | TagEnd::Image) => {
                    if let Some((whole, text)) = open.take() {
                        edits.push((whole, escape(&text)));
                    }
                }
                Event::Text(t) | Event::Code(t) | Event::Html(t) | Event::InlineHtml(t) => text.push_str(&t),
                Event::SoftBreak | Event::HardBreak => text.push(' '),
                _ => {}
            }
            continue;
        }
        match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) if !safe_url(&dest_url) => {
                open = Some((range, String::new()));
            }
            Event::Html(_) | Event::InlineHtml(_) => {
                let raw = &markdown[range.clone()];
                edits.push((range, inert(raw)));
            }
            _ => {}
        }
    }
    edits.sort_by_key(|(range, _)| range.start);
    let mut out = String::with_capacity(markdown.len());
    let mut at = 0;
    for (range, text) in edits {
        if range.start < at {
            continue;
        }
        out.push_str(&markdown[at..range.start]);
        out.push_str(&text);
        at = range.end;
    }
    out.push_str(&markdown[at..]);
    out
}

/// Markdown to HTML, with the author's raw HTML shown as text: dataset text is always escaped.
/// Tables get a scrolling wrapper with its cue (`scroll_cue`, shown while the wrapper can scroll)
/// and a caption (`caption` with `{n}` numbering them), as every table of the report has.
pub fn markdown_to_html(markdown: &str, caption: &str, scroll_cue: &str) -> String {
    // `markdown` comes through `render_markdown`, which already made it inert; these two rules
    // hold again here so no path to this function can emit raw HTML or a dangerous href.
    let parser = Parser::new_ext(markdown, Options::ENABLE_TABLES).map(|event| match event {
        // A one-line comment is a note to whoever edits the file (measure marks its block in a dataset's
        // README with two), not text for the reader: it is dropped, as a browser would not show it either.
        Event::Html(html) | Event::InlineHtml(html) if is_comment(&html) => Event::Text("".into()),
        Event::Html(html) | Event::InlineHtml(html) => Event::Text(html),
        Event::Start(Tag::Link { link_type, dest_url, title, id }) if !safe_url(&dest_url) => {
            Event::Start(Tag::Link { link_type, dest_url: "".into(), title, id })
        }
        Event::Start(Tag::Image { link_type, dest_url, title, id }) if !safe_url(&dest_url) => {
            Event::Start(Tag::Image { link_type, dest_url: "".into(), title, id })
        }
        other => other,
    });
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, parser);
    let mut out = String::with_capacity(html.len());
    for (n, piece) in html.split("<table>").enumerate() {
        if n > 0 {
            out.push_str(&format!(
                "<div class=\"table-wrap\"><p class=\"scroll-cue\" aria-hidden=\"true\">{scroll_cue}</p><table><caption>{}</caption>",
                crate::render::i18n::fill(caption, &[("n", &n.to_string())])
            ));
        }
        out.push_str(&piece.replace("</table>", "</table></div>"));
    }
    out
}

/// `<!-- ... -->` whole (a comment spread over several lines reaches here a line at a time, and is shown).
fn is_comment(html: &str) -> bool {
    let html = html.trim();
    html.starts_with("<!--") && html.ends_with("-->") && !html[4..].trim_end_matches("-->").contains("-->")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_web_and_mail_schemes_and_relative_links_are_safe() {
        for url in ["https://example.org/a", "HTTP://x", "mailto:a@b.c", "runs/r01.html", "#methods", "../en/index.html", "a:b/c?x=1"] {
            assert_eq!(safe_url(url), url != "a:b/c?x=1", "{url}");
        }
        for url in ["/en/index.html", "./a//b", "runs//r01.html", "?x=//y", "#//x", "/"] {
            assert!(safe_url(url), "{url:?}");
        }
        for url in [
            "javascript:alert(1)",
            " JavaScript:alert(1)",
            "java\tscript:alert(1)",
            "\u{1}javascript:x",
            "data:text/html,<script>",
            "vbscript:x",
            "//evil.example/x",
            " //evil.example/x",
            "/\t/evil.example/x",
            "\\\\evil.example\\share",
            "/\\evil.example/x",
            "\\/evil.example/x",
        ] {
            assert!(!safe_url(url), "{url:?}");
        }
    }

    #[test]
    fn dangerous_links_and_raw_html_become_text() {
        let article = "See [the run](javascript:alert(1)) and <javascript:alert(2)> and ![x](javascript:alert(3)).\n\n\
                       <script>alert(4)</script>\n\nInline <img src=x onerror=alert(5)> and [ok](runs/r01.html) and <https://example.org>.\n";
        let clean = sanitize(article);
        assert_eq!(
            clean,
            "See the run and javascript:alert(2) and x.\n\n\\<script\\>alert(4)\\</script\\>\n\n\
             Inline \\<img src=x onerror=alert(5)\\> and [ok](runs/r01.html) and <https://example.org>.\n"
        );
    }

    #[test]
    fn escaped_text_stays_text() {
        let value = "[x](javascript:alert(1)) <script>a_b</script> | *";
        assert_eq!(escape(value), "\\[x\\](javascript:alert(1)) \\<script\\>a\\_b\\</script\\> \\| \\*");
        assert_eq!(sanitize(&escape(value)), escape(value));
    }

    /// `<http://ok.example/?a=<b>>` is no autolink (one may not hold `<`): text around the
    /// tag `<b>`. Made inert with entities, `<http://ok.example/?a=&lt;b&gt;>` became one, whose
    /// text showed `&lt;b&gt;`.
    #[test]
    fn raw_html_inside_angle_brackets_is_shown_once_escaped() {
        let clean = sanitize("Go <http://ok.example/?a=<b>> now.\n");
        assert_eq!(clean, "Go <http://ok.example/?a=\\<b\\>> now.\n");
        let html = crate::render::article::markdown_to_html(&clean, "Table {n}", "");
        assert_eq!(html, "<p>Go &lt;http://ok.example/?a=&lt;b&gt;&gt; now.</p>\n");
        // A real autolink stays a link, its text escaped once.
        let html = crate::render::article::markdown_to_html(&sanitize("<https://ok.example/?a=1&b=2>\n"), "Table {n}", "");
        assert_eq!(html, "<p><a href=\"https://ok.example/?a=1&amp;b=2\">https://ok.example/?a=1&amp;b=2</a></p>\n");
    }
}
