//! The load generators measure runs as they are (ab, hey, wrk, oha, siege, autocannon, k6, vegeta): their
//! command lines (pure, tested), and one invocation per run whose output files are kept as they are, for
//! `analyze import` to read.
//!
//! measure does not parse these files: `analyze import` is the one home of each tool's format. A tool runs
//! in its own process group, so a Ctrl-C reaches only the harness, which then stops the tool by PID; and
//! it dies with the harness (PR_SET_PDEATHSIG), so a killed study leaves no load running.

use crate::cpus::CpuSet;
use crate::plan::closed::{Load, Tool};
use crate::plan::command::{Connection, LoadTool, RunLoad};
use crate::sample::procfs;
use anyhow::{Context, Result};
use std::fs::File;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::Instant;

/// Debian's ab (package apache2-utils).
pub const AB: &str = "/usr/bin/ab";
/// Debian's hey (package hey).
pub const HEY: &str = "/usr/bin/hey";

/// The files one invocation leaves for `analyze import`.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolFiles {
    /// Every file `analyze import` is given.
    pub outputs: Vec<PathBuf>,
}

/// One program of an invocation, with where its output goes.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub program: PathBuf,
    pub args: Vec<String>,
    pub stdout: PathBuf,
    pub stderr: PathBuf,
}

/// What one run of a tool is: the files measure writes for it first (siege's settings, k6's script,
/// vegeta's targets), its programs run one after the other (vegeta attacks, then encodes), and the files
/// to import.
#[derive(Debug, Clone, PartialEq)]
pub struct Invocation {
    pub inputs: Vec<(PathBuf, String)>,
    pub steps: Vec<Step>,
    pub files: ToolFiles,
}

impl Invocation {
    /// The command lines as a shell would show them (for README.md and `--dry-run`).
    pub fn display(&self) -> String {
        self.steps.iter().map(|s| format!("{} {}", s.program.display(), s.args.join(" "))).collect::<Vec<_>>().join(" && ")
    }
}

/// The closed-loop plans' ab and hey: the program, its arguments and its files for one run at `concurrency`.
pub fn command_line(tool: Tool, load: &Load, concurrency: u32, url: &str, dir: &Path) -> Invocation {
    let (name, program) = match tool {
        Tool::Ab => (LoadTool::Ab, AB),
        Tool::Hey => (LoadTool::Hey, HEY),
        Tool::Sessions => unreachable!("sessions are measure's own client, not a tool"),
    };
    let run = RunLoad {
        tool: name,
        path: String::new(),
        concurrency,
        requests: load.requests.map(u64::from),
        duration_s: load.duration_s,
        rate: None,
        threads: None,
        request_timeout_s: load.request_timeout_s,
        connection: Connection::PerRequest,
    };
    invocation(&run, Path::new(program), url, dir, 1).unwrap_or_else(|| unreachable!("ab and hey are tools"))
}

/// `load`'s tool as `program` against `url`, its files in `dir`; `cpus` bounds wrk's default threads.
/// `None` for measure's own open-loop client.
pub fn invocation(load: &RunLoad, program: &Path, url: &str, dir: &Path, cpus: usize) -> Option<Invocation> {
    let file = |name: &str| dir.join(name);
    let path = |p: &PathBuf| p.display().to_string();
    let tool = load.tool;
    let stderr = file(&format!("{}.stderr", tool.as_str()));
    let c = load.concurrency.to_string();
    let timeout = load.request_timeout_s.to_string();
    let step = |args: Vec<String>, stdout: PathBuf| Step { program: program.to_path_buf(), args, stdout, stderr: stderr.clone() };
    let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<String>>();
    let (inputs, steps, outputs) = match tool {
        LoadTool::Ab => {
            let (gnuplot, percentiles, stdout) = (file("ab-gnuplot.tsv"), file("ab-percentiles.csv"), file("ab.txt"));
            let n = load.requests.unwrap_or(0).to_string();
            let args = strings(&["-n", &n, "-c", &c, "-s", &timeout, "-g", &path(&gnuplot), "-e", &path(&percentiles), url]);
            (vec![], vec![step(args, stdout.clone())], vec![gnuplot, percentiles, stdout])
        }
        LoadTool::Hey => {
            let stdout = file("hey.csv");
            let mut args = strings(&["-c", &c]);
            match (load.duration_s, load.requests) {
                (Some(z), _) => args.extend(strings(&["-z", &format!("{z}s")])),
                (None, n) => args.extend(strings(&["-n", &n.unwrap_or(0).to_string()])),
            }
            args.extend(strings(&["-t", &timeout, "-o", "csv", url]));
            (vec![], vec![step(args, stdout.clone())], vec![stdout])
        }
        LoadTool::Wrk => {
            let stdout = file("wrk.txt");
            let threads = load.threads.unwrap_or_else(|| load.concurrency.min(cpus.max(1) as u32)).to_string();
            let d = format!("{}s", load.duration_s.unwrap_or(0));
            let args = strings(&["-c", &c, "-t", &threads, "-d", &d, "--timeout", &format!("{timeout}s"), "--latency", url]);
            (vec![], vec![step(args, stdout.clone())], vec![stdout])
        }
        LoadTool::Oha => {
            let (stdout, db) = (file("oha.json"), file("oha.db"));
            let mut args = strings(&["--no-tui", "--output-format", "json", "--db-url", &path(&db), "-c", &c]);
            match (load.duration_s, load.requests) {
                (Some(z), _) => args.extend(strings(&["-z", &format!("{z}s")])),
                (None, n) => args.extend(strings(&["-n", &n.unwrap_or(0).to_string()])),
            }
            if let Some(rate) = load.rate {
                args.extend(strings(&["-q", &rate.to_string()]));
            }
            args.extend(strings(&["-t", &format!("{timeout}s"), url]));
            (vec![], vec![step(args, stdout.clone())], vec![db, stdout])
        }
        LoadTool::Siege => {
            // -v lines on stdout, the summary on stderr: both are imported.
            let (stdout, rc) = (file("siege.txt"), file("siegerc"));
            let mut args = strings(&["-R", &path(&rc), "-c", &c]);
            match (load.duration_s, load.requests) {
                (Some(z), _) => args.extend(strings(&["-t", &format!("{z}S")])),
                (None, n) => args.extend(strings(&["-r", &(n.unwrap_or(0) / u64::from(load.concurrency.max(1))).to_string()])),
            }
            args.extend(strings(&["-b", "-v", url]));
            let settings = siegerc(load);
            (vec![(rc, settings)], vec![step(args, stdout.clone())], vec![stdout, stderr.clone()])
        }
        LoadTool::Autocannon => {
            let stdout = file("autocannon.json");
            let mut args = strings(&["-c", &c]);
            match (load.duration_s, load.requests) {
                (Some(z), _) => args.extend(strings(&["-d", &z.to_string()])),
                (None, n) => args.extend(strings(&["-a", &n.unwrap_or(0).to_string()])),
            }
            if let Some(rate) = load.rate {
                args.extend(strings(&["-R", &rate.to_string()]));
            }
            args.extend(strings(&["-t", &timeout, "--json", url]));
            (vec![], vec![step(args, stdout.clone())], vec![stdout])
        }
        LoadTool::K6 => {
            let (script, points, summary) = (file("k6-script.js"), file("k6.json"), file("k6-summary.json"));
            let mut args = strings(&["run", "--quiet", "--no-color", "--vus", &c]);
            match (load.duration_s, load.requests) {
                (Some(z), _) => args.extend(strings(&["--duration", &format!("{z}s")])),
                (None, n) => args.extend(strings(&["--iterations", &n.unwrap_or(0).to_string()])),
            }
            args.extend(strings(&[
                "--summary-export",
                &path(&summary),
                "--out",
                &format!("json={}", path(&points)),
                "-e",
                &format!("MEASURE_URL={url}"),
                &path(&script),
            ]));
            let js = format!(
                "// Written by measure: one GET of the plan's path per iteration.\nimport http from 'k6/http';\n\
                 export default function () {{\n    http.get(__ENV.MEASURE_URL, {{ timeout: '{timeout}s' }});\n}}\n"
            );
            (vec![(script, js)], vec![step(args, file("k6.txt"))], vec![points, summary])
        }
        LoadTool::Vegeta => {
            let (targets, results, csv) = (file("vegeta-targets.txt"), file("vegeta.bin"), file("vegeta.csv"));
            let rate = format!("{}/1s", load.rate.unwrap_or(0));
            let d = format!("{}s", load.duration_s.unwrap_or(0));
            let mut attack =
                strings(&["attack", "-targets", &path(&targets), "-rate", &rate, "-duration", &d, "-timeout", &format!("{timeout}s")]);
            if load.concurrency > 1 {
                attack.extend(strings(&["-workers", &c, "-max-workers", &c]));
            }
            attack.extend(strings(&["-output", &path(&results)]));
            let encode = strings(&["encode", "--to", "csv", "--output", &path(&csv), &path(&results)]);
            let steps = vec![step(attack, file("vegeta-attack.txt")), step(encode, file("vegeta-encode.txt"))];
            (vec![(targets, format!("GET {url}\n"))], steps, vec![csv])
        }
        LoadTool::OpenLoop => return None,
    };
    Some(Invocation { inputs, steps, files: ToolFiles { outputs } })
}

/// siege's settings, so the user's `~/.siege/siege.conf` (Debian's turns JSON output and colour on, and
/// fetches a page's images) does not change what is measured.
fn siegerc(load: &RunLoad) -> String {
    format!(
        "# Written by measure for this run (siege -R).\nverbose = true\ncolor = off\nquiet = false\njson_output = false\n\
         show-logfile = false\nlogging = false\nprotocol = HTTP/1.1\nconnection = close\nparser = false\n\
         limit = {}\ntimeout = {}\n",
        load.concurrency.max(255),
        load.request_timeout_s
    )
}

/// A running tool: the step now running, and the rest.
#[derive(Debug)]
pub struct ToolProcess {
    child: Child,
    step: usize,
    invocation: Invocation,
    pub files: ToolFiles,
    done: bool,
    /// The CPUs every step runs on, when the run is pinned.
    cpus: Option<CpuSet>,
    started: Instant,
    /// The CPU time of the steps that have exited (each with the children it waited for), in clock ticks.
    cpu_ticks: u64,
    /// When the last step was seen to have exited.
    ended: Option<Instant>,
}

/// What a tool used of the CPUs it had: its CPU seconds (every step and the children each waited for)
/// over its wall seconds and the CPUs it could run on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ToolCpu {
    pub cpu_s: f64,
    pub wall_s: f64,
    pub cpus: usize,
}

impl ToolCpu {
    /// The share of its CPUs' time the tool used: 1 when it kept every one busy for its whole run.
    pub fn share(&self) -> Option<f64> {
        (self.wall_s > 0.0 && self.cpus > 0).then(|| self.cpu_s / (self.wall_s * self.cpus as f64))
    }
}

impl ToolProcess {
    /// Writes the invocation's inputs and starts its first step.
    pub fn start(invocation: Invocation) -> Result<ToolProcess> {
        ToolProcess::start_on(invocation, None)
    }

    /// [`ToolProcess::start`], every step on `cpus` when given.
    pub fn start_on(invocation: Invocation, cpus: Option<CpuSet>) -> Result<ToolProcess> {
        for (path, text) in &invocation.inputs {
            std::fs::write(path, text).with_context(|| format!("failed to write {}", path.display()))?;
        }
        let first = invocation.steps.first().context("a tool invocation without a program (a bug in measure)")?;
        let started = Instant::now();
        let child = spawn(first, cpus.as_ref())?;
        Ok(ToolProcess {
            child,
            step: 0,
            files: invocation.files.clone(),
            invocation,
            done: false,
            cpus,
            started,
            cpu_ticks: 0,
            ended: None,
        })
    }

    /// The CPU the tool used, once it has exited by itself (a killed tool is not measured).
    pub fn cpu(&self) -> Option<ToolCpu> {
        let ended = self.ended?;
        let cpus = self.cpus.as_ref().map_or_else(crate::host::cpus, CpuSet::len);
        Some(ToolCpu {
            cpu_s: self.cpu_ticks as f64 / procfs::ticks_per_second(),
            wall_s: ended.duration_since(self.started).as_secs_f64(),
            cpus,
        })
    }

    /// `Some` once the tool has exited: the first step that failed, or the last one. A step that succeeds
    /// starts the next.
    pub fn exit_status(&mut self) -> Option<ExitStatus> {
        if self.done {
            return self.child.try_wait().ok().flatten();
        }
        // Its CPU time is read while it is a zombie, before it is reaped.
        let ticks = exited_ticks(self.child.id())?;
        let status = self.child.try_wait().ok().flatten()?;
        self.cpu_ticks += ticks;
        self.ended = Some(Instant::now());
        let next = self.step + 1;
        if status.success() && next < self.invocation.steps.len() {
            match spawn(&self.invocation.steps[next], self.cpus.as_ref()) {
                Ok(child) => {
                    self.child = child;
                    self.step = next;
                    return None;
                }
                Err(e) => {
                    let _ = std::fs::write(&self.invocation.steps[next].stderr, format!("{e:#}\n"));
                    self.step = next;
                }
            }
        }
        self.done = true;
        Some(status)
    }

    /// The last lines the running (or last) step wrote to stderr and stdout, for notes.
    pub fn output_tail(&self) -> String {
        let step = &self.invocation.steps[self.step];
        let mut lines = Vec::new();
        for path in [&step.stderr, &step.stdout] {
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

/// The CPU time, in clock ticks, of our child `pid` once it has exited and before it is reaped (with the
/// children it waited for); `None` while it runs.
fn exited_ticks(pid: u32) -> Option<u64> {
    // SAFETY: siginfo_t is plain data; waitid writes into it. WNOWAIT leaves the child to be reaped by
    // `Child::try_wait`.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, libc::WEXITED | libc::WNOHANG | libc::WNOWAIT) };
    // SAFETY: si_pid is set by waitid for an exited child and left 0 (zeroed) otherwise.
    if r != 0 || unsafe { info.si_pid() } == 0 {
        // An error (already reaped) is not "still running": let try_wait say what it is.
        return if r != 0 { Some(0) } else { None };
    }
    Some(procfs::read_stat(pid).ok().flatten().map_or(0, |s| s.utime + s.stime + s.children_ticks))
}

/// Starts one step in its own process group, its output going to its files; it gets SIGKILL when the
/// harness dies. With `cpus`, it runs on those CPUs.
fn spawn(step: &Step, cpus: Option<&CpuSet>) -> Result<Child> {
    let out = File::create(&step.stdout).with_context(|| format!("failed to create {}", step.stdout.display()))?;
    // Steps may share a stderr file (vegeta's attack and encode): append.
    let err = File::options()
        .create(true)
        .append(true)
        .open(&step.stderr)
        .with_context(|| format!("failed to create {}", step.stderr.display()))?;
    let mut command = Command::new(&step.program);
    command.args(&step.args).stdin(Stdio::null()).stdout(out).stderr(err).process_group(0);
    // SAFETY: prctl is async-signal-safe and touches no memory of the parent.
    unsafe {
        command.pre_exec(|| {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    if let Some(cpus) = cpus {
        cpus.apply_to(&mut command);
    }
    command.spawn().with_context(|| format!("failed to start {}", step.program.display()))
}

/// `2.3` from `ab -V`.
pub fn ab_version() -> Option<String> {
    ab_version_at(Path::new(AB))
}

/// `2.3` from `PROGRAM -V`.
pub fn ab_version_at(program: &Path) -> Option<String> {
    let out = Command::new(program).arg("-V").output().ok()?;
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

    fn run_load(tool: LoadTool) -> RunLoad {
        RunLoad {
            tool,
            path: "/".into(),
            concurrency: 4,
            requests: Some(200),
            duration_s: None,
            rate: None,
            threads: None,
            request_timeout_s: 10,
            connection: Connection::PerRequest,
        }
    }

    fn line(load: &RunLoad) -> (String, Vec<String>) {
        let inv = invocation(load, Path::new("/bin/tool"), "http://127.0.0.1:9/x", Path::new("/raw/r01"), 2).unwrap();
        let outputs = inv.files.outputs.iter().map(|p| p.display().to_string()).collect();
        (inv.steps.iter().map(|s| s.args.join(" ")).collect::<Vec<_>>().join(" && "), outputs)
    }

    #[test]
    fn ab_writes_its_gnuplot_and_percentile_files_beside_its_stdout() {
        let inv = command_line(Tool::Ab, &load(Tool::Ab), 5, "http://127.0.0.1:9/users/", Path::new("/raw/r01"));
        assert_eq!(inv.steps.len(), 1);
        assert_eq!(inv.steps[0].program, PathBuf::from("/usr/bin/ab"));
        assert_eq!(
            inv.steps[0].args.join(" "),
            "-n 10000 -c 5 -s 30 -g /raw/r01/ab-gnuplot.tsv -e /raw/r01/ab-percentiles.csv http://127.0.0.1:9/users/"
        );
        assert_eq!(inv.files.outputs.len(), 3);
        assert_eq!(inv.steps[0].stdout, PathBuf::from("/raw/r01/ab.txt"));
    }

    #[test]
    fn hey_runs_for_a_duration_and_prints_csv() {
        let mut l = load(Tool::Hey);
        l.requests = None;
        l.duration_s = Some(10);
        let inv = command_line(Tool::Hey, &l, 2, "http://127.0.0.1:9/", Path::new("/raw/r02"));
        assert_eq!(inv.steps[0].args.join(" "), "-c 2 -z 10s -t 30 -o csv http://127.0.0.1:9/");
        assert_eq!(inv.files.outputs, [PathBuf::from("/raw/r02/hey.csv")]);
    }

    #[test]
    fn wrk_runs_for_its_duration_with_a_thread_per_cpu_at_most() {
        let l = RunLoad { requests: None, duration_s: Some(3), concurrency: 10, ..run_load(LoadTool::Wrk) };
        assert_eq!(line(&l), ("-c 10 -t 2 -d 3s --timeout 10s --latency http://127.0.0.1:9/x".into(), vec!["/raw/r01/wrk.txt".into()]));
        let l = RunLoad { threads: Some(1), ..l };
        assert!(line(&l).0.contains("-t 1 "));
    }

    #[test]
    fn siege_sends_requests_per_client_and_both_its_outputs_are_imported() {
        let load = run_load(LoadTool::Siege);
        let (args, outputs) = line(&load);
        assert_eq!(args, "-R /raw/r01/siegerc -c 4 -r 50 -b -v http://127.0.0.1:9/x");
        assert_eq!(outputs, ["/raw/r01/siege.txt", "/raw/r01/siege.stderr"]);
        let inv = invocation(&load, Path::new("siege"), "u", Path::new("/raw/r01"), 2).unwrap();
        assert!(inv.inputs[0].1.contains("parser = false\n") && inv.inputs[0].1.contains("timeout = 10\n"), "{:?}", inv.inputs);
    }

    #[test]
    fn oha_autocannon_and_k6_take_a_count_or_a_duration() {
        let oha = RunLoad { rate: Some(500), ..run_load(LoadTool::Oha) };
        assert_eq!(
            line(&oha),
            (
                "--no-tui --output-format json --db-url /raw/r01/oha.db -c 4 -n 200 -q 500 -t 10s http://127.0.0.1:9/x".into(),
                vec!["/raw/r01/oha.db".into(), "/raw/r01/oha.json".into()]
            )
        );
        let ac = RunLoad { requests: None, duration_s: Some(5), ..run_load(LoadTool::Autocannon) };
        assert_eq!(line(&ac).0, "-c 4 -d 5 -t 10 --json http://127.0.0.1:9/x");
        let (k6, outputs) = line(&run_load(LoadTool::K6));
        assert!(k6.starts_with("run --quiet --no-color --vus 4 --iterations 200 --summary-export /raw/r01/k6-summary.json"), "{k6}");
        assert!(k6.ends_with("--out json=/raw/r01/k6.json -e MEASURE_URL=http://127.0.0.1:9/x /raw/r01/k6-script.js"), "{k6}");
        assert_eq!(outputs, ["/raw/r01/k6.json", "/raw/r01/k6-summary.json"]);
    }

    #[test]
    fn vegeta_attacks_then_encodes_its_results_as_csv() {
        let l = RunLoad { requests: None, duration_s: Some(2), rate: Some(100), concurrency: 1, ..run_load(LoadTool::Vegeta) };
        let inv = invocation(&l, Path::new("/bin/vegeta"), "http://127.0.0.1:9/x", Path::new("/r"), 2).unwrap();
        assert_eq!(
            inv.display(),
            "/bin/vegeta attack -targets /r/vegeta-targets.txt -rate 100/1s -duration 2s -timeout 10s -output /r/vegeta.bin \
             && /bin/vegeta encode --to csv --output /r/vegeta.csv /r/vegeta.bin"
        );
        assert_eq!(inv.inputs, [(PathBuf::from("/r/vegeta-targets.txt"), "GET http://127.0.0.1:9/x\n".to_string())]);
        assert!(invocation(&run_load(LoadTool::OpenLoop), Path::new("x"), "u", Path::new("/r"), 2).is_none());
    }

    #[test]
    fn steps_run_in_turn_and_a_failed_one_ends_the_invocation() {
        let dir = tempfile::tempdir().unwrap();
        let step = |script: &str, out: &str| Step {
            program: "sh".into(),
            args: vec!["-c".into(), script.into()],
            stdout: dir.path().join(out),
            stderr: dir.path().join("err"),
        };
        let inv = Invocation {
            inputs: vec![],
            steps: vec![step("echo one", "1"), step("echo two; exit 4", "2"), step("echo three", "3")],
            files: ToolFiles { outputs: vec![] },
        };
        let mut process = ToolProcess::start(inv).unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        let status = loop {
            if let Some(status) = process.exit_status() {
                break status;
            }
            assert!(std::time::Instant::now() < deadline, "the steps never ended");
            std::thread::sleep(std::time::Duration::from_millis(10));
        };
        assert_eq!(status.code(), Some(4));
        assert_eq!(std::fs::read_to_string(dir.path().join("1")).unwrap(), "one\n");
        assert_eq!(std::fs::read_to_string(dir.path().join("2")).unwrap(), "two\n");
        assert!(!dir.path().join("3").exists(), "a step after a failed one does not run");
        assert_eq!(process.output_tail(), "two");
    }

    #[test]
    fn ab_reports_its_version() {
        assert_eq!(ab_version().as_deref(), Some("2.3"), "is apache2-utils installed?");
    }
}
