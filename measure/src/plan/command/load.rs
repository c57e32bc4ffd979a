//! The load of a command plan: which tool, and its settings, each a number or a template naming factors
//! (`concurrency = "{concurrency}"`), resolved per condition into a [`RunLoad`]. What each tool accepts is
//! in one table here ([`LoadTool::rules`]), so the plan's check and the command lines agree.

use super::{Condition, Problem};
use crate::plan::bounds::{self, Bound};
use crate::plan::locate::KeyPath;
use crate::plan::template;
use serde::Deserialize;

/// Most concurrent connections of one run (as in closed-loop plans).
pub const MAX_CONCURRENCY: u32 = crate::plan::closed::MAX_CONCURRENCY;

/// Most requests of one run of measure's own open-loop client. Its threads hold no more than the requests
/// in flight, but every request's row is kept until the run is recorded (48 bytes as the client's result,
/// then the dataset's cells as text): a run of 1,000,000 requests peaked at 451 MB of RSS, so two million
/// are most of a gigabyte. For more, split the run or use a tool with a rate (oha, autocannon, vegeta).
pub const MAX_OPEN_LOOP_REQUESTS: u64 = 2_000_000;

/// The load generators of command plans: every one `analyze import` reads that sends HTTP requests from
/// a command line, and measure's own open-loop client.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LoadTool {
    Ab,
    Hey,
    Wrk,
    Oha,
    Siege,
    Autocannon,
    K6,
    Vegeta,
    /// measure's own client: requests at a fixed rate, each on a new connection (or kept-alive ones, with
    /// `keep_alive = true`), sent on schedule whether or not earlier ones have finished.
    OpenLoop,
}

/// How each request reaches the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Connection {
    /// A new TCP connection per request, `Connection: close` (the default: each request pays a connect,
    /// as a first visit does, and no request waits behind another on a connection).
    #[default]
    PerRequest,
    /// Connections are kept open and reused; a request due while every open connection is busy opens
    /// another, so the schedule never waits for a response.
    KeepAlive,
}

/// Whether a setting is needed, may be given, or is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    Required,
    Optional,
    Refused,
}

/// What a tool takes.
#[derive(Debug, Clone, Copy)]
pub struct Rules {
    pub requests: Need,
    pub duration_s: Need,
    /// Exactly one of `requests` and `duration_s`.
    pub one_of: bool,
    pub concurrency: Need,
    pub rate: Need,
    pub threads: Need,
    /// `requests` must be a multiple of `concurrency`: the tool gives each client requests / concurrency.
    pub per_client: bool,
}

impl LoadTool {
    /// Every tool, in the order the docs list them.
    pub const ALL: [LoadTool; 9] = [
        LoadTool::Ab,
        LoadTool::Hey,
        LoadTool::Wrk,
        LoadTool::Oha,
        LoadTool::Siege,
        LoadTool::Autocannon,
        LoadTool::K6,
        LoadTool::Vegeta,
        LoadTool::OpenLoop,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            LoadTool::Ab => "ab",
            LoadTool::Hey => "hey",
            LoadTool::Wrk => "wrk",
            LoadTool::Oha => "oha",
            LoadTool::Siege => "siege",
            LoadTool::Autocannon => "autocannon",
            LoadTool::K6 => "k6",
            LoadTool::Vegeta => "vegeta",
            LoadTool::OpenLoop => "open-loop",
        }
    }

    /// The program looked up on PATH when the plan gives no `binary`; none for measure's own client.
    pub fn program(self) -> Option<&'static str> {
        match self {
            LoadTool::OpenLoop => None,
            other => Some(other.as_str()),
        }
    }

    /// The arguments that make it print its version (ab's `-V` is read by [`crate::load::tool::ab_version_at`];
    /// hey prints none, so its Debian package's version is recorded).
    pub fn version_args(self) -> Option<&'static [&'static str]> {
        match self {
            LoadTool::Ab => Some(&["-V"]),
            LoadTool::Wrk => Some(&["-v"]),
            LoadTool::Oha | LoadTool::Siege | LoadTool::Autocannon => Some(&["--version"]),
            LoadTool::K6 => Some(&["version"]),
            LoadTool::Vegeta => Some(&["-version"]),
            LoadTool::Hey | LoadTool::OpenLoop => None,
        }
    }

    /// How to install it, for the error when it is missing.
    pub fn install_hint(self) -> &'static str {
        match self {
            LoadTool::Ab => "apt-get install -y apache2-utils",
            LoadTool::Hey => "apt-get install -y hey",
            LoadTool::Wrk => "apt-get install -y wrk",
            LoadTool::Siege => "apt-get install -y siege",
            LoadTool::Oha => "cargo install oha",
            LoadTool::Autocannon => "npm install --ignore-scripts autocannon, then set load.binary to node_modules/.bin/autocannon",
            LoadTool::K6 => "see https://grafana.com/docs/k6/latest/set-up/install-k6/",
            LoadTool::Vegeta => "see https://github.com/tsenart/vegeta#install",
            LoadTool::OpenLoop => "",
        }
    }

    /// What the tool takes.
    pub fn rules(self) -> Rules {
        use Need::{Optional as O, Refused as R, Required as Q};
        let r = |requests, duration_s, one_of, concurrency, rate, threads, per_client| Rules {
            requests,
            duration_s,
            one_of,
            concurrency,
            rate,
            threads,
            per_client,
        };
        match self {
            // ab -n; ab's -t would cap the requests at 50,000 whatever -n says.
            LoadTool::Ab => r(Q, R, false, O, R, R, false),
            LoadTool::Hey => r(O, O, true, O, R, R, true),
            LoadTool::Wrk => r(R, Q, false, O, R, O, false),
            LoadTool::Oha => r(O, O, true, O, O, R, false),
            LoadTool::Siege => r(O, O, true, O, R, R, true),
            LoadTool::Autocannon => r(O, O, true, O, O, R, false),
            LoadTool::K6 => r(O, O, true, O, R, R, false),
            LoadTool::Vegeta => r(R, Q, false, O, Q, R, false),
            LoadTool::OpenLoop => r(O, O, true, R, Q, R, false),
        }
    }
}

/// A number, or a template whose filled-in text is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Param {
    Fixed(u64),
    Template(String),
}

/// `[load]`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Load {
    pub tool: LoadTool,
    /// The path every request asks for (may name factors).
    #[serde(default = "default_path")]
    pub path: String,
    /// Concurrent connections (k6: virtual users; vegeta: workers). Default 1.
    pub concurrency: Option<Param>,
    /// Requests per run.
    pub requests: Option<Param>,
    /// Seconds per run.
    pub duration_s: Option<Param>,
    /// Requests per second (open-loop, oha, autocannon, vegeta).
    pub rate: Option<Param>,
    /// wrk's threads (default: the concurrency or the CPUs, whichever is fewer).
    pub threads: Option<Param>,
    /// Per-request bound in seconds.
    #[serde(default = "default_request_timeout")]
    pub request_timeout_s: u64,
    /// The run is aborted when its load has not finished this long after it started.
    #[serde(default = "default_run_timeout")]
    pub run_timeout_s: u64,
    /// The tool's program, when it is not on PATH under its own name.
    pub binary: Option<String>,
    /// measure's open-loop client only: reuse connections instead of a new one per request (the default).
    #[serde(default)]
    pub keep_alive: bool,
    /// Pin the server and the tool to disjoint CPU sets where the host has 2 or more ([`crate::cpus`]).
    #[serde(default = "default_pin")]
    pub pin: bool,
    /// A warm-up of this many seconds before each measured load: the tool run the same way, its output
    /// discarded.
    pub warmup_s: Option<u64>,
    /// A warm-up of this many requests before each measured load (for tools that take no duration).
    pub warmup_requests: Option<u64>,
}

/// The most seconds of a warm-up.
pub const MAX_WARMUP_S: u64 = 3_600;

fn default_pin() -> bool {
    true
}

fn default_path() -> String {
    "/".into()
}

fn default_request_timeout() -> u64 {
    10
}

fn default_run_timeout() -> u64 {
    120
}

/// The load of one condition, every setting a number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunLoad {
    pub tool: LoadTool,
    pub path: String,
    pub concurrency: u32,
    pub requests: Option<u64>,
    pub duration_s: Option<u64>,
    pub rate: Option<u32>,
    pub threads: Option<u32>,
    pub request_timeout_s: u64,
    /// How measure's open-loop client connects (other tools: their own way, [`Connection::PerRequest`] here).
    pub connection: Connection,
}

impl RunLoad {
    /// The requests the tool is asked to send, when the plan fixes them (a count, or a rate for a time).
    pub fn asked_requests(&self) -> Option<u64> {
        match (self.requests, self.duration_s, self.rate) {
            (Some(n), ..) => Some(n),
            (None, Some(d), Some(r)) if self.tool == LoadTool::OpenLoop => Some(d.saturating_mul(u64::from(r))),
            _ => None,
        }
    }
}

/// The bounds of a load setting.
fn bound_of(name: &str) -> Bound {
    match name {
        "requests" => bounds::REQUESTS,
        "duration_s" => bounds::RUN_S,
        "rate" => bounds::RATE,
        // concurrency and threads: MAX_CONCURRENCY, checked with what the tool does with them.
        _ => bounds::range(1, u64::from(u32::MAX), ""),
    }
}

/// The text of a setting for `condition`.
fn fill(text: &str, condition: &Condition) -> Result<String, String> {
    template::fill(text, |name| condition.level(name))
}

impl Load {
    /// The settings that may be templates, with their keys.
    pub fn params(&self) -> [(&'static str, Option<&Param>); 5] {
        [
            ("concurrency", self.concurrency.as_ref()),
            ("requests", self.requests.as_ref()),
            ("duration_s", self.duration_s.as_ref()),
            ("rate", self.rate.as_ref()),
            ("threads", self.threads.as_ref()),
        ]
    }

    /// The warm-up before `load` (one condition's measured load): the same load for `warmup_s` seconds or
    /// `warmup_requests` requests. `None` without a warm-up; a warm-up the tool cannot run is a problem at
    /// its key.
    pub fn warmup_of(&self, load: &RunLoad) -> Result<Option<RunLoad>, Problem> {
        let key = |k: &str| KeyPath::root("load").key(k);
        let rules = load.tool.rules();
        let tool = load.tool.as_str();
        match (self.warmup_s, self.warmup_requests) {
            (None, None) => Ok(None),
            (Some(_), Some(_)) => Err(Problem::new(key("warmup_s"), "give `warmup_s` or `warmup_requests`, not both".to_string())),
            _ if load.tool == LoadTool::OpenLoop => Err(Problem::new(
                key(if self.warmup_s.is_some() { "warmup_s" } else { "warmup_requests" }),
                "measure's open-loop client has no warm-up; leave it out".to_string(),
            )),
            (Some(s), None) => {
                if let Some(problem) = bounds::range(1, MAX_WARMUP_S, "s").check(key("warmup_s"), s) {
                    return Err(problem);
                }
                if rules.duration_s == Need::Refused {
                    return Err(Problem::new(key("warmup_s"), format!("{tool} takes no duration: give `warmup_requests`")));
                }
                Ok(Some(RunLoad { requests: None, duration_s: Some(s), ..load.clone() }))
            }
            (None, Some(n)) => {
                if let Some(problem) = bounds::REQUESTS.check(key("warmup_requests"), n) {
                    return Err(problem);
                }
                if rules.requests == Need::Refused {
                    return Err(Problem::new(key("warmup_requests"), format!("{tool} takes no request count: give `warmup_s`")));
                }
                let c = u64::from(load.concurrency);
                if n < c || (rules.per_client && n % c != 0) {
                    return Err(Problem::new(
                        key("warmup_requests"),
                        format!("{n} must be a multiple of the concurrency ({c}), at least one request a client"),
                    ));
                }
                Ok(Some(RunLoad { requests: Some(n), duration_s: None, ..load.clone() }))
            }
        }
    }

    /// The load of `condition`, or the first setting that does not resolve to what the tool takes.
    pub fn resolve(&self, condition: &Condition) -> Result<RunLoad, Problem> {
        let key = |k: &str| KeyPath::root("load").key(k);
        let number = |name: &'static str, param: Option<&Param>| -> Result<Option<u64>, Problem> {
            let text = match param {
                None => return Ok(None),
                Some(Param::Fixed(n)) => n.to_string(),
                Some(Param::Template(t)) => fill(t, condition).map_err(|n| Problem::new(key(name), format!("{{{n}}} is not a factor")))?,
            };
            match text.trim().parse::<u64>() {
                Ok(0) => Err(Problem::new(key(name), format!("must be positive, and is 0 for {condition}"))),
                Ok(n) => match bound_of(name).check(key(name), n) {
                    Some(problem) if matches!(param, Some(Param::Template(_))) => {
                        Err(Problem::new(problem.key, format!("{} (for {condition})", problem.message)))
                    }
                    Some(problem) => Err(problem),
                    None => Ok(Some(n)),
                },
                Err(_) => Err(Problem::new(key(name), format!("{text:?} (for {condition}) is not a whole number"))),
            }
        };
        let small = |name: &'static str, v: Option<u64>| -> Result<Option<u32>, Problem> {
            v.map(|n| u32::try_from(n).map_err(|_| Problem::new(key(name), format!("{n} is too large")))).transpose()
        };
        let concurrency = small("concurrency", number("concurrency", self.concurrency.as_ref())?)?;
        let load = RunLoad {
            tool: self.tool,
            path: fill(&self.path, condition).map_err(|n| Problem::new(key("path"), format!("{{{n}}} is not a factor")))?,
            concurrency: concurrency.unwrap_or(1),
            requests: number("requests", self.requests.as_ref())?,
            duration_s: number("duration_s", self.duration_s.as_ref())?,
            rate: small("rate", number("rate", self.rate.as_ref())?)?,
            threads: small("threads", number("threads", self.threads.as_ref())?)?,
            request_timeout_s: self.request_timeout_s,
            connection: if self.keep_alive { Connection::KeepAlive } else { Connection::PerRequest },
        };
        check_rules(&load, concurrency.is_some(), condition)?;
        Ok(load)
    }
}

/// The tool's rules applied to one condition's load.
fn check_rules(load: &RunLoad, concurrency_given: bool, condition: &Condition) -> Result<(), Problem> {
    let rules = load.tool.rules();
    let tool = load.tool.as_str();
    let key = |k: &str| KeyPath::root("load").key(k);
    let given = [
        ("requests", load.requests.is_some(), rules.requests),
        ("duration_s", load.duration_s.is_some(), rules.duration_s),
        ("concurrency", concurrency_given, rules.concurrency),
        ("rate", load.rate.is_some(), rules.rate),
        ("threads", load.threads.is_some(), rules.threads),
    ];
    for (name, is_given, need) in given {
        match need {
            Need::Required if !is_given => return Err(Problem::new(key(name), format!("{tool} needs `{name}`"))),
            Need::Refused if is_given => return Err(Problem::new(key(name), format!("{tool} does not take `{name}`"))),
            _ => {}
        }
    }
    if rules.one_of && load.requests.is_some() == load.duration_s.is_some() {
        return Err(Problem::new(KeyPath::root("load"), format!("{tool} takes either `requests` or `duration_s`, one of the two")));
    }
    let path = &load.path;
    if !path.starts_with('/') || path.contains(|c: char| c.is_whitespace() || c.is_control()) {
        return Err(Problem::new(key("path"), format!("{path:?} (for {condition}) must start with '/' and hold no spaces")));
    }
    if load.concurrency > MAX_CONCURRENCY {
        return Err(Problem::new(
            key("concurrency"),
            format!("{} is more than {MAX_CONCURRENCY}, the most a run may have", load.concurrency),
        ));
    }
    if let Some(n) = load.requests {
        if n < u64::from(load.concurrency) {
            return Err(Problem::new(key("requests"), format!("{n} is fewer than the concurrency ({}) of {condition}", load.concurrency)));
        }
        if rules.per_client && n % u64::from(load.concurrency) != 0 {
            return Err(Problem::new(
                key("requests"),
                format!(
                    "{tool} gives each of its {} clients requests / concurrency, so {n} requests would not all be sent for {condition}: \
                     make requests a multiple of the concurrency",
                    load.concurrency
                ),
            ));
        }
    }
    if let Some(threads) = load.threads {
        if threads > load.concurrency {
            return Err(Problem::new(
                key("threads"),
                format!("{threads} is more than the concurrency ({}): wrk needs a connection per thread", load.concurrency),
            ));
        }
    }
    if load.connection == Connection::KeepAlive && load.tool != LoadTool::OpenLoop {
        return Err(Problem::new(
            key("keep_alive"),
            format!("{tool} does not take `keep_alive` (only measure's open-loop client does; {tool} keeps its own connections)"),
        ));
    }
    if load.tool == LoadTool::OpenLoop {
        let n = load.asked_requests().unwrap_or(0);
        if n > MAX_OPEN_LOOP_REQUESTS {
            return Err(Problem::new(
                KeyPath::root("load"),
                format!(
                    "{n} requests for {condition} is more than {MAX_OPEN_LOOP_REQUESTS}, the most one run of measure's open-loop \
                     client keeps (every request's row is held until the run is recorded): split it into shorter runs"
                ),
            ));
        }
    }
    Ok(())
}
