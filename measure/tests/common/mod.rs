//! What the end-to-end tests of `measure` share: the binaries, reading the written CSV independently of
//! measure's writer, and the checks every dataset must pass (`analyze check`, no server left running).

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;

/// The tests of one file run one at a time: they share virtual environments and the machine's two cores.
pub static SERIAL: Mutex<()> = Mutex::new(());

/// The Python that serves the command plans' test servers, and the load tool they run under.
pub const PYTHON: &str = "/usr/bin/python3";
pub const HEY: &str = "/usr/bin/hey";

/// Fails, saying how to install them, when the command plans' tests lack Python or hey.
pub fn require_python_and_hey() {
    for (path, install) in [(PYTHON, "apt-get install -y python3"), (HEY, "apt-get install -y hey")] {
        assert!(Path::new(path).exists(), "{path} is not installed: install it with `{install}`");
    }
}

pub fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `measure run --plan PLAN --out OUT --app measure/app`; each file adds the flags of its kind of plan.
pub fn measure_cmd(plan: &Path, out: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_measure"));
    cmd.arg("run").arg("--plan").arg(plan).arg("--out").arg(out).arg("--app").arg(manifest().join("app"));
    cmd
}

pub fn describe(out: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}\n--- stderr\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A CSV file as header-keyed rows (our own reading, independent of the writer; these tables hold no
/// quoted fields, which is asserted).
pub fn read_csv(path: &Path) -> Vec<HashMap<String, String>> {
    // A note with parameters (`measure.aborted(why="...")`) is a quoted field: read as CSV, not split.
    let mut reader = csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let header: Vec<String> = reader.headers().unwrap_or_else(|e| panic!("{}: {e}", path.display())).iter().map(str::to_owned).collect();
    reader
        .records()
        .map(|record| {
            let record = record.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(record.len(), header.len(), "{}: {record:?}", path.display());
            header.iter().cloned().zip(record.iter().map(str::to_owned)).collect()
        })
        .collect()
}

/// The analyze binary beside measure's (or ANALYZE_BIN).
pub fn analyze_bin() -> PathBuf {
    let bin = std::env::var_os("ANALYZE_BIN").map(PathBuf::from).unwrap_or_else(|| {
        let exe = std::env::current_exe().unwrap();
        exe.parent().unwrap().join("../analyze")
    });
    assert!(
        bin.exists(),
        "the analyze binary is not at {}: build the workspace first (`cargo build --release`) or set ANALYZE_BIN",
        bin.display()
    );
    bin
}

/// `analyze check DIR` must accept the dataset (exit 0); returns what it printed.
pub fn assert_analyze_accepts(dir: &Path) -> String {
    let out = Command::new(analyze_bin()).arg("check").arg(dir).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "analyze check {}:\n{}", dir.display(), describe(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// No server started from this checkout is left (every server has its run folder on its command line;
/// other checkouts on the machine may be running their own tests, so only ours count).
pub fn assert_no_server_of_ours_left() {
    let left = Command::new("pgrep").args(["-a", "-f", "/measure-run-"]).output().unwrap();
    let ours = manifest().display().to_string();
    let left: Vec<String> = String::from_utf8_lossy(&left.stdout).lines().filter(|l| l.contains(&ours)).map(str::to_owned).collect();
    assert!(left.is_empty(), "servers left running: {left:?}");
}

/// The environment variable a test sets on the `measure` it starts, with a value of its own: every
/// process measure starts inherits it (supervisor, server, load tool, analyze import), so
/// [`processes_marked`] finds whatever of them is left, unless it rewrites its environment (nginx's
/// process titles do: check its port). (`just test` marks the whole run with MEASURE_TEST_RUN the same
/// way and checks it at the end.)
pub const MARK_VAR: &str = "MEASURE_TEST_MARK";

/// The live processes whose environment holds `MARK_VAR=mark`: their pid and command line.
pub fn processes_marked(mark: &str) -> Vec<(u32, String)> {
    let wanted = format!("{MARK_VAR}={mark}");
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(environ) = std::fs::read(entry.path().join("environ")) else { continue };
        if !environ.split(|b| *b == 0).any(|var| var == wanted.as_bytes()) {
            continue;
        }
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        if stat.rsplit_once(')').is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')) {
            continue;
        }
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        found.push((pid, String::from_utf8_lossy(&cmdline).replace('\0', " ").trim().to_string()));
    }
    found
}
