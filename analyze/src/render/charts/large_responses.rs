//! Large responses: per condition, the median (over runs) of the app's write time and of the
//! client's completion time, as bars with the runs' min-max range, a diamond at the median of
//! all responses pooled (the study's definition), a dot per response, and the run median
//! written at the end of each bar. The time axis is logarithmic, so a write of 15 ms and
//! a completion of 8 s are both visible.

use super::axis::{decade_label, LogAxis, Ticked};
use super::draw::{frame, house_builder, house_mesh, markers, text_width, DrawResult, LegendEntry, Swatch};
use super::labels::{self, labels};
use super::style::{self, Shape, HEIGHT, INK, LABELLED_RIGHT, LINE, PALETTE, SMALL_POINT, TEXT_PX, WIDTH};
use super::svg::{self, text_style, About};
use super::{condition_label, figure_id, ok_runs};
use crate::model::Lang;
use crate::render::format::{count, seconds};
use crate::report::Report;
use crate::report::Spread;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Bands beyond this many make the figure taller instead of the bars thinner.
const BANDS_AT_BASE_HEIGHT: usize = 8;
const EXTRA_BAND_HEIGHT: u32 = 36;
/// Condition labels longer than this (px) are shortened with an ellipsis.
const MAX_LABEL_WIDTH: i32 = 300;
/// Within a band of height 1: each bar's thickness and distance from the band's centre line.
const BAR: f64 = 0.28;
const BAR_GAP: f64 = 0.03;
/// Vertical spread of the response dots around a bar's centre, in band units, cycling over
/// this many positions so that equal values stay visible.
const DOT_SPREAD: f64 = 0.04;
const DOT_POSITIONS: usize = 5;
/// Half the height of the caps at the ends of a range line, in band units.
const CAP: f64 = 0.08;
/// Room right of the plot for the value written after the longest bar, in px.
const VALUE_ROOM: u32 = 64;

/// One condition's row.
struct Band {
    label: String,
    write: Option<Spread>,
    complete: Option<Spread>,
    /// The medians of all responses pooled (the study's definition), drawn as diamonds.
    write_pooled: Option<f64>,
    complete_pooled: Option<f64>,
    responses: Vec<(f64, Option<f64>)>,
}

/// Per condition with large responses: a filled bar at the median write time
/// (`conditions[c].write_s`), an outlined bar at the median completion time (`complete_s`),
/// and a dot per response of its ok runs (`figures.large_responses`). `None` when no run has
/// large responses.
pub fn write_vs_completion(report: &Report, lang: Lang) -> Option<String> {
    let bands = bands(report, lang);
    if bands.is_empty() {
        return None;
    }
    let about = About {
        id: figure_id("write-vs-completion", &[], lang),
        title: labels(lang).large_title.to_string(),
        desc: labels::large_desc(lang, bands.len()),
    };
    let extra = bands.len().saturating_sub(BANDS_AT_BASE_HEIGHT) as u32 * EXTRA_BAND_HEIGHT;
    Some(svg::render((WIDTH, HEIGHT + extra), lang, &about, |root| draw(root, &bands, lang)))
}

/// The conditions to draw, in table order (layout rows, then their cells), then any condition
/// the layout does not place.
fn bands(report: &Report, lang: Lang) -> Vec<Band> {
    let any = report.runs.iter().any(|r| r.large_responses > 0) || report.figures.large_responses.iter().any(|r| !r.is_empty());
    if !any {
        return Vec::new();
    }
    let mut order: Vec<usize> = report.layout.rows.iter().flat_map(|row| row.cells.iter().flatten().copied()).collect();
    order.extend(0..report.conditions.len());
    let mut seen = vec![false; report.conditions.len()];
    order
        .into_iter()
        .filter(|&c| c < seen.len() && !std::mem::replace(&mut seen[c], true))
        .filter_map(|c| {
            let condition = &report.conditions[c];
            if condition.write_s.is_none() && condition.complete_s.is_none() {
                return None;
            }
            let responses = ok_runs(report, c).flat_map(|r| report.figures.large_responses.get(r).into_iter().flatten().copied()).collect();
            Some(Band {
                label: condition_label(report, c, lang),
                write: condition.write_s,
                complete: condition.complete_s,
                write_pooled: condition.write_s_pooled.map(|s| s.median),
                complete_pooled: condition.complete_s_pooled.map(|s| s.median),
                responses,
            })
        })
        .collect()
}

/// `text` cut to `width` px at `px`, with an ellipsis when cut.
fn shorten(text: &str, px: f64, width: i32) -> String {
    if text_width(text, px) <= width {
        return text.to_string();
    }
    let mut out: String = text.chars().collect();
    while !out.is_empty() && text_width(&format!("{out}…"), px) > width {
        out.pop();
    }
    format!("{}…", out.trim_end())
}

/// Draws the figure on any plotters backend.
fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, bands: &[Band], lang: Lang) -> DrawResult<(), DB> {
    let text = labels(lang);
    let (write_color, complete_color) = (PALETTE[0], PALETTE[1]);
    let legend = [
        LegendEntry { label: text.write_legend.to_string(), color: write_color, swatch: Swatch::Bar { filled: true } },
        LegendEntry { label: text.complete_legend.to_string(), color: complete_color, swatch: Swatch::Bar { filled: false } },
        LegendEntry {
            label: text.pooled_legend.to_string(),
            color: INK,
            swatch: Swatch::Marker { shape: Shape::Diamond, filled: true, line: None },
        },
        LegendEntry { label: text.response_legend.to_string(), color: INK, swatch: Swatch::Dot { opacity: style::DOT_OPACITY } },
    ];
    let incomplete = bands.iter().flat_map(|b| &b.responses).filter(|(_, complete)| complete.is_none()).count();
    let mut captions: Vec<String> = vec![text.large_key.to_string()];
    if incomplete > 0 {
        captions.push(labels::incomplete_note(lang, incomplete as u64, &count(incomplete as u64)));
    }
    let plot = frame(root, text.large_title, &legend, &captions)?;

    let names: Vec<String> = bands.iter().map(|b| shorten(&b.label, TEXT_PX, MAX_LABEL_WIDTH)).collect();
    let label_area = names.iter().map(|n| text_width(n, TEXT_PX)).max().unwrap_or(0).clamp(40, MAX_LABEL_WIDTH) + 16;
    let values = bands.iter().flat_map(|b| {
        let spreads = [b.write, b.complete].into_iter().flatten().flat_map(|s| [s.min, s.median, s.max]);
        let pooled = [b.write_pooled, b.complete_pooled].into_iter().flatten();
        spreads.chain(pooled).chain(b.responses.iter().flat_map(|&(w, c)| [Some(w), c]).flatten())
    });
    let x_axis = LogAxis::covering(values);
    let n = bands.len();
    let mut chart =
        house_builder(&plot).margin_right(LABELLED_RIGHT + VALUE_ROOM).margin_top(4).y_label_area_size(label_area).build_cartesian_2d(
            x_axis.range().log_scale().with_key_points(x_axis.decades()).with_light_points(x_axis.minor()),
            Ticked::new(-0.5..n as f64 - 0.5, (0..n).map(|i| i as f64).collect()),
        )?;
    let x_label = |v: &f64| decade_label(*v);
    // Band i is drawn at y = n - 1 - i, so the first condition is on top.
    let y_label = |v: &f64| names.get(n.saturating_sub(1 + v.round().max(0.0) as usize)).cloned().unwrap_or_default();
    house_mesh(&mut chart.configure_mesh())
        .disable_y_mesh()
        .x_label_formatter(&x_label)
        .y_label_formatter(&y_label)
        .x_desc(text.large_axis)
        .draw()?;
    let left = x_axis.range().start;
    let at = |v: f64| x_axis.place(v).0;
    let value_style = text_style(style::SMALL_PX, INK).pos(Pos::new(HPos::Left, VPos::Center));

    for (i, band) in bands.iter().enumerate() {
        let centre = (n - 1 - i) as f64;
        // Write above the centre line, completion below.
        let (write_y, complete_y) = (centre + BAR_GAP + BAR / 2.0, centre - BAR_GAP - BAR / 2.0);
        if let Some(write) = band.write {
            let corners = [(left, write_y - BAR / 2.0), (at(write.median), write_y + BAR / 2.0)];
            chart.draw_series(std::iter::once(Rectangle::new(corners, write_color.mix(0.8).filled())))?;
        }
        if let Some(complete) = band.complete {
            let corners = [(left, complete_y - BAR / 2.0), (at(complete.median), complete_y + BAR / 2.0)];
            chart.draw_series(std::iter::once(Rectangle::new(corners, WHITE.filled())))?;
            // plotters' SVG rectangles ignore the stroke width: the outline is a closed path.
            let [(x0, y0), (x1, y1)] = corners;
            let outline = vec![(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)];
            chart.draw_series(std::iter::once(PathElement::new(outline, complete_color.stroke_width(LINE))))?;
        }
        let nudge = |k: usize| ((k % DOT_POSITIONS) as f64 - (DOT_POSITIONS / 2) as f64) * DOT_SPREAD;
        let writes = band.responses.iter().enumerate().map(|(k, &(w, _))| (w, write_y + nudge(k))).collect();
        let completes = band.responses.iter().enumerate().filter_map(|(k, &(_, c))| Some((c?, complete_y + nudge(k)))).collect();
        markers(&mut chart, Shape::Circle, writes, SMALL_POINT, INK.mix(style::DOT_OPACITY).filled())?;
        markers(&mut chart, Shape::Circle, completes, SMALL_POINT, INK.mix(style::DOT_OPACITY).filled())?;
        let diamonds = [(band.write_pooled, write_y), (band.complete_pooled, complete_y)]
            .into_iter()
            .filter_map(|(median, y)| Some((at(median?), y)))
            .collect();
        markers(&mut chart, Shape::Diamond, diamonds, style::MARKER, INK.filled())?;
        // The runs' min-max range as a capped line through the bar, and the median in words.
        for (spread, y) in [(band.write, write_y), (band.complete, complete_y)] {
            let Some(spread) = spread else { continue };
            let (low, high) = (at(spread.min), at(spread.max));
            let ink = INK.stroke_width(LINE);
            chart.draw_series(std::iter::once(PathElement::new(vec![(low, y), (high, y)], ink)))?;
            for x in [low, high] {
                chart.draw_series(std::iter::once(PathElement::new(vec![(x, y - CAP), (x, y + CAP)], ink)))?;
            }
            let (px, py) = chart.backend_coord(&(high.max(at(spread.median)), y));
            super::draw::text_at(root, format!("{} s", seconds(spread.median)), (px + 6, py), value_style.clone())?;
        }
    }
    Ok(())
}
