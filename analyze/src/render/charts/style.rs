//! Every visual constant of the charts: sizes, fonts, palette, marker shapes, dash patterns.
//! Change the look here and nowhere else.

use plotters::style::RGBColor;

/// Figure width in px (the SVG also gets a `viewBox`, so CSS can scale it).
pub const WIDTH: u32 = 760;
/// Figure height in px for one-panel charts.
pub const HEIGHT: u32 = 440;
/// Figure height in px for the two-panel resources chart.
pub const TALL_HEIGHT: u32 = 480;
/// Width in px of a figure drawn to be read on a phone as well: at 390 CSS px a page's figure
/// is 364 px wide (12 px gutters and a 1 px border each side), so this one is scaled by
/// 364 / 440 = 0.83 and its [`NARROW_TYPE`] stays at 11.6 CSS px or more.
pub const NARROW_WIDTH: u32 = 440;

/// A CSS font stack: the SVG backend writes `<text>` and the browser picks the font, so CJK
/// fonts are listed for the Japanese labels.
pub const FONT: &str =
    "Noto Sans, Helvetica Neue, Arial, Hiragino Sans, Hiragino Kaku Gothic ProN, Noto Sans CJK JP, Noto Sans JP, Source Han Sans JP, Yu Gothic, Meiryo, IPAexGothic, sans-serif";

/// Text sizes in CSS px. Nothing is drawn below 12px. (Sizes such as 13 and 15 cannot pass
/// through plotters' division by 1.24 exactly and would print as `13.000000000000002`.)
pub const TITLE_PX: f64 = 16.0;
pub const TEXT_PX: f64 = 12.5;
pub const SMALL_PX: f64 = 12.0;

/// The text sizes of one figure, in CSS px.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Type {
    pub title: f64,
    /// Legends, tick labels, axis titles and labels in the plot.
    pub text: f64,
    /// Captions under the plot.
    pub small: f64,
}

/// The sizes of the figures drawn [`WIDTH`] wide.
pub const HOUSE_TYPE: Type = Type { title: TITLE_PX, text: TEXT_PX, small: SMALL_PX };
/// The sizes of a figure drawn [`NARROW_WIDTH`] wide: 14 px × 364 / 440 = 11.6 px on a phone.
pub const NARROW_TYPE: Type = Type { title: TITLE_PX, text: 14.0, small: 14.0 };

/// plotters writes `font-size = size / 1.24` into the SVG; this undoes it so the constants above
/// are what the browser gets, to the digit (`13`, not `13.000000000000002`).
pub fn font_size(px: f64) -> f64 {
    const PLOTTERS_DIVISOR: f64 = 1.24;
    let mut size = px * PLOTTERS_DIVISOR;
    // Rounding may leave the quotient an ulp off; a few ulps' nudge of the size fixes it.
    for _ in 0..8 {
        let back = size / PLOTTERS_DIVISOR;
        if back == px || !size.is_finite() || size <= 0.0 {
            break;
        }
        size = f64::from_bits(if back > px { size.to_bits() - 1 } else { size.to_bits() + 1 });
    }
    size
}

/// Okabe-Ito colours that reach 3:1 contrast on white (WCAG's minimum for graphics), in the
/// order series take them. Okabe-Ito's orange, sky blue and yellow are too light on white; a
/// darkened orange takes the sixth place.
pub const PALETTE: [RGBColor; 6] = [
    RGBColor(0x00, 0x72, 0xB2), // blue, 5.2:1
    RGBColor(0xD5, 0x5E, 0x00), // vermillion, 3.9:1
    RGBColor(0x00, 0x9E, 0x73), // bluish green, 3.4:1
    RGBColor(0xCC, 0x79, 0xA7), // reddish purple, 3.1:1
    RGBColor(0x00, 0x00, 0x00), // black
    RGBColor(0xA8, 0x6C, 0x00), // darkened orange, 4.4:1
];

/// The page behind the charts: a hollow marker is filled with it.
pub const BACKGROUND: RGBColor = RGBColor(0xFF, 0xFF, 0xFF);
/// Text, axes and reference lines.
pub const INK: RGBColor = RGBColor(0x22, 0x22, 0x22);
/// Secondary text (captions).
/// The headline chart's range of the series not drawn on their own, and its legend swatch.
pub const OTHERS: RGBColor = RGBColor(0xC4, 0xC4, 0xC4);
pub const MUTED: RGBColor = RGBColor(0x55, 0x55, 0x55);
/// Decade grid lines.
pub const GRID: RGBColor = RGBColor(0xD0, 0xD0, 0xD0);
/// Grid lines between decades (2..9 × 10^k).
pub const GRID_LIGHT: RGBColor = RGBColor(0xEE, 0xEE, 0xEE);

/// Marker shapes, in the order series take them, so series differ without colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Shape {
    Circle,
    Triangle,
    Square,
    Diamond,
    Cross,
}

pub const SHAPES: [Shape; 5] = [Shape::Circle, Shape::Triangle, Shape::Square, Shape::Diamond, Shape::Cross];

/// Dash patterns (dash, gap) in px, in the order series take them; `None` is a solid line.
pub const DASHES: [Option<(u32, u32)>; 5] = [None, Some((8, 4)), Some((2, 3)), Some((10, 3)), Some((4, 4))];

/// The headline reference line's dash.
pub const REFERENCE_DASH: (u32, u32) = (6, 4);

/// Marker radii in px.
pub const MARKER: i32 = 5;
pub const LEGEND_MARKER: i32 = 5;
/// One request or one run drawn among many.
pub const SMALL_POINT: i32 = 2;
/// Opacity of the many small points: runs behind their median, requests in a time series.
pub const FAINT: f64 = 0.35;
pub const REQUEST_OPACITY: f64 = 0.5;
/// Opacity of the response dots drawn over bars.
pub const DOT_OPACITY: f64 = 0.6;
/// Line widths in px.
pub const LINE: u32 = 2;
pub const THIN: u32 = 1;

/// Space reserved for axis tick labels, in px.
pub const Y_LABEL_AREA: u32 = 72;
pub const X_LABEL_AREA: u32 = 44;
/// Outer margin in px.
pub const MARGIN: u32 = 12;
/// Right margin of a plot whose x axis ends in a tick label ("10,000" is centred on the edge).
pub const LABELLED_RIGHT: u32 = 30;
/// Height of one line of header or footer text, in px.
pub const LINE_HEIGHT: u32 = 20;

/// The style of series `i`: colour, marker and dash, each cycling on its own so that neighbours
/// differ in all three; the dash also shifts each time the shapes come round, so the first 25
/// series have distinct (shape, dash) pairs even without colour.
pub fn series(i: usize) -> (RGBColor, Shape, Option<(u32, u32)>) {
    (PALETTE[i % PALETTE.len()], SHAPES[i % SHAPES.len()], DASHES[(i + i / SHAPES.len()) % DASHES.len()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn font_sizes_come_out_exact() {
        for px in [TITLE_PX, TEXT_PX, SMALL_PX, NARROW_TYPE.text, NARROW_TYPE.small] {
            assert_eq!(font_size(px) / 1.24, px);
        }
    }

    #[test]
    fn the_first_25_series_differ_without_colour() {
        let mut pairs: Vec<(Shape, Option<(u32, u32)>)> = (0..25).map(|i| (series(i).1, series(i).2)).collect();
        pairs.sort();
        pairs.dedup();
        assert_eq!(pairs.len(), 25);
    }
}
