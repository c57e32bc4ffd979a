//! Command-line syntax (clap derive). `main` turns it into a validated plan per subcommand.

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Turns the raw measurements of a web-server latency experiment into a checked, publishable
/// report: nearest-rank percentiles per run, medians and ranges per condition, charts, and a
/// variance review.
#[derive(Debug, Parser)]
#[command(name = "analyze", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Validates a dataset and computes its statistics; prints a summary and every warning; writes nothing.
    Check {
        /// The dataset folder (holding runs.csv and requests.csv).
        dataset: PathBuf,
        /// Exit with status 1 when a run is flagged (errors, lag, host load, outlier, incomplete downloads).
        #[arg(long)]
        strict: bool,
    },
    /// Renders one dataset's report (HTML, Markdown, SVG, JSON, CSV) into a folder.
    Report {
        /// The dataset folder.
        dataset: PathBuf,
        /// The output folder; replaced whole, atomically (it must be empty or written by analyze).
        #[arg(long)]
        out: PathBuf,
        /// The report's language; default from dataset.toml, else English.
        #[arg(long, value_enum)]
        lang: Option<LangArg>,
    },
    /// Renders every dataset under a folder into a publishable site, in both languages.
    Site {
        /// The folder whose sub-folders are datasets.
        #[arg(default_value = "datasets")]
        datasets: PathBuf,
        /// The site folder; replaced whole, atomically.
        #[arg(long, default_value = "site")]
        out: PathBuf,
        /// Rebuild only this dataset's folder (and the index) in an existing site; the other
        /// datasets are read for the index but not rendered.
        #[arg(long, value_name = "DATASET")]
        only: Option<String>,
    },
    /// Imports the output files of one run of ab, hey, wrk, wrk2, siege, Locust, k6, vegeta, oha,
    /// JMeter, autocannon or Artillery, or an HdrHistogram log or percentile distribution, into a
    /// dataset (created when missing) as one run. The format is detected from each
    /// file's content; the files must be of one run and agree with each other; nothing is written
    /// when any file is refused, and the dataset after the import passes `analyze check` or the
    /// import is refused.
    #[command(after_help = crate::import::formats_help())]
    Import {
        /// The files of one invocation of one tool (e.g. ab's -g file and its saved stdout).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The dataset folder to add the run to (created when missing; its parent must exist).
        #[arg(long)]
        into: PathBuf,
        /// The new run's id (surrounding spaces are trimmed, as runs.csv is read).
        #[arg(long)]
        run_id: String,
        /// A factor level of the run, e.g. --factor tool=ab --factor server=nginx (one per factor of the dataset).
        #[arg(long = "factor", value_name = "KEY=VALUE")]
        factors: Vec<String>,
        /// Which repetition of its condition the run is; default: the next free one (1 for a new condition).
        #[arg(long)]
        repetition: Option<i64>,
        /// Force a format instead of detecting it (one of the names below).
        #[arg(long, value_name = "NAME")]
        format: Option<String>,
        /// The run's start (RFC 3339), for outputs that record none (hey, wrk, oha, ab's stdout);
        /// without it such a run's start is "not recorded". A start the files record wins, and a
        /// different --started-at is refused.
        #[arg(long)]
        started_at: Option<String>,
        /// Replace the run with this id (it must exist): its rows in every table are replaced.
        #[arg(long)]
        replace: bool,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum LangArg {
    En,
    Ja,
}

impl From<LangArg> for crate::model::Lang {
    fn from(lang: LangArg) -> Self {
        match lang {
            LangArg::En => crate::model::Lang::En,
            LangArg::Ja => crate::model::Lang::Ja,
        }
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
}
