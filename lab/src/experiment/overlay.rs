//! The overlay plots: per published item, `<item-slug>.svg` with our curve of every compared
//! series solid and the paper's curve of the same series dashed in the same colour, x the
//! processors. An item of several quantities (a thesis table: speedup and overheads) gets one
//! plot per quantity, `<item-slug>-<quantity>.svg` after the first, except that total and
//! sort times share one (as the paper draws them); items of total time over all processors
//! also get `<item-slug>-elapsed.svg`, the same curves divided by N (elapsed time).

use std::path::Path;

use anyhow::{Context as _, Result};

use super::published::Quantity;
use super::side_by_side::slug;
use super::verdict::Curve;
use crate::compare::svg::{self, Chart, Line, Point};

/// (ours, published) lines of `curves`, each value mapped by `f(procs, value)`.
fn lines(
    curves: &[&Curve],
    named_by_quantity: bool,
    f: impl Fn(f64, f64) -> f64,
) -> (Vec<Line>, Vec<Line>) {
    let mut ours = Vec::new();
    let mut published = Vec::new();
    for c in curves {
        let suffix = match c.quantity {
            _ if !named_by_quantity => String::new(),
            Quantity::TotalSeconds => " total".into(),
            Quantity::SortSeconds => " sort".into(),
            q => format!(" {}", q.name()),
        };
        let mut mine: Vec<Point> = c
            .points
            .iter()
            .filter_map(|&(n, _, o)| o.map(|o| Point::bare(n as f64, f(n as f64, o))))
            .collect();
        mine.sort_by(|a, b| a.x.total_cmp(&b.x));
        let mut theirs: Vec<Point> = c
            .points
            .iter()
            .map(|&(n, p, _)| Point::bare(n as f64, f(n as f64, p)))
            .collect();
        theirs.sort_by(|a, b| a.x.total_cmp(&b.x));
        ours.push(Line {
            name: format!("{}{suffix}", c.series),
            points: mine,
        });
        published.push(Line {
            name: format!("{} (paper)", c.published_series),
            points: theirs,
        });
    }
    (ours, published)
}

fn chart(title: &str, y_label: &str, ours: &[Line], published: Vec<Line>) -> String {
    let mut c = Chart::new(title, "processors", y_label);
    if svg::spans_decades(ours) || svg::spans_decades(&published) {
        c.y_scale = svg::Scale::Log10;
    }
    c.dashed = published;
    svg::chart(&c, ours)
}

/// The plots of an item: the total and sort times together (the paper draws them in one
/// figure), every other quantity alone; in [`Quantity`] order, the first one the item's
/// main plot.
fn panels(curves: &[&Curve]) -> Vec<Vec<Quantity>> {
    let mut quantities: Vec<Quantity> = curves.iter().map(|c| c.quantity).collect();
    quantities.sort();
    quantities.dedup();
    let times = [Quantity::TotalSeconds, Quantity::SortSeconds];
    let mut out: Vec<Vec<Quantity>> = Vec::new();
    for q in quantities {
        match out
            .iter_mut()
            .find(|p| times.contains(&q) && times.contains(&p[0]))
        {
            Some(p) => p.push(q),
            None => out.push(vec![q]),
        }
    }
    out
}

/// Writes the overlays of `curves` into `out` and returns their file names.
pub fn write(out: &Path, curves: &[Curve]) -> Result<Vec<String>> {
    let mut items: Vec<&str> = Vec::new();
    for c in curves {
        if !items.contains(&c.item.as_str()) {
            items.push(&c.item);
        }
    }
    let mut written = Vec::new();
    let mut save = |name: String, text: String| -> Result<()> {
        let path = out.join(&name);
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
        written.push(name);
        Ok(())
    };
    for item in items {
        let mine: Vec<&Curve> = curves.iter().filter(|c| c.item == item).collect();
        for (i, panel) in panels(&mine).iter().enumerate() {
            let several = panel.len() > 1;
            let y_label = if several { "seconds" } else { panel[0].label() };
            let of: Vec<&Curve> = mine
                .iter()
                .copied()
                .filter(|c| panel.contains(&c.quantity))
                .collect();
            let name = if i == 0 {
                slug(item)
            } else {
                format!("{}-{}", slug(item), panel[0].name())
            };
            let title = format!("{item}: ours solid, the paper's dashed");
            let (ours, published) = lines(&of, several, |_, v| v);
            save(
                format!("{name}.svg"),
                chart(&title, y_label, &ours, published),
            )?;
        }
        let totals: Vec<&Curve> = mine
            .iter()
            .copied()
            .filter(|c| c.quantity == Quantity::TotalSeconds)
            .collect();
        if !totals.is_empty() {
            let title = format!("{item}, elapsed (total / N): ours solid, the paper's dashed");
            let (ours, published) = lines(&totals, false, |n, v| v / n);
            save(
                format!("{}-elapsed.svg", slug(item)),
                chart(&title, "elapsed time (s)", &ours, published),
            )?;
        }
    }
    Ok(written)
}
