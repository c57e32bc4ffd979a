//! A command plan's server for one run: its files written into the run's folder, its argv, cwd and env
//! with the placeholders filled in, started in its own process group with its stdout and stderr kept in
//! the dataset's `raw/<run_id>/`, and waited for until its readiness check passes.
//!
//! A server that exits while starting, is not ready in time, or listens on another port than `{port}`
//! fails with the [`super::ServerFailed`] that says which: a server that binds its own default port would
//! otherwise show as merely slow, or, were that port answered by something else, be measured as someone
//! else's server.

use super::{loopback, probe, ServerProcess};
use crate::cpus::CpuSet;
use crate::plan::command::{Condition, Ready, Server};
use crate::plan::template;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Where a server's stdout is kept, in the run's raw folder.
pub const STDOUT: &str = "server.stdout";
/// Where its stderr is kept.
pub const STDERR: &str = "server.stderr";

/// One start of one server.
#[derive(Debug, Clone)]
pub struct CommandServerRun<'a> {
    pub name: &'a str,
    pub server: &'a Server,
    pub condition: &'a Condition,
    pub port: u16,
    pub run_id: &'a str,
    /// The run's private folder (`{run_dir}`), where the server's files are written.
    pub run_dir: &'a Path,
    /// The dataset's `raw/<run_id>/` (`{raw_dir}`), where its output is kept.
    pub raw_dir: &'a Path,
    /// The folder measure runs in: a relative program and the default working directory.
    pub base_dir: &'a Path,
    /// The CPUs the server's processes run on, when the run is pinned.
    pub cpus: Option<&'a CpuSet>,
}

impl CommandServerRun<'_> {
    /// The value of a placeholder for this run.
    fn value(&self, name: &str) -> Option<String> {
        match name {
            "port" => Some(self.port.to_string()),
            "host" => Some("127.0.0.1".into()),
            "run_dir" => Some(self.run_dir.display().to_string()),
            "raw_dir" => Some(self.raw_dir.display().to_string()),
            "run_id" => Some(self.run_id.to_string()),
            factor => self.condition.level(factor).map(str::to_owned),
        }
    }

    /// `text` with this run's values (the plan's check refused unknown names).
    pub fn fill(&self, text: &str) -> Result<String> {
        let mut out = String::with_capacity(text.len());
        for piece in template::pieces(text) {
            match piece {
                template::Piece::Text(t) => out.push_str(t),
                template::Piece::Name(n) => {
                    out.push_str(&self.value(n).with_context(|| format!("{{{n}}} has no value (a bug in measure)"))?)
                }
            }
        }
        Ok(out)
    }

    /// The program (relative ones taken from [`CommandServerRun::base_dir`]; bare names are looked up on
    /// PATH by the OS) and its arguments.
    pub fn argv(&self) -> Result<(PathBuf, Vec<String>)> {
        let mut filled = self.server.command.iter().map(|a| self.fill(a)).collect::<Result<Vec<_>>>()?;
        let program = filled.remove(0);
        Ok((program_path(&program, self.base_dir), filled))
    }

    /// The working directory: `cwd` (relative to the base folder), else the base folder.
    pub fn cwd(&self) -> Result<PathBuf> {
        Ok(match &self.server.cwd {
            Some(cwd) => self.base_dir.join(self.fill(cwd)?),
            None => self.base_dir.to_path_buf(),
        })
    }

    /// Writes the server's files into the run's folder.
    pub fn write_files(&self) -> Result<()> {
        for (rel, text) in &self.server.files {
            let path = self.run_dir.join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).with_context(|| format!("failed to create {}", parent.display()))?;
            }
            std::fs::write(&path, self.fill(text)?).with_context(|| format!("failed to write {}", path.display()))?;
        }
        Ok(())
    }
}

/// `program` as the OS should run it: a path with a `/` taken from `base` when relative; a bare name as is
/// (looked up on PATH).
pub fn program_path(program: &str, base: &Path) -> PathBuf {
    if program.contains('/') {
        base.join(program)
    } else {
        PathBuf::from(program)
    }
}

/// Starts the server and waits until its readiness check passes on its port.
pub fn start(run: &CommandServerRun) -> Result<ServerProcess> {
    run.write_files()?;
    let (program, args) = run.argv()?;
    let mut command = Command::new(&program);
    command.args(&args).current_dir(run.cwd()?);
    for (key, value) in &run.server.env {
        command.env(key, run.fill(value)?);
    }
    std::fs::create_dir_all(run.raw_dir).with_context(|| format!("failed to create {}", run.raw_dir.display()))?;
    let mut server = ServerProcess::spawn_split(
        run.name,
        command,
        run.server.stop_signal(),
        (&run.raw_dir.join(STDOUT), &run.raw_dir.join(STDERR)),
        run.cpus,
    )?;
    let addr = loopback(run.port);
    let ready = run.server.ready();
    let timeout = Duration::from_secs(run.server.ready_timeout_s);
    server.wait_ready(addr, timeout, |_| match &ready {
        Ready::Tcp => probe::tcp(addr),
        Ready::Http(path) => probe::http(addr, path, |s| (200..300).contains(&s)),
    })?;
    // Ready at the address, but not by the server's own socket: something else answered there.
    let listeners = server.listeners();
    if !listeners.iter().any(|l| l.reaches(addr)) {
        return Err(server.elsewhere(addr, &listeners).into());
    }
    Ok(server)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::command::CommandPlan;

    fn plan() -> CommandPlan {
        CommandPlan::from_toml(include_str!("../../plans/static-file-servers.toml")).unwrap()
    }

    #[test]
    fn the_argv_is_the_plans_with_the_runs_values() {
        let plan = plan();
        let condition = &plan.conditions()[3];
        let (name, server) = plan.server_of(condition).unwrap();
        let run = CommandServerRun {
            name,
            server,
            condition,
            port: 4321,
            run_id: "r07",
            run_dir: Path::new("/tmp/run"),
            raw_dir: Path::new("/d/raw/r07"),
            cpus: None,
            base_dir: Path::new("/repo"),
        };
        let (program, args) = run.argv().unwrap();
        assert_eq!(program, PathBuf::from("/usr/bin/python3"));
        assert_eq!(args.join(" "), "-m http.server --bind 127.0.0.1 --directory /tmp/run/www 4321");
        assert_eq!(run.cwd().unwrap(), PathBuf::from("/repo"));
        assert_eq!(
            run.fill("{host}:{port} {run_id} {raw_dir} {server}/{concurrency}").unwrap(),
            "127.0.0.1:4321 r07 /d/raw/r07 http-server/10"
        );
    }

    #[test]
    fn files_are_written_into_the_run_folder_with_the_port() {
        let plan = plan();
        let condition = &plan.conditions()[0];
        let (name, server) = plan.server_of(condition).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let run = CommandServerRun {
            name,
            server,
            condition,
            port: 4321,
            run_id: "r01",
            run_dir: dir.path(),
            raw_dir: dir.path(),
            base_dir: dir.path(),
            cpus: None,
        };
        run.write_files().unwrap();
        let conf = std::fs::read_to_string(dir.path().join("nginx.conf")).unwrap();
        assert!(conf.contains("listen 127.0.0.1:4321;") && conf.contains(&format!("root {}/www;", dir.path().display())), "{conf}");
        assert!(conf.contains("events {\n    worker_connections 1024;\n}"), "braces stay: {conf}");
        assert!(dir.path().join("www/index.html").is_file());
    }

    #[test]
    fn relative_programs_are_taken_from_the_base_folder() {
        assert_eq!(program_path("./target/server", Path::new("/repo")), PathBuf::from("/repo/./target/server"));
        assert_eq!(program_path("/usr/sbin/nginx", Path::new("/repo")), PathBuf::from("/usr/sbin/nginx"));
        assert_eq!(program_path("python3", Path::new("/repo")), PathBuf::from("python3"));
    }
}
