//! analyze's side of the one writer (the `outdir` crate, shared with measure): which foreign
//! entries a site keeps, and what the user is told about a write.

use crate::terminal;
use anyhow::Result;
use std::path::Path;

pub use outdir::MARKER;

/// Entries a site keeps across rebuilds although analyze did not write them: the history of a
/// gh-pages checkout and a GitHub Pages custom domain.
pub const SITE_KEEPS: &[&str] = &[".git", "CNAME"];

/// Writes a report folder whole.
pub fn write_report(out: &Path, files: &crate::render::Files) -> Result<()> {
    let written = outdir::write_folder(out, files, &[])?;
    tell(out, &written, files.len());
    Ok(())
}

/// Writes a site folder whole, keeping [`SITE_KEEPS`].
pub fn write_site(out: &Path, files: &crate::render::Files) -> Result<()> {
    let written = outdir::write_folder(out, files, SITE_KEEPS)?;
    tell(out, &written, files.len());
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
