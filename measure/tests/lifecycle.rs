//! End to end, against the real `measure` and `analyze` binaries and real servers on loopback: a study is
//! never lost or mixed. An aborted slot is finished by `--resume` (its aborted row kept, the import no
//! longer refusing the repetition it held); a fixed server command goes on with `--resume --plan`; an
//! edited plan.toml or a rebuilt server re-runs the changed conditions whole, the old runs set aside; a
//! folder measure did not write is refused as `--out`; a second measure on a dataset in use is refused at
//! once, naming the holder's pid; `{raw_dir}` reaches a server started in another folder as an absolute
//! path. The tests run one at a time.

use crate::common;

use common::{analyze_bin, assert_analyze_accepts, describe, read_csv, require_python_and_hey as require, SERIAL};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

type Row = HashMap<String, String>;

/// A command plan of one server `[servers.py]` (its table's lines `server`), one condition, one run
/// under hey (`requests` requests).
fn plan_text(server: &str, requests: u32) -> String {
    format!(
        "kind = \"command\"\ndataset = \"d\"\ntitle = {{ en = \"t\", ja = \"t\" }}\ndescription = {{ en = \"d\", ja = \"d\" }}\n\
         seed = 3\nrepetitions = 1\n\n[factors]\nconcurrency = [2]\n\n[servers.py]\n{server}\nready = \"/\"\n\n\
         [load]\ntool = \"hey\"\nconcurrency = \"{{concurrency}}\"\nrequests = {requests}\n\n[sampling]\ninterval_ms = 100\n"
    )
}

/// Python's http.server on `{port}`, serving the run's folder.
const HTTP_SERVER: &str =
    "command = [\"/usr/bin/python3\", \"-m\", \"http.server\", \"--bind\", \"127.0.0.1\", \"--directory\", \"{run_dir}\", \"{port}\"]";

/// `measure run ARGS... --analyze ANALYZE`, in `dir`.
fn measure(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_measure"));
    cmd.arg("run").args(args).arg("--analyze").arg(analyze_bin()).current_dir(dir);
    cmd
}

fn run(dir: &Path, args: &[&str]) -> Output {
    measure(dir, args).output().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn runs(out: &Path) -> Vec<Row> {
    read_csv(&out.join("runs.csv"))
}

fn cells<'a>(rows: &'a [Row], column: &str) -> Vec<&'a str> {
    rows.iter().map(|r| r[column].as_str()).collect()
}

/// Every file below `dir` (relative path → bytes).
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.push((path.strip_prefix(dir).unwrap().to_path_buf(), std::fs::read(&path).unwrap()));
            }
        }
    }
    files.sort();
    files
}

/// Item 1 of issue 46: a slot once aborted (here the server fails to start the first time) is finished by
/// `--resume`; before, the import refused every retry ("run r01 (line 2) is already repetition 1 of this
/// condition") and each `--resume` added another aborted row.
#[test]
fn resume_finishes_a_slot_that_was_aborted_and_keeps_the_record_of_the_failure() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require();
    let tmp = tempfile::tempdir().unwrap();
    let flag = tmp.path().join("failed-once");
    let server = format!(
        "command = [\"sh\", \"-c\", \"test -e {flag} || {{ touch {flag}; echo 'not today' >&2; exit 3; }}; exec /usr/bin/python3 -m http.server --bind 127.0.0.1 {{port}}\"]",
        flag = flag.display()
    );
    std::fs::write(tmp.path().join("plan.toml"), plan_text(&server, 100)).unwrap();
    let first = run(tmp.path(), &["--plan", "plan.toml", "--out", "d"]);
    assert_eq!(first.status.code(), Some(1), "{}", describe(&first));
    assert!(stderr(&first).contains("1 of 1 run aborted (r01), with its note in runs.csv"), "{}", stderr(&first));
    let out = tmp.path().join("d");
    assert_eq!(cells(&runs(&out), "status"), ["aborted"]);

    let resumed = run(tmp.path(), &["--resume", "--out", "d"]);
    assert_eq!(resumed.status.code(), Some(0), "{}", describe(&resumed));
    assert!(stderr(&resumed).contains("the 1 run ok; dataset written to d"), "{}", stderr(&resumed));
    let rows = runs(&out);
    assert_eq!(cells(&rows, "run_id"), ["r01", "r02"]);
    assert_eq!(cells(&rows, "status"), ["aborted", "ok"]);
    assert_eq!(cells(&rows, "repetition"), ["1", "1"], "the retry takes the repetition the aborted run left free");
    assert!(rows[0]["note"].starts_with("measure.exited-early(server=py, status=3, log=\"not today\")"), "{rows:?}");
    assert_eq!(rows[1]["recipe"].len(), 12, "the run's recipe is recorded: {rows:?}");
    assert_eq!(read_csv(&out.join("requests.csv")).len(), 100);
    let checked = assert_analyze_accepts(&out);
    assert!(checked.contains("runs: 2 (1 ok), conditions: 1, requests: 100"), "{checked}");

    let again = run(tmp.path(), &["--resume", "--out", "d"]);
    assert_eq!(again.status.code(), Some(0), "{}", describe(&again));
    assert!(stderr(&again).contains("the 1 run of d is ok; nothing to do"), "{}", stderr(&again));
    assert_eq!(runs(&out).len(), 2, "nothing added");
}

/// Item 26: after fixing a broken server command, `--resume --plan fixed.toml` goes on with the dataset,
/// says which conditions it measures again and records the fixed plan.
#[test]
fn a_fixed_server_command_goes_on_with_resume_plan() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require();
    let tmp = tempfile::tempdir().unwrap();
    let broken = HTTP_SERVER.replace("\"http.server\"", "\"http.serverr\"");
    std::fs::write(tmp.path().join("broken.toml"), plan_text(&broken, 100)).unwrap();
    std::fs::write(tmp.path().join("fixed.toml"), plan_text(HTTP_SERVER, 100)).unwrap();
    let first = run(tmp.path(), &["--plan", "broken.toml", "--out", "d"]);
    assert_eq!(first.status.code(), Some(1), "{}", describe(&first));
    let out = tmp.path().join("d");

    let fixed = run(tmp.path(), &["--resume", "--plan", "fixed.toml", "--out", "d"]);
    assert_eq!(fixed.status.code(), Some(0), "{}", describe(&fixed));
    let rows = runs(&out);
    assert_eq!((cells(&rows, "status"), cells(&rows, "repetition")), (vec!["aborted", "ok"], vec!["1", "1"]));
    assert_eq!(std::fs::read_to_string(out.join("plan.toml")).unwrap(), plan_text(HTTP_SERVER, 100), "the plan it ran is kept");
    assert!(
        stderr(&fixed).contains("fixed.toml: a new plan for d; no condition's ok runs were measured under another recipe"),
        "{}",
        stderr(&fixed)
    );
    assert_analyze_accepts(&out);

    // A plan of other factors cannot go on with the dataset: refused before anything runs.
    let other = plan_text(HTTP_SERVER, 100).replace("concurrency = [2]", "clients = [2]").replace("{concurrency}", "{clients}");
    std::fs::write(tmp.path().join("other.toml"), other).unwrap();
    let before = snapshot(&out);
    let refused = run(tmp.path(), &["--resume", "--plan", "other.toml", "--out", "d"]);
    assert_eq!(refused.status.code(), Some(2), "{}", describe(&refused));
    assert!(stderr(&refused).contains("error: other.toml: a command plan of the factors [clients]"), "{}", stderr(&refused));
    assert_eq!(snapshot(&out), before);
}

/// Item 11: an edited plan.toml (another request count) or a rebuilt server never pools with the runs
/// measured before: the condition is measured again whole, its old ok run set aside with a note, and
/// dataset.toml records the program as it is now.
#[test]
fn an_edited_plan_or_a_rebuilt_server_measures_the_condition_again_whole() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require();
    let tmp = tempfile::tempdir().unwrap();
    let script = tmp.path().join("server.sh");
    std::fs::write(&script, "#!/bin/sh\nexec /usr/bin/python3 -m http.server --bind 127.0.0.1 \"$1\"\n").unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    std::fs::write(tmp.path().join("plan.toml"), plan_text("command = [\"./server.sh\", \"{port}\"]", 100)).unwrap();
    let first = run(tmp.path(), &["--plan", "plan.toml", "--out", "d"]);
    assert_eq!(first.status.code(), Some(0), "{}", describe(&first));
    let out = tmp.path().join("d");
    let recipe = runs(&out)[0]["recipe"].clone();
    let sha = |out: &Path| {
        let meta = std::fs::read_to_string(out.join("dataset.toml")).unwrap();
        meta.lines().find(|l| l.starts_with("py_sha256 = ")).unwrap_or_else(|| panic!("{meta}")).to_string()
    };
    let sha_before = sha(&out);

    // A dry run of a plan with fewer requests says which condition it would measure again, and writes nothing.
    std::fs::write(tmp.path().join("fewer.toml"), plan_text("command = [\"./server.sh\", \"{port}\"]", 50)).unwrap();
    let before = snapshot(&out);
    let dry = run(tmp.path(), &["--dry-run", "--resume", "--plan", "fewer.toml", "--out", "d"]);
    assert_eq!(dry.status.code(), Some(0), "{}", describe(&dry));
    let said = String::from_utf8_lossy(&dry.stdout);
    assert!(said.starts_with("the recipe of 1 condition changed since its runs") && said.contains("; r01 set aside\n"), "{said}");
    assert_eq!(snapshot(&out), before);

    // The dataset's own plan.toml edited: 50 requests a run instead of 100.
    let kept = std::fs::read_to_string(out.join("plan.toml")).unwrap();
    std::fs::write(out.join("plan.toml"), kept.replace("requests = 100\n", "requests = 50\n")).unwrap();
    let edited = run(tmp.path(), &["--resume", "--out", "d"]);
    assert_eq!(edited.status.code(), Some(0), "{}", describe(&edited));
    let said = stderr(&edited);
    assert!(said.contains("the recipe of 1 condition changed since its runs: it is measured again whole"), "{said}");
    assert!(said.contains(&format!("  concurrency=2: recipe {recipe} -> ")) && said.contains("; r01 set aside\n"), "{said}");
    let rows = runs(&out);
    assert_eq!(cells(&rows, "status"), ["excluded", "ok"]);
    assert!(rows[0]["note"].ends_with(&format!("; measure.recipe-changed(recipe={recipe}, now={})", rows[1]["recipe"])), "{rows:?}");
    assert_ne!(rows[1]["recipe"], recipe);
    let requests = read_csv(&out.join("requests.csv"));
    assert_eq!(requests.iter().filter(|r| r["run_id"] == "r02").count(), 50, "the new run under the new recipe");
    assert_eq!(requests.iter().filter(|r| r["run_id"] == "r01").count(), 100, "the set-aside run keeps its rows");
    let checked = assert_analyze_accepts(&out);
    assert!(checked.contains("runs: 2 (1 ok), conditions: 1, requests: 50"), "only the new run counts: {checked}");

    // The server rebuilt (another sha256): measured again, and dataset.toml records the new program.
    std::fs::write(&script, "#!/bin/sh\n# rebuilt\nexec /usr/bin/python3 -m http.server --bind 127.0.0.1 \"$1\"\n").unwrap();
    let rebuilt = run(tmp.path(), &["--resume", "--out", "d"]);
    assert_eq!(rebuilt.status.code(), Some(0), "{}", describe(&rebuilt));
    assert!(stderr(&rebuilt).contains("; r02 set aside\n"), "{}", stderr(&rebuilt));
    assert_eq!(cells(&runs(&out), "status"), ["excluded", "excluded", "ok"]);
    assert_ne!(sha(&out), sha_before, "dataset.toml records the program the ok run ran");
    assert_analyze_accepts(&out);
}

/// Item 2: `--out` naming a folder measure did not write is refused, and nothing in it is touched.
#[test]
fn a_folder_measure_did_not_write_is_refused_as_out_and_left_alone() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("plan.toml"), plan_text(HTTP_SERVER, 100)).unwrap();
    let out = tmp.path().join("mine");
    std::fs::create_dir_all(out.join("raw/r01")).unwrap();
    std::fs::write(out.join("raw/r01/notes.txt"), "my notes").unwrap();
    std::fs::write(out.join("servers.csv"), "mine\n").unwrap();
    std::fs::write(out.join("resources.csv"), "mine too\n").unwrap();
    let before = snapshot(&out);
    let refused = run(tmp.path(), &["--plan", "plan.toml", "--out", "mine"]);
    assert_eq!(refused.status.code(), Some(2), "{}", describe(&refused));
    assert!(
        stderr(&refused).contains("error: mine: not empty (raw, resources.csv, servers.csv) and not a dataset measure wrote"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(snapshot(&out), before);
}

/// Item 3: a second measure on a dataset in use is refused at once, naming the folder and the holder's pid;
/// the first one's imports (under analyze's lock on the parent folder) do not wait on measure's lock.
#[test]
fn a_second_measure_on_a_dataset_in_use_is_refused_at_once() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require();
    let tmp = tempfile::tempdir().unwrap();
    let text = plan_text(HTTP_SERVER, 200).replace("repetitions = 1", "repetitions = 3");
    std::fs::write(tmp.path().join("plan.toml"), text).unwrap();
    let out = tmp.path().join("d");
    let mut first =
        measure(tmp.path(), &["--plan", "plan.toml", "--out", "d"]).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    let lock = out.join("raw/.measure.lock");
    let deadline = Instant::now() + Duration::from_secs(20);
    while !std::fs::read_to_string(&lock).is_ok_and(|pid| pid == first.id().to_string()) {
        assert!(Instant::now() < deadline, "the first measure never took its lock");
        std::thread::sleep(Duration::from_millis(20));
    }
    for args in [&["--resume", "--out", "d"][..], &["--plan", "plan.toml", "--out", "d"][..]] {
        let started = Instant::now();
        let second = run(tmp.path(), args);
        assert_eq!(second.status.code(), Some(1), "{args:?}: {}", describe(&second));
        assert!(
            stderr(&second).contains(&format!("d is in use: another measure (pid {}) is running a study on it", first.id())),
            "{args:?}: {}",
            stderr(&second)
        );
        assert!(started.elapsed() < Duration::from_secs(5), "refused at once, not after waiting");
    }
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(status) = first.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "the first measure did not end");
        std::thread::sleep(Duration::from_millis(100));
    };
    let mut said = String::new();
    std::io::Read::read_to_string(first.stderr.as_mut().unwrap(), &mut said).unwrap();
    assert!(status.success(), "{said}");
    let rows = runs(&out);
    assert_eq!((cells(&rows, "run_id"), cells(&rows, "status")), (vec!["r01", "r02", "r03"], vec!["ok", "ok", "ok"]));
    assert_eq!(read_csv(&out.join("requests.csv")).len(), 600, "each run imported once");
    assert!(!lock.exists(), "the lock file goes with the study");
    assert_analyze_accepts(&out);
}

/// Item 4: `{raw_dir}` is absolute, so a server running in its run folder (`cwd = "{run_dir}"`) writes its
/// log into the dataset, not into a relative path under the run folder measure deletes.
#[test]
fn raw_dir_reaches_a_server_in_another_folder_as_an_absolute_path() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    require();
    let tmp = tempfile::tempdir().unwrap();
    let server = "command = [\"sh\", \"-c\", \"echo raw_dir={raw_dir} > {raw_dir}/access.log && exec /usr/bin/python3 -m http.server --bind 127.0.0.1 {port}\"]\ncwd = \"{run_dir}\"";
    std::fs::write(tmp.path().join("plan.toml"), plan_text(server, 50)).unwrap();
    let result = run(tmp.path(), &["--plan", "plan.toml", "--out", "d"]);
    assert_eq!(result.status.code(), Some(0), "{}", describe(&result));
    let log = std::fs::read_to_string(tmp.path().join("d/raw/r01/access.log")).unwrap_or_else(|e| panic!("{e}: {}", describe(&result)));
    let raw_dir = log.trim().strip_prefix("raw_dir=").unwrap();
    assert!(Path::new(raw_dir).is_absolute(), "{log}");
    assert_eq!(Path::new(raw_dir).canonicalize().unwrap(), tmp.path().join("d/raw/r01").canonicalize().unwrap());
}
