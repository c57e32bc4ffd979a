//! `measure run`: the whole study, of any kind of plan. Resolves the plan and the output folder, checks
//! the tools before any run (the kind's own [`open::preflight`], [`closed::preflight`] or
//! [`command::preflight`]), then executes the pending runs in the plan's shuffled order, saving the dataset
//! after every run. `--dry-run` stops before the preflight and prints what would run ([`dry_run`]).
//!
//! Resume model: the plan fixes a list of slots (condition × repetition). A slot is done when runs.csv has
//! an `ok` row for it. `run_id`s number executions (`r01`, `r02`, ...), so a slot whose run was aborted is
//! run again later under a new id and the same repetition, and the aborted row stays in runs.csv with its
//! note (it holds no repetition: `analyze import` counts only `ok` runs). What an aborted run does to the
//! study is the plan's [`OnAbort`]: the seeds' plans stop there (the cause, a crash or Ctrl-C, usually needs
//! a look before going on with `--resume`); a command plan goes on with the next run. Each run records its
//! condition's [`recipe`]; on `--resume` (with an edited plan.toml, a rebuilt server, or another plan of the
//! same kind and factors given as `--plan`) the `ok` runs of another recipe are set aside and their
//! conditions measured again whole. The whole study holds the dataset's [`lock`]; a new dataset goes only
//! into a missing or empty folder.
//!
//! After each `ok` run of a load tool (ab, hey, ...), the tool's files (kept in `raw/<run_id>/`) are handed
//! to `analyze import` ([`import`]), the one reader of those formats, which appends the run's request rows
//! and the tool's own numbers to the dataset; measure then rewrites runs.csv with its own row for the run.

pub mod closed;
pub mod command;
pub mod dry_run;
pub mod import;
pub mod lock;
pub mod open;
pub mod recipe;

use crate::cli::RunArgs;
use crate::clock::{date_utc, rfc3339_utc, sleep_until};
use crate::dataset::manifest::{read_environment, Environment};
use crate::dataset::rows::{RunRow, RunStatus};
use crate::dataset::{write_atomic, Dataset, MANIFEST_FILE, PLAN_FILE, RAW_DIR, RUNS_FILE};
use crate::host;
use crate::input::BadInput;
use crate::plan::{Host, OnAbort, Order, Plan, Slot};
use crate::progress::Progress;
use crate::run::{self, Installed, RunEnv};
use anyhow::{bail, Context, Result};
use import::Import;
use request_row::note_words::NoteKey;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

/// The default plan, relative to the repository root.
pub const DEFAULT_PLAN: &str = "measure/plans/study.toml";

/// How a study ended without an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StudyEnd {
    /// Every planned run is `ok`.
    Complete,
    /// Stopped by SIGINT/SIGTERM; `--resume` continues.
    Interrupted,
    /// A run was aborted; `--resume` continues.
    Aborted,
}

/// What the preflight found and made ready.
pub struct Tools {
    pub installed: Installed,
    pub nginx_bin: Option<PathBuf>,
    /// The `analyze` binary that imports a load tool's files (plans with ab or hey).
    pub analyze: Option<PathBuf>,
    /// The folder of the app the servers load (absolute).
    pub app_dir: PathBuf,
    /// The `[environment]` of a new dataset.
    pub environment: Environment,
    /// The versions of the tools, as `environment` records them: a resumed dataset is compared with them.
    pub versions: Environment,
}

/// Runs `measure run`.
pub fn run_study(args: &RunArgs) -> Result<StudyEnd> {
    let interrupted = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(sig, Arc::clone(&interrupted)).context("failed to install the signal handler")?;
    }
    let (plan, plan_text, out) = resolve_plan(args)?;
    let source_path = plan_source(args, &out);
    // Held until the study ends: a second measure on this dataset is refused at once (see [`lock`]).
    let _lock = if args.dry_run { None } else { Some(lock::DatasetLock::take(&out)?) };
    // The dataset to resume is read before anything is installed or started, so bad input stops the
    // run at once.
    let resumed = if args.resume {
        let dataset = Dataset::load(&out, &plan)?;
        let path = out.join(MANIFEST_FILE);
        let env = read_environment(&path, &std::fs::read_to_string(&path).unwrap_or_default())?;
        let kept = Plan::load(&out.join(PLAN_FILE))?;
        refuse_dropped_conditions(&plan, &source_path, &dataset.runs)?;
        Some((dataset, env, kept))
    } else {
        None
    };
    let source = command::Source { path: &source_path, text: &plan_text };
    if args.dry_run {
        let mut runs = resumed.as_ref().map_or_else(Vec::new, |(dataset, _, _)| dataset.runs.clone());
        if let Some((_, env, (kept_plan, kept_text))) = &resumed {
            // Without the preflight no program is looked at: only what the plans say is compared (a
            // rebuilt server shows when the study starts).
            let now = recipe::recipes(&plan, &plan_text, env)?;
            let kept = recipe::recipes(kept_plan, kept_text, env)?;
            let unrecorded: Vec<RunRow> = runs.iter().map(|r| RunRow { recipe: String::new(), ..r.clone() }).collect();
            let changed = recipe::changed(&unrecorded, &now, &kept);
            if !changed.is_empty() {
                print!("{}", recipe::describe(&plan, &changed));
                recipe::set_aside(&mut runs, &changed);
            }
        }
        print!("{}", dry_run::describe(&plan, source, &out, args.resume, &runs)?);
        return Ok(StudyEnd::Complete);
    }
    let mut tools = match &plan {
        Plan::Open(p) => open::preflight(p, args)?,
        Plan::Closed(p) => closed::preflight(p, args)?,
        Plan::Command(p) => command::preflight(p, args, source)?,
    };

    tools.environment.insert("server_stop".into(), crate::servers::supervisor::announce().into());
    std::fs::create_dir_all(&out).with_context(|| format!("failed to create {}", out.display()))?;
    let recipes = recipe::recipes(&plan, &plan_text, &tools.versions)?;
    let (mut dataset, env) = if let Some((mut dataset, mut env, (kept_plan, kept_text))) = resumed {
        warn_on_changed_tools(&env, &tools.versions);
        // A run an older measure recorded no recipe for was measured with the plan kept until now and the
        // programs dataset.toml recorded.
        let recorded: Environment = tools.versions.iter().map(|(k, v)| (k.clone(), env.get(k).unwrap_or(v).clone())).collect();
        let kept = recipe::recipes(&kept_plan, &kept_text, &recorded)?;
        let changed = recipe::changed(&dataset.runs, &recipes, &kept);
        if !changed.is_empty() {
            eprint!("{}", recipe::describe(&plan, &changed));
            recipe::set_aside(&mut dataset.runs, &changed);
        } else if plan_text != kept_text {
            eprintln!(
                "{}: a new plan for {}; no condition's ok runs were measured under another recipe",
                source_path.display(),
                out.display()
            );
        }
        // From now on the dataset holds the runs of this plan with these programs.
        env.extend(tools.versions.clone());
        if plan_text != kept_text {
            write_atomic(&out, PLAN_FILE, &plan_text)?;
        }
        let today = date_utc(SystemTime::now());
        env.entry("resumed_on".into()).and_modify(|v| *v = format!("{v}, {today}")).or_insert(today);
        (dataset, env)
    } else {
        write_atomic(&out, PLAN_FILE, &plan_text)?;
        (Dataset::default(), tools.environment.clone())
    };
    dataset.save(&out, &plan, &env)?;
    for run_id in std::mem::take(&mut dataset.recovered) {
        crate::dataset::pending::remove(&out, &run_id)?;
    }

    let order = plan.run_order();
    let pending = pending_slots(&order, &dataset.runs);
    let run_env = RunEnv {
        plan: &plan,
        installed: &tools.installed,
        nginx_bin: tools.nginx_bin.as_deref(),
        app_dir: &tools.app_dir,
        interrupted: &interrupted,
    };
    let on_abort = plan.on_abort();
    let pass = Pass {
        out: &out,
        planned: order.len(),
        first: next_run_number(&dataset.runs),
        host: plan.host(),
        wait_for_idle: args.wait_for_idle,
        interrupted: &interrupted,
        estimate: plan.estimated_run(),
        on_abort,
        order: plan.order(),
    };
    // Absolute: a server started in another folder (`cwd = "{run_dir}"`) is given `{raw_dir}`.
    let absolute_out = std::path::absolute(&out).with_context(|| format!("failed to resolve {}", out.display()))?;
    pass.run(&pending, |start, slot| {
        let run_id = &start.run_id;
        // A load tool's own files go here; measure's own clients write their rows straight into the tables.
        let raw = absolute_out.join(RAW_DIR).join(run_id);
        // The recipe the run is measured under, recorded with it (see [`recipe`]).
        let recipe = recipes.get(&slot.condition).cloned().unwrap_or_default();
        if raw.exists() {
            std::fs::remove_dir_all(&raw).with_context(|| format!("failed to clear {}", raw.display()))?;
        }
        let mut result = run::execute(&run_env, run_id, &slot.condition, &raw);
        if let (RunStatus::Ok, Some(files)) = (result.status, &result.tool_files) {
            let row = RunRow {
                recipe: recipe.clone(),
                contention: result.contention,
                ..start.row(slot.clone(), RunStatus::Ok, result.note.clone())
            };
            Dataset::keep_pending(&out, &plan, &row, &result.record)?;
            let import = Import { analyze: tools.analyze.as_deref(), dataset: &out, plan: &plan, run_id, slot };
            run::hook::stop_at(run::hook::Moment::Import);
            match import.run(files) {
                // What import noted about the tool's output (e.g. ab's warnings) stays with the run.
                Ok(note) if !note.is_empty() => result.note = run::note::join(&[result.note.clone(), note]),
                Ok(_) => {}
                Err(e) => {
                    result.status = RunStatus::Aborted;
                    result.note = run::note::message(NoteKey::MeasureImportRefused, &[("why", &run::note::reason(&format!("{e:#}")))]);
                }
            }
        }
        if result.status != RunStatus::Ok && raw.exists() && !on_abort.keep_raw {
            std::fs::remove_dir_all(&raw).with_context(|| format!("failed to remove {}", raw.display()))?;
        }
        let contention = if result.status == RunStatus::Ok { result.contention } else { Default::default() };
        dataset.add(RunRow { recipe, contention, ..start.row(slot.clone(), result.status, result.note.clone()) }, result.record);
        dataset.save(&out, &plan, &env)?;
        run::hook::stop_at(run::hook::Moment::Save);
        crate::dataset::pending::remove(&out, run_id)?;
        Ok((result.status, result.note))
    })
}

/// The number of the next run: one after the highest in runs.csv.
pub fn next_run_number(runs: &[RunRow]) -> u32 {
    runs.iter().filter_map(RunRow::number).max().unwrap_or(0) + 1
}

/// The file the plan being run was read from: `--plan`, else the dataset's plan.toml on `--resume`, else
/// the default plan. A command plan's problems found before the runs are placed at its lines.
fn plan_source(args: &RunArgs, out: &Path) -> PathBuf {
    match (&args.plan, args.resume) {
        (Some(path), _) => path.clone(),
        (None, true) => out.join(PLAN_FILE),
        (None, false) => PathBuf::from(DEFAULT_PLAN),
    }
}

/// A resumed dataset keeps its conditions: a plan (`--plan`, or an edited plan.toml) without a condition
/// that has `ok` runs is refused before anything runs, naming the condition and its runs.
fn refuse_dropped_conditions(plan: &Plan, source: &Path, runs: &[RunRow]) -> Result<()> {
    let conditions = plan.conditions();
    let mut dropped: Vec<(String, Vec<&str>)> = Vec::new();
    for run in runs.iter().filter(|r| r.status == RunStatus::Ok && !conditions.contains(&r.slot.condition)) {
        let name = recipe::condition_name(plan, &run.slot.condition);
        match dropped.iter_mut().find(|(n, _)| *n == name) {
            Some((_, ids)) => ids.push(&run.run_id),
            None => dropped.push((name, vec![&run.run_id])),
        }
    }
    let Some((name, ids)) = dropped.first() else { return Ok(()) };
    let message = format!(
        "no condition {name}, which has ok runs in the dataset ({}){}: a resumed dataset keeps its conditions; put its levels \
         back, or measure the new plan into a new dataset (another --out)",
        ids.join(", "),
        if dropped.len() > 1 { format!(", nor {} other conditions with ok runs", dropped.len() - 1) } else { String::new() }
    );
    Err(BadInput::file(source, message).into())
}

/// The plan to follow, the text to keep as plan.toml, and the dataset folder: `--out`, else the plan's
/// default (the default plan's without `--plan`). A resumed dataset follows its own plan.toml, or `--plan`
/// when that has the dataset's kind and factors; a new one goes only into a missing or empty folder.
fn resolve_plan(args: &RunArgs) -> Result<(Plan, String, PathBuf)> {
    let resolved = plan_and_out(args)?;
    // An open-loop plan runs the one Gunicorn of --venv: an interpreter it would not use is refused,
    // not silently ignored.
    if let (Plan::Open(_), Some(first)) = (&resolved.0, args.pythons.first()) {
        bail!(
            "--python {first}: only closed-loop plans (kind = \"closed-loop\") run on chosen interpreters; this plan is the \
             open-loop slow-download study, which runs Gunicorn from --venv (give it a virtual environment of that interpreter)"
        );
    }
    if let (Plan::Command(_), Some(first)) = (&resolved.0, args.pythons.first()) {
        bail!(
            "--python {first}: only closed-loop plans (kind = \"closed-loop\") run on chosen interpreters; a command plan's \
             servers run the programs their commands name (make the interpreter a factor: command = [\"{{python}}\", ...])"
        );
    }
    Ok(resolved)
}

fn plan_and_out(args: &RunArgs) -> Result<(Plan, String, PathBuf)> {
    let given = match &args.plan {
        Some(path) => Some(given_plan(path, args).context("see measure/plans/README.md for the keys of each kind of plan")?),
        None => None,
    };
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(given.as_ref().map_or(crate::plan::open::DEFAULT_DATASET, |(plan, _)| plan.default_dataset())));
    let kept = out.join(PLAN_FILE);
    // A study still running on the folder says so (with its pid) rather than what it has not written yet.
    if lock::lock_path(&out).exists() && !args.dry_run {
        lock::DatasetLock::take(&out)?;
    }
    if args.resume {
        if !kept.exists() {
            bail!("{} has no {PLAN_FILE}, so there is nothing to resume; run without --resume", out.display());
        }
        let (plan, text) = Plan::load(&kept)?;
        // Another plan may go on with the dataset (a fixed server command, a rebuilt server, other request
        // counts) as long as its runs.csv columns are the dataset's; the conditions whose recipe changed are
        // measured again whole (see [`recipe`]).
        if let (Some(path), Some((given, given_text))) = (&args.plan, given) {
            if given.kind() != plan.kind() || given.factors() != plan.factors() {
                let message = format!(
                    "a {} plan of the factors [{}], {} a {} plan of [{}]: a resumed dataset keeps its kind and its factors (the \
                     columns of runs.csv); measure this plan into a new dataset (another --out)",
                    given.kind(),
                    given.factors().join(", "),
                    kept.display(),
                    plan.kind(),
                    plan.factors().join(", ")
                );
                return Err(BadInput::file(path, message).into());
            }
            return Ok((given, given_text, out));
        }
        return Ok((plan, text, out));
    }
    if out.join(RUNS_FILE).exists() || kept.exists() {
        bail!("{} already holds a dataset; complete it with --resume or choose another --out", out.display());
    }
    refuse_foreign_folder(&out)?;
    let (plan, text) = match given {
        Some(given) => given,
        None => Plan::load(Path::new(DEFAULT_PLAN)).with_context(|| {
            format!("the default plan is {DEFAULT_PLAN}, relative to the repository root; run from there or pass --plan")
        })?,
    };
    Ok((plan, text, out))
}

/// A new dataset goes into a folder that is missing or empty: measure writes plan.toml, the tables and
/// `raw/` there and would overwrite or remove what another program (or the user) keeps in it. Counted as
/// empty: dataset.toml and README.md, which measure merges its text into and never overwrites (so they can
/// be written before the first run), and an empty `raw/` (or one holding only the [`lock`] file of a study
/// that ended before its first write).
fn refuse_foreign_folder(out: &Path) -> Result<()> {
    let entries = match std::fs::read_dir(out) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => {
            return Err(BadInput::file(out, "a file, not a folder: choose another --out").into())
        }
        Err(e) => return Err(e).with_context(|| format!("failed to read {}", out.display())),
    };
    let mut found: Vec<String> = Vec::new();
    for entry in entries {
        let entry = entry.with_context(|| format!("failed to read {}", out.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if (name == MANIFEST_FILE || name == crate::dataset::readme::README_FILE) && entry.path().is_file() {
            continue;
        }
        if name == RAW_DIR && entry.path().is_dir() {
            let inside = std::fs::read_dir(entry.path()).with_context(|| format!("failed to read {}", entry.path().display()))?;
            if inside.filter_map(|e| e.ok()).all(|e| e.file_name() == lock::LOCK_FILE) {
                continue;
            }
        }
        found.push(name);
    }
    if found.is_empty() {
        return Ok(());
    }
    found.sort();
    let shown: Vec<&str> = found.iter().take(5).map(String::as_str).collect();
    let more = if found.len() > shown.len() { format!(" and {} more", found.len() - shown.len()) } else { String::new() };
    let message = format!(
        "not empty ({}{more}) and not a dataset measure wrote (it has no {PLAN_FILE} and {RUNS_FILE}): measure writes a new \
         dataset only into a missing or empty folder; choose another --out",
        shown.join(", ")
    );
    Err(BadInput::file(out, message).into())
}

/// The plan `--plan` names, on the interpreters `--python` names (closed-loop plans), with the text to
/// keep: the file's, or the plan as run.
fn given_plan(path: &Path, args: &RunArgs) -> Result<(Plan, String)> {
    match Plan::load(path)? {
        (Plan::Closed(plan), _) if !args.pythons.is_empty() => {
            let (plan, kept) = closed::with_pythons(plan, &args.pythons, path)?;
            Ok((Plan::Closed(plan), kept))
        }
        given => Ok(given),
    }
}

/// A resumed dataset should be finished with the tools it was started with; say so when they differ.
fn warn_on_changed_tools(recorded: &Environment, now: &Environment) {
    for (key, current) in now {
        if let Some(recorded) = recorded.get(key).filter(|r| *r != current) {
            eprintln!("warning: the dataset was started with {key} {recorded}, this host has {current}");
        }
    }
}

/// A run about to start, as the study's loop numbered and checked it.
pub(crate) struct RunStart {
    pub run_id: String,
    pub started_at_utc: String,
    pub load1_before: Option<f64>,
    /// The run's round, in a plan in rounds.
    pub round: Option<u32>,
}

impl RunStart {
    /// The run's runs.csv row once it has ended (the host load after it is read now).
    pub(crate) fn row(&self, slot: Slot, status: RunStatus, note: String) -> RunRow {
        RunRow {
            run_id: self.run_id.clone(),
            slot,
            started_at_utc: self.started_at_utc.clone(),
            status,
            note,
            load1_before: self.load1_before,
            load1_after: host::load1(),
            recipe: String::new(),
            round: self.round,
            contention: Default::default(),
        }
    }
}

/// The loop over the pending slots: stop between runs on Ctrl-C, number the
/// runs (continuing after the highest number in runs.csv), check the host load, show progress, and at a run
/// that is not `ok` stop or go on, as the plan's [`OnAbort`] says.
pub(crate) struct Pass<'a> {
    pub out: &'a Path,
    /// Runs in the whole plan (for the width of run ids and the closing message).
    pub planned: usize,
    /// The number of the first run of this pass.
    pub first: u32,
    pub host: &'a Host,
    pub wait_for_idle: bool,
    pub interrupted: &'a AtomicBool,
    pub estimate: Duration,
    pub on_abort: OnAbort,
    /// The plan's order: in rounds, each run records its slot's round.
    pub order: Order,
}

impl Pass<'_> {
    /// Runs `one` for each pending slot; `one` executes the run, records and saves it, and returns its status
    /// and note.
    pub(crate) fn run(&self, pending: &[Slot], mut one: impl FnMut(&RunStart, &Slot) -> Result<(RunStatus, String)>) -> Result<StudyEnd> {
        if pending.is_empty() {
            eprintln!(
                "{} of {} {} ok; nothing to do",
                all_runs(self.planned),
                self.out.display(),
                if self.planned == 1 { "is" } else { "are" }
            );
            return Ok(StudyEnd::Complete);
        }
        let width = self.planned.to_string().len().max(2);
        let mut progress = Progress::new(pending.len(), self.estimate);
        let resume_hint = format!("complete them with `measure run --resume --out {}`", self.out.display());
        let mut aborted: Vec<String> = Vec::new();
        for (i, slot) in pending.iter().enumerate() {
            if self.interrupted.load(Ordering::Relaxed) {
                progress.finish();
                eprintln!("interrupted between runs; {}: {resume_hint}", remain(pending.len() - i));
                return Ok(StudyEnd::Interrupted);
            }
            if i > 0 {
                run::hook::stop_at(run::hook::Moment::BetweenRuns);
            }
            let run_id = format!("r{:0width$}", self.first as usize + i);
            let load1_before = check_load(self.host, self.wait_for_idle, self.interrupted, &progress);
            let start = RunStart { run_id, started_at_utc: rfc3339_utc(SystemTime::now()), load1_before, round: slot.round(self.order) };
            progress.start_run(&start.run_id, &slot.condition);
            let started = Instant::now();
            let (status, note) = one(&start, slot)?;
            progress.finish_run(&start.run_id, status.as_str(), &note, started.elapsed());
            if status != RunStatus::Ok {
                if self.on_abort.go_on && !self.interrupted.load(Ordering::Relaxed) {
                    aborted.push(start.run_id.clone());
                    continue;
                }
                progress.finish();
                // The progress line above already gave the run's note.
                eprintln!("{}; {resume_hint}", remain(pending.len() - i));
                return Ok(if self.interrupted.load(Ordering::Relaxed) { StudyEnd::Interrupted } else { StudyEnd::Aborted });
            }
        }
        progress.finish();
        if !aborted.is_empty() {
            eprintln!(
                "{} of {} aborted ({}), {} in runs.csv; {resume_hint}",
                aborted.len(),
                runs(pending.len()),
                aborted.join(", "),
                if aborted.len() == 1 { "with its note" } else { "each with its note" }
            );
            return Ok(StudyEnd::Aborted);
        }
        eprintln!("{} ok; dataset written to {}", all_runs(self.planned), self.out.display());
        Ok(StudyEnd::Complete)
    }
}

/// `1 run`, `3 runs`.
fn runs(n: usize) -> String {
    format!("{n} run{}", if n == 1 { "" } else { "s" })
}

/// `the 1 run`, `all 3 runs`: the whole plan.
fn all_runs(n: usize) -> String {
    if n == 1 {
        "the 1 run".to_string()
    } else {
        format!("all {n} runs")
    }
}

/// `1 run remains`, `3 runs remain`.
fn remain(n: usize) -> String {
    format!("{} remain{}", runs(n), if n == 1 { "s" } else { "" })
}

/// The planned slots without an `ok` run yet, in execution order.
pub fn pending_slots(order: &[Slot], runs: &[RunRow]) -> Vec<Slot> {
    order.iter().filter(|slot| !runs.iter().any(|r| r.status == RunStatus::Ok && r.slot == **slot)).cloned().collect()
}

/// Reads load1 before a run; with `wait`, waits (bounded) for it to drop below the plan's limit. Warns when
/// the run starts on a busy host: other work on the 2 cores shifts latencies.
fn check_load(host_limits: &Host, wait: bool, interrupted: &AtomicBool, progress: &Progress) -> Option<f64> {
    let limit = host_limits.load1_per_cpu_max * host::cpus() as f64;
    let mut load = host::load1();
    let busy = |l: Option<f64>| l.is_some_and(|l| l > limit);
    if wait && busy(load) {
        progress.say(&format!(
            "load1 is {:.2}, above {limit:.2}; waiting up to {} s for the host to quieten",
            load.unwrap_or(0.0),
            host_limits.idle_wait_max_s
        ));
        let deadline = Instant::now() + Duration::from_secs(host_limits.idle_wait_max_s);
        while busy(load) && Instant::now() < deadline {
            let next = (Instant::now() + Duration::from_secs(5)).min(deadline);
            if !sleep_until(next, Duration::from_millis(100), || interrupted.load(Ordering::Relaxed)) {
                break;
            }
            load = host::load1();
        }
    }
    if busy(load) {
        progress.say(&format!(
            "warning: load1 is {:.2}, above {limit:.2} ({} x {} CPUs); other work may disturb this run",
            load.unwrap_or(0.0),
            host_limits.load1_per_cpu_max,
            host::cpus()
        ));
    }
    load
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, slot: Slot, status: RunStatus) -> RunRow {
        RunRow::of_test(id, slot, status, "")
    }

    #[test]
    fn pending_keeps_order_and_retries_aborted_slots() {
        let plan = Plan::parse(include_str!("../../plans/study.toml")).unwrap();
        let order = plan.run_order();
        let runs = vec![
            row("r01", order[0].clone(), RunStatus::Ok),
            row("r02", order[1].clone(), RunStatus::Ok),
            row("r03", order[2].clone(), RunStatus::Aborted),
        ];
        let pending = pending_slots(&order, &runs);
        assert_eq!(pending.len(), 28);
        assert_eq!(pending[0], order[2], "the aborted slot comes first again");
        assert_eq!(pending[1..], order[3..]);
        assert!(pending_slots(&order, &[]).eq(&order));
    }

    /// The committed datasets measured before rounds: each kept plan.toml, without `order`, still gives
    /// the order its runs.csv records, so a resumed study goes on in the order it was started with.
    #[test]
    fn a_kept_plan_without_order_gives_the_order_its_dataset_was_measured_in() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets");
        for name in ["gunicorn-slow-client", "app-servers-ab", "gthread-python-versions", "fastcgi-vs-gunicorn"] {
            let (plan, text) = Plan::load(&root.join(name).join(PLAN_FILE)).unwrap();
            assert!(!text.contains("order ="), "{name}");
            let runs = std::fs::read_to_string(root.join(name).join(RUNS_FILE)).unwrap();
            let (_, cells) = crate::dataset::csv::parse(&runs).unwrap();
            let measured: Vec<Slot> = cells.iter().map(|c| RunRow::from_cells(&plan, c).unwrap().slot).collect();
            assert_eq!(measured, plan.run_order(), "{name}");
        }
    }

    /// A study in rounds stopped in round 2, with a run of round 1 aborted: `--resume` finishes round 1
    /// first, then the rest of round 2, then the rounds after it; each run records its round.
    #[test]
    fn a_resumed_study_in_rounds_finishes_the_round_it_stopped_in_first() {
        let plan = Plan::parse(include_str!("../../plans/static-file-servers.toml")).unwrap();
        let order = plan.run_order();
        let n = plan.conditions().len();
        let mut runs: Vec<RunRow> =
            order[..n + 2].iter().enumerate().map(|(i, s)| row(&format!("r{:02}", i + 1), s.clone(), RunStatus::Ok)).collect();
        runs[1].status = RunStatus::Aborted;
        let pending = pending_slots(&order, &runs);
        let rounds: Vec<Option<u32>> = pending.iter().map(|s| s.round(plan.order())).collect();
        let rounds_in_plan = (order.len() / n) as u32;
        let expected: Vec<Option<u32>> =
            [vec![Some(1)], vec![Some(2); n - 2]].into_iter().chain((3..=rounds_in_plan).map(|r| vec![Some(r); n])).flatten().collect();
        assert_eq!(rounds, expected);
        assert_eq!(pending[0], order[1]);
        let start =
            RunStart { run_id: "r07".into(), started_at_utc: String::new(), load1_before: None, round: pending[1].round(plan.order()) };
        assert_eq!(start.row(pending[1].clone(), RunStatus::Ok, String::new()).cells().iter().rev().nth(3).map(String::as_str), Some("2"));
    }

    #[test]
    fn a_new_study_refuses_to_overwrite_a_dataset() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(RUNS_FILE), "run_id\n").unwrap();
        for plan in ["plans/smoke.toml", "plans/app-servers-ab.toml"] {
            let args = RunArgs { plan: Some(plan.into()), out: Some(dir.path().into()), ..args(&[]) };
            let err = resolve_plan(&args).unwrap_err().to_string();
            assert!(err.contains("--resume"), "{plan}: {err}");
        }
    }

    #[test]
    fn resume_needs_a_kept_plan_and_rejects_another() {
        let dir = tempfile::tempdir().unwrap();
        let mut args = RunArgs { out: Some(dir.path().into()), resume: true, ..args(&[]) };
        assert!(resolve_plan(&args).unwrap_err().to_string().contains("nothing to resume"));
        std::fs::write(dir.path().join(PLAN_FILE), include_str!("../../plans/smoke.toml")).unwrap();
        let (plan, text, out) = resolve_plan(&args).unwrap();
        assert!(matches!(plan, Plan::Open(p) if p.probe.count == 16));
        assert_eq!((text.as_str(), out.as_path()), (include_str!("../../plans/smoke.toml"), dir.path()));
        // Another plan of the same kind and factors goes on with the dataset (its changed conditions are
        // measured again); one of other factors is refused.
        args.plan = Some(PathBuf::from("plans/study.toml"));
        let (plan, text, _) = resolve_plan(&args).unwrap();
        assert_eq!(
            (plan, text.as_str()),
            (Plan::parse(include_str!("../../plans/study.toml")).unwrap(), include_str!("../../plans/study.toml"))
        );
        args.plan = Some(PathBuf::from("plans/app-servers-ab.toml"));
        let err = resolve_plan(&args).unwrap_err().to_string();
        assert!(err.contains("a resumed dataset keeps its kind and its factors (the columns of runs.csv)"), "{err}");
    }

    #[test]
    fn a_new_dataset_goes_only_into_a_missing_or_empty_folder() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("d");
        let new = |out: &Path| resolve_plan(&RunArgs { plan: Some("plans/smoke.toml".into()), out: Some(out.into()), ..args(&[]) });
        assert!(new(&out).is_ok(), "a missing folder");
        std::fs::create_dir_all(out.join(RAW_DIR)).unwrap();
        std::fs::write(out.join(RAW_DIR).join(lock::LOCK_FILE), "").unwrap();
        assert!(new(&out).is_ok(), "an empty one (a raw/ holding only a lock file left by a study that wrote nothing)");
        std::fs::write(out.join(MANIFEST_FILE), "[published]\n").unwrap();
        std::fs::write(out.join(crate::dataset::readme::README_FILE), "# Mine\n").unwrap();
        assert!(new(&out).is_ok(), "dataset.toml and README.md written before the first run, which measure merges into");
        std::fs::write(out.join("servers.csv"), "mine\n").unwrap();
        std::fs::create_dir_all(out.join(RAW_DIR).join("r01")).unwrap();
        let err = new(&out).unwrap_err().to_string();
        assert!(err.contains("d: not empty (raw, servers.csv) and not a dataset measure wrote"), "{err}");
        std::fs::write(out.join(PLAN_FILE), include_str!("../../plans/smoke.toml")).unwrap();
        assert!(new(&out).unwrap_err().to_string().contains("already holds a dataset; complete it with --resume"));
        let file = dir.path().join("file");
        std::fs::write(&file, "").unwrap();
        assert!(new(&file).unwrap_err().to_string().contains("file: a file, not a folder"));
    }

    #[test]
    fn counts_of_one_run_are_singular() {
        assert_eq!([all_runs(1), all_runs(3)], ["the 1 run", "all 3 runs"]);
        assert_eq!([remain(1), remain(2)], ["1 run remains", "2 runs remain"]);
    }

    fn args(extra: &[&str]) -> RunArgs {
        use clap::Parser;
        let argv = [&["measure", "run"], extra].concat();
        let crate::cli::Command::Run(args) = crate::cli::Cli::try_parse_from(argv).unwrap().command else { panic!("run") };
        args
    }

    #[test]
    fn a_plans_dataset_is_the_default_out() {
        let dir = tempfile::tempdir().unwrap();
        let plan = dir.path().join("ab.toml");
        let text = include_str!("../../plans/app-servers-ab.toml")
            .replace("datasets/app-servers-ab", &dir.path().join("ab").display().to_string());
        std::fs::write(&plan, &text).unwrap();
        let (_, kept, out) = resolve_plan(&args(&["--plan", &plan.display().to_string()])).unwrap();
        assert_eq!((kept, out), (text, dir.path().join("ab")));
        let (_, _, out) = resolve_plan(&args(&["--plan", "plans/smoke.toml"])).unwrap();
        assert_eq!(out, Path::new(crate::plan::open::DEFAULT_DATASET));
    }

    #[test]
    fn an_interpreter_for_an_open_loop_plan_is_refused_not_ignored() {
        for plan in ["plans/smoke.toml", "plans/study.toml"] {
            let err = resolve_plan(&args(&["--plan", plan, "--python", "3.13=/usr/bin/python3"])).unwrap_err().to_string();
            assert!(err.contains("--python 3.13=/usr/bin/python3: only closed-loop plans"), "{err}");
        }
    }

    #[test]
    fn a_resumed_closed_loop_plan_keeps_the_interpreters_it_was_run_on() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().display().to_string();
        let python = ["--plan", "plans/gthread-python-versions.toml", "--python", "3.14t-test=/usr/bin/python3", "--out", &out];
        let (plan, kept, _) = resolve_plan(&args(&python)).unwrap();
        std::fs::write(dir.path().join(PLAN_FILE), &kept).unwrap();
        let resumed = resolve_plan(&args(&[&python[..], &["--resume"]].concat())).unwrap();
        assert_eq!((&resumed.0, &resumed.1), (&plan, &kept));
        // Without --python the plan runs its own interpreters: the conditions with ok runs on 3.14t-test would
        // be dropped, which is refused once the runs are read.
        let (other, _, _) = resolve_plan(&args(&["--plan", "plans/gthread-python-versions.toml", "--out", &out, "--resume"])).unwrap();
        let ok = row("r01", plan.run_order()[0].clone(), RunStatus::Ok);
        let err = refuse_dropped_conditions(&other, Path::new("new.toml"), std::slice::from_ref(&ok)).unwrap_err().to_string();
        assert!(err.starts_with("new.toml: no condition server="), "{err}");
        assert!(err.contains("python=3.14t-test") && err.contains("which has ok runs in the dataset (r01)"), "{err}");
        assert!(refuse_dropped_conditions(&plan, Path::new("new.toml"), &[ok]).is_ok());
    }
}
