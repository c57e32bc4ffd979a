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
        /// Exit with status 1 when a condition fails a service-level objective of dataset.toml
        /// ([[slo]]), or has no ok run to judge it by.
        #[arg(long)]
        slo: bool,
        /// List every condition and every flagged run; without it, the first 50 of each are
        /// listed and the rest counted.
        #[arg(long)]
        all: bool,
    },
    /// Compares two measurements of the same conditions, a baseline and a candidate (before and
    /// after a change, or a re-measurement): per matched condition, both sides' runs of the
    /// baseline's headline metric, the ratio of geometric means candidate/baseline with its 95%
    /// interval and p, and a verdict. Exit status 1 when --fail-on-regression finds a supported
    /// regression, 2 on bad input, 3 when the two are incomparable (an [environment] key that
    /// must match differs: the CPU, its count, the kernel's major version, a tool or server
    /// version).
    Compare {
        /// The baseline dataset folder.
        baseline: PathBuf,
        /// The candidate dataset folder.
        candidate: PathBuf,
        /// Also write the comparison into this folder: compare.json, and per language the page,
        /// its Markdown twin and one chart per condition. Replaced whole, atomically.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Match conditions whose names differ. OLD=NEW: the baseline's factor OLD is the
        /// candidate's NEW. FACTOR:OLD=NEW: a level of FACTOR; FACTOR:=LEVEL when the baseline
        /// lacks the factor (its runs count as LEVEL), FACTOR:LEVEL= when the candidate does.
        /// Rules apply together, so names can swap (--match route=worker --match worker=route;
        /// --match route:a=b --match route:b=a); a rule that would make two factors or two
        /// levels one is refused. E.g. --match route=path --match path:nginx-on=nginx
        #[arg(long = "match", value_name = "RULE")]
        rules: Vec<String>,
        /// Exit with status 1 when a condition is supported worse by more than this (10% or 10):
        /// the whole 95% interval beyond it. Where higher is better (requests/s), a regression
        /// is a fall. Failed requests are judged first: a supported rise of the share of
        /// requests without a 2xx response beyond the baseline's thresholds.error_share (or no
        /// 2xx response at all), or a condition the candidate has no ok run of, fails it too.
        #[arg(long, value_name = "PCT", value_parser = regression_threshold)]
        fail_on_regression: Option<f64>,
        /// An [environment] key that may differ without making the pair incomparable (exit 3),
        /// e.g. --allow-env kernel after a kernel update you mean to measure across.
        #[arg(long = "allow-env", value_name = "KEY")]
        allow_env: Vec<String>,
        /// A re-measurement of the baseline (same code, another sitting). The baseline's sittings
        /// give the sitting-to-sitting variance, which every verdict then allows for; and the
        /// baseline against each is an A/A pair, on which the gate's false-alarm rate is measured
        /// (compare.json's gate.empirical_false_alarm). Repeatable.
        #[arg(long = "aa", value_name = "DATASET")]
        aa: Vec<PathBuf>,
        /// A re-measurement of the candidate (same code, another sitting): with it the verdicts
        /// compare several sittings a side, each sitting's mean a unit (the baseline's sittings
        /// are it and its --aa ones). Repeatable.
        #[arg(long = "bb", value_name = "DATASET")]
        bb: Vec<PathBuf>,
        /// What to print: a text summary, Markdown for a pull-request comment, or compare.json.
        #[arg(long, value_enum, default_value_t = CompareFormat::Text)]
        format: CompareFormat,
        /// The language of the printed summary.
        #[arg(long, value_enum, default_value_t = LangArg::En)]
        lang: LangArg,
    },
    /// Follows many measurements of one study over time (each a dataset: a sitting, a build, a
    /// day): every run a point, per condition and the headline metric, and the changes between
    /// measurements that their runs support (change points by binary segmentation with
    /// permutation tests, Benjamini-Hochberg over the conditions; a change must hold for two
    /// measurements). Exit status 3 when two consecutive measurements' environments differ in a
    /// key that must match, 2 on bad input.
    History {
        /// The measurements: dataset folders, in any order.
        #[arg(required = true, num_args = 2..)]
        datasets: Vec<PathBuf>,
        /// Also write the history into this folder: history.json, and per language the page,
        /// its Markdown twin and one trend chart per condition. Replaced whole, atomically.
        #[arg(long)]
        out: Option<PathBuf>,
        /// What orders the measurements: each one's earliest run, or dataset.toml's
        /// history.revision (numbers within it compared as numbers: v1.9 before v1.10).
        #[arg(long, value_enum, default_value_t = HistoryOrder::StartedAt)]
        by: HistoryOrder,
        /// An [environment] key that may differ between measurements (see compare).
        #[arg(long = "allow-env", value_name = "KEY")]
        allow_env: Vec<String>,
        /// What to print: a text summary, Markdown, or history.json.
        #[arg(long, value_enum, default_value_t = CompareFormat::Text)]
        format: CompareFormat,
        /// The language of the printed summary.
        #[arg(long, value_enum, default_value_t = LangArg::En)]
        lang: LangArg,
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

/// What `analyze compare` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CompareFormat {
    Text,
    Md,
    Json,
}

/// `analyze history --by`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum HistoryOrder {
    #[value(name = "started_at")]
    StartedAt,
    Revision,
}

/// `--fail-on-regression`: a percentage, `10%` or `10`, from 0 up to (not including) 100, as a
/// fraction.
pub fn regression_threshold(text: &str) -> Result<f64, String> {
    let number = text.trim().strip_suffix('%').unwrap_or(text.trim());
    match number.parse::<f64>() {
        Ok(pct) if pct.is_finite() && (0.0..100.0).contains(&pct) => Ok(pct / 100.0),
        _ => Err(format!("{text:?} is not a percentage from 0 to below 100 (e.g. 10% or 10)")),
    }
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

    #[test]
    fn regression_thresholds_read_with_or_without_percent() {
        assert_eq!(regression_threshold("10%"), Ok(0.1));
        assert_eq!(regression_threshold("10"), Ok(0.1));
        assert_eq!(regression_threshold("0"), Ok(0.0));
        for bad in ["-5", "100", "ten", "nan", "10%%", ""] {
            assert!(regression_threshold(bad).is_err(), "{bad}");
        }
    }
}
