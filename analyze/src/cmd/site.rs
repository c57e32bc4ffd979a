//! `analyze site`: every dataset folder under a root, both languages, one site folder.

use crate::dataset;
use crate::output;
use crate::render::site::{site_files, Published};
use crate::stats::{self, Detail};
use anyhow::{bail, Context as _, Result};
use std::path::Path;

pub fn run(root: &Path, out: &Path) -> Result<i32> {
    let mut folders: Vec<_> = std::fs::read_dir(root)
        .with_context(|| format!("cannot read the datasets folder {}", root.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.is_dir() && (path.join("runs.csv").exists() || path.join("runs.parquet").exists()))
        .collect();
    folders.sort();
    if folders.is_empty() {
        bail!("{} holds no dataset folder (a folder with runs.csv)", root.display());
    }
    let mut loaded = Vec::new();
    for folder in &folders {
        let mut dataset = dataset::load(folder).with_context(|| format!("dataset {}", folder.display()))?;
        let report = stats::build(&mut dataset, Detail::WithFigures);
        loaded.push((report, dataset.articles));
    }
    let published: Vec<Published> = loaded.iter().map(|(report, articles)| Published { report, articles }).collect();
    let files = site_files(&published)?;
    output::write_folder(out, &files)?;
    eprintln!("wrote {} datasets ({} files) to {}", folders.len(), files.len(), out.display());
    Ok(0)
}
