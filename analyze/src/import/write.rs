//! An [`ImportedRun`] becomes dataset files: a row of runs.csv, its requests in requests.csv,
//! the tool's printed numbers in run_stats.csv, and its provenance in sources.csv.
//!
//! Everything is checked and every new file is built in memory (or, for requests.csv, in a
//! temporary file beside it) before the first rename, so a refused import changes nothing.

use super::decimal;
use super::text::unix_ms_to_rfc3339;
use super::{ImportError, ImportedRun, Row};
use crate::dataset::error::Problems;
use crate::dataset::requests::{RawRequest, COLUMNS as REQUEST_COLUMNS};
use crate::dataset::runs::RESERVED;
use crate::dataset::table::TextTable;
use crate::model::percentile_label;
use anyhow::{Context as _, Result};
use std::io::{BufRead as _, BufWriter, Write as _};
use std::path::{Path, PathBuf};

/// The percentiles run_stats.csv has a column for, in thousandths of a percent.
pub const RUN_STATS_PERCENTILES: [u32; 12] =
    [10_000, 25_000, 50_000, 66_000, 75_000, 80_000, 90_000, 95_000, 98_000, 99_000, 99_900, 99_990];

/// run_stats.csv's columns, in order (datasets/README.md documents each).
pub fn run_stats_columns() -> Vec<String> {
    let mut columns: Vec<String> =
        ["run_id", "tool", "rule", "requests", "errors", "requests_per_s", "min_ms", "mean_ms", "max_ms"].map(String::from).to_vec();
    columns.extend(RUN_STATS_PERCENTILES.iter().map(|&p| percentile_column(p)));
    columns
}

/// `p95_ms`, `p99_9_ms`.
pub fn percentile_column(milli: u32) -> String {
    format!("p{}_ms", percentile_label(milli).replace('.', "_"))
}

/// sources.csv's columns.
pub const SOURCES_COLUMNS: [&str; 6] = ["run_id", "tool", "format", "version", "file", "sha256"];

/// What to import and where.
pub struct Target<'a> {
    pub dir: &'a Path,
    pub run_id: &'a str,
    pub factors: &'a [(String, String)],
    pub repetition: i64,
    /// From `--started-at`, used when the files carry no start time.
    pub started_at: Option<&'a str>,
    pub replace: bool,
}

/// The files an import will write, checked and ready.
pub struct Plan {
    /// Small files, whole.
    small: Vec<(PathBuf, Vec<u8>)>,
    /// requests.csv, staged beside the target.
    requests: Option<(tempfile::NamedTempFile, PathBuf)>,
    pub summary: String,
}

fn csv_field(value: &str) -> String {
    if value.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value.to_string()
    }
}

fn csv_line(fields: &[String]) -> String {
    let mut line = fields.iter().map(|f| csv_field(f)).collect::<Vec<_>>().join(",");
    line.push('\n');
    line
}

fn number(value: Option<f64>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

/// A small table of the dataset, its lines kept as they are except the replaced run's.
struct Small {
    header: Vec<String>,
    /// The text of every line but the replaced run's (and a final newline ensured).
    kept: String,
    /// The line of the existing row of this run id, if any.
    existing: Option<u64>,
}

fn read_small(dir: &Path, file: &str, run_id: &str) -> Result<Option<Small>, ImportError> {
    let path = dir.join(file);
    let stem = file.trim_end_matches(".csv");
    if dir.join(format!("{stem}.parquet")).exists() {
        return Err(ImportError::file(
            file,
            format!("this dataset keeps {stem} as Parquet; import writes CSV: convert it to {file} first"),
        ));
    }
    if !path.exists() {
        return Ok(None);
    }
    let bytes = std::fs::read(&path).map_err(|e| ImportError::file(file, format!("cannot be read: {e}")))?;
    let mut problems = Problems::default();
    let table = TextTable::parse_csv(file, &bytes, &mut problems);
    if let Some(first) = problems.errors().first() {
        return Err(ImportError::file(file, format!("is not valid: {first} (run analyze check)")));
    }
    let table = table.ok_or_else(|| ImportError::file(file, "is not valid (run analyze check)"))?;
    let id = table.columns.iter().position(|c| c == "run_id").ok_or_else(|| ImportError::at(file, 1, 1, "has no run_id column"))?;
    let mut existing = None;
    let mut skip = Vec::new();
    for row in &table.rows {
        if row.cells[id].trim() == run_id {
            existing.get_or_insert(row.place);
            skip.push(row.place);
        }
    }
    let text = String::from_utf8(bytes).expect("checked by parse_csv");
    let mut kept = String::with_capacity(text.len() + 256);
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if !skip.contains(&(i as u64 + 1)) {
            kept.push_str(line);
        }
    }
    if !kept.is_empty() && !kept.ends_with('\n') {
        kept.push('\n');
    }
    Ok(Some(Small { header: table.columns, kept, existing }))
}

/// Checks the run against the dataset and builds every file; writes nothing.
pub fn plan(run: &ImportedRun, target: &Target) -> Result<Plan, ImportError> {
    let run_id = target.run_id;
    let dir = target.dir;
    // runs.csv
    let mut factor_names: Vec<&str> = target.factors.iter().map(|(k, _)| k.as_str()).collect();
    let fresh_runs: Vec<String> = std::iter::once("run_id".to_string())
        .chain(factor_names.iter().map(|s| s.to_string()))
        .chain(["repetition", "started_at_utc", "status", "note"].map(String::from))
        .collect();
    let runs = read_small(dir, "runs.csv", run_id)?;
    if let Some(small) = &runs {
        if let (Some(line), false) = (small.existing, target.replace) {
            return Err(ImportError::file(
                "runs.csv",
                format!("already has run {run_id:?} (line {line}): choose another --run-id, or --replace it"),
            ));
        }
        for required in ["run_id", "repetition", "started_at_utc", "status"] {
            if !small.header.iter().any(|c| c == required) {
                return Err(ImportError::at("runs.csv", 1, 1, format!("has no `{required}` column")));
            }
        }
        let mut existing: Vec<&str> = small.header.iter().map(String::as_str).filter(|c| !RESERVED.contains(c)).collect();
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
    }
    let started = match (run.started_unix_ms, target.started_at) {
        (_, Some(given)) => given.to_string(),
        (Some(ms), None) => unix_ms_to_rfc3339(ms),
        (None, None) => {
            return Err(ImportError::file(
                &run.files[0].name,
                format!("{} output carries no start time: give the run's start with --started-at 2026-11-30T04:05:06Z", run.tool.name()),
            ))
        }
    };
    let header = runs.as_ref().map_or(fresh_runs, |s| s.header.clone());
    let note = run.notes.join("; ");
    let row: Vec<String> = header
        .iter()
        .map(|column| match column.as_str() {
            "run_id" => run_id.to_string(),
            "repetition" => target.repetition.to_string(),
            "started_at_utc" => started.clone(),
            "status" => "ok".to_string(),
            "note" => note.clone(),
            other => target.factors.iter().find(|(k, _)| k == other).map(|(_, v)| v.clone()).unwrap_or_default(),
        })
        .collect();
    let mut runs_text = runs.as_ref().map_or_else(|| csv_line(&header), |s| s.kept.clone());
    runs_text.push_str(&csv_line(&row));
    let mut small = vec![(dir.join("runs.csv"), runs_text.into_bytes())];

    // run_stats.csv: kept in step (a replaced run loses its old row even when the new has none).
    let stats_columns = run_stats_columns();
    let stats = read_small(dir, "run_stats.csv", run_id)?;
    if let Some(s) = &stats {
        if s.header != stats_columns {
            return Err(ImportError::at("run_stats.csv", 1, 1, format!("its header is not {}", stats_columns.join(","))));
        }
    }
    if run.reported.is_some() || stats.is_some() {
        let mut text = stats.as_ref().map_or_else(|| csv_line(&stats_columns), |s| s.kept.clone());
        if let Some(r) = &run.reported {
            let mut fields = vec![
                run_id.to_string(),
                run.tool.name().to_string(),
                r.rule.name().to_string(),
                r.requests.map(|v| v.to_string()).unwrap_or_default(),
                r.errors.map(|v| v.to_string()).unwrap_or_default(),
                number(r.requests_per_s),
                number(r.min_ms),
                number(r.mean_ms),
                number(r.max_ms),
            ];
            fields.extend(RUN_STATS_PERCENTILES.iter().map(|p| number(r.percentiles_ms.get(p).copied())));
            text.push_str(&csv_line(&fields));
        }
        small.push((dir.join("run_stats.csv"), text.into_bytes()));
    }

    // sources.csv
    let source_columns: Vec<String> = SOURCES_COLUMNS.map(String::from).to_vec();
    let sources = read_small(dir, "sources.csv", run_id)?;
    if let Some(s) = &sources {
        if s.header != source_columns {
            return Err(ImportError::at("sources.csv", 1, 1, format!("its header is not {}", SOURCES_COLUMNS.join(","))));
        }
    }
    let mut text = sources.as_ref().map_or_else(|| csv_line(&source_columns), |s| s.kept.clone());
    for file in &run.files {
        let name = Path::new(&file.name).file_name().map_or_else(|| file.name.clone(), |n| n.to_string_lossy().into_owned());
        text.push_str(&csv_line(&[
            run_id.to_string(),
            run.tool.name().to_string(),
            file.format.name().to_string(),
            run.version.clone().unwrap_or_default(),
            name,
            file.sha256.clone(),
        ]));
    }
    small.push((dir.join("sources.csv"), text.into_bytes()));

    let checked = match &run.rows {
        Some(rows) => Some(Requests::check(rows).map_err(|(seq, violation)| {
            let file = run.files.iter().find(|f| f.format.has_rows()).map_or(&run.files[0].name, |f| &f.name);
            ImportError::file(file, format!("request {} (seq {seq}) is not a request: {violation}", seq + 1))
        })?),
        None => None,
    };
    let requests = stage_requests(dir, run_id, checked.as_ref(), target.replace, runs.as_ref().and_then(|r| r.existing).is_some())?;

    let summary = match (&run.rows, &run.reported) {
        (Some(rows), Some(_)) => format!("{} requests and the tool's printed numbers", rows.len()),
        (Some(rows), None) => format!("{} requests", rows.len()),
        (None, Some(_)) => "the tool's printed numbers (no rows)".to_string(),
        (None, None) => "nothing".to_string(),
    };
    Ok(Plan { small, requests, summary })
}

/// The request rows of one run, every one checked against the request-row contract.
pub struct Requests<'a> {
    rows: &'a [Row],
    /// The earliest send, which becomes 0.
    origin: f64,
}

impl<'a> Requests<'a> {
    /// Checks every row with `request_row::check`, the rule every reader applies; the error is the
    /// first row that breaks it, with its seq.
    pub fn check(rows: &'a [Row]) -> Result<Self, (usize, request_row::Violation)> {
        let origin = rows.iter().filter_map(|r| r.sent_ms).fold(f64::INFINITY, f64::min);
        let requests = Requests { rows, origin };
        for seq in 0..rows.len() {
            let raw = requests.raw(seq);
            // `plausible` is `check` in a few comparisons (property-tested in request-row).
            if !request_row::plausible(raw.latency_ms, raw.status, raw.scheduled_ms, raw.sent_ms, raw.body_bytes) {
                request_row::check(&raw).map_err(|v| (seq, v))?;
            }
        }
        Ok(requests)
    }

    /// Row `seq` as the contract's values: seq in the run's order, send times from the first
    /// send, scheduled = sent (these tools do not schedule), no latency without a response.
    fn raw(&self, seq: usize) -> RawRequest {
        let row = &self.rows[seq];
        // Rounded to the nanosecond, the finest any tool records, so that 0.8 - 0.2 is 0.6.
        // Rows without a send time (siege -v) are at 0: the run's note says so.
        let sent = row.sent_ms.map_or(0.0, |s| ((s - self.origin) * 1e6).round() / 1e6);
        RawRequest {
            seq: seq as i64,
            scheduled_ms: sent,
            sent_ms: sent,
            latency_ms: row.latency_ms,
            status: i64::from(row.status),
            body_bytes: row.body_bytes.map(|b| b as i64),
        }
    }

    /// Every row as the contract's values, in seq order.
    pub fn raw_requests(&self) -> impl Iterator<Item = RawRequest> + '_ {
        (0..self.rows.len()).map(|seq| self.raw(seq))
    }
}

/// requests.csv lines of checked rows, in [`REQUEST_COLUMNS`] order; numbers as `Display`
/// writes them ([`decimal`]).
pub fn request_lines(run_id: &str, rows: impl Iterator<Item = RawRequest>, out: &mut impl std::io::Write) -> std::io::Result<()> {
    let id = csv_field(run_id);
    let mut block = Vec::with_capacity(1 << 16);
    for raw in rows {
        block.extend_from_slice(id.as_bytes());
        block.push(b',');
        decimal::push_int(&mut block, raw.seq);
        block.push(b',');
        let scheduled = block.len();
        decimal::push(&mut block, raw.scheduled_ms);
        block.push(b',');
        if raw.sent_ms.to_bits() == raw.scheduled_ms.to_bits() {
            // The same number (these tools do not schedule): its text once more.
            block.extend_from_within(scheduled..);
        } else {
            decimal::push(&mut block, raw.sent_ms);
            block.push(b',');
        }
        if let Some(latency) = raw.latency_ms {
            decimal::push(&mut block, latency);
        }
        block.push(b',');
        decimal::push_int(&mut block, raw.status);
        block.push(b',');
        if let Some(bytes) = raw.body_bytes {
            decimal::push_int(&mut block, bytes);
        }
        block.push(b'\n');
        if block.len() >= (1 << 16) - 256 {
            out.write_all(&block)?;
            block.clear();
        }
    }
    out.write_all(&block)
}

fn stage_requests(
    dir: &Path,
    run_id: &str,
    rows: Option<&Requests>,
    replace: bool,
    run_existed: bool,
) -> Result<Option<(tempfile::NamedTempFile, PathBuf)>, ImportError> {
    let file = "requests.csv";
    if dir.join("requests.parquet").exists() {
        return Err(ImportError::file(
            file,
            "this dataset keeps its requests as Parquet; import writes CSV: convert it to requests.csv first",
        ));
    }
    if dir.join("requests").is_dir() {
        return Err(ImportError::file(
            file,
            "this dataset keeps its requests in a folder of Parquet files (requests/); import writes CSV: convert it to requests.csv first",
        ));
    }
    let path = dir.join(file);
    let exists = path.exists();
    let needs_rewrite = replace && run_existed && exists;
    if rows.is_none() && !needs_rewrite && exists {
        return Ok(None);
    }
    let io = |e: std::io::Error| ImportError::file(file, format!("cannot be staged: {e}"));
    let stage_dir = if dir.exists() { dir.to_path_buf() } else { dir.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf) };
    let staged = tempfile::Builder::new().prefix(".requests.csv.new-").tempfile_in(&stage_dir).map_err(io)?;
    {
        let mut out = BufWriter::with_capacity(1 << 20, staged.as_file());
        if exists {
            let reader = std::io::BufReader::with_capacity(1 << 20, std::fs::File::open(&path).map_err(io)?);
            let mut lines = reader.split(b'\n');
            let header = lines.next().transpose().map_err(io)?.unwrap_or_default();
            let header_text = String::from_utf8_lossy(&header);
            let columns: Vec<&str> = header_text.trim_start_matches('\u{feff}').trim_end_matches('\r').split(',').collect();
            if columns != REQUEST_COLUMNS {
                return Err(ImportError::at(
                    file,
                    1,
                    1,
                    format!("import appends to a requests.csv whose header is exactly {}", REQUEST_COLUMNS.join(",")),
                ));
            }
            out.write_all(&header).and_then(|_| out.write_all(b"\n")).map_err(io)?;
            let prefix = format!("{},", csv_field(run_id));
            for line in lines {
                let line = line.map_err(io)?;
                if line.is_empty() || (needs_rewrite && line.starts_with(prefix.as_bytes())) {
                    continue;
                }
                out.write_all(&line).and_then(|_| out.write_all(b"\n")).map_err(io)?;
            }
        } else {
            out.write_all(REQUEST_COLUMNS.join(",").as_bytes()).and_then(|_| out.write_all(b"\n")).map_err(io)?;
        }
        if let Some(rows) = rows {
            request_lines(run_id, rows.raw_requests(), &mut out).map_err(io)?;
        }
        out.flush().map_err(io)?;
    }
    Ok(Some((staged, path)))
}

impl Plan {
    /// Writes the planned files: requests.csv first (the largest), then the small tables, each
    /// by rename of a complete temporary file.
    pub fn commit(self, dir: &Path) -> Result<()> {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        if let Some((staged, path)) = self.requests {
            // Like outdir's files: readable by all (a temp file starts 0600) and durable.
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(staged.path(), std::fs::Permissions::from_mode(0o644))
                .and_then(|()| staged.as_file().sync_all())
                .with_context(|| format!("cannot write {}", path.display()))?;
            staged.persist(&path).with_context(|| format!("cannot write {}", path.display()))?;
        }
        for (path, bytes) in self.small {
            outdir::write_file(&path, &bytes).with_context(|| format!("cannot write {}", path.display()))?;
        }
        Ok(())
    }
}
