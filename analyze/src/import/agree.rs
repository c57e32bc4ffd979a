//! The files of one invocation must be of one run: one tool, each format once, at most one file of
//! rows, summaries that agree with each other within the precision each printed, and rows that
//! agree with the summary (their count, statuses, shortest and longest time, and the value at
//! each rank the tool's rule takes). Every refusal names both places. Then they are merged: for
//! each number, the file that printed it most finely.

use super::error::ImportError;
use super::reported::{Count, Place, Printed, ToolReported};
use super::{ab, ImportedRun, Labels, Piece, Row, SourceFile, Tool};
use crate::model::percentile_label;
use std::collections::BTreeMap;

/// Merges the pieces of one invocation, or says every way in which they do not agree.
pub fn merge(parsed: Vec<(SourceFile, Piece)>) -> Result<ImportedRun, Vec<ImportError>> {
    let tool = parsed[0].0.format.tool();
    if let Some((other, _)) = parsed.iter().find(|(f, _)| f.format.tool() != tool) {
        return Err(vec![ImportError::file(
            &other.name,
            format!(
                "is {} output but {} is {}: one import is one invocation of one tool",
                other.format.tool().name(),
                parsed[0].0.name,
                tool.name()
            ),
        )]);
    }
    for (i, (file, _)) in parsed.iter().enumerate() {
        if let Some((first, _)) = parsed[..i].iter().find(|(f, _)| f.format == file.format) {
            return Err(vec![ImportError::file(
                &file.name,
                format!("is a second {} file beside {}: one invocation writes one; import them as two runs", file.format, first.name),
            )]);
        }
    }
    let with_rows: Vec<&SourceFile> = parsed.iter().filter(|(_, p)| p.rows.is_some()).map(|(f, _)| f).collect();
    if with_rows.len() > 1 {
        return Err(vec![ImportError::file(
            &with_rows[1].name,
            format!("has one row per request, and so has {}: import them as two runs", with_rows[0].name),
        )]);
    }
    if let Some(problem) = locust_csv_beside_json(&parsed) {
        return Err(vec![problem]);
    }
    let summaries: Vec<&ToolReported> = parsed.iter().filter_map(|(_, p)| p.reported.as_ref()).collect();
    let mut problems = Vec::new();
    for (i, a) in summaries.iter().enumerate() {
        for b in &summaries[i + 1..] {
            problems.extend(disagreements(a, b));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let reported = finest(&summaries);
    if with_rows.is_empty() && reported.as_ref().is_none_or(|r| r.requests.is_none()) {
        return Err(vec![nothing_counted(tool, &parsed)]);
    }

    let mut run = ImportedRun {
        tool,
        version: None,
        started: None,
        rows: None,
        labels: Labels::default(),
        rows_format: with_rows.first().map(|f| f.format),
        reported,
        notes: Vec::new(),
        files: Vec::new(),
    };
    let mut rows_without_status = None;
    let mut unanswered_ms = Vec::new();
    let mut statuses = None;
    for (file, piece) in parsed {
        run.version = run.version.or(piece.version);
        run.started = match (run.started.take(), piece.started) {
            (Some(a), Some(b)) => Some(if b.unix_ns < a.unix_ns { b } else { a }),
            (a, b) => a.or(b),
        };
        if piece.rows.is_some() {
            run.rows = piece.rows;
            run.labels = piece.labels;
            unanswered_ms = piece.unanswered_ms;
            if piece.rows_without_status {
                rows_without_status = Some(file.name.clone());
            }
        }
        statuses = statuses.or(piece.statuses);
        for note in piece.notes {
            if !run.notes.contains(&note) {
                run.notes.push(note);
            }
        }
        run.files.push(file);
    }
    if let Some(rows_file) = rows_without_status {
        ab::give_status(&mut run, &rows_file).map_err(|e| vec![e])?;
    }
    if run.tool == Tool::Siege {
        super::siege::add_failed_requests(&mut run).map_err(|e| vec![e])?;
    }
    if let (Some(rows), Some(format)) = (&run.rows, run.rows_format) {
        let rows_file = run.files.iter().find(|f| f.format == format).map_or(String::new(), |f| f.name.clone());
        if let Some(reported) = &run.reported {
            problems.extend(rows_against_summary(rows, &unanswered_ms, &rows_file, format.latency_step_ms(), reported));
        }
        if let Some((counted, at)) = &statuses {
            problems.extend(rows_against_statuses(rows, &rows_file, counted, at));
        }
    }
    if problems.is_empty() {
        Ok(run)
    } else {
        Err(problems)
    }
}

/// Locust writes its `_stats.csv` once a second and its `--json` when the run ends, so the two of
/// one run disagree by the last second's requests (a real run: 2,054 in the CSV, 2,531 in the
/// JSON): they cannot both be the run's numbers.
fn locust_csv_beside_json(parsed: &[(SourceFile, Piece)]) -> Option<ImportError> {
    let of =
        |format: super::Format| parsed.iter().find(|(f, _)| f.format == format).and_then(|(_, p)| p.reported.as_ref()?.requests.clone());
    let (csv, json) = (of(super::Format::LocustStats)?, of(super::Format::LocustJson)?);
    (csv.value != json.value).then(|| {
        csv.at.error(format!(
            "{} requests here but {} at {}: Locust writes its _stats.csv once a second and its --json when the run ends, so they count different moments of one run; import one of them (the --json has the whole run)",
            csv.value, json.value, json.at
        ))
    })
}

/// The refusal of an invocation whose files count no request: what they hold, and which file of
/// the tool does.
fn nothing_counted(tool: Tool, parsed: &[(SourceFile, Piece)]) -> ImportError {
    let needed = match tool {
        Tool::Ab => "ab's stdout (ab ... > stdout.txt), which counts the requests",
        Tool::Locust => "Locust's PREFIX_stats.csv (--csv PREFIX) or its --json output, which count the requests",
        _ => "the tool's summary of the same run",
    };
    let names: Vec<&str> = parsed.iter().map(|(f, _)| f.name.as_str()).collect();
    ImportError::file(
        names[0],
        format!(
            "{} count{} no request (no rows, no printed request count): import {} with {needed}",
            names.join(" and "),
            if names.len() == 1 { "s" } else { "" },
            if names.len() == 1 { "it" } else { "them" }
        ),
    )
}

/// Whether two printed values of one quantity agree within the precision of both.
fn close(a: &Printed, b: &Printed) -> bool {
    let slack = (a.step + b.step) / 2.0;
    (a.value - b.value).abs() <= slack + 1e-9 * a.value.abs().max(b.value.abs()).max(1.0)
}

/// Every way two summaries of one invocation disagree.
fn disagreements(a: &ToolReported, b: &ToolReported) -> Vec<ImportError> {
    let mut problems = Vec::new();
    let counts = [("requests", &a.requests, &b.requests), ("errors", &a.errors, &b.errors)];
    for (what, x, y) in counts {
        if let (Some(x), Some(y)) = (x, y) {
            if x.value != y.value {
                problems.push(x.at.error(format!("{} {what} here but {} at {}: are these files of one run?", x.value, y.value, y.at)));
            }
        }
    }
    let values = [
        ("requests/s", &a.requests_per_s, &b.requests_per_s),
        ("the shortest time (ms)", &a.min_ms, &b.min_ms),
        ("the mean (ms)", &a.mean_ms, &b.mean_ms),
        ("the longest time (ms)", &a.max_ms, &b.max_ms),
        ("the duration (s)", &a.duration_s, &b.duration_s),
    ];
    for (what, x, y) in values {
        if let (Some(x), Some(y)) = (x, y) {
            if !close(x, y) {
                problems.push(x.at.error(format!("{what} is {} here but {} at {}: are these files of one run?", x.value, y.value, y.at)));
            }
        }
    }
    let n = a.ranked.or(b.ranked);
    problems.extend(percentiles_against(a, b, n));
    problems.extend(percentiles_against(b, a, n));
    problems
}

/// Each percentile `coarse` printed, against the values `fine` printed at the ranks around it
/// (both rules' ranks over `n` values): a file with the same values at the same ranks cannot
/// print a value outside them. Without `n`, only percentiles of one rule at one p are compared.
fn percentiles_against(coarse: &ToolReported, fine: &ToolReported, n: Option<u64>) -> Vec<ImportError> {
    let mut problems = Vec::new();
    for (&p, value) in &coarse.percentiles_ms {
        let bounds = match n.and_then(|n| coarse.rule.rank(p, n).map(|rank| (n, rank))) {
            Some((n, rank)) => {
                let ranked: Vec<(u64, &Printed)> =
                    fine.percentiles_ms.iter().filter_map(|(&q, v)| fine.rule.rank(q, n).map(|r| (r, v))).collect();
                let below = ranked.iter().filter(|(r, _)| *r <= rank).max_by_key(|(r, _)| *r).map(|(_, v)| *v);
                let above = ranked.iter().filter(|(r, _)| *r >= rank).min_by_key(|(r, _)| *r).map(|(_, v)| *v);
                (below, above)
            }
            None if coarse.rule == fine.rule => (fine.percentiles_ms.get(&p), fine.percentiles_ms.get(&p)),
            None => (None, None),
        };
        let slack = |other: &Printed| (value.step + other.step) / 2.0 + 1e-9 * value.value.abs().max(1.0);
        let low = bounds.0.filter(|lower| value.value < lower.value - slack(lower));
        let high = bounds.1.filter(|upper| value.value > upper.value + slack(upper));
        if let Some(other) = low.or(high) {
            problems.push(value.at.error(format!(
                "p{} = {} ms here, but {} ms at {} at the same or a {} rank: are these files of one run?",
                percentile_label(p),
                value.value,
                other.value,
                other.at,
                if low.is_some() { "lower" } else { "higher" }
            )));
        }
    }
    problems
}

/// The summaries merged: each number from the file that printed it most finely (they agree).
fn finest(summaries: &[&ToolReported]) -> Option<ToolReported> {
    let first = (*summaries.first()?).clone();
    let pick = |get: &dyn Fn(&ToolReported) -> Option<&Printed>| -> Option<Printed> {
        summaries.iter().filter_map(|s| get(s)).min_by(|a, b| a.step.total_cmp(&b.step)).cloned()
    };
    let count = |get: &dyn Fn(&ToolReported) -> Option<&Count>| summaries.iter().find_map(|s| get(s)).cloned();
    // One file's percentiles whole, with its rule: the finest, then the one with the most.
    let finest_table = summaries
        .iter()
        .filter(|s| !s.percentiles_ms.is_empty())
        .min_by(|a, b| {
            let step = |s: &ToolReported| s.percentiles_ms.values().map(|v| v.step).fold(f64::INFINITY, f64::min);
            step(a).total_cmp(&step(b)).then(b.percentiles_ms.len().cmp(&a.percentiles_ms.len()))
        })
        .copied();
    Some(ToolReported {
        rule: finest_table.map_or(first.rule, |t| t.rule),
        requests: count(&|s| s.requests.as_ref()),
        errors: count(&|s| s.errors.as_ref()),
        ranked: summaries.iter().find_map(|s| s.ranked),
        requests_per_s: pick(&|s| s.requests_per_s.as_ref()),
        min_ms: pick(&|s| s.min_ms.as_ref()),
        mean_ms: pick(&|s| s.mean_ms.as_ref()),
        max_ms: pick(&|s| s.max_ms.as_ref()),
        percentiles_ms: finest_table.map(|t| t.percentiles_ms.clone()).unwrap_or_default(),
        duration_s: pick(&|s| s.duration_s.as_ref()),
        rate_count: count(&|s| s.rate_count.as_ref()),
        labels: finest_table
            .filter(|t| !t.labels.is_empty())
            .or_else(|| summaries.iter().find(|s| !s.labels.is_empty()).copied())
            .map(|t| t.labels.clone())
            .unwrap_or_default(),
    })
}

/// The rows against the summary of the same run: as many responses as the tool ranked, the same
/// shortest, mean and longest time, and at each percentile the value of the rank the tool's rule
/// takes, within the precision of both. The times the tool recorded for requests without a
/// response (`unanswered_ms`: k6's) are ranked with the responses', as the tool ranked them.
fn rows_against_summary(rows: &[Row], unanswered_ms: &[f64], rows_file: &str, row_step: f64, reported: &ToolReported) -> Vec<ImportError> {
    let mut times: Vec<f64> = rows.iter().filter(|r| r.status != 0).filter_map(|r| r.latency_ms()).collect();
    times.extend_from_slice(unanswered_ms);
    let mut problems = Vec::new();
    let whole = |error: String| ImportError::file(rows_file, error);
    if let Some(ranked) = reported.ranked {
        let capped = ranked as usize > super::hey::MAX_RESULTS && times.len() == super::hey::MAX_RESULTS;
        if times.len() as u64 != ranked && !capped {
            let at = reported.requests.as_ref().map_or_else(|| "the summary".to_string(), |c| c.at.to_string());
            let counted = match unanswered_ms.len() {
                0 => format!("{} responses", times.len()),
                unanswered => format!("{} requests ({} with a response, {unanswered} without)", times.len(), times.len() - unanswered),
            };
            problems.push(whole(format!("has {counted} but the summary (at {at}) counts {ranked}: are they from the same run?")));
            return problems;
        }
    }
    if times.is_empty() {
        return problems;
    }
    times.sort_by(f64::total_cmp);
    let n = times.len() as u64;
    let agrees = |printed: &Printed, ours: f64| {
        (printed.value - ours).abs() <= (printed.step + row_step) / 2.0 + 1e-9 * printed.value.abs().max(1.0)
    };
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    let values = [
        ("shortest time", &reported.min_ms, times[0]),
        ("mean", &reported.mean_ms, mean),
        ("longest time", &reported.max_ms, times[times.len() - 1]),
    ];
    for (what, printed, ours) in values {
        if let Some(printed) = printed {
            if !agrees(printed, ours) {
                problems.push(printed.at.error(format!(
                    "the {what} is {} ms here, but {ours} ms in the rows of {rows_file}: are they from the same run?",
                    printed.value
                )));
            }
        }
    }
    for (&p, printed) in &reported.percentiles_ms {
        let Some(rank) = reported.rule.rank(p, n) else { continue };
        let ours = times[rank as usize - 1];
        if !agrees(printed, ours) {
            problems.push(printed.at.error(format!(
                "p{} = {} ms here, but the rows of {rows_file} have {ours} ms at rank {rank} of {n}, the rank {} takes: are they from the same run?",
                percentile_label(p),
                printed.value,
                reported.rule.name()
            )));
        }
    }
    problems
}

/// The rows' statuses against the responses per status the summary counted.
fn rows_against_statuses(rows: &[Row], rows_file: &str, counted: &BTreeMap<u16, u64>, at: &Place) -> Vec<ImportError> {
    let mut ours: BTreeMap<u16, u64> = BTreeMap::new();
    for row in rows.iter().filter(|r| r.status != 0) {
        *ours.entry(row.status).or_default() += 1;
    }
    let total: u64 = counted.values().sum();
    if total > super::hey::MAX_RESULTS as u64 && ours.values().sum::<u64>() == super::hey::MAX_RESULTS as u64 {
        // hey counts every response but keeps the first million rows.
        return Vec::new();
    }
    if &ours == counted {
        return Vec::new();
    }
    let list = |m: &BTreeMap<u16, u64>| m.iter().map(|(s, n)| format!("{s}: {n}")).collect::<Vec<_>>().join(", ");
    vec![ImportError::file(
        rows_file,
        format!(
            "its responses by status are {{{}}} but the summary (at {at}) counts {{{}}}: are they from the same run?",
            list(&ours),
            list(counted)
        ),
    )]
}
