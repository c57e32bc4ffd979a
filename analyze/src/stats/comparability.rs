//! Whether two measurements can be compared at all: the `[environment]` keys the baseline's
//! `must_match` rules cover must have equal values on both sides (the part a rule compares: the
//! whole value, or its major version). A key only one side records cannot be checked and is
//! listed as such, never counted against the pair. A differing key makes the pair incomparable
//! unless it is allowed (`--allow-env KEY`): a difference measured across two CPUs or two
//! server versions is that change as much as the one under test. A key whose compared part
//! matches while its whole value differs (a kernel's build) is listed apart, for the reader.

use crate::model::{Lang, MustMatch, Text};
use crate::report::compare::{Comparability, ComparabilityVerdict, EnvDifference, PartDifference};
use std::collections::BTreeMap;

/// The comparability of `candidate`'s environment against `baseline`'s under `rules` (rules that
/// do not parse were refused at ingest and are skipped); `allowed` keys may differ.
pub fn check(rules: &[String], baseline: &BTreeMap<String, Text>, candidate: &BTreeMap<String, Text>, allowed: &[String]) -> Comparability {
    let parsed: Vec<(&String, MustMatch)> = rules.iter().filter_map(|r| MustMatch::parse(r).ok().map(|m| (r, m))).collect();
    let keys: std::collections::BTreeSet<&String> = baseline.keys().chain(candidate.keys()).collect();
    let (mut checked, mut differing, mut one_side, mut differ_in_full) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for key in keys {
        let Some((rule_text, rule)) = parsed.iter().find(|(_, r)| r.covers(key)) else { continue };
        let value = |env: &BTreeMap<String, Text>| env.get(key).map(|t| t.get(Lang::En).to_string());
        match (value(baseline), value(candidate)) {
            (Some(b), Some(c)) => {
                checked.push(key.clone());
                if rule.compared(&b) != rule.compared(&c) {
                    differing.push(EnvDifference { key: key.clone(), baseline: b, candidate: c, allowed: allowed.contains(key) });
                } else if b != c {
                    differ_in_full.push(PartDifference { key: key.clone(), rule: rule_text.to_string(), baseline: b, candidate: c });
                }
            }
            _ => one_side.push(key.clone()),
        }
    }
    let verdict = if differing.iter().all(|d| d.allowed) { ComparabilityVerdict::Comparable } else { ComparabilityVerdict::Incomparable };
    Comparability { verdict, must_match: rules.to_vec(), checked, differing, one_side, differ_in_full }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> BTreeMap<String, Text> {
        pairs.iter().map(|(k, v)| (k.to_string(), Text::Plain(v.to_string()))).collect()
    }

    fn defaults() -> Vec<String> {
        crate::model::DEFAULT_MUST_MATCH.iter().map(|r| r.to_string()).collect()
    }

    #[test]
    fn a_differing_cpu_is_incomparable_unless_allowed() {
        let a = env(&[("cpu_model", "AMD EPYC"), ("cpus", "2"), ("kernel", "6.18.44-fc-v669"), ("measured_on", "2026-11-30")]);
        let b = env(&[
            ("cpu_model", "Intel(R) Xeon(R) Processor"),
            ("cpus", "2"),
            ("kernel", "6.18.44-fc-v857"),
            ("measured_on", "2026-12-01"),
        ]);
        let c = check(&defaults(), &a, &b, &[]);
        assert_eq!(c.verdict, ComparabilityVerdict::Incomparable);
        assert_eq!(c.differing.len(), 1);
        assert_eq!((c.differing[0].key.as_str(), c.differing[0].allowed), ("cpu_model", false));
        // The kernel's build differs but not its major version; the date is no rule's.
        assert_eq!(c.checked, ["cpu_model", "cpus", "kernel"]);
        assert_eq!(
            c.differ_in_full,
            [PartDifference {
                key: "kernel".into(),
                rule: "kernel:major".into(),
                baseline: "6.18.44-fc-v669".into(),
                candidate: "6.18.44-fc-v857".into()
            }]
        );
        let c = check(&defaults(), &a, &b, &["cpu_model".to_string()]);
        assert_eq!((c.verdict, c.differing[0].allowed), (ComparabilityVerdict::Comparable, true));
    }

    #[test]
    fn versions_must_match_and_a_key_one_side_lacks_is_unchecked() {
        let a = env(&[("gunicorn_version", "23.0.0"), ("hey_version", "0.1.4")]);
        let b = env(&[("gunicorn_version", "22.0.0")]);
        let c = check(&defaults(), &a, &b, &[]);
        assert_eq!(c.verdict, ComparabilityVerdict::Incomparable);
        assert_eq!(c.differing[0].key, "gunicorn_version");
        assert_eq!(c.one_side, ["hey_version"]);
        // A dataset's own rules replace the defaults.
        let c = check(&["hey_version".to_string()], &a, &b, &[]);
        assert_eq!(c.verdict, ComparabilityVerdict::Comparable);
    }
}
