//! The `measure` binary: parse, dispatch, print the error chain once, choose the exit code.

use clap::Parser;
use measure::cli::{Cli, Command};
use measure::input::{bad_input_report, is_bad_input};
use measure::servers::supervisor;
use measure::study::{self, StudyEnd};
use std::process::ExitCode;

fn main() -> ExitCode {
    // A server's supervisor is this binary again (measure/src/servers/supervisor.rs).
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == supervisor::SUBCOMMAND) {
        return supervisor::main(&args[2..]);
    }
    supervisor::enable();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run(args) => study::run_study(&args),
        Command::Init(args) => measure::init::init(&args).map(|()| StudyEnd::Complete),
        Command::Doctor(args) => measure::doctor::run(&args),
    };
    match result {
        Ok(StudyEnd::Complete) => ExitCode::SUCCESS,
        // 128 + SIGINT, as a shell reports a Ctrl-C.
        Ok(StudyEnd::Interrupted) => ExitCode::from(130),
        Ok(StudyEnd::Aborted) => ExitCode::from(1),
        Err(err) => {
            match bad_input_report(&err) {
                // Each problem on its own line, at its place; what the caller added after.
                Some(report) => eprint!("{report}"),
                None => eprintln!("error: {err:#}"),
            }
            // Bad input (a plan, a dataset to resume) is 2, as in analyze; a failure of the run is 1.
            ExitCode::from(if is_bad_input(&err) { 2 } else { 1 })
        }
    }
}
