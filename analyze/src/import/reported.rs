//! The numbers a tool printed about a run, as printed, with the rule it ranks by
//! ([`crate::model::Rule`]).

use crate::model::Rule;
use std::collections::BTreeMap;

/// The numbers a tool printed about one run, as printed (converted to ms and counts only).
#[derive(Debug, Clone, PartialEq)]
pub struct ToolReported {
    pub rule: Rule,
    pub requests: Option<u64>,
    /// Requests without a 2xx (or, for tools that count so, without a 2xx/3xx) response.
    pub errors: Option<u64>,
    pub requests_per_s: Option<f64>,
    pub min_ms: Option<f64>,
    pub mean_ms: Option<f64>,
    pub max_ms: Option<f64>,
    /// Percentile (thousandths of a percent) → value in ms.
    pub percentiles_ms: BTreeMap<u32, f64>,
}

impl ToolReported {
    pub fn new(rule: Rule) -> Self {
        ToolReported {
            rule,
            requests: None,
            errors: None,
            requests_per_s: None,
            min_ms: None,
            mean_ms: None,
            max_ms: None,
            percentiles_ms: BTreeMap::new(),
        }
    }

    /// Takes from `other` what this one lacks (the first file's printed numbers win).
    pub fn fill_from(&mut self, other: ToolReported) {
        self.requests = self.requests.or(other.requests);
        self.errors = self.errors.or(other.errors);
        self.requests_per_s = self.requests_per_s.or(other.requests_per_s);
        self.min_ms = self.min_ms.or(other.min_ms);
        self.mean_ms = self.mean_ms.or(other.mean_ms);
        self.max_ms = self.max_ms.or(other.max_ms);
        for (p, v) in other.percentiles_ms {
            self.percentiles_ms.entry(p).or_insert(v);
        }
        if self.rule == Rule::NoPercentiles {
            self.rule = other.rule;
        }
    }
}
