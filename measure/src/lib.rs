//! `measure`: runs the slow-download experiment against real servers on loopback and writes a dataset in
//! the format of `datasets/README.md`.
//!
//! Data flows one way: CLI → validated [`plan::Plan`] → [`study`] (the order of runs, resume, progress) →
//! [`run`] (one run: [`servers`] up, [`load`] and [`sample`] during, rows out) → [`dataset`] (the one
//! place that writes files). Nothing here computes statistics: that is `analyze`'s job.

pub mod cli;
pub mod clock;
pub mod dataset;
pub mod host;
pub mod load;
pub mod plan;
pub mod progress;
pub mod run;
pub mod sample;
pub mod servers;
pub mod study;
