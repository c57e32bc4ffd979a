//! `measure run` with a closed-loop plan: the same study loop as the open-loop one (seeded shuffled order,
//! host-load check, progress, resume, abort on the first failed run, exit 130 on Ctrl-C), over app servers
//! driven by ab, hey or measure's own sessions.
//!
//! After each `ok` run with ab or hey, the tool's files (kept in `raw/<run_id>/`) are handed to
//! `analyze import`, the one reader of those formats, which appends the run's request rows and the tool's own
//! numbers to the dataset. measure then rewrites runs.csv with its own row for the run (host load, notes).

use super::closed_data::{ClosedDataset, ClosedRunRow, RAW_DIR};
use super::{Pass, StudyEnd};
use crate::cli::RunArgs;
use crate::clock::date_utc;
use crate::dataset::meta::{self, Environment};
use crate::dataset::rows::RunStatus;
use crate::dataset::{write_atomic, META_FILE, PLAN_FILE, RUNS_FILE};
use crate::host;
use crate::input::BadInput;
use crate::load::tool::{self, ToolFiles};
use crate::plan::closed::{ClosedPlan, ClosedPlanError, Condition, ServerKind, Slot, Tool};
use crate::run::closed::{self as closed_run, ClosedEnv};
use crate::servers::appserver::{UWSGI, UWSGI_INSTALL_HINT};
use crate::servers::nginx;
use crate::servers::python::{self, PythonEnv};
use anyhow::{bail, Context, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::time::SystemTime;

/// The pinned packages every interpreter's environment gets, relative to the app folder.
pub const REQUIREMENTS: &str = "closed/requirements.txt";

/// Runs a closed-loop study from plan `text`, read from `path`.
pub fn run_closed_study(args: &RunArgs, path: &Path, text: &str, interrupted: &AtomicBool) -> Result<StudyEnd> {
    let (plan, plan_text) = resolve(args, path, text)?;
    let out = args.out_or(&plan.dataset);
    let kept = out.join(PLAN_FILE);
    let (plan, plan_text) = if args.resume {
        let kept_text = std::fs::read_to_string(&kept)
            .with_context(|| format!("{} has no {PLAN_FILE}, so there is nothing to resume; run without --resume", out.display()))?;
        let (kept_plan, _) = resolve(&RunArgs { pythons: vec![], ..args.clone() }, &kept, &kept_text)?;
        if args.plan.is_some() && kept_plan != plan {
            bail!("the given plan differs from {}: a resumed dataset keeps the plan it was started with", kept.display());
        }
        (kept_plan, kept_text)
    } else {
        if out.join(RUNS_FILE).exists() {
            bail!("{} already holds a dataset; complete it with --resume or choose another --out", out.display());
        }
        (plan, plan_text)
    };
    // The dataset to resume is read before anything is installed or started, so bad input stops the
    // run at once.
    let resumed = if args.resume {
        let dataset = ClosedDataset::load(&out, plan.load.tool)?;
        let path = out.join(META_FILE);
        let env = meta::read_environment(&path, &std::fs::read_to_string(&path).unwrap_or_default())?;
        Some((dataset, env))
    } else {
        None
    };
    let tools = preflight(&plan, args)?;

    std::fs::create_dir_all(&out).with_context(|| format!("failed to create {}", out.display()))?;
    let (mut dataset, env) = if let Some((dataset, mut env)) = resumed {
        let today = date_utc(SystemTime::now());
        env.entry("resumed_on".into()).and_modify(|v| *v = format!("{v}, {today}")).or_insert(today);
        (dataset, env)
    } else {
        write_atomic(&out, PLAN_FILE, &plan_text)?;
        (ClosedDataset::default(), tools.environment.clone())
    };
    dataset.save(&out, &plan, &env)?;

    let order = plan.run_order();
    let pending: Vec<Slot> =
        order.iter().filter(|s| !dataset.runs.iter().any(|r| r.status == RunStatus::Ok && &r.slot == *s)).cloned().collect();
    let app_dir = std::path::absolute(args.app.join("closed"))?;
    let run_env = ClosedEnv { plan: &plan, pythons: &tools.pythons, nginx_bin: tools.nginx_bin.as_deref(), app_dir: &app_dir, interrupted };
    let pass = Pass {
        out: &out,
        planned: order.len(),
        first: dataset.runs.iter().filter_map(ClosedRunRow::number).max().unwrap_or(0) + 1,
        host: &plan.host,
        wait_for_idle: args.wait_for_idle,
        interrupted,
        estimate: plan.estimated_run(),
    };
    pass.run(
        &pending,
        |slot: &Slot| &slot.condition,
        |start, slot| {
            let run_id = &start.run_id;
            // The tools' own files go here; measure's session client writes its rows straight into the tables.
            let raw = out.join(RAW_DIR).join(run_id);
            if raw.exists() {
                std::fs::remove_dir_all(&raw).with_context(|| format!("failed to clear {}", raw.display()))?;
            }
            if plan.load.tool != Tool::Sessions {
                std::fs::create_dir_all(&raw).with_context(|| format!("failed to create {}", raw.display()))?;
            }
            let mut result = closed_run::execute(&run_env, run_id, &slot.condition, &raw);
            if let (RunStatus::Ok, Some(files)) = (result.status, &result.tool_files) {
                let import =
                    Import { analyze: tools.analyze.as_deref(), dataset: &out, run_id, slot, started_at_utc: &start.started_at_utc };
                match import.run(plan.load.tool, files) {
                    // What import noted about the tool's output (e.g. ab's warnings) stays with the run.
                    Ok(note) if !note.is_empty() => {
                        result.note = crate::run::one_line([result.note.as_str(), note.as_str()].join("; ").trim_start_matches("; "))
                    }
                    Ok(_) => {}
                    Err(e) => {
                        result.status = RunStatus::Aborted;
                        result.note = crate::run::one_line(&format!("{e:#}"));
                    }
                }
            }
            if result.status != RunStatus::Ok && raw.exists() {
                std::fs::remove_dir_all(&raw).with_context(|| format!("failed to remove {}", raw.display()))?;
            }
            dataset.add(start.row(slot.clone(), result.status, result.note.clone()), result.record);
            dataset.save(&out, &plan, &env)?;
            Ok((result.status, result.note))
        },
    )
}

/// Parses the plan and applies `--python LABEL=PATH`: the given interpreters replace the plan's, and every
/// condition block runs on all of them. Returns the plan and the text to keep (the effective plan). A plan
/// that does not parse or validate is [`BadInput`] in `path`.
pub fn resolve(args: &RunArgs, path: &Path, text: &str) -> Result<(ClosedPlan, String)> {
    let mut plan = ClosedPlan::parse(text).map_err(|e| match &e {
        ClosedPlanError::Toml(error) => BadInput::toml(path, text, error),
        other => BadInput::file(path, format!("closed-loop plan: {other}")),
    })?;
    if args.pythons.is_empty() {
        return Ok((plan, text.to_string()));
    }
    let mut given = BTreeMap::new();
    for spec in &args.pythons {
        let Some((label, path)) = spec.split_once('=').filter(|(l, p)| !l.trim().is_empty() && !p.trim().is_empty()) else {
            bail!("--python {spec:?}: expected LABEL=PATH, e.g. --python 3.14t=/opt/python3.14t/bin/python3.14t");
        };
        given.insert(label.trim().to_string(), PathBuf::from(path.trim()));
    }
    plan.interpreters = given;
    let labels: Vec<String> = plan.interpreters.keys().cloned().collect();
    for block in &mut plan.conditions {
        block.python = labels.clone();
    }
    plan.validate().context("the plan with --python")?;
    let kept = format!(
        "# The plan as run: {} with --python {}.\n{}",
        args.plan.as_ref().map_or("the dataset's plan".into(), |p| p.display().to_string()),
        args.pythons.join(" --python "),
        toml::to_string(&plan).context("failed to render the plan")?
    );
    Ok((plan, kept))
}

/// Hands one run's tool files to `analyze import`.
struct Import<'a> {
    analyze: Option<&'a Path>,
    dataset: &'a Path,
    run_id: &'a str,
    slot: &'a Slot,
    started_at_utc: &'a str,
}

impl Import<'_> {
    /// Imports the files; returns the note import wrote on the run's row (measure rewrites runs.csv).
    fn run(&self, tool: Tool, files: &ToolFiles) -> Result<String> {
        let analyze = self.analyze.context("no analyze binary to import the tool's files with")?;
        let c: &Condition = &self.slot.condition;
        let mut command = Command::new(analyze);
        command.arg("import").args(&files.outputs).arg("--into").arg(self.dataset).args(["--run-id", self.run_id]);
        for (key, value) in [("server", c.server.clone()), ("python", c.python.clone()), (tool.level_factor(), c.concurrency.to_string())] {
            command.arg("--factor").arg(format!("{key}={value}"));
        }
        // --replace: run ids are measure's; a row of this id can only be left from an import whose run
        // measure did not get to record (a crash between the two writes).
        command.args(["--repetition", &self.slot.repetition.to_string(), "--started-at", self.started_at_utc, "--replace"]);
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

/// What the preflight found.
struct Tools {
    pythons: BTreeMap<String, PythonEnv>,
    nginx_bin: Option<PathBuf>,
    analyze: Option<PathBuf>,
    environment: Environment,
}

/// Checks every tool and prepares every interpreter's environment before the first run.
fn preflight(plan: &ClosedPlan, args: &RunArgs) -> Result<Tools> {
    let app_dir = std::path::absolute(&args.app)?;
    let requirements = app_dir.join(REQUIREMENTS);
    if !requirements.is_file() {
        bail!("{} not found: pass --app DIR (the folder holding closed/)", requirements.display());
    }
    let mut env = host::machine();
    let (tool_bin, package, hint) = match plan.load.tool {
        Tool::Ab => (Some(tool::AB), "apache2-utils", "apt-get install -y apache2-utils"),
        Tool::Hey => (Some(tool::HEY), "hey", "apt-get install -y hey"),
        Tool::Sessions => (None, "", ""),
    };
    let mut analyze = None;
    if let Some(bin) = tool_bin {
        if !Path::new(bin).exists() {
            bail!("{bin} is not installed; install it with `{hint}`");
        }
        let version = if plan.load.tool == Tool::Ab { tool::ab_version() } else { None };
        env.insert(
            plan.load.tool.as_str().into(),
            version.or_else(|| tool::package_version(package).map(|v| format!("{package} {v}"))).unwrap_or_else(|| "unknown".into()),
        );
        let path = match &args.analyze {
            Some(p) => p.clone(),
            None => std::env::current_exe()?.with_file_name("analyze"),
        };
        if !path.exists() {
            bail!("{} not found: build the workspace (`cargo build --release`) or pass --analyze FILE", path.display());
        }
        analyze = Some(path);
    } else {
        env.insert("client".into(), format!("measure {} sessions", env!("CARGO_PKG_VERSION")));
    }
    let kinds: Vec<ServerKind> = plan.conditions().iter().map(|c| plan.servers[&c.server].kind).collect();
    if kinds.contains(&ServerKind::Uwsgi) {
        if !Path::new(UWSGI).exists() {
            bail!("{UWSGI} is not installed; install it with `{UWSGI_INSTALL_HINT}`");
        }
        let version =
            python::output(Command::new(UWSGI).arg("--version")).map(|v| v.trim().to_string()).unwrap_or_else(|_| "unknown".into());
        env.insert("uwsgi".into(), version);
    }
    let nginx_bin = if plan.needs_nginx() {
        let bin = nginx::binary(&crate::plan::Nginx {
            binary: plan.nginx.binary.clone(),
            worker_processes: plan.nginx.worker_processes,
            proxy_buffer_size: String::new(),
            proxy_buffers: String::new(),
            proxy_busy_buffers_size: String::new(),
            proxy_max_temp_file_size: String::new(),
            proxy_temp_file_write_size: String::new(),
        })?;
        env.insert("nginx".into(), nginx::version(&bin)?);
        Some(bin)
    } else {
        None
    };
    let mut pythons = BTreeMap::new();
    for label in plan.pythons() {
        let interpreter = &plan.interpreters[&label];
        let dir = args.venvs.join(&label);
        let ready = python::ensure(interpreter, &dir, &requirements, &|m| eprintln!("measure: {m}"))
            .with_context(|| format!("python {label} ({})", interpreter.display()))?;
        env.insert(format!("python_{label}"), format!("{} ({})", ready.version, interpreter.display()));
        pythons.insert(label, ready);
    }
    check_uwsgi_interpreters(plan, &pythons)?;
    if let Some(first) = pythons.values().next() {
        for package in ["gunicorn", "Django", "djangorestframework", "flup"] {
            if let Some(v) = python::package_version(first, package) {
                env.insert(package.to_lowercase(), v);
            }
        }
    }
    env.insert("measured_on".into(), date_utc(SystemTime::now()));
    env.insert("harness".into(), format!("measure {}", env!("CARGO_PKG_VERSION")));
    Ok(Tools { pythons, nginx_bin, analyze, environment: env })
}

/// Debian's uWSGI embeds Debian's python3 through its plugin; a virtual environment of another Python
/// version would fail inside uWSGI at its first import, so say so before any run.
fn check_uwsgi_interpreters(plan: &ClosedPlan, pythons: &BTreeMap<String, PythonEnv>) -> Result<()> {
    let labels: Vec<String> =
        plan.conditions().into_iter().filter(|c| plan.servers[&c.server].kind == ServerKind::Uwsgi).map(|c| c.python).collect();
    if labels.is_empty() {
        return Ok(());
    }
    let debian =
        python::output(Command::new("/usr/bin/python3").arg("--version")).context("uWSGI's python3 plugin needs /usr/bin/python3")?;
    let debian = debian.trim().trim_start_matches("Python ").to_string();
    for label in &labels {
        let version = &pythons[label].version;
        if minor(version) != minor(&debian) {
            bail!(
                "python {label} is {version}, but Debian's uWSGI runs its python3 plugin's Python {debian}: \
                 point [interpreters] {label:?} at /usr/bin/python3 for the uWSGI conditions"
            );
        }
    }
    Ok(())
}

/// `3.11` of `3.11.2`.
fn minor(version: &str) -> String {
    version.split('.').take(2).collect::<Vec<_>>().join(".")
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn args(extra: &[&str]) -> RunArgs {
        let mut argv = vec!["measure", "run"];
        argv.extend_from_slice(extra);
        let crate::cli::Command::Run(args) = crate::cli::Cli::try_parse_from(argv).unwrap().command;
        args
    }

    #[test]
    fn python_overrides_replace_the_plans_interpreters_and_are_kept() {
        let text = include_str!("../../plans/gthread-python-versions.toml");
        let (plan, kept) = resolve(&args(&["--python", "3.14t=/opt/py/bin/python3.14t"]), Path::new("plan.toml"), text).unwrap();
        assert_eq!(plan.pythons(), ["3.14t"]);
        assert_eq!(plan.run_order().len(), 3);
        assert!(kept.contains("--python 3.14t=/opt/py/bin/python3.14t"), "{kept}");
        assert_eq!(ClosedPlan::parse(&kept).unwrap(), plan, "the kept text is the plan as run");
        let (same, kept) = resolve(&args(&[]), Path::new("plan.toml"), text).unwrap();
        assert_eq!((same.pythons().len(), kept.as_str()), (7, text));
    }

    #[test]
    fn uwsgi_refuses_an_interpreter_its_plugin_does_not_embed() {
        let plan = ClosedPlan::parse(include_str!("../../plans/app-servers-ab.toml")).unwrap();
        let env = |version: &str| PythonEnv { dir: "/v".into(), python: "/v/bin/python".into(), version: version.into() };
        let debian = python::output(Command::new("/usr/bin/python3").arg("--version")).unwrap();
        let debian = debian.trim().trim_start_matches("Python ");
        let same = BTreeMap::from([("3.11".to_string(), env(debian))]);
        check_uwsgi_interpreters(&plan, &same).unwrap();
        let other = BTreeMap::from([("3.11".to_string(), env("2.7.18"))]);
        let err = check_uwsgi_interpreters(&plan, &other).unwrap_err().to_string();
        assert!(err.contains("/usr/bin/python3") && err.contains("2.7.18"), "{err}");
        assert_eq!(minor("3.11.2"), "3.11");
    }

    #[test]
    fn the_note_import_wrote_is_found_by_run_id() {
        let runs = "run_id,server,python,concurrency,repetition,started_at_utc,status,note\n\
                    r01,uwsgi-1x1,3.11,5,1,2026-11-30T15:00:00Z,ok,\n\
                    r02,uwsgi-1x1,3.11,5,2,2026-11-30T15:01:00Z,ok,\"ab: 3 non-2xx responses, statuses unknown\"\n";
        assert_eq!(imported_note(runs, "r02").unwrap(), "ab: 3 non-2xx responses, statuses unknown");
        assert_eq!(imported_note(runs, "r01").unwrap(), "");
        assert!(imported_note(runs, "r09").unwrap_err().contains("r09"));
    }

    #[test]
    fn a_python_override_needs_a_label_and_a_path() {
        let text = include_str!("../../plans/gthread-python-versions.toml");
        let err = resolve(&args(&["--python", "/usr/bin/python3"]), Path::new("plan.toml"), text).unwrap_err().to_string();
        assert!(err.contains("LABEL=PATH"), "{err}");
    }
}
