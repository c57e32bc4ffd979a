//! The columns of each table and the formatting of one row, in one place so the column order is fixed.
//!
//! Times in ms are printed with 3 decimals (µs), durations in seconds with 6, CPU seconds with 3 (the
//! kernel counts in 10 ms ticks); a missing value is an empty cell.

use crate::load::download::DownloadResult;
use crate::load::probe::ProbeResult;
use crate::load::session::SessionResult;
use crate::plan::{closed, command, open, Condition, Plan, Slot};
use crate::sample::{ResourceSample, TempSample};
use crate::servers::app_log::AppEvent;

/// runs.csv's columns after the factors and the repetition.
use request_row::columns::RUNS_TAIL;

/// The recipe the run was measured under ([`crate::study::recipe`]). Datasets of an older measure lack
/// it (and [`ROUND`]); their runs read back with no recipe recorded.
pub const RECIPE: &str = request_row::columns::RECIPE;

/// runs.csv's last column: the round of a plan in rounds ([`crate::plan::Order`]), empty for a shuffled
/// plan. Datasets of an older measure lack it; their runs read back with no round.
pub const ROUND: &str = request_row::columns::ROUND;

/// The host contention measure measured during the run's load (request_row::columns documents each).
pub use request_row::columns::{LOAD_CPU_SHARE, SERVER_CPU_SHARE, STEAL_PCT};

/// How many of runs.csv's last columns a dataset of an older measure may lack: the contention columns
/// ([`SERVER_CPU_SHARE`], [`LOAD_CPU_SHARE`], [`STEAL_PCT`]), [`ROUND`], then [`RECIPE`].
pub const ADDED_SINCE: usize = 5;

/// What a run's host contention was, as runs.csv records it (each empty when not measured).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Contention {
    /// [`SERVER_CPU_SHARE`].
    pub server_cpu_share: Option<f64>,
    /// [`LOAD_CPU_SHARE`].
    pub load_cpu_share: Option<f64>,
    /// [`STEAL_PCT`].
    pub steal_pct: Option<f64>,
}

/// runs.csv: required columns, then the plan's factors and the repetition, then the optional ones.
pub fn runs_header(plan: &Plan) -> Vec<String> {
    let mut header = vec!["run_id".to_string()];
    header.extend(plan.factors());
    header.push("repetition".into());
    header.extend(RUNS_TAIL.iter().map(|c| c.to_string()));
    header
}
/// requests.csv: the request-row contract's columns, the ones `analyze` reads.
pub const REQUESTS: &[&str] = &request_row::COLUMNS;
/// requests.csv of measure's session client: the contract's columns and the optional `label`, each
/// request's step ([`crate::load::session::STEP_LABELS`]).
pub const STEP_REQUESTS: &[&str] = &["run_id", "seq", "scheduled_ms", "sent_ms", "latency_ms", "status", "body_bytes", request_row::LABEL];
/// large_responses.csv.
pub const LARGE: &[&str] = &["run_id", "download_id", "write_start_ms", "write_end_ms", "write_s", "client_complete_s", "bytes_received"];
/// tempfiles.csv.
pub const TEMPFILES: &[&str] = &["run_id", "t_ms", "files", "logical_bytes"];
/// resources.csv.
pub const RESOURCES: &[&str] = &["run_id", "t_ms", "process", "pid", "cpu_s", "rss_bytes"];
/// servers.csv: where each run's servers listened (ports are chosen free per run).
pub const SERVERS: &[&str] = &["run_id", "server", "port", "pid"];
/// sessions.csv: one row per session of seed 003's client.
pub const SESSIONS: &[&str] = &["run_id", "session", "scheduled_ms", "sent_ms", "session_ms", "requests", "failed_step", "error"];

/// A run's outcome as runs.csv states it: the request-row contract's, which analyze reads.
pub use request_row::RunStatus;

/// The condition's levels as runs.csv writes them, in the order of [`Plan::factors`].
pub fn condition_cells(condition: &Condition) -> Vec<String> {
    match condition {
        Condition::Open(c) => vec![c.route.as_str().into(), c.downloads.to_string(), c.worker.as_str().into()],
        Condition::Closed(c) => vec![c.server.clone(), c.python.clone(), c.concurrency.to_string()],
        Condition::Command(c) => c.levels(),
    }
}

/// What runs.csv puts between `run_id` and `started_at_utc`: the condition's factors and the repetition.
pub fn slot_cells(slot: &Slot) -> Vec<String> {
    let mut cells = condition_cells(&slot.condition);
    cells.push(slot.repetition.to_string());
    cells
}

/// Reads [`slot_cells`] back as a slot of `plan`'s kind (the factors' cells, then the repetition).
pub fn parse_slot(plan: &Plan, cells: &[String]) -> Result<Slot, String> {
    let count = |s: &String, what: &str| s.parse::<u32>().map_err(|_| format!("{what} {s:?} is not a count"));
    let factors = plan.factors();
    let (Some(repetition), true) = (cells.last(), cells.len() == factors.len() + 1) else {
        return Err(format!("expected {} factors and the repetition", factors.len()));
    };
    let condition = match (plan, &cells[..factors.len()]) {
        (Plan::Open(_), [a, b, c]) => Condition::Open(open::Condition {
            route: open::Route::parse(a).ok_or_else(|| format!("unknown route {a:?}"))?,
            downloads: count(b, "downloads")?,
            worker: open::Worker::parse(c).ok_or_else(|| format!("unknown worker {c:?}"))?,
        }),
        (Plan::Closed(_), [a, b, c]) => {
            Condition::Closed(closed::Condition { server: a.clone(), python: b.clone(), concurrency: count(c, "level")? })
        }
        (Plan::Command(_), levels) => Condition::Command(command::Condition(factors.iter().cloned().zip(levels.iter().cloned()).collect())),
        _ => return Err(format!("expected {} factors", factors.len())),
    };
    Ok(Slot { condition, repetition: count(repetition, "repetition")? })
}

/// One row of runs.csv.
#[derive(Debug, Clone, PartialEq)]
pub struct RunRow {
    pub run_id: String,
    pub slot: Slot,
    pub started_at_utc: String,
    pub status: RunStatus,
    pub note: String,
    pub load1_before: Option<f64>,
    pub load1_after: Option<f64>,
    /// The fingerprint of the condition's recipe the run was measured under; empty when not recorded (a
    /// run of an older measure).
    pub recipe: String,
    /// The round of a plan in rounds (the slot's repetition); none for a shuffled plan or an older measure.
    pub round: Option<u32>,
    /// The host contention during the run's load; none for a run of an older measure or an aborted one.
    pub contention: Contention,
}

#[cfg(test)]
impl RunRow {
    /// A row of `status` measured under `recipe`, every other reading empty: the study's tests' rows.
    pub fn of_test(id: &str, slot: Slot, status: RunStatus, recipe: &str) -> RunRow {
        RunRow {
            run_id: id.into(),
            slot,
            started_at_utc: String::new(),
            status,
            note: String::new(),
            load1_before: None,
            load1_after: None,
            recipe: recipe.into(),
            round: None,
            contention: Default::default(),
        }
    }
}

impl RunRow {
    /// The cells in runs.csv order ([`runs_header`]).
    pub fn cells(&self) -> Vec<String> {
        let mut cells = vec![self.run_id.clone()];
        cells.extend(slot_cells(&self.slot));
        cells.extend([
            self.started_at_utc.clone(),
            self.status.as_str().into(),
            self.note.clone(),
            opt(self.load1_before, 2),
            opt(self.load1_after, 2),
            self.recipe.clone(),
            self.round.map(|r| r.to_string()).unwrap_or_default(),
            opt(self.contention.server_cpu_share, 3),
            opt(self.contention.load_cpu_share, 3),
            opt(self.contention.steal_pct, 2),
        ]);
        cells
    }

    /// Reads a row written by [`RunRow::cells`] for `plan` back (for `--resume`); a row of an older
    /// measure, without the last columns ([`RECIPE`], [`ROUND`]), reads back with no recipe and no round.
    pub fn from_cells(plan: &Plan, cells: &[String]) -> Result<RunRow, String> {
        let width = runs_header(plan).len();
        if cells.len() > width || cells.len() + ADDED_SINCE < width {
            return Err(format!("expected {width} columns"));
        }
        let (run_id, rest) = cells.split_first().ok_or("no run_id")?;
        let (slot, tail) = rest.split_at(width - 1 - RUNS_TAIL.len());
        let none = String::new();
        let at = |i: usize| tail.get(i).unwrap_or(&none);
        if tail.len() < RUNS_TAIL.len() - ADDED_SINCE {
            return Err(format!("expected {width} columns"));
        }
        let (started, status, note, l1b, l1a, recipe, round) = (at(0), at(1), at(2), at(3), at(4), at(5), at(6));
        let round = if round.is_empty() { None } else { Some(round.parse().map_err(|_| format!("round {round:?} is not a count"))?) };
        let slot = parse_slot(plan, slot)?;
        let status = RunStatus::parse(status).ok_or_else(|| format!("unknown status {status:?}"))?;
        let load = |s: &String| if s.is_empty() { Ok(None) } else { s.parse().map(Some).map_err(|_| format!("load {s:?}")) };
        let share = |s: &String| if s.is_empty() { Ok(None) } else { s.parse().map(Some).map_err(|_| format!("{s:?} is not a number")) };
        let contention = Contention { server_cpu_share: share(at(7))?, load_cpu_share: share(at(8))?, steal_pct: share(at(9))? };
        Ok(RunRow {
            run_id: run_id.clone(),
            slot,
            started_at_utc: started.clone(),
            status,
            note: note.clone(),
            load1_before: load(l1b)?,
            load1_after: load(l1a)?,
            recipe: recipe.clone(),
            round,
            contention,
        })
    }

    /// The number in `r07`.
    pub fn number(&self) -> Option<u32> {
        self.run_id.strip_prefix('r')?.parse().ok()
    }
}

/// A requests.csv row of a session's request, its step as its label ([`STEP_REQUESTS`]).
pub fn step_request_cells(run_id: &str, p: &ProbeResult, step: &str) -> Result<Vec<String>, request_row::Violation> {
    let mut cells = request_cells(run_id, p)?;
    debug_assert!(request_row::check_label(step).is_ok());
    cells.push(step.to_string());
    Ok(cells)
}

/// A requests.csv row, or why the probe's values break the request-row contract (the rule
/// `analyze` applies when it reads the row back, so measure never writes a row it would refuse).
pub fn request_cells(run_id: &str, p: &ProbeResult) -> Result<Vec<String>, request_row::Violation> {
    let raw = request_row::RawRequest {
        seq: i64::from(p.seq),
        scheduled_ms: p.scheduled_ms,
        sent_ms: p.sent_ms,
        latency_ms: p.latency_ms,
        status: i64::from(p.status),
        body_bytes: Some(i64::try_from(p.body_bytes).unwrap_or(i64::MAX)),
    };
    request_row::check(&raw)?;
    Ok(vec![
        run_id.into(),
        p.seq.to_string(),
        ms(p.scheduled_ms),
        ms(p.sent_ms),
        opt(p.latency_ms, 3),
        p.status.to_string(),
        p.body_bytes.to_string(),
    ])
}

/// The app's write of one /large response, on the run's time line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ServerWrite {
    pub start_ms: f64,
    pub end_ms: f64,
}

impl ServerWrite {
    /// The write of `download_id` in `run_id`, from the app log, converted with `to_ms`.
    pub fn find(events: &[AppEvent], run_id: &str, download_id: &str, to_ms: impl Fn(f64) -> f64) -> Option<ServerWrite> {
        events.iter().find_map(|e| match e {
            AppEvent::Large { download_id: d, run_id: r, start_s, end_s, .. } if d == download_id && r == run_id => {
                Some(ServerWrite { start_ms: to_ms(*start_s), end_ms: to_ms(*end_s) })
            }
            _ => None,
        })
    }
}

/// A large_responses.csv row: the server's write (when the app logged it) and the client's view.
pub fn large_cells(run_id: &str, d: &DownloadResult, write: Option<ServerWrite>) -> Vec<String> {
    vec![
        run_id.into(),
        d.download_id.clone(),
        opt(write.map(|w| w.start_ms), 3),
        opt(write.map(|w| w.end_ms), 3),
        opt(write.map(|w| (w.end_ms - w.start_ms) / 1e3), 6),
        opt(d.client_complete_s, 6),
        d.bytes_received.to_string(),
    ]
}

/// A tempfiles.csv row.
pub fn tempfile_cells(run_id: &str, t: &TempSample) -> Vec<String> {
    vec![run_id.into(), ms(t.t_ms), t.files.to_string(), t.logical_bytes.to_string()]
}

/// A resources.csv row.
pub fn resource_cells(run_id: &str, r: &ResourceSample) -> Vec<String> {
    vec![run_id.into(), ms(r.t_ms), r.process.clone(), r.pid.to_string(), format!("{:.3}", r.cpu_s), r.rss_bytes.to_string()]
}

/// A sessions.csv row: a session that failed has no time, and names its step and error.
pub fn session_cells(run_id: &str, s: &SessionResult) -> Vec<String> {
    let sent = s.requests.first().map(|r| ms(r.sent_ms)).unwrap_or_default();
    let (step, error) = s.failure.clone().map_or((String::new(), String::new()), |(step, e)| (step.to_string(), e));
    vec![run_id.into(), s.session.to_string(), ms(s.scheduled_ms), sent, opt(s.duration_ms(), 3), s.requests.len().to_string(), step, error]
}

/// A servers.csv row.
pub fn server_cells(run_id: &str, server: &str, port: u16, pid: u32) -> Vec<String> {
    vec![run_id.into(), server.into(), port.to_string(), pid.to_string()]
}

fn ms(v: f64) -> String {
    format!("{v:.3}")
}

fn opt(v: Option<f64>, decimals: usize) -> String {
    v.map(|v| format!("{v:.decimals$}")).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::open::{Route, Worker};

    fn open_plan() -> Plan {
        Plan::parse(include_str!("../../plans/smoke.toml")).unwrap()
    }

    fn run_row() -> RunRow {
        RunRow {
            run_id: "r07".into(),
            slot: Slot {
                condition: Condition::Open(open::Condition { route: Route::NginxOff, downloads: 2, worker: Worker::Sync }),
                repetition: 3,
            },
            started_at_utc: "2026-11-30T04:05:06Z".into(),
            status: RunStatus::Aborted,
            note: "interrupted (SIGINT)".into(),
            load1_before: Some(0.12),
            load1_after: None,
            recipe: "0123456789ab".into(),
            round: Some(3),
            contention: Contention { server_cpu_share: Some(0.925), load_cpu_share: None, steal_pct: Some(0.5) },
        }
    }

    #[test]
    fn run_rows_round_trip() {
        let row = run_row();
        let cells = row.cells();
        assert_eq!(cells.len(), runs_header(&open_plan()).len());
        assert_eq!(cells[1..5], ["nginx-off", "2", "sync", "3"]);
        assert_eq!(cells[8..], ["0.12", "", "0123456789ab", "3", "0.925", "", "0.50"]);
        assert_eq!(RunRow::from_cells(&open_plan(), &cells).unwrap(), row);
        assert_eq!(row.number(), Some(7));
    }

    /// A dataset of an older measure has no contention columns, then no `round` column, or neither
    /// `recipe` nor `round`: its rows read back with none recorded.
    #[test]
    fn a_row_without_the_recipe_or_round_column_reads_back_with_neither() {
        let row = run_row();
        let cells = row.cells();
        let plan = open_plan();
        let before_contention = RunRow::from_cells(&plan, &cells[..cells.len() - 3]).unwrap();
        let row = RunRow { contention: Contention::default(), ..row };
        assert_eq!(before_contention, row);
        let cells = &cells[..cells.len() - 3];
        let before_rounds = RunRow::from_cells(&plan, &cells[..cells.len() - 1]).unwrap();
        assert_eq!(before_rounds, RunRow { round: None, ..row.clone() });
        let before_recipes = RunRow::from_cells(&plan, &cells[..cells.len() - 2]).unwrap();
        assert_eq!(before_recipes, RunRow { recipe: String::new(), round: None, ..row });
        assert_eq!(RunRow::from_cells(&plan, &cells[..cells.len() - 3]).unwrap_err(), "expected 15 columns");
        let bad_round = [&cells[..cells.len() - 1], &["first".to_string()]].concat();
        assert_eq!(RunRow::from_cells(&plan, &bad_round).unwrap_err(), "round \"first\" is not a count");
    }

    #[test]
    fn closed_loop_run_rows_name_the_plans_factors_and_round_trip() {
        let plan = Plan::parse(include_str!("../../plans/fastcgi-vs-gunicorn.toml")).unwrap();
        assert_eq!(runs_header(&plan)[..5], ["run_id", "server", "python", "sessions", "repetition"]);
        assert_eq!(runs_header(&plan)[10..], ["recipe", "round", "server_cpu_share", "load_cpu_share", "steal_pct"]);
        let row = RunRow { slot: plan.run_order()[0].clone(), round: Some(1), ..run_row() };
        let cells = row.cells();
        assert_eq!(cells[1..5], ["gunicorn-5", "3.11", "1000", "1"]);
        assert_eq!(cells[10..], ["0123456789ab", "1", "0.925", "", "0.50"]);
        assert_eq!(RunRow::from_cells(&plan, &cells).unwrap(), row);
        let bad = [&cells[..3], &["many".to_string()], &cells[4..]].concat();
        assert_eq!(RunRow::from_cells(&plan, &bad).unwrap_err(), "level \"many\" is not a count");
    }

    #[test]
    fn session_rows_leave_failed_sessions_without_a_time() {
        let request =
            |seq, sent_ms| ProbeResult { seq, scheduled_ms: sent_ms, sent_ms, latency_ms: Some(10.0), status: 200, body_bytes: 5 };
        let session = |failed: bool| SessionResult {
            session: 1,
            scheduled_ms: 20.0,
            requests: vec![request(3, 20.0), request(4, 31.0), request(5, 42.5)],
            failure: failed.then(|| (2, "status 502".to_string())),
        };
        assert_eq!(session_cells("r01", &session(false)), ["r01", "1", "20.000", "20.000", "32.500", "3", "", ""]);
        assert_eq!(session_cells("r01", &session(true))[4..], ["", "3", "2", "status 502"]);
        assert_eq!(SESSIONS.len(), session_cells("r01", &session(true)).len());
    }

    #[test]
    fn step_requests_are_the_contract_with_its_label() {
        let mut columns = request_row::COLUMNS.to_vec();
        columns.push(request_row::LABEL);
        assert_eq!(STEP_REQUESTS, columns.as_slice());
        let p = ProbeResult { seq: 4, scheduled_ms: 750.0, sent_ms: 750.5, latency_ms: Some(2.0), status: 200, body_bytes: 3 };
        let cells = step_request_cells("r01", &p, crate::load::session::STEP_LABELS[1]).unwrap();
        assert_eq!(cells.len(), STEP_REQUESTS.len());
        assert_eq!(cells.last().map(String::as_str), Some("post-form"));
    }

    #[test]
    fn request_rows_have_three_decimals_and_empty_latency_on_failure() {
        let p = ProbeResult { seq: 4, scheduled_ms: 750.0, sent_ms: 750.4567, latency_ms: None, status: 0, body_bytes: 0 };
        assert_eq!(request_cells("r01", &p).unwrap(), ["r01", "4", "750.000", "750.457", "", "0", "0"]);
        assert_eq!(request_cells("r01", &p).unwrap().len(), REQUESTS.len());
    }

    #[test]
    fn refuses_to_write_a_request_analyze_would_refuse() {
        let p = ProbeResult { seq: 4, scheduled_ms: 750.0, sent_ms: 750.5, latency_ms: Some(2.0), status: 42, body_bytes: 0 };
        assert_eq!(request_cells("r01", &p).unwrap_err().to_string(), "status: 42 is not an HTTP status (0 for no response, else 100-999)");
        let p = ProbeResult { latency_ms: None, status: 200, ..p };
        assert_eq!(
            request_cells("r01", &p).unwrap_err().to_string(),
            "latency_ms: is empty but status is 200 (a request with no response has status 0)"
        );
    }

    #[test]
    fn large_rows_join_the_app_log() {
        let events = vec![AppEvent::Large {
            download_id: "d2".into(),
            run_id: "r01".into(),
            pid: 9,
            start_s: 100.5,
            end_s: 107.0,
            blocks_handed: 256,
            blocks: 256,
        }];
        let to_ms = |s: f64| (s - 100.0) * 1e3;
        assert_eq!(ServerWrite::find(&events, "r02", "d2", to_ms), None);
        let w = ServerWrite::find(&events, "r01", "d2", to_ms);
        let d = DownloadResult {
            download_id: "d2".into(),
            client_complete_s: Some(8.0123456),
            bytes_received: 16777216,
            status: 200,
            rcvbuf_reported: Some(16384),
            error: None,
        };
        assert_eq!(large_cells("r01", &d, w), ["r01", "d2", "500.000", "7000.000", "6.500000", "8.012346", "16777216"]);
        assert_eq!(large_cells("r01", &d, None)[2..5], ["", "", ""]);
    }
}
