//! The notes measure writes on a run's row: message keys with parameters, never English prose, so
//! each report language renders its own sentence. The syntax is the request-row contract's
//! (`request_row::note`, which analyze reads with), and so are the keys and their sentences
//! (`request_row::note_words`): measure writes only keys analyze knows, and says them in English on
//! the terminal.

use request_row::note_words::NoteKey;
use std::fmt::Display;

/// One message: `key` with its parameters, named in the order the key lists them.
pub fn message(key: NoteKey, params: &[(&str, &dyn Display)]) -> String {
    let names: Vec<&str> = params.iter().map(|(name, _)| *name).collect();
    assert_eq!(names, key.params(), "{} takes {:?}", key.key(), key.params());
    let values: Vec<(&str, String)> = params.iter().map(|(name, value)| (*name, value.to_string())).collect();
    request_row::note::item(key.key(), values.iter().map(|(name, value)| (*name, value.as_str())))
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
        assert_eq!(message(NoteKey::MeasureNoSession, &[]), "measure.no-session");
        assert_eq!(message(NoteKey::MeasureSigkill, &[("server", &"nginx")]), "measure.sigkill(server=nginx)");
        assert_eq!(
            message(NoteKey::MeasureAborted, &[("why", &"port 8000: \"busy\"; retry")]),
            r#"measure.aborted(why="port 8000: \"busy\"; retry")"#
        );
        assert_eq!(join(&["a.b".into(), String::new(), "c.d(x=1)".into()]), "a.b; c.d(x=1)");
    }
}
