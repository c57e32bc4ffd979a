//! `dataset.toml`: the optional description of a dataset. Unknown keys are errors, so a typo
//! never silently falls back to a default.

use crate::model::{HeadlineMetric, Lang, Percentile, Text, ThroughputFrom};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
    /// A run whose largest schedule lag (or host load) lies more than `noisy_k` scaled MADs
    /// above the median of the dataset's runs is flagged as noisy, whatever `lag_ms` says
    /// (3.5 is Iglewicz and Hoaglin's rule for the modified z-score).
    pub noisy_k: f64,
    /// The smallest spread (ms) the noisy-lag rule assumes, so runs that agree to a fraction
    /// of a millisecond are not flagged for a jitter nobody can see.
    pub noisy_lag_floor_ms: f64,
    /// The same floor for the host load average.
    pub noisy_load1_floor: f64,
    /// Two conditions whose medians differ by less than this fraction of the smaller one are
    /// the same in practice, whatever their ranges.
    pub negligible_difference: f64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            lag_ms: 20.0,
            load1: 1.0,
            outlier_ratio: 3.0,
            noisy_k: 3.5,
            noisy_lag_floor_ms: 1.0,
            noisy_load1_floor: 0.1,
            negligible_difference: 0.05,
        }
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
    /// Values published elsewhere for the same conditions, to set beside the measured ones.
    pub published: Option<Published>,
    /// What the report leads with.
    #[serde(default)]
    pub report: ReportChoices,
}

/// dataset.toml's `[report]`: the metric the headline table, chart and variance review compare
/// conditions by, which factor's levels the review pairs, and whether the mean of the runs is
/// shown beside their median.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct ReportChoices {
    pub headline: HeadlineMetric,
    /// The authors of the study re-measured averaged their runs: show the mean of the runs'
    /// headline values beside the median and range, labelled as such.
    pub mean_of_runs: bool,
    /// Where a run's requests/s, error rate and mean come from when it has both rows and a
    /// tool's printed figures.
    pub throughput_from: ThroughputFrom,
    /// The factor the study compares (seed 002's interpreter): the variance review pairs its
    /// levels among conditions that agree on every other factor. Unset, it pairs the series at
    /// each level of `x`.
    pub compare: Option<String>,
}

/// Values published for the dataset's conditions, e.g. by the study it re-measures.
#[derive(Debug, Clone, Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Published {
    /// Where the values come from, shown above their table.
    pub source: Option<Text>,
    #[serde(default)]
    pub values: Vec<PublishedValue>,
}

/// One published number: a condition, what was measured, and the value in ms.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PublishedValue {
    /// The condition's id (`route=direct,downloads=2,worker=sync`); its place in dataset.toml is
    /// kept so an id that names no condition is an error pointing at it.
    pub condition: toml::Spanned<String>,
    pub metric: Metric,
    pub value_ms: f64,
    /// The 1-based line and column of `condition` in dataset.toml, set by [`Manifest::parse`].
    #[serde(skip)]
    pub place: (u64, usize),
}

/// What a published value measures, as the report computes it per condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, Serialize)]
pub enum Metric {
    #[serde(rename = "p50")]
    P50,
    #[serde(rename = "p90")]
    P90,
    #[serde(rename = "p95")]
    P95,
    #[serde(rename = "p99")]
    P99,
    #[serde(rename = "p99.9")]
    P999,
    /// The largest latency of a run.
    #[serde(rename = "max")]
    Max,
    /// The median over a run's large responses of the app's write time.
    #[serde(rename = "write")]
    Write,
    /// The median over a run's large responses of the client's completion time.
    #[serde(rename = "completion")]
    Completion,
}

impl Metric {
    /// The key of a percentile metric in `percentiles_ms` ("95", "99.9"), `None` for the others.
    pub fn percentile_key(self) -> Option<&'static str> {
        match self {
            Metric::P50 => Some("50"),
            Metric::P90 => Some("90"),
            Metric::P95 => Some("95"),
            Metric::P99 => Some("99"),
            Metric::P999 => Some("99.9"),
            Metric::Max | Metric::Write | Metric::Completion => None,
        }
    }

    /// The name in dataset.toml and summary.json.
    pub fn name(self) -> &'static str {
        match self {
            Metric::P50 => "p50",
            Metric::P90 => "p90",
            Metric::P95 => "p95",
            Metric::P99 => "p99",
            Metric::P999 => "p99.9",
            Metric::Max => "max",
            Metric::Write => "write",
            Metric::Completion => "completion",
        }
    }
}

impl Manifest {
    /// The headline percentile: dataset.toml's, else p95. P95 only when dataset.toml names none:
    /// ingest refused any percentile `Percentile::new` cannot hold exactly (dataset/schema.rs), so
    /// no written value falls back here.
    pub fn headline_percentile(&self) -> Percentile {
        self.percentile.and_then(Percentile::new).unwrap_or(Percentile::P95)
    }

    /// Every percentile a run reports: the standard five and the headline.
    pub fn reported_percentiles(&self) -> Vec<Percentile> {
        let mut wanted: Vec<Percentile> = Percentile::STANDARD.to_vec();
        let headline = self.headline_percentile();
        if !wanted.contains(&headline) {
            wanted.push(headline);
        }
        wanted
    }

    /// Parses `dataset.toml` text; the error names the line and column when TOML knows them.
    pub fn parse(text: &str) -> Result<Manifest, ManifestError> {
        let place = |offset: usize| super::schema::line_and_column(text, offset);
        let mut manifest: Manifest = toml::from_str(text).map_err(|error| ManifestError {
            place: error.span().map(|span| place(span.start)),
            message: error.message().trim().to_string(),
        })?;
        for value in manifest.published.iter_mut().flat_map(|p| p.values.iter_mut()) {
            value.place = place(value.condition.span().start);
        }
        Ok(manifest)
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
    fn reads_published_values_with_the_place_of_their_condition() {
        let text =
            "[published]\nsource = \"the study\"\nvalues = [\n  { condition = \"route=direct\", metric = \"p95\", value_ms = 1.57 },\n]\n";
        let published = Manifest::parse(text).unwrap().published.unwrap();
        assert_eq!(published.values.len(), 1);
        assert_eq!(published.values[0].metric, Metric::P95);
        assert_eq!(published.values[0].condition.get_ref(), "route=direct");
        assert_eq!(&text[published.values[0].condition.span()], "\"route=direct\"");
        assert_eq!(published.values[0].place, (4, 17));
        assert!(Manifest::parse(&text.replace("p95", "p96")).is_err());
    }

    #[test]
    fn the_headline_metric_is_the_percentile_unless_report_says_otherwise() {
        let default = ReportChoices {
            headline: HeadlineMetric::Percentile,
            mean_of_runs: false,
            throughput_from: ThroughputFrom::Rows,
            compare: None,
        };
        assert_eq!(Manifest::parse("").unwrap().report, default);
        let text = "[report]\nheadline = \"requests_per_s\"\nmean_of_runs = true\nthroughput_from = \"tool\"\n";
        let chosen = Manifest::parse(text).unwrap().report;
        assert_eq!(
            chosen,
            ReportChoices {
                headline: HeadlineMetric::RequestsPerS,
                mean_of_runs: true,
                throughput_from: ThroughputFrom::Tool,
                compare: None
            }
        );
        assert_eq!(Manifest::parse("[report]\nheadline = \"error_rate\"\n").unwrap().report.headline, HeadlineMetric::ErrorRate);
        let error = Manifest::parse("[report]\nheadline = \"throughput\"\n").unwrap_err();
        assert_eq!(error.place, Some((2, 12)));
        assert!(error.message.contains("requests_per_s"), "the message names the choices: {}", error.message);
    }

    #[test]
    fn a_typo_is_an_error_with_its_place() {
        let error = Manifest::parse("title = \"x\"\npercentil = 95\n").unwrap_err();
        assert_eq!(error.place, Some((2, 1)));
        assert!(error.message.contains("percentil"), "{}", error.message);
    }
}
