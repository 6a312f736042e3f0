//! The files of a comparison: `results.csv` (one row per cell with its metrics),
//! `results.json` (every raw number, the command, the version, the seeds), four SVG plots and
//! a self-contained `report.html` that embeds them.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use serde_json::{Value, json};

use super::analysis::{Row, Summary, named};
use super::plan::Plan;
use super::store::Store;
use super::svg::{self, Line, escape};
use super::table::{self, Average};

/// What an experiment adds to a comparison's report.
#[derive(Clone, Debug, Default)]
pub struct Addendum {
    /// Report title.
    pub title: String,
    /// HTML put after the summary (published numbers, notes).
    pub html: String,
    /// JSON stored under `experiment` in results.json.
    pub json: Value,
}

/// Everything the report is made of.
pub struct Inputs<'a> {
    /// The plan.
    pub plan: &'a Plan,
    /// Cells.
    pub store: &'a Store,
    /// Positions used (line, text).
    pub positions: &'a [(usize, String)],
    /// Rows.
    pub rows: &'a [Row],
    /// Summaries.
    pub summaries: &'a [Summary],
    /// The command line.
    pub command: &'a str,
    /// Experiment additions.
    pub addendum: &'a Addendum,
}

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

/// Quotes a CSV field when needed.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The CSV text: one row per cell.
pub fn csv(rows: &[Row]) -> String {
    let mut out = String::from(
        "line,series,procs,seed,depth,value,baseline_value,nodes,seconds,baseline_nodes,baseline_seconds,one_proc_seconds",
    );
    let names: Vec<&str> = rows
        .first()
        .map(|r| named(&r.metrics).iter().map(|(n, _)| *n).collect())
        .unwrap_or_default();
    for n in &names {
        let _ = write!(out, ",{n}");
    }
    out.push('\n');
    for r in rows {
        let _ = write!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{}",
            r.line,
            csv_field(&r.series),
            r.procs,
            r.seed,
            r.depth,
            r.value,
            r.baseline_value,
            r.nodes,
            r.seconds,
            r.baseline_nodes,
            r.baseline_seconds,
            r.one_proc_seconds
                .map(|s| s.to_string())
                .unwrap_or_default()
        );
        for (_, v) in named(&r.metrics) {
            let _ = write!(out, ",{}", v.map(|x| x.to_string()).unwrap_or_default());
        }
        out.push('\n');
    }
    out
}

/// Lines per series over processors of one figure (mean and spread) of each summary.
fn lines_of(
    summaries: &[Summary],
    series: &[String],
    figure: impl Fn(&Summary) -> Option<(f64, f64)>,
) -> Vec<Line> {
    series
        .iter()
        .map(|name| Line {
            name: name.clone(),
            points: summaries
                .iter()
                .filter(|s| &s.series == name)
                .filter_map(|s| figure(s).map(|(mean, sd)| (s.procs as f64, mean, sd)))
                .collect(),
        })
        .collect()
}

/// Lines of one per-position metric.
fn metric_lines(summaries: &[Summary], series: &[String], metric: &str) -> Vec<Line> {
    lines_of(summaries, series, |s| {
        s.per_position.get(metric).map(|m| (m.mean, m.sd))
    })
}

/// The four plots as (file name, caption, SVG).
pub fn plots(plan: &Plan, summaries: &[Summary]) -> Vec<(&'static str, String, String)> {
    let series: Vec<String> = plan.series.iter().map(|s| s.label.clone()).collect();
    let clock = if plan.virtual_time() { "virtual " } else { "" };
    let n_samples = summaries.first().map_or(0, |s| s.samples);
    let bars_note = if n_samples > 1 {
        format!(" (error bars: sd over {n_samples} samples)")
    } else {
        String::new()
    };
    let time_lines = lines_of(summaries, &series, |s| Some((s.seconds.mean, s.seconds.sd)));
    let components = [
        "efficiency",
        "starvation",
        "interference",
        "speculative",
        "other",
    ];
    let bars: Vec<(String, Vec<f64>)> = summaries
        .iter()
        .filter(|s| s.procs > 1)
        .map(|s| {
            let m = |k: &str| s.per_position.get(k).map_or(0.0, |x| x.mean);
            (
                format!("{} x{}", s.series, s.procs),
                vec![
                    m("efficiency"),
                    m("starvation"),
                    m("interference"),
                    m("speculative_loss"),
                    m("other_loss"),
                ],
            )
        })
        .collect();
    vec![
        (
            "efficiency.svg",
            format!("Efficiency (speedup over the baseline / N) vs processors{bars_note}"),
            svg::line_chart(
                "Efficiency vs number of processors",
                "processors",
                "efficiency",
                &metric_lines(summaries, &series, "efficiency"),
                None,
            ),
        ),
        (
            "relative_nodes.svg",
            format!("Nodes relative to the sequential baseline vs processors{bars_note}"),
            svg::line_chart(
                "Relative number of nodes vs number of processors",
                "processors",
                "nodes / baseline nodes",
                &metric_lines(summaries, &series, "nodes_ratio"),
                None,
            ),
        ),
        (
            "time.svg",
            format!("Mean {clock}time per position vs processors{bars_note}"),
            svg::line_chart(
                "Time vs number of processors",
                "processors",
                &format!("{clock}seconds per position"),
                &time_lines,
                None,
            ),
        ),
        (
            "overheads.svg",
            "Where the processor time went (per-position means): useful work (efficiency), starvation (idle), interference (messaging), speculative (extra nodes), other".to_string(),
            svg::stacked_bars(
                "Processor time breakdown",
                "share of N x time",
                &components,
                &bars,
            ),
        ),
    ]
}

/// Writes every file; returns the report's path.
pub fn write_all(inp: &Inputs<'_>) -> Result<PathBuf> {
    let plan = inp.plan;
    let out = &plan.out;
    write(&out.join("results.csv"), &csv(inp.rows))?;
    let baselines: Vec<&super::store::Record> = inp
        .store
        .cells
        .values()
        .filter(|r| r.kind == "baseline")
        .collect();
    let runs: Vec<&super::store::Record> = inp
        .store
        .cells
        .values()
        .filter(|r| r.kind == "run")
        .collect();
    let json = json!({
        "command": inp.command,
        "version": env!("CARGO_PKG_VERSION"),
        "settings": plan.fingerprint,
        "testset": plan.testset.display().to_string(),
        "seeds": plan.seeds,
        "procs": plan.procs,
        "series": plan.series.iter().map(|s| s.label.clone()).collect::<Vec<_>>(),
        "virtual_time": plan.virtual_time(),
        "positions": inp.positions.iter().map(|(l, p)| json!({"line": l, "position": p})).collect::<Vec<_>>(),
        "baselines": baselines,
        "runs": runs,
        "rows": inp.rows,
        "summaries": inp.summaries,
        "experiment": inp.addendum.json,
    });
    write(&out.join("results.json"), &format!("{json:#}\n"))?;
    let plots = plots(plan, inp.summaries);
    for (name, _, svg) in &plots {
        write(&out.join(name), svg)?;
    }
    let report = out.join("report.html");
    write(&report, &html(inp, &plots))?;
    Ok(report)
}

fn html(inp: &Inputs<'_>, plots: &[(&'static str, String, String)]) -> String {
    let plan = inp.plan;
    let title = if inp.addendum.title.is_empty() {
        format!("runner compare: {}", plan.game.info().name)
    } else {
        inp.addendum.title.clone()
    };
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/><title>{}</title>\
         <style>body{{font-family:sans-serif;margin:2em;max-width:1200px}}table{{border-collapse:collapse;font-size:12px;margin:1em 0}}\
         td,th{{border:1px solid #ccc;padding:2px 6px;text-align:right}}td:first-child{{text-align:left}}\
         figure{{display:inline-block;margin:1em}}code{{background:#f4f4f4}}</style></head><body>\n<h1>{}</h1>\n",
        escape(&title),
        escape(&title)
    );
    let clock = if plan.virtual_time() {
        "virtual (simulator) seconds"
    } else {
        "wall-clock seconds"
    };
    let _ = writeln!(
        h,
        "<p>Command: <code>{}</code><br/>Version {}; test set <code>{}</code> ({} positions); seeds {:?}; \
         processors {:?}; times in {clock}; baseline: {} on one processor.</p>",
        escape(inp.command),
        env!("CARGO_PKG_VERSION"),
        escape(&plan.testset.display().to_string()),
        inp.positions.len(),
        plan.seeds,
        plan.procs,
        escape(plan.baseline.name()),
    );
    let _ = writeln!(
        h,
        "<p>Columns: speedup = baseline time / time; eff = speedup / N; rel spd, rel eff: against the same \
         series on one processor; nodes = nodes / baseline nodes; starv, interf, spec: idle, messaging \
         and extra-node shares of N x time (Rezaie and Finkel's losses); total, master, search, specS, \
         sync, par: the overheads of Brockington's thesis 6.2.6, which multiply: \
         1 + total = (1 + master)(1 + search + specS)(1 + par)(1 + sync).</p>"
    );
    for (avg, name) in [
        (
            Average::PerPosition,
            "Per-position mean (± sample standard deviation)",
        ),
        (Average::Aggregate, "Aggregate (summed times and nodes)"),
    ] {
        let _ = writeln!(h, "<h2>{name}</h2>");
        h.push_str(&table::html(
            &table::HEAD,
            &table::summary_rows(inp.summaries, avg),
        ));
    }
    h.push_str(&inp.addendum.html);
    h.push_str("<h2>Plots</h2>\n");
    for (_, caption, svg) in plots {
        let _ = writeln!(
            h,
            "<figure>{svg}<figcaption>{}</figcaption></figure>",
            escape(caption)
        );
    }
    h.push_str("<h2>Per position</h2>\n");
    let (head, body) = table::position_rows(inp.rows);
    h.push_str(&table::html(&head, &body));
    h.push_str("<h2>Positions</h2>\n<table><tbody>");
    for (line, pos) in inp.positions {
        let _ = write!(
            h,
            "<tr><td>line {line}</td><td><code>{}</code></td></tr>",
            escape(pos)
        );
    }
    h.push_str("</tbody></table>\n</body></html>\n");
    h
}
