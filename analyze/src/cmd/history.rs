//! `analyze history`: many measurements of one study, in order. Loads and builds every
//! measurement's report (in parallel), finds the changes (`stats::history`), prints the summary in
//! the asked format, writes the folder when asked, and exits 3 when consecutive measurements'
//! environments differ in a key that must match.

use crate::cli::{CompareFormat, HistoryOrder};
use crate::report::history::Duplicate;
use crate::stats::history::{history, Order};
use crate::stats::Detail;
use crate::{dataset, output, pipeline, render};
use anyhow::{Context as _, Result};
use rayon::prelude::*;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The subcommand's options, as parsed.
pub use crate::cli::HistoryArgs as Options;

pub fn run(options: &Options) -> Result<i32> {
    let given = Given::of(&options.datasets);
    let reports = given
        .kept
        .par_iter()
        .zip(&given.names)
        .map(|(dir, name)| -> Result<crate::Report> {
            let built = pipeline::build_named(dir, Some(name), dataset::Keep::Latencies, Detail::Statistics);
            Ok(built.with_context(|| format!("dataset {}", dir.display()))?.report)
        })
        .collect::<Result<Vec<_>>>()?;
    let order = match options.by {
        HistoryOrder::StartedAt => Order::StartedAt,
        HistoryOrder::Revision => Order::Revision,
    };
    let mut found = history(&reports, order, &options.allow_env)?;
    found.duplicates = given.duplicates;
    if let Some(out) = options.out.as_deref() {
        let files = render::history::history_files(&found, None)?;
        output::write_report(out, |emit| files.into_iter().try_for_each(|(path, bytes)| emit(path, bytes)))?;
    }
    let printed = match options.format {
        CompareFormat::Text => crate::terminal::escape(&render::history::history_text(&found, options.lang.into())),
        CompareFormat::Md => crate::terminal::escape(&render::history::history_md(&found, options.lang.into())?),
        CompareFormat::Json => render::history::history_json(&found),
    };
    let code = if found.summary.incomparable { super::EXIT_INCOMPARABLE } else { 0 };
    match std::io::stdout().lock().write_all(printed.as_bytes()) {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => Err(error.into()),
        _ => Ok(code),
    }
}

/// The dataset folders given, each once: a folder given again (by another path, `m01` and
/// `./m01/`, or by overlapping globs) is dropped and named, so no sitting counts twice. Each
/// kept folder is called by its name, or, where folders share a name (`a/ds`, `b/ds`), by as
/// many of its last path components as tell them apart.
struct Given {
    kept: Vec<PathBuf>,
    names: Vec<String>,
    duplicates: Vec<Duplicate>,
}

impl Given {
    fn of(datasets: &[PathBuf]) -> Given {
        let mut kept: Vec<(PathBuf, PathBuf)> = Vec::new();
        let mut dropped: Vec<(String, usize)> = Vec::new();
        for dir in datasets {
            // A folder that cannot be resolved is kept as given: loading it says why.
            let canonical = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.clone());
            match kept.iter().position(|(_, c)| *c == canonical) {
                Some(i) => dropped.push((dir.display().to_string(), i)),
                None => kept.push((dir.clone(), canonical)),
            }
        }
        let names = distinct_names(&kept.iter().map(|(_, c)| c.as_path()).collect::<Vec<_>>());
        let duplicates = dropped.into_iter().map(|(given, i)| Duplicate { given, same_as: names[i].clone() }).collect();
        Given { kept: kept.into_iter().map(|(dir, _)| dir).collect(), names, duplicates }
    }
}

/// Each folder's name, with as many of its parents as tell it from every other folder of the
/// same name.
fn distinct_names(folders: &[&Path]) -> Vec<String> {
    let parts: Vec<Vec<String>> = folders
        .iter()
        .map(|f| {
            f.components()
                .rev()
                .filter_map(|c| match c {
                    std::path::Component::Normal(n) => Some(n.to_string_lossy().into_owned()),
                    _ => None,
                })
                .collect()
        })
        .collect();
    let name = |i: usize, depth: usize| -> String {
        let mut taken: Vec<&str> = parts[i].iter().take(depth).map(String::as_str).collect();
        taken.reverse();
        taken.join("/")
    };
    (0..folders.len())
        .map(|i| {
            let most = parts[i].len().max(1);
            (1..=most)
                .map(|depth| name(i, depth))
                .find(|candidate| (0..folders.len()).all(|j| j == i || name(j, candidate.matches('/').count() + 1) != *candidate))
                .unwrap_or_else(|| name(i, most))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_of_one_name_are_told_apart_by_their_parents() {
        let got = distinct_names(&[Path::new("/x/a/ds"), Path::new("/x/b/ds"), Path::new("/x/m01")]);
        assert_eq!(got, ["a/ds", "b/ds", "m01"]);
        let got = distinct_names(&[Path::new("/p/a/ds"), Path::new("/q/a/ds")]);
        assert_eq!(got, ["p/a/ds", "q/a/ds"]);
    }
}
