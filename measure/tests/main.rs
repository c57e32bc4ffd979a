//! Every integration test of measure, in one test binary: one link instead of 11, and
//! the shared helpers compiled once. Each file is a module named after it; run one with
//! `cargo test -p measure --test integration <file>::`.

mod autocannon;
mod bad_input;
mod closed;
mod command;
mod common;
mod knobs;
mod lifecycle;
mod open_loop;
mod paired;
mod rounds;
mod servers;
mod smoke;
