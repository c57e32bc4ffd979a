//! What a history holds its measurements' setups to: the `[environment]` keys that must match,
//! checked between every two measurements that record a key with none recording it between (a
//! key the middle measurement lacks is not a key that stayed the same), and the factors set
//! aside because some measurements lack them and the others hold them at one level.

use crate::model::{Lang, MustMatch};
use crate::report::history::{EnvironmentChange, KeyChange, SetAside};
use crate::report::Report;
use std::collections::BTreeMap;

/// The keys `rules` cover whose compared part differs between the last measurement that recorded
/// them and the next that does, grouped by those two measurements (numbers, 1-based), in order of
/// the later and then the earlier.
pub fn changes(sorted: &[&Report], rules: &[String], allowed: &[String]) -> Vec<EnvironmentChange> {
    let parsed: Vec<MustMatch> = rules.iter().filter_map(|r| MustMatch::parse(r).ok()).collect();
    let mut last: BTreeMap<&str, (usize, String)> = BTreeMap::new();
    let mut found: BTreeMap<(usize, usize), Vec<KeyChange>> = BTreeMap::new();
    for (i, m) in sorted.iter().enumerate() {
        for (key, text) in &m.dataset.environment {
            let Some(rule) = parsed.iter().find(|r| r.covers(key)) else { continue };
            let value = text.get(Lang::En).to_string();
            if let Some((j, before)) = last.get(key.as_str()) {
                if rule.compared(before) != rule.compared(&value) {
                    found.entry((i + 1, j + 1)).or_default().push(KeyChange {
                        key: key.clone(),
                        before: before.clone(),
                        after: value.clone(),
                        allowed: allowed.contains(key),
                    });
                }
            }
            last.insert(key, (i, value));
        }
    }
    found.into_iter().map(|((after, before), differing)| EnvironmentChange { before, after, differing }).collect()
}

/// The factors some measurements lack while every other holds them at one level, the same in
/// all: `analyze compare`'s rule for a factor one side lacks and the other holds at one level
/// (`stats::compare::matching`), across a history. Adding `tls = "on"` from measurement 7 on
/// then leaves each condition one condition, not one before and another after.
pub fn set_aside(sorted: &[&Report]) -> Vec<SetAside> {
    let mut held: BTreeMap<&str, Vec<(usize, Vec<&str>)>> = BTreeMap::new();
    for (i, m) in sorted.iter().enumerate() {
        for f in &m.factors {
            held.entry(&f.name).or_default().push((i + 1, f.levels.iter().map(|l| l.value.as_str()).collect()));
        }
    }
    held.into_iter()
        .filter(|(_, by)| by.len() < sorted.len())
        .filter_map(|(factor, by)| {
            let level = *by.first()?.1.first()?;
            by.iter().all(|(_, levels)| levels == &[level]).then(|| SetAside {
                factor: factor.to_string(),
                level: level.to_string(),
                held_by: by.iter().map(|(n, _)| *n).collect(),
            })
        })
        .collect()
}
