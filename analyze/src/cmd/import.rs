//! `analyze import`: the files of one invocation of a load generator become one run of a dataset.
//! Everything is read and checked before anything is written, the dataset as it would be after the
//! import passes `analyze check` or nothing is written, and the new version replaces the old in
//! one step: a refused or killed import changes nothing.

use crate::import::{self, write, Format, ImportErrors};
use crate::terminal::escape;
use anyhow::{bail, Context as _, Result};
use std::path::PathBuf;

/// The subcommand's options, as parsed.
pub use crate::cli::ImportArgs as Options;

/// `--factor KEY=VALUE` pairs, each key once and none a column runs.csv reserves.
fn factors(given: &[String]) -> Result<Vec<(String, String)>> {
    let mut factors: Vec<(String, String)> = Vec::new();
    for factor in given {
        let Some((key, value)) = factor.split_once('=').filter(|(k, v)| !k.trim().is_empty() && !v.trim().is_empty()) else {
            bail!("--factor {}: expected KEY=VALUE, e.g. --factor tool=ab", escape(&format!("{factor:?}")));
        };
        let (key, value) = (key.trim(), value.trim());
        if crate::dataset::runs::RESERVED.contains(&key) {
            bail!("--factor {key}: `{key}` is a column of runs.csv, not a factor");
        }
        if key.contains([',', '"']) || key.chars().chain(value.chars()).any(char::is_control) {
            bail!(
                "--factor {}: a factor's name has no comma or quote, and neither part a control character",
                escape(&format!("{factor:?}"))
            );
        }
        // The names rule every reader applies (request_row::name): refused here, at the flag.
        for (what, text) in [("a factor's name", key), ("a level", value)] {
            if let Err(error) = request_row::name::check_name(text) {
                bail!("--factor {}: {}", escape(&format!("{factor:?}")), error.message(what));
            }
        }
        if let Some((_, first)) = factors.iter().find(|(k, _)| k == key) {
            bail!(
                "--factor {key}={}: the factor `{key}` is already given (={}): a run has one level of each factor",
                escape(value),
                escape(first)
            );
        }
        factors.push((key.to_string(), value.to_string()));
    }
    Ok(factors)
}

pub fn run(options: &Options) -> Result<i32> {
    let forced = match options.format.as_deref() {
        Some(name) => Some(Format::from_name(name).with_context(|| {
            format!(
                "--format {}: not a format; one of {} (see analyze import --help)",
                escape(name),
                Format::ALL.map(Format::name).join(", ")
            )
        })?),
        None => None,
    };
    let factors = factors(&options.factors)?;
    // Run ids are read trimmed everywhere (runs.csv, requests.csv): this one too.
    let run_id = options.run_id.trim();
    if run_id.is_empty() || run_id.contains([',', '"']) || run_id.chars().any(char::is_control) {
        bail!("--run-id {}: a run id is non-empty, without commas, quotes or control characters", escape(&format!("{:?}", options.run_id)));
    }
    if let Err(error) = request_row::name::check_name(run_id) {
        bail!("--run-id {}: {}", escape(&format!("{:?}", options.run_id)), error.message("a run id"));
    }
    if let Some(repetition) = options.repetition.filter(|r| *r < 1) {
        bail!("--repetition {repetition}: repetitions count from 1");
    }
    if let Some(t) = options.started_at.as_deref() {
        if crate::dataset::time::parse_rfc3339(t).is_none() {
            bail!("--started-at {}: not an RFC 3339 time (a date, `T`, a time and a zone such as `Z`)", escape(&format!("{t:?}")));
        }
    }
    // Each file is read as a stream: memory follows the rows kept, not the file.
    let inputs: Vec<(String, PathBuf)> = options.files.iter().map(|p| (p.display().to_string(), p.clone())).collect();
    let imported = import::read_paths(&inputs, forced).map_err(|ImportErrors(errors)| anyhow::Error::new(ImportErrors(errors)))?;
    for file in &imported.files {
        eprintln!(
            "{}: {} ({})",
            escape(&file.name),
            file.format.description(),
            if forced.is_some() { "forced by --format" } else { "detected" }
        );
    }
    let target = write::Target {
        dir: &options.into,
        run_id,
        factors: &factors,
        repetition: options.repetition,
        started_at: options.started_at.as_deref(),
        replace: options.replace,
    };
    let outcome = write::import(&imported, &target, &|staged| super::check::verify(staged))?;
    if let Some(why) = &outcome.chosen {
        eprintln!("{}: {why}", escape(run_id));
    }
    for (file, rows) in &outcome.removed {
        eprintln!("{file}: {rows} rows of the replaced run {} removed", escape(run_id));
    }
    for doubt in &outcome.doubts {
        eprintln!("warning: {}", escape(doubt));
    }
    eprintln!("{}: {}", escape(run_id), escape(&outcome.kept));
    if outcome.wrote_manifest {
        eprintln!("dataset.toml written: its title and description name the tool; edit them (later imports leave the file alone)");
    }
    eprintln!(
        "{} run {} into {}: {}, repetition {}, {}",
        if options.replace { "replaced" } else { "imported" },
        escape(run_id),
        escape(&outcome.dir.display().to_string()),
        outcome.summary,
        outcome.repetition,
        escape(&outcome.started)
    );
    Ok(0)
}
