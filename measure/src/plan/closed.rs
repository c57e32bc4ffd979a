//! Closed-loop plans: app servers driven by a load tool that sends the next request when the previous one
//! has finished (ab, hey, or measure's own ramped sessions of seed 003).
//!
//! A closed-loop plan names its servers (each a named configuration), the Python interpreters (any path,
//! so a free-threaded build is one more line), the app, the load tool, and blocks of conditions whose
//! product (server × python × concurrency) is the set of conditions. Like the open-loop plan it is parsed
//! strictly and validated once; it owns the run's time bound (the run order is [`super::Plan`]'s).

use super::locate::KeyPath;
use super::{Host, PlanError, Problem, Sampling, Text};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// The value of `kind` that marks a closed-loop plan.
pub const KIND: &str = "closed-loop";

/// Most concurrent clients (ab/hey) or sessions of one run: each session is a thread of the harness.
pub const MAX_CONCURRENCY: u32 = 2000;

/// The whole closed-loop recipe; `plans/app-servers-ab.toml` shows every key in use.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClosedLoop {
    /// Always [`KIND`].
    pub kind: String,
    /// Where `measure run` writes the dataset unless `--out` says otherwise (relative to the repository root).
    pub dataset: String,
    /// The dataset's title.
    pub title: Text,
    /// One sentence on what was measured (dataset.toml's description).
    pub description: Text,
    /// Seeds the shuffle of the run order.
    pub seed: u64,
    /// Runs per condition.
    pub repetitions: u32,
    /// How the runs are ordered (`"rounds"` or `"shuffled"`); none: shuffled, as before rounds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<super::Order>,
    /// Which app the servers load.
    pub app: App,
    /// The path ab and hey request (the sessions of seed 003 use `/`).
    pub path: String,
    pub load: Load,
    pub sampling: Sampling,
    pub host: Host,
    /// Label → interpreter (a path, or a command found on PATH); one virtual environment each.
    pub interpreters: BTreeMap<String, PathBuf>,
    /// Name → configuration; conditions refer to servers by name.
    pub servers: BTreeMap<String, Server>,
    /// Used by servers with `nginx = true` and by FastCGI.
    pub nginx: NginxSettings,
    /// Blocks whose products, together, are the conditions.
    pub conditions: Vec<ConditionBlock>,
}

/// The app the servers load (both in `measure/app/closed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum App {
    /// Seed 002's plain WSGI app: `Hello, World!\n` (14 bytes).
    Hello,
    /// A Django project: seed 001's REST framework `/users/` and seed 003's page with a form at `/`.
    Django,
}

impl App {
    /// The WSGI callable as `module:name`.
    pub fn wsgi(self) -> &'static str {
        match self {
            App::Hello => "hello:application",
            App::Django => "site_project.wsgi:application",
        }
    }
}

/// The load generator and how much load one run sends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Load {
    pub tool: Tool,
    /// ab `-n` / hey `-n`: requests per run (exclusive with `duration_s`).
    pub requests: Option<u32>,
    /// hey `-z`: seconds per run.
    pub duration_s: Option<u64>,
    /// sessions: the sessions start evenly over this many seconds (seed 003: 500 over 10 s).
    pub ramp_s: Option<u64>,
    /// Per-request bound (ab `-s`, hey `-t`, and each request of a session).
    pub request_timeout_s: u64,
    /// The run is aborted when the load has not finished this long after it started.
    pub run_timeout_s: u64,
}

/// The load generators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tool {
    /// ApacheBench (Debian apache2-utils); its `-g` file and stdout are imported.
    Ab,
    /// hey (Debian); its `-o csv` rows are imported.
    Hey,
    /// measure's own client for seed 003: GET the page, POST the form, GET where it redirects.
    Sessions,
}

impl Tool {
    pub fn as_str(self) -> &'static str {
        match self {
            Tool::Ab => "ab",
            Tool::Hey => "hey",
            Tool::Sessions => "sessions",
        }
    }

    /// The runs.csv column of the load level: concurrent clients for ab and hey, sessions for seed 003.
    pub fn level_factor(self) -> &'static str {
        match self {
            Tool::Ab | Tool::Hey => "concurrency",
            Tool::Sessions => "sessions",
        }
    }
}

/// One server configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Server {
    pub kind: ServerKind,
    /// Gunicorn: `sync` or `gthread`.
    pub worker: Option<String>,
    /// Gunicorn workers, uWSGI processes.
    #[serde(default = "one")]
    pub processes: u32,
    /// Gunicorn threads, uWSGI threads.
    #[serde(default = "one")]
    pub threads: u32,
    /// FastCGI: `prefork` or `threaded`.
    pub method: Option<String>,
    /// Behind nginx (`proxy_pass`); FastCGI is always behind nginx (`fastcgi_pass`).
    #[serde(default)]
    pub nginx: bool,
    /// How the report names it.
    pub label: Text,
}

fn one() -> u32 {
    1
}

/// The app servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ServerKind {
    Gunicorn,
    /// Debian's uWSGI with its python3 plugin (so its interpreter is Debian's python3).
    Uwsgi,
    /// Django's development server, `manage.py runserver --noreload`.
    Runserver,
    /// flup's FastCGI server (the `runfcgi` of old Django) behind nginx.
    Fastcgi,
}

impl ServerKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ServerKind::Gunicorn => "gunicorn",
            ServerKind::Uwsgi => "uwsgi",
            ServerKind::Runserver => "runserver",
            ServerKind::Fastcgi => "fastcgi",
        }
    }
}

impl Server {
    /// Whether nginx stands in front.
    pub fn behind_nginx(&self) -> bool {
        self.nginx || self.kind == ServerKind::Fastcgi
    }
}

/// nginx in front of an app server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NginxSettings {
    pub binary: String,
    pub worker_processes: u32,
}

/// One `[[conditions]]` block: the product of its lists.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConditionBlock {
    pub server: Vec<String>,
    pub python: Vec<String>,
    /// Concurrent clients (ab `-c`, hey `-c`) or, for sessions, sessions per run.
    pub concurrency: Vec<u32>,
}

/// One combination of factor levels.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Condition {
    pub server: String,
    pub python: String,
    pub concurrency: u32,
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} / python {} / {}", self.server, self.python, self.concurrency)
    }
}

/// Whether plan text is a closed-loop plan (it says `kind = "closed-loop"`).
pub fn is_closed_loop(text: &str) -> bool {
    text.parse::<toml::Table>().is_ok_and(|t| t.get("kind").and_then(|k| k.as_str()) == Some(KIND))
}

fn name_ok(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
}

impl ClosedLoop {
    /// Parses and validates plan text: every problem at once.
    pub fn parse(text: &str) -> Result<ClosedLoop, PlanError> {
        let (plan, mut problems): (ClosedLoop, _) = super::strict::deserialize(text)?;
        problems.extend(plan.problems());
        super::none_or(problems)?;
        Ok(plan)
    }

    /// Checks the invariants the harness relies on; every problem, each at its key.
    pub fn validate(&self) -> Result<(), PlanError> {
        super::none_or(self.problems())
    }

    /// Every problem of the plan.
    pub fn problems(&self) -> Vec<Problem> {
        use super::bounds::{REQUESTS, RUN_S, WAIT_S, WORKERS};
        let mut p = Vec::new();
        let load = KeyPath::root("load");
        if self.kind != KIND {
            p.push(Problem::new(KeyPath::root("kind"), format!("must be {KIND:?} in a closed-loop plan")));
        }
        super::check_common(&mut p, self.repetitions, &self.sampling, &self.host);
        WAIT_S.push(&mut p, load.key("request_timeout_s"), self.load.request_timeout_s);
        RUN_S.push(&mut p, load.key("run_timeout_s"), self.load.run_timeout_s);
        WORKERS.push(&mut p, KeyPath::root("nginx").key("worker_processes"), self.nginx.worker_processes.into());
        let l = &self.load;
        let mut planned = None;
        match (l.tool, l.requests, l.duration_s, l.ramp_s) {
            (Tool::Ab | Tool::Hey, Some(n), None, None) => REQUESTS.push(&mut p, load.key("requests"), n.into()),
            (Tool::Ab, ..) => p.push(Problem::new(load.clone(), "ab takes `requests` (its -n) and nothing else")),
            (Tool::Hey, None, Some(z), None) => {
                RUN_S.push(&mut p, load.key("duration_s"), z);
                planned = Some((z, "hey's duration_s"));
            }
            (Tool::Hey, ..) => p.push(Problem::new(load.clone(), "hey takes either `requests` (-n) or `duration_s` (-z)")),
            (Tool::Sessions, None, None, Some(ramp)) => {
                RUN_S.push(&mut p, load.key("ramp_s"), ramp);
                planned = Some((ramp, "the sessions' ramp_s"));
            }
            (Tool::Sessions, ..) => p.push(Problem::new(load.clone(), "sessions take `ramp_s` and nothing else")),
        }
        if let Some((planned, what)) = planned {
            p.extend(super::bounds::run_timeout_covers(load.key("run_timeout_s"), l.run_timeout_s, planned, l.request_timeout_s, what));
        }
        if !self.path.starts_with('/') || self.path.contains(char::is_whitespace) {
            p.push(Problem::new(KeyPath::root("path"), format!("{:?} must start with '/' and hold no spaces", self.path)));
        }
        for (name, server) in &self.servers {
            let key = KeyPath::root("servers").key(name);
            if !name_ok(name) {
                p.push(Problem::new(
                    key.clone(),
                    format!("{name:?}: server names are written to runs.csv: use only letters, digits, '.', '-' and '_'"),
                ));
            }
            WORKERS.push(&mut p, key.key("processes"), server.processes.into());
            WORKERS.push(&mut p, key.key("threads"), server.threads.into());
            let why = match server.kind {
                ServerKind::Gunicorn => match server.worker.as_deref() {
                    Some("sync") if server.threads != 1 => Some("a sync worker has 1 thread (Gunicorn turns threads into gthread)"),
                    Some("sync" | "gthread") => None,
                    _ => Some("gunicorn needs worker = \"sync\" or \"gthread\""),
                },
                ServerKind::Fastcgi if !matches!(server.method.as_deref(), Some("prefork" | "threaded")) => {
                    Some("fastcgi needs method = \"prefork\" or \"threaded\"")
                }
                ServerKind::Runserver | ServerKind::Fastcgi if self.app != App::Django => {
                    Some("runserver and fastcgi serve the Django app only (app = \"django\")")
                }
                _ => None,
            };
            if let Some(why) = why {
                p.push(Problem::new(key, why));
            }
        }
        for label in self.interpreters.keys() {
            if !name_ok(label) {
                p.push(Problem::new(
                    KeyPath::root("interpreters").key(label),
                    format!("{label:?}: interpreter labels are written to runs.csv: use only letters, digits, '.', '-' and '_'"),
                ));
            }
        }
        if self.conditions().is_empty() {
            p.push(Problem::new(
                KeyPath::root("conditions"),
                "the plan has no condition (every [[conditions]] block needs at least one value per list)",
            ));
        }
        for (i, block) in self.conditions.iter().enumerate() {
            let key = KeyPath::root("conditions").index(i);
            for (j, server) in block.server.iter().enumerate() {
                if !self.servers.contains_key(server) {
                    p.push(Problem::new(key.key("server").index(j), format!("{server:?} is not defined under [servers]")));
                }
            }
            for (j, python) in block.python.iter().enumerate() {
                if !self.interpreters.contains_key(python) {
                    p.push(Problem::new(key.key("python").index(j), format!("{python:?} is not defined under [interpreters]")));
                }
            }
            for (j, &concurrency) in block.concurrency.iter().enumerate() {
                let here = key.key("concurrency").index(j);
                if let Some(problem) = super::bounds::range(1, u64::from(MAX_CONCURRENCY), "").check(here.clone(), concurrency.into()) {
                    p.push(problem);
                } else if let (Tool::Ab | Tool::Hey, Some(n)) = (self.load.tool, self.load.requests) {
                    if n < concurrency {
                        p.push(Problem::new(here, format!("{concurrency} is more than load.requests ({n}): each client needs a request")));
                    }
                }
            }
        }
        p
    }

    /// Every distinct condition, in the order the blocks first name them.
    pub fn conditions(&self) -> Vec<Condition> {
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for block in &self.conditions {
            for server in &block.server {
                for python in &block.python {
                    for &concurrency in &block.concurrency {
                        let c = Condition { server: server.clone(), python: python.clone(), concurrency };
                        if seen.insert(c.clone()) {
                            out.push(c);
                        }
                    }
                }
            }
        }
        out
    }

    /// The interpreter labels the conditions use, in the plan's order (the report lists the levels so:
    /// sorted as strings, "3.10" would come before "3.8").
    pub fn pythons(&self) -> Vec<String> {
        let mut pythons: Vec<String> = Vec::new();
        for c in self.conditions() {
            if !pythons.contains(&c.python) {
                pythons.push(c.python);
            }
        }
        pythons
    }

    /// Whether any condition goes through nginx.
    pub fn needs_nginx(&self) -> bool {
        self.conditions().iter().any(|c| self.servers.get(&c.server).is_some_and(Server::behind_nginx))
    }

    /// The bound of one run's load, from its start.
    pub fn run_bound(&self) -> Duration {
        Duration::from_secs(self.load.run_timeout_s)
    }

    /// A rough length of one run for the time-left estimate: the load's planned length (or its bound when
    /// the length depends on the server, as for ab's `-n`) plus server start and stop.
    pub fn estimated_run(&self) -> Duration {
        let load = match (self.load.duration_s, self.load.ramp_s) {
            (Some(z), _) => Duration::from_secs(z),
            (_, Some(ramp)) => Duration::from_secs(ramp + self.load.request_timeout_s.min(30)),
            _ => self.run_bound() / 4,
        };
        load + Duration::from_secs(4)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLANS: [(&str, &str); 3] = [
        ("app-servers-ab", include_str!("../../plans/app-servers-ab.toml")),
        ("gthread-python-versions", include_str!("../../plans/gthread-python-versions.toml")),
        ("fastcgi-vs-gunicorn", include_str!("../../plans/fastcgi-vs-gunicorn.toml")),
    ];

    fn plan(name: &str) -> ClosedLoop {
        let text = PLANS.iter().find(|(n, _)| *n == name).unwrap().1;
        ClosedLoop::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    #[test]
    fn the_three_seed_plans_parse_and_say_closed_loop() {
        for (name, text) in PLANS {
            assert!(is_closed_loop(text), "{name}");
            assert_eq!(plan(name).dataset, format!("datasets/{name}"));
        }
        assert!(!is_closed_loop(include_str!("../../plans/study.toml")));
    }

    #[test]
    fn app_servers_plan_runs_three_servers_at_three_concurrencies_five_times() {
        let p = plan("app-servers-ab");
        assert_eq!(p.load.tool, Tool::Ab);
        assert_eq!(p.load.requests, Some(10_000));
        let levels: BTreeSet<u32> = p.conditions().iter().map(|c| c.concurrency).collect();
        assert_eq!(levels.into_iter().collect::<Vec<_>>(), [1, 5, 20]);
        let kinds: BTreeSet<&str> = p.conditions().iter().map(|c| p.servers[&c.server].kind.as_str()).collect();
        assert_eq!(kinds.into_iter().collect::<Vec<_>>(), ["gunicorn", "runserver", "uwsgi"]);
        assert_eq!(super::super::Plan::Closed(p.clone()).run_order().len(), p.conditions().len() * 5);
    }

    #[test]
    fn gthread_plan_is_hey_c2_z10_on_one_worker_with_two_threads() {
        let p = plan("gthread-python-versions");
        assert_eq!((p.load.tool, p.load.duration_s, p.app), (Tool::Hey, Some(10), App::Hello));
        assert!(p.conditions().iter().all(|c| c.concurrency == 2 && c.server == "gthread-1x2"));
        let s = &p.servers["gthread-1x2"];
        assert_eq!((s.worker.as_deref(), s.processes, s.threads), (Some("gthread"), 1, 2));
        assert!(p.pythons().len() >= 6, "{:?}", p.pythons());
        // The report lists the levels in this order; sorted as strings 3.10 would precede 3.8.
        assert_eq!(p.pythons(), ["3.8", "3.9", "3.10", "3.11", "3.12", "3.13", "3.11-debian"]);
    }

    #[test]
    fn fastcgi_plan_compares_three_servers_behind_nginx_at_more_than_one_level() {
        let p = plan("fastcgi-vs-gunicorn");
        assert_eq!((p.load.tool, p.load.ramp_s), (Tool::Sessions, Some(10)));
        assert!(p.conditions().iter().all(|c| p.servers[&c.server].behind_nginx()));
        let levels: BTreeSet<u32> = p.conditions().iter().map(|c| c.concurrency).collect();
        assert!(levels.len() > 1 && levels.contains(&500), "{levels:?}");
        assert_eq!(p.servers["gunicorn-5"].processes, 5);
    }

    fn problems(text: &str) -> Vec<String> {
        crate::plan::problem_lines(ClosedLoop::parse(text).map(|_| ()))
    }

    #[test]
    fn rejects_an_undefined_server_and_a_typo() {
        let text = PLANS[0].1.replace("server = [\"uwsgi-1x1\"", "server = [\"uwsgi-9\"");
        assert_eq!(problems(&text), ["conditions[0].server[0]: \"uwsgi-9\" is not defined under [servers]"]);
        let text = PLANS[0].1.replace("repetitions =", "repetitionz =");
        let p = problems(&text);
        assert!(p[0].starts_with("repetitionz: unknown key (a typo?)"), "{p:?}");
        assert_eq!(p[1], "repetitions: is required and missing (in the top level)");
    }

    #[test]
    fn rejects_ab_with_a_duration_and_runserver_without_django() {
        let text = PLANS[0].1.replace("requests = 10000", "duration_s = 10");
        assert_eq!(problems(&text), ["load: ab takes `requests` (its -n) and nothing else"]);
        let text = PLANS[0].1.replace("app = \"django\"", "app = \"hello\"");
        assert_eq!(problems(&text), ["servers.runserver: runserver and fastcgi serve the Django app only (app = \"django\")"]);
    }

    #[test]
    fn a_run_bound_shorter_than_the_load_is_refused() {
        // hey -z 10 with 20 s for its last requests: a 29 s bound aborts every run.
        let text = PLANS[1].1.replace("run_timeout_s = 60", "run_timeout_s = 29");
        let p = problems(&text);
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(p[0].starts_with("load.run_timeout_s: 29 s would abort every run: hey's duration_s lasts 10 s"), "{p:?}");
        assert_eq!(problems(&PLANS[1].1.replace("run_timeout_s = 60", "run_timeout_s = 30")), Vec::<String>::new());
        let text = PLANS[1].1.replace("run_timeout_s = 60", "run_timeout_s = 9223372036854775807");
        assert_eq!(problems(&text), ["load.run_timeout_s: is 9223372036854775807; it must be 1 to 86400 seconds"]);
    }
}
