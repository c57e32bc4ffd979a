//! `measure run`: the whole study. Resolves the plan and the output folder, checks the tools before any run
//! (nginx, Gunicorn in its venv, the app), then executes the pending runs in the plan's shuffled order,
//! saving the dataset after every run.
//!
//! Resume model: the plan fixes a list of slots (condition × repetition). A slot is done when runs.csv has
//! an `ok` row for it. `run_id`s number executions (`r01`, `r02`, ...), so a slot whose run was aborted is
//! run again later under a new id, and the aborted row stays in runs.csv with its note. Any aborted run
//! stops the study: the cause (a crash, Ctrl-C) usually needs a look before going on with `--resume`.

use crate::cli::RunArgs;
use crate::clock::{date_utc, rfc3339_utc, sleep_until};
use crate::dataset::meta;
use crate::dataset::rows::{RunRow, RunStatus};
use crate::dataset::{write_atomic, Dataset, META_FILE, PLAN_FILE, RUNS_FILE};
use crate::host::{self, Versions};
use crate::plan::{Plan, Slot};
use crate::progress::Progress;
use crate::run::{self, RunEnv};
use crate::servers::gunicorn::{self, GunicornInstall};
use crate::servers::nginx::{self, NginxRun};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

pub mod closed;
pub mod closed_data;

/// The default plan, relative to the repository root.
pub const DEFAULT_PLAN: &str = "measure/plans/study.toml";
/// The default dataset of the default plan.
pub const DEFAULT_OUT: &str = "datasets/gunicorn-slow-client";

/// The text of the plan to follow when it is a closed-loop plan: `--plan`, or with `--resume --out DIR`
/// the dataset's own plan.toml.
fn closed_plan_text(args: &RunArgs) -> Result<Option<(PathBuf, String)>> {
    let path = match (&args.plan, args.resume, &args.out) {
        (Some(path), _, _) => path.clone(),
        (None, true, Some(out)) => out.join(PLAN_FILE),
        _ => return Ok(None),
    };
    let Ok(text) = std::fs::read_to_string(&path) else {
        // The open-loop path reports the missing file with its context.
        return Ok(None);
    };
    Ok(crate::plan::closed::is_closed_loop(&text).then_some((path, text)))
}

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

/// Runs `measure run`.
pub fn run_study(args: &RunArgs) -> Result<StudyEnd> {
    let interrupted = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(sig, Arc::clone(&interrupted)).context("failed to install the signal handler")?;
    }
    if let Some((path, text)) = closed_plan_text(args)? {
        return closed::run_closed_study(args, &path, &text, &interrupted);
    }
    let out = args.out_or(DEFAULT_OUT);
    let (plan, plan_text) = resolve_plan(args, &out)?;
    // The dataset to resume is read before anything is installed or started, so bad input stops the
    // run at once.
    let resumed = if args.resume {
        let dataset = Dataset::load(&out)?;
        let path = out.join(META_FILE);
        let env = meta::read_environment(&path, &std::fs::read_to_string(&path).unwrap_or_default())?;
        Some((dataset, env))
    } else {
        None
    };
    let tools = preflight(&plan, args)?;

    std::fs::create_dir_all(&out).with_context(|| format!("failed to create {}", out.display()))?;
    let (mut dataset, env) = if let Some((dataset, mut env)) = resumed {
        warn_on_changed_tools(&env, &tools.versions);
        let today = date_utc(SystemTime::now());
        env.entry("resumed_on".into()).and_modify(|v| *v = format!("{v}, {today}")).or_insert(today);
        (dataset, env)
    } else {
        write_atomic(&out, PLAN_FILE, &plan_text)?;
        let env = host::environment(&plan, &tools.versions, &date_utc(SystemTime::now()));
        (Dataset::default(), env)
    };
    dataset.save(&out, &plan, &env)?;

    let order = plan.run_order();
    let pending = pending_slots(&order, &dataset.runs);
    let run_env = RunEnv {
        plan: &plan,
        install: &tools.install,
        nginx_bin: tools.nginx_bin.as_deref(),
        app_dir: &tools.app_dir,
        interrupted: &interrupted,
    };
    let pass = Pass {
        out: &out,
        planned: order.len(),
        first: dataset.runs.iter().filter_map(RunRow::number).max().unwrap_or(0) + 1,
        host: &plan.host,
        wait_for_idle: args.wait_for_idle,
        interrupted: &interrupted,
        estimate: plan.estimated_run(),
    };
    pass.run(
        &pending,
        |slot: &Slot| &slot.condition,
        |start, slot| {
            let result = run::execute(&run_env, &start.run_id, slot.condition);
            dataset.add(start.row(*slot, result.status, result.note.clone()), result.record);
            dataset.save(&out, &plan, &env)?;
            Ok((result.status, result.note))
        },
    )
}

/// A run about to start, as the study's loop numbered and checked it.
pub(crate) struct RunStart {
    pub run_id: String,
    pub started_at_utc: String,
    pub load1_before: Option<f64>,
}

impl RunStart {
    /// The run's runs.csv row once it has ended (the host load after it is read now).
    pub(crate) fn row<S>(&self, slot: S, status: RunStatus, note: String) -> RunRow<S> {
        RunRow {
            run_id: self.run_id.clone(),
            slot,
            started_at_utc: self.started_at_utc.clone(),
            status,
            note,
            load1_before: self.load1_before,
            load1_after: host::load1(),
        }
    }
}

/// The loop both kinds of study run over their pending slots: stop between runs on Ctrl-C, number the
/// runs (continuing after the highest number in runs.csv), check the host load, show progress, and stop at
/// the first run that is not `ok` (its cause usually needs a look before `--resume`).
pub(crate) struct Pass<'a> {
    pub out: &'a Path,
    /// Runs in the whole plan (for the width of run ids and the closing message).
    pub planned: usize,
    /// The number of the first run of this pass.
    pub first: u32,
    pub host: &'a crate::plan::Host,
    pub wait_for_idle: bool,
    pub interrupted: &'a AtomicBool,
    pub estimate: Duration,
}

impl Pass<'_> {
    /// Runs `one` for each pending slot; `one` executes the run, records and saves it, and returns its status
    /// and note.
    pub(crate) fn run<S>(
        &self,
        pending: &[S],
        condition: impl Fn(&S) -> &dyn std::fmt::Display,
        mut one: impl FnMut(&RunStart, &S) -> Result<(RunStatus, String)>,
    ) -> Result<StudyEnd> {
        if pending.is_empty() {
            eprintln!("all {} runs of {} are ok; nothing to do", self.planned, self.out.display());
            return Ok(StudyEnd::Complete);
        }
        let width = self.planned.to_string().len().max(2);
        let mut progress = Progress::new(pending.len(), self.estimate);
        let resume_hint = format!("complete them with `measure run --resume --out {}`", self.out.display());
        for (i, slot) in pending.iter().enumerate() {
            if self.interrupted.load(Ordering::Relaxed) {
                progress.finish();
                eprintln!("interrupted between runs; {} runs remain: {resume_hint}", pending.len() - i);
                return Ok(StudyEnd::Interrupted);
            }
            let run_id = format!("r{:0width$}", self.first as usize + i);
            let load1_before = check_load(self.host, self.wait_for_idle, self.interrupted, &progress);
            let start = RunStart { run_id, started_at_utc: rfc3339_utc(SystemTime::now()), load1_before };
            progress.start_run(&start.run_id, condition(slot));
            let started = Instant::now();
            let (status, note) = one(&start, slot)?;
            progress.finish_run(&start.run_id, status.as_str(), &note, started.elapsed());
            if status != RunStatus::Ok {
                progress.finish();
                // The progress line above already gave the run's note.
                eprintln!("{} runs remain; {resume_hint}", pending.len() - i);
                return Ok(if self.interrupted.load(Ordering::Relaxed) { StudyEnd::Interrupted } else { StudyEnd::Aborted });
            }
        }
        progress.finish();
        eprintln!("all {} runs ok; dataset written to {}", self.planned, self.out.display());
        Ok(StudyEnd::Complete)
    }
}

/// The planned slots without an `ok` run yet, in execution order.
pub fn pending_slots(order: &[Slot], runs: &[RunRow]) -> Vec<Slot> {
    order.iter().filter(|slot| !runs.iter().any(|r| r.status == RunStatus::Ok && r.slot == **slot)).copied().collect()
}

/// The plan to follow and its text. A resumed dataset keeps its own plan.toml; a new one must not
/// overwrite an existing dataset.
fn resolve_plan(args: &RunArgs, out: &Path) -> Result<(Plan, String)> {
    let kept = out.join(PLAN_FILE);
    if args.resume {
        if !kept.exists() {
            bail!("{} has no {PLAN_FILE}, so there is nothing to resume; run without --resume", out.display());
        }
        let (plan, text) = Plan::load(&kept)?;
        if let Some(path) = &args.plan {
            let (given, _) = Plan::load(path)?;
            if given != plan {
                bail!("{} differs from {}: a resumed dataset keeps the plan it was started with", path.display(), kept.display());
            }
        }
        return Ok((plan, text));
    }
    if out.join(RUNS_FILE).exists() {
        bail!("{} already holds a dataset; complete it with --resume or choose another --out", out.display());
    }
    let path = args.plan.clone().unwrap_or_else(|| PathBuf::from(DEFAULT_PLAN));
    Plan::load(&path).with_context(|| {
        if args.plan.is_none() {
            format!("the default plan is {DEFAULT_PLAN}, relative to the repository root; run from there or pass --plan")
        } else {
            "see measure/plans/study.toml for the expected keys".to_string()
        }
    })
}

/// A resumed dataset should be finished with the tools it was started with; say so when they differ.
fn warn_on_changed_tools(env: &meta::Environment, now: &Versions) {
    let pairs = [("python", Some(&now.python)), ("gunicorn", Some(&now.gunicorn)), ("nginx", now.nginx.as_ref())];
    for (key, current) in pairs {
        if let (Some(recorded), Some(current)) = (env.get(key), current) {
            if recorded != current {
                eprintln!("warning: the dataset was started with {key} {recorded}, this host has {current}");
            }
        }
    }
}

/// What the preflight found.
struct Tools {
    install: GunicornInstall,
    nginx_bin: Option<PathBuf>,
    app_dir: PathBuf,
    versions: Versions,
}

/// Checks everything a run needs before the first run, so a missing tool fails in seconds, not mid-study.
fn preflight(plan: &Plan, args: &RunArgs) -> Result<Tools> {
    let app_dir = std::path::absolute(&args.app)?;
    if !app_dir.join("app.py").is_file() {
        bail!("{} not found: pass --app DIR (the folder of the WSGI app)", app_dir.join("app.py").display());
    }
    let (nginx_bin, nginx_version) = if plan.needs_nginx() {
        let bin = nginx::binary(&plan.nginx)?;
        let version = nginx::version(&bin)?;
        check_nginx_config(&bin, plan)?;
        (Some(bin), Some(version))
    } else {
        (None, None)
    };
    let install = gunicorn::ensure_installed(&args.venv, &plan.gunicorn.version, &|msg| eprintln!("measure: {msg}"))?;
    let versions = Versions { python: install.python_version.clone(), gunicorn: install.gunicorn_version.clone(), nginx: nginx_version };
    Ok(Tools { install, nginx_bin, app_dir, versions })
}

fn check_nginx_config(bin: &Path, plan: &Plan) -> Result<()> {
    let dir = tempfile::Builder::new().prefix("measure-nginx-check-").tempdir()?;
    let prefix = dir.path().canonicalize()?;
    nginx::test_config(
        bin,
        &NginxRun {
            settings: &plan.nginx,
            buffering: true,
            listen_port: 1,
            upstream_port: 2,
            prefix: &prefix,
            // SAFETY: geteuid has no preconditions.
            as_root: unsafe { libc::geteuid() } == 0,
        },
    )
}

/// Reads load1 before a run; with `wait`, waits (bounded) for it to drop below the plan's limit. Warns when
/// the run starts on a busy host: other work on the 2 cores shifts latencies.
pub(crate) fn check_load(host_limits: &crate::plan::Host, wait: bool, interrupted: &AtomicBool, progress: &Progress) -> Option<f64> {
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
        RunRow {
            run_id: id.into(),
            slot,
            started_at_utc: String::new(),
            status,
            note: String::new(),
            load1_before: None,
            load1_after: None,
        }
    }

    #[test]
    fn pending_keeps_order_and_retries_aborted_slots() {
        let plan = Plan::parse(include_str!("../../plans/study.toml")).unwrap();
        let order = plan.run_order();
        let runs = vec![row("r01", order[0], RunStatus::Ok), row("r02", order[1], RunStatus::Ok), row("r03", order[2], RunStatus::Aborted)];
        let pending = pending_slots(&order, &runs);
        assert_eq!(pending.len(), 28);
        assert_eq!(pending[0], order[2], "the aborted slot comes first again");
        assert_eq!(pending[1..], order[3..]);
        assert!(pending_slots(&order, &[]).eq(&order));
    }

    #[test]
    fn a_new_study_refuses_to_overwrite_a_dataset() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(RUNS_FILE), "run_id\n").unwrap();
        let args = RunArgs {
            plan: Some("plans/smoke.toml".into()),
            out: Some(dir.path().into()),
            resume: false,
            wait_for_idle: false,
            venv: ".venv".into(),
            app: "app".into(),
            venvs: ".venvs".into(),
            pythons: vec![],
            analyze: None,
        };
        let err = resolve_plan(&args, dir.path()).unwrap_err().to_string();
        assert!(err.contains("--resume"), "{err}");
    }

    #[test]
    fn resume_needs_a_kept_plan_and_rejects_another() {
        let dir = tempfile::tempdir().unwrap();
        let mut args = RunArgs {
            plan: None,
            out: Some(dir.path().into()),
            resume: true,
            wait_for_idle: false,
            venv: ".venv".into(),
            app: "app".into(),
            venvs: ".venvs".into(),
            pythons: vec![],
            analyze: None,
        };
        assert!(resolve_plan(&args, dir.path()).unwrap_err().to_string().contains("nothing to resume"));
        std::fs::write(dir.path().join(PLAN_FILE), include_str!("../../plans/smoke.toml")).unwrap();
        assert_eq!(resolve_plan(&args, dir.path()).unwrap().0.probe.count, 16);
        args.plan = Some(PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/plans/study.toml")));
        assert!(resolve_plan(&args, dir.path()).unwrap_err().to_string().contains("keeps the plan"));
    }
}
