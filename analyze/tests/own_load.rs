//! `check`'s note on a host load most runs share (issue 46, item 27): it calls the load the
//! study's own only when the host was below the gate before the first run.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

/// A copy of the committed app-servers-ab dataset (its files, not raw/) with r01's load average
/// before it set to `load`.
fn app_servers_ab(dir: &Path, load: &str) -> PathBuf {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets/app-servers-ab");
    let dataset = dir.join("app-servers-ab");
    std::fs::create_dir_all(&dataset).unwrap();
    for entry in std::fs::read_dir(&source).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, dataset.join(path.file_name().unwrap())).unwrap();
        }
    }
    let runs = std::fs::read_to_string(dataset.join("runs.csv")).unwrap();
    let first = runs.lines().nth(1).unwrap();
    assert!(first.starts_with("r01,") && first.ends_with(",0.78,1.28"), "r01 is the first run, at 0.78 before it: {first}");
    let edited = first.replace(",0.78,1.28", &format!(",{load},1.28"));
    std::fs::write(dataset.join("runs.csv"), runs.replacen(first, &edited, 1)).unwrap();
    dataset
}

fn check(dataset: &Path) -> String {
    let output = Command::cargo_bin("analyze").unwrap().arg("check").arg(dataset).output().unwrap();
    String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr)
}

#[test]
fn a_load_already_above_the_gate_before_the_first_run_is_not_called_the_studys_own() {
    let tmp = tempfile::tempdir().unwrap();
    // As measured: 0.78 before the first run, so the load above 1.00 is the runs' own.
    let printed = check(&app_servers_ab(&tmp.path().join("calm"), "0.78"));
    assert!(printed.contains("54 of 55 runs started with the host's 1-minute load average above 1.00"), "{printed}");
    assert!(printed.contains("the load is the study's own"), "{printed}");
    // The host at 2.77 before the first run: the load was there before the study began.
    let printed = check(&app_servers_ab(&tmp.path().join("busy"), "2.77"));
    assert!(!printed.contains("the load is the study's own"), "{printed}");
    assert!(
        printed.contains(
            "55 of 55 runs started with the host's 1-minute load average above 1.00 (1.22–3.17). The host was already loaded \
             before the study began (load average 2.77 before the first run), so this load is not only the study's own."
        ),
        "{printed}"
    );
}

/// A run whose server got markedly less CPU than its condition's other runs (runs.csv's
/// `server_cpu_share`, measured by measure) is flagged with the figures; the column is no factor.
#[test]
fn a_run_whose_server_got_markedly_less_cpu_than_its_conditions_others_is_flagged() {
    let tmp = tempfile::tempdir().unwrap();
    let dataset = app_servers_ab(tmp.path(), "0.78");
    let runs = std::fs::read_to_string(dataset.join("runs.csv")).unwrap();
    let mut lines: Vec<String> = runs.lines().map(str::to_owned).collect();
    lines[0].push_str(",server_cpu_share");
    let starved = lines[2].split(',').next().unwrap().to_string();
    for (i, line) in lines.iter_mut().enumerate().skip(1) {
        line.push_str(if i == 2 { ",0.300" } else { ",0.900" });
    }
    std::fs::write(dataset.join("runs.csv"), lines.join("\n") + "\n").unwrap();
    let printed = check(&dataset);
    let flagged: Vec<&str> = printed.lines().filter(|l| l.contains("CPU seconds per second of the load")).collect();
    assert_eq!(flagged.len(), 1, "{printed}");
    assert!(flagged[0].contains(&starved), "{starved}: {printed}");
    assert!(
        flagged[0].contains(
            "the server got 0.30 CPU seconds per second of the load, markedly less than in its condition's other runs (median 0.90, limit "
        ),
        "{printed}"
    );
    assert!(!printed.contains("factor `server_cpu_share`"), "{printed}");
}

/// `dataset` with runs.csv's `server_cpu_share` added: `share(server, concurrency, i)` for the
/// i-th data line.
fn with_cpu_share(dataset: &Path, share: impl Fn(&str, &str, usize) -> f64) {
    let runs = std::fs::read_to_string(dataset.join("runs.csv")).unwrap();
    let mut lines: Vec<String> = runs.lines().map(str::to_owned).collect();
    lines[0].push_str(",server_cpu_share");
    for (i, line) in lines.iter_mut().enumerate().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        let value = share(fields[1], fields[3], i);
        line.push_str(&format!(",{value:.3}"));
    }
    std::fs::write(dataset.join("runs.csv"), lines.join("\n") + "\n").unwrap();
}

/// Issue 48's causes beside verdicts: where the candidate's server got markedly less CPU than the
/// baseline's in every run of a condition, the comparison says so beside that verdict, in the
/// summary and in compare.json, and of no other condition.
#[test]
fn a_comparison_names_the_condition_whose_server_got_less_cpu_on_one_side() {
    let tmp = tempfile::tempdir().unwrap();
    let baseline = app_servers_ab(&tmp.path().join("baseline"), "0.78");
    let candidate = app_servers_ab(&tmp.path().join("candidate"), "0.78");
    let usual = |_: &str, _: &str, i: usize| 0.88 + (i % 5) as f64 * 0.01;
    with_cpu_share(&baseline, usual);
    with_cpu_share(&candidate, |server, concurrency, i| {
        if server == "runserver" && concurrency == "1" {
            0.50 + (i % 5) as f64 * 0.02
        } else {
            usual(server, concurrency, i)
        }
    });
    let run = |format: &str| {
        let output =
            Command::cargo_bin("analyze").unwrap().args(["compare", "--format", format]).arg(&baseline).arg(&candidate).output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).unwrap()
    };
    let json: serde_json::Value = serde_json::from_str(&run("json")).unwrap();
    let target = "server=runserver,python=3.11,concurrency=1";
    assert_eq!(json["summary"]["causes_differ"], serde_json::json!([target]));
    let condition = json["conditions"].as_array().unwrap().iter().find(|c| c["condition_id"] == target).unwrap();
    let cpu = &condition["causes"]["server_cpu"];
    assert_eq!(cpu["differs"], true);
    assert!((cpu["base"]["median"].as_f64().unwrap() - 0.89).abs() < 1e-9, "{cpu}");
    assert!((cpu["cand"]["median"].as_f64().unwrap() - 0.52).abs() < 1e-9, "{cpu}");
    // The host's load is the same on both sides: no difference there.
    assert_eq!(condition["causes"]["host_load"]["differs"], false);

    let text = run("text");
    assert!(
        text.contains(
            "the candidate's server got 52.0% of a core, the baseline's 89.0%: every run of one side beyond every run of the \
             other, so this difference may be the host's, not the code's"
        ),
        "{text}"
    );
    assert_eq!(text.matches("may be the host's, not the code's").count(), 2, "the condition's line and the summary: {text}");
    assert!(
        text.contains("In 1 of 11 conditions (Django runserver · 3.11 · 1) the CPU the server got or the host's load differed"),
        "{text}"
    );
}
