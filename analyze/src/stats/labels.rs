//! Per-label statistics: for each run, each label's requests, errors, error share, nearest-rank
//! p50/p95/p99 ([`super::percentile`], the report's one percentile definition) and maximum of its
//! 2xx latencies; for each condition, the median and min-max of those over its ok runs
//! ([`crate::report::Spread::of`]). Computed only when the requests carry more than one label.

use super::percentile::Sample;
use crate::dataset::labels::{LabelRequests, Labels};
use crate::model::Percentile;
use crate::report::{ConditionLabel, LabelName, LabelResult, PointSeries, RunResult, Spread};
use std::collections::BTreeMap;

/// The percentiles each label gets.
pub const LABEL_PERCENTILES: [Percentile; 3] = Percentile::BY_LABEL;

/// The names of the label groups, in the dataset's order.
pub fn names(labels: &Labels) -> Vec<LabelName> {
    let named = labels.names.iter().map(|l| LabelName { label: Some(l.clone()), merged_labels: None });
    let merged = (labels.merged > 0).then_some(LabelName { label: None, merged_labels: Some(labels.merged) });
    named.chain(merged).collect()
}

/// One label's statistics in one run; its latencies are reordered (selection).
pub fn of_run(name: LabelName, counts: &mut LabelRequests) -> LabelResult {
    let max_ms = counts.latencies_ms.iter().copied().reduce(f64::max);
    let percentiles_ms = Sample::new(&mut counts.latencies_ms)
        .map(|mut sample| {
            let values = sample.percentiles(&LABEL_PERCENTILES);
            LABEL_PERCENTILES.iter().zip(values).map(|(p, v)| (p.key(), v.value)).collect()
        })
        .unwrap_or_default();
    LabelResult {
        name,
        requests: counts.requests,
        errors: counts.errors,
        error_share: (counts.requests > 0).then(|| super::precision::fraction(counts.errors as f64 / counts.requests as f64)),
        percentiles_ms,
        max_ms,
    }
}

/// Every run's per-label statistics, the labels it has requests of in the dataset's order (empty
/// for a dataset without labels); the latencies are reordered (selection).
pub fn per_run(labels: Option<&mut Labels>, runs: usize) -> Vec<Vec<LabelResult>> {
    let Some(labels) = labels else { return vec![Vec::new(); runs] };
    let names = names(labels);
    labels
        .runs
        .iter_mut()
        .map(|groups| {
            let present = names.iter().cloned().zip(groups.iter_mut()).filter(|(_, c)| c.requests > 0);
            present.map(|(n, c)| of_run(n, c)).collect()
        })
        .collect()
}

/// A condition's per-label statistics over its ok runs, for each label of `names` (the dataset's
/// order) that one of them has: a run without the label counts 0 requests and 0 errors and has
/// no share, percentile or maximum of it.
pub fn of_condition(names: &[LabelName], ok: &[&RunResult]) -> Vec<ConditionLabel> {
    let ms = |s: Spread| Spread { median: super::precision::ms(s.median), ..s };
    names
        .iter()
        .filter_map(|name| {
            let of: Vec<Option<&LabelResult>> = ok.iter().map(|r| r.labels.iter().find(|l| &l.name == name)).collect();
            if of.iter().all(Option::is_none) {
                return None;
            }
            let values = |f: &dyn Fn(&LabelResult) -> Option<f64>| -> Vec<f64> { of.iter().flatten().filter_map(|l| f(l)).collect() };
            let counts = |f: fn(&LabelResult) -> u64| -> Vec<f64> { of.iter().map(|l| l.map_or(0.0, |l| f(l) as f64)).collect() };
            let percentiles_ms: BTreeMap<String, Spread> = LABEL_PERCENTILES
                .iter()
                .filter_map(|p| {
                    let key = p.key();
                    let spread = Spread::of(&values(&|l| l.percentiles_ms.get(&key).copied()))?;
                    Some((key, ms(spread)))
                })
                .collect();
            Some(ConditionLabel {
                name: name.clone(),
                requests: Spread::of(&counts(|l| l.requests)),
                errors: Spread::of(&counts(|l| l.errors)),
                error_share: Spread::of(&values(&|l| l.error_share)).map(|s| Spread { median: super::precision::fraction(s.median), ..s }),
                percentiles_ms,
                max_ms: Spread::of(&values(&|l| l.max_ms)).map(ms),
            })
        })
        .collect()
}

/// Per run, the ECDF of each label's 2xx latencies ([`super::figures::ecdf`], the points the
/// run's own ECDF is reduced to), for the runs that represent a condition; empty for the others.
pub fn ecdfs(labels: &Labels, runs: &[RunResult], conditions: &[crate::report::ConditionResult]) -> Vec<Vec<(LabelName, PointSeries)>> {
    let representative: std::collections::BTreeSet<&str> = conditions.iter().filter_map(|c| c.representative_run.as_deref()).collect();
    let names = names(labels);
    runs.iter()
        .zip(&labels.runs)
        .map(|(run, groups)| {
            if !representative.contains(run.run_id.as_str()) {
                return Vec::new();
            }
            let with_latencies = names.iter().zip(groups).filter(|(_, g)| !g.latencies_ms.is_empty());
            with_latencies.map(|(name, g)| (name.clone(), super::figures::ecdf(&g.latencies_ms, None))).collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_labels_percentiles_are_nearest_ranks_of_its_2xx_latencies() {
        // 20 values 1..=20: p50 is the 10th, p95 the 19th, p99 the 20th.
        let mut counts = LabelRequests { requests: 23, errors: 3, latencies_ms: (1..=20).rev().map(f64::from).collect() };
        let result = of_run(LabelName { label: Some("get-page".into()), merged_labels: None }, &mut counts);
        assert_eq!(result.percentiles_ms, BTreeMap::from([("50".into(), 10.0), ("95".into(), 19.0), ("99".into(), 20.0)]));
        assert_eq!((result.requests, result.errors, result.max_ms), (23, 3, Some(20.0)));
        assert_eq!(result.error_share, Some(super::super::precision::fraction(3.0 / 23.0)));
    }

    #[test]
    fn a_label_without_2xx_responses_has_no_percentiles() {
        let mut counts = LabelRequests { requests: 2, errors: 2, latencies_ms: Vec::new() };
        let result = of_run(LabelName { label: Some("post-form".into()), merged_labels: None }, &mut counts);
        assert!(result.percentiles_ms.is_empty());
        assert_eq!((result.max_ms, result.error_share), (None, Some(1.0)));
    }
}
