//! The forest chart of a comparison: one row per matched condition, its ratio candidate /
//! baseline as a marker and its interval as a line, every row on one shared log axis, with a
//! line at 1 (no difference) and the band of negligible ratios shaded. A row's verdict is its
//! marker's colour and shape (the legend names them in the table's words); a row without an
//! interval shows its point and says why, a row without a ratio says so, and a row its failed
//! requests decided says that too. Where ten overlay charts give ten axes, this one shows on
//! one axis which side of 1 each condition lies.
//!
//! It is drawn [`NARROW_WIDTH`] wide in [`NARROW_TYPE`], so a phone shows its text at 11 CSS px
//! or more, and grows in height with the conditions. It draws the ratios, intervals and
//! verdicts `stats::compare` put in the [`ComparisonReport`] and computes nothing; the band's
//! ends are `stats::difference::negligible_band`, the rule the verdicts use.

use super::axis::{ratio_label, LogAxis, Ticked};
use super::draw::{frame_layout, frame_with, house_mesh, label_at, markers, wrap, DrawResult, LegendEntry, Swatch};
use super::labels::{forest_desc, labels, ForestCounts};
use super::marks::{Mark, Pointable, Shape as MarkShape};
use super::style::{self, Shape, INK, LINE, LINE_HEIGHT, MARGIN, MARKER, MUTED, NARROW_TYPE, NARROW_WIDTH, THIN, X_LABEL_AREA};
use super::svg::{self, text_style, About};
use crate::model::{CompareVerdict, DecidedBy, HeadlineMetric, Lang, NoInterval, Oriented};
use crate::render::format;
use crate::render::i18n::compare::{words as compare_words, CompareWords};
use crate::render::i18n::lead::change_words;
use crate::render::i18n::prose::labels_label;
use crate::render::i18n::{fill, metric_words, strings};
use crate::report::compare::{ComparisonReport, ConditionComparison};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

/// The plot's margins: on the left half a tick label ("0.1" is centred on the edge), on the
/// right half of "1,000".
const LEFT: u32 = MARGIN + 10;
const RIGHT: u32 = 24;
/// Above the plot, inside the frame.
const TOP: u32 = 8;
/// Within a row: the px its interval line takes below its text, and the gap to the next row.
const ROW_LINE: i32 = 16;
const ROW_GAP: i32 = 8;
/// The band at the top of the plot that holds the two directions.
const DIRECTIONS: i32 = LINE_HEIGHT as i32 + 4;
/// Half the height of an interval's end caps, in px.
const CAP: i32 = 4;
/// The opacity of the negligible band, and of the interval of a row its failures decided.
const BAND_OPACITY: f64 = 0.14;
const FAINT_OPACITY: f64 = 0.5;

/// How a verdict is drawn: colour, marker and whether the marker is filled.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Look {
    color: RGBColor,
    shape: Shape,
    filled: bool,
}

/// The look of each verdict, in the legend's order: supported faster (bluish green diamond),
/// supported slower (vermillion triangle), negligible (blue square), cannot tell (grey hollow
/// circle). A row its failed requests decided keeps its verdict's colour with a cross.
const VERDICTS: [(CompareVerdict, Look); 4] = [
    (CompareVerdict::SupportedFaster, Look { color: style::PALETTE[2], shape: Shape::Diamond, filled: true }),
    (CompareVerdict::SupportedSlower, Look { color: style::PALETTE[1], shape: Shape::Triangle, filled: true }),
    (CompareVerdict::Negligible, Look { color: style::PALETTE[0], shape: Shape::Square, filled: true }),
    (CompareVerdict::NotShown, Look { color: MUTED, shape: Shape::Circle, filled: false }),
];

fn look(c: &ConditionComparison) -> Look {
    let base = VERDICTS.iter().find(|(v, _)| *v == c.verdict).map_or(VERDICTS[3].1, |(_, l)| *l);
    if c.decided_by == DecidedBy::Failures {
        Look { shape: Shape::Cross, filled: true, ..base }
    } else {
        base
    }
}

/// One condition's row as drawn.
struct Row {
    /// Its text, wrapped to the plot's width.
    lines: Vec<String>,
    /// The same, whole, for its mark's title and the description.
    said: String,
    ratio: Option<f64>,
    interval: Option<(f64, f64)>,
    look: Look,
    /// Its failed requests decided it: the ratio of the requests that succeeded is drawn faint.
    faint: bool,
}

impl Row {
    fn height(&self) -> i32 {
        self.lines.len() as i32 * LINE_HEIGHT as i32 + ROW_LINE + ROW_GAP
    }
}

/// The plot's width in px, which a row's text wraps to.
fn plot_width() -> i32 {
    (NARROW_WIDTH - LEFT - RIGHT) as i32
}

/// The words of the comparison a row and the legend share with the table.
struct Words {
    lang: Lang,
    chart: &'static super::labels::Labels,
    compare: &'static CompareWords,
    t: &'static crate::render::i18n::Strings,
    metric: String,
    headline: HeadlineMetric,
    /// The better and worse directions: faster and slower for latency and requests/s, better
    /// and worse for the other metrics, as the comparison page words its verdicts.
    better: &'static str,
    worse: &'static str,
}

impl Words {
    fn new(report: &ComparisonReport, lang: Lang) -> Words {
        let compare = compare_words(lang);
        let (better, worse) = match report.headline {
            HeadlineMetric::Percentile | HeadlineMetric::RequestsPerS => (compare.faster, compare.slower),
            _ => (compare.better, compare.worse),
        };
        Words {
            lang,
            chart: labels(lang),
            compare,
            t: strings(lang),
            metric: fill(metric_words(lang, report.headline).label, &[("p", &report.metric)]),
            headline: report.headline,
            better,
            worse,
        }
    }

    /// A verdict as the table writes it.
    fn verdict(&self, verdict: CompareVerdict, negligible: f64) -> String {
        match verdict {
            CompareVerdict::SupportedFaster => fill(self.compare.verdict_supported, &[("direction", self.better)]),
            CompareVerdict::SupportedSlower => fill(self.compare.verdict_supported, &[("direction", self.worse)]),
            CompareVerdict::Negligible => fill(self.t.verdict_negligible, &[("threshold", &format::percent(negligible))]),
            CompareVerdict::NotShown => self.t.verdict_not_shown.to_string(),
        }
    }

    /// The ratio and its interval as the table prints them, turned to at least 1 with the
    /// metric's words: "×1.23 faster (0.35–4.28)". The mark stays at the ratio itself on the axis.
    fn ratio(&self, ratio: f64, interval: Option<(f64, f64)>) -> String {
        let Some(oriented) = Oriented::of(ratio, interval.map(|i| i.0), interval.map(|i| i.1)) else {
            return format::factor(ratio);
        };
        let change = change_words(self.lang, self.headline, &oriented);
        match oriented.interval {
            Some((low, high)) => fill(
                self.t.aside,
                &[("main", &change), ("note", &format!("{}{}{}", format::factor(low), self.t.range_dash, format::factor(high)))],
            ),
            None => change,
        }
    }

    /// Why a ratio has no interval, in the table's words.
    fn no_interval(&self, why: Option<NoInterval>) -> Option<&'static str> {
        Some(match why? {
            NoInterval::OneRun => self.compare.no_interval_one_run,
            NoInterval::NoSpread => self.t.no_interval_spread,
            NoInterval::ZeroValue => self.t.no_interval_zero,
        })
    }
}

/// The row of condition `c`; `head` is the page's line for it ("direct · 2: candidate slower").
fn row(c: &ConditionComparison, head: &str, label: &str, w: &Words) -> Row {
    let interval = c.ratio_low.zip(c.ratio_high);
    let faint = c.decided_by == DecidedBy::Failures;
    let (drawn, said) = match c.ratio {
        None => {
            let text = fill(w.chart.forest_no_ratio, &[("head", head)]);
            (text.clone(), text)
        }
        Some(ratio) if faint => {
            let text = fill(w.chart.forest_by_failures, &[("head", head), ("metric", &w.metric), ("ratio", &w.ratio(ratio, interval))]);
            (text.clone(), text)
        }
        Some(ratio) => {
            let numbers = w.ratio(ratio, interval);
            let drawn = match (interval, w.no_interval(c.no_interval)) {
                (None, Some(why)) => fill(w.chart.forest_row_why, &[("condition", label), ("ratio", &numbers), ("why", why)]),
                // The numbers stay on one line: a no-break space inside them.
                _ => fill(w.chart.forest_row, &[("condition", label), ("ratio", &numbers.replace(' ', "\u{a0}"))]),
            };
            (drawn, fill(w.chart.forest_desc_row, &[("head", head), ("ratio", &numbers)]))
        }
    };
    Row { lines: lines(&drawn, label, NARROW_TYPE.text, plot_width()), said, ratio: c.ratio, interval, look: look(c), faint }
}

/// A row's text in lines of `width` px: one line when it fits; else, when it starts with the
/// condition's `label`, the label's lines and then the rest on lines of their own, so the
/// numbers are not split; else wrapped where it must.
fn lines(text: &str, label: &str, px: f64, width: i32) -> Vec<String> {
    if super::draw::text_width(text, px) <= width {
        return vec![text.to_string()];
    }
    match text.strip_prefix(label) {
        Some(rest) if !label.is_empty() => {
            // The separator after the label (": ", "：") stays on the label's last line.
            let numbers = rest.trim_start_matches([':', '：', ' ', ',', '、']);
            let separator = &rest[..rest.len() - numbers.len()];
            let mut out = wrap(&format!("{label}{}", separator.trim_end()), px, width);
            out.extend(wrap(numbers, px, width));
            out
        }
        _ => wrap(text, px, width),
    }
}

/// The forest chart of `report`; `heads` are the page's lines of its matched conditions, each
/// the condition and its verdict as the table words them (`ComparePage::text_rows`).
pub fn compare_forest(report: &ComparisonReport, heads: &[String], lang: Lang) -> String {
    let w = Words::new(report, lang);
    let negligible = report.thresholds.negligible_difference;
    let rows: Vec<Row> = report
        .conditions
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let label = labels_label(lang, &c.labels);
            let head = heads.get(k).cloned().unwrap_or_else(|| label.clone());
            row(c, &head, &label, &w)
        })
        .collect();
    let title = fill(w.chart.forest_title, &[("metric", &w.metric)]);
    let legend = legend(report, &w);
    let captions = vec![caption(report, &w)];
    let rows_height: i32 = DIRECTIONS + rows.iter().map(Row::height).sum::<i32>();
    let layout = frame_layout(NARROW_WIDTH, &title, &legend, &captions, &NARROW_TYPE);
    let height = layout.header + layout.footer + TOP as i32 + rows_height + X_LABEL_AREA as i32;

    let count = |f: &dyn Fn(&ConditionComparison) -> bool| report.conditions.iter().filter(|c| f(c)).count() as u64;
    let s = &report.summary;
    let counts = ForestCounts {
        matched: s.matched,
        faster: s.supported_faster,
        slower: s.supported_slower,
        negligible: s.negligible,
        not_shown: s.not_shown,
        below: count(&|c| c.ratio.is_some_and(|r| r < 1.0)),
        above: count(&|c| c.ratio.is_some_and(|r| r > 1.0)),
        by_failures: count(&|c| c.decided_by == DecidedBy::Failures),
    };
    let said: Vec<String> = rows.iter().map(|r| r.said.clone()).collect();
    let about = About {
        id: format!("chart-compare-forest-{}", lang.code()),
        title: title.clone(),
        desc: forest_desc(lang, &w.metric, (w.better, w.worse), &counts, &said),
    };
    let (low_band, high_band) = crate::stats::difference::negligible_band(negligible);
    // The axis covers every ratio and interval, and the band around 1, so 1 is always on it.
    let values = rows.iter().flat_map(|r| r.ratio.into_iter().chain(r.interval.into_iter().flat_map(|(l, h)| [l, h])));
    let axis = LogAxis::covering(values.chain([low_band, high_band]));
    let plan =
        Plan { rows: &rows, axis: &axis, band: (low_band, high_band), rows_height, title: &title, legend: &legend, captions: &captions };
    svg::render_pointable((NARROW_WIDTH, height.max(1) as u32), lang, &about, |root, marks| draw(root, marks, &plan, report, &w))
}

/// The legend: the verdicts the rows have, in the table's words, and the cross of a row its
/// failed requests decided.
fn legend(report: &ComparisonReport, w: &Words) -> Vec<LegendEntry> {
    let entry = |label: String, look: Look| LegendEntry {
        label,
        color: look.color,
        swatch: Swatch::Marker { shape: look.shape, filled: look.filled, line: Some(None) },
    };
    let mut legend: Vec<LegendEntry> = VERDICTS
        .iter()
        .filter(|(v, _)| report.conditions.iter().any(|c| c.verdict == *v && c.decided_by != DecidedBy::Failures))
        .map(|(v, look)| entry(w.verdict(*v, report.thresholds.negligible_difference), *look))
        .collect();
    if report.conditions.iter().any(|c| c.decided_by == DecidedBy::Failures) {
        legend.push(entry(w.chart.forest_failures_legend.to_string(), Look { color: INK, shape: Shape::Cross, filled: true }));
    }
    legend
}

/// The caption: what a row draws, at which levels, and what the line at 1 and the band are.
fn caption(report: &ComparisonReport, w: &Words) -> String {
    let mut levels: Vec<f64> = report.conditions.iter().filter(|c| c.ratio_low.is_some()).filter_map(|c| c.interval_level).collect();
    if levels.is_empty() {
        levels.push(report.thresholds.interval_level);
    }
    levels.sort_by(f64::total_cmp);
    levels.dedup();
    let levels: Vec<String> = levels.into_iter().map(format::percent).collect();
    let (low, high) = crate::stats::difference::negligible_band(report.thresholds.negligible_difference);
    fill(
        w.chart.forest_key,
        &[
            ("levels", &crate::render::i18n::prose::list(w.lang, &levels)),
            ("low", &format::factor(low)),
            ("high", &format::factor(high)),
            ("threshold", &format::percent(report.thresholds.negligible_difference)),
        ],
    )
}

/// What [`draw`] lays out.
struct Plan<'a> {
    rows: &'a [Row],
    axis: &'a LogAxis,
    band: (f64, f64),
    rows_height: i32,
    title: &'a str,
    legend: &'a [LegendEntry],
    captions: &'a [String],
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    marks: &mut Pointable,
    plan: &Plan,
    report: &ComparisonReport,
    w: &Words,
) -> DrawResult<(), DB> {
    let plot = frame_with(root, plan.title, plan.legend, plan.captions, &NARROW_TYPE)?;
    let total = f64::from(plan.rows_height);
    let range = plan.axis.range();
    let mut chart = ChartBuilder::on(&plot)
        .margin_left(LEFT)
        .margin_right(RIGHT)
        .margin_top(TOP)
        .x_label_area_size(X_LABEL_AREA)
        .y_label_area_size(0)
        .build_cartesian_2d(Ticked::log_with_ticks(plan.axis, plan.axis.ratio_ticks()), 0.0..total)?;
    let x_label = |v: &f64| ratio_label(*v);
    house_mesh(&mut chart.configure_mesh())
        .label_style(text_style(NARROW_TYPE.text, INK))
        .axis_desc_style(text_style(NARROW_TYPE.text, INK))
        .disable_y_mesh()
        .disable_y_axis()
        .x_label_formatter(&x_label)
        .x_desc(w.chart.forest_axis)
        .draw()?;

    // The negligible band and the line at 1, under the rows.
    let (low, high) = plan.band;
    let band = style::PALETTE[0].mix(BAND_OPACITY).filled();
    chart.draw_series(std::iter::once(Rectangle::new([(low, 0.0), (high, total)], band)))?;
    chart.draw_series(std::iter::once(PathElement::new(vec![(1.0, 0.0), (1.0, total)], INK.stroke_width(LINE))))?;

    // The two directions along the axis, at its ends.
    let (lower, higher) = if report.higher_is_better { (w.worse, w.better) } else { (w.better, w.worse) };
    // Texts sit on a patch of background, so neither the line at 1 nor the band runs through them.
    let px = NARROW_TYPE.text;
    let left = chart.backend_coord(&(range.start, total));
    let right = chart.backend_coord(&(range.end, total));
    label_at(root, fill(w.chart.forest_lower, &[("direction", lower)]), (left.0 + 4, left.1 + 4), px, INK, (HPos::Left, VPos::Top))?;
    label_at(root, fill(w.chart.forest_higher, &[("direction", higher)]), (right.0 - 4, right.1 + 4), px, INK, (HPos::Right, VPos::Top))?;

    let line = LINE_HEIGHT as i32;
    let mut top = DIRECTIONS;
    let mut spots = Vec::new();
    for row in plan.rows {
        // A light rule between rows, so each text is read with the line under it.
        let y_top = total - f64::from(top);
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(range.start, y_top), (range.end, y_top)],
            style::GRID.stroke_width(THIN),
        )))?;
        let at = chart.backend_coord(&(range.start, y_top));
        for (i, text) in row.lines.iter().enumerate() {
            label_at(root, text.clone(), (at.0 + 4, at.1 + 4 + line * i as i32), px, INK, (HPos::Left, VPos::Top))?;
        }
        let y = total - f64::from(top + row.lines.len() as i32 * line + ROW_LINE / 2 + 2);
        let Look { color, shape, filled } = row.look;
        let color_line = if row.faint { color.mix(FAINT_OPACITY) } else { color.to_rgba() };
        if let Some((l, h)) = row.interval {
            let (l, h) = (plan.axis.place(l).0, plan.axis.place(h).0);
            chart.draw_series(std::iter::once(PathElement::new(vec![(l, y), (h, y)], color_line.stroke_width(LINE))))?;
            let cap = |x: f64| EmptyElement::at((x, y)) + PathElement::new(vec![(0, -CAP), (0, CAP)], color_line.stroke_width(LINE));
            chart.draw_series([cap(l), cap(h)])?;
        }
        if let Some(ratio) = row.ratio {
            let x = plan.axis.place(ratio).0;
            if filled {
                markers(&mut chart, shape, vec![(x, y)], MARKER, color.filled())?;
            } else {
                markers(&mut chart, shape, vec![(x, y)], MARKER, style::BACKGROUND.filled())?;
                markers(&mut chart, shape, vec![(x, y)], MARKER, color.stroke_width(LINE))?;
            }
            spots.push(Mark {
                shape: MarkShape::Spot { at: chart.backend_coord(&(x, y)), radius: MARKER + 2 },
                title: row.said.clone(),
                href: None,
            });
        }
        top += row.height();
    }
    // Over the markers, so the pointer finds each row's title.
    let layer = marks.layer(root)?;
    for mark in spots {
        marks.push(layer, mark);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::compare::tests::{changed, tiny};
    use crate::stats::compare::{compare, ComparePlan};

    /// The tiny fixture against itself with direct/2 150 times slower (beyond 100 on the axis),
    /// nginx-on/0 at 0.8 with its runs' spread widened, and nginx-on/2 a hair faster.
    fn comparison() -> ComparisonReport {
        let candidate = changed(tiny(), "route=direct,downloads=2", |_, v| v * 150.0);
        let candidate = changed(candidate, "route=nginx-on,downloads=0", |k, v| v * [0.6, 0.8, 1.1][k % 3]);
        let candidate = changed(candidate, "route=nginx-on,downloads=2", |_, v| v * 0.999);
        let plan =
            ComparePlan { rules: Vec::new(), fail_on_regression: None, allow_env: Vec::new(), skip_planning: false, verdicts_only: false };
        compare(&tiny(), &candidate, &plan).unwrap()
    }

    fn forest(report: &ComparisonReport, lang: Lang) -> String {
        let page = crate::render::view::compare_page(report, lang, None);
        let heads: Vec<String> = page.text_rows.iter().map(|(head, _)| head.clone()).collect();
        compare_forest(report, &heads, lang)
    }

    #[test]
    fn forest_chart_snapshot() {
        insta::assert_snapshot!(forest(&comparison(), Lang::En));
    }

    #[test]
    fn every_text_of_the_forest_is_11_css_px_or_more_on_a_phone() {
        let svg = forest(&comparison(), Lang::Ja);
        let width: f64 = svg.split("width=\"").nth(1).and_then(|s| s.split('"').next()).unwrap().parse().unwrap();
        let scale = 364.0 / width;
        // A text without its own size takes the one the `<svg>` element sets.
        let size_in = |tag: &str| tag.split("font-size=\"").nth(1).map(|s| s.split('"').next().unwrap().parse::<f64>().unwrap());
        let default = size_in(svg.split('>').next().unwrap()).unwrap();
        let sizes: Vec<f64> = svg.split("<text").skip(1).map(|s| size_in(s.split('>').next().unwrap()).unwrap_or(default)).collect();
        assert!(sizes.len() > 10, "{svg}");
        for size in sizes {
            assert!(size * scale >= 11.0, "{size} px at {width} px wide is {} px on a phone", size * scale);
        }
    }

    #[test]
    fn the_same_comparison_gives_the_same_bytes() {
        let report = comparison();
        assert_eq!(forest(&report, Lang::En), forest(&report, Lang::En));
        assert_eq!(forest(&report, Lang::Ja), forest(&report, Lang::Ja));
    }
}
