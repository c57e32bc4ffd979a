//! A command plan's preflight: its load tool and every server's program found before the first run (a
//! missing one is bad input at its key in the plan: file, line and key, exit 2), the `analyze` binary that
//! imports the tool's files, and the `[environment]` fingerprint: the machine (see
//! [`crate::host::fingerprint`]) and, per tool and server, `<name>_version` (and a server's program with
//! its sha256), so a later comparison can tell whether two datasets ran the same software.

use super::Tools;
use crate::cli::RunArgs;
use crate::clock::date_utc;
use crate::cpus::Pinning;
use crate::dataset::manifest::Environment;
use crate::host;
use crate::input::BadInputs;
use crate::load::tool;
use crate::plan::command::{Code, CommandPlan, LoadTool, Problem, RUN_NAMES};
use crate::plan::locate::KeyPath;
use crate::plan::{placed, template};
use crate::run::{command::Installed, Installed as AnyInstalled};
use crate::servers::command::program_path;
use anyhow::{bail, Result};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// How long a version command may take.
const VERSION_TIMEOUT: Duration = Duration::from_secs(10);

/// Where the plan being run was read from, to place a problem found here at its line.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    pub path: &'a Path,
    pub text: &'a str,
}

/// The programs the preflight found.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// The load tool (none for measure's own client).
    pub tool: Option<PathBuf>,
    /// Each server's program, when every condition runs the same one (`None` when the program's path
    /// names a factor, as two builds of one server might).
    pub programs: BTreeMap<String, Option<PathBuf>>,
}

/// Finds the tool and every server's program; what is missing is named at its key (file, line, key).
pub fn find_programs(plan: &CommandPlan, base: &Path, source: Source) -> Result<Found, BadInputs> {
    let mut problems = Vec::new();
    let tool = match plan.load.tool.program() {
        None => None,
        Some(name) => {
            let (given, key) = match &plan.load.binary {
                Some(binary) => (program_path(binary, base), KeyPath::root("load").key("binary")),
                None => (PathBuf::from(name), KeyPath::root("load").key("tool")),
            };
            let found = host::which(&given);
            if found.is_none() {
                problems.push(Problem::new(
                    key,
                    format!(
                        "{} is not installed here ({} is not an executable file{}); install it ({}) or point load.binary at it",
                        plan.load.tool.as_str(),
                        given.display(),
                        if plan.load.binary.is_none() { " on PATH" } else { "" },
                        plan.load.tool.install_hint()
                    ),
                ));
            }
            found
        }
    };
    let mut programs = BTreeMap::new();
    for (name, server) in &plan.servers {
        let Some(program) = server.command.first() else { continue };
        let key = KeyPath::root("servers").key(name).key("command").index(0);
        let names = template::names(program);
        if names.iter().any(|n| RUN_NAMES.contains(n)) {
            // A program in the run's folder exists only once the run has started.
            programs.insert(name.clone(), None);
            continue;
        }
        let mut seen = BTreeMap::new();
        for condition in plan.conditions().iter().filter(|c| plan.server_of(c).is_some_and(|(n, _)| n == name)) {
            let Ok(filled) = template::fill(program, |n| condition.level(n)) else { continue };
            seen.entry(filled.clone()).or_insert_with(|| host::which(&program_path(&filled, base)));
        }
        for (filled, found) in &seen {
            if found.is_none() {
                problems.push(Problem::new(key.clone(), format!("{filled:?} is not an executable file (nor one on PATH)")));
            }
        }
        let single = if names.is_empty() { seen.into_values().next().flatten() } else { None };
        programs.insert(name.clone(), single);
    }
    if problems.is_empty() {
        Ok(Found { tool, programs })
    } else {
        Err(placed(source.path, source.text, &problems))
    }
}

/// `code_revision` (what `code.revision` prints) and `code_sha256` (the content of `code.hash`), run and
/// read in `base`; a command that fails or a path that is not there is bad input at its key.
pub fn record_code(code: &Code, base: &Path, source: Source) -> Result<Environment, BadInputs> {
    let mut recorded = Environment::new();
    let mut problems = Vec::new();
    let key = KeyPath::root("code");
    if let Some((program, rest)) = code.revision.as_ref().and_then(|r| r.split_first()) {
        let args: Vec<&str> = rest.iter().map(String::as_str).collect();
        let line = match host::which(&program_path(program, base)) {
            None => Err(format!("{program:?} is not an executable file (nor one on PATH)")),
            Some(found) => host::success_line(&found, &args, VERSION_TIMEOUT)
                .map_err(|why| format!("`{}` gave no revision: {why}", code.revision.as_deref().unwrap_or_default().join(" "))),
        };
        match line {
            Ok(line) => {
                recorded.insert("code_revision".into(), line);
            }
            Err(why) => problems.push(Problem::new(key.key("revision"), why)),
        }
    }
    if !code.hash.is_empty() {
        let missing: Vec<usize> = (0..code.hash.len()).filter(|&i| std::fs::symlink_metadata(base.join(&code.hash[i])).is_err()).collect();
        for &i in &missing {
            problems
                .push(Problem::new(key.key("hash").index(i), format!("{:?} is not there (relative to {})", code.hash[i], base.display())));
        }
        if missing.is_empty() {
            match host::tree_sha256(base, &code.hash) {
                Ok(digest) => {
                    recorded.insert("code_sha256".into(), digest);
                }
                Err(e) => problems.push(Problem::new(key.key("hash"), format!("could not be read: {e}"))),
            }
        }
    }
    if problems.is_empty() {
        Ok(recorded)
    } else {
        Err(placed(source.path, source.text, &problems))
    }
}

/// The version of the plan's tool at `program`.
fn tool_version(tool: LoadTool, program: &Path) -> String {
    let found = match (tool, tool.version_args()) {
        (LoadTool::Ab, _) => tool::ab_version_at(program),
        (_, Some(args)) => host::first_line(program, args, VERSION_TIMEOUT),
        // hey prints no version: its Debian package's, when dpkg has it.
        (LoadTool::Hey, None) => host::package_version("hey"),
        (_, None) => None,
    };
    found.unwrap_or_else(|| "unknown".into())
}

/// The `analyze` binary that imports a tool's files: `--analyze`, else the one beside this binary.
fn analyze_binary(args: &RunArgs) -> Result<PathBuf> {
    let path = match &args.analyze {
        Some(p) => p.clone(),
        None => std::env::current_exe()?.with_file_name("analyze"),
    };
    if !path.exists() {
        bail!("{} not found: build the workspace (`cargo build --release`) or pass --analyze FILE", path.display());
    }
    Ok(path)
}

/// Checks everything a run needs and records the environment.
pub fn preflight(plan: &CommandPlan, args: &RunArgs, source: Source) -> Result<Tools> {
    let base_dir = std::env::current_dir()?;
    let found = find_programs(plan, &base_dir, source)?;
    let analyze = match plan.load.tool {
        LoadTool::OpenLoop => None,
        _ => Some(analyze_binary(args)?),
    };
    let mut versions = Environment::new();
    let tool_name = plan.load.tool.as_str();
    match &found.tool {
        Some(program) => {
            versions.insert(format!("{tool_name}_version"), tool_version(plan.load.tool, program));
        }
        None => {
            versions.insert(format!("{tool_name}_version"), host::harness());
        }
    }
    for (name, server) in &plan.servers {
        if let Some(version) = &server.version {
            let (program, rest) = version.split_first().map_or(("", &[][..]), |(p, r)| (p.as_str(), r));
            let args: Vec<&str> = rest.iter().map(String::as_str).collect();
            let line = host::which(&program_path(program, &base_dir)).and_then(|p| host::first_line(&p, &args, VERSION_TIMEOUT));
            versions.insert(format!("{name}_version"), line.unwrap_or_else(|| "unknown".into()));
        }
        if let Some(Some(program)) = found.programs.get(name) {
            // Its name, not where it was found: a path is the user's home or virtual environment, and the
            // dataset is published.
            versions.insert(format!("{name}_program"), host::program_name(program));
            if let Some(sha) = host::file_sha256(program) {
                versions.insert(format!("{name}_sha256"), sha);
            }
        }
    }
    if let Some(code) = &plan.code {
        versions.extend(record_code(code, &base_dir, source)?);
    }
    let mut environment = host::fingerprint();
    environment.extend(versions.clone());
    let pinning = Pinning::for_host(plan.load.pin);
    environment.extend(Pinning::environment(pinning.as_ref(), plan.load.pin));
    environment.insert("measured_on".into(), date_utc(SystemTime::now()));
    environment.insert("harness".into(), host::harness());
    Ok(Tools {
        installed: AnyInstalled::Command(Installed { tool: found.tool, base_dir: base_dir.clone(), pinning }),
        nginx_bin: None,
        analyze,
        app_dir: base_dir,
        environment,
        versions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = include_str!("../../plans/static-file-servers.toml");

    fn found(text: &str) -> Result<Found, BadInputs> {
        let plan = CommandPlan::from_toml(text).unwrap();
        find_programs(&plan, Path::new("/"), Source { path: Path::new("plan.toml"), text })
    }

    #[test]
    fn code_records_its_revision_and_digest_or_says_which_key_failed() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("app.py"), "app = 1\n").unwrap();
        let text = format!("{EXAMPLE}\n[code]\nrevision = [\"sh\", \"-c\", \"echo v1.2-3-gabc\"]\nhash = [\"app.py\"]\n");
        let plan = CommandPlan::from_toml(&text).unwrap();
        let source = Source { path: Path::new("plan.toml"), text: &text };
        let recorded = record_code(plan.code.as_ref().unwrap(), dir.path(), source).unwrap();
        assert_eq!(recorded["code_revision"], "v1.2-3-gabc");
        assert_eq!(recorded["code_sha256"], host::tree_sha256(dir.path(), &["app.py".into()]).unwrap());
        let text = text.replace("echo v1.2-3-gabc", "exit 128").replace("[\"app.py\"]", "[\"app.py\", \"gone\"]");
        let plan = CommandPlan::from_toml(&text).unwrap();
        let source = Source { path: Path::new("plan.toml"), text: &text };
        let err = record_code(plan.code.as_ref().unwrap(), dir.path(), source).unwrap_err().to_string();
        let line = text.lines().position(|l| l.starts_with("revision = ")).unwrap() + 1;
        assert!(
            err.starts_with(&format!("plan.toml:{line}:1: code.revision: `sh -c exit 128` gave no revision: it printed nothing")),
            "{err}"
        );
        assert!(err.contains(&format!("plan.toml:{}:19: code.hash[1]: \"gone\" is not there", line + 1)), "{err}");
    }

    #[test]
    fn finds_the_example_plans_tool_and_servers() {
        let found = found(EXAMPLE).unwrap();
        assert_eq!(found.tool.as_deref(), Some(Path::new("/usr/bin/hey")), "is hey installed?");
        assert_eq!(found.programs["nginx"].as_deref(), Some(Path::new("/usr/sbin/nginx")), "is nginx-light installed?");
        assert!(found.programs["http-server"].as_deref().is_some_and(|p| p.ends_with("python3")));
    }

    #[test]
    fn a_tool_that_is_not_installed_is_named_at_its_line() {
        let text = EXAMPLE.replace("tool = \"hey\"", "tool = \"k6\"\nbinary = \"/nonexistent/k6\"");
        let err = found(&text).unwrap_err().to_string();
        let line = text.lines().position(|l| l.starts_with("binary = ")).unwrap() + 1;
        assert!(
            err.starts_with(&format!(
                "plan.toml:{line}:1: load.binary: k6 is not installed here (/nonexistent/k6 is not an executable file)"
            )),
            "{err}"
        );
        let text = EXAMPLE.replace("tool = \"hey\"", "tool = \"k6\"");
        if host::which(Path::new("k6")).is_none() {
            let err = found(&text).unwrap_err().to_string();
            assert!(
                err.contains(
                    "load.tool: k6 is not installed here (k6 is not an executable file on PATH); install it (see https://grafana.com"
                ),
                "{err}"
            );
        }
    }

    #[test]
    fn a_missing_server_program_is_named_at_its_line() {
        let text = EXAMPLE.replace("command = [\"/usr/bin/python3\"", "command = [\"python3-nonexistent\"");
        let err = found(&text).unwrap_err().to_string();
        let line = text.lines().position(|l| l.contains("python3-nonexistent")).unwrap() + 1;
        assert!(
            err.starts_with(&format!(
                "plan.toml:{line}:12: servers.http-server.command[0]: \"python3-nonexistent\" is not an executable file"
            )),
            "{err}"
        );
    }

    #[test]
    fn a_program_named_by_a_factor_is_checked_for_each_level() {
        let text = EXAMPLE
            .replace("concurrency = [1, 10]", "concurrency = [1, 10]\nbuild = [\"sh\", \"no-such-build\"]")
            .replace("command = [\"/usr/bin/python3\", \"-m\"", "command = [\"{build}\", \"-m\"");
        let err = found(&text).unwrap_err().to_string();
        assert!(err.contains("servers.http-server.command[0]: \"no-such-build\" is not an executable file"), "{err}");
        assert!(!err.contains("\"sh\""), "{err}");
    }
}
