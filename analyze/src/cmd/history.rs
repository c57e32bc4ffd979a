//! `analyze history`: many measurements of one study, in order. Loads and builds every
//! measurement's report (in parallel), finds the changes (`stats::history`), prints the summary in
//! the asked format, writes the folder when asked, and exits 3 when consecutive measurements'
//! environments differ in a key that must match.

use crate::cli::{CompareFormat, HistoryOrder};
use crate::model::Lang;
use crate::stats::history::{history, Order};
use crate::stats::{self, Detail};
use crate::{dataset, output, render};
use anyhow::{Context as _, Result};
use rayon::prelude::*;
use std::io::Write as _;
use std::path::{Path, PathBuf};

pub struct Options<'a> {
    pub datasets: &'a [PathBuf],
    pub out: Option<&'a Path>,
    pub by: HistoryOrder,
    pub allow_env: &'a [String],
    pub format: CompareFormat,
    pub lang: Lang,
}

pub fn run(options: &Options) -> Result<i32> {
    let reports = options
        .datasets
        .par_iter()
        .map(|dir| -> Result<crate::Report> {
            let mut loaded = dataset::load_with(dir, dataset::Keep::Latencies).with_context(|| format!("dataset {}", dir.display()))?;
            Ok(stats::build(&mut loaded, Detail::Statistics))
        })
        .collect::<Result<Vec<_>>>()?;
    let order = match options.by {
        HistoryOrder::StartedAt => Order::StartedAt,
        HistoryOrder::Revision => Order::Revision,
    };
    let found = history(&reports, order, options.allow_env)?;
    if let Some(out) = options.out {
        let files = render::history::history_files(&found, None)?;
        output::write_report(out, |emit| files.into_iter().try_for_each(|(path, bytes)| emit(path, bytes)))?;
    }
    let printed = match options.format {
        CompareFormat::Text => crate::terminal::escape(&render::history::history_text(&found, options.lang)),
        CompareFormat::Md => crate::terminal::escape(&render::history::history_md(&found, options.lang)?),
        CompareFormat::Json => render::history::history_json(&found),
    };
    let code = if found.summary.incomparable { super::EXIT_INCOMPARABLE } else { 0 };
    match std::io::stdout().lock().write_all(printed.as_bytes()) {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => Err(error.into()),
        _ => Ok(code),
    }
}
