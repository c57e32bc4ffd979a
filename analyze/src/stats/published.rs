//! Published values beside the measured ones: for each value dataset.toml lists, the condition's
//! median, min and max of the same metric, and whether the published value lies in that range.
//! The verdict says only where the number falls; why it differs is the author's to write.

use crate::dataset::manifest::{Metric, Published};
use crate::report::Spread;
use crate::report::{ConditionResult, MeasuredRange, PublishedResult};

/// One result per published value, in dataset.toml's order. Conditions were checked at load, so
/// an unknown id cannot reach here; it is skipped rather than panicking if it does.
pub fn compare(published: Option<&Published>, conditions: &[ConditionResult]) -> Vec<PublishedResult> {
    let Some(published) = published else { return Vec::new() };
    published
        .values
        .iter()
        .filter_map(|value| {
            let index = conditions.iter().position(|c| c.id == *value.condition.get_ref())?;
            let measured = measured(&conditions[index], value.metric);
            Some(PublishedResult {
                condition: index,
                condition_id: conditions[index].id.clone(),
                metric: value.metric.name(),
                value_ms: value.value_ms,
                within_range: measured.map(|m| within(value.value_ms, m)),
                measured,
            })
        })
        .collect()
}

/// The condition's spread of `metric`, in ms.
pub fn measured(condition: &ConditionResult, metric: Metric) -> Option<MeasuredRange> {
    let in_ms = |s: Spread, scale: f64| MeasuredRange { median: s.median * scale, min: s.min * scale, max: s.max * scale, n: s.n };
    match metric {
        Metric::Max => condition.max_ms.map(|s| in_ms(s, 1.0)),
        Metric::Write => condition.write_s.map(|s| in_ms(s, 1000.0)),
        Metric::Completion => condition.complete_s.map(|s| in_ms(s, 1000.0)),
        _ => metric.percentile_key().and_then(|k| condition.percentiles_ms.get(k)).map(|s| in_ms(*s, 1.0)),
    }
}

/// Whether `value` lies in the measured range, both ends included.
pub fn within(value: f64, range: MeasuredRange) -> bool {
    range.min <= value && value <= range.max
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(min: f64, max: f64) -> MeasuredRange {
        MeasuredRange { median: (min + max) / 2.0, min, max, n: 3 }
    }

    #[test]
    fn a_published_value_outside_the_measured_range_is_not_within() {
        // The study's 1,071.47 ms against a re-measured 3,236-4,307 ms.
        assert!(!within(1071.47, range(3236.0, 4307.0)));
        assert!(within(1.57, range(1.5, 1.9)));
        assert!(within(1.9, range(1.5, 1.9)), "the ends are inside");
    }
}
