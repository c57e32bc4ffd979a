//! The README's "nothing lost": what `analyze report` and `analyze site` do with an output folder
//! that holds someone else's files, a symbolic link, leftovers of killed runs, a second run at the
//! same time, and `--out .`.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny")
}

fn analyze() -> Command {
    Command::cargo_bin("analyze").unwrap()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

fn report(out: &Path) -> std::process::Output {
    analyze().arg("report").arg(fixture()).arg("--out").arg(out).output().unwrap()
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    names
}

#[test]
fn a_dataset_copied_inside_an_earlier_report_is_not_replaced_by_its_own_report() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("report");
    assert!(report(&out).status.success());
    let dataset = out.join("mine");
    copy_dir(&fixture(), &dataset);

    let output = analyze().arg("report").arg(&dataset).arg("--out").arg(&dataset).output().unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("article.md, dataset.toml, large_responses.csv"), "{}", stderr(&output));
    assert_eq!(std::fs::read(dataset.join("runs.csv")).unwrap(), std::fs::read(fixture().join("runs.csv")).unwrap());
    assert!(!dataset.join("index.html").exists());
}

#[test]
fn a_report_folder_that_gained_foreign_files_is_refused_and_they_are_listed() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("report");
    assert!(report(&out).status.success());
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    std::fs::write(out.join("runs/mine.txt"), "mine").unwrap();
    std::fs::create_dir(out.join(".git")).unwrap();

    let output = report(&out);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("holds 3 entries analyze did not write (.git, notes.txt, runs/mine.txt)"), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(out.join("runs/mine.txt")).unwrap(), "mine");
    assert!(out.join(".git").is_dir());
    // A long list is cut short with a count.
    for i in 0..15 {
        std::fs::write(out.join(format!("extra{i:02}")), "x").unwrap();
    }
    assert!(stderr(&report(&out)).contains("holds 18 entries analyze did not write (.git, extra00, extra01, extra02, extra03, extra04, extra05, extra06, extra07, extra08, and 8 more)"));
}

#[test]
fn a_site_rebuild_keeps_git_and_cname_and_says_so() {
    let root = tempfile::tempdir().unwrap();
    let datasets = root.path().join("datasets");
    copy_dir(&fixture(), &datasets.join("tiny"));
    let out = root.path().join("site");
    let site = || analyze().arg("site").arg(&datasets).arg("--out").arg(&out).output().unwrap();
    assert!(site().status.success());
    std::fs::create_dir_all(out.join(".git/refs")).unwrap();
    std::fs::write(out.join(".git/HEAD"), "ref: refs/heads/gh-pages\n").unwrap();
    std::fs::write(out.join("CNAME"), "latency.example.org\n").unwrap();

    let output = site();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("kept .git, CNAME (not written by analyze)"), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(out.join(".git/HEAD")).unwrap(), "ref: refs/heads/gh-pages\n");
    assert_eq!(std::fs::read_to_string(out.join("CNAME")).unwrap(), "latency.example.org\n");
    assert!(out.join("tiny/en/index.html").is_file());

    // Anything else foreign in a site is refused like in a report.
    std::fs::create_dir(out.join("extra")).unwrap();
    let output = site();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("(extra)"), "{}", stderr(&output));
}

#[test]
fn a_symlinked_out_is_written_through_and_stays_a_link() {
    let root = tempfile::tempdir().unwrap();
    let real = root.path().join("real");
    let link = root.path().join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let output = report(&link);
    assert_eq!(output.status.code(), Some(2), "a dangling link is refused");
    assert!(stderr(&output).contains("is a symbolic link to"), "{}", stderr(&output));

    std::fs::create_dir(&real).unwrap();
    for _ in 0..2 {
        assert!(report(&link).status.success());
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert!(real.join("index.html").is_file());
    }
    assert_eq!(names(root.path()), vec!["link".to_string(), "real".into()]);
}

#[test]
fn leftovers_of_killed_runs_are_removed_and_live_ones_kept() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("report");
    // PIDs on Linux stay below 2^22, so 99999999 is a dead run; this test's own PID is alive.
    let dead = root.path().join(".report.new-99999999-0");
    let live = root.path().join(format!(".report.new-{}-0", std::process::id()));
    for dir in [&dead, &live] {
        std::fs::create_dir(dir).unwrap();
        std::fs::write(dir.join("index.html"), "half").unwrap();
    }
    assert!(report(&out).status.success());
    assert!(!dead.exists());
    assert!(live.exists());
}

#[test]
fn concurrent_runs_into_one_folder_all_succeed_and_leave_one_report() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("report");
    let children: Vec<_> = (0..4)
        .map(|_| {
            std::process::Command::new(assert_cmd::cargo::cargo_bin("analyze"))
                .arg("report")
                .arg(fixture())
                .arg("--out")
                .arg(&out)
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", stderr(&output));
    }
    assert_eq!(names(root.path()), vec!["report".to_string()]);
    assert!(out.join("index.html").is_file());
}

#[test]
fn out_dot_writes_into_the_current_folder() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("report");
    std::fs::create_dir(&out).unwrap();
    let output = analyze().current_dir(&out).arg("report").arg(fixture()).arg("--out").arg(".").output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(out.join("index.html").is_file());
    assert_eq!(names(root.path()), vec!["report".to_string()], "no staging folder is left");
    // Written by analyze now, so a second run replaces it.
    let output = analyze().current_dir(&out).arg("report").arg(fixture()).arg("--out").arg(".").output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn site_only_writes_the_index_readable_by_a_web_server() {
    use std::os::unix::fs::PermissionsExt;
    let root = tempfile::tempdir().unwrap();
    let datasets = root.path().join("datasets");
    copy_dir(&fixture(), &datasets.join("tiny"));
    let out = root.path().join("site");
    assert!(analyze().arg("site").arg(&datasets).arg("--out").arg(&out).output().unwrap().status.success());
    let output = analyze().arg("site").arg(&datasets).arg("--out").arg(&out).args(["--only", "tiny"]).output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let umask = status.lines().find_map(|l| l.strip_prefix("Umask:")).map(|m| u32::from_str_radix(m.trim(), 8).unwrap()).unwrap();
    for file in ["index.html", "tiny/en/index.html", ".analyze-output"] {
        let mode = std::fs::metadata(out.join(file)).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o644 & !umask, "{file}");
    }
    for folder in ["", "tiny", "tiny/en"] {
        let mode = std::fs::metadata(out.join(folder)).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o755 & !umask, "{folder:?}");
    }
    // The marker still lists every file, so a whole rebuild afterwards finds nothing foreign.
    assert!(analyze().arg("site").arg(&datasets).arg("--out").arg(&out).output().unwrap().status.success());
}
