//! `measure init`: writes a commented example command plan for a user's own server
//! (`templates/command-plan.toml`), which runs as it is: Python's http.server under hey; or, with
//! `--compare OLD NEW`, a plan that compares two builds of one server in one sitting
//! (`templates/compare-plan.toml`): the builds are the two levels of the factor `server`, run once per
//! round in a fresh shuffled order, under closed-loop hey with requests/s as the headline, so that the
//! report's paired verdict compares them within rounds.

use crate::cli::InitArgs;
use crate::dataset::write_atomic;
use crate::plan::Plan;
use anyhow::{bail, Context, Result};
use std::path::Path;

/// The plan `measure init` writes.
pub const TEMPLATE: &str = include_str!("../templates/command-plan.toml");
/// The plan `measure init --compare` writes, with `@OLD_COMMAND@`, `@NEW_COMMAND@` and `@ROUNDS@` filled in.
pub const COMPARE_TEMPLATE: &str = include_str!("../templates/compare-plan.toml");
/// The rounds of a `--compare` plan unless told otherwise: at 8 rounds the exact permutation p can reach
/// 2/256 (below 6 rounds it cannot reach 5%), and the paired t interval has 7 degrees of freedom.
pub const DEFAULT_ROUNDS: u32 = 8;
/// The fewest rounds a `--compare` plan may have: at k rounds the permutation p of swapping the builds
/// within rounds is at least 2/2^k, 0.0625 at 5 rounds.
pub const MIN_ROUNDS: u32 = 6;

/// `measure init [FILE] [--compare OLD NEW [--rounds N]]`.
pub fn init(args: &InitArgs) -> Result<()> {
    match &args.compare {
        None => write_plan(&args.file),
        Some(commands) => {
            let [old, new] = commands.as_slice() else { bail!("--compare takes two command lines: OLD and NEW") };
            write_compare_plan(&args.file, old, new, args.rounds)
        }
    }
}

/// Writes the example plan to `file`, which must not exist yet.
pub fn write_plan(file: &Path) -> Result<()> {
    write_new(file, TEMPLATE)?;
    eprintln!(
        "wrote {0}: an example command plan (Python's http.server under hey). Edit its [servers.mine] to start your \
         server, then `measure run --plan {0} --dry-run` to see what would run, and `measure run --plan {0}`.",
        file.display()
    );
    Ok(())
}

/// Writes `text` to `file`, which must not exist yet.
fn write_new(file: &Path, text: &str) -> Result<()> {
    if file.exists() {
        bail!("{} exists; measure init writes a new plan only: give another file name", file.display());
    }
    let dir = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = file.file_name().context("measure init needs a file name")?.to_string_lossy().into_owned();
    write_atomic(dir, &name, text)
}

/// The text of a plan comparing the builds whose command lines are `old` and `new`, in `rounds` rounds.
/// A command line is split as a shell would split it (quotes and backslashes; no variables, no globs).
pub fn compare_plan(old: &str, new: &str, rounds: u32) -> Result<String> {
    if rounds < MIN_ROUNDS {
        bail!(
            "--rounds {rounds}: a paired verdict needs at least {MIN_ROUNDS} rounds (at k rounds swapping the builds within \
             rounds cannot give a p below 2/2^k, {:.3} at {rounds})",
            2.0 / 2f64.powi(rounds as i32)
        );
    }
    let argv = |which: &str, line: &str| -> Result<String> {
        let words = shlex::split(line).with_context(|| format!("{which} command {line:?}: an unclosed quote or a trailing backslash"))?;
        if words.is_empty() {
            bail!("{which} command is empty: give the command line that starts the {which} build");
        }
        // A TOML array of TOML strings (JSON's string escapes are TOML's basic strings).
        let quoted: Vec<String> = words.iter().map(|w| serde_json::to_string(w).expect("a string serializes")).collect();
        Ok(format!("[{}]", quoted.join(", ")))
    };
    let text = COMPARE_TEMPLATE
        .replace("@OLD_COMMAND@", &argv("OLD", old)?)
        .replace("@NEW_COMMAND@", &argv("NEW", new)?)
        .replace("@ROUNDS@", &rounds.to_string());
    // The plan measure would refuse is not written: the same checks as `measure run`.
    Plan::parse(&text).map_err(|e| anyhow::anyhow!("the plan for these commands is not valid: {e}"))?;
    Ok(text)
}

/// Writes the plan of [`compare_plan`] to `file`, which must not exist yet.
pub fn write_compare_plan(file: &Path, old: &str, new: &str, rounds: u32) -> Result<()> {
    let text = compare_plan(old, new, rounds)?;
    write_new(file, &text)?;
    let port = if old.contains("{port}") && new.contains("{port}") {
        String::new()
    } else {
        " A command that does not say {port} must listen at $PORT (measure sets it per run).".to_string()
    };
    eprintln!(
        "wrote {0}: the old and the new build, {rounds} rounds under hey -c 10 for 5 s a run (about {1} minutes).{port} \
         Check it with `measure run --plan {0} --dry-run`, run it with `measure run --plan {0}`, and read the paired \
         verdict with `analyze report DATASET --out DIR`.",
        file.display(),
        (rounds * 2 * 7).div_ceil(60)
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
    fn a_compare_plan_runs_both_builds_once_per_round_by_requests_per_s() {
        let text = compare_plan("./server --port {port}", "./server --port {port} --flag 'a b'", 8).unwrap();
        let Plan::Command(plan) = Plan::parse(&text).unwrap_or_else(|e| panic!("{e}")) else { panic!("not a command plan") };
        assert_eq!(plan.order, Some(crate::plan::Order::Rounds));
        assert_eq!(plan.repetitions, 8);
        assert_eq!(plan.conditions().len(), 2, "one condition per build");
        assert_eq!(plan.servers["old"].command, ["./server", "--port", "{port}"]);
        assert_eq!(plan.servers["new"].command, ["./server", "--port", "{port}", "--flag", "a b"], "split as a shell would");
        let report = plan.report().unwrap();
        assert_eq!(report["headline"].as_str(), Some("requests_per_s"), "closed-loop load: requests/s leads");
        assert_eq!(report["compare"].as_str(), Some("server"), "the builds are what the report compares");
    }

    #[test]
    fn a_compare_plan_refuses_too_few_rounds_and_an_unclosed_quote() {
        let few = compare_plan("a {port}", "b {port}", 5).unwrap_err().to_string();
        assert!(few.contains("at least 6 rounds") && few.contains("0.062"), "{few}");
        let quote = compare_plan("a '{port}", "b {port}", 8).unwrap_err().to_string();
        assert!(quote.contains("OLD command") && quote.contains("unclosed quote"), "{quote}");
        let empty = compare_plan("a {port}", "  ", 8).unwrap_err().to_string();
        assert!(empty.contains("NEW command is empty"), "{empty}");
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
