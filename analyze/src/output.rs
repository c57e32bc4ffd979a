//! analyze's side of the one writer (the `outdir` crate, shared with measure): which foreign
//! entries a site keeps, and what the user is told about a write.

use crate::render::{Emit, RenderError};
use crate::terminal;
use anyhow::Result;
use std::path::Path;

pub use outdir::MARKER;

/// Entries a site keeps across rebuilds although analyze did not write them: the history of a
/// gh-pages checkout and a GitHub Pages custom domain.
pub const SITE_KEEPS: &[&str] = &[".git", "CNAME"];

/// Writes a report folder whole, with the files `render` hands over as it makes them.
pub fn write_report(out: &Path, render: impl FnOnce(&mut Emit) -> Result<(), RenderError>) -> Result<()> {
    write_folder(out, &[], render)
}

/// Writes a site folder whole, keeping [`SITE_KEEPS`], with the files `render` hands over.
pub fn write_site(out: &Path, render: impl FnOnce(&mut Emit) -> Result<(), RenderError>) -> Result<()> {
    write_folder(out, SITE_KEEPS, render)
}

fn write_folder(out: &Path, keep: &[&str], render: impl FnOnce(&mut Emit) -> Result<(), RenderError>) -> Result<()> {
    let mut count = 0;
    let written = outdir::write_folder_with(out, keep, |sink| {
        let outcome = render(&mut |path, bytes| Ok(sink.write(&path, &bytes)?));
        count = sink.len();
        outcome
    })?;
    tell(out, &written, count);
    Ok(())
}

/// Replaces one dataset's folder of a site and the site's loose files (`analyze site --only`).
pub fn write_site_part(out: &Path, name: &str, files: &crate::render::Files, loose: &crate::render::Files) -> Result<()> {
    let written = outdir::write_part(out, name, files, loose)?;
    tell(out, &written, files.len() + loose.len());
    Ok(())
}

fn tell(out: &Path, written: &outdir::Written, count: usize) {
    eprintln!("wrote {count} files to {}", terminal::escape(&out.display().to_string()));
    if !written.kept.is_empty() {
        eprintln!(
            "kept {} (not written by analyze) in {}",
            terminal::escape(&written.kept.join(", ")),
            terminal::escape(&out.display().to_string())
        );
    }
    if std::env::current_dir().ok().and_then(|d| d.canonicalize().ok()).is_some_and(|d| d == written.path) {
        eprintln!("note: the current folder was replaced; a shell inside it sees the new files after `cd .`");
    }
}
