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
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum LangArg {
    En,
    Ja,
}

impl From<LangArg> for crate::dataset::Lang {
    fn from(lang: LangArg) -> Self {
        match lang {
            LangArg::En => crate::dataset::Lang::En,
            LangArg::Ja => crate::dataset::Lang::Ja,
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
