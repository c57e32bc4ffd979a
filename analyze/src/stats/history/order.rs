//! The order of a history's measurements: by the instant each started (RFC 3339 parsed, so
//! offsets and fractions of a second order as the instants they name), by revision, or, when a
//! measurement records no start, by the natural order of the dataset names. Every order is total:
//! ties fall back to the names and then to their text, never to the order the arguments came in.

use super::HistoryError;
use crate::dataset::time::{parse_rfc3339, Instant};
use crate::report::Report;
use std::cmp::Ordering;

/// How the measurements are ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// By the start of each measurement's earliest run; by the dataset names when one records
    /// no start.
    StartedAt,
    /// By `history.revision`, numbers within it compared as numbers (v1.9 before v1.10).
    Revision,
}

/// The earliest start of a measurement's runs, as an instant, with its text as recorded.
pub fn started_at(m: &Report) -> Option<(Instant, &str)> {
    m.runs.iter().filter_map(|r| parse_rfc3339(&r.started_at_utc).map(|i| (i, r.started_at_utc.as_str()))).min()
}

/// The measurements in order, with the name of what ordered them (`started_at`, `revision` or
/// `dataset_name`); an error when `--by revision` cannot order them.
pub fn ordered(measurements: &[Report], order: Order) -> Result<(Vec<&Report>, &'static str), HistoryError> {
    let mut sorted: Vec<&Report> = measurements.iter().collect();
    let by_name = |a: &&Report, b: &&Report| natural(&a.dataset.name, &b.dataset.name);
    match order {
        Order::StartedAt if sorted.iter().all(|m| started_at(m).is_some()) => {
            sorted.sort_by(|a, b| started_at(a).map(|s| s.0).cmp(&started_at(b).map(|s| s.0)).then_with(|| by_name(a, b)));
            Ok((sorted, "started_at"))
        }
        Order::StartedAt => {
            sorted.sort_by(by_name);
            Ok((sorted, "dataset_name"))
        }
        Order::Revision => {
            let revision = |m: &Report| m.dataset.history.as_ref().and_then(|h| h.revision.clone());
            if let Some(m) = sorted.iter().find(|m| revision(m).is_none()) {
                return Err(HistoryError::NoRevision { dataset: m.dataset.name.clone() });
            }
            sorted.sort_by(|a, b| natural(&revision(a).unwrap_or_default(), &revision(b).unwrap_or_default()).then_with(|| by_name(a, b)));
            for pair in sorted.windows(2) {
                if revision(pair[0]) == revision(pair[1]) {
                    return Err(HistoryError::SameRevision {
                        first: pair[0].dataset.name.clone(),
                        second: pair[1].dataset.name.clone(),
                        revision: revision(pair[0]).unwrap_or_default(),
                    });
                }
            }
            Ok((sorted, "revision"))
        }
    }
}

/// Text order with runs of digits compared as numbers: "v1.9" < "v1.10", "night-2" <
/// "night-10". Texts equal as numbers ("010" and "10") are ordered by their text, so the order
/// is total.
pub fn natural(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (a.as_bytes(), b.as_bytes());
    loop {
        match (x.first(), y.first()) {
            (None, None) => return a.cmp(b),
            (None, _) => return Ordering::Less,
            (_, None) => return Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let digits = |s: &[u8]| s.iter().take_while(|c| c.is_ascii_digit()).count();
                let (n, m) = (digits(x), digits(y));
                let (p, q) = (std::str::from_utf8(&x[..n]).unwrap_or("0"), std::str::from_utf8(&y[..m]).unwrap_or("0"));
                let (p, q) = (p.trim_start_matches('0'), q.trim_start_matches('0'));
                let ordering = p.len().cmp(&q.len()).then_with(|| p.cmp(q));
                if ordering != Ordering::Equal {
                    return ordering;
                }
                x = &x[n..];
                y = &y[m..];
            }
            (Some(c), Some(d)) if c != d => return c.cmp(d),
            _ => {
                x = &x[1..];
                y = &y[1..];
            }
        }
    }
}
