//! The pipeline every command runs before its own part: read a dataset ([`dataset`]), build its
//! report ([`stats::build`]), and compare it with the baseline its dataset.toml names
//! ([`of_baseline`]). `report`, `check`, `compare`, `history` and `site` call it; it renders
//! nothing and prints nothing. Errors are typed or carry the dataset's folder; each command adds
//! what it was doing.

use crate::dataset::{self, Dataset, Keep, LoadError, Manifest};
use crate::report::compare::ComparisonReport;
use crate::stats::compare::calibration::calibrate;
use crate::stats::compare::{compare, CompareError, ComparePlan};
use crate::stats::{self, Detail};
use crate::Report;
use anyhow::{Context as _, Result};
use std::path::Path;

/// A dataset read and its report built: the dataset keeps what the report does not hold (its
/// manifest, its articles, the rows until they are dropped).
pub struct Built {
    pub dataset: Dataset,
    pub report: Report,
}

/// Reads the dataset at `dir`, keeping of each request what `keep` says, and builds its report
/// to `detail`.
pub fn build(dir: &Path, keep: Keep, detail: Detail) -> Result<Built, LoadError> {
    build_named(dir, None, keep, detail)
}

/// [`build`], the dataset named `name` (a site's or a history's name for its folder) rather
/// than by its folder.
pub fn build_named(dir: &Path, name: Option<&str>, keep: Keep, detail: Detail) -> Result<Built, LoadError> {
    Ok(built(dataset::load_with(dir, keep)?, name, detail))
}

/// [`build`] of a folder nobody else writes while it is read (a dataset `analyze import` has
/// staged, under its own lock).
pub fn build_unlocked(dir: &Path, keep: Keep, detail: Detail) -> Result<Built, LoadError> {
    Ok(built(dataset::load_unlocked(dir, keep)?, None, detail))
}

fn built(mut dataset: Dataset, name: Option<&str>, detail: Detail) -> Built {
    if let Some(name) = name {
        dataset.name = name.to_string();
    }
    let report = stats::build(&mut dataset, detail);
    Built { dataset, report }
}

/// The refusal of a `baseline` that names no other dataset beside `dir`, at its place.
pub fn no_baseline(dir: &Path, name: &str, (line, column): (u64, usize), known: &[String]) -> anyhow::Error {
    anyhow::anyhow!(
        "dataset {}: dataset.toml:{line}:{column}: baseline: {name:?} is not another dataset beside it (its datasets: {})",
        dir.display(),
        known.join(", ")
    )
}

/// The comparison of the dataset at `dir` with the baseline its dataset.toml names (a dataset
/// folder beside it), for its article to cite; `None` when it names none.
pub fn of_baseline(dir: &Path, manifest: &Manifest, candidate: &Report) -> Result<Option<ComparisonReport>> {
    of_baseline_read_by(dir, manifest, candidate, &|folder| dataset::load(folder))
}

/// [`of_baseline`] with the baseline read by `read`: an import verifying its staged dataset
/// holds the datasets folder's lock itself, so it reads the baseline beside it unlocked.
pub fn of_baseline_read_by(
    dir: &Path,
    manifest: &Manifest,
    candidate: &Report,
    read: &dyn Fn(&Path) -> Result<Dataset, LoadError>,
) -> Result<Option<ComparisonReport>> {
    let Some(name) = &manifest.baseline else { return Ok(None) };
    let name = name.get_ref();
    let parent = dir.canonicalize().ok().and_then(|d| d.parent().map(Path::to_path_buf)).unwrap_or_else(|| dir.join(".."));
    let folder = parent.join(name);
    let is_dataset = |p: &Path| p.join("runs.csv").is_file() || p.join("runs.parquet").exists();
    if name.contains(['/', '\\']) || name == ".." || name == "." || *name == candidate.dataset.name || !is_dataset(&folder) {
        let mut known: Vec<String> = std::fs::read_dir(&parent)
            .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| is_dataset(p)).collect::<Vec<_>>())
            .unwrap_or_default()
            .iter()
            .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .filter(|n| *n != candidate.dataset.name)
            .collect();
        known.sort();
        return Err(no_baseline(dir, name, manifest.baseline_place, &known));
    }
    let mut loaded = read(&folder).with_context(|| format!("baseline {}", folder.display()))?;
    let baseline = stats::build(&mut loaded, Detail::Statistics);
    let comparison = with_baseline(&baseline, candidate)
        .with_context(|| format!("dataset {}: its comparison with the baseline {}", dir.display(), folder.display()))?;
    Ok(Some(comparison))
}

/// A dataset's comparison with the baseline its dataset.toml names, both built: matched by the
/// default rules, its gate calibrated without A/A pairs.
pub fn with_baseline(baseline: &Report, candidate: &Report) -> Result<ComparisonReport, CompareError> {
    let plan = ComparePlan::default();
    let mut comparison = compare(baseline, candidate, &plan)?;
    comparison.gate = calibrate(baseline, candidate, &[], &plan);
    Ok(comparison)
}
