//! The open-loop study's preflight: the app, nginx (with a check of its generated config) and Gunicorn in
//! its virtual environment, all before the first run so a missing tool fails in seconds, not mid-study.

use super::Tools;
use crate::cli::RunArgs;
use crate::clock::date_utc;
use crate::dataset::manifest::Environment;
use crate::host::{self, Versions};
use crate::plan::open::OpenLoop;
use crate::run::{as_root, Installed};
use crate::servers::gunicorn;
use crate::servers::nginx::{self, NginxRun};
use anyhow::{bail, Result};
use std::path::Path;
use std::time::SystemTime;

/// Checks everything a run needs and installs Gunicorn when it is missing.
pub fn preflight(plan: &OpenLoop, args: &RunArgs) -> Result<Tools> {
    let app_dir = std::path::absolute(&args.app)?;
    if !app_dir.join("app.py").is_file() {
        bail!("{} not found: pass --app DIR (the folder of the WSGI app)", app_dir.join("app.py").display());
    }
    let (nginx_bin, nginx_version) = if plan.needs_nginx() {
        let bin = nginx::binary(&plan.nginx.binary)?;
        let version = nginx::version(&bin)?;
        check_nginx_config(&bin, plan)?;
        (Some(bin), Some(version))
    } else {
        (None, None)
    };
    let install = gunicorn::ensure_installed(&args.venv, &plan.gunicorn.version, &|msg| eprintln!("measure: {msg}"))?;
    let found = Versions { python: install.python_version.clone(), gunicorn: install.gunicorn_version.clone(), nginx: nginx_version };
    let mut versions = Environment::from([("python".into(), found.python.clone()), ("gunicorn".into(), found.gunicorn.clone())]);
    if let Some(nginx) = &found.nginx {
        versions.insert("nginx".into(), nginx.clone());
    }
    Ok(Tools {
        installed: Installed::Gunicorn(install),
        nginx_bin,
        analyze: None,
        app_dir,
        environment: host::environment(plan, &found, &date_utc(SystemTime::now())),
        versions,
    })
}

fn check_nginx_config(bin: &Path, plan: &OpenLoop) -> Result<()> {
    let dir = tempfile::Builder::new().prefix("measure-nginx-check-").tempdir()?;
    let prefix = dir.path().canonicalize()?;
    let run = NginxRun { settings: &plan.nginx, buffering: true, listen_port: 1, upstream_port: 2, prefix: &prefix, as_root: as_root() };
    nginx::test_config(bin, &run)
}
