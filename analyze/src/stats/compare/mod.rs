//! `analyze compare`: two reports of the same conditions (a baseline and a candidate) compared
//! condition by condition, on the runs, by the rule the variance review uses
//! ([`crate::stats::difference`]): the ratio of geometric means candidate/baseline with its 95%
//! Welch interval on the logs and p, Benjamini-Hochberg at 5% over the matched conditions, the
//! verdict with the baseline's negligible threshold, and its direction from the metric. The
//! distribution-free chance of apart ranges ([`crate::stats::variance::chance_if_no_difference`])
//! stands beside it.
//!
//! The estimate follows the sittings given ([`crate::stats::model`]): one sitting a side is
//! Welch's t on the runs and assumes no sitting effect; re-measurements of the baseline (`--aa`)
//! give the sitting-to-sitting variance τ², pooled over the conditions, which widens each
//! comparison by 2τ²; re-measurements of the candidate (`--bb`) make several sittings a side,
//! each sitting's mean log a unit. Each interval is at the false-coverage-rate level that matches
//! the Benjamini-Hochberg verdicts (Benjamini and Yekutieli 2005): with R discoveries of m,
//! 1 - R·q/m for a discovery (its interval excludes 1), 1 - (R + 1)·q/m for the others (theirs
//! holds 1), so a verdict and its interval never disagree. A verdict is a function of that
//! interval: negligible when it lies inside ±threshold (equivalence), supported when it excludes
//! 1, not shown otherwise. Every comparison states the smallest change it could detect at 80%
//! power and its interval's alpha, and the runs a side or interleaved rounds that would detect
//! the target change (the regression threshold, else the negligible one).
//!
//! The metric is the baseline's headline; each side's sample is its ok runs' values of it.

pub mod calibration;
pub mod causes;
pub mod matching;
pub mod reproduction;

use super::difference::{self, FDR_Q, INTERVAL_LEVEL};
use super::failures::{self, RunFailures};
use super::model::{Design, Estimate, SittingVariance};
use super::variance::{chance_if_no_difference, ranges_overlap};
use crate::model::{CompareVerdict, DecidedBy, FailureVerdict, HeadlineMetric, Percentile, Verdict};
use crate::report::compare::*;
use crate::report::{ConditionResult, Report, RunResult, Spread};
pub use matching::{MatchError, MatchRule};

/// What `analyze compare` was asked, validated.
#[derive(Debug, Clone, Default)]
pub struct ComparePlan {
    pub rules: Vec<MatchRule>,
    /// `--fail-on-regression` as a fraction (0.1 for 10%).
    pub fail_on_regression: Option<f64>,
    /// `--allow-env KEY`: `[environment]` keys that may differ between the two.
    pub allow_env: Vec<String>,
    /// Leave out the runs and rounds that would detect the target change (A/A calibration and
    /// simulations, which read only the verdicts; each plan searches up to 1,000 runs).
    pub skip_planning: bool,
    /// Leave out the detectable change as well (A/A calibration, which reads only whether the
    /// gate fired).
    pub verdicts_only: bool,
}

/// Why two reports cannot be compared.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CompareError {
    #[error(transparent)]
    Match(#[from] MatchError),
    #[error(
        "the candidate {candidate} has no {metric} for any of its runs, which the baseline {baseline} is compared by (dataset.toml: report.headline, percentile); give the candidate the same headline"
    )]
    MetricMissing { baseline: String, candidate: String, metric: String },
}

/// The metric both sides are compared by: a headline metric, at a percentile for latency.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Metric {
    pub headline: HeadlineMetric,
    pub percentile: Percentile,
}

impl Metric {
    pub(crate) fn of(report: &Report) -> Metric {
        Metric { headline: report.headline, percentile: report.percentile }
    }

    /// `p95`, else the metric's name in summary.json (`requests_per_s`).
    pub(crate) fn name(self) -> String {
        if self.headline.is_percentile() {
            format!("p{}", self.percentile)
        } else {
            serde_json::to_value(self.headline).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
        }
    }

    pub(crate) fn of_run(self, run: &RunResult) -> Option<f64> {
        if self.headline.is_percentile() {
            run.percentiles_ms.get(&self.percentile.key()).copied()
        } else {
            self.headline.of_run(run)
        }
    }

    /// Whether `report` computes this metric for its runs at all: a percentile it reports, a
    /// sessions metric of a dataset with sessions. A run may still lack a value (no 2xx response).
    fn computed_by(self, report: &Report) -> bool {
        if self.headline.is_percentile() {
            Percentile::STANDARD.contains(&self.percentile) || report.percentile == self.percentile
        } else if self.headline.needs_sessions() {
            report.runs.iter().any(|run| run.sessions.is_some())
        } else {
            true
        }
    }

    /// The requests a run needs to resolve this metric, when it is a percentile that no ok run of
    /// one of the two conditions resolves: the larger need of the two.
    fn unresolved_needs(self, base: &ConditionResult, cand: &ConditionResult) -> Option<u64> {
        if !self.headline.is_percentile() {
            return None;
        }
        let key = self.percentile.key();
        [base, cand].iter().filter_map(|c| c.unresolved_percentiles.get(&key).copied()).max()
    }

    /// The condition's own median and range of it, as its report shows them.
    fn of_condition(self, condition: &ConditionResult) -> Option<Spread> {
        if self.headline.is_percentile() {
            condition.percentiles_ms.get(&self.percentile.key()).copied()
        } else {
            self.headline.of_condition(condition)
        }
    }
}

/// Compares `candidate` against `baseline`, one sitting a side.
pub fn compare(baseline: &Report, candidate: &Report, plan: &ComparePlan) -> Result<ComparisonReport, CompareError> {
    compare_sittings(baseline, candidate, &[], &[], plan)
}

/// The re-measurements in `extra` that are neither `side` again nor an earlier one again: a
/// measurement given twice is no new sitting.
fn fresh<'a>(extra: &'a [Report], side: &Report) -> Vec<&'a Report> {
    let mut kept: Vec<&Report> = Vec::new();
    for r in extra {
        if !same_measurement(r, side) && !kept.iter().any(|k| same_measurement(k, r)) {
            kept.push(r);
        }
    }
    kept
}

/// The values of the metric in the condition `id` of each of `sittings` (empty where a sitting
/// lacks the condition).
fn sittings_of(sittings: &[&Report], id: &str, metric: Metric) -> Vec<Vec<f64>> {
    sittings
        .iter()
        .filter_map(|r| r.conditions.iter().position(|c| c.id == id).map(|i| side_runs(r, i, metric).1))
        .filter(|v| !v.is_empty())
        .collect()
}

/// Compares `candidate` against `baseline`, with re-measurements of the baseline (`aa`: its
/// sitting-to-sitting variance) and of the candidate (`bb`: several sittings a side), matched to
/// each side's conditions by condition id.
pub fn compare_sittings(
    baseline: &Report,
    candidate: &Report,
    aa: &[Report],
    bb: &[Report],
    plan: &ComparePlan,
) -> Result<ComparisonReport, CompareError> {
    let metric = Metric::of(baseline);
    let own = Metric::of(candidate);
    let ok_runs = |r: &Report| r.runs.iter().filter(|run| run.status == crate::model::RunStatus::Ok).count();
    if !metric.computed_by(candidate) {
        return Err(CompareError::MetricMissing {
            baseline: baseline.dataset.name.clone(),
            candidate: candidate.dataset.name.clone(),
            metric: metric.name(),
        });
    }
    let same = same_measurement(baseline, candidate);
    let matched =
        matching::match_conditions(&plan.rules, (&baseline.factors, &baseline.conditions), (&candidate.factors, &candidate.conditions))?;
    let negligible = baseline.variance.thresholds.negligible_difference;
    let higher_is_better = metric.headline.higher_is_better();

    // A re-measurement that is one of the sides (or an earlier one) again is no new sitting.
    let (aa, bb) = (fresh(aa, baseline), fresh(bb, candidate));
    let mut conditions = Vec::new();
    let mut figures = Vec::new();
    let mut estimates = Vec::new();
    let error_share = baseline.standing.threshold;
    // Several sittings of the candidate: sittings a side; else re-measurements of the baseline:
    // τ² pooled over the conditions; else Welch in one sitting a side.
    let design = if !bb.is_empty() {
        Design::SittingsASide
    } else if !aa.is_empty() {
        Design::WelchWithSittingVariance
    } else {
        Design::WelchOneSitting
    };
    let base_sittings = |b: usize| -> Vec<Vec<f64>> {
        let mut all = vec![side_runs(baseline, b, metric).1];
        all.extend(sittings_of(&aa, &baseline.conditions[b].id, metric));
        all.retain(|v| !v.is_empty());
        all
    };
    let sitting_variance = match design {
        Design::WelchWithSittingVariance => SittingVariance::pool(
            &matched.pairs.iter().filter_map(|&(b, _)| SittingVariance::of_sittings(&base_sittings(b))).collect::<Vec<_>>(),
        ),
        _ => None,
    };
    for &(b, c) in &matched.pairs {
        let failures = failures::compare(&side_failures(baseline, b), &side_failures(candidate, c));
        let (base, base_values) = side_runs(baseline, b, metric);
        let (cand, cand_values) = side_runs(candidate, c, metric);
        let estimate = match (design, sitting_variance) {
            (Design::SittingsASide, _) => {
                let mut cand_sittings = vec![cand_values.clone()];
                cand_sittings.extend(sittings_of(&bb, &candidate.conditions[c].id, metric));
                cand_sittings.retain(|v| !v.is_empty());
                Estimate::sittings(&base_sittings(b), &cand_sittings)
            }
            (Design::WelchWithSittingVariance, Some(v)) => Estimate::with_sitting_variance(&base_values, &cand_values, v),
            _ => Estimate::welch(&base_values, &cand_values),
        };
        let interval = estimate.map(|e| {
            let (low, high) = e.interval(INTERVAL_LEVEL);
            difference::LogRatio { ratio: e.ratio(), low, high, p: e.p(), df: e.df }
        });
        let (n, m) = (base_values.len(), cand_values.len());
        let range = |v: &[f64]| (v.iter().copied().fold(f64::INFINITY, f64::min), v.iter().copied().fold(f64::NEG_INFINITY, f64::max));
        let condition = &candidate.conditions[c];
        conditions.push(ConditionComparison {
            condition_id: condition.id.clone(),
            baseline_condition_id: baseline.conditions[b].id.clone(),
            factors: condition.factors.clone(),
            ratio: match estimate {
                Ok(e) if e.design == Design::SittingsASide => Some(e.ratio()),
                _ => difference::geometric_mean_ratio(&base_values, &cand_values),
            },
            ratio_low: interval.as_ref().ok().map(|i| i.low),
            ratio_high: interval.as_ref().ok().map(|i| i.high),
            p_log_t: interval.as_ref().ok().map(|i| i.p),
            no_interval: interval.err(),
            chance_if_no_difference: (n >= 2 && m >= 2).then(|| chance_if_no_difference(n, m)).flatten(),
            permutation: super::permutation::permutation_p(&base_values, &cand_values),
            ranges_overlap: (n > 0 && m > 0).then(|| ranges_overlap(range(&base_values), range(&cand_values))),
            fdr_supported: false,
            verdict: CompareVerdict::NotShown,
            decided_by: DecidedBy::Metric,
            failures,
            interval_level: None,
            design: estimate.ok().map(|e| e.design),
            detectable: None,
            unresolved_needs: metric.unresolved_needs(&baseline.conditions[b], condition),
            regression: false,
            regression_undecided: false,
            causes: causes::of_condition(&ok_runs_of(baseline, b), &ok_runs_of(candidate, c)),
            labels: level_labels(candidate, condition),
            base,
            cand,
        });
        figures.push(ConditionFigures { base: representative_ecdf(baseline, b), cand: representative_ecdf(candidate, c) });
        estimates.push(estimate.ok());
    }

    let with_p: Vec<usize> = (0..conditions.len()).filter(|&i| conditions[i].p_log_t.is_some()).collect();
    let p: Vec<f64> = with_p.iter().filter_map(|&i| conditions[i].p_log_t).collect();
    for (&i, passes) in with_p.iter().zip(difference::benjamini_hochberg(&p, FDR_Q)) {
        conditions[i].fdr_supported = passes;
    }
    let failure_tests: Vec<usize> = (0..conditions.len()).filter(|&i| conditions[i].failures.p.is_some()).collect();
    let failure_p: Vec<f64> = failure_tests.iter().filter_map(|&i| conditions[i].failures.p).collect();
    for (&i, passes) in failure_tests.iter().zip(difference::benjamini_hochberg(&failure_p, FDR_Q)) {
        conditions[i].failures.fdr_supported = passes;
    }
    // The false-coverage-rate level of each interval (module doc): R discoveries of m.
    let (discoveries, tested) = (with_p.iter().filter(|&&i| conditions[i].fdr_supported).count(), with_p.len());
    let target = 1.0 + plan.fail_on_regression.unwrap_or(negligible);
    for (condition, estimate) in conditions.iter_mut().zip(&estimates) {
        condition.failures.verdict = failures::verdict(&condition.failures, error_share);
        if let Some(e) = estimate {
            let selected = if condition.fdr_supported { discoveries } else { discoveries + 1 };
            let level = 1.0 - selected as f64 * FDR_Q / tested.max(1) as f64;
            let (low, high) = e.interval(level);
            condition.ratio_low = Some(low);
            condition.ratio_high = Some(high);
            condition.interval_level = Some(level);
            let alpha = 1.0 - level;
            condition.detectable = (!plan.verdicts_only).then(|| Detectable {
                change: e.detectable(alpha, DETECT_POWER),
                alpha,
                power: DETECT_POWER,
                target,
                runs_a_side: if plan.skip_planning { None } else { e.runs_a_side_for(target, alpha, DETECT_POWER) },
                rounds: if plan.skip_planning { None } else { e.rounds_for(target, alpha, DETECT_POWER) },
            });
        }
        let interval = condition.ratio_low.zip(condition.ratio_high);
        let verdict =
            condition.ratio.map_or(Verdict::NotShown, |ratio| difference::verdict(ratio, interval, condition.fdr_supported, negligible));
        condition.verdict =
            condition.ratio.map_or(CompareVerdict::NotShown, |ratio| difference::directed(verdict, ratio, higher_is_better));
        if let (Some(threshold), Some((low, high))) = (plan.fail_on_regression, interval) {
            condition.regression = condition.verdict == CompareVerdict::SupportedSlower
                && difference::regression_beyond(low, high, threshold, higher_is_better);
        }
        if decide_by_failures(condition, plan.fail_on_regression.is_some()) {
            continue;
        }
        let limit = plan.fail_on_regression.and_then(|t| difference::regression_log_limit(t, higher_is_better));
        if let (Some(limit), Some(ratio)) = (limit, condition.ratio) {
            let d = ratio.ln();
            let beyond = if higher_is_better { limit - d } else { d - limit };
            condition.regression_undecided = beyond > 0.0 && !condition.regression;
        }
    }

    let without_metric = without_metric(baseline, candidate, &matched.pairs, &conditions);
    let nothing_compared = if same {
        // One measurement on both sides: its runs against themselves say nothing of a change.
        conditions.clear();
        figures.clear();
        Some(NothingCompared::SameMeasurement)
    } else if conditions.is_empty() {
        Some(NothingCompared::NoMatch)
    } else if without_metric.as_ref().is_some_and(|w| w.conditions.len() == conditions.len()) {
        Some(NothingCompared::NoValue)
    } else {
        None
    };
    let without_metric = if same { None } else { without_metric };
    let reproduction = (nothing_compared.is_none()).then(|| reproduction::of(baseline, candidate, &matched.pairs));
    let with_p = if same { Vec::new() } else { with_p };
    let count = |v: CompareVerdict| conditions.iter().filter(|c| c.verdict == v).count() as u64;
    let summary = CompareSummary {
        matched: conditions.len() as u64,
        with_interval: with_p.len() as u64,
        supported_faster: count(CompareVerdict::SupportedFaster),
        supported_slower: count(CompareVerdict::SupportedSlower),
        negligible: count(CompareVerdict::Negligible),
        not_shown: count(CompareVerdict::NotShown),
        failures_rise: conditions
            .iter()
            .filter(|c| matches!(c.failures.verdict, FailureVerdict::Rise | FailureVerdict::NoResponses))
            .count() as u64,
        failures_fall: conditions.iter().filter(|c| c.failures.verdict == FailureVerdict::Fall).count() as u64,
        regressions: conditions.iter().filter(|c| c.regression).map(|c| c.condition_id.clone()).collect(),
        causes_differ: conditions
            .iter()
            .filter(|c| c.causes.is_some_and(|causes| causes.differ()))
            .map(|c| c.condition_id.clone())
            .collect(),
    };
    let unmatched = |report: &Report, list: &[(usize, UnmatchedReason, Vec<usize>)], other: &Report| -> Vec<Unmatched> {
        list.iter()
            .map(|(i, reason, could)| {
                let condition = &report.conditions[*i];
                Unmatched {
                    condition_id: condition.id.clone(),
                    factors: condition.factors.clone(),
                    ok_runs: condition.runs.len(),
                    reason: *reason,
                    could_match: could.iter().map(|&j| other.conditions[j].id.clone()).collect(),
                    labels: level_labels(report, condition),
                }
            })
            .collect()
    };
    let comparability = super::comparability::check(
        &baseline.dataset.must_match,
        &baseline.dataset.environment,
        &candidate.dataset.environment,
        &plan.allow_env,
    );
    Ok(ComparisonReport {
        schema_version: COMPARE_SCHEMA_VERSION,
        comparability,
        gate: calibration::uncalibrated(plan.fail_on_regression),
        baseline: side(baseline, ok_runs(baseline)),
        candidate: side(candidate, ok_runs(candidate)),
        metric: metric.name(),
        higher_is_better,
        candidate_headline: (own.name() != metric.name()).then(|| own.name()),
        sittings: Sittings {
            baseline: std::iter::once(baseline).chain(aa.iter().copied()).map(|r| r.dataset.name.clone()).collect(),
            candidate: std::iter::once(candidate).chain(bb.iter().copied()).map(|r| r.dataset.name.clone()).collect(),
            design,
            sitting_variance,
        },
        thresholds: CompareThresholds {
            negligible_difference: negligible,
            fdr_q: FDR_Q,
            interval_level: INTERVAL_LEVEL,
            fail_on_regression: plan.fail_on_regression,
            error_share,
            cause_cpu_floor: causes::CPU_FLOOR,
            cause_load_floor: causes::LOAD_FLOOR,
        },
        only_in_baseline: unmatched(baseline, &matched.only_in_baseline, candidate),
        only_in_candidate: unmatched(candidate, &matched.only_in_candidate, baseline),
        matching: matched.matching,
        conditions,
        summary,
        nothing_compared,
        reproduction,
        without_metric,
        figures,
        headline: metric.headline,
        percentile: metric.percentile,
    })
}

/// Whether `a` and `b` are one measurement: the same runs (ids, factor levels, start times,
/// statuses and every per-run value), whatever their folders are called or their titles say. The
/// same folder given twice is, and so is a copy of it.
/// Two halves of one condition's runs (`calibration`'s splits) share the runs but not the
/// conditions' run lists, so they are not one measurement.
pub fn same_measurement(a: &Report, b: &Report) -> bool {
    let members = |r: &Report| r.conditions.iter().map(|c| (c.id.clone(), c.runs.clone())).collect::<Vec<_>>();
    a.runs.len() == b.runs.len()
        && members(a) == members(b)
        && matches!((serde_json::to_value(&a.runs), serde_json::to_value(&b.runs)), (Ok(x), Ok(y)) if x == y)
}

/// The matched conditions whose ok runs on a side have no value of the metric, so that they were
/// not compared by it (their failures did not decide them either), with what those runs have
/// instead; `None` when every matched condition with ok runs had its values.
fn without_metric(
    baseline: &Report,
    candidate: &Report,
    pairs: &[(usize, usize)],
    conditions: &[ConditionComparison],
) -> Option<WithoutMetric> {
    let lacks = |side: &SideRuns| side.runs.is_empty() && side.without_value > 0;
    let mut out = WithoutMetric::default();
    let mut available = std::collections::BTreeSet::new();
    let mut tools = std::collections::BTreeSet::new();
    let mut rate = false;
    for (c, &(b, k)) in conditions.iter().zip(pairs) {
        if c.decided_by != DecidedBy::Metric || c.ratio.is_some() || !(lacks(&c.base) || lacks(&c.cand)) {
            continue;
        }
        out.conditions.push(c.condition_id.clone());
        for (report, i) in [(baseline, b), (candidate, k)] {
            for run in report.conditions[i].runs.iter().filter_map(|id| report.run_index(id)).map(|i| &report.runs[i]) {
                rate |= run.requests_per_s.is_some();
                if let Some(printed) = &run.headline_printed {
                    available.insert(printed.percentile.clone());
                    tools.insert(printed.tool.clone());
                }
            }
        }
    }
    if out.conditions.is_empty() {
        return None;
    }
    let mut percentiles: Vec<String> = available.into_iter().collect();
    // By the percentile's value, not its text: p99.9 after p97.5.
    percentiles.sort_by(|x, y| x.parse::<f64>().unwrap_or(f64::MAX).total_cmp(&y.parse::<f64>().unwrap_or(f64::MAX)));
    out.available = rate
        .then(|| crate::model::HeadlineMetric::RequestsPerS.name().to_string())
        .into_iter()
        .chain(percentiles.into_iter().map(|p| format!("p{p}")))
        .collect();
    out.printed_by = tools.into_iter().collect();
    Some(out)
}

/// Failures first: a supported rise of the candidate's failures (or no 2xx response at all) is
/// a worse candidate and, under a gate, a failure, whatever the latency of the requests that did
/// succeed; a supported fall a better one; failures that differ beyond the margin without support
/// leave the metric undecided, since it compares the survivors of two different failure rates. A
/// candidate without an ok run of a condition its baseline measured fails a gate: a gate passes
/// only what was measured. Returns whether the failures (or their absence) decided.
fn decide_by_failures(condition: &mut ConditionComparison, gate: bool) -> bool {
    let decided = match condition.failures.verdict {
        FailureVerdict::Rise | FailureVerdict::NoResponses => Some(CompareVerdict::SupportedSlower),
        FailureVerdict::Fall => Some(CompareVerdict::SupportedFaster),
        FailureVerdict::NotShown => Some(CompareVerdict::NotShown),
        FailureVerdict::Within | FailureVerdict::NoData => None,
    };
    if let Some(verdict) = decided {
        condition.verdict = verdict;
        condition.decided_by = DecidedBy::Failures;
        condition.regression = gate && verdict == CompareVerdict::SupportedSlower;
        return true;
    }
    if condition.cand.runs.is_empty() && condition.failures.cand.runs == 0 && !condition.base.runs.is_empty() {
        condition.verdict = CompareVerdict::NotShown;
        condition.decided_by = DecidedBy::NoCandidateRun;
        condition.regression = gate;
        return true;
    }
    false
}

/// The failure counts of a condition's ok runs that counted their requests.
fn side_failures(report: &Report, condition: usize) -> Vec<RunFailures> {
    report.conditions[condition]
        .runs
        .iter()
        .filter_map(|id| report.run_index(id))
        .filter_map(|i| failures::of_run(&report.runs[i]))
        .collect()
}

fn side(report: &Report, ok_runs: usize) -> Side {
    Side {
        dataset: report.dataset.name.clone(),
        title: report.dataset.title.clone(),
        measured: report.dataset.measured.clone(),
        conditions: report.conditions.len(),
        ok_runs,
        factors: report.factors.clone(),
    }
}

/// A condition's ok runs with a value of the metric, and those values.
fn side_runs(report: &Report, condition: usize, metric: Metric) -> (SideRuns, Vec<f64>) {
    let c = &report.conditions[condition];
    let runs: Vec<RunValue> = c
        .runs
        .iter()
        .filter_map(|id| report.run_index(id))
        .filter_map(|i| metric.of_run(&report.runs[i]).map(|value| RunValue { run_id: report.runs[i].run_id.clone(), value }))
        .collect();
    let spread = metric.of_condition(c);
    let values: Vec<f64> = runs.iter().map(|r| r.value).collect();
    let side = SideRuns {
        left_out: c.left_out_runs.len() + (c.runs.len() - runs.len()),
        without_value: c.runs.len() - runs.len(),
        median: spread.map(|s| s.median),
        min: spread.map(|s| s.min),
        max: spread.map(|s| s.max),
        representative_run: c.representative_run.clone(),
        decimals: if metric.headline.is_percentile() {
            c.latency_decimals
        } else if metric.headline == crate::model::HeadlineMetric::RequestsPerS {
            c.printed_rate_decimals
        } else {
            None
        },
        runs,
    };
    (side, values)
}

/// The ok runs of a condition, in runs.csv order.
fn ok_runs_of(report: &Report, condition: usize) -> Vec<&RunResult> {
    report.conditions[condition].runs.iter().filter_map(|id| report.run_index(id)).map(|i| &report.runs[i]).collect()
}

/// The representative run's ECDF points, when the report was built with figures.
fn representative_ecdf(report: &Report, condition: usize) -> Option<crate::report::PointSeries> {
    let id = report.conditions[condition].representative_run.as_deref()?;
    let series = report.figures.ecdf.get(report.run_index(id)?)?;
    (!series.points.is_empty()).then(|| series.clone())
}

/// The labels of a condition's levels, in its report's factor order.
fn level_labels(report: &Report, condition: &ConditionResult) -> Vec<crate::model::Text> {
    level_labels_of(report, &condition.factors)
}

/// The labels of these levels as `report` names them, in its factor order.
pub(crate) fn level_labels_of(report: &Report, levels: &std::collections::BTreeMap<String, String>) -> Vec<crate::model::Text> {
    report
        .factors
        .iter()
        .filter_map(|f| {
            let value = levels.get(&f.name)?;
            Some(f.levels.iter().find(|l| &l.value == value).map_or_else(|| crate::model::Text::Plain(value.clone()), |l| l.label.clone()))
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests;
