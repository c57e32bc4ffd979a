//! Number formatting for every output: the one place that decides digits and separators.
//!
//! Digits follow what a value is known to. A latency whose source fixes its resolution (ab's
//! whole milliseconds, hey's 0.1 ms: `model::Format::latency_step_ms`) prints at it ([`ms_at`]),
//! a number a tool printed prints as it printed it ([`printed`]), and a median of two such values
//! or a mean gets one decimal more ([`known`]); everything else has the fixed digits below.

use crate::model::HeadlineMetric;
pub use crate::stats::precision::decimals_of;
use crate::stats::precision::MAX_DECIMALS;

/// Milliseconds with two decimals and thousands separators: `5,945.11`.
pub fn ms(value: f64) -> String {
    grouped(value, 2)
}

/// Milliseconds known to `decimals` places (`None`: not known, two as [`ms`]): `52` for ab's
/// whole milliseconds, `52.5` for the median of 52 and 53.
pub fn ms_at(value: f64, decimals: Option<u8>) -> String {
    match decimals {
        Some(d) => known(value, d),
        None => ms(value),
    }
}

/// A value known to `decimals` places: with those when it has no more, else with one more (the
/// mean of two middle values has at most one more; a mean of more is rounded there).
pub fn known(value: f64, decimals: u8) -> String {
    let d = usize::from(decimals.min(MAX_DECIMALS));
    let scaled = value * 10f64.powi(d as i32);
    let exact = (scaled - scaled.round()).abs() <= 1e-6 * scaled.abs().max(1.0);
    grouped(value, if exact { d } else { d + 1 })
}

/// A number as a tool printed it, from the digits the importer kept (run_stats.csv holds the
/// shortest text that reads back as the value): `46.742`, `427.88`, `2`. Trailing zeros the
/// tool printed are not kept by the file, so `427.80` shows as `427.8`.
pub fn printed(value: f64) -> String {
    known(value, decimals_of(value))
}

/// Requests per second: a whole number from 1,000 up (`102,667`: the hundredths of a rate that
/// size are noise no reader can use), below it at `decimals` (the digits a tool printed it with,
/// [`known`]) or with one decimal when it is our own (`769.2`).
pub fn rate(value: f64, decimals: Option<u8>) -> String {
    if value.abs() >= 1000.0 {
        return grouped(value, 0);
    }
    match decimals {
        Some(d) => known(value, d),
        None => grouped(value, 1),
    }
}

/// A rate as a tool printed it ([`printed`]'s digits), whole from 1,000 up as [`rate`].
pub fn rate_printed(value: f64) -> String {
    rate(value, Some(decimals_of(value)))
}

/// Seconds with three decimals: `6.562`.
pub fn seconds(value: f64) -> String {
    grouped(value, 3)
}

/// Milliseconds as seconds with two decimals, for times near a second or more: `1.01` for 1,012.7 ms.
pub fn seconds_of_ms(value_ms: f64) -> String {
    grouped(value_ms / 1000.0, 2)
}

/// A change as a signed percentage with one decimal: `+7.2%`, `-22.0%`.
pub fn signed_percent(fraction: f64) -> String {
    let text = percent(fraction);
    if text.starts_with('-') {
        text
    } else {
        format!("+{text}")
    }
}

/// A resolution given in ms, in the unit a reader would say it in: `1 s`, `0.1 ms`, `1 ns`.
pub fn duration_ms(step_ms: f64) -> String {
    match step_ms {
        s if s >= 1000.0 => format!("{} s", s / 1000.0),
        s if s >= 0.001 => format!("{s} ms"),
        s => format!("{} ns", (s * 1e6).round()),
    }
}

/// A count with thousands separators: `2,160`.
pub fn count(value: u64) -> String {
    grouped(value as f64, 0)
}

/// Bytes as MiB with one decimal: `25.2`.
pub fn mib(bytes: f64) -> String {
    grouped(bytes / 1_048_576.0, 1)
}

/// A ratio with two decimals and a multiplication sign: `1.73×`.
pub fn ratio(value: f64) -> String {
    format!("{}×", grouped(value, 2))
}

/// A ratio of two measurements as a plain number, precise where it matters: two decimals from
/// 1 to 10, one to 100, none above; below 1, two significant digits (`0.72`, `0.072`), so a
/// large gap either way keeps its size: `1.39`, `3,953`, `0.00025`.
pub fn factor(value: f64) -> String {
    if !(value.is_finite() && value > 0.0) {
        return grouped(value, 2);
    }
    let decimals = if value >= 100.0 {
        0
    } else if value >= 10.0 {
        1
    } else if value >= 1.0 {
        2
    } else {
        (1 - value.log10().floor() as i32).max(2) as usize
    };
    grouped(value, decimals)
}

/// A p value: `< 0.001` below a thousandth, else three decimals (four below 0.01), so no p
/// reads as zero.
pub fn p_value(p: f64) -> String {
    if p < 0.001 {
        "< 0.001".to_string()
    } else if p < 0.01 {
        grouped(p, 4)
    } else {
        grouped(p, 3)
    }
}

/// A fraction as a percentage with one decimal: `72.2%`. For a measured share; a threshold the
/// user wrote prints with its own digits ([`threshold_percent`]).
pub fn percent(fraction: f64) -> String {
    format!("{}%", grouped(fraction * 100.0, 1))
}

/// A threshold (a number the user wrote, e.g. `--fail-on-regression 99.99`) as a percentage with
/// one decimal, or with as many as it was written with, so it is told from its neighbours:
/// `5.0%`, `99.99%` (one decimal would print `100.0%`), `0.01%`.
pub fn threshold_percent(fraction: f64) -> String {
    format!("{}%", grouped(fraction * 100.0, written_decimals(fraction).max(1)))
}

/// A threshold as a percentage, with a decimal only when it has one: `1%`, `0.5%`, `99.99%`.
pub fn percent_round(fraction: f64) -> String {
    format!("{}%", grouped(fraction * 100.0, written_decimals(fraction)))
}

/// The decimals of the shortest text of a fraction as a percentage (binary noise of the scaling
/// by 100 rounded off), at most [`MAX_DECIMALS`].
fn written_decimals(fraction: f64) -> usize {
    usize::from(decimals_of(crate::stats::precision::percent(fraction * 100.0)))
}

/// A fraction as a percentage with two decimals, for error rates, where 0.05% must not read as
/// 0.1%: `0.25%`.
pub fn percent_fine(fraction: f64) -> String {
    format!("{}%", grouped(fraction * 100.0, 2))
}

/// A probability as a percentage: one decimal from 0.1% up, else "< 0.1%", so a tiny chance
/// never reads as zero.
pub fn probability(p: f64) -> String {
    if p > 0.0 && p < 0.000_5 {
        "< 0.1%".to_string()
    } else {
        percent(p)
    }
}

/// A plain number with the given decimals, for CPU % and load averages.
pub fn decimal(value: f64, decimals: usize) -> String {
    grouped(value, decimals)
}

/// A published number as it was written in dataset.toml (the shortest decimal that reads back as
/// the same value), with thousands separators and at least the decimals [`in_unit`] prints, so
/// that a trailing zero the original printed (`1.970` s) is kept: `10,032.0812`, `0.0689101219177`.
pub fn as_written(value: f64, unit: crate::model::Unit) -> String {
    if !value.is_finite() {
        return value.to_string();
    }
    let text = value.abs().to_string();
    let shortest = text.split_once('.').map_or(0, |(_, f)| f.len());
    grouped(value, shortest.max(unit_decimals(unit)))
}

/// A measured value in the unit of a published table: ms to a hundredth, s to a thousandth,
/// requests/s to a tenth (as the headline table prints them) and percent to a tenth.
pub fn in_unit(value: f64, unit: crate::model::Unit) -> String {
    if unit == crate::model::Unit::RequestsPerS {
        return rate(value, None);
    }
    grouped(value, unit_decimals(unit))
}

fn unit_decimals(unit: crate::model::Unit) -> usize {
    use crate::model::Unit;
    match unit {
        Unit::Ms => 2,
        Unit::S => 3,
        Unit::RequestsPerS | Unit::Percent => 1,
    }
}

/// Whether `c` is a CJK character or CJK punctuation: text written without spaces between words,
/// so a line break next to it must not turn into one.
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x2E80..=0x9FFF | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFFEF | 0x20000..=0x3FFFF)
}

/// `value` with `decimals` decimals and thousands separators; a value that is not zero but would
/// read as zero at those decimals gets as many as its first significant digit needs (a 0.002 ms
/// p95 is "0.002", never "0.00").
fn grouped(value: f64, decimals: usize) -> String {
    if !value.is_finite() {
        return value.to_string();
    }
    let mut text = format!("{:.*}", decimals, value.abs());
    if value != 0.0 && !text.bytes().any(|b| matches!(b, b'1'..=b'9')) {
        let first_digit = (-value.abs().log10().floor()).max(0.0) as usize;
        text = format!("{:.*}", first_digit.max(decimals), value.abs());
    }
    let (whole, fraction) = match text.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (text.as_str(), None),
    };
    let mut out = String::with_capacity(text.len() + whole.len() / 3 + 1);
    // "-0.00" reads as a sign error: only non-zero results keep the sign.
    if value < 0.0 && text.chars().any(|c| c.is_ascii_digit() && c != '0') {
        out.push('-');
    }
    for (i, digit) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    if let Some(fraction) = fraction {
        out.push('.');
        out.push_str(fraction);
    }
    out
}

/// A value of `metric` as the tables print it, known to `decimals` (the condition's latency
/// decimals for a percentile, the tool's printed ones for requests/s; `None`: the metric's own
/// digits): what the views (`view::Context::metric_number`) and the charts print.
pub fn metric_number_at(metric: HeadlineMetric, decimals: Option<u8>, value: f64) -> String {
    match (metric, decimals) {
        (HeadlineMetric::Percentile, decimals) => ms_at(value, decimals),
        (HeadlineMetric::SessionMeanMs, _) => ms(value),
        (HeadlineMetric::RequestsPerS, decimals) => rate(value, decimals),
        (HeadlineMetric::ErrorRate, _) => percent_fine(value),
        (HeadlineMetric::FailedShare, _) => percent(value),
    }
}

/// [`metric_number_at`] with its unit in running text: "12.00 ms", "769.2", "64.9%".
pub fn metric_value_at(metric: HeadlineMetric, decimals: Option<u8>, value: f64) -> String {
    let number = metric_number_at(metric, decimals, value);
    if metric.is_time() {
        format!("{number} ms")
    } else {
        number
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rate_from_1000_up_is_whole_and_below_keeps_its_digits() {
        assert_eq!(rate(102_666.666_7, Some(2)), "102,667");
        assert_eq!(rate(1_000.4, None), "1,000");
        assert_eq!(rate_printed(102_666.67), "102,667");
        assert_eq!(rate(769.23, None), "769.2");
        assert_eq!(rate(427.88, Some(2)), "427.88");
        assert_eq!(rate_printed(427.8), "427.8");
        assert_eq!(in_unit(10_032.08, crate::model::Unit::RequestsPerS), "10,032");
    }

    #[test]
    fn formats_like_the_study_tables() {
        assert_eq!(ms(5945.11), "5,945.11");
        assert_eq!(ms(1.57), "1.57");
        assert_eq!(ms(1234567.891), "1,234,567.89");
        assert_eq!(seconds(6.5621), "6.562");
        assert_eq!(count(2160), "2,160");
        assert_eq!(count(0), "0");
        assert_eq!(mib(26_424_115.0), "25.2");
        assert_eq!(ms(-0.001), "-0.001");
        assert_eq!(ms(0.0), "0.00");
        assert_eq!(ms(-12.5), "-12.50");
        assert_eq!(percent(0.7222), "72.2%");
        assert_eq!((percent_round(0.01), percent_round(0.005), percent_round(0.125)), ("1%".into(), "0.5%".into(), "12.5%".into()));
    }

    /// `--fail-on-regression 99.99` printed as 100.0%: a threshold prints with the digits that
    /// tell it from its neighbours.
    #[test]
    fn a_threshold_percentage_keeps_the_digits_it_was_written_with() {
        assert_eq!(percent(0.9999), "100.0%", "a measured share: one decimal");
        assert_eq!(threshold_percent(0.9999), "99.99%");
        assert_eq!(threshold_percent(0.99999), "99.999%");
        assert_eq!(threshold_percent(0.0001), "0.01%");
        assert_eq!(threshold_percent(0.07), "7.0%", "0.07 * 100 is 7.000000000000001 in binary");
        // One decimal, as percent printed them, where it was enough.
        for (fraction, text) in [(0.05, "5.0%"), (0.1, "10.0%"), (0.125, "12.5%"), (0.5, "50.0%"), (0.01, "1.0%")] {
            assert_eq!((threshold_percent(fraction), percent(fraction)), (text.to_string(), text.to_string()));
        }
        assert_eq!((percent_round(0.9999), percent_round(0.0001), percent_round(0.29)), ("99.99%".into(), "0.01%".into(), "29%".into()));
    }

    #[test]
    fn a_nonzero_value_never_prints_as_zero() {
        for (value, text) in [(0.002, "0.002"), (0.000_04, "0.00004"), (0.004_9, "0.005"), (0.006, "0.01"), (1e-9, "0.000000001")] {
            assert_eq!(ms(value), text, "{value}");
        }
        assert_eq!(percent_fine(0.000_01), "0.001%");
        assert_eq!(percent(0.000_2), "0.02%");
        assert_eq!(count(0), "0");
        assert_eq!(seconds(0.0004), "0.0004");
    }

    #[test]
    fn published_numbers_print_as_written_and_measured_ones_in_the_unit() {
        use crate::model::Unit;
        assert_eq!(as_written(10032.0812, Unit::RequestsPerS), "10,032.0812");
        assert_eq!(as_written(0.0689101219177, Unit::S), "0.0689101219177");
        assert_eq!(as_written(430.1, Unit::RequestsPerS), "430.1");
        assert_eq!(as_written(1.970, Unit::S), "1.970");
        assert_eq!(as_written(6562.0, Unit::Ms), "6,562.00");
        assert_eq!(in_unit(0.4784316, Unit::S), "0.478");
        assert_eq!(in_unit(64.9, Unit::Percent), "64.9");
        assert_eq!(in_unit(762.57, Unit::RequestsPerS), "762.6");
        assert_eq!(in_unit(5958.156, Unit::Ms), "5,958.16");
    }

    #[test]
    fn values_print_at_what_they_are_known_to() {
        // ab's whole milliseconds: no decimals, and the median of two gets one.
        assert_eq!(ms_at(52.0, Some(0)), "52");
        assert_eq!(ms_at(1.0, Some(0)), "1");
        assert_eq!(ms_at(1_044.0, Some(0)), "1,044");
        assert_eq!(ms_at(52.5, Some(0)), "52.5");
        // hey's 0.1 ms, and a median of two of them.
        assert_eq!(ms_at(0.4, Some(1)), "0.4");
        assert_eq!(ms_at(0.35, Some(1)), "0.35");
        assert_eq!(ms_at(0.1 + 0.2, Some(1)), "0.3", "binary noise is not a digit");
        // Not known: the report's two decimals.
        assert_eq!(ms_at(52.0, None), "52.00");
        // A mean of three whole values is rounded to one decimal more.
        assert_eq!(known(155.0 / 3.0, 0), "51.7");
    }

    #[test]
    fn a_tool_s_number_prints_as_printed() {
        assert_eq!(printed(46.742), "46.742");
        assert_eq!(printed(427.88), "427.88");
        assert_eq!(printed(2.0), "2");
        assert_eq!(printed(1334.88), "1,334.88");
        assert_eq!(printed(0.0001), "0.0001");
        assert_eq!((decimals_of(46.742), decimals_of(2.0), decimals_of(1e-9)), (3, 0, 6));
    }

    #[test]
    fn factors_keep_their_size_either_way() {
        assert_eq!(factor(1.3912), "1.39");
        assert_eq!(factor(12.345), "12.3");
        assert_eq!(factor(3953.4), "3,953");
        assert_eq!(factor(0.7234), "0.72");
        assert_eq!(factor(0.0723), "0.072");
        assert_eq!(factor(0.000_253), "0.00025");
    }

    #[test]
    fn p_values_never_read_as_zero() {
        assert_eq!(p_value(0.000_01), "< 0.001");
        assert_eq!(p_value(0.003_787), "0.0038");
        assert_eq!(p_value(0.0381), "0.038");
        assert_eq!(p_value(1.0), "1.000");
    }
}
