//! `analyze report`: one dataset, one language, one folder.

use crate::dataset;
use crate::model::Lang;
use crate::output;
use crate::pipeline;
use crate::render;
use crate::stats::Detail;
use anyhow::Result;
use std::path::Path;

pub fn run(dir: &Path, out: &Path, lang: Option<Lang>) -> Result<i32> {
    let pipeline::Built { dataset: mut loaded, report } = pipeline::build(dir, dataset::Keep::Points, Detail::WithFigures)?;
    let comparison = pipeline::of_baseline(dir, &loaded.manifest, &report)?;
    // Everything the pages need is in the report now: the rows' memory goes before rendering.
    let articles = std::mem::take(&mut loaded.articles);
    drop(loaded);
    let lang = lang.unwrap_or(report.dataset.default_lang);
    // The articles are checked before anything is written, so a bad one fails as check does.
    render::check_articles(&report, &articles, comparison.as_ref())?;
    let comparison = comparison.as_ref();
    output::write_report(out, |emit| render::emit_report_with(&report, lang, &articles, false, &[], comparison, emit))?;
    Ok(0)
}
