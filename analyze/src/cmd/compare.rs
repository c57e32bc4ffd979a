//! `analyze compare`: two datasets, their matched conditions compared run against run. Loads
//! and builds both reports, compares them (`stats::compare`), prints the summary in the asked
//! format, writes the folder when asked, and exits 1 when `--fail-on-regression` finds a
//! supported regression, 4 when it compared nothing it was asked to judge.

use crate::cli::CompareFormat;
use crate::model::Lang;
use crate::report::compare::ComparabilityVerdict;
use crate::stats::compare::calibration::calibrate;
use crate::stats::compare::{compare, compare_sittings, ComparePlan, MatchRule};
use crate::stats::{self, Detail};
use crate::{dataset, output, render};
use anyhow::{Context as _, Result};
use std::io::Write as _;
use std::path::Path;

pub struct Options<'a> {
    pub baseline: &'a Path,
    pub candidate: &'a Path,
    pub out: Option<&'a Path>,
    pub rules: &'a [String],
    pub fail_on_regression: Option<f64>,
    pub allow_env: &'a [String],
    pub aa: &'a [std::path::PathBuf],
    /// Re-measurements of the candidate: several sittings a side.
    pub bb: &'a [std::path::PathBuf],
    pub format: CompareFormat,
    pub lang: Lang,
}

pub fn run(options: &Options) -> Result<i32> {
    let plan = ComparePlan {
        rules: options.rules.iter().map(|r| MatchRule::parse(r)).collect::<Result<_, _>>()?,
        fail_on_regression: options.fail_on_regression,
        allow_env: options.allow_env.to_vec(),
        skip_planning: false,
        verdicts_only: false,
    };
    // The overlay charts need each representative run's latencies; the summaries do not.
    let (keep, detail) =
        if options.out.is_some() { (dataset::Keep::Points, Detail::WithFigures) } else { (dataset::Keep::Latencies, Detail::Statistics) };
    let load = |dir: &Path, side: &str| -> Result<crate::Report> {
        let mut loaded = dataset::load_with(dir, keep).with_context(|| format!("{side} {}", dir.display()))?;
        Ok(stats::build(&mut loaded, detail))
    };
    let baseline = load(options.baseline, "baseline")?;
    let candidate = load(options.candidate, "candidate")?;
    let aa = options.aa.iter().map(|dir| load(dir, "--aa")).collect::<Result<Vec<_>>>()?;
    let bb = options.bb.iter().map(|dir| load(dir, "--bb")).collect::<Result<Vec<_>>>()?;
    let mut comparison = compare_sittings(&baseline, &candidate, &aa, &bb, &plan)?;
    comparison.gate = calibrate(&baseline, &candidate, &aa, &plan);
    if let Some(out) = options.out {
        let files = render::compare::compare_files(&comparison, None)?;
        output::write_report(out, |emit| files.into_iter().try_for_each(|(path, bytes)| emit(path, bytes)))?;
    }
    let printed = match options.format {
        CompareFormat::Text => crate::terminal::escape(&render::compare::compare_text(&comparison, options.lang)),
        CompareFormat::Md => crate::terminal::escape(&render::compare::compare_summary(&comparison, options.lang)?),
        CompareFormat::Json => render::compare::compare_json(&comparison),
    };
    let code = if comparison.comparability.verdict == ComparabilityVerdict::Incomparable {
        super::EXIT_INCOMPARABLE
    } else if !comparison.summary.regressions.is_empty() {
        super::EXIT_FAILED
    } else if comparison.gate_compared_nothing() {
        super::EXIT_NOTHING_COMPARED
    } else {
        0
    };
    // A closed pipe (`| head`) ends the output, not the program or its exit status.
    match std::io::stdout().lock().write_all(printed.as_bytes()) {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => Err(error.into()),
        _ => Ok(code),
    }
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
pub fn of_baseline(
    dir: &Path,
    manifest: &dataset::Manifest,
    candidate: &crate::Report,
) -> Result<Option<crate::report::compare::ComparisonReport>> {
    of_baseline_read_by(dir, manifest, candidate, &|folder| dataset::load(folder))
}

/// [`of_baseline`] with the baseline read by `read`: an import verifying its staged dataset
/// holds the datasets folder's lock itself, so it reads the baseline beside it unlocked.
pub fn of_baseline_read_by(
    dir: &Path,
    manifest: &dataset::Manifest,
    candidate: &crate::Report,
    read: &dyn Fn(&Path) -> Result<dataset::Dataset, dataset::LoadError>,
) -> Result<Option<crate::report::compare::ComparisonReport>> {
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
    let plan = ComparePlan::default();
    let mut comparison = compare(&baseline, candidate, &plan)
        .with_context(|| format!("dataset {}: its comparison with the baseline {}", dir.display(), folder.display()))?;
    comparison.gate = calibrate(&baseline, candidate, &[], &plan);
    Ok(Some(comparison))
}
