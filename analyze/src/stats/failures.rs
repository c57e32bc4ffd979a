//! Whether two sets of runs differ in how many of their requests failed: the rule `analyze
//! compare` judges before any latency, so that a candidate answering 503 to most requests is
//! never "faster" by the latency of the few that succeeded.
//!
//! A failure is a request without a 2xx response (a non-2xx status or no response at all), the
//! report's `errors`. Each side's failures are pooled over its ok runs into one share, errors
//! over requests. Requests of one run are not independent trials (a stalled worker fails many
//! together), so the test is not Fisher's on the raw counts: the runs' own spread sets an
//! overdispersion factor φ, the Pearson χ² of each run's errors about its side's pooled share over
//! its degrees of freedom (at least 1: never narrower than binomial), and both sides' counts are
//! divided by φ before Fisher's exact test (the quasi-binomial "effective sample size"). The test
//! handles zeros on either side, which a ratio of logs cannot. Its two-sided p is twice the
//! smaller one-sided tail of the hypergeometric distribution of the candidate's effective errors.
//!
//! A difference is judged as [`super::difference`] judges latencies: *supported* when its p
//! passes Benjamini-Hochberg over the matched conditions and the shares differ by more than the
//! baseline's `thresholds.error_share` (percentage points), *within* that margin when they do not
//! differ by more than it, and *not shown* otherwise. A side of one run has no spread to go by, so
//! it supports nothing, with one exception that needs no statistics: a candidate none of whose
//! requests got a 2xx response, against a baseline whose did, is a failure whatever the runs.

use crate::model::FailureVerdict;
use crate::report::compare::{FailureComparison, FailureSide};
use crate::report::{CountSource, Counted, CountedTotal, RunResult, ToolReported};
use statrs::function::gamma::ln_gamma;

/// One run's requests and how many of them failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunFailures {
    pub requests: u64,
    pub errors: u64,
}

/// A run's requests and failures as counted ([`counted`]); `None` when nothing counted a
/// request, or the tool could not count its failures (an HdrHistogram file).
pub fn of_run(run: &RunResult) -> Option<RunFailures> {
    let counted = &run.requests_counted;
    (counted.value > 0).then_some(())?;
    Some(RunFailures { requests: counted.value, errors: counted.errors? })
}

/// The one rule for a run's counted requests: its rows' `requests` and `errors` when it has any
/// row, else the tool's own counts when the tool counted a request (a run imported from a
/// summary alone), else the rows' zero.
pub fn counted(requests: u64, errors: u64, tool: Option<&ToolReported>) -> Counted {
    match tool {
        Some(tool) if requests == 0 && tool.requests > 0 => {
            Counted { value: tool.requests, errors: tool.errors, source: CountSource::Tool(tool.tool.clone()) }
        }
        _ => Counted { value: requests, errors: Some(errors), source: CountSource::Rows },
    }
}

/// The ok runs' counts added up, with what their tools counted apart.
pub fn total<'a>(runs: impl IntoIterator<Item = &'a RunResult>) -> CountedTotal {
    let mut total = CountedTotal::default();
    for counted in runs.into_iter().map(|r| &r.requests_counted) {
        total.value += counted.value;
        match counted.errors {
            Some(errors) => {
                total.errors += errors;
                total.ok_responses += counted.value - errors;
            }
            None => total.errors_unknown_runs += 1,
        }
        if let Some(tool) = counted.tool() {
            total.by_tools += counted.value;
            total.errors_by_tools += counted.errors.unwrap_or(0);
            total.ok_by_tools += counted.ok_responses().unwrap_or(0);
            total.tool_runs += 1;
            if !total.tools.iter().any(|t| t == tool) {
                total.tools.push(tool.to_string());
            }
        }
    }
    total.tools.sort();
    total
}

/// A side's pooled counts with the range of its runs' shares.
pub fn side(runs: &[RunFailures]) -> FailureSide {
    let requests = runs.iter().map(|r| r.requests).sum::<u64>();
    let errors = runs.iter().map(|r| r.errors).sum::<u64>();
    let shares: Vec<f64> = runs.iter().filter(|r| r.requests > 0).map(|r| r.errors as f64 / r.requests as f64).collect();
    FailureSide {
        runs: runs.len(),
        requests,
        errors,
        share: (requests > 0).then(|| errors as f64 / requests as f64),
        run_min: shares.iter().copied().reduce(f64::min),
        run_max: shares.iter().copied().reduce(f64::max),
    }
}

/// The overdispersion factor of both sides' runs: Σ (e_i - n_i·p)² / (n_i·p·(1 - p)) over the
/// runs of each side whose pooled share p lies strictly between 0 and 1, over the degrees of
/// freedom those sides give (runs - 1 each); at least 1, and 1 when no side gives any.
pub fn dispersion(sides: &[&[RunFailures]]) -> f64 {
    let mut chi2 = 0.0;
    let mut df = 0usize;
    for runs in sides {
        let requests = runs.iter().map(|r| r.requests).sum::<u64>() as f64;
        let errors = runs.iter().map(|r| r.errors).sum::<u64>() as f64;
        let counted: Vec<&RunFailures> = runs.iter().filter(|r| r.requests > 0).collect();
        if requests == 0.0 || errors == 0.0 || errors == requests || counted.len() < 2 {
            continue;
        }
        let p = errors / requests;
        for run in &counted {
            let expected = run.requests as f64 * p;
            chi2 += (run.errors as f64 - expected).powi(2) / (expected * (1.0 - p));
        }
        df += counted.len() - 1;
    }
    if df == 0 {
        1.0
    } else {
        (chi2 / df as f64).max(1.0)
    }
}

/// A count divided by the overdispersion factor, to the nearest whole count.
fn effective(count: u64, phi: f64) -> u64 {
    (count as f64 / phi).round() as u64
}

/// Two-sided p of Fisher's exact test that two groups share one failure rate: `a_errors` of
/// `a_requests` against `b_errors` of `b_requests`. Twice the smaller tail of the hypergeometric
/// distribution of b's errors given the margins, at most 1; 1 when no request or every request
/// failed (nothing can differ).
pub fn fisher_two_sided(a_errors: u64, a_requests: u64, b_errors: u64, b_requests: u64) -> f64 {
    let (upper, lower) = fisher_tails(a_errors, a_requests, b_errors, b_requests);
    (2.0 * upper.min(lower)).min(1.0)
}

/// P(X ≥ observed) and P(X ≤ observed) for X, b's errors, hypergeometric with the table's margins.
fn fisher_tails(a_errors: u64, a_requests: u64, b_errors: u64, b_requests: u64) -> (f64, f64) {
    let population = a_requests + b_requests;
    let failed = a_errors + b_errors;
    if population == 0 || failed == 0 || failed == population {
        return (1.0, 1.0);
    }
    let draws = b_requests;
    let low = (draws + failed).saturating_sub(population);
    let high = draws.min(failed);
    let ln_pmf = |k: u64| -> f64 { ln_choose(failed, k) + ln_choose(population - failed, draws - k) - ln_choose(population, draws) };
    // Terms from the observed count outwards, by the ratio of neighbouring terms (one product each,
    // not three log-gammas); a tail stops once its terms fall below 1e-17 of its sum past the mode.
    let observed = b_errors.clamp(low, high);
    let start = ln_pmf(observed).exp();
    let mut upper = start;
    let mut term = start;
    let mut k = observed;
    while k < high {
        term *= ((failed - k) as f64 * (draws - k) as f64) / ((k + 1) as f64 * (population - failed - draws + k + 1) as f64);
        k += 1;
        upper += term;
        if term < upper * 1e-17 && k as f64 > draws as f64 * failed as f64 / population as f64 {
            break;
        }
    }
    let mut lower = start;
    term = start;
    k = observed;
    while k > low {
        term *= (k as f64 * (population - failed - draws + k) as f64) / ((failed - k + 1) as f64 * (draws - k + 1) as f64);
        k -= 1;
        lower += term;
        if term < lower * 1e-17 && (k as f64) < draws as f64 * failed as f64 / population as f64 {
            break;
        }
    }
    (upper.min(1.0), lower.min(1.0))
}

/// ln(n choose k).
fn ln_choose(n: u64, k: u64) -> f64 {
    ln_gamma(n as f64 + 1.0) - ln_gamma(k as f64 + 1.0) - ln_gamma((n - k) as f64 + 1.0)
}

/// The comparison of a condition's failures, before the false-discovery rule: the sides, their
/// overdispersion and the p of Fisher's test on the effective counts (`None` when a side has fewer
/// than two runs with requests, or when neither side had a failure).
pub fn compare(base: &[RunFailures], cand: &[RunFailures]) -> FailureComparison {
    let (b, c) = (side(base), side(cand));
    let difference = b.share.zip(c.share).map(|(b, c)| c - b);
    let counted = |runs: &[RunFailures]| runs.iter().filter(|r| r.requests > 0).count();
    let phi = dispersion(&[base, cand]);
    // Without a failure on either side there is nothing to test (a p of 1 says nothing).
    let p = (counted(base) >= 2 && counted(cand) >= 2 && b.errors + c.errors > 0).then(|| {
        fisher_two_sided(effective(b.errors, phi), effective(b.requests, phi), effective(c.errors, phi), effective(c.requests, phi))
    });
    FailureComparison {
        dispersion: p.map(|_| phi),
        p,
        fdr_supported: false,
        verdict: FailureVerdict::NotShown,
        difference,
        base: b,
        cand: c,
    }
}

/// The verdict of a compared condition's failures, once the false-discovery rule has said
/// whether its p is a discovery; `margin` is the baseline's `thresholds.error_share`.
pub fn verdict(comparison: &FailureComparison, margin: f64) -> FailureVerdict {
    let (b, c) = (&comparison.base, &comparison.cand);
    if b.requests == 0 || c.requests == 0 {
        return FailureVerdict::NoData;
    }
    if c.errors == c.requests && b.errors < b.requests {
        return FailureVerdict::NoResponses;
    }
    let Some(difference) = comparison.difference else { return FailureVerdict::NoData };
    if difference.abs() <= margin {
        return FailureVerdict::Within;
    }
    match (comparison.fdr_supported, difference > 0.0) {
        (true, true) => FailureVerdict::Rise,
        (true, false) => FailureVerdict::Fall,
        (false, _) => FailureVerdict::NotShown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use statrs::distribution::{DiscreteCDF, Hypergeometric};

    fn runs(counts: &[(u64, u64)]) -> Vec<RunFailures> {
        counts.iter().map(|&(requests, errors)| RunFailures { requests, errors }).collect()
    }

    /// The plain reference: both tails summed term by term from statrs' hypergeometric.
    fn reference(a_errors: u64, a_requests: u64, b_errors: u64, b_requests: u64) -> f64 {
        let h = Hypergeometric::new(a_requests + b_requests, a_errors + b_errors, b_requests).unwrap();
        let lower = h.cdf(b_errors);
        let upper = if b_errors == 0 { 1.0 } else { h.sf(b_errors - 1) };
        (2.0 * lower.min(upper)).min(1.0)
    }

    fn tool(name: &str, requests: u64, errors: Option<u64>) -> ToolReported {
        ToolReported {
            tool: name.into(),
            rule: crate::model::Rule::FloorPlusOne,
            requests,
            errors,
            requests_per_s: None,
            latency_ms: crate::report::ToolLatency { min: None, mean: None, max: None },
            percentiles_ms: Default::default(),
            ranks: Default::default(),
            ranked: requests,
            nearest_rank_ms: Default::default(),
            nearest_ranks: Default::default(),
            tool_span_s: None,
            rows_requests_per_s: None,
            rows_span_s: None,
            rates_differ: false,
            interpolations: Default::default(),
            labels: Vec::new(),
        }
    }

    #[test]
    fn rows_count_a_run_when_it_has_any_else_its_tool() {
        let wrk = tool("wrk", 7654, Some(0));
        assert_eq!(counted(2000, 3, Some(&wrk)), Counted { value: 2000, errors: Some(3), source: CountSource::Rows });
        assert_eq!(counted(0, 0, Some(&wrk)), Counted { value: 7654, errors: Some(0), source: CountSource::Tool("wrk".into()) });
        assert_eq!(counted(0, 0, Some(&wrk)).source.to_string(), "wrk summary");
        assert_eq!(counted(0, 0, None), Counted { value: 0, errors: Some(0), source: CountSource::Rows });
        // A histogram counts no failures: its errors are not known, so it judges no failed share.
        let hdr = counted(0, 0, Some(&tool("hdrhistogram", 3000, None)));
        assert_eq!((hdr.value, hdr.errors, hdr.ok_responses()), (3000, None, None));
    }

    #[test]
    fn totals_keep_the_tools_part_and_the_runs_without_known_errors_apart() {
        let mut run = crate::render::charts::tests::fixture().runs[0].clone();
        run.status = crate::model::RunStatus::Ok;
        let with = |counted: Counted| RunResult { requests_counted: counted, ..run.clone() };
        let runs = [
            with(counted(100, 4, None)),
            with(counted(0, 0, Some(&tool("artillery", 1000, Some(500))))),
            with(counted(0, 0, Some(&tool("hdrhistogram", 3000, None)))),
        ];
        let total = total(&runs);
        assert_eq!((total.value, total.ok_responses, total.errors), (4100, 596, 504));
        assert_eq!((total.by_tools, total.ok_by_tools, total.errors_by_tools), (4000, 500, 500));
        assert_eq!((total.tool_runs, total.errors_unknown_runs), (2, 1));
        assert_eq!(total.tools, ["artillery", "hdrhistogram"]);
    }

    #[test]
    fn fisher_of_a_hand_worked_table() {
        // 0 of 10 against 5 of 10: the table's margins are 20 requests, 5 failed, 10 drawn;
        // P(X ≥ 5) = C(5,5)·C(15,5)/C(20,10) = 3003/184756 = 0.016254; two-sided 0.032507.
        let p = fisher_two_sided(0, 10, 5, 10);
        assert!((p - 2.0 * 3003.0 / 184_756.0).abs() < 1e-12, "{p}");
        // The same table the other way round has the same p.
        assert!((fisher_two_sided(5, 10, 0, 10) - p).abs() < 1e-12);
    }

    #[test]
    fn fisher_agrees_with_the_reference_on_many_tables() {
        for (ae, an, be, bn) in
            [(0, 20, 0, 20), (1, 20, 3, 20), (3, 60, 0, 60), (10, 100, 25, 90), (0, 5, 5, 5), (7, 7, 0, 9), (2, 300, 40, 310)]
        {
            let (ours, theirs) = (fisher_two_sided(ae, an, be, bn), reference(ae, an, be, bn));
            assert!((ours - theirs).abs() <= 1e-9 * theirs.max(1e-300) + 1e-15, "{ae}/{an} vs {be}/{bn}: {ours} against {theirs}");
        }
    }

    #[test]
    fn fisher_of_large_counts_is_tiny_and_quick() {
        // An outage: 0 of 3,000,000 against 2,970,000 of 3,000,000.
        let p = fisher_two_sided(0, 3_000_000, 2_970_000, 3_000_000);
        assert!(p < 1e-300, "{p}");
        // Equal shares at a large size: p near 1.
        assert!(fisher_two_sided(30_000, 3_000_000, 30_000, 3_000_000) > 0.99);
    }

    #[test]
    fn the_runs_own_spread_widens_the_test() {
        // Consistent runs: 50 of 100 in each of three runs has no extra spread (φ = 1).
        assert_eq!(dispersion(&[&runs(&[(100, 50), (100, 50), (100, 50)])]), 1.0);
        // One run failing 60 of 100 beside two clean ones: pooled p = 0.2; χ² = (20²·2)/16 + 40²/16 = 150,
        // over 2 degrees of freedom: φ = 75.
        let flaky = runs(&[(100, 0), (100, 0), (100, 60)]);
        assert!((dispersion(&[&flaky]) - 75.0).abs() < 1e-9, "{}", dispersion(&[&flaky]));
        // A side without a failure gives no degree of freedom: it neither adds spread nor dilutes it.
        let clean = runs(&[(100, 0), (100, 0), (100, 0)]);
        assert!((dispersion(&[&clean, &flaky]) - 75.0).abs() < 1e-9);
        // So one bad run of three is not a supported rise, though its pooled counts alone would be.
        let c = compare(&clean, &flaky);
        assert!(fisher_two_sided(0, 300, 60, 300) < 1e-15);
        assert!(c.p.unwrap() > 0.05, "{c:?}");
    }

    #[test]
    fn verdicts_judge_the_margin_and_the_discovery() {
        let judged = |base: &[(u64, u64)], cand: &[(u64, u64)], discovery: bool| {
            let mut c = compare(&runs(base), &runs(cand));
            c.fdr_supported = discovery && c.p.is_some_and(|p| p <= 0.05);
            verdict(&c, 0.01)
        };
        let clean = [(1000, 0), (1000, 0), (1000, 0)];
        let outage = [(1000, 990), (1000, 991), (1000, 989)];
        assert_eq!(judged(&clean, &outage, true), FailureVerdict::Rise);
        assert_eq!(judged(&outage, &clean, true), FailureVerdict::Fall);
        // Half a percentage point more is within a 1% margin whatever the test says.
        assert_eq!(judged(&clean, &[(1000, 5), (1000, 5), (1000, 5)], true), FailureVerdict::Within);
        // Beyond the margin but not a discovery: not shown.
        assert_eq!(judged(&clean, &outage, false), FailureVerdict::NotShown);
        // No 2xx response at all is a failure at any number of runs.
        assert_eq!(judged(&[(50, 0)], &[(50, 50)], false), FailureVerdict::NoResponses);
        // A side with one run cannot support a rise.
        let one = compare(&runs(&[(1000, 0)]), &runs(&outage));
        assert_eq!(one.p, None);
        // No requests on a side: nothing to judge.
        assert_eq!(judged(&clean, &[], true), FailureVerdict::NoData);
    }

    #[test]
    fn sides_pool_their_runs() {
        let s = side(&runs(&[(100, 1), (300, 9)]));
        assert_eq!((s.runs, s.requests, s.errors), (2, 400, 10));
        assert_eq!(s.share, Some(0.025));
        assert_eq!((s.run_min, s.run_max), (Some(0.01), Some(0.03)));
    }
}
