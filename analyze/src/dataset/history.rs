//! dataset.toml's `[comparability]` and `[history]`, beyond their syntax: every `must_match` rule
//! one `model::MustMatch` reads, and a series name that can name a page (one line, no control
//! character, no slash).

use super::error::{shown, DataError, Problems};
use super::manifest::Manifest;
use crate::model::MustMatch;

const FILE: &str = "dataset.toml";

/// Checks both tables, each refusal at its place.
pub fn check(manifest: &Manifest, problems: &mut Problems) {
    if let Some(spec) = &manifest.comparability {
        for (rule, &(line, column)) in spec.must_match.iter().zip(&spec.places) {
            if let Err(why) = MustMatch::parse(rule.get_ref()) {
                problems.push(DataError::at(FILE, line, column, format!("comparability.must_match: {why}")));
            }
        }
    }
    if let Some(history) = &manifest.history {
        let series = history.series.get_ref();
        let (line, column) = history.series_place;
        let bad = series.trim() != series
            || series.is_empty()
            || series.len() > 200
            || series.chars().any(|c| c.is_control() || c == '/' || c == '\\')
            || series.starts_with('.');
        if bad {
            problems.push(DataError::at(
                FILE,
                line,
                column,
                format!(
                    "history.series: {} cannot name a history page: write one line of at most 200 bytes without a slash, a control character or a leading dot or space",
                    shown(series)
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems_of(text: &str) -> Vec<String> {
        let mut problems = Problems::default();
        check(&Manifest::parse(text).unwrap(), &mut problems);
        problems.errors().iter().map(ToString::to_string).collect()
    }

    #[test]
    fn rules_and_series_are_refused_at_their_place() {
        assert!(problems_of("[comparability]\nmust_match = [\"cpu_model\", \"kernel:major\", \"*_version\"]\n").is_empty());
        let got = problems_of("[comparability]\nmust_match = [\"cpu_model\", \"a*b\"]\n");
        assert_eq!(got.len(), 1);
        assert!(got[0].starts_with("dataset.toml:2:28: comparability.must_match: \"a*b\" is not a rule"), "{got:?}");
        assert!(problems_of("[history]\nseries = \"model study\"\nrevision = \"abc123\"\n").is_empty());
        let got = problems_of("[history]\nseries = \"a/b\"\n");
        assert!(got[0].starts_with("dataset.toml:2:10: history.series: \"a/b\" cannot name a history page"), "{got:?}");
    }
}
