//! Ingest and validation: a dataset folder becomes a [`Dataset`] whose invariants the statistics
//! rely on (known run ids, unique run ids and (run_id, seq), finite non-negative latencies,
//! every `ok` run with requests). This layer counts and collects; it computes no statistic.

pub mod csv;
pub mod error;
mod history;
pub mod manifest;
pub mod names;
pub mod number;
mod packed;
pub mod parquet;
pub mod requests;
pub mod table;

mod accumulate;
pub mod labels;
pub mod precomputed;
mod progress;
mod quiet_panic;
pub mod run_stats;
pub mod runs;
mod schema;
pub mod sessions;
mod side_tables;
mod slo;
pub mod time;
mod toml_errors;
pub mod tool_labels;

pub use accumulate::{ErrorRow, Keep, RunRequests};
pub use error::{DataError, InvalidDataset, Problems};
pub use manifest::{Manifest, ReportChoices};
pub use runs::{Factor, Level, Run};
pub use sessions::SessionRow;
pub use side_tables::{LargeResponse, ResourceSample, TempfileSample};

use crate::model::{Lang, RunStatus};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use table::{TableSource, TextTable};

/// A validated dataset.
#[derive(Debug)]
pub struct Dataset {
    /// The folder's name, used in links and file names.
    pub name: String,
    pub dir: PathBuf,
    pub manifest: Manifest,
    /// Factors in display order, each with its levels in display order.
    pub factors: Vec<Factor>,
    /// Runs in runs.csv order.
    pub runs: Vec<Run>,
    /// Per run (same index as `runs`): what requests.csv said about it, or, for a dataset of
    /// run-level tables, what run_stats and run_statuses say.
    pub requests: Vec<RunRequests>,
    /// What the pass over requests kept of each request.
    pub kept: Keep,
    /// Per run and per label, when the requests have a `label` column with more than one label.
    pub labels: Option<labels::Labels>,
    /// The request rows; `None` when level 1 was computed elsewhere (`level1`).
    pub requests_source: Option<TableSource>,
    /// Per-run statistics and chart inputs computed elsewhere (Spark), read instead of rows.
    pub level1: Option<precomputed::Level1>,
    pub large_responses: Option<Vec<LargeResponse>>,
    pub tempfiles: Option<Vec<TempfileSample>>,
    pub resources: Option<Vec<ResourceSample>>,
    /// sessions.csv: how each session of a ramped-session client ended.
    pub sessions: Option<Vec<SessionRow>>,
    /// Per run (same index as `runs`): its row of run_stats.csv, the numbers a tool printed.
    pub run_stats: Vec<Option<run_stats::RunStats>>,
    /// Per run: the files an imported run came from (sources.csv).
    pub sources: Vec<Option<run_stats::Source>>,
    /// The author's article per language: (file name, Markdown text).
    pub articles: BTreeMap<Lang, (String, String)>,
    /// README.md: how the data was measured, shown as the report's dataset page.
    pub readme: Option<String>,
    /// README.ja.md, the README in Japanese, when the dataset has one.
    pub readme_ja: Option<String>,
    /// plan.toml, parsed: the settings of the experiment, shown as the Setup table.
    pub plan: Option<toml::Table>,
}

/// Why a dataset could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("{0} is not a dataset folder (no such directory)")]
    NotAFolder(PathBuf),
    #[error(transparent)]
    Invalid(#[from] InvalidDataset),
    /// The staging copy of an import that did not finish: it may hold part of a run.
    #[error(transparent)]
    Unfinished(#[from] outdir::Unfinished),
}

/// Reads, validates and counts a dataset folder, keeping what the statistics need. Every
/// problem found is returned together.
pub fn load(dir: &Path) -> Result<Dataset, LoadError> {
    load_with(dir, Keep::Latencies)
}

/// [`load`], keeping of each request what `keep` says ([`Keep::Points`] for a report's charts).
///
/// While it reads, it holds a shared lock on the dataset's parent folder, which `analyze import`
/// holds exclusively while it swaps a new version of a dataset in: what is read is one version,
/// never the old runs.csv beside the new requests.csv. A folder that cannot be locked (a
/// read-only mount) is read without. The staging copy of an import that did not finish is refused
/// ([`outdir::unfinished`]), wherever it was moved: it may hold part of a run.
pub fn load_with(dir: &Path, keep: Keep) -> Result<Dataset, LoadError> {
    if let Some(unfinished) = outdir::unfinished(dir) {
        return Err(LoadError::Unfinished(unfinished));
    }
    let _one_version = dir.is_dir().then(|| outdir::read_lock(dir).ok()).flatten();
    load_unlocked(dir, keep)
}

/// [`load_with`] without the lock: for a folder nobody else writes while it is read (a staged
/// dataset, under the lock of the import that staged it).
pub fn load_unlocked(dir: &Path, keep: Keep) -> Result<Dataset, LoadError> {
    if !dir.is_dir() {
        return Err(LoadError::NotAFolder(dir.to_path_buf()));
    }
    let name = dir
        .canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "dataset".to_string());
    let mut problems = Problems::default();

    let (manifest, located) = read_manifest(dir, &mut problems);
    located.check_alone(&manifest, &mut problems);
    let runs_table = read_small_table(dir, "runs", true, &mut problems);
    let engine = precomputed::read_marker(dir, &mut problems);
    let level1_marked = engine.is_some() || dir.join(precomputed::MARKER).is_file();
    let requests_source = match TableSource::find_requests(dir, "requests") {
        Ok(Some(source)) if level1_marked => {
            let message = format!("is here beside {}: a dataset holds request rows or run-level tables, not both", precomputed::MARKER);
            problems.push(DataError::file(&source.file_name(), message));
            None
        }
        Ok(Some(source)) => Some(source),
        Ok(None) if level1_marked => None,
        Ok(None) => {
            problems.push(DataError::file("requests.csv", "is missing: every dataset needs one row per request"));
            None
        }
        Err(error) => {
            problems.push(error);
            None
        }
    };
    let Some(runs_table) = runs_table else {
        problems.into_result()?;
        unreachable!("a missing runs table is a problem");
    };
    let runs::ParsedRuns { factors, runs, rejected_ids, usable } = runs::parse_runs(&runs_table, &manifest, &mut problems);
    if usable {
        located.check_axes(&factors.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), &mut problems);
    }
    let index = requests::RunIndex::new(runs.iter().map(|r| r.run_id.as_str())).ignoring(rejected_ids.iter().map(String::as_str));

    let run_ids: BTreeMap<&str, usize> = runs.iter().enumerate().map(|(i, r)| (r.run_id.as_str(), i)).collect();
    let run_stats_table = read_small_table(dir, "run_stats", engine.is_some(), &mut problems);
    let mut run_stats = run_stats_table.as_ref().map(|t| run_stats::parse_run_stats(t, &run_ids, runs.len(), &mut problems));
    if let Some(table) = read_small_table(dir, "tool_labels", false, &mut problems) {
        match run_stats.as_mut() {
            Some(stats) => tool_labels::attach(&table, &run_ids, stats, &mut problems),
            None => problems.push(DataError::file(&table.file, "holds a tool's per-name figures, but the dataset has no run_stats table")),
        }
    }
    // Without trustworthy run ids every request would be blamed as unknown: fix runs.csv first.
    let (requests, level1) = match (&requests_source, &engine, &run_stats_table, &run_stats, usable) {
        (Some(source), _, _, _, true) => {
            let counted = guarded(source, &mut problems, |problems| accumulate::read_requests(source, &index, runs.len(), keep, problems))
                .unwrap_or_default();
            (counted, None)
        }
        (None, Some(engine), Some(table), Some(stats), true) => {
            let (counted, level1) =
                precomputed::load(dir, engine.clone(), &manifest, (&runs, &runs_table.file), (table, stats), &mut problems);
            (counted, Some(level1))
        }
        _ => (Vec::new(), None),
    };
    // A level-1 engine's run_stats are our own statistics (rows already reduced), not a tool's
    // printed numbers: only an import's run_stats are kept as the tool's.
    let run_stats = match (&engine, run_stats) {
        (None, Some(stats)) => stats,
        _ => vec![None; runs.len()],
    };
    let sources = read_small_table(dir, "sources", false, &mut problems)
        .map(|t| run_stats::parse_sources(&t, &run_ids, runs.len(), &mut problems))
        .unwrap_or_else(|| vec![None; runs.len()]);
    if requests.len() == runs.len() {
        for ((run, counted), stats) in runs.iter().zip(&requests).zip(&run_stats) {
            // A run imported from a tool's summary has its numbers in run_stats instead of rows.
            if run.status == RunStatus::Ok && counted.requests == 0 && stats.is_none() {
                problems.push(DataError::line(
                    &runs_table.file,
                    run.line,
                    format!("run {} has status ok but {}", error::shown(&run.run_id), no_requests_in(&requests_source)),
                ));
            }
        }
    }

    located.check_published(&runs.iter().map(|r| condition_id(&factors, &r.levels)).collect(), &mut problems);

    let large_responses = read_small_table(dir, "large_responses", false, &mut problems)
        .map(|t| side_tables::parse_large_responses(&t, &index, &mut problems));
    let tempfiles =
        read_small_table(dir, "tempfiles", false, &mut problems).map(|t| side_tables::parse_tempfiles(&t, &index, &mut problems));
    let resources =
        read_small_table(dir, "resources", false, &mut problems).map(|t| side_tables::parse_resources(&t, &index, &mut problems));
    let sessions = read_small_table(dir, "sessions", false, &mut problems).map(|t| {
        let rows = sessions::parse_sessions(&t, &index, manifest.session_steps().len(), &mut problems);
        if usable {
            sessions::check_every_ok_run_has_sessions(&runs, &runs_table.file, &t.file, &rows, &mut problems);
        }
        rows
    });
    located.check_sessions(sessions.is_some(), &mut problems);
    if usable {
        slo::check(&manifest, &factors, &runs, sessions.is_some(), &mut problems);
        history::check(&manifest, &mut problems);
    }
    let articles = read_articles(dir, &mut problems);
    let readme = read_text(dir, "README.md", &mut problems);
    let readme_ja = read_text(dir, "README.ja.md", &mut problems);
    let plan = read_text(dir, "plan.toml", &mut problems).and_then(|text| match text.parse::<toml::Table>() {
        Ok(table) => Some(table),
        Err(error) => {
            let line = error.span().map_or(1, |span| text[..span.start.min(text.len())].matches('\n').count() as u64 + 1);
            problems.push(DataError::line("plan.toml", line, error.message().trim().to_string()));
            None
        }
    });

    // The per-label pass reads only rows the first pass found good.
    let labels = match (&requests_source, usable && problems.is_empty()) {
        (Some(source), true) => guarded(source, &mut problems, |problems| labels::read(source, &index, runs.len(), problems)).flatten(),
        _ => None,
    };
    problems.into_result()?;
    Ok(Dataset {
        labels,
        name,
        dir: dir.to_path_buf(),
        manifest,
        factors,
        runs,
        requests,
        kept: keep,
        requests_source,
        level1,
        large_responses,
        tempfiles,
        resources,
        sessions,
        run_stats,
        sources,
        articles,
        readme,
        readme_ja,
        plan,
    })
}

/// The id of the condition with these levels, as [`crate::model::condition_id`] spells it: for
/// the report and for dataset.toml's published values alike.
pub fn condition_id(factors: &[runs::Factor], levels: &[usize]) -> String {
    crate::model::condition_id(factors.iter().zip(levels).map(|(f, &l)| (f.name.as_str(), f.levels[l].value.as_str())))
}

fn no_requests_in(source: &Option<TableSource>) -> String {
    // Without rows, a run's requests are counted in run_stats.
    source.as_ref().map_or_else(|| "0 requests in run_stats".to_string(), |s| format!("no rows in {}", s.file_name()))
}

fn read_manifest(dir: &Path, problems: &mut Problems) -> (Manifest, schema::Located) {
    let path = dir.join("dataset.toml");
    let absent = || (Manifest::default(), schema::Located::absent());
    match table::present(&path) {
        Ok(true) => {}
        Ok(false) => return absent(),
        Err(error) => {
            problems.push(error);
            return absent();
        }
    }
    let text = match std::fs::read(&path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(error) => {
                problems.push(invalid_utf8("dataset.toml", error.as_bytes()));
                return absent();
            }
        },
        Err(error) => {
            problems.push(DataError::file("dataset.toml", format!("cannot be read: {error}")));
            return absent();
        }
    };
    match Manifest::parse(&text) {
        Ok(manifest) => {
            let located = schema::Located::new(&text);
            (manifest, located)
        }
        Err(error) => {
            let message = error.message;
            problems.push(match error.place {
                Some((line, column)) => DataError::at("dataset.toml", line, column, message),
                None => DataError::file("dataset.toml", message),
            });
            absent()
        }
    }
}

/// A text file that is not UTF-8, with the line and column of its first bad byte.
fn invalid_utf8(file: &str, bytes: &[u8]) -> DataError {
    match csv::first_invalid_utf8(bytes) {
        Some((line, column, _)) => DataError::at(file, line, column, "a byte that is not UTF-8 (save the file as UTF-8)"),
        None => DataError::file(file, "is not valid UTF-8"),
    }
}

/// Reads `stem.csv` or `stem.parquet` as text cells; `None` when it is absent (a problem when
/// `required`) or unreadable (always a problem). A table without rows is a problem.
fn read_small_table(dir: &Path, stem: &str, required: bool, problems: &mut Problems) -> Option<TextTable> {
    let table = read_table(dir, stem, required, problems);
    if let Some(table) = &table {
        table.check_not_empty(problems);
    }
    table
}

/// [`read_small_table`] for a table that may have no rows (a run-level table of error marks when
/// no run had an error).
fn read_table(dir: &Path, stem: &str, required: bool, problems: &mut Problems) -> Option<TextTable> {
    let source = match TableSource::find(dir, stem) {
        Ok(Some(source)) => source,
        Ok(None) => {
            if required {
                problems.push(DataError::file(&format!("{stem}.csv"), "is missing: every dataset needs one"));
            }
            return None;
        }
        Err(error) => {
            problems.push(error);
            return None;
        }
    };
    let file = source.file_name();
    match &source {
        TableSource::Csv(path) => match std::fs::read(path) {
            Ok(bytes) => TextTable::parse_csv(&file, &bytes, problems),
            Err(error) => {
                problems.push(DataError::file(&file, format!("cannot be read: {error}")));
                None
            }
        },
        TableSource::Parquet(path) => guarded(&source, problems, |problems| parquet::read_text_table(path, &file, problems)).flatten(),
        TableSource::ParquetFolder(_) => {
            problems.push(DataError::file(&file, "is a folder: only the requests may be a folder of Parquet files"));
            None
        }
    }
}

/// Runs a reader of `source`, turning a panic inside it into a problem of that file. The parquet
/// crate panics on some damaged files (an unwrap in its footer parser, an index in its dictionary
/// decoder); a damaged file is bad input, which deserves its message and exit status 2, not a crash.
fn guarded<T>(source: &TableSource, problems: &mut Problems, read: impl FnOnce(&mut Problems) -> T) -> Option<T> {
    let mut found = Problems::default();
    let outcome = quiet_panic::catch(|| read(&mut found));
    problems.extend(found);
    match outcome {
        Ok(value) => Some(value),
        Err(_) => {
            problems.push(DataError::file(&source.file_name(), "cannot be read: the file is damaged (the Parquet reader gave up on it)"));
            None
        }
    }
}

/// An optional UTF-8 text file of the dataset; a problem when it exists but cannot be read.
fn read_text(dir: &Path, file: &str, problems: &mut Problems) -> Option<String> {
    let path = dir.join(file);
    if !path.is_file() {
        return None;
    }
    match std::fs::read(&path).map(String::from_utf8) {
        Ok(Ok(text)) => Some(text),
        Ok(Err(_)) => {
            problems.push(DataError::file(file, "is not valid UTF-8"));
            None
        }
        Err(error) => {
            problems.push(DataError::file(file, format!("cannot be read: {error}")));
            None
        }
    }
}

fn read_articles(dir: &Path, problems: &mut Problems) -> BTreeMap<Lang, (String, String)> {
    let mut articles = BTreeMap::new();
    for lang in Lang::ALL {
        let file = match lang {
            Lang::En => "article.md".to_string(),
            other => format!("article.{}.md", other.code()),
        };
        let path = dir.join(&file);
        match table::present(&path) {
            Ok(true) => {}
            Ok(false) => continue,
            Err(error) => {
                problems.push(error);
                continue;
            }
        }
        match std::fs::read(&path).map(String::from_utf8) {
            Ok(Ok(text)) => {
                articles.insert(lang, (file, text));
            }
            Ok(Err(error)) => problems.push(invalid_utf8(&file, error.as_bytes())),
            Err(error) => problems.push(DataError::file(&file, format!("cannot be read: {error}"))),
        }
    }
    articles
}
