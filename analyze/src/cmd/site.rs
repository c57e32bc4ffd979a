//! `analyze site`: every dataset folder under a root, both languages, one site folder.

use crate::dataset;
use crate::output;
use crate::render::paths;
use crate::render::site::{emit_site, site_files, Published};
use crate::stats::{self, Detail};
use anyhow::{bail, Context as _, Result};
use std::path::Path;

pub fn run(root: &Path, out: &Path, only: Option<&str>) -> Result<i32> {
    let mut folders: Vec<_> = std::fs::read_dir(root)
        .with_context(|| format!("cannot read the datasets folder {}", root.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.is_dir() && (path.join("runs.csv").exists() || path.join("runs.parquet").exists()))
        .collect();
    folders.sort();
    if folders.is_empty() {
        bail!("{} holds no dataset folder (a folder with runs.csv)", root.display());
    }
    // Each dataset's site folder is named after its entry under `root`, as listed, not after
    // the folder a symbolic link leads to: two links to folders named alike stay two datasets.
    let names: Vec<String> = folders.iter().map(|f| f.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()).collect();
    let mut bad_names: Vec<String> = names.iter().filter_map(|name| paths::site_name_problem(name)).collect();
    bad_names.extend(paths::site_name_clashes(&names));
    if !bad_names.is_empty() {
        bail!("{}: {}", root.display(), bad_names.join("; "));
    }
    if let Some(name) = only {
        if !names.iter().any(|n| n == name) {
            bail!("{} has no dataset folder named {name}", root.display());
        }
        if !out.join(output::MARKER).exists() {
            bail!("{} is not a site built by analyze yet: build the whole site once (just report)", out.display());
        }
    }
    let mut loaded = Vec::new();
    for (folder, name) in folders.iter().zip(&names) {
        let rendered = only.is_none_or(|only| only == name);
        // The index needs every dataset's statistics; only rendered datasets need chart points.
        let (keep, detail) =
            if rendered { (dataset::Keep::Points, Detail::WithFigures) } else { (dataset::Keep::Latencies, Detail::Statistics) };
        let mut dataset = dataset::load_with(folder, keep).with_context(|| format!("dataset {}", folder.display()))?;
        dataset.name = name.clone();
        let report = stats::build(&mut dataset, detail);
        loaded.push((report, dataset.articles, rendered));
    }
    let published: Vec<Published> =
        loaded.iter().map(|(report, articles, rendered)| Published { report, articles, rendered: *rendered }).collect();
    match only {
        None => {
            for dataset in &published {
                crate::render::check_articles(dataset.report, dataset.articles)?;
            }
            output::write_site(out, |emit| emit_site(&published, emit))?
        }
        Some(name) => {
            let files = site_files(&published)?;
            let prefix = format!("{name}/");
            let subtree =
                files.iter().filter_map(|(path, bytes)| path.strip_prefix(&prefix).map(|p| (p.to_string(), bytes.clone()))).collect();
            let loose = files.iter().filter(|(path, _)| !path.contains('/')).map(|(p, b)| (p.clone(), b.clone())).collect();
            output::write_site_part(out, name, &subtree, &loose)?;
        }
    }
    eprintln!("rendered {} of {} datasets", loaded.iter().filter(|l| l.2).count(), folders.len());
    Ok(0)
}
