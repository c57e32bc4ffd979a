//! `dataset.toml`: the optional description of a dataset. Unknown keys are errors, so a typo
//! never silently falls back to a default.

use crate::model::{HeadlineMetric, Lang, Percentile, PublishedMetric, Text, ThroughputFrom, Unit};
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
    /// A condition whose share of requests without a 2xx response, or of failed sessions, lies
    /// above this fraction fails: its latencies describe only what succeeded, so it is shown
    /// with its share and never ranked.
    pub error_share: f64,
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
            error_share: 0.01,
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
    /// Free-form facts about the machine and software, shown in the Methods section: a value, or a
    /// text per language (`{ en = "...", ja = "..." }`) when it explains in words.
    #[serde(default)]
    pub environment: BTreeMap<String, Text>,
    /// Values published elsewhere for the same conditions, to set beside the measured ones.
    pub published: Option<Published>,
    /// What the report leads with.
    #[serde(default)]
    pub report: ReportChoices,
    /// Service-level objectives (`[[slo]]`): each condition passes or fails each that applies
    /// to it, on the median of its runs.
    #[serde(default)]
    pub slo: Vec<SloSpec>,
    /// What a session's steps are (`[sessions] steps`), so a run page names the step a failed
    /// session ended at, not only its number.
    pub sessions: Option<SessionsSpec>,
    /// The dataset (a folder beside this one) this one re-measures: `analyze site` renders the
    /// comparison of the two and links it from both reports.
    pub baseline: Option<toml::Spanned<String>>,
    /// The 1-based line and column of `baseline`, set by [`Manifest::parse`].
    #[serde(skip)]
    pub baseline_place: (u64, usize),
    /// Which `[environment]` keys a measurement compared with this one must share.
    pub comparability: Option<ComparabilitySpec>,
    /// The history this measurement belongs to (`analyze history`, a history page in the site).
    pub history: Option<HistorySpec>,
}

/// `[comparability]`: the `[environment]` keys whose values must match for `analyze compare` and
/// `analyze history` to compare two measurements (`model::MustMatch`); absent: the defaults
/// (`model::DEFAULT_MUST_MATCH`).
#[derive(Debug, Clone, Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ComparabilitySpec {
    pub must_match: Vec<toml::Spanned<String>>,
    /// Where each rule is, set by [`Manifest::parse`].
    #[serde(skip)]
    pub places: Vec<(u64, usize)>,
}

/// `[history]`: the series of measurements this one belongs to, and what was measured.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct HistorySpec {
    /// The series' name: the datasets that share it are one history.
    pub series: toml::Spanned<String>,
    /// The revision (commit, version, build) measured, for `--by revision` and the labels.
    pub revision: Option<String>,
    /// Where `series` is, set by [`Manifest::parse`].
    #[serde(skip)]
    pub series_place: (u64, usize),
}

/// `[sessions]`: the steps of the sessions in sessions.csv.
#[derive(Debug, Clone, Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields)]
pub struct SessionsSpec {
    /// Each step's name, step 0 first: a text, or a text per language.
    #[serde(default)]
    pub steps: Vec<Text>,
}

/// One service-level objective: a limit on one metric, for every condition or for the
/// conditions `where` names.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SloSpec {
    /// `p95` or another percentile the report computes, `requests_per_s`, `error_rate` or
    /// `failed_share` (sessions).
    pub metric: toml::Spanned<String>,
    /// The largest value that meets it: ms for a percentile, a fraction (0 to 1) for
    /// `error_rate` and `failed_share`.
    pub max: Option<toml::Spanned<f64>>,
    /// The smallest value that meets it: requests/s.
    pub min: Option<toml::Spanned<f64>>,
    /// `factor=level` pairs (`route=direct,downloads=2` or just `downloads=2`): the objective
    /// applies to the conditions with all of them. Absent: to every condition.
    #[serde(rename = "where")]
    pub conditions: Option<toml::Spanned<String>>,
    /// The largest share of failed requests (0 to 1) at which an objective on a percentile or on
    /// requests/s can pass: the latency or rate of the requests that succeeded says nothing of a
    /// condition that failed the rest. Absent: `thresholds.error_share`; 1 judges the metric alone.
    pub error_share: Option<toml::Spanned<f64>>,
    /// Where its values are in dataset.toml, set by [`Manifest::parse`].
    #[serde(skip)]
    pub places: SloPlaces,
}

/// The 1-based lines and columns of an objective's values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SloPlaces {
    pub metric: (u64, usize),
    pub max: Option<(u64, usize)>,
    pub min: Option<(u64, usize)>,
    pub conditions: Option<(u64, usize)>,
    pub error_share: Option<(u64, usize)>,
}

impl SloSpec {
    /// The metric it bounds; `None` for a name ingest refused.
    pub fn parsed_metric(&self) -> Option<crate::model::SloMetric> {
        crate::model::SloMetric::parse(self.metric.get_ref())
    }

    /// Its limit: `max`, else `min`.
    pub fn limit(&self) -> Option<f64> {
        self.max.as_ref().or(self.min.as_ref()).map(|v| *v.get_ref())
    }
}

/// dataset.toml's `[report]`: the metric the headline table, chart and variance review compare
/// conditions by, which factor's levels the review pairs, and whether the mean of the runs is
/// shown beside their median.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct ReportChoices {
    pub headline: HeadlineMetric,
    /// Metrics shown beside the headline value, in this order, in the headline table and the
    /// lead (seed 003 read the failed share before the mean session time).
    pub beside: Vec<HeadlineMetric>,
    /// The authors of the study re-measured averaged their runs: show the mean of the runs'
    /// headline values beside the median and range, labelled as such.
    pub mean_of_runs: bool,
    /// Where a run's requests/s, error rate and mean come from when it has both rows and a
    /// tool's printed figures.
    pub throughput_from: ThroughputFrom,
    /// The factor the study compares (seed 002's interpreter): the variance review pairs its
    /// levels among conditions that agree on every other factor. Unset, it pairs the series at
    /// each level of `x` (the levels of `x` when there is one series); `false`, no two conditions.
    pub compare: Option<CompareChoice>,
}

/// `report.compare`: a factor's name, or `false` for a study that compares no two of its
/// conditions (each tool of a tools study measured the same server its own way). `true` is
/// refused where dataset.toml is checked: it names no factor.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum CompareChoice {
    Factor(String),
    /// `false` (the only value let through).
    Nothing(bool),
}

/// Values published for the dataset's conditions by the article the dataset re-measures: the
/// article's own name, then its tables, each of one metric in the unit the article printed.
#[derive(Debug, Clone, Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Published {
    /// The article the values come from, named as it names itself.
    pub original: Option<OriginalArticle>,
    /// What differs between the article's setting and this dataset's, shown under its name.
    pub note: Option<Text>,
    #[serde(default)]
    pub tables: Vec<PublishedTable>,
}

/// The original article: its title, author and date as it gives them (each absent when it gives
/// none), so the report names the article, not a file of this project.
#[derive(Debug, Clone, Deserialize, Serialize, Default, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct OriginalArticle {
    pub title: Option<String>,
    pub author: Option<String>,
    pub date: Option<String>,
    /// Where it appeared (a company's blog, a site), when it says.
    pub publisher: Option<String>,
    /// What the article is, for one that gives no title (or to translate one).
    pub description: Option<Text>,
}

/// One table of the original article: values of one metric in one unit.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PublishedTable {
    /// The name an article cites the table by (`published.tables.c1`): ASCII letters, digits, `-`, `_`.
    pub id: String,
    /// What the table is in the original, e.g. "ab -c 5, two processes each".
    pub label: Option<Text>,
    pub metric: PublishedMetric,
    /// The unit the values are written in, as the original printed them.
    pub unit: Unit,
    /// The original ranked these conditions by these values: the report checks whether the
    /// same order holds in this dataset's medians.
    #[serde(default)]
    pub ordered: bool,
    #[serde(default)]
    pub values: Vec<PublishedValue>,
    /// Values of conditions this dataset does not measure, shown as references with the reason.
    #[serde(default)]
    pub references: Vec<ReferenceValue>,
}

/// One published number of a condition this dataset measured.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PublishedValue {
    /// The condition's id (`route=direct,downloads=2,worker=sync`).
    pub condition: String,
    pub value: f64,
    /// Which cell of the original this is, when the condition's label does not say.
    pub note: Option<Text>,
}

/// A published number of a condition not measured here (a server that cannot be installed).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ReferenceValue {
    /// What the original measured, e.g. "NGINX Unit 1.4, 1 process".
    pub label: Text,
    pub value: f64,
    /// Why this dataset does not measure it.
    pub reason: Text,
}

impl Manifest {
    /// The sessions' step names, step 0 first; empty when dataset.toml names none.
    pub fn session_steps(&self) -> &[Text] {
        self.sessions.as_ref().map_or(&[], |s| s.steps.as_slice())
    }

    /// The headline percentile: dataset.toml's, else p95. P95 only when dataset.toml names none:
    /// ingest refused any percentile `Percentile::new` cannot hold exactly (dataset/schema.rs), so
    /// no written value falls back here.
    pub fn headline_percentile(&self) -> Percentile {
        self.percentile.and_then(Percentile::new).unwrap_or(Percentile::P95)
    }

    /// The `must_match` rules as written, else the defaults.
    pub fn must_match(&self) -> Vec<String> {
        match &self.comparability {
            Some(spec) => spec.must_match.iter().map(|r| r.get_ref().clone()).collect(),
            None => crate::model::DEFAULT_MUST_MATCH.iter().map(|r| r.to_string()).collect(),
        }
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

    /// Parses `dataset.toml` text; the error names the key, its line and column when TOML knows
    /// them, and the fix ([`super::toml_errors`]).
    pub fn parse(text: &str) -> Result<Manifest, ManifestError> {
        let place = |offset: usize| super::schema::line_and_column(text, offset);
        let mut manifest: Manifest = toml::from_str(text).map_err(|error| {
            let offset = error.span().map(|span| span.start);
            ManifestError { place: offset.map(place), message: super::toml_errors::explain(text, offset, error.message()) }
        })?;
        for slo in &mut manifest.slo {
            slo.places = SloPlaces {
                metric: place(slo.metric.span().start),
                max: slo.max.as_ref().map(|v| place(v.span().start)),
                min: slo.min.as_ref().map(|v| place(v.span().start)),
                conditions: slo.conditions.as_ref().map(|v| place(v.span().start)),
                error_share: slo.error_share.as_ref().map(|v| place(v.span().start)),
            };
        }
        if let Some(baseline) = &manifest.baseline {
            manifest.baseline_place = place(baseline.span().start);
        }
        if let Some(spec) = &mut manifest.comparability {
            spec.places = spec.must_match.iter().map(|r| place(r.span().start)).collect();
        }
        if let Some(history) = &mut manifest.history {
            history.series_place = place(history.series.span().start);
        }
        // Names are trimmed (the names rule), as runs.csv's cells are, so ` a` names level `a`.
        for factor in &mut manifest.factors {
            factor.name = factor.name.trim().to_string();
            for level in &mut factor.levels {
                level.value = level.value.trim().to_string();
            }
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
    fn reads_published_tables_with_their_metric_and_unit() {
        let text = "[published]\noriginal = { title = \"比較してみた\", author = \"岩田智哉\", date = \"2018.09.04\" }\n\
                    [[published.tables]]\nid = \"c1\"\nmetric = \"requests_per_s\"\nunit = \"requests/s\"\nordered = true\n\
                    values = [{ condition = \"server=uwsgi\", value = 323.196 }]\n\
                    references = [{ label = \"NGINX Unit\", value = 321.222, reason = \"not installable\" }]\n";
        let published = Manifest::parse(text).unwrap().published.unwrap();
        assert_eq!(published.original.as_ref().and_then(|o| o.author.as_deref()), Some("岩田智哉"));
        let table = &published.tables[0];
        assert_eq!((table.metric, table.unit, table.ordered), (PublishedMetric::RequestsPerS, Unit::RequestsPerS, true));
        assert_eq!((table.values[0].condition.as_str(), table.values[0].value), ("server=uwsgi", 323.196));
        assert_eq!(table.references[0].value, 321.222);
        let error = Manifest::parse(&text.replace("requests_per_s", "requests_per_sec")).unwrap_err();
        assert_eq!(error.place, Some((5, 10)));
        let error = Manifest::parse(&text.replace("value = 323.196", "value_ms = 323.196")).unwrap_err();
        assert!(error.message.contains("value_ms"), "{}", error.message);
        assert_eq!(error.place.map(|p| p.0), Some(8));
    }

    #[test]
    fn the_headline_metric_is_the_percentile_unless_report_says_otherwise() {
        let default = ReportChoices {
            headline: HeadlineMetric::Percentile,
            beside: Vec::new(),
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
                beside: Vec::new(),
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
    fn reads_objectives_and_the_baseline_with_their_places() {
        let text = "baseline = \"gunicorn-slow-client\"\n[[slo]]\nmetric = \"p95\"\nmax = 250\nwhere = \"downloads=0\"\n\n[[slo]]\nmetric = \"requests_per_s\"\nmin = 500.5\n";
        let manifest = Manifest::parse(text).unwrap();
        assert_eq!(manifest.baseline.as_ref().map(|b| b.get_ref().as_str()), Some("gunicorn-slow-client"));
        assert_eq!(manifest.baseline_place, (1, 12));
        assert_eq!(manifest.slo.len(), 2);
        assert_eq!(
            manifest.slo[0].places,
            SloPlaces { metric: (3, 10), max: Some((4, 7)), min: None, conditions: Some((5, 9)), error_share: None }
        );
        assert_eq!(manifest.slo[0].limit(), Some(250.0));
        assert_eq!(manifest.slo[1].limit(), Some(500.5));
        assert_eq!(manifest.slo[1].parsed_metric(), Some(crate::model::SloMetric::RequestsPerS));
        let typo = Manifest::parse("[[slo]]\nmetric = \"p95\"\nmaximum = 3\n").unwrap_err();
        assert_eq!(typo.place, Some((3, 1)));
    }

    /// Every kind of mistake serde refuses names the key, its place and the fix, never serde's
    /// words ("untagged enum", "expected a sequence").
    #[test]
    fn each_refusal_names_the_key_and_the_fix() {
        let cases: &[(&str, (u64, usize), &str)] = &[
            ("[slo]\nmetric = \"p95\"\nmax = 250\n", (1, 1), "slo: a table is not what `slo` takes: it is a list: write `[[slo]]` (two brackets) above each entry, or `slo = [ … ]`"),
            ("title = { en = \"x\", fr = \"y\" }\n", (1, 9), "title: `fr` is not a language: a text is a string, or a table with `en` and/or `ja` strings, e.g. `{ en = \"Slow\", ja = \"遅い\" }`"),
            ("title = 3\n", (1, 9), "title: integer `3` is not what `title` takes: it is a text (a string, or a table with `en` and/or `ja` strings), e.g. `title = \"Slow\"` or `title = { en = \"Slow\", ja = \"遅い\" }`"),
            ("title = {}\n", (1, 9), "title: an empty table is no text: a text is a string, or a table with `en` and/or `ja` strings, e.g. `{ en = \"Slow\", ja = \"遅い\" }`"),
            ("[sessions]\nsteps = [\"a\", { en = \"b\", de = \"c\" }]\n", (2, 15), "sessions.steps: `de` is not a language: a text is a string, or a table with `en` and/or `ja` strings, e.g. `{ en = \"Slow\", ja = \"遅い\" }`"),
            ("[sessions]\nsteps = \"a\"\n", (2, 9), "sessions.steps: string \"a\" is not what `steps` takes: it is a list: write `steps = [ … ]`, each item between the brackets, separated by commas"),
            ("percentile = \"95\"\n", (1, 14), "percentile: string \"95\" is not what `percentile` takes: it is a number: write it without quotes, e.g. `percentile = 99.9`"),
            ("large_response_bytes = -1\n", (1, 24), "large_response_bytes: integer `-1` is not what `large_response_bytes` takes: it is a whole number of 0 or more, e.g. `large_response_bytes = 1048576`"),
            ("lang = \"fr\"\n", (1, 8), "lang: `fr` is not a value of `lang`: write one of `en` or `ja`"),
            ("[report]\nmean_of_runs = \"yes\"\n", (2, 16), "report.mean_of_runs: string \"yes\" is not what `mean_of_runs` takes: it is `true` or `false`, without quotes: `mean_of_runs = true`"),
            ("thresholds = 3\n", (1, 14), "thresholds: integer `3` is not what `thresholds` takes: it is a table: write `[thresholds]` with its keys on the lines below, or `thresholds = { … }`"),
            ("[[factors]]\nname = \"route\"\nlevels = [{ value = 1 }]\n", (3, 21), "factors.levels.value: integer `1` is not what `value` takes: it is a string: write it in double quotes, e.g. `value = \"…\"`"),
            ("[[factors]]\nlevels = []\n", (1, 1), "factors: each `factors` entry needs the key `name`: add `name = …`"),
            ("[thresholds]\nlag_m = 20\n", (2, 1), "thresholds.lag_m: `lag_m` is not a key of `thresholds`, whose keys are `lag_ms`, `load1`, `outlier_ratio`, `noisy_k`, `noisy_lag_floor_ms`, `noisy_load1_floor`, `negligible_difference` and `error_share`: check its spelling (keys are case-sensitive) or remove it"),
            ("x = \"a\"\nx = \"b\"\n", (2, 1), "`x` is given twice: keep one (TOML allows each key once in a table)"),
            ("title = \"x\n", (1, 11), "is not valid TOML here: invalid basic string (a line is `key = value`, `[table]` or `[[list of tables]]`)"),
        ];
        for (text, place, message) in cases {
            let error = Manifest::parse(text).unwrap_err();
            assert_eq!((error.place, error.message.as_str()), (Some(*place), *message), "{text:?}");
        }
    }

    #[test]
    fn a_typo_is_an_error_with_its_place() {
        let error = Manifest::parse("title = \"x\"\npercentil = 95\n").unwrap_err();
        assert_eq!(error.place, Some((2, 1)));
        assert!(error.message.contains("percentil"), "{}", error.message);
    }
}
