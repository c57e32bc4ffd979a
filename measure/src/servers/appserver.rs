//! The app servers of closed-loop plans (Gunicorn, uWSGI, Django's runserver, flup FastCGI): their command
//! lines (pure functions, tested) and starting one for a run, waiting until it serves.
//!
//! Every server binds 127.0.0.1 only, logs no access lines (the seeds' configurations), and runs in its own
//! process group with the run's folder for its files, like the open-loop servers ([`super::ServerProcess`]).

use super::python::PythonEnv;
use super::{loopback, probe, ServerProcess, READY_TIMEOUT};
use crate::plan::closed::{App, Server, ServerKind};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Debian's uWSGI (package uwsgi with uwsgi-plugin-python3).
pub const UWSGI: &str = "/usr/bin/uwsgi";
/// The command that installs it.
pub const UWSGI_INSTALL_HINT: &str = "apt-get install -y uwsgi uwsgi-plugin-python3";

/// Everything one start needs.
#[derive(Debug, Clone)]
pub struct AppServerRun<'a> {
    pub server: &'a Server,
    pub env: &'a PythonEnv,
    pub app: App,
    /// `measure/app/closed` (absolute).
    pub app_dir: &'a Path,
    pub port: u16,
    /// The run's private folder (database, logs, heartbeat files).
    pub run_dir: &'a Path,
}

impl AppServerRun<'_> {
    /// The run's SQLite database (the Django app reads its path from MEASURE_DB).
    pub fn database(&self) -> PathBuf {
        self.run_dir.join("db.sqlite3")
    }
}

/// The program and arguments of one server.
pub fn command_line(run: &AppServerRun) -> (PathBuf, Vec<String>) {
    let s = run.server;
    let bind = format!("127.0.0.1:{}", run.port);
    let app_dir = run.app_dir.display().to_string();
    match s.kind {
        ServerKind::Gunicorn => (
            run.env.bin("gunicorn"),
            vec![
                "--bind".into(),
                bind,
                "--worker-class".into(),
                s.worker.clone().unwrap_or_default(),
                "--workers".into(),
                s.processes.to_string(),
                "--threads".into(),
                s.threads.to_string(),
                "--worker-tmp-dir".into(),
                run.run_dir.display().to_string(),
                "--chdir".into(),
                app_dir,
                "--log-level".into(),
                "warning".into(),
                run.app.wsgi().into(),
            ],
        ),
        ServerKind::Uwsgi => {
            let mut args = vec![
                "--plugin".into(),
                "python3".into(),
                "--http-socket".into(),
                bind,
                "--chdir".into(),
                app_dir,
                "--module".into(),
                run.app.wsgi().into(),
                "--virtualenv".into(),
                run.env.dir.display().to_string(),
                "--master".into(),
                "--processes".into(),
                s.processes.to_string(),
            ];
            if s.threads > 1 {
                args.extend(["--threads".into(), s.threads.to_string()]);
            }
            // SIGTERM stops uWSGI (by default it reloads); no request log, as the seed's benchmark.
            args.extend(["--die-on-term".into(), "--disable-logging".into(), "--max-requests".into(), "100000".into()]);
            (PathBuf::from(UWSGI), args)
        }
        ServerKind::Runserver => (
            run.env.python.clone(),
            vec![run.app_dir.join("manage.py").display().to_string(), "runserver".into(), bind, "--noreload".into()],
        ),
        ServerKind::Fastcgi => (
            run.env.python.clone(),
            vec![
                run.app_dir.join("fcgi.py").display().to_string(),
                "--method".into(),
                s.method.clone().unwrap_or_default(),
                "--port".into(),
                run.port.to_string(),
            ],
        ),
    }
}

/// Creates the run's fresh database (`manage.py migrate`): the admin user of seed 001, 20 entries of seed 003.
pub fn migrate(run: &AppServerRun) -> Result<()> {
    super::python::output(
        Command::new(&run.env.python)
            .arg(run.app_dir.join("manage.py"))
            .args(["migrate", "--verbosity", "0"])
            .env("MEASURE_DB", run.database())
            .env("PYTHONDONTWRITEBYTECODE", "1"),
    )
    .context("manage.py migrate failed")?;
    Ok(())
}

/// Starts the server and waits until it serves: `path` answers 200 (HTTP servers), or the port accepts
/// connections (FastCGI, which nginx then checks end to end).
pub fn start(run: &AppServerRun, path: &str) -> Result<ServerProcess> {
    if run.app == App::Django {
        migrate(run)?;
    }
    let (program, args) = command_line(run);
    let mut command = Command::new(&program);
    command.args(&args).current_dir(run.app_dir).env("MEASURE_DB", run.database()).env("PYTHONDONTWRITEBYTECODE", "1");
    let name = run.server.kind.as_str();
    let mut server = ServerProcess::spawn(name, command, libc::SIGTERM, &run.run_dir.join(format!("{name}.log")), vec![])?;
    let addr = loopback(run.port);
    match run.server.kind {
        ServerKind::Fastcgi => {
            server.wait_ready(addr, READY_TIMEOUT, |_| probe::tcp(addr))?
        }
        _ => server.wait_ready(addr, READY_TIMEOUT, |_| probe::http_200(addr, path))?,
    }
    // A prefork server forks its spare workers after it listens; give them a moment to settle before t = 0.
    let settle = Instant::now() + Duration::from_millis(300);
    std::thread::sleep(settle.saturating_duration_since(Instant::now()));
    Ok(server)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Text;

    fn server(kind: ServerKind) -> Server {
        Server {
            kind,
            worker: Some("gthread".into()),
            processes: 2,
            threads: 3,
            method: Some("prefork".into()),
            nginx: false,
            label: Text { en: String::new(), ja: String::new() },
        }
    }

    fn line(kind: ServerKind, app: App) -> String {
        let env = PythonEnv { dir: "/v".into(), python: "/v/bin/python".into(), version: "3.11.2".into() };
        let s = server(kind);
        let run = AppServerRun { server: &s, env: &env, app, app_dir: Path::new("/a"), port: 4321, run_dir: Path::new("/r") };
        let (program, args) = command_line(&run);
        format!("{} {}", program.display(), args.join(" "))
    }

    #[test]
    fn gunicorn_binds_loopback_with_the_plans_shape() {
        assert_eq!(
            line(ServerKind::Gunicorn, App::Hello),
            "/v/bin/gunicorn --bind 127.0.0.1:4321 --worker-class gthread --workers 2 --threads 3 --worker-tmp-dir /r \
             --chdir /a --log-level warning hello:application"
        );
    }

    #[test]
    fn uwsgi_uses_the_venv_and_stops_on_term() {
        let l = line(ServerKind::Uwsgi, App::Django);
        assert!(l.starts_with("/usr/bin/uwsgi --plugin python3 --http-socket 127.0.0.1:4321 --chdir /a"), "{l}");
        assert!(l.contains("--module site_project.wsgi:application --virtualenv /v --master --processes 2 --threads 3"), "{l}");
        assert!(l.contains("--die-on-term --disable-logging"), "{l}");
    }

    #[test]
    fn runserver_and_fastcgi_run_the_venvs_python() {
        assert_eq!(line(ServerKind::Runserver, App::Django), "/v/bin/python /a/manage.py runserver 127.0.0.1:4321 --noreload");
        assert_eq!(line(ServerKind::Fastcgi, App::Django), "/v/bin/python /a/fcgi.py --method prefork --port 4321");
    }
}
