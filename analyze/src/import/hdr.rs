//! HdrHistogram files: the percentile distribution a histogram prints (`.hgrm`, Java's
//! `outputPercentileDistribution` and the C library's `hdr_percentiles_print`, the "Detailed
//! Percentile spectrum" of wrk2 `--latency`), and interval logs (`.hlog`, one V2 compressed
//! histogram per interval, read and merged by the maintained `hdrhistogram` crate). Runs
//! without rows: a histogram holds response times in buckets, not requests.
//!
//! Their rule is HdrHistogram's value at percentile ([`Rule::HdrHistogram`]): each printed row is
//! the highest value of the bucket where the cumulative count first reaches the row's percentile,
//! so a value is exact only to the histogram's precision (3 significant digits: 2,048 sub-buckets,
//! buckets no wider than 1/1,024 of their values). A `.hgrm` keeps the rows whose percentile is a
//! percentile of run_stats.csv (its levels halve towards 100 %, so 99 % is not one of them):
//! nothing between two rows is read off, as no value between them is known. Traps: a histogram
//! counts the values it recorded, not the requests that failed, so the errors are not known (left
//! blank); the `.hgrm` is in the unit its writer scaled it to (ms here, as wrk2 prints and as
//! `outputPercentileDistribution(out, 1e6)` prints nanoseconds); an interval log's `Interval_Max`
//! column is each histogram's max divided by the writer's ratio (10^6 by default: nanoseconds
//! shown in ms), from which the unit of its values is found.

use super::error::ImportError;
use super::reported::{Count, Place, Printed, ToolReported};
use super::text::{parse_number, parse_shifted, step_of, Lines};
use super::write::RUN_STATS_PERCENTILES;
use super::{Message, NoteKey};
use super::{Piece, Start};
use crate::model::Rule;

/// One row of a percentile distribution: its percentile (as a fraction), value, cumulative count.
#[derive(Debug, Clone, PartialEq)]
pub struct SpectrumRow {
    pub level: f64,
    pub value: Printed,
    pub total: u64,
}

/// A printed percentile distribution with its footer.
#[derive(Debug, Clone, PartialEq)]
pub struct Spectrum {
    pub rows: Vec<SpectrumRow>,
    pub mean: Printed,
    pub max: Printed,
    pub total: Count,
    pub sub_buckets: u64,
    /// The index in `lines` after the footer's last line.
    pub end: usize,
}

impl Spectrum {
    /// The significant digits of the histogram (2,048 sub-buckets: 3).
    pub fn digits(&self) -> Option<u32> {
        (0..=5).find(|&d| sub_buckets_of(d as u8) == self.sub_buckets)
    }

    /// The tool's numbers: the rows at the percentiles of run_stats.csv, the mean, max and count.
    pub fn reported(&self) -> ToolReported {
        let mut r = ToolReported::new(Rule::HdrHistogram);
        for row in &self.rows {
            let milli = row.level * 100_000.0;
            let exact = milli.round();
            if (milli - exact).abs() < 1e-6 && RUN_STATS_PERCENTILES.contains(&(exact as u32)) {
                r.percentiles_ms.insert(exact as u32, row.value.clone());
            }
        }
        r.mean_ms = Some(self.mean.clone());
        r.max_ms = Some(self.max.clone());
        r.requests = Some(self.total.clone());
        r.ranked = Some(self.total.value);
        r
    }

    pub fn precision_note(&self) -> Message {
        match self.digits() {
            Some(d) => precision_note(d, self.sub_buckets),
            None => Message::new(NoteKey::HdrSubBuckets, &[&self.sub_buckets]),
        }
    }
}

/// The sub-buckets of a histogram of `digits` significant digits: the power of two that holds
/// 2·10^digits (HdrHistogram's rule; 3 digits: 2,048).
pub(super) fn sub_buckets_of(digits: u8) -> u64 {
    2u64.pow((2.0 * 10f64.powi(i32::from(digits))).log2().ceil() as u32)
}

/// What a histogram's precision says about its values, one text for a .hgrm and a .hlog of the
/// same run (so the run's note states it once).
fn precision_note(digits: u32, sub_buckets: u64) -> Message {
    Message::new(NoteKey::HdrPrecision, &[&digits, &sub_buckets, &(sub_buckets / 2)])
}

/// `#[Key = number, Key2 = number]` at `index`: each number as printed, with its place.
fn footer(lines: &Lines, index: usize, keys: [&str; 2]) -> Result<[(Printed, String); 2], ImportError> {
    let Some(&(n, line)) = lines.lines.get(index) else {
        let last = lines.lines.last().map_or(1, |l| l.0);
        return Err(lines.bad(last, 1, format!("no `#[{} = ...]` line: the distribution is cut short", keys[0])));
    };
    let expected = || lines.bad(n, 1, format!("expected `#[{} = N, {} = N]`: is the file cut short?", keys[0], keys[1]));
    let inner = line.trim().strip_prefix("#[").and_then(|l| l.strip_suffix(']')).ok_or_else(expected)?;
    let parts: Vec<&str> = inner.split(',').collect();
    if parts.len() != 2 {
        return Err(expected());
    }
    let mut out = Vec::new();
    for (part, key) in parts.iter().zip(keys) {
        let (name, value) = part.split_once('=').ok_or_else(expected)?;
        let value = value.trim();
        if name.trim() != key || value.is_empty() {
            return Err(expected());
        }
        let column = (value.as_ptr() as usize - line.as_ptr() as usize) as u64 + 1;
        let number = parse_shifted(value, 0).ok_or_else(|| lines.bad(n, column, format!("{key}: {value:?} is not a number")))?;
        out.push((Printed::new(number, step_of(value), lines.place(n, column)), value.to_string()));
    }
    let second = out.pop().expect("two");
    Ok([out.pop().expect("two"), second])
}

/// Whether a line is the header of a percentile distribution.
fn is_header(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    words == ["Value", "Percentile", "TotalCount", "1/(1-Percentile)"]
}

/// Reads the distribution whose header is line `index` of `lines`: its rows (each value, level
/// and count never decreasing, the last at 100 %), then its three footer lines.
pub fn spectrum(lines: &Lines, index: usize) -> Result<Spectrum, ImportError> {
    let mut rows: Vec<SpectrumRow> = Vec::new();
    let mut i = index + 1;
    while let Some(&(n, line)) = lines.lines.get(i) {
        let trimmed = line.trim();
        if trimmed.starts_with("#[") {
            break;
        }
        i += 1;
        if trimmed.is_empty() {
            continue;
        }
        let column = (line.len() - line.trim_start().len()) as u64 + 1;
        let words: Vec<&str> = trimmed.split_whitespace().collect();
        let fields = (words.len() == 3 || words.len() == 4)
            .then(|| (parse_shifted(words[0], 0), parse_number(words[1]), words[2].parse::<u64>().ok()));
        let (Some((Some(value), Some(level), Some(total))), last) = (fields, words.len() == 3 || words.get(3) == Some(&"inf")) else {
            return Err(lines.bad(n, column, "expected a row `VALUE PERCENTILE TOTALCOUNT 1/(1-PERCENTILE)` of the distribution"));
        };
        if !(0.0..=1.0).contains(&level) {
            return Err(lines.bad(n, column, format!("percentile {level} is not between 0 and 1")));
        }
        if let Some(before) = rows.last() {
            if value < before.value.value || level < before.level || total < before.total {
                return Err(lines.bad(
                    n,
                    column,
                    format!(
                        "a value, percentile or count below the row before (at {}): rows of a distribution never decrease",
                        before.value.at
                    ),
                ));
            }
        }
        rows.push(SpectrumRow { level, value: Printed::new(value, step_of(words[0]), lines.place(n, column)), total });
        if last && level != 1.0 {
            return Err(lines.bad(n, column, "only the 100 % row has no 1/(1-Percentile)"));
        }
    }
    let Some(last) = rows.last() else {
        return Err(lines.bad(lines.lines[index].0, 1, "a distribution without a row"));
    };
    if last.level != 1.0 {
        let at = lines.lines.get(i).map_or(last.value.at.line, |l| l.0);
        return Err(lines.bad(at, 1, "the distribution stops before its 100 % row: is the file cut short?"));
    }
    let [(mean, _), (_, _)] = footer(lines, i, ["Mean", "StdDeviation"])?;
    let [(max, _), (total, total_text)] = footer(lines, i + 1, ["Max", "Total count"])?;
    let [(_, _), (_, sub_text)] = footer(lines, i + 2, ["Buckets", "SubBuckets"])?;
    let count = |text: &str, at: &Place| text.parse::<u64>().map_err(|_| at.error(format!("{text:?} is not a count")));
    let total = Count::new(count(&total_text, &total.at)?, total.at);
    let sub_buckets = sub_text.parse::<u64>().map_err(|_| lines.bad(lines.lines[i + 2].0, 1, "SubBuckets is not a count"))?;
    if last.total != total.value {
        return Err(total.at.error(format!(
            "Total count {} but the last row (at {}) counts {}: is the file edited?",
            total.value, last.value.at, last.total
        )));
    }
    // The 100 % row is the highest value of the bucket that holds the max (Java prints the max
    // itself there, the C library the bucket's top): the Max of the footer lies in that bucket,
    // at most 2/SubBuckets of the value below it.
    let last = rows.last().expect("checked above");
    let slack = (last.value.step + max.step) / 2.0 + 1e-9 * last.value.value.max(1.0);
    let width = last.value.value * 2.0 / (sub_buckets.max(2) as f64);
    if max.value > last.value.value + slack || max.value < last.value.value - width - slack {
        return Err(max.at.error(format!(
            "Max = {} but the 100 % row (at {}) is {}: the max lies in the last row's bucket ({} to {}); is the file edited?",
            super::reported::shown(max.value),
            last.value.at,
            super::reported::shown(last.value.value),
            super::reported::shown(last.value.value - width),
            super::reported::shown(last.value.value)
        )));
    }
    Ok(Spectrum { rows, mean, max, total, sub_buckets, end: i + 3 })
}

/// A `.hgrm`: one percentile distribution and its footer, nothing after it.
pub fn percentiles(file: &str, text: &str) -> Result<Piece, ImportError> {
    let lines = Lines::new(file, text);
    let header = lines.lines.iter().position(|(_, l)| is_header(l));
    let header = header.ok_or_else(|| ImportError::at(file, 1, 1, "no `Value Percentile TotalCount 1/(1-Percentile)` header"))?;
    if let Some(&(n, _)) = lines.lines[..header].iter().find(|(_, l)| !l.trim().is_empty()) {
        return Err(lines.bad(
            n,
            1,
            "text before the distribution's header: is this a whole tool output? (wrk2's is imported as wrk2-text)",
        ));
    }
    let spectrum = spectrum(&lines, header)?;
    if let Some(&(n, line)) = lines.lines[spectrum.end..].iter().find(|(_, l)| !l.trim().is_empty()) {
        if is_header(line) {
            let what = format!("a second distribution's header, the first at line {}", lines.lines[header].0);
            return Err(super::one_run::second_run(file, n, &what));
        }
        return Err(lines.bad(n, 1, "text after the distribution's footer"));
    }
    let reported = spectrum.reported();
    Ok(Piece {
        reported: Some(reported),
        notes: vec![spectrum.precision_note(), Message::plain(NoteKey::HdrHgrmMs), Message::plain(NoteKey::HdrErrorsUnknown)],
        ..Piece::default()
    })
}

/// The unit of an interval log's values, from the ratio of a histogram's max to its printed
/// `Interval_Max` (which its writer divided by a power of 1,000 to print ms).
fn unit_ms(recorded_max: u64, printed_max: f64) -> Option<(f64, &'static str)> {
    if printed_max <= 0.0 {
        return None;
    }
    let ratio = recorded_max as f64 / printed_max;
    [(1e6, 1e-6, "ns"), (1e3, 1e-3, "µs"), (1.0, 1.0, "ms")]
        .into_iter()
        .find(|(r, _, _)| (ratio / r - 1.0).abs() < 1e-3)
        .map(|(_, ms, unit)| (ms, unit))
}

/// An interval log: every interval's histogram decoded and added up, then read by HdrHistogram's
/// rule at the percentiles of run_stats.csv.
pub fn log(file: &str, text: &str) -> Result<Piece, ImportError> {
    use base64::Engine as _;
    use hdrhistogram::serialization::interval_log::{IntervalLogIterator, LogEntry};
    use hdrhistogram::serialization::Deserializer;
    let place_of = |offset: usize| {
        let before = &text[..offset.min(text.len())];
        let line = before.bytes().filter(|&b| b == b'\n').count() as u64 + 1;
        (line, before.rsplit('\n').next().map_or(0, str::len) as u64 + 1)
    };
    let offset_of = |s: &str| s.as_ptr() as usize - text.as_ptr() as usize;
    let mut merged: Option<hdrhistogram::Histogram<u64>> = None;
    let (mut start_time, mut base_time) = (None, None);
    let mut intervals = 0u64;
    let mut span: Option<(f64, f64)> = None;
    // Each interval starts where or after the one before it: a log is written in time order.
    let mut last_start: Option<(f64, u64)> = None;
    let mut unit: Option<(f64, &str)> = None;
    let mut deserializer = Deserializer::new();
    for entry in IntervalLogIterator::new(text.as_bytes()) {
        let entry = entry.map_err(|error| {
            let hdrhistogram::serialization::interval_log::LogIteratorError::ParseError { offset } = error;
            let (line, column) = place_of(offset);
            ImportError::at(
                file,
                line,
                column,
                "not a line of an HdrHistogram interval log (a comment, or START,LENGTH,MAX,HISTOGRAM): is the file cut or edited?",
            )
        })?;
        let interval = match entry {
            LogEntry::StartTime(t) => {
                start_time = Some(t);
                continue;
            }
            LogEntry::BaseTime(t) => {
                base_time = Some(t);
                continue;
            }
            LogEntry::Interval(interval) => interval,
        };
        let encoded = interval.encoded_histogram();
        let (line, column) = place_of(offset_of(encoded));
        let bad = |why: String| ImportError::at(file, line, column, why);
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(encoded)
            .map_err(|e| bad(format!("the interval's histogram is not base64: {e} (is the line cut short?)")))?;
        let histogram: hdrhistogram::Histogram<u64> = deserializer
            .deserialize(&mut std::io::Cursor::new(&bytes))
            .map_err(|e| bad(format!("the interval's histogram cannot be decoded ({e:?}): is the line cut short?")))?;
        if histogram.is_empty() {
            continue;
        }
        let found = unit_ms(histogram.max(), interval.max()).ok_or_else(|| {
            bad(format!(
                "the histogram's max {} is not its Interval_Max {} times 10^6, 10^3 or 1: its unit is not known",
                histogram.max(),
                interval.max()
            ))
        })?;
        if unit.is_some_and(|u| u.0 != found.0) {
            return Err(bad("this interval's values are in another unit than the first interval's".into()));
        }
        unit = Some(found);
        let begin = interval.start_timestamp().as_secs_f64();
        if let Some((previous, previous_line)) = last_start.filter(|(p, _)| begin < *p) {
            let what = format!("an interval that starts at {begin:.3} s, before the one at line {previous_line} ({previous:.3} s)");
            return Err(super::one_run::second_run(file, line, &what));
        }
        last_start = Some((begin, line));
        let end = begin + interval.duration().as_secs_f64();
        span = Some(span.map_or((begin, end), |(b, e)| (b.min(begin), e.max(end))));
        intervals += 1;
        match merged.as_mut() {
            Some(all) => all.add(&histogram).map_err(|e| bad(format!("the interval's histogram cannot be added to the others: {e:?}")))?,
            None => merged = Some(histogram),
        }
    }
    let (Some(all), Some((to_ms, unit_name)), Some((begin, end))) = (merged, unit, span) else {
        return Err(ImportError::file(file, "holds no interval with a recorded value"));
    };
    let at = Place::new(file, 1, 1);
    let mut r = ToolReported::new(Rule::HdrHistogram);
    // Shifted on the digits (a value of 10919935 ns is 10.919935 ms, not 10.919934999999999).
    let shift = -(to_ms.log10().round() as i32).abs();
    let exact = |value: f64| parse_shifted(&value.to_string(), shift).unwrap_or(value * to_ms);
    let ms = |value: u64| Printed::new(exact(value as f64), 0.0, at.clone());
    for &milli in &RUN_STATS_PERCENTILES {
        r.percentiles_ms.insert(milli, ms(all.value_at_quantile(f64::from(milli) / 100_000.0)));
    }
    r.max_ms = Some(ms(all.highest_equivalent(all.max())));
    r.min_ms = Some(ms(all.lowest_equivalent(all.min_nz())));
    // The mean of bucket midpoints, to the unit recorded (its fraction is below the precision).
    r.mean_ms = Some(Printed::new(exact(all.mean().round()), 0.0, at.clone()));
    r.requests = Some(Count::new(all.len(), at.clone()));
    r.ranked = Some(all.len());
    // Interval start times are from the log's BaseTime when it has one, else from its StartTime
    // (the Java writer's convention), unless they are absolute already (seconds since 1970).
    let origin = base_time.or(start_time).map_or(0.0, |t| t.as_secs_f64());
    let absolute = if begin > 946_684_800.0 { begin } else { origin + begin };
    let started =
        (absolute > 946_684_800.0).then(|| Start { unix_ns: (absolute * 1e9).round() as i64, step_ns: 1_000_000, at: at.clone() });
    let digits = all.sigfig();
    Ok(Piece {
        reported: Some(r),
        started,
        notes: vec![
            Message::new(NoteKey::HdrLog, &[&intervals, &format!("{:.3}", end - begin), &unit_name]),
            precision_note(u32::from(digits), sub_buckets_of(digits)),
            Message::plain(NoteKey::HdrErrorsUnknown),
        ],
        ..Piece::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> String {
        std::fs::read_to_string(format!("{}/tests/fixtures/import/hdrhistogram/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    #[test]
    fn a_java_distribution_keeps_its_rows_at_run_stats_percentiles() {
        let piece = percentiles("load.hgrm", &fixture("load.hgrm")).unwrap();
        let r = piece.reported.unwrap();
        assert_eq!(r.rule, Rule::HdrHistogram);
        assert_eq!((r.requests.as_ref().unwrap().value, r.ranked, r.errors.as_ref()), (3000, Some(3000), None));
        assert_eq!(r.percentiles_ms[&50_000].value, 10.920);
        assert_eq!(r.max_ms.as_ref().unwrap().value, 661.127);
        // 99 % is not a level of the distribution: nothing is read between two rows.
        assert!(!r.percentiles_ms.contains_key(&99_000));
        assert!(r.check().is_empty(), "{:?}", r.check());
    }

    #[test]
    fn the_interval_log_of_the_same_run_gives_the_distributions_numbers() {
        let log = log("load.hlog", &fixture("load.hlog")).unwrap().reported.unwrap();
        let hgrm = percentiles("load.hgrm", &fixture("load.hgrm")).unwrap().reported.unwrap();
        assert_eq!(log.requests.as_ref().unwrap().value, 3000);
        for (p, printed) in &hgrm.percentiles_ms {
            assert!(
                (log.percentiles_ms[p].value - printed.value).abs() <= 0.0005,
                "p{p}: {} and {}",
                log.percentiles_ms[p].value,
                printed.value
            );
        }
        assert!((log.max_ms.unwrap().value - 661.127).abs() <= 0.0005);
    }

    #[test]
    fn a_distribution_without_its_footer_is_cut_short() {
        let text = fixture("load.hgrm");
        let cut: String = text.lines().take(text.lines().count() - 2).map(|l| format!("{l}\n")).collect();
        let error = percentiles("load.hgrm", &cut).unwrap_err();
        assert!(error.message.contains("cut short"), "{error}");
    }

    #[test]
    fn a_footer_max_outside_the_last_rows_bucket_is_refused_at_the_max() {
        let text = fixture("load.hgrm");
        for max in ["      999.000", "      600.000"] {
            let edited = text.replace("      661.127, Total", &format!("{max}, Total"));
            let error = percentiles("load.hgrm", &edited).unwrap_err();
            let line = text.lines().position(|l| l.starts_with("#[Max")).unwrap() as u64 + 1;
            assert_eq!(error.place.map(|p| p.0), Some(line), "{error}");
            assert!(error.message.contains("but the 100 % row (at load.hgrm:"), "{error}");
        }
        // Within the bucket (the C library's form, wrk2's 12.496 under 12.503): accepted.
        let edited = text.replace("      661.127, Total", "      660.900, Total");
        assert!(percentiles("load.hgrm", &edited).is_ok());
    }

    #[test]
    fn sub_buckets_give_the_significant_digits() {
        for (sub, digits) in [(2048, 3), (32768, 4), (256, 2)] {
            let s = Spectrum {
                rows: Vec::new(),
                mean: Printed::new(0.0, 0.0, Place::new("f", 1, 1)),
                max: Printed::new(0.0, 0.0, Place::new("f", 1, 1)),
                total: Count::new(0, Place::new("f", 1, 1)),
                sub_buckets: sub,
                end: 0,
            };
            assert_eq!(s.digits(), Some(digits));
        }
    }
}
