//! The one home of the rules for text that becomes Markdown: how dataset text is escaped (the
//! `md` filter and every value an article cites), which link schemes are safe, and how an
//! author's article is made inert before it is rendered to HTML and copied into report.md.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use std::ops::Range;

/// Escapes text for Markdown (tables included): HTML-significant characters become entities and
/// Markdown punctuation is backslash-escaped, so the text shows as itself and never becomes a
/// link, an image, HTML or a table cell break.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '|' | '\\' | '*' | '_' | '[' | ']' | '`' | '#' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Whether a link destination may reach a page: http, https, mailto, or no scheme (a relative
/// link or a fragment). Browsers ignore tabs and line breaks inside a URL and leading spaces and
/// controls, so they are ignored here too before the scheme is read.
pub fn safe_url(url: &str) -> bool {
    let cleaned: String = url.trim_start_matches(|c: char| c <= ' ').chars().filter(|c| !matches!(c, '\t' | '\n' | '\r')).collect();
    let scheme_end = cleaned.find([':', '/', '?', '#']);
    match scheme_end {
        Some(end) if cleaned[end..].starts_with(':') => {
            let scheme = cleaned[..end].to_ascii_lowercase();
            matches!(scheme.as_str(), "http" | "https" | "mailto")
        }
        _ => true,
    }
}

/// The article's Markdown made inert, for both the HTML page and report.md: raw HTML becomes
/// text (entities), and a link or image whose destination is not [`safe_url`] becomes its text.
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
                let mut inert = String::with_capacity(raw.len() + 16);
                for c in raw.chars() {
                    match c {
                        '&' => inert.push_str("&amp;"),
                        '<' => inert.push_str("&lt;"),
                        '>' => inert.push_str("&gt;"),
                        c => inert.push(c),
                    }
                }
                edits.push((range, inert));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_web_and_mail_schemes_and_relative_links_are_safe() {
        for url in ["https://example.org/a", "HTTP://x", "mailto:a@b.c", "runs/r01.html", "#methods", "../en/index.html", "a:b/c?x=1"] {
            assert_eq!(safe_url(url), url != "a:b/c?x=1", "{url}");
        }
        for url in [
            "javascript:alert(1)",
            " JavaScript:alert(1)",
            "java\tscript:alert(1)",
            "\u{1}javascript:x",
            "data:text/html,<script>",
            "vbscript:x",
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
            "See the run and javascript:alert(2) and x.\n\n&lt;script&gt;alert(4)&lt;/script&gt;\n\n\
             Inline &lt;img src=x onerror=alert(5)&gt; and [ok](runs/r01.html) and <https://example.org>.\n"
        );
    }

    #[test]
    fn escaped_text_stays_text() {
        let value = "[x](javascript:alert(1)) <script>a_b</script> | *";
        assert_eq!(escape(value), "\\[x\\](javascript:alert(1)) &lt;script&gt;a\\_b&lt;/script&gt; \\| \\*");
        assert_eq!(sanitize(&escape(value)), escape(value));
    }
}
