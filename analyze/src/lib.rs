//! analyze: from a folder of raw latency measurements to a checked, publishable report.
//!
//! Data flows one way: CLI → [`pipeline`] ([`dataset::load`], ingest and validation →
//! [`stats::build`], one [`report::Report`] → the comparison with its baseline) → [`render`] (pure
//! functions to files) → [`output`] (the one atomic writer, `outdir`). The layers, bottom up, and
//! the test that holds them: docs/architecture.md.

pub mod cli;
pub mod cmd;
pub mod dataset;
pub mod import;
pub mod model;
pub mod output;
pub mod pipeline;
pub mod render;
pub mod report;
pub mod stats;
pub mod terminal;

pub use report::Report;
