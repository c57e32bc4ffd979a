//! The `measure` binary: parse, dispatch, print the error chain once, choose the exit code.

use clap::Parser;
use measure::cli::{Cli, Command};
use measure::study::{self, StudyEnd};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run(args) => study::run_study(&args),
    };
    match result {
        Ok(StudyEnd::Complete) => ExitCode::SUCCESS,
        // 128 + SIGINT, as a shell reports a Ctrl-C.
        Ok(StudyEnd::Interrupted) => ExitCode::from(130),
        Ok(StudyEnd::Aborted) => ExitCode::from(1),
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(1)
        }
    }
}
