//! `analyze compare`: two datasets, their matched conditions compared run against run. Loads
//! and builds both reports, compares them (`stats::compare`), prints the summary in the asked
//! format, writes the folder when asked, and exits 1 when `--fail-on-regression` finds a
//! supported regression, 4 when it compared nothing it was asked to judge.

use crate::cli::CompareFormat;
use crate::report::compare::ComparabilityVerdict;
use crate::stats::compare::calibration::calibrate;
use crate::stats::compare::{compare_sittings, ComparePlan, MatchRule};
use crate::stats::Detail;
use crate::{dataset, output, pipeline, render};
use anyhow::{Context as _, Result};
use std::io::Write as _;
use std::path::Path;

/// The subcommand's options, as parsed.
pub use crate::cli::CompareArgs as Options;

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
        Ok(pipeline::build(dir, keep, detail).with_context(|| format!("{side} {}", dir.display()))?.report)
    };
    let baseline = load(&options.baseline, "baseline")?;
    let candidate = load(&options.candidate, "candidate")?;
    let aa = options.aa.iter().map(|dir| load(dir, "--aa")).collect::<Result<Vec<_>>>()?;
    let bb = options.bb.iter().map(|dir| load(dir, "--bb")).collect::<Result<Vec<_>>>()?;
    let mut comparison = compare_sittings(&baseline, &candidate, &aa, &bb, &plan)?;
    comparison.gate = calibrate(&baseline, &candidate, &aa, &plan);
    if let Some(out) = options.out.as_deref() {
        let files = render::compare::compare_files(&comparison, None)?;
        output::write_report(out, |emit| files.into_iter().try_for_each(|(path, bytes)| emit(path, bytes)))?;
    }
    let printed = match options.format {
        CompareFormat::Text => crate::terminal::escape(&render::compare::compare_text(&comparison, options.lang.into())),
        CompareFormat::Md => crate::terminal::escape(&render::compare::compare_summary(&comparison, options.lang.into())?),
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
