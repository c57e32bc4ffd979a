//! From a validated [`Dataset`] to the [`Report`]: every number the outputs show is computed here.

use super::percentile::Sample;
use super::summary::{median, representative};
use crate::dataset::{Dataset, Keep};
use crate::model::{HeadlineMetric, Lang, LoadKind, Percentile, RunStatus, SortedMap, Text};
use crate::report::*;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// A run's percentiles from the intended send, when it has a send lag other than 0.
type FromIntended = Option<SortedMap<String, f64>>;

/// What to compute besides the statistics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// Statistics only (`analyze check`).
    Statistics,
    /// Statistics and the chart inputs (`analyze report`), from a dataset loaded with
    /// [`crate::dataset::Keep::Points`].
    WithFigures,
}

/// Computes the report. Latency vectors are reordered in place (selection), not copied; the
/// requests are not read again.
pub fn build(dataset: &mut Dataset, detail: Detail) -> Report {
    let wanted = dataset.manifest.reported_percentiles();
    let with_figures = detail == Detail::WithFigures;
    // Before selection reorders the latencies: the send-lag series, the time series and error
    // marks (which pair each latency with its send time), and the percentiles from the intended
    // send (made in the lags' own vector). Level-1 tables carry no rows, so no intended-send
    // values.
    // The warm-up hint's figures need the send times too (`stats::hints`).
    type WarmUps = Vec<Option<super::hints::WarmUpRun>>;
    let (send_lags, series, intended, mut warm_ups): (Vec<LagSeries>, _, Vec<FromIntended>, WarmUps) = if let Some(level1) = &dataset.level1
    {
        let send_lags = if with_figures { dataset.requests.iter().map(super::intended::lag_series).collect() } else { Vec::new() };
        let series = with_figures.then(|| super::figures::level1_series(level1, &dataset.requests));
        (send_lags, series, vec![None; dataset.runs.len()], vec![None; dataset.runs.len()])
    } else {
        if with_figures {
            assert_eq!(dataset.kept, Keep::Points, "charts need the dataset loaded with Keep::Points");
        }
        let per_run: Vec<_> = dataset
            .requests
            .par_iter_mut()
            .map(|run| {
                // As `f64` only now, one run per core at a time: the pass held them packed.
                run.unpack();
                // Freed here: nothing reads them after these.
                let sent_ms = std::mem::take(&mut run.sent_ms);
                let error_rows = std::mem::take(&mut run.error_rows);
                let lags = std::mem::take(&mut run.lag_ms);
                let run = &*run;
                let warm_up = super::hints::warm_up_of_run(&run.latencies_ms, &sent_ms);
                // Side by side on the cores, so a dataset of one large run uses both.
                let ((send_lag, intended), series) = rayon::join(
                    || {
                        let send_lag = with_figures.then(|| super::intended::lag_series_of(&sent_ms, &lags, run.latencies_ms.len() as u64));
                        // Only runs with a lag other than 0 need their own selection; the
                        // others' values are the service latency's.
                        let intended =
                            if lags.is_empty() { None } else { super::intended::percentiles_of_lags(&run.latencies_ms, lags, &wanted) };
                        (send_lag, intended)
                    },
                    || with_figures.then(|| super::figures::run_series(run, &sent_ms, error_rows)),
                );
                (send_lag, series, intended, warm_up)
            })
            .collect();
        let mut send_lags = Vec::new();
        let (mut time_series, mut errors_over_time) = (Vec::new(), Vec::new());
        let mut intended = Vec::with_capacity(per_run.len());
        let mut warm_ups = Vec::with_capacity(per_run.len());
        for (send_lag, series, run_intended, warm_up) in per_run {
            send_lags.extend(send_lag);
            if let Some((points, errors)) = series {
                time_series.push(points);
                errors_over_time.push(errors);
            }
            intended.push(run_intended);
            warm_ups.push(warm_up);
        }
        (send_lags, with_figures.then_some((time_series, errors_over_time)), intended, warm_ups)
    };
    let percentile = dataset.manifest.headline_percentile();
    let conditions_of_runs = condition_keys(dataset);
    let mut condition_levels: Vec<Vec<usize>> = conditions_of_runs.clone();
    condition_levels.sort();
    condition_levels.dedup();
    let condition_index: BTreeMap<&Vec<usize>, usize> = condition_levels.iter().enumerate().map(|(i, l)| (l, i)).collect();

    let expected_large = dataset
        .manifest
        .large_response_bytes
        .or_else(|| dataset.large_responses.as_ref().and_then(|rows| rows.iter().map(|r| r.bytes_received).max()));

    // Per-run percentiles: as level 1 computed them elsewhere, or in parallel from each run's
    // vector, with its mean (a serial pass over every latency when it was taken run by run later).
    let (ranked, means): (Vec<Vec<super::percentile::RankedValue>>, Vec<Option<f64>>) = if let Some(level1) = &dataset.level1 {
        let at = |run: &crate::dataset::precomputed::Level1Run, p: &Percentile| {
            let (value, rank) = *run.percentiles.get(&p.thousandths())?;
            Some(super::percentile::RankedValue { value, rank, n: run.ok_responses })
        };
        // Loading checked that a run with 2xx responses has every wanted percentile.
        let ranked = level1.runs.iter().map(|run| wanted.iter().filter_map(|p| at(run, p)).collect()).collect();
        (ranked, dataset.requests.iter().map(|run| super::throughput::mean_latency_ms(&run.latencies_ms)).collect())
    } else {
        dataset
            .requests
            .par_iter_mut()
            .map(|run| {
                let ranked = Sample::new(&mut run.latencies_ms).map_or_else(Vec::new, |mut sample| sample.percentiles(&wanted));
                (ranked, super::throughput::mean_latency_ms(&run.latencies_ms))
            })
            .unzip()
    };

    let label_names = dataset.labels.as_ref().map(super::labels::names).unwrap_or_default();
    let mut run_labels = super::labels::per_run(dataset.labels.as_mut(), dataset.runs.len()).into_iter();
    let side = super::by_run::SideTables::of(dataset);
    let mut sessions = super::sessions::per_run(dataset.sessions.as_deref(), dataset.runs.len()).into_iter();
    let mut runs = Vec::with_capacity(dataset.runs.len());
    for (index, run) in dataset.runs.iter().enumerate() {
        let counted = &dataset.requests[index];
        let level1_run = dataset.level1.as_ref().map(|l| &l.runs[index]);
        let values = &ranked[index];
        let find = |p: Percentile| wanted.iter().position(|w| *w == p).and_then(|i| values.get(i));
        let mut percentiles_ms = SortedMap::new();
        let mut percentile_ranks = SortedMap::new();
        let mut unresolved_percentiles = SortedMap::new();
        for (p, value) in wanted.iter().zip(values) {
            percentiles_ms.insert(p.key(), value.value);
            percentile_ranks.insert(p.key(), value.rank);
            if !super::resolvable::resolved(*p, value.n) {
                unresolved_percentiles.insert(p.key(), super::resolvable::requests_needed(*p));
            }
        }
        percentiles_ms.shrink_to_fit();
        percentile_ranks.shrink_to_fit();
        unresolved_percentiles.shrink_to_fit();
        let large = side.large.get(index);
        let write: Vec<f64> = large.iter().filter_map(|r| r.write_s).collect();
        let complete: Vec<f64> = large.iter().filter_map(|r| r.client_complete_s).collect();
        let incomplete =
            large.iter().filter(|r| r.client_complete_s.is_none() || expected_large.is_some_and(|e| r.bytes_received < e)).count() as u64;
        let send_step_ms = super::throughput::send_step_ms(dataset.sources[index].as_ref());
        // A warm-up is judged only where the sends are ordered as finely as requests/s needs.
        if !super::throughput::sends_resolved(send_step_ms, super::throughput::rows_span_s(counted)) {
            warm_ups[index] = None;
        }
        let tool_reported = dataset.run_stats[index].as_ref().map(|s| Box::new(super::tool_reported::reported(s, counted)));
        let rows_place_errors = super::failures::rows_place_errors(dataset.sources[index].as_ref());
        let requests_counted = super::failures::counted(counted.requests, counted.errors(), tool_reported.as_deref(), rows_place_errors);
        let throughput = super::throughput::throughput(
            counted,
            &requests_counted,
            means[index],
            dataset.run_stats[index].as_ref(),
            dataset.manifest.report.throughput_from,
            send_step_ms,
        );
        let run_sessions = sessions.next().flatten();
        let load = LoadKind::of(run_sessions.is_some(), counted.max_lag_ms);
        let from_intended_ms = match (load, &intended[index]) {
            (LoadKind::OpenLoop, Some(values)) => Some(values.clone()),
            // An open loop whose 2xx responses all left on time: the same values.
            (LoadKind::OpenLoop, None) if dataset.level1.is_none() && !percentiles_ms.is_empty() => Some(percentiles_ms.clone()),
            _ => None,
        };
        let intended_gap = from_intended_ms.as_ref().and_then(|i| {
            let thresholds = &dataset.manifest.thresholds;
            super::intended::gap(&percentiles_ms, i, thresholds.negligible_difference, thresholds.noisy_lag_floor_ms)
        });
        let tempfile_peak_bytes = side.tempfiles.get(index).iter().map(|r| r.logical_bytes).max();
        runs.push(RunResult {
            run_id: run.run_id.clone(),
            condition: condition_index[&conditions_of_runs[index]],
            factors: dataset.factors.iter().zip(&run.levels).map(|(f, &l)| (f.name.clone(), f.levels[l].value.clone())).collect(),
            repetition: run.repetition,
            status: run.status,
            note: run.note.clone(),
            started_at_utc: run.started_at_utc.clone(),
            requests: counted.requests,
            requests_counted,
            ok_responses: level1_run.map_or(counted.latencies_ms.len() as u64, |l| l.ok_responses),
            errors: counted.errors(),
            non_2xx: counted.non_2xx,
            no_response: counted.no_response,
            statuses: counted.statuses.iter().map(|(s, c)| (s.to_string(), *c)).collect(),
            p95_ms: find(Percentile::P95).map(|v| v.value),
            p95_rank: find(Percentile::P95).map(|v| v.rank),
            headline_ms: find(percentile).map(|v| v.value),
            headline_rank: find(percentile).map(|v| v.rank),
            headline_printed: super::printed::of_run(percentile, counted.requests, tool_reported.as_deref()).map(Box::new),
            percentiles_ms,
            percentile_ranks,
            unresolved_percentiles,
            max_ms: level1_run.map_or_else(|| counted.latencies_ms.iter().copied().reduce(f64::max), |l| l.max_ms),
            latency_decimals: super::tool_reported::latency_decimals(dataset.sources[index].as_ref()),
            load,
            // Only an open loop has a schedule to lag behind.
            max_lag_ms: counted.max_lag_ms.filter(|_| load == LoadKind::OpenLoop).map(super::precision::ms),
            from_intended_ms,
            intended_gap,
            large_responses: large.len() as u64,
            incomplete_large_responses: incomplete,
            write_s_median: median(&write).map(super::precision::seconds),
            complete_s_median: median(&complete).map(super::precision::seconds),
            tempfile_peak_bytes,
            resources: super::resources::usage(side.resources.get(index)),
            load1_before: run.load1_before,
            load1_after: run.load1_after,
            server_cpu_share: run.server_cpu_share,
            round: run.round,
            sessions: run_sessions,
            requests_per_s: throughput.rate,
            error_rate: throughput.error_rate,
            // Level-1 tables carry no latencies to average: the engine's mean stands in.
            mean_ms: level1_run.map_or(throughput.mean_ms, |l| l.mean_ms.map(super::precision::ms)),
            throughput_from: throughput.from,
            rate_withheld: throughput.withheld,
            source: super::tool_reported::source(dataset.sources[index].as_ref()).map(Box::new),
            tool_reported,
            labels: run_labels.next().unwrap_or_default(),
        });
    }

    let choices = dataset.manifest.report.clone();
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); condition_levels.len()];
    for (index, run) in runs.iter().enumerate() {
        members[run.condition].push(index);
    }
    let mut conditions: Vec<ConditionResult> = condition_levels
        .iter()
        .zip(&members)
        .map(|(levels, members)| summarize_condition(dataset, &side, &runs, members, levels, &choices, &label_names))
        .collect();
    super::slo::evaluate(&dataset.manifest.slo, dataset.manifest.thresholds.error_share, &runs, &mut conditions);
    let integrity = integrity(&runs, expected_large);
    let factors: Vec<FactorInfo> = dataset
        .factors
        .iter()
        .map(|f| FactorInfo {
            name: f.name.clone(),
            label: f.label.clone(),
            levels: f.levels.iter().map(|l| LevelInfo { value: l.value.clone(), label: l.label.clone() }).collect(),
        })
        .collect();
    let layout = layout(dataset, &conditions);
    let variance = super::variance::review(dataset, &runs, &conditions, &layout, choices.headline);
    let standing = super::standing::standing(
        &conditions,
        &super::variance::groups_compared(dataset, &conditions, &layout),
        choices.headline,
        &variance,
        dataset.manifest.thresholds.error_share,
    );
    // Every run's 2xx latencies are still here, in selection's order: the SYN counts need none.
    let syn: Vec<super::hints::SynRun> = dataset.requests.par_iter().map(|run| super::hints::SynRun::of(&run.latencies_ms)).collect();
    let hints = super::hints::hints(&factors, &runs, &conditions, &variance.flags, &syn, &warm_ups);
    let published =
        super::published::compare(dataset.manifest.published.as_ref(), &conditions, dataset.manifest.thresholds.negligible_difference);
    let figures = match series {
        None => Figures::default(),
        Some((time_series, errors_over_time)) => {
            let figures = super::figures::compute(dataset, &runs);
            let label_ecdf = dataset.labels.as_ref().map(|l| super::labels::ecdfs(l, &runs, &conditions)).unwrap_or_default();
            Figures { time_series, errors_over_time, send_lags, write_ends: write_ends(dataset), label_ecdf, ..figures }
        }
    };
    let measured =
        dataset.manifest.measured.clone().or_else(|| dataset.runs.iter().filter_map(|r| r.started).min().map(|first| first.utc_date()));
    let run_lookup = RunLookup::of(&runs);
    let percentile_keys = percentile_keys(percentile, &conditions);
    let percentiles_at_maximum = percentiles_at_maximum(&percentile_keys, &runs);
    let resource_sampling = super::resources::sampling(&runs);
    Report {
        schema_version: SCHEMA_VERSION,
        dataset: DatasetInfo {
            name: dataset.name.clone(),
            title: dataset.manifest.title.clone().unwrap_or_else(|| Text::Plain(dataset.name.clone())),
            description: dataset.manifest.description.clone(),
            default_lang: dataset.manifest.lang.unwrap_or(Lang::En),
            measured,
            environment: published_environment(&dataset.manifest.environment),
            large_response_bytes: expected_large,
            session_steps: dataset.manifest.session_steps().to_vec(),
            must_match: dataset.manifest.must_match(),
            history: dataset
                .manifest
                .history
                .as_ref()
                .map(|h| crate::report::HistoryInfo { series: h.series.get_ref().clone(), revision: h.revision.clone() }),
        },
        percentile,
        headline: choices.headline,
        beside: choices.beside.clone(),
        mean_of_runs: choices.mean_of_runs,
        factors,
        layout,
        runs,
        conditions,
        integrity,
        variance,
        standing,
        published,
        hints,
        setup: dataset.plan.as_ref().map(settings).unwrap_or_default(),
        level1: dataset.level1.as_ref().map(|l| l.engine.clone()),
        readme: dataset.readme.clone(),
        readme_ja: dataset.readme_ja.clone(),
        figures,
        run_lookup,
        percentile_keys,
        percentiles_at_maximum,
        resource_sampling,
    }
}

/// The percentile keys the report's tables show: the standard ones, then the headline's when it
/// is not one of them, keeping those some condition has.
fn percentile_keys(headline: Percentile, conditions: &[ConditionResult]) -> Vec<String> {
    let mut keys: Vec<String> = Percentile::STANDARD.iter().map(|p| p.key()).collect();
    if !keys.contains(&headline.key()) {
        keys.push(headline.key());
    }
    keys.retain(|k| conditions.iter().any(|c| c.percentiles_ms.contains_key(k)));
    keys
}

/// The keys whose nearest rank is n in every ok run with responses (none when there is no such run).
fn percentiles_at_maximum(keys: &[String], runs: &[RunResult]) -> Vec<String> {
    let ok: Vec<&RunResult> = runs.iter().filter(|r| r.status == RunStatus::Ok && r.ok_responses > 0).collect();
    if ok.is_empty() {
        return Vec::new();
    }
    keys.iter().filter(|k| ok.iter().all(|r| r.percentile_ranks.get(*k) == Some(&r.ok_responses))).cloned().collect()
}

/// plan.toml flattened: every value under its dotted key (`nginx.proxy_buffers`), arrays of
/// tables numbered from 1 (`conditions.2.route`), strings unquoted, other values as TOML writes them.
fn settings(plan: &toml::Table) -> Vec<Setting> {
    fn walk(prefix: &str, value: &toml::Value, out: &mut Vec<Setting>) {
        match value {
            toml::Value::Table(table) => {
                for (key, inner) in table {
                    walk(&join(prefix, key), inner, out);
                }
            }
            toml::Value::Array(items) if !items.is_empty() && items.iter().all(toml::Value::is_table) => {
                for (i, item) in items.iter().enumerate() {
                    walk(&join(prefix, &(i + 1).to_string()), item, out);
                }
            }
            toml::Value::String(text) => out.push(Setting { key: prefix.to_string(), value: text.clone() }),
            other => out.push(Setting { key: prefix.to_string(), value: other.to_string() }),
        }
    }
    fn join(prefix: &str, key: &str) -> String {
        if prefix.is_empty() {
            key.to_string()
        } else {
            format!("{prefix}.{key}")
        }
    }
    let mut out = Vec::new();
    for (key, value) in plan {
        walk(key, value, &mut out);
    }
    out
}

/// Per run, the sorted moments (s since the run's start) the app finished writing a large response.
fn write_ends(dataset: &Dataset) -> Vec<Vec<f64>> {
    let mut ends = vec![Vec::new(); dataset.runs.len()];
    for response in dataset.large_responses.iter().flatten() {
        if let (Some(end), Some(slot)) = (response.write_end_ms, ends.get_mut(response.run as usize)) {
            slot.push(super::precision::seconds(end / 1000.0));
        }
    }
    for slot in &mut ends {
        slot.sort_by(f64::total_cmp);
    }
    ends
}

/// The percentiles that every ok run with that percentile leaves unresolved, with what they need.
fn unresolved_in_every_run(ok: &[&RunResult]) -> std::collections::BTreeMap<String, u64> {
    let keys: std::collections::BTreeSet<&String> = ok.iter().flat_map(|r| r.percentiles_ms.keys()).collect();
    keys.into_iter()
        .filter_map(|key| {
            let with: Vec<&RunResult> = ok.iter().copied().filter(|r| r.percentiles_ms.contains_key(key)).collect();
            let needs = with.iter().map(|r| r.unresolved_percentiles.get(key).copied()).collect::<Option<Vec<u64>>>()?;
            Some((key.clone(), *needs.first()?))
        })
        .collect()
}

fn condition_keys(dataset: &Dataset) -> Vec<Vec<usize>> {
    dataset.runs.iter().map(|r| r.levels.clone()).collect()
}

/// One condition's summary from its member runs (`members`: indices into `runs`, in run order).
fn summarize_condition(
    dataset: &Dataset,
    side: &super::by_run::SideTables,
    runs: &[RunResult],
    members: &[usize],
    levels: &[usize],
    choices: &crate::dataset::ReportChoices,
    label_names: &[LabelName],
) -> ConditionResult {
    let ok_indices: Vec<usize> = members.iter().copied().filter(|&i| runs[i].status == RunStatus::Ok).collect();
    let members: Vec<&RunResult> = members.iter().map(|&i| &runs[i]).collect();
    let ok: Vec<&RunResult> = members.iter().copied().filter(|r| r.status == RunStatus::Ok).collect();
    let metric = choices.headline;
    // The representative run and the mean follow the metric conditions are compared by.
    let with_headline: Vec<&RunResult> = ok.iter().copied().filter(|r| metric.of_run(r).is_some()).collect();
    let headline: Vec<f64> = with_headline.iter().filter_map(|r| metric.of_run(r)).collect();
    let collect = |f: &dyn Fn(&RunResult) -> Option<f64>| -> Vec<f64> { ok.iter().filter_map(|r| f(r)).collect() };
    let large = || ok_indices.iter().flat_map(|&i| side.large.get(i).iter().copied());
    ConditionResult {
        id: crate::dataset::condition_id(&dataset.factors, levels),
        factors: dataset.factors.iter().zip(levels).map(|(f, &l)| (f.name.clone(), f.levels[l].value.clone())).collect(),
        levels: levels.to_vec(),
        runs: ok.iter().map(|r| r.run_id.clone()).collect(),
        left_out_runs: members.iter().filter(|r| r.status != RunStatus::Ok).map(|r| r.run_id.clone()).collect(),
        p95_ms: Spread::of(&collect(&|r| r.p95_ms)).map(clean_ms),
        headline_ms: Spread::of(&collect(&|r| r.headline_ms)).map(clean_ms),
        headline_printed: super::printed::of_condition(dataset.manifest.headline_percentile(), &ok),
        percentiles_ms: {
            let keys: std::collections::BTreeSet<&String> = ok.iter().flat_map(|r| r.percentiles_ms.keys()).collect();
            keys.into_iter()
                .filter_map(|k| Some((k.clone(), Spread::of(&collect(&|r| r.percentiles_ms.get(k).copied()))?)))
                .map(|(k, s)| (k, clean_ms(s)))
                .collect()
        },
        unresolved_percentiles: unresolved_in_every_run(&ok),
        max_ms: Spread::of(&collect(&|r| r.max_ms)).map(clean_ms),
        latency_decimals: common_decimals(&ok),
        printed_rate_decimals: super::tool_reported::printed_rate_decimals(ok.iter().copied()),
        from_intended_ms: {
            let keys: std::collections::BTreeSet<&String> =
                ok.iter().filter_map(|r| r.from_intended_ms.as_ref()).flat_map(|m| m.keys()).collect();
            keys.into_iter()
                .filter_map(|key| {
                    let spread = Spread::of(&collect(&|r| r.from_intended_ms.as_ref().and_then(|m| m.get(key).copied())))?;
                    Some((key.clone(), clean_ms(spread)))
                })
                .collect()
        },
        representative_run: representative(&headline).map(|i| with_headline[i].run_id.clone()),
        write_s: Spread::of(&collect(&|r| r.write_s_median)).map(clean_seconds),
        complete_s: Spread::of(&collect(&|r| r.complete_s_median)).map(clean_seconds),
        write_s_pooled: super::large::pooled(large(), |r| r.write_s).map(clean_seconds),
        complete_s_pooled: super::large::pooled(large(), |r| r.client_complete_s).map(clean_seconds),
        tempfile_peak_bytes: Spread::of(&collect(&|r| r.tempfile_peak_bytes.map(|b| b as f64))),
        sessions: super::sessions::of_condition(&ok.iter().filter_map(|r| r.sessions.as_deref()).collect::<Vec<_>>()),
        requests_per_s: Spread::of(&collect(&|r| r.requests_per_s)).map(|s| Spread { median: super::precision::rate(s.median), ..s }),
        error_rate: Spread::of(&collect(&|r| r.error_rate)),
        mean_ms: Spread::of(&collect(&|r| r.mean_ms)),
        headline_mean: if choices.mean_of_runs { super::summary::mean(&headline).map(|m| rounded(metric, m)) } else { None },
        resources: super::resources::of_condition(&ok.iter().map(|r| r.resources.as_slice()).collect::<Vec<_>>()),
        slo: Vec::new(),
        labels: super::labels::of_condition(label_names, &ok),
    }
}

/// The decimals a condition's latencies are known to: the finest of its runs with latencies, if
/// every one's are known (a run from another source may carry more digits).
fn common_decimals(runs: &[&RunResult]) -> Option<u8> {
    let with_latencies = runs.iter().filter(|r| r.ok_responses > 0);
    with_latencies.map(|r| r.latency_decimals).try_fold(None, |finest: Option<u8>, d| Some(finest.max(Some(d?))))?
}

/// A headline value derived by a mean, at published precision.
fn rounded(metric: HeadlineMetric, value: f64) -> f64 {
    match metric {
        HeadlineMetric::Percentile | HeadlineMetric::SessionMeanMs => super::precision::ms(value),
        HeadlineMetric::RequestsPerS => super::precision::rate(value),
        HeadlineMetric::ErrorRate | HeadlineMetric::FailedShare => super::precision::fraction(value),
    }
}

/// A spread of milliseconds at published precision (the median of an even count is a mean).
fn clean_ms(s: Spread) -> Spread {
    Spread { median: super::precision::ms(s.median), ..s }
}

fn clean_seconds(s: Spread) -> Spread {
    Spread { median: super::precision::seconds(s.median), ..s }
}

fn integrity(runs: &[RunResult], expected_large: Option<u64>) -> Integrity {
    let mut runs_by_status = BTreeMap::new();
    for status in [RunStatus::Ok, RunStatus::Aborted, RunStatus::Excluded] {
        runs_by_status.insert(status.as_str().to_string(), runs.iter().filter(|r| r.status == status).count() as u64);
    }
    let ok: Vec<&RunResult> = runs.iter().filter(|r| r.status == RunStatus::Ok).collect();
    let sum = |f: fn(&RunResult) -> u64| ok.iter().map(|r| f(r)).sum::<u64>();
    let max_lag = ok.iter().filter_map(|r| r.max_lag_ms.map(|lag| (lag, r.run_id.clone()))).max_by(|a, b| a.0.total_cmp(&b.0));
    Integrity {
        runs: runs.len() as u64,
        runs_by_status,
        requests: sum(|r| r.requests),
        requests_counted: super::failures::total(ok.iter().copied()),
        ok_responses: sum(|r| r.ok_responses),
        non_2xx: sum(|r| r.non_2xx),
        no_response: sum(|r| r.no_response),
        errors: sum(|r| r.errors),
        large_responses: sum(|r| r.large_responses),
        incomplete_large_responses: sum(|r| r.incomplete_large_responses),
        expected_large_response_bytes: expected_large,
        max_lag_ms: max_lag.as_ref().map(|m| m.0),
        max_lag_run: max_lag.map(|m| m.1),
    }
}

/// Chooses the x factor (dataset.toml's `x`, else the numeric factor with the most levels, else
/// the factor with the most levels) and makes the rows from the other factors.
fn layout(dataset: &Dataset, conditions: &[ConditionResult]) -> Layout {
    let factors = &dataset.factors;
    let by_name = |name: &str| factors.iter().position(|f| f.name == name);
    let x_factor = dataset.manifest.x.as_deref().and_then(by_name).or_else(|| {
        let pick = |numeric_only: bool| {
            factors
                .iter()
                .enumerate()
                .filter(|(_, f)| !numeric_only || f.numeric)
                .max_by_key(|(i, f)| (f.levels.len(), std::cmp::Reverse(*i)))
                .map(|(i, _)| i)
        };
        pick(true).or_else(|| pick(false))
    });
    // dataset.toml's `series` orders the series factors; a factor it leaves out still follows,
    // so every condition keeps a cell of its own.
    let listed = dataset.manifest.series.iter().flatten().filter_map(|n| by_name(n));
    let mut series_factors: Vec<usize> = Vec::new();
    for i in listed.chain(0..factors.len()).filter(|&i| Some(i) != x_factor) {
        if !series_factors.contains(&i) {
            series_factors.push(i);
        }
    }
    let mut rows: Vec<LayoutRow> = Vec::new();
    let mut row_of: std::collections::HashMap<Vec<usize>, usize> = std::collections::HashMap::new();
    for (c, condition) in conditions.iter().enumerate() {
        let key: Vec<usize> = series_factors.iter().map(|&f| condition.levels[f]).collect();
        let column = x_factor.map_or(0, |x| condition.levels[x]);
        let width = x_factor.map_or(1, |x| factors[x].levels.len());
        let row = *row_of.entry(key.clone()).or_insert_with(|| {
            rows.push(LayoutRow { levels: key, cells: vec![None; width] });
            rows.len() - 1
        });
        rows[row].cells[column] = Some(c);
    }
    rows.sort_by(|a, b| a.levels.cmp(&b.levels));
    Layout { x_factor, series_factors, rows }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(ok_responses: u64, ranks: &[(&str, u64)]) -> RunResult {
        let mut run = crate::render::charts::tests::fixture().runs[0].clone();
        run.ok_responses = ok_responses;
        run.percentile_ranks = ranks.iter().map(|(k, r)| (k.to_string(), *r)).collect();
        run
    }

    #[test]
    fn a_percentile_is_at_the_maximum_only_when_it_is_the_last_rank_in_every_ok_run() {
        let keys: Vec<String> = ["95", "99", "99.9"].iter().map(|k| k.to_string()).collect();
        // 100 responses: p99 is rank 99, p99.9 rank 100 (the maximum); 50 responses: both 50.
        let runs = [run(100, &[("95", 95), ("99", 99), ("99.9", 100)]), run(50, &[("95", 48), ("99", 50), ("99.9", 50)])];
        assert_eq!(percentiles_at_maximum(&keys, &runs), ["99.9"]);
        assert_eq!(percentiles_at_maximum(&keys, &runs[1..]), ["99", "99.9"]);
        assert!(percentiles_at_maximum(&keys, &[]).is_empty());
    }
}

/// The environment as a report publishes it: a `<server>_program` is the path of the program on the
/// machine that measured (inside a user's virtual environment, say), so only its file name is shown;
/// its `_sha256` and `_version` say which program it was.
fn published_environment(environment: &BTreeMap<String, Text>) -> BTreeMap<String, Text> {
    let name = |path: &str| path.rsplit('/').next().filter(|n| !n.is_empty()).unwrap_or(path).to_string();
    environment
        .iter()
        .map(|(key, value)| {
            let value = match value {
                Text::Plain(path) if key.ends_with("_program") => Text::Plain(name(path)),
                Text::PerLang(paths) if key.ends_with("_program") => Text::PerLang(paths.iter().map(|(l, p)| (*l, name(p))).collect()),
                other => other.clone(),
            };
            (key.clone(), value)
        })
        .collect()
}

#[cfg(test)]
mod published_environment_tests {
    use super::*;

    #[test]
    fn a_program_is_published_by_its_file_name_and_other_keys_as_written() {
        let environment: BTreeMap<String, Text> = [
            ("granian_program", "/home/me/app/.venv/bin/granian"),
            ("nginx_program", "nginx"),
            ("nginx_version", "nginx/1.22.1"),
            ("kernel", "6.1.0/amd64"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), Text::Plain(v.to_string())))
        .collect();
        let published = published_environment(&environment);
        let value = |key: &str| match &published[key] {
            Text::Plain(v) => v.clone(),
            Text::PerLang(_) => panic!("plain"),
        };
        assert_eq!(value("granian_program"), "granian");
        assert_eq!(value("nginx_program"), "nginx");
        assert_eq!(value("nginx_version"), "nginx/1.22.1");
        assert_eq!(value("kernel"), "6.1.0/amd64");
    }
}
