//! The progress bar of a long read of the requests table, on stderr, shown only for a large input
//! on a terminal (never in tests, pipes or CI logs).

use std::io::IsTerminal;

/// For `total_bytes` of CSV.
pub(crate) fn progress_bar_bytes(total_bytes: u64) -> indicatif::ProgressBar {
    progress(total_bytes, total_bytes >= 256 << 20, "{bytes}/{total_bytes}")
}

/// For `total_rows` rows of Parquet.
pub(crate) fn progress_bar_rows(total_rows: u64) -> indicatif::ProgressBar {
    progress(total_rows, total_rows >= 10_000_000, "{human_pos}/{human_len} rows")
}

fn progress(total: u64, large: bool, counts: &str) -> indicatif::ProgressBar {
    if !large || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!("reading requests {{bar:30}} {counts} ({{eta}} left)"))
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}
