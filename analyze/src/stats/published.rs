//! The original article's published values beside this dataset's runs: for each value of each
//! table of dataset.toml's `[published]`, the condition's median and min-max range of the same
//! metric in the table's unit, the verdict of [`verdict`] (the one rule for whether a published
//! value agrees with the runs, and by how much it differs when it does not), and for a table
//! whose original ranked its conditions, whether the same order holds in the medians here.
//! The verdicts say where the numbers fall; why they differ is the author's to write.

use crate::dataset::manifest::{Published, PublishedTable};
use crate::model::{PublishedMetric, Unit};
use crate::report::{
    ConditionResult, MeasuredRange, OrderCheck, OrderPair, OrderRelation, PublishedComparison, PublishedReference, PublishedResult,
    PublishedTableResult, PublishedVerdict, Spread,
};

/// Every table, in dataset.toml's order. Conditions were checked at load, so an unknown id cannot
/// reach here; its row is skipped rather than panicking if it does. `negligible` is
/// `thresholds.negligible_difference`.
pub fn compare(published: Option<&Published>, conditions: &[ConditionResult], negligible: f64) -> PublishedComparison {
    let Some(published) = published else { return PublishedComparison { negligible_difference: negligible, ..Default::default() } };
    let tables: Vec<PublishedTableResult> = published.tables.iter().map(|table| compare_table(table, conditions, negligible)).collect();
    PublishedComparison {
        original: published.original.clone(),
        note: published.note.clone(),
        negligible_difference: negligible,
        ratio_min: tables.iter().filter_map(|t| t.ratio_min).reduce(f64::min),
        ratio_max: tables.iter().filter_map(|t| t.ratio_max).reduce(f64::max),
        tables,
    }
}

fn compare_table(table: &PublishedTable, conditions: &[ConditionResult], negligible: f64) -> PublishedTableResult {
    let rows: Vec<PublishedResult> = table
        .values
        .iter()
        .filter_map(|value| {
            let index = conditions.iter().position(|c| c.id == value.condition)?;
            let measured = measured(&conditions[index], table.metric, table.unit);
            Some(PublishedResult {
                condition: index,
                condition_id: conditions[index].id.clone(),
                note: value.note.clone(),
                value: value.value,
                measured,
                verdict: measured.map_or(PublishedVerdict::NotMeasured, |m| verdict(value.value, m, negligible)),
                ratio: measured.and_then(|m| ratio(m.median, value.value)),
            })
        })
        .collect();
    let ratios = || rows.iter().filter_map(|r| r.ratio);
    PublishedTableResult {
        id: table.id.clone(),
        label: table.label.clone(),
        metric: table.metric,
        unit: table.unit,
        references: table
            .references
            .iter()
            .map(|r| PublishedReference { label: r.label.clone(), value: r.value, reason: r.reason.clone() })
            .collect(),
        order: table.ordered.then(|| order(&rows)),
        ratio_min: ratios().reduce(f64::min),
        ratio_max: ratios().reduce(f64::max),
        agree: rows.iter().filter(|r| r.verdict.agrees()).count(),
        rows,
    }
}

/// The condition's median, min and max of `metric` over its ok runs, in `unit`.
pub fn measured(condition: &ConditionResult, metric: PublishedMetric, unit: Unit) -> Option<MeasuredRange> {
    use PublishedMetric::*;
    let sessions = condition.sessions.as_ref();
    // The spread and the unit it is kept in: ms, s, a fraction or requests/s.
    let (spread, kept): (Option<Spread>, Kept) = match metric {
        P50 | P90 | P95 | P99 | P999 => (metric.percentile_key().and_then(|k| condition.percentiles_ms.get(k)).copied(), Kept::Ms),
        Max => (condition.max_ms, Kept::Ms),
        Mean => (condition.mean_ms, Kept::Ms),
        Write => (condition.write_s, Kept::S),
        Completion => (condition.complete_s, Kept::S),
        RequestsPerS => (condition.requests_per_s, Kept::Same),
        ErrorRate => (condition.error_rate, Kept::Fraction),
        FailedShare => (sessions.map(|s| s.failed_share), Kept::Fraction),
        SessionMin => (sessions.and_then(|s| s.min_ms), Kept::Ms),
        SessionMean => (sessions.and_then(|s| s.mean_ms), Kept::Ms),
        SessionMax => (sessions.and_then(|s| s.max_ms), Kept::Ms),
        SessionP50 => (sessions.and_then(|s| s.median_ms), Kept::Ms),
        SessionP95 => (sessions.and_then(|s| s.p95_ms), Kept::Ms),
    };
    let s = spread?;
    let (scale, clean): (f64, fn(f64) -> f64) = match (kept, unit) {
        (Kept::Ms, Unit::S) => (0.001, super::precision::seconds),
        (Kept::S, Unit::Ms) => (1000.0, super::precision::ms),
        (Kept::Fraction, _) => (100.0, super::precision::percent),
        (Kept::S, _) => (1.0, super::precision::seconds),
        (Kept::Ms, _) => (1.0, super::precision::ms),
        (Kept::Same, _) => (1.0, super::precision::rate),
    };
    Some(MeasuredRange { median: clean(s.median * scale), min: clean(s.min * scale), max: clean(s.max * scale), n: s.n })
}

/// The unit a condition keeps a metric's spread in.
#[derive(Clone, Copy)]
enum Kept {
    Ms,
    S,
    Fraction,
    Same,
}

/// The one rule for a published value against the runs: it agrees when it lies inside their
/// min-max range (both ends included), or within `negligible` (a fraction) of the nearest run's
/// value; otherwise every run is above it (higher here) or below it (lower here).
pub fn verdict(value: f64, range: MeasuredRange, negligible: f64) -> PublishedVerdict {
    if range.min <= value && value <= range.max {
        return PublishedVerdict::InsideRange;
    }
    let nearest = if value < range.min { range.min } else { range.max };
    if (value - nearest).abs() <= negligible * nearest {
        PublishedVerdict::NearNearestRun
    } else if value < range.min {
        PublishedVerdict::HigherHere
    } else {
        PublishedVerdict::LowerHere
    }
}

/// The size of a difference: the measured median over the published value, `None` when either
/// is 0 (a share of 0 has no ratio to another).
pub fn ratio(median: f64, published: f64) -> Option<f64> {
    (median > 0.0 && published > 0.0).then(|| median / published)
}

/// Whether the order of the published values holds in the measured medians. Ordered tables have
/// distinct conditions with distinct values (checked at load).
pub fn order(rows: &[PublishedResult]) -> OrderCheck {
    let mut published_rows: Vec<usize> = (0..rows.len()).collect();
    published_rows.sort_by(|&a, &b| rows[b].value.total_cmp(&rows[a].value));
    let mut measured: Vec<(usize, MeasuredRange)> = (0..rows.len()).filter_map(|i| rows[i].measured.map(|m| (i, m))).collect();
    measured.sort_by(|a, b| b.1.median.total_cmp(&a.1.median));
    let mut here_rows: Vec<Vec<usize>> = Vec::new();
    for (i, (row, m)) in measured.iter().enumerate() {
        match here_rows.last_mut() {
            Some(group) if i > 0 && measured[i - 1].1.median == m.median => group.push(*row),
            _ => here_rows.push(vec![*row]),
        }
    }
    let pairs: Vec<OrderPair> = published_rows
        .windows(2)
        .map(|pair| {
            let (larger, smaller) = (pair[0], pair[1]);
            let (here, apart) = match (rows[larger].measured, rows[smaller].measured) {
                (Some(a), Some(b)) if a.median > b.median => (OrderRelation::Same, a.min > b.max),
                (Some(a), Some(b)) if a.median < b.median => (OrderRelation::Reversed, b.min > a.max),
                (Some(_), Some(_)) => (OrderRelation::Tie, false),
                _ => (OrderRelation::Unmeasured, false),
            };
            OrderPair {
                larger: rows[larger].condition_id.clone(),
                smaller: rows[smaller].condition_id.clone(),
                larger_row: larger,
                smaller_row: smaller,
                here,
                apart,
            }
        })
        .collect();
    let holds = !pairs.is_empty() && pairs.iter().all(|p| p.here == OrderRelation::Same);
    OrderCheck {
        published: published_rows.iter().map(|&r| rows[r].condition_id.clone()).collect(),
        here: here_rows.iter().map(|group| group.iter().map(|&r| rows[r].condition_id.clone()).collect()).collect(),
        separated: holds && pairs.iter().all(|p| p.apart),
        holds,
        pairs,
        published_rows,
        here_rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(min: f64, median: f64, max: f64) -> MeasuredRange {
        MeasuredRange { median, min, max, n: 3 }
    }

    const FIVE_PERCENT: f64 = 0.05;

    #[test]
    fn a_published_value_inside_the_range_agrees_ends_included() {
        assert_eq!(verdict(1.57, range(1.5, 1.7, 1.9), FIVE_PERCENT), PublishedVerdict::InsideRange);
        assert_eq!(verdict(1.9, range(1.5, 1.7, 1.9), FIVE_PERCENT), PublishedVerdict::InsideRange);
        assert_eq!(verdict(1.5, range(1.5, 1.7, 1.9), FIVE_PERCENT), PublishedVerdict::InsideRange);
    }

    /// The model study's completion time: 8,016 ms published, runs of 8,000.18-8,003.00 ms here.
    /// 8,016 - 8,003 = 13 ms, 0.16% of the nearest run: the same number in practice.
    #[test]
    fn a_value_within_five_percent_of_the_nearest_run_agrees() {
        assert_eq!(verdict(8016.0, range(8000.18, 8001.5, 8003.0), FIVE_PERCENT), PublishedVerdict::NearNearestRun);
        // 104 against a nearest run of 100: 4% off; 94 against 100: 6% off.
        assert_eq!(verdict(104.0, range(80.0, 90.0, 100.0), FIVE_PERCENT), PublishedVerdict::NearNearestRun);
        assert_eq!(verdict(94.0, range(100.0, 110.0, 120.0), FIVE_PERCENT), PublishedVerdict::HigherHere);
        // With no allowance only the range counts.
        assert_eq!(verdict(8016.0, range(8000.18, 8001.5, 8003.0), 0.0), PublishedVerdict::LowerHere);
    }

    /// The model study's buffering-off p95: 1,071.47 ms published, 3,236-4,307 ms here (median
    /// 3,744.55): higher here, 3,744.55 / 1,071.47 = 3.4948 times the published value.
    #[test]
    fn a_value_below_every_run_is_higher_here_by_the_ratio_of_the_median() {
        let here = range(3236.0, 3744.55, 4307.0);
        assert_eq!(verdict(1071.47, here, FIVE_PERCENT), PublishedVerdict::HigherHere);
        let r = ratio(here.median, 1071.47).unwrap();
        assert!((r - 3.494778).abs() < 1e-6, "{r}");
    }

    /// Seed 003's mean session time of FastCGI threaded: 8.089 s published, 0.474-0.547 s here.
    #[test]
    fn a_value_above_every_run_is_lower_here_with_a_ratio_below_one() {
        let here = range(0.474, 0.478, 0.547);
        assert_eq!(verdict(8.089163658, here, FIVE_PERCENT), PublishedVerdict::LowerHere);
        assert!((ratio(0.478, 8.089163658).unwrap() - 0.059091).abs() < 1e-6);
    }

    /// Seed 003's 28.1% of failed sessions for prefork, where none failed here: lower here, and
    /// no ratio, since 0 is no multiple of anything.
    #[test]
    fn a_share_of_zero_here_is_lower_with_no_ratio() {
        assert_eq!(verdict(28.1, range(0.0, 0.0, 0.0), FIVE_PERCENT), PublishedVerdict::LowerHere);
        assert_eq!(ratio(0.0, 28.1), None);
        assert_eq!(ratio(5.0, 0.0), None);
        assert_eq!(verdict(0.0, range(0.0, 0.0, 0.0), FIVE_PERCENT), PublishedVerdict::InsideRange);
    }

    fn row(id: &str, value: f64, measured: Option<(f64, f64, f64)>) -> PublishedResult {
        let measured = measured.map(|(min, median, max)| range(min, median, max));
        PublishedResult {
            condition: 0,
            condition_id: id.to_string(),
            note: None,
            value,
            measured,
            verdict: PublishedVerdict::NotMeasured,
            ratio: None,
        }
    }

    /// Seed 001 at ab -c 1: uWSGI 323.196 > Gunicorn 299.71 > runserver 273.214 requests/s; here
    /// 733-770 (762.57), 667-703 (678.66) and 540-582 (547.86): the same order, ranges apart.
    #[test]
    fn an_order_that_holds_with_ranges_apart_is_separated() {
        let rows = [
            row("gunicorn", 299.71, Some((667.23, 678.66, 702.99))),
            row("uwsgi", 323.196, Some((733.11, 762.57, 770.09))),
            row("runserver", 273.214, Some((540.09, 547.86, 582.29))),
        ];
        let check = order(&rows);
        assert_eq!(check.published, ["uwsgi", "gunicorn", "runserver"]);
        assert_eq!(check.here, [vec!["uwsgi"], vec!["gunicorn"], vec!["runserver"]]);
        assert!(check.holds && check.separated);
        assert!(check.pairs.iter().all(|p| p.here == OrderRelation::Same && p.apart));
    }

    #[test]
    fn an_order_that_holds_in_the_medians_with_overlapping_runs_is_not_separated() {
        let rows = [row("a", 3.0, Some((9.0, 10.0, 12.0))), row("b", 2.0, Some((8.0, 9.5, 9.5)))];
        let check = order(&rows);
        assert!(check.holds && !check.separated);
        assert!(!check.pairs[0].apart);
    }

    /// Seed 003's failed shares: threaded 50.1% > prefork 28.1% > Gunicorn 14.7%; here 64.9%, 0
    /// and 0: threaded first, then a tie, so the order does not hold.
    #[test]
    fn a_tie_here_breaks_the_order() {
        let rows = [
            row("threaded", 50.1, Some((64.8, 64.9, 67.9))),
            row("prefork", 28.1, Some((0.0, 0.0, 0.0))),
            row("gunicorn", 14.7, Some((0.0, 0.0, 0.0))),
        ];
        let check = order(&rows);
        assert_eq!(check.here, [vec!["threaded"], vec!["prefork", "gunicorn"]]);
        assert_eq!(check.pairs.iter().map(|p| p.here).collect::<Vec<_>>(), [OrderRelation::Same, OrderRelation::Tie]);
        assert!(check.pairs[0].apart);
        assert!(!check.holds && !check.separated);
    }

    /// Seed 003's mean session times, threaded 8.089 > prefork 4.586 > Gunicorn 4.199 s, stand
    /// reversed here: 0.478, 0.524 and 1.718 s.
    #[test]
    fn a_reversed_pair_is_named_with_whether_its_runs_are_apart() {
        let rows = [
            row("threaded", 8.089, Some((0.474, 0.478, 0.547))),
            row("prefork", 4.586, Some((0.243, 0.524, 0.643))),
            row("gunicorn", 4.199, Some((0.920, 1.718, 2.138))),
        ];
        let check = order(&rows);
        assert_eq!(check.here, [vec!["gunicorn"], vec!["prefork"], vec!["threaded"]]);
        assert_eq!(
            check.pairs.iter().map(|p| (p.here, p.apart)).collect::<Vec<_>>(),
            [(OrderRelation::Reversed, false), (OrderRelation::Reversed, true)]
        );
        assert!(!check.holds);
    }

    #[test]
    fn an_unmeasured_condition_leaves_its_pairs_unmeasured() {
        let rows = [row("a", 2.0, None), row("b", 1.0, Some((1.0, 1.0, 1.0)))];
        let check = order(&rows);
        assert_eq!(check.pairs[0].here, OrderRelation::Unmeasured);
        assert_eq!(check.here, [vec!["b"]]);
        assert!(!check.holds);
    }
}
