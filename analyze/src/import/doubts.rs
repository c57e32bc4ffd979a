//! What an import says and still does: a run that is probably a mistake but may be meant (the
//! same output file imported as a second run, a new factor level one edit away from a level the
//! dataset has). Each is a sentence the command prints before its summary; the import goes on,
//! as the user may mean it (two runs can print the same bytes only by chance; `fastify` and
//! `fastify2` are both real levels), and `--replace` undoes it.

use super::tables::Table;
use super::ImportedRun;

/// The files of `run` whose bytes (sha256) another run of the dataset was imported from, each
/// said with that run and its line of sources.csv.
pub fn same_bytes(run: &ImportedRun, run_id: &str, sources: Option<&Table>) -> Vec<String> {
    let Some(table) = sources else { return Vec::new() };
    let (Some(id), Some(sha), Some(file)) = (table.column("run_id"), table.column("sha256"), table.column("file")) else {
        return Vec::new();
    };
    let mut said = Vec::new();
    for source in &run.files {
        let earlier = table.records.iter().find(|r| r.get(id) != run_id && r.get(sha) == source.sha256);
        if let Some(record) = earlier {
            said.push(format!(
                "{}: the same bytes (sha256 {}…) as {} of run {:?} (sources.csv line {}): one output imported as two runs counts one run twice; if it was not meant, import again with --replace",
                source.name,
                &source.sha256[..12.min(source.sha256.len())],
                record.get(file),
                record.get(id),
                record.line
            ));
        }
    }
    said
}

/// Each `--factor KEY=VALUE` whose value is a new level of its factor one edit (a letter added,
/// left out or changed) away from a level runs.csv has: `fastfy` beside `fastify` makes a new
/// condition of one run.
pub fn near_levels(factors: &[(String, String)], run_id: &str, runs: Option<&Table>) -> Vec<String> {
    let Some(table) = runs else { return Vec::new() };
    let id = table.column("run_id");
    let mut said = Vec::new();
    for (key, value) in factors {
        let Some(column) = table.column(key) else { continue };
        let others = table.records.iter().filter(|r| id.is_none_or(|c| r.get(c) != run_id));
        let levels: Vec<(&str, u64)> = others.map(|r| (r.get(column), r.line)).collect();
        if levels.iter().any(|(level, _)| level == value) {
            continue;
        }
        if let Some((near, line)) = levels.iter().find(|(level, _)| one_edit_apart(level, value)) {
            said.push(format!(
                "--factor {key}={value}: a new level of {key}, one edit away from its level {near:?} (runs.csv line {line}): this run is a condition of its own; if {value:?} is a typo, import again with --replace --factor {key}={near}"
            ));
        }
    }
    said
}

/// Whether `a` becomes `b` by one character added, left out or changed (Levenshtein distance 1).
/// Numbers (concurrency 10 and 100) and names of under 4 characters (`a`, `b`) are levels of
/// their own, never a typo of each other.
fn one_edit_apart(a: &str, b: &str) -> bool {
    if a.parse::<f64>().is_ok() && b.parse::<f64>().is_ok() {
        return false;
    }
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len().max(b.len()) < 4 {
        return false;
    }
    let (short, long) = if a.len() <= b.len() { (&a, &b) } else { (&b, &a) };
    if long.len() - short.len() > 1 || a == b {
        return false;
    }
    let prefix = short.iter().zip(long.iter()).take_while(|(x, y)| x == y).count();
    if short.len() == long.len() {
        // One character changed: the rest after it is equal.
        short[prefix + 1..] == long[prefix + 1..]
    } else {
        // One character added to the longer: skipping it, the rest is equal.
        short[prefix..] == long[prefix + 1..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_edit_is_a_letter_added_left_out_or_changed() {
        for (a, b) in [("fastify", "fastfy"), ("fastfy", "fastify"), ("nginx", "nginz"), ("node", "nodes"), ("xnode", "node")] {
            assert!(one_edit_apart(a, b), "{a} {b}");
        }
        let apart = [("fastify", "fastify"), ("fastify", "express"), ("node", "ndoe"), ("abcd", "a"), ("uvicorn", "gunicorn")];
        // Numbers and short names are levels of their own.
        for (a, b) in apart.into_iter().chain([("10", "100"), ("1.5", "1.6"), ("a", "b"), ("go", "gox")]) {
            assert!(!one_edit_apart(a, b), "{a} {b}");
        }
    }
}
