//! Plots as SVG text, written by hand: line charts with error bars and stacked bar charts.
//! Two chart kinds of a few hundred lines need no plotting crate (and its build time); the
//! output is plain SVG 1.1 that browsers and the HTML report show as is.

use std::fmt::Write as _;

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 400.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 170.0;
const TOP: f64 = 36.0;
const BOTTOM: f64 = 80.0;

/// Colours of successive series (colour-blind friendly palette).
const COLOURS: [&str; 10] = [
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#f0e442", "#000000",
    "#999999", "#882255",
];

/// One line of a line chart: (x, y, error) points; error 0 draws no bar.
#[derive(Clone, Debug)]
pub struct Line {
    /// Legend text.
    pub name: String,
    /// Points in x order.
    pub points: Vec<(f64, f64, f64)>,
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

fn header(out: &mut String, title: &str) {
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = write!(
        out,
        r#"<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="white"/><text x="{}" y="20" text-anchor="middle" font-size="14">{}</text>"#,
        WIDTH / 2.0,
        escape(title)
    );
}

/// The axes with ticks; returns the mapping from data to pixels.
fn axes(
    out: &mut String,
    (x0, x1): (f64, f64),
    (y0, y1): (f64, f64),
    x_label: &str,
    y_label: &str,
    x_ticks: &[f64],
) -> impl Fn(f64, f64) -> (f64, f64) + use<> {
    let pw = WIDTH - LEFT - RIGHT;
    let ph = HEIGHT - TOP - BOTTOM;
    let xs = if x1 > x0 { x1 - x0 } else { 1.0 };
    let ys = if y1 > y0 { y1 - y0 } else { 1.0 };
    let map = move |x: f64, y: f64| (LEFT + (x - x0) / xs * pw, TOP + ph - (y - y0) / ys * ph);
    let _ = write!(
        out,
        r#"<rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}" fill="none" stroke="black"/>"#
    );
    let ystep = step(ys, 5.0);
    let mut y = (y0 / ystep).ceil() * ystep;
    while y <= y1 + ystep * 1e-6 {
        let (_, py) = map(x0, y);
        let _ = write!(
            out,
            r##"<line x1="{LEFT}" y1="{py:.1}" x2="{:.1}" y2="{py:.1}" stroke="#dddddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
            LEFT + pw,
            LEFT - 4.0,
            py + 4.0,
            trim(y)
        );
        y += ystep;
    }
    for &x in x_ticks {
        let (px, _) = map(x, y0);
        let _ = write!(
            out,
            r#"<line x1="{px:.1}" y1="{:.1}" x2="{px:.1}" y2="{:.1}" stroke="black"/><text x="{px:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            TOP + ph,
            TOP + ph + 4.0,
            TOP + ph + 18.0,
            trim(x)
        );
    }
    let _ = write!(
        out,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text><text transform="translate(16 {:.1}) rotate(-90)" text-anchor="middle">{}</text>"#,
        LEFT + pw / 2.0,
        HEIGHT - 12.0,
        escape(x_label),
        TOP + ph / 2.0,
        escape(y_label)
    );
    map
}

/// A number without trailing zeros.
fn trim(v: f64) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

fn legend(out: &mut String, names: &[&str], boxes: bool) {
    for (i, name) in names.iter().enumerate() {
        let y = TOP + 10.0 + 18.0 * i as f64;
        let x = WIDTH - RIGHT + 12.0;
        let c = COLOURS[i % COLOURS.len()];
        if boxes {
            let _ = write!(
                out,
                r#"<rect x="{x}" y="{:.1}" width="14" height="10" fill="{c}"/>"#,
                y - 9.0
            );
        } else {
            let _ = write!(
                out,
                r#"<line x1="{x}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{c}" stroke-width="2"/>"#,
                y - 4.0,
                x + 14.0,
                y - 4.0
            );
        }
        let _ = write!(
            out,
            r#"<text x="{:.1}" y="{y:.1}">{}</text>"#,
            x + 20.0,
            escape(name)
        );
    }
}

/// A line chart; `y_range` fixes the y axis (else it spans 0 to the largest value + error).
pub fn line_chart(
    title: &str,
    x_label: &str,
    y_label: &str,
    lines: &[Line],
    y_range: Option<(f64, f64)>,
) -> String {
    let mut out = String::new();
    header(&mut out, title);
    let pts = lines.iter().flat_map(|l| l.points.iter());
    let (mut x0, mut x1) = (f64::INFINITY, f64::NEG_INFINITY);
    let mut y1 = 0f64;
    let mut y0 = 0f64;
    let mut xs: Vec<f64> = Vec::new();
    for &(x, y, e) in pts {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y1 = y1.max(y + e);
        y0 = y0.min(y - e);
        if !xs.contains(&x) {
            xs.push(x);
        }
    }
    if !x0.is_finite() {
        (x0, x1) = (0.0, 1.0);
    }
    if x1 <= x0 {
        x1 = x0 + 1.0;
    }
    let (y0, y1) = y_range.unwrap_or((y0, if y1 > y0 { y1 * 1.05 } else { y0 + 1.0 }));
    xs.sort_by(f64::total_cmp);
    let map = axes(&mut out, (x0, x1), (y0, y1), x_label, y_label, &xs);
    for (i, l) in lines.iter().enumerate() {
        let c = COLOURS[i % COLOURS.len()];
        let path: Vec<String> = l
            .points
            .iter()
            .map(|&(x, y, _)| {
                let (px, py) = map(x, y);
                format!("{px:.1},{py:.1}")
            })
            .collect();
        let _ = write!(
            out,
            r#"<polyline points="{}" fill="none" stroke="{c}" stroke-width="2"/>"#,
            path.join(" ")
        );
        for &(x, y, e) in &l.points {
            let (px, py) = map(x, y);
            let _ = write!(
                out,
                r#"<circle cx="{px:.1}" cy="{py:.1}" r="3" fill="{c}"/>"#
            );
            if e > 0.0 {
                let (_, lo) = map(x, y - e);
                let (_, hi) = map(x, y + e);
                let _ = write!(
                    out,
                    r#"<path d="M{:.1},{lo:.1}H{:.1}M{px:.1},{lo:.1}V{hi:.1}M{:.1},{hi:.1}H{:.1}" stroke="{c}" fill="none"/>"#,
                    px - 4.0,
                    px + 4.0,
                    px - 4.0,
                    px + 4.0
                );
            }
        }
    }
    let names: Vec<&str> = lines.iter().map(|l| l.name.as_str()).collect();
    legend(&mut out, &names, false);
    out.push_str("</svg>\n");
    out
}

/// Stacked bars: one bar per (label, values), values stacked in `components` order (negative
/// values are drawn as 0).
pub fn stacked_bars(
    title: &str,
    y_label: &str,
    components: &[&str],
    bars: &[(String, Vec<f64>)],
) -> String {
    let mut out = String::new();
    header(&mut out, title);
    let top = bars
        .iter()
        .map(|(_, v)| v.iter().map(|x| x.max(0.0)).sum::<f64>())
        .fold(1.0f64, f64::max);
    let n = bars.len().max(1) as f64;
    let map = axes(&mut out, (0.0, n), (0.0, top), "", y_label, &[]);
    let slot = (WIDTH - LEFT - RIGHT) / n;
    for (i, (label, values)) in bars.iter().enumerate() {
        let mut acc = 0.0;
        let (px, _) = map(i as f64, 0.0);
        for (j, v) in values.iter().enumerate() {
            let v = v.max(0.0);
            let (_, y_lo) = map(0.0, acc);
            let (_, y_hi) = map(0.0, acc + v);
            let _ = write!(
                out,
                r#"<rect x="{:.1}" y="{y_hi:.1}" width="{:.1}" height="{:.1}" fill="{}"/>"#,
                px + slot * 0.15,
                slot * 0.7,
                (y_lo - y_hi).max(0.0),
                COLOURS[j % COLOURS.len()]
            );
            acc += v;
        }
        let (_, base) = map(0.0, 0.0);
        let _ = write!(
            out,
            r#"<text transform="translate({:.1} {:.1}) rotate(45)" font-size="8">{}</text>"#,
            px + slot * 0.3,
            base + 10.0,
            escape(label)
        );
    }
    legend(&mut out, components, true);
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charts_are_svg_with_every_series_named() {
        let lines = vec![
            Line {
                name: "a<b".into(),
                points: vec![(1.0, 1.0, 0.0), (2.0, 0.8, 0.1)],
            },
            Line {
                name: "c".into(),
                points: vec![(1.0, 1.0, 0.0)],
            },
        ];
        let svg = line_chart("t", "x", "y", &lines, Some((0.0, 1.0)));
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        // Tag balance is checked on the written files in tests/compare_cli.rs.
        assert!(svg.contains("a&lt;b") && svg.contains(">c<"));
        let bars = stacked_bars(
            "o",
            "share",
            &["e", "s"],
            &[
                ("x1".into(), vec![0.5, 0.5]),
                ("x2".into(), vec![0.9, -0.1]),
            ],
        );
        assert!(bars.contains("<rect") && bars.ends_with("</svg>\n"));
        assert!(line_chart("empty", "x", "y", &[], None).ends_with("</svg>\n"));
    }

    #[test]
    fn nice_steps() {
        assert_eq!(step(1.0, 5.0), 0.2);
        assert_eq!(step(100.0, 5.0), 20.0);
        assert_eq!(trim(0.500), "0.5");
        assert_eq!(trim(2.0), "2");
    }
}
