//! Service-level objectives (dataset.toml's `[[slo]]`): per condition, each objective that
//! applies to it passes when the median of its ok runs' values meets the limit, and fails
//! otherwise; how many runs met it on their own is counted beside. The median is the
//! condition's own (`ConditionResult`'s spreads), so the objective and the tables cannot
//! disagree. Ingest (`dataset::slo`) refused every objective this cannot evaluate.
//!
//! Failures come first: an objective on a latency percentile or on requests/s judges the
//! requests that got an answer (a 2xx for the percentiles, any for the rate), so a condition
//! that fails most requests fast would pass it. Such an objective fails when the median of the
//! condition's runs' shares of failed requests lies above its `error_share` (else the dataset's
//! `thresholds.error_share`), and a run counts as meeting it only within that share too.
//!
//! Beside each pass or fail, its margin ([`margin`]): how far the median lies from the limit, the
//! 95% interval of the runs' geometric mean, and the smallest margin the runs resolve, so that a
//! pass 2% under the limit from runs that resolve 9% reads as too close to call.

use crate::dataset::manifest::SloSpec;
use crate::model::SloBound;
use crate::model::{parse_condition_pairs, slo_applies, SloMetric};
use crate::report::slo::{SloMargin, SloResult, SloStatus};
use crate::report::{ConditionResult, RunResult, Spread};

/// Fills each condition's `slo` with the objectives that apply to it, in dataset.toml's order;
/// `error_share` is dataset.toml's `thresholds.error_share`.
pub fn evaluate(objectives: &[SloSpec], error_share: f64, runs: &[RunResult], conditions: &mut [ConditionResult]) {
    let by_id: std::collections::HashMap<&str, &RunResult> = runs.iter().map(|r| (r.run_id.as_str(), r)).collect();
    for objective in objectives {
        let (Some(metric), Some(limit)) = (objective.parsed_metric(), objective.limit()) else { continue };
        let wanted = objective.conditions.as_ref().map_or(Ok(Vec::new()), |w| parse_condition_pairs(w.get_ref())).unwrap_or_default();
        for condition in conditions.iter_mut() {
            if !slo_applies(&wanted, |name| condition.factors.get(name).map(String::as_str)) {
                continue;
            }
            let error_limit = metric.holds_errors().then(|| objective.error_share.as_ref().map_or(error_share, |v| *v.get_ref()));
            let bound = metric.bound();
            let within = |run: &RunResult| match (error_limit, run.error_rate) {
                (Some(most), Some(share)) => share <= most,
                _ => true,
            };
            let values: Vec<(f64, bool)> = condition
                .runs
                .iter()
                .filter_map(|id| by_id.get(id.as_str()))
                .filter_map(|run| run_value(metric, run).map(|v| (v, within(run))))
                .collect();
            let median = condition_median(metric, condition);
            let run_values: Vec<f64> = values.iter().map(|&(v, _)| v).collect();
            let shares = error_limit.and(condition.error_rate).map(|s| s.median);
            let too_many_errors = matches!((error_limit, shares), (Some(most), Some(share)) if share > most);
            condition.slo.push(SloResult {
                metric: metric.name(),
                bound,
                limit,
                median,
                runs: values.len(),
                runs_met: values.iter().filter(|&&(v, ok)| ok && bound.met(v, limit)).count(),
                error_limit,
                error_share: shares,
                status: match median {
                    _ if too_many_errors => SloStatus::TooManyErrors,
                    None => SloStatus::NoRuns,
                    Some(m) if bound.met(m, limit) => SloStatus::Pass,
                    Some(_) => SloStatus::Fail,
                },
                margin: median.filter(|_| !too_many_errors).and_then(|m| margin(&run_values, m, limit, bound)),
            });
        }
    }
}

/// The level of the interval and of the resolvable margin's test.
pub const MARGIN_LEVEL: f64 = 0.95;
/// The power at which [`SloMargin::resolvable`] is resolved.
pub const MARGIN_POWER: f64 = 0.8;

/// The margin of a condition's runs (`values`, their median `median`) to an objective's `limit`:
/// t on the logs of the runs, n - 1 degrees of freedom, se = s/√n. The interval is of the
/// geometric mean; the resolvable margin is the model's detectable change on that one sample
/// (`stats::model::multiplier`). `None` below 2 values, for a value or limit that is not
/// positive (an error rate of 0), and when the values do not vary.
pub fn margin(values: &[f64], median: f64, limit: f64, bound: SloBound) -> Option<SloMargin> {
    if values.len() < 2 || limit <= 0.0 || median <= 0.0 || values.iter().any(|&v| v.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater))
    {
        return None;
    }
    let (mean, variance) = super::model::mean_and_variance(values.iter().map(|v| v.ln()));
    if variance <= 0.0 {
        return None;
    }
    let df = (values.len() - 1) as f64;
    let se = (variance / values.len() as f64).sqrt();
    let critical = super::model::t_quantile(1.0 - (1.0 - MARGIN_LEVEL) / 2.0, df);
    let (low, high) = ((mean - critical * se).exp(), (mean + critical * se).exp());
    let passes = bound.met(median, limit);
    // The whole interval on the verdict's side: below a maximum for a pass, above it for a fail.
    let resolved = match (bound, passes) {
        (SloBound::AtMost, true) | (SloBound::AtLeast, false) => high < limit,
        (SloBound::AtMost, false) | (SloBound::AtLeast, true) => low > limit,
    };
    Some(SloMargin {
        ratio: median / limit,
        low,
        high,
        resolvable: (super::model::multiplier(df, df, 1.0 - MARGIN_LEVEL, MARGIN_POWER) * se).exp(),
        resolved,
    })
}

/// A run's value of the metric.
pub fn run_value(metric: SloMetric, run: &RunResult) -> Option<f64> {
    match metric {
        SloMetric::Percentile(p) => run.percentiles_ms.get(&p.key()).copied(),
        SloMetric::RequestsPerS => run.requests_per_s,
        SloMetric::ErrorRate => run.error_rate,
        SloMetric::FailedShare => run.sessions.as_ref().map(|s| s.failed_share),
    }
}

/// The condition's median of the metric over its ok runs, as its tables show it.
fn condition_median(metric: SloMetric, condition: &ConditionResult) -> Option<f64> {
    let spread: Option<Spread> = match metric {
        SloMetric::Percentile(p) => condition.percentiles_ms.get(&p.key()).copied(),
        SloMetric::RequestsPerS => condition.requests_per_s,
        SloMetric::ErrorRate => condition.error_rate,
        SloMetric::FailedShare => condition.sessions.as_ref().map(|s| s.failed_share),
    };
    spread.map(|s| s.median)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::Manifest;
    use crate::model::SloBound;

    /// Three conditions of three runs whose p95 are given, with the condition spreads computed
    /// the way `build` computes them.
    fn conditions(p95s: &[[f64; 3]]) -> (Vec<RunResult>, Vec<ConditionResult>) {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny");
        let mut dataset = crate::dataset::load(&dir).unwrap();
        let mut report = crate::stats::build(&mut dataset, crate::stats::Detail::Statistics);
        let mut runs = Vec::new();
        for (c, values) in p95s.iter().enumerate() {
            let condition = &mut report.conditions[c];
            condition.runs.clear();
            for (k, &v) in values.iter().enumerate() {
                let mut run = report.runs[0].clone();
                run.run_id = format!("c{c}r{k}");
                run.percentiles_ms.insert("95".into(), v);
                condition.runs.push(run.run_id.clone());
                runs.push(run);
            }
            condition.percentiles_ms.insert("95".into(), Spread::of(values).unwrap());
            condition.slo.clear();
        }
        report.conditions.truncate(p95s.len());
        (runs, report.conditions)
    }

    #[test]
    fn a_condition_passes_on_its_median_and_the_runs_that_met_it_are_counted() {
        let (runs, mut conditions) = conditions(&[[10.0, 20.0, 300.0], [240.0, 250.0, 260.0], [251.0, 100.0, 900.0]]);
        let manifest = Manifest::parse("[[slo]]\nmetric = \"p95\"\nmax = 250\n").unwrap();
        evaluate(&manifest.slo, 0.01, &runs, &mut conditions);
        let got: Vec<(Option<f64>, usize, usize, SloStatus)> =
            conditions.iter().map(|c| (c.slo[0].median, c.slo[0].runs, c.slo[0].runs_met, c.slo[0].status)).collect();
        assert_eq!(
            got,
            vec![
                (Some(20.0), 3, 2, SloStatus::Pass),
                (Some(250.0), 3, 2, SloStatus::Pass), // the limit itself meets it
                (Some(251.0), 3, 1, SloStatus::Fail),
            ]
        );
        assert_eq!(conditions[0].slo[0].bound, SloBound::AtMost);
        assert_eq!(conditions[0].slo[0].metric, "p95");
    }

    #[test]
    fn a_pass_closer_to_its_limit_than_the_runs_resolve_is_too_close_to_call() {
        // Hand-worked: logs of 200, 210, 220 have mean ln(209.84) and sd 0.04766; se 0.02752,
        // t(0.975, 2) = 4.3027, so the 95% interval is 209.84 · e^(±0.11839): 186.41-236.22.
        let m = margin(&[200.0, 210.0, 220.0], 210.0, 250.0, SloBound::AtMost).unwrap();
        assert!((m.ratio - 0.84).abs() < 1e-12);
        assert!((m.low - 186.41).abs() < 0.01 && (m.high - 236.22).abs() < 0.01, "{m:?}");
        assert!(m.resolved, "236 < 250: a pass the runs resolve");
        // The same runs against 230 ms: the median passes, but the interval reaches 236.
        let close = margin(&[200.0, 210.0, 220.0], 210.0, 230.0, SloBound::AtMost).unwrap();
        assert!(!close.resolved);
        // The resolvable margin grows with the spread and shrinks with the runs.
        let wide = margin(&[150.0, 210.0, 280.0], 210.0, 250.0, SloBound::AtMost).unwrap();
        let many = margin(&[200.0, 210.0, 220.0, 200.0, 210.0, 220.0, 200.0, 210.0, 220.0], 210.0, 250.0, SloBound::AtMost).unwrap();
        assert!(wide.resolvable > m.resolvable && many.resolvable < m.resolvable, "{wide:?} {m:?} {many:?}");
        // At 80% power the resolvable margin lies beyond the interval's half-width.
        assert!(m.resolvable.ln() > (m.high / 209.84).ln());
        // A rate objective: 600 requests/s against at least 500, and a fail below it.
        assert!(margin(&[590.0, 600.0, 610.0], 600.0, 500.0, SloBound::AtLeast).unwrap().resolved);
        assert!(margin(&[390.0, 400.0, 410.0], 400.0, 500.0, SloBound::AtLeast).unwrap().resolved);
        // No margin from one run, from values that do not vary, or from an error rate of 0.
        assert!(margin(&[210.0], 210.0, 250.0, SloBound::AtMost).is_none());
        assert!(margin(&[210.0, 210.0], 210.0, 250.0, SloBound::AtMost).is_none());
        assert!(margin(&[0.0, 0.01], 0.005, 0.01, SloBound::AtMost).is_none());
    }

    #[test]
    fn where_limits_an_objective_to_the_conditions_it_names() {
        let (runs, mut conditions) = conditions(&[[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]);
        let second = conditions[1].factors.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(",");
        let text = format!("[[slo]]\nmetric = \"p95\"\nmax = 0.5\nwhere = \"{second}\"\n");
        evaluate(&Manifest::parse(&text).unwrap().slo, 0.01, &runs, &mut conditions);
        assert!(conditions[0].slo.is_empty());
        assert_eq!(conditions[1].slo[0].status, SloStatus::Fail);
    }

    #[test]
    fn a_latency_objective_fails_a_condition_whose_requests_failed() {
        // 99 of 100 requests of every run answered 503: the p95 of the one 2xx is fast.
        let (runs, mut conditions) = conditions(&[[5.0, 5.0, 5.0], [5.0, 5.0, 5.0]]);
        let runs: Vec<RunResult> = runs
            .into_iter()
            .map(|r| {
                if r.run_id.starts_with("c0") {
                    RunResult { error_rate: Some(0.99), ..r }
                } else {
                    RunResult { error_rate: Some(0.0), ..r }
                }
            })
            .collect();
        conditions[0].error_rate = Spread::of(&[0.99, 0.99, 0.99]);
        conditions[1].error_rate = Spread::of(&[0.0, 0.0, 0.0]);
        let manifest = Manifest::parse("[[slo]]\nmetric = \"p95\"\nmax = 10\n").unwrap();
        evaluate(&manifest.slo, 0.01, &runs, &mut conditions);
        let first = &conditions[0].slo[0];
        assert_eq!(
            (first.status, first.runs_met, first.error_limit, first.error_share),
            (SloStatus::TooManyErrors, 0, Some(0.01), Some(0.99))
        );
        assert_eq!((conditions[1].slo[0].status, conditions[1].slo[0].runs_met), (SloStatus::Pass, 3));
        // The objective may say otherwise: 1 judges the latency alone.
        conditions.iter_mut().for_each(|c| c.slo.clear());
        let manifest = Manifest::parse("[[slo]]\nmetric = \"p95\"\nmax = 10\nerror_share = 1\n").unwrap();
        evaluate(&manifest.slo, 0.01, &runs, &mut conditions);
        assert_eq!((conditions[0].slo[0].status, conditions[0].slo[0].runs_met), (SloStatus::Pass, 3));
        // An objective on the error rate itself is not held to a second share.
        conditions.iter_mut().for_each(|c| c.slo.clear());
        let manifest = Manifest::parse("[[slo]]\nmetric = \"error_rate\"\nmax = 0.995\n").unwrap();
        evaluate(&manifest.slo, 0.01, &runs, &mut conditions);
        assert_eq!((conditions[0].slo[0].status, conditions[0].slo[0].error_limit), (SloStatus::Pass, None));
    }

    #[test]
    fn a_condition_without_a_value_cannot_pass() {
        let (runs, mut conditions) = conditions(&[[1.0, 1.0, 1.0]]);
        let manifest = Manifest::parse("[[slo]]\nmetric = \"requests_per_s\"\nmin = 10\n").unwrap();
        conditions[0].requests_per_s = None;
        let runs: Vec<RunResult> = runs.into_iter().map(|r| RunResult { requests_per_s: None, ..r }).collect();
        evaluate(&manifest.slo, 0.01, &runs, &mut conditions);
        assert_eq!(conditions[0].slo[0].status, SloStatus::NoRuns);
        assert_eq!((conditions[0].slo[0].runs, conditions[0].slo[0].runs_met), (0, 0));
    }
}
