use analyze::cli::{Cli, Command};
use analyze::cmd;
use clap::Parser;

fn main() {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Check { dataset, strict, slo, all } => cmd::check::run(&dataset, strict, slo, all),
        Command::Compare { baseline, candidate, out, rules, fail_on_regression, allow_env, aa, bb, format, lang } => {
            cmd::compare::run(&cmd::compare::Options {
                baseline: &baseline,
                candidate: &candidate,
                out: out.as_deref(),
                rules: &rules,
                fail_on_regression,
                allow_env: &allow_env,
                aa: &aa,
                bb: &bb,
                format,
                lang: lang.into(),
            })
        }
        Command::History { datasets, out, by, allow_env, format, lang } => cmd::history::run(&cmd::history::Options {
            datasets: &datasets,
            out: out.as_deref(),
            by,
            allow_env: &allow_env,
            format,
            lang: lang.into(),
        }),
        Command::Report { dataset, out, lang } => cmd::report::run(&dataset, &out, lang.map(Into::into)),
        Command::Site { datasets, out, only } => cmd::site::run(&datasets, &out, only.as_deref()),
        Command::Import { files, into, run_id, factors, repetition, format, started_at, replace } => {
            cmd::import::run(&cmd::import::Options {
                files: &files,
                into: &into,
                run_id: &run_id,
                factors: &factors,
                repetition,
                format: format.as_deref(),
                started_at: started_at.as_deref(),
                replace,
            })
        }
    };
    match outcome {
        Ok(code) => std::process::exit(code),
        Err(error) => {
            eprintln!("error: {}", analyze::terminal::escape(&format!("{error:#}")));
            std::process::exit(cmd::EXIT_ERRORS);
        }
    }
}
