//! Command plans (`kind = "command"`): any server a user can start with a command line, under any load
//! tool `analyze import` reads (or measure's own open-loop client), over a matrix of factors.
//!
//! A command plan names its servers by their argv (no shell), with `{port}` and the other placeholders of
//! [`template`](super::template) filled in per run; its `[factors]` are lists of levels whose product, less
//! the `[[exclude]]` rules, is the set of conditions; a factor is substituted wherever its `{name}` is
//! written (a server's command, env, files, and the load's settings). The keys are parsed strictly
//! (`deny_unknown_fields`) and checked once by [`validate`](CommandPlan::validate), which names every problem
//! by its key path so the error can say the file, line and key.

mod de;
pub mod load;
mod validate;

pub use super::Problem;
pub use load::{Connection, LoadTool, Param, RunLoad};

use super::locate::KeyPath;
use super::{Host, Sampling, Text};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

/// The `kind` of a command plan.
pub const KIND: &str = "command";

/// The placeholders every server string may use besides the factors: the run's own values.
pub const RUN_NAMES: [&str; 5] = ["port", "host", "run_dir", "raw_dir", "run_id"];

/// The factor that picks a `[servers.NAME]`, when the plan has more than one server.
pub const SERVER_FACTOR: &str = "server";

/// The whole recipe; `plans/static-file-servers.toml` and `measure init`'s plan show every key in use.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandPlan {
    /// Always [`KIND`].
    pub kind: String,
    /// Where `measure run` writes the dataset unless `--out` says otherwise.
    pub dataset: String,
    pub title: Text,
    pub description: Text,
    /// Seeds the shuffle of the run order.
    pub seed: u64,
    /// Runs per condition.
    pub repetitions: u32,
    /// How the runs are ordered (`"rounds"` or `"shuffled"`); none: shuffled, as before rounds.
    #[serde(default)]
    pub order: Option<crate::plan::Order>,
    /// The factor on the report's x axis; default: the last factor other than `server`.
    pub x: Option<String>,
    /// Factor name → its levels, in the plan's order (the order of runs.csv's columns).
    pub factors: Factors,
    /// How the report names a factor (default: its name).
    #[serde(default)]
    pub factor_labels: BTreeMap<String, Text>,
    /// Conditions left out of the product: each rule names levels of some factors, and a condition
    /// having all of them is excluded.
    #[serde(default)]
    pub exclude: Vec<BTreeMap<String, Levels>>,
    /// Server name → how to start it.
    pub servers: BTreeMap<String, Server>,
    pub load: load::Load,
    #[serde(default = "default_sampling")]
    pub sampling: Sampling,
    #[serde(default = "default_host")]
    pub host: Host,
    /// dataset.toml's `[report]`, passed through as written (analyze checks its keys when it reads the
    /// dataset); none: the headline that fits the load ([`CommandPlan::report`]).
    #[serde(default)]
    pub report: Option<toml::Table>,
    /// Which code was measured, recorded in dataset.toml.
    pub code: Option<Code>,
}

/// `[code]`: what records the code a study measured (the venv's launcher a server's command names says
/// nothing of the app it loads).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Code {
    /// A command whose first line on stdout names the revision (`["git", "rev-parse", "HEAD"]`), run once
    /// before the study in the folder measure runs in: `code_revision` in `[environment]` and dataset.toml's
    /// `[history] revision`, which `analyze history --by revision` orders by.
    pub revision: Option<Vec<String>>,
    /// Files and folders, relative to the folder measure runs in, whose content is hashed into `code_sha256`.
    #[serde(default)]
    pub hash: Vec<String>,
    /// The history the measurement belongs to (`[history] series`); default: the plan's English title.
    pub series: Option<String>,
}

fn default_sampling() -> Sampling {
    Sampling { interval_ms: 200 }
}

fn default_host() -> Host {
    Host { load1_per_cpu_max: 0.5, idle_wait_max_s: 60 }
}

/// `[factors]`: each key with its levels, in the order the plan writes them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Factors(pub Vec<(String, Vec<String>)>);

/// One level or a list of them (a TOML string or integer each), as text.
#[derive(Debug, Clone, PartialEq)]
pub struct Levels(pub Vec<String>);

/// How to start one server, stop it, and know it is ready.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Server {
    /// The program and its arguments (argv: no shell). A program without a `/` is looked up on PATH; a
    /// relative one is taken from the folder measure runs in.
    pub command: Vec<String>,
    /// The server's working directory (default: the folder measure runs in).
    pub cwd: Option<String>,
    /// Extra environment variables (the rest of measure's environment is inherited).
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// Files written into the run's folder before the server starts: relative path → text.
    #[serde(default)]
    pub files: BTreeMap<String, String>,
    /// `"tcp"`: ready once `{port}` accepts a connection; a path (`"/health"`): once `GET path` answers with a
    /// 2xx status.
    #[serde(default = "default_ready")]
    pub ready: String,
    /// How long the server may take to become ready.
    #[serde(default = "default_ready_timeout")]
    pub ready_timeout_s: u64,
    /// The signal that stops it gracefully: TERM, INT, QUIT, HUP, USR1, USR2, WINCH or KILL.
    #[serde(default = "default_stop_signal")]
    pub stop_signal: String,
    /// How long it may take to stop before measure sends SIGKILL to its process group.
    #[serde(default = "default_grace")]
    pub stop_grace_s: u64,
    /// A command printing the server's version (run once before the study, its first line recorded).
    pub version: Option<Vec<String>>,
    /// How the report names it (default: its name).
    pub label: Option<Text>,
}

fn default_ready() -> String {
    "tcp".into()
}

fn default_ready_timeout() -> u64 {
    20
}

fn default_stop_signal() -> String {
    "TERM".into()
}

fn default_grace() -> u64 {
    10
}

/// How a server's readiness is checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ready {
    /// `{port}` accepts a TCP connection.
    Tcp,
    /// `GET path` answers with a 2xx status.
    Http(String),
}

impl Server {
    /// The readiness check (validated: `tcp` or a path).
    pub fn ready(&self) -> Ready {
        if self.ready == "tcp" {
            Ready::Tcp
        } else {
            Ready::Http(self.ready.clone())
        }
    }

    /// The stop signal's number (validated).
    pub fn stop_signal(&self) -> libc::c_int {
        signal_number(&self.stop_signal).unwrap_or(libc::SIGTERM)
    }

    /// Every string of the server that placeholders may be written in, with its key path under `base`.
    pub fn templated<'a>(&'a self, base: &KeyPath) -> Vec<(KeyPath, &'a str)> {
        let mut out: Vec<(KeyPath, &str)> =
            self.command.iter().enumerate().map(|(i, arg)| (base.key("command").index(i), arg.as_str())).collect();
        if let Some(cwd) = &self.cwd {
            out.push((base.key("cwd"), cwd));
        }
        out.extend(self.env.iter().map(|(k, v)| (base.key("env").key(k), v.as_str())));
        out.extend(self.files.iter().map(|(k, v)| (base.key("files").key(k), v.as_str())));
        out
    }
}

/// The signals a server may be stopped with, by name.
const SIGNALS: [(&str, libc::c_int); 8] = [
    ("TERM", libc::SIGTERM),
    ("INT", libc::SIGINT),
    ("QUIT", libc::SIGQUIT),
    ("HUP", libc::SIGHUP),
    ("USR1", libc::SIGUSR1),
    ("USR2", libc::SIGUSR2),
    ("WINCH", libc::SIGWINCH),
    ("KILL", libc::SIGKILL),
];

/// `TERM` or `SIGTERM` → its number.
pub fn signal_number(name: &str) -> Option<libc::c_int> {
    let name = name.strip_prefix("SIG").unwrap_or(name);
    SIGNALS.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}

/// One combination of factor levels: (factor, level) in the plan's factor order.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Condition(pub Vec<(String, String)>);

impl Condition {
    /// The level of `factor`.
    pub fn level(&self, factor: &str) -> Option<&str> {
        self.0.iter().find(|(f, _)| f == factor).map(|(_, l)| l.as_str())
    }

    /// The levels in factor order (runs.csv's cells).
    pub fn levels(&self) -> Vec<String> {
        self.0.iter().map(|(_, l)| l.clone()).collect()
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pairs: Vec<String> = self.0.iter().map(|(k, v)| format!("{k}={v}")).collect();
        f.write_str(&pairs.join(", "))
    }
}

/// Whether plan text is a command plan (it says `kind = "command"`).
pub fn is_command(text: &str) -> bool {
    text.parse::<toml::Table>().is_ok_and(|t| t.get("kind").and_then(|k| k.as_str()) == Some(KIND))
}

impl CommandPlan {
    /// Parses plan text (TOML errors only; [`CommandPlan::validate`] checks the rest).
    pub fn from_toml(text: &str) -> Result<CommandPlan, toml::de::Error> {
        toml::from_str(text)
    }

    /// The factor names, in runs.csv order.
    pub fn factor_names(&self) -> Vec<String> {
        self.factors.0.iter().map(|(name, _)| name.clone()).collect()
    }

    /// Every condition: the product of the factors' levels (the first factor varying slowest), less the
    /// excluded ones.
    pub fn conditions(&self) -> Vec<Condition> {
        let mut out: Vec<Condition> = vec![Condition(Vec::new())];
        for (name, levels) in &self.factors.0 {
            out = out
                .into_iter()
                .flat_map(|c| {
                    levels.iter().map(move |level| {
                        let mut pairs = c.0.clone();
                        pairs.push((name.clone(), level.clone()));
                        Condition(pairs)
                    })
                })
                .collect();
        }
        out.retain(|c| !self.exclude.iter().any(|rule| excludes(rule, c)));
        out
    }

    /// The name of the server a condition runs, and its settings (the `server` factor's level, or the
    /// plan's one server).
    pub fn server_of(&self, condition: &Condition) -> Option<(&str, &Server)> {
        match condition.level(SERVER_FACTOR) {
            Some(name) => self.servers.get_key_value(name).map(|(k, v)| (k.as_str(), v)),
            None if self.servers.len() == 1 => self.servers.iter().next().map(|(k, v)| (k.as_str(), v)),
            None => None,
        }
    }

    /// The servers in the report's order: the `server` factor's, else the one server.
    pub fn server_names(&self) -> Vec<String> {
        match self.factors.0.iter().find(|(name, _)| name == SERVER_FACTOR) {
            Some((_, levels)) => levels.clone(),
            None => self.servers.keys().cloned().collect(),
        }
    }

    /// The server's label for the report.
    pub fn server_label(&self, name: &str) -> Text {
        self.servers.get(name).and_then(|s| s.label.clone()).unwrap_or_else(|| Text::new(name, name))
    }

    /// The factor on the x axis: `x`, else the last factor other than `server`, else `server`.
    pub fn x_factor(&self) -> String {
        if let Some(x) = &self.x {
            return x.clone();
        }
        let names = self.factor_names();
        names.iter().rev().find(|n| *n != SERVER_FACTOR).or(names.last()).cloned().unwrap_or_default()
    }

    /// What goes into dataset.toml's `[report]`: the plan's own `[report]`, else the headline that fits
    /// the load. Load at a fixed rate (a `rate`: measure's open-loop client, oha -q, autocannon -R, vegeta)
    /// is led by the latency percentile; closed-loop load (ab, hey, wrk, siege, k6's virtual users, oha and
    /// autocannon without a rate), whose requests wait for the answers before them, by its requests per
    /// second with the percentile beside. A plan without `order` (written before rounds, as a kept
    /// plan.toml may be) gets none, so its dataset keeps the headline it was started with.
    pub fn report(&self) -> Option<toml::Table> {
        if let Some(report) = &self.report {
            return Some(report.clone());
        }
        self.order?;
        let mut report = toml::Table::new();
        if self.load.rate.is_some() {
            report.insert("headline".into(), "percentile".into());
        } else {
            report.insert("headline".into(), "requests_per_s".into());
            report.insert("beside".into(), toml::Value::Array(vec!["percentile".into()]));
        }
        Some(report)
    }

    /// The load of one condition, its placeholders filled in (validated for every condition).
    pub fn load_of(&self, condition: &Condition) -> Result<RunLoad, Problem> {
        self.load.resolve(condition)
    }

    /// The bound of one run's load, from its start.
    pub fn run_bound(&self) -> Duration {
        Duration::from_secs(self.load.run_timeout_s)
    }

    /// The history series of a plan that records a revision: `code.series`, else the English title.
    pub fn history_series(&self) -> Option<&str> {
        let code = self.code.as_ref().filter(|c| c.revision.is_some())?;
        Some(code.series.as_deref().unwrap_or(&self.title.en))
    }

    /// The longest one run can take: its server's `ready_timeout_s` to start, the load's bound, and its
    /// `stop_grace_s` to stop (the longest of the servers' waits).
    pub fn run_at_most(&self) -> Duration {
        let waits = self.servers.values().map(|s| s.ready_timeout_s.saturating_add(s.stop_grace_s)).max().unwrap_or(0);
        self.run_bound() + Duration::from_secs(waits)
    }

    /// The planned length of the load of a condition: its duration, or its requests at its rate; `None`
    /// when it depends on the server (a count of requests sent as fast as the server answers).
    pub fn planned_load(&self, condition: &Condition) -> Option<Duration> {
        let load = self.load_of(condition).ok()?;
        match (load.duration_s, load.requests, load.rate) {
            (Some(d), ..) => Some(Duration::from_secs(d)),
            (None, Some(n), Some(rate)) => Some(Duration::from_secs_f64(n as f64 / f64::from(rate))),
            _ => None,
        }
    }

    /// A rough length of one run for the time-left estimate: the longest planned load (or a quarter of
    /// the bound when the load's length depends on the server) plus server start and stop.
    pub fn estimated_run(&self) -> Duration {
        let conditions = self.conditions();
        let planned: Vec<Option<Duration>> = conditions.iter().map(|c| self.planned_load(c)).collect();
        let load = if planned.iter().all(Option::is_some) {
            planned.into_iter().flatten().max().unwrap_or_default()
        } else {
            self.run_bound() / 4
        };
        // A warm-up by time runs before each measured load.
        load + Duration::from_secs(2 + self.load.warmup_s.unwrap_or(0))
    }

    /// Whether every condition's load length is known beforehand (see [`CommandPlan::planned_load`]).
    pub fn load_length_known(&self) -> bool {
        self.conditions().iter().all(|c| self.planned_load(c).is_some())
    }
}

/// Whether `rule` excludes `condition`: the condition has one of the rule's levels for each of its factors.
fn excludes(rule: &BTreeMap<String, Levels>, condition: &Condition) -> bool {
    !rule.is_empty() && rule.iter().all(|(factor, levels)| condition.level(factor).is_some_and(|l| levels.0.iter().any(|x| x == l)))
}

#[cfg(test)]
mod tests;
