//! Marks a reader can point at, with no script: each has a `<title>` (a browser shows it on
//! hover, a screen reader reads it) naming its run or condition and its value (in a chart of one
//! run, whose title names it, its value alone), and a run's mark is a link to the run's page.
//!
//! plotters writes no `<title>` or `<a>`, so these marks are written here, in pixels of the
//! figure, into layers. A layer holds its place in the drawing order with a placeholder text
//! that plotters draws like any other ([`Pointable::layer`]); [`Pointable::fill_in`] replaces
//! it with the layer's marks, so a point drawn here is still under the reference line drawn
//! after it. A mark is either visible (the figure's own point, drawn once, here) or a hit area
//! over what plotters drew (fully transparent, wide enough to point at).
//!
//! Neighbouring marks of one kind and style share one `<g>` that carries their style (and
//! neighbours with one link inside it one `<a>`), so a mark is written as its position and title
//! only: a time series has hundreds.
//!
//! Links are relative to the figure's folder (`figures/`), which is also where they resolve
//! when the page embeds the figure with `<object>`; `target="_top"` opens the run page in place
//! of the report, not inside the figure's frame.

use super::style::{self, BACKGROUND};
use super::xml::push_escaped;
use crate::render::paths;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::RGBColor;
use std::fmt::Write;

/// Brackets of a layer's placeholder: private-use characters no label holds.
const OPEN: char = '\u{E000}';
const CLOSE: char = '\u{E001}';
/// The width of a line's hit area, in px.
const LINE_HIT: u32 = 9;
/// The least radius of a point's hit area, in px (a 2 px dot is hard to point at).
const POINT_HIT: i32 = 4;

/// The link from a figure to the page of the run with this slug.
pub fn run_href(slug: &str) -> String {
    format!("../{}", paths::run_page(&paths::url_segment(slug)))
}

/// The link from a figure to a condition's entry on the variance page.
pub fn condition_href(condition: usize) -> String {
    paths::condition_link("../", condition)
}

/// How a mark is drawn.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A visible dot: the figure's own point.
    Dot { at: (i32, i32), radius: i32, color: RGBColor, opacity: f64 },
    /// A transparent circle over a marker plotters drew.
    Spot { at: (i32, i32), radius: i32 },
    /// A transparent band along a line plotters drew.
    Band { points: Vec<(i32, i32)> },
    /// A transparent rectangle: the hover area of a column of a chart.
    Area { x: i32, y: i32, width: i32, height: i32 },
}

/// What neighbouring marks share, written once on their group.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Style {
    Dot {
        hit: i32,
        color: RGBColor,
        opacity: f64,
    },
    /// Spots and areas: transparent fill that answers the pointer.
    Clear,
    Band,
}

impl Shape {
    fn style(&self) -> Style {
        match self {
            Shape::Dot { radius, color, opacity, .. } => {
                Style::Dot { hit: (POINT_HIT - radius).max(0) * 2, color: *color, opacity: *opacity }
            }
            Shape::Spot { .. } | Shape::Area { .. } => Style::Clear,
            Shape::Band { .. } => Style::Band,
        }
    }
}

impl Style {
    /// The group's opening tag.
    fn open(self, out: &mut String) {
        match self {
            Style::Dot { hit, color, opacity } => {
                // The stroke is transparent: it only widens the area that answers the pointer.
                let (r, g, b) = (color.0, color.1, color.2);
                let _ = writeln!(
                    out,
                    "<g fill=\"#{r:02X}{g:02X}{b:02X}\" fill-opacity=\"{opacity}\" stroke=\"#000\" stroke-opacity=\"0\" stroke-width=\"{hit}\">"
                );
            }
            Style::Clear => out.push_str("<g fill=\"#000\" fill-opacity=\"0\">\n"),
            Style::Band => {
                let _ = writeln!(out, "<g fill=\"none\" stroke=\"#000\" stroke-opacity=\"0\" stroke-width=\"{LINE_HIT}\">");
            }
        }
    }
}

/// One mark: its shape, its title and, for a run's mark, the link to the run's page.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    pub shape: Shape,
    pub title: String,
    pub href: Option<String>,
}

/// The marks of one figure, by layer.
#[derive(Debug, Default)]
pub struct Pointable {
    layers: Vec<Vec<Mark>>,
}

impl Pointable {
    /// Opens a layer at this point of the drawing order and returns its index.
    pub fn layer<DB: DrawingBackend>(&mut self, root: &DrawingArea<DB, Shift>) -> Result<usize, DrawingAreaErrorKind<DB::ErrorType>> {
        let index = self.layers.len();
        self.layers.push(Vec::new());
        let text_style = ("sans-serif", 1).into_font().color(&BACKGROUND);
        root.draw(&Text::new(format!("{OPEN}{index}{CLOSE}"), (0, 0), text_style))?;
        Ok(index)
    }

    pub fn push(&mut self, layer: usize, mark: Mark) {
        if let Some(marks) = self.layers.get_mut(layer) {
            marks.push(mark);
        }
    }

    /// `svg` with each layer's placeholder replaced by its marks.
    pub fn fill_in(&self, svg: &str) -> String {
        let mut out = svg.to_string();
        for (index, marks) in self.layers.iter().enumerate() {
            let needle = format!("{OPEN}{index}{CLOSE}");
            let Some(at) = memchr::memmem::find(out.as_bytes(), needle.as_bytes()) else { continue };
            let Some(start) = out[..at].rfind("<text") else { continue };
            let Some(end) = out[at..].find("</text>").map(|e| at + e + "</text>".len()) else { continue };
            let end = if out[end..].starts_with('\n') { end + 1 } else { end };
            // Copied around the placeholder, not `replace_range`: its splice moves the layer in
            // byte by byte (a time series's layer is a few hundred kB).
            let layer = layer_svg(marks);
            let mut filled = String::with_capacity(out.len() - (end - start) + layer.len());
            filled.push_str(&out[..start]);
            filled.push_str(&layer);
            filled.push_str(&out[end..]);
            out = filled;
        }
        out
    }
}

/// A layer's marks as one group; neighbouring marks of one style share a `<g>` with that style,
/// and neighbours inside it with one link share its `<a>`. Written into one buffer: a time
/// series's layer has hundreds of marks, and a `String` per mark and per title cost about as much
/// as the drawing.
fn layer_svg(marks: &[Mark]) -> String {
    if marks.is_empty() {
        return String::new();
    }
    let mut out = String::from("<g class=\"marks\">\n");
    let mut style: Option<Style> = None;
    let mut open: Option<&str> = None;
    for mark in marks {
        let wanted = mark.shape.style();
        if style != Some(wanted) {
            if open.take().is_some() {
                out.push_str("</a>\n");
            }
            if style.is_some() {
                out.push_str("</g>\n");
            }
            wanted.open(&mut out);
            style = Some(wanted);
        }
        if open != mark.href.as_deref() {
            if open.is_some() {
                out.push_str("</a>\n");
            }
            if let Some(href) = &mark.href {
                out.push_str("<a href=\"");
                push_escaped(&mut out, href);
                out.push_str("\" target=\"_top\">\n");
            }
            open = mark.href.as_deref();
        }
        push_mark_svg(&mut out, mark);
    }
    if open.is_some() {
        out.push_str("</a>\n");
    }
    out.push_str("</g>\n</g>\n");
    out
}

/// One mark inside its style's group: its geometry and its title.
fn push_mark_svg(out: &mut String, mark: &Mark) {
    // Writing to a String cannot fail: the `write!` results are ignored.
    let close = match &mark.shape {
        Shape::Dot { at: (x, y), radius, .. } => {
            let _ = write!(out, "<circle cx=\"{x}\" cy=\"{y}\" r=\"{radius}\">");
            "</circle>\n"
        }
        Shape::Spot { at: (x, y), radius } => {
            let _ = write!(out, "<circle cx=\"{x}\" cy=\"{y}\" r=\"{}\">", radius.max(&POINT_HIT));
            "</circle>\n"
        }
        Shape::Area { x, y, width, height } => {
            let _ = write!(out, "<rect x=\"{x}\" y=\"{y}\" width=\"{width}\" height=\"{height}\">");
            "</rect>\n"
        }
        Shape::Band { points } => {
            out.push_str("<path d=\"");
            super::compact::push_path_data(out, points.iter().copied());
            out.push_str("\">");
            "</path>\n"
        }
    };
    push_title(out, &mark.title);
    out.push_str(close);
}

fn push_title(out: &mut String, title: &str) {
    out.push_str("<title>");
    push_escaped(out, title);
    out.push_str("</title>");
}

/// A run's visible dot at pixel `at`, in the series colour at the faint opacity.
pub fn run_dot(at: (i32, i32), color: RGBColor, title: String, href: Option<String>) -> Mark {
    Mark { shape: Shape::Dot { at, radius: style::SMALL_POINT, color, opacity: style::FAINT }, title, href }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layer_takes_the_place_of_its_placeholder_and_shares_one_link() {
        let mut buffer = String::new();
        let mut marks = Pointable::default();
        {
            let root = SVGBackend::with_string(&mut buffer, (100, 50)).into_drawing_area();
            root.draw(&Circle::new((5, 5), 2, RED.filled())).unwrap();
            let layer = marks.layer(&root).unwrap();
            root.draw(&Circle::new((9, 9), 2, BLUE.filled())).unwrap();
            let href = Some(run_href("r 1"));
            marks.push(layer, Mark { shape: Shape::Spot { at: (10, 20), radius: 5 }, title: "r1 & 2 ms".into(), href: href.clone() });
            marks.push(
                layer,
                Mark { shape: Shape::Area { x: 1, y: 2, width: 3, height: 4 }, title: "r1 column".into(), href: href.clone() },
            );
            marks.push(layer, Mark { shape: Shape::Band { points: vec![(1, 1), (1, 1), (2, 3)] }, title: "r1".into(), href });
            root.present().unwrap();
        }
        let svg = marks.fill_in(&buffer);
        assert!(!svg.contains(OPEN) && !svg.contains("<text"), "{svg}");
        let (red, group, blue) = (svg.find("#FF0000").unwrap(), svg.find("<g class=\"marks\">").unwrap(), svg.find("#0000FF").unwrap());
        assert!(red < group && group < blue, "the layer keeps its place in the drawing order: {svg}");
        // The spot and the area share their transparent style and their link; the band has a style of its own.
        assert_eq!(svg.matches("<a href=\"../runs/r%201.html\" target=\"_top\">").count(), 2, "{svg}");
        assert!(svg.contains("<g fill=\"#000\" fill-opacity=\"0\">\n<a href=\"../runs/r%201.html\" target=\"_top\">\n<circle cx=\"10\" cy=\"20\" r=\"5\"><title>r1 &amp; 2 ms</title></circle>\n<rect x=\"1\" y=\"2\" width=\"3\" height=\"4\"><title>r1 column</title></rect>\n</a>\n</g>"), "{svg}");
        assert!(svg.contains("<title>r1 &amp; 2 ms</title>"));
        assert!(svg.contains("d=\"M1 1l1 2\""), "repeated pixels are written once: {svg}");
    }
}
