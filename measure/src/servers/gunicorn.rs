//! Gunicorn: installing the pinned version into a virtual environment, and starting it for one run.
//!
//! The harness installs Gunicorn itself (`python3 -m venv`, then `pip install gunicorn==<version>`) so the
//! version is the plan's and not whatever a system has; it only compiles nothing and downloads from PyPI
//! only when the environment is missing or holds another version.

use super::python::output;
use super::{app_log, loopback, probe, Probe, ServerProcess, READY_TIMEOUT};
use crate::plan::open::{OpenLoop, Worker};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A virtual environment with the right Gunicorn.
#[derive(Debug, Clone)]
pub struct GunicornInstall {
    /// `<venv>/bin/gunicorn` (absolute).
    pub bin: PathBuf,
    pub python: PathBuf,
    pub gunicorn_version: String,
    pub python_version: String,
}

/// Makes sure `venv` holds Gunicorn `version`, creating or updating it; `say` reports what is being done.
pub fn ensure_installed(venv: &Path, version: &str, say: &dyn Fn(&str)) -> Result<GunicornInstall> {
    let venv = std::path::absolute(venv).with_context(|| format!("bad venv path {}", venv.display()))?;
    let python = venv.join("bin").join("python");
    if installed_version(&python).as_deref() != Some(version) {
        if !python.exists() {
            say(&format!("creating the virtual environment {} (python3 -m venv)", venv.display()));
            run(Command::new("python3").arg("-m").arg("venv").arg(&venv)).with_context(|| {
                format!(
                    "could not create the virtual environment {}: `python3 -m venv` failed; install Python 3 \
                     with its venv module (Debian: `apt-get install -y python3 python3-venv`)",
                    venv.display()
                )
            })?;
        }
        say(&format!("installing gunicorn=={version} into {} (pip)", venv.display()));
        run(Command::new(&python).args([
            "-m",
            "pip",
            "install",
            "--disable-pip-version-check",
            "--quiet",
            &format!("gunicorn=={version}"),
        ]))
        .with_context(|| {
            format!("could not install Gunicorn: `{} -m pip install gunicorn=={version}` failed (it needs PyPI)", python.display())
        })?;
    }
    let gunicorn_version =
        installed_version(&python).with_context(|| format!("gunicorn is still not importable from {}", python.display()))?;
    if gunicorn_version != version {
        bail!("{} holds gunicorn {gunicorn_version}, the plan wants {version}", venv.display());
    }
    let python_version = output(Command::new(&python).arg("--version"))?.trim().trim_start_matches("Python ").to_string();
    let bin = venv.join("bin").join("gunicorn");
    if !bin.exists() {
        bail!("{} is missing although gunicorn is installed", bin.display());
    }
    Ok(GunicornInstall { bin, python, gunicorn_version, python_version })
}

fn installed_version(python: &Path) -> Option<String> {
    if !python.exists() {
        return None;
    }
    let out = output(Command::new(python).args(["-c", "import gunicorn; print(gunicorn.__version__)"])).ok()?;
    Some(out.trim().to_string())
}

/// Runs a command to completion; an error carries the end of its output.
fn run(command: &mut Command) -> Result<()> {
    output(command).map(drop)
}

/// Everything one Gunicorn start needs.
#[derive(Debug, Clone)]
pub struct GunicornRun<'a> {
    pub install: &'a GunicornInstall,
    pub plan: &'a OpenLoop,
    pub worker: Worker,
    /// Folder of app.py (absolute).
    pub app_dir: &'a Path,
    pub port: u16,
    /// The run's private folder: logs and worker heartbeat files go here.
    pub run_dir: &'a Path,
    pub app_log: &'a Path,
}

/// Gunicorn's arguments for one run (pure, so the flags are tested).
pub fn args(run: &GunicornRun) -> Vec<String> {
    let shape = run.plan.worker_shape(run.worker);
    let g = &run.plan.gunicorn;
    vec![
        "--bind".into(),
        format!("127.0.0.1:{}", run.port),
        "--worker-class".into(),
        run.worker.as_str().into(),
        "--workers".into(),
        shape.processes.to_string(),
        "--threads".into(),
        shape.threads.to_string(),
        "--timeout".into(),
        g.timeout_s.to_string(),
        "--graceful-timeout".into(),
        g.graceful_timeout_s.to_string(),
        "--worker-tmp-dir".into(),
        run.run_dir.display().to_string(),
        "--chdir".into(),
        run.app_dir.display().to_string(),
        "--log-level".into(),
        "warning".into(),
        "app:application".into(),
    ]
}

/// Starts Gunicorn and waits until every worker has booted and `/fast` answers.
pub fn start(run: &GunicornRun) -> Result<ServerProcess> {
    let mut command = Command::new(&run.install.bin);
    command
        .args(args(run))
        .env("MEASURE_APP_LOG", run.app_log)
        .env("MEASURE_BLOCK_BYTES", run.plan.large.block_bytes.to_string())
        .env("MEASURE_BLOCKS", run.plan.blocks().to_string())
        .env("PYTHONDONTWRITEBYTECODE", "1");
    let mut server = ServerProcess::spawn("gunicorn", command, libc::SIGTERM, &run.run_dir.join("gunicorn.log"), vec![])?;
    let processes = run.plan.worker_shape(run.worker).processes as usize;
    let addr = loopback(run.port);
    // The listening socket accepts before the workers can serve; wait for each worker's boot line.
    server.wait_ready(addr, READY_TIMEOUT, |_| {
        if !app_log::read(run.app_log).is_ok_and(|events| app_log::booted_pids(&events).len() >= processes) {
            return Err(Probe::Waiting);
        }
        probe::http_200(addr, "/fast")
    })?;
    Ok(server)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn args_follow_the_plan() {
        let plan = OpenLoop::parse(include_str!("../../plans/study.toml")).unwrap();
        let install = GunicornInstall {
            bin: "/v/bin/gunicorn".into(),
            python: "/v/bin/python".into(),
            gunicorn_version: "23.0.0".into(),
            python_version: "3.11.2".into(),
        };
        let run = GunicornRun {
            install: &install,
            plan: &plan,
            worker: Worker::Gthread,
            app_dir: Path::new("/repo/measure/app"),
            port: 4321,
            run_dir: Path::new("/tmp/run"),
            app_log: Path::new("/tmp/run/app.jsonl"),
        };
        let a = args(&run).join(" ");
        assert!(a.starts_with("--bind 127.0.0.1:4321 --worker-class gthread --workers 1 --threads 4"), "{a}");
        assert!(a.ends_with("--chdir /repo/measure/app --log-level warning app:application"), "{a}");
        let sync = args(&GunicornRun { worker: Worker::Sync, ..run }).join(" ");
        assert!(sync.contains("--worker-class sync --workers 2 --threads 1"), "{sync}");
    }
}
