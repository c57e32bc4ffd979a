//! `measure`: runs a study against real servers on loopback and writes a dataset in the format of
//! `datasets/README.md`. A [`plan::Plan`] is of one of two kinds: the open-loop slow-download study
//! ([`plan::open`]) or a closed-loop plan ([`plan::closed`]: app servers driven by ab, hey or seed 003's
//! ramped sessions). Both go through the same driver; each layer keeps what differs in its `open` and
//! `closed` modules.
//!
//! Data flows one way: CLI → validated plan → [`study`] (the order of runs, resume, progress) → [`run`] (one
//! run: [`servers`] up, [`load`] and [`sample`] during, rows out) → [`dataset`] (the one place that writes
//! files; `analyze import` adds the rows of ab and hey from their own files). Nothing here computes
//! statistics: that is `analyze`'s job.

pub mod cli;
pub mod clock;
pub mod dataset;
pub mod host;
pub mod input;
pub mod load;
pub mod plan;
pub mod progress;
pub mod run;
pub mod sample;
pub mod servers;
pub mod study;
