//! Plots as SVG text, written by hand: line charts with error bars and stacked bar charts.
//! Two chart kinds of a few hundred lines need no plotting crate (and its build time); the
//! output is plain SVG 1.1 that browsers and the HTML report show as is.

use std::fmt::Write as _;

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 400.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 170.0;
const TOP: f64 = 36.0;
const BOTTOM: f64 = 56.0;

/// Colours of successive series: the Okabe-Ito palette without its yellow, then four of Paul
/// Tol's; twelve colours a colour-blind reader can tell apart on white.
pub const COLOURS: [&str; 12] = [
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#882255",
    "#999933", "#44aa99", "#332288", "#888888",
];

/// Marker shapes; series 0-5 get them filled, 6-11 open, so that twelve series differ in
/// shape as well as colour (in print and for colour-blind readers).
const SHAPES: usize = 6;

/// One point of a line: `y` with an error bar from `lo` to `hi` (none when both equal `y`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// x.
    pub x: f64,
    /// y.
    pub y: f64,
    /// Bottom of the error bar.
    pub lo: f64,
    /// Top of the error bar.
    pub hi: f64,
}

impl Point {
    /// A point without an error bar.
    #[must_use]
    pub fn bare(x: f64, y: f64) -> Point {
        Point { x, y, lo: y, hi: y }
    }
}

/// One line of a line chart.
#[derive(Clone, Debug)]
pub struct Line {
    /// Legend text.
    pub name: String,
    /// Points in x order.
    pub points: Vec<Point>,
}

/// How an axis maps values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// Linear.
    Linear,
    /// Logarithmic with ticks at powers of 2 (processor counts).
    Log2,
    /// Logarithmic with ticks at 1, 2 and 5 times powers of 10 (ratios spanning decades).
    Log10,
}

impl Scale {
    fn map(self, v: f64) -> f64 {
        match self {
            Scale::Linear => v,
            Scale::Log2 => v.log2(),
            Scale::Log10 => v.log10(),
        }
    }
}

/// A line chart's settings beside its lines.
#[derive(Clone, Debug)]
pub struct Chart<'a> {
    /// Title above the plot.
    pub title: &'a str,
    /// x-axis label.
    pub x_label: &'a str,
    /// y-axis label.
    pub y_label: &'a str,
    /// x scale (a logarithmic scale falls back to linear for values <= 0).
    pub x_scale: Scale,
    /// y scale (likewise).
    pub y_scale: Scale,
    /// A fixed y range, else from the data (from 0 on a linear scale).
    pub y_range: Option<(f64, f64)>,
    /// A dashed reference line (such as the ideal speedup), with its legend text.
    pub reference: Option<Line>,
    /// Published points, drawn as black stars without a line, each set with its legend text.
    pub published: Vec<Line>,
    /// Published curves beside the lines: the `i`-th is drawn dashed in the colour of the
    /// `i`-th line (the same series as the paper drew it); one without points is left out.
    pub dashed: Vec<Line>,
}

impl<'a> Chart<'a> {
    /// A linear chart with no reference line and no published points.
    #[must_use]
    pub fn new(title: &'a str, x_label: &'a str, y_label: &'a str) -> Chart<'a> {
        Chart {
            title,
            x_label,
            y_label,
            x_scale: Scale::Linear,
            y_scale: Scale::Linear,
            y_range: None,
            reference: None,
            published: Vec::new(),
            dashed: Vec::new(),
        }
    }
}

/// Whether the positive values of `lines` span at least a factor 10 (a case for a
/// logarithmic axis); false when any value is not positive.
#[must_use]
pub fn spans_decades(lines: &[Line]) -> bool {
    let ys: Vec<f64> = lines
        .iter()
        .flat_map(|l| l.points.iter().flat_map(|p| [p.y, p.lo, p.hi]))
        .collect();
    let (lo, hi) = ys
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &y| {
            (a.min(y), b.max(y))
        });
    !ys.is_empty() && lo > 0.0 && hi / lo >= 10.0
}

/// Escapes text for XML.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A "nice" step for about `count` ticks over `span`.
fn step(span: f64, count: f64) -> f64 {
    if span <= 0.0 || !span.is_finite() {
        return 1.0;
    }
    let raw = span / count;
    let mag = 10f64.powf(raw.log10().floor());
    let norm = raw / mag;
    let nice = if norm < 1.5 {
        1.0
    } else if norm < 3.0 {
        2.0
    } else if norm < 7.0 {
        5.0
    } else {
        10.0
    };
    nice * mag
}

/// Tick values of an axis over `lo..=hi` (data units).
fn ticks(scale: Scale, lo: f64, hi: f64) -> Vec<f64> {
    match scale {
        Scale::Linear => {
            let st = step(hi - lo, 5.0);
            let mut v = (lo / st).ceil() * st;
            let mut out = Vec::new();
            while v <= hi + st * 1e-6 && out.len() < 50 {
                out.push(if v.abs() < st * 1e-9 { 0.0 } else { v });
                v += st;
            }
            out
        }
        Scale::Log2 => {
            let (a, b) = (lo.log2().floor() as i32, hi.log2().ceil() as i32);
            (a..=b)
                .map(|e| 2f64.powi(e))
                .filter(|&v| v >= lo * (1.0 - 1e-9) && v <= hi * (1.0 + 1e-9))
                .collect()
        }
        Scale::Log10 => {
            let (a, b) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
            let each: &[f64] = if b - a > 3 { &[1.0] } else { &[1.0, 2.0, 5.0] };
            (a..=b)
                .flat_map(|e| each.iter().map(move |m| m * 10f64.powi(e)))
                .filter(|&v| v >= lo * (1.0 - 1e-9) && v <= hi * (1.0 + 1e-9))
                .collect()
        }
    }
}

fn header(out: &mut String, title: &str, width: f64, height: f64) {
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = write!(
        out,
        r#"<rect x="0" y="0" width="{width}" height="{height}" fill="white"/><text x="{}" y="20" text-anchor="middle" font-size="14">{}</text>"#,
        width / 2.0,
        escape(title)
    );
}

/// The width of a chart whose legend holds `names`: the legend column widens beyond
/// [`RIGHT`] for names longer than it holds (about 7 px a character at 12 px), the plot
/// keeps its size.
fn width_for<'a>(names: impl Iterator<Item = &'a str>) -> f64 {
    let longest = names.map(|n| n.chars().count()).max().unwrap_or(0) as f64;
    WIDTH - RIGHT + RIGHT.max(38.0 + 7.0 * longest)
}

/// A number without trailing zeros.
fn trim(v: f64) -> String {
    let s = if v != 0.0 && v.abs() < 0.01 {
        format!("{v:.1e}")
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    if s == "-0" { "0".into() } else { s }
}

/// Draws marker `i` (shape `i % 6`, open from 6 on) at (`x`, `y`).
fn marker(out: &mut String, i: usize, x: f64, y: f64, colour: &str) {
    let fill = if (i / SHAPES) % 2 == 0 {
        colour
    } else {
        "white"
    };
    let style = format!(r#"fill="{fill}" stroke="{colour}" stroke-width="1.5""#);
    let r = 4.0;
    let poly = |pts: &[(f64, f64)]| {
        pts.iter()
            .map(|(dx, dy)| format!("{:.1},{:.1}", x + dx * r, y + dy * r))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let _ = match i % SHAPES {
        0 => write!(out, r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r}" {style}/>"#),
        1 => write!(
            out,
            r#"<rect x="{:.1}" y="{:.1}" width="{}" height="{}" {style}/>"#,
            x - r,
            y - r,
            2.0 * r,
            2.0 * r
        ),
        2 => write!(
            out,
            r#"<polygon points="{}" {style}/>"#,
            poly(&[(0.0, -1.2), (1.1, 0.9), (-1.1, 0.9)])
        ),
        3 => write!(
            out,
            r#"<polygon points="{}" {style}/>"#,
            poly(&[(0.0, -1.3), (1.3, 0.0), (0.0, 1.3), (-1.3, 0.0)])
        ),
        4 => write!(
            out,
            r#"<polygon points="{}" {style}/>"#,
            poly(&[(0.0, 1.2), (1.1, -0.9), (-1.1, -0.9)])
        ),
        _ => write!(
            out,
            r#"<polygon points="{}" {style}/>"#,
            poly(&[
                (0.0, -1.2),
                (1.15, -0.37),
                (0.7, 0.97),
                (-0.7, 0.97),
                (-1.15, -0.37)
            ])
        ),
    };
}

/// A five-pointed star (published points).
fn star(out: &mut String, x: f64, y: f64) {
    let pts: Vec<String> = (0..10)
        .map(|k| {
            let a = std::f64::consts::PI * f64::from(k) / 5.0 - std::f64::consts::FRAC_PI_2;
            let r = if k % 2 == 0 { 7.0 } else { 3.0 };
            format!("{:.1},{:.1}", x + r * a.cos(), y + r * a.sin())
        })
        .collect();
    let _ = write!(
        out,
        r#"<polygon class="published" points="{}" fill="white" stroke="black" stroke-width="1.2"/>"#,
        pts.join(" ")
    );
}

/// The data range of one axis: (lo, hi) of `values` on `scale` (logarithmic scales need
/// positive values, else the axis is linear).
fn range(values: &[f64], scale: Scale, from_zero: bool) -> (f64, f64, Scale) {
    let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    let scale = if scale != Scale::Linear && finite.iter().any(|&v| v <= 0.0) {
        Scale::Linear
    } else {
        scale
    };
    let (mut lo, mut hi) = finite
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    if !lo.is_finite() {
        return (0.0, 1.0, Scale::Linear);
    }
    match scale {
        Scale::Linear => {
            if from_zero {
                lo = lo.min(0.0);
                hi = hi.max(0.0);
            }
            if hi <= lo {
                hi = lo + 1.0;
            } else if from_zero {
                hi += (hi - lo) * 0.05;
            }
        }
        Scale::Log2 => {
            // Whole powers at both ends, so that the axis shows ticks.
            lo = 2f64.powf((lo.log2() + 1e-9).floor());
            hi = 2f64.powf((hi.log2() - 1e-9).ceil()).max(lo * 2.0);
        }
        Scale::Log10 => {
            // Down and up to 1, 2 or 5 times a power of 10, so that both ends have a tick.
            let steps = |v: f64| {
                let e = v.log10().floor() as i32;
                [1.0, 2.0, 5.0, 10.0].map(|m| m * 10f64.powi(e))
            };
            lo = steps(lo)
                .into_iter()
                .rev()
                .find(|&t| t <= lo * (1.0 + 1e-9))
                .unwrap_or(lo);
            hi = steps(hi)
                .into_iter()
                .find(|&t| t >= hi * (1.0 - 1e-9))
                .unwrap_or(hi);
            if hi <= lo {
                hi = lo * 2.0;
            }
        }
    }
    (lo, hi, scale)
}

/// A line chart: every line in its colour and marker, error bars, an optional dashed
/// reference line and published points.
#[must_use]
pub fn chart(c: &Chart<'_>, lines: &[Line]) -> String {
    let mut out = String::new();
    let width = width_for(
        lines
            .iter()
            .chain(&c.dashed)
            .chain(&c.reference)
            .chain(&c.published)
            .map(|l| l.name.as_str()),
    );
    // The plot keeps its size; a legend longer than the plot lengthens the chart below it.
    let rows = lines.len()
        + c.dashed.iter().filter(|l| !l.points.is_empty()).count()
        + usize::from(c.reference.is_some())
        + c.published.len();
    let height = HEIGHT.max(TOP + 18.0 * rows as f64 + 8.0);
    header(&mut out, c.title, width, height);
    let all: Vec<&Point> = lines
        .iter()
        .chain(&c.published)
        .chain(&c.dashed)
        .flat_map(|l| l.points.iter())
        .collect();
    let xs: Vec<f64> = all.iter().map(|p| p.x).collect();
    let ys: Vec<f64> = all.iter().flat_map(|p| [p.y, p.lo, p.hi]).collect();
    let (x0, x1, xscale) = range(&xs, c.x_scale, false);
    let (x0, x1) = if xscale == Scale::Linear {
        // A little room at both ends keeps the end points off the frame.
        let pad = (x1 - x0) * 0.03;
        (x0 - pad, x1 + pad)
    } else {
        // Processor counts: the axis starts and ends at the data.
        let (lo, hi) = xs
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
                (a.min(v), b.max(v))
            });
        // A quarter of a doubling beyond each end keeps the end points and their error bars
        // off the frame.
        let hi = if hi > lo { hi } else { lo * 2.0 };
        (lo / 2f64.powf(0.25), hi * 2f64.powf(0.25))
    };
    let (y0, y1, yscale) = match c.y_range {
        Some((a, b)) => (a, b, c.y_scale),
        None => range(&ys, c.y_scale, true),
    };
    let pw = WIDTH - LEFT - RIGHT;
    let ph = HEIGHT - TOP - BOTTOM;
    let (tx0, tx1) = (xscale.map(x0), xscale.map(x1));
    let (ty0, ty1) = (yscale.map(y0), yscale.map(y1));
    let xs_span = if tx1 > tx0 { tx1 - tx0 } else { 1.0 };
    let ys_span = if ty1 > ty0 { ty1 - ty0 } else { 1.0 };
    let map = |x: f64, y: f64| {
        (
            LEFT + (xscale.map(x) - tx0) / xs_span * pw,
            TOP + ph - (yscale.map(y) - ty0) / ys_span * ph,
        )
    };
    let _ = write!(
        out,
        r#"<rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}" fill="none" stroke="black"/>"#
    );
    for y in ticks(yscale, y0, y1) {
        let (_, py) = map(x0, y);
        let _ = write!(
            out,
            r##"<line x1="{LEFT}" y1="{py:.1}" x2="{:.1}" y2="{py:.1}" stroke="#dddddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
            LEFT + pw,
            LEFT - 4.0,
            py + 4.0,
            trim(y)
        );
    }
    let mut xticks: Vec<f64> = if xscale == Scale::Linear {
        let mut v = xs.clone();
        v.sort_by(f64::total_cmp);
        v.dedup();
        if v.len() > 12 {
            ticks(xscale, x0, x1)
        } else {
            v
        }
    } else {
        ticks(xscale, x0, x1)
    };
    // Data x values that are no tick (12 or 20 processors) get one as well.
    if xscale != Scale::Linear {
        for &x in &xs {
            if !xticks.iter().any(|t| (t - x).abs() < 1e-9) {
                xticks.push(x);
            }
        }
    }
    xticks.sort_by(f64::total_cmp);
    for &x in &xticks {
        let (px, _) = map(x, y0);
        let _ = write!(
            out,
            r#"<line x1="{px:.1}" y1="{:.1}" x2="{px:.1}" y2="{:.1}" stroke="black"/>"#,
            TOP + ph,
            TOP + ph + 4.0,
        );
    }
    // A label only where it does not run into another (its width estimated from its length at
    // the font's 12 px); the data's own x values are labelled first.
    let mut placed: Vec<(f64, f64)> = Vec::new();
    let is_data = |x: f64| xs.iter().any(|d| (d - x).abs() < 1e-9);
    let order = xticks
        .iter()
        .filter(|&&x| is_data(x))
        .chain(xticks.iter().filter(|&&x| !is_data(x)));
    for &x in order {
        let (px, _) = map(x, y0);
        let text = trim(x);
        let half = 3.5 * text.chars().count() as f64 + 3.0;
        let (a, b) = (px - half, px + half);
        if placed.iter().all(|&(l, r)| b <= l || a >= r) {
            let _ = write!(
                out,
                r#"<text x="{px:.1}" y="{:.1}" text-anchor="middle">{text}</text>"#,
                TOP + ph + 18.0,
            );
            placed.push((a, b));
        }
    }
    let x_note = match xscale {
        Scale::Linear => String::new(),
        Scale::Log2 => " (log2 scale)".into(),
        Scale::Log10 => " (log scale)".into(),
    };
    let y_note = if yscale == Scale::Linear {
        ""
    } else {
        " (log scale)"
    };
    let _ = write!(
        out,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}{}</text><text transform="translate(16 {:.1}) rotate(-90)" text-anchor="middle">{}{}</text>"#,
        LEFT + pw / 2.0,
        HEIGHT - 14.0,
        escape(c.x_label),
        x_note,
        TOP + ph / 2.0,
        escape(c.y_label),
        y_note
    );
    // Points outside a fixed y range are not drawn.
    let inside = |p: &Point| p.y >= y0 - 1e-12 && p.y <= y1 + 1e-12;
    let _ = write!(
        out,
        r#"<clipPath id="plot"><rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}"/></clipPath><g clip-path="url(#plot)">"#
    );
    if let Some(r) = &c.reference {
        let path: Vec<String> = r
            .points
            .iter()
            .map(|p| {
                let (px, py) = map(p.x, p.y);
                format!("{px:.1},{py:.1}")
            })
            .collect();
        let _ = write!(
            out,
            r##"<polyline class="reference" points="{}" fill="none" stroke="#555555" stroke-width="1.5" stroke-dasharray="6 4"/>"##,
            path.join(" ")
        );
    }
    // The drawn points of a line (inside the y range) as polyline coordinates.
    let path_of = |l: &Line| -> Vec<String> {
        l.points
            .iter()
            .filter(|p| inside(p))
            .map(|p| {
                let (px, py) = map(p.x, p.y);
                format!("{px:.1},{py:.1}")
            })
            .collect()
    };
    for (i, l) in c.dashed.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let mut path = path_of(l);
        // A curve of one point (one processor count) is a short level dash through it.
        if let [only] = l.points.as_slice() {
            if path.len() == 1 {
                let (px, py) = map(only.x, only.y);
                path = vec![
                    format!("{:.1},{py:.1}", px - 14.0),
                    format!("{:.1},{py:.1}", px + 14.0),
                ];
            }
        }
        if !path.is_empty() {
            let _ = write!(
                out,
                r#"<polyline class="published-curve" points="{}" fill="none" stroke="{colour}" stroke-width="1.5" stroke-dasharray="6 4"/>"#,
                path.join(" ")
            );
        }
    }
    for (i, l) in lines.iter().enumerate() {
        let c = COLOURS[i % COLOURS.len()];
        let path = path_of(l);
        let _ = write!(
            out,
            r#"<polyline points="{}" fill="none" stroke="{c}" stroke-width="2"/>"#,
            path.join(" ")
        );
        for p in l.points.iter().filter(|p| inside(p)) {
            let (px, py) = map(p.x, p.y);
            if p.hi > p.lo {
                let (_, lo) = map(p.x, p.lo);
                let (_, hi) = map(p.x, p.hi);
                let _ = write!(
                    out,
                    r#"<path class="error" d="M{:.1},{lo:.1}H{:.1}M{px:.1},{lo:.1}V{hi:.1}M{:.1},{hi:.1}H{:.1}" stroke="{c}" fill="none"/>"#,
                    px - 4.0,
                    px + 4.0,
                    px - 4.0,
                    px + 4.0
                );
            }
            marker(&mut out, i, px, py, c);
        }
    }
    for l in &c.published {
        for p in l.points.iter().filter(|p| inside(p)) {
            let (px, py) = map(p.x, p.y);
            star(&mut out, px, py);
        }
    }
    out.push_str("</g>");
    // The legend: series, then the reference line and the published points.
    let mut row = 0.0;
    let x = WIDTH - RIGHT + 12.0;
    for (i, l) in lines.iter().enumerate() {
        let y = TOP + 10.0 + 18.0 * row;
        let c = COLOURS[i % COLOURS.len()];
        let _ = write!(
            out,
            r#"<line x1="{x}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{c}" stroke-width="2"/>"#,
            y - 4.0,
            x + 20.0,
            y - 4.0
        );
        marker(&mut out, i, x + 10.0, y - 4.0, c);
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{y:.1}">{}</text>"#,
            x + 26.0,
            escape(&l.name)
        );
        row += 1.0;
    }
    for (i, l) in c.dashed.iter().enumerate() {
        if l.points.is_empty() {
            continue;
        }
        let y = TOP + 10.0 + 18.0 * row;
        let colour = COLOURS[i % COLOURS.len()];
        let _ = write!(
            out,
            r#"<line x1="{x}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}" stroke-width="1.5" stroke-dasharray="6 4"/><text x="{:.1}" y="{y:.1}">{}</text>"#,
            y - 4.0,
            x + 20.0,
            y - 4.0,
            x + 26.0,
            escape(&l.name)
        );
        row += 1.0;
    }
    if let Some(r) = &c.reference {
        let y = TOP + 10.0 + 18.0 * row;
        let _ = write!(
            out,
            r##"<line x1="{x}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#555555" stroke-width="1.5" stroke-dasharray="6 4"/><text x="{:.1}" y="{y:.1}">{}</text>"##,
            y - 4.0,
            x + 20.0,
            y - 4.0,
            x + 26.0,
            escape(&r.name)
        );
        row += 1.0;
    }
    for l in &c.published {
        let y = TOP + 10.0 + 18.0 * row;
        star(&mut out, x + 10.0, y - 4.0);
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{y:.1}">{}</text>"#,
            x + 26.0,
            escape(&l.name)
        );
        row += 1.0;
    }
    out.push_str("</svg>\n");
    out
}

/// The height of one bar of [`stacked_bars`] and the width of its label column.
const BAR: f64 = 18.0;
const LABEL: f64 = 120.0;

/// Horizontal stacked bars, one per (label, values) with its label on the left: the values
/// stack in `components` order, positive ones rightwards from 0 and negative ones leftwards,
/// so a negative component shows as such. The axis spans every bar.
#[must_use]
pub fn stacked_bars(
    title: &str,
    x_label: &str,
    components: &[&str],
    bars: &[(String, Vec<f64>)],
) -> String {
    let mut out = String::new();
    let n = bars.len().max(1) as f64;
    let legend_rows = components.len() as f64;
    let height = (TOP + n * BAR + BOTTOM).max(TOP + legend_rows * 18.0 + BOTTOM);
    header(&mut out, title, WIDTH, height);
    let pos = |v: &[f64]| v.iter().map(|x| x.max(0.0)).sum::<f64>();
    let neg = |v: &[f64]| v.iter().map(|x| x.min(0.0)).sum::<f64>();
    let hi = bars.iter().map(|(_, v)| pos(v)).fold(1.0f64, f64::max);
    let lo = bars.iter().map(|(_, v)| neg(v)).fold(0.0f64, f64::min);
    let left = LABEL + 8.0;
    let pw = WIDTH - left - RIGHT;
    let ph = n * BAR;
    let span = hi - lo;
    let map = |v: f64| left + (v - lo) / span * pw;
    let _ = write!(
        out,
        r#"<rect x="{left}" y="{TOP}" width="{pw}" height="{ph}" fill="none" stroke="black"/>"#
    );
    for t in ticks(Scale::Linear, lo, hi) {
        let px = map(t);
        let _ = write!(
            out,
            r##"<line x1="{px:.1}" y1="{TOP}" x2="{px:.1}" y2="{:.1}" stroke="#dddddd"/><text x="{px:.1}" y="{:.1}" text-anchor="middle">{}</text>"##,
            TOP + ph,
            TOP + ph + 16.0,
            trim(t)
        );
    }
    for (i, (label, values)) in bars.iter().enumerate() {
        let y = TOP + BAR * i as f64;
        let (mut right, mut leftwards) = (0.0, 0.0);
        for (j, &v) in values.iter().enumerate() {
            let (a, b) = if v >= 0.0 {
                right += v;
                (right - v, right)
            } else {
                leftwards += v;
                (leftwards, leftwards - v)
            };
            let _ = write!(
                out,
                r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{}"><title>{}: {}</title></rect>"#,
                map(a),
                y + 3.0,
                (map(b) - map(a)).max(0.0),
                BAR - 6.0,
                COLOURS[j % COLOURS.len()],
                escape(components.get(j).copied().unwrap_or("")),
                trim(v)
            );
        }
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end" font-size="11">{}</text>"#,
            left - 6.0,
            y + BAR / 2.0 + 4.0,
            escape(label)
        );
    }
    let zero = map(0.0);
    let _ = write!(
        out,
        r#"<line x1="{zero:.1}" y1="{TOP}" x2="{zero:.1}" y2="{:.1}" stroke="black"/><text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
        TOP + ph,
        left + pw / 2.0,
        TOP + ph + 34.0,
        escape(x_label)
    );
    for (j, name) in components.iter().enumerate() {
        let y = TOP + 10.0 + 18.0 * j as f64;
        let x = WIDTH - RIGHT + 12.0;
        let _ = write!(
            out,
            r#"<rect x="{x}" y="{:.1}" width="14" height="10" fill="{}"/><text x="{:.1}" y="{y:.1}">{}</text>"#,
            y - 9.0,
            COLOURS[j % COLOURS.len()],
            x + 20.0,
            escape(name)
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(name: &str, points: &[(f64, f64)]) -> Line {
        Line {
            name: name.into(),
            points: points.iter().map(|&(x, y)| Point::bare(x, y)).collect(),
        }
    }

    /// The numbers of attribute `name` in every element `tag` of `svg`.
    fn attrs(svg: &str, tag: &str, name: &str) -> Vec<f64> {
        svg.split(&format!("<{tag} "))
            .skip(1)
            .filter_map(|el| {
                let el = &el[..el.find('>').unwrap_or(el.len())];
                let at = el
                    .find(&format!(" {name}=\""))
                    .or_else(|| el.starts_with(&format!("{name}=\"")).then_some(0))?;
                let rest = &el[at..];
                let rest = &rest[rest.find('"')? + 1..];
                rest[..rest.find('"')?].parse().ok()
            })
            .collect()
    }

    #[test]
    fn charts_are_svg_with_every_series_named() {
        let lines = vec![
            Line {
                name: "a<b".into(),
                points: vec![
                    Point::bare(1.0, 1.0),
                    Point {
                        x: 2.0,
                        y: 0.8,
                        lo: 0.7,
                        hi: 0.9,
                    },
                ],
            },
            line("c", &[(1.0, 1.0)]),
        ];
        let mut c = Chart::new("t", "x", "y");
        c.y_range = Some((0.0, 1.0));
        let svg = chart(&c, &lines);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        // Tag balance is checked on the written files in tests/it/compare_cli.rs.
        assert!(svg.contains("a&lt;b") && svg.contains(">c<"));
        assert_eq!(svg.matches("class=\"error\"").count(), 1);
        assert!(chart(&Chart::new("empty", "x", "y"), &[]).ends_with("</svg>\n"));
    }

    #[test]
    fn twelve_series_differ_in_colour_and_marker() {
        let lines: Vec<Line> = (0..12)
            .map(|i| line(&format!("s{i}"), &[(1.0, f64::from(i)), (2.0, 1.0)]))
            .collect();
        let svg = chart(&Chart::new("t", "x", "y"), &lines);
        let mut seen = std::collections::BTreeSet::new();
        for (i, colour) in COLOURS.iter().enumerate() {
            let mut m = String::new();
            marker(&mut m, i, 0.0, 0.0, "C");
            // Shape and fill without the colour: twelve different ones.
            assert!(seen.insert(m), "marker {i} repeats");
            // Two points and the legend: filled markers for 0-5, open ones for 6-11.
            let fill = if i < 6 { *colour } else { "white" };
            let drawn = format!(r#"fill="{fill}" stroke="{colour}" stroke-width="1.5""#);
            assert_eq!(svg.matches(&drawn).count(), 3, "series {i}");
        }
        let distinct: std::collections::BTreeSet<&str> = COLOURS.iter().copied().collect();
        assert_eq!(distinct.len(), 12);
    }

    #[test]
    fn a_log2_processor_axis_spaces_powers_of_two_evenly() {
        let lines = vec![line(
            "a",
            &[(1.0, 1.0), (2.0, 2.0), (4.0, 3.0), (8.0, 4.0), (16.0, 5.0)],
        )];
        let mut c = Chart::new("t", "processors", "speedup");
        c.x_scale = Scale::Log2;
        c.reference = Some(line("ideal", &[(1.0, 1.0), (16.0, 16.0)]));
        let svg = chart(&c, &lines);
        // The five points (the legend's circle comes after them).
        let xs = &attrs(&svg, "circle", "cx")[..5];
        let gaps: Vec<f64> = xs.windows(2).map(|w| w[1] - w[0]).collect();
        assert_eq!(gaps.len(), 4);
        for g in &gaps {
            assert!((g - gaps[0]).abs() < 0.2, "{gaps:?}");
        }
        assert!(svg.contains("class=\"reference\"") && svg.contains(">ideal<"));
        assert!(svg.contains("processors (log2 scale)"));
    }

    #[test]
    fn published_curves_are_dashed_in_their_series_colour() {
        let ours = vec![
            line("a", &[(1.0, 1.0), (2.0, 0.9)]),
            line("b", &[(1.0, 1.0), (2.0, 0.8)]),
        ];
        let mut c = Chart::new("t", "processors", "efficiency");
        c.dashed = vec![
            line("A (published)", &[(1.0, 1.0), (2.0, 0.7), (4.0, 0.5)]),
            line("B (published)", &[]),
        ];
        let svg = chart(&c, &ours);
        let curve = svg
            .split("<polyline ")
            .filter(|p| p.contains("class=\"published-curve\""))
            .collect::<Vec<_>>();
        // One curve: the second has no points.
        assert_eq!(curve.len(), 1, "{svg}");
        assert!(curve[0].contains(&format!("stroke=\"{}\"", COLOURS[0])));
        assert!(curve[0].contains("stroke-dasharray"));
        // Its legend entry is dashed in the same colour; the empty one has none.
        assert!(svg.contains(">A (published)<") && !svg.contains(">B (published)<"));
        // The axis reaches the published 4 processors.
        assert!(svg.contains(">4<"));
        // Short names keep the width; a long one widens the legend column to hold it.
        assert!(svg.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" width="640""#));
        c.dashed[1] = line("sort time of MWF EC-sorting (paper)", &[(1.0, 1.0)]);
        let wide = chart(&c, &ours);
        let width: f64 = wide
            .split("width=\"")
            .nth(1)
            .and_then(|w| w.split('"').next())
            .and_then(|w| w.parse().ok())
            .expect("a width");
        assert!(width >= WIDTH - RIGHT + 12.0 + 26.0 + 6.0 * 35.0, "{width}");
    }

    #[test]
    fn ratios_spanning_decades_get_a_log_axis_and_published_points_show() {
        let wide = vec![line("a", &[(1.0, 1.0), (16.0, 40.0)])];
        let narrow = vec![line("a", &[(1.0, 1.0), (16.0, 1.5)])];
        assert!(spans_decades(&wide) && !spans_decades(&narrow));
        assert!(!spans_decades(&[line("a", &[(1.0, 0.0), (2.0, 40.0)])]));
        let mut c = Chart::new("t", "x", "nodes");
        c.y_scale = Scale::Log10;
        c.published = vec![line("thesis", &[(8.0, 5.74), (16.0, 11.27)])];
        let svg = chart(&c, &wide);
        assert!(svg.contains("nodes (log scale)"));
        assert_eq!(
            svg.matches("class=\"published\"").count(),
            3,
            "two points and the legend"
        );
        assert!(svg.contains(">thesis<"));
        // The log axis runs from 1 to 50 with ticks at 1, 2 and 5 times powers of 10.
        for t in [">1<", ">2<", ">5<", ">10<", ">20<", ">50<"] {
            assert!(svg.contains(t), "{t}");
        }
    }

    #[test]
    fn long_x_labels_on_a_log_axis_do_not_overlap_and_the_data_values_win() {
        let swept = vec![line("a", &[(2e3, 9.0), (2e4, 8.0), (2e5, 7.0), (2e6, 3.0)])];
        let mut c = Chart::new("t", "cost", "speedup");
        c.x_scale = Scale::Log10;
        let svg = chart(&c, &swept);
        for t in [">2000<", ">20000<", ">200000<", ">2000000<"] {
            assert!(svg.contains(t), "{t} missing");
        }
        // Every x label's estimated extent (3.5 px a character) is clear of the next one's.
        let mut spans: Vec<(f64, f64)> = svg
            .split("<text x=\"")
            .skip(1)
            .filter_map(|t| {
                let (x, rest) = t.split_once('"')?;
                let label = rest.split('>').nth(1)?.split('<').next()?;
                let is_x = rest.contains("text-anchor=\"middle\"")
                    && label.chars().all(|c| c.is_ascii_digit());
                let x: f64 = x.parse().ok()?;
                let half = 3.5 * label.len() as f64;
                is_x.then_some((x - half, x + half))
            })
            .collect();
        spans.sort_by(|a, b| a.0.total_cmp(&b.0));
        assert!(spans.len() >= 4);
        for w in spans.windows(2) {
            assert!(w[0].1 <= w[1].0, "overlapping x labels: {spans:?}");
        }
    }

    #[test]
    fn a_long_legend_lengthens_the_chart_and_stays_inside_it() {
        let lines: Vec<Line> = (0..15)
            .map(|i| line(&format!("series {i}"), &[(16.0, f64::from(i))]))
            .collect();
        let mut c = Chart::new("t", "processors", "speedup");
        c.dashed = (0..15)
            .map(|i| line(&format!("paper {i}"), &[(16.0, f64::from(i))]))
            .collect();
        let svg = chart(&c, &lines);
        let height = attrs(&svg, "svg", "height")[0];
        assert!(height > HEIGHT, "30 legend rows need more than {HEIGHT}");
        let ys = attrs(&svg, "text", "y");
        assert!(ys.len() >= 30);
        for y in ys {
            assert!(y <= height - 4.0, "text at {y} outside {height}");
        }
        // A curve of the paper's at one processor count is drawn: a level dash through it.
        let dash = svg
            .split("<polyline class=\"published-curve\" points=\"")
            .nth(1)
            .and_then(|t| t.split('"').next())
            .expect("a dashed curve");
        let ends: Vec<(f64, f64)> = dash
            .split(' ')
            .filter_map(|p| {
                let (x, y) = p.split_once(',')?;
                Some((x.parse().ok()?, y.parse().ok()?))
            })
            .collect();
        assert_eq!(ends.len(), 2, "{dash}");
        assert!(
            ends[1].0 - ends[0].0 > 10.0 && ends[0].1 == ends[1].1,
            "{dash}"
        );
        // A short legend keeps the standard height.
        let svg = chart(&Chart::new("t", "x", "y"), &lines[..3]);
        assert_eq!(attrs(&svg, "svg", "height")[0], HEIGHT);
    }

    #[test]
    fn stacked_bars_stay_inside_the_frame_with_separate_labels() {
        let bars: Vec<(String, Vec<f64>)> = (0..25)
            .map(|i| {
                (
                    format!("series{} x{}", i % 5, 1 << (i / 5)),
                    vec![0.6, 0.3, 0.2, 0.05, -0.15],
                )
            })
            .collect();
        let svg = stacked_bars("o", "share", &["e", "s", "i", "p", "o"], &bars);
        let height = attrs(&svg, "svg", "height")[0];
        let xs = attrs(&svg, "rect", "x");
        let ws = attrs(&svg, "rect", "width");
        let ys = attrs(&svg, "rect", "y");
        let hs = attrs(&svg, "rect", "height");
        for (((x, w), y), h) in xs.iter().zip(&ws).zip(&ys).zip(&hs) {
            assert!(*x >= 0.0 && x + w <= WIDTH + 1e-9, "x {x} w {w}");
            assert!(*y >= 0.0 && y + h <= height + 1e-9, "y {y} h {h}");
        }
        // The labels, one per bar, at least a line apart.
        let mut label_ys: Vec<f64> = svg
            .split("<text ")
            .filter(|t| t.contains("text-anchor=\"end\""))
            .filter_map(|t| {
                let t = &t[t.find(" y=\"")? + 4..];
                t[..t.find('"')?].parse().ok()
            })
            .collect();
        label_ys.sort_by(f64::total_cmp);
        assert_eq!(label_ys.len(), 25);
        assert!(label_ys.windows(2).all(|w| w[1] - w[0] >= 11.0));
        // The negative component ends where the first one starts: left of zero.
        let fill = |c: &str| {
            let rects: Vec<&str> = svg
                .split("<rect ")
                .filter(|r| r.contains(&format!("fill=\"{c}\"><title>")))
                .collect();
            let x = attrs(&format!("<rect {}", rects[0]), "rect", "x")[0];
            let w = attrs(&format!("<rect {}", rects[0]), "rect", "width")[0];
            (x, w)
        };
        let (zero, _) = fill(COLOURS[0]);
        let (x, w) = fill(COLOURS[4]);
        assert!(w > 0.0 && (x + w - zero).abs() < 0.2, "{x} + {w} vs {zero}");
    }

    #[test]
    fn nice_steps() {
        assert_eq!(step(1.0, 5.0), 0.2);
        assert_eq!(step(100.0, 5.0), 20.0);
        assert_eq!(trim(0.500), "0.5");
        assert_eq!(trim(2.0), "2");
        assert_eq!(
            ticks(Scale::Log2, 1.0, 16.0),
            vec![1.0, 2.0, 4.0, 8.0, 16.0]
        );
    }
}
