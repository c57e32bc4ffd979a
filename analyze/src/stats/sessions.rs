//! Session statistics (sessions.csv): per run what seed 003's client printed (sessions, the
//! failed ones and their share, min/max/mean time of the sessions that succeeded) and the
//! nearest-rank p50 and p95 of the same times; per condition the totals and the median and range
//! of each run value over the ok runs. Every percentile, median and mean is the one of
//! [`super::percentile`] and [`super::summary`].

use super::percentile::Sample;
use super::precision;
use super::summary::mean;
use crate::dataset::SessionRow;
use crate::model::Percentile;
use crate::report::Spread;
use crate::report::{ConditionSessions, RunSessions};
use std::collections::BTreeMap;

/// The sessions of each run, `None` for a run without any (or a dataset without sessions.csv).
pub fn per_run(rows: Option<&[SessionRow]>, runs: usize) -> Vec<Option<Box<RunSessions>>> {
    let Some(rows) = rows else { return vec![None; runs] };
    let mut by_run: Vec<Vec<&SessionRow>> = vec![Vec::new(); runs];
    for row in rows {
        if let Some(slot) = by_run.get_mut(row.run as usize) {
            slot.push(row);
        }
    }
    by_run.iter().map(|rows| of_run(rows).map(Box::new)).collect()
}

/// One run's sessions, in file order.
pub fn of_run(rows: &[&SessionRow]) -> Option<RunSessions> {
    if rows.is_empty() {
        return None;
    }
    let mut times: Vec<f64> = rows.iter().filter_map(|r| r.session_ms).collect();
    let mut failed_by_step: BTreeMap<u64, u64> = BTreeMap::new();
    for step in rows.iter().filter_map(|r| r.failed_step) {
        *failed_by_step.entry(step).or_default() += 1;
    }
    let sessions = rows.len() as u64;
    let failed = sessions - times.len() as u64;
    // The mean in file order, before the selection below reorders the times.
    let mean_ms = mean(&times).map(precision::ms);
    let min_ms = times.iter().copied().reduce(f64::min);
    let max_ms = times.iter().copied().reduce(f64::max);
    let ranked = Sample::new(&mut times).map(|mut s| s.percentiles(&[Percentile::P50, Percentile::P95]));
    let at = |i: usize| ranked.as_ref().map(|r| r[i]);
    Some(RunSessions {
        sessions,
        succeeded: sessions - failed,
        failed,
        failed_share: failed as f64 / sessions as f64,
        failed_by_step,
        min_ms,
        max_ms,
        mean_ms,
        median_ms: at(0).map(|v| v.value),
        median_rank: at(0).map(|v| v.rank),
        p95_ms: at(1).map(|v| v.value),
        p95_rank: at(1).map(|v| v.rank),
    })
}

/// A condition's sessions over the given (ok) runs' sessions; `None` when none has sessions.
pub fn of_condition(runs: &[&RunSessions]) -> Option<ConditionSessions> {
    let spread = |f: fn(&RunSessions) -> Option<f64>| {
        let values: Vec<f64> = runs.iter().filter_map(|r| f(r)).collect();
        Spread::of(&values).map(|s| Spread { median: precision::ms(s.median), ..s })
    };
    let shares: Vec<f64> = runs.iter().map(|r| r.failed_share).collect();
    Some(ConditionSessions {
        sessions: runs.iter().map(|r| r.sessions).sum(),
        failed: runs.iter().map(|r| r.failed).sum(),
        failed_share: Spread::of(&shares).map(|s| Spread { median: precision::fraction(s.median), ..s })?,
        min_ms: spread(|r| r.min_ms),
        max_ms: spread(|r| r.max_ms),
        mean_ms: spread(|r| r.mean_ms),
        median_ms: spread(|r| r.median_ms),
        p95_ms: spread(|r| r.p95_ms),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(ms: f64) -> SessionRow {
        SessionRow { run: 0, session_ms: Some(ms), failed_step: None }
    }

    fn failed(step: u64) -> SessionRow {
        SessionRow { run: 0, session_ms: None, failed_step: Some(step) }
    }

    #[test]
    fn failed_sessions_count_in_the_share_but_not_in_the_times() {
        // 5 sessions, 2 failed (steps 1 and 2): share 2/5; times 30, 10, 20 only.
        let rows = [ok(30.0), failed(1), ok(10.0), failed(2), ok(20.0)];
        let run = of_run(&rows.iter().collect::<Vec<_>>()).unwrap();
        assert_eq!((run.sessions, run.succeeded, run.failed), (5, 3, 2));
        assert_eq!(run.failed_share, 0.4);
        assert_eq!(run.failed_by_step, BTreeMap::from([(1, 1), (2, 1)]));
        assert_eq!((run.min_ms, run.max_ms, run.mean_ms), (Some(10.0), Some(30.0), Some(20.0)));
        // p50 of 3 is rank ceil(1.5) = 2 (20 ms); p95 of 3 is rank ceil(2.85) = 3 (30 ms).
        assert_eq!((run.median_ms, run.median_rank), (Some(20.0), Some(2)));
        assert_eq!((run.p95_ms, run.p95_rank), (Some(30.0), Some(3)));
    }

    #[test]
    fn p95_of_20_session_times_is_the_19th() {
        let rows: Vec<SessionRow> = (1..=20).rev().map(|ms| ok(f64::from(ms))).collect();
        let run = of_run(&rows.iter().collect::<Vec<_>>()).unwrap();
        assert_eq!((run.p95_ms, run.p95_rank), (Some(19.0), Some(19)));
        assert_eq!((run.median_ms, run.median_rank), (Some(10.0), Some(10)));
        assert_eq!(run.mean_ms, Some(10.5));
    }

    #[test]
    fn a_run_whose_sessions_all_failed_has_a_share_of_one_and_no_times() {
        let rows = [failed(0), failed(0)];
        let run = of_run(&rows.iter().collect::<Vec<_>>()).unwrap();
        assert_eq!((run.failed_share, run.succeeded), (1.0, 0));
        assert_eq!((run.mean_ms, run.median_ms, run.p95_ms), (None, None, None));
        assert_eq!(run.failed_by_step, BTreeMap::from([(0, 2)]));
    }

    #[test]
    fn a_condition_takes_the_median_and_range_of_its_runs() {
        let run = |share: f64, mean: Option<f64>| RunSessions {
            sessions: 10,
            succeeded: 10 - (share * 10.0) as u64,
            failed: (share * 10.0) as u64,
            failed_share: share,
            failed_by_step: BTreeMap::new(),
            min_ms: mean,
            max_ms: mean,
            mean_ms: mean,
            median_ms: mean,
            p95_ms: mean,
            median_rank: None,
            p95_rank: None,
        };
        let runs = [run(0.1, Some(4.0)), run(0.5, Some(2.0)), run(0.3, None), run(0.2, Some(3.0))];
        let c = of_condition(&runs.iter().collect::<Vec<_>>()).unwrap();
        assert_eq!((c.sessions, c.failed), (40, 11));
        // Shares 0.1, 0.2, 0.3, 0.5: median the mean of the middle two.
        assert_eq!(c.failed_share, Spread { median: 0.25, min: 0.1, max: 0.5, n: 4 });
        // The run without successful sessions has no mean and is left out of the mean's spread.
        assert_eq!(c.mean_ms, Some(Spread { median: 3.0, min: 2.0, max: 4.0, n: 3 }));
        assert_eq!(of_condition(&[]), None);
    }

    #[test]
    fn runs_get_their_own_sessions_and_runs_without_any_get_none() {
        let rows = [SessionRow { run: 1, ..ok(5.0) }, SessionRow { run: 1, ..failed(0) }];
        let got = per_run(Some(&rows), 3);
        assert_eq!(got[0], None);
        assert_eq!(got[1].as_ref().map(|r| (r.sessions, r.failed)), Some((2, 1)));
        assert_eq!(got[2], None);
        assert_eq!(per_run(None, 2), vec![None, None]);
    }
}
