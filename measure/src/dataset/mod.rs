//! The dataset on disk (format: `datasets/README.md`). The only module that writes files.
//!
//! All rows are kept in memory and every file is rewritten after each run, each one atomically (a temp file
//! in the same folder, then rename), so a reader never sees a half-written file. The data tables are written
//! before runs.csv, and [`Dataset::load`] drops rows of runs that runs.csv does not list as `ok`: a crash
//! between two renames therefore cannot leave rows of an unfinished run in a resumed dataset.

pub mod csv;
pub mod manifest;
pub mod meta;
pub mod readme;
pub mod rows;
#[cfg(test)]
mod written_bytes;

use crate::input::BadInput;
use anyhow::{Context, Result};
use meta::Environment;
use rows::{RunRow, RunStatus};
use std::collections::BTreeSet;
use std::path::Path;

use crate::plan::Plan;

/// The plan as kept with the data.
pub const PLAN_FILE: &str = "plan.toml";
/// Titles, factors and environment for `analyze`.
pub const META_FILE: &str = "dataset.toml";
/// The run table; its presence marks a folder as a dataset.
pub const RUNS_FILE: &str = "runs.csv";

/// One data table other than runs.csv.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table {
    Requests,
    Large,
    Tempfiles,
    Resources,
    Servers,
}

impl Table {
    /// Every data table, in the order they are written.
    pub const ALL: [Table; 5] = [Table::Requests, Table::Large, Table::Tempfiles, Table::Resources, Table::Servers];

    pub fn file(self) -> &'static str {
        match self {
            Table::Requests => "requests.csv",
            Table::Large => "large_responses.csv",
            Table::Tempfiles => "tempfiles.csv",
            Table::Resources => "resources.csv",
            Table::Servers => "servers.csv",
        }
    }

    pub fn header(self) -> &'static [&'static str] {
        match self {
            Table::Requests => rows::REQUESTS,
            Table::Large => rows::LARGE,
            Table::Tempfiles => rows::TEMPFILES,
            Table::Resources => rows::RESOURCES,
            Table::Servers => rows::SERVERS,
        }
    }

    /// Only requests.csv is required; an optional table is left out while it has no rows (`analyze`
    /// rejects a table with a header and no data).
    pub fn required(self) -> bool {
        self == Table::Requests
    }

    fn index(self) -> usize {
        Table::ALL.iter().position(|t| *t == self).unwrap_or(0)
    }
}

/// The rows one run produced.
#[derive(Debug, Clone, Default)]
pub struct RunRecord {
    /// Cells per data table, indexed like [`Table::ALL`].
    pub tables: [Vec<Vec<String>>; 5],
}

impl RunRecord {
    /// Appends a row to `table`.
    pub fn push(&mut self, table: Table, cells: Vec<String>) {
        debug_assert_eq!(cells.len(), table.header().len(), "{}", table.file());
        self.tables[table.index()].push(cells);
    }

    /// The rows of `table`.
    pub fn rows(&self, table: Table) -> &[Vec<String>] {
        &self.tables[table.index()]
    }
}

/// Every run so far and the rows of the `ok` ones.
#[derive(Debug, Clone, Default)]
pub struct Dataset {
    pub runs: Vec<RunRow>,
    data: RunRecord,
}

impl Dataset {
    /// Adds a finished run; the rows of a run that is not `ok` are dropped, its runs.csv row is kept.
    pub fn add(&mut self, row: RunRow, record: RunRecord) {
        if row.status == RunStatus::Ok {
            for (all, new) in self.data.tables.iter_mut().zip(record.tables) {
                all.extend(new);
            }
        }
        self.runs.push(row);
    }

    /// The rows of `table` across runs.
    pub fn rows(&self, table: Table) -> &[Vec<String>] {
        self.data.rows(table)
    }

    /// Reads a dataset this harness wrote (for `--resume`).
    pub fn load(dir: &Path) -> Result<Dataset> {
        let mut dataset = Dataset::default();
        for (i, cells) in read_table(dir, RUNS_FILE, rows::RUNS)?.into_iter().enumerate() {
            let row = RunRow::from_cells(&cells).map_err(|e| BadInput::at(&dir.join(RUNS_FILE), i as u64 + 2, None, e))?;
            dataset.runs.push(row);
        }
        let ok: BTreeSet<&str> = dataset.runs.iter().filter(|r| r.status == RunStatus::Ok).map(|r| r.run_id.as_str()).collect();
        for table in Table::ALL {
            if !dir.join(table.file()).exists() {
                continue;
            }
            let rows = read_table(dir, table.file(), table.header())?;
            let kept = rows.into_iter().filter(|r| ok.contains(r[0].as_str()));
            dataset.data.tables[table.index()].extend(kept);
        }
        Ok(dataset)
    }

    /// Writes every file: data tables, dataset.toml (merged into the user's, see [`manifest`]) and README.md
    /// (only measure's block in it, see [`readme`]), then runs.csv last.
    pub fn save(&self, dir: &Path, plan: &Plan, env: &Environment) -> Result<()> {
        for table in Table::ALL {
            let rows = self.rows(table);
            if rows.is_empty() && !table.required() {
                remove_if_present(&dir.join(table.file()))?;
            } else {
                write_table(dir, table.file(), table.header(), rows)?;
            }
        }
        manifest::write_dataset_toml(dir, &meta::dataset_toml(plan, env))?;
        readme::write_readme(dir, &meta::render_readme(plan, env, &self.runs))?;
        let runs: Vec<Vec<String>> = self.runs.iter().map(RunRow::cells).collect();
        write_table(dir, RUNS_FILE, rows::RUNS, &runs)
    }
}

fn read_table(dir: &Path, file: &str, header: &[&str]) -> Result<Vec<Vec<String>>> {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).with_context(|| format!("failed to read {}", path.display()))?;
    let (found, rows) = csv::parse(&text).map_err(|e| BadInput::at(&path, e.line, e.column, e.message))?;
    if found != header {
        let message = format!("the columns are {found:?}, this harness writes {header:?}; it cannot resume this dataset");
        return Err(BadInput::at(&path, 1, None, message).into());
    }
    Ok(rows)
}

fn remove_if_present(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e).with_context(|| format!("failed to remove {}", path.display())),
        _ => Ok(()),
    }
}

/// Writes the table `dir/name` (through [`csv::render`], atomically).
pub fn write_table(dir: &Path, name: &str, header: &[&str], rows: &[Vec<String>]) -> Result<()> {
    let text = csv::render(header, rows).map_err(|e| anyhow::anyhow!("{}:{e} (a bug in measure)", dir.join(name).display()))?;
    write_atomic(dir, name, &text)
}

/// Writes `dir/name` atomically through the one writer shared with analyze (`outdir`): a temp
/// file beside it, fsync'd, mode 0644 under the umask, renamed; the file is either old or new.
pub fn write_atomic(dir: &Path, name: &str, content: &str) -> Result<()> {
    let path = dir.join(name);
    outdir::write_file(&path, content.as_bytes()).with_context(|| format!("failed to write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{Condition, Route, Slot, Worker};

    fn run(id: &str, status: RunStatus) -> RunRow {
        RunRow {
            run_id: id.into(),
            slot: Slot { condition: Condition { route: Route::Direct, downloads: 1, worker: Worker::Sync }, repetition: 1 },
            started_at_utc: "2026-11-30T00:00:00Z".into(),
            status,
            note: if status == RunStatus::Ok { String::new() } else { "interrupted, by \"me\"".into() },
            load1_before: Some(0.5),
            load1_after: Some(0.25),
        }
    }

    fn record(id: &str) -> RunRecord {
        let mut r = RunRecord::default();
        r.push(Table::Requests, vec![id.into(), "0".into(), "250.000".into(), "250.100".into(), "1.500".into(), "200".into(), "12".into()]);
        r.push(Table::Servers, vec![id.into(), "gunicorn".into(), "4000".into(), "77".into()]);
        r
    }

    #[test]
    fn saves_and_loads_back_keeping_only_ok_rows() {
        let dir = tempfile::tempdir().unwrap();
        let plan = Plan::parse(include_str!("../../plans/smoke.toml")).unwrap();
        let mut ds = Dataset::default();
        ds.add(run("r01", RunStatus::Ok), record("r01"));
        ds.add(run("r02", RunStatus::Aborted), record("r02"));
        ds.save(dir.path(), &plan, &Environment::new()).unwrap();

        let runs = std::fs::read_to_string(dir.path().join(RUNS_FILE)).unwrap();
        assert!(runs.starts_with("run_id,route,downloads,worker,repetition,"));
        assert_eq!(runs.lines().count(), 3);
        let requests = std::fs::read_to_string(dir.path().join("requests.csv")).unwrap();
        assert_eq!(requests, "run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\nr01,0,250.000,250.100,1.500,200,12\n");
        assert!(dir.path().join("servers.csv").exists() && dir.path().join("README.md").exists());
        assert!(!dir.path().join("tempfiles.csv").exists(), "an optional table without rows is left out");

        let back = Dataset::load(dir.path()).unwrap();
        assert_eq!(back.runs, ds.runs);
        assert_eq!(back.rows(Table::Requests), ds.rows(Table::Requests));
        // No temp files left behind by the atomic writes.
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert!(names.iter().all(|n| !n.to_string_lossy().starts_with('.')), "{names:?}");
    }

    /// As on `--resume`: the hand-written text around measure's block survives byte for byte, the block is
    /// brought up to date.
    #[test]
    fn a_resumed_save_keeps_the_hand_written_readme_sections() {
        let dir = tempfile::tempdir().unwrap();
        let plan = Plan::parse(include_str!("../../plans/smoke.toml")).unwrap();
        let mut ds = Dataset::default();
        ds.add(run("r01", RunStatus::Ok), record("r01"));
        ds.save(dir.path(), &plan, &Environment::new()).unwrap();
        let path = dir.path().join(readme::README_FILE);
        let first = std::fs::read_to_string(&path).unwrap();
        assert!(first.starts_with(&format!("{}\n# ", readme::BEGIN)) && first.ends_with(&format!("{}\n", readme::END)), "{first}");
        let mine = "\n## Compared with the published study\n\n| cell | published | measured |\n| --- | --- | --- |\n| a | 1.57 | 1.61 |\n";
        std::fs::write(&path, format!("Notes above.\n{first}{mine}")).unwrap();

        let mut resumed = Dataset::load(dir.path()).unwrap();
        resumed.add(run("r02", RunStatus::Ok), record("r02"));
        resumed.save(dir.path(), &plan, &Environment::new()).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let (above, rest) = text.split_once(readme::BEGIN).unwrap();
        let (block, below) = rest.split_once(readme::END).unwrap();
        assert_eq!((above, below), ("Notes above.\n", &*format!("\n{mine}")));
        let planned = plan.run_order().len();
        assert!(first.contains(&format!("1 of {planned} planned runs ok")), "{first}");
        assert!(block.contains(&format!("2 of {planned} planned runs ok")), "{block}");
    }

    #[test]
    fn a_readme_measure_did_not_write_is_left_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let plan = Plan::parse(include_str!("../../plans/smoke.toml")).unwrap();
        let mine = "# Slow clients\n\nWritten by hand, without measure's markers.\n";
        std::fs::write(dir.path().join(readme::README_FILE), mine).unwrap();
        let mut ds = Dataset::default();
        ds.add(run("r01", RunStatus::Ok), record("r01"));
        ds.save(dir.path(), &plan, &Environment::new()).unwrap();
        assert_eq!(std::fs::read_to_string(dir.path().join(readme::README_FILE)).unwrap(), mine);
        assert!(dir.path().join(RUNS_FILE).exists(), "the rest of the dataset is still written");
    }

    #[test]
    fn load_drops_rows_of_runs_missing_from_runs_csv() {
        // As after a crash between writing requests.csv and runs.csv.
        let dir = tempfile::tempdir().unwrap();
        write_atomic(dir.path(), RUNS_FILE, &csv::render(rows::RUNS, &[run("r01", RunStatus::Ok).cells()]).unwrap()).unwrap();
        let mut both = record("r01").rows(Table::Requests).to_vec();
        both.extend(record("r02").rows(Table::Requests).to_vec());
        write_atomic(dir.path(), "requests.csv", &csv::render(rows::REQUESTS, &both).unwrap()).unwrap();
        let back = Dataset::load(dir.path()).unwrap();
        assert_eq!(back.rows(Table::Requests).len(), 1);
    }

    #[test]
    fn refuses_to_resume_foreign_columns() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(RUNS_FILE), "run_id,status\nr01,ok\n").unwrap();
        let err = format!("{:#}", Dataset::load(dir.path()).unwrap_err());
        assert!(err.contains("cannot resume"), "{err}");
    }
}
