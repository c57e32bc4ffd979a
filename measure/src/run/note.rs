//! The notes measure writes on a run's row: message keys with parameters, never English prose, so
//! each report language renders its own sentence. The syntax and the keys' sentences live in
//! analyze (model/note.rs, render/i18n/notes.rs), which reads these notes; this writer follows that
//! syntax: `key(name=value, ...)`, a value quoted when it holds a space or one of `,;()="\`.

use std::fmt::Display;

/// One message: `key` with its parameters in the order analyze lists them.
pub fn message(key: &str, params: &[(&str, &dyn Display)]) -> String {
    if params.is_empty() {
        return key.to_string();
    }
    let values: Vec<String> = params.iter().map(|(name, value)| format!("{name}={}", quoted(&value.to_string()))).collect();
    format!("{key}({})", values.join(", "))
}

/// An error's text as a parameter: one line and bounded (a note stays short), then quoted.
pub fn reason(text: &str) -> String {
    super::one_line(text)
}

fn quoted(value: &str) -> String {
    if !value.is_empty() && !value.chars().any(|c| c.is_whitespace() || ",;()=\"\\".contains(c)) {
        return value.to_string();
    }
    let mut out = String::from("\"");
    for c in value.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// The notes of one run joined as runs.csv holds them.
pub fn join(notes: &[String]) -> String {
    notes.iter().filter(|n| !n.is_empty()).cloned().collect::<Vec<_>>().join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_quoted_only_when_they_must_be() {
        assert_eq!(message("measure.no-session", &[]), "measure.no-session");
        assert_eq!(message("measure.sigkill", &[("server", &"nginx")]), "measure.sigkill(server=nginx)");
        assert_eq!(
            message("measure.aborted", &[("why", &"port 8000: \"busy\"; retry")]),
            r#"measure.aborted(why="port 8000: \"busy\"; retry")"#
        );
        assert_eq!(join(&["a.b".into(), String::new(), "c.d(x=1)".into()]), "a.b; c.d(x=1)");
    }
}
