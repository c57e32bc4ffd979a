//! The headline figure: per condition, the median of the runs' headline percentile with the
//! runs' min-max range and each run, over the x factor's levels, one series per layout row.

use super::axis::{Scale, Ticked, ValueAxis};
use super::draw::{
    floor_markers, frame, house_builder, house_mesh, markers, message, polyline, text_at, text_width, DrawResult, LegendEntry, Swatch,
};
use super::labels::{self, labels};
use super::marks::{self, Pointable, Shape as MarkShape};
use super::style::{self, HEIGHT, LINE, MARGIN, MARKER, SMALL_POINT, TEXT_PX, THIN, WIDTH};
use super::svg::{self, text_style, About};
use super::{condition_label, figure_id, ok_runs, percentile, run_name};
use crate::model::{HeadlineMetric, Lang};
use crate::render::i18n::fill;
use crate::report::Spread;
use crate::report::{LayoutRow, Report};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Horizontal distance between neighbouring series at one x level, in x-level units.
const SERIES_SPREAD: f64 = 0.12;
/// Each run's point sits this far right of its range line, so the line does not hide it.
const RUN_NUDGE: f64 = 0.035;
/// Above this many series the chart draws the [`SHOWN_SERIES`] slowest and one grey range for
/// the others: a legend of hundreds of entries cannot be read, and the table lists them all.
pub const MAX_SERIES: usize = 8;
pub const SHOWN_SERIES: usize = MAX_SERIES - 1;

/// The layout rows drawn as series of their own, in layout order, and the rest. With more than
/// [`MAX_SERIES`] rows: the [`SHOWN_SERIES`] whose largest median is highest (ties by order).
pub fn shown_rows(report: &Report) -> (Vec<usize>, Vec<usize>) {
    let rows = &report.layout.rows;
    if rows.len() <= MAX_SERIES {
        return ((0..rows.len()).collect(), Vec::new());
    }
    let highest = |row: &LayoutRow| {
        row.cells
            .iter()
            .flatten()
            .filter_map(|&c| report.headline_of(report.conditions.get(c)?).map(|s| s.median))
            .fold(f64::NEG_INFINITY, f64::max)
    };
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|&a, &b| highest(&rows[b]).total_cmp(&highest(&rows[a])).then(a.cmp(&b)));
    let mut shown = order[..SHOWN_SERIES].to_vec();
    shown.sort_unstable();
    let others = (0..rows.len()).filter(|r| !shown.contains(r)).collect();
    (shown, others)
}

/// The headline percentile by condition: x = the x factor's levels, one series per layout row;
/// per condition a marker at the median of the runs, a vertical line from the fastest to the
/// slowest run and a faint point per run (a link to the run's page). The y axis is linear or
/// log as the values call for ([`Scale::for_values`]), and the caption says which.
pub fn headline_by_condition(report: &Report, lang: Lang) -> String {
    headline_chart(report, None, lang)
}

/// [`headline_by_condition`] of the conditions at level `level` of factor `factor` only (an x
/// or a series factor of the layout), with its own value axis: one of the charts a report draws
/// when that factor separates values too far apart for one axis (the figure plan decides). The
/// title names the level.
pub fn headline_at_level(report: &Report, factor: usize, level: usize, lang: Lang) -> String {
    let at = at_level(report, factor, level);
    let named = report.factors.get(factor).and_then(|f| Some((f.label.get(lang), f.levels.get(level)?.label.get(lang))));
    let level_words = named.map(|(f, l)| crate::render::i18n::prose::factor_level(lang, f, l)).unwrap_or_default();
    headline_chart(&at, Some((level, &level_words)), lang)
}

/// The scale of [`headline_at_level`]'s value axis.
pub fn headline_scale_at_level(report: &Report, factor: usize, level: usize) -> Scale {
    plan(&at_level(report, factor, level), Lang::En).axis.scale()
}

/// The report with only the conditions at `level` of `factor` in its layout: an x factor keeps
/// that level alone, a series factor its rows at that level (and leaves the series labels, as
/// the title names it). What the chart draws of each condition is unchanged.
fn at_level(report: &Report, factor: usize, level: usize) -> Report {
    let mut layout = report.layout.clone();
    let mut factors = report.factors.clone();
    if layout.x_factor == Some(factor) {
        for row in &mut layout.rows {
            row.cells = vec![row.cells.get(level).copied().flatten()];
        }
        layout.rows.retain(|row| row.cells[0].is_some());
        if let Some(f) = factors.get_mut(factor) {
            f.levels = f.levels.get(level).cloned().into_iter().collect();
        }
    } else if let Some(k) = layout.series_factors.iter().position(|&f| f == factor) {
        layout.rows.retain(|row| row.levels.get(k) == Some(&level));
        layout.series_factors.remove(k);
        for row in &mut layout.rows {
            row.levels.remove(k);
        }
    }
    Report { layout, factors, figures: Default::default(), ..report.clone() }
}

/// The headline chart of `report`; `level`: the level (index, words) it is drawn at, when the
/// report draws one per level.
fn headline_chart(report: &Report, level: Option<(usize, &str)>, lang: Lang) -> String {
    let p = percentile(report);
    let runs: Vec<usize> = report.conditions.iter().filter_map(|c| report.headline_of(c).map(|s| s.n)).collect();
    let runs = runs.iter().min().zip(runs.iter().max()).map(|(&fewest, &most)| (fewest, most));
    let (shown, others) = shown_rows(report);
    let mut series: Vec<String> =
        shown.iter().map(|&r| series_label(report, &report.layout.rows[r], lang)).filter(|l| !l.is_empty()).collect();
    if !others.is_empty() {
        series.push(labels::other_series(lang, others.len()));
    }
    let plan = plan(report, lang);
    let log = plan.axis.scale() == Scale::Log;
    let mut about = About {
        id: figure_id("headline-by-condition", &[], lang),
        title: labels::headline_title(lang, report.headline, &p),
        desc: labels::headline_desc(lang, report.headline, &p, runs, &x_axis_title(report, lang), &series, log),
    };
    let mut drawn_title = about.title.clone();
    if let Some((index, words)) = level {
        about.id = figure_id("headline-by-condition", &[index], lang);
        drawn_title = labels::at_level_title(lang, &about.title, words);
        about.title = labels::at_level(lang, &about.title, words);
        about.desc = labels::at_level(lang, &about.desc, words);
    }
    let slugs = crate::render::paths::run_slugs(report);
    svg::render_pointable((WIDTH, HEIGHT), lang, &about, |root, pointable| draw(root, report, &plan, &slugs, &drawn_title, lang, pointable))
}

/// The scale of the headline chart's value axis, as the chart draws it (for the words beside it).
pub fn headline_scale(report: &Report) -> Scale {
    plan(report, Lang::En).axis.scale()
}

/// A series' label: its levels of the series factors, joined.
pub fn series_label(report: &Report, row: &LayoutRow, lang: Lang) -> String {
    let parts: Vec<&str> = report
        .layout
        .series_factors
        .iter()
        .zip(&row.levels)
        .filter_map(|(&factor, &level)| report.factors.get(factor)?.levels.get(level).map(|l| l.label.get(lang)))
        .collect();
    parts.join(labels::join(lang))
}

fn x_axis_title(report: &Report, lang: Lang) -> String {
    report.layout.x_factor.and_then(|x| report.factors.get(x)).map_or_else(String::new, |f| f.label.get(lang).to_string())
}

/// A condition's headline spread as drawn: error rates in %, everything else as computed.
fn drawn(report: &Report, condition: usize) -> Option<Spread> {
    let s = report.headline_of(report.conditions.get(condition)?)?;
    let k = display_scale(report);
    Some(Spread { median: s.median * k, min: s.min * k, max: s.max * k, n: s.n })
}

/// The factor from a value to its place on the axis: shares (fractions) are drawn in %.
fn display_scale(report: &Report) -> f64 {
    if report.headline.is_share() {
        100.0
    } else {
        1.0
    }
}

/// One condition's marks.
struct Mark {
    x: f64,
    condition: usize,
    spread: Spread,
    /// Each ok run: its index in `report.runs` and its value as drawn.
    runs: Vec<(usize, f64)>,
    /// For a condition that fails (`standing`): its share as written beside its hollow marker.
    failing: Option<String>,
}

/// What the figure draws, decided before drawing: the marks of each series shown, the grey
/// ranges of the others per x level, and the value axis covering them all.
struct Plan {
    shown: Vec<usize>,
    others: Vec<usize>,
    /// Horizontal distance between neighbouring series.
    spread: f64,
    series: Vec<Vec<Mark>>,
    other_ranges: Vec<(f64, f64, f64)>,
    axis: ValueAxis,
    columns: usize,
}

fn plan(report: &Report, lang: Lang) -> Plan {
    let rows = &report.layout.rows;
    let x_levels = report.layout.x_factor.and_then(|x| report.factors.get(x)).map_or(1, |f| f.levels.len());
    let columns = rows.iter().map(|r| r.cells.len()).max().unwrap_or(0).max(x_levels);
    let (shown, others) = shown_rows(report);
    let count = shown.len() + usize::from(!others.is_empty());
    let spread = SERIES_SPREAD.min(0.6 / count.max(1) as f64);
    let offset_of = |j: usize| (j as f64 - (count as f64 - 1.0) / 2.0) * spread;
    // The other series, per x level: the lowest min and the highest max of their conditions.
    let other_ranges: Vec<(f64, f64, f64)> = (0..columns)
        .filter_map(|i| {
            let spreads: Vec<Spread> =
                others.iter().filter_map(|&r| rows[r].cells.get(i).copied().flatten()).filter_map(|c| drawn(report, c)).collect();
            let low = spreads.iter().map(|s| s.min).fold(f64::INFINITY, f64::min);
            let high = spreads.iter().map(|s| s.max).fold(f64::NEG_INFINITY, f64::max);
            (!spreads.is_empty()).then(|| (i as f64 + offset_of(count - 1), low, high))
        })
        .collect();
    let series: Vec<Vec<Mark>> = shown
        .iter()
        .map(|&r| &rows[r])
        .enumerate()
        .map(|(j, row)| {
            let offset = offset_of(j);
            row.cells
                .iter()
                .enumerate()
                .filter_map(|(i, cell)| {
                    let c = (*cell)?;
                    let spread = drawn(report, c)?;
                    let runs = ok_runs(report, c)
                        .filter_map(|r| report.headline_of_run(&report.runs[r]).map(|v| (r, v * display_scale(report))))
                        .collect();
                    Some(Mark { x: i as f64 + offset, condition: c, spread, runs, failing: failing_label(report, c, lang) })
                })
                .collect()
        })
        .collect();
    let values: Vec<f64> = series
        .iter()
        .flatten()
        .flat_map(|m| [m.spread.min, m.spread.median, m.spread.max].into_iter().chain(m.runs.iter().map(|r| r.1)))
        .chain(other_ranges.iter().flat_map(|&(_, low, high)| [low, high]))
        .collect();
    Plan { shown, others, spread, series, other_ranges, axis: ValueAxis::covering(&values), columns }
}

/// A headline value as drawn (shares in %) written as the tables write it, with its metric:
/// "p95 = 12.00 ms".
fn value_words(report: &Report, condition: usize, drawn: f64, lang: Lang) -> String {
    let decimals = report.conditions.get(condition).and_then(|c| c.latency_decimals).filter(|_| report.headline.is_percentile());
    let value = crate::render::format::metric_value_at(report.headline, decimals, drawn / display_scale(report));
    labels::mark_value(lang, report.headline, &percentile(report), &value)
}

/// "64.9% failed" beside a failing condition's marker: its share of failed sessions when the
/// headline is a session metric (or it has no request errors above the threshold), else of errors.
fn failing_label(report: &Report, condition: usize, lang: Lang) -> Option<String> {
    let standing = &report.standing;
    let c = standing.conditions.get(condition).filter(|c| c.failing)?;
    let above = |share: Option<f64>| share.filter(|s| *s > standing.threshold);
    let (sessions, requests) = (above(c.failed_share), above(c.error_share));
    let (share, metric) = match (sessions, requests) {
        (Some(s), _) if report.headline.needs_sessions() || requests.is_none() => (s, HeadlineMetric::FailedShare),
        (_, Some(r)) => (r, HeadlineMetric::ErrorRate),
        _ => return None,
    };
    let value = if metric == HeadlineMetric::FailedShare {
        crate::render::format::percent(share)
    } else {
        crate::render::format::percent_fine(share)
    };
    Some(fill(crate::render::i18n::metric_words(lang, metric).beside, &[("value", &value)]))
}

/// Draws the figure on any plotters backend.
fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    report: &Report,
    plan: &Plan,
    slugs: &[String],
    title: &str,
    lang: Lang,
    pointable: &mut Pointable,
) -> DrawResult<(), DB> {
    let text = labels(lang);
    let p = percentile(report);
    let rows = &report.layout.rows;
    let x_labels: Vec<String> = match report.layout.x_factor.and_then(|x| report.factors.get(x)) {
        Some(factor) => factor.levels.iter().map(|l| l.label.get(lang).to_string()).collect(),
        None => vec![text.all_runs.to_string()],
    };
    let columns = plan.columns;
    let ordered_x = report.layout.x_factor.and_then(|x| report.factors.get(x)).is_some_and(|f| f.is_numeric());
    let (shown, others, series, axis) = (&plan.shown, &plan.others, &plan.series, &plan.axis);
    let spread = plan.spread;

    let named = rows.len() > 1 || rows.iter().any(|r| !series_label(report, r, lang).is_empty());
    let mut legend: Vec<LegendEntry> = if named {
        shown
            .iter()
            .enumerate()
            .map(|(j, &r)| {
                let (color, shape, dash) = style::series(j);
                LegendEntry {
                    label: series_label(report, &rows[r], lang),
                    color,
                    swatch: Swatch::Marker { shape, filled: true, line: ordered_x.then_some(dash) },
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    if !others.is_empty() {
        legend.push(LegendEntry {
            label: labels::other_series(lang, others.len()),
            color: style::OTHERS,
            swatch: Swatch::Bar { filled: true },
        });
    }
    let empty = series.iter().all(Vec::is_empty) || columns == 0;
    let mut captions = Vec::new();
    if !empty {
        captions.push(text.headline_key.to_string());
        captions.push(labels::scale_note(lang, axis.scale() == Scale::Log, axis.starts_at_zero(), labels::axis_names(lang).0));
    }
    if !others.is_empty() {
        captions.push(labels::other_series_note(lang, shown.len(), others.len()));
    }
    if axis.floor().is_some() {
        captions.push(labels::headline_floor_note(lang, report.headline).to_string());
    }
    captions.extend(crate::render::i18n::counted::chart_not_drawn(lang, report));
    if series.iter().flatten().any(|m| m.failing.is_some()) {
        let key = crate::render::i18n::lead::lead_words(lang).chart_failing_key;
        captions.push(fill(key, &[("threshold", &crate::render::format::percent_round(report.standing.threshold))]));
    }
    let plot = frame(root, title, &legend, &captions)?;
    if empty {
        return message(&plot, text.no_data);
    }

    let x_ticks: Vec<f64> = (0..columns).map(|i| i as f64).collect();
    let mut chart =
        house_builder(&plot).margin_right(MARGIN).build_cartesian_2d(Ticked::new(-0.5..columns as f64 - 0.5, x_ticks), axis.coord())?;
    let x_label = |v: &f64| x_labels.get(v.round().max(0.0) as usize).cloned().unwrap_or_default();
    let y_label = |v: &f64| axis.label(*v);
    let y_title = match axis.scale() {
        Scale::Log => labels::headline_axis(lang, report.headline, &p),
        Scale::Linear => labels::headline_axis_linear(lang, report.headline, &p),
    };
    house_mesh(&mut chart.configure_mesh())
        .disable_x_mesh()
        .x_label_formatter(&x_label)
        .y_label_formatter(&y_label)
        .x_desc(x_axis_title(report, lang))
        .y_desc(y_title)
        .draw()?;

    for &(x, low, high) in &plan.other_ranges {
        let (low, high) = (axis.place(low).0, axis.place(high).0);
        let half = (spread * 0.3).max(0.01);
        chart.draw_series(std::iter::once(Rectangle::new([(x - half, low), (x + half, high)], style::OTHERS.filled())))?;
    }
    for (j, drawn_marks) in series.iter().enumerate() {
        let (color, shape, dash) = style::series(j);
        // A thin line joins the series' medians so the eye can follow one series across an
        // ordered x; between nominal levels (servers, tools) a line would claim an order.
        if ordered_x {
            let medians: Vec<(f64, f64)> = drawn_marks.iter().map(|m| (m.x, axis.place(m.spread.median).0)).collect();
            polyline(&mut chart, medians, color.stroke_width(THIN), dash)?;
        }
        for mark in drawn_marks {
            let (low, _) = axis.place(mark.spread.min);
            let (high, _) = axis.place(mark.spread.max);
            chart.draw_series(std::iter::once(PathElement::new(vec![(mark.x, low), (mark.x, high)], color.stroke_width(LINE))))?;
        }
        // Over the range lines, a band each that names the condition's range.
        let ranges = pointable.layer(root)?;
        for mark in drawn_marks {
            let (low, _) = axis.place(mark.spread.min);
            let (high, _) = axis.place(mark.spread.max);
            let name = condition_label(report, mark.condition, lang);
            let title = labels::range_mark(
                lang,
                &name,
                &value_words(report, mark.condition, mark.spread.min, lang),
                &value_words(report, mark.condition, mark.spread.max, lang),
            );
            let band = vec![chart.backend_coord(&(mark.x, low)), chart.backend_coord(&(mark.x, high))];
            pointable.push(
                ranges,
                marks::Mark { shape: MarkShape::Band { points: band }, title, href: Some(marks::condition_href(mark.condition)) },
            );
        }
        // Each run is a dot of its own, with its title and the link to its page.
        let run_dots = pointable.layer(root)?;
        let mut runs_at_floor = Vec::new();
        let (mut medians, mut medians_at_floor, mut hollow) = (Vec::new(), Vec::new(), Vec::new());
        for mark in drawn_marks {
            for &(run, value) in &mark.runs {
                let (y, moved) = axis.place(value);
                let at = (mark.x + RUN_NUDGE, y);
                if moved {
                    runs_at_floor.push(at);
                }
                let title = labels::run_mark(lang, &run_name(report, run, lang), &value_words(report, mark.condition, value, lang));
                let href = slugs.get(run).map(|slug| marks::run_href(slug));
                let dot = if moved {
                    marks::Mark { shape: MarkShape::Spot { at: chart.backend_coord(&at), radius: SMALL_POINT }, title, href }
                } else {
                    marks::run_dot(chart.backend_coord(&at), color, title, href)
                };
                pointable.push(run_dots, dot);
            }
            let (y, moved) = axis.place(mark.spread.median);
            // A failing condition's median is hollow: nothing filled reads as a value to rank.
            if moved {
                medians_at_floor.push((mark.x, y));
            } else if mark.failing.is_some() {
                hollow.push((mark.x, y));
            } else {
                medians.push((mark.x, y));
            }
        }
        floor_markers(&mut chart, runs_at_floor, SMALL_POINT, color)?;
        markers(&mut chart, shape, medians, MARKER, color.filled())?;
        markers(&mut chart, shape, hollow.clone(), MARKER + 1, style::BACKGROUND.filled())?;
        markers(&mut chart, shape, hollow, MARKER + 1, color.stroke_width(LINE))?;
        floor_markers(&mut chart, medians_at_floor, MARKER, color)?;
        let median_spots = pointable.layer(root)?;
        for mark in drawn_marks {
            let name = condition_label(report, mark.condition, lang);
            let title = labels::median_mark(lang, &name, mark.spread.n, &value_words(report, mark.condition, mark.spread.median, lang));
            let at = chart.backend_coord(&(mark.x, axis.place(mark.spread.median).0));
            pointable.push(
                median_spots,
                marks::Mark { shape: MarkShape::Spot { at, radius: MARKER + 1 }, title, href: Some(marks::condition_href(mark.condition)) },
            );
        }
        for mark in drawn_marks {
            if let Some(label) = &mark.failing {
                // Below the marker, on a patch of background so no line runs through the words.
                let (px, py) = chart.backend_coord(&(mark.x, axis.place(mark.spread.median).0));
                let (width, top) = (text_width(label, TEXT_PX), py + MARKER + 8);
                let (x0, y0) = root.get_base_pixel();
                let patch = [(px - width / 2 - 3 - x0, top - 2 - y0), (px + width / 2 + 3 - x0, top + TEXT_PX as i32 + 3 - y0)];
                root.draw(&Rectangle::new(patch, style::BACKGROUND.mix(0.85).filled()))?;
                let style = text_style(TEXT_PX, color).pos(Pos::new(HPos::Center, VPos::Top));
                text_at(root, label.clone(), (px, top), style)?;
            }
        }
    }
    Ok(())
}
