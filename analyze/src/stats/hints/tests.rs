use super::*;
use crate::report::{ConditionResult, FactorInfo, LevelInfo, RunResult};
use crate::stats::random::SplitMix64;

/// `n` latencies of a healthy run: a log-normal body around `median_ms`.
fn body(rng: &mut SplitMix64, n: usize, median_ms: f64) -> Vec<f64> {
    (0..n).map(|_| (median_ms * (0.4 * rng.normal()).exp() * 10.0).round() / 10.0).collect()
}

// SYN retransmits.

#[test]
fn slow_requests_just_above_one_second_are_a_syn_retransmit_cluster() {
    let mut rng = SplitMix64(1);
    // 2,000 requests of a few ms, 8 of which waited for a retransmitted SYN (as http.server at c=10).
    let mut latencies = body(&mut rng, 1992, 4.0);
    latencies.extend([1012.7, 1022.3, 1022.9, 1025.0, 1029.1, 1029.9, 1244.9, 1453.2]);
    let run = SynRun::of(&latencies);
    assert_eq!((run.slow, run.near, run.below, run.responses), (8, 8, 0, 2000));
    assert_eq!(run.near_range_ms, Some((1012.7, 1453.2)));
    assert!(run.shows());
    let hint = syn_retransmit(&[run, run, SynRun::of(&body(&mut rng, 2000, 4.0))]).expect("2 of 3 runs show it");
    assert_eq!((hint.runs, hint.of, hint.slow, hint.near), (2, 3, 16, 16));
    assert_eq!((hint.near_min_ms, hint.near_max_ms, hint.timeouts_ms.clone()), (1012.7, 1453.2, vec![1000.0]));
}

#[test]
fn a_cluster_just_above_three_seconds_counts_too() {
    let mut rng = SplitMix64(2);
    let mut latencies = body(&mut rng, 990, 3.0);
    latencies.extend([1003.0, 1004.0, 1010.0, 1020.0, 3002.0, 3004.0, 3011.0, 3020.0, 3050.0, 2000.0]);
    let run = SynRun::of(&latencies);
    // 9 of the 10 slow ones near a timeout: at 2 s, the one between is no timeout.
    assert_eq!((run.slow, run.near), (10, 9));
    assert!(run.shows());
    assert_eq!(syn_retransmit(&[run]).unwrap().timeouts_ms, vec![1000.0, 3000.0]);
}

#[test]
fn a_server_slow_at_one_and_a_fifth_seconds_everywhere_shows_no_cluster() {
    let mut rng = SplitMix64(3);
    // Every request near 1.2 s: all are slow and most lie in 1-1.5 s, but they are the run.
    let latencies = body(&mut rng, 2000, 1200.0);
    let run = SynRun::of(&latencies);
    assert!(run.near as f64 >= SYN_MOST * run.slow as f64 * 0.5, "{run:?}");
    assert!(!run.shows(), "{run:?}");
    // A tighter body above 1 s still is the whole run.
    let tight: Vec<f64> = (0..2000).map(|i| 1150.0 + (i % 100) as f64).collect();
    assert!(!SynRun::of(&tight).shows());
    assert!(syn_retransmit(&[SynRun::of(&tight)]).is_none());
}

#[test]
fn slow_requests_spread_evenly_from_half_a_second_to_five_show_no_cluster() {
    let mut rng = SplitMix64(4);
    let mut latencies = body(&mut rng, 1800, 5.0);
    latencies.extend((0..200).map(|i| 500.0 + 4500.0 * i as f64 / 199.0));
    let run = SynRun::of(&latencies);
    assert!(run.slow > 100 && !run.shows(), "{run:?}");
    // Nor does a tail that starts below the timeout: as many just under 1 s as just above.
    let mut tail = body(&mut rng, 1980, 5.0);
    tail.extend((0..20).map(|i| 700.0 + 30.0 * i as f64));
    assert!(!SynRun::of(&tail).shows());
}

#[test]
fn a_fast_run_or_two_slow_requests_show_no_cluster() {
    let mut rng = SplitMix64(5);
    assert!(!SynRun::of(&body(&mut rng, 2000, 4.0)).shows());
    let mut two = body(&mut rng, 2000, 4.0);
    two.extend([1010.0, 1020.0]);
    assert!(!SynRun::of(&two).shows(), "fewer than SYN_MIN_SLOW");
    assert!(syn_retransmit(&[]).is_none());
    // One run of three is not the condition's.
    let mut one = body(&mut rng, 2000, 4.0);
    one.extend([1010.0, 1020.0, 1030.0]);
    let fast = SynRun::of(&body(&mut rng, 2000, 4.0));
    assert!(syn_retransmit(&[SynRun::of(&one), fast, fast]).is_none());
}

// Warm-up.

/// A run of `n` requests sent 1 ms apart, written to the file in a shuffled order, whose first
/// `slow` requests by send time take `slow_ms` and the rest the body's.
fn run_with_start(rng: &mut SplitMix64, n: usize, slow: usize, slow_ms: f64) -> (Vec<f64>, Vec<f64>) {
    let latencies = body(rng, n, 2.0);
    let mut rows: Vec<(f64, f64)> =
        latencies.into_iter().enumerate().map(|(i, l)| (i as f64, if i < slow { slow_ms * (l / 2.0) } else { l })).collect();
    for i in (1..rows.len()).rev() {
        rows.swap(i, rng.below(i as u64 + 1) as usize);
    }
    rows.into_iter().map(|(sent, latency)| (latency, sent)).unzip()
}

#[test]
fn a_run_whose_first_tenth_by_send_time_is_slow_shows_a_warm_up() {
    let mut rng = SplitMix64(6);
    let (latencies, sent) = run_with_start(&mut rng, 1000, 100, 9.0);
    let run = warm_up_of_run(&latencies, &sent).expect("1,000 requests with send times");
    assert!(run.first_p50_ms > 7.0 && run.rest_p50_ms < 2.5, "{run:?}");
    assert!(run.shows());
    let hint = warm_up(&[run, run, WarmUpRun { first_p50_ms: 2.0, rest_p50_ms: 2.0 }]).expect("2 of 3 show it");
    assert_eq!((hint.runs, hint.of, hint.first_share), (2, 3, 0.1));
    assert_eq!(hint.first_p50_ms.median, run.first_p50_ms);
    assert_eq!(hint.ratio.median, run.first_p50_ms / run.rest_p50_ms);
}

#[test]
fn a_steady_run_shows_no_warm_up() {
    for seed in 0..50 {
        let mut rng = SplitMix64(100 + seed);
        let (latencies, sent) = run_with_start(&mut rng, 200, 0, 0.0);
        let run = warm_up_of_run(&latencies, &sent).unwrap();
        assert!(!run.shows(), "seed {seed}: {run:?}");
    }
}

#[test]
fn warm_up_needs_enough_requests_send_times_and_more_than_a_whole_ms() {
    let mut rng = SplitMix64(7);
    let (latencies, sent) = run_with_start(&mut rng, 199, 20, 9.0);
    assert!(warm_up_of_run(&latencies, &sent).is_none(), "fewer than 200");
    assert!(warm_up_of_run(&latencies[..0], &[]).is_none());
    let (latencies, _) = run_with_start(&mut rng, 400, 40, 9.0);
    assert!(warm_up_of_run(&latencies, &[]).is_none(), "no send times (analyze check)");
    // Whole ms: 2 against 1 is twice, but one step of the clock.
    assert!(!WarmUpRun { first_p50_ms: 2.0, rest_p50_ms: 1.0 }.shows());
    assert!(WarmUpRun { first_p50_ms: 3.0, rest_p50_ms: 1.0 }.shows());
    assert!(!WarmUpRun { first_p50_ms: 3.0, rest_p50_ms: 0.0 }.shows());
    assert!(warm_up(&[WarmUpRun { first_p50_ms: 2.0, rest_p50_ms: 2.0 }]).is_none());
}

#[test]
fn ties_in_send_time_fill_the_first_part_in_file_order() {
    // 200 requests all sent at 0: the first 20 in the file are the first part.
    let latencies: Vec<f64> = (0..200).map(|i| if i < 20 { 10.0 } else { 2.0 }).collect();
    let run = warm_up_of_run(&latencies, &[0.0; 200]).unwrap();
    assert_eq!((run.first_p50_ms, run.rest_p50_ms), (10.0, 2.0));
}

// Saturation.

fn factor(name: &str, levels: &[&str]) -> FactorInfo {
    let level = |v: &&str| LevelInfo { value: v.to_string(), label: crate::model::Text::Plain(v.to_string()) };
    FactorInfo { name: name.into(), label: crate::model::Text::Plain(name.into()), levels: levels.iter().map(level).collect() }
}

/// One condition per level of `name` (ids `name=level`), each with one ok run of `load`, and its
/// median requests/s and mean latency.
fn by_level(
    name: &str,
    levels: &[&str],
    figures: &[(f64, f64)],
    load: LoadKind,
) -> (Vec<FactorInfo>, Vec<ConditionResult>, Vec<RunResult>) {
    let fixture = crate::render::charts::tests::fixture();
    let (mut conditions, mut runs) = (Vec::new(), Vec::new());
    for (l, (level, &(rate, mean))) in levels.iter().zip(figures).enumerate() {
        let mut condition = fixture.conditions[0].clone();
        condition.id = format!("{name}={level}");
        condition.factors = [(name.to_string(), level.to_string())].into();
        condition.levels = vec![l];
        condition.requests_per_s = Spread::of(&[rate]);
        condition.mean_ms = Spread::of(&[mean]);
        let mut run = fixture.runs[0].clone();
        run.run_id = format!("r{l}");
        run.condition = l;
        run.status = RunStatus::Ok;
        run.load = load;
        condition.runs = vec![run.run_id.clone()];
        conditions.push(condition);
        runs.push(run);
    }
    (vec![factor(name, levels)], conditions, runs)
}

#[test]
fn throughput_that_stops_rising_while_latency_follows_littles_law_is_saturation() {
    // 1 → 2 doubles the rate; from 2 on it stays within 10% while the mean latency grows.
    let figures = [(100.0, 10.0), (190.0, 10.5), (200.0, 20.0), (205.0, 39.0)];
    let (factors, conditions, runs) = by_level("concurrency", &["1", "2", "4", "8"], &figures, LoadKind::ClosedLoop);
    let hints = saturation(&factors, &conditions, &runs);
    assert_eq!(hints.len(), 1);
    assert_eq!(hints[0].condition_ids, ["concurrency=2", "concurrency=8"]);
    let Evidence::Saturation(s) = &hints[0].evidence else { panic!("{hints:?}") };
    assert_eq!((s.from_level.as_str(), s.to_level.as_str(), s.concurrency_ratio), ("2", "8", 4.0));
    assert!((s.requests_per_s_change - (205.0 / 190.0 - 1.0)).abs() < 1e-12);
    assert!((s.latency_ratio - 39.0 / 10.5).abs() < 1e-12);
    assert!((s.predicted_ratio - 4.0 * 190.0 / 205.0).abs() < 1e-12);
}

#[test]
fn throughput_that_keeps_rising_is_no_saturation() {
    let figures = [(100.0, 10.0), (195.0, 10.2), (380.0, 10.5), (700.0, 11.4)];
    let (factors, conditions, runs) = by_level("concurrency", &["1", "2", "4", "8"], &figures, LoadKind::ClosedLoop);
    assert!(saturation(&factors, &conditions, &runs).is_empty());
}

#[test]
fn a_flat_rate_is_saturation_only_for_a_closed_loops_concurrency_with_latency_in_step() {
    let flat = [(100.0, 10.0), (102.0, 19.5)];
    // Not a concurrency factor: slow downloads beside the load.
    let (factors, conditions, runs) = by_level("downloads", &["1", "2"], &flat, LoadKind::ClosedLoop);
    assert!(saturation(&factors, &conditions, &runs).is_empty());
    // An open loop's rate is its schedule's, whatever its concurrency.
    let (factors, conditions, runs) = by_level("concurrency", &["1", "2"], &flat, LoadKind::OpenLoop);
    assert!(saturation(&factors, &conditions, &runs).is_empty());
    // Latency that did not rise: not the queue Little's law predicts.
    let (factors, conditions, runs) = by_level("concurrency", &["1", "2"], &[(100.0, 10.0), (102.0, 10.5)], LoadKind::ClosedLoop);
    assert!(saturation(&factors, &conditions, &runs).is_empty());
    // Less than a doubling.
    let (factors, conditions, runs) = by_level("concurrency", &["4", "6"], &[(100.0, 10.0), (100.0, 15.0)], LoadKind::ClosedLoop);
    assert!(saturation(&factors, &conditions, &runs).is_empty());
    let (factors, conditions, runs) = by_level("concurrency", &["1", "2"], &flat, LoadKind::ClosedLoop);
    assert_eq!(saturation(&factors, &conditions, &runs).len(), 1);
}

// Starved server.

#[test]
fn the_variance_reviews_starved_flags_are_one_hint_per_condition() {
    let (_, conditions, mut runs) = by_level("concurrency", &["1", "2"], &[(1.0, 1.0), (1.0, 1.0)], LoadKind::ClosedLoop);
    let mut extra = runs[0].clone();
    extra.run_id = "r0b".into();
    runs.push(extra);
    let flag = |run: &str, share: f64| Flag { run_id: run.into(), kind: FlagKind::Starved { share, median: 0.93, limit: 0.6 } };
    let outlier = Flag { run_id: "r1".into(), kind: FlagKind::Outlier { value_ms: 9.0, median_ms: 1.0, factor: 9.0 } };
    let hints = starved(&[flag("r0", 0.41), flag("r0b", 0.45), outlier.clone()], &runs, &conditions);
    assert_eq!(hints.len(), 1);
    assert_eq!(hints[0].condition_ids, ["concurrency=1"]);
    let Evidence::Starved(s) = &hints[0].evidence else { panic!() };
    assert_eq!(s.runs.iter().map(|r| (r.run_id.as_str(), r.share)).collect::<Vec<_>>(), [("r0", 0.41), ("r0b", 0.45)]);
    assert_eq!((s.median, s.limit), (0.93, 0.6));
    assert!(starved(&[outlier], &runs, &conditions).is_empty());
}

// The committed datasets.

fn committed(name: &str) -> crate::report::Report {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets").join(name);
    let mut dataset = crate::dataset::load_with(&dir, crate::dataset::Keep::Points).unwrap();
    crate::stats::build(&mut dataset, crate::stats::Detail::WithFigures)
}

#[test]
fn static_file_servers_hint_syn_retransmits_at_http_server_c10_only() {
    let report = committed("static-file-servers");
    let syn: Vec<(&str, &SynRetransmit)> = report
        .hints
        .iter()
        .filter_map(|h| match &h.evidence {
            Evidence::SynRetransmit(s) => Some((h.condition_ids[0].as_str(), s)),
            _ => None,
        })
        .collect();
    assert_eq!(syn.len(), 1, "{:?}", report.hints);
    let (id, s) = syn[0];
    assert_eq!(id, "server=http-server,concurrency=10");
    assert_eq!((s.runs, s.of, s.slow, s.near, s.near_min_ms, s.near_max_ms), (6, 6, 24, 24, 1003.2, 1035.2));
}
