//! Placeholders in the strings of a command plan: `{name}` is replaced by the value of `name` (a factor's
//! level in the run's condition, or one of the run's own values such as `{port}`), `{{name}}` stands for
//! the literal text `{name}`, and every other brace is text. So an nginx config with its `events { ... }`
//! blocks needs no escaping; only a `{word}` is read as a placeholder.
//!
//! Pure functions on `&str`, so the rule is tested without a plan.

/// One piece of a template: text as written, or a placeholder's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece<'a> {
    Text(&'a str),
    Name(&'a str),
}

/// Whether `name` may be a placeholder (and so a factor's name): an ASCII letter or `_`, then letters,
/// digits and `_`.
pub fn is_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_') && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The length of the name at the start of `s`, if `s` starts with a name.
fn name_len(s: &str) -> usize {
    let len = s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(s.len());
    if is_name(&s[..len]) {
        len
    } else {
        0
    }
}

/// `text` cut into text and placeholders, in order.
pub fn pieces(text: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut literal_from = 0;
    let mut i = 0;
    while let Some(found) = text[i..].find('{') {
        let at = i + found;
        let rest = &text[at..];
        // `{{name}}`: the text `{name}`.
        if let Some(inner) = rest.strip_prefix("{{") {
            let n = name_len(inner);
            if n > 0 && inner[n..].starts_with("}}") {
                out.push(Piece::Text(&text[literal_from..at]));
                out.push(Piece::Text(&text[at + 1..at + 2 + n + 1]));
                i = at + 2 + n + 2;
                literal_from = i;
                continue;
            }
        }
        let n = name_len(&rest[1..]);
        if n > 0 && rest[1 + n..].starts_with('}') {
            out.push(Piece::Text(&text[literal_from..at]));
            out.push(Piece::Name(&text[at + 1..at + 1 + n]));
            i = at + 1 + n + 1;
            literal_from = i;
            continue;
        }
        i = at + 1;
    }
    out.push(Piece::Text(&text[literal_from..]));
    out.retain(|p| *p != Piece::Text(""));
    out
}

/// The placeholder names `text` uses, in order (repeats kept).
pub fn names(text: &str) -> Vec<&str> {
    pieces(text)
        .into_iter()
        .filter_map(|p| match p {
            Piece::Name(n) => Some(n),
            Piece::Text(_) => None,
        })
        .collect()
}

/// `text` with every placeholder replaced by `value(name)`; `Err(name)` for the first name it has no value
/// for (the plan's validation has refused those, so at run time this is a bug).
pub fn fill<'v>(text: &str, value: impl Fn(&str) -> Option<&'v str>) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    for piece in pieces(text) {
        match piece {
            Piece::Text(t) => out.push_str(t),
            Piece::Name(n) => out.push_str(value(n).ok_or_else(|| n.to_string())?),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lookup(name: &str) -> Option<&'static str> {
        match name {
            "port" => Some("4321"),
            "run_dir" => Some("/tmp/r"),
            _ => None,
        }
    }

    #[test]
    fn a_word_in_braces_is_a_placeholder() {
        assert_eq!(fill("--port={port}", lookup).unwrap(), "--port=4321");
        assert_eq!(fill("{run_dir}/www/{port}{port}", lookup).unwrap(), "/tmp/r/www/43214321");
        assert_eq!(names("listen 127.0.0.1:{port}; root {run_dir};"), ["port", "run_dir"]);
    }

    #[test]
    fn other_braces_are_text_so_an_nginx_config_needs_no_escaping() {
        let conf = "events {\n    worker_connections 64;\n}\nhttp { server { listen {port}; } }\n{ } {1x} {-a} {";
        assert_eq!(names(conf), ["port"]);
        assert_eq!(
            fill(conf, lookup).unwrap(),
            "events {\n    worker_connections 64;\n}\nhttp { server { listen 4321; } }\n{ } {1x} {-a} {"
        );
    }

    #[test]
    fn doubled_braces_around_a_word_are_the_literal_word_in_braces() {
        assert_eq!(fill("${{uri}} and {{port}}", lookup).unwrap(), "${uri} and {port}");
        assert!(names("${{uri}}").is_empty());
        // `{{` not around a word: the first brace is text, the word is a placeholder.
        assert_eq!(fill("{{port}", lookup).unwrap(), "{4321");
    }

    #[test]
    fn an_unknown_name_is_reported() {
        assert_eq!(fill("${uri}", lookup), Err("uri".into()));
    }

    #[test]
    fn names_are_ascii_words() {
        assert!(is_name("concurrency") && is_name("_x1") && is_name("Build_2"));
        assert!(!is_name("") && !is_name("1x") && !is_name("a-b") && !is_name("a.b") && !is_name("ü"));
    }
}
