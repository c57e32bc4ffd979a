//! End to end: a command plan runs autocannon (tools/node, installed by `just node-tools`, a
//! dependency of `just test`) for 3 one-second samples against a small node HTTP server on
//! 127.0.0.1, and `analyze import` accepts what it wrote: issue 46, where a fast server's run was
//! refused because autocannon's requests.average comes from a histogram of 3 significant digits.
//! Skipped with a notice where autocannon is not installed (no npm here).

use crate::common;

use common::{analyze_bin, assert_analyze_accepts, describe, read_csv, SERIAL};
use std::path::PathBuf;
use std::process::Command;

/// autocannon as `npm install --ignore-scripts` puts it in tools/node.
fn autocannon() -> Option<PathBuf> {
    let path = common::manifest().join("../tools/node/node_modules/.bin/autocannon");
    path.is_file().then(|| path.canonicalize().unwrap())
}

/// node on PATH (autocannon runs on it).
fn node() -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join("node")).find(|p| p.is_file())
}

/// The smallest HTTP server node has: one process answering every request with 6 bytes, at the
/// port measure gives it, on 127.0.0.1 only.
fn server(node: &std::path::Path) -> String {
    format!(
        "[servers.node]\ncommand = [{:?}, \"-e\", \"require('http').createServer((q, s) => s.end('hello')).listen(Number(process.argv[1]), '127.0.0.1')\", \"{{port}}\"]\nready = \"/\"\n",
        node.display().to_string()
    )
}

#[test]
fn a_run_of_autocannon_with_several_samples_is_imported() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let (Some(autocannon), Some(node)) = (autocannon(), node()) else {
        eprintln!("autocannon is not installed in tools/node (`just node-tools` installs it with npm), or node is missing: not run");
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let plan = tmp.path().join("plan.toml");
    let load = format!(
        "tool = \"autocannon\"\nbinary = {:?}\nconcurrency = \"{{concurrency}}\"\nduration_s = 3",
        autocannon.display().to_string()
    );
    let text = format!(
        "kind = \"command\"\ndataset = \"d\"\ntitle = {{ en = \"t\", ja = \"t\" }}\ndescription = {{ en = \"d\", ja = \"d\" }}\n\
         seed = 3\nrepetitions = 1\n\n[factors]\nconcurrency = [10]\n\n{}\n[load]\n{load}\n\n[sampling]\ninterval_ms = 100\n",
        server(&node)
    );
    std::fs::write(&plan, text).unwrap();
    let out = tmp.path().join("out");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_measure"));
    cmd.arg("run").arg("--plan").arg(&plan).arg("--out").arg(&out).arg("--analyze").arg(analyze_bin()).current_dir(tmp.path());
    let result = cmd.output().unwrap();
    assert!(result.status.success(), "{}", describe(&result));
    let runs = read_csv(&out.join("runs.csv"));
    assert_eq!((runs.len(), runs[0]["status"].as_str()), (1, "ok"), "the import was accepted: {runs:?}");
    let stats = read_csv(&out.join("run_stats.csv"));
    assert_eq!((stats.len(), stats[0]["tool"].as_str()), (1, "autocannon"), "{stats:?}");
    // The numbers kept are autocannon's own: its JSON, kept in raw/<run_id>/, says the same.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("raw").join(&runs[0]["run_id"]).join("autocannon.json")).unwrap()).unwrap();
    assert!(json["samples"].as_u64().unwrap() >= 3, "{json}");
    assert_eq!(stats[0]["requests"], (json["requests"]["total"].as_u64().unwrap() + json["errors"].as_u64().unwrap()).to_string());
    assert_eq!(stats[0]["requests_per_s"], json["requests"]["average"].to_string());
    assert_analyze_accepts(&out);
}
