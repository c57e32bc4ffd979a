//! `analyze import` of real autocannon runs of a fast server (issue 46): each is accepted whatever
//! its sample count, a printed table is refused with the hint to use `--json`, the dataset it
//! creates has a dataset.toml and keeps the source files under raw/<run_id>/, and a file imported
//! twice or a level one edit from an existing one is said, the import still done.

use assert_cmd::Command;
use std::path::{Path, PathBuf};
use std::process::Output;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import/autocannon").join(name)
}

fn import(dataset: &Path, run_id: &str, server: &str, files: &[PathBuf], extra: &[&str]) -> Output {
    let mut cmd = Command::cargo_bin("analyze").unwrap();
    cmd.arg("import").args(files).arg("--into").arg(dataset).args(["--run-id", run_id, "--factor"]).arg(format!("server={server}"));
    cmd.args(extra).output().unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn check(dataset: &Path) -> Output {
    Command::cargo_bin("analyze").unwrap().arg("check").arg(dataset).output().unwrap()
}

#[test]
fn real_runs_of_a_fast_server_import_and_pass_check() {
    let temp = tempfile::tempdir().unwrap();
    let dataset = temp.path().join("fast");
    for (i, name) in ["fast-1s.json", "fast-3s.json", "fast-5s.json"].iter().enumerate() {
        let out = import(&dataset, &format!("r{}", i + 1), "nginx", &[fixture(name)], &[]);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
    }
    let out = check(&dataset);
    assert!(out.status.success(), "{}", stderr(&out));
    let stats = std::fs::read_to_string(dataset.join("run_stats.csv")).unwrap();
    // The requests/s autocannon printed, kept as printed.
    for rate in [",10548,", ",12321.34,", ",14354.4,"] {
        assert!(stats.contains(rate), "{rate}: {stats}");
    }
}

#[test]
fn a_printed_table_is_refused_with_the_hint_to_run_json() {
    let temp = tempfile::tempdir().unwrap();
    for name in ["table.txt", "latency-table.txt"] {
        let out = import(&temp.path().join("d"), "r1", "nginx", &[fixture(name)], &[]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let text = stderr(&out);
        assert!(text.contains(&format!("{name}:1:1: matches no known format: it is autocannon's printed table")), "{text}");
        assert!(text.contains("run autocannon with --json"), "{text}");
        assert!(!temp.path().join("d").exists(), "nothing written");
    }
}

#[test]
fn a_new_dataset_gets_a_manifest_and_keeps_its_source_files() {
    let temp = tempfile::tempdir().unwrap();
    let dataset = temp.path().join("mine");
    let out = import(&dataset, "r1", "nginx", &[fixture("fast-3s.json")], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("r1: raw/r1/ keeps fast-3s.json (1225 bytes)"), "{}", stderr(&out));
    assert_eq!(std::fs::read(dataset.join("raw/r1/fast-3s.json")).unwrap(), std::fs::read(fixture("fast-3s.json")).unwrap());
    let manifest = std::fs::read_to_string(dataset.join("dataset.toml")).unwrap();
    assert!(manifest.contains("title = { en = \"Runs imported from autocannon\""), "{manifest}");
    assert!(manifest.contains("[[factors]]\nname = \"server\""), "{manifest}");
    // The report is titled by it, not by the folder's name.
    let site = temp.path().join("site");
    let out = Command::cargo_bin("analyze").unwrap().arg("report").arg(&dataset).arg("--out").arg(&site).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("Runs imported from autocannon"), "the title");

    // A second import leaves dataset.toml alone (a user edits it) and keeps its own files.
    std::fs::write(dataset.join("dataset.toml"), "title = \"Fastify on my laptop\"\n").unwrap();
    let out = import(&dataset, "r2", "nginx", &[fixture("fast-5s.json")], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(dataset.join("dataset.toml")).unwrap(), "title = \"Fastify on my laptop\"\n");
    assert!(dataset.join("raw/r2/fast-5s.json").is_file() && dataset.join("raw/r1/fast-3s.json").is_file());
    // --replace replaces the run's kept files.
    let out = import(&dataset, "r2", "nginx", &[fixture("fast-1s.json")], &["--replace"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let kept: Vec<String> =
        std::fs::read_dir(dataset.join("raw/r2")).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(kept, ["fast-1s.json"]);
    assert!(check(&dataset).status.success());
}

#[test]
fn a_file_imported_again_and_a_level_one_edit_away_are_said() {
    let temp = tempfile::tempdir().unwrap();
    let dataset = temp.path().join("mine");
    let out = import(&dataset, "r1", "fastify", &[fixture("fast-3s.json")], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
    // The same file as another run, under a level with a typo.
    let out = import(&dataset, "r2", "fastfy", &[fixture("fast-3s.json")], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stderr(&out);
    assert!(text.contains("the same bytes (sha256 ") && text.contains("as fast-3s.json of run \"r1\" (sources.csv line 2)"), "{text}");
    assert!(
        text.contains("warning: --factor server=fastfy: a new level of server, one edit away from its level \"fastify\" (runs.csv line 2)"),
        "{text}"
    );
    // Another file under another real level: nothing to say.
    let out = import(&dataset, "r3", "express", &[fixture("fast-5s.json")], &[]);
    assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
}
