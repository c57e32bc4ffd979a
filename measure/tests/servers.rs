//! End to end, against the real `measure` binary: what measure does with servers that misbehave (issue 46,
//! items 18, 19, 22, 24, 25), and a study killed with SIGKILL at each named moment (`MEASURE_TEST_STOP_AT`,
//! measure/src/run/hook.rs), which must leave no process measure started and lose no run.
//!
//! Every server here is a small Python script on 127.0.0.1 in the test's own folder. Every process a
//! test starts through measure carries [`common::MARK_VAR`] in its environment with a value of its own,
//! which is how "no process is left" is checked (the supervisor, the server, hey and analyze import
//! included). The tests run one at a time.

use crate::common;

use common::{analyze_bin, describe, processes_marked, read_csv, SERIAL};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

type Row = HashMap<String, String>;

const PYTHON: &str = "/usr/bin/python3";

/// Fails (never skips) when a program is not installed.
fn require(programs: &[(&str, &str)]) {
    for (path, install) in programs {
        assert!(Path::new(path).exists(), "{path} is not installed: install it with `{install}`");
    }
}

const NGINX: (&str, &str) = ("/usr/sbin/nginx", "apt-get install -y nginx-light");

fn require_python_and_hey() {
    require(&[(PYTHON, "apt-get install -y python3"), ("/usr/bin/hey", "apt-get install -y hey")]);
}

/// A command plan of `servers` (TOML), the factor levels and `[load]` given, one repetition unless said.
fn plan_text(servers: &str, levels: &str, load: &str) -> String {
    format!(
        "kind = \"command\"\ndataset = \"d\"\ntitle = {{ en = \"t\", ja = \"t\" }}\ndescription = {{ en = \"d\", ja = \"d\" }}\n\
         seed = 5\nrepetitions = 1\n\n[factors]\n{levels}\n\n{servers}\n\n[load]\n{load}\n\n[sampling]\ninterval_ms = 100\n"
    )
}

/// A Python server script written into `dir` as `name.py`; returns its path.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(format!("{name}.py"));
    std::fs::write(&path, body).unwrap();
    path
}

/// The head of every script server: an HTTP server answering `hello` on 127.0.0.1:argv[1] (or the
/// address the script sets in HOST), quietly.
const SERVE: &str = r#"import http.server, os, signal, socket, sys
HOST = "127.0.0.1"
class Hello(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", "6")
        self.end_headers()
        self.wfile.write(b"hello\n")
    def log_message(self, *args):
        pass
class V6(http.server.ThreadingHTTPServer):
    address_family = socket.AF_INET6
def serve(handler=Hello):
    kind = V6 if ":" in HOST else http.server.ThreadingHTTPServer
    return kind((HOST, int(sys.argv[1])), handler)
"#;

/// `measure run --plan PLAN --out OUT` from the plan's folder, marked with `mark`.
fn measure(plan: &Path, out: &Path, mark: &str) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_measure"));
    cmd.arg("run").arg("--plan").arg(plan).arg("--out").arg(out).arg("--analyze").arg(analyze_bin());
    cmd.current_dir(plan.parent().unwrap()).env(common::MARK_VAR, mark);
    cmd
}

/// `measure run --resume --out OUT`, marked with `mark`.
fn resume(dir: &Path, out: &Path, mark: &str) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_measure"));
    cmd.arg("run").arg("--resume").arg("--out").arg(out).arg("--analyze").arg(analyze_bin());
    cmd.current_dir(dir).env(common::MARK_VAR, mark);
    cmd
}

/// A mark of this test's own, so other tests' processes never count.
fn new_mark(test: &str) -> String {
    format!("servers-{test}-{}", std::process::id())
}

/// No process carrying `mark` is left, waiting at most `within` for the last ones to go.
fn assert_nothing_left(mark: &str, within: Duration) {
    let deadline = Instant::now() + within;
    loop {
        let left = processes_marked(mark);
        if left.is_empty() {
            return;
        }
        if Instant::now() >= deadline {
            for (pid, _) in &left {
                // SAFETY: kill has no memory-safety preconditions; these are processes this test started.
                unsafe { libc::kill(*pid as i32, libc::SIGKILL) };
            }
            panic!("left running {} s after measure ended: {left:?}", within.as_secs_f64());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn by_server(runs: &[Row]) -> HashMap<&str, &Row> {
    runs.iter().map(|r| (r["server"].as_str(), r)).collect()
}

#[test]
fn a_server_that_daemonizes_is_measured_and_stopped() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require_python_and_hey();
    require(&[NGINX]);
    let tmp = tempfile::tempdir().unwrap();
    // As nginx without `daemon off;` does: bind, fork, the first process exits 0, the child leaves the
    // session and forks again; the grandchild serves.
    let daemon = script(
        tmp.path(),
        "daemon",
        &format!(
            "{SERVE}server = serve()\nif os.fork() > 0:\n    os._exit(0)\nos.setsid()\nif os.fork() > 0:\n    os._exit(0)\nserver.serve_forever()\n"
        ),
    );
    // And nginx itself without `daemon off;` (its default): the worked example's nginx, that line removed.
    let example = std::fs::read_to_string(common::manifest().join("plans/static-file-servers.toml")).unwrap();
    let start = example.find("[servers.nginx]").unwrap();
    let end = example.find("# CPython's").unwrap();
    let nginx = example[start..end].replace("daemon off;\n", "");
    assert!(!nginx.contains("daemon") && nginx.contains("listen 127.0.0.1:{port};"), "{nginx}");
    let servers = format!("[servers.daemon]\ncommand = [\"{PYTHON}\", \"{}\", \"{{port}}\"]\nready = \"/\"\n\n{nginx}", daemon.display());
    let plan = tmp.path().join("plan.toml");
    let load = "tool = \"hey\"\nconcurrency = 2\nrequests = 50";
    std::fs::write(&plan, plan_text(&servers, "server = [\"daemon\", \"nginx\"]", load)).unwrap();
    let out = tmp.path().join("dataset");
    let mark = new_mark("daemon");
    let result = measure(&plan, &out, &mark).output().unwrap();
    assert!(result.status.success(), "{}", describe(&result));
    let runs = read_csv(&out.join("runs.csv"));
    assert_eq!(runs.len(), 2, "{runs:?}");
    assert!(runs.iter().all(|r| r["status"] == "ok"), "{runs:?}");
    let requests = read_csv(&out.join("requests.csv"));
    assert_eq!(requests.len(), 100);
    // The daemons, not their exited first processes, are sampled.
    let resources = read_csv(&out.join("resources.csv"));
    for server in ["daemon", "nginx"] {
        assert!(resources.iter().any(|r| r["process"] == server), "{server}: {resources:?}");
    }
    // The daemons are stopped with their runs: nothing listens on their ports once measure has exited
    // (nginx rewrites its processes' environment, so the mark alone would not find it).
    for server in read_csv(&out.join("servers.csv")) {
        let addr = format!("127.0.0.1:{}", server["port"]);
        assert!(std::net::TcpStream::connect(&addr).is_err(), "{} still listens on {addr}", server["server"]);
    }
    assert_nothing_left(&mark, Duration::ZERO);
    let meta = std::fs::read_to_string(out.join("dataset.toml")).unwrap();
    assert!(meta.contains("server_stop = \"supervisor\""), "{meta}");
}

/// Waits (bounded) until measure, started with `MEASURE_TEST_STOP_AT`, has written `marker`, then kills
/// it with SIGKILL.
fn kill_when_stopped(child: &mut Child, marker: &Path, moment: &str) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while !marker.exists() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("measure ended ({status}) before it reached {moment}");
        }
        assert!(Instant::now() < deadline, "measure never reached {moment}");
        std::thread::sleep(Duration::from_millis(10));
    }
    let pid: u32 = std::fs::read_to_string(marker).unwrap().trim().parse().unwrap();
    assert_eq!(pid, child.id(), "the marker is measure's");
    std::fs::remove_file(marker).unwrap();
    // SAFETY: kill has no memory-safety preconditions; the PID is our child's.
    unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
    let status = child.wait().unwrap();
    assert_eq!(std::os::unix::process::ExitStatusExt::signal(&status), Some(libc::SIGKILL));
}

/// The script of a server that ignores SIGTERM (and SIGINT), with a child of its own that does too.
fn stubborn(dir: &Path) -> PathBuf {
    script(
        dir,
        "stubborn",
        &format!(
            "{SERVE}signal.signal(signal.SIGTERM, signal.SIG_IGN)\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n\
             server = serve()\nif os.fork() == 0:\n    signal.pause()\n    os._exit(0)\nserver.serve_forever()\n"
        ),
    )
}

#[test]
fn a_server_that_ignores_sigterm_does_not_outlive_measure_killed_during_the_load() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require_python_and_hey();
    let tmp = tempfile::tempdir().unwrap();
    let stubborn = stubborn(tmp.path());
    let servers = format!("[servers.stubborn]\ncommand = [\"{PYTHON}\", \"{}\", \"{{port}}\"]\nready = \"/\"\n", stubborn.display());
    let plan = tmp.path().join("plan.toml");
    std::fs::write(&plan, plan_text(&servers, "server = [\"stubborn\"]", "tool = \"hey\"\nconcurrency = 1\nduration_s = 30")).unwrap();
    let out = tmp.path().join("dataset");
    let mark = new_mark("sigterm");
    let marker = tmp.path().join("stopped");
    let mut child = measure(&plan, &out, &mark)
        .env("MEASURE_TEST_STOP_AT", "load")
        .env("MEASURE_TEST_STOP_FILE", &marker)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    kill_when_stopped(&mut child, &marker, "load");
    // The supervisor gives the server its stop signal, 2 s, then SIGKILL.
    assert_nothing_left(&mark, Duration::from_secs(10));
}

#[test]
fn a_failing_servers_reason_is_quoted_from_the_end_of_its_log_in_bounded_memory() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require_python_and_hey();
    let tmp = tempfile::tempdir().unwrap();
    const MB: usize = 200;
    // 200 MB of stderr, then the reason.
    let loud = script(
        tmp.path(),
        "loud",
        &format!(
            "import sys\nline = b'x' * 1023 + b'\\n'\nfor _ in range({MB} * 1024):\n    sys.stderr.buffer.write(line)\n\
             sys.stderr.buffer.write(b'FATAL: out of cheese\\n')\nsys.exit(3)\n"
        ),
    );
    // Eight long lines, then the reason with a byte that is not UTF-8.
    let long = script(
        tmp.path(),
        "long",
        "import sys\nfor i in range(8):\n    sys.stderr.write('warning %d: %s\\n' % (i, 'y' * 300))\n\
         sys.stderr.flush()\nsys.stderr.buffer.write(b'bind failed: caf\\xe9 is taken\\n')\nsys.exit(4)\n",
    );
    let servers = format!(
        "[servers.loud]\ncommand = [\"{PYTHON}\", \"{}\", \"{{port}}\"]\n\n[servers.long]\ncommand = [\"{PYTHON}\", \"{}\", \"{{port}}\"]\n",
        loud.display(),
        long.display()
    );
    let plan = tmp.path().join("plan.toml");
    std::fs::write(&plan, plan_text(&servers, "server = [\"loud\", \"long\"]", "tool = \"hey\"\nconcurrency = 1\nrequests = 10")).unwrap();
    let out = tmp.path().join("dataset");
    let mark = new_mark("logs");
    // Reaped by wait4 below, which also gives its peak RSS.
    #[allow(clippy::zombie_processes)]
    let mut child = measure(&plan, &out, &mark).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    let stderr = std::io::read_to_string(child.stderr.take().unwrap()).unwrap();
    // wait4: measure's peak RSS (and its children's, none of which holds the log either).
    let mut status = 0;
    // SAFETY: rusage is plain data, zeroed is a valid value; wait4 writes into both locals.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32);
    assert_eq!(libc::WEXITSTATUS(status), 1, "both runs aborted: {stderr}");
    let peak_mb = usage.ru_maxrss as f64 / 1024.0;
    eprintln!("peak RSS with {MB} MB of server stderr: {peak_mb:.1} MB");
    assert!(peak_mb < 64.0, "measure read the log whole: peak RSS {peak_mb:.1} MB");

    let runs = read_csv(&out.join("runs.csv"));
    let runs = by_server(&runs);
    let loud_note = &runs["loud"]["note"];
    assert!(loud_note.starts_with("measure.exited-early(server=loud, status=3, log=\"..."), "{loud_note}");
    assert!(loud_note.ends_with(" | FATAL: out of cheese\")"), "{loud_note}");
    let long_note = &runs["long"]["note"];
    assert!(long_note.starts_with("measure.exited-early(server=long, status=4, log=\"...y"), "{long_note}");
    assert!(long_note.ends_with(" | bind failed: caf\u{fffd} is taken\")"), "{long_note}");
    assert_nothing_left(&mark, Duration::ZERO);
}

#[test]
fn a_server_that_is_not_ready_says_what_the_probe_got_and_where_it_listens_at_once() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require_python_and_hey();
    let tmp = tempfile::tempdir().unwrap();
    let at = |name: &str, host: &str| {
        script(tmp.path(), name, &format!("{SERVE}HOST = \"{host}\"\nprint('serving', flush=True)\nserve().serve_forever()\n"))
    };
    let ipv6 = at("ipv6", "::1");
    let other = at("other", "127.0.0.2");
    let missing = script(
        tmp.path(),
        "missing",
        &format!(
            "{SERVE}class Missing(Hello):\n    def do_GET(self):\n        self.send_error(404)\n\
             print('app has no /', flush=True)\nserve(Missing).serve_forever()\n"
        ),
    );
    let elsewhere = script(tmp.path(), "elsewhere", &format!("{SERVE}sys.argv[1] = sys.argv[2]\nserve().serve_forever()\n"));
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let server = |name: &str, script: &Path, extra: &str, timeout: u32| {
        format!(
            "[servers.{name}]\ncommand = [\"{PYTHON}\", \"{}\", \"{{port}}\"{extra}]\nready = \"/\"\nready_timeout_s = {timeout}\n",
            script.display()
        )
    };
    let hello = at("hello", "127.0.0.1");
    let servers = [
        server("hello", &hello, "", 10),
        server("no-root", &missing, "", 1),
        server("ipv6", &ipv6, "", 60),
        server("loopback2", &other, "", 60),
        server("elsewhere", &elsewhere, &format!(", \"{taken}\""), 60),
        "[servers.refused]\ncommand = [\"sh\", \"-c\", \"echo starting; exec sleep 60\", \"{port}\"]\nready = \"/\"\nready_timeout_s = 1\n"
            .into(),
    ]
    .join("\n");
    let plan = tmp.path().join("plan.toml");
    let levels = "server = [\"hello\", \"no-root\", \"ipv6\", \"loopback2\", \"elsewhere\", \"refused\"]";
    std::fs::write(&plan, plan_text(&servers, levels, "tool = \"hey\"\nconcurrency = 1\nrequests = 10")).unwrap();
    let out = tmp.path().join("dataset");
    let mark = new_mark("not-ready");
    let started = Instant::now();
    let result = measure(&plan, &out, &mark).output().unwrap();
    let took = started.elapsed();
    assert_eq!(result.status.code(), Some(1), "{}", describe(&result));
    assert!(String::from_utf8_lossy(&result.stderr).contains("5 of 6 runs aborted"), "{}", describe(&result));
    // Three servers with 60 s to get ready are told within a second or so each.
    assert!(took < Duration::from_secs(30), "took {took:?}: a server listening elsewhere waited for its whole timeout");

    let runs = read_csv(&out.join("runs.csv"));
    let runs = by_server(&runs);
    assert_eq!(runs["hello"]["status"], "ok");
    let note = |server: &str| {
        assert_eq!(runs[server]["status"], "aborted", "{server}");
        runs[server]["note"].clone()
    };
    assert_eq!(note("no-root"), "measure.not-ready-status(server=no-root, seconds=1, path=/, status=404, log=\"app has no /\")");
    let port =
        |note: &str| -> u16 { note.split("address=127.0.0.1:").nth(1).and_then(|r| r.split([',', ')']).next()).unwrap().parse().unwrap() };
    let ipv6 = note("ipv6");
    assert_eq!(ipv6, format!("measure.wrong-address(server=ipv6, address=127.0.0.1:{0}, listening=[::1]:{0})", port(&ipv6)));
    let other = note("loopback2");
    assert_eq!(other, format!("measure.wrong-address(server=loopback2, address=127.0.0.1:{0}, listening=127.0.0.2:{0})", port(&other)));
    let elsewhere = note("elsewhere");
    assert!(
        elsewhere.starts_with("measure.wrong-port(server=elsewhere, port=")
            && elsewhere.ends_with(&format!("listening=127.0.0.1:{taken})")),
        "{elsewhere}"
    );
    let refused = note("refused");
    assert_eq!(
        refused,
        format!("measure.not-ready-refused(server=refused, seconds=1, address=127.0.0.1:{}, log=starting)", port(&refused))
    );
    assert_nothing_left(&mark, Duration::ZERO);

    // The notes read as sentences in both languages.
    let check = Command::new(analyze_bin()).arg("check").arg(&out).output().unwrap();
    assert_eq!(check.status.code(), Some(0), "{}", describe(&check));
    for (lang, sentence) in [
        // (the page escapes `/`)
        ("en", "no-root was not ready after 1 s: GET &#x2F; answered 404; its last output: app has no &#x2F;"),
        ("ja", "no-rootは1秒たっても準備が整わなかった：GET &#x2F;への応答はステータス404。最後の出力：app has no &#x2F;"),
    ] {
        let report = tmp.path().join(format!("report-{lang}"));
        let rendered =
            Command::new(analyze_bin()).arg("report").arg(&out).arg("--out").arg(&report).arg("--lang").arg(lang).output().unwrap();
        assert_eq!(rendered.status.code(), Some(0), "{}", describe(&rendered));
        let page = std::fs::read_to_string(report.join("runs").join(format!("{}.html", runs["no-root"]["run_id"]))).unwrap();
        assert!(page.contains(sentence), "{lang}: {sentence:?} is not on the run's page");
    }
}

/// The ok runs of runs.csv: run id → (condition, repetition).
fn ok_runs(out: &Path) -> BTreeMap<String, (String, String)> {
    if !out.join("runs.csv").exists() {
        return BTreeMap::new();
    }
    read_csv(&out.join("runs.csv"))
        .into_iter()
        .filter(|r| r["status"] == "ok")
        .map(|r| (r["run_id"].clone(), (r["concurrency"].clone(), r["repetition"].clone())))
        .collect()
}

#[test]
fn a_study_killed_at_each_moment_leaves_no_process_and_loses_no_run() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require_python_and_hey();
    let tmp = tempfile::tempdir().unwrap();
    let stubborn = stubborn(tmp.path());
    let servers = format!("[servers.stubborn]\ncommand = [\"{PYTHON}\", \"{}\", \"{{port}}\"]\nready = \"/\"\n", stubborn.display());
    let text = plan_text(
        &servers,
        "server = [\"stubborn\"]\nconcurrency = [1, 2]",
        "tool = \"hey\"\nconcurrency = \"{concurrency}\"\nrequests = 100",
    )
    .replace("repetitions = 1", "repetitions = 3");
    let plan = tmp.path().join("plan.toml");
    std::fs::write(&plan, text).unwrap();
    let out = tmp.path().join("dataset");
    let marker = tmp.path().join("stopped");
    let mut measured: BTreeMap<String, (String, String)> = BTreeMap::new();
    for (i, moment) in ["server-start", "load", "import", "between-runs", "save"].into_iter().enumerate() {
        let mark = new_mark(moment);
        let mut cmd = if i == 0 { measure(&plan, &out, &mark) } else { resume(tmp.path(), &out, &mark) };
        let mut child = cmd
            .env("MEASURE_TEST_STOP_AT", moment)
            .env("MEASURE_TEST_STOP_FILE", &marker)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        kill_when_stopped(&mut child, &marker, moment);
        assert_nothing_left(&mark, Duration::from_secs(10));
        let now = ok_runs(&out);
        for (id, run) in &measured {
            assert_eq!(now.get(id), Some(run), "{moment}: {id} was measured before an earlier kill and is gone");
        }
        measured = now;
        eprintln!("killed at {moment}: {} ok runs kept", measured.len());
    }
    assert!(measured.len() >= 2, "runs were measured between the kills: {measured:?}");
    let mark = new_mark("finish");
    let result = resume(tmp.path(), &out, &mark).output().unwrap();
    assert!(result.status.success(), "{}", describe(&result));
    assert_nothing_left(&mark, Duration::ZERO);
    let now = ok_runs(&out);
    for (id, run) in &measured {
        assert_eq!(now.get(id), Some(run), "{id} was measured before the last kill and is gone after --resume");
    }
    let slots: BTreeSet<&(String, String)> = now.values().collect();
    assert_eq!(slots.len(), 6, "every condition and repetition once: {now:?}");
    assert_eq!(now.len(), 6, "{now:?}");
    common::assert_analyze_accepts(&out);
}
