//! The dataset on disk (format: `datasets/README.md`). The only module that writes files.
//!
//! All rows are kept in memory and every file is rewritten after each run, each one atomically (a temp file
//! in the same folder, then rename), so a reader never sees a half-written file. The data tables are written
//! before runs.csv, and [`Dataset::load`] drops rows of runs that runs.csv does not list as `ok`: a crash
//! between two renames therefore cannot leave rows of an unfinished run in a resumed dataset.
//!
//! One [`Dataset`] holds either kind of study; what differs is in [`open`] and [`closed`]: the tables
//! measure writes itself, and what it says in dataset.toml and README.md.

pub mod closed;
pub mod command;
pub mod csv;
pub mod manifest;
pub mod open;
pub mod pending;
pub mod readme;
pub mod rows;
#[cfg(test)]
mod written_bytes;

use crate::input::BadInput;
use crate::plan::Plan;
use anyhow::{Context, Result};
use manifest::Environment;
use rows::{RunRow, RunStatus};
use std::collections::BTreeSet;
use std::path::Path;

/// The plan as kept with the data.
pub const PLAN_FILE: &str = "plan.toml";
/// The dataset's manifest: titles, factors and environment for `analyze`.
pub const MANIFEST_FILE: &str = "dataset.toml";
/// The run table; its presence marks a folder as a dataset.
pub const RUNS_FILE: &str = "runs.csv";
/// The folder of the load tools' own files (ab's, hey's) and a command plan's server output, one subfolder
/// per run.
pub const RAW_DIR: &str = "raw";

/// One data table other than runs.csv.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table {
    Requests,
    Large,
    Tempfiles,
    Resources,
    Servers,
    Sessions,
    /// requests.csv of measure's session client: each request with its step as its label.
    StepRequests,
}

impl Table {
    /// Every data table, in the order they are written.
    pub const ALL: [Table; 7] =
        [Table::Requests, Table::Large, Table::Tempfiles, Table::Resources, Table::Servers, Table::Sessions, Table::StepRequests];

    pub fn file(self) -> &'static str {
        match self {
            Table::Requests | Table::StepRequests => "requests.csv",
            Table::Large => "large_responses.csv",
            Table::Tempfiles => "tempfiles.csv",
            Table::Resources => "resources.csv",
            Table::Servers => "servers.csv",
            Table::Sessions => "sessions.csv",
        }
    }

    pub fn header(self) -> &'static [&'static str] {
        match self {
            Table::Requests => rows::REQUESTS,
            Table::Large => rows::LARGE,
            Table::Tempfiles => rows::TEMPFILES,
            Table::Resources => rows::RESOURCES,
            Table::Servers => rows::SERVERS,
            Table::Sessions => rows::SESSIONS,
            Table::StepRequests => rows::STEP_REQUESTS,
        }
    }

    fn index(self) -> usize {
        Table::ALL.iter().position(|t| *t == self).unwrap_or(0)
    }
}

/// The tables measure writes for `plan` (the others, as ab's and hey's rows, are `analyze import`'s).
fn tables(plan: &Plan) -> Vec<Table> {
    match plan {
        Plan::Open(_) => open::TABLES.to_vec(),
        Plan::Closed(p) => closed::tables(p.load.tool),
        Plan::Command(p) => command::tables(p),
    }
}

/// Whether runs.csv and requests.csv are there from the start, with their header and no row. An open-loop
/// dataset is complete before its first run; a closed-loop one gets each file with its first row, so the
/// first `analyze import` of ab's or hey's files finds no runs.csv it would have to reconcile (and
/// `analyze` rejects a table with a header and no rows).
fn complete_from_the_start(plan: &Plan) -> bool {
    matches!(plan, Plan::Open(_))
}

/// The rows one run produced.
#[derive(Debug, Clone, Default)]
pub struct RunRecord {
    /// Cells per data table, indexed like [`Table::ALL`].
    pub tables: [Vec<Vec<String>>; 7],
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

/// How many runs the plan has and how those run so far ended, as a README states it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub planned: usize,
    pub ok: usize,
    pub aborted: usize,
    pub excluded: usize,
}

impl Tally {
    /// The tally of `runs` against `plan`.
    pub fn of(plan: &Plan, runs: &[RunRow]) -> Tally {
        let count = |s: RunStatus| runs.iter().filter(|r| r.status == s).count();
        Tally {
            planned: plan.run_order().len(),
            ok: count(RunStatus::Ok),
            aborted: count(RunStatus::Aborted),
            excluded: count(RunStatus::Excluded),
        }
    }
}

/// Every run so far and the rows of the `ok` ones.
#[derive(Debug, Clone, Default)]
pub struct Dataset {
    pub runs: Vec<RunRow>,
    data: RunRecord,
    /// Runs whose own rows [`Dataset::load`] took from their [`pending`] file: remove those files once
    /// the dataset is saved.
    pub recovered: Vec<String>,
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

    /// Reads a dataset this harness wrote for `plan` (for `--resume`).
    pub fn load(dir: &Path, plan: &Plan) -> Result<Dataset> {
        let mut dataset = Dataset::default();
        if !dir.join(RUNS_FILE).exists() && !complete_from_the_start(plan) {
            return Ok(dataset);
        }
        // A dataset of an older measure has no `round` column yet, or neither `recipe` nor `round`; it is
        // written with both from now on.
        let header = rows::runs_header(plan);
        let mut runs = read_table(dir, RUNS_FILE, &header);
        for lacking in 1..=rows::ADDED_SINCE {
            if runs.is_err() {
                runs = read_table(dir, RUNS_FILE, &header[..header.len() - lacking]).or(runs);
            }
        }
        let runs = runs?;
        for (i, cells) in runs.into_iter().enumerate() {
            let row = RunRow::from_cells(plan, &cells).map_err(|e| BadInput::at(&dir.join(RUNS_FILE), i as u64 + 2, None, e))?;
            dataset.runs.push(row);
        }
        // The rows of an aborted run are dropped; an excluded run (set aside by hand, or by measure when
        // its condition's recipe changed) keeps them: it is marked, not deleted.
        let ok: BTreeSet<&str> = dataset.runs.iter().filter(|r| r.status != RunStatus::Aborted).map(|r| r.run_id.as_str()).collect();
        for table in tables(plan) {
            if !dir.join(table.file()).exists() {
                continue;
            }
            let rows = read_table(dir, table.file(), table.header())?;
            let kept = rows.into_iter().filter(|r| ok.contains(r[0].as_str()));
            dataset.data.tables[table.index()].extend(kept);
        }
        dataset.recover_pending(dir, plan)?;
        Ok(dataset)
    }

    /// Puts back measure's own rows of `ok` runs whose import finished but whose save did not (the study
    /// was killed in between; see [`pending`]).
    fn recover_pending(&mut self, dir: &Path, plan: &Plan) -> Result<()> {
        let measured = tables(plan);
        for i in 0..self.runs.len() {
            if self.runs[i].status != RunStatus::Ok {
                continue;
            }
            let Some((row, record)) = pending::recover(dir, plan, &self.runs[i])? else { continue };
            for table in &measured {
                let have = self.data.rows(*table).iter().any(|r| r[0] == row.run_id);
                if !have {
                    self.data.tables[table.index()].extend(record.rows(*table).iter().cloned());
                }
            }
            self.recovered.push(row.run_id.clone());
            self.runs[i] = row;
        }
        Ok(())
    }

    /// Keeps a run's own rows in its raw folder until the dataset is saved with them (see [`pending`]).
    pub fn keep_pending(dir: &Path, plan: &Plan, row: &RunRow, record: &RunRecord) -> Result<()> {
        pending::write(dir, row, record, &tables(plan))
    }

    /// Writes every file: data tables, dataset.toml (merged into the user's, see [`manifest`]) and README.md
    /// (only measure's block in it, see [`readme`]), then runs.csv last.
    pub fn save(&self, dir: &Path, plan: &Plan, env: &Environment) -> Result<()> {
        self.write_tables(dir, plan)?;
        manifest::write_dataset_toml(dir, &generated_manifest(plan, env))?;
        readme::write_readme(dir, &generated_readme(plan, env, &Tally::of(plan, &self.runs)))?;
        if self.runs.is_empty() && !complete_from_the_start(plan) {
            return Ok(());
        }
        let runs: Vec<Vec<String>> = self.runs.iter().map(RunRow::cells).collect();
        write_table(dir, RUNS_FILE, &rows::runs_header(plan), &runs)
    }

    fn write_tables(&self, dir: &Path, plan: &Plan) -> Result<()> {
        let from_start = complete_from_the_start(plan);
        for table in tables(plan) {
            let rows = self.rows(table);
            if rows.is_empty() && !(from_start && table == Table::Requests) {
                remove_if_present(&dir.join(table.file()))?;
            } else {
                write_table(dir, table.file(), table.header(), rows)?;
            }
        }
        Ok(())
    }
}

/// What measure writes into dataset.toml for `plan` (merged into the file there by [`manifest`]).
fn generated_manifest<'a>(plan: &Plan, env: &'a Environment) -> manifest::Generated<'a> {
    match plan {
        Plan::Open(p) => open::dataset_toml(p, env),
        Plan::Closed(p) => closed::dataset_toml(p, env),
        Plan::Command(p) => command::dataset_toml(p, env),
    }
}

/// Measure's block of the dataset's README.md (placed into the file there by [`readme`]).
fn generated_readme(plan: &Plan, env: &Environment, tally: &Tally) -> String {
    match plan {
        Plan::Open(p) => open::render_readme(p, env, tally),
        Plan::Closed(p) => closed::render_readme(p, env, tally),
        Plan::Command(p) => command::render_readme(p, env, tally),
    }
}

fn read_table<H: AsRef<str> + std::fmt::Debug>(dir: &Path, file: &str, header: &[H]) -> Result<Vec<Vec<String>>> {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).with_context(|| format!("failed to read {}", path.display()))?;
    let (found, rows) = csv::parse(&text).map_err(|e| BadInput::at(&path, e.line, e.column, e.message))?;
    if !found.iter().map(String::as_str).eq(header.iter().map(AsRef::as_ref)) {
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
pub fn write_table<H: AsRef<str>>(dir: &Path, name: &str, header: &[H], rows: &[Vec<String>]) -> Result<()> {
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
    use crate::plan::open::{self, Route, Worker};
    use crate::plan::{Condition, Slot};

    fn smoke() -> Plan {
        Plan::parse(include_str!("../../plans/smoke.toml")).unwrap()
    }

    fn run(id: &str, status: RunStatus) -> RunRow {
        RunRow {
            run_id: id.into(),
            slot: Slot {
                condition: Condition::Open(open::Condition { route: Route::Direct, downloads: 1, worker: Worker::Sync }),
                repetition: 1,
            },
            started_at_utc: "2026-11-30T00:00:00Z".into(),
            status,
            note: if status == RunStatus::Ok { String::new() } else { "interrupted, by \"me\"".into() },
            load1_before: Some(0.5),
            load1_after: Some(0.25),
            recipe: String::new(),
            round: None,
            contention: Default::default(),
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
        let plan = smoke();
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

        let back = Dataset::load(dir.path(), &smoke()).unwrap();
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
        let plan = smoke();
        let mut ds = Dataset::default();
        ds.add(run("r01", RunStatus::Ok), record("r01"));
        ds.save(dir.path(), &plan, &Environment::new()).unwrap();
        let path = dir.path().join(readme::README_FILE);
        let first = std::fs::read_to_string(&path).unwrap();
        assert!(first.starts_with(&format!("{}\n# ", readme::BEGIN)) && first.ends_with(&format!("{}\n", readme::END)), "{first}");
        let mine = "\n## Compared with the published study\n\n| cell | published | measured |\n| --- | --- | --- |\n| a | 1.57 | 1.61 |\n";
        std::fs::write(&path, format!("Notes above.\n{first}{mine}")).unwrap();

        let mut resumed = Dataset::load(dir.path(), &smoke()).unwrap();
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
        let plan = smoke();
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
        write_atomic(dir.path(), RUNS_FILE, &csv::render(&rows::runs_header(&smoke()), &[run("r01", RunStatus::Ok).cells()]).unwrap())
            .unwrap();
        let mut both = record("r01").rows(Table::Requests).to_vec();
        both.extend(record("r02").rows(Table::Requests).to_vec());
        write_atomic(dir.path(), "requests.csv", &csv::render(rows::REQUESTS, &both).unwrap()).unwrap();
        let back = Dataset::load(dir.path(), &smoke()).unwrap();
        assert_eq!(back.rows(Table::Requests).len(), 1);
    }

    #[test]
    fn refuses_to_resume_foreign_columns() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(RUNS_FILE), "run_id,status\nr01,ok\n").unwrap();
        let err = format!("{:#}", Dataset::load(dir.path(), &smoke()).unwrap_err());
        assert!(err.contains("cannot resume"), "{err}");
    }

    /// The bytes the hand-written renderer wrote (testdata/, kept from before dataset.toml went through
    /// toml_edit; a closed-loop plan's interpreters since in the plan's order), so datasets written since
    /// read the same.
    #[test]
    fn dataset_toml_is_byte_identical_to_the_hand_written_one() {
        let env = manifest::fixture_environment();
        for (plan, expected) in [
            (include_str!("../../plans/study.toml"), include_str!("testdata/study.dataset.toml")),
            (include_str!("../../plans/smoke.toml"), include_str!("testdata/smoke.dataset.toml")),
            (include_str!("../../plans/app-servers-ab.toml"), include_str!("testdata/app-servers-ab.dataset.toml")),
            (include_str!("../../plans/gthread-python-versions.toml"), include_str!("testdata/gthread-python-versions.dataset.toml")),
            (include_str!("../../plans/fastcgi-vs-gunicorn.toml"), include_str!("testdata/fastcgi-vs-gunicorn.dataset.toml")),
        ] {
            let plan = Plan::parse(plan).unwrap();
            assert_eq!(generated_manifest(&plan, &env).document().to_string(), expected);
        }
    }

    /// Resuming any of the committed datasets would leave its dataset.toml (with what was added by hand, as
    /// the `[published]` values and their comments) byte for byte as it is.
    #[test]
    fn rewriting_the_committed_dataset_tomls_changes_nothing() {
        for (committed, plan) in [
            (
                include_str!("../../../datasets/gunicorn-slow-client/dataset.toml"),
                include_str!("../../../datasets/gunicorn-slow-client/plan.toml"),
            ),
            (include_str!("../../../datasets/app-servers-ab/dataset.toml"), include_str!("../../../datasets/app-servers-ab/plan.toml")),
            (
                include_str!("../../../datasets/gthread-python-versions/dataset.toml"),
                include_str!("../../../datasets/gthread-python-versions/plan.toml"),
            ),
            (
                include_str!("../../../datasets/fastcgi-vs-gunicorn/dataset.toml"),
                include_str!("../../../datasets/fastcgi-vs-gunicorn/plan.toml"),
            ),
            (
                include_str!("../../../datasets/static-file-servers/dataset.toml"),
                include_str!("../../../datasets/static-file-servers/plan.toml"),
            ),
        ] {
            let plan = Plan::parse(plan).unwrap();
            let env = manifest::read_environment(Path::new(MANIFEST_FILE), committed).unwrap();
            let merged = manifest::merge(committed, &generated_manifest(&plan, &env).document()).unwrap();
            assert_eq!(merged, committed, "{}", plan.default_dataset());
        }
    }

    fn sessions_plan() -> Plan {
        Plan::parse(include_str!("../../plans/fastcgi-vs-gunicorn.toml")).unwrap()
    }

    fn closed_run(id: &str, status: RunStatus) -> RunRow {
        RunRow { slot: sessions_plan().run_order()[0].clone(), note: "interrupted, twice".into(), load1_after: None, ..run(id, status) }
    }

    fn closed_record(id: &str) -> RunRecord {
        let mut r = RunRecord::default();
        r.push(
            Table::StepRequests,
            vec![id.into(), "0".into(), "0.000".into(), "0.100".into(), "9.000".into(), "200".into(), "5".into(), "get-page".into()],
        );
        r.push(
            Table::Sessions,
            vec![id.into(), "0".into(), "0.000".into(), "0.100".into(), "9.000".into(), "1".into(), "".into(), "".into()],
        );
        r.push(Table::Resources, vec![id.into(), "0.000".into(), "nginx".into(), "7".into(), "0.010".into(), "4096".into()]);
        r.push(Table::Servers, vec![id.into(), "nginx".into(), "8080".into(), "7".into()]);
        r
    }

    #[test]
    fn a_closed_loop_dataset_saves_and_resumes_keeping_only_ok_rows() {
        let dir = tempfile::tempdir().unwrap();
        let plan = sessions_plan();
        let mut ds = Dataset::default();
        ds.save(dir.path(), &plan, &Environment::new()).unwrap();
        assert!(!dir.path().join(RUNS_FILE).exists() && !dir.path().join("requests.csv").exists(), "no table before its first row");
        ds.add(closed_run("r01", RunStatus::Ok), closed_record("r01"));
        ds.add(closed_run("r02", RunStatus::Aborted), closed_record("r02"));
        ds.save(dir.path(), &plan, &Environment::new()).unwrap();
        let runs = std::fs::read_to_string(dir.path().join(RUNS_FILE)).unwrap();
        assert!(
            runs.starts_with("run_id,server,python,sessions,repetition,started_at_utc,status,note,load1_before,load1_after,recipe,round,server_cpu_share,load_cpu_share,steal_pct\n"),
            "{runs}"
        );
        assert!(runs.contains(",aborted,\"interrupted, twice\",0.50,,,,,,\n"), "{runs}");
        let requests = std::fs::read_to_string(dir.path().join("requests.csv")).unwrap();
        assert_eq!(requests.lines().count(), 2, "only the ok run's request: {requests}");
        assert!(requests.starts_with("run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes,label\n"), "{requests}");
        assert!(requests.ends_with(",get-page\n"), "each request with its step: {requests}");
        let back = Dataset::load(dir.path(), &plan).unwrap();
        assert_eq!(back.runs, ds.runs);
        assert_eq!(back.rows(Table::Sessions).len(), 1);
        let toml = std::fs::read_to_string(dir.path().join(MANIFEST_FILE)).unwrap();
        assert!(toml.contains("x = \"sessions\"") && toml.contains("value = \"fastcgi-prefork\""), "{toml}");
    }

    #[test]
    fn a_closed_loop_dataset_leaves_the_tables_of_ab_and_hey_to_analyze_import() {
        let dir = tempfile::tempdir().unwrap();
        let plan = Plan::parse(include_str!("../../plans/app-servers-ab.toml")).unwrap();
        // As `analyze import` left them for r01.
        let imported = "run_id,seq,scheduled_ms,sent_ms,latency_ms,status,body_bytes\nr01,0,0.000,0.000,9.000,200,5\n";
        std::fs::write(dir.path().join("requests.csv"), imported).unwrap();
        let mut ds = Dataset::default();
        ds.add(RunRow { slot: plan.run_order()[0].clone(), ..run("r01", RunStatus::Ok) }, closed_record("r01"));
        ds.save(dir.path(), &plan, &Environment::new()).unwrap();
        assert_eq!(std::fs::read_to_string(dir.path().join("requests.csv")).unwrap(), imported);
        assert!(!dir.path().join("sessions.csv").exists());
        assert!(Dataset::load(dir.path(), &plan).unwrap().rows(Table::Requests).is_empty(), "requests.csv is not measure's to read back");
    }

    /// A study killed after `analyze import` published a run (its row in runs.csv, without a start time or
    /// host load) and before measure saved its own rows: `--resume` takes them from the run's raw folder.
    #[test]
    fn a_run_imported_but_not_saved_gets_measures_rows_back() {
        let dir = tempfile::tempdir().unwrap();
        let plan = Plan::parse(include_str!("../../plans/static-file-servers.toml")).unwrap();
        let slot = plan.run_order()[0].clone();
        let mine = RunRow { slot: slot.clone(), note: "measure.sigkill(server=nginx)".into(), ..run("r01", RunStatus::Ok) };
        let mut record = RunRecord::default();
        record.push(Table::Servers, vec!["r01".into(), "nginx".into(), "4000".into(), "77".into()]);
        record.push(Table::Resources, vec!["r01".into(), "0.000".into(), "nginx".into(), "77".into(), "0.010".into(), "4096".into()]);
        Dataset::keep_pending(dir.path(), &plan, &mine, &record).unwrap();
        // What the import left: its own row of the run, its note, no start, no load.
        let imported = RunRow {
            started_at_utc: String::new(),
            note: "hey.csv-resolution".into(),
            load1_before: None,
            load1_after: None,
            recipe: String::new(),
            round: None,
            contention: Default::default(),
            ..mine.clone()
        };
        write_table(dir.path(), RUNS_FILE, &rows::runs_header(&plan), &[imported.cells()]).unwrap();

        let back = Dataset::load(dir.path(), &plan).unwrap();
        assert_eq!(back.recovered, ["r01"]);
        assert_eq!(back.runs, [RunRow { note: "measure.sigkill(server=nginx); hey.csv-resolution".into(), ..mine }]);
        assert_eq!(back.rows(Table::Servers), record.rows(Table::Servers));
        assert_eq!(back.rows(Table::Resources), record.rows(Table::Resources));
        back.save(dir.path(), &plan, &Environment::new()).unwrap();
        pending::remove(dir.path(), "r01").unwrap();
        let again = Dataset::load(dir.path(), &plan).unwrap();
        assert!(again.recovered.is_empty() && again.rows(Table::Resources).len() == 1, "saved once, read back as is");
    }

    /// As on `--resume` of seed 001's dataset: its "Published beside measured" section, written by hand after
    /// measure's block, survives byte for byte; the block is brought up to date.
    #[test]
    fn a_resumed_save_keeps_the_published_beside_measured_section() {
        let dir = tempfile::tempdir().unwrap();
        let plan = sessions_plan();
        let env = Environment::new();
        let mut ds = Dataset::default();
        ds.save(dir.path(), &plan, &env).unwrap();
        let path = dir.path().join(readme::README_FILE);
        let first = std::fs::read_to_string(&path).unwrap();
        let planned = plan.run_order().len();
        assert!(first.contains(&format!("\n0 of {planned} planned runs ok")), "{first}");
        let mine = "\n## Published beside measured\n\nThe seed printed 1,043 requests/s; we measured fewer.\n";
        std::fs::write(&path, format!("{first}{mine}")).unwrap();

        ds.add(closed_run("r01", RunStatus::Ok), RunRecord::default());
        ds.save(dir.path(), &plan, &env).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let (block, below) = text.split_once(&format!("{}\n", readme::END)).unwrap();
        assert_eq!(below, mine);
        assert!(block.starts_with(readme::BEGIN) && block.contains(&format!("\n1 of {planned} planned runs ok")), "{block}");
    }
}
