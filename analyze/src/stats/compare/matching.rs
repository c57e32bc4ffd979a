//! Which condition of the baseline is which condition of the candidate: equal levels of the
//! factors both datasets have, after the `--match` rules translated the baseline's names into
//! the candidate's. Nothing is guessed: a condition without exactly one counterpart is listed
//! with the reason, never dropped silently.
//!
//! A factor only one side has is set aside. When that side's conditions take a single level of
//! it, nothing is lost; when they take several, the conditions that differ only in it share
//! their levels of the common factors, and those are listed as ambiguous until a rule picks one
//! level (`--match FACTOR:=LEVEL` when the baseline lacks the factor, `--match FACTOR:LEVEL=`
//! when the candidate does).

use crate::report::compare::{Matching, OneSideFactor, UnmatchedReason};
use crate::report::{ConditionResult, FactorInfo};
use std::collections::BTreeMap;

/// One `--match` rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatchRule {
    /// `OLD=NEW`: the baseline's factor OLD is the candidate's factor NEW.
    Rename { from: String, to: String },
    /// `FACTOR:OLD=NEW`: the baseline's level OLD of FACTOR is the candidate's level NEW. An
    /// empty OLD: the baseline lacks FACTOR and its runs count as level NEW. An empty NEW: the
    /// candidate lacks FACTOR and only the baseline's level OLD is compared.
    Level { factor: String, from: String, to: String },
}

/// A `--match` rule that cannot be applied, with the argument as given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    #[error(
        "--match {given:?}: expected OLD=NEW (a factor the candidate names otherwise) or FACTOR:OLD=NEW (a level), e.g. --match route=path, --match route:nginx-on=nginx, --match worker:=sync"
    )]
    Syntax { given: String },
    #[error("--match {given:?}: the {side} has no factor {name:?} (its factors: {known})")]
    NoFactor { given: String, side: &'static str, name: String, known: String },
    #[error("--match {given:?}: the {side} has no level {level:?} of {factor:?} (its levels: {known})")]
    NoLevel { given: String, side: &'static str, factor: String, level: String, known: String },
    #[error("--match {given:?}: {reason}")]
    Conflict { given: String, reason: String },
}

impl MatchRule {
    /// Reads one `--match` argument.
    pub fn parse(text: &str) -> Result<MatchRule, MatchError> {
        let syntax = || MatchError::Syntax { given: text.to_string() };
        let (left, to) = text.split_once('=').ok_or_else(syntax)?;
        match left.split_once(':') {
            None if !left.is_empty() && !to.is_empty() => Ok(MatchRule::Rename { from: left.to_string(), to: to.to_string() }),
            Some((factor, from)) if !factor.is_empty() && (!from.is_empty() || !to.is_empty()) => {
                Ok(MatchRule::Level { factor: factor.to_string(), from: from.to_string(), to: to.to_string() })
            }
            _ => Err(syntax()),
        }
    }

    /// The rule as `--match` takes it.
    pub fn text(&self) -> String {
        match self {
            MatchRule::Rename { from, to } => format!("{from}={to}"),
            MatchRule::Level { factor, from, to } => format!("{factor}:{from}={to}"),
        }
    }
}

/// The pairs of matched conditions and what is left over on each side.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Matched {
    /// (baseline condition, candidate condition), indices into each report's conditions, in
    /// the candidate's order.
    pub pairs: Vec<(usize, usize)>,
    /// Unmatched conditions of each side, in its order, with why and the other side's
    /// conditions they could have been.
    pub only_in_baseline: Vec<(usize, UnmatchedReason, Vec<usize>)>,
    pub only_in_candidate: Vec<(usize, UnmatchedReason, Vec<usize>)>,
    pub matching: Matching,
}

/// How the rules translate the baseline's factor levels.
#[derive(Default)]
struct Translation {
    /// Baseline factor name → candidate factor name.
    renamed: BTreeMap<String, String>,
    /// (candidate factor name, baseline level) → candidate level.
    levels: BTreeMap<(String, String), String>,
    /// Factors the baseline lacks, with the level its runs count as.
    added: BTreeMap<String, String>,
    /// Factors the candidate lacks (by the baseline's translated name), with the one level kept.
    picked: BTreeMap<String, String>,
}

impl Translation {
    /// A baseline condition's levels by the candidate's names; `None` when a rule picked another
    /// level of a factor the candidate lacks.
    fn apply(&self, factors: &BTreeMap<String, String>) -> Option<BTreeMap<String, String>> {
        let mut out = BTreeMap::new();
        for (name, value) in factors {
            let name = self.renamed.get(name).unwrap_or(name);
            if let Some(kept) = self.picked.get(name) {
                if value != kept {
                    return None;
                }
                continue;
            }
            let value = self.levels.get(&(name.clone(), value.clone())).unwrap_or(value);
            out.insert(name.clone(), value.clone());
        }
        out.extend(self.added.iter().map(|(k, v)| (k.clone(), v.clone())));
        Some(out)
    }
}

fn names(factors: &[FactorInfo]) -> String {
    factors.iter().map(|f| f.name.as_str()).collect::<Vec<_>>().join(", ")
}

fn levels_of(factor: &FactorInfo) -> String {
    factor.levels.iter().map(|l| l.value.as_str()).collect::<Vec<_>>().join(", ")
}

/// Checks the rules against both datasets' factors and levels and turns them into one
/// translation of the baseline's names.
fn translation(rules: &[MatchRule], base: &[FactorInfo], cand: &[FactorInfo]) -> Result<Translation, MatchError> {
    let mut t = Translation::default();
    let find = |factors: &[FactorInfo], name: &str| factors.iter().position(|f| f.name == name);
    for rule in rules.iter().filter(|r| matches!(r, MatchRule::Rename { .. })) {
        let MatchRule::Rename { from, to } = rule else { continue };
        let given = rule.text();
        if find(base, from).is_none() {
            return Err(MatchError::NoFactor { given, side: "baseline", name: from.clone(), known: names(base) });
        }
        if find(cand, to).is_none() {
            return Err(MatchError::NoFactor { given, side: "candidate", name: to.clone(), known: names(cand) });
        }
        if t.renamed.insert(from.clone(), to.clone()).is_some() {
            return Err(MatchError::Conflict { given, reason: format!("the factor {from:?} is renamed twice") });
        }
    }
    // The renames apply together, so two factors can swap names; two that end with one name are
    // refused, as one would hide the other.
    let final_name = |name: &str| t.renamed.get(name).cloned().unwrap_or_else(|| name.to_string());
    for (i, first) in base.iter().enumerate() {
        if let Some(second) = base[i + 1..].iter().find(|f| final_name(&f.name) == final_name(&first.name)) {
            let (kept, moved) = if t.renamed.contains_key(&first.name) { (second, first) } else { (first, second) };
            let to = final_name(&moved.name);
            return Err(MatchError::Conflict {
                given: format!("{}={to}", moved.name),
                reason: format!(
                    "the baseline has a factor {to:?} already, so {:?} and {:?} would both be {to:?}: rename it too (--match {to}=OTHER) or swap the two (--match {}={to} --match {to}={})",
                    kept.name, moved.name, moved.name, moved.name
                ),
            });
        }
    }
    // A baseline factor by its name in the candidate's terms (renamed or not), or by its own.
    let base_factor = |name: &str| -> Option<&FactorInfo> {
        base.iter().find(|f| t.renamed.get(&f.name).unwrap_or(&f.name) == name).or_else(|| base.iter().find(|f| f.name == name))
    };
    let mut levels = BTreeMap::new();
    let (mut added, mut picked) = (BTreeMap::new(), BTreeMap::new());
    for rule in rules {
        let MatchRule::Level { factor, from, to } = rule else { continue };
        let given = rule.text();
        let in_base = base_factor(factor);
        // Named as the baseline names it, the factor is looked up in the candidate by its new name.
        let cand_name = in_base.map_or(factor, |b| t.renamed.get(&b.name).unwrap_or(factor));
        let in_cand = find(cand, cand_name).map(|i| &cand[i]);
        let no_level = |side: &'static str, f: &FactorInfo, level: &str| MatchError::NoLevel {
            given: given.clone(),
            side,
            factor: f.name.clone(),
            level: level.to_string(),
            known: levels_of(f),
        };
        let has = |f: &FactorInfo, level: &str| f.levels.iter().any(|l| l.value == level);
        match (in_base, in_cand, from.is_empty(), to.is_empty()) {
            (Some(b), Some(c), false, false) => {
                if !has(b, from) {
                    return Err(no_level("baseline", b, from));
                }
                if !has(c, to) {
                    return Err(no_level("candidate", c, to));
                }
                let key = (c.name.clone(), from.clone());
                if levels.insert(key, to.clone()).is_some() {
                    return Err(MatchError::Conflict { given, reason: format!("the baseline's level {from:?} is mapped twice") });
                }
            }
            (None, Some(c), true, false) => {
                if !has(c, to) {
                    return Err(no_level("candidate", c, to));
                }
                added.insert(c.name.clone(), to.clone());
            }
            (Some(b), None, false, true) => {
                if !has(b, from) {
                    return Err(no_level("baseline", b, from));
                }
                picked.insert(t.renamed.get(&b.name).unwrap_or(&b.name).clone(), from.clone());
            }
            (Some(_), Some(_), _, _) => {
                return Err(MatchError::Conflict {
                    given,
                    reason: format!("both datasets have {factor:?}: map a level to a level, FACTOR:OLD=NEW"),
                })
            }
            (None, Some(_), false, _) | (None, None, ..) => {
                let known = names(base);
                return Err(MatchError::NoFactor { given, side: "baseline", name: factor.clone(), known });
            }
            (Some(_), None, ..) => {
                return Err(MatchError::NoFactor { given, side: "candidate", name: factor.clone(), known: names(cand) });
            }
            (None, Some(_), true, true) => return Err(MatchError::Syntax { given }),
        }
    }
    // Level rules also apply together (two levels may swap), but two baseline levels mapped onto
    // one would make two conditions one.
    for b in base {
        let name = final_name(&b.name);
        let mapped = |level: &str| levels.get(&(name.clone(), level.to_string())).cloned().unwrap_or_else(|| level.to_string());
        for (i, first) in b.levels.iter().enumerate() {
            if let Some(second) = b.levels[i + 1..].iter().find(|l| mapped(&l.value) == mapped(&first.value)) {
                let onto = mapped(&first.value);
                let ruled = if levels.contains_key(&(name.clone(), second.value.clone())) { &second.value } else { &first.value };
                let other = if ruled == &first.value { &second.value } else { &first.value };
                return Err(MatchError::Conflict {
                    given: format!("{}:{ruled}={onto}", b.name),
                    reason: format!(
                        "the baseline's levels {:?} and {:?} of {:?} would both be {onto:?}, so two conditions would be one: map {other:?} elsewhere, or swap the two (--match {}:{ruled}={onto} --match {}:{onto}={ruled})",
                        first.value, second.value, b.name, b.name, b.name
                    ),
                });
            }
        }
    }
    t.levels = levels;
    t.added = added;
    t.picked = picked;
    Ok(t)
}

/// Matches the conditions of two reports (their factors and conditions) under `rules`.
pub fn match_conditions(
    rules: &[MatchRule],
    (base_factors, base): (&[FactorInfo], &[ConditionResult]),
    (cand_factors, cand): (&[FactorInfo], &[ConditionResult]),
) -> Result<Matched, MatchError> {
    let t = translation(rules, base_factors, cand_factors)?;
    let translated: Vec<Option<BTreeMap<String, String>>> = base.iter().map(|c| t.apply(&c.factors)).collect();
    // Every condition has every factor of its dataset, so one translated condition names them all.
    let base_names: Vec<String> = match translated.iter().flatten().next() {
        Some(levels) => levels.keys().cloned().collect(),
        None => {
            base_factors.iter().map(|f| t.renamed.get(&f.name).unwrap_or(&f.name).clone()).filter(|n| !t.picked.contains_key(n)).collect()
        }
    };
    let common: Vec<String> = cand_factors.iter().map(|f| f.name.clone()).filter(|n| base_names.contains(n)).collect();
    let one_side = |names: &mut dyn Iterator<Item = String>, levels: &dyn Fn(&str) -> Vec<String>| -> Vec<OneSideFactor> {
        names.map(|factor| OneSideFactor { levels: levels(&factor), factor }).collect()
    };
    let distinct = |values: Vec<String>| -> Vec<String> {
        let mut seen: Vec<String> = Vec::new();
        for v in values {
            if !seen.contains(&v) {
                seen.push(v);
            }
        }
        seen
    };
    let only_base = one_side(&mut base_names.iter().filter(|n| !common.contains(n)).cloned(), &|name| {
        distinct(translated.iter().flatten().filter_map(|l| l.get(name).cloned()).collect())
    });
    let only_cand = one_side(&mut cand_factors.iter().map(|f| f.name.clone()).filter(|n| !common.contains(n)), &|name| {
        distinct(cand.iter().filter_map(|c| c.factors.get(name).cloned()).collect())
    });

    let key =
        |levels: &BTreeMap<String, String>| -> Vec<String> { common.iter().map(|n| levels.get(n).cloned().unwrap_or_default()).collect() };
    let mut base_by_key: BTreeMap<Vec<String>, Vec<usize>> = BTreeMap::new();
    for (i, levels) in translated.iter().enumerate() {
        if let Some(levels) = levels {
            base_by_key.entry(key(levels)).or_default().push(i);
        }
    }
    let mut cand_by_key: BTreeMap<Vec<String>, Vec<usize>> = BTreeMap::new();
    for (i, c) in cand.iter().enumerate() {
        cand_by_key.entry(key(&c.factors)).or_default().push(i);
    }
    let mut matched = Matched {
        matching: Matching {
            by: common.clone(),
            only_in_baseline: only_base,
            only_in_candidate: only_cand,
            rules: rules.iter().map(MatchRule::text).collect(),
            suggested: Vec::new(),
        },
        ..Matched::default()
    };
    let empty = Vec::new();
    for (i, c) in cand.iter().enumerate() {
        let k = key(&c.factors);
        let here = &cand_by_key[&k];
        let there = base_by_key.get(&k).unwrap_or(&empty);
        match (here.len(), there.len()) {
            (1, 1) => matched.pairs.push((there[0], i)),
            (_, 0) => matched.only_in_candidate.push((i, UnmatchedReason::NoCounterpart, Vec::new())),
            _ => matched.only_in_candidate.push((i, UnmatchedReason::Ambiguous, there.clone())),
        }
    }
    for (i, levels) in translated.iter().enumerate() {
        let Some(levels) = levels else {
            matched.only_in_baseline.push((i, UnmatchedReason::NotSelected, Vec::new()));
            continue;
        };
        let k = key(levels);
        let here = &base_by_key[&k];
        let there = cand_by_key.get(&k).unwrap_or(&empty);
        match (here.len(), there.len()) {
            (1, 1) => {}
            (_, 0) => matched.only_in_baseline.push((i, UnmatchedReason::NoCounterpart, Vec::new())),
            _ => matched.only_in_baseline.push((i, UnmatchedReason::Ambiguous, there.clone())),
        }
    }
    matched.matching.suggested = suggestions(&matched, &translated, cand, &common, &t);
    Ok(matched)
}

/// `--match` rules that would pair what is left unmatched: per shared factor, when the unmatched
/// baseline conditions take exactly one level no candidate condition has and the unmatched
/// candidate ones exactly one level no baseline condition has, the rule mapping one onto the
/// other; and a factor only each side has, with the same levels on both, renamed.
fn suggestions(
    matched: &Matched,
    translated: &[Option<BTreeMap<String, String>>],
    cand: &[ConditionResult],
    common: &[String],
    t: &Translation,
) -> Vec<String> {
    let unmatched_base: Vec<&BTreeMap<String, String>> = matched
        .only_in_baseline
        .iter()
        .filter(|(_, reason, _)| *reason == UnmatchedReason::NoCounterpart)
        .filter_map(|(i, ..)| translated[*i].as_ref())
        .collect();
    let unmatched_cand: Vec<&BTreeMap<String, String>> = matched
        .only_in_candidate
        .iter()
        .filter(|(_, reason, _)| *reason == UnmatchedReason::NoCounterpart)
        .map(|(i, ..)| &cand[*i].factors)
        .collect();
    let mut rules = Vec::new();
    if let ([b], [c]) = (matched.matching.only_in_baseline.as_slice(), matched.matching.only_in_candidate.as_slice()) {
        let sorted = |levels: &[String]| -> Vec<String> {
            let mut v = levels.to_vec();
            v.sort();
            v
        };
        if sorted(&b.levels) == sorted(&c.levels) && !(matched.only_in_baseline.is_empty() && matched.only_in_candidate.is_empty()) {
            rules.push(format!("{}={}", b.factor, c.factor));
        }
    }
    if unmatched_base.is_empty() || unmatched_cand.is_empty() {
        return rules;
    }
    let levels_here = |all: &mut dyn Iterator<Item = &BTreeMap<String, String>>, name: &str| -> std::collections::BTreeSet<String> {
        all.filter_map(|l| l.get(name).cloned()).collect()
    };
    for name in common {
        let base_all = levels_here(&mut translated.iter().flatten(), name);
        let cand_all = levels_here(&mut cand.iter().map(|c| &c.factors), name);
        let base_only: Vec<String> =
            levels_here(&mut unmatched_base.iter().copied(), name).into_iter().filter(|l| !cand_all.contains(l)).collect();
        let cand_only: Vec<String> =
            levels_here(&mut unmatched_cand.iter().copied(), name).into_iter().filter(|l| !base_all.contains(l)).collect();
        if let ([from], [to]) = (base_only.as_slice(), cand_only.as_slice()) {
            // The baseline's own level: a rule maps the baseline's level as its runs give it.
            let own = t.levels.iter().find(|(_, v)| *v == from).map_or(from.clone(), |((_, old), _)| old.clone());
            rules.push(format!("{name}:{own}={to}"));
        }
    }
    rules
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Text;
    use crate::report::LevelInfo;

    fn factor(name: &str, levels: &[&str]) -> FactorInfo {
        FactorInfo {
            name: name.into(),
            label: Text::Plain(name.into()),
            levels: levels.iter().map(|v| LevelInfo { value: v.to_string(), label: Text::Plain(v.to_string()) }).collect(),
        }
    }

    /// Conditions with these levels (one `name=value` list each).
    fn conditions(factors: &[FactorInfo], each: &[&[&str]]) -> Vec<ConditionResult> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny");
        let mut dataset = crate::dataset::load(&dir).unwrap();
        let template = crate::stats::build(&mut dataset, crate::stats::Detail::Statistics).conditions.remove(0);
        each.iter()
            .map(|values| ConditionResult {
                id: values.join(","),
                factors: factors.iter().zip(values.iter()).map(|(f, v)| (f.name.clone(), v.to_string())).collect(),
                ..template.clone()
            })
            .collect()
    }

    fn run(rules: &[&str], base: (&[FactorInfo], &[&[&str]]), cand: (&[FactorInfo], &[&[&str]])) -> Result<Matched, MatchError> {
        let rules: Vec<MatchRule> = rules.iter().map(|r| MatchRule::parse(r).unwrap()).collect();
        let (b, c) = (conditions(base.0, base.1), conditions(cand.0, cand.1));
        match_conditions(&rules, (base.0, &b), (cand.0, &c))
    }

    #[test]
    fn equal_factor_sets_match_level_for_level_and_list_the_rest() {
        let f = [factor("route", &["direct", "nginx"]), factor("downloads", &["0", "2"])];
        let m = run(
            &[],
            (&f, &[&["direct", "0"], &["direct", "2"], &["nginx", "2"]]),
            (&f, &[&["direct", "2"], &["nginx", "0"], &["direct", "0"]]),
        )
        .unwrap();
        assert_eq!(m.pairs, vec![(1, 0), (0, 2)]);
        assert_eq!(m.only_in_candidate, vec![(1, UnmatchedReason::NoCounterpart, vec![])]);
        assert_eq!(m.only_in_baseline, vec![(2, UnmatchedReason::NoCounterpart, vec![])]);
        assert_eq!(m.matching.by, vec!["route", "downloads"]);
        // nginx/2 against nginx/0 differ in a level each side has elsewhere: no rule is suggested.
        assert!(m.matching.suggested.is_empty());
    }

    #[test]
    fn a_level_or_factor_named_otherwise_gets_the_rule_that_would_match_it() {
        let base = [factor("route", &["direct", "nginx-on"])];
        let cand = [factor("route", &["direct", "nginx"])];
        let m = run(&[], (&base, &[&["direct"], &["nginx-on"]]), (&cand, &[&["direct"], &["nginx"]])).unwrap();
        assert_eq!(m.matching.suggested, vec!["route:nginx-on=nginx"]);
        let renamed = [factor("path", &["direct", "nginx-on"])];
        let m = run(&[], (&base, &[&["direct"], &["nginx-on"]]), (&renamed, &[&["direct"], &["nginx-on"]])).unwrap();
        assert_eq!(m.matching.suggested, vec!["route=path"]);
    }

    #[test]
    fn a_factor_one_side_varies_makes_its_conditions_ambiguous_until_a_rule_picks_a_level() {
        let base = [factor("route", &["direct"])];
        let cand = [factor("route", &["direct"]), factor("worker", &["sync", "gthread"])];
        let m = run(&[], (&base, &[&["direct"]]), (&cand, &[&["direct", "sync"], &["direct", "gthread"]])).unwrap();
        assert!(m.pairs.is_empty());
        assert_eq!(m.only_in_baseline, vec![(0, UnmatchedReason::Ambiguous, vec![0, 1])]);
        assert_eq!(m.only_in_candidate.len(), 2);
        assert_eq!(
            m.matching.only_in_candidate,
            vec![OneSideFactor { factor: "worker".into(), levels: vec!["sync".into(), "gthread".into()] }]
        );
        // The baseline's runs were sync workers.
        let m = run(&["worker:=sync"], (&base, &[&["direct"]]), (&cand, &[&["direct", "sync"], &["direct", "gthread"]])).unwrap();
        assert_eq!(m.pairs, vec![(0, 0)]);
        assert_eq!(m.only_in_candidate, vec![(1, UnmatchedReason::NoCounterpart, vec![])]);
        // The other way round: the candidate lacks the factor the baseline varies.
        let m = run(&["worker:gthread="], (&cand, &[&["direct", "sync"], &["direct", "gthread"]]), (&base, &[&["direct"]])).unwrap();
        assert_eq!(m.pairs, vec![(1, 0)]);
        assert_eq!(m.only_in_baseline, vec![(0, UnmatchedReason::NotSelected, vec![])]);
    }

    #[test]
    fn a_factor_one_side_holds_at_one_level_is_set_aside() {
        let base = [factor("route", &["direct", "nginx"])];
        let cand = [factor("route", &["direct", "nginx"]), factor("worker", &["sync"])];
        let m = run(&[], (&base, &[&["direct"], &["nginx"]]), (&cand, &[&["direct", "sync"], &["nginx", "sync"]])).unwrap();
        assert_eq!(m.pairs, vec![(0, 0), (1, 1)]);
        assert_eq!(m.matching.only_in_candidate, vec![OneSideFactor { factor: "worker".into(), levels: vec!["sync".into()] }]);
    }

    #[test]
    fn renamed_factors_and_mapped_levels_match() {
        let base = [factor("route", &["direct", "nginx-on"])];
        let cand = [factor("path", &["direct", "nginx"])];
        let m = run(&["route=path", "path:nginx-on=nginx"], (&base, &[&["direct"], &["nginx-on"]]), (&cand, &[&["nginx"], &["direct"]]))
            .unwrap();
        assert_eq!(m.pairs, vec![(1, 0), (0, 1)]);
        // The level rule may name the factor as the baseline does, too.
        let same =
            run(&["route=path", "route:nginx-on=nginx"], (&base, &[&["direct"], &["nginx-on"]]), (&cand, &[&["nginx"], &["direct"]]))
                .unwrap();
        assert_eq!(same.pairs, m.pairs);
    }

    #[test]
    fn two_factors_or_two_levels_can_swap_but_never_merge() {
        // The baseline called them the other way round.
        let base = [factor("route", &["a", "b"]), factor("worker", &["sync", "gthread"])];
        let cand = [factor("worker", &["a", "b"]), factor("route", &["sync", "gthread"])];
        let m = run(
            &["route=worker", "worker=route"],
            (&base, &[&["a", "sync"], &["b", "gthread"]]),
            (&cand, &[&["b", "gthread"], &["a", "sync"]]),
        )
        .unwrap();
        assert_eq!(m.pairs, vec![(1, 0), (0, 1)]);
        // Renaming onto a factor the baseline keeps would merge two factors.
        let error = run(&["route=worker"], (&base, &[&["a", "sync"]]), (&cand, &[&["a", "sync"]])).unwrap_err();
        assert_eq!(
            error.to_string(),
            "--match \"route=worker\": the baseline has a factor \"worker\" already, so \"worker\" and \"route\" would both be \"worker\": rename it too (--match worker=OTHER) or swap the two (--match route=worker --match worker=route)"
        );
        // Levels swap the same way.
        let f = [factor("route", &["direct", "nginx"])];
        let m =
            run(&["route:direct=nginx", "route:nginx=direct"], (&f, &[&["direct"], &["nginx"]]), (&f, &[&["direct"], &["nginx"]])).unwrap();
        assert_eq!(m.pairs, vec![(1, 0), (0, 1)]);
        // Two baseline levels onto one is refused, naming both.
        let three = [factor("route", &["direct", "nginx", "proxy"])];
        let error =
            run(&["route:proxy=nginx"], (&three, &[&["direct"], &["nginx"], &["proxy"]]), (&f, &[&["direct"], &["nginx"]])).unwrap_err();
        assert_eq!(
            error.to_string(),
            "--match \"route:proxy=nginx\": the baseline's levels \"nginx\" and \"proxy\" of \"route\" would both be \"nginx\", so two conditions would be one: map \"nginx\" elsewhere, or swap the two (--match route:proxy=nginx --match route:nginx=proxy)"
        );
    }

    #[test]
    fn rules_that_name_nothing_are_refused_with_the_known_names() {
        let base = [factor("route", &["direct"])];
        let cand = [factor("path", &["direct"])];
        let error = run(&["rout=path"], (&base, &[&["direct"]]), (&cand, &[&["direct"]])).unwrap_err();
        assert_eq!(error.to_string(), "--match \"rout=path\": the baseline has no factor \"rout\" (its factors: route)");
        let error = run(&["route=path", "path:dirct=direct"], (&base, &[&["direct"]]), (&cand, &[&["direct"]])).unwrap_err();
        assert_eq!(
            error.to_string(),
            "--match \"path:dirct=direct\": the baseline has no level \"dirct\" of \"route\" (its levels: direct)"
        );
        assert!(matches!(MatchRule::parse("route"), Err(MatchError::Syntax { .. })));
        assert!(matches!(MatchRule::parse(":a=b"), Err(MatchError::Syntax { .. })));
        assert!(matches!(MatchRule::parse("f:="), Err(MatchError::Syntax { .. })));
        assert_eq!(MatchRule::parse("worker:=sync").unwrap().text(), "worker:=sync");
    }
}
