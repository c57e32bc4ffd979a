//! `analyze import` publishes one version of a dataset at a time: concurrent imports all land,
//! a kill before or after the exchange leaves the old or the new dataset (and the next import
//! removes what it left), `--replace` keeps every table consistent and refuses an id that does not
//! exist, ids are compared trimmed, and a folder that is not a dataset is refused. After every
//! import here `analyze check` passes.

use assert_cmd::cargo::cargo_bin;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import").join(path)
}

fn analyze() -> Command {
    Command::new(cargo_bin("analyze"))
}

fn import_command(dataset: &Path, run_id: &str, files: &[&str], extra: &[&str]) -> Command {
    let mut command = analyze();
    command.arg("import");
    for file in files {
        command.arg(fixture(file));
    }
    command.arg("--into").arg(dataset).args(["--run-id", run_id, "--factor", "tool=t"]).args(extra);
    command
}

fn import(dataset: &Path, run_id: &str, files: &[&str], extra: &[&str]) -> Output {
    import_command(dataset, run_id, files, extra).output().unwrap()
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

fn check(dataset: &Path) -> Output {
    analyze().arg("check").arg(dataset).output().unwrap()
}

fn assert_checks(dataset: &Path) {
    let out = check(dataset);
    assert!(matches!(out.status.code(), Some(0 | 1)), "check refused {}: {}", dataset.display(), text(&out));
}

/// Every file under a folder with its bytes, by path from the folder.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                out.insert(path.strip_prefix(root).unwrap().display().to_string(), std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// The names in a folder, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

fn read(dataset: &Path, file: &str) -> String {
    std::fs::read_to_string(dataset.join(file)).unwrap()
}

/// The run ids of runs.csv.
fn run_ids(dataset: &Path) -> Vec<String> {
    read(dataset, "runs.csv").lines().skip(1).map(|l| l.split(',').next().unwrap().to_string()).collect()
}

#[test]
fn sixteen_imports_at_once_all_land_each_once() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("d");
    let children: Vec<_> = (0..16)
        .map(|i| import_command(&dataset, &format!("r{i:02}"), &["hey/hey.csv"], &[]).stderr(std::process::Stdio::piped()).spawn().unwrap())
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", text(&out));
    }
    let mut ids = run_ids(&dataset);
    ids.sort();
    assert_eq!(ids, (0..16).map(|i| format!("r{i:02}")).collect::<Vec<_>>());
    // Without --repetition each took the next free one, under the lock: 1 to 16, each once.
    let mut repetitions: Vec<u32> =
        read(&dataset, "runs.csv").lines().skip(1).map(|l| l.split(',').nth(2).unwrap().parse().unwrap()).collect();
    repetitions.sort();
    assert_eq!(repetitions, (1..=16).collect::<Vec<_>>());
    assert_eq!(read(&dataset, "requests.csv").lines().count(), 1 + 16 * 2000);
    assert_eq!(read(&dataset, "sources.csv").lines().count(), 1 + 16);
    assert_eq!(names(root.path()), vec!["d"], "nothing staged is left beside the dataset");
    assert_checks(&dataset);
}

#[test]
fn a_kill_before_the_exchange_leaves_the_old_dataset_and_one_after_it_the_new() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("d");
    assert!(import(&dataset, "old", &["hey/hey.csv"], &[]).status.success());
    // What a killed import of an older version left inside the dataset: nothing removed it.
    std::fs::write(dataset.join(".requests.csv.new-Ab3dE9"), "half a file").unwrap();
    let before = snapshot(&dataset);

    let killed = import_command(&dataset, "new", &["vegeta/vegeta.csv"], &[]).env("OUTDIR_CRASH_AT", "update:staged").output().unwrap();
    assert_eq!(std::os::unix::process::ExitStatusExt::signal(&killed.status), Some(9), "{}", text(&killed));
    assert_eq!(snapshot(&dataset), before, "killed before the exchange: the old dataset, byte for byte");
    assert_eq!(names(root.path()).len(), 2, "the killed import's staged copy is beside it: {:?}", names(root.path()));

    let killed = import_command(&dataset, "new", &["vegeta/vegeta.csv"], &[]).env("OUTDIR_CRASH_AT", "swap:exchanged").output().unwrap();
    assert_eq!(std::os::unix::process::ExitStatusExt::signal(&killed.status), Some(9), "{}", text(&killed));
    assert_eq!(run_ids(&dataset), vec!["old", "new"], "killed after the exchange: the new dataset");
    assert!(!dataset.join(".requests.csv.new-Ab3dE9").exists(), "the new version carries no leftover");
    assert_checks(&dataset);

    // The next import removes what both kills left beside the dataset.
    assert!(import(&dataset, "third", &["jmeter/jmeter.jtl"], &[]).status.success());
    assert_eq!(names(root.path()), vec!["d"]);
    assert_eq!(run_ids(&dataset), vec!["old", "new", "third"]);
    assert_checks(&dataset);
}

#[test]
fn kills_at_any_moment_leave_the_old_or_the_new_dataset() {
    // Replacing a run by 120,000 rows and back by 2,000, each import killed after 0 to 0.9 s:
    // whichever step a kill lands on, the dataset is the old one byte for byte or the new one
    // whole, and check passes.
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("d");
    assert!(import(&dataset, "old", &["hey/hey.csv"], &[]).status.success());
    assert!(import(&dataset, "big", &["hey/hey.csv"], &[]).status.success());
    let mut csv = String::from("response-time,DNS+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset\n");
    for i in 0..120_000 {
        csv.push_str(&format!("0.0031,0.0000,0.0000,0.0000,0.0027,0.0004,200,{}.{:04}\n", i / 10_000, i % 10_000));
    }
    let big = root.path().join("big.csv");
    std::fs::write(&big, csv).unwrap();
    let (mut old, mut new) = (0, 0);
    for step in 0..10u64 {
        let before = snapshot(&dataset);
        let (file, rows) = if step % 2 == 0 { (big.clone(), 120_000) } else { (fixture("hey/hey.csv"), 2000) };
        let mut child = analyze()
            .arg("import")
            .arg(&file)
            .arg("--into")
            .arg(&dataset)
            .args(["--run-id", "big", "--factor", "tool=t", "--replace"])
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(step * 100));
        // SIGKILL to the child started just above, by its PID (nothing when it has ended).
        let _ = child.kill();
        child.wait().unwrap();
        if snapshot(&dataset) == before {
            old += 1;
        } else {
            let requests = read(&dataset, "requests.csv");
            assert_eq!(requests.lines().filter(|l| l.starts_with("big,")).count(), rows, "after a kill at {} ms", step * 100);
            assert_eq!(requests.lines().filter(|l| l.starts_with("old,")).count(), 2000);
            assert_eq!(run_ids(&dataset), vec!["old", "big"]);
            new += 1;
        }
        assert_checks(&dataset);
    }
    eprintln!("{old} kills left the old dataset, {new} the new one");
}

#[test]
fn replace_keeps_every_table_consistent_and_needs_a_run_to_replace() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("d");
    assert!(import(&dataset, "keep", &["hey/hey.csv"], &[]).status.success());
    let ab = import(&dataset, "r1", &["ab/ab-g.tsv", "ab/ab-stdout.txt"], &[]);
    assert!(ab.status.success(), "{}", text(&ab));
    // A side table with rows of both runs (as measure writes resources.csv).
    std::fs::write(
        dataset.join("resources.csv"),
        "run_id,t_ms,process,pid,cpu_s,rss_bytes\nkeep,0,nginx,1,0.5,100\nr1,0,nginx,1,0.5,100\nr1,10,nginx,1,0.6,100\n",
    )
    .unwrap();
    assert_checks(&dataset);

    let missing = import(&dataset, "nosuch", &["hey/hey.csv"], &["--replace"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing).contains("has no run \"nosuch\" to replace"), "{}", text(&missing));

    let replaced = import(&dataset, "r1", &["hey/hey.csv"], &["--replace"]);
    assert!(replaced.status.success(), "{}", text(&replaced));
    assert!(text(&replaced).contains("resources.csv: 2 rows of the replaced run r1 removed"), "{}", text(&replaced));
    assert_eq!(run_ids(&dataset), vec!["keep", "r1"], "the replaced run keeps its place");
    // ab's run_stats row is gone and no other run has one: no run_stats.csv of a header only.
    assert!(!dataset.join("run_stats.csv").exists());
    assert_eq!(read(&dataset, "resources.csv").lines().count(), 2);
    assert_eq!(read(&dataset, "requests.csv").lines().filter(|l| l.starts_with("r1,")).count(), 2000);
    assert!(!read(&dataset, "sources.csv").contains("ab-g.tsv"));
    assert_checks(&dataset);
}

#[test]
fn a_run_id_with_spaces_around_it_is_the_trimmed_id() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("d");
    assert!(import(&dataset, "r1", &["hey/hey.csv"], &[]).status.success());
    let before = snapshot(&dataset);
    let again = import(&dataset, "r1 ", &["vegeta/vegeta.csv"], &[]);
    assert_eq!(again.status.code(), Some(2));
    assert!(text(&again).contains("already has run \"r1\" (line 2)"), "{}", text(&again));
    assert_eq!(snapshot(&dataset), before);
    let replaced = import(&dataset, " r1", &["vegeta/vegeta.csv"], &["--replace"]);
    assert!(replaced.status.success(), "{}", text(&replaced));
    assert_eq!(run_ids(&dataset), vec!["r1"]);
    assert_checks(&dataset);
}

#[test]
fn a_folder_that_is_not_a_dataset_is_refused_and_a_missing_parent_named() {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("photos");
    std::fs::create_dir_all(folder.join(".git")).unwrap();
    std::fs::write(folder.join("photo.jpg"), "jpeg").unwrap();
    let before = snapshot(&folder);
    let out = import(&folder, "r1", &["hey/hey.csv"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("holds 2 entries that no dataset has (.git, photo.jpg)"), "{}", text(&out));
    assert_eq!(snapshot(&folder), before);
    assert_eq!(names(root.path()), vec!["photos"]);

    let nested = root.path().join("no/such/dataset");
    let out = import(&nested, "r1", &["hey/hey.csv"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains(&format!("the folder {} does not exist", root.path().join("no/such").display())), "{}", text(&out));
    assert!(!root.path().join("no").exists());
}

#[test]
fn repetitions_are_the_next_free_one_and_a_taken_one_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("d");
    for (i, id) in ["a", "b", "c"].iter().enumerate() {
        let out = import(&dataset, id, &["hey/hey.csv"], &[]);
        assert!(out.status.success(), "{}", text(&out));
        if i > 0 {
            assert!(text(&out).contains(&format!("repetition {}: the next free one of its condition (tool=t)", i + 1)), "{}", text(&out));
        }
    }
    let taken = import(&dataset, "d", &["hey/hey.csv"], &["--repetition", "2"]);
    assert_eq!(taken.status.code(), Some(2));
    assert!(text(&taken).contains("run \"b\" (line 3) is already repetition 2 of this condition (tool=t)"), "{}", text(&taken));
    let other = import(&dataset, "e", &["hey/hey.csv"], &["--repetition", "7"]);
    assert!(other.status.success(), "{}", text(&other));
    assert!(read(&dataset, "runs.csv").contains("\ne,t,7,"), "{}", read(&dataset, "runs.csv"));
}

/// measure keeps the row of an aborted run (with its note) and runs its slot again under a new run
/// id and the same repetition: the aborted row does not hold the repetition, an `ok` one does.
#[test]
fn an_aborted_or_excluded_run_leaves_its_repetition_free() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("d");
    for id in ["a", "b"] {
        let out = import(&dataset, id, &["hey/hey.csv"], &[]);
        assert!(out.status.success(), "{}", text(&out));
    }
    let runs = read(&dataset, "runs.csv");
    let mut lines: Vec<String> = runs.lines().map(str::to_owned).collect();
    let status = lines[0].split(',').position(|c| c == "status").unwrap();
    for (line, word) in [(1, "aborted"), (2, "excluded")] {
        let mut cells: Vec<&str> = lines[line].split(',').collect();
        cells[status] = word;
        lines[line] = cells.join(",");
    }
    std::fs::write(dataset.join("runs.csv"), lines.join("\n") + "\n").unwrap();
    let again = import(&dataset, "c", &["hey/hey.csv"], &["--repetition", "1"]);
    assert!(again.status.success(), "the aborted run a does not hold repetition 1: {}", text(&again));
    let next = import(&dataset, "d", &["hey/hey.csv"], &[]);
    assert!(next.status.success(), "{}", text(&next));
    assert!(text(&next).contains("repetition 2: the next free one of its condition (tool=t), which has 1 other run"), "{}", text(&next));
    let taken = import(&dataset, "e", &["hey/hey.csv"], &["--repetition", "1"]);
    assert_eq!(taken.status.code(), Some(2));
    assert!(text(&taken).contains("run \"c\" (line 4) is already repetition 1 of this condition (tool=t)"), "{}", text(&taken));
}

#[test]
fn a_factor_given_twice_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("d");
    let out = analyze()
        .arg("import")
        .arg(fixture("hey/hey.csv"))
        .arg("--into")
        .arg(&dataset)
        .args(["--run-id", "r", "--factor", "a=1", "--factor", "a=2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("the factor `a` is already given (=1)"), "{}", text(&out));
    assert!(!dataset.exists());
}

#[test]
fn an_import_that_check_would_refuse_is_refused_with_checks_words() {
    // dataset.toml names a factor the import does not give: check would refuse runs.csv.
    let root = tempfile::tempdir().unwrap();
    let dataset = root.path().join("d");
    std::fs::create_dir(&dataset).unwrap();
    std::fs::write(dataset.join("dataset.toml"), "[[factors]]\nname = \"server\"\n").unwrap();
    let before = snapshot(&dataset);
    let out = import(&dataset, "r1", &["hey/hey.csv"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("would not pass `analyze check`"), "{}", text(&out));
    assert!(text(&out).contains("dataset.toml names the factor `server`"), "{}", text(&out));
    assert_eq!(snapshot(&dataset), before);
    assert_eq!(names(root.path()), vec!["d"]);
}

#[test]
fn paths_and_ids_in_messages_are_escaped() {
    let root = tempfile::tempdir().unwrap();
    let file = root.path().join("hey\u{1b}[31m.csv");
    std::fs::copy(fixture("hey/hey.csv"), &file).unwrap();
    let dataset = root.path().join("d\u{1b}[0m");
    let out =
        analyze().arg("import").arg(&file).arg("--into").arg(&dataset).args(["--run-id", "r1", "--factor", "tool=t"]).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert!(!text(&out).contains('\u{1b}'), "{:?}", text(&out));
    assert!(text(&out).contains("hey\\u{1b}[31m.csv"), "{}", text(&out));
}

#[test]
fn help_lists_every_format_with_its_companion_and_traps() {
    let out = analyze().args(["import", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    for format in analyze::import::Format::ALL {
        assert!(help.contains(&format!("  {} ", format.name())), "{} missing from\n{help}", format.name());
    }
    assert!(help.contains("needs the same run's stdout") && help.contains("without --latency wrk prints no percentiles"), "{help}");
}
