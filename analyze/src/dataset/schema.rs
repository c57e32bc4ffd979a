//! The rules `dataset.toml` must satisfy beyond its syntax, each refusal with its place.
//!
//! Serde already refuses unknown keys and wrong types (the manifest structs deny unknown
//! fields). What it cannot see: a percentile that cannot be held exactly, thresholds that are
//! not positive numbers, factors or levels listed twice, factors named like a runs.csv column
//! that is not a factor, and `x`/`series`/`report.compare` naming a factor the dataset does not have. A wrong
//! value here would not fail loudly later: it would silently fall back to a default, so each is
//! an error before any statistic is computed.

use super::error::{shown, DataError, Problems};
use super::manifest::Manifest;
use super::names::check_name;
use super::runs::RESERVED;
use crate::model::{HeadlineMetric, Lang, Percentile, PublishedMetric, Unit};
use serde::Deserialize;
use std::ops::Range;
use toml::Spanned;

const FILE: &str = "dataset.toml";
/// Why a percentile finer than the report can state is refused rather than rounded.
const FINER: &str =
    "is finer than a thousandth of a percent: write at most three decimals (a report states its percentile exactly, never rounded)";

/// Where the checked values are in the text: a lenient shadow of [`Manifest`] (unknown keys
/// were refused by the strict parse already) that keeps the spans of the values checked here.
#[derive(Deserialize, Default)]
struct Places {
    percentile: Option<Spanned<f64>>,
    x: Option<Spanned<String>>,
    series: Option<Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    factors: Vec<FactorPlaces>,
    thresholds: Option<ThresholdPlaces>,
    report: Option<ReportPlaces>,
    published: Option<PublishedPlaces>,
    sessions: Option<SessionsPlaces>,
}

#[derive(Deserialize)]
struct SessionsPlaces {
    #[serde(default)]
    steps: Vec<Spanned<toml::Value>>,
}

#[derive(Deserialize)]
struct ReportPlaces {
    compare: Option<Spanned<toml::Value>>,
    headline: Option<Spanned<HeadlineMetric>>,
    #[serde(default)]
    beside: Option<Spanned<Vec<Spanned<HeadlineMetric>>>>,
}

#[derive(Deserialize)]
struct PublishedPlaces {
    #[serde(default)]
    tables: Vec<TablePlaces>,
}

#[derive(Deserialize)]
struct TablePlaces {
    id: Spanned<String>,
    metric: Spanned<PublishedMetric>,
    unit: Spanned<Unit>,
    ordered: Option<Spanned<bool>>,
    #[serde(default)]
    values: Vec<ValuePlaces>,
    #[serde(default)]
    references: Vec<ReferencePlaces>,
}

#[derive(Deserialize)]
struct ValuePlaces {
    condition: Spanned<String>,
    value: Spanned<f64>,
}

#[derive(Deserialize)]
struct ReferencePlaces {
    value: Spanned<f64>,
}

#[derive(Deserialize)]
struct FactorPlaces {
    name: Spanned<String>,
    label: Option<Spanned<toml::Value>>,
    #[serde(default)]
    levels: Vec<LevelPlaces>,
}

#[derive(Deserialize)]
struct LevelPlaces {
    value: Spanned<String>,
    label: Option<Spanned<toml::Value>>,
}

#[derive(Deserialize)]
struct ThresholdPlaces {
    lag_ms: Option<Spanned<f64>>,
    load1: Option<Spanned<f64>>,
    outlier_ratio: Option<Spanned<f64>>,
    noisy_k: Option<Spanned<f64>>,
    noisy_lag_floor_ms: Option<Spanned<f64>>,
    noisy_load1_floor: Option<Spanned<f64>>,
    negligible_difference: Option<Spanned<f64>>,
    error_share: Option<Spanned<f64>>,
}

/// A parsed dataset.toml with the text it came from, so later checks can name places.
pub struct Located {
    text: String,
    places: Places,
}

impl Located {
    /// The places of `text`, which [`Manifest::parse`] accepted.
    pub fn new(text: &str) -> Located {
        Located { text: text.to_string(), places: toml::from_str(text).unwrap_or_default() }
    }

    /// No text: a dataset without dataset.toml (nothing in it can be wrong).
    pub fn absent() -> Located {
        Located { text: String::new(), places: Places::default() }
    }

    fn error(&self, span: Range<usize>, key: &str, message: String) -> DataError {
        let (line, column) = line_and_column(&self.text, span.start);
        DataError::at(FILE, line, column, format!("{key}: {message}"))
    }

    /// Checks that need only dataset.toml itself.
    pub fn check_alone(&self, manifest: &Manifest, problems: &mut Problems) {
        if let Some(p) = &self.places.percentile {
            let value = *p.get_ref();
            if !(value > 0.0 && value < 100.0) {
                problems.push(self.error(p.span(), "percentile", format!("{value} is not above 0 and below 100")));
            } else if Percentile::new(value).is_none() {
                problems.push(self.error(p.span(), "percentile", format!("{value} {FINER}")));
            }
        }
        if let Some(t) = &self.places.thresholds {
            let positive = [("lag_ms", &t.lag_ms), ("load1", &t.load1), ("outlier_ratio", &t.outlier_ratio), ("noisy_k", &t.noisy_k)];
            for (key, value) in positive {
                if let Some(v) = value {
                    let number = *v.get_ref();
                    if !(number.is_finite() && number > 0.0) {
                        problems.push(self.error(v.span(), &format!("thresholds.{key}"), format!("{number} is not a positive number")));
                    }
                }
            }
            // A floor or a negligible difference of 0 turns that allowance off, which is a choice.
            let allowances = [
                ("noisy_lag_floor_ms", &t.noisy_lag_floor_ms),
                ("noisy_load1_floor", &t.noisy_load1_floor),
                ("negligible_difference", &t.negligible_difference),
            ];
            for (key, value) in allowances {
                if let Some(v) = value {
                    let number = *v.get_ref();
                    if !(number.is_finite() && number >= 0.0) {
                        problems.push(self.error(
                            v.span(),
                            &format!("thresholds.{key}"),
                            format!("{number} is not 0 or a positive number"),
                        ));
                    }
                }
            }
        }
        if let Some(v) = self.places.thresholds.as_ref().and_then(|t| t.error_share.as_ref()) {
            let share = *v.get_ref();
            if !(share.is_finite() && (0.0..1.0).contains(&share)) {
                problems.push(self.error(
                    v.span(),
                    "thresholds.error_share",
                    format!("{share} is not a share from 0 up to 1 (0.01 is 1%)"),
                ));
            }
        }
        if let Some(beside) = self.places.report.as_ref().and_then(|r| r.beside.as_ref()) {
            let headline =
                self.places.report.as_ref().and_then(|r| r.headline.as_ref()).map_or(HeadlineMetric::Percentile, |h| *h.get_ref());
            let mut seen = vec![headline];
            for metric in beside.get_ref() {
                if seen.contains(metric.get_ref()) {
                    let why = if *metric.get_ref() == headline { "is the headline itself" } else { "is listed twice" };
                    problems.push(self.error(metric.span(), "report.beside", format!("{} {why}", shown(metric.get_ref().name()))));
                }
                seen.push(*metric.get_ref());
            }
        }
        let mut names: Vec<&str> = Vec::new();
        for factor in &self.places.factors {
            let name = factor.name.get_ref().trim();
            if let Err(error) = check_name(factor.name.get_ref()) {
                problems.push(self.error(factor.name.span(), "factors.name", error.message("a factor's name")));
            } else if names.contains(&name) {
                problems.push(self.error(factor.name.span(), "factors.name", format!("the factor {} is listed twice", shown(name))));
            } else if RESERVED.contains(&name) {
                problems.push(self.error(
                    factor.name.span(),
                    "factors.name",
                    format!("{} is a runs.csv column with its own meaning, not a factor (reserved: {})", shown(name), RESERVED.join(", ")),
                ));
            }
            names.push(name);
            if let Some(label) = &factor.label {
                self.check_text_names(label, "factors.label", "a factor's label", problems);
            }
            let mut values: Vec<&str> = Vec::new();
            for level in &factor.levels {
                let value = level.value.get_ref().trim();
                if let Err(error) = check_name(level.value.get_ref()) {
                    problems.push(self.error(level.value.span(), "levels.value", error.message("a level")));
                } else if values.contains(&value) {
                    problems.push(self.error(
                        level.value.span(),
                        "levels.value",
                        format!("the level {} of {} is listed twice", shown(value), shown(name)),
                    ));
                }
                values.push(value);
                if let Some(label) = &level.label {
                    self.check_text_names(label, "levels.label", "a level's label", problems);
                }
            }
        }
        self.check_steps(problems);
        debug_assert_eq!(manifest.factors.len(), self.places.factors.len());
        self.check_published_alone(problems);
    }

    /// `[sessions] steps`: each step's name, in each language it is given in, is a name (the
    /// names rule), and reads, in each report language, unlike every other step's name.
    fn check_steps(&self, problems: &mut Problems) {
        let Some(sessions) = &self.places.sessions else { return };
        let mut earlier: Vec<[String; 2]> = Vec::new();
        for (step, value) in sessions.steps.iter().enumerate() {
            let mut named = true;
            for (lang, text) in texts(value.get_ref()) {
                if let Err(error) = check_name(text) {
                    let key = lang.map_or("sessions.steps".to_string(), |l| format!("sessions.steps.{l}"));
                    problems.push(self.error(value.span(), &key, format!("step {step}'s name {}", error.message("a step's name"))));
                    named = false;
                }
            }
            // As a page shows it (Text::get: the language's, else English's, else any).
            let read = Lang::ALL.map(|lang| in_lang(value.get_ref(), lang).trim().to_string());
            if let Some(first) = earlier.iter().position(|other| other.iter().zip(&read).any(|(a, b)| a == b)).filter(|_| named) {
                let same = read.iter().zip(&earlier[first]).find(|(a, b)| a == b).map_or("", |(a, _)| a.as_str());
                problems.push(self.error(
                    value.span(),
                    "sessions.steps",
                    format!("step {step}'s name {} is step {first}'s too: each step needs a name of its own", shown(same)),
                ));
            }
            earlier.push(read);
        }
    }

    /// A label given as a text (a string, or one per language): each of its strings is a name.
    fn check_text_names(&self, value: &Spanned<toml::Value>, key: &str, what: &str, problems: &mut Problems) {
        for (lang, text) in texts(value.get_ref()) {
            if let Err(error) = check_name(text) {
                let key = lang.map_or(key.to_string(), |l| format!("{key}.{l}"));
                problems.push(self.error(value.span(), &key, error.message(what)));
            }
        }
    }

    /// The published tables: ids an article can cite, units that fit the metric, values the unit
    /// can hold, and ordered tables whose order can be read from their values.
    fn check_published_alone(&self, problems: &mut Problems) {
        let Some(published) = &self.places.published else { return };
        let mut ids: Vec<&str> = Vec::new();
        for table in &published.tables {
            let id = table.id.get_ref().as_str();
            if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
                problems.push(self.error(
                    table.id.span(),
                    "published.tables.id",
                    format!("{} is not a name an article can cite: use ASCII letters, digits, '-' and '_'", shown(id)),
                ));
            } else if ids.contains(&id) {
                problems.push(self.error(table.id.span(), "published.tables.id", format!("the table {} is listed twice", shown(id))));
            }
            ids.push(id);
            let (metric, unit) = (*table.metric.get_ref(), *table.unit.get_ref());
            if !metric.units().contains(&unit) {
                let fits: Vec<&str> = metric.units().iter().map(|u| u.name()).collect();
                problems.push(self.error(
                    table.unit.span(),
                    "published.tables.unit",
                    format!("{} is not a unit of {}: write {}", shown(unit.name()), metric.name(), fits.join(" or ")),
                ));
            }
            let values = table.values.iter().map(|v| &v.value).chain(table.references.iter().map(|r| &r.value));
            for value in values {
                let number = *value.get_ref();
                let too_large = unit.largest().is_some_and(|largest| number > largest);
                if !(number.is_finite() && number >= 0.0) || too_large {
                    let bound = unit.largest().map_or(String::new(), |l| format!(" and at most {l}"));
                    problems.push(self.error(
                        value.span(),
                        "published.tables.value",
                        format!("{number} {} is not a value of 0 or more{bound}", unit.name()),
                    ));
                }
            }
            if table.ordered.as_ref().is_some_and(|o| *o.get_ref()) {
                self.check_ordered(table, problems);
            }
        }
    }

    /// An ordered table's order is read from its values: it needs two conditions or more, each
    /// once, with distinct values.
    fn check_ordered(&self, table: &TablePlaces, problems: &mut Problems) {
        let ordered = table.ordered.as_ref().expect("checked by the caller");
        if table.values.len() < 2 {
            problems.push(self.error(
                ordered.span(),
                "published.tables.ordered",
                "an ordered table needs the values of two conditions or more".to_string(),
            ));
        }
        for (i, value) in table.values.iter().enumerate() {
            let earlier = &table.values[..i];
            if earlier.iter().any(|e| e.condition.get_ref() == value.condition.get_ref()) {
                problems.push(self.error(
                    value.condition.span(),
                    "published.tables.values.condition",
                    format!("{} is listed twice in an ordered table", shown(value.condition.get_ref())),
                ));
            } else if let Some(tie) = earlier.iter().find(|e| e.value.get_ref() == value.value.get_ref()) {
                problems.push(self.error(
                    value.value.span(),
                    "published.tables.values.value",
                    format!(
                        "{} ties with {}: an ordered table's order is read from its values, so they must differ",
                        value.value.get_ref(),
                        shown(tie.condition.get_ref())
                    ),
                ));
            }
        }
    }

    /// Every published value names a condition that has runs (`ids`: the conditions' ids).
    pub fn check_published(&self, ids: &std::collections::BTreeSet<String>, problems: &mut Problems) {
        let Some(published) = &self.places.published else { return };
        for value in published.tables.iter().flat_map(|t| &t.values) {
            let id = value.condition.get_ref();
            if !ids.contains(id) {
                let example = ids.iter().next().map(|e| format!(", e.g. {e:?}")).unwrap_or_default();
                problems.push(self.error(
                    value.condition.span(),
                    "published.tables.values.condition",
                    format!("{} has no runs: write factor=level pairs in factor order{example}", shown(id)),
                ));
            }
        }
    }

    /// Checks of `x`, `series` and `report.compare` against the dataset's factors (from dataset.toml, else from
    /// the runs.csv columns).
    pub fn check_axes(&self, factors: &[&str], problems: &mut Problems) {
        let known = factors.join(", ");
        let unknown = |name: &str| format!("{} is not a factor of this dataset (its factors: {known})", shown(name));
        let x = self.places.x.as_ref();
        if let Some(x) = x {
            if !factors.contains(&x.get_ref().as_str()) {
                problems.push(self.error(x.span(), "x", unknown(x.get_ref())));
            }
        }
        if let Some(compare) = self.places.report.as_ref().and_then(|r| r.compare.as_ref()) {
            match compare.get_ref() {
                toml::Value::String(name) if !factors.contains(&name.as_str()) => {
                    problems.push(self.error(compare.span(), "report.compare", unknown(name)))
                }
                toml::Value::String(_) | toml::Value::Boolean(false) => {}
                other => problems.push(self.error(
                    compare.span(),
                    "report.compare",
                    format!("{other} names no factor: write the factor whose levels the study compares (one of: {known}), or false when it compares no two conditions"),
                )),
            }
        }
        let Some(series) = &self.places.series else { return };
        let mut seen: Vec<&str> = Vec::new();
        for name in series.get_ref() {
            let text = name.get_ref().as_str();
            if !factors.contains(&text) {
                problems.push(self.error(name.span(), "series", unknown(text)));
            } else if x.is_some_and(|x| x.get_ref() == text) {
                problems.push(self.error(
                    name.span(),
                    "series",
                    format!("{} is the x factor: a factor is either on the x axis or in the series", shown(text)),
                ));
            } else if seen.contains(&text) {
                problems.push(self.error(name.span(), "series", format!("{} is listed twice", shown(text))));
            }
            seen.push(text);
        }
    }
}

impl Located {
    /// The session metrics `report.headline` and `report.beside` name read sessions.csv: without
    /// it they would have nothing to show.
    pub fn check_sessions(&self, has_sessions: bool, problems: &mut Problems) {
        if has_sessions {
            return;
        }
        let Some(report) = &self.places.report else { return };
        let named = report.headline.iter().chain(report.beside.iter().flat_map(|b| b.get_ref()));
        for metric in named.filter(|m| m.get_ref().needs_sessions()) {
            let key = if report.headline.as_ref().is_some_and(|h| h.span() == metric.span()) { "report.headline" } else { "report.beside" };
            problems.push(self.error(
                metric.span(),
                key,
                format!("{} needs sessions.csv, which this dataset does not have", shown(metric.get_ref().name())),
            ));
        }
    }
}

/// The strings of a text value: the one string (language `None`), or each language's. The strict
/// parse accepted the value as a text, so anything else has none.
fn texts(value: &toml::Value) -> Vec<(Option<&str>, &str)> {
    match value {
        toml::Value::String(text) => vec![(None, text.as_str())],
        toml::Value::Table(table) => table.iter().filter_map(|(lang, v)| Some((Some(lang.as_str()), v.as_str()?))).collect(),
        _ => Vec::new(),
    }
}

/// A text value in `lang`, as [`crate::model::Text::get`] reads it.
fn in_lang(value: &toml::Value, lang: Lang) -> &str {
    match value {
        toml::Value::String(text) => text,
        toml::Value::Table(table) => [lang.code(), "en"]
            .iter()
            .find_map(|l| table.get(*l).and_then(toml::Value::as_str))
            .or_else(|| table.values().find_map(toml::Value::as_str))
            .unwrap_or(""),
        _ => "",
    }
}

/// The 1-based line and character column of byte `offset` in `text`.
pub fn line_and_column(text: &str, offset: usize) -> (u64, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() as u64 + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems_of(text: &str, factors: &[&str]) -> Vec<String> {
        let manifest = Manifest::parse(text).expect("valid syntax");
        let located = Located::new(text);
        let mut problems = Problems::default();
        located.check_alone(&manifest, &mut problems);
        located.check_axes(factors, &mut problems);
        problems.errors().iter().map(ToString::to_string).collect()
    }

    #[test]
    fn the_default_dataset_manifest_passes() {
        let text = include_str!("../../../datasets/gunicorn-slow-client/dataset.toml");
        assert_eq!(problems_of(text, &["route", "downloads", "worker"]), Vec::<String>::new());
    }

    #[test]
    fn an_unrepresentable_percentile_is_an_error_at_its_value() {
        assert_eq!(
            problems_of("title = \"t\"\npercentile = 12.3456\n", &[]),
            vec![format!("dataset.toml:2:14: percentile: 12.3456 {FINER}")]
        );
        assert_eq!(problems_of("percentile = 99.9995", &[]).len(), 1);
        assert_eq!(problems_of("percentile = 0.0004", &[]).len(), 1);
        assert_eq!(problems_of("percentile = 99.999", &[]), Vec::<String>::new());
    }

    #[test]
    fn a_percentile_out_of_range_names_its_place() {
        assert_eq!(problems_of("percentile = 100", &[]), vec!["dataset.toml:1:14: percentile: 100 is not above 0 and below 100"]);
        assert_eq!(problems_of("percentile = nan", &[]), vec!["dataset.toml:1:14: percentile: NaN is not above 0 and below 100"]);
    }

    #[test]
    fn noisy_run_thresholds_must_be_numbers_the_rule_can_use() {
        let got =
            problems_of("[thresholds]\nnoisy_k = 0\nnoisy_lag_floor_ms = -1\nnegligible_difference = nan\nnoisy_load1_floor = 0\n", &[]);
        assert_eq!(
            got,
            [
                "dataset.toml:2:11: thresholds.noisy_k: 0 is not a positive number",
                "dataset.toml:3:22: thresholds.noisy_lag_floor_ms: -1 is not 0 or a positive number",
                "dataset.toml:4:25: thresholds.negligible_difference: NaN is not 0 or a positive number",
            ]
        );
    }

    #[test]
    fn thresholds_must_be_positive_numbers() {
        let got = problems_of("[thresholds]\nlag_ms = nan\nload1 = inf\noutlier_ratio = 0\n", &[]);
        assert_eq!(
            got,
            vec![
                "dataset.toml:2:10: thresholds.lag_ms: NaN is not a positive number",
                "dataset.toml:3:9: thresholds.load1: inf is not a positive number",
                "dataset.toml:4:17: thresholds.outlier_ratio: 0 is not a positive number",
            ]
        );
    }

    #[test]
    fn duplicate_and_reserved_factors_and_duplicate_levels_are_errors() {
        let text = "[[factors]]\nname = \"route\"\nlevels = [{ value = \"a\" }, { value = \"a\" }]\n\
                    [[factors]]\nname = \"route\"\n[[factors]]\nname = \"status\"\n";
        let got = problems_of(text, &["route", "status"]);
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!(got[0], "dataset.toml:3:38: levels.value: the level \"a\" of \"route\" is listed twice");
        assert_eq!(got[1], "dataset.toml:5:8: factors.name: the factor \"route\" is listed twice");
        assert!(got[2].starts_with("dataset.toml:7:8: factors.name: \"status\" is a runs.csv column with its own meaning"), "{}", got[2]);
    }

    #[test]
    fn factor_names_levels_labels_and_steps_follow_the_names_rule() {
        let text = "[[factors]]\nname = \"ro\\tute\"\nlabel = { en = \"Route\", ja = \"経\\u001b路\" }\n\
                    levels = [{ value = \"a \" }, { value = \" a\" }, { value = \"\" }]\n\
                    [sessions]\nsteps = [{ en = \"GET\", ja = \"取得\" }, { en = \"POST\", ja = \"取得\" }, \"x\\u202ey\"]\n";
        assert_eq!(
            problems_of(text, &[]),
            [
                "dataset.toml:2:8: factors.name: holds the control character '\\t': a factor's name is one line of text",
                "dataset.toml:3:9: factors.label.ja: holds the control character '\\u{1b}': a factor's label is one line of text",
                "dataset.toml:4:39: levels.value: the level \"a\" of \"ro\\tute\" is listed twice",
                "dataset.toml:4:57: levels.value: is empty: a level has at least one character besides spaces",
                "dataset.toml:6:37: sessions.steps: step 1's name \"取得\" is step 0's too: each step needs a name of its own",
                "dataset.toml:6:65: sessions.steps: step 2's name holds the bidirectional control \\u{202e}: a step's name reads as the characters it holds, so it has none",
            ]
        );
    }

    #[test]
    fn x_and_series_must_name_distinct_known_factors() {
        let factors = ["route", "downloads", "worker"];
        assert_eq!(
            problems_of("x = \"downlods\"\n", &factors),
            vec!["dataset.toml:1:5: x: \"downlods\" is not a factor of this dataset (its factors: route, downloads, worker)"]
        );
        let got = problems_of("x = \"downloads\"\nseries = [\"route\", \"downloads\", \"nope\", \"route\"]\n", &factors);
        assert_eq!(
            got,
            vec![
                "dataset.toml:2:20: series: \"downloads\" is the x factor: a factor is either on the x axis or in the series",
                "dataset.toml:2:33: series: \"nope\" is not a factor of this dataset (its factors: route, downloads, worker)",
                "dataset.toml:2:41: series: \"route\" is listed twice",
            ]
        );
    }

    #[test]
    fn published_tables_need_citable_ids_fitting_units_and_values_the_unit_holds() {
        let text = "[published]\n[[published.tables]]\nid = \"a b\"\nmetric = \"failed_share\"\nunit = \"%\"\n\
                    values = [{ condition = \"s=1\", value = 100.5 }]\n\
                    [[published.tables]]\nid = \"t\"\nmetric = \"session_mean\"\nunit = \"requests/s\"\n\
                    references = [{ label = \"x\", value = -1, reason = \"y\" }]\n\
                    [[published.tables]]\nid = \"t\"\nmetric = \"p95\"\nunit = \"ms\"\n";
        assert_eq!(
            problems_of(text, &["s"]),
            [
                "dataset.toml:3:6: published.tables.id: \"a b\" is not a name an article can cite: use ASCII letters, digits, '-' and '_'",
                "dataset.toml:6:40: published.tables.value: 100.5 % is not a value of 0 or more and at most 100",
                "dataset.toml:10:8: published.tables.unit: \"requests/s\" is not a unit of session_mean: write ms or s",
                "dataset.toml:11:38: published.tables.value: -1 requests/s is not a value of 0 or more",
                "dataset.toml:13:6: published.tables.id: the table \"t\" is listed twice",
            ]
        );
    }

    #[test]
    fn an_ordered_table_needs_two_distinct_conditions_with_distinct_values() {
        let text = "[published]\n[[published.tables]]\nid = \"one\"\nmetric = \"p95\"\nunit = \"ms\"\nordered = true\n\
                    values = [{ condition = \"s=1\", value = 1 }]\n\
                    [[published.tables]]\nid = \"two\"\nmetric = \"p95\"\nunit = \"ms\"\nordered = true\nvalues = [\n\
                    { condition = \"s=1\", value = 1 },\n{ condition = \"s=1\", value = 2 },\n{ condition = \"s=2\", value = 1 },\n]\n";
        assert_eq!(
            problems_of(text, &["s"]),
            [
                "dataset.toml:6:11: published.tables.ordered: an ordered table needs the values of two conditions or more",
                "dataset.toml:15:15: published.tables.values.condition: \"s=1\" is listed twice in an ordered table",
                "dataset.toml:16:30: published.tables.values.value: 1 ties with \"s=1\": an ordered table's order is read from its values, so they must differ",
            ]
        );
    }

    #[test]
    fn a_published_condition_without_runs_is_an_error_at_its_place() {
        let text = "[published]\n[[published.tables]]\nid = \"t\"\nmetric = \"p95\"\nunit = \"ms\"\n\
                    values = [{ condition = \"s=1\", value = 1 }, { condition = \"s=9\", value = 2 }]\n";
        let located = Located::new(text);
        let mut problems = Problems::default();
        located.check_published(&["s=1".to_string()].into_iter().collect(), &mut problems);
        let got: Vec<String> = problems.errors().iter().map(ToString::to_string).collect();
        assert_eq!(
            got,
            ["dataset.toml:6:59: published.tables.values.condition: \"s=9\" has no runs: write factor=level pairs in factor order, e.g. \"s=1\""]
        );
    }

    #[test]
    fn session_metrics_need_sessions_and_beside_names_each_metric_once() {
        let text =
            "[report]\nheadline = \"session_mean_ms\"\nbeside = [\"failed_share\", \"session_mean_ms\", \"percentile\", \"percentile\"]\n";
        assert_eq!(
            problems_of(text, &[]),
            [
                "dataset.toml:3:27: report.beside: \"session_mean_ms\" is the headline itself",
                "dataset.toml:3:60: report.beside: \"percentile\" is listed twice",
            ]
        );
        let manifest = Manifest::parse(text).unwrap();
        assert_eq!(
            manifest.report.beside,
            [HeadlineMetric::FailedShare, HeadlineMetric::SessionMeanMs, HeadlineMetric::Percentile, HeadlineMetric::Percentile]
        );
        let mut problems = Problems::default();
        Located::new(text).check_sessions(false, &mut problems);
        let got: Vec<String> = problems.errors().iter().map(ToString::to_string).collect();
        assert_eq!(
            got,
            [
                "dataset.toml:2:12: report.headline: \"session_mean_ms\" needs sessions.csv, which this dataset does not have",
                "dataset.toml:3:11: report.beside: \"failed_share\" needs sessions.csv, which this dataset does not have",
                "dataset.toml:3:27: report.beside: \"session_mean_ms\" needs sessions.csv, which this dataset does not have",
            ]
        );
        let mut fine = Problems::default();
        Located::new(text).check_sessions(true, &mut fine);
        assert!(fine.errors().is_empty());
    }

    #[test]
    fn the_error_share_is_a_share_below_one() {
        assert_eq!(
            problems_of("[thresholds]\nerror_share = 1.5\n", &[]),
            ["dataset.toml:2:15: thresholds.error_share: 1.5 is not a share from 0 up to 1 (0.01 is 1%)"]
        );
        assert!(problems_of("[thresholds]\nerror_share = 0\n", &[]).is_empty(), "0 fails every condition with an error: a choice");
    }

    #[test]
    fn places_count_characters_not_bytes() {
        assert_eq!(line_and_column("a = \"遅い\"\nb", 13), (2, 1));
        assert_eq!(line_and_column("遅い = 1", 6), (1, 3));
    }
}
