//! `analyze compare`: two datasets, their matched conditions compared run against run. Loads
//! and builds both reports, compares them (`stats::compare`), prints the summary in the asked
//! format, writes the folder when asked, and exits 1 when `--fail-on-regression` finds a
//! supported regression.

use crate::cli::CompareFormat;
use crate::model::Lang;
use crate::stats::compare::{compare, ComparePlan, MatchRule};
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
    pub format: CompareFormat,
    pub lang: Lang,
}

pub fn run(options: &Options) -> Result<i32> {
    let plan = ComparePlan {
        rules: options.rules.iter().map(|r| MatchRule::parse(r)).collect::<Result<_, _>>()?,
        fail_on_regression: options.fail_on_regression,
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
    let comparison = compare(&baseline, &candidate, &plan)?;
    if let Some(out) = options.out {
        let files = render::compare::compare_files(&comparison, None)?;
        output::write_report(out, |emit| files.into_iter().try_for_each(|(path, bytes)| emit(path, bytes)))?;
    }
    let printed = match options.format {
        CompareFormat::Text => crate::terminal::escape(&render::compare::compare_text(&comparison, options.lang)),
        CompareFormat::Md => crate::terminal::escape(&render::compare::compare_summary(&comparison, options.lang)?),
        CompareFormat::Json => render::compare::compare_json(&comparison),
    };
    let code = if comparison.summary.regressions.is_empty() { 0 } else { super::EXIT_FAILED };
    // A closed pipe (`| head`) ends the output, not the program or its exit status.
    match std::io::stdout().lock().write_all(printed.as_bytes()) {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => Err(error.into()),
        _ => Ok(code),
    }
}
