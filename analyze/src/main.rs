use analyze::cli::{Cli, Command};
use analyze::cmd;
use clap::Parser;

fn main() {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Check { dataset, strict } => cmd::check::run(&dataset, strict),
        Command::Report { dataset, out, lang } => cmd::report::run(&dataset, &out, lang.map(Into::into)),
        Command::Site { datasets, out, only } => cmd::site::run(&datasets, &out, only.as_deref()),
    };
    match outcome {
        Ok(code) => std::process::exit(code),
        Err(error) => {
            eprintln!("error: {}", analyze::terminal::escape(&format!("{error:#}")));
            std::process::exit(cmd::EXIT_ERRORS);
        }
    }
}
