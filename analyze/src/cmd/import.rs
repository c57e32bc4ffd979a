//! `analyze import`: the files of one invocation of a load generator become one run of a dataset.
//! Everything is read and checked before anything is written; a refused import changes nothing.

use crate::import::{self, write, Format, ImportErrors};
use anyhow::{bail, Context as _, Result};
use std::path::{Path, PathBuf};

/// The validated plan of one import.
pub struct Options<'a> {
    pub files: &'a [PathBuf],
    pub into: &'a Path,
    pub run_id: &'a str,
    pub factors: &'a [String],
    pub repetition: i64,
    pub format: Option<&'a str>,
    pub started_at: Option<&'a str>,
    pub replace: bool,
}

pub fn run(options: &Options) -> Result<i32> {
    let forced = match options.format {
        Some(name) => Some(
            Format::from_name(name)
                .with_context(|| format!("--format {name}: not a format; one of {}", Format::ALL.map(Format::name).join(", ")))?,
        ),
        None => None,
    };
    let mut factors = Vec::new();
    for factor in options.factors {
        let Some((key, value)) = factor.split_once('=').filter(|(k, v)| !k.trim().is_empty() && !v.trim().is_empty()) else {
            bail!("--factor {factor:?}: expected KEY=VALUE, e.g. --factor tool=ab");
        };
        if crate::dataset::runs::RESERVED.contains(&key.trim()) {
            bail!("--factor {key}: `{key}` is a column of runs.csv, not a factor");
        }
        factors.push((key.trim().to_string(), value.trim().to_string()));
    }
    if options.run_id.trim().is_empty() || options.run_id.contains([',', '"', '\n']) {
        bail!("--run-id {:?}: a run id is non-empty, without commas, quotes or newlines", options.run_id);
    }
    if let Some(t) = options.started_at {
        if crate::dataset::time::parse_rfc3339(t).is_none() {
            bail!("--started-at {t:?}: not an RFC 3339 time (e.g. 2026-11-30T04:05:06Z)");
        }
    }
    let mut inputs = Vec::new();
    for path in options.files {
        let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        inputs.push((path.display().to_string(), bytes));
    }
    let imported = import::read_run(&inputs, forced).map_err(|ImportErrors(errors)| anyhow::Error::new(ImportErrors(errors)))?;
    for file in &imported.files {
        eprintln!("{}: {} ({})", file.name, file.format.description(), if forced.is_some() { "forced by --format" } else { "detected" });
    }
    let target = write::Target {
        dir: options.into,
        run_id: options.run_id,
        factors: &factors,
        repetition: options.repetition,
        started_at: options.started_at,
        replace: options.replace,
    };
    let plan = write::plan(&imported, &target).map_err(|e| anyhow::Error::new(ImportErrors(vec![e])))?;
    let summary = plan.summary.clone();
    plan.commit(options.into)?;
    eprintln!("imported run {} into {}: {summary}", options.run_id, options.into.display());
    Ok(0)
}
