//! Whether the baseline's finding held in the candidate: the question a re-measurement exists
//! for. The finding is the set of differences between conditions that the baseline's own
//! variance review supports (its `comparisons` with verdict supported). Each is looked up in the
//! candidate's variance review, the conditions mapped by the comparison's matching: it held when
//! the candidate's review supports the same pair in the same direction, is reversed when it
//! supports the opposite direction, and is not shown otherwise (cannot tell or negligible there,
//! a pair the candidate's review did not compare, or a condition without a match).

use crate::model::Verdict;
use crate::report::compare::{Finding, FindingOutcome, Reproduction};
use crate::report::review::Comparison;
use crate::report::Report;

/// The baseline's supported differences, each judged in the candidate; `pairs` are the matched
/// (baseline, candidate) condition indices.
pub fn of(baseline: &Report, candidate: &Report, pairs: &[(usize, usize)]) -> Reproduction {
    let in_candidate = |b: usize| pairs.iter().find(|&&(x, _)| x == b).map(|&(_, c)| c);
    let findings: Vec<Finding> = baseline
        .variance
        .comparisons
        .iter()
        .filter(|c| c.verdict == Verdict::Supported)
        .filter_map(|found| {
            let ratio = found.ratio?;
            let (a, b) = (in_candidate(found.a), in_candidate(found.b));
            let again = a.zip(b).and_then(|(a, b)| same_pair(&candidate.variance.comparisons, a, b));
            let outcome = match (a.zip(b), again) {
                (None, _) => FindingOutcome::Unmatched,
                (Some(_), None) => FindingOutcome::NotCompared,
                (Some(_), Some((c, _))) if c.verdict != Verdict::Supported => FindingOutcome::NotShown,
                (Some(_), Some((_, r))) if (r > 1.0) == (ratio > 1.0) => FindingOutcome::Held,
                (Some(_), Some(_)) => FindingOutcome::Reversed,
            };
            let id = |i: Option<usize>, fallback: &str| i.map_or_else(|| fallback.to_string(), |i| candidate.conditions[i].id.clone());
            Some(Finding {
                a_id: id(a, &found.a_id),
                b_id: id(b, &found.b_id),
                baseline_ratio: ratio,
                candidate_ratio: again.map(|(_, r)| r),
                outcome,
            })
        })
        .collect();
    let count = |o: FindingOutcome| findings.iter().filter(|f| f.outcome == o).count() as u64;
    Reproduction {
        held: count(FindingOutcome::Held),
        reversed: count(FindingOutcome::Reversed),
        not_shown: count(FindingOutcome::NotShown) + count(FindingOutcome::NotCompared) + count(FindingOutcome::Unmatched),
        findings,
    }
}

/// The candidate's comparison of conditions `a` and `b`, in either order, with its ratio b over a.
fn same_pair(comparisons: &[Comparison], a: usize, b: usize) -> Option<(&Comparison, f64)> {
    comparisons.iter().find_map(|c| match (c.a, c.b, c.ratio) {
        (x, y, Some(r)) if x == a && y == b => Some((c, r)),
        (x, y, Some(r)) if x == b && y == a => Some((c, 1.0 / r)),
        _ => None,
    })
}
