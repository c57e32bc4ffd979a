//! A run's own rows while `analyze import` adds its requests: measure's runs.csv row of the run and its
//! rows of the tables measure writes (servers, CPU and RSS samples), kept in `raw/<run_id>/measure-rows.json`
//! from just before the import until measure has saved the dataset with them.
//!
//! Why: the import publishes the run's row in runs.csv (and drops side-table rows of runs runs.csv does not
//! list yet), and measure writes its own rows only after the import. A study killed between the two would
//! resume with the run `ok` but without its samples and with an empty start time. With this file,
//! [`recover`] puts them back on `--resume`; killed before the import, the run has no row and its raw
//! folder, this file with it, is cleared when its id is used again.

use super::rows::RunRow;
use super::{RunRecord, Table, RAW_DIR};
use crate::plan::Plan;
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The file in `raw/<run_id>/`.
pub const PENDING_FILE: &str = "measure-rows.json";

/// What the file holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Pending {
    /// measure's runs.csv cells of the run, before the import added its note.
    run: Vec<String>,
    /// Table file name → rows.
    tables: BTreeMap<String, Vec<Vec<String>>>,
}

/// `dir/raw/<run_id>/measure-rows.json`.
pub fn path(dir: &Path, run_id: &str) -> PathBuf {
    dir.join(RAW_DIR).join(run_id).join(PENDING_FILE)
}

/// Keeps `row` and `record`'s rows of `tables` until the dataset is saved with them.
pub fn write(dir: &Path, row: &RunRow, record: &RunRecord, tables: &[Table]) -> Result<()> {
    let pending = Pending {
        run: row.cells(),
        tables: tables.iter().map(|t| (t.file().to_string(), record.rows(*t).to_vec())).filter(|(_, rows)| !rows.is_empty()).collect(),
    };
    let text = serde_json::to_string(&pending).context("failed to render the run's rows")?;
    let raw = dir.join(RAW_DIR).join(&row.run_id);
    std::fs::create_dir_all(&raw).with_context(|| format!("failed to create {}", raw.display()))?;
    super::write_atomic(&raw, PENDING_FILE, &text)
}

/// Removes the file once the dataset holds the run's rows.
pub fn remove(dir: &Path, run_id: &str) -> Result<()> {
    let path = path(dir, run_id);
    match std::fs::remove_file(&path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e).with_context(|| format!("failed to remove {}", path.display())),
        _ => Ok(()),
    }
}

/// For the `ok` run `row` read back from runs.csv: measure's own row and table rows, when a study was
/// killed after the run's import and before measure saved them. The row keeps the note the import wrote.
pub fn recover(dir: &Path, plan: &Plan, row: &RunRow) -> Result<Option<(RunRow, RunRecord)>> {
    let path = path(dir, &row.run_id);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("failed to read {}", path.display())),
    };
    let pending: Pending = serde_json::from_str(&text).with_context(|| format!("{} is not measure's", path.display()))?;
    let mut recovered = RunRow::from_cells(plan, &pending.run).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    recovered.note = crate::run::note::join(&[recovered.note, row.note.clone()]);
    let mut record = RunRecord::default();
    for table in Table::ALL {
        for cells in pending.tables.get(table.file()).into_iter().flatten() {
            if cells.len() == table.header().len() && table != Table::StepRequests {
                record.push(table, cells.clone());
            }
        }
    }
    Ok(Some((recovered, record)))
}
