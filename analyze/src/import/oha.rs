//! oha: `--output-format json` (its summary, latency percentiles and status counts; times in
//! seconds, as f64). A run without rows.
//!
//! Trap: its percentiles rank every response (any status), not only the 2xx ones; requests that
//! got no response are in `errorDistribution`.

use super::error::ImportError;
use super::reported::{Count, Place, Printed, ToolReported};
use super::text::parse_shifted;
use super::Piece;
use crate::model::{percentile_key, Rule};
use std::collections::BTreeMap;

pub fn json(file: &str, text: &str) -> Result<Piece, ImportError> {
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Summary {
        slowest: Option<f64>,
        fastest: Option<f64>,
        average: Option<f64>,
        requests_per_sec: f64,
        total: Option<f64>,
    }
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Output {
        summary: Summary,
        latency_percentiles: BTreeMap<String, Option<f64>>,
        status_code_distribution: BTreeMap<String, u64>,
        #[serde(default)]
        error_distribution: BTreeMap<String, u64>,
    }
    let out: Output = serde_json::from_str(text)
        .map_err(|e| ImportError::at(file, e.line() as u64, e.column() as u64, format!("not oha's JSON: {e}")))?;
    let place = |needle: &str| -> Place {
        let (line, column) =
            text.lines().enumerate().find_map(|(i, l)| l.find(needle).map(|c| (i as u64 + 1, c as u64 + 1))).unwrap_or((1, 1));
        Place::new(file, line, column)
    };
    // Seconds to ms on the printed digits (serde_json gives the shortest round-trip text); oha
    // prints every digit of an f64, so there is no rounding step.
    let ms = |s: f64, key: &str| Printed::new(parse_shifted(&s.to_string(), 3).unwrap_or(s * 1000.0), 0.0, place(key));
    let mut r = ToolReported::new(Rule::FloorPlusOne);
    r.max_ms = out.summary.slowest.map(|v| ms(v, "\"slowest\""));
    r.min_ms = out.summary.fastest.map(|v| ms(v, "\"fastest\""));
    r.mean_ms = out.summary.average.map(|v| ms(v, "\"average\""));
    r.requests_per_s = Some(Printed::new(out.summary.requests_per_sec, 0.0, place("\"requestsPerSec\"")));
    r.duration_s = out.summary.total.map(|t| Printed::new(t, 0.0, place("\"total\"")));
    for (label, value) in &out.latency_percentiles {
        let needle = format!("\"{label}\"");
        let key = label
            .strip_prefix('p')
            .and_then(percentile_key)
            .ok_or_else(|| place(&needle).error(format!("{label:?} is not a percentile like p95 or p99.9")))?;
        if let Some(v) = value {
            r.percentiles_ms.insert(key, ms(*v, &needle));
        }
    }
    let (mut responses, mut non_2xx) = (0, 0);
    let mut statuses = BTreeMap::new();
    for (code, count) in &out.status_code_distribution {
        let status: u16 = code.parse().map_err(|_| place(&format!("\"{code}\"")).error(format!("status {code:?} is not a number")))?;
        statuses.insert(status, *count);
        responses += count;
        if !(200..300).contains(&status) {
            non_2xx += count;
        }
    }
    let failed: u64 = out.error_distribution.values().sum();
    let at = place("\"statusCodeDistribution\"");
    r.requests = Some(Count::new(responses + failed, at.clone()));
    r.errors = Some(Count::new(non_2xx + failed, at.clone()));
    r.ranked = Some(responses);
    Ok(Piece {
        reported: Some(r),
        statuses: Some((statuses, at)),
        notes: vec!["oha prints times in seconds; its percentiles take rank floor(p·n/100)+1".into()],
        ..Piece::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixture_gives_counts_and_percentiles_in_ms() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/import/oha/oha.json")).unwrap();
        let r = json("oha.json", &text).unwrap().reported.unwrap();
        assert_eq!(r.rule, Rule::FloorPlusOne);
        assert_eq!((r.requests.unwrap().value, r.ranked), (2000, Some(2000)));
        assert!(r.percentiles_ms.contains_key(&95_000) && r.percentiles_ms.contains_key(&99_990));
        assert!(r.min_ms.unwrap().value <= r.percentiles_ms[&50_000].value && r.percentiles_ms[&50_000].value <= r.max_ms.unwrap().value);
        assert_eq!(r.duration_s.map(|d| d.value), Some(3.607197894));
    }

    #[test]
    fn a_json_error_names_line_and_column() {
        let error = json("oha.json", "{\n  \"summary\": {\n    \"slowest\": 0.1,,\n").unwrap_err();
        assert_eq!(error.place.map(|p| p.0), Some(3));
    }
}
