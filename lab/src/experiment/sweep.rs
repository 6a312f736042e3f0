//! Sweep experiments: one comparison per value of a simulated machine's cost-model key
//! (`runner compare --sim-set`), the others fixed, and the aggregate speedup of every series
//! and processor count against the swept value: `sweep.csv`, one SVG per swept key
//! (`sweep-KEY.svg`), and an HTML page linking each comparison's report.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context as _, Result};

use super::catalog::{Experiment, Settings, Swept};
use super::flags::{self, Flags};
use super::{Planned, Provenance, Scope};
use crate::compare::report::Addendum;
use crate::compare::svg::{self, Chart, Line, Point, Scale, escape};

/// One point of a sweep: the swept keys' value, a series at a processor count, its aggregate
/// speedup (summed baseline time over summed parallel time) and efficiency.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The swept keys, comma-separated.
    pub keys: &'static str,
    /// Their value.
    pub value: u64,
    /// The series label.
    pub series: String,
    /// Processors.
    pub procs: usize,
    /// Aggregate speedup.
    pub speedup: f64,
    /// Aggregate efficiency.
    pub efficiency: f64,
}

/// The `--sim-set` flags that give every key of `keys` (comma-separated) the value `value`.
#[must_use]
pub fn sim_sets(keys: &str, value: u64) -> Vec<String> {
    keys.split(',')
        .map(|k| format!("{}={value}", k.trim()))
        .collect()
}

/// The CSV of `rows`.
#[must_use]
pub fn csv(rows: &[Row]) -> String {
    let mut out = String::from("keys,value,series,procs,speedup,efficiency\n");
    for r in rows {
        let _ = writeln!(
            out,
            "\"{}\",{},{},{},{:.4},{:.4}",
            r.keys, r.value, r.series, r.procs, r.speedup, r.efficiency
        );
    }
    out
}

/// The lines of one swept key's chart: one per series and processor count, in the order the
/// rows first name them, each point a value of the key.
#[must_use]
pub fn lines(rows: &[Row], keys: &str) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::new();
    for r in rows.iter().filter(|r| r.keys == keys) {
        let name = format!("{} N={}", r.series, r.procs);
        let point = Point::bare(r.value as f64, r.speedup);
        match out.iter_mut().find(|l| l.name == name) {
            Some(line) => line.points.push(point),
            None => out.push(Line {
                name,
                points: vec![point],
            }),
        }
    }
    for line in &mut out {
        line.points.sort_by(|a, b| a.x.total_cmp(&b.x));
    }
    out
}

/// Each swept key with each of its values in a run (`quick` or not), in order.
fn points(swept: &[Swept], quick: bool) -> impl Iterator<Item = (&Swept, u64)> {
    swept.iter().flat_map(move |w| {
        let values = if quick { &w.quick } else { &w.values };
        values.iter().map(move |&v| (w, v))
    })
}

/// The comparisons of a sweep: the experiment's flags (with `scope`'s) and one value of one
/// swept key as `sim-set`, into `out/KEYS-VALUE`, for every key and value in order.
#[must_use]
pub fn planned(settings: &Settings, swept: &[Swept], scope: &Scope, out: &Path) -> Vec<Planned> {
    let mut base = settings.merged(&Flags::new(), scope.quick);
    scope.apply(&mut base);
    points(swept, scope.quick)
        .map(|(sweep, value)| {
            let mut flags = base.clone();
            let sets = sim_sets(&sweep.keys, value)
                .into_iter()
                .map(toml::Value::String)
                .collect();
            flags.insert("sim-set".into(), toml::Value::Array(sets));
            let label = format!("{}-{value}", sweep.keys.replace(',', "+"));
            let dir = out.join(&label);
            Planned::new(label, flags, dir)
        })
        .collect()
}

/// Runs a sweep experiment into `out`; returns where its comparisons' numbers come from.
///
/// # Errors
/// A comparison that fails, or a file that cannot be written.
pub fn run(
    exp: &'static Experiment,
    settings: &Settings,
    swept: &'static [Swept],
    out: &Path,
    scope: &Scope,
) -> Result<Provenance> {
    let mut rows: Vec<Row> = Vec::new();
    let mut index = String::new();
    let planned = planned(settings, swept, scope, out);
    let total = planned.len();
    let mut provenance = Provenance::default();
    for (done, ((sweep, value), p)) in points(swept, scope.quick).zip(&planned).enumerate() {
        let (label, command) = (&p.label, &p.command);
        println!(
            "== {} {label} ({}/{total})\n$ {command}",
            exp.name,
            done + 1
        );
        let mut plan = flags::plan(&p.flags, &p.dir)?;
        scope.fit(&mut plan);
        if plan.shard.is_some() {
            provenance
                .computed
                .add(crate::compare::compute_shard(&plan)?);
            continue;
        }
        let addendum = Addendum {
            title: format!(
                "{} ({} = {value}): {}",
                exp.name, sweep.keys, exp.reproduces
            ),
            html: format!("<p>{}</p>", escape(&exp.what)),
            ..Addendum::default()
        };
        let outcome = crate::compare::execute(&plan, command, &addendum)?;
        provenance.add(&outcome);
        for s in &outcome.summaries {
            if s.procs > 1 {
                rows.push(Row {
                    keys: &sweep.keys,
                    value,
                    series: s.series.clone(),
                    procs: s.procs,
                    speedup: s.aggregate.speedup,
                    efficiency: s.aggregate.efficiency,
                });
            }
        }
        let _ = write!(
            index,
            "<li><a href=\"{label}/report.html\">{} = {value}</a> <code>{}</code></li>",
            escape(&sweep.keys),
            escape(command)
        );
    }
    if scope.shard.is_some() {
        // The pages wait for --assemble.
        return Ok(provenance);
    }
    let write = |name: &str, text: &str| -> Result<()> {
        let path = out.join(name);
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))
    };
    write("sweep.csv", &csv(&rows))?;
    let mut charts = String::new();
    for sweep in swept {
        let title = format!("Speedup vs {}", sweep.keys);
        let mut chart = Chart::new(&title, &sweep.keys, "speedup (summed times)");
        chart.x_scale = Scale::Log10;
        let name = format!("sweep-{}.svg", sweep.keys.replace(',', "+"));
        write(&name, &svg::chart(&chart, &lines(&rows, &sweep.keys)))?;
        let _ = write!(
            charts,
            "<h2>{}</h2><p>{}</p><img src=\"{name}\" alt=\"{}\"/>",
            escape(&sweep.keys),
            escape(&sweep.why),
            escape(&title)
        );
    }
    let html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/><title>{name}</title></head>\
         <body><h1>{name}: {rep}</h1><p>{what}</p>{charts}<h2>Comparisons</h2><ul>{index}</ul>\
         <p>Data: <a href=\"sweep.csv\">sweep.csv</a></p></body></html>\n",
        name = escape(&exp.name),
        rep = escape(&exp.reproduces),
        what = escape(&exp.what),
    );
    write("report.html", &html)?;
    println!("\n{}", csv(&rows));
    println!("report: {}", out.join("report.html").display());
    Ok(provenance)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(keys: &'static str, value: u64, series: &str, procs: usize, speedup: f64) -> Row {
        Row {
            keys,
            value,
            series: series.to_string(),
            procs,
            speedup,
            efficiency: speedup / procs as f64,
        }
    }

    #[test]
    fn every_key_of_a_sweep_gets_the_value() {
        assert_eq!(
            sim_sets("send_overhead_ns, recv_overhead_ns", 7),
            vec!["send_overhead_ns=7", "recv_overhead_ns=7"]
        );
    }

    #[test]
    fn one_line_per_series_and_count_in_value_order() {
        let rows = vec![
            row("ports", 32, "aphid", 16, 9.0),
            row("ports", 1, "aphid", 16, 3.0),
            row("ports", 1, "ybw", 64, 2.0),
            row("node_ns", 5, "aphid", 16, 1.0),
        ];
        let l = lines(&rows, "ports");
        assert_eq!(l.len(), 2);
        assert_eq!(l[0].name, "aphid N=16");
        assert_eq!(
            l[0].points.iter().map(|p| (p.x, p.y)).collect::<Vec<_>>(),
            vec![(1.0, 3.0), (32.0, 9.0)]
        );
        let text = csv(&rows);
        assert_eq!(text.lines().count(), 5);
        assert!(text.contains("\"ports\",1,ybw,64,2.0000,0.0312"));
    }
}
