//! Chart tests: every figure is well-formed, accessible SVG for a realistic report, for a report
//! without runs and for a run without points; the same report gives the same bytes.
//!
//! The fixture follows the model study: p95 by route (direct, nginx buffering off, nginx
//! buffering on, gthread) at 0, 1 and 2 concurrent downloads, three runs each.

use super::*;
use crate::model::Percentile;
use crate::model::{RunStatus, Text};
use crate::report::review::VarianceReview;
use crate::report::Spread;
use crate::report::*;
use std::collections::BTreeMap;

/// The page name of run `run` (out of range: its index), as the site gives it.
fn slug(report: &Report, run: usize) -> String {
    crate::render::paths::run_slugs(report).get(run).cloned().unwrap_or_else(|| run.to_string())
}

fn text(en: &str, ja: &str) -> Text {
    Text::PerLang(BTreeMap::from([(Lang::En, en.to_string()), (Lang::Ja, ja.to_string())]))
}

/// A small deterministic generator, so the fixture is the same on every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

const ROUTES: [(&str, &str, &str); 4] = [
    ("direct", "direct", "直接"),
    ("nginx-off", "nginx buffering off", "nginx バッファリングなし"),
    ("nginx-on", "nginx buffering on", "nginx バッファリングあり"),
    ("gthread", "gthread", "gthread"),
];

/// (route, downloads, [fastest, median, slowest] p95 of the three runs)
const CONDITIONS: [(usize, usize, [f64; 3]); 10] = [
    (0, 0, [1.49, 1.57, 1.66]),
    (0, 1, [1.65, 1.72, 1.90]),
    (0, 2, [5928.68, 5945.11, 6590.04]),
    (1, 0, [2.41, 2.66, 2.80]),
    (1, 1, [2.20, 2.33, 2.61]),
    (1, 2, [1052.72, 1071.47, 1826.44]),
    (2, 0, [1.80, 1.93, 2.10]),
    (2, 1, [2.71, 2.94, 3.30]),
    (2, 2, [1.96, 2.34, 3.03]),
    (3, 2, [1.49, 1.55, 1.62]),
];

/// 72 latencies whose 69th smallest (the p95) is `p95`, in send order, 0.5 s apart.
fn requests(p95: f64, rng: &mut Lcg) -> Vec<(f64, f64)> {
    let mut values: Vec<f64> = Vec::with_capacity(72);
    if p95 > 100.0 {
        values.extend((0..64).map(|_| 1.0 + 2.0 * rng.next()));
        values.extend((0..4).map(|_| p95 * (0.85 + 0.14 * rng.next())));
    } else {
        values.extend((0..68).map(|_| p95 * (0.55 + 0.44 * rng.next())));
    }
    values.push(p95);
    values.extend((0..3).map(|_| p95 * (1.01 + 0.3 * rng.next())));
    // Slow requests come in bursts while downloads run; otherwise the order is shuffled.
    let mut order: Vec<(f64, f64)> = values.into_iter().map(|v| (rng.next() + if v > 100.0 { 10.0 } else { 0.0 }, v)).collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (fast, slow): (Vec<_>, Vec<_>) = order.into_iter().map(|(_, v)| v).partition(|&v| v <= 100.0);
    let mut sequence = fast;
    for (k, v) in slow.into_iter().enumerate() {
        sequence.insert((20 + 4 * k).min(sequence.len()), v);
    }
    sequence.into_iter().enumerate().map(|(i, v)| (i as f64 * 0.5, v)).collect()
}

fn ecdf_of(points: &[(f64, f64)]) -> PointSeries {
    let mut values: Vec<f64> = points.iter().map(|p| p.1).collect();
    values.sort_by(f64::total_cmp);
    let n = values.len();
    PointSeries { points: values.iter().enumerate().map(|(i, &v)| (v, (i + 1) as f64 / n as f64)).collect(), total: n as u64 }
}

fn run_result(run_id: String, condition: usize, factors: BTreeMap<String, String>, p95: f64, requests: u64, large: u64) -> RunResult {
    RunResult {
        run_id,
        condition,
        factors: factors.into(),
        repetition: 1,
        round: None,
        status: RunStatus::Ok,
        note: crate::model::Note::default(),
        started_at_utc: "2026-11-30T10:00:00Z".into(),
        requests,
        requests_counted: crate::report::Counted { value: requests, errors: Some(0), source: crate::report::CountSource::Rows },
        ok_responses: requests,
        errors: 0,
        non_2xx: 0,
        no_response: 0,
        statuses: BTreeMap::from([("200".to_string(), requests)]).into(),
        p95_ms: Some(p95),
        p95_rank: Some(Percentile::P95.rank(requests.max(1))),
        headline_ms: Some(p95),
        headline_rank: Some(Percentile::P95.rank(requests.max(1))),
        percentiles_ms: Default::default(),
        percentile_ranks: Default::default(),
        unresolved_percentiles: Default::default(),
        headline_printed: None,
        max_ms: Some(p95),
        latency_decimals: None,
        load: crate::model::LoadKind::OpenLoop,
        max_lag_ms: Some(0.4),
        from_intended_ms: None,
        intended_gap: None,
        large_responses: large,
        incomplete_large_responses: 0,
        write_s_median: None,
        complete_s_median: None,
        tempfile_peak_bytes: None,
        resources: Vec::new(),
        load1_before: Some(0.1),
        load1_after: Some(0.2),
        server_cpu_share: None,
        sessions: None,
        requests_per_s: None,
        error_rate: None,
        mean_ms: None,
        throughput_from: None,
        rate_withheld: None,
        source: None,
        tool_reported: None,
        labels: Vec::new(),
    }
}

/// The model study as a report: 10 conditions, 30 runs, every figure input filled.
pub(crate) fn fixture() -> Report {
    let mut rng = Lcg(7);
    let factors = vec![
        FactorInfo {
            name: "route".into(),
            label: text("Route", "経路"),
            levels: ROUTES.iter().map(|(value, en, ja)| LevelInfo { value: value.to_string(), label: text(en, ja) }).collect(),
        },
        FactorInfo {
            name: "downloads".into(),
            label: text("Concurrent 1 GiB downloads", "同時 1 GiB ダウンロード数"),
            levels: ["0", "1", "2"].iter().map(|v| LevelInfo { value: v.to_string(), label: Text::Plain(v.to_string()) }).collect(),
        },
    ];
    let mut runs = Vec::new();
    let mut conditions = Vec::new();
    let mut figures = Figures::default();
    for (c, &(route, downloads, p95s)) in CONDITIONS.iter().enumerate() {
        let factor_map =
            BTreeMap::from([("route".to_string(), ROUTES[route].0.to_string()), ("downloads".to_string(), downloads.to_string())]);
        let mut ids = Vec::new();
        let (mut writes, mut completes) = (Vec::new(), Vec::new());
        let (mut pooled_writes, mut pooled_completes) = (Vec::new(), Vec::new());
        for (r, &p95) in p95s.iter().enumerate() {
            let run_id = format!("{}-{downloads}-r{}", ROUTES[route].0, r + 1);
            let points = requests(p95, &mut rng);
            let large = 4 * downloads as u64;
            runs.push(run_result(run_id.clone(), c, factor_map.clone(), p95, points.len() as u64, large));
            figures.ecdf.push(ecdf_of(&points));
            figures.time_series.push(TimeSeries { total: points.len() as u64, points, columns: Vec::new() });
            let responses: Vec<(f64, Option<f64>)> = (0..large)
                .map(|k| {
                    let write = if route == 2 { 0.22 + 0.06 * rng.next() } else { 6.4 + 0.3 * rng.next() };
                    let complete = 6.45 + 0.3 * rng.next();
                    let incomplete = route == 1 && downloads == 2 && r == 2 && k == 0;
                    (write, (!incomplete).then_some(complete))
                })
                .collect();
            pooled_writes.extend(responses.iter().map(|x| x.0));
            pooled_completes.extend(responses.iter().filter_map(|x| x.1));
            if !responses.is_empty() {
                writes.push(crate::stats::summary::median(&responses.iter().map(|x| x.0).collect::<Vec<_>>()).unwrap_or(0.0));
                completes.push(crate::stats::summary::median(&responses.iter().filter_map(|x| x.1).collect::<Vec<_>>()).unwrap_or(0.0));
            }
            figures.large_responses.push(responses);
            let tempfiles = if route == 2 && downloads > 0 {
                (0..=40)
                    .map(|k| {
                        let t = k as f64 * 0.5;
                        let share = if t < 2.0 {
                            0.0
                        } else if t < 9.0 {
                            (t - 2.0) / 7.0
                        } else if t < 12.0 {
                            1.0
                        } else {
                            0.0
                        };
                        (t, share * downloads as f64 * 1024.0 * 1_048_576.0 * (0.95 + 0.05 * r as f64))
                    })
                    .collect()
            } else {
                Vec::new()
            };
            figures.tempfiles.push(tempfiles);
            let mut groups = vec!["gunicorn"];
            if route == 1 || route == 2 {
                groups.push("nginx");
            }
            figures.resources.push(
                groups
                    .iter()
                    .enumerate()
                    .map(|(g, name)| ProcessSeries {
                        process: name.to_string(),
                        points: (0..=72)
                            .map(|k| {
                                let t = k as f64 * 0.5;
                                let busy = downloads > 0 && (2.0..12.0).contains(&t);
                                let cpu =
                                    (k > 0).then(|| if busy { 60.0 + 30.0 * rng.next() } else { 3.0 + 5.0 * rng.next() } / (g + 1) as f64);
                                let rss = (80.0 + 20.0 * g as f64 + if busy { 40.0 } else { 0.0 }) * 1_048_576.0;
                                (t, cpu, rss)
                            })
                            .collect(),
                    })
                    .collect(),
            );
            ids.push(run_id);
        }
        conditions.push(ConditionResult {
            id: format!("route={},downloads={downloads}", ROUTES[route].0),
            factors: factor_map,
            levels: vec![route, downloads],
            runs: ids.clone(),
            left_out_runs: Vec::new(),
            p95_ms: Spread::of(&p95s),
            headline_ms: Spread::of(&p95s),
            headline_printed: None,
            percentiles_ms: BTreeMap::new(),
            unresolved_percentiles: BTreeMap::new(),
            max_ms: Spread::of(&p95s),
            latency_decimals: None,
            printed_rate_decimals: None,
            representative_run: Some(ids[1].clone()),
            write_s: Spread::of(&writes),
            complete_s: Spread::of(&completes),
            write_s_pooled: Spread::of(&pooled_writes),
            complete_s_pooled: Spread::of(&pooled_completes),
            tempfile_peak_bytes: None,
            sessions: None,
            requests_per_s: None,
            error_rate: None,
            mean_ms: None,
            headline_mean: None,
            from_intended_ms: BTreeMap::new(),
            resources: Vec::new(),
            slo: Vec::new(),
            labels: Vec::new(),
        });
    }
    let cell = |route: usize, downloads: usize| CONDITIONS.iter().position(|&(r, d, _)| r == route && d == downloads);
    let rows = (0..ROUTES.len()).map(|route| LayoutRow { levels: vec![route], cells: (0..3).map(|d| cell(route, d)).collect() }).collect();
    Report {
        schema_version: SCHEMA_VERSION,
        dataset: DatasetInfo {
            name: "model-study".into(),
            title: text("Model study", "モデル研究"),
            description: None,
            default_lang: Lang::En,
            measured: Some("2026-11-30".into()),
            environment: BTreeMap::new(),
            large_response_bytes: Some(1 << 30),
            session_steps: Vec::new(),
            must_match: Vec::new(),
            history: None,
        },
        percentile: Percentile::P95,
        headline: crate::model::HeadlineMetric::Percentile,
        beside: Vec::new(),
        mean_of_runs: false,
        factors,
        layout: Layout { x_factor: Some(1), series_factors: vec![0], rows },
        integrity: integrity(runs.len() as u64),
        run_lookup: RunLookup::of(&runs),
        runs,
        conditions,
        variance: VarianceReview::default(),
        standing: Default::default(),
        published: Default::default(),
        hints: Vec::new(),
        setup: Vec::new(),
        level1: None,
        readme: None,
        readme_ja: None,
        figures,
        percentile_keys: vec!["95".into()],
        percentiles_at_maximum: Vec::new(),
        resource_sampling: None,
    }
}

fn integrity(runs: u64) -> Integrity {
    Integrity {
        runs,
        runs_by_status: BTreeMap::new(),
        requests: 0,
        requests_counted: Default::default(),
        ok_responses: 0,
        non_2xx: 0,
        no_response: 0,
        errors: 0,
        large_responses: 0,
        incomplete_large_responses: 0,
        expected_large_response_bytes: None,
        max_lag_ms: None,
        max_lag_run: None,
    }
}

/// The fixture with run `run` measured at scale: 3,000,000 requests over 600 s, drawn as 100
/// columns of send time (a burst of slow responses from 60 to 300 s), about 2,000 of them in the
/// ECDF, with its p95 at rank 2,850,000.
pub(crate) fn reduced(mut report: Report, run: usize) -> Report {
    let mut rng = Lcg(11);
    let total = 3_000_000;
    let p95 = report.runs[run].headline_ms.unwrap_or(1.0);
    let columns: Vec<TimeColumn> = (0..crate::stats::bands::COLUMNS)
        .map(|c| {
            let (from_s, to_s) = crate::stats::bands::column_span(c, 600.0);
            let burst = (60.0..300.0).contains(&from_s);
            let p50_ms = 2.0 + 3.0 * rng.next();
            let p95_ms = if burst { p95 * (0.8 + 0.4 * rng.next()) } else { 20.0 + 10.0 * rng.next() };
            let max_ms = p95_ms * (1.5 + rng.next());
            let slowest_s = from_s + (to_s - from_s) * rng.next();
            TimeColumn { from_s, to_s, requests: 30_000, p50_ms, p95_ms, max_ms, slowest_s, send_times: 3 }
        })
        .collect();
    let values: Vec<f64> = (0..2000).map(|k| 0.6 + f64::from(k) * p95 / 1900.0).collect();
    let ecdf = values.iter().enumerate().map(|(i, &v)| (v, (i as f64 + 1.0) / values.len() as f64)).collect();
    report.figures.time_series[run] = TimeSeries { points: Vec::new(), columns, total };
    report.figures.ecdf[run] = PointSeries { points: ecdf, total };
    let result = &mut report.runs[run];
    result.requests = total;
    result.ok_responses = total;
    result.headline_rank = Some(Percentile::P95.rank(total));
    report
}

/// A report of a dataset without runs.
fn empty() -> Report {
    let mut report = fixture();
    report.runs.clear();
    report.conditions.clear();
    report.layout.rows.clear();
    report.figures = Figures::default();
    report
}

/// A minimal check that `svg` is well-formed XML: tags balance, attributes are quoted, text
/// holds no stray `<` or `&`.
fn assert_well_formed(svg: &str) {
    let mut stack: Vec<&str> = Vec::new();
    let mut rest = svg;
    while let Some(open) = rest.find('<') {
        check_text(&rest[..open]);
        rest = &rest[open..];
        let close = rest.find('>').unwrap_or_else(|| panic!("unclosed tag at {:?}", &rest[..rest.len().min(60)]));
        let tag = &rest[1..close];
        rest = &rest[close + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop(), Some(name.trim()), "mismatched </{name}>");
            continue;
        }
        let self_closing = tag.ends_with('/');
        let body = tag.trim_end_matches('/');
        let name = body.split_whitespace().next().unwrap_or("");
        assert!(!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'), "bad tag name in <{tag}>");
        assert_eq!(body.matches('"').count() % 2, 0, "unbalanced quotes in <{tag}>");
        let attributes = &body[name.len()..];
        for part in attributes.split('"').step_by(2) {
            let part = part.trim();
            assert!(part.is_empty() || part.ends_with('='), "unquoted attribute in <{tag}>");
        }
        for value in attributes.split('"').skip(1).step_by(2) {
            check_text(value);
        }
        if !self_closing {
            stack.push(name);
        }
        if stack.is_empty() {
            assert!(rest.trim().is_empty(), "content after the root element");
        }
    }
    check_text(rest);
    assert!(stack.is_empty(), "unclosed elements: {stack:?}");
}

fn check_text(text: &str) {
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        rest = &rest[amp + 1..];
        let end = rest.find(';').expect("an & without its ;");
        let entity = &rest[..end];
        assert!(["lt", "gt", "amp", "quot", "apos"].contains(&entity) || entity.starts_with('#'), "unknown entity &{entity};");
    }
}

/// Well-formed, starts with its accessible name and description, scales with CSS, and keeps
/// text at 12px or more.
fn assert_accessible_svg(svg: &str, id: &str) {
    assert_well_formed(svg);
    assert!(svg.starts_with("<svg "), "{}", &svg[..svg.len().min(80)]);
    let open_tag = &svg[..svg.find('>').unwrap()];
    assert!(open_tag.contains("role=\"img\""));
    assert!(open_tag.contains(&format!("aria-labelledby=\"{id}-title {id}-desc\"")), "{open_tag}");
    assert!(open_tag.contains("viewBox=\"0 0 ") && open_tag.contains("width=\"") && open_tag.contains("height=\""));
    let after = &svg[svg.find('>').unwrap() + 1..].trim_start();
    assert!(after.starts_with(&format!("<title id=\"{id}-title\">")), "{}", &after[..after.len().min(80)]);
    assert!(after.contains(&format!("<desc id=\"{id}-desc\">")));
    for size in svg.split("font-size=\"").skip(1) {
        let px: f64 = size[..size.find('"').unwrap()].parse().unwrap();
        assert!(px >= 11.999, "font-size {px} below 12px");
    }
}

fn both_languages(mut check: impl FnMut(Lang)) {
    for lang in Lang::ALL {
        check(lang);
    }
}

#[test]
fn headline_chart_draws_every_condition_and_says_what_it_shows() {
    let report = fixture();
    let svg = headline_by_condition(&report, Lang::En);
    assert_accessible_svg(&svg, "chart-headline-by-condition-en");
    assert!(svg.contains("<title id=\"chart-headline-by-condition-en-title\">p95 latency by condition</title>"));
    assert!(
        svg.contains(
            "p95 latency by condition: median of 3 runs with min-max range; x axis: Concurrent 1 GiB downloads; \
             log-scale y axis; series: direct, nginx buffering off, nginx buffering on, gthread."
        ),
        "{}",
        &svg[..600]
    );
    assert!(svg.contains("p95 latency (ms, log scale)"));
    for tick in [">1<", ">10<", ">100<", ">1,000<", ">10,000<"] {
        assert!(svg.contains(tick), "missing tick {tick:?}");
    }
    for label in ["direct", "nginx buffering off", "nginx buffering on", "gthread", "Concurrent 1 GiB downloads"] {
        assert!(svg.contains(label), "missing {label}");
    }
    let ja = headline_by_condition(&report, Lang::Ja);
    assert_accessible_svg(&ja, "chart-headline-by-condition-ja");
    assert!(ja.contains("条件別の応答時間 p95") && ja.contains("nginx バッファリングあり") && ja.contains("lang=\"ja\""));
}

#[test]
fn latency_over_time_marks_the_headline() {
    let report = fixture();
    let svg = latency_over_time(&report, 6, &slug(&report, 6), Lang::En);
    assert_accessible_svg(&svg, "chart-latency-over-time-6-en");
    assert!(svg.contains("p95 = 5,928.68 ms"), "the run's own p95");
    assert!(svg.contains("Latency over time: run direct-2-r1 (direct · 2)"));
    assert!(!svg.contains("columns of send time"), "a run drawn point by point has no caption on columns");
    assert!(svg.contains("One point per 2xx response, 72 in all"), "the description counts the points");
    assert!(svg.contains(">72 points: one per 2xx response.<"), "and so does a caption a reader sees");
}

#[test]
fn errors_are_marked_over_time_with_a_legend_and_said_in_the_description() {
    let mut report = fixture();
    let plain = latency_over_time(&report, 6, &slug(&report, 6), Lang::En);
    assert!(!plain.contains("non-2xx response"), "no errors, no legend");
    report.figures.errors_over_time = vec![ErrorSeries::default(); report.runs.len()];
    let errors = vec![
        ErrorPoint { t_s: 1.5, latency_ms: Some(12.0), status: 503 },
        ErrorPoint { t_s: 2.0, latency_ms: Some(40_000.0), status: 504 },
        ErrorPoint { t_s: 3.0, latency_ms: None, status: 0 },
    ];
    report.figures.errors_over_time[6] = ErrorSeries { points: errors, total: 3 };
    (report.runs[6].non_2xx, report.runs[6].no_response) = (2, 1);
    let svg = latency_over_time(&report, 6, &slug(&report, 6), Lang::En);
    assert_accessible_svg(&svg, "chart-latency-over-time-6-en");
    for label in ["2xx response", "non-2xx response", "no response (top edge)"] {
        assert!(svg.contains(label), "legend entry {label:?}");
    }
    assert!(
        svg.contains("Marked in vermillion: 2 responses with a non-2xx status (crosses, at their latency) and 1 request with no response")
    );
    assert!(svg.contains(">100,000<"), "the axis reaches the 40 s error response");
    assert!(!svg.contains("errors marked"), "all errors drawn: no reduction caption");

    report.figures.errors_over_time[6].total = 5_000;
    let ja = latency_over_time(&report, 6, &slug(&report, 6), Lang::Ja);
    assert!(ja.contains("応答なし（上端）"));
    assert!(ja.contains("エラー5,000件中3件を表示"));
}

#[test]
fn a_large_run_is_drawn_in_titled_columns_that_say_what_they_stand_for() {
    let report = reduced(fixture(), 7);
    let svg = latency_over_time(&report, 7, &slug(&report, 7), Lang::En);
    assert_accessible_svg(&svg, "chart-latency-over-time-7-en");
    assert!(
        svg.contains("100 columns of send time and their 100 slowest responses (dots) stand for 3,000,000 2xx responses"),
        "caption missing"
    );
    assert!(svg.contains("3,000,000 2xx responses in 100 columns of send time (s)"), "the description counts them too");
    for label in ["p50–p95 of a column", "median", "slowest response"] {
        assert!(svg.contains(label), "legend entry {label:?}");
    }
    let marks = pointed(&svg);
    let href = format!("../runs/{}.html", slug(&report, 7));
    assert_eq!(marks.len(), 2 * 100, "a hover area and a slowest mark per column: {}", marks.len());
    assert!(marks.iter().all(|(_, link)| link.as_deref() == Some(href.as_str())), "every mark links to the run's page");
    let series = &report.figures.time_series[7];
    let first = &series.columns[0];
    let ms = |v: f64| crate::render::format::ms(v);
    let column_title =
        format!("0.0–6.0 s: 30,000 responses, p50 {} ms, p95 {} ms, slowest {} ms", ms(first.p50_ms), ms(first.p95_ms), ms(first.max_ms));
    assert_eq!(marks[0].0, column_title);
    let slowest =
        format!("slowest of its column: sent at {} s, {} ms", crate::render::format::decimal(first.slowest_s, 3), ms(first.max_ms));
    assert_eq!(marks[100].0, slowest);
    // One band and one median line: the columns are adjacent.
    assert_eq!(svg.matches("fill=\"#0072B2\" d=\"").count(), 1, "one band");
    assert!(svg.len() < 40_000, "a run of 3,000,000 requests draws in {} bytes", svg.len());
    let ja = latency_over_time(&report, 7, &slug(&report, 7), Lang::Ja);
    assert!(ja.contains("2xx応答3,000,000件を送信時刻の100列と、各列で最も遅い応答の100個の点で描画"));
    assert!(pointed(&ja)[0].0.starts_with("0.0〜6.0秒：応答30,000件、p50 "), "{:?}", pointed(&ja)[0]);
    let ecdf_svg = ecdf(&report, 7, &slug(&report, 7), Lang::En);
    assert!(ecdf_svg.contains("2,000 of 3,000,000 points drawn (evenly spaced ranks"));
    assert!(ecdf_svg.contains("2,850,000th of 3,000,000 = 5,945.11 ms"));
}

#[test]
fn columns_no_response_was_sent_in_leave_a_gap_in_the_band() {
    let mut report = reduced(fixture(), 7);
    // No response sent from 300 to 420 s.
    report.figures.time_series[7].columns.retain(|c| !(300.0..420.0).contains(&c.from_s));
    let svg = latency_over_time(&report, 7, &slug(&report, 7), Lang::En);
    assert_eq!(svg.matches("fill=\"#0072B2\" d=\"").count(), 2, "a band each side of the gap");
    assert_eq!(pointed(&svg).len(), 2 * 80);
}

#[test]
fn ecdf_marks_the_headline_rank_in_both_languages() {
    let report = fixture();
    let svg = ecdf(&report, 7, &slug(&report, 7), Lang::En);
    assert_accessible_svg(&svg, "chart-ecdf-7-en");
    assert!(svg.contains("69th of 72 = 5,945.11 ms"));
    assert!(svg.contains(">100%<"));
    let ja = ecdf(&report, 7, &slug(&report, 7), Lang::Ja);
    assert_accessible_svg(&ja, "chart-ecdf-7-ja");
    assert!(ja.contains("72件中69番目 = 5,945.11 ms"));
}

#[test]
fn write_vs_completion_draws_conditions_with_large_responses() {
    let report = fixture();
    let svg = write_vs_completion(&report, Lang::En).expect("the fixture has large responses");
    assert_accessible_svg(&svg, "chart-write-vs-completion-en");
    assert!(svg.contains("nginx buffering on · 2"));
    assert!(!svg.contains("nginx buffering on · 0"), "a condition without large responses has no band");
    assert!(svg.contains("1 response has no completion time and is drawn with its write time only."));
    assert!(write_vs_completion(&report, Lang::Ja).is_some());
}

#[test]
fn tempfiles_chart_draws_one_line_per_run_with_samples() {
    let report = fixture();
    let svg = tempfiles_over_time(&report, &[21, 22, 24, 25], Lang::En).expect("nginx buffering on writes temp files");
    assert_accessible_svg(&svg, "chart-tempfiles-over-time-21-22-24-25-en");
    assert!(svg.contains("run nginx-on-1-r1 (nginx buffering on · 1)"));
    assert_eq!(tempfiles_over_time(&report, &[0, 1, 2], Lang::En), None, "runs without samples");
    assert_eq!(tempfiles_over_time(&report, &[], Lang::En), None);
}

#[test]
fn resources_chart_has_a_line_per_process_group() {
    let report = fixture();
    let svg = resources_over_time(&report, 25, Lang::En).expect("samples");
    assert_accessible_svg(&svg, "chart-resources-over-time-25-en");
    assert!(svg.contains("gunicorn") && svg.contains("nginx") && svg.contains("CPU (% of one core)") && svg.contains("RSS (MiB)"));
    assert!(resources_over_time(&report, 25, Lang::Ja).is_some());
}

#[test]
fn an_empty_report_gives_empty_but_valid_figures() {
    let report = empty();
    both_languages(|lang| {
        let code = lang.code();
        assert_accessible_svg(&headline_by_condition(&report, lang), &format!("chart-headline-by-condition-{code}"));
        assert_accessible_svg(&latency_over_time(&report, 0, &slug(&report, 0), lang), &format!("chart-latency-over-time-0-{code}"));
        assert_accessible_svg(&ecdf(&report, 0, &slug(&report, 0), lang), &format!("chart-ecdf-0-{code}"));
        assert_eq!(write_vs_completion(&report, lang), None);
        assert_eq!(tempfiles_over_time(&report, &[0], lang), None);
        assert_eq!(resources_over_time(&report, 0, lang), None);
    });
    let headline = headline_by_condition(&report, Lang::En);
    assert!(headline.contains("No data to draw") && headline.contains("p95 latency by condition: no data."));
}

#[test]
fn a_run_without_points_gives_valid_figures() {
    let mut report = fixture();
    report.figures.time_series[3] = TimeSeries::default();
    report.figures.ecdf[3] = PointSeries::default();
    report.figures.tempfiles[3].clear();
    report.figures.resources[3].clear();
    report.figures.large_responses.iter_mut().for_each(Vec::clear);
    for run in &mut report.runs {
        run.large_responses = 0;
    }
    both_languages(|lang| {
        let code = lang.code();
        let series = latency_over_time(&report, 3, &slug(&report, 3), lang);
        assert_accessible_svg(&series, &format!("chart-latency-over-time-3-{code}"));
        assert!(series.contains(labels::labels(lang).no_points));
        assert_accessible_svg(&ecdf(&report, 3, &slug(&report, 3), lang), &format!("chart-ecdf-3-{code}"));
        assert_eq!(tempfiles_over_time(&report, &[3], lang), None);
        assert_eq!(resources_over_time(&report, 3, lang), None);
    });
    // Conditions still carry write and completion medians, but no run has large responses.
    assert_eq!(write_vs_completion(&report, Lang::En), None);
    // A run index past the end is a run without points, not a panic.
    assert_accessible_svg(&latency_over_time(&report, 999, &slug(&report, 999), Lang::En), "chart-latency-over-time-999-en");
    assert_accessible_svg(&ecdf(&report, 999, &slug(&report, 999), Lang::En), "chart-ecdf-999-en");
    assert_eq!(resources_over_time(&report, 999, Lang::En), None);
}

#[test]
fn zero_latencies_are_drawn_at_the_floor_and_said_so() {
    let mut report = fixture();
    report.figures.time_series[0].points[0].1 = 0.0;
    report.figures.ecdf[0].points.insert(0, (0.0, 1.0 / 72.0));
    report.conditions[0].headline_ms = Some(Spread { median: 0.0, min: 0.0, max: 1.66, n: 3 });
    for svg in [latency_over_time(&report, 0, &slug(&report, 0), Lang::En), headline_by_condition(&report, Lang::En)] {
        assert_well_formed(&svg);
        assert!(svg.contains("▽ marks a value of 0 ms, drawn at the bottom edge"), "floor caption missing");
    }
    let svg = ecdf(&report, 0, &slug(&report, 0), Lang::En);
    assert_well_formed(&svg);
    assert!(svg.contains("▽ marks a value of 0 ms, drawn at the left edge"), "the ECDF's log axis is x");
    assert!(!latency_over_time(&report, 1, &slug(&report, 1), Lang::En).contains("▽"), "no floor without zeros");
}

#[test]
fn all_equal_and_single_values_draw() {
    let mut report = fixture();
    report.figures.time_series[0].points = vec![(0.0, 100.0), (1.0, 100.0), (2.0, 100.0)];
    report.figures.ecdf[0].points = vec![(100.0, 1.0)];
    report.runs[0].headline_ms = Some(100.0);
    report.runs[0].headline_rank = Some(1);
    report.runs[0].ok_responses = 1;
    let svg = latency_over_time(&report, 0, &slug(&report, 0), Lang::En);
    assert_accessible_svg(&svg, "chart-latency-over-time-0-en");
    assert!(svg.contains(">10<") && svg.contains(">1,000<"), "100 sits between two decades");
    assert!(ecdf(&report, 0, &slug(&report, 0), Lang::En).contains("1st of 1 (maximum) = 100.00 ms"));
}

#[test]
fn the_same_report_gives_the_same_bytes() {
    let (a, b) = (fixture(), fixture());
    assert_eq!(headline_by_condition(&a, Lang::En), headline_by_condition(&b, Lang::En));
    assert_eq!(latency_over_time(&a, 6, &slug(&a, 6), Lang::Ja), latency_over_time(&b, 6, &slug(&b, 6), Lang::Ja));
    assert_eq!(ecdf(&a, 6, &slug(&a, 6), Lang::En), ecdf(&b, 6, &slug(&b, 6), Lang::En));
    assert_eq!(write_vs_completion(&a, Lang::En), write_vs_completion(&b, Lang::En));
    assert_eq!(tempfiles_over_time(&a, &[21, 22], Lang::En), tempfiles_over_time(&b, &[21, 22], Lang::En));
    assert_eq!(resources_over_time(&a, 25, Lang::En), resources_over_time(&b, 25, Lang::En));
}

#[test]
fn figure_ids_differ_by_chart_run_and_language() {
    let report = fixture();
    let ids: Vec<String> = [
        latency_over_time(&report, 1, &slug(&report, 1), Lang::En),
        latency_over_time(&report, 2, &slug(&report, 2), Lang::En),
        ecdf(&report, 1, &slug(&report, 1), Lang::En),
        ecdf(&report, 1, &slug(&report, 1), Lang::Ja),
    ]
    .iter()
    .map(|svg| svg.split("<title id=\"").nth(1).unwrap().split('"').next().unwrap().to_string())
    .collect();
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "{ids:?}");
}

#[test]
fn headline_chart_snapshot() {
    insta::assert_snapshot!(headline_by_condition(&fixture(), Lang::En));
}

#[test]
fn ecdf_snapshot() {
    insta::assert_snapshot!(ecdf(&fixture(), 7, &slug(&fixture(), 7), Lang::Ja));
}

/// The points of every `<polyline>` and of each subpath of every stroked `<path>` in an SVG, as
/// (x, y) pixel pairs (path data as `compact` writes it: `M x y` then relative `h`, `v`, `l`).
fn polylines(svg: &str) -> Vec<Vec<(f64, f64)>> {
    let mut lines: Vec<Vec<(f64, f64)>> = svg
        .split("<polyline")
        .skip(1)
        .filter_map(|rest| {
            let points = rest.split("points=\"").nth(1)?.split('"').next()?;
            Some(
                points
                    .split_whitespace()
                    .filter_map(|p| p.split_once(','))
                    .map(|(x, y)| (x.parse().unwrap(), y.parse().unwrap()))
                    .collect(),
            )
        })
        .collect();
    for rest in svg.split("<path").skip(1) {
        let tag = &rest[..rest.find('>').unwrap()];
        if !tag.contains("fill=\"none\"") {
            continue;
        }
        let Some(data) = tag.split(" d=\"").nth(1).and_then(|d| d.split('"').next()) else { continue };
        lines.extend(subpaths(data));
    }
    lines
}

/// The subpaths of path data of `M`, `h`, `v` and `l` commands.
fn subpaths(data: &str) -> Vec<Vec<(f64, f64)>> {
    let mut out: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut at = (0.0, 0.0);
    let mut chars = data.char_indices().peekable();
    while let Some((i, command)) = chars.next() {
        let mut end = data.len();
        while let Some(&(j, c)) = chars.peek() {
            if c.is_ascii_alphabetic() {
                end = j;
                break;
            }
            chars.next();
        }
        let numbers: Vec<f64> = data[i + 1..end].replace('-', " -").split_whitespace().map(|n| n.parse().unwrap()).collect();
        match command {
            'M' => {
                at = (numbers[0], numbers[1]);
                out.push(vec![at]);
            }
            'h' => at.0 += numbers[0],
            'v' => at.1 += numbers[0],
            'l' => at = (at.0 + numbers[0], at.1 + numbers[1]),
            other => panic!("unexpected path command {other} in {data}"),
        }
        if command != 'M' {
            out.last_mut().expect("a move first").push(at);
        }
    }
    out
}

#[test]
fn a_nominal_x_factor_draws_no_line_between_its_levels() {
    let mut report = fixture();
    // Ordered (0, 1, 2 downloads): each series' medians are joined across x.
    let slanted = |svg: &str| polylines(svg).iter().filter(|line| line.windows(2).any(|w| w[0].0 != w[1].0 && w[0].1 != w[1].1)).count();
    assert!(slanted(&headline_by_condition(&report, Lang::En)) > 0, "a numeric x joins its medians");
    // The same levels named (as servers or tools are): no line claims an order between them.
    for (level, name) in report.factors[1].levels.iter_mut().zip(["none", "one", "two"]) {
        level.value = name.to_string();
    }
    for lang in Lang::ALL {
        let svg = headline_by_condition(&report, lang);
        assert_eq!(slanted(&svg), 0, "{lang:?}: only vertical ranges and straight rules");
    }
}

/// The marks a reader can point at: each titled shape of the marks layers, with the link around
/// it (`None` outside any `<a>`), in drawing order.
fn pointed(svg: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    for layer in svg.split("<g class=\"marks\">").skip(1) {
        let mut href = None;
        let mut depth = 1;
        for line in layer.lines() {
            if line.starts_with("<g") {
                depth += 1;
            } else if line == "</g>" {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            } else if let Some(rest) = line.strip_prefix("<a href=\"") {
                href = rest.split('"').next().map(str::to_string);
            } else if line == "</a>" {
                href = None;
            } else if ["<circle", "<polyline", "<path", "<rect"].iter().any(|shape| line.starts_with(shape)) {
                let title = line.split("<title>").nth(1).and_then(|t| t.split("</title>").next()).unwrap_or("");
                out.push((title.to_string(), href.clone()));
            }
        }
    }
    out
}

#[test]
fn every_run_of_the_headline_chart_is_a_titled_link_to_its_page() {
    let report = fixture();
    let slugs = crate::render::paths::run_slugs(&report);
    for lang in Lang::ALL {
        let svg = headline_by_condition(&report, lang);
        let marks = pointed(&svg);
        for (run, result) in report.runs.iter().enumerate() {
            let href = format!("../runs/{}.html", slugs[run]);
            let value = format!("p95 = {} ms", crate::render::format::ms(result.headline_ms.unwrap()));
            let of_run: Vec<&(String, Option<String>)> = marks.iter().filter(|(_, h)| h.as_deref() == Some(href.as_str())).collect();
            assert_eq!(of_run.len(), 1, "{lang:?}: one mark links to {href}");
            assert!(
                of_run[0].0.contains(&result.run_id) && of_run[0].0.contains(&value),
                "{lang:?}: {:?} names {} and {value}",
                of_run[0].0,
                result.run_id
            );
        }
        // Per condition: its range line and its median, each titled, linking to its variance entry.
        for (c, condition) in report.conditions.iter().enumerate() {
            let href = format!("../variance.html#condition-{c}");
            let of_condition: Vec<&String> = marks.iter().filter(|(_, h)| h.as_deref() == Some(href.as_str())).map(|(t, _)| t).collect();
            assert_eq!(of_condition.len(), 2, "{lang:?}: condition {c}'s range and median");
            let median = format!("p95 = {} ms", crate::render::format::ms(condition.headline_ms.unwrap().median));
            assert!(of_condition.iter().any(|t| t.contains(&median)), "{lang:?}: {of_condition:?} has {median}");
        }
        assert!(marks.iter().all(|(title, _)| !title.is_empty()), "every mark has a title");
    }
}

#[test]
fn every_point_of_a_time_series_names_its_latency_and_links_to_its_run_page() {
    let report = fixture();
    let run = 6;
    let svg = latency_over_time(&report, run, &slug(&report, run), Lang::En);
    let marks = pointed(&svg);
    let series = report.figures.time_series[run].clone();
    assert_eq!(marks.len(), series.points.len(), "one mark per point drawn");
    let href = format!("../runs/{}.html", slug(&report, run));
    for ((title, link), &(t, latency)) in marks.iter().zip(&series.points) {
        assert_eq!(link.as_deref(), Some(href.as_str()));
        let (ms, s) = (crate::render::format::ms(latency), crate::render::format::decimal(t, 3));
        assert_eq!(title, &format!("sent at {s} s, {ms} ms"), "the chart's title names the run; a mark its own values");
    }
    assert!(
        svg.contains(&format!("<title id=\"chart-latency-over-time-{run}-en-title\">Latency over time: run {}", report.runs[run].run_id))
    );
    // The points are the marks, drawn once: no second, untitled dot per point.
    assert_eq!(svg.matches("<circle").count(), marks.len(), "{svg}");
    // A request without a 2xx response is named too: its status, or that none came.
    let mut report = report;
    report.figures.errors_over_time = vec![ErrorSeries::default(); report.runs.len()];
    report.figures.errors_over_time[run] = ErrorSeries {
        points: vec![ErrorPoint { t_s: 1.5, latency_ms: Some(2.0), status: 503 }, ErrorPoint { t_s: 2.5, latency_ms: None, status: 0 }],
        total: 2,
    };
    let with_errors = pointed(&latency_over_time(&report, run, &slug(&report, run), Lang::En));
    let titles: Vec<&str> = with_errors.iter().skip(series.points.len()).map(|(t, _)| t.as_str()).collect();
    assert_eq!(titles.len(), 2, "{with_errors:?}");
    assert!(
        titles[0].ends_with("sent at 1.500 s, status 503, 2.00 ms") && titles[1].ends_with("sent at 2.500 s, no response"),
        "{titles:?}"
    );
    let ja = pointed(&latency_over_time(&report, run, &slug(&report, run), Lang::Ja));
    assert!(ja.iter().all(|(title, _)| title.contains("送信")), "{:?}", ja.first());
}

#[test]
fn every_ecdf_line_names_its_run_and_values_and_links_to_its_page() {
    let mut report = fixture();
    for run in &mut report.runs {
        run.percentiles_ms = BTreeMap::from([("50".to_string(), 1.25), ("95".to_string(), run.headline_ms.unwrap())]).into();
    }
    let slugs = crate::render::paths::run_slugs(&report);
    for level in 0..3 {
        let svg = ecdf_by_condition(&report, level, false, &slugs, Lang::En).expect("a chart");
        let marks = pointed(&svg);
        let expected: Vec<usize> = report
            .layout
            .rows
            .iter()
            .filter_map(|row| row.cells[level])
            .filter_map(|c| report.run_index(report.conditions[c].representative_run.as_deref()?))
            .collect();
        assert_eq!(marks.len(), expected.len(), "one line per condition at level {level}");
        for ((title, href), run) in marks.iter().zip(expected) {
            assert_eq!(href.as_deref(), Some(format!("../runs/{}.html", slugs[run]).as_str()));
            let p95 = format!("p95 = {} ms", crate::render::format::ms(report.runs[run].headline_ms.unwrap()));
            assert!(title.contains(&report.runs[run].run_id) && title.contains(&p95) && title.contains("p50 = 1.25 ms"), "{title}");
        }
    }
    let one = pointed(&ecdf(&report, 7, &slug(&report, 7), Lang::En));
    assert_eq!(one.len(), 2, "the line and the marked rank: {one:?}");
    assert!(one.iter().all(|(title, href)| title.contains(&report.runs[7].run_id)
        && href.as_deref() == Some(format!("../runs/{}.html", slug(&report, 7)).as_str())));
    assert!(one[1].0.contains("69th of 72"), "{:?}", one[1]);
}

#[test]
fn the_headline_axis_is_linear_below_a_tenfold_spread_and_the_caption_says_so() {
    let mut report = fixture();
    let log = headline_by_condition(&report, Lang::En);
    assert!(log.contains("Log scale on the y axis"), "1.49 to 6,590 ms spans more than tenfold");
    assert!(log.contains(">1,000</text>") && log.contains("(ms, log scale)"));
    // app-servers-ab's requests/s: 700-800, a 10% gap between the servers.
    let scale = |v: f64| 700.0 + (v % 100.0);
    for run in &mut report.runs {
        run.headline_ms = run.headline_ms.map(scale);
    }
    for condition in &mut report.conditions {
        condition.headline_ms =
            condition.headline_ms.map(|s| Spread { median: scale(s.median), min: scale(s.min), max: scale(s.max), n: s.n });
    }
    let linear = headline_by_condition(&report, Lang::En);
    assert!(
        linear.contains("Linear scale on the y axis: its largest value is less than 10 times its smallest. The axis does not start at 0."),
        "{linear}"
    );
    assert!(linear.contains("p95 latency (ms)") && !linear.contains("log scale)"), "the axis title drops the log scale");
    assert!(linear.contains("linear y axis"), "the description says so too");
    assert!(!linear.contains(">1,000</text>"), "no decade ticks");
    let ja = headline_by_condition(&report, Lang::Ja);
    assert!(ja.contains("縦軸は等間隔の目盛：最大値が最小値の10倍未満のため。目盛は0から始まっていません。"), "{ja}");
}

#[test]
fn one_series_overlays_every_level_on_one_ecdf() {
    let mut report = fixture();
    // Only the direct route: one series, so the downloads are what is compared.
    report.layout.rows.truncate(1);
    let slugs = crate::render::paths::run_slugs(&report);
    let svg = ecdf_by_condition(&report, 0, true, &slugs, Lang::En).expect("a chart");
    assert_eq!(pointed(&svg).len(), 3, "one line per downloads level");
    assert!(svg.contains("each Concurrent 1 GiB downloads"), "{svg}");
    for level in ["(0)", "(1)", "(2)"] {
        assert!(svg.contains(level), "the legend names level {level}");
    }
}

#[test]
fn a_time_series_of_one_send_time_says_so_instead_of_an_empty_frame() {
    let mut report = fixture();
    // siege: 200 responses, no send times (all at 0 s), two latencies.
    report.figures.time_series[0] = TimeSeries { points: vec![(0.0, 0.0), (0.0, 10.0)], columns: Vec::new(), total: 200 };
    for (lang, words) in
        [(Lang::En, "No course over time to show: all 200 responses have one send time."), (Lang::Ja, "送信時刻がすべて同じです")]
    {
        let svg = latency_over_time(&report, 0, &slug(&report, 0), lang);
        assert!(svg.contains(words), "{svg}");
        assert!(!svg.contains("columns of send time") && !svg.contains("列にまとめて"), "no caption about what is not drawn");
        assert!(pointed(&svg).is_empty());
    }
    report.figures.time_series[0] = TimeSeries { points: vec![(0.0, 3.0)], columns: Vec::new(), total: 1 };
    assert!(latency_over_time(&report, 0, &slug(&report, 0), Lang::En).contains("No course over time to show: the run has one response."));
    // A run drawn in columns whose sends share one instant: one column of one send time.
    let one = TimeColumn { from_s: 0.0, to_s: 0.0, requests: 500, p50_ms: 1.0, p95_ms: 2.0, max_ms: 3.0, slowest_s: 0.0, send_times: 1 };
    report.figures.time_series[0] = TimeSeries { points: Vec::new(), columns: vec![one], total: 500 };
    assert!(latency_over_time(&report, 0, &slug(&report, 0), Lang::En).contains("all 500 responses have one send time"));
    report.figures.time_series[0] = TimeSeries { points: vec![(0.0, 3.0)], columns: Vec::new(), total: 1 };
    assert!(latency_over_time(&report, 0, &slug(&report, 0), Lang::En).contains("No course over time to show: the run has one response."));
    // Coinciding points of a run drawn whole (one response drawn on another) are not called a
    // reduction.
    report.figures.time_series[1].total += 1;
    let svg = latency_over_time(&report, 1, &slug(&report, 1), Lang::En);
    assert!(svg.contains("73 responses at 72 distinct points"), "{svg}");
}

#[test]
fn the_reference_label_sits_on_a_patch_no_gridline_shows_through() {
    let svg = latency_over_time(&fixture(), 6, &slug(&fixture(), 6), Lang::En);
    let label = svg.find(">p95 = ").expect("the reference label");
    let patch = svg[..label].rfind("<rect").expect("a patch before the label");
    assert!(svg[patch..label].contains("fill=\"#FFFFFF\""), "{}", &svg[patch..label]);
    assert_eq!(svg[patch..label].matches("<text").count(), 1, "the patch is right before the label");
}
