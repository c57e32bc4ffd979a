//! End to end: command plans (`kind = "command"`), which name no built-in server: the worked example of
//! measure/plans/README.md (nginx serving a file and Python's http.server, under hey, in rounds, of
//! 2 servers x 2 concurrencies) run against the real servers on loopback with fewer requests, its dataset
//! read back here and by `analyze check`, `report` and `compare`; each load tool the CI machine has; the
//! ways a user's server can fail (never ready, exits while starting, listens on another port, exits
//! during the run), each an aborted run with its note while the study goes on; and a study killed by
//! SIGKILL mid-run and finished with `--resume`, nothing lost or duplicated.
//!
//! Nothing is skipped but the tools the brief calls "where present" (oha, autocannon): a missing nginx,
//! hey, ab, wrk or siege fails with the command that installs it. The tests run one at a time.

use crate::common;

use common::{analyze_bin, assert_analyze_accepts, describe, read_csv, SERIAL};
use sha2::Digest;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

type Row = HashMap<String, String>;

/// Fails (never skips) when a program is not installed.
fn require(programs: &[(&str, &str)]) {
    for (path, install) in programs {
        assert!(Path::new(path).exists(), "{path} is not installed: install it with `{install}`");
    }
}

const NGINX: (&str, &str) = ("/usr/sbin/nginx", "apt-get install -y nginx-light");
const HEY: (&str, &str) = ("/usr/bin/hey", "apt-get install -y hey");
const PYTHON: (&str, &str) = ("/usr/bin/python3", "apt-get install -y python3");

/// The worked example with `requests` per run instead of 2,000 and 3 rounds instead of 6, written to `dir`.
fn example_plan(dir: &Path, requests: u32) -> PathBuf {
    let text = std::fs::read_to_string(common::manifest().join("plans/static-file-servers.toml")).unwrap();
    assert!(text.contains("requests = 2000\n") && text.contains("repetitions = 6\n"));
    let path = dir.join("plan.toml");
    // Three rounds keep the test short; the rounds themselves are what it checks, not their count.
    let text = text.replace("requests = 2000\n", &format!("requests = {requests}\n")).replace("repetitions = 6\n", "repetitions = 3\n");
    std::fs::write(&path, text).unwrap();
    path
}

/// `measure run --plan PLAN --out OUT --analyze ANALYZE`, from the test's own folder (relative paths of a
/// command plan start where measure runs).
fn measure(plan: &Path, out: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_measure"));
    cmd.arg("run").arg("--plan").arg(plan).arg("--out").arg(out).arg("--analyze").arg(analyze_bin());
    cmd.current_dir(plan.parent().unwrap());
    cmd
}

fn analyze(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(analyze_bin()).args(args).output().unwrap()
}

fn sha256(path: &Path) -> String {
    sha2::Sha256::digest(std::fs::read(path).unwrap()).iter().map(|b| format!("{b:02x}")).collect()
}

fn rows_of<'a>(rows: &'a [Row], run_id: &str) -> Vec<&'a Row> {
    rows.iter().filter(|r| r["run_id"] == run_id).collect()
}

/// The process groups of the servers in servers.csv are gone: no live process is left in any of them.
fn assert_servers_gone(dir: &Path) {
    let groups: BTreeSet<u32> = read_csv(&dir.join("servers.csv")).iter().map(|s| s["pid"].parse().unwrap()).collect();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        let Some((_, rest)) = stat.rsplit_once(')') else { continue };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        // After the name: state, ppid, pgrp (proc(5) fields 3-5).
        let (state, pgrp) = (fields[0], fields[2].parse::<u32>().unwrap_or(0));
        assert!(state == "Z" || !groups.contains(&pgrp), "a process of server group {pgrp} is still running: {stat}");
    }
}

/// What every ok run of a command plan leaves: its server in servers.csv, CPU/RSS samples of it, and
/// the tool's files in raw/<run_id>/ exactly as sources.csv hashed them when they were imported.
fn assert_ok_runs_kept_their_files(dir: &Path, runs: &[Row]) {
    let servers = read_csv(&dir.join("servers.csv"));
    let resources = read_csv(&dir.join("resources.csv"));
    let sources = if dir.join("sources.csv").exists() { read_csv(&dir.join("sources.csv")) } else { Vec::new() };
    for run in runs.iter().filter(|r| r["status"] == "ok") {
        let id = &run["run_id"];
        let server = rows_of(&servers, id);
        assert_eq!(server.len(), 1, "{id}: {server:?}");
        let name = run.get("server").cloned().unwrap_or_else(|| server[0]["server"].clone());
        assert_eq!(server[0]["server"], name, "{id}");
        assert!(
            rows_of(&resources, id).iter().any(|r| r["process"] == name),
            "{id}: {name} not sampled: {run:?} {:?}",
            rows_of(&resources, id)
        );
        for source in rows_of(&sources, id) {
            let file = dir.join("raw").join(id).join(&source["file"]);
            assert_eq!(sha256(&file), source["sha256"], "{id}: {} changed after its import", file.display());
        }
        assert!(dir.join("raw").join(id).join("server.stderr").is_file(), "{id}: the server's stderr is kept");
    }
}

#[test]
fn a_plan_of_two_server_commands_runs_every_condition_three_times_and_reports_and_compares() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require(&[NGINX, HEY, PYTHON]);
    let tmp = tempfile::tempdir().unwrap();
    let plan = example_plan(tmp.path(), 200);
    let out = tmp.path().join("dataset");
    let started = Instant::now();
    let result = measure(&plan, &out).output().unwrap();
    assert!(result.status.success(), "{}", describe(&result));
    eprintln!("command plan, 12 runs: {:.1} s", started.elapsed().as_secs_f64());

    let runs = read_csv(&out.join("runs.csv"));
    assert_eq!(runs.len(), 12, "{runs:?}");
    assert!(runs.iter().all(|r| r["status"] == "ok"), "{runs:?}");
    let ids: BTreeSet<&str> = runs.iter().map(|r| r["run_id"].as_str()).collect();
    assert_eq!(ids.len(), 12, "run ids are unique");
    let mut reps: BTreeMap<(String, String), Vec<u32>> = BTreeMap::new();
    for r in &runs {
        reps.entry((r["server"].clone(), r["concurrency"].clone())).or_default().push(r["repetition"].parse().unwrap());
    }
    for list in reps.values_mut() {
        list.sort_unstable();
    }
    let expected: BTreeMap<(String, String), Vec<u32>> = [("http-server", "1"), ("http-server", "10"), ("nginx", "1"), ("nginx", "10")]
        .into_iter()
        .map(|(s, c)| ((s.to_string(), c.to_string()), vec![1, 2, 3]))
        .collect();
    assert_eq!(reps, expected, "every condition has exactly its 3 repetitions");

    let requests = read_csv(&out.join("requests.csv"));
    for run in &runs {
        let id = &run["run_id"];
        let rows = rows_of(&requests, id);
        assert_eq!(rows.len(), 200, "{id}: every request hey was asked for (-n 200)");
        assert!(rows.iter().all(|r| r["status"] == "200"), "{id}: every request answered 200");
        let hey = std::fs::read_to_string(out.join("raw").join(id).join("hey.csv")).unwrap();
        assert_eq!(hey.lines().count(), 201, "{id}: hey's own rows are kept");
        if run["server"] == "http-server" {
            // http.server logs every request it served: the server's own count of the run (measure's ready
            // check asked for `/`).
            let log = std::fs::read_to_string(out.join("raw").join(id).join("server.stderr")).unwrap();
            assert_eq!(log.matches("\"GET /index.html HTTP/1.1\" 200").count(), 200, "{id}: {log}");
        }
    }
    assert_ok_runs_kept_their_files(&out, &runs);
    assert_servers_gone(&out);

    let meta = std::fs::read_to_string(out.join("dataset.toml")).unwrap();
    let env: toml::Table = meta.parse::<toml::Table>().unwrap()["environment"].as_table().unwrap().clone();
    for key in ["cpu_model", "cores", "kernel", "arch", "hostname_sha256", "hey_version", "nginx_sha256", "http-server_sha256"] {
        assert!(env.contains_key(key), "[environment] lacks {key}: {meta}");
    }
    assert!(env["nginx_version"].as_str().unwrap().contains("nginx/1."), "{meta}");
    assert!(env["http-server_version"].as_str().unwrap().starts_with("Python 3."), "{meta}");
    assert_eq!(env["nginx_sha256"].as_str(), Some(sha256(Path::new("/usr/sbin/nginx")).as_str()));

    assert_analyze_accepts(&out);
    let report = tmp.path().join("report");
    let rendered = analyze(&["report".as_ref(), out.as_os_str(), "--out".as_ref(), report.as_os_str()]);
    assert_eq!(rendered.status.code(), Some(0), "{}", describe(&rendered));
    let summary: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(report.join("summary.json")).unwrap()).unwrap();
    let conditions: Vec<(String, usize)> = summary["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["id"].as_str().unwrap().to_string(), c["runs"].as_array().unwrap().len()))
        .collect();
    assert_eq!(
        conditions,
        [
            ("server=nginx,concurrency=1".to_string(), 3),
            ("server=nginx,concurrency=10".to_string(), 3),
            ("server=http-server,concurrency=1".to_string(), 3),
            ("server=http-server,concurrency=10".to_string(), 3)
        ],
        "the plan's order of servers and levels"
    );
    let md = std::fs::read_to_string(report.join("report.md")).unwrap();
    assert!(md.contains("nginx 1.22 (1 worker)") && md.contains("python -m http.server"), "the servers' labels");
    // A dataset compared with itself is one measurement: compare says so and compares nothing.
    let compared = analyze(&["compare".as_ref(), out.as_os_str(), out.as_os_str()]);
    assert_eq!(compared.status.code(), Some(0), "{}", describe(&compared));
    let text = String::from_utf8_lossy(&compared.stdout);
    assert!(text.contains("are one measurement") && text.contains("no condition is compared"), "{text}");
}

#[test]
fn dry_run_prints_the_runs_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let plan = example_plan(tmp.path(), 200);
    let out = tmp.path().join("dataset");
    let result = measure(&plan, &out).arg("--dry-run").output().unwrap();
    assert_eq!(result.status.code(), Some(0), "{}", describe(&result));
    let text = String::from_utf8_lossy(&result.stdout);
    assert!(text.contains("4 conditions x 3 repetitions = 12 runs:"), "{text}");
    assert!(text.contains("    load: /usr/bin/hey -c 10 -n 200 -t 10 -o csv http://127.0.0.1:{port}/index.html"), "{text}");
    assert!(
        text.contains("    server http-server: /usr/bin/python3 -m http.server --bind 127.0.0.1 --directory {run_dir}/www {port}"),
        "{text}"
    );
    assert_eq!(text.matches("\n  r").count(), 12, "{text}");
    assert!(text.contains("  r01  ") && text.contains("  r12  "), "{text}");
    assert!(text.contains("expected duration: "), "{text}");
    assert!(!out.exists(), "--dry-run writes nothing");
}

#[test]
fn init_writes_a_plan_that_dry_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let init = Command::new(env!("CARGO_BIN_EXE_measure")).arg("init").current_dir(tmp.path()).output().unwrap();
    assert_eq!(init.status.code(), Some(0), "{}", describe(&init));
    let plan = tmp.path().join("measure-plan.toml");
    assert!(std::fs::read_to_string(&plan).unwrap().contains("kind = \"command\""));
    let again = Command::new(env!("CARGO_BIN_EXE_measure")).arg("init").current_dir(tmp.path()).output().unwrap();
    assert_eq!(again.status.code(), Some(1), "an existing plan is not overwritten: {}", describe(&again));
    let dry = measure(&plan, &tmp.path().join("d")).arg("--dry-run").output().unwrap();
    assert_eq!(dry.status.code(), Some(0), "{}", describe(&dry));
    assert!(String::from_utf8_lossy(&dry.stdout).contains("2 conditions x 3 repetitions = 6 runs:"));
}

#[test]
fn a_refused_plan_names_file_line_and_key_exits_2_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let plan = example_plan(tmp.path(), 200);
    let text = std::fs::read_to_string(&plan).unwrap();
    let cases = [
        (
            text.replace("stop_signal = \"QUIT\"", "stop_signl = \"QUIT\""),
            "stop_signl = ",
            "servers.nginx.stop_signl: unknown key (a typo?)",
        ),
        (
            text.replace("\"{run_dir}/www\", \"{port}\"]", "\"{run_dir}/www\", \"8000\"]"),
            "command = [\"/usr/bin/python3\"",
            "servers.http-server.command: never says {port}",
        ),
        (
            text.replace("\"{run_dir}/www\", \"{port}\"]", "\"{docroot}\", \"{port}\"]"),
            "command = [\"/usr/bin/python3\"",
            "servers.http-server.command[6]: {docroot} is not a factor declared under [factors]",
        ),
        (
            text.replace("tool = \"hey\"", "tool = \"hey\"\nbinary = \"/nonexistent/hey\""),
            "binary = ",
            "load.binary: hey is not installed here",
        ),
    ];
    for (i, (bad, line_starts, message)) in cases.iter().enumerate() {
        let path = tmp.path().join(format!("bad{i}.toml"));
        std::fs::write(&path, bad).unwrap();
        let line = bad.lines().position(|l| l.starts_with(line_starts)).unwrap() + 1;
        let out = tmp.path().join(format!("out{i}"));
        let result = measure(&path, &out).output().unwrap();
        assert_eq!(result.status.code(), Some(2), "{}", describe(&result));
        let stderr = String::from_utf8_lossy(&result.stderr);
        let place = format!("error: {}:{line}:", path.display());
        assert!(stderr.lines().any(|l| l.starts_with(&place) && l.contains(message)), "{place} ... {message}:\n{stderr}");
        assert!(!out.exists(), "nothing is written for a refused plan");
    }
}

/// A plan of one http.server (`server` factor levels = `servers`), under `load`.
fn plan_text(servers: &str, levels: &str, load: &str) -> String {
    format!(
        "kind = \"command\"\ndataset = \"d\"\ntitle = {{ en = \"t\", ja = \"t\" }}\ndescription = {{ en = \"d\", ja = \"d\" }}\n\
         seed = 3\nrepetitions = 1\n\n[factors]\n{levels}\n\n{servers}\n\n[load]\n{load}\n\n[sampling]\ninterval_ms = 100\n"
    )
}

const HTTP_SERVER: &str = "[servers.py]\ncommand = [\"/usr/bin/python3\", \"-m\", \"http.server\", \"--bind\", \"127.0.0.1\", \"--directory\", \"{run_dir}\", \"{port}\"]\n\
    ready = \"/\"\n[servers.py.files]\n\"index.html\" = \"hello\\n\"";

#[test]
fn each_load_tool_here_runs_against_a_server_command_and_is_imported() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require(&[
        PYTHON,
        ("/usr/bin/ab", "apt-get install -y apache2-utils"),
        ("/usr/bin/wrk", "apt-get install -y wrk"),
        ("/usr/bin/siege", "apt-get install -y siege"),
    ]);
    let tmp = tempfile::tempdir().unwrap();
    let mut tools: Vec<(&str, String)> = vec![
        ("ab", "tool = \"ab\"\nconcurrency = \"{concurrency}\"\nrequests = 100".into()),
        ("wrk", "tool = \"wrk\"\nconcurrency = \"{concurrency}\"\nduration_s = 1".into()),
        ("siege", "tool = \"siege\"\nconcurrency = \"{concurrency}\"\nrequests = 50".into()),
        ("open-loop", "tool = \"open-loop\"\nrate = 40\nrequests = 40".into()),
    ];
    // Where present (not installable on every machine of this kind).
    for (tool, load) in [
        ("oha", "tool = \"oha\"\nconcurrency = \"{concurrency}\"\nrequests = 100"),
        ("autocannon", "tool = \"autocannon\"\nconcurrency = \"{concurrency}\"\nrequests = 100"),
    ] {
        match std::env::var_os("PATH").and_then(|p| std::env::split_paths(&p).map(|d| d.join(tool)).find(|p| p.is_file())) {
            Some(_) => tools.push((tool, load.into())),
            None => eprintln!("{tool} is not on PATH here: not run"),
        }
    }
    for (tool, load) in &tools {
        let plan = tmp.path().join(format!("{tool}.toml"));
        std::fs::write(&plan, plan_text(HTTP_SERVER, "concurrency = [2]", load)).unwrap();
        let out = tmp.path().join(tool);
        let result = measure(&plan, &out).output().unwrap();
        assert!(result.status.success(), "{tool}: {}", describe(&result));
        let runs = read_csv(&out.join("runs.csv"));
        assert_eq!((runs.len(), runs[0]["status"].as_str()), (1, "ok"), "{tool}: {runs:?}");
        assert_ok_runs_kept_their_files(&out, &runs);
        let requests = if out.join("requests.csv").exists() { read_csv(&out.join("requests.csv")) } else { Vec::new() };
        let stats = if out.join("run_stats.csv").exists() { read_csv(&out.join("run_stats.csv")) } else { Vec::new() };
        match *tool {
            "ab" | "oha" => {
                assert_eq!(requests.len(), 100, "{tool}");
                assert_eq!(stats[0]["requests"], "100", "{tool}: {stats:?}");
            }
            "siege" => {
                assert_eq!(requests.len(), 50, "siege -c 2 -r 25");
                assert!(requests.iter().all(|r| r["body_bytes"] == "6"), "the 6-byte index.html each time: {requests:?}");
            }
            "wrk" => assert!(stats[0]["tool"] == "wrk" && stats[0]["requests"].parse::<u64>().unwrap() > 0, "{stats:?}"),
            "autocannon" => {
                // autocannon -a counts what it sent; against a server that closes each connection (http.server
                // speaks HTTP/1.0) it writes a request on the closing one and another on a new one, and import
                // notes the requests written without an answer. Its count of requests is what the server itself
                // logged serving (less measure's ready check).
                let log = std::fs::read_to_string(out.join("raw").join(&runs[0]["run_id"]).join("server.stderr")).unwrap();
                let served = log.matches("\"GET / HTTP/1.1\" 200").count() - 1;
                assert_eq!(stats[0]["requests"], served.to_string(), "{stats:?}");
                assert!(runs[0]["note"].contains("autocannon.unanswered(sent=100"), "{runs:?}");
            }
            "open-loop" => {
                assert_eq!(requests.len(), 40);
                for (k, r) in requests.iter().enumerate() {
                    assert_eq!(r["scheduled_ms"], format!("{:.3}", k as f64 * 25.0), "open loop: one request every 25 ms");
                    assert_eq!(r["status"], "200");
                }
            }
            _ => unreachable!(),
        }
        let meta = std::fs::read_to_string(out.join("dataset.toml")).unwrap();
        assert!(meta.contains(&format!("{tool}_version = ")), "{tool}: {meta}");
        assert_analyze_accepts(&out);
        assert_servers_gone(&out);
    }
}

#[test]
fn a_server_that_fails_is_an_aborted_run_with_its_note_and_the_study_goes_on() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require(&[PYTHON, HEY]);
    let tmp = tempfile::tempdir().unwrap();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let servers = format!(
        "{HTTP_SERVER}\n\n\
         [servers.never-ready]\ncommand = [\"sh\", \"-c\", \"echo waiting for nothing; exec sleep 30\", \"{{port}}\"]\nready_timeout_s = 1\n\n\
         [servers.exits]\ncommand = [\"sh\", \"-c\", \"echo 'bind: address in use' >&2; exit 3\", \"{{port}}\"]\n\n\
         [servers.wrong-port]\ncommand = [\"/usr/bin/python3\", \"-m\", \"http.server\", \"--bind\", \"127.0.0.1\", \"{taken}\"]\n\
         env = {{ PORT = \"{{port}}\" }}\nready = \"/\"\nready_timeout_s = 3\n\n\
         [servers.dies]\ncommand = [\"timeout\", \"1\", \"/usr/bin/python3\", \"-m\", \"http.server\", \"--bind\", \"127.0.0.1\", \"{{port}}\"]\nready = \"/\""
    );
    let text = plan_text(
        &servers,
        "server = [\"py\", \"never-ready\", \"exits\", \"wrong-port\", \"dies\"]",
        "tool = \"hey\"\nconcurrency = 2\nduration_s = 2",
    );
    let plan = tmp.path().join("failing.toml");
    std::fs::write(&plan, text).unwrap();
    let out = tmp.path().join("dataset");
    let result = measure(&plan, &out).output().unwrap();
    assert_eq!(result.status.code(), Some(1), "some runs aborted: {}", describe(&result));
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(stderr.contains("4 of 5 runs aborted"), "{stderr}");

    let runs = read_csv(&out.join("runs.csv"));
    assert_eq!(runs.len(), 5, "every server had its run: {runs:?}");
    let by_server: HashMap<&str, &Row> = runs.iter().map(|r| (r["server"].as_str(), r)).collect();
    assert_eq!(by_server["py"]["status"], "ok");
    let note = |server: &str| {
        assert_eq!(by_server[server]["status"], "aborted", "{server}");
        by_server[server]["note"].clone()
    };
    // It never listened: the note says nothing accepted connections where measure looked.
    assert!(
        note("never-ready").starts_with("measure.not-ready-refused(server=never-ready, seconds=1, address=127.0.0.1:")
            && note("never-ready").contains(", log=\"waiting for nothing\")"),
        "{}",
        note("never-ready")
    );
    assert!(note("exits").starts_with("measure.exited-early(server=exits, status=3, log=\"bind: address in use\")"), "{}", note("exits"));
    let wrong = note("wrong-port");
    let given: u16 =
        wrong.strip_prefix("measure.wrong-port(server=wrong-port, port=").and_then(|r| r.split(',').next()).unwrap().parse().unwrap();
    assert_ne!(given, taken, "{wrong}");
    assert!(note("wrong-port").contains(&format!("listening=127.0.0.1:{taken})")), "{}", note("wrong-port"));
    assert!(note("dies").starts_with("measure.exited(server=dies, status=124, log="), "{}", note("dies"));
    // What the failing servers wrote stays with their runs, for a look.
    let exits = &by_server["exits"]["run_id"];
    assert_eq!(std::fs::read_to_string(out.join("raw").join(exits).join("server.stderr")).unwrap(), "bind: address in use\n");
    let requests = read_csv(&out.join("requests.csv"));
    assert!(requests.iter().all(|r| r["run_id"] == by_server["py"]["run_id"]), "rows of the ok run only");
    assert!(!requests.is_empty());
    assert_servers_gone(&out);
    assert_analyze_accepts(&out);

    // Each note reads as a sentence in both languages on the run's page.
    for (lang, sentence) in [
        ("en", "exits exited before it was ready (status 3); its last output: bind: address in use"),
        ("ja", "exitsは準備が整う前に終了した（ステータス3）。最後の出力：bind: address in use"),
    ] {
        let report = tmp.path().join(format!("report-{lang}"));
        let rendered =
            analyze(&["report".as_ref(), out.as_os_str(), "--out".as_ref(), report.as_os_str(), "--lang".as_ref(), lang.as_ref()]);
        assert_eq!(rendered.status.code(), Some(0), "{}", describe(&rendered));
        let page = std::fs::read_to_string(report.join("runs").join(format!("{exits}.html"))).unwrap();
        assert!(page.contains(sentence), "{lang}: {sentence:?} is not on the run's page");
    }
}

/// A live process: its pid, group and command name, from `/proc/<pid>/stat`.
#[derive(Debug, Clone)]
struct Proc {
    pid: u32,
    ppid: u32,
    pgrp: u32,
    comm: String,
    zombie: bool,
}

fn processes() -> Vec<Proc> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        let (Some(open), Some((_, rest))) = (stat.find('('), stat.rsplit_once(')')) else { continue };
        let comm = stat[open + 1..stat.len() - rest.len() - 1].to_string();
        let fields: Vec<&str> = rest.split_whitespace().collect();
        out.push(Proc { pid, ppid: fields[1].parse().unwrap_or(0), pgrp: fields[2].parse().unwrap_or(0), comm, zombie: fields[0] == "Z" });
    }
    out
}

/// Waits until `out`'s runs.csv lists `rows` runs and then until measure has a descendant named `at` (the
/// server starting, the load tool, `analyze import`), and kills measure with SIGKILL there. Returns the
/// process groups measure had started (its servers and its tool), not what runs in measure's own group
/// (`analyze import`, which finishes on its own, atomically).
fn kill_at(child: &mut std::process::Child, out: &Path, rows: usize, at: &[&str]) -> Vec<u32> {
    let deadline = Instant::now() + std::time::Duration::from_secs(120);
    let children = loop {
        let listed = std::fs::read_to_string(out.join("runs.csv")).map_or(0, |t| t.lines().count().saturating_sub(1));
        if listed >= rows {
            // Servers run under measure's supervisor: look at every descendant of measure.
            let all = processes();
            let mut below = vec![child.id()];
            let mut children: Vec<Proc> = Vec::new();
            while let Some(parent) = below.pop() {
                for p in all.iter().filter(|p| p.ppid == parent) {
                    below.push(p.pid);
                    children.push(p.clone());
                }
            }
            if children.iter().any(|p| at.contains(&p.comm.as_str())) {
                break children;
            }
        }
        assert!(Instant::now() < deadline, "measure never ran {at:?} after {rows} runs");
        assert!(child.try_wait().unwrap().is_none(), "measure ended before it was killed");
        std::thread::sleep(std::time::Duration::from_millis(2));
    };
    // SAFETY: kill has no memory-safety preconditions; the PID is our child's.
    unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
    let status = child.wait().unwrap();
    assert_eq!(std::os::unix::process::ExitStatusExt::signal(&status), Some(libc::SIGKILL));
    // SAFETY: getpgrp has no preconditions.
    let ours = unsafe { libc::getpgrp() } as u32;
    eprintln!("killed measure at {at:?} with children {:?}", children.iter().map(|p| &p.comm).collect::<Vec<_>>());
    children.iter().filter(|p| p.pgrp != ours).map(|p| p.pgrp).collect()
}

/// Every process of `groups` ends (bounded): measure's servers and tools die with it.
fn assert_groups_end(groups: &[u32]) {
    let deadline = Instant::now() + std::time::Duration::from_secs(15);
    loop {
        let left: Vec<Proc> = processes().into_iter().filter(|p| groups.contains(&p.pgrp) && !p.zombie).collect();
        if left.is_empty() {
            return;
        }
        assert!(Instant::now() < deadline, "left running after measure was killed: {left:?}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn a_study_killed_mid_run_resumes_with_nothing_lost_or_duplicated() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require(&[NGINX, HEY, PYTHON]);
    let tmp = tempfile::tempdir().unwrap();
    let plan = example_plan(tmp.path(), 400);
    let out = tmp.path().join("dataset");
    let quiet = |mut cmd: Command| {
        cmd.stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null());
        cmd
    };
    // Killed three times, each time followed by --resume: as a run's server starts, while the load tool
    // runs, and while analyze import adds a run's rows.
    let resume = || {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_measure"));
        cmd.arg("run").arg("--resume").arg("--out").arg(&out).arg("--analyze").arg(analyze_bin()).current_dir(tmp.path());
        cmd
    };
    let mut child = quiet(measure(&plan, &out)).spawn().unwrap();
    assert_groups_end(&kill_at(&mut child, &out, 2, &["nginx", "python3"]));
    let mut child = quiet(resume()).spawn().unwrap();
    assert_groups_end(&kill_at(&mut child, &out, 4, &["hey"]));
    let mut child = quiet(resume()).spawn().unwrap();
    assert_groups_end(&kill_at(&mut child, &out, 6, &["analyze"]));
    let result = resume().output().unwrap();
    assert!(result.status.success(), "{}", describe(&result));

    let runs = read_csv(&out.join("runs.csv"));
    let ids: Vec<&str> = runs.iter().map(|r| r["run_id"].as_str()).collect();
    let unique: BTreeSet<&str> = ids.iter().copied().collect();
    assert_eq!(unique.len(), ids.len(), "no run id twice: {ids:?}");
    let ok: Vec<&Row> = runs.iter().filter(|r| r["status"] == "ok").collect();
    let mut slots: BTreeMap<(String, String), Vec<u32>> = BTreeMap::new();
    for r in &ok {
        slots.entry((r["server"].clone(), r["concurrency"].clone())).or_default().push(r["repetition"].parse().unwrap());
    }
    assert_eq!(slots.len(), 4);
    for (condition, mut reps) in slots {
        reps.sort_unstable();
        assert_eq!(reps, [1, 2, 3], "{condition:?}: each repetition exactly once");
    }
    // A run killed mid-way left no row: its id went to the run that took its place.
    assert_eq!(ok.len(), 12, "{runs:?}");
    let requests = read_csv(&out.join("requests.csv"));
    let mut per_run: BTreeMap<&str, usize> = BTreeMap::new();
    for r in &requests {
        *per_run.entry(r["run_id"].as_str()).or_default() += 1;
    }
    let ok_ids: BTreeSet<&str> = ok.iter().map(|r| r["run_id"].as_str()).collect();
    assert_eq!(per_run.keys().copied().collect::<BTreeSet<_>>(), ok_ids, "request rows of ok runs only");
    assert!(per_run.values().all(|n| *n == 400), "every run's 400 requests, once: {per_run:?}");
    // raw/ holds one folder per run of runs.csv, none of a run that left no row, and each ok run's files
    // as they were imported.
    let folders: BTreeSet<String> =
        std::fs::read_dir(out.join("raw")).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(folders, ids.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>());
    assert_ok_runs_kept_their_files(&out, &runs);
    let meta = std::fs::read_to_string(out.join("dataset.toml")).unwrap();
    assert!(meta.contains("resumed_on = "), "{meta}");
    assert_servers_gone(&out);
    assert_analyze_accepts(&out);
}
