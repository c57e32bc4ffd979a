//! `analyze site`: every dataset folder under a root, both languages, one site folder.

use crate::dataset;
use crate::output;
use crate::pipeline;
use crate::render::paths;
use crate::render::site::{emit_site, site_files, Broken, Published, SiteComparison, SiteHistory};
use crate::stats::Detail;
use anyhow::{bail, Context as _, Result};
use std::path::Path;

/// Leaves out of `folders` the staging copies of imports that did not finish (they may hold part
/// of a run: never a dataset, never published), with a warning for each whose import is gone; an
/// import still under way is waited for when its dataset is read, and its copy is not a dataset
/// either. The copies in `root`'s staging area are listed too, though no dataset folder is one.
fn skip_unfinished(root: &Path, folders: &mut Vec<std::path::PathBuf>) {
    let mut copies = outdir::leftovers(root);
    folders.retain(|folder| match outdir::unfinished(folder) {
        Some(copy) => {
            if !copies.iter().any(|c| c.path == copy.path) {
                copies.push(copy);
            }
            false
        }
        None => true,
    });
    for copy in copies.iter().filter(|c| !c.alive()) {
        let warning = format!("warning: {}: skipped: it is {}", copy.path.display(), copy.reason());
        eprintln!("{}", crate::terminal::escape(&warning));
    }
}

pub fn run(root: &Path, out: &Path, only: Option<&str>) -> Result<i32> {
    let mut folders: Vec<_> = std::fs::read_dir(root)
        .with_context(|| format!("cannot read the datasets folder {}", root.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.is_dir())
        .filter(|path| {
            // A marked copy killed before it held runs.csv is listed too, so that it is skipped with
            // its warning rather than passed over in silence.
            let marked = || outdir::unfinished(path).is_some_and(|copy| copy.why == outdir::Why::Marked);
            path.join("runs.csv").exists() || path.join("runs.parquet").exists() || marked()
        })
        .collect();
    folders.sort();
    skip_unfinished(root, &mut folders);
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
    // A dataset that cannot be read is listed on the index with its error, and the others are
    // rendered all the same; the site then exits 2.
    let mut broken: Vec<Broken> = Vec::new();
    let mut loaded = Vec::new();
    let mut baselines = Vec::new();
    let mut series_places = Vec::new();
    let mut kept = Vec::new();
    for (folder, name) in folders.iter().zip(&names) {
        let rendered = only.is_none_or(|only| only == name);
        // The index needs every dataset's statistics; only rendered datasets need chart points.
        let (keep, detail) =
            if rendered { (dataset::Keep::Points, Detail::WithFigures) } else { (dataset::Keep::Latencies, Detail::Statistics) };
        let built = pipeline::build_named(folder, Some(name), keep, detail).with_context(|| format!("dataset {}", folder.display()));
        let pipeline::Built { dataset, report } = match built {
            Ok(built) => built,
            Err(error) => {
                broken.push(Broken { name: name.clone(), error: format!("{error:#}") });
                continue;
            }
        };
        baselines.push(dataset.manifest.baseline.as_ref().map(|b| (b.get_ref().clone(), dataset.manifest.baseline_place)));
        series_places.push(dataset.manifest.history.as_ref().map(|h| h.series_place));
        loaded.push((report, dataset.articles, rendered));
        kept.push((folder.clone(), name.clone()));
    }
    // A dataset whose baseline is not another readable dataset beside it is broken too, and so,
    // in turn, is a dataset whose baseline that was.
    loop {
        let missing = baselines.iter().enumerate().find_map(|(c, baseline)| {
            let (name, place) = baseline.as_ref()?;
            let found = loaded.iter().enumerate().any(|(b, (r, ..))| &r.dataset.name == name && b != c);
            (!found).then(|| (c, name.clone(), *place))
        });
        let Some((c, name, place)) = missing else { break };
        let mut others: Vec<String> = loaded.iter().map(|(r, ..)| r.dataset.name.clone()).filter(|n| *n != kept[c].1).collect();
        others.extend(broken.iter().map(|b| b.name.clone()));
        others.sort();
        let error = pipeline::no_baseline(&kept[c].0, &name, place, &others);
        broken.push(Broken { name: kept[c].1.clone(), error: format!("{error:#}") });
        loaded.remove(c);
        baselines.remove(c);
        series_places.remove(c);
        kept.remove(c);
    }
    broken.sort_by(|a, b| a.name.cmp(&b.name));
    for b in &broken {
        eprintln!("error: {}", crate::terminal::escape(&b.error));
    }
    if loaded.is_empty() {
        bail!("{}: no dataset could be read", root.display());
    }
    if let Some(name) = only.filter(|name| broken.iter().any(|b| b.name == *name)) {
        bail!("{} could not be read, so nothing was rendered", root.join(name).display());
    }
    let (folders, names): (Vec<_>, Vec<_>) = kept.into_iter().unzip();
    // Each dataset that names a baseline is compared with it; the comparison is rendered with
    // the candidate and linked from both reports.
    let mut pairs = Vec::new();
    for (c, baseline) in baselines.iter().enumerate() {
        let Some((name, _)) = baseline else { continue };
        if let Some(b) = loaded.iter().position(|(r, ..)| &r.dataset.name == name).filter(|&b| b != c) {
            pairs.push((b, c));
        }
    }
    let mut comparisons = Vec::new();
    for &(b, c) in &pairs {
        if !loaded[c].2 {
            continue;
        }
        // An unrendered baseline (`--only`) was read without the chart points its overlay needs.
        let baseline = if loaded[b].2 {
            None
        } else {
            Some(pipeline::build_named(&folders[b], Some(&names[b]), dataset::Keep::Points, Detail::WithFigures)?.report)
        };
        let base = baseline.as_ref().unwrap_or(&loaded[b].0);
        let comparison = pipeline::with_baseline(base, &loaded[c].0)
            .with_context(|| format!("dataset {}: its comparison with the baseline {}", folders[c].display(), folders[b].display()))?;
        comparisons.push((b, c, comparison));
    }
    let site_comparisons: Vec<SiteComparison> = comparisons
        .iter()
        .map(|(b, c, comparison)| SiteComparison { baseline: &loaded[*b].0, candidate: &loaded[*c].0, comparison })
        .collect();
    let histories = histories_of(&loaded.iter().map(|(r, ..)| r).collect::<Vec<_>>(), &folders, &series_places)?;
    let site_histories: Vec<SiteHistory> = histories.iter().map(|history| SiteHistory { history }).collect();
    let published: Vec<Published> =
        loaded.iter().map(|(report, articles, rendered)| Published { report, articles, rendered: *rendered }).collect();
    match only {
        None => {
            for dataset in &published {
                let own = site_comparisons.iter().find(|c| c.candidate.dataset.name == dataset.report.dataset.name).map(|c| c.comparison);
                crate::render::check_articles(dataset.report, dataset.articles, own)?;
            }
            output::write_site(out, |emit| emit_site(&published, &site_comparisons, &site_histories, &broken, emit))?
        }
        Some(name) => {
            let files = site_files(&published, &site_comparisons, &site_histories, &broken)?;
            let prefix = format!("{name}/");
            let subtree =
                files.iter().filter_map(|(path, bytes)| path.strip_prefix(&prefix).map(|p| (p.to_string(), bytes.clone()))).collect();
            let loose = files.iter().filter(|(path, _)| !path.contains('/')).map(|(p, b)| (p.clone(), b.clone())).collect();
            output::write_site_part(out, name, &subtree, &loose)?;
            // A history the dataset is a measurement of shows its runs: it is rewritten with it.
            for history in site_histories.iter().filter(|h| h.has(name)) {
                let folder = history.folder();
                let prefix = format!("{folder}/");
                let subtree =
                    files.iter().filter_map(|(path, bytes)| path.strip_prefix(&prefix).map(|p| (p.to_string(), bytes.clone()))).collect();
                output::write_site_part(out, &folder, &subtree, &crate::render::Files::new())?;
            }
        }
    }
    eprintln!("rendered {} of {} datasets", loaded.iter().filter(|l| l.2).count(), folders.len() + broken.len());
    Ok(if broken.is_empty() { 0 } else { super::EXIT_ERRORS })
}

/// The history of each `[history] series` two or more datasets name, in the order of the series'
/// names. A series one dataset names has no history page yet. Two series whose names differ only
/// in case would be one folder on macOS and Windows (as two dataset folders would), so they are
/// refused at the later one's `history.series` (`places`, per report, from its dataset.toml).
fn histories_of(
    reports: &[&crate::Report],
    folders: &[std::path::PathBuf],
    places: &[Option<(u64, usize)>],
) -> Result<Vec<crate::report::history::HistoryReport>> {
    let mut first: std::collections::HashMap<String, (&str, &str)> = std::collections::HashMap::new();
    for (i, report) in reports.iter().enumerate() {
        let Some(h) = &report.dataset.history else { continue };
        let (name, series) = (report.dataset.name.as_str(), h.series.as_str());
        match first.get(&series.to_lowercase()) {
            Some(&(other, seen)) if seen != series => {
                let (line, column) = places.get(i).copied().flatten().unwrap_or((1, 1));
                bail!(
                    "{}:{line}:{column}: history.series: {series:?} and {other}'s {seen:?} differ only in case, so their history pages would be one folder on macOS and Windows: name the series alike, or apart by more than case",
                    folders[i].join("dataset.toml").display()
                );
            }
            Some(_) => {}
            None => {
                first.insert(series.to_lowercase(), (name, series));
            }
        }
    }
    let mut series: std::collections::BTreeMap<&str, Vec<crate::Report>> = std::collections::BTreeMap::new();
    for report in reports {
        if let Some(h) = &report.dataset.history {
            series.entry(h.series.as_str()).or_default().push((*report).clone());
        }
    }
    series
        .into_iter()
        .filter(|(_, members)| members.len() >= 2)
        .map(|(name, members)| {
            crate::stats::history::history(&members, crate::stats::history::Order::StartedAt, &[])
                .with_context(|| format!("the history {name:?} (dataset.toml: history.series)"))
        })
        .collect()
}
