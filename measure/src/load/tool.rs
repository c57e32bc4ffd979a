//! The seeds' own load generators, ab (ApacheBench) and hey: their command lines (pure, tested), and one
//! invocation per run whose output files are kept as they are, for `analyze import` to read.
//!
//! measure does not parse these files: `analyze import` is the one home of each tool's format. The tool
//! runs in its own process group, so a Ctrl-C reaches only the harness, which then stops the tool by PID.

use crate::plan::closed::{Load, Tool};
use anyhow::{Context, Result};
use std::fs::File;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};

/// Debian's ab (package apache2-utils).
pub const AB: &str = "/usr/bin/ab";
/// Debian's hey (package hey).
pub const HEY: &str = "/usr/bin/hey";

/// One invocation's files, in the run's raw folder.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolFiles {
    /// Every file the invocation writes (what `analyze import` is given).
    pub outputs: Vec<PathBuf>,
    /// Where its stdout goes.
    pub stdout: PathBuf,
    /// Where its stderr goes (kept for error messages, not imported).
    pub stderr: PathBuf,
}

/// The program, its arguments and its files for one run at `concurrency` against `url`.
pub fn command_line(tool: Tool, load: &Load, concurrency: u32, url: &str, dir: &Path) -> (PathBuf, Vec<String>, ToolFiles) {
    let stderr = dir.join(format!("{}.stderr", tool.as_str()));
    match tool {
        Tool::Ab => {
            let gnuplot = dir.join("ab-gnuplot.tsv");
            let percentiles = dir.join("ab-percentiles.csv");
            let stdout = dir.join("ab.txt");
            let args = vec![
                "-n".into(),
                load.requests.unwrap_or(0).to_string(),
                "-c".into(),
                concurrency.to_string(),
                "-s".into(),
                load.request_timeout_s.to_string(),
                "-g".into(),
                gnuplot.display().to_string(),
                "-e".into(),
                percentiles.display().to_string(),
                url.into(),
            ];
            let files = ToolFiles { outputs: vec![gnuplot, percentiles, stdout.clone()], stdout, stderr };
            (PathBuf::from(AB), args, files)
        }
        Tool::Hey => {
            let stdout = dir.join("hey.csv");
            let mut args = vec!["-c".into(), concurrency.to_string()];
            match (load.duration_s, load.requests) {
                (Some(z), _) => args.extend(["-z".into(), format!("{z}s")]),
                (None, n) => args.extend(["-n".into(), n.unwrap_or(0).to_string()]),
            }
            args.extend(["-t".into(), load.request_timeout_s.to_string(), "-o".into(), "csv".into(), url.into()]);
            let files = ToolFiles { outputs: vec![stdout.clone()], stdout, stderr };
            (PathBuf::from(HEY), args, files)
        }
        Tool::Sessions => unreachable!("sessions are measure's own client, not a tool"),
    }
}

/// A running tool.
#[derive(Debug)]
pub struct ToolProcess {
    child: Child,
    pub files: ToolFiles,
    done: bool,
}

impl ToolProcess {
    /// Starts the tool in its own process group with its output going to its files.
    pub fn spawn(program: &Path, args: &[String], files: ToolFiles) -> Result<ToolProcess> {
        let out = File::create(&files.stdout).with_context(|| format!("failed to create {}", files.stdout.display()))?;
        let err = File::create(&files.stderr).with_context(|| format!("failed to create {}", files.stderr.display()))?;
        let child = Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .process_group(0)
            .spawn()
            .with_context(|| format!("failed to start {}", program.display()))?;
        Ok(ToolProcess { child, files, done: false })
    }

    /// `Some` once the tool has exited.
    pub fn exit_status(&mut self) -> Option<ExitStatus> {
        let status = self.child.try_wait().ok().flatten();
        self.done |= status.is_some();
        status
    }

    /// The last lines the tool wrote to stderr (and stdout), for notes.
    pub fn output_tail(&self) -> String {
        let mut lines = Vec::new();
        for path in [&self.files.stderr, &self.files.stdout] {
            if let Ok(text) = std::fs::read_to_string(path) {
                lines.extend(text.lines().rev().take(3).map(str::to_owned).collect::<Vec<_>>().into_iter().rev());
            }
        }
        lines.join(" | ")
    }

    /// Stops the tool (SIGKILL to its group) and reaps it.
    pub fn kill(&mut self) {
        if !self.done {
            // SAFETY: kill has no memory-safety preconditions; the group is our child's own.
            unsafe {
                libc::kill(-(self.child.id() as i32), libc::SIGKILL);
            }
            let _ = self.child.wait();
            self.done = true;
        }
    }
}

impl Drop for ToolProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// `2.3` from `ab -V`.
pub fn ab_version() -> Option<String> {
    let out = Command::new(AB).arg("-V").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let rest = text.split("Version ").nth(1)?;
    Some(rest.split_whitespace().next()?.trim_end_matches(',').to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(tool: Tool) -> Load {
        Load { tool, requests: Some(10_000), duration_s: None, ramp_s: None, request_timeout_s: 30, run_timeout_s: 600 }
    }

    #[test]
    fn ab_writes_its_gnuplot_and_percentile_files_beside_its_stdout() {
        let (program, args, files) = command_line(Tool::Ab, &load(Tool::Ab), 5, "http://127.0.0.1:9/users/", Path::new("/raw/r01"));
        assert_eq!(program, PathBuf::from("/usr/bin/ab"));
        assert_eq!(
            args.join(" "),
            "-n 10000 -c 5 -s 30 -g /raw/r01/ab-gnuplot.tsv -e /raw/r01/ab-percentiles.csv http://127.0.0.1:9/users/"
        );
        assert_eq!(files.outputs.len(), 3);
        assert_eq!(files.stdout, PathBuf::from("/raw/r01/ab.txt"));
    }

    #[test]
    fn hey_runs_for_a_duration_and_prints_csv() {
        let mut l = load(Tool::Hey);
        l.requests = None;
        l.duration_s = Some(10);
        let (_, args, files) = command_line(Tool::Hey, &l, 2, "http://127.0.0.1:9/", Path::new("/raw/r02"));
        assert_eq!(args.join(" "), "-c 2 -z 10s -t 30 -o csv http://127.0.0.1:9/");
        assert_eq!(files.outputs, [PathBuf::from("/raw/r02/hey.csv")]);
    }

    #[test]
    fn ab_reports_its_version() {
        assert_eq!(ab_version().as_deref(), Some("2.3"), "is apache2-utils installed?");
    }
}
