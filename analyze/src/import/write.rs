//! An [`ImportedRun`] becomes the next version of a dataset: a row of runs.csv, its requests in
//! requests.csv, the tool's printed numbers in run_stats.csv, its provenance in sources.csv, and
//! its source files under raw/<run_id>/ (with a dataset.toml when the import creates the dataset:
//! `kept.rs`).
//!
//! The whole dataset is staged beside it and swapped in with one exchange, under the lock of its
//! parent ([`outdir::update_folder`]): every table of the new version is written into the staged
//! copy (the other entries are carried over as hard links), the staged copy is checked by the very
//! code `analyze check` runs, and only then does it replace the dataset. A refused import, a kill
//! at any point, or a concurrent import never leaves a dataset that is neither the old one nor the
//! new one.

use super::error::ImportError;
use super::requests::{stage_requests, Requests};
use super::tables::{is_dataset_entry, Table, RUN_TABLES};
use super::text::unix_ns_to_rfc3339;
use super::{ImportErrors, ImportedRun};
use crate::dataset::csv::line as csv_line;
use crate::dataset::runs::RESERVED;
use crate::model::percentile_label;
use std::path::{Path, PathBuf};

/// The percentiles run_stats.csv has a column for, in thousandths of a percent.
pub const RUN_STATS_PERCENTILES: [u32; 12] =
    [10_000, 25_000, 50_000, 66_000, 75_000, 80_000, 90_000, 95_000, 98_000, 99_000, 99_900, 99_990];

/// The other percentiles a tool prints that run_stats.csv gets a column for when a run has one
/// (autocannon's p0.001 to p2.5, p97.5 and, with wrk2, p99.999), appended after the fixed
/// columns; every other printed percentile (ab -e's each percent) is not kept.
pub const RUN_STATS_EXTRA_PERCENTILES: [u32; 7] = [1, 10, 100, 1_000, 2_500, 97_500, 99_999];

/// The column of run_stats.csv for how many response times the tool ranked; tables written
/// before it existed get it, empty, when an import adds a row.
pub const RANKED: &str = request_row::columns::RUN_STATS_RANKED;

/// run_stats.csv's columns, in order (datasets/README.md documents each).
pub fn run_stats_columns() -> Vec<String> {
    let mut columns: Vec<String> = request_row::columns::RUN_STATS_LEADING.iter().map(|c| c.to_string()).collect();
    columns.extend(RUN_STATS_PERCENTILES.iter().map(|&p| percentile_column(p)));
    columns.push(RANKED.to_string());
    columns
}

/// `p95_ms`, `p99_9_ms`.
pub fn percentile_column(milli: u32) -> String {
    format!("p{}_ms", percentile_label(milli).replace('.', "_"))
}

/// sources.csv's columns.
pub const SOURCES_COLUMNS: [&str; 6] = ["run_id", "tool", "format", "version", "file", "sha256"];

/// A repetition the import chose, and why (`None` when `--repetition` gave it).
pub type ChosenRepetition = Option<String>;

/// What to import and where.
pub struct Target<'a> {
    pub dir: &'a Path,
    /// Trimmed, as every reader of the dataset reads run ids.
    pub run_id: &'a str,
    pub factors: &'a [(String, String)],
    /// `None`: the next free repetition of the run's condition.
    pub repetition: Option<i64>,
    /// From `--started-at`, checked against the files' own start when they record one.
    pub started_at: Option<&'a str>,
    pub replace: bool,
}

/// What an import did.
pub struct Outcome {
    /// The dataset's real path.
    pub dir: PathBuf,
    /// `N requests and the tool's printed numbers`, ...
    pub summary: String,
    pub repetition: i64,
    pub chosen: ChosenRepetition,
    /// What the import said about the start it wrote.
    pub started: String,
    /// Rows of the replaced run left out of each side table (resources.csv, ...).
    pub removed: Vec<(String, usize)>,
    /// What the import doubts but did (the same bytes as another run's file, a level one edit
    /// away from an existing one), each a sentence.
    pub doubts: Vec<String>,
    /// Which source files raw/<run_id>/ keeps.
    pub kept: String,
    /// Whether the import wrote dataset.toml (it created the dataset).
    pub wrote_manifest: bool,
}

/// Why an import was refused: its problems (exit 2), or the file system.
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    #[error(transparent)]
    Problems(#[from] ImportErrors),
    #[error(transparent)]
    Write(#[from] outdir::Error),
    /// The staged dataset would not pass `analyze check`: its first problem (places are in the
    /// dataset's tables as the import would write them), and how many more there are.
    #[error(
        "nothing was imported: the dataset would not pass `analyze check` after this import (the place below is in the dataset as this import would write it):\n  {first}{}",
        if *more > 0 { format!("\n  (and {more} more problem{} of the same dataset)", if *more == 1 { "" } else { "s" }) } else { String::new() }
    )]
    Check { first: String, more: u64 },
}

impl Refused {
    /// What `analyze check` said of the staged dataset, cut to its first problem: the others
    /// usually follow from it.
    fn check(error: anyhow::Error) -> Refused {
        match error.downcast_ref::<crate::dataset::LoadError>() {
            Some(crate::dataset::LoadError::Invalid(invalid)) if !invalid.errors.is_empty() => {
                Refused::Check { first: invalid.errors[0].to_string(), more: invalid.errors.len() as u64 - 1 + invalid.more }
            }
            _ => Refused::Check { first: format!("{error:#}"), more: 0 },
        }
    }
}

impl From<ImportError> for Refused {
    fn from(error: ImportError) -> Self {
        Refused::Problems(ImportErrors(vec![error]))
    }
}

fn number(value: Option<&super::Printed>) -> String {
    value.map(|v| v.value.to_string()).unwrap_or_default()
}

/// Imports `run` into the dataset of `target`: checks it against the dataset, stages the next
/// version, has `verify` (the checks of `analyze check`) pass on it, and swaps it in.
pub fn import(run: &ImportedRun, target: &Target, verify: &dyn Fn(&Path) -> anyhow::Result<()>) -> Result<Outcome, Refused> {
    let checked = match &run.rows {
        Some(rows) => {
            let file = run.rows_format.and_then(|f| run.files.iter().find(|s| s.format == f)).map_or(&run.files[0].name, |f| &f.name);
            let checked = Requests::check(rows, &run.labels).map_err(|(seq, violation)| {
                ImportError::file(file, format!("request {} (seq {seq}) is not a request: {violation}", seq + 1))
            })?;
            if let Some((name, why)) = checked.bad_label() {
                return Err(
                    ImportError::file(file, format!("the request name {:?} {why}", name.chars().take(80).collect::<String>())).into()
                );
            }
            Some(checked)
        }
        None => None,
    };
    let (started, started_said) = start_of(run, target)?;
    outdir::update_folder(target.dir, |update| {
        let entries = update.entries()?;
        refuse_foreign(update.path(), update.old(), &entries)?;
        let old = update.old();
        for stem in ["runs", "run_stats", "sources"] {
            if entries.iter().any(|e| *e == format!("{stem}.parquet")) {
                return Err(ImportError::file(
                    &format!("{stem}.csv"),
                    format!("this dataset keeps {stem} as Parquet; import writes CSV: convert it to {stem}.csv first"),
                )
                .into());
            }
        }
        if entries.iter().any(|e| e == "requests.parquet" || e == "requests") {
            return Err(ImportError::file("requests.csv", "this dataset keeps its requests as Parquet (requests.parquet or requests/); import writes CSV: convert it to requests.csv first").into());
        }
        if entries.iter().any(|e| e == crate::dataset::precomputed::MARKER) {
            return Err(ImportError::file(
                crate::dataset::precomputed::MARKER,
                "this dataset holds run-level tables computed elsewhere, not request rows: import into another dataset",
            )
            .into());
        }
        let runs = match old {
            Some(dir) => Table::read(dir, "runs.csv")?,
            None => None,
        };
        let existing = runs.as_ref().and_then(|t| t.of_run(target.run_id).next().map(|r| r.line));
        match (existing, target.replace) {
            (Some(line), false) => {
                return Err(ImportError::file(
                    "runs.csv",
                    format!("already has run {:?} (line {line}): choose another --run-id, or --replace it", target.run_id),
                )
                .into())
            }
            (None, true) => {
                return Err(ImportError::file(
                    "runs.csv",
                    format!("has no run {:?} to replace: --replace replaces a run of the dataset; leave it out to add one", target.run_id),
                )
                .into())
            }
            _ => {}
        }
        if target.replace {
            for stem in RUN_TABLES {
                if entries.iter().any(|e| *e == format!("{stem}.parquet")) {
                    return Err(ImportError::file(
                        &format!("{stem}.parquet"),
                        format!(
                            "may hold rows of run {:?}, and import cannot rewrite Parquet: convert it to {stem}.csv to --replace the run",
                            target.run_id
                        ),
                    )
                    .into());
                }
            }
        }
        let sources = match old {
            Some(dir) => Table::read(dir, "sources.csv")?,
            None => None,
        };
        let mut doubts = super::doubts::same_bytes(run, target.run_id, sources.as_ref());
        doubts.extend(super::doubts::near_levels(target.factors, target.run_id, runs.as_ref()));
        let (runs_bytes, repetition, chosen) = runs_table(run, target, runs.as_ref(), &started)?;
        // The tables this import writes (or leaves out, when no row is left); every other entry is
        // carried over as it is.
        let mut written = vec!["runs.csv".to_string(), "requests.csv".to_string(), "run_stats.csv".to_string(), "sources.csv".to_string()];
        update.write("runs.csv", &runs_bytes)?;
        stage_requests(update.staged(), old, target.run_id, existing.is_some(), checked.as_ref())?;
        if let Some(bytes) = run_stats_table(run, target, old)? {
            update.write("run_stats.csv", &bytes)?;
        }
        if let Some(bytes) = sources_table(run, target, old)? {
            update.write("sources.csv", &bytes)?;
        }
        written.push("tool_labels.csv".to_string());
        if let Some(bytes) = tool_labels_table(run, target, old)? {
            update.write("tool_labels.csv", &bytes)?;
        }
        let mut removed = Vec::new();
        for stem in ["large_responses", "tempfiles", "resources", "sessions"] {
            let file = format!("{stem}.csv");
            let Some(table) = old.map(|dir| Table::read(dir, &file)).transpose()?.flatten() else { continue };
            let gone = table.of_run(target.run_id).count();
            if gone > 0 {
                if let Some(bytes) = table.rewritten(target.run_id, b"") {
                    update.write(&file, &bytes)?;
                }
                written.push(file.clone());
                removed.push((file, gone));
            }
        }
        let wrote_manifest = runs.is_none() && !entries.iter().any(|e| e == "dataset.toml");
        if wrote_manifest {
            written.push("dataset.toml".to_string());
            update.write("dataset.toml", super::kept::manifest(run.tool, target.factors).as_bytes())?;
        }
        for entry in &entries {
            if !written.contains(entry) {
                update.carry(entry)?;
            }
        }
        let kept = super::kept::keep_sources(update.staged(), old, target.run_id, &run.files, target.replace)?.said;
        verify(update.staged()).map_err(Refused::check)?;
        let summary = match (&run.rows, &run.reported) {
            (Some(rows), Some(_)) => format!("{} requests and the tool's printed numbers", rows.len()),
            (Some(rows), None) => format!("{} requests", rows.len()),
            (None, Some(_)) => "the tool's printed numbers (no rows)".to_string(),
            (None, None) => "nothing".to_string(),
        };
        Ok(Outcome {
            dir: update.path().to_path_buf(),
            summary,
            repetition,
            chosen,
            started: started_said.clone(),
            removed,
            doubts,
            kept,
            wrote_manifest,
        })
    })
}

/// Refuses a folder that holds entries no dataset has (`--into` a folder of photos and a `.git`).
fn refuse_foreign(path: &Path, old: Option<&Path>, entries: &[String]) -> Result<(), Refused> {
    let Some(old) = old else { return Ok(()) };
    let foreign: Vec<&String> = entries.iter().filter(|e| !is_dataset_entry(e, old.join(e).is_dir())).collect();
    if foreign.is_empty() {
        return Ok(());
    }
    let shown: Vec<String> = foreign.iter().take(10).map(|f| crate::terminal::escape(f)).collect();
    let more = if foreign.len() > shown.len() { format!(", and {} more", foreign.len() - shown.len()) } else { String::new() };
    Err(ImportError::file(
        &path.display().to_string(),
        format!(
            "holds {} that no dataset has ({}{more}): --into names a dataset folder (datasets/README.md lists what one holds); choose another folder or move {} away",
            if foreign.len() == 1 { "an entry".to_string() } else { format!("{} entries", foreign.len()) },
            shown.join(", "),
            if foreign.len() == 1 { "it" } else { "them" }
        ),
    )
    .into())
}

/// The start runs.csv records: the files' own (to the second), else `--started-at`, else none.
/// A `--started-at` that differs from the files' start by more than both resolutions is refused.
fn start_of(run: &ImportedRun, target: &Target) -> Result<(String, String), ImportError> {
    let given = target.started_at.map(|t| (t, super::text::rfc3339_unix_ns(t).expect("checked by the command")));
    match (&run.started, given) {
        (Some(start), Some((text, given_ns))) => {
            // --started-at to the second (or finer when it has a fraction), the file to its own step.
            let given_step: i64 = match text.split_once('.') {
                Some((_, fraction)) => 10i64.pow(9u32.saturating_sub(fraction.bytes().take_while(u8::is_ascii_digit).count() as u32)),
                None => 1_000_000_000,
            };
            if (given_ns - start.unix_ns).abs() > start.step_ns + given_step {
                return Err(ImportError::file(
                    &start.at.file,
                    format!(
                        "records the run's start as {} (at {}), but --started-at says {text}: leave --started-at out, the file's start is used",
                        unix_ns_to_rfc3339(start.unix_ns),
                        start.at
                    ),
                ));
            }
            Ok((unix_ns_to_rfc3339(start.unix_ns), format!("started {} (from {})", unix_ns_to_rfc3339(start.unix_ns), start.at.file)))
        }
        (Some(start), None) => {
            Ok((unix_ns_to_rfc3339(start.unix_ns), format!("started {} (from {})", unix_ns_to_rfc3339(start.unix_ns), start.at.file)))
        }
        (None, Some((text, ns))) => Ok((unix_ns_to_rfc3339(ns), format!("started {text} (--started-at)"))),
        (None, None) => {
            Ok((String::new(), format!("start not recorded ({} output carries none; --started-at gives one)", run.tool.name())))
        }
    }
}

/// runs.csv with the run's row (in the replaced run's place), its repetition, and why it is that
/// repetition when the import chose it.
fn runs_table(
    run: &ImportedRun,
    target: &Target,
    runs: Option<&Table>,
    started: &str,
) -> Result<(Vec<u8>, i64, ChosenRepetition), ImportError> {
    let mut factor_names: Vec<&str> = target.factors.iter().map(|(k, _)| k.as_str()).collect();
    let header: Vec<String> = match runs {
        Some(table) => {
            for required in ["run_id", "repetition", "started_at_utc", "status"] {
                table.require(required)?;
            }
            let mut existing: Vec<&str> = table.columns.iter().map(String::as_str).filter(|c| !RESERVED.contains(c)).collect();
            existing.sort_unstable();
            factor_names.sort_unstable();
            if existing != factor_names {
                return Err(ImportError::file(
                    "runs.csv",
                    format!(
                        "its factors are [{}] but this import gives [{}]: give one --factor KEY=VALUE for each of the dataset's factors",
                        existing.join(", "),
                        factor_names.join(", ")
                    ),
                ));
            }
            table.columns.clone()
        }
        None => std::iter::once("run_id".to_string())
            .chain(target.factors.iter().map(|(k, _)| k.clone()))
            .chain(["repetition", "started_at_utc", "status", "note"].map(String::from))
            .collect(),
    };
    let (repetition, chosen) = repetition(target, runs)?;
    let note = crate::model::join_notes(&run.notes);
    let row: Vec<String> = header
        .iter()
        .map(|column| match column.as_str() {
            "run_id" => target.run_id.to_string(),
            "repetition" => repetition.to_string(),
            "started_at_utc" => started.to_string(),
            "status" => "ok".to_string(),
            "note" => note.clone(),
            other => target.factors.iter().find(|(k, _)| k == other).map(|(_, v)| v.clone()).unwrap_or_default(),
        })
        .collect();
    let line = csv_line(&row);
    let bytes = match runs {
        Some(table) => table.rewritten(target.run_id, line.as_bytes()).expect("the new row is kept"),
        None => (csv_line(&header) + &line).into_bytes(),
    };
    Ok((bytes, repetition, chosen))
}

/// The run's repetition: `--repetition`, refused when another `ok` run of the same condition has
/// it; else the next free one of the condition (1 for a new condition), said. Only an `ok` run holds
/// its repetition: an aborted one (measure keeps its row with the note of what went wrong) or an
/// excluded one leaves it free for the run that takes its place.
fn repetition(target: &Target, runs: Option<&Table>) -> Result<(i64, ChosenRepetition), ImportError> {
    let mut same: Vec<(i64, String, u64)> = Vec::new();
    if let Some(table) = runs {
        let (id, rep, status) = (table.require("run_id")?, table.require("repetition")?, table.require("status")?);
        let factor_columns: Vec<(usize, &str)> =
            target.factors.iter().filter_map(|(k, v)| table.column(k).map(|c| (c, v.as_str()))).collect();
        for record in &table.records {
            if record.get(id) == target.run_id || !factor_columns.iter().all(|(c, v)| record.get(*c) == *v) {
                continue;
            }
            if request_row::RunStatus::parse(record.get(status).trim()) != Some(request_row::RunStatus::Ok) {
                continue;
            }
            if let Ok(r) = record.get(rep).parse::<i64>() {
                same.push((r, record.get(id).to_string(), record.line));
            }
        }
    }
    let condition = target.factors.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", ");
    match target.repetition {
        Some(given) => match same.iter().find(|(r, _, _)| *r == given) {
            Some((_, other, line)) => Err(ImportError::file(
                "runs.csv",
                format!("run {other:?} (line {line}) is already repetition {given} of this condition ({condition}): give another --repetition, or leave it out for the next free one"),
            )),
            None => Ok((given, None)),
        },
        None if same.is_empty() => Ok((1, None)),
        None => {
            let next = same.iter().map(|(r, _, _)| *r).max().unwrap_or(0) + 1;
            Ok((next, Some(format!("repetition {next}: the next free one of its condition ({condition}), which has {} other run{}", same.len(), if same.len() == 1 { "" } else { "s" }))))
        }
    }
}

/// The percentile of an extra column of run_stats.csv (`p97_5_ms`): one the fixed columns lack.
fn extra_percentile(column: &str) -> Option<u32> {
    let label = column.strip_prefix('p')?.strip_suffix("_ms")?.replace('_', ".");
    crate::model::percentile_key(&label).filter(|p| !RUN_STATS_PERCENTILES.contains(p) && percentile_column(*p) == column)
}

/// run_stats.csv with the run's row (and without the replaced run's); `None` when no row is left.
/// Its columns are [`run_stats_columns`], then one `p<label>_ms` for each of
/// [`RUN_STATS_EXTRA_PERCENTILES`] a run printed, added when a run first needs it.
fn run_stats_table(run: &ImportedRun, target: &Target, old: Option<&Path>) -> Result<Option<Vec<u8>>, ImportError> {
    let base = run_stats_columns();
    let mut table = match old {
        Some(dir) => Table::read(dir, "run_stats.csv")?,
        None => None,
    };
    if let Some(t) = &table {
        let older: Vec<String> = base[..base.len() - 1].to_vec();
        if t.columns == older {
            table = Some(t.with_column(RANKED));
        }
    }
    let mut columns = base.clone();
    if let Some(t) = &table {
        let fits = t.columns.len() >= base.len()
            && t.columns[..base.len()] == base[..]
            && t.columns[base.len()..]
                .iter()
                .enumerate()
                .all(|(i, c)| extra_percentile(c).is_some() && !t.columns[base.len()..base.len() + i].contains(c));
        if !fits {
            return Err(ImportError::at(
                "run_stats.csv",
                1,
                1,
                format!("its header is not {}, then columns p<P>_ms of other percentiles", base.join(",")),
            ));
        }
        columns = t.columns.clone();
    }
    if let Some(r) = &run.reported {
        for &p in r.percentiles_ms.keys() {
            let column = percentile_column(p);
            if RUN_STATS_EXTRA_PERCENTILES.contains(&p) && !columns.contains(&column) {
                table = table.map(|t| t.with_column(&column));
                columns.push(column);
            }
        }
    }
    let line = match &run.reported {
        Some(r) => {
            let fields: Vec<String> = columns
                .iter()
                .map(|column| match column.as_str() {
                    "run_id" => target.run_id.to_string(),
                    "tool" => run.tool.name().to_string(),
                    "rule" => r.rule.name().to_string(),
                    "requests" => r.requests.as_ref().map(|v| v.value.to_string()).unwrap_or_default(),
                    "errors" => r.errors.as_ref().map(|v| v.value.to_string()).unwrap_or_default(),
                    "requests_per_s" => number(r.requests_per_s.as_ref()),
                    "min_ms" => number(r.min_ms.as_ref()),
                    "mean_ms" => number(r.mean_ms.as_ref()),
                    "max_ms" => number(r.max_ms.as_ref()),
                    RANKED => r.ranked.map(|v| v.to_string()).unwrap_or_default(),
                    other => {
                        let p = RUN_STATS_PERCENTILES
                            .iter()
                            .copied()
                            .find(|p| percentile_column(*p) == other)
                            .or_else(|| extra_percentile(other));
                        number(p.and_then(|p| r.percentiles_ms.get(&p)))
                    }
                })
                .collect();
            csv_line(&fields)
        }
        None => String::new(),
    };
    Ok(match table {
        Some(t) => t.rewritten(target.run_id, line.as_bytes()),
        None if line.is_empty() => None,
        None => Some((csv_line(&columns) + &line).into_bytes()),
    })
}

/// tool_labels.csv with the tool's per-name figures of the run (and without the replaced run's);
/// `None` when no row is left. Written only when the tool printed figures for more than one name:
/// one name is the whole run, which run_stats.csv already holds.
fn tool_labels_table(run: &ImportedRun, target: &Target, old: Option<&Path>) -> Result<Option<Vec<u8>>, ImportError> {
    use crate::dataset::tool_labels::COLUMNS;
    let table = match old {
        Some(dir) => Table::read(dir, "tool_labels.csv")?,
        None => None,
    };
    if let Some(t) = &table {
        if t.columns != COLUMNS {
            return Err(ImportError::at("tool_labels.csv", 1, 1, format!("its header is not {}", COLUMNS.join(","))));
        }
    }
    let labels = run.reported.as_ref().map_or(&[][..], |r| &r.labels[..]);
    let mut lines = String::new();
    if labels.len() > 1 {
        for label in labels {
            if let Err(why) = request_row::check_label(&label.label) {
                return Err(label.requests.at.error(format!("the request name {:?} {why}", label.label)));
            }
            let mut fields =
                vec![target.run_id.to_string(), label.label.clone(), label.requests.value.to_string(), label.errors.value.to_string()];
            fields.extend(crate::model::Percentile::BY_LABEL.iter().map(|p| number(label.percentiles_ms.get(&p.thousandths()))));
            fields.push(number(label.max_ms.as_ref()));
            lines.push_str(&csv_line(&fields));
        }
    }
    Ok(match table {
        Some(t) => t.rewritten(target.run_id, lines.as_bytes()),
        None if lines.is_empty() => None,
        None => Some((csv_line(&COLUMNS.map(String::from)) + &lines).into_bytes()),
    })
}

/// sources.csv with the run's files (and without the replaced run's).
fn sources_table(run: &ImportedRun, target: &Target, old: Option<&Path>) -> Result<Option<Vec<u8>>, ImportError> {
    let columns: Vec<String> = SOURCES_COLUMNS.map(String::from).to_vec();
    let table = match old {
        Some(dir) => Table::read(dir, "sources.csv")?,
        None => None,
    };
    if let Some(t) = &table {
        if t.columns != columns {
            return Err(ImportError::at("sources.csv", 1, 1, format!("its header is not {}", SOURCES_COLUMNS.join(","))));
        }
    }
    let mut lines = String::new();
    for file in &run.files {
        let name = Path::new(&file.name).file_name().map_or_else(|| file.name.clone(), |n| n.to_string_lossy().into_owned());
        lines.push_str(&csv_line(&[
            target.run_id.to_string(),
            run.tool.name().to_string(),
            file.format.name().to_string(),
            run.version.clone().unwrap_or_default(),
            name,
            file.sha256.clone(),
        ]));
    }
    Ok(match table {
        Some(t) => t.rewritten(target.run_id, lines.as_bytes()),
        None => Some((csv_line(&columns) + &lines).into_bytes()),
    })
}
