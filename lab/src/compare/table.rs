//! The papers-style table of a comparison, as rows of cells, printed as aligned text or as
//! HTML: per series and processor count, time, speedup, efficiency, relative speedup and
//! efficiency, node ratio, the Rezaie and Finkel losses and the thesis 6.2.6 overheads.

use std::fmt::Write as _;

use super::analysis::{Row, Summary};
use super::metrics::{Interval, Metric, Metrics};
use super::plan::Plan;
use super::svg::escape;

/// Which average a table shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Average {
    /// Metrics per position, then averaged (thesis 6.2.7, the method it uses).
    PerPosition,
    /// Metrics of the summed times and nodes.
    Aggregate,
}

/// The column heads.
pub const HEAD: [&str; 20] = [
    "series",
    "N",
    "samples",
    "time s",
    "time 95% CI",
    "speedup",
    "spd 95% CI",
    "eff",
    "rel spd",
    "rel eff",
    "nodes",
    "starv%",
    "interf%",
    "spec%",
    "total%",
    "master%",
    "search%",
    "specS%",
    "sync%",
    "par%",
];

/// An interval as `[lo, hi]` with `digits` decimals, `-` when there is none.
fn interval(i: Option<Interval>, digits: usize) -> String {
    match i {
        Some(i) if i.level > 0.0 => format!("[{:.digits$}, {:.digits$}]", i.lo, i.hi),
        _ => "-".into(),
    }
}

fn pct(v: f64) -> String {
    format!("{:.1}", 100.0 * v)
}

fn opt(v: Option<f64>) -> String {
    v.map_or_else(|| "-".into(), |x| format!("{x:.2}"))
}

/// The summaries a table or plot shows: all but those of a never-splitting series
/// ([`ParallelAlgo::never_splits`](control::parallel::ParallelAlgo::never_splits)) on more
/// than one processor, which `results.csv` keeps.
#[must_use]
pub fn shown(plan: &Plan, summaries: &[Summary]) -> Vec<Summary> {
    summaries
        .iter()
        .filter(|s| {
            s.procs == 1
                || !plan
                    .series
                    .iter()
                    .any(|x| x.label == s.series && x.algo.never_splits())
        })
        .cloned()
        .collect()
}

/// The table's rows (without the head).
pub fn summary_rows(summaries: &[Summary], avg: Average) -> Vec<Vec<String>> {
    summaries
        .iter()
        .map(|s| {
            let mean = |metric: Metric| s.per_position.get(&metric).map(|m| m.mean);
            let with_sd = |metric: Metric| match s.per_position.get(&metric) {
                Some(m) if m.count > 1 => format!("{:.2}±{:.2}", m.mean, m.sd),
                Some(m) => format!("{:.2}", m.mean),
                None => "-".into(),
            };
            let m: Metrics = match avg {
                Average::Aggregate => s.aggregate,
                Average::PerPosition => Metrics::from_fn(mean),
            };
            let (speedup, eff) = match avg {
                Average::PerPosition => (with_sd(Metric::Speedup), with_sd(Metric::Efficiency)),
                Average::Aggregate => (format!("{:.2}", m.speedup), format!("{:.2}", m.efficiency)),
            };
            let mut cells = vec![
                s.series.clone(),
                s.procs.to_string(),
                s.samples.to_string(),
                format!("{:.4}", s.seconds.mean),
                interval(s.seconds_ci, 4),
                speedup,
                interval(s.speedup_ci.filter(|_| avg == Average::PerPosition), 2),
                eff,
                opt(m.relative_speedup),
                opt(m.relative_efficiency),
                format!("{:.2}", m.nodes_ratio),
                pct(m.starvation),
                pct(m.interference),
                pct(m.speculative_loss),
                pct(m.total_overhead),
                pct(m.master_overhead),
                pct(m.search_overhead),
                pct(m.speculative_search),
                pct(m.synchronization_overhead),
                pct(m.parallelization_overhead),
            ];
            if s.disagreements > 0 && s.values_may_differ {
                cells[0] = format!("{} ({} values differ)", s.series, s.disagreements);
            } else if s.disagreements > 0 {
                cells[0] = format!("{} ({} WRONG VALUES)", s.series, s.disagreements);
            }
            cells
        })
        .collect()
}

/// Per-position rows: line, seed, series, N, depth, value, time, speedup, efficiency, nodes.
pub fn position_rows(rows: &[Row]) -> (Vec<&'static str>, Vec<Vec<String>>) {
    let head = vec![
        "line",
        "seed",
        "series",
        "N",
        "depth",
        "value",
        "base value",
        "time s",
        "time CI",
        "speedup",
        "eff",
        "rel eff",
        "nodes",
    ];
    let body = rows
        .iter()
        .map(|r| {
            vec![
                r.line.to_string(),
                r.seed.to_string(),
                r.series.clone(),
                r.procs.to_string(),
                r.depth.to_string(),
                r.value.to_string(),
                r.baseline_value.to_string(),
                format!("{:.4}", r.seconds),
                if r.seconds_ci.level > 0.0 {
                    format!(
                        "[{:.4}, {:.4}] {:.1}%",
                        r.seconds_ci.lo,
                        r.seconds_ci.hi,
                        100.0 * r.seconds_ci.level
                    )
                } else {
                    "-".into()
                },
                format!("{:.2}", r.metrics.speedup),
                format!("{:.2}", r.metrics.efficiency),
                opt(r.metrics.relative_efficiency),
                format!("{:.2}", r.metrics.nodes_ratio),
            ]
        })
        .collect();
    (head, body)
}

/// Aligned text.
pub fn text(head: &[&str], body: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = head.iter().map(|h| h.chars().count()).collect();
    for row in body {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    let line = |cells: Vec<&str>, out: &mut String| {
        for (i, (c, w)) in cells.iter().zip(&widths).enumerate() {
            let pad = w.saturating_sub(c.chars().count());
            if i == 0 {
                let _ = write!(out, "{c}{} ", " ".repeat(pad));
            } else {
                let _ = write!(out, "{}{c} ", " ".repeat(pad));
            }
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    };
    line(head.to_vec(), &mut out);
    for row in body {
        line(row.iter().map(String::as_str).collect(), &mut out);
    }
    out
}

/// An HTML table.
pub fn html(head: &[&str], body: &[Vec<String>]) -> String {
    let mut out = String::from("<table><thead><tr>");
    for h in head {
        let _ = write!(out, "<th>{}</th>", escape(h));
    }
    out.push_str("</tr></thead><tbody>");
    for row in body {
        out.push_str("<tr>");
        for c in row {
            let _ = write!(out, "<td>{}</td>", escape(c));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_tables_align_right_after_the_first_column() {
        let t = text(&["a", "bb"], &[vec!["xyz".into(), "1".into()]]);
        assert_eq!(t, "a   bb\nxyz  1\n");
        assert_eq!(
            html(&["<"], &[vec!["&".into()]]),
            "<table><thead><tr><th>&lt;</th></tr></thead><tbody><tr><td>&amp;</td></tr></tbody></table>\n"
        );
    }
}
