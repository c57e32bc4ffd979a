//! The files measure writes for a closed-loop dataset, and reading them back for `--resume`.
//!
//! measure writes runs.csv (its own bookkeeping: status, note, host load), resources.csv, servers.csv,
//! dataset.toml, README.md and plan.toml. Request rows come from two places: measure's own session client
//! writes requests.csv and sessions.csv here; for ab and hey, `analyze import` writes requests.csv,
//! run_stats.csv and sources.csv from the tool's files (kept under `raw/<run_id>/`), so this module never
//! touches those. Every file goes through the one atomic writer, runs.csv last.

use crate::dataset::manifest::{self, Factor, Generated, Level, Text};
use crate::dataset::{csv, meta, readme, rows, write_table, RUNS_FILE};
use crate::input::BadInput;
use crate::load::session::SessionResult;
use crate::plan::closed::{ClosedPlan, Condition, Slot, Tool};
use anyhow::{Context, Result};
use rows::{RunRow, RunStatus, SlotCells};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

/// sessions.csv: one row per session of seed 003's client.
pub const SESSIONS: &[&str] = &["run_id", "session", "scheduled_ms", "sent_ms", "session_ms", "requests", "failed_step", "error"];
/// The folder of the load tools' own files, one subfolder per run.
pub const RAW_DIR: &str = "raw";

/// One row of a closed-loop runs.csv.
pub type ClosedRunRow = RunRow<Slot>;

/// runs.csv's header for a plan: the factors are server, python and the load level.
pub fn runs_header(tool: Tool) -> Vec<&'static str> {
    vec!["run_id", "server", "python", tool.level_factor(), "repetition", "started_at_utc", "status", "note", "load1_before", "load1_after"]
}

impl SlotCells for Slot {
    fn slot_cells(&self) -> [String; 4] {
        let c = &self.condition;
        [c.server.clone(), c.python.clone(), c.concurrency.to_string(), self.repetition.to_string()]
    }

    fn from_slot_cells([server, python, level, repetition]: &[String; 4]) -> Result<Slot, String> {
        let number = |s: &String, what: &str| s.parse::<u32>().map_err(|_| format!("{what} {s:?} is not a count"));
        Ok(Slot {
            condition: Condition { server: server.clone(), python: python.clone(), concurrency: number(level, "level")? },
            repetition: number(repetition, "repetition")?,
        })
    }
}

/// A sessions.csv row.
pub fn session_cells(run_id: &str, s: &SessionResult) -> Vec<String> {
    let sent = s.requests.first().map(|r| format!("{:.3}", r.sent_ms)).unwrap_or_default();
    let (step, error) = s.failure.clone().map_or((String::new(), String::new()), |(step, e)| (step.to_string(), e));
    vec![
        run_id.into(),
        s.session.to_string(),
        format!("{:.3}", s.scheduled_ms),
        sent,
        s.duration_ms().map(|d| format!("{d:.3}")).unwrap_or_default(),
        s.requests.len().to_string(),
        step,
        error,
    ]
}

/// The rows one closed-loop run produced that measure writes itself.
#[derive(Debug, Clone, Default)]
pub struct ClosedRecord {
    pub requests: Vec<Vec<String>>,
    pub sessions: Vec<Vec<String>>,
    pub resources: Vec<Vec<String>>,
    pub servers: Vec<Vec<String>>,
}

/// The tables measure owns, with their headers; requests.csv only when measure's own client made them.
fn tables(tool: Tool) -> Vec<(&'static str, &'static [&'static str])> {
    let mut t = vec![("resources.csv", rows::RESOURCES), ("servers.csv", rows::SERVERS)];
    if tool == Tool::Sessions {
        t.extend([("requests.csv", rows::REQUESTS), ("sessions.csv", SESSIONS)]);
    }
    t
}

/// Every run so far and the rows of the `ok` ones.
#[derive(Debug, Clone, Default)]
pub struct ClosedDataset {
    pub runs: Vec<ClosedRunRow>,
    data: ClosedRecord,
}

impl ClosedDataset {
    /// Adds a finished run; only an `ok` run's rows are kept.
    pub fn add(&mut self, row: ClosedRunRow, record: ClosedRecord) {
        if row.status == RunStatus::Ok {
            self.data.requests.extend(record.requests);
            self.data.sessions.extend(record.sessions);
            self.data.resources.extend(record.resources);
            self.data.servers.extend(record.servers);
        }
        self.runs.push(row);
    }

    fn rows(&self, file: &str) -> &[Vec<String>] {
        match file {
            "resources.csv" => &self.data.resources,
            "servers.csv" => &self.data.servers,
            "requests.csv" => &self.data.requests,
            _ => &self.data.sessions,
        }
    }

    fn rows_mut(&mut self, file: &str) -> &mut Vec<Vec<String>> {
        match file {
            "resources.csv" => &mut self.data.resources,
            "servers.csv" => &mut self.data.servers,
            "requests.csv" => &mut self.data.requests,
            _ => &mut self.data.sessions,
        }
    }

    /// Reads a closed-loop dataset this harness wrote (for `--resume`); rows of runs that are not `ok` in
    /// runs.csv are dropped, as after a crash between two writes.
    pub fn load(dir: &Path, tool: Tool) -> Result<ClosedDataset> {
        let mut dataset = ClosedDataset::default();
        let path = dir.join(RUNS_FILE);
        if !path.exists() {
            return Ok(dataset);
        }
        let (header, rows) = read(&path)?;
        if header != runs_header(tool) {
            return Err(BadInput::at(
                &path,
                1,
                None,
                format!("columns {header:?} are not those measure writes for this plan; cannot resume"),
            )
            .into());
        }
        for (i, cells) in rows.into_iter().enumerate() {
            let row = ClosedRunRow::from_cells(&cells).map_err(|e| BadInput::at(&path, i as u64 + 2, None, e))?;
            dataset.runs.push(row);
        }
        let ok: BTreeSet<String> = dataset.runs.iter().filter(|r| r.status == RunStatus::Ok).map(|r| r.run_id.clone()).collect();
        for (file, columns) in tables(tool) {
            let path = dir.join(file);
            if !path.exists() {
                continue;
            }
            let (header, rows) = read(&path)?;
            if header != columns {
                return Err(BadInput::at(&path, 1, None, format!("columns {header:?} are not {columns:?}; cannot resume")).into());
            }
            dataset.rows_mut(file).extend(rows.into_iter().filter(|r| ok.contains(&r[0])));
        }
        Ok(dataset)
    }

    /// Writes measure's tables, dataset.toml and README.md (only measure's block in it, see [`readme`]), then runs.csv (only once it has a run, so the
    /// first `analyze import` creates nothing it would have to reconcile).
    pub fn save(&self, dir: &Path, plan: &ClosedPlan, env: &meta::Environment) -> Result<()> {
        for (file, columns) in tables(plan.load.tool) {
            let rows = self.rows(file);
            // analyze rejects a table with a header and no rows; requests.csv comes with the first run.
            if !rows.is_empty() {
                write_table(dir, file, columns, rows)?;
            }
        }
        manifest::write_dataset_toml(dir, &dataset_toml(plan, env))?;
        readme::write_readme(dir, &render_readme(plan, env, &self.runs))?;
        if !self.runs.is_empty() {
            let cells: Vec<Vec<String>> = self.runs.iter().map(ClosedRunRow::cells).collect();
            write_table(dir, RUNS_FILE, &runs_header(plan.load.tool), &cells)?;
        }
        Ok(())
    }
}

fn read(path: &Path) -> Result<(Vec<String>, Vec<Vec<String>>)> {
    let text = std::fs::read_to_string(path).with_context(|| format!("failed to read {}", path.display()))?;
    Ok(csv::parse(&text).map_err(|e| BadInput::at(path, e.line, e.column, e.message))?)
}

/// What measure writes into dataset.toml (rendered and merged by [`manifest`]): titles, the factors with
/// their labels in the plan's order, and the environment. The x axis is the load level, unless the plan
/// varies only the interpreter (seed 002), then it is the interpreter.
pub fn dataset_toml<'a>(plan: &ClosedPlan, env: &'a meta::Environment) -> Generated<'a> {
    let conditions = plan.conditions();
    let level = plan.load.tool.level_factor();
    let levels: BTreeSet<u32> = conditions.iter().map(|c| c.concurrency).collect();
    let pythons = plan.pythons();
    let (x, series) = if levels.len() == 1 && pythons.len() > 1 { ("python", ["server", level]) } else { (level, ["server", "python"]) };
    let mut servers: Vec<Level> = Vec::new();
    for c in &conditions {
        if !servers.iter().any(|l| l.value == c.server) {
            servers.push(Level { value: c.server.clone(), label: plan.servers[&c.server].label.clone() });
        }
    }
    let pythons = pythons.iter().map(|p| Level { value: p.clone(), label: Text::new(p, p) }).collect();
    let level_label = match plan.load.tool {
        Tool::Sessions => Text::new("Sessions over the ramp", "セッション数"),
        Tool::Ab | Tool::Hey => Text::new("Concurrency", "並列度"),
    };
    Generated {
        comment: "Generated by `measure run` from a closed-loop plan; read by `analyze`.",
        title: plan.title.clone(),
        description: plan.description.clone(),
        percentile: 95,
        large_response_bytes: None,
        x: x.into(),
        series: series.map(String::from).to_vec(),
        factors: vec![
            Factor { name: "server".into(), label: Text::new("Server", "サーバー"), levels: Some(servers) },
            Factor { name: "python".into(), label: Text::new("Python", "Python"), levels: Some(pythons) },
            Factor { name: level.into(), label: level_label, levels: None },
        ],
        environment: env,
    }
}

/// The dataset's README.md: what was run, how, with which versions, and how many runs are ok.
pub fn render_readme(plan: &ClosedPlan, env: &meta::Environment, runs: &[ClosedRunRow]) -> String {
    let planned = plan.run_order().len();
    let count = |s: RunStatus| runs.iter().filter(|r| r.status == s).count();
    let mut t = String::new();
    let _ = writeln!(t, "# {}\n\n{}\n", plan.title.en, plan.description.en);
    let _ = writeln!(
        t,
        "Generated by `measure run` from `plan.toml` (kept here); the numbers are in the report, never here. \
             measure rewrites this text, between its `measure:begin` and `measure:end` comments, after every run; \
             text added outside them is kept.\n"
    );
    let _ = writeln!(
        t,
        "{} of {planned} planned runs ok, {} aborted (listed in runs.csv with a note, and re-run).\n",
        count(RunStatus::Ok),
        count(RunStatus::Aborted)
    );
    let _ = writeln!(t, "## What runs\n");
    let load = match plan.load.tool {
        Tool::Ab => {
            format!("`ab -n {} -c C -s {}` (ApacheBench) on `{}`", plan.load.requests.unwrap_or(0), plan.load.request_timeout_s, plan.path)
        }
        Tool::Hey => match plan.load.duration_s {
            Some(z) => format!("`hey -c C -z {z}s -t {}` on `{}`", plan.load.request_timeout_s, plan.path),
            None => format!("`hey -c C -n {} -t {}` on `{}`", plan.load.requests.unwrap_or(0), plan.load.request_timeout_s, plan.path),
        },
        Tool::Sessions => format!(
            "measure's session client: N sessions started evenly over {} s, each GET `{}`, POST the form, GET the redirect \
             (each request on a new connection, {} s bound per request)",
            plan.load.ramp_s.unwrap_or(0),
            plan.path,
            plan.load.request_timeout_s
        ),
    };
    let _ = writeln!(t, "- Load: {load}, from 127.0.0.1, one run at a time, in the plan's shuffled order (seed {}).", plan.seed);
    let _ = writeln!(t, "- Every run starts its servers fresh on free loopback ports and stops them by PID afterwards; CPU and RSS of every server process are sampled every {} ms (resources.csv).", plan.sampling.interval_ms);
    if plan.load.tool != Tool::Sessions {
        let _ = writeln!(t, "- The tool's own files are kept under `raw/<run_id>/` and imported with `analyze import` (requests.csv, run_stats.csv, sources.csv).");
    }
    let _ = writeln!(t, "- {} repetitions of each condition.\n", plan.repetitions);
    let _ = writeln!(t, "| server | kind | shape | behind nginx |\n| --- | --- | --- | --- |");
    for (name, s) in &plan.servers {
        let shape = match s.kind.as_str() {
            "gunicorn" => format!("{} x{} worker(s) x {} thread(s)", s.worker.as_deref().unwrap_or(""), s.processes, s.threads),
            "uwsgi" => format!("{} process(es) x {} thread(s)", s.processes, s.threads),
            "fastcgi" => format!("flup {}", s.method.as_deref().unwrap_or("")),
            _ => "threaded development server".into(),
        };
        let _ = writeln!(t, "| {name} | {} | {shape} | {} |", s.kind.as_str(), if s.behind_nginx() { "yes" } else { "no" });
    }
    let _ = writeln!(t, "\n## Environment\n\n| key | value |\n| --- | --- |");
    for (k, v) in env {
        let _ = writeln!(t, "| {k} | {} |", v.replace('|', "\\|"));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::probe::ProbeResult;

    fn plan() -> ClosedPlan {
        ClosedPlan::parse(include_str!("../../plans/fastcgi-vs-gunicorn.toml")).unwrap()
    }

    fn row(id: &str, status: RunStatus) -> ClosedRunRow {
        ClosedRunRow {
            run_id: id.into(),
            slot: plan().run_order()[0].clone(),
            started_at_utc: "2026-11-30T15:00:00Z".into(),
            status,
            note: if status == RunStatus::Ok { String::new() } else { "interrupted, twice".into() },
            load1_before: Some(0.25),
            load1_after: None,
        }
    }

    fn session(n: u32, failed: bool) -> SessionResult {
        let request =
            |seq, sent_ms| ProbeResult { seq, scheduled_ms: sent_ms, sent_ms, latency_ms: Some(10.0), status: 200, body_bytes: 5 };
        SessionResult {
            session: n,
            scheduled_ms: 20.0 * f64::from(n),
            requests: vec![request(n * 3, 20.0), request(n * 3 + 1, 31.0), request(n * 3 + 2, 42.5)],
            failure: failed.then(|| (2, "status 502".to_string())),
        }
    }

    #[test]
    fn session_rows_leave_failed_sessions_without_a_time() {
        assert_eq!(session_cells("r01", &session(1, false)), ["r01", "1", "20.000", "20.000", "32.500", "3", "", ""]);
        assert_eq!(session_cells("r01", &session(1, true))[4..], ["", "3", "2", "status 502"]);
        assert_eq!(SESSIONS.len(), session_cells("r01", &session(1, true)).len());
    }

    #[test]
    fn saves_and_resumes_keeping_only_ok_rows() {
        let dir = tempfile::tempdir().unwrap();
        let plan = plan();
        let mut ds = ClosedDataset::default();
        let record = |id: &str| ClosedRecord {
            requests: vec![vec![id.into(), "0".into(), "0.000".into(), "0.100".into(), "9.000".into(), "200".into(), "5".into()]],
            sessions: vec![session_cells(id, &session(0, false))],
            resources: vec![vec![id.into(), "0.000".into(), "nginx".into(), "7".into(), "0.010".into(), "4096".into()]],
            servers: vec![vec![id.into(), "nginx".into(), "8080".into(), "7".into()]],
        };
        ds.add(row("r01", RunStatus::Ok), record("r01"));
        ds.add(row("r02", RunStatus::Aborted), record("r02"));
        ds.save(dir.path(), &plan, &meta::Environment::new()).unwrap();
        let runs = std::fs::read_to_string(dir.path().join(RUNS_FILE)).unwrap();
        assert!(
            runs.starts_with("run_id,server,python,sessions,repetition,started_at_utc,status,note,load1_before,load1_after\n"),
            "{runs}"
        );
        assert!(runs.contains(",aborted,\"interrupted, twice\",0.25,\n"), "{runs}");
        let requests = std::fs::read_to_string(dir.path().join("requests.csv")).unwrap();
        assert_eq!(requests.lines().count(), 2, "only the ok run's request: {requests}");
        let back = ClosedDataset::load(dir.path(), Tool::Sessions).unwrap();
        assert_eq!(back.runs, ds.runs);
        assert_eq!(back.data.sessions.len(), 1);
        let toml = std::fs::read_to_string(dir.path().join(crate::dataset::META_FILE)).unwrap();
        assert!(toml.contains("x = \"sessions\"") && toml.contains("value = \"fastcgi-prefork\""), "{toml}");
    }

    /// As on `--resume` of seed 001's dataset: its "Published beside measured" section, written by hand after
    /// measure's block, survives byte for byte; the block is brought up to date.
    #[test]
    fn a_resumed_save_keeps_the_published_beside_measured_section() {
        let dir = tempfile::tempdir().unwrap();
        let plan = plan();
        let env = meta::Environment::new();
        let mut ds = ClosedDataset::default();
        ds.save(dir.path(), &plan, &env).unwrap();
        let path = dir.path().join(readme::README_FILE);
        let first = std::fs::read_to_string(&path).unwrap();
        let planned = plan.run_order().len();
        assert!(first.contains(&format!("\n0 of {planned} planned runs ok")), "{first}");
        let mine = "\n## Published beside measured\n\nThe seed printed 1,043 requests/s; we measured fewer.\n";
        std::fs::write(&path, format!("{first}{mine}")).unwrap();

        ds.add(row("r01", RunStatus::Ok), ClosedRecord::default());
        ds.save(dir.path(), &plan, &env).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let (block, below) = text.split_once(&format!("{}\n", readme::END)).unwrap();
        assert_eq!(below, mine);
        assert!(block.starts_with(readme::BEGIN) && block.contains(&format!("\n1 of {planned} planned runs ok")), "{block}");
    }

    /// The bytes the hand-written renderer wrote (dataset/testdata/, kept from before dataset.toml went
    /// through toml_edit; the interpreters since in the plan's order), so datasets written since read the same.
    #[test]
    fn dataset_toml_is_byte_identical_to_the_hand_written_one() {
        let env = crate::dataset::manifest::fixture_environment();
        for (plan, expected) in [
            (include_str!("../../plans/app-servers-ab.toml"), include_str!("../dataset/testdata/app-servers-ab.dataset.toml")),
            (
                include_str!("../../plans/gthread-python-versions.toml"),
                include_str!("../dataset/testdata/gthread-python-versions.dataset.toml"),
            ),
            (include_str!("../../plans/fastcgi-vs-gunicorn.toml"), include_str!("../dataset/testdata/fastcgi-vs-gunicorn.dataset.toml")),
        ] {
            let plan = ClosedPlan::parse(plan).unwrap();
            assert_eq!(dataset_toml(&plan, &env).document().to_string(), expected);
        }
    }

    /// Resuming any of the committed seed datasets would leave its dataset.toml (with what was added by
    /// hand) byte for byte as it is.
    #[test]
    fn rewriting_the_committed_dataset_tomls_changes_nothing() {
        for (committed, plan) in [
            (include_str!("../../../datasets/app-servers-ab/dataset.toml"), include_str!("../../../datasets/app-servers-ab/plan.toml")),
            (
                include_str!("../../../datasets/gthread-python-versions/dataset.toml"),
                include_str!("../../../datasets/gthread-python-versions/plan.toml"),
            ),
            (
                include_str!("../../../datasets/fastcgi-vs-gunicorn/dataset.toml"),
                include_str!("../../../datasets/fastcgi-vs-gunicorn/plan.toml"),
            ),
        ] {
            let plan = ClosedPlan::parse(plan).unwrap();
            let env = meta::read_environment(Path::new("dataset.toml"), committed).unwrap();
            let merged = manifest::merge(committed, &dataset_toml(&plan, &env).document()).unwrap();
            assert_eq!(merged, committed, "{}", plan.dataset);
        }
    }

    #[test]
    fn a_python_only_plan_puts_the_interpreter_on_the_x_axis() {
        let plan = ClosedPlan::parse(include_str!("../../plans/gthread-python-versions.toml")).unwrap();
        let env = meta::Environment::new();
        let toml = dataset_toml(&plan, &env).document().to_string();
        assert!(toml.contains("x = \"python\"\nseries = [\"server\", \"concurrency\"]"), "{toml}");
        let parsed: toml::Table = toml.parse().unwrap();
        assert_eq!(parsed["factors"].as_array().unwrap().len(), 3);
    }
}
