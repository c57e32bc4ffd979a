//! The headline of a run without rows: a tool's summary gives no latency to rank, only the
//! percentiles the tool printed by its own rule. Such a run's headline is the headline
//! percentile as the tool printed it, else, when the tool did not print that one (wrk prints
//! p50, p75, p90 and p99, never p95), the printed percentile nearest above it: a higher
//! percentile bounds the headline from above, so it never reads better than the run was. Only
//! when the tool printed nothing above, the nearest below.
//!
//! These values are kept apart from `headline_ms` ([`crate::report::PrintedHeadline`]): another
//! percentile, or the same one by another rule, is not ranked, charted or reviewed beside the
//! nearest-rank values of runs with rows.

use crate::model::{percentile_key, Percentile};
use crate::report::{PrintedHeadline, PrintedSpread, RunResult, Spread, ToolReported};

/// Of printed percentile keys, the one that stands for `headline`: itself, else the nearest
/// above, else the nearest below; `None` when no key is a percentile.
pub fn pick<'a>(headline: Percentile, keys: impl IntoIterator<Item = &'a String>) -> Option<&'a String> {
    let target = headline.thousandths();
    let levels: Vec<(u32, &String)> = keys.into_iter().filter_map(|k| Some((percentile_key(k)?, k))).collect();
    let above = levels.iter().filter(|(level, _)| *level >= target).min_by_key(|(level, _)| *level);
    let below = levels.iter().filter(|(level, _)| *level < target).max_by_key(|(level, _)| *level);
    above.or(below).map(|(_, key)| *key)
}

/// A run's printed headline: only for a run without rows (`requests` 0) whose tool printed a
/// percentile.
pub fn of_run(headline: Percentile, requests: u64, tool: Option<&ToolReported>) -> Option<PrintedHeadline> {
    let tool = tool.filter(|_| requests == 0)?;
    let key = pick(headline, tool.percentiles_ms.keys())?;
    Some(PrintedHeadline {
        percentile: key.clone(),
        value_ms: tool.percentiles_ms[key],
        rank: tool.ranks.get(key).copied(),
        ranked: tool.ranked,
        tool: tool.tool.clone(),
    })
}

/// A condition's printed headline: when none of its ok runs has a headline from rows and every
/// one printed a percentile, the median and range of the key all of them printed that stands
/// for the headline ([`pick`] over the keys they share).
pub fn of_condition(headline: Percentile, ok: &[&RunResult]) -> Option<PrintedSpread> {
    if ok.is_empty() || ok.iter().any(|r| r.headline_ms.is_some()) {
        return None;
    }
    let printed: Vec<&ToolReported> = ok.iter().map(|r| r.tool_reported.as_deref().filter(|_| r.requests == 0)).collect::<Option<_>>()?;
    let shared: Vec<&String> =
        printed[0].percentiles_ms.keys().filter(|k| printed.iter().all(|t| t.percentiles_ms.contains_key(*k))).collect();
    let key = pick(headline, shared)?;
    let values: Vec<f64> = printed.iter().map(|t| t.percentiles_ms[key]).collect();
    let mut tools: Vec<String> = printed.iter().map(|t| t.tool.clone()).collect();
    tools.sort();
    tools.dedup();
    let spread = Spread::of(&values)?;
    // The median of an even count is a mean: at published precision.
    let spread = Spread { median: super::precision::ms(spread.median), ..spread };
    Some(PrintedSpread { percentile: key.clone(), spread, tools })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(list: &[&str]) -> Vec<String> {
        list.iter().map(|k| k.to_string()).collect()
    }

    #[test]
    fn the_headline_stands_for_itself_when_printed() {
        let printed = keys(&["50", "90", "95", "99"]);
        assert_eq!(pick(Percentile::P95, &printed).map(String::as_str), Some("95"));
    }

    #[test]
    fn wrk_s_p99_stands_for_a_p95_it_did_not_print() {
        let printed = keys(&["50", "75", "90", "99"]);
        assert_eq!(pick(Percentile::P95, &printed).map(String::as_str), Some("99"));
    }

    #[test]
    fn autocannon_s_p97_5_is_the_nearest_above_p95() {
        let printed = keys(&["0.001", "2.5", "50", "75", "90", "97.5", "99", "99.9", "99.99", "99.999"]);
        assert_eq!(pick(Percentile::P95, &printed).map(String::as_str), Some("97.5"));
    }

    #[test]
    fn without_any_above_the_nearest_below_stands_in() {
        let printed = keys(&["50", "90"]);
        assert_eq!(pick(Percentile::P95, &printed).map(String::as_str), Some("90"));
        assert_eq!(pick(Percentile::P95, &keys(&[])), None);
    }
}
