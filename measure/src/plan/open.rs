//! The open-loop slow-download study's plan (`plans/study.toml`): sizes, rates, probe schedule, conditions,
//! server settings. [`OpenLoop::validate`] checks the invariants the rest of the harness relies on (e.g. the
//! response is a whole number of blocks).

use super::locate::KeyPath;
use super::{Host, PlanError, Problem, Sampling};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;
use std::time::Duration;

/// Bounds the slow clients of one run (each is a thread and a connection).
pub const MAX_DOWNLOADS: u32 = 16;

/// The factors of the conditions, as runs.csv names its columns.
pub const FACTORS: [&str; 3] = ["route", "downloads", "worker"];

/// Where the study's dataset goes unless `--out` says otherwise (relative to the repository root).
pub const DEFAULT_DATASET: &str = "datasets/gunicorn-slow-client";

/// The whole recipe. Field docs say what each key does; `plans/study.toml` shows them in use.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenLoop {
    /// Seeds the shuffle of the run order.
    pub seed: u64,
    /// Runs per condition.
    pub repetitions: u32,
    /// How the runs are ordered (`"rounds"` or `"shuffled"`); none: shuffled, as before rounds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<super::Order>,
    pub large: Large,
    pub download: Download,
    pub probe: Probe,
    pub sampling: Sampling,
    pub host: Host,
    pub gunicorn: Gunicorn,
    pub nginx: Nginx,
    /// Blocks whose products, together, are the conditions.
    pub conditions: Vec<ConditionBlock>,
}

/// The big response of `/large`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Large {
    /// Total body size in bytes.
    pub bytes: u64,
    /// Size of the prepared block the app yields `bytes / block_bytes` times.
    pub block_bytes: u64,
}

/// The slow clients.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Download {
    /// Target read rate in bytes per second.
    pub rate_bytes_per_s: u64,
    /// Most bytes read per tick (one `read` call).
    pub read_chunk_bytes: usize,
    /// SO_RCVBUF requested before connecting.
    pub so_rcvbuf_bytes: usize,
    /// Slack beyond the expected duration before a download is given up.
    pub timeout_s: u64,
}

/// The open-loop probe load on `/fast`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Probe {
    /// When the first request is due, in ms from the run's start (the downloads start at 0).
    pub start_ms: u64,
    /// Requests per second.
    pub rate_per_s: u32,
    /// Number of requests per run.
    pub count: u32,
    /// Per-request bound from connect to the end of the body.
    pub timeout_s: u64,
}

/// Gunicorn's version and worker shapes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gunicorn {
    /// Installed with pip into the virtual environment.
    pub version: String,
    /// `--timeout`: a worker silent this long is killed.
    pub timeout_s: u64,
    /// `--graceful-timeout`: how long workers may finish on SIGTERM.
    pub graceful_timeout_s: u64,
    pub sync: WorkerShape,
    pub gthread: WorkerShape,
}

/// Processes and threads of one worker type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorkerShape {
    pub processes: u32,
    #[serde(default = "one")]
    pub threads: u32,
}

fn one() -> u32 {
    1
}

/// nginx settings that are the same for buffering on and off.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Nginx {
    /// Debian's nginx (package nginx-light).
    pub binary: String,
    pub worker_processes: u32,
    pub proxy_buffer_size: String,
    pub proxy_buffers: String,
    pub proxy_busy_buffers_size: String,
    pub proxy_max_temp_file_size: String,
    pub proxy_temp_file_write_size: String,
}

/// One `[[conditions]]` block: the product of its lists.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConditionBlock {
    pub route: Vec<Route>,
    pub downloads: Vec<u32>,
    pub worker: Vec<Worker>,
}

/// How the client reaches the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Route {
    /// Straight to Gunicorn.
    Direct,
    /// Through nginx with `proxy_buffering off`.
    NginxOff,
    /// Through nginx with `proxy_buffering on`.
    NginxOn,
}

impl Route {
    /// The level as written in runs.csv.
    pub fn as_str(self) -> &'static str {
        match self {
            Route::Direct => "direct",
            Route::NginxOff => "nginx-off",
            Route::NginxOn => "nginx-on",
        }
    }

    /// `Some(buffering)` when the route goes through nginx.
    pub fn nginx_buffering(self) -> Option<bool> {
        match self {
            Route::Direct => None,
            Route::NginxOff => Some(false),
            Route::NginxOn => Some(true),
        }
    }

    /// Parses a runs.csv level.
    pub fn parse(s: &str) -> Option<Route> {
        [Route::Direct, Route::NginxOff, Route::NginxOn].into_iter().find(|r| r.as_str() == s)
    }
}

/// Gunicorn's worker type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Worker {
    Sync,
    Gthread,
}

impl Worker {
    /// The level as written in runs.csv and passed to `--worker-class`.
    pub fn as_str(self) -> &'static str {
        match self {
            Worker::Sync => "sync",
            Worker::Gthread => "gthread",
        }
    }

    /// Parses a runs.csv level.
    pub fn parse(s: &str) -> Option<Worker> {
        [Worker::Sync, Worker::Gthread].into_iter().find(|w| w.as_str() == s)
    }
}

/// One combination of factor levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Condition {
    pub route: Route,
    pub downloads: u32,
    pub worker: Worker,
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} / {} downloads / {}", self.route.as_str(), self.downloads, self.worker.as_str())
    }
}

impl OpenLoop {
    /// Parses and validates plan text: every problem at once.
    pub fn parse(text: &str) -> Result<OpenLoop, PlanError> {
        let (plan, mut problems): (OpenLoop, _) = super::strict::deserialize(text)?;
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
        use super::bounds::{range, BYTES, MAX_RUN_S, RATE, RUN_S, WAIT_S, WORKERS};
        let mut p = Vec::new();
        let key = |table: &str, k: &str| KeyPath::root(table).key(k);
        super::check_common(&mut p, self.repetitions, &self.sampling, &self.host);
        let numbers = [
            (key("large", "bytes"), self.large.bytes, BYTES),
            (key("large", "block_bytes"), self.large.block_bytes, BYTES),
            (key("download", "rate_bytes_per_s"), self.download.rate_bytes_per_s, BYTES),
            (key("download", "read_chunk_bytes"), self.download.read_chunk_bytes as u64, BYTES),
            (key("download", "so_rcvbuf_bytes"), self.download.so_rcvbuf_bytes as u64, range(1, 1 << 28, "bytes")),
            (key("download", "timeout_s"), self.download.timeout_s, RUN_S),
            (key("probe", "start_ms"), self.probe.start_ms, range(0, MAX_RUN_S * 1000, "ms")),
            (key("probe", "rate_per_s"), self.probe.rate_per_s.into(), RATE),
            (key("probe", "count"), self.probe.count.into(), range(1, 100_000, "requests")),
            (key("probe", "timeout_s"), self.probe.timeout_s, WAIT_S),
            (key("gunicorn", "timeout_s"), self.gunicorn.timeout_s, WAIT_S),
            (key("gunicorn", "graceful_timeout_s"), self.gunicorn.graceful_timeout_s, range(0, super::bounds::MAX_WAIT_S, "seconds")),
            (key("gunicorn", "sync").key("processes"), self.gunicorn.sync.processes.into(), WORKERS),
            (key("gunicorn", "gthread").key("processes"), self.gunicorn.gthread.processes.into(), WORKERS),
            (key("gunicorn", "gthread").key("threads"), self.gunicorn.gthread.threads.into(), WORKERS),
            (key("nginx", "worker_processes"), self.nginx.worker_processes.into(), WORKERS),
        ];
        for (k, value, bound) in numbers {
            bound.push(&mut p, k, value);
        }
        if self.large.block_bytes > 0 && (self.large.bytes == 0 || self.large.bytes % self.large.block_bytes != 0) {
            p.push(Problem::new(
                key("large", "bytes"),
                format!("{} must be a positive multiple of large.block_bytes ({})", self.large.bytes, self.large.block_bytes),
            ));
        }
        if self.gunicorn.sync.threads != 1 {
            p.push(Problem::new(
                key("gunicorn", "sync").key("threads"),
                "must be 1: Gunicorn turns sync workers with threads into gthread workers",
            ));
        }
        if self.conditions().is_empty() {
            p.push(Problem::new(
                KeyPath::root("conditions"),
                "the plan has no condition (every [[conditions]] block needs at least one value per list)",
            ));
        }
        for (i, block) in self.conditions.iter().enumerate() {
            for (j, &downloads) in block.downloads.iter().enumerate() {
                if downloads > MAX_DOWNLOADS {
                    p.push(Problem::new(
                        KeyPath::root("conditions").index(i).key("downloads").index(j),
                        format!("{downloads} is more than {MAX_DOWNLOADS}, the most this harness runs at once"),
                    ));
                }
            }
        }
        p
    }

    /// How many blocks the app yields for /large.
    pub fn blocks(&self) -> u64 {
        self.large.bytes / self.large.block_bytes
    }

    /// The shape of a worker type.
    pub fn worker_shape(&self, worker: Worker) -> &WorkerShape {
        match worker {
            Worker::Sync => &self.gunicorn.sync,
            Worker::Gthread => &self.gunicorn.gthread,
        }
    }

    /// Every distinct condition, in the order the blocks first name them.
    pub fn conditions(&self) -> Vec<Condition> {
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for block in &self.conditions {
            for &route in &block.route {
                for &downloads in &block.downloads {
                    for &worker in &block.worker {
                        let c = Condition { route, downloads, worker };
                        if seen.insert(c) {
                            out.push(c);
                        }
                    }
                }
            }
        }
        out
    }

    /// Whether any condition goes through nginx (then nginx must be installed).
    pub fn needs_nginx(&self) -> bool {
        self.conditions().iter().any(|c| c.route.nginx_buffering().is_some())
    }

    /// How long one download should take at the planned rate.
    pub fn download_duration(&self) -> Duration {
        Duration::from_secs_f64(self.large.bytes as f64 / self.download.rate_bytes_per_s as f64)
    }

    /// A rough length of one run including server start and stop, for the time-left estimate.
    pub fn estimated_run(&self) -> Duration {
        let probes = crate::load::probe::schedule_ms(&self.probe);
        let probe_end = Duration::from_millis(probes.last().copied().unwrap_or(0.0) as u64);
        probe_end.max(self.download_duration()) + Duration::from_secs(3)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn study() -> OpenLoop {
        OpenLoop::parse(include_str!("../../plans/study.toml")).unwrap()
    }

    #[test]
    fn study_plan_has_thirty_runs_in_ten_conditions() {
        let plan = study();
        assert_eq!(plan.conditions().len(), 10);
        assert_eq!(super::super::Plan::Open(plan.clone()).run_order().len(), 30);
        assert_eq!(plan.blocks(), 256);
        assert_eq!(plan.download_duration(), Duration::from_secs(8));
    }

    #[test]
    fn smoke_plan_is_small() {
        let plan = OpenLoop::parse(include_str!("../../plans/smoke.toml")).unwrap();
        assert_eq!(plan.large.bytes, 1 << 20);
        assert_eq!(plan.download.rate_bytes_per_s, 512 * 1024);
        assert_eq!(plan.probe.count, 16);
        assert_eq!(super::super::Plan::Open(plan.clone()).run_order().len(), 7);
        assert!(plan.needs_nginx());
    }

    #[test]
    fn duplicate_conditions_across_blocks_count_once() {
        let mut plan = study();
        plan.conditions.push(plan.conditions[1].clone());
        assert_eq!(plan.conditions().len(), 10);
    }

    fn problems(text: &str) -> Vec<String> {
        crate::plan::problem_lines(OpenLoop::parse(text).map(|_| ()))
    }

    #[test]
    fn rejects_unknown_keys_all_at_once() {
        let text = include_str!("../../plans/study.toml").replace("seed = ", "sead = ").replace("count = ", "cuont = ");
        let p = problems(&text);
        assert_eq!(p.len(), 4, "{p:?}");
        assert!(p[0].starts_with("sead: unknown key (a typo?); expected one of `seed`"), "{p:?}");
        assert!(p[1].starts_with("probe.cuont: unknown key (a typo?); expected one of `start_ms`"), "{p:?}");
        assert_eq!(p[2..], ["probe.count: is required and missing (in probe)", "seed: is required and missing (in the top level)"]);
    }

    #[test]
    fn rejects_response_that_is_not_whole_blocks() {
        let text = include_str!("../../plans/study.toml").replace("bytes = 16777216", "bytes = 16777217");
        assert_eq!(problems(&text), ["large.bytes: 16777217 must be a positive multiple of large.block_bytes (65536)"]);
    }

    #[test]
    fn rejects_zero_rate_and_every_other_number_out_of_bounds_at_once() {
        let text = include_str!("../../plans/study.toml")
            .replace("rate_per_s = 8", "rate_per_s = 0")
            .replace("so_rcvbuf_bytes = 8192", "so_rcvbuf_bytes = 9223372036854775807")
            .replace("timeout_s = 30\ngraceful", "timeout_s = 86400\ngraceful");
        assert_eq!(
            problems(&text),
            [
                "download.so_rcvbuf_bytes: is 9223372036854775807; it must be 1 to 268435456 bytes",
                "probe.rate_per_s: must be positive (1 to 1000000 requests per second)",
                "gunicorn.timeout_s: is 86400; it must be 1 to 600 seconds",
            ]
        );
    }

    #[test]
    fn rejects_unknown_route() {
        let text = include_str!("../../plans/study.toml").replace("\"nginx-on\"]", "\"nginx-maybe\"]");
        let p = problems(&text);
        assert!(p[0].starts_with("conditions[0].route: unknown variant `nginx-maybe`"), "{p:?}");
    }

    #[test]
    fn levels_round_trip() {
        for r in [Route::Direct, Route::NginxOff, Route::NginxOn] {
            assert_eq!(Route::parse(r.as_str()), Some(r));
        }
        for w in [Worker::Sync, Worker::Gthread] {
            assert_eq!(Worker::parse(w.as_str()), Some(w));
        }
    }
}
