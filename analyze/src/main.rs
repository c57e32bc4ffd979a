use analyze::cli::{Cli, Command};
use analyze::cmd;
use clap::Parser;

fn main() {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Check(args) => cmd::check::run(&args.dataset, args.strict, args.slo, args.all),
        Command::Compare(args) => cmd::compare::run(&args),
        Command::History(args) => cmd::history::run(&args),
        Command::Report(args) => cmd::report::run(&args.dataset, &args.out, args.lang.map(Into::into)),
        Command::Site(args) => cmd::site::run(&args.datasets, &args.out, args.only.as_deref()),
        Command::Import(args) => cmd::import::run(&args),
    };
    match outcome {
        Ok(code) => std::process::exit(code),
        Err(error) => {
            eprintln!("error: {}", analyze::terminal::escape(&format!("{error:#}")));
            std::process::exit(cmd::EXIT_ERRORS);
        }
    }
}
