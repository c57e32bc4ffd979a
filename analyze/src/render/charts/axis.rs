//! Axis ranges and ticks. These place marks on a page; they summarise nothing (the extremes of
//! the values drawn decide how much paper the axis needs).
//!
//! A log axis spans whole decades. Values at or below zero have no place on it: the axis gets
//! one more decade below the smallest positive value's, and they are drawn at its low edge (the
//! floor) with their own marker and a caption saying so, never silently dropped or shown as a
//! small positive value.

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;
use std::ops::Range;

/// The exponents a log axis may use: 10^308 is the largest power of ten an `f64` holds.
const MIN_EXP: i32 = -307;
const MAX_EXP: i32 = 308;
/// More decades than this and only every k-th is labelled, so labels never collide.
const MAX_DECADE_LABELS: i32 = 8;
/// Up to this many decades also get light grid lines at 2..9 × 10^k.
const MAX_DECADES_WITH_MINOR: i32 = 6;

/// A log axis over whole decades, `10^low_exp .. 10^high_exp`.
#[derive(Debug, Clone, PartialEq)]
pub struct LogAxis {
    pub low_exp: i32,
    pub high_exp: i32,
    /// Where values at or below zero are drawn (the low edge, `10^low_exp`), when any were
    /// given; every positive value lies at least a decade above it.
    pub floor: Option<f64>,
}

impl LogAxis {
    /// The decades covering every positive finite value, at least one decade wide; one decade
    /// lower when some value is at or below zero, to make room for the floor. With no positive
    /// value the axis is 1..10. Non-finite values are ignored.
    pub fn covering(values: impl IntoIterator<Item = f64>) -> LogAxis {
        let mut min_positive = f64::INFINITY;
        let mut max_positive = 0.0_f64;
        let mut non_positive = false;
        for value in values.into_iter().filter(|v| v.is_finite()) {
            if value > 0.0 {
                min_positive = min_positive.min(value);
                max_positive = max_positive.max(value);
            } else {
                non_positive = true;
            }
        }
        let (mut low_exp, mut high_exp) =
            if max_positive > 0.0 { (decade_at_or_below(min_positive), decade_at_or_above(max_positive)) } else { (0, 1) };
        if low_exp == high_exp {
            // Every value is the same power of ten: centre it in two decades.
            low_exp -= 1;
            high_exp += 1;
        }
        if non_positive && max_positive > 0.0 {
            low_exp -= 1;
        }
        let low_exp = low_exp.clamp(MIN_EXP, MAX_EXP - 1);
        let high_exp = high_exp.clamp(low_exp + 1, MAX_EXP);
        LogAxis { low_exp, high_exp, floor: non_positive.then(|| pow10(low_exp)) }
    }

    /// The value range for plotters' log coordinate.
    pub fn range(&self) -> Range<f64> {
        pow10(self.low_exp)..pow10(self.high_exp)
    }

    /// The labelled ticks: every decade, or every k-th when there are many (always the lowest).
    pub fn decades(&self) -> Vec<f64> {
        let span = self.high_exp - self.low_exp;
        let step = (span + MAX_DECADE_LABELS - 1) / MAX_DECADE_LABELS;
        (self.low_exp..=self.high_exp).filter(|e| (e - self.low_exp) % step.max(1) == 0).map(pow10).collect()
    }

    /// Light grid lines at 2..9 × 10^k, for axes of a few decades only.
    pub fn minor(&self) -> Vec<f64> {
        if self.high_exp - self.low_exp > MAX_DECADES_WITH_MINOR {
            return Vec::new();
        }
        (self.low_exp..self.high_exp).flat_map(|e| (2..10).map(move |m| f64::from(m) * pow10(e))).collect()
    }

    /// The labelled ticks of a ratio axis: its decades and, over at most two decades, 2 and 5 ×
    /// 10^k between them (0.5 and 2 beside 1), so 0.8 is read against 0.5 and 1, not guessed
    /// between 0.1 and 1.
    pub fn ratio_ticks(&self) -> Vec<f64> {
        if self.high_exp - self.low_exp > 2 {
            return self.decades();
        }
        let mut ticks: Vec<f64> =
            (self.low_exp..self.high_exp).flat_map(|e| [1.0, 2.0, 5.0].map(|m| m * pow10(e))).chain([pow10(self.high_exp)]).collect();
        ticks.dedup();
        ticks
    }

    /// Where to draw `value`, and whether it was moved there: values at or below zero go to the
    /// floor (`true`); positive values are drawn where they are (kept inside the axis).
    pub fn place(&self, value: f64) -> (f64, bool) {
        if value > 0.0 {
            let range = self.range();
            (value.clamp(range.start, range.end), false)
        } else {
            (pow10(self.low_exp), true)
        }
    }
}

/// The label of a decade tick: `0.01`, `1`, `1,000`; `1e-9` and `1e18` beyond.
pub fn decade_label(value: f64) -> String {
    let exp = value.log10().round() as i32;
    match exp {
        0..=15 => crate::render::format::decimal(pow10(exp), 0),
        -6..=-1 => crate::render::format::decimal(pow10(exp), (-exp) as usize),
        _ => format!("1e{exp}"),
    }
}

/// The label of a [`LogAxis::ratio_ticks`] tick: `0.2`, `0.5`, `1`, `2`; a decade as
/// [`decade_label`] writes it.
pub fn ratio_label(value: f64) -> String {
    let exp = value.log10().floor() as i32;
    if (value / pow10(exp) - 1.0).abs() < 1e-9 || !(-6..=15).contains(&exp) {
        return decade_label(value);
    }
    crate::render::format::decimal(value, exp.min(0).unsigned_abs() as usize)
}

/// A linear axis with round ticks (1, 2 or 5 × 10^k apart).
#[derive(Debug, Clone, PartialEq)]
pub struct LinearAxis {
    pub low: f64,
    pub high: f64,
    pub ticks: Vec<f64>,
    /// Decimals that tell the ticks apart.
    pub decimals: usize,
}

impl LinearAxis {
    /// Round ticks covering the finite values (and zero when `from_zero`); 0..1 when there is
    /// nothing to cover.
    pub fn covering(values: impl IntoIterator<Item = f64>, from_zero: bool) -> LinearAxis {
        let mut low = if from_zero { 0.0 } else { f64::INFINITY };
        let mut high = if from_zero { 0.0 } else { f64::NEG_INFINITY };
        for value in values.into_iter().filter(|v| v.is_finite()) {
            low = low.min(value);
            high = high.max(value);
        }
        if low > high {
            (low, high) = (0.0, 1.0);
        }
        if high == low {
            let pad = if low == 0.0 { 1.0 } else { low.abs() / 10.0 };
            (low, high) = if from_zero && low >= 0.0 { (0.0, high + pad) } else { (low - pad, high + pad) };
            if from_zero && low == 0.0 && high == 0.0 {
                high = 1.0;
            }
        }
        let step = tightest_step(low, high);
        let first = (low / step).floor();
        let last = (high / step).ceil();
        let count = (last - first) as i64;
        let ticks: Vec<f64> = (0..=count).map(|i| (first + i as f64) * step).collect();
        let decimals = if step >= 1.0 { 0 } else { (-step.log10().floor()) as usize }.min(9);
        LinearAxis { low: first * step, high: last * step, ticks, decimals }
    }

    pub fn range(&self) -> Range<f64> {
        self.low..self.high
    }
}

/// How a value axis maps values to paper.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    Linear,
    Log,
}

/// From this ratio of the largest value to the smallest up, a value axis is logarithmic: below
/// it a linear axis shows a 10% gap (700 against 770 requests/s) that a log axis of whole
/// decades flattens to a few pixels.
pub const LOG_FROM_RATIO: f64 = 10.0;

impl Scale {
    /// Linear when every finite value is positive and the largest is less than
    /// [`LOG_FROM_RATIO`] times the smallest, or when no value is positive (nothing for a log
    /// axis to show); log otherwise, zeros then drawn at its floor.
    pub fn for_values(values: impl IntoIterator<Item = f64>) -> Scale {
        let (mut min, mut max) = (f64::INFINITY, f64::NEG_INFINITY);
        for value in values.into_iter().filter(|v| v.is_finite()) {
            min = min.min(value);
            max = max.max(value);
        }
        if max <= 0.0 || (min > 0.0 && max / min < LOG_FROM_RATIO) {
            Scale::Linear
        } else {
            Scale::Log
        }
    }
}

/// A value axis on the scale [`Scale::for_values`] chooses.
#[derive(Debug, Clone, PartialEq)]
pub enum ValueAxis {
    Linear(LinearAxis),
    Log(LogAxis),
}

impl ValueAxis {
    /// The axis covering `values` on the scale they call for; a linear axis starts at its first
    /// round tick below the smallest value, not at zero (the caption says so), unless a value is
    /// zero or less (an error rate of 0: the axis then includes 0).
    pub fn covering(values: &[f64]) -> ValueAxis {
        match Scale::for_values(values.iter().copied()) {
            Scale::Linear => {
                let from_zero = values.iter().any(|&v| v <= 0.0);
                ValueAxis::Linear(LinearAxis::covering(values.iter().copied(), from_zero))
            }
            Scale::Log => ValueAxis::Log(LogAxis::covering(values.iter().copied())),
        }
    }

    pub fn scale(&self) -> Scale {
        match self {
            ValueAxis::Linear(_) => Scale::Linear,
            ValueAxis::Log(_) => Scale::Log,
        }
    }

    /// Where values at or below zero are drawn on a log axis; none on a linear one.
    pub fn floor(&self) -> Option<f64> {
        match self {
            ValueAxis::Linear(_) => None,
            ValueAxis::Log(axis) => axis.floor,
        }
    }

    /// Whether the axis starts at zero (a linear axis may start above it).
    pub fn starts_at_zero(&self) -> bool {
        matches!(self, ValueAxis::Linear(axis) if axis.low == 0.0)
    }

    /// Where to draw `value`, and whether a log axis moved it to its floor.
    pub fn place(&self, value: f64) -> (f64, bool) {
        match self {
            ValueAxis::Linear(axis) => (value.clamp(axis.low, axis.high), false),
            ValueAxis::Log(axis) => axis.place(value),
        }
    }

    /// A tick's label.
    pub fn label(&self, value: f64) -> String {
        match self {
            ValueAxis::Linear(axis) => crate::render::format::decimal(value, axis.decimals),
            ValueAxis::Log(_) => decade_label(value),
        }
    }

    /// The plotters coordinate of the axis.
    pub fn coord(&self) -> Ticked {
        match self {
            ValueAxis::Linear(axis) => Ticked::from(axis),
            ValueAxis::Log(axis) => Ticked::log(axis),
        }
    }
}

/// An f64 coordinate, linear or logarithmic, whose ticks are exactly the given values (plotters'
/// own `WithKeyPoints` over f64 loses the custom label formatter).
pub struct Ticked {
    /// Over the values, or over their base-10 logarithms on a log axis.
    inner: RangedCoordf64,
    range: Range<f64>,
    log: bool,
    ticks: Vec<f64>,
    /// The light grid lines (a log axis's 2..9 × 10^k).
    light: Vec<f64>,
}

impl Ticked {
    pub fn new(range: Range<f64>, ticks: Vec<f64>) -> Ticked {
        Ticked { inner: range.clone().into(), range, log: false, ticks, light: Vec::new() }
    }

    /// The log coordinate of `axis` with `ticks` labelled and its other minor lines light.
    pub fn log_with_ticks(axis: &LogAxis, ticks: Vec<f64>) -> Ticked {
        let range = axis.range();
        let inner = (range.start.log10()..range.end.log10()).into();
        let near = |a: f64, b: f64| (a / b - 1.0).abs() < 1e-9;
        let light = axis.minor().into_iter().filter(|m| !ticks.iter().any(|t| near(*m, *t))).collect();
        Ticked { inner, range, log: true, ticks, light }
    }

    /// The log coordinate of `axis`, with its decades as ticks and its minor lines as light lines.
    pub fn log(axis: &LogAxis) -> Ticked {
        let range = axis.range();
        let inner = (range.start.log10()..range.end.log10()).into();
        Ticked { inner, range, log: true, ticks: axis.decades(), light: axis.minor() }
    }
}

impl From<&LinearAxis> for Ticked {
    fn from(axis: &LinearAxis) -> Ticked {
        Ticked::new(axis.range(), axis.ticks.clone())
    }
}

impl Ranged for Ticked {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        if self.log {
            self.inner.map(&value.max(self.range.start).log10(), limit)
        } else {
            self.inner.map(value, limit)
        }
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            self.light.clone()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.range.clone()
    }
}

/// The round step (1, 2 or 5 × 10^k) of 3 to 8 intervals whose ticks cover `low..high` with the
/// least room to spare, the larger step on a tie (the step of a fifth of the span when none has 3
/// to 8): one rule for every span left a third of a 10.4 s run's time axis empty (0-15 s by 5 s,
/// where 0-12 s by 2 s fits).
fn tightest_step(low: f64, high: f64) -> f64 {
    let intervals_of = |step: f64| (high / step).ceil() - (low / step).floor();
    let mut best: Option<f64> = None;
    for divisor in 4..=8 {
        let step = nice_step((high - low) / f64::from(divisor));
        if !(3.0..=8.0).contains(&intervals_of(step)) {
            continue;
        }
        let (span, best_span) = (intervals_of(step) * step, best.map_or(f64::INFINITY, |b| intervals_of(b) * b));
        let tighter = span < best_span * (1.0 - 1e-9);
        let as_tight_and_coarser = span <= best_span * (1.0 + 1e-9) && best.is_some_and(|b| step > b);
        if tighter || as_tight_and_coarser {
            best = Some(step);
        }
    }
    best.unwrap_or_else(|| nice_step((high - low) / 5.0))
}

/// 1, 2 or 5 × 10^k, at least `raw`.
fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let base = pow10(decade_at_or_below(raw));
    [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * base).find(|&s| s >= raw).unwrap_or(10.0 * base)
}

/// 10^e, exact for the decades an `f64` can hold. Parsed once per decade into a table: every
/// point placed on a log axis asks for two (its range), and a report's 22 MB of figures spent
/// 250M instructions formatting and parsing `1e{e}` again.
fn pow10(exp: i32) -> f64 {
    static DECADES: std::sync::LazyLock<Vec<f64>> = std::sync::LazyLock::new(|| (MIN_EXP..=MAX_EXP).map(parsed_pow10).collect());
    match usize::try_from(exp - MIN_EXP).ok().and_then(|index| DECADES.get(index)) {
        Some(&value) => value,
        None => parsed_pow10(exp),
    }
}

/// 10^e as the nearest f64: `powi` compounds rounding for negative exponents, parsing does not.
fn parsed_pow10(exp: i32) -> f64 {
    format!("1e{exp}").parse().unwrap_or(if exp < 0 { 0.0 } else { f64::INFINITY })
}

/// The largest e with 10^e <= v (v > 0).
fn decade_at_or_below(value: f64) -> i32 {
    let mut exp = (value.log10().floor() as i32).clamp(MIN_EXP, MAX_EXP);
    if pow10(exp) > value && exp > MIN_EXP {
        exp -= 1;
    } else if exp < MAX_EXP && pow10(exp + 1) <= value {
        exp += 1;
    }
    exp
}

/// The smallest e with 10^e >= v (v > 0).
fn decade_at_or_above(value: f64) -> i32 {
    let mut exp = (value.log10().ceil() as i32).clamp(MIN_EXP, MAX_EXP);
    if pow10(exp) < value && exp < MAX_EXP {
        exp += 1;
    } else if exp > MIN_EXP && pow10(exp - 1) >= value {
        exp -= 1;
    }
    exp
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_decade_table_holds_each_parsed_power_of_ten() {
        for exp in MIN_EXP - 30..=MAX_EXP + 30 {
            assert_eq!(pow10(exp).to_bits(), format!("1e{exp}").parse::<f64>().unwrap().to_bits(), "10^{exp}");
        }
        assert_eq!((pow10(0), pow10(3), pow10(-2)), (1.0, 1000.0, 0.01));
    }

    fn exps(axis: &LogAxis) -> (i32, i32) {
        (axis.low_exp, axis.high_exp)
    }

    #[test]
    fn a_ratio_axis_of_two_decades_labels_0_5_and_2_and_a_wider_one_its_decades() {
        let axis = LogAxis::covering([0.18, 4.19]);
        let labels: Vec<String> = axis.ratio_ticks().into_iter().map(ratio_label).collect();
        assert_eq!(labels, ["0.1", "0.2", "0.5", "1", "2", "5", "10"]);
        let wide = LogAxis::covering([0.004, 250.0]);
        let labels: Vec<String> = wide.ratio_ticks().into_iter().map(ratio_label).collect();
        assert_eq!(labels, ["0.001", "0.01", "0.1", "1", "10", "100", "1,000"]);
    }

    #[test]
    fn log_axis_spans_whole_decades_of_the_data() {
        let axis = LogAxis::covering([1.57, 1.72, 5945.11, 6590.04]);
        assert_eq!(exps(&axis), (0, 4));
        assert_eq!(axis.floor, None);
        assert_eq!(axis.decades(), vec![1.0, 10.0, 100.0, 1000.0, 10000.0]);
        assert_eq!(axis.range(), 1.0..10000.0);
    }

    #[test]
    fn log_axis_puts_zero_at_a_floor_a_decade_below_the_smallest_positive() {
        let axis = LogAxis::covering([0.0, 1.57, 5945.11]);
        assert_eq!(exps(&axis), (-1, 4));
        assert_eq!(axis.floor, Some(0.1));
        assert!(axis.floor.unwrap() < 1.57);
        assert_eq!(axis.place(0.0), (0.1, true));
        assert_eq!(axis.place(-3.0), (0.1, true));
        assert_eq!(axis.place(1.57), (1.57, false));
    }

    #[test]
    fn log_axis_of_only_zeros_is_one_decade_with_the_floor_at_its_bottom() {
        let axis = LogAxis::covering([0.0, 0.0]);
        assert_eq!(exps(&axis), (0, 1));
        assert_eq!(axis.floor, Some(1.0));
    }

    #[test]
    fn log_axis_of_all_equal_values_has_room_around_them() {
        let axis = LogAxis::covering([5.0, 5.0, 5.0]);
        assert_eq!(exps(&axis), (0, 1));
        let axis = LogAxis::covering([100.0, 100.0]);
        assert_eq!(exps(&axis), (1, 3), "a power of ten sits between two decades, not on an edge");
    }

    #[test]
    fn log_axis_of_a_single_point() {
        assert_eq!(exps(&LogAxis::covering([5958.77])), (3, 4));
        assert_eq!(exps(&LogAxis::covering([1.0])), (-1, 1));
    }

    #[test]
    fn log_axis_of_no_points_is_one_to_ten() {
        let axis = LogAxis::covering(std::iter::empty());
        assert_eq!(exps(&axis), (0, 1));
        assert_eq!(axis.floor, None);
        assert_eq!(axis.decades(), vec![1.0, 10.0]);
    }

    #[test]
    fn log_axis_under_one_decade_widens_to_whole_decades() {
        assert_eq!(exps(&LogAxis::covering([1.93, 2.94, 2.34])), (0, 1));
        assert_eq!(exps(&LogAxis::covering([5928.68, 6590.04])), (3, 4));
        // Across a decade boundary it takes both decades.
        assert_eq!(exps(&LogAxis::covering([8.0, 12.0])), (0, 2));
    }

    #[test]
    fn log_axis_ignores_non_finite_values_and_survives_extremes() {
        assert_eq!(exps(&LogAxis::covering([f64::NAN, f64::INFINITY, 3.0])), (0, 1));
        let axis = LogAxis::covering([f64::MIN_POSITIVE, f64::MAX]);
        assert!(axis.range().start > 0.0 && axis.range().end.is_finite());
        assert!(axis.decades().len() <= MAX_DECADE_LABELS as usize + 1);
        assert!(axis.minor().is_empty());
    }

    #[test]
    fn log_axis_has_minor_lines_between_few_decades() {
        let axis = LogAxis::covering([1.5, 15.0]);
        assert_eq!(axis.minor().len(), 16);
        assert_eq!(axis.minor()[0], 2.0);
    }

    #[test]
    fn decade_labels_read_as_plain_numbers() {
        let labels: Vec<String> = [0.001, 0.1, 1.0, 10.0, 1000.0, 10000.0, 1e-9, 1e18].into_iter().map(decade_label).collect();
        assert_eq!(labels, ["0.001", "0.1", "1", "10", "1,000", "10,000", "1e-9", "1e18"]);
    }

    #[test]
    fn the_scale_is_linear_below_a_tenfold_spread_and_log_from_it() {
        // app-servers-ab's requests/s: a 10% gap that a log axis of whole decades would flatten.
        assert_eq!(Scale::for_values([700.0, 733.5, 769.2, 800.0]), Scale::Linear);
        assert_eq!(Scale::for_values([1.0, 9.99]), Scale::Linear);
        assert_eq!(Scale::for_values([1.0, 10.0]), Scale::Log);
        assert_eq!(Scale::for_values([100.0, 10_000.0]), Scale::Log);
        // A zero beside positive values: no ratio, so log with the zero at the floor.
        assert_eq!(Scale::for_values([0.0, 5.0]), Scale::Log);
        assert_eq!(Scale::for_values([0.0, 0.0]), Scale::Linear);
        assert_eq!(Scale::for_values([f64::NAN, 3.0, 4.0]), Scale::Linear);
    }

    #[test]
    fn a_linear_value_axis_does_not_start_at_zero_and_places_values_where_they_are() {
        let axis = ValueAxis::covering(&[712.0, 790.0]);
        assert_eq!(axis.scale(), Scale::Linear);
        assert!(!axis.starts_at_zero());
        let range = axis.coord().range();
        assert!(range.start <= 712.0 && range.start > 600.0 && range.end >= 790.0, "{range:?}");
        assert_eq!(axis.place(733.0), (733.0, false));
        assert_eq!(axis.floor(), None);
        // Error rates of 0 everywhere: a linear axis from 0, not one around it.
        let zeros = ValueAxis::covering(&[0.0, 0.0]);
        assert!(zeros.starts_at_zero() && zeros.coord().range() == (0.0..1.0), "{zeros:?}");
        let coord = axis.coord();
        // 10% of the values is a tenth of the paper or more, not a few pixels.
        let (a, b) = (coord.map(&712.0, (0, 400)), coord.map(&790.0, (0, 400)));
        assert!(b - a > 150, "{a} {b}");
    }

    #[test]
    fn a_log_value_axis_maps_decades_evenly() {
        let axis = ValueAxis::covering(&[1.5, 900.0]);
        assert_eq!(axis.scale(), Scale::Log);
        let coord = axis.coord();
        assert_eq!(coord.range(), 1.0..1000.0);
        assert_eq!([1.0, 10.0, 100.0, 1000.0].map(|v| coord.map(&v, (0, 300))), [0, 100, 200, 300]);
    }

    #[test]
    fn linear_axis_has_round_ticks_from_zero() {
        let axis = LinearAxis::covering([0.3, 6.562], true);
        assert_eq!(axis.range(), 0.0..7.0);
        assert_eq!(axis.ticks, vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
        assert_eq!(axis.decimals, 0);
    }

    #[test]
    fn a_linear_axis_takes_the_round_step_that_wastes_least() {
        // A 10.4 s run: by 5 s the axis would run to 15 s, by 2 s it ends at 12 s.
        let axis = LinearAxis::covering([0.0, 10.4], true);
        assert_eq!(axis.range(), 0.0..12.0);
        assert_eq!(axis.ticks, vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0]);
        // Exactly 10: by 2 s (5 intervals), not by 5 s (2) or 1 s (10).
        assert_eq!(LinearAxis::covering([0.0, 10.0], true).ticks, vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
    }

    #[test]
    fn linear_axis_survives_no_values_one_value_and_zero() {
        assert_eq!(LinearAxis::covering(std::iter::empty(), true).range(), 0.0..1.0);
        assert_eq!(LinearAxis::covering([0.0], true).range(), 0.0..1.0);
        let one = LinearAxis::covering([4.0], false);
        assert!(one.low < 4.0 && one.high > 4.0);
        let small = LinearAxis::covering([0.0, 0.03], true);
        assert_eq!(small.decimals, 2);
        assert!(small.ticks.len() <= 11);
    }
}
