//! Hands one run's load-tool files (ab's, hey's) to `analyze import`, the one reader of those formats, which
//! appends the run's request rows, the tool's own numbers and the run's row to the dataset. measure then
//! rewrites runs.csv with its own row for the run, keeping the note import wrote.

use crate::dataset::rows::condition_cells;
use crate::dataset::RUNS_FILE;
use crate::load::tool::ToolFiles;
use crate::plan::{Plan, Slot};
use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::Command;

/// One run's import.
pub struct Import<'a> {
    pub analyze: Option<&'a Path>,
    pub dataset: &'a Path,
    pub plan: &'a Plan,
    pub run_id: &'a str,
    pub slot: &'a Slot,
}

impl Import<'_> {
    /// Imports the files; returns the note import wrote on the run's row (measure rewrites runs.csv).
    pub fn run(&self, files: &ToolFiles) -> Result<String> {
        let analyze = self.analyze.context("no analyze binary to import the tool's files with")?;
        let mut command = Command::new(analyze);
        command.arg("import").args(&files.outputs).arg("--into").arg(self.dataset).args(["--run-id", self.run_id]);
        // The run's factors as runs.csv names them (the repetition has its own flag).
        for (key, value) in self.plan.factors().into_iter().zip(condition_cells(&self.slot.condition)) {
            command.arg("--factor").arg(format!("{key}={value}"));
        }
        // measure records the run's start itself when it rewrites runs.csv after the import, so the
        // import is not given one (a tool's own start, ab -g's, may differ from measure's by the
        // server's start-up, and import refuses a --started-at that differs from the files').
        command.args(["--repetition", &self.slot.repetition.to_string()]);
        // --replace: run ids are measure's; a row of this id can only be left from an import whose run
        // measure did not get to record (a crash between the two writes). import refuses to replace a
        // run that does not exist.
        let runs = std::fs::read_to_string(self.dataset.join(RUNS_FILE)).unwrap_or_default();
        if imported_note(&runs, self.run_id).is_ok() {
            command.arg("--replace");
        }
        let out = command.output().with_context(|| format!("could not run {}", analyze.display()))?;
        if !out.status.success() {
            bail!("analyze import of {} failed ({}): {}", self.run_id, out.status, String::from_utf8_lossy(&out.stderr).trim());
        }
        let runs = std::fs::read_to_string(self.dataset.join(RUNS_FILE)).context("runs.csv after the import")?;
        imported_note(&runs, self.run_id).map_err(|e| anyhow::anyhow!("runs.csv after the import: {e}"))
    }
}

/// The `note` of `run_id` in runs.csv text.
fn imported_note(runs_csv: &str, run_id: &str) -> Result<String, String> {
    let (header, rows) = crate::dataset::csv::parse(runs_csv).map_err(|e| e.to_string())?;
    let column = |name: &str| header.iter().position(|c| c == name).ok_or_else(|| format!("no {name} column"));
    let (id, note) = (column("run_id")?, column("note")?);
    let row = rows.iter().find(|r| r[id] == run_id).ok_or_else(|| format!("no row for {run_id}"))?;
    Ok(row[note].clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_import_wrote_is_found_by_run_id() {
        let runs = "run_id,server,python,concurrency,repetition,started_at_utc,status,note\n\
                    r01,uwsgi-1x1,3.11,5,1,2026-11-30T15:00:00Z,ok,\n\
                    r02,uwsgi-1x1,3.11,5,2,2026-11-30T15:01:00Z,ok,\"ab: 3 non-2xx responses, statuses unknown\"\n";
        assert_eq!(imported_note(runs, "r02").unwrap(), "ab: 3 non-2xx responses, statuses unknown");
        assert_eq!(imported_note(runs, "r01").unwrap(), "");
        assert!(imported_note(runs, "r09").unwrap_err().contains("r09"));
    }
}
