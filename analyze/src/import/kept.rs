//! What an import keeps beside the tables, as `measure` does: each run's source files under
//! `raw/<run_id>/` (up to [`RAW_LIMIT`] a run), and a `dataset.toml` for a dataset the import
//! creates, which names it and says where it came from (an existing one is never touched).

use super::error::ImportError;
use super::SourceFile;
use crate::model::Tool;
use std::path::Path;

/// The most bytes of source files kept for one run: the files are kept in the order given while
/// their total stays within it; a file that would take it further is not kept (sources.csv still
/// names it with its sha256). A summary is a few kB; a file of one row per request can be
/// gigabytes, and its rows are in requests.csv already.
pub const RAW_LIMIT: u64 = 64 << 20;

/// The folder under `raw/` that keeps a run's files: the run id, when it is a plain file name
/// (no `/` or `\`, not starting with `.`, at most 255 bytes).
pub fn raw_folder(run_id: &str) -> Option<&str> {
    let plain = !run_id.is_empty() && run_id.len() <= 255 && !run_id.starts_with('.') && !run_id.contains(['/', '\\', '\0']);
    plain.then_some(run_id)
}

/// What [`keep_sources`] did, said by the command.
pub struct Kept {
    /// `raw/r1/ keeps out.json (1.2 kB)`, or why nothing was kept.
    pub said: String,
}

/// Puts the run's files read from disk into `staged/raw/<run_id>/`, in place of what was there
/// (a replaced run's files); files with the same name get `2-`, `3-`, ... before it.
pub fn keep_sources(staged: &Path, run_id: &str, files: &[SourceFile]) -> Result<Kept, ImportError> {
    let raw = staged.join("raw");
    let Some(folder) = raw_folder(run_id) else {
        return Ok(Kept { said: format!("the source files are not kept: the run id {run_id:?} is not a folder name") });
    };
    let dir = raw.join(folder);
    let io = |what: &str, path: &Path, e: std::io::Error| ImportError::file(&path.display().to_string(), format!("cannot be {what}: {e}"));
    match std::fs::remove_dir_all(&dir) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(io("removed", &dir, e)),
    }
    let (mut total, mut kept, mut left) = (0u64, Vec::new(), Vec::new());
    let mut names = std::collections::BTreeSet::new();
    for file in files {
        let Some(path) = &file.path else { continue };
        let size = std::fs::metadata(path).map_err(|e| io("read", path, e))?.len();
        let base = path.file_name().map_or_else(|| "source".to_string(), |n| n.to_string_lossy().into_owned());
        if total + size > RAW_LIMIT {
            left.push(base);
            continue;
        }
        let name = (1..).map(|i| if i == 1 { base.clone() } else { format!("{i}-{base}") }).find(|n| !names.contains(n)).expect("a free name");
        if kept.is_empty() {
            std::fs::create_dir_all(&dir).map_err(|e| io("created", &dir, e))?;
        }
        std::fs::copy(path, dir.join(&name)).map_err(|e| io("copied", path, e))?;
        names.insert(name.clone());
        total += size;
        kept.push(name);
    }
    let mut said = match kept.is_empty() {
        true => "no source file kept".to_string(),
        false => format!("raw/{folder}/ keeps {} ({} bytes)", kept.join(", "), total),
    };
    if !left.is_empty() {
        said.push_str(&format!(
            "; not kept, past {} MiB a run: {} (sources.csv names each with its sha256)",
            RAW_LIMIT >> 20,
            left.join(", ")
        ));
    }
    Ok(Kept { said })
}

/// The dataset.toml of a dataset an import creates: a title and description naming the tool, and
/// its factors in the order given (their levels follow from runs.csv).
pub fn manifest(tool: Tool, factors: &[(String, String)]) -> String {
    let quoted = |text: &str| toml::Value::String(text.to_string()).to_string();
    let tool = tool.name();
    let mut text = String::from(
        "# Written by `analyze import` when it created this dataset; later imports leave it alone: edit it\n# (datasets/README.md lists its keys).\n",
    );
    text.push_str(&format!(
        "title = {{ en = {}, ja = {} }}\n",
        quoted(&format!("Runs imported from {tool}")),
        quoted(&format!("{tool}から取り込んだ実行"))
    ));
    text.push_str(&format!(
        "description = {{ en = {}, ja = {} }}\n",
        quoted(&format!(
            "Imported by analyze import from {tool}'s output files; each run's files are kept under raw/<run id>/ (up to {} MiB a run) and listed with their sha256 in sources.csv.",
            RAW_LIMIT >> 20
        )),
        quoted(&format!(
            "analyze importで{tool}の出力ファイルから取り込んだ。各実行のファイルはraw/<実行ID>/に保存し（1実行あたり{} MiBまで）、sha256とともにsources.csvに記載した。",
            RAW_LIMIT >> 20
        ))
    ));
    for (name, _) in factors {
        text.push_str(&format!("\n[[factors]]\nname = {}\n", quoted(name)));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_id_that_is_no_plain_file_name_keeps_no_folder() {
        assert_eq!(raw_folder("r01"), Some("r01"));
        for id in ["a/b", "..", ".hidden", "a\\b", ""] {
            assert_eq!(raw_folder(id), None, "{id}");
        }
    }

    #[test]
    fn the_manifest_parses_as_a_dataset_toml_with_its_factors() {
        let text = manifest(Tool::Autocannon, &[("server".into(), "fastify".into()), ("route \"x\"".into(), "a".into())]);
        let manifest: crate::dataset::manifest::Manifest = toml::from_str(&text).unwrap();
        let title = manifest.title.unwrap();
        assert_eq!((title.get(crate::model::Lang::En), title.get(crate::model::Lang::Ja)), ("Runs imported from autocannon", "autocannonから取り込んだ実行"));
        assert_eq!(manifest.factors.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), ["server", "route \"x\""]);
    }
}
