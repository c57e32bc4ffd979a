//! Input that measure refuses: a plan, or a dataset given to `--resume`. One error type for it, so
//! `main` exits 2 for bad input as analyze does, and 1 for everything else (a server that would not
//! start, a full disk). The text names the file, and the line and column where there is one.

use std::fmt::Display;
use std::path::Path;

/// Bad input at its place: `plans/study.toml:3:5: ...`, `runs.csv:7:3: ...`, or the file alone
/// when the problem has no one place (`plan.toml: repetitions must be positive`).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{place}: {message}")]
pub struct BadInput {
    pub place: String,
    pub message: String,
}

impl BadInput {
    /// A problem of the whole file.
    pub fn file(path: &Path, message: impl Display) -> BadInput {
        BadInput { place: path.display().to_string(), message: message.to_string() }
    }

    /// A problem at a 1-based line, and column when known.
    pub fn at(path: &Path, line: u64, column: Option<u64>, message: impl Display) -> BadInput {
        let place = match column {
            Some(column) => format!("{}:{line}:{column}", path.display()),
            None => format!("{}:{line}", path.display()),
        };
        BadInput { place, message: message.to_string() }
    }

    /// A TOML error at the line and column (in characters, 1-based) where its span starts.
    pub fn toml(path: &Path, text: &str, error: &toml::de::Error) -> BadInput {
        match error.span() {
            Some(span) => {
                let (line, column) = line_column(text, span.start);
                BadInput::at(path, line, Some(column), error.message().trim_end())
            }
            None => BadInput::file(path, error.message().trim_end()),
        }
    }
}

/// Every problem of one input, each at its place, one a line (a plan's problems are all reported at once).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
pub struct BadInputs(pub Vec<BadInput>);

/// Whether `error` or anything it wraps is bad input.
pub fn is_bad_input(error: &anyhow::Error) -> bool {
    error.chain().any(|e| e.is::<BadInput>() || e.is::<BadInputs>())
}

/// How `main` prints bad input: `error: PLACE: MESSAGE` for each problem, then the context the callers
/// added (`note: ...`), so the place is the first thing on each line. `None` when `error` is not bad input.
pub fn bad_input_report(error: &anyhow::Error) -> Option<String> {
    let mut notes = Vec::new();
    for cause in error.chain() {
        let problems: Vec<String> = if let Some(one) = cause.downcast_ref::<BadInput>() {
            vec![one.to_string()]
        } else if let Some(all) = cause.downcast_ref::<BadInputs>() {
            all.0.iter().map(ToString::to_string).collect()
        } else {
            notes.push(cause.to_string());
            continue;
        };
        let mut out: String = problems.iter().map(|p| format!("error: {p}\n")).collect();
        out.extend(notes.iter().map(|n| format!("note: {n}\n")));
        return Some(out);
    }
    None
}

/// The 1-based line and column (in characters) of byte `offset` in `text` (an offset inside a
/// character, or past the end, counts from the end of the text).
pub fn line_column(text: &str, offset: usize) -> (u64, u64) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() as u64 + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) as u64 + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_name_line_and_column() {
        let path = Path::new("plan.toml");
        assert_eq!(BadInput::at(path, 3, Some(5), "x").to_string(), "plan.toml:3:5: x");
        assert_eq!(BadInput::at(path, 3, None, "x").to_string(), "plan.toml:3: x");
        assert_eq!(BadInput::file(path, "x").to_string(), "plan.toml: x");
    }

    #[test]
    fn bad_input_is_reported_place_first_with_the_callers_context_after() {
        use anyhow::Context;
        let path = Path::new("p.toml");
        let err = Err::<(), _>(BadInputs(vec![BadInput::at(path, 3, Some(1), "a"), BadInput::at(path, 9, None, "b")]))
            .context("see the README")
            .unwrap_err();
        assert_eq!(bad_input_report(&err).unwrap(), "error: p.toml:3:1: a\nerror: p.toml:9: b\nnote: see the README\n");
        assert_eq!(bad_input_report(&anyhow::anyhow!("disk full")), None);
    }

    #[test]
    fn columns_count_characters_from_one() {
        assert_eq!(line_column("a = 1\nbb = ü2\n", 0), (1, 1));
        assert_eq!(line_column("a = 1\nbb = ü2\n", 6), (2, 1));
        assert_eq!(line_column("a = 1\nbb = ü2\n", 13), (2, 7), "ü is one column, two bytes");
    }

    #[test]
    fn a_toml_error_is_placed_where_its_span_starts() {
        let text = "seed = 1\nrepetitions = three\n";
        let error = toml::from_str::<toml::Table>(text).unwrap_err();
        let bad = BadInput::toml(Path::new("p.toml"), text, &error);
        assert_eq!(bad.place, "p.toml:2:15", "{bad}");
    }
}
