//! A threshold the user gives prints with the digits that tell it from its neighbours:
//! `--fail-on-regression 99.99` is 99.99%, where one decimal printed 100.0%.

use assert_cmd::Command;
use std::path::Path;

#[test]
fn a_regression_gate_of_99_99_percent_prints_as_99_99_percent() {
    let datasets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets");
    for format in ["text", "md"] {
        let output = Command::cargo_bin("analyze")
            .unwrap()
            .arg("compare")
            .arg(datasets.join("gunicorn-slow-client"))
            .arg(datasets.join("gunicorn-slow-client-rerun"))
            .args(["--fail-on-regression", "99.99", "--format", format])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(text.contains("--fail-on-regression 99.99%: no condition has a supported regression beyond 99.99%"), "{text}");
        assert!(!text.contains("100.0%"), "{text}");
    }
}
