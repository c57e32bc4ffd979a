//! `dataset.toml`: the optional description of a dataset. Unknown keys are errors, so a typo
//! never silently falls back to a default.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A report language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    En,
    Ja,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Ja];

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ja => "ja",
        }
    }

    pub fn parse(code: &str) -> Option<Lang> {
        match code {
            "en" => Some(Lang::En),
            "ja" => Some(Lang::Ja),
            _ => None,
        }
    }
}

/// Text given once for every language, or per language (`{ en = "...", ja = "..." }`).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum Text {
    Plain(String),
    PerLang(BTreeMap<Lang, String>),
}

impl Text {
    /// The text in `lang`, else English, else any language given.
    pub fn get(&self, lang: Lang) -> &str {
        match self {
            Text::Plain(text) => text,
            Text::PerLang(map) => {
                map.get(&lang).or_else(|| map.get(&Lang::En)).or_else(|| map.values().next()).map(String::as_str).unwrap_or("")
            }
        }
    }
}

/// One factor's label and level order.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FactorSpec {
    /// The runs.csv column.
    pub name: String,
    pub label: Option<Text>,
    /// Levels in display order, with labels. Levels seen in the data but not listed follow, sorted.
    #[serde(default)]
    pub levels: Vec<LevelSpec>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LevelSpec {
    pub value: String,
    pub label: Option<Text>,
}

/// Thresholds for the flags of the variance review.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Thresholds {
    /// A run whose largest schedule lag exceeds this many ms is flagged.
    pub lag_ms: f64,
    /// A run whose host 1-minute load average (before or after) exceeds this is flagged.
    pub load1: f64,
    /// A run whose p95 is more than this factor away from its condition's median is flagged.
    pub outlier_ratio: f64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds { lag_ms: 20.0, load1: 1.0, outlier_ratio: 3.0 }
    }
}

/// The whole `dataset.toml`.
#[derive(Debug, Clone, Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub title: Option<Text>,
    pub description: Option<Text>,
    /// The report's default language.
    pub lang: Option<Lang>,
    /// The headline percentile, e.g. 95 or 99.9.
    pub percentile: Option<f64>,
    /// The expected size of a large response; else the largest `bytes_received` seen.
    pub large_response_bytes: Option<u64>,
    /// The factor on the x axis and in the table's columns.
    pub x: Option<String>,
    /// The factors whose combinations form the series (and the table's rows).
    pub series: Option<Vec<String>>,
    /// When the data was measured, as the author wants it shown (e.g. `2026-11-30`).
    pub measured: Option<String>,
    #[serde(default)]
    pub factors: Vec<FactorSpec>,
    #[serde(default)]
    pub thresholds: Thresholds,
    /// Free-form facts about the machine and software, shown in the Methods section.
    #[serde(default)]
    pub environment: BTreeMap<String, String>,
}

impl Manifest {
    /// Parses `dataset.toml` text; the error names the line and column when TOML knows them.
    pub fn parse(text: &str) -> Result<Manifest, ManifestError> {
        toml::from_str(text).map_err(|error| {
            let place = error.span().map(|span| super::schema::line_and_column(text, span.start));
            ManifestError { place, message: error.message().trim().to_string() }
        })
    }
}

/// Why dataset.toml was refused, and where.
#[derive(Debug, Clone, PartialEq)]
pub struct ManifestError {
    /// 1-based line and column.
    pub place: Option<(u64, usize)>,
    pub message: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_per_language_text() {
        let manifest = Manifest::parse("title = { en = \"Slow\", ja = \"遅い\" }\npercentile = 99.9\n").unwrap();
        let title = manifest.title.unwrap();
        assert_eq!(title.get(Lang::Ja), "遅い");
        assert_eq!(title.get(Lang::En), "Slow");
        assert_eq!(manifest.percentile, Some(99.9));
    }

    #[test]
    fn plain_text_serves_every_language() {
        let manifest = Manifest::parse("title = \"Slow\"").unwrap();
        assert_eq!(manifest.title.unwrap().get(Lang::Ja), "Slow");
    }

    #[test]
    fn a_typo_is_an_error_with_its_place() {
        let error = Manifest::parse("title = \"x\"\npercentil = 95\n").unwrap_err();
        assert_eq!(error.place, Some((2, 1)));
        assert!(error.message.contains("percentil"), "{}", error.message);
    }
}
