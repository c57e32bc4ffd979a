//! runs.csv: one row per run, its factor levels and status; and the factors derived from it.

use super::error::{shown, DataError, Problems};
use super::manifest::Manifest;
use super::names;
use super::number::parse_f64;
use super::table::TextTable;
use super::time::{parse_rfc3339, Instant};
use crate::model::{Note, RunStatus, Text};
use std::collections::{BTreeSet, HashMap};

/// Columns of runs.csv that are not factors: their one home is the crate both programs share.
pub use request_row::columns::RUNS_RESERVED as RESERVED;

/// One level of a factor.
#[derive(Debug, Clone)]
pub struct Level {
    pub value: String,
    pub label: Text,
}

/// A factor: a runs.csv column whose levels, combined, form conditions.
#[derive(Debug, Clone)]
pub struct Factor {
    pub name: String,
    pub label: Text,
    /// In display order: the manifest's order first, then the rest sorted (numerically when
    /// every level is a number).
    pub levels: Vec<Level>,
    /// Every level is a number.
    pub numeric: bool,
}

/// One row of runs.csv.
#[derive(Debug, Clone)]
pub struct Run {
    pub run_id: String,
    /// Per factor (same order as the dataset's factors): the index of this run's level.
    pub levels: Vec<usize>,
    pub repetition: i64,
    /// Empty when the start was not recorded (an imported run whose tool prints no start).
    pub started_at_utc: String,
    /// `started_at_utc` as an instant, to take dates in UTC; `None` when not recorded.
    pub started: Option<Instant>,
    pub status: RunStatus,
    /// Message keys of importers and measure, or the user's own words (model/note.rs).
    pub note: Note,
    pub load1_before: Option<f64>,
    pub load1_after: Option<f64>,
    /// The server's CPU seconds per wall second of the load, as measure measured it.
    pub server_cpu_share: Option<f64>,
    /// The round of a plan in rounds (measure/plans/README.md, "Run order"): a whole number from 1;
    /// `None` when runs.csv has no `round` column or the cell is empty (a shuffled plan's runs).
    pub round: Option<i64>,
    /// The line (or row) in runs.csv, for messages.
    pub line: u64,
}

/// What runs.csv yields: the factors, the valid runs, and the ids of rows that were rejected
/// (their requests are then skipped rather than blamed as unknown).
pub struct ParsedRuns {
    pub factors: Vec<Factor>,
    pub runs: Vec<Run>,
    pub rejected_ids: Vec<String>,
    /// False when a required column is missing: no run id can be trusted.
    pub usable: bool,
}

/// Validates runs.csv and derives the factors.
pub fn parse_runs(table: &TextTable, manifest: &Manifest, problems: &mut Problems) -> ParsedRuns {
    let run_id = table.require("run_id", problems);
    let repetition = table.require("repetition", problems);
    let started = table.require("started_at_utc", problems);
    let status = table.require("status", problems);
    let note = table.column("note");
    let load_before = table.column("load1_before");
    let load_after = table.column("load1_after");
    let server_share = table.column("server_cpu_share");
    let round_column = table.column("round");

    let factor_columns: Vec<(String, usize)> = if manifest.factors.is_empty() {
        table.columns.iter().enumerate().filter(|(_, name)| !RESERVED.contains(&name.as_str())).map(|(i, name)| (name.clone(), i)).collect()
    } else {
        manifest
            .factors
            .iter()
            .filter_map(|spec| match table.column(&spec.name) {
                Some(i) => Some((spec.name.clone(), i)),
                None => {
                    problems.push(DataError::file(
                        &table.file,
                        format!("dataset.toml names the factor `{}`, but runs.csv has no such column", spec.name),
                    ));
                    None
                }
            })
            .collect()
    };
    let factor_columns: Vec<(String, usize)> =
        factor_columns.into_iter().filter(|(_, column)| names::header(table, *column, "a factor's name", problems)).collect();
    let (Some(run_id), Some(repetition), Some(started), Some(status)) = (run_id, repetition, started, status) else {
        return ParsedRuns { factors: Vec::new(), runs: Vec::new(), rejected_ids: Vec::new(), usable: false };
    };

    let mut seen: HashMap<String, u64> = HashMap::new();
    let mut raw_runs = Vec::new();
    let mut rejected_ids = Vec::new();
    for row in &table.rows {
        let mut ok = true;
        // A refused id is still the trimmed cell: its requests are then skipped, not blamed.
        let id = row.cells[run_id].trim().to_string();
        if names::cell(table, row, run_id, "a run id", "is empty: every run needs an id", problems).is_none() {
            ok = false;
        } else if let Some(first) = seen.get(&id) {
            problems.push(table.cell_error(row, run_id, format!("run_id {} appears twice (first on line {first})", shown(&id))));
            ok = false;
        } else {
            seen.insert(id.clone(), row.place);
        }
        let rep = table.integer(row, repetition, problems);
        let started_at = row.cells[started].trim().to_string();
        // Empty: the start was not recorded (most load tools print none).
        let instant = (!started_at.is_empty()).then(|| parse_rfc3339(&started_at));
        if matches!(instant, Some(None)) {
            problems.push(table.cell_error(
                row,
                started,
                format!("{} is not an RFC 3339 time (e.g. 2026-11-30T04:05:06Z)", shown(&started_at)),
            ));
            ok = false;
        }
        let instant = instant.flatten();
        let run_status = match RunStatus::parse(row.cells[status].trim()) {
            Some(known) => Some(known),
            None => {
                let other = row.cells[status].trim();
                problems.push(table.cell_error(row, status, format!("{} is not a status: use ok, aborted or excluded", shown(other))));
                None
            }
        };
        let load = |column: Option<usize>, problems: &mut Problems| column.and_then(|c| table.optional_number(row, c, problems));
        let load1_before = load(load_before, problems);
        let load1_after = load(load_after, problems);
        let server_cpu_share = load(server_share, problems);
        // Empty: a run of a shuffled plan, which has no round.
        let round = match round_column {
            Some(column) if !row.cells[column].trim().is_empty() => match table.integer(row, column, problems) {
                Some(k) if k >= 1 => Some(k),
                Some(k) => {
                    problems.push(table.cell_error(row, column, format!("round {k} is not a round: rounds count from 1")));
                    ok = false;
                    None
                }
                None => {
                    ok = false;
                    None
                }
            },
            _ => None,
        };
        let mut values = Vec::with_capacity(factor_columns.len());
        for (name, column) in &factor_columns {
            let empty = format!("is empty: every run needs a level of the factor `{name}`");
            if names::cell(table, row, *column, "a level", &empty, problems).is_none() {
                ok = false;
            }
            values.push(row.cells[*column].trim().to_string());
        }
        let parsed_note = match note {
            None => Some(Note::default()),
            Some(column) => {
                let cell = &row.cells[column];
                let parsed = request_row::name::check_note(cell)
                    .and_then(|()| Note::parse(cell).map_err(|e| format!("at character {}: {}", e.at, e.message)));
                match parsed {
                    Ok(parsed) => Some(parsed),
                    Err(message) => {
                        problems.push(table.cell_error(row, column, message));
                        None
                    }
                }
            }
        };
        let accepted = ok && rep.is_some() && run_status.is_some() && parsed_note.is_some();
        if !accepted && !id.is_empty() {
            rejected_ids.push(id.clone());
        }
        if let (true, Some(rep), Some(run_status), Some(parsed_note)) = (ok, rep, run_status, parsed_note) {
            raw_runs.push((
                id,
                values,
                rep,
                (started_at, instant),
                run_status,
                parsed_note,
                (load1_before, load1_after, server_cpu_share, round),
                row.place,
            ));
        }
    }

    let factors: Vec<Factor> = factor_columns
        .iter()
        .enumerate()
        .map(|(f, (name, _))| build_factor(name, raw_runs.iter().map(|r| r.1[f].as_str()), manifest))
        .collect();
    // Each level's index by its value, so a run finds its levels without a scan per run.
    let level_index: Vec<HashMap<&str, usize>> =
        factors.iter().map(|f| f.levels.iter().enumerate().map(|(i, l)| (l.value.as_str(), i)).collect()).collect();
    let runs = raw_runs
        .into_iter()
        .map(
            |(
                run_id,
                values,
                repetition,
                (started_at_utc, started),
                status,
                note,
                (load1_before, load1_after, server_cpu_share, round),
                line,
            )| {
                let levels = values
                    .iter()
                    .zip(&level_index)
                    .map(|(value, index)| *index.get(value.as_str()).expect("every seen level is listed"))
                    .collect();
                Run {
                    run_id,
                    levels,
                    repetition,
                    started_at_utc,
                    started,
                    status,
                    note,
                    load1_before,
                    load1_after,
                    server_cpu_share,
                    round,
                    line,
                }
            },
        )
        .collect();
    ParsedRuns { factors, runs, rejected_ids, usable: true }
}

fn build_factor<'a>(name: &str, values: impl Iterator<Item = &'a str>, manifest: &Manifest) -> Factor {
    let seen: BTreeSet<&str> = values.collect();
    let spec = manifest.factors.iter().find(|f| f.name == name);
    let numeric = !seen.is_empty() && seen.iter().all(|v| parse_f64(v.as_bytes()).is_some_and(f64::is_finite));
    let mut levels: Vec<Level> = Vec::new();
    if let Some(spec) = spec {
        for level in &spec.levels {
            if seen.contains(level.value.as_str()) {
                let label = level.label.clone().unwrap_or_else(|| Text::Plain(level.value.clone()));
                levels.push(Level { value: level.value.clone(), label });
            }
        }
    }
    let listed: BTreeSet<&str> = levels.iter().map(|l| l.value.as_str()).collect();
    let mut rest: Vec<&str> = seen.iter().copied().filter(|v| !listed.contains(v)).collect();
    if numeric {
        rest.sort_by(|a, b| {
            let a = parse_f64(a.as_bytes()).unwrap_or(0.0);
            let b = parse_f64(b.as_bytes()).unwrap_or(0.0);
            a.total_cmp(&b)
        });
    }
    levels.extend(rest.into_iter().map(|v| Level { value: v.to_string(), label: Text::Plain(v.to_string()) }));
    let label = spec.and_then(|s| s.label.clone()).unwrap_or_else(|| Text::Plain(name.to_string()));
    Factor { name: name.to_string(), label, levels, numeric }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(csv: &str, manifest: &Manifest) -> (Vec<Factor>, Vec<Run>, Vec<String>) {
        let mut problems = Problems::default();
        let table = TextTable::parse_csv("runs.csv", csv.as_bytes(), &mut problems).unwrap();
        let parsed = parse_runs(&table, manifest, &mut problems);
        (parsed.factors, parsed.runs, problems.errors().iter().map(ToString::to_string).collect())
    }

    const HEAD: &str = "run_id,route,downloads,repetition,started_at_utc,status,note\n";

    #[test]
    fn factors_are_the_unreserved_columns_with_numeric_levels_sorted_numerically() {
        let csv = format!("{HEAD}a,direct,10,1,2026-11-30T01:00:00Z,ok,\nb,nginx,2,1,2026-11-30T01:00:10Z,ok,\nc,direct,0,1,2026-11-30T01:00:20.5+09:00,excluded,host busy\n");
        let (factors, runs, problems) = parse(&csv, &Manifest::default());
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(factors.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), vec!["route", "downloads"]);
        assert!(factors[1].numeric);
        let levels: Vec<&str> = factors[1].levels.iter().map(|l| l.value.as_str()).collect();
        assert_eq!(levels, vec!["0", "2", "10"]);
        assert_eq!(runs[2].status, RunStatus::Excluded);
        assert_eq!(runs[2].note.as_str(), "host busy");
        assert_eq!(runs[0].levels, vec![0, 2]);
    }

    /// measure's own columns (`recipe`, `round` of a plan in rounds, and the contention it
    /// measured) are not factors; a runs.csv without them (an older measure's) reads the same.
    #[test]
    fn measures_recipe_round_and_contention_are_not_factors() {
        let head = "run_id,route,downloads,repetition,started_at_utc,status,note,load1_before,load1_after,recipe,round,\
                    server_cpu_share,load_cpu_share,steal_pct\n";
        let csv = format!(
            "{head}a,direct,10,1,2026-11-30T01:00:00Z,ok,,0.1,0.2,0123456789ab,1,0.950,0.412,0.00\n\
             b,nginx,2,2,2026-11-30T01:00:10Z,ok,,,,0123456789ab,2,,,\n"
        );
        let (factors, runs, problems) = parse(&csv, &Manifest::default());
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(factors.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), vec!["route", "downloads"]);
        assert_eq!(runs.len(), 2);
        assert_eq!((runs[0].server_cpu_share, runs[1].server_cpu_share), (Some(0.95), None));
        assert_eq!(runs.iter().map(|r| r.round).collect::<Vec<_>>(), vec![Some(1), Some(2)], "each run's round");
        let old = "run_id,route,downloads,repetition,started_at_utc,status,note,load1_before,load1_after,recipe,round\n\
                   a,direct,10,1,2026-11-30T01:00:00Z,ok,,0.1,0.2,0123456789ab,1\n";
        let (factors, runs, problems) = parse(old, &Manifest::default());
        assert!(problems.is_empty() && factors.len() == 2 && runs[0].server_cpu_share.is_none(), "{problems:?}");
    }

    #[test]
    fn an_empty_round_is_none_and_a_bad_one_is_refused_at_its_cell() {
        let head = "run_id,route,repetition,started_at_utc,status,note,round\n";
        let csv = format!("{head}a,direct,1,,ok,,\nb,direct,1,,ok,,0\nc,direct,1,,ok,,x\nd,direct,2,,ok,,2\n");
        let (_, runs, problems) = parse(&csv, &Manifest::default());
        assert_eq!(
            problems,
            vec!["runs.csv:3:7: round: round 0 is not a round: rounds count from 1", "runs.csv:4:7: round: \"x\" is not a whole number",]
        );
        assert_eq!(runs.iter().map(|r| (r.run_id.as_str(), r.round)).collect::<Vec<_>>(), vec![("a", None), ("d", Some(2))]);
    }

    #[test]
    fn manifest_level_order_comes_first() {
        let manifest =
            Manifest::parse("[[factors]]\nname = \"route\"\nlevels = [{ value = \"nginx\" }, { value = \"absent\" }]\n").unwrap();
        let csv = format!("{HEAD}a,direct,0,1,2026-11-30T01:00:00Z,ok,\nb,nginx,0,1,2026-11-30T01:00:00Z,ok,\n");
        let (factors, _, problems) = parse(&csv, &manifest);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(factors.len(), 1, "the manifest lists the factors");
        let levels: Vec<&str> = factors[0].levels.iter().map(|l| l.value.as_str()).collect();
        assert_eq!(levels, vec!["nginx", "direct"]);
    }

    #[test]
    fn rejects_duplicate_ids_unknown_status_and_bad_times() {
        let csv =
            format!("{HEAD}a,direct,0,1,2026-11-30T01:00:00Z,ok,\na,direct,0,2,2026-11-30T01:00:00Z,ok,\nb,direct,0,1,yesterday,done,\n");
        let (_, _, problems) = parse(&csv, &Manifest::default());
        assert_eq!(
            problems,
            vec![
                "runs.csv:3:1: run_id: run_id \"a\" appears twice (first on line 2)",
                "runs.csv:4:5: started_at_utc: \"yesterday\" is not an RFC 3339 time (e.g. 2026-11-30T04:05:06Z)",
                "runs.csv:4:6: status: \"done\" is not a status: use ok, aborted or excluded",
            ]
        );
    }

    #[test]
    fn an_empty_start_is_a_start_not_recorded() {
        let csv = format!("{HEAD}a,direct,0,1,,ok,\nb,direct,0,2, ,ok,\nc,direct,0,3,2026-11-30T01:00:00Z,ok,\n");
        let (_, runs, problems) = parse(&csv, &Manifest::default());
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(runs.iter().map(|r| r.started.is_some()).collect::<Vec<_>>(), vec![false, false, true]);
        assert_eq!(runs[0].started_at_utc, "");
    }

    #[test]
    fn a_start_time_that_does_not_exist_is_refused() {
        let csv = format!("{HEAD}a,direct,0,1,2026-02-30T01:00:00Z,ok,\nb,direct,0,1,2026-11-30T99:99:99Z,ok,\nc,direct,0,1,2026-11-30T01:00:00+99:99,ok,\n");
        let (_, runs, problems) = parse(&csv, &Manifest::default());
        assert!(runs.is_empty());
        assert_eq!(
            problems,
            vec![
                "runs.csv:2:5: started_at_utc: \"2026-02-30T01:00:00Z\" is not an RFC 3339 time (e.g. 2026-11-30T04:05:06Z)",
                "runs.csv:3:5: started_at_utc: \"2026-11-30T99:99:99Z\" is not an RFC 3339 time (e.g. 2026-11-30T04:05:06Z)",
                "runs.csv:4:5: started_at_utc: \"2026-11-30T01:00:00+99:99\" is not an RFC 3339 time (e.g. 2026-11-30T04:05:06Z)",
            ]
        );
    }

    #[test]
    fn a_malformed_note_key_is_refused_at_its_cell_and_character() {
        let csv = format!(
            "{HEAD}a,direct,0,1,,ok,ab.summary-whole-ms; hey.cap(max=3\nb,direct,0,1,,ok,\"hey.cap(max=3); host busy\"\nc,direct,0,1,,ok,ab.typo\n"
        );
        let (_, runs, problems) = parse(&csv, &Manifest::default());
        assert_eq!(
            problems,
            vec![
                "runs.csv:2:7: note: at character 35: `hey.cap(` has no closing `)`",
                "runs.csv:4:7: note: at character 1: `ab.typo` is not a note key; the keys of ab are ab.gnuplot-resolution, ab.failures, ab.write-errors, ab.odd-median, ab.summary-whole-ms, ab.status-assumed, ab.failures-unplaced",
            ]
        );
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].note.items().len(), 2, "a key and the user's own words");
    }
}
