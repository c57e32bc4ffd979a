//! `analyze report`: one dataset, one language, one folder.

use crate::dataset;
use crate::model::Lang;
use crate::output;
use crate::render;
use crate::stats::{self, Detail};
use anyhow::Result;
use std::path::Path;

pub fn run(dir: &Path, out: &Path, lang: Option<Lang>) -> Result<i32> {
    let mut loaded = dataset::load_with(dir, dataset::Keep::Points)?;
    let report = stats::build(&mut loaded, Detail::WithFigures);
    let lang = lang.unwrap_or(report.dataset.default_lang);
    let files = render::report_files(&report, lang, &loaded.articles, false)?;
    output::write_report(out, &files)?;
    Ok(0)
}
