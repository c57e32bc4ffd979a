//! CPU and memory of the server processes, from cumulative samples.
//!
//! A group's average CPU is the CPU seconds its processes used between their first and last
//! samples, divided by the group's sampled time span, in % of one core. Peak RSS is the largest
//! sum of the group's RSS at one sample time.

use crate::dataset::ResourceSample;
use crate::report::{ConditionUsage, ProcessSeries, ProcessUsage, Spread};
use std::collections::BTreeMap;

/// Per process group, by name, over the given (ok) runs' usage: the median and min-max range of
/// the runs' average CPU and of their peak RSS, each over the runs that sampled the group.
pub fn of_condition(runs: &[&[ProcessUsage]]) -> Vec<ConditionUsage> {
    let mut by_process: BTreeMap<&str, (Vec<f64>, Vec<f64>)> = BTreeMap::new();
    for usage in runs.iter().copied().flatten() {
        let (cpu, rss) = by_process.entry(usage.process.as_str()).or_default();
        cpu.extend(usage.avg_cpu_percent);
        rss.push(usage.peak_rss_bytes as f64);
    }
    by_process
        .into_iter()
        .map(|(process, (cpu, rss))| ConditionUsage {
            process: process.to_string(),
            cpu_percent: Spread::of(&cpu).map(|s| Spread { median: super::precision::rate(s.median), ..s }),
            peak_rss_bytes: Spread::of(&rss),
        })
        .collect()
}

/// One run's samples (in file order) by process group, each group in time order.
fn groups<'a>(run: &[&'a ResourceSample]) -> BTreeMap<&'a str, Vec<&'a ResourceSample>> {
    let mut groups: BTreeMap<&str, Vec<&ResourceSample>> = BTreeMap::new();
    for &sample in run {
        groups.entry(sample.process.as_str()).or_default().push(sample);
    }
    for samples in groups.values_mut() {
        samples.sort_by(|a, b| a.t_ms.total_cmp(&b.t_ms).then(a.pid.cmp(&b.pid)));
    }
    groups
}

/// Per process group of one run (its samples, [`super::by_run::SideTables`]): average CPU and
/// peak RSS.
pub fn usage(run: &[&ResourceSample]) -> Vec<ProcessUsage> {
    groups(run)
        .into_iter()
        .map(|(process, samples)| {
            let mut per_pid: BTreeMap<i64, (f64, f64)> = BTreeMap::new();
            for s in &samples {
                let entry = per_pid.entry(s.pid).or_insert((s.cpu_s, s.cpu_s));
                entry.1 = s.cpu_s;
            }
            let cpu_s: f64 = per_pid.values().map(|(first, last)| (last - first).max(0.0)).sum();
            let span_s = (samples.last().map_or(0.0, |s| s.t_ms) - samples.first().map_or(0.0, |s| s.t_ms)) / 1000.0;
            let mut rss_at: BTreeMap<u64, u64> = BTreeMap::new();
            for s in &samples {
                *rss_at.entry(s.t_ms.to_bits()).or_insert(0) += s.rss_bytes;
            }
            ProcessUsage {
                process: process.to_string(),
                avg_cpu_percent: (span_s > 0.0).then(|| cpu_s / span_s * 100.0),
                peak_rss_bytes: rss_at.values().copied().max().unwrap_or(0),
                sample_interval_ms: sample_interval_ms(&samples),
            }
        })
        .collect()
}

/// The median gap between a group's consecutive distinct sample times (its samples in time order;
/// the pids of one sample time share it).
fn sample_interval_ms(samples: &[&ResourceSample]) -> Option<f64> {
    let mut times: Vec<f64> = samples.iter().map(|s| s.t_ms).collect();
    times.dedup();
    let gaps: Vec<f64> = times.windows(2).map(|w| w[1] - w[0]).collect();
    super::summary::median(&gaps)
}

/// The sampling interval of the runs' resource samples (each process group's median gap, in whole
/// ms), lowest and highest, with the CPU step at each; `None` when no run has two samples.
pub fn sampling(runs: &[crate::report::RunResult]) -> Option<crate::report::ResourceSampling> {
    let intervals: Vec<f64> =
        runs.iter().flat_map(|r| r.resources.iter().filter_map(|u| u.sample_interval_ms)).map(f64::round).filter(|v| *v > 0.0).collect();
    let low = intervals.iter().copied().reduce(f64::min)?;
    let high = intervals.iter().copied().reduce(f64::max)?;
    Some(crate::report::ResourceSampling {
        tick_ms: CLOCK_TICK_MS,
        interval_low_ms: low,
        interval_high_ms: high,
        step_fine_percent: cpu_step_percent(high),
        step_coarse_percent: cpu_step_percent(low),
    })
}

/// The step, in % of one core, in which a CPU share between two samples `interval_ms` apart moves:
/// the kernel counts CPU time in clock ticks of [`CLOCK_TICK_MS`].
pub fn cpu_step_percent(interval_ms: f64) -> f64 {
    CLOCK_TICK_MS / interval_ms * 100.0
}

/// Linux's USER_HZ of 100: /proc reports CPU time in hundredths of a second.
pub const CLOCK_TICK_MS: f64 = 10.0;

/// One sample time of a group: its time in ms, and per pid (cumulative cpu_s, rss bytes).
type SampleTime = (f64, BTreeMap<i64, (f64, u64)>);

/// Per process group of one run (its samples): CPU % since the previous sample time, and total
/// RSS, over time.
pub fn series(run: &[&ResourceSample]) -> Vec<ProcessSeries> {
    groups(run)
        .into_iter()
        .map(|(process, samples)| {
            // Sample times in order, each with pid -> (cpu_s, rss).
            let mut times: BTreeMap<u64, SampleTime> = BTreeMap::new();
            for s in &samples {
                let key = ordered_key(s.t_ms);
                times.entry(key).or_insert_with(|| (s.t_ms, BTreeMap::new())).1.insert(s.pid, (s.cpu_s, s.rss_bytes));
            }
            let mut points = Vec::with_capacity(times.len());
            let mut previous: Option<&SampleTime> = None;
            for entry in times.values() {
                let (t_ms, pids) = entry;
                let rss: u64 = pids.values().map(|v| v.1).sum();
                let cpu = previous.and_then(|(prev_t, prev_pids)| {
                    let dt = (t_ms - prev_t) / 1000.0;
                    let used: f64 = pids.iter().filter_map(|(pid, (cpu, _))| prev_pids.get(pid).map(|(p, _)| (cpu - p).max(0.0))).sum();
                    (dt > 0.0).then(|| used / dt * 100.0)
                });
                points.push((t_ms / 1000.0, cpu, rss as f64));
                previous = Some(entry);
            }
            ProcessSeries { process: process.to_string(), points }
        })
        .collect()
}

/// A key that sorts like the number (sample times are finite).
fn ordered_key(value: f64) -> u64 {
    let bits = value.to_bits();
    if value.is_sign_negative() {
        !bits
    } else {
        bits | (1 << 63)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage_of(process: &str, cpu: Option<f64>, rss_mib: u64) -> ProcessUsage {
        ProcessUsage { process: process.to_string(), avg_cpu_percent: cpu, peak_rss_bytes: rss_mib << 20, sample_interval_ms: None }
    }

    fn sample(t_ms: f64, pid: i64) -> ResourceSample {
        ResourceSample { run: 0, t_ms, process: "gunicorn".into(), pid, cpu_s: 0.0, rss_bytes: 0 }
    }

    #[test]
    fn the_sample_interval_is_the_median_gap_between_sample_times() {
        // Times 0, 200, 400, 700 (two pids at each): gaps 200, 200, 300, so 200 ms.
        let samples: Vec<ResourceSample> = [0.0, 200.0, 400.0, 700.0].iter().flat_map(|&t| [sample(t, 1), sample(t, 2)]).collect();
        let refs: Vec<&ResourceSample> = samples.iter().collect();
        assert_eq!(usage(&refs)[0].sample_interval_ms, Some(200.0));
        assert_eq!(usage(&refs[..2])[0].sample_interval_ms, None, "one sample time has no gap");
        // 10 ms ticks at 200 ms apart: steps of 5%.
        assert_eq!(cpu_step_percent(200.0), 5.0);
    }

    #[test]
    fn a_condition_takes_per_group_the_median_and_range_of_its_runs() {
        let r1 = [usage_of("nginx", Some(3.0), 10), usage_of("gunicorn", Some(80.0), 60)];
        let r2 = [usage_of("gunicorn", Some(95.0), 64)];
        let r3 = [usage_of("gunicorn", None, 62), usage_of("nginx", Some(5.0), 12)];
        let got = of_condition(&[&r1, &r2, &r3]);
        let names: Vec<&str> = got.iter().map(|u| u.process.as_str()).collect();
        assert_eq!(names, ["gunicorn", "nginx"], "sorted by name");
        // gunicorn: CPU of the two runs that have one, 80 and 95: the median is their mean.
        assert_eq!(got[0].cpu_percent, Some(Spread { median: 87.5, min: 80.0, max: 95.0, n: 2 }));
        // Peak RSS 60, 64 and 62 MiB: the median is 62.
        assert_eq!(
            got[0].peak_rss_bytes,
            Some(Spread { median: 62.0 * 1_048_576.0, min: 60.0 * 1_048_576.0, max: 64.0 * 1_048_576.0, n: 3 })
        );
        assert_eq!(got[1].cpu_percent, Some(Spread { median: 4.0, min: 3.0, max: 5.0, n: 2 }));
        assert!(of_condition(&[]).is_empty());
    }
}
