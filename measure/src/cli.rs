//! Command-line syntax (clap derive). Turning these paths into a validated plan is [`crate::study`]'s job.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// Measure web servers on loopback: how slow downloads delay other requests to Gunicorn (the default
/// study), app servers under the load tools of closed-loop plans, or any server command under any load
/// tool `analyze import` reads (command plans; `measure init` writes one to start from).
#[derive(Debug, Parser)]
#[command(name = "measure", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run every run of a plan (about 6-8 minutes for the default study; measure/plans/README.md lists the
    /// others) and write the dataset.
    Run(RunArgs),
    /// Write a commented example plan for your own server (a command plan) to start from.
    Init(InitArgs),
    /// A/A rounds of a command plan's first condition with pinning and a warm-up each on and off: what
    /// each knob does to the run-to-run spread, with its 95% interval and the change it lets you detect.
    Doctor(DoctorArgs),
}

/// Options of `measure doctor`.
#[derive(Debug, Clone, Args)]
pub struct DoctorArgs {
    /// The command plan whose first condition is run.
    #[arg(long, value_name = "FILE")]
    pub plan: PathBuf,

    /// Rounds; each runs the condition once under each of the 4 settings (2 to 100).
    #[arg(long, default_value_t = 6)]
    pub rounds: u32,

    /// The folder of the four datasets (and their reports); new or empty. Default: the plan's dataset
    /// with `-doctor` appended.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Print what would run and its expected duration, and start nothing.
    #[arg(long)]
    pub dry_run: bool,

    /// The `analyze` binary that imports the tool's files and reads the datasets back. Default: the one
    /// beside this `measure` binary.
    #[arg(long, value_name = "FILE")]
    pub analyze: Option<PathBuf>,
}

/// Options of `measure init`.
#[derive(Debug, Clone, Args)]
pub struct InitArgs {
    /// The plan file to write (refused when it exists).
    #[arg(value_name = "FILE", default_value = "measure-plan.toml")]
    pub file: PathBuf,

    /// Write a plan that compares two builds of one server in one sitting instead ("did my change make it
    /// slower"): OLD and NEW are their command lines, split as a shell would (quote an argument with
    /// spaces), each listening at `{port}` (also in $PORT). Both run once per round, in a fresh shuffled
    /// order, and the report compares them within rounds.
    #[arg(long, num_args = 2, value_names = ["OLD", "NEW"])]
    pub compare: Option<Vec<String>>,

    /// With --compare: the rounds (each runs both builds once). 6 is the fewest that can decide; more
    /// detect smaller changes (measure/plans/README.md, "Did my change make it slower").
    #[arg(long, value_name = "N", default_value_t = crate::init::DEFAULT_ROUNDS, requires = "compare")]
    pub rounds: u32,
}

/// Options of `measure run`. Relative defaults assume the repository root as working directory.
#[derive(Debug, Clone, Args)]
pub struct RunArgs {
    /// The plan (TOML). Default: measure/plans/study.toml; with --resume, the dataset's own plan.toml.
    /// A plan with `kind = "closed-loop"` runs app servers under ab, hey or sessions. With --resume, a
    /// plan of the dataset's kind and factors (e.g. a fixed server command) goes on with the dataset: the
    /// conditions whose recipe it changes are measured again whole, the old runs set aside.
    #[arg(long, value_name = "FILE")]
    pub plan: Option<PathBuf>,

    /// The dataset folder to write: missing or empty for a new study. Default: the plan's `dataset`
    /// (closed-loop plans), else datasets/gunicorn-slow-client.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Complete the runs of an existing dataset that are not `ok` yet, keeping the finished ones (a run of
    /// another recipe than its condition's now is set aside, and its condition measured again whole).
    #[arg(long)]
    pub resume: bool,

    /// Before each run, wait (bounded by the plan's idle_wait_max_s) until the load average is low.
    #[arg(long)]
    pub wait_for_idle: bool,

    /// Print the conditions, the run order and the expected duration, and start nothing, write nothing.
    #[arg(long)]
    pub dry_run: bool,

    /// The Python virtual environment holding Gunicorn; created with `python3 -m venv` when missing.
    #[arg(long, value_name = "DIR", default_value = "measure/.venv")]
    pub venv: PathBuf,

    /// The folder holding the WSGI app (app.py; the closed-loop apps are in its `closed/`).
    #[arg(long, value_name = "DIR", default_value = "measure/app")]
    pub app: PathBuf,

    /// Closed-loop plans: the folder of the virtual environments, one per interpreter label.
    #[arg(long, value_name = "DIR", default_value = "measure/.venvs")]
    pub venvs: PathBuf,

    /// Closed-loop plans: run on this interpreter instead of the plan's (repeatable), e.g.
    /// `--python 3.14t=/opt/python3.14t/bin/python3.14t`; the conditions then use exactly these labels.
    #[arg(long = "python", value_name = "LABEL=PATH")]
    pub pythons: Vec<String>,

    /// Closed-loop plans with ab or hey: the `analyze` binary that imports the tool's files. Default: the
    /// one beside this `measure` binary.
    #[arg(long, value_name = "FILE")]
    pub analyze: Option<PathBuf>,
}

impl RunArgs {
    /// The output folder: `--out`, else `default`.
    pub fn out_or(&self, default: &str) -> PathBuf {
        self.out.clone().unwrap_or_else(|| PathBuf::from(default))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn verify_cli() {
        Cli::command().debug_assert();
    }

    #[test]
    fn run_defaults_point_at_the_study() {
        let cli = Cli::try_parse_from(["measure", "run"]).unwrap();
        let Command::Run(args) = cli.command else { panic!("run") };
        assert_eq!(args.plan, None);
        assert_eq!(args.out, None);
        assert_eq!(args.out_or("datasets/gunicorn-slow-client"), PathBuf::from("datasets/gunicorn-slow-client"));
        assert!(args.pythons.is_empty());
        assert!(!args.resume && !args.wait_for_idle && !args.dry_run);
    }

    #[test]
    fn init_writes_measure_plan_toml_unless_told_otherwise() {
        let Command::Init(args) = Cli::try_parse_from(["measure", "init"]).unwrap().command else { panic!("init") };
        assert_eq!(args.file, PathBuf::from("measure-plan.toml"));
        let Command::Init(args) = Cli::try_parse_from(["measure", "init", "mine.toml"]).unwrap().command else { panic!("init") };
        assert_eq!(args.file, PathBuf::from("mine.toml"));
    }

    #[test]
    fn pythons_repeat() {
        let cli = Cli::try_parse_from(["measure", "run", "--python", "3.14=/a/python3.14", "--python", "3.14t=/a/python3.14t"]).unwrap();
        let Command::Run(args) = cli.command else { panic!("run") };
        assert_eq!(args.pythons, ["3.14=/a/python3.14", "3.14t=/a/python3.14t"]);
    }
}
