//! The checks of a command plan, each problem named by its key path; all of them are collected, so one
//! look at the error shows everything to fix.

use super::{excludes, CommandPlan, Problem, RUN_NAMES, SERVER_FACTOR};
use crate::plan::bounds;
use crate::plan::locate::KeyPath;
use crate::plan::template;
use std::collections::BTreeSet;
use std::path::{Component, Path};

/// runs.csv's own columns: a factor may not take their names.
use request_row::columns::RUNS_RESERVED as RUNS_COLUMNS;

/// A server name goes into runs.csv, servers.csv and `[environment]` keys.
fn server_name_ok(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
}

/// A level goes into runs.csv and into command lines, so it follows the names rule analyze reads
/// runs.csv with (`request_row::name::check_name`), refused here before anything is written, and it is
/// written as it is, so without surrounding spaces.
fn level_problem(level: &str) -> Option<String> {
    match request_row::name::check_name(level) {
        Err(why) => Some(format!("the level {}", why.message("a level"))),
        Ok(name) if name != level => Some("a level may not start or end with a space".to_string()),
        Ok(_) => None,
    }
}

/// Why `series` cannot name a history page, as analyze checks dataset.toml's `[history] series`
/// (analyze/src/dataset/history.rs): one line of at most 200 bytes, no slash, no leading dot or space.
fn series_problem(series: &str) -> Option<String> {
    let bad = series.trim() != series
        || series.is_empty()
        || series.len() > 200
        || series.chars().any(|c| c.is_control() || c == '/' || c == '\\')
        || series.starts_with('.');
    bad.then(|| {
        format!(
            "{series:?} names the history (dataset.toml [history] series), so it must be one line of at most 200 bytes \
             without a slash, a control character or a leading dot or space; set code.series"
        )
    })
}

fn known_names(plan: &CommandPlan) -> String {
    let mut names: Vec<String> = plan.factor_names().iter().map(|n| format!("{{{n}}}")).collect();
    names.extend(RUN_NAMES.iter().map(|n| format!("{{{n}}}")));
    names.join(", ")
}

impl CommandPlan {
    /// Every problem of the plan; empty when it can run.
    pub fn validate(&self) -> Vec<Problem> {
        let mut p = Vec::new();
        let root = KeyPath::root;
        if self.kind != super::KIND {
            p.push(Problem::new(root("kind"), format!("must be {:?} in a command plan", super::KIND)));
        }
        if self.dataset.trim().is_empty() {
            p.push(Problem::new(root("dataset"), "must name a folder"));
        }
        crate::plan::check_common(&mut p, self.repetitions, &self.sampling, &self.host);
        self.check_factors(&mut p);
        self.check_servers(&mut p);
        self.check_load(&mut p);
        self.check_code(&mut p);
        p
    }

    fn check_code(&self, p: &mut Vec<Problem>) {
        let Some(code) = &self.code else { return };
        let key = KeyPath::root("code");
        if code.revision.is_none() && code.hash.is_empty() {
            p.push(Problem::new(key.clone(), "records nothing: give `revision` (a command printing it) or `hash` (files and folders)"));
        }
        if let Some(revision) = &code.revision {
            if revision.first().is_none_or(|v| v.trim().is_empty()) {
                p.push(Problem::new(key.key("revision"), "needs a program, e.g. [\"git\", \"rev-parse\", \"HEAD\"]"));
            }
            for (i, arg) in revision.iter().enumerate() {
                if !template::names(arg).is_empty() {
                    p.push(Problem::new(key.key("revision").index(i), "runs once before the study: it cannot use placeholders"));
                }
            }
        }
        for (i, path) in code.hash.iter().enumerate() {
            if path.trim().is_empty() {
                p.push(Problem::new(key.key("hash").index(i), "must name a file or a folder"));
            }
        }
        if let (Some(series), true) = (self.history_series(), code.revision.is_some()) {
            if let Some(why) = series_problem(series) {
                let at = if code.series.is_some() { key.key("series") } else { KeyPath::root("title").key("en") };
                p.push(Problem::new(at, why));
            }
        }
        if code.series.is_some() && code.revision.is_none() {
            p.push(Problem::new(key.key("series"), "names a history, which needs `revision` to order its measurements"));
        }
    }

    fn check_factors(&self, p: &mut Vec<Problem>) {
        let factors = KeyPath::root("factors");
        if self.factors.0.is_empty() {
            p.push(Problem::new(factors.clone(), "needs at least one factor, e.g. concurrency = [1, 10]"));
        }
        for (name, levels) in &self.factors.0 {
            let key = factors.key(name);
            if !template::is_name(name) {
                p.push(Problem::new(
                    key.clone(),
                    format!("{name:?} cannot be a factor's name: use letters, digits and '_', starting with a letter"),
                ));
            } else if RUN_NAMES.contains(&name.as_str()) || RUNS_COLUMNS.contains(&name.as_str()) {
                p.push(Problem::new(key.clone(), format!("{name:?} is measure's own name; call the factor otherwise")));
            }
            if levels.is_empty() {
                p.push(Problem::new(key.clone(), "needs at least one level"));
            }
            let mut seen = BTreeSet::new();
            for (i, level) in levels.iter().enumerate() {
                if let Some(why) = level_problem(level) {
                    p.push(Problem::new(key.index(i), why));
                } else if !seen.insert(level) {
                    p.push(Problem::new(key.index(i), format!("{level:?} is listed twice")));
                }
            }
        }
        match self.factors.0.iter().find(|(n, _)| n == SERVER_FACTOR) {
            Some((_, levels)) => {
                for (i, level) in levels.iter().enumerate() {
                    if !self.servers.contains_key(level) {
                        p.push(Problem::new(factors.key(SERVER_FACTOR).index(i), format!("{level:?} is not defined under [servers]")));
                    }
                }
                for name in self.servers.keys().filter(|s| !levels.contains(s)) {
                    p.push(Problem::new(
                        KeyPath::root("servers").key(name),
                        "is not a level of factors.server, so no run would start it (a typo?)",
                    ));
                }
            }
            None if self.servers.len() > 1 => p.push(Problem::new(
                factors.clone(),
                format!("the plan defines {} servers: list them as factors.server = [...] to say which runs when", self.servers.len()),
            )),
            None => {}
        }
        for name in self.factor_labels.keys() {
            if !self.factor_names().contains(name) {
                p.push(Problem::new(KeyPath::root("factor_labels").key(name), format!("{name:?} is not a factor")));
            }
        }
        if let Some(x) = &self.x {
            if !self.factor_names().contains(x) {
                p.push(Problem::new(KeyPath::root("x"), format!("{x:?} is not a factor")));
            }
        }
        let all = CommandPlan { exclude: Vec::new(), ..self.clone() }.conditions();
        for (i, rule) in self.exclude.iter().enumerate() {
            let key = KeyPath::root("exclude").index(i);
            if rule.is_empty() {
                p.push(Problem::new(key.clone(), "an empty rule would exclude every condition"));
            }
            for (factor, levels) in rule {
                let Some((_, known)) = self.factors.0.iter().find(|(n, _)| n == factor) else {
                    p.push(Problem::new(key.key(factor), format!("{factor:?} is not a factor")));
                    continue;
                };
                for level in levels.0.iter().filter(|l| !known.contains(l)) {
                    p.push(Problem::new(key.key(factor), format!("{level:?} is not a level of {factor}")));
                }
            }
            if !rule.is_empty() && !all.iter().any(|c| excludes(rule, c)) {
                p.push(Problem::new(key, "excludes no condition (a typo?)"));
            }
        }
        if !self.factors.0.is_empty() && self.factors.0.iter().all(|(_, l)| !l.is_empty()) && self.conditions().is_empty() {
            p.push(Problem::new(KeyPath::root("exclude"), "excludes every condition"));
        }
    }

    fn check_servers(&self, p: &mut Vec<Problem>) {
        let factor_names = self.factor_names();
        let known = |name: &str| factor_names.iter().any(|f| f == name) || RUN_NAMES.contains(&name);
        if self.servers.is_empty() {
            p.push(Problem::new(KeyPath::root("servers"), "needs at least one [servers.NAME] with its command"));
        }
        for (name, server) in &self.servers {
            let base = KeyPath::root("servers").key(name);
            if !server_name_ok(name) {
                p.push(Problem::new(base.clone(), format!("{name:?}: a server's name may use only letters, digits, '.', '-' and '_'")));
            }
            if server.command.first().is_none_or(|program| program.trim().is_empty()) {
                p.push(Problem::new(
                    base.key("command"),
                    "needs the program and its arguments, e.g. [\"my-server\", \"--port\", \"{port}\"]",
                ));
            }
            let mut has_port = false;
            for (key, text) in server.templated(&base) {
                for n in template::names(text) {
                    has_port |= n == "port";
                    if !known(n) {
                        p.push(Problem::new(
                            key.clone(),
                            format!(
                                "{{{n}}} is not a factor declared under [factors] nor one of measure's own names; known: {}; write {{{{{n}}}}} for the text {{{n}}}",
                                known_names(self)
                            ),
                        ));
                    }
                }
            }
            if !has_port && !server.command.is_empty() {
                p.push(Problem::new(
                    base.key("command"),
                    "never says {port}: measure starts every run's server on a free port and must tell it which (in its command, env or files)",
                ));
            }
            for path in server.files.keys() {
                let rel = Path::new(path);
                let plain = !path.is_empty() && rel.components().all(|c| matches!(c, Component::Normal(_)));
                if !plain {
                    p.push(Problem::new(
                        base.key("files").key(path),
                        "must be a relative path inside the run's folder (no '..', not absolute)",
                    ));
                }
            }
            for key in server.env.keys() {
                if !template::is_name(key) {
                    p.push(Problem::new(base.key("env").key(key), format!("{key:?} is not a variable name")));
                }
            }
            if server.ready != "tcp" && (!server.ready.starts_with('/') || server.ready.contains(char::is_whitespace)) {
                p.push(Problem::new(base.key("ready"), "must be \"tcp\" or a path that answers with a 2xx status, such as \"/health\""));
            }
            bounds::WAIT_S.push(p, base.key("ready_timeout_s"), server.ready_timeout_s);
            bounds::range(0, bounds::MAX_WAIT_S, "seconds").push(p, base.key("stop_grace_s"), server.stop_grace_s);
            if super::signal_number(&server.stop_signal).is_none() {
                p.push(Problem::new(base.key("stop_signal"), "must be TERM, INT, QUIT, HUP, USR1, USR2, WINCH or KILL"));
            }
            if let Some(version) = &server.version {
                if version.first().is_none_or(|v| v.trim().is_empty()) {
                    p.push(Problem::new(base.key("version"), "needs a program, e.g. [\"nginx\", \"-v\"]"));
                }
                for (i, arg) in version.iter().enumerate() {
                    if !template::names(arg).is_empty() {
                        p.push(Problem::new(base.key("version").index(i), "runs once before the study: it cannot use placeholders"));
                    }
                }
            }
        }
    }

    fn check_load(&self, p: &mut Vec<Problem>) {
        let load = KeyPath::root("load");
        bounds::WAIT_S.push(p, load.key("request_timeout_s"), self.load.request_timeout_s);
        bounds::RUN_S.push(p, load.key("run_timeout_s"), self.load.run_timeout_s);
        // Placeholders of the load name factors only: the server's port and folder are not the load's.
        let mut texts: Vec<(&str, &str)> = vec![("path", self.load.path.as_str())];
        for (name, param) in self.load.params() {
            if let Some(super::Param::Template(t)) = param {
                texts.push((name, t));
            }
        }
        let mut undeclared = false;
        for (name, text) in texts {
            for n in template::names(text) {
                if !self.factor_names().iter().any(|f| f == n) {
                    undeclared = true;
                    p.push(Problem::new(load.key(name), format!("{{{n}}} is not a factor declared under [factors]")));
                }
            }
        }
        if undeclared {
            return;
        }
        let mut seen = BTreeSet::new();
        for condition in self.conditions() {
            let problem = match self.load.resolve(&condition) {
                Err(problem) => Some(problem),
                Ok(run) if self.load.warmup_of(&run).is_err() => self.load.warmup_of(&run).err(),
                Ok(_) => self.planned_load(&condition).and_then(|planned| {
                    let what = format!("the load of {condition}");
                    let (run, request) = (self.load.run_timeout_s, self.load.request_timeout_s);
                    bounds::run_timeout_covers(load.key("run_timeout_s"), run, planned.as_secs(), request, &what)
                }),
            };
            // One problem per key: the first condition that has it.
            if let Some(problem) = problem.filter(|problem| seen.insert(problem.key.to_string())) {
                p.push(problem);
            }
        }
    }
}
