//! The files of a comparison: `results.csv` (one row per cell with its metrics),
//! `results.json` (every raw number, the command, the version, the seeds, the environment),
//! five SVG plots and a self-contained `report.html` that embeds them, with a table of
//! contents, the environment, the warnings, what every column means, and the published
//! numbers of an experiment as tables (and as points on the speedup plot).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use serde_json::{Value, json};

use super::analysis::{Row, Summary};
use super::environment::Environment;
use super::metrics::{Interval, Metric};
use super::plan::Plan;
use super::store::{CellKind, Store};
use super::svg::{self, Chart, Line, Point, Scale, escape};
use super::table::{self, Average};
use crate::never_split::{Control, Trust};

/// What an experiment adds to a comparison's report.
#[derive(Clone, Debug, Default)]
pub struct Addendum {
    /// Report title.
    pub title: String,
    /// HTML put after the summary (published numbers, notes).
    pub html: String,
    /// JSON stored under `experiment` in results.json.
    pub json: Value,
    /// Published speedups (x: processors), drawn on the speedup plot.
    pub published: Vec<Line>,
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
    /// The summaries the tables and plots show ([`super::table::shown`] of `summaries`).
    pub shown: &'a [Summary],
    /// The command line.
    pub command: &'a str,
    /// Experiment additions.
    pub addendum: &'a Addendum,
    /// The warnings printed (short cells, more threads than cores).
    pub warnings: &'a [String],
    /// The never-splitting control per processor count above 1 (threads only).
    pub controls: &'a [Control],
}

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

/// Quotes a CSV field when needed.
pub fn csv_field(s: &str) -> String {
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
    if !rows.is_empty() {
        for m in Metric::ALL {
            let _ = write!(out, ",{}", m.name());
        }
    }
    out.push_str(",repeats,seconds_ci_lo,seconds_ci_hi,seconds_ci_level,times,baseline_times\n");
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
        for m in Metric::ALL {
            let v = r.metrics.get(m);
            let _ = write!(out, ",{}", v.map(|x| x.to_string()).unwrap_or_default());
        }
        let list = |v: &[f64]| v.iter().map(f64::to_string).collect::<Vec<_>>().join(";");
        let _ = writeln!(
            out,
            ",{},{},{},{},{},{}",
            r.repeats,
            r.seconds_ci.lo,
            r.seconds_ci.hi,
            r.seconds_ci.level,
            list(&r.times),
            list(&r.baseline_times)
        );
    }
    out
}

/// Lines per series over processors of one figure (a point with its error bar) of each
/// summary.
fn lines_of(
    summaries: &[Summary],
    series: &[String],
    figure: impl Fn(&Summary) -> Option<Point>,
) -> Vec<Line> {
    series
        .iter()
        .map(|name| Line {
            name: name.clone(),
            points: summaries
                .iter()
                .filter(|s| &s.series == name)
                .filter_map(&figure)
                .collect(),
        })
        .collect()
}

/// A point at `s`'s processor count: `mean` with the interval `ci` when there is one, else
/// with the spread `sd` over the samples.
fn point(s: &Summary, mean: f64, sd: f64, ci: Option<Interval>) -> Point {
    let x = s.procs as f64;
    match ci {
        Some(i) => Point {
            x,
            y: mean,
            lo: i.lo,
            hi: i.hi,
        },
        None => Point {
            x,
            y: mean,
            lo: mean - sd,
            hi: mean + sd,
        },
    }
}

/// Lines of one per-position metric, with the spread over the samples.
fn metric_lines(summaries: &[Summary], series: &[String], metric: Metric) -> Vec<Line> {
    lines_of(summaries, series, |s| {
        s.per_position
            .get(&metric)
            .map(|m| point(s, m.mean, m.sd, None))
    })
}

/// The interval `i` divided by `n`.
fn scaled(i: Option<Interval>, n: f64) -> Option<Interval> {
    i.map(|i| Interval {
        lo: i.lo / n,
        hi: i.hi / n,
        level: i.level,
    })
}

/// The largest processor count on the plots, published points included: where the ideal
/// lines end.
fn axis_end(procs: &[usize], published: &[Line]) -> f64 {
    published
        .iter()
        .flat_map(|l| l.points.iter().map(|p| p.x))
        .chain(procs.iter().map(|&n| n as f64))
        .fold(1.0, f64::max)
}

/// The plots of `summaries` (those the report shows, [`table::shown`]) as (file name,
/// caption, SVG): speedup, efficiency, relative nodes, time and the time breakdown.
pub fn plots(
    plan: &Plan,
    summaries: &[Summary],
    published: &[Line],
) -> Vec<(&'static str, String, String)> {
    let series: Vec<String> = plan.series.iter().map(|s| s.label.clone()).collect();
    let clock = if plan.virtual_time() { "virtual " } else { "" };
    let n_samples = summaries.first().map_or(0, |s| s.samples);
    let repeats = summaries.iter().map(|s| s.repeats).min().unwrap_or(1);
    let sd_note = if n_samples > 1 {
        format!(" Error bars: sample standard deviation over {n_samples} samples.")
    } else {
        String::new()
    };
    let timing_note = if repeats > 1 {
        format!(
            " Error bars: bootstrap 95% intervals over the {repeats} timed repeats of every cell."
        )
    } else {
        sd_note.clone()
    };
    let speedup_lines = lines_of(summaries, &series, |s| {
        s.per_position
            .get(&Metric::Speedup)
            .map(|m| point(s, m.mean, m.sd, s.speedup_ci))
    });
    let efficiency_lines = lines_of(summaries, &series, |s| {
        s.per_position
            .get(&Metric::Efficiency)
            .map(|m| point(s, m.mean, m.sd, scaled(s.speedup_ci, s.procs as f64)))
    });
    let time_lines = lines_of(summaries, &series, |s| {
        Some(point(s, s.seconds.mean, s.seconds.sd, s.seconds_ci))
    });
    let nodes_lines = metric_lines(summaries, &series, Metric::NodesRatio);
    let most = axis_end(&plan.procs, published);
    let mut speedup = Chart::new("Speedup vs processors", "processors", "speedup");
    speedup.x_scale = Scale::Log2;
    speedup.reference = Some(Line {
        name: "ideal (N)".into(),
        points: vec![Point::bare(1.0, 1.0), Point::bare(most, most)],
    });
    speedup.published = published.to_vec();
    let mut efficiency = Chart::new("Efficiency vs processors", "processors", "efficiency");
    efficiency.x_scale = Scale::Log2;
    efficiency.reference = Some(Line {
        name: "ideal (1)".into(),
        points: vec![Point::bare(1.0, 1.0), Point::bare(most, 1.0)],
    });
    let mut nodes = Chart::new(
        "Nodes relative to the baseline",
        "processors",
        "nodes / baseline nodes",
    );
    nodes.x_scale = Scale::Log2;
    if svg::spans_decades(&nodes_lines) {
        nodes.y_scale = Scale::Log10;
    }
    let time_label = format!("{clock}seconds per position");
    let mut time = Chart::new("Time vs processors", "processors", &time_label);
    time.x_scale = Scale::Log2;
    if svg::spans_decades(&time_lines) {
        time.y_scale = Scale::Log10;
    }
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
            let m = |k: Metric| s.per_position.get(&k).map_or(0.0, |x| x.mean);
            (
                format!("{} x{}", s.series, s.procs),
                vec![
                    m(Metric::Efficiency),
                    m(Metric::Starvation),
                    m(Metric::Interference),
                    m(Metric::SpeculativeLoss),
                    m(Metric::OtherLoss),
                ],
            )
        })
        .collect();
    let published_note = if published.is_empty() {
        ""
    } else {
        " Stars: the published speedups."
    };
    vec![
        (
            SPEEDUP_PLOT,
            format!(
                "Speedup (baseline time / time, per-position mean) vs processors; dashed: ideal speedup N.{timing_note}{published_note}"
            ),
            svg::chart(&speedup, &speedup_lines),
        ),
        (
            "efficiency.svg",
            format!("Efficiency (speedup / N) vs processors.{timing_note}"),
            svg::chart(&efficiency, &efficiency_lines),
        ),
        (
            "relative_nodes.svg",
            format!(
                "Nodes relative to the sequential baseline vs processors (a log scale when they span a factor 10 or more).{sd_note}"
            ),
            svg::chart(&nodes, &nodes_lines),
        ),
        (
            "time.svg",
            format!("Mean {clock}time per position vs processors.{timing_note}"),
            svg::chart(&time, &time_lines),
        ),
        (
            "overheads.svg",
            "Where the processor time N x T went (per-position means, one bar per series and N): useful work (efficiency), starvation (idle), interference (messaging), speculative (extra nodes), other (the rest; left of 0 when negative, i.e. parallel nodes cheaper than sequential ones)".to_string(),
            svg::stacked_bars(
                "Processor time breakdown",
                "share of N x time",
                &components,
                &bars,
            ),
        ),
    ]
}

/// What every column of the summary table means, in [`table::HEAD`] order.
pub const COLUMNS: [(&str, &str); 20] = [
    (
        "series",
        "the algorithm (and its sorting regime after @); (k WRONG VALUES) when k runs returned another value than the baseline",
    ),
    ("N", "processors"),
    ("samples", "positions x seeds averaged in the row"),
    (
        "time s",
        "mean time per position: each cell's median over its timed repeats",
    ),
    (
        "time 95% CI",
        "bootstrap 95% interval of that mean, resampling every cell's repeats (- without repeats)",
    ),
    (
        "speedup",
        "baseline time / time; per-position mean ± sample standard deviation over the samples (the aggregate table: summed baseline time / summed time)",
    ),
    (
        "spd 95% CI",
        "bootstrap 95% interval of the per-position mean speedup, resampling the repeats of every run and baseline (- without repeats)",
    ),
    ("eff", "efficiency: speedup / N"),
    (
        "rel spd",
        "relative speedup: the same series on one processor / time",
    ),
    ("rel eff", "relative efficiency: relative speedup / N"),
    ("nodes", "nodes / baseline nodes"),
    (
        "starv%",
        "starvation loss: idle time as a share of the processor time N x time",
    ),
    (
        "interf%",
        "interference loss: messaging time as a share of N x time",
    ),
    (
        "spec%",
        "speculative loss: busy time spent on nodes beyond the baseline's, as a share of N x time",
    ),
    (
        "total%",
        "total overhead (N x time - baseline time) / baseline time; 1 + total = (1 + master)(1 + search + specS)(1 + par)(1 + sync)",
    ),
    (
        "master%",
        "master overhead m / (N - m) for m processors used only as masters",
    ),
    (
        "search%",
        "search overhead: nodes / baseline nodes - 1, less the speculative search",
    ),
    (
        "specS%",
        "speculative search: nodes beyond the requested depth / baseline nodes",
    ),
    (
        "sync%",
        "synchronization overhead: idle / (busy + messaging) time of the working processors",
    ),
    (
        "par%",
        "parallelization overhead: what the other overheads leave of the total (the loss of node rate)",
    ),
];

/// The environment block: a heading and a table of [`Environment::fields`].
#[must_use]
pub fn environment_html(environment: &Environment) -> String {
    let mut h = String::from("<h2>Environment</h2>\n<table class=\"environment\"><tbody>");
    for (name, value) in environment.fields() {
        let _ = write!(
            h,
            "<tr><th>{}</th><td>{}</td></tr>",
            escape(name),
            escape(&value)
        );
    }
    h.push_str("</tbody></table>\n");
    h
}

/// Gives every `<h2>` of `body` an id and returns the table of contents linking to them.
fn contents(body: &str) -> (String, String) {
    let mut out = String::new();
    let mut toc = String::from("<nav><h2 id=\"contents\">Contents</h2><ol>");
    let mut rest = body;
    let mut n = 0;
    while let Some(at) = rest.find("<h2>") {
        out.push_str(&rest[..at]);
        rest = &rest[at + 4..];
        let end = rest.find("</h2>").unwrap_or(rest.len());
        n += 1;
        let _ = write!(out, "<h2 id=\"s{n}\">{}</h2>", &rest[..end]);
        let _ = write!(toc, "<li><a href=\"#s{n}\">{}</a></li>", &rest[..end]);
        rest = rest.get(end + 5..).unwrap_or("");
    }
    out.push_str(rest);
    toc.push_str("</ol></nav>\n");
    (toc, out)
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
        .filter(|r| r.kind == CellKind::Baseline)
        .collect();
    let runs: Vec<&super::store::Record> = inp
        .store
        .cells
        .values()
        .filter(|r| r.kind == CellKind::Run)
        .collect();
    let environment = Environment::now(plan.backend, plan.sim_preset.as_deref());
    let mut json = json!({
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
        "repeat": plan.repeat,
        "warnings": inp.warnings,
        "environment": environment,
    });
    if inp.plan.control.is_some() {
        let trust = Trust::of(inp.controls.iter().map(|c| c.verdict));
        json["controls"] = json!(inp.controls);
        json["trust"] = json!(trust);
        json["trust_sentence"] = json!(trust.sentence());
    }
    write(&out.join("results.json"), &format!("{json:#}\n"))?;
    let plots = plots(plan, inp.shown, &inp.addendum.published);
    for (name, _, svg) in &plots {
        write(&out.join(name), svg)?;
    }
    let report = out.join("report.html");
    write(&report, &html(inp, inp.shown, &plots, &environment))?;
    Ok(report)
}

/// The file of the speedup plot, which opens the report.
const SPEEDUP_PLOT: &str = "speedup.svg";

/// One line ranking the series by their mean speedup over the positions at the largest
/// processor count they ran on; `None` without a run on more than one processor.
fn ranking(summaries: &[Summary]) -> Option<String> {
    let top = summaries.iter().map(|s| s.procs).max().filter(|&n| n > 1)?;
    let mut at_top: Vec<(&str, f64)> = summaries
        .iter()
        .filter(|s| s.procs == top)
        .filter_map(|s| {
            Some((
                s.series.as_str(),
                s.per_position.get(&Metric::Speedup)?.mean,
            ))
        })
        .collect();
    if at_top.is_empty() {
        return None;
    }
    at_top.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    let order: Vec<String> = at_top
        .iter()
        .map(|(name, speedup)| format!("{name} {speedup:.2}"))
        .collect();
    Some(format!(
        "Mean speedup over the positions on {top} processors, best first: {}.",
        order.join(", ")
    ))
}

/// The section on the never-splitting control: one line per processor count and whether the
/// run can be trusted (a warning box when it cannot).
fn control_html(controls: &[Control]) -> String {
    let trust = Trust::of(controls.iter().map(|c| c.verdict));
    let mut h = String::from("<h2>Never-splitting control</h2>\n");
    let _ = writeln!(
        h,
        "<p>The baseline's algorithm, which never splits, on N processors against the baseline: \
         its speedup must read 1.00, and every speedup of this report rests on the same timing \
         (mean over the positions with its bootstrap 95% interval).</p>"
    );
    h.push_str("<ul>");
    for c in controls {
        let _ = write!(h, "<li>{}</li>", escape(&c.line()));
    }
    h.push_str("</ul>\n");
    let class = if trust == Trust::Trusted {
        ""
    } else {
        " class=\"warning\""
    };
    let _ = writeln!(
        h,
        "<p{class}><strong>Measurement {}.</strong></p>",
        escape(&trust.sentence())
    );
    h
}

/// The report: `shown` are the summaries its tables show ([`table::shown`]).
fn html(
    inp: &Inputs<'_>,
    shown: &[Summary],
    plots: &[(&'static str, String, String)],
    environment: &Environment,
) -> String {
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
         <style>body{{font-family:sans-serif;margin:2em;max-width:1300px}}table{{border-collapse:collapse;font-size:12px;margin:1em 0}}\
         td,th{{border:1px solid #ccc;padding:2px 6px;text-align:right}}td:first-child,th:first-child{{text-align:left}}\
         th{{background:#f0f0f0}}table.explain td{{text-align:left}}table.environment td{{text-align:left}}\
         .warning{{background:#fff3cd;border:1px solid #e0c36a;padding:4px 8px}}\
         figure{{display:inline-block;margin:1em;vertical-align:top}}figcaption{{max-width:640px;font-size:13px}}\
         code{{background:#f4f4f4}}nav ol{{columns:2}}</style></head><body>\n<h1>{}</h1>\n",
        escape(&title),
        escape(&title)
    );
    let clock = if plan.virtual_time() {
        "virtual (simulator) seconds".to_string()
    } else if plan.repeat > 1 {
        format!(
            "wall-clock seconds, each cell the median of {} timed repeats after an untimed warm-up run per position, the repeats interleaved",
            plan.repeat
        )
    } else {
        "wall-clock seconds".to_string()
    };
    let mut body = String::new();
    let _ = writeln!(
        body,
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
    body.push_str("<h2>Summary</h2>\n");
    if let Some(line) = ranking(shown) {
        let _ = writeln!(body, "<p>{}</p>", escape(&line));
    }
    for (_, caption, svg) in plots.iter().filter(|(n, _, _)| *n == SPEEDUP_PLOT) {
        let _ = writeln!(
            body,
            "<figure>{svg}<figcaption>{}</figcaption></figure>",
            escape(caption)
        );
    }
    if plan.control.is_some() {
        body.push_str(&control_html(inp.controls));
    }
    body.push_str(&environment_html(environment));
    if !inp.warnings.is_empty() {
        body.push_str("<h2>Warnings</h2>\n");
        for w in inp.warnings {
            let _ = writeln!(body, "<p class=\"warning\">{}</p>", escape(w));
        }
    }
    for (avg, name) in [
        (
            Average::PerPosition,
            "Per-position mean (± sample standard deviation)",
        ),
        (Average::Aggregate, "Aggregate (summed times and nodes)"),
    ] {
        let _ = writeln!(body, "<h2>{name}</h2>");
        body.push_str(&table::html(&table::HEAD, &table::summary_rows(shown, avg)));
    }
    body.push_str("<h2>What the columns mean</h2>\n<table class=\"explain\"><tbody>");
    for (col, what) in COLUMNS {
        let _ = write!(
            body,
            "<tr><th>{}</th><td>{}</td></tr>",
            escape(col),
            escape(what)
        );
    }
    body.push_str("</tbody></table>\n");
    body.push_str(
        "<p>Losses (starv, interf, spec) are shares of the processor time N x time: with the \
         efficiency they add up to 1 less the <em>other</em> loss, which is what they leave. \
         Overheads (total to par) are ratios to the baseline, in percent, and multiply. \
         <strong>Negative values</strong> are gains, not errors: a negative search overhead \
         means the parallel runs searched fewer nodes than the baseline (a cutoff found sooner); \
         a negative parallelization overhead or other loss means the parallel nodes were \
         cheaper than the sequential ones (caches, a smaller share of sorting), so the other \
         figures over-explain the time; a negative total overhead is a superlinear speedup.</p>\n",
    );
    body.push_str(&inp.addendum.html);
    body.push_str("<h2>Plots</h2>\n");
    for (_, caption, svg) in plots.iter().filter(|(n, _, _)| *n != SPEEDUP_PLOT) {
        let _ = writeln!(
            body,
            "<figure>{svg}<figcaption>{}</figcaption></figure>",
            escape(caption)
        );
    }
    body.push_str("<h2>Per position</h2>\n");
    let (head, rows) = table::position_rows(inp.rows);
    body.push_str(&table::html(&head, &rows));
    body.push_str("<h2>Positions</h2>\n<table><tbody>");
    for (line, pos) in inp.positions {
        let _ = write!(
            body,
            "<tr><td>line {line}</td><td><code>{}</code></td></tr>",
            escape(pos)
        );
    }
    body.push_str("</tbody></table>\n");
    let (toc, body) = contents(&body);
    h.push_str(&toc);
    h.push_str(&body);
    h.push_str("</body></html>\n");
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_column_is_explained_in_table_order() {
        let names: Vec<&str> = COLUMNS.iter().map(|(c, _)| *c).collect();
        assert_eq!(names, table::HEAD.to_vec());
        assert!(COLUMNS.iter().all(|(_, what)| what.len() > 5));
    }

    #[test]
    fn contents_link_every_section() {
        let (toc, body) = contents("<p>x</p><h2>A</h2><p>y</p><h2>B &amp; C</h2>");
        assert_eq!(
            body,
            "<p>x</p><h2 id=\"s1\">A</h2><p>y</p><h2 id=\"s2\">B &amp; C</h2>"
        );
        assert!(
            toc.contains("<a href=\"#s1\">A</a>") && toc.contains("<a href=\"#s2\">B &amp; C</a>")
        );
    }

    /// The ideal lines reach the published 64 processors, not only the runs' 16.
    #[test]
    fn the_axis_reaches_the_published_points() {
        let points = vec![Line {
            name: "Thesis table 6.1".into(),
            points: vec![Point::bare(8.0, 5.74), Point::bare(64.0, 37.44)],
        }];
        assert_eq!(axis_end(&[1, 8, 16], &points), 64.0);
        assert_eq!(axis_end(&[1, 8, 16], &[]), 16.0);
    }
}
