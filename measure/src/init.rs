//! `measure init`: writes a commented example command plan for a user's own server
//! (`templates/command-plan.toml`), which runs as it is: Python's http.server under hey.

use crate::dataset::write_atomic;
use anyhow::{bail, Context, Result};
use std::path::Path;

/// The plan `measure init` writes.
pub const TEMPLATE: &str = include_str!("../templates/command-plan.toml");

/// Writes the example plan to `file`, which must not exist yet.
pub fn write_plan(file: &Path) -> Result<()> {
    if file.exists() {
        bail!("{} exists; measure init writes a new plan only: give another file name", file.display());
    }
    let dir = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = file.file_name().context("measure init needs a file name")?.to_string_lossy().into_owned();
    write_atomic(dir, &name, TEMPLATE)?;
    eprintln!(
        "wrote {0}: an example command plan (Python's http.server under hey). Edit its [servers.mine] to start your \
         server, then `measure run --plan {0} --dry-run` to see what would run, and `measure run --plan {0}`.",
        file.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Plan;

    #[test]
    fn the_example_plan_is_a_valid_command_plan() {
        let Plan::Command(plan) = Plan::parse(TEMPLATE).unwrap_or_else(|e| panic!("{e}")) else { panic!("not a command plan") };
        assert_eq!(plan.conditions().len(), 2);
        assert_eq!(plan.servers["mine"].command[0], "python3");
        // A new plan says its order: rounds; and gets the headline of its closed-loop load (hey, no rate).
        assert_eq!(plan.order, Some(crate::plan::Order::Rounds));
        let report = plan.report().unwrap();
        assert_eq!((report["headline"].as_str(), report["beside"].to_string().as_str()), (Some("requests_per_s"), "[\"percentile\"]"));
        // Its commented [code] table is a valid one once uncommented.
        let code = TEMPLATE.replace("# [code]\n# revision", "[code]\nrevision").replace("# hash = ", "hash = ");
        let Plan::Command(plan) = Plan::parse(&code).unwrap_or_else(|e| panic!("{e}")) else { panic!("not a command plan") };
        assert_eq!(plan.code.as_ref().map(|c| c.hash.clone()), Some(vec!["app".to_string()]));
    }

    #[test]
    fn writes_the_plan_once_and_refuses_to_overwrite() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("plan.toml");
        write_plan(&file).unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), TEMPLATE);
        std::fs::write(&file, "mine").unwrap();
        let err = write_plan(&file).unwrap_err().to_string();
        assert!(err.contains("exists"), "{err}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine", "left as it was");
    }
}
