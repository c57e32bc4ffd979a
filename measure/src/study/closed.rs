//! A closed-loop plan's start-up: `--python LABEL=PATH` in place of the plan's interpreters, and the
//! preflight, which checks every tool (the load tool, uWSGI, nginx, the `analyze` that imports ab's and
//! hey's files) and prepares every interpreter's virtual environment before the first run.

use super::Tools;
use crate::cli::RunArgs;
use crate::clock::date_utc;
use crate::dataset::manifest::Environment;
use crate::host;
use crate::load::tool;
use crate::plan::closed::{ClosedLoop, ServerKind, Tool};
use crate::run::Installed;
use crate::servers::appserver::{UWSGI, UWSGI_INSTALL_HINT};
use crate::servers::nginx;
use crate::servers::python::{self, PythonEnv};
use anyhow::{bail, Context, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

/// The pinned packages every interpreter's environment gets, relative to the app folder.
pub const REQUIREMENTS: &str = "closed/requirements.txt";

/// `plan` on the interpreters `--python LABEL=PATH` names (`pythons`): they replace the plan's, and every
/// condition block runs on all of them. Returns the plan and the text to keep as plan.toml: the plan as run,
/// after a comment naming the plan file (`source`) and the flags.
pub fn with_pythons(mut plan: ClosedLoop, pythons: &[String], source: &Path) -> Result<(ClosedLoop, String)> {
    let mut given = BTreeMap::new();
    for spec in pythons {
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
        source.display(),
        pythons.join(" --python "),
        toml::to_string(&plan).context("failed to render the plan")?
    );
    Ok((plan, kept))
}

/// Checks every tool and prepares every interpreter's environment.
pub fn preflight(plan: &ClosedLoop, args: &RunArgs) -> Result<Tools> {
    let app_dir = std::path::absolute(&args.app)?;
    let requirements = app_dir.join(REQUIREMENTS);
    if !requirements.is_file() {
        bail!("{} not found: pass --app DIR (the folder holding closed/)", requirements.display());
    }
    let mut versions = Environment::new();
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
        versions.insert(
            plan.load.tool.as_str().into(),
            version.or_else(|| host::package_version(package).map(|v| format!("{package} {v}"))).unwrap_or_else(|| "unknown".into()),
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
        versions.insert("client".into(), format!("{} sessions", host::harness()));
    }
    let kinds: Vec<ServerKind> = plan.conditions().iter().map(|c| plan.servers[&c.server].kind).collect();
    if kinds.contains(&ServerKind::Uwsgi) {
        if !Path::new(UWSGI).exists() {
            bail!("{UWSGI} is not installed; install it with `{UWSGI_INSTALL_HINT}`");
        }
        let version =
            python::output(Command::new(UWSGI).arg("--version")).map(|v| v.trim().to_string()).unwrap_or_else(|_| "unknown".into());
        versions.insert("uwsgi".into(), version);
    }
    let nginx_bin = if plan.needs_nginx() {
        let bin = nginx::binary(&plan.nginx.binary)?;
        versions.insert("nginx".into(), nginx::version(&bin)?);
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
        versions.insert(format!("python_{label}"), format!("{} ({})", ready.version, interpreter.display()));
        pythons.insert(label, ready);
    }
    check_uwsgi_interpreters(plan, &pythons)?;
    if let Some(first) = pythons.values().next() {
        for package in ["gunicorn", "Django", "djangorestframework", "flup"] {
            if let Some(v) = python::package_version(first, package) {
                versions.insert(package.to_lowercase(), v);
            }
        }
    }
    let mut environment = host::machine();
    environment.extend(versions.clone());
    environment.insert("measured_on".into(), date_utc(SystemTime::now()));
    environment.insert("harness".into(), host::harness());
    Ok(Tools {
        installed: Installed::Pythons(pythons),
        nginx_bin,
        analyze,
        app_dir: std::path::absolute(args.app.join("closed"))?,
        environment,
        versions,
    })
}

/// Debian's uWSGI embeds Debian's python3 through its plugin; a virtual environment of another Python
/// version would fail inside uWSGI at its first import, so say so before any run.
fn check_uwsgi_interpreters(plan: &ClosedLoop, pythons: &BTreeMap<String, PythonEnv>) -> Result<()> {
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

    fn gthread() -> ClosedLoop {
        ClosedLoop::parse(include_str!("../../plans/gthread-python-versions.toml")).unwrap()
    }

    #[test]
    fn python_overrides_replace_the_plans_interpreters_and_are_kept() {
        assert_eq!(gthread().pythons().len(), 7);
        let (plan, kept) = with_pythons(gthread(), &["3.14t=/opt/py/bin/python3.14t".into()], Path::new("plan.toml")).unwrap();
        assert_eq!(plan.pythons(), ["3.14t"]);
        assert_eq!(crate::plan::Plan::Closed(plan.clone()).run_order().len(), 3);
        assert!(kept.starts_with("# The plan as run: plan.toml with --python 3.14t=/opt/py/bin/python3.14t.\n"), "{kept}");
        assert_eq!(ClosedLoop::parse(&kept).unwrap(), plan, "the kept text is the plan as run");
    }

    #[test]
    fn uwsgi_refuses_an_interpreter_its_plugin_does_not_embed() {
        let plan = ClosedLoop::parse(include_str!("../../plans/app-servers-ab.toml")).unwrap();
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
    fn a_python_override_needs_a_label_and_a_path() {
        let err = with_pythons(gthread(), &["/usr/bin/python3".into()], Path::new("plan.toml")).unwrap_err().to_string();
        assert!(err.contains("LABEL=PATH"), "{err}");
    }
}
