//! sessions.csv: one row per session of a ramped-session client (seed 003's: GET the page, POST
//! the form and follow its redirect, GET the page). measure's session client writes it beside
//! requests.csv; the request rows of a session are in requests.csv, this table says how each
//! session ended.
//!
//! A session either succeeded, and has a `session_ms` (from its first send to the end of its
//! last response) and no failed step, or failed, and has a `failed_step` (0-based: the request
//! that ended it) and no time, as the seed's client left failed sessions out of its times. Each
//! row is checked to be one or the other, so no statistic has to guess which a row is.

use super::error::{shown, DataError, Problems};
use super::requests::RunIndex;
use super::runs::Run;
use super::side_tables::{columns, count, run_of};
use super::table::{TextRow, TextTable};
use crate::model::RunStatus;
use std::collections::HashMap;

/// The columns sessions.csv must have (measure writes them in this order; any order is read).
pub const COLUMNS: [&str; 8] = ["run_id", "session", "scheduled_ms", "sent_ms", "session_ms", "requests", "failed_step", "error"];

/// One session and how it ended.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionRow {
    /// Index into the dataset's runs.
    pub run: u32,
    /// `Some` for a session whose requests all succeeded: its time, ms.
    pub session_ms: Option<f64>,
    /// `Some` for a failed session: the 0-based step that failed.
    pub failed_step: Option<u64>,
}

/// Validates sessions.csv: known runs, a session number once per run, non-negative times, and
/// each row either a success with a time or a failure with its step (never both, never neither),
/// and a failed step among the `named_steps` dataset.toml names (when it names any).
pub fn parse_sessions(table: &TextTable, index: &RunIndex, named_steps: usize, problems: &mut Problems) -> Vec<SessionRow> {
    let Some([run_c, session_c, scheduled_c, sent_c, time_c, requests_c, step_c, _error_c]) = columns(table, COLUMNS, problems) else {
        return Vec::new();
    };
    let mut out = Vec::with_capacity(table.rows.len());
    let mut first_place: HashMap<(u32, u64), u64> = HashMap::new();
    for row in &table.rows {
        let before = problems.len();
        let run = run_of(table, row, run_c, index, problems);
        let session = count(table, row, session_c, problems);
        if let (Some(run), Some(session)) = (run, session) {
            match first_place.get(&(run, session)) {
                Some(first) => problems.push(table.cell_error(
                    row,
                    session_c,
                    format!(
                        "session {session} of run {} appears twice (first on {} {first})",
                        shown(row.cells[run_c].trim()),
                        table.place_word()
                    ),
                )),
                None => {
                    first_place.insert((run, session), row.place);
                }
            }
        }
        table.non_negative(row, scheduled_c, problems);
        optional_time(table, row, sent_c, problems);
        let session_ms = optional_time(table, row, time_c, problems);
        let requests = count(table, row, requests_c, problems);
        let failed_step = if row.cells[step_c].trim().is_empty() { None } else { count(table, row, step_c, problems) };
        let time_given = !row.cells[time_c].trim().is_empty();
        let step_given = !row.cells[step_c].trim().is_empty();
        match (time_given, step_given) {
            (true, true) => problems.push(table.cell_error(
                row,
                step_c,
                "a session with a session_ms succeeded and has no failed step: leave one of the two empty",
            )),
            (false, false) => problems.push(table.cell_error(
                row,
                time_c,
                "is empty and so is failed_step: a session either succeeded (give its time) or failed (give the step)",
            )),
            _ => {}
        }
        if let (Some(step), Some(requests)) = (failed_step, requests) {
            if step >= requests {
                problems.push(table.cell_error(
                    row,
                    step_c,
                    format!("step {step} failed but the session sent {requests} request(s): steps count from 0, so it is below requests"),
                ));
            }
        }
        if let Some(step) = failed_step.filter(|&step| named_steps > 0 && step >= named_steps as u64) {
            problems.push(table.cell_error(
                row,
                step_c,
                format!("step {step} failed but dataset.toml's sessions.steps names {named_steps} step(s), 0 to {}", named_steps - 1),
            ));
        }
        if time_given && requests == Some(0) {
            problems.push(table.cell_error(row, requests_c, "is 0 but the session has a time: a session that succeeded sent requests"));
        }
        if problems.len() == before {
            if let Some(run) = run {
                out.push(SessionRow { run, session_ms, failed_step });
            }
        }
    }
    out
}

/// A time that may be blank; a problem when given but not a non-negative number.
fn optional_time(table: &TextTable, row: &TextRow, column: usize, problems: &mut Problems) -> Option<f64> {
    let value = table.optional_number(row, column, problems)?;
    if value < 0.0 {
        problems.push(table.cell_error(row, column, format!("{value} is negative: a time cannot be")));
        return None;
    }
    Some(value)
}

/// Every `ok` run needs sessions once the dataset has sessions.csv: a run without them would show
/// no sessions, which reads as "none failed".
pub fn check_every_ok_run_has_sessions(
    runs: &[Run],
    runs_file: &str,
    sessions_file: &str,
    sessions: &[SessionRow],
    problems: &mut Problems,
) {
    let mut seen = vec![false; runs.len()];
    for s in sessions {
        if let Some(slot) = seen.get_mut(s.run as usize) {
            *slot = true;
        }
    }
    for (run, seen) in runs.iter().zip(seen) {
        if run.status == RunStatus::Ok && !seen {
            problems.push(DataError::line(
                runs_file,
                run.line,
                format!("run {} has status ok but no rows in {sessions_file}", shown(&run.run_id)),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "run_id,session,scheduled_ms,sent_ms,session_ms,requests,failed_step,error\n";

    fn parse(body: &str) -> (Vec<SessionRow>, Vec<String>) {
        parse_named(body, 0)
    }

    fn parse_named(body: &str, named_steps: usize) -> (Vec<SessionRow>, Vec<String>) {
        let mut problems = Problems::default();
        let table = TextTable::parse_csv("sessions.csv", format!("{HEADER}{body}").as_bytes(), &mut problems).unwrap();
        let rows = parse_sessions(&table, &RunIndex::new(["r01", "r02"]), named_steps, &mut problems);
        (rows, problems.errors().iter().map(ToString::to_string).collect())
    }

    #[test]
    fn a_success_has_a_time_and_a_failure_its_step() {
        let (rows, problems) = parse("r01,0,0.000,0.100,12.500,3,,\nr02,1,20.000,20.050,,2,1,status 502\n");
        assert_eq!(problems, Vec::<String>::new());
        assert_eq!(
            rows,
            [
                SessionRow { run: 0, session_ms: Some(12.5), failed_step: None },
                SessionRow { run: 1, session_ms: None, failed_step: Some(1) },
            ]
        );
    }

    #[test]
    fn a_row_with_both_or_neither_is_refused_at_its_cell() {
        let (rows, problems) = parse("r01,0,0,0,12.5,3,2,x\nr01,1,0,0,,3,,\n");
        assert!(rows.is_empty());
        assert_eq!(
            problems,
            [
                "sessions.csv:2:7: failed_step: a session with a session_ms succeeded and has no failed step: leave one of the two empty",
                "sessions.csv:3:5: session_ms: is empty and so is failed_step: a session either succeeded (give its time) or failed (give the step)",
            ]
        );
    }

    #[test]
    fn unknown_runs_repeated_sessions_and_negative_times_name_line_and_column() {
        let (_, problems) = parse("r09,0,0,0,1,3,,\nr01,4,0,0,1,3,,\nr01,4,0,0,1,3,,\nr02,0,0,0,-1,3,,\nr02,1,0,0,abc,3,,\n");
        assert_eq!(
            problems,
            [
                "sessions.csv:2:1: run_id: run_id \"r09\" is not in runs.csv",
                "sessions.csv:4:2: session: session 4 of run \"r01\" appears twice (first on line 3)",
                "sessions.csv:5:5: session_ms: -1 is negative: a time cannot be",
                "sessions.csv:6:5: session_ms: \"abc\" is not a number",
            ]
        );
    }

    #[test]
    fn a_failed_step_must_be_one_of_the_requests_sent() {
        let (_, problems) = parse("r01,0,0,0,,2,2,timeout\n");
        assert_eq!(
            problems,
            ["sessions.csv:2:7: failed_step: step 2 failed but the session sent 2 request(s): steps count from 0, so it is below requests"]
        );
    }

    #[test]
    fn a_failed_step_must_be_one_dataset_toml_names_when_it_names_them() {
        let body = "r01,0,0,0,,4,3,timeout\nr01,1,0,0,,4,2,status 502\n";
        let (rows, problems) = parse_named(body, 3);
        assert_eq!(rows, [SessionRow { run: 0, session_ms: None, failed_step: Some(2) }]);
        assert_eq!(problems, ["sessions.csv:2:7: failed_step: step 3 failed but dataset.toml's sessions.steps names 3 step(s), 0 to 2"]);
        // Without names, any step below the requests sent is one.
        assert_eq!(parse_named(body, 0).1, Vec::<String>::new());
    }

    #[test]
    fn a_missing_column_is_named_with_the_header() {
        let mut problems = Problems::default();
        let table = TextTable::parse_csv("sessions.csv", b"run_id,session\nr01,0\n", &mut problems).unwrap();
        assert!(parse_sessions(&table, &RunIndex::new(["r01"]), 0, &mut problems).is_empty());
        assert_eq!(problems.errors()[0].to_string(), "sessions.csv: missing column `scheduled_ms` (the header has: run_id, session)");
    }
}
