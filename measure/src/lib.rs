//! `measure`: runs a study against real servers on loopback and writes a dataset in the format of
//! `datasets/README.md`. A [`plan::Plan`] is of one of three kinds: the open-loop slow-download study
//! ([`plan::open`]), a closed-loop plan ([`plan::closed`]: app servers driven by ab, hey or seed 003's
//! ramped sessions), or a command plan ([`plan::command`]: any server command under any load tool
//! `analyze import` reads, over a matrix of factors). All go through the same driver; each layer keeps what
//! differs in its `open`, `closed` and `command` modules.
//!
//! Data flows one way: CLI → validated plan → [`study`] (the order of runs, resume, progress) → [`run`] (one
//! run: [`servers`] up, [`load`] and [`sample`] during, rows out) → [`dataset`] (the one place that writes
//! files; `analyze import` adds the rows of ab and hey from their own files). Nothing here computes
//! statistics: that is `analyze`'s job.

pub mod cli;
pub mod clock;
pub mod cpus;
pub mod dataset;
pub mod doctor;
pub mod host;
pub mod init;
pub mod input;
pub mod load;
pub mod plan;
pub mod progress;
pub mod run;
pub mod sample;
pub mod servers;
pub mod study;
