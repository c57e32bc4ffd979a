//! Prints what `analyze report` would draw for a dataset, as JSON: per run, the time series
//! (its points, or its columns of send time), the ECDF points and the error marks, with their
//! totals.
//!
//! The Spark job (spark/analyze_level1.py) reduces chart inputs the way analyze does; its tests
//! compare its tables with this output value by value. Usage: `chart_inputs DATASET`.

use analyze::report::{PointSeries, TimeSeries};
use analyze::stats::{self, Detail};
use anyhow::{Context, Result};
use serde_json::{json, Value};
use std::path::PathBuf;

fn series(s: &PointSeries) -> Value {
    json!({ "points": s.points, "total": s.total })
}

/// A time series: its points, or per column [column index, requests, p50_ms, p95_ms, max_ms,
/// slowest_t_s, send_times] (the run_bands columns; the index is the column its middle falls in:
/// a send time at a column's very start may round into the column before).
fn time_series(s: &TimeSeries, last_sent_s: f64) -> Value {
    let columns: Vec<Value> = s
        .columns
        .iter()
        .map(|c| {
            let index = analyze::stats::bands::column_of((c.from_s + c.to_s) / 2.0, last_sent_s);
            json!([index, c.requests, c.p50_ms, c.p95_ms, c.max_ms, c.slowest_s, c.send_times])
        })
        .collect();
    json!({ "points": s.points, "columns": columns, "total": s.total })
}

fn main() -> Result<()> {
    let dir: PathBuf = std::env::args_os().nth(1).context("usage: chart_inputs DATASET")?.into();
    let mut dataset = analyze::dataset::load_with(&dir, analyze::dataset::Keep::Points)?;
    let report = stats::build(&mut dataset, Detail::WithFigures);
    let figures = &report.figures;
    let runs: Vec<Value> = report
        .runs
        .iter()
        .enumerate()
        .map(|(i, run)| {
            let errors = &figures.errors_over_time[i];
            json!({
                "run_id": run.run_id,
                "time_series": time_series(&figures.time_series[i], dataset.requests[i].last_sent_ms.unwrap_or(0.0) / 1000.0),
                "ecdf": series(&figures.ecdf[i]),
                "errors": {
                    "points": errors.points.iter().map(|p| json!([p.t_s, p.latency_ms, p.status])).collect::<Vec<_>>(),
                    "total": errors.total,
                },
            })
        })
        .collect();
    println!("{}", serde_json::to_string(&json!({ "runs": runs }))?);
    Ok(())
}
