//! The numbers a tool printed about a run, each kept with where it was printed (file, line,
//! column) and how finely it was printed, so that the files of one invocation can be checked
//! against each other and against themselves, and every refusal names both places.

use super::error::ImportError;
use crate::model::{percentile_label, Rule};
use std::collections::BTreeMap;

/// Where a value was read: the file as the user named it, and the 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    pub file: String,
    pub line: u64,
    pub column: u64,
}

impl Place {
    pub fn new(file: &str, line: u64, column: u64) -> Place {
        Place { file: file.to_string(), line, column }
    }

    /// An error at this place.
    pub fn error(&self, message: impl Into<String>) -> ImportError {
        ImportError::at(&self.file, self.line, self.column, message)
    }
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// A number as a tool printed it, converted to ms (times), a count, or per second (rates).
#[derive(Debug, Clone, PartialEq)]
pub struct Printed {
    pub value: f64,
    /// The printed resolution in the same unit (0.01 for `%.2f` of ms; 1 for whole ms): the true
    /// value is within half of it when the tool rounds, within all of it when it truncates.
    pub step: f64,
    pub at: Place,
}

impl Printed {
    pub fn new(value: f64, step: f64, at: Place) -> Printed {
        Printed { value, step, at }
    }
}

/// The largest count a run can have: 10^12 requests, a million a second for eleven and a half
/// days. A larger one (2^64-1, what a saturated or corrupted counter prints) is refused.
pub const MAX_COUNT: u64 = 1_000_000_000_000;

/// The highest rate a run can have: 10^9 requests a second, far past any load generator on any
/// machine. Where the tool prints the run's duration, its rate must also be its requests over
/// that duration ([`rate_problem`]).
pub const MAX_RATE: f64 = 1e9;

/// Why a count's text, as the file has it, is not a count a run can have: not a whole number
/// of digits, or beyond [`MAX_COUNT`]; `None` for a count.
pub fn count_problem(text: &str) -> Option<String> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Some(format!("{text} is not a count (a whole number, written in digits)"));
    }
    match text.parse::<u64>() {
        Ok(n) if n <= MAX_COUNT => None,
        _ => Some(format!("{text} is beyond 10^12, more than any run counts (a million requests a second for 11 days)")),
    }
}

/// A number as a message quotes it: as `Display` writes it, or with an exponent when that would
/// be very long (1e300 is not quoted as 301 digits).
pub fn shown(value: f64) -> String {
    if value.abs() >= 1e15 {
        format!("{value:e}")
    } else {
        value.to_string()
    }
}

/// A count as a tool printed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Count {
    pub value: u64,
    pub at: Place,
}

impl Count {
    pub fn new(value: u64, at: Place) -> Count {
        Count { value, at }
    }
}

/// The numbers a tool printed about one run, as printed (converted to ms and counts only).
#[derive(Debug, Clone, PartialEq)]
pub struct ToolReported {
    pub rule: Rule,
    /// Requests the tool counted: with a response, and without one (never connection events such
    /// as wrk's socket errors, which are not requests).
    pub requests: Option<Count>,
    /// Requests without a 2xx (or, for tools that count so, without a 2xx/3xx) response.
    pub errors: Option<Count>,
    /// How many response times the tool ranked to pick its percentiles (its own population: ab,
    /// hey, wrk, oha and Locust rank every response, whatever its status).
    pub ranked: Option<u64>,
    pub requests_per_s: Option<Printed>,
    pub min_ms: Option<Printed>,
    pub mean_ms: Option<Printed>,
    pub max_ms: Option<Printed>,
    /// Percentile (thousandths of a percent) → value in ms.
    pub percentiles_ms: BTreeMap<u32, Printed>,
    /// How long the run took as the tool printed it (s): what its requests/s divides by.
    pub duration_s: Option<Printed>,
    /// What the tool's requests/s counts over the duration, when it is not `requests` (siege's
    /// transaction rate counts responses only).
    pub rate_count: Option<Count>,
    /// The tool's figures per request name, when it printed them (Locust), in its order.
    pub labels: Vec<ReportedLabel>,
}

/// One request name's figures as the tool printed them: the name as the tool groups requests
/// ("GET /path" for Locust's method and name), its requests and failures, its percentiles at
/// [`crate::model::Percentile::BY_LABEL`] and its longest time.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportedLabel {
    pub label: String,
    pub requests: Count,
    pub errors: Count,
    pub percentiles_ms: BTreeMap<u32, Printed>,
    pub max_ms: Option<Printed>,
}

impl ToolReported {
    pub fn new(rule: Rule) -> Self {
        ToolReported {
            rule,
            requests: None,
            errors: None,
            ranked: None,
            requests_per_s: None,
            min_ms: None,
            mean_ms: None,
            max_ms: None,
            percentiles_ms: BTreeMap::new(),
            duration_s: None,
            rate_count: None,
            labels: Vec::new(),
        }
    }

    /// Checks the numbers of one file: first that each is one a run can have ([`Self::impossible`]:
    /// only those problems are returned then, not what follows from them), then against each other:
    /// errors and ranked times within requests, min ≤ max, percentiles that never decrease and lie
    /// within min and max (as this rule rounds them), and requests/s equal to requests over the
    /// printed duration within both printed precisions. Every problem names the place of both values.
    pub fn check(&self) -> Vec<ImportError> {
        let impossible = self.impossible();
        if !impossible.is_empty() {
            return impossible;
        }
        let mut problems = Vec::new();
        if let (Some(requests), Some(ranked)) = (&self.requests, self.ranked) {
            if ranked > requests.value {
                problems.push(requests.at.error(format!(
                    "{} requests, but the tool ranked {ranked} times: a tool ranks at most one time per request; is the file edited?",
                    requests.value
                )));
            }
        }
        if let (Some(requests), Some(errors)) = (&self.requests, &self.errors) {
            if errors.value > requests.value {
                problems.push(errors.at.error(format!(
                    "{} errors of {} requests (at {}): errors cannot exceed requests; is the file edited or from two runs?",
                    errors.value, requests.value, requests.at
                )));
            }
        }
        for label in &self.labels {
            if label.errors.value > label.requests.value {
                problems.push(label.errors.at.error(format!(
                    "{}: {} errors of {} requests (at {}): errors cannot exceed requests; is the file edited?",
                    label.label, label.errors.value, label.requests.value, label.requests.at
                )));
            }
            let mut lower: Option<(u32, &Printed)> = None;
            for (&p, value) in &label.percentiles_ms {
                if let Some((q, below)) = lower.filter(|(_, below)| value.value < below.value) {
                    problems.push(value.at.error(format!(
                        "{}: p{} = {} ms is below p{} = {} ms (at {}): a percentile cannot decrease as p grows",
                        label.label,
                        percentile_label(p),
                        value.value,
                        percentile_label(q),
                        below.value,
                        below.at
                    )));
                }
                lower = Some((p, value));
            }
        }
        if let (Some(min), Some(max)) = (&self.min_ms, &self.max_ms) {
            if min.value > max.value {
                problems.push(min.at.error(format!(
                    "the shortest time {} ms is above the longest {} ms (at {}): is the file edited?",
                    min.value, max.value, max.at
                )));
            }
        }
        if let (Some(mean), Some(max)) = (&self.mean_ms, &self.max_ms) {
            if mean.value > max.value + (mean.step + max.step) / 2.0 {
                problems
                    .push(mean.at.error(format!("the mean {} ms is above the longest time {} ms (at {})", mean.value, max.value, max.at)));
            }
        }
        let mut previous: Option<(u32, &Printed)> = None;
        for (&key, value) in &self.percentiles_ms {
            if let Some((lower_key, lower)) = previous {
                if value.value < lower.value {
                    problems.push(value.at.error(format!(
                        "p{} = {} ms is below p{} = {} ms (at {}): a percentile cannot decrease as p grows",
                        percentile_label(key),
                        value.value,
                        percentile_label(lower_key),
                        lower.value,
                        lower.at
                    )));
                }
            }
            previous = Some((key, value));
            let slack = self.rounding_slack(value.value);
            if let Some(max) = &self.max_ms {
                if value.value > max.value + slack {
                    problems.push(value.at.error(format!(
                        "p{} = {} ms is above the longest time {} ms (at {})",
                        percentile_label(key),
                        value.value,
                        max.value,
                        max.at
                    )));
                }
            }
            if let Some(min) = &self.min_ms {
                if value.value + slack < min.value {
                    problems.push(value.at.error(format!(
                        "p{} = {} ms is below the shortest time {} ms (at {})",
                        percentile_label(key),
                        value.value,
                        min.value,
                        min.at
                    )));
                }
            }
        }
        if let (Some(rate), Some(requests), Some(duration)) =
            (&self.requests_per_s, self.rate_count.as_ref().or(self.requests.as_ref()), &self.duration_s)
        {
            if let Some(problem) = rate_problem(rate, requests, duration) {
                problems.push(problem);
            }
        }
        problems
    }

    /// The values no run can have, each at its place: counts beyond [`MAX_COUNT`], times that are
    /// negative, not finite or above the request-row contract's 10^9 ms (`request_row::latency_problem`,
    /// the rule every row's time meets), a negative or infinite duration or rate.
    fn impossible(&self) -> Vec<ImportError> {
        let mut problems = Vec::new();
        let label_counts = self.labels.iter().flat_map(|l| [("requests", &l.requests), ("errors", &l.errors)]);
        let counts = [("requests", self.requests.as_ref()), ("errors", self.errors.as_ref()), ("requests", self.rate_count.as_ref())]
            .into_iter()
            .filter_map(|(what, c)| c.map(|c| (what, c)))
            .chain(label_counts);
        for (what, count) in counts {
            if let Some(why) = count_problem(&count.value.to_string()) {
                problems.push(count.at.error(format!("{what}: {why}")));
            }
        }
        if let (Some(ranked), Some(requests)) = (self.ranked, &self.requests) {
            if let Some(why) = count_problem(&ranked.to_string()).filter(|_| ranked != requests.value) {
                problems.push(requests.at.error(format!("the times ranked: {why}")));
            }
        }
        let label_times = self.labels.iter().flat_map(|l| {
            l.percentiles_ms
                .iter()
                .map(|(&p, v)| (format!("{}: p{}", l.label, percentile_label(p)), v))
                .chain(l.max_ms.iter().map(|v| (format!("{}: the longest time", l.label), v)))
        });
        let times = [("the shortest time", &self.min_ms), ("the mean", &self.mean_ms), ("the longest time", &self.max_ms)]
            .into_iter()
            .filter_map(|(what, v)| v.as_ref().map(|v| (what.to_string(), v)))
            .chain(self.percentiles_ms.iter().map(|(&p, v)| (format!("p{}", percentile_label(p)), v)))
            .chain(label_times);
        for (what, time) in times {
            if let Some(why) = request_row::latency_problem(time.value) {
                problems.push(time.at.error(format!("{what} (ms): {why}")));
            }
        }
        if let Some(problem) = self.duration_s.as_ref().and_then(duration_problem) {
            problems.push(problem);
        }
        if let Some(rate) = &self.requests_per_s {
            if !rate.value.is_finite() || rate.value < 0.0 || rate.value > MAX_RATE {
                problems.push(rate.at.error(format!(
                    "{} requests/s is not a rate a run can have (0 to 10^9 a second, more than any load generator sends)",
                    shown(rate.value)
                )));
            }
        }
        problems
    }

    /// How far a percentile this rule prints may lie outside the min and max printed beside it:
    /// Locust's bucket of a value can be above or below the value itself.
    fn rounding_slack(&self, value_ms: f64) -> f64 {
        match self.rule {
            Rule::RoundedBuckets => locust_bucket_step(value_ms),
            // A DDSketch bucket's value is within 1 % of the values in it, printed to 0.1 ms.
            Rule::DdSketch => value_ms * 0.01 + 0.05,
            // A percentile is the highest value of its bucket, the max may be the value itself
            // (wrk2's C library): buckets of 3 significant digits are at most 1/1,024 of it wide.
            Rule::HdrHistogram | Rule::HdrHistogramRounded => value_ms * 0.001,
            _ => 0.0,
        }
    }
}

/// The width of the bucket Locust rounds a response time into: whole ms below 100 ms, 10 ms below
/// 1 s, 100 ms below 10 s, 1 s above.
pub fn locust_bucket_step(value_ms: f64) -> f64 {
    match value_ms {
        v if v < 100.0 => 1.0,
        v if v < 1000.0 => 10.0,
        v if v < 10_000.0 => 100.0,
        _ => 1000.0,
    }
}

/// A run's duration no run can have (negative, or not a finite number), at its place.
pub fn duration_problem(duration: &Printed) -> Option<ImportError> {
    (!duration.value.is_finite() || duration.value < 0.0).then(|| {
        duration.at.error(format!(
            "the run's duration {} s is {}: a run lasts no time or more",
            shown(duration.value),
            if duration.value.is_finite() { "negative" } else { "not a finite number" }
        ))
    })
}

/// A requests/s that is not `requests` over `duration` within the precision both were printed with.
pub fn rate_problem(rate: &Printed, requests: &Count, duration: &Printed) -> Option<ImportError> {
    let n = requests.value as f64;
    let longest = duration.value + duration.step / 2.0;
    let shortest = (duration.value - duration.step / 2.0).max(0.0);
    let low = if longest > 0.0 { n / longest } else { f64::INFINITY } - rate.step / 2.0;
    let high = if shortest > 0.0 { n / shortest } else { f64::INFINITY } + rate.step / 2.0;
    // A relative 1e-9 for the division's own rounding.
    let fits = rate.value >= low * (1.0 - 1e-9) && rate.value <= high * (1.0 + 1e-9);
    (!fits).then(|| {
        rate.at.error(format!(
            "{} requests/s is not the {} requests (at {}) over {} s (at {}): it should be between {:.2} and {}; is the file edited or are its numbers from two runs?",
            shown(rate.value),
            requests.value,
            requests.at,
            shown(duration.value),
            duration.at,
            low.max(0.0),
            if high.is_finite() { format!("{high:.2}") } else { "any rate (a run of no time)".to_string() }
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: u64) -> Place {
        Place::new("f.txt", line, 1)
    }

    #[test]
    fn a_rate_within_the_printed_precision_passes_and_one_outside_is_refused() {
        // ab: 2000 requests in 1.036 s printed as 1929.89/s (1.03633 s in fact).
        let requests = Count::new(2000, at(1));
        let duration = Printed::new(1.036, 0.001, at(2));
        assert!(rate_problem(&Printed::new(1929.89, 0.01, at(3)), &requests, &duration).is_none());
        let refused = rate_problem(&Printed::new(99_999.0, 0.01, at(3)), &requests, &duration).unwrap();
        assert_eq!(refused.place, Some((3, 1)));
        assert!(refused.message.contains("f.txt:1:1") && refused.message.contains("f.txt:2:1"), "{}", refused.message);
    }

    #[test]
    fn decreasing_percentiles_and_errors_above_requests_name_both_places() {
        let mut r = ToolReported::new(Rule::FloorPlusOne);
        r.percentiles_ms.insert(90_000, Printed::new(5.0, 1.0, at(10)));
        r.percentiles_ms.insert(95_000, Printed::new(4.0, 1.0, at(11)));
        r.requests = Some(Count::new(10, at(1)));
        r.errors = Some(Count::new(11, at(2)));
        let problems = r.check();
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems.iter().any(|p| p.place == Some((11, 1)) && p.message.contains("f.txt:10:1")));
        assert!(problems.iter().any(|p| p.place == Some((2, 1)) && p.message.contains("f.txt:1:1")));
    }

    #[test]
    fn locust_buckets_may_pass_the_true_maximum_by_a_bucket() {
        let mut r = ToolReported::new(Rule::RoundedBuckets);
        r.max_ms = Some(Printed::new(145.3, 0.0, at(1)));
        r.percentiles_ms.insert(100_000, Printed::new(150.0, 0.0, at(2)));
        assert!(r.check().is_empty());
        r.percentiles_ms.insert(100_000, Printed::new(160.0, 0.0, at(2)));
        assert_eq!(r.check().len(), 1);
    }
}
