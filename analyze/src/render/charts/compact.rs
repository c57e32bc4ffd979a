//! The same drawing in fewer bytes. plotters' SVG backend writes every element with every
//! attribute: each tick label repeats the whole font stack, each grid line and each dash of a
//! dashed line is an element of its own, each marker's cross two polylines. A run page's
//! figures weighed about 1 MB that way, most of it repetition. [`compact`] rewrites plotters'
//! output (before the marks are filled in) so that it renders the same:
//!
//! - the font stack, the usual text size and the ink are said once, on the `<svg>` element, and
//!   a text repeats them only where it differs; text loses plotters' padding newlines;
//! - neighbouring opaque lines and polylines of one colour and width become one `<path>`, in
//!   relative coordinates (`h`, `v` and `l`, each repeated pixel written once); texts between
//!   them (tick labels between tick marks) are written after the path, as lines never cover text;
//! - neighbouring circles of one fill and stroke share a `<g>` that carries them;
//! - `opacity="1"`, the default, is dropped.
//!
//! It reads only what plotters writes (one element per line, a text's content between its tags),
//! and leaves anything else as it is. A layer's placeholder text ([`super::marks`]) keeps its
//! place.

use super::style::{font_size, FONT, INK, TEXT_PX};
use std::fmt::Write;

/// Attributes every text takes from the `<svg>` element unless it says otherwise.
fn root_defaults() -> [(&'static str, String); 3] {
    [("font-family", FONT.to_string()), ("font-size", format!("{}", font_size(TEXT_PX) / 1.24)), ("fill", hex(INK))]
}

fn hex(color: plotters::style::RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", color.0, color.1, color.2)
}

/// plotters' SVG, rewritten to render the same in fewer bytes.
pub fn compact(svg: &str) -> String {
    let defaults = root_defaults();
    let mut out = String::with_capacity(svg.len() / 2);
    let mut run: Option<StrokeRun> = None;
    let mut circles: Option<String> = None;
    let mut deferred = String::new();
    let mut rest = svg;
    while !rest.is_empty() {
        let (item, next) = next_item(rest);
        rest = next;
        let stroke = Stroke::parse(item);
        if let Some(stroke) = &stroke {
            if run.as_ref().is_some_and(|r| r.style == stroke.style) {
                if let Some(run) = run.as_mut() {
                    run.add(&stroke.points);
                }
                continue;
            }
        }
        let text = item.starts_with("<text ") && !item.contains('\u{E000}');
        if text && run.is_some() {
            push_text(&mut deferred, item, &defaults);
            continue;
        }
        let circle = item.starts_with("<circle ").then(|| Circle::parse(item)).flatten();
        if circles.as_ref().is_some_and(|group| Some(group) != circle.as_ref().map(|c| &c.group)) {
            out.push_str("</g>\n");
            circles = None;
        }
        flush(&mut out, &mut run, &mut deferred);
        if let Some(stroke) = stroke {
            run = Some(StrokeRun::new(stroke));
        } else if let Some(circle) = circle {
            if circles.is_none() {
                let _ = writeln!(out, "<g {}>", circle.group);
                circles = Some(circle.group.clone());
            }
            out.push_str(&circle.own);
            out.push('\n');
        } else if text {
            push_text(&mut out, item, &defaults);
        } else if let Some(polygon) = item.starts_with("<polygon ").then(|| polygon_path(item)).flatten() {
            out.push_str(&polygon);
        } else if item.starts_with("<svg ") {
            push_root(&mut out, item, &defaults);
        } else {
            out.push_str(&item.replace(" opacity=\"1\"", ""));
        }
    }
    if circles.is_some() {
        out.push_str("</g>\n");
    }
    flush(&mut out, &mut run, &mut deferred);
    out
}

/// The next element of plotters' output and what follows it: one line, or a whole `<text>`
/// (its content may hold newlines; a `<` in it is escaped).
fn next_item(svg: &str) -> (&str, &str) {
    let end =
        if svg.starts_with("<text ") { svg.find("</text>\n").map(|at| at + "</text>\n".len()) } else { svg.find('\n').map(|at| at + 1) };
    let end = end.unwrap_or(svg.len());
    (&svg[..end], &svg[end..])
}

fn flush(out: &mut String, run: &mut Option<StrokeRun>, deferred: &mut String) {
    if let Some(run) = run.take() {
        run.write(out);
    }
    out.push_str(deferred);
    deferred.clear();
}

/// The value of attribute `name` in one element's tag.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let end = tag[start..].find('"')? + start;
    Some(&tag[start..end])
}

/// An opaque line or polyline plotters drew: its stroke and its points.
struct Stroke {
    style: (String, String),
    points: Vec<(i32, i32)>,
}

impl Stroke {
    fn parse(item: &str) -> Option<Stroke> {
        let tag = item.trim_end();
        if !tag.ends_with("/>") || attribute(tag, "opacity") != Some("1") {
            return None;
        }
        let style = (attribute(tag, "stroke")?.to_string(), attribute(tag, "stroke-width")?.to_string());
        let number = |name: &str| attribute(tag, name)?.parse::<i32>().ok();
        let points = if tag.starts_with("<line ") {
            vec![(number("x1")?, number("y1")?), (number("x2")?, number("y2")?)]
        } else if tag.starts_with("<polyline ") && attribute(tag, "fill") == Some("none") {
            let mut points = Vec::new();
            for pair in attribute(tag, "points")?.split_whitespace() {
                let (x, y) = pair.split_once(',')?;
                points.push((x.parse().ok()?, y.parse().ok()?));
            }
            points
        } else {
            return None;
        };
        Some(Stroke { style, points })
    }
}

/// Neighbouring strokes of one colour and width: one path, and one more per dashed line.
struct StrokeRun {
    style: (String, String),
    strokes: Vec<Vec<(i32, i32)>>,
}

impl StrokeRun {
    fn new(stroke: Stroke) -> StrokeRun {
        StrokeRun { style: stroke.style, strokes: vec![stroke.points] }
    }

    fn add(&mut self, points: &[(i32, i32)]) {
        self.strokes.push(points.to_vec());
    }

    /// The strokes as one `<path>`, but for each run of dashes that one line with a
    /// `stroke-dasharray` draws the same ([`dashes`]): a path of its own. The strokes are of one
    /// opaque colour, so the order they are painted in does not show.
    fn write(self, out: &mut String) {
        let (stroke, width) = self.style;
        let mut plain = String::new();
        let mut i = 0;
        while i < self.strokes.len() {
            if let Some(dashed) = dashes(&self.strokes[i..]) {
                let ((x, y), (dx, dy)) = (dashed.start, dashed.extent);
                let step = if dy == 0 { format!("h{dx}") } else { format!("v{dy}") };
                let (on, off) = dashed.pattern;
                let _ = writeln!(
                    out,
                    "<path fill=\"none\" stroke=\"{stroke}\" stroke-width=\"{width}\" stroke-dasharray=\"{on} {off}\" d=\"M{x} {y}{step}\"/>"
                );
                i += dashed.count;
            } else {
                push_path_data(&mut plain, self.strokes[i].iter().copied());
                i += 1;
            }
        }
        if !plain.is_empty() {
            let _ = writeln!(out, "<path fill=\"none\" stroke=\"{stroke}\" stroke-width=\"{width}\" d=\"{plain}\"/>");
        }
    }
}

/// Fewer dashes than this stay as they are.
const MIN_DASHES: usize = 3;

/// A dashed straight line: where it starts, how far it runs, its (dash, gap) and how many
/// strokes drew it.
struct Dashed {
    start: (i32, i32),
    extent: (i32, i32),
    pattern: (i32, i32),
    count: usize,
}

/// The dashed line `strokes` begin with, if they do: at least [`MIN_DASHES`] two-point strokes
/// along one horizontal or vertical line in one direction, each `on` long and `off` after the
/// one before, the last possibly cut short where the line ends; exactly what one line of that
/// extent with `stroke-dasharray="on off"` draws. plotters' dashed lines are so.
fn dashes(strokes: &[Vec<(i32, i32)>]) -> Option<Dashed> {
    let segment = |points: &Vec<(i32, i32)>| match points.as_slice() {
        &[a, b] if a != b && (a.0 == b.0 || a.1 == b.1) => Some((a, b)),
        _ => None,
    };
    let (start, first_end) = segment(strokes.first()?)?;
    let unit = ((first_end.0 - start.0).signum(), (first_end.1 - start.1).signum());
    let along = |p: (i32, i32)| (p.0 - start.0) * unit.0 + (p.1 - start.1) * unit.1;
    let on_line = |p: (i32, i32)| if unit.1 == 0 { p.1 == start.1 } else { p.0 == start.0 };
    let on = along(first_end);
    let second = segment(strokes.get(1)?)?;
    let period = along(second.0);
    if period <= on || !on_line(second.0) {
        return None;
    }
    let mut count = 0;
    let mut end = first_end;
    for (k, points) in strokes.iter().enumerate() {
        let Some((a, b)) = segment(points) else { break };
        let (from, to) = (along(a), along(b));
        let expected = k as i32 * period;
        if !on_line(a) || !on_line(b) || from != expected || to <= from || to - from > on {
            break;
        }
        count = k + 1;
        end = b;
        if to - from < on {
            // A short dash ends the line.
            break;
        }
    }
    (count >= MIN_DASHES).then(|| Dashed { start, extent: (end.0 - start.0, end.1 - start.1), pattern: (on, period - on), count })
}

/// Path data of one polyline through `points`, appended to `data`: a move to the first point,
/// then each step in relative coordinates, a repeated point written once and steps that carry
/// on in one direction written as one (a vertical run of an ECDF's steps is one `v`). A
/// polyline of one point draws nothing, and adds nothing.
pub fn push_path_data(data: &mut String, points: impl IntoIterator<Item = (i32, i32)>) {
    let mut points = points.into_iter();
    let Some(first) = points.next() else { return };
    let mut steps = String::new();
    let mut at = first;
    let mut pending: Option<(i32, i32)> = None;
    for point in points {
        let step = (point.0 - at.0, point.1 - at.1);
        at = point;
        if step == (0, 0) {
            continue;
        }
        pending = match pending {
            Some(before) if same_direction(before, step) => Some((before.0 + step.0, before.1 + step.1)),
            Some(before) => {
                push_step(&mut steps, before);
                Some(step)
            }
            None => Some(step),
        };
    }
    if let Some(last) = pending {
        push_step(&mut steps, last);
        let _ = write!(data, "M{} {}{steps}", first.0, first.1);
    }
}

/// Whether step `b` carries on along step `a`: parallel and the same way.
fn same_direction(a: (i32, i32), b: (i32, i32)) -> bool {
    let (a0, a1, b0, b1) = (i64::from(a.0), i64::from(a.1), i64::from(b.0), i64::from(b.1));
    a0 * b1 == a1 * b0 && a0 * b0 + a1 * b1 > 0
}

fn push_step(steps: &mut String, (dx, dy): (i32, i32)) {
    let _ = match (dx, dy) {
        (dx, 0) => write!(steps, "h{dx}"),
        (0, dy) => write!(steps, "v{dy}"),
        (dx, dy) if dy < 0 => write!(steps, "l{dx}{dy}"),
        (dx, dy) => write!(steps, "l{dx} {dy}"),
    };
}

/// A filled polygon as the path that draws it, in relative coordinates and closed.
fn polygon_path(item: &str) -> Option<String> {
    let tag = item.trim_end();
    if !tag.ends_with("/>") {
        return None;
    }
    let (opacity, fill) = (attribute(tag, "opacity")?, attribute(tag, "fill")?);
    let mut points = Vec::new();
    for pair in attribute(tag, "points")?.split_whitespace() {
        let (x, y) = pair.split_once(',')?;
        points.push((x.parse::<i32>().ok()?, y.parse::<i32>().ok()?));
    }
    // `z` closes the outline: a last point back at the first is drawn by it.
    if points.len() > 2 && points.first() == points.last() {
        points.pop();
    }
    let mut data = String::new();
    push_path_data(&mut data, points);
    if data.is_empty() {
        return None;
    }
    let opacity = if opacity == "1" { String::new() } else { format!(" opacity=\"{opacity}\"") };
    Some(format!("<path{opacity} fill=\"{fill}\" d=\"{data}z\"/>\n"))
}

/// A circle plotters drew: what it shares with neighbours (fill, stroke, width) and its own
/// position, radius and opacity.
struct Circle {
    group: String,
    own: String,
}

impl Circle {
    fn parse(item: &str) -> Option<Circle> {
        let tag = item.trim_end();
        if !tag.ends_with("/>") {
            return None;
        }
        let (fill, stroke, width) = (attribute(tag, "fill")?, attribute(tag, "stroke")?, attribute(tag, "stroke-width")?);
        let (cx, cy, r, opacity) = (attribute(tag, "cx")?, attribute(tag, "cy")?, attribute(tag, "r")?, attribute(tag, "opacity")?);
        let group = format!("fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{width}\"");
        let opacity = if opacity == "1" { String::new() } else { format!(" opacity=\"{opacity}\"") };
        Some(Circle { group, own: format!("<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{r}\"{opacity}/>") })
    }
}

/// A text element without the attributes the root gives it and without plotters' padding
/// newlines around its content.
fn push_text(out: &mut String, item: &str, defaults: &[(&str, String)]) {
    let Some(open_end) = item.find(">\n") else {
        out.push_str(item);
        return;
    };
    let mut tag = item[..open_end].replace(" opacity=\"1\"", "");
    for (name, value) in defaults {
        tag = tag.replace(&format!(" {name}=\"{}\"", super::xml::escape(value)), "");
    }
    let content = &item[open_end + 2..];
    let content = content.strip_suffix("\n</text>\n").unwrap_or(content);
    out.push_str(&tag);
    out.push('>');
    out.push_str(content);
    out.push_str("</text>\n");
}

/// The `<svg>` element with the text defaults on it.
fn push_root(out: &mut String, item: &str, defaults: &[(&str, String)]) {
    let tag = item.trim_end();
    let Some(open) = tag.strip_suffix('>') else {
        out.push_str(item);
        return;
    };
    out.push_str(open);
    for (name, value) in defaults {
        let _ = write!(out, " {name}=\"{}\"", super::xml::escape(value));
    }
    out.push_str(">\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    const FONT_ATTR: &str = "font-family=\"Noto Sans, Helvetica Neue, Arial, Hiragino Sans, Hiragino Kaku Gothic ProN, Noto Sans CJK JP, Noto Sans JP, Source Han Sans JP, Yu Gothic, Meiryo, IPAexGothic, sans-serif\"";

    #[test]
    fn path_data_is_relative_and_writes_a_repeated_pixel_once() {
        let mut data = String::new();
        push_path_data(&mut data, [(72, 389), (185, 389), (185, 389), (185, 385), (187, 380), (190, 390)]);
        assert_eq!(data, "M72 389h113v-4l2-5l3 10");
        push_path_data(&mut data, [(1, 1)]);
        assert_eq!(data, "M72 389h113v-4l2-5l3 10", "one point draws nothing");
        // Steps that carry on one way are one; a turn back is not.
        let mut data = String::new();
        push_path_data(&mut data, [(0, 10), (0, 6), (0, 1), (2, 1), (4, 1), (6, 2), (8, 3), (8, 5)]);
        assert_eq!(data, "M0 10v-9h4l4 2v2");
        let mut data = String::new();
        push_path_data(&mut data, [(0, 0), (5, 0), (3, 0)]);
        assert_eq!(data, "M0 0h5h-2");
    }

    #[test]
    fn neighbouring_strokes_of_one_style_become_one_path_and_texts_between_them_follow_it() {
        let svg = format!(
            "<svg width=\"10\" height=\"10\" viewBox=\"0 0 10 10\" xmlns=\"http://www.w3.org/2000/svg\">\n\
             <line opacity=\"1\" stroke=\"#222222\" stroke-width=\"1\" x1=\"66\" y1=\"389\" x2=\"71\" y2=\"389\"/>\n\
             <text x=\"62\" y=\"389\" dy=\"0.5ex\" text-anchor=\"end\" {FONT_ATTR} font-size=\"12.5\" opacity=\"1\" fill=\"#222222\">\n0%\n</text>\n\
             <polyline fill=\"none\" opacity=\"1\" stroke=\"#222222\" stroke-width=\"1\" points=\"66,302 71,302 \"/>\n\
             <polyline fill=\"none\" opacity=\"0.5\" stroke=\"#222222\" stroke-width=\"1\" points=\"1,1 2,2 \"/>\n\
             <circle cx=\"1\" cy=\"2\" r=\"2\" opacity=\"0.5\" fill=\"#0072B2\" stroke=\"none\" stroke-width=\"1\"/>\n\
             <circle cx=\"3\" cy=\"4\" r=\"2\" opacity=\"1\" fill=\"#0072B2\" stroke=\"none\" stroke-width=\"1\"/>\n\
             <text x=\"1\" y=\"1\" dy=\"0.76em\" text-anchor=\"start\" {FONT_ATTR} font-size=\"16\" opacity=\"1\" fill=\"#555555\" font-weight=\"bold\">\nA &amp; B\n</text>\n\
             </svg>\n"
        );
        let out = compact(&svg);
        assert_eq!(
            out,
            format!(
                "<svg width=\"10\" height=\"10\" viewBox=\"0 0 10 10\" xmlns=\"http://www.w3.org/2000/svg\" {FONT_ATTR} font-size=\"12.5\" fill=\"#222222\">\n\
                 <path fill=\"none\" stroke=\"#222222\" stroke-width=\"1\" d=\"M66 389h5M66 302h5\"/>\n\
                 <text x=\"62\" y=\"389\" dy=\"0.5ex\" text-anchor=\"end\">0%</text>\n\
                 <polyline fill=\"none\" opacity=\"0.5\" stroke=\"#222222\" stroke-width=\"1\" points=\"1,1 2,2 \"/>\n\
                 <g fill=\"#0072B2\" stroke=\"none\" stroke-width=\"1\">\n\
                 <circle cx=\"1\" cy=\"2\" r=\"2\" opacity=\"0.5\"/>\n\
                 <circle cx=\"3\" cy=\"4\" r=\"2\"/>\n\
                 </g>\n\
                 <text x=\"1\" y=\"1\" dy=\"0.76em\" text-anchor=\"start\" font-size=\"16\" fill=\"#555555\" font-weight=\"bold\">A &amp; B</text>\n\
                 </svg>\n"
            )
        );
    }

    #[test]
    fn a_layer_placeholder_keeps_its_place_between_strokes() {
        let svg = "<polyline fill=\"none\" opacity=\"1\" stroke=\"#222222\" stroke-width=\"2\" points=\"1,1 5,1 \"/>\n\
                   <text x=\"0\" y=\"0\" dy=\"0.76em\" text-anchor=\"start\" font-size=\"1\" opacity=\"1\" fill=\"#FFFFFF\">\n\u{E000}0\u{E001}\n</text>\n\
                   <polyline fill=\"none\" opacity=\"1\" stroke=\"#222222\" stroke-width=\"2\" points=\"1,3 5,3 \"/>\n";
        let out = compact(svg);
        let (first, placeholder, second) = (out.find("M1 1").unwrap(), out.find('\u{E000}').unwrap(), out.find("M1 3").unwrap());
        assert!(first < placeholder && placeholder < second, "{out}");
    }

    type Segment = ((i32, i32), (i32, i32));

    fn dashes_of(points: &[Segment]) -> String {
        let svg: String = points
            .iter()
            .map(|((x1, y1), (x2, y2))| {
                format!("<polyline fill=\"none\" opacity=\"1\" stroke=\"#222222\" stroke-width=\"2\" points=\"{x1},{y1} {x2},{y2} \"/>\n")
            })
            .collect();
        compact(&svg)
    }

    #[test]
    fn a_dashed_line_becomes_one_line_with_its_dash_pattern() {
        // 6 on, 4 off from x = 72, the last dash cut short at 95: one line 23 px long.
        let out = dashes_of(&[((72, 151), (78, 151)), ((82, 151), (88, 151)), ((92, 151), (95, 151))]);
        assert_eq!(out, "<path fill=\"none\" stroke=\"#222222\" stroke-width=\"2\" stroke-dasharray=\"6 4\" d=\"M72 151h23\"/>\n");
        // Upwards, as a vertical line from a low value to a high one.
        let out = dashes_of(&[((5, 100), (5, 98)), ((5, 94), (5, 92)), ((5, 88), (5, 86)), ((5, 82), (5, 80))]);
        assert!(out.contains("stroke-dasharray=\"2 4\" d=\"M5 100v-20\""), "{out}");
    }

    #[test]
    fn irregular_or_too_few_dashes_stay_strokes() {
        let out = dashes_of(&[((72, 151), (78, 151)), ((82, 151), (88, 151))]);
        assert_eq!(out, "<path fill=\"none\" stroke=\"#222222\" stroke-width=\"2\" d=\"M72 151h6M82 151h6\"/>\n");
        // A gap that changes, then a dash off the line: plain strokes after the first two.
        let out = dashes_of(&[((0, 0), (6, 0)), ((10, 0), (16, 0)), ((21, 0), (27, 0)), ((30, 1), (36, 1))]);
        assert!(!out.contains("dasharray"), "{out}");
        // Grid lines: each a stroke of its own, all as long as each other but too far apart to be dashes of one line.
        let out = dashes_of(&[((72, 10), (729, 10)), ((72, 20), (729, 20)), ((72, 30), (729, 30))]);
        assert_eq!(out, "<path fill=\"none\" stroke=\"#222222\" stroke-width=\"2\" d=\"M72 10h657M72 20h657M72 30h657\"/>\n");
    }

    #[test]
    fn a_filled_polygon_becomes_a_closed_path() {
        let svg = "<polygon opacity=\"0.3\" fill=\"#0072B2\" points=\"72,232 75,232 75,236 72,240 \"/>\n";
        assert_eq!(compact(svg), "<path opacity=\"0.3\" fill=\"#0072B2\" d=\"M72 232h3v4l-3 4z\"/>\n");
        let closed = "<polygon opacity=\"1\" fill=\"#D55E00\" points=\"5,0 10,5 5,10 0,5 5,0 \"/>\n";
        assert_eq!(compact(closed), "<path fill=\"#D55E00\" d=\"M5 0l5 5l-5 5l-5-5z\"/>\n");
    }

    #[test]
    fn text_with_a_newline_in_it_keeps_it() {
        let svg = "<text x=\"0\" y=\"0\" dy=\"0.76em\" text-anchor=\"start\" font-size=\"16\" opacity=\"1\" fill=\"#555555\">\nline one\nline two\n</text>\n";
        assert_eq!(
            compact(svg),
            "<text x=\"0\" y=\"0\" dy=\"0.76em\" text-anchor=\"start\" font-size=\"16\" fill=\"#555555\">line one\nline two</text>\n"
        );
    }
}
