//! The plan: every number of a study's recipe in one TOML file, kept with the dataset as `plan.toml`.
//!
//! A plan is of one of three kinds, told apart by its `kind` key: the open-loop slow-download study
//! ([`open::OpenLoop`], no `kind`), a closed-loop plan of the seeds' app servers ([`closed::ClosedLoop`],
//! `kind = "closed-loop"`), or a command plan of any server a user can start ([`command::CommandPlan`],
//! `kind = "command"`). Each kind is parsed strictly (`deny_unknown_fields`, so a typo is an error, not a silent default) and
//! validated once. What both share lives here: the seed, the repetitions, the sampler and host limits, and
//! the run order (conditions × repetitions, shuffled with a seeded ChaCha generator, so the order is the
//! same on every machine), which is computed once for every kind: in rounds (`order = "rounds"`, each
//! round runs every condition once in its own shuffled order) or as one shuffled list (`order =
//! "shuffled"`, and a plan without `order`, as every plan was written before rounds).

pub mod bounds;
pub mod closed;
pub mod command;
pub mod locate;
pub mod open;
mod strict;
pub mod template;

use crate::input::{BadInput, BadInputs};
use locate::KeyPath;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;
use std::time::Duration;

/// A plan that does not parse or validate.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PlanError {
    /// The text is not TOML (one problem: nothing after it can be read).
    #[error("{message}")]
    Syntax { message: String, span: Option<std::ops::Range<usize>> },
    /// Every problem of the plan, each at its key.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Problems(Vec<Problem>),
}

/// A problem of a plan at its key (`load.run_timeout_s: ...`), or of the whole plan at [`KeyPath::top`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub key: KeyPath,
    pub message: String,
}

impl Problem {
    pub fn new(key: KeyPath, message: impl Into<String>) -> Problem {
        Problem { key, message: message.into() }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.key.is_top() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.key, self.message)
        }
    }
}

/// `Ok` when there is no problem.
pub(crate) fn none_or(problems: Vec<Problem>) -> Result<(), PlanError> {
    if problems.is_empty() {
        Ok(())
    } else {
        Err(PlanError::Problems(problems))
    }
}

/// The rules every kind shares: the repetitions, the sampler's period and the host limits.
pub(crate) fn check_common(p: &mut Vec<Problem>, repetitions: u32, sampling: &Sampling, host: &Host) {
    bounds::REPETITIONS.push(p, KeyPath::root("repetitions"), repetitions.into());
    bounds::INTERVAL_MS.push(p, KeyPath::root("sampling").key("interval_ms"), sampling.interval_ms);
    p.extend(bounds::load_per_cpu(KeyPath::root("host").key("load1_per_cpu_max"), host.load1_per_cpu_max));
    bounds::range(0, bounds::MAX_RUN_S, "seconds").push(p, KeyPath::root("host").key("idle_wait_max_s"), host.idle_wait_max_s);
}

/// A study's recipe, of either kind.
// One plan lives per study, so the command plan's size (its `[code]` and `[report]` tables) costs nothing
// worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Plan {
    /// The slow-download study: Gunicorn, directly or behind nginx, under slow downloads and an open-loop probe.
    Open(open::OpenLoop),
    /// App servers under a load tool that sends the next request when the previous one has finished.
    Closed(closed::ClosedLoop),
    /// Any server command under any load tool analyze imports, over a matrix of factors.
    Command(command::CommandPlan),
}

/// The samplers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sampling {
    /// Period of the temp-file and process samples.
    pub interval_ms: u64,
}

/// How quiet the host must be.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Host {
    /// Warn (or wait, with --wait-for-idle) when load1 exceeds this times the CPU count.
    pub load1_per_cpu_max: f64,
    /// Longest wait for an idle host before a run starts anyway (with a warning).
    pub idle_wait_max_s: u64,
}

/// An English and a Japanese text, one type for plans and dataset.toml.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Text {
    pub en: String,
    pub ja: String,
}

impl Text {
    pub fn new(en: impl Into<String>, ja: impl Into<String>) -> Text {
        Text { en: en.into(), ja: ja.into() }
    }
}

/// How a study orders its runs: the plan's `order` key. A plan without the key is [`Order::Shuffled`],
/// the order every plan had before rounds, so a kept plan.toml goes on in the order it was started with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// A randomised complete block design: the repetitions are rounds, and round k runs every condition
    /// once (its repetition k), in an order shuffled for that round. A drift of the host over the study
    /// then falls on every condition alike.
    Rounds,
    /// Every condition × repetition shuffled as one list.
    #[default]
    Shuffled,
}

impl Order {
    /// The value as a plan writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Order::Rounds => "rounds",
            Order::Shuffled => "shuffled",
        }
    }
}

/// One combination of factor levels, of the plan's kind.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Condition {
    Open(open::Condition),
    Closed(closed::Condition),
    Command(command::Condition),
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Condition::Open(c) => c.fmt(f),
            Condition::Closed(c) => c.fmt(f),
            Condition::Command(c) => c.fmt(f),
        }
    }
}

/// One planned run: a condition and which repetition of it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Slot {
    pub condition: Condition,
    /// 1-based.
    pub repetition: u32,
}

impl Slot {
    /// The round the slot belongs to in a plan of `order`: in rounds, its repetition k is run in round k;
    /// a shuffled plan has no rounds.
    pub fn round(&self, order: Order) -> Option<u32> {
        (order == Order::Rounds).then_some(self.repetition)
    }
}

impl Plan {
    /// Parses and validates plan text of any kind (a closed-loop plan says `kind = "closed-loop"`, a command
    /// plan `kind = "command"`). Every problem is reported: the unknown keys, and every rule the plan
    /// breaks (unless a value of the wrong type or a missing key leaves nothing to check them on).
    pub fn parse(text: &str) -> Result<Plan, PlanError> {
        if command::is_command(text) {
            let (plan, mut problems): (command::CommandPlan, _) = strict::deserialize(text)?;
            problems.extend(plan.validate());
            none_or(problems)?;
            return Ok(Plan::Command(plan));
        }
        if closed::is_closed_loop(text) {
            closed::ClosedLoop::parse(text).map(Plan::Closed)
        } else {
            open::OpenLoop::parse(text).map(Plan::Open)
        }
    }

    /// Reads, parses and validates a plan file, returning it with its text (copied verbatim into the dataset).
    /// A plan that does not parse or validate is [`BadInputs`]: every problem at its line and column.
    pub fn load(path: &Path) -> anyhow::Result<(Plan, String)> {
        use anyhow::Context;
        let text = std::fs::read_to_string(path).with_context(|| format!("failed to read plan {}", path.display()))?;
        let plan = Plan::parse(&text).map_err(|e| match e {
            PlanError::Syntax { message, span: Some(span) } => {
                let (line, column) = crate::input::line_column(&text, span.start);
                BadInputs(vec![BadInput::at(path, line, Some(column), message)])
            }
            PlanError::Syntax { message, span: None } => BadInputs(vec![BadInput::file(path, message)]),
            PlanError::Problems(problems) => placed(path, &text, &problems),
        })?;
        Ok((plan, text))
    }

    /// Seeds the shuffle of the run order.
    pub fn seed(&self) -> u64 {
        match self {
            Plan::Open(p) => p.seed,
            Plan::Closed(p) => p.seed,
            Plan::Command(p) => p.seed,
        }
    }

    /// Runs per condition.
    pub fn repetitions(&self) -> u32 {
        match self {
            Plan::Open(p) => p.repetitions,
            Plan::Closed(p) => p.repetitions,
            Plan::Command(p) => p.repetitions,
        }
    }

    /// How the runs are ordered: the plan's `order`, else [`Order::Shuffled`] (a plan written before rounds).
    pub fn order(&self) -> Order {
        match self {
            Plan::Open(p) => p.order,
            Plan::Closed(p) => p.order,
            Plan::Command(p) => p.order,
        }
        .unwrap_or_default()
    }

    /// How quiet the host must be before a run.
    pub fn host(&self) -> &Host {
        match self {
            Plan::Open(p) => &p.host,
            Plan::Closed(p) => &p.host,
            Plan::Command(p) => &p.host,
        }
    }

    /// Every distinct condition, in the order the plan's blocks first name them (a command plan: the
    /// product of its factors, the first varying slowest).
    pub fn conditions(&self) -> Vec<Condition> {
        match self {
            Plan::Open(p) => p.conditions().into_iter().map(Condition::Open).collect(),
            Plan::Closed(p) => p.conditions().into_iter().map(Condition::Closed).collect(),
            Plan::Command(p) => p.conditions().into_iter().map(Condition::Command).collect(),
        }
    }

    /// The factors of the conditions, as runs.csv names its columns.
    pub fn factors(&self) -> Vec<String> {
        match self {
            Plan::Open(_) => open::FACTORS.map(String::from).to_vec(),
            Plan::Closed(p) => ["server", "python", p.load.tool.level_factor()].map(String::from).to_vec(),
            Plan::Command(p) => p.factor_names(),
        }
    }

    /// What a study does when a run is aborted.
    pub fn on_abort(&self) -> OnAbort {
        match self {
            // The seeds' servers are measure's own: an aborted run usually needs a look before going on.
            Plan::Open(_) | Plan::Closed(_) => OnAbort { go_on: false, keep_raw: false },
            // A user's server may fail one condition (a flag it does not take at one level): the other
            // conditions still run, and what the server wrote stays in raw/<run_id>/ to read.
            Plan::Command(_) => OnAbort { go_on: true, keep_raw: true },
        }
    }

    /// All planned runs in execution order: every condition × repetition, shuffled with the seed as the
    /// plan's [`Order`] says. In rounds, round k's order depends only on the seed, the conditions and k, so
    /// a plan given more repetitions keeps the order of its first rounds.
    pub fn run_order(&self) -> Vec<Slot> {
        let repetitions = self.repetitions();
        let conditions = self.conditions();
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed());
        match self.order() {
            Order::Rounds => (1..=repetitions)
                .flat_map(|repetition| {
                    let mut round = conditions.clone();
                    round.shuffle(&mut rng);
                    round.into_iter().map(move |condition| Slot { condition, repetition })
                })
                .collect(),
            Order::Shuffled => {
                let mut slots: Vec<Slot> = conditions
                    .into_iter()
                    .flat_map(|condition| (1..=repetitions).map(move |repetition| Slot { condition: condition.clone(), repetition }))
                    .collect();
                slots.shuffle(&mut rng);
                slots
            }
        }
    }

    /// A rough length of one run including server start and stop, for the time-left estimate.
    pub fn estimated_run(&self) -> Duration {
        match self {
            Plan::Open(p) => p.estimated_run(),
            Plan::Closed(p) => p.estimated_run(),
            Plan::Command(p) => p.estimated_run(),
        }
    }

    /// Where the dataset goes unless `--out` says otherwise (relative to the repository root).
    pub fn default_dataset(&self) -> &str {
        match self {
            Plan::Open(_) => open::DEFAULT_DATASET,
            Plan::Closed(p) => &p.dataset,
            Plan::Command(p) => &p.dataset,
        }
    }

    /// The kind's name, as `kind` says it (the open-loop study has none).
    pub fn kind(&self) -> &'static str {
        match self {
            Plan::Open(_) => "open-loop study",
            Plan::Closed(_) => closed::KIND,
            Plan::Command(_) => command::KIND,
        }
    }
}

/// What a study does when a run is aborted (the run stays in runs.csv as `aborted`, with its note, and
/// `--resume` runs its slot again).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OnAbort {
    /// Go on with the next run (else stop the study there).
    pub go_on: bool,
    /// Keep what the run's servers and tool wrote in raw/<run_id>/ (else remove it).
    pub keep_raw: bool,
}

/// A plan's problems placed at their keys' lines and columns in `text`.
pub fn placed(path: &Path, text: &str, problems: &[Problem]) -> BadInputs {
    BadInputs(
        problems
            .iter()
            .map(|p| match locate::locate(text, &p.key) {
                Some((line, column)) => BadInput::at(path, line, Some(column), p),
                None => BadInput::file(path, p),
            })
            .collect(),
    )
}

/// A check's outcome as `key: message` lines (none when it passed), for tests.
#[cfg(test)]
pub(crate) fn problem_lines(result: Result<(), PlanError>) -> Vec<String> {
    match result {
        Ok(()) => Vec::new(),
        Err(PlanError::Problems(problems)) => problems.iter().map(ToString::to_string).collect(),
        Err(other) => vec![other.to_string()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kind_key_picks_the_plan_kind() {
        assert!(matches!(Plan::parse(include_str!("../../plans/study.toml")), Ok(Plan::Open(_))));
        assert!(matches!(Plan::parse(include_str!("../../plans/fastcgi-vs-gunicorn.toml")), Ok(Plan::Closed(_))));
        let typo = include_str!("../../plans/study.toml").replace("seed = ", "kind = \"closed\"\nseed = ");
        assert!(
            problem_lines(Plan::parse(&typo).map(|_| ()))[0].starts_with("kind: unknown key"),
            "an unknown kind is an unknown key of the open-loop plan"
        );
    }

    #[test]
    fn run_order_is_seeded_and_covers_every_slot_once() {
        for text in [include_str!("../../plans/study.toml"), include_str!("../../plans/app-servers-ab.toml")] {
            let plan = Plan::parse(text).unwrap();
            let order = plan.run_order();
            assert_eq!(order, plan.run_order());
            let mut sorted = order.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), plan.conditions().len() * plan.repetitions() as usize);
            let unshuffled: Vec<Slot> = plan
                .conditions()
                .into_iter()
                .flat_map(|condition| (1..=plan.repetitions()).map(move |repetition| Slot { condition: condition.clone(), repetition }))
                .collect();
            assert_ne!(order, unshuffled, "the order must be shuffled");
            let mut other = plan.clone();
            match &mut other {
                Plan::Open(p) => p.seed += 1,
                Plan::Closed(p) => p.seed += 1,
                Plan::Command(p) => p.seed += 1,
            }
            assert_ne!(order, other.run_order());
        }
    }

    /// The worked example with `repetitions` rounds and `seed`.
    fn in_rounds(repetitions: u32, seed: u64) -> Plan {
        let text = include_str!("../../plans/static-file-servers.toml")
            .replace("repetitions = 6", &format!("repetitions = {repetitions}"))
            .replace("seed = 20261204", &format!("seed = {seed}"));
        let plan = Plan::parse(&text).unwrap();
        assert_eq!(plan.order(), Order::Rounds, "the committed plans write order = \"rounds\"");
        plan
    }

    #[test]
    fn rounds_run_every_condition_once_per_round_in_an_order_shuffled_per_round() {
        let plan = in_rounds(6, 20261204);
        let conditions = plan.conditions();
        let order = plan.run_order();
        assert_eq!(order.len(), conditions.len() * 6);
        let rounds: Vec<&[Slot]> = order.chunks(conditions.len()).collect();
        for (i, round) in rounds.iter().enumerate() {
            let mut seen: Vec<Condition> = round.iter().map(|s| s.condition.clone()).collect();
            seen.sort();
            let mut all = conditions.clone();
            all.sort();
            assert_eq!(seen, all, "round {} runs every condition once", i + 1);
            assert!(round.iter().all(|s| s.repetition == i as u32 + 1 && s.round(Order::Rounds) == Some(i as u32 + 1)));
        }
        let firsts: Vec<Vec<&Condition>> = rounds.iter().map(|r| r.iter().map(|s| &s.condition).collect()).collect();
        assert!(firsts.iter().any(|r| *r != firsts[0]), "each round is shuffled on its own: {firsts:?}");
        assert_eq!(order, plan.run_order(), "seeded");
        assert_ne!(order, in_rounds(6, 20261205).run_order(), "another seed, another order");
        // A plan given more rounds (a resumed study) keeps the order of the rounds it had.
        assert_eq!(in_rounds(8, 20261204).run_order()[..order.len()], order[..]);
    }

    #[test]
    fn a_plan_without_order_keeps_the_whole_study_shuffle() {
        let text = include_str!("../../plans/static-file-servers.toml").replace("order = \"rounds\"\n", "");
        let plan = Plan::parse(&text).unwrap();
        assert_eq!(plan.order(), Order::Shuffled);
        let order = plan.run_order();
        let rounds = order.chunks(plan.conditions().len()).all(|r| r.iter().all(|s| s.repetition == r[0].repetition));
        assert!(!rounds, "not in rounds: {order:?}");
        assert!(order.iter().all(|s| s.round(plan.order()).is_none()));
        let shuffled = Plan::parse(&text.replace("repetitions = 6", "repetitions = 6\norder = \"shuffled\"")).unwrap();
        assert_eq!(shuffled.run_order(), order, "order = \"shuffled\" says the same");
        let typo = problem_lines(Plan::parse(&text.replace("repetitions = 6", "repetitions = 6\norder = \"blocks\"")).map(|_| ()));
        assert!(typo[0].starts_with("order: unknown variant `blocks`, expected `rounds` or `shuffled`"), "{typo:?}");
    }

    #[test]
    fn a_closed_loop_plans_rule_is_placed_at_its_key() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("plan.toml");
        let text = include_str!("../../plans/app-servers-ab.toml").replace("repetitions = 5", "repetitions = 0");
        std::fs::write(&path, &text).unwrap();
        let err = Plan::load(&path).unwrap_err().to_string();
        let line = text.lines().position(|l| l.starts_with("repetitions = 0")).unwrap() + 1;
        assert_eq!(err, format!("{}:{line}:1: repetitions: must be positive (1 to 1000 runs)", path.display()));
    }
}
