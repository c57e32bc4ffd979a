//! The rules dataset.toml's service-level objectives (`[[slo]]`) must satisfy beyond their
//! syntax, each refusal at its place: a metric the report computes, one limit on the side the
//! metric is bounded from, a number that can be a limit, and a `where` that names factors and
//! levels this dataset has and selects at least one condition.

use super::error::{shown, DataError, Problems};
use super::manifest::{Manifest, SloSpec};
use super::runs::{Factor, Run};
use crate::model::{parse_condition_pairs, slo_applies, SloBound, SloMetric};

const FILE: &str = "dataset.toml";

/// Checks every objective against the dataset's factors, runs and tables.
pub fn check(manifest: &Manifest, factors: &[Factor], runs: &[Run], has_sessions: bool, problems: &mut Problems) {
    let reported = manifest.reported_percentiles();
    let names: Vec<String> = reported.iter().map(|p| format!("p{p}")).collect();
    for slo in &manifest.slo {
        let at =
            |(line, column): (u64, usize), key: &str, message: String| DataError::at(FILE, line, column, format!("slo.{key}: {message}"));
        let text = slo.metric.get_ref();
        let metric = match SloMetric::parse(text) {
            None => {
                problems.push(at(
                    slo.places.metric,
                    "metric",
                    format!(
                        "{} is not a metric an objective can bound: write one of {}, requests_per_s, error_rate or failed_share",
                        shown(text),
                        names.join(", ")
                    ),
                ));
                None
            }
            Some(SloMetric::Percentile(p)) if !reported.contains(&p) => {
                problems.push(at(
                    slo.places.metric,
                    "metric",
                    format!("p{p} is not a percentile this report computes ({}): set percentile = {p} to add it", names.join(", ")),
                ));
                None
            }
            Some(SloMetric::FailedShare) if !has_sessions => {
                problems.push(at(slo.places.metric, "metric", "failed_share needs sessions.csv, which this dataset does not have".into()));
                None
            }
            Some(metric) => Some(metric),
        };
        if let Some(metric) = metric {
            check_limit(slo, metric, problems);
            check_error_share(slo, metric, problems);
        }
        if let (Some(where_), Some(place)) = (&slo.conditions, slo.places.conditions) {
            check_where(where_.get_ref(), place, factors, runs, problems);
        }
    }
}

/// One limit, on the side the metric is bounded from, that is a number a value can be held to.
fn check_limit(slo: &SloSpec, metric: SloMetric, problems: &mut Problems) {
    let name = metric.name();
    let unit = if metric.is_fraction() {
        " (a fraction: 0.01 for 1%)"
    } else if metric == SloMetric::RequestsPerS {
        " (requests/s)"
    } else {
        " (ms)"
    };
    let (wanted, other) = match metric.bound() {
        SloBound::AtMost => ("max", "min"),
        SloBound::AtLeast => ("min", "max"),
    };
    let (given, given_place, wrong_place) = match metric.bound() {
        SloBound::AtMost => (&slo.max, slo.places.max, slo.places.min),
        SloBound::AtLeast => (&slo.min, slo.places.min, slo.places.max),
    };
    let error =
        |(line, column): (u64, usize), key: &str, message: String| DataError::at(FILE, line, column, format!("slo.{key}: {message}"));
    if let Some(place) = wrong_place {
        let side = if wanted == "max" { "above" } else { "below" };
        problems.push(error(place, other, format!("{name} is bounded from {side}: write {wanted} = ...{unit}")));
    }
    let Some(value) = given else {
        if wrong_place.is_none() {
            problems.push(error(slo.places.metric, "metric", format!("{name} has no limit: write {wanted} = ...{unit}")));
        }
        return;
    };
    let number = *value.get_ref();
    let place = given_place.unwrap_or(slo.places.metric);
    if !(number.is_finite() && number >= 0.0) {
        problems.push(error(place, wanted, format!("{number} is not 0 or a positive number")));
    } else if metric.is_fraction() && number > 1.0 {
        problems.push(error(place, wanted, format!("{number} is above 1: {name} is a fraction (0.01 for 1%)")));
    }
}

/// An objective's own `error_share` is a share, on an objective the failures do not show.
fn check_error_share(slo: &SloSpec, metric: SloMetric, problems: &mut Problems) {
    let (Some(value), Some((line, column))) = (&slo.error_share, slo.places.error_share) else { return };
    let number = *value.get_ref();
    let error = |message: String| DataError::at(FILE, line, column, format!("slo.error_share: {message}"));
    if !metric.holds_errors() {
        problems.push(error(format!(
            "{} is itself a share of failures: error_share applies to objectives on a percentile or requests_per_s; remove it",
            metric.name()
        )));
    } else if !(number.is_finite() && (0.0..=1.0).contains(&number)) {
        problems.push(error(format!("{number} is not a share from 0 up to 1 (0.01 is 1%; 1 judges the metric alone)")));
    }
}

/// `where` names factor=level pairs of this dataset, each factor once, and selects a condition
/// that has runs.
fn check_where(text: &str, (line, column): (u64, usize), factors: &[Factor], runs: &[Run], problems: &mut Problems) {
    let error = |message: String| DataError::at(FILE, line, column, format!("slo.where: {message}"));
    let pairs = match parse_condition_pairs(text) {
        Ok(pairs) => pairs,
        Err(why) => return problems.push(error(format!("{}: {why}; write factor=level pairs joined by commas", shown(text)))),
    };
    let known = factors.iter().map(|f| f.name.as_str()).collect::<Vec<_>>().join(", ");
    let mut bad = false;
    for (i, (name, level)) in pairs.iter().enumerate() {
        if pairs[..i].iter().any(|(n, _)| n == name) {
            problems.push(error(format!("the factor {} is named twice", shown(name))));
            bad = true;
            continue;
        }
        match factors.iter().find(|f| &f.name == name) {
            None => {
                problems.push(error(format!("{} is not a factor of this dataset (its factors: {known})", shown(name))));
                bad = true;
            }
            Some(factor) if !factor.levels.iter().any(|l| &l.value == level) => {
                let levels = factor.levels.iter().map(|l| l.value.as_str()).collect::<Vec<_>>().join(", ");
                problems.push(error(format!("{} is not a level of {} (its levels: {levels})", shown(level), shown(name))));
                bad = true;
            }
            Some(_) => {}
        }
    }
    let selects = |run: &Run| {
        slo_applies(&pairs, |name| {
            let f = factors.iter().position(|f| f.name == name)?;
            Some(factors[f].levels[*run.levels.get(f)?].value.as_str())
        })
    };
    if !bad && !runs.iter().any(selects) {
        problems.push(error(format!("{} selects no condition with runs", shown(text))));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems_of(text: &str, has_sessions: bool) -> Vec<String> {
        let manifest = Manifest::parse(text).expect("valid syntax");
        let runs_csv = "run_id,route,downloads,repetition,started_at_utc,status\n\
                        r1,direct,0,1,2026-11-30T00:00:00Z,ok\nr2,nginx,2,1,2026-11-30T00:00:10Z,ok\n";
        let table = super::super::table::TextTable::parse_csv("runs.csv", runs_csv.as_bytes(), &mut Problems::default()).unwrap();
        let parsed = super::super::runs::parse_runs(&table, &Manifest::default(), &mut Problems::default());
        let mut problems = Problems::default();
        check(&manifest, &parsed.factors, &parsed.runs, has_sessions, &mut problems);
        problems.errors().iter().map(ToString::to_string).collect()
    }

    #[test]
    fn an_objectives_error_share_is_a_share_on_a_metric_the_failures_do_not_show() {
        assert!(problems_of("[[slo]]\nmetric = \"p95\"\nmax = 10\nerror_share = 0.05\n", false).is_empty());
        assert_eq!(
            problems_of("[[slo]]\nmetric = \"p95\"\nmax = 10\nerror_share = 5\n", false),
            ["dataset.toml:4:15: slo.error_share: 5 is not a share from 0 up to 1 (0.01 is 1%; 1 judges the metric alone)"]
        );
        assert_eq!(
            problems_of("[[slo]]\nmetric = \"error_rate\"\nmax = 0.1\nerror_share = 0.5\n", false),
            ["dataset.toml:4:15: slo.error_share: error_rate is itself a share of failures: error_share applies to objectives on a percentile or requests_per_s; remove it"]
        );
    }

    #[test]
    fn good_objectives_pass() {
        let text = "[[slo]]\nmetric = \"p95\"\nmax = 250\n[[slo]]\nmetric = \"requests_per_s\"\nmin = 100\nwhere = \"route=direct\"\n\
                    [[slo]]\nmetric = \"error_rate\"\nmax = 0.01\nwhere = \"route=nginx,downloads=2\"\n";
        assert_eq!(problems_of(text, false), Vec::<String>::new());
    }

    #[test]
    fn a_metric_the_report_does_not_compute_is_refused_at_its_place() {
        let got = problems_of("[[slo]]\nmetric = \"p97\"\nmax = 1\n[[slo]]\nmetric = \"latency\"\nmax = 1\n", false);
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(got[0].starts_with("dataset.toml:2:10: slo.metric: p97 is not a percentile this report computes"), "{}", got[0]);
        assert!(got[0].contains("set percentile = 97"), "{}", got[0]);
        assert!(got[1].starts_with("dataset.toml:5:10: slo.metric: \"latency\" is not a metric"), "{}", got[1]);
        let sessions = problems_of("[[slo]]\nmetric = \"failed_share\"\nmax = 0.1\n", false);
        assert_eq!(sessions, ["dataset.toml:2:10: slo.metric: failed_share needs sessions.csv, which this dataset does not have"]);
        assert_eq!(problems_of("[[slo]]\nmetric = \"failed_share\"\nmax = 0.1\n", true), Vec::<String>::new());
    }

    #[test]
    fn a_limit_on_the_wrong_side_or_out_of_range_names_the_fix() {
        assert_eq!(
            problems_of("[[slo]]\nmetric = \"p95\"\nmin = 3\n", false),
            ["dataset.toml:3:7: slo.min: p95 is bounded from above: write max = ... (ms)"]
        );
        assert_eq!(
            problems_of("[[slo]]\nmetric = \"requests_per_s\"\nmax = 3\n", false),
            ["dataset.toml:3:7: slo.max: requests_per_s is bounded from below: write min = ... (requests/s)"]
        );
        assert_eq!(
            problems_of("[[slo]]\nmetric = \"p99\"\n", false),
            ["dataset.toml:2:10: slo.metric: p99 has no limit: write max = ... (ms)"]
        );
        assert_eq!(
            problems_of("[[slo]]\nmetric = \"error_rate\"\nmax = 5\n", false),
            ["dataset.toml:3:7: slo.max: 5 is above 1: error_rate is a fraction (0.01 for 1%)"]
        );
        assert_eq!(
            problems_of("[[slo]]\nmetric = \"p50\"\nmax = nan\n", false),
            ["dataset.toml:3:7: slo.max: NaN is not 0 or a positive number"]
        );
    }

    #[test]
    fn where_must_name_this_datasets_factors_and_levels() {
        let got = |w: &str| problems_of(&format!("[[slo]]\nmetric = \"p95\"\nmax = 1\nwhere = \"{w}\"\n"), false);
        assert_eq!(got("route=direct,downloads=0"), Vec::<String>::new());
        assert_eq!(
            got("rout=direct"),
            ["dataset.toml:4:9: slo.where: \"rout\" is not a factor of this dataset (its factors: route, downloads)"]
        );
        assert_eq!(got("route=dirct"), ["dataset.toml:4:9: slo.where: \"dirct\" is not a level of \"route\" (its levels: direct, nginx)"]);
        assert_eq!(
            got("route=direct,downloads=2"),
            ["dataset.toml:4:9: slo.where: \"route=direct,downloads=2\" selects no condition with runs"]
        );
        assert_eq!(got("route=direct,route=nginx"), ["dataset.toml:4:9: slo.where: the factor \"route\" is named twice"]);
        assert!(got("route").first().is_some_and(|e| e.contains("write factor=level pairs")), "{:?}", got("route"));
    }
}
