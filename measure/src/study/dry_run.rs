//! `measure run --dry-run`: what a study would do, without starting or writing anything: its conditions
//! (for a command plan, each with its server's command and the load's command line), the runs in the
//! order they would go with the ids they would get (and, in a plan in rounds, each run's round), and the
//! expected duration. A command plan's tool and server programs are looked for first, so a missing one is
//! refused here as it would be by a run.

use super::command::{find_programs, Source};
use super::{next_run_number, pending_slots};
use crate::dataset::rows::{RunRow, RunStatus};
use crate::load::tool;
use crate::plan::command::{CommandPlan, LoadTool};
use crate::plan::{Condition, Order, Plan};
use crate::progress::format_duration;
use anyhow::Result;
use std::fmt::Write as _;
use std::path::Path;

/// The text `--dry-run` prints.
pub fn describe(plan: &Plan, source: Source, out: &Path, resume: bool, runs: &[RunRow]) -> Result<String> {
    let mut t = String::new();
    let _ = writeln!(t, "plan: {} ({})", source.path.display(), plan.kind());
    let ok = runs.iter().filter(|r| r.status == RunStatus::Ok).count();
    let state = if resume { format!("resumed: {ok} of its runs ok") } else { "new".into() };
    let _ = writeln!(t, "dataset: {} ({state})", out.display());
    let conditions = plan.conditions();
    let order = plan.run_order();
    let _ = writeln!(t, "\n{} conditions x {} repetitions = {} runs:", conditions.len(), plan.repetitions(), order.len());
    if let Plan::Command(p) = plan {
        let base = std::env::current_dir()?;
        let found = find_programs(p, &base, source)?;
        let program = found.tool.as_deref().map_or_else(|| p.load.tool.as_str().to_string(), |t| t.display().to_string());
        for condition in &conditions {
            let _ = writeln!(t, "  {condition}");
            for line in command_lines(p, condition, &program) {
                let _ = writeln!(t, "    {line}");
            }
        }
    } else {
        for condition in &conditions {
            let _ = writeln!(t, "  {condition}");
        }
    }
    let pending = pending_slots(&order, runs);
    let first = next_run_number(runs) as usize;
    let width = order.len().to_string().len().max(2);
    let how = match plan.order() {
        Order::Rounds => format!("seed {}, in rounds: each round runs every condition once, in its own shuffled order", plan.seed()),
        Order::Shuffled => format!("seed {}", plan.seed()),
    };
    let _ = writeln!(t, "\nrun order ({how}), {} of {} runs to go:", pending.len(), order.len());
    for (i, slot) in pending.iter().enumerate() {
        let which = match slot.round(plan.order()) {
            Some(round) => format!("round {round}"),
            None => format!("repetition {}", slot.repetition),
        };
        let _ = writeln!(t, "  r{:0width$}  {}  ({which})", first + i, slot.condition);
    }
    let _ = writeln!(t, "\n{}", duration_line(plan, pending.len()));
    let _ = writeln!(t, "nothing was started or written (--dry-run)");
    Ok(t)
}

/// A condition's server command and load, placeholders of the run (`{port}`, `{run_dir}`) as written.
fn command_lines(plan: &CommandPlan, condition: &Condition, program: &str) -> Vec<String> {
    let crate::plan::Condition::Command(c) = condition else { return Vec::new() };
    let mut lines = Vec::new();
    if let Some((name, server)) = plan.server_of(c) {
        let command: Vec<String> = server.command.iter().map(|arg| with_levels(arg, c)).collect();
        lines.push(format!("server {name}: {}", command.join(" ")));
    }
    if let Ok(load) = plan.load_of(c) {
        let url = format!("http://127.0.0.1:{{port}}{}", load.path);
        let line = match load.tool {
            LoadTool::OpenLoop => format!(
                "load: measure's open-loop client, {} requests at {}/s to {url}",
                load.asked_requests().unwrap_or(0),
                load.rate.unwrap_or(0)
            ),
            _ => match tool::invocation(&load, Path::new(program), &url, Path::new("{raw_dir}"), crate::host::cpus()) {
                Some(inv) => format!("load: {}", inv.display()),
                None => String::new(),
            },
        };
        lines.push(line);
    }
    lines
}

/// `text` with the condition's levels filled in and the run's own placeholders left as written.
fn with_levels(text: &str, condition: &crate::plan::command::Condition) -> String {
    use crate::plan::template::{pieces, Piece};
    pieces(text)
        .into_iter()
        .map(|p| match p {
            Piece::Text(t) => t.to_string(),
            Piece::Name(n) => condition.level(n).map_or_else(|| format!("{{{n}}}"), str::to_owned),
        })
        .collect()
}

/// The expected duration of `runs` runs, and what it rests on.
fn duration_line(plan: &Plan, runs: usize) -> String {
    if runs == 0 {
        return format!("nothing to run: all {} runs are ok", plan.run_order().len());
    }
    let per_run = plan.estimated_run();
    let total = per_run * runs as u32;
    match plan {
        Plan::Command(p) if p.load_length_known() => format!(
            "expected duration: about {} ({runs} runs of about {}: the planned load plus about 2 s to start and stop the server)",
            format_duration(total),
            format_duration(per_run)
        ),
        Plan::Command(p) => format!(
            "expected duration: unknown beforehand: each run's load lasts as long as the server takes to answer it \
             (bounded by load.run_timeout_s = {} s); about {} if each took a quarter of that, at most {} \
             (each run's server start, load and stop at their bounds)",
            p.load.run_timeout_s,
            format_duration(total),
            format_duration(p.run_at_most() * runs as u32)
        ),
        _ => format!("expected duration: about {} ({runs} runs of about {})", format_duration(total), format_duration(per_run)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_most_counts_each_runs_server_start_load_and_stop_grace() {
        let text = include_str!("../../plans/static-file-servers.toml");
        let plan = Plan::parse(text).unwrap();
        let Plan::Command(p) = &plan else { panic!("a command plan") };
        // nginx: ready 20 s + grace 10 s (its defaults); http-server the same; the load's bound is 60 s.
        assert_eq!((p.load.run_timeout_s, p.servers["nginx"].ready_timeout_s, p.servers["nginx"].stop_grace_s), (60, 20, 10));
        let line = duration_line(&plan, 2);
        assert!(line.contains("at most 3m 00s (each run's server start, load and stop at their bounds)"), "{line}");
    }
}
