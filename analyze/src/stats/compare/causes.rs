//! What else differed between the two sides of a compared condition, besides the code: the CPU
//! the server got and the host's load, each side's ok runs summarised, and whether the sides
//! differ beyond their runs' spread. A difference there is a hint that a verdict may be the
//! host's, not the code's ("the candidate's server got 56% of a core, the baseline's 90%"); it
//! changes no verdict.
//!
//! A run's server CPU share is runs.csv's `server_cpu_share` (CPU seconds per wall second of the
//! load), else the sum of its resource groups' average CPU (resources.csv, the server's processes).
//! Its host load is the one the variance review judges it by ([`super::super::variance::host_load`]).
//!
//! The sides differ when both have at least [`MIN_RUNS`] runs with the figure, every run of one
//! side lies beyond every run of the other, and their medians are further apart than the figure's
//! floor: [`CPU_FLOOR`] of the larger median for a CPU share (the starved rule's floor; closed
//! loops only, [`of_condition`]), and [`LOAD_FLOOR`] for a load average.

use crate::model::LoadKind;
use crate::report::compare::{CauseSide, Causes, SideCause};
use crate::report::{RunResult, Spread};

/// The fewest runs a side needs for its figure to be judged against the other's.
pub const MIN_RUNS: usize = 2;
/// Two CPU shares differ only by more than this fraction of the larger median.
pub const CPU_FLOOR: f64 = super::super::variance::STARVED_FLOOR;
/// Two host loads (1-minute load averages) differ only by more than this.
pub const LOAD_FLOOR: f64 = 0.5;

/// The server CPU share of one run, in cores: runs.csv's figure, else its resource groups' sum.
pub fn server_cpu_share(run: &RunResult) -> Option<f64> {
    run.server_cpu_share.or_else(|| {
        let groups: Vec<f64> = run.resources.iter().filter_map(|u| u.avg_cpu_percent).collect();
        (!groups.is_empty()).then(|| groups.iter().sum::<f64>() / 100.0)
    })
}

/// Both figures of a compared condition, from each side's ok runs; `None` when neither side's
/// runs have either figure. The CPU shares are judged only where every run is a closed loop: its
/// server is as busy as the host lets it be, so less CPU is a sign of contention; at a fixed rate
/// (an open loop) or paced sessions, the share is the work the code does per second, and a
/// difference in it is the code's own.
pub fn of_condition(base: &[&RunResult], cand: &[&RunResult]) -> Option<Causes> {
    let closed = base.iter().chain(cand).all(|r| r.load == LoadKind::ClosedLoop);
    let server_cpu = compared(base, cand, server_cpu_share, |larger| closed.then_some(CPU_FLOOR * larger));
    let host_load = compared(base, cand, super::super::variance::host_load, |_| Some(LOAD_FLOOR));
    (server_cpu.is_some() || host_load.is_some()).then_some(Causes { server_cpu, host_load })
}

/// `floor` of the larger median: how far apart the medians must be, `None` when the figure is
/// not judged.
fn compared(
    base: &[&RunResult],
    cand: &[&RunResult],
    figure: impl Fn(&RunResult) -> Option<f64>,
    floor: impl Fn(f64) -> Option<f64>,
) -> Option<SideCause> {
    let of = |runs: &[&RunResult]| Spread::of(&runs.iter().filter_map(|r| figure(r)).collect::<Vec<_>>());
    let (b, c) = (of(base), of(cand));
    if b.is_none() && c.is_none() {
        return None;
    }
    let differs = match (b, c) {
        (Some(b), Some(c)) if b.n >= MIN_RUNS && c.n >= MIN_RUNS => {
            let apart = b.max < c.min || c.max < b.min;
            apart && floor(b.median.max(c.median)).is_some_and(|floor| (b.median - c.median).abs() > floor)
        }
        _ => false,
    };
    Some(SideCause { base: b.map(CauseSide::from), cand: c.map(CauseSide::from), differs })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::ProcessUsage;

    fn run(share: Option<f64>, cpu_percent: &[f64], load1_before: Option<f64>) -> RunResult {
        let mut run = crate::render::charts::tests::fixture().runs[0].clone();
        run.load = LoadKind::ClosedLoop;
        run.server_cpu_share = share;
        run.resources = cpu_percent
            .iter()
            .map(|&p| ProcessUsage { process: "server".into(), avg_cpu_percent: Some(p), peak_rss_bytes: 0, sample_interval_ms: None })
            .collect();
        run.load1_before = load1_before;
        run
    }

    fn refs(runs: &[RunResult]) -> Vec<&RunResult> {
        runs.iter().collect()
    }

    #[test]
    fn a_server_that_got_56_percent_of_a_core_against_90_differs() {
        let base: Vec<RunResult> = [0.88, 0.90, 0.92].iter().map(|&s| run(Some(s), &[], Some(0.1))).collect();
        let cand: Vec<RunResult> = [0.52, 0.56, 0.61].iter().map(|&s| run(Some(s), &[], Some(0.2))).collect();
        let causes = of_condition(&refs(&base), &refs(&cand)).unwrap();
        let cpu = causes.server_cpu.unwrap();
        assert_eq!(cpu.base.unwrap().median, 0.90);
        assert_eq!(cpu.cand.unwrap().median, 0.56);
        assert!(cpu.differs);
        // 0.1 against 0.2: apart, but a tenth of a runnable process is no difference of the host.
        assert!(!causes.host_load.unwrap().differs);
    }

    #[test]
    fn at_a_fixed_rate_a_lower_share_is_the_codes_own_and_is_not_judged() {
        let open = |share: f64| RunResult { load: LoadKind::OpenLoop, ..run(Some(share), &[], None) };
        let base: Vec<RunResult> = [0.88, 0.90, 0.92].iter().map(|&s| open(s)).collect();
        let cand: Vec<RunResult> = [0.52, 0.56, 0.61].iter().map(|&s| open(s)).collect();
        let cpu = of_condition(&refs(&base), &refs(&cand)).unwrap().server_cpu.unwrap();
        assert_eq!(cpu.cand.unwrap().median, 0.56);
        assert!(!cpu.differs);
    }

    #[test]
    fn shares_whose_runs_overlap_or_lie_within_a_tenth_do_not_differ() {
        // Overlapping ranges: 0.80-0.95 against 0.90-0.99.
        let base: Vec<RunResult> = [0.80, 0.88, 0.95].iter().map(|&s| run(Some(s), &[], None)).collect();
        let cand: Vec<RunResult> = [0.90, 0.97, 0.99].iter().map(|&s| run(Some(s), &[], None)).collect();
        assert!(!of_condition(&refs(&base), &refs(&cand)).unwrap().server_cpu.unwrap().differs);
        // Apart, but the medians 0.90 and 0.96 are 6% of 0.96 apart, within the 10% floor.
        let base: Vec<RunResult> = [0.89, 0.90, 0.91].iter().map(|&s| run(Some(s), &[], None)).collect();
        let cand: Vec<RunResult> = [0.95, 0.96, 0.97].iter().map(|&s| run(Some(s), &[], None)).collect();
        assert!(!of_condition(&refs(&base), &refs(&cand)).unwrap().server_cpu.unwrap().differs);
    }

    #[test]
    fn a_host_loaded_before_every_candidate_run_differs_and_one_run_a_side_is_not_judged() {
        let base: Vec<RunResult> = [0.1, 0.2, 0.3].iter().map(|&l| run(None, &[], Some(l))).collect();
        let cand: Vec<RunResult> = [2.5, 2.77, 3.1].iter().map(|&l| run(None, &[], Some(l))).collect();
        let causes = of_condition(&refs(&base), &refs(&cand)).unwrap();
        assert!(causes.server_cpu.is_none());
        let load = causes.host_load.unwrap();
        assert_eq!(load.cand.unwrap().median, 2.77);
        assert!(load.differs);
        assert!(!of_condition(&refs(&base[..1]), &refs(&cand[..1])).unwrap().host_load.unwrap().differs);
    }

    #[test]
    fn without_runs_csv_share_the_resource_groups_add_up() {
        // nginx at 20% and gunicorn at 70% of a core: 0.9 cores.
        let r = run(None, &[20.0, 70.0], None);
        assert!((server_cpu_share(&r).unwrap() - 0.9).abs() < 1e-12);
        assert_eq!(server_cpu_share(&run(Some(0.5), &[20.0, 70.0], None)), Some(0.5));
        assert_eq!(server_cpu_share(&run(None, &[], None)), None);
        assert!(of_condition(&[&run(None, &[], None)], &[&run(None, &[], None)]).is_none());
    }
}
