//! The notes measure writes on a run's row: message keys with parameters, never English prose, so
//! each report language renders its own sentence. The syntax is the request-row contract's
//! (`request_row::note`, which analyze reads with); the keys and their sentences are analyze's
//! (model/note.rs, render/i18n/notes.rs).

use std::fmt::Display;

/// One message: `key` with its parameters in the order analyze lists them.
pub fn message(key: &str, params: &[(&str, &dyn Display)]) -> String {
    let values: Vec<(&str, String)> = params.iter().map(|(name, value)| (*name, value.to_string())).collect();
    request_row::note::item(key, values.iter().map(|(name, value)| (*name, value.as_str())))
}

/// An error's text as a parameter: one line and bounded (a note stays short), then quoted.
pub fn reason(text: &str) -> String {
    super::one_line(text)
}

/// The notes of one run joined as runs.csv holds them.
pub fn join(notes: &[String]) -> String {
    request_row::note::join(notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measure_writes_the_contract_syntax() {
        assert_eq!(message("measure.no-session", &[]), "measure.no-session");
        assert_eq!(message("measure.sigkill", &[("server", &"nginx")]), "measure.sigkill(server=nginx)");
        assert_eq!(
            message("measure.aborted", &[("why", &"port 8000: \"busy\"; retry")]),
            r#"measure.aborted(why="port 8000: \"busy\"; retry")"#
        );
        assert_eq!(join(&["a.b".into(), String::new(), "c.d(x=1)".into()]), "a.b; c.d(x=1)");
    }
}
