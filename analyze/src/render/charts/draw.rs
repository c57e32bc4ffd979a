//! Drawing pieces shared by the figures: markers, dashed lines, the header (title and legend),
//! the footer (captions) and text measuring for layout. Generic over the plotters backend.

use super::style::{
    self, Shape, Type, FONT, HOUSE_TYPE, INK, LABELLED_RIGHT, LEGEND_MARKER, LINE, LINE_HEIGHT, MARGIN, MUTED, TEXT_PX, X_LABEL_AREA,
    Y_LABEL_AREA,
};
use super::svg::text_style;
use plotters::coord::Shift;
use plotters::element::{DashedPathElement, Drawable, PointCollection};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters_backend::{BackendCoord, DrawingErrorKind};

pub type DrawResult<T, DB> = Result<T, DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// The one mesh style of every chart: label and axis-title text, the axis ink and the grid's two
/// weights (decades and the lines between them). Each chart adds its own formatters and titles.
pub fn house_mesh<'m, 'a, 'b, X, Y, DB>(
    mesh: &'m mut plotters::chart::MeshStyle<'a, 'b, X, Y, DB>,
) -> &'m mut plotters::chart::MeshStyle<'a, 'b, X, Y, DB>
where
    X: plotters::coord::ranged1d::Ranged,
    Y: plotters::coord::ranged1d::Ranged,
    DB: DrawingBackend,
{
    mesh.label_style(text_style(TEXT_PX, INK))
        .axis_desc_style(text_style(TEXT_PX, INK))
        .axis_style(INK)
        .bold_line_style(style::GRID)
        .light_line_style(style::GRID_LIGHT)
}

/// The one chart layout inside a figure's frame: room on the right for an x axis that ends in a
/// tick label, a little above the plot, the house label areas. A chart that needs other room
/// overrides one setting after it.
pub fn house_builder<'a, 'b, DB: DrawingBackend>(area: &'a DrawingArea<DB, Shift>) -> ChartBuilder<'a, 'b, DB> {
    let mut builder = ChartBuilder::on(area);
    builder.margin_right(LABELLED_RIGHT).margin_top(8).x_label_area_size(X_LABEL_AREA).y_label_area_size(Y_LABEL_AREA);
    builder
}

/// The outline of a polygonal marker of radius `s`, relative to its centre, closed.
fn outline(shape: Shape, s: i32) -> Vec<(i32, i32)> {
    // Polygons look larger than a circle of the same radius: shrink them a little.
    let k = (s * 9 + 5) / 10;
    let mut points = match shape {
        Shape::Triangle => vec![(0, -s - 1), (s, k), (-s, k)],
        Shape::Diamond => vec![(0, -s - 1), (s, 0), (0, s + 1), (-s, 0)],
        Shape::Square => vec![(-k, -k), (k, -k), (k, k), (-k, k)],
        // A circle and a cross are drawn otherwise; this is their bounding square.
        Shape::Circle | Shape::Cross => vec![(-s, -s), (s, -s), (s, s), (-s, s)],
    };
    points.push(points[0]);
    points
}

/// The open, downward triangle of a value moved to the floor of a log axis, its tip on the value.
fn floor_outline(s: i32) -> Vec<(i32, i32)> {
    let s = s + 1;
    vec![(-s, -2 * s), (s, -2 * s), (0, 0), (-s, -2 * s)]
}

/// A marker glyph of `shape` with radius `size` at one point: the one drawing of every marker,
/// in a plot (chart coordinates, through [`markers`]) and in a legend (pixels). It issues the
/// backend calls plotters' `Circle`, `Polygon` and `PathElement` would, offset from its point.
pub struct Glyph<Coord> {
    at: Coord,
    shape: Shape,
    size: i32,
    style: ShapeStyle,
}

impl<Coord> Glyph<Coord> {
    pub fn new(at: Coord, shape: Shape, size: i32, style: ShapeStyle) -> Glyph<Coord> {
        Glyph { at, shape, size, style }
    }
}

impl<'a, Coord> PointCollection<'a, Coord> for &'a Glyph<Coord> {
    type Point = &'a Coord;
    type IntoIter = std::iter::Once<&'a Coord>;
    fn point_iter(self) -> std::iter::Once<&'a Coord> {
        std::iter::once(&self.at)
    }
}

impl<Coord, DB: DrawingBackend> Drawable<DB> for Glyph<Coord> {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        mut pos: I,
        backend: &mut DB,
        _: (u32, u32),
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        let Some((x, y)) = pos.next() else { return Ok(()) };
        let shifted = |points: Vec<(i32, i32)>| points.into_iter().map(move |(dx, dy)| (x + dx, y + dy));
        let (size, style) = (self.size, self.style);
        match self.shape {
            Shape::Circle => backend.draw_circle((x, y), size.max(0) as u32, &style, style.filled),
            Shape::Cross => {
                let k = (size * 9 + 5) / 10;
                let stroke = style.stroke_width(style.stroke_width.max(2));
                backend.draw_path(shifted(vec![(-k, -k), (k, k)]), &stroke)?;
                backend.draw_path(shifted(vec![(-k, k), (k, -k)]), &stroke)
            }
            shape if style.filled => backend.fill_polygon(shifted(outline(shape, size)), &style.color.to_backend_color()),
            shape => backend.draw_path(shifted(outline(shape, size)), &style),
        }
    }
}

/// Markers of `shape` with radius `size` at `points` (chart coordinates), filled or outlined as
/// `style` says.
pub fn markers<DB, X, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    shape: Shape,
    points: Vec<(X::ValueType, Y::ValueType)>,
    size: i32,
    style: ShapeStyle,
) -> DrawResult<(), DB>
where
    DB: DrawingBackend,
    X: plotters::coord::ranged1d::Ranged,
    Y: plotters::coord::ranged1d::Ranged,
    X::ValueType: Clone + 'static,
    Y::ValueType: Clone + 'static,
{
    if points.is_empty() {
        return Ok(());
    }
    chart.draw_series(points.into_iter().map(|p| Glyph::new(p, shape, size, style)))?;
    Ok(())
}

/// Values moved to the floor of a log axis, each an open downward triangle.
pub fn floor_markers<DB, X, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    points: Vec<(X::ValueType, Y::ValueType)>,
    size: i32,
    color: RGBColor,
) -> DrawResult<(), DB>
where
    DB: DrawingBackend,
    X: plotters::coord::ranged1d::Ranged,
    Y: plotters::coord::ranged1d::Ranged,
    X::ValueType: Clone + 'static,
    Y::ValueType: Clone + 'static,
{
    chart.draw_series(points.into_iter().map(|p| EmptyElement::at(p) + PathElement::new(floor_outline(size), color.stroke_width(2))))?;
    Ok(())
}

/// A polyline in chart coordinates, solid or dashed.
pub fn polyline<DB, X, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    points: Vec<(X::ValueType, Y::ValueType)>,
    style: ShapeStyle,
    dash: Option<(u32, u32)>,
) -> DrawResult<(), DB>
where
    DB: DrawingBackend,
    X: plotters::coord::ranged1d::Ranged,
    Y: plotters::coord::ranged1d::Ranged,
    X::ValueType: Clone + 'static,
    Y::ValueType: Clone + 'static,
{
    if points.len() < 2 {
        return Ok(());
    }
    match dash {
        None => chart.draw_series(std::iter::once(PathElement::new(points, style)))?,
        Some((on, off)) => chart.draw_series(DashedLineSeries::new(points, on as i32, off as i32, style))?,
    };
    Ok(())
}

/// Series `index`'s line through `points`: its colour and dash, with its marker on every k-th
/// point (every point of a short line), so the line is known without colour.
pub fn series_line<DB, X, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    points: Vec<(X::ValueType, Y::ValueType)>,
    index: usize,
) -> DrawResult<(), DB>
where
    DB: DrawingBackend,
    X: plotters::coord::ranged1d::Ranged,
    Y: plotters::coord::ranged1d::Ranged,
    X::ValueType: Clone + 'static,
    Y::ValueType: Clone + 'static,
{
    let (color, shape, dash) = style::series(index);
    // One marker, at the line's end, names the series; markers along the line would read as
    // the samples, which are many more.
    let marked: Vec<_> = points.last().cloned().into_iter().collect();
    polyline(chart, points, color.stroke_width(LINE), dash)?;
    markers(chart, shape, marked, style::MARKER - 1, color.filled())
}

/// The legend entry of series `index`.
pub fn series_entry(label: String, index: usize) -> LegendEntry {
    let (color, shape, dash) = style::series(index);
    LegendEntry { label, color, swatch: Swatch::Marker { shape, filled: true, line: Some(dash) } }
}

/// How a legend entry is drawn.
#[derive(Debug, Clone)]
pub enum Swatch {
    /// A marker, optionally on a short line of the given dash.
    Marker { shape: Shape, filled: bool, line: Option<Option<(u32, u32)>> },
    /// A bar, filled or outlined.
    Bar { filled: bool },
    /// A small point of the given opacity.
    Dot { opacity: f64 },
    /// A solid line without a marker.
    Line,
    /// A patch of fill at the given opacity (a band between two values).
    Band { opacity: f64 },
}

#[derive(Debug, Clone)]
pub struct LegendEntry {
    pub label: String,
    pub color: RGBColor,
    pub swatch: Swatch,
}

/// The swatch's width and the gaps around the label, in px.
const SWATCH_W: i32 = 28;
const SWATCH_GAP: i32 = 6;
const ENTRY_GAP: i32 = 20;
/// Space between the plot's axis title and the first caption line, in px.
const CAPTION_GAP: i32 = 8;

/// CJK and other full-width characters (from U+2E80, CJK radicals, on): one em wide, and a
/// line may break between any two of them.
fn is_wide(c: char) -> bool {
    (c as u32) >= 0x2E80
}

/// Estimated width in px of `text` at `px`: browsers' sans fonts run about 0.58 em per Latin
/// letter, and CJK characters are one em. Used only to lay out legends and wrap captions.
pub fn text_width(text: &str, px: f64) -> i32 {
    let ems: f64 = text
        .chars()
        .map(|c| match c {
            ' ' | '.' | ',' | ':' | ';' | 'i' | 'l' | 'j' | 't' | 'f' | 'I' | '(' | ')' | '|' | '\'' => 0.32,
            'm' | 'w' | 'M' | 'W' | '%' => 0.9,
            c if c.is_ascii_uppercase() || c.is_ascii_digit() => 0.64,
            c if c.is_ascii() => 0.56,
            c if is_wide(c) => 1.0,
            _ => 0.7,
        })
        .sum();
    (ems * px).ceil() as i32
}

/// Splits `text` into lines that fit `width` px at `px` (at spaces, or anywhere in CJK text).
pub fn wrap(text: &str, px: f64, width: i32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    // Words are split after spaces; a run of wide characters breaks between any two of them.
    let mut tokens: Vec<String> = Vec::new();
    for c in text.chars() {
        let wide = is_wide(c);
        match tokens.last_mut() {
            // Japanese closing punctuation never starts a line, nor opening ends one.
            Some(last) if "、。）」』：；".contains(c) || last.ends_with(['（', '「', '『']) => last.push(c),
            Some(last) if !wide && !last.ends_with(' ') && !last.ends_with(is_wide) => last.push(c),
            _ => tokens.push(c.to_string()),
        }
    }
    for token in tokens {
        let candidate = format!("{line}{token}");
        if !line.is_empty() && text_width(candidate.trim_end(), px) > width {
            lines.push(line.trim_end().to_string());
            line = token.trim_start().to_string();
        } else {
            line = candidate;
        }
    }
    if !line.trim().is_empty() {
        lines.push(line.trim_end().to_string());
    }
    lines
}

fn entry_width(entry: &LegendEntry, px: f64) -> i32 {
    SWATCH_W + SWATCH_GAP + text_width(&entry.label, px) + ENTRY_GAP
}

/// Legend entries packed into rows of `width` px: the index ranges of each row.
fn legend_rows(entries: &[LegendEntry], width: i32, px: f64) -> Vec<std::ops::Range<usize>> {
    let mut rows = Vec::new();
    let (mut start, mut used) = (0, 0);
    for (i, entry) in entries.iter().enumerate() {
        let w = entry_width(entry, px);
        if i > start && used + w > width {
            rows.push(start..i);
            start = i;
            used = 0;
        }
        used += w;
    }
    if start < entries.len() {
        rows.push(start..entries.len());
    }
    rows
}

/// Lays out a figure: the title and legend on top, the captions below, and returns the area
/// left for the plot.
pub fn frame<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    legend: &[LegendEntry],
    captions: &[String],
) -> DrawResult<DrawingArea<DB, Shift>, DB> {
    frame_with(root, title, legend, captions, &HOUSE_TYPE)
}

/// Where [`frame_with`] puts a figure's parts: its lines of title, legend and captions, and the
/// px above and below the plot they take.
pub struct FrameLayout {
    title_lines: Vec<String>,
    legend_rows: Vec<std::ops::Range<usize>>,
    caption_lines: Vec<String>,
    pub header: i32,
    pub footer: i32,
}

/// The layout of a frame `width` px wide: a figure whose height follows its content asks it
/// before it draws.
pub fn frame_layout(width: u32, title: &str, legend: &[LegendEntry], captions: &[String], sizes: &Type) -> FrameLayout {
    let width = width as i32 - 2 * MARGIN as i32;
    let title_lines = wrap(title, sizes.title, width);
    let legend_rows = legend_rows(legend, width, sizes.text);
    let caption_lines: Vec<String> = captions.iter().flat_map(|c| wrap(c, sizes.small, width)).collect();
    let line = LINE_HEIGHT as i32;
    let header = MARGIN as i32 + line * (title_lines.len() + legend_rows.len()) as i32 + if legend_rows.is_empty() { 0 } else { 4 };
    let footer = line * caption_lines.len() as i32 + MARGIN as i32 / 2 + if caption_lines.is_empty() { 0 } else { CAPTION_GAP };
    FrameLayout { title_lines, legend_rows, caption_lines, header, footer }
}

/// [`frame`] with the text sizes `sizes` (a narrow figure's larger type).
pub fn frame_with<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    legend: &[LegendEntry],
    captions: &[String],
    sizes: &Type,
) -> DrawResult<DrawingArea<DB, Shift>, DB> {
    let (w, h) = root.dim_in_pixel();
    let FrameLayout { title_lines, legend_rows: rows, caption_lines, header, footer } = frame_layout(w, title, legend, captions, sizes);
    let line = LINE_HEIGHT as i32;

    let title_style = (FONT, style::font_size(sizes.title), FontStyle::Bold).into_font().color(&INK).pos(Pos::new(HPos::Left, VPos::Top));
    let mut y = MARGIN as i32 - 2;
    for text in &title_lines {
        root.draw(&Text::new(text.clone(), (MARGIN as i32, y), title_style.clone()))?;
        y += line;
    }
    let label_style = text_style(sizes.text, INK).pos(Pos::new(HPos::Left, VPos::Center));
    for row in rows {
        let mut x = MARGIN as i32;
        let cy = y + line / 2;
        for entry in &legend[row] {
            draw_swatch(root, entry, (x, cy))?;
            root.draw(&Text::new(entry.label.clone(), (x + SWATCH_W + SWATCH_GAP, cy), label_style.clone()))?;
            x += entry_width(entry, sizes.text);
        }
        y += line;
    }
    let caption_style = text_style(sizes.small, MUTED).pos(Pos::new(HPos::Left, VPos::Top));
    let mut y = h as i32 - footer + CAPTION_GAP;
    for text in caption_lines {
        root.draw(&Text::new(text, (MARGIN as i32, y), caption_style.clone()))?;
        y += line;
    }
    let plot_height = (h as i32 - header - footer).max(40);
    let (_, rest) = root.split_vertically(header.min(h as i32 - 40));
    let (plot, _) = rest.split_vertically(plot_height);
    Ok(plot)
}

fn draw_swatch<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, entry: &LegendEntry, (x, y): (i32, i32)) -> DrawResult<(), DB> {
    let color = entry.color;
    let centre = (x + SWATCH_W / 2, y);
    let line_style = color.stroke_width(LINE);
    match &entry.swatch {
        Swatch::Marker { shape, filled, line } => {
            if let Some(dash) = line {
                swatch_line(area, (x, y), line_style, *dash)?;
            }
            let style = if *filled { color.filled() } else { color.stroke_width(LINE) };
            area.draw(&Glyph::new(centre, *shape, LEGEND_MARKER, style))?;
        }
        Swatch::Bar { filled } => {
            let corners = [(x + 2, y - 6), (x + SWATCH_W - 2, y + 6)];
            if *filled {
                area.draw(&Rectangle::new(corners, color.filled()))?;
            } else {
                let [(x0, y0), (x1, y1)] = corners;
                area.draw(&Rectangle::new(corners, WHITE.filled()))?;
                area.draw(&PathElement::new(vec![(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)], color.stroke_width(LINE)))?;
            }
        }
        Swatch::Dot { opacity } => {
            area.draw(&Circle::new(centre, style::SMALL_POINT + 1, color.mix(*opacity).filled()))?;
        }
        Swatch::Line => swatch_line(area, (x, y), line_style, None)?,
        Swatch::Band { opacity } => {
            area.draw(&Rectangle::new([(x + 2, y - 6), (x + SWATCH_W - 2, y + 6)], color.mix(*opacity).filled()))?;
        }
    }
    Ok(())
}

fn swatch_line<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (x, y): (i32, i32),
    style: ShapeStyle,
    dash: Option<(u32, u32)>,
) -> DrawResult<(), DB> {
    let points = vec![(x, y), (x + SWATCH_W, y)];
    match dash {
        None => area.draw(&PathElement::new(points, style)),
        Some((on, off)) => area.draw(&DashedPathElement::new(points, on as i32, off as i32, style)),
    }
}

/// Text at a backend pixel (as `ChartContext::backend_coord` gives), drawn on `area`.
pub fn text_at<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: String,
    pixel: (i32, i32),
    style: TextStyle<'_>,
) -> DrawResult<(), DB> {
    let (x0, y0) = area.get_base_pixel();
    area.draw(&Text::new(text, (pixel.0 - x0, pixel.1 - y0), style))
}

/// A label at a backend pixel on a patch of background, so no gridline or point runs through
/// its words (a gridline through "p95 = 52.00 ms" reads "$2.00").
pub fn label_at<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: String,
    pixel: (i32, i32),
    px: f64,
    color: RGBColor,
    (h, v): (HPos, VPos),
) -> DrawResult<(), DB> {
    const PAD: i32 = 3;
    let (width, height) = (text_width(&text, px), (px * 1.25).ceil() as i32);
    let left = match h {
        HPos::Left => pixel.0,
        HPos::Center => pixel.0 - width / 2,
        HPos::Right => pixel.0 - width,
    };
    let top = match v {
        VPos::Top => pixel.1,
        VPos::Center => pixel.1 - height / 2,
        VPos::Bottom => pixel.1 - height,
    };
    let (x0, y0) = area.get_base_pixel();
    let patch = [(left - PAD - x0, top - PAD - y0), (left + width + PAD - x0, top + height + PAD - y0)];
    area.draw(&Rectangle::new(patch, style::BACKGROUND.mix(0.9).filled()))?;
    text_at(area, text, pixel, text_style(px, color).pos(Pos::new(h, v)))
}

/// A message in the middle of an area (no data, and the like).
pub fn message<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, text: &str) -> DrawResult<(), DB> {
    let (w, h) = area.dim_in_pixel();
    let style = text_style(TEXT_PX, MUTED).pos(Pos::new(HPos::Center, VPos::Center));
    let lines = wrap(text, TEXT_PX, w as i32 - 4 * MARGIN as i32);
    let line = LINE_HEIGHT as i32;
    let first = h as i32 / 2 - line * (lines.len() as i32 - 1) / 2;
    for (i, text) in lines.into_iter().enumerate() {
        area.draw(&Text::new(text, (w as i32 / 2, first + line * i as i32), style.clone()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_breaks_at_spaces_and_between_cjk_characters() {
        let lines = wrap("2,400 of 3,000,000 points drawn (per pixel column the fastest and slowest)", 12.0, 200);
        assert!(lines.len() > 1);
        assert!(lines.iter().all(|l| text_width(l, 12.0) <= 200 || !l.contains(' ')), "{lines:?}");
        assert_eq!(lines.join(" "), "2,400 of 3,000,000 points drawn (per pixel column the fastest and slowest)");
        let ja = wrap("画素列ごとの最速と最遅、および p99 を超える遅いリクエスト", 12.0, 100);
        assert!(ja.len() > 1);
        assert!(ja.iter().all(|l| text_width(l, 12.0) <= 100), "{ja:?}");
    }
}
