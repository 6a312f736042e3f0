//! `runner experiment`: named reproductions of the papers' figures and tables. Each is a
//! `runner compare` with fixed flags (or several, one per variant), plus the published
//! numbers beside ours in its report; `thesis-ch4-model` computes the analytical model of
//! thesis chapter 4 next to simulated runs on synthetic trees.
//!
//! Experiments name algorithms, never depend on them: the catalog's tests parse every
//! experiment's flags, so every algorithm an experiment names is one this build registers.
//!
//! After each run the experiment's folder gets `verdict.json`, `published_vs_ours.md` and
//! `.csv` and the overlay plots (the published numbers of `testsets/published` beside ours);
//! `--all` runs every experiment and writes the results page. `README.md` here gives the files
//! and the schema.

pub mod all;
pub mod catalog;
pub mod claims;
pub mod index;
pub mod model;
pub mod model_report;
pub mod ours;
pub mod overlay;
pub mod pdp11;
pub mod published;
pub mod side_by_side;
pub mod sweep;
pub mod verdict;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context as _, Result};
use clap::Parser;
use serde_json::json;

use crate::cli::{CompareArgs, ExperimentArgs};
use crate::compare::plan::{Plan, parse_jobs};
use crate::compare::report::Addendum;
use crate::compare::shard::Shard;
use crate::compare::store::Cost;
use crate::compare::svg::{Line, Point, escape};
use crate::compare::{self, Outcome, table};
use crate::input_error::input;
use catalog::{Against, Experiment, Kind};
use published::Quantity;
use verdict::Record;

/// Parses compare flags as clap would from the command line.
#[derive(Parser)]
#[command(name = "compare")]
struct Wrap {
    #[command(flatten)]
    args: CompareArgs,
}

/// Runs `runner experiment`.
pub fn run(args: &ExperimentArgs) -> Result<()> {
    if args.list {
        list();
        return Ok(());
    }
    let jobs = parse_jobs(args.jobs, "sim")?;
    let shard = args
        .shard
        .as_deref()
        .map(|s| Shard::parse("--shard", s))
        .transpose()?;
    let scope = Scope {
        quick: args.quick,
        variants: args.variant.clone(),
        positions: args.positions,
        assemble: args.assemble,
        jobs: Some(jobs),
        shard,
    };
    if args.all {
        // Every experiment whole (--variant is refused with --all; --positions is not applied).
        let every = Scope {
            assemble: scope.assemble,
            jobs: scope.jobs,
            shard: scope.shard,
            ..Scope::whole(scope.quick)
        };
        return all::run(args.out.as_deref(), &every);
    }
    let name = args.name.as_deref().unwrap_or_default();
    let Some(exp) = catalog::ALL.iter().find(|e| e.name == name) else {
        return Err(input(
            format!("experiment '{name}'"),
            format!(
                "no such experiment; the experiments are: {} (see runner experiment --list)",
                names().join(", ")
            ),
        ));
    };
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("target/experiments").join(exp.name));
    let start = Instant::now();
    let computed = run_one(exp, &out, &scope)?;
    println!("{}", times(start.elapsed().as_secs_f64(), computed, jobs));
    // A folder of experiments with a results page gets it rebuilt (not by a shard: the
    // experiment's pages wait for --assemble).
    if let Some(parent) = out
        .parent()
        .filter(|p| scope.shard.is_none() && index::is_generated(p))
    {
        let page = index::write(parent, &names())?;
        println!("results page: {}", page.display());
    }
    Ok(())
}

/// The line that ends a run: its wall time beside the summed time of the cells it computed,
/// whose ratio says how many cells ran at a time on average.
#[must_use]
pub fn times(wall_seconds: f64, computed: Cost, jobs: usize) -> String {
    let each = if computed.cells == 0 {
        "no cell computed (every one was on disk)".to_string()
    } else {
        format!(
            "{} cells computed, {} s of cell time summed ({:.2} cells at a time)",
            computed.cells,
            side_by_side::num(computed.seconds),
            computed.seconds / wall_seconds.max(1e-9)
        )
    };
    format!(
        "wall time {} s with --jobs {jobs}; {each}",
        side_by_side::num(wall_seconds)
    )
}

/// The experiments' names in catalog order.
fn names() -> Vec<&'static str> {
    catalog::ALL.iter().map(|e| e.name).collect()
}

/// Where an experiment's numbers come from: what its comparisons' cells cost here, and the
/// builds other than this one that computed some of them (`--assemble`).
#[derive(Clone, Debug, Default)]
pub struct Provenance {
    /// The cells' cost, summed over the comparisons.
    pub cost: Cost,
    /// Other builds' ids ([`compare::store::build_id`]), each once.
    pub other_builds: Vec<String>,
    /// The cells this run computed (the others were on disk) and what they cost.
    pub computed: Cost,
}

impl Provenance {
    /// Adds one comparison's cells.
    pub fn add(&mut self, outcome: &Outcome) {
        self.computed.add(outcome.computed);
        self.cost.add(outcome.cost);
        if outcome.built_by != compare::store::build_id()
            && !self.other_builds.contains(&outcome.built_by)
        {
            self.other_builds.push(outcome.built_by.clone());
        }
    }
}

/// What part of an experiment one run covers: all of it by default.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    /// The experiment's quick flags on top of its own.
    pub quick: bool,
    /// Only these variants (all when empty).
    pub variants: Vec<String>,
    /// Only the first this many positions of the test set.
    pub positions: Option<u32>,
    /// Compute nothing: the pages from the finished cells, of whichever build.
    pub assemble: bool,
    /// Simulated cells at the same time (`--jobs`; the machine's cores when `None`).
    pub jobs: Option<usize>,
    /// Only this slice of every comparison's cells, and no pages (`--shard K/N`).
    pub shard: Option<Shard>,
}

impl Scope {
    /// The whole experiment, quick or not.
    pub fn whole(quick: bool) -> Self {
        Self {
            quick,
            ..Self::default()
        }
    }

    /// Runs a comparison of the experiment the scope's way: `--assemble`, `--jobs`, `--shard`.
    pub fn fit(&self, plan: &mut Plan) {
        plan.assemble = self.assemble;
        if let Some(j) = self.jobs {
            plan.jobs = j;
        }
        plan.shard = self.shard;
    }

    /// Sets `--positions` in a merged flag list when the scope names a count.
    pub fn apply(&self, merged: &mut Vec<(String, String)>) {
        if let Some(n) = self.positions {
            set_flag(merged, "--positions", &n.to_string());
        }
    }
}

/// Sets flag `key` to `value` in a flag list: in place where the list has it, else appended.
/// A depth and a time per position exclude each other in `runner compare`: setting one drops
/// the other (a quick run's `--depth` replaces a variant's `--time-ms`).
fn set_flag(merged: &mut Vec<(String, String)>, key: &str, value: &str) {
    let excluded = match key {
        "--depth" => Some("--time-ms"),
        "--time-ms" => Some("--depth"),
        _ => None,
    };
    if let Some(other) = excluded {
        merged.retain(|(k, _)| k != other);
    }
    match merged.iter_mut().find(|(k, _)| k == key) {
        Some(slot) => value.clone_into(&mut slot.1),
        None => merged.push((key.to_string(), value.to_string())),
    }
}

/// The command line that reruns `exp` into `out`.
fn experiment_command(name: &str, scope: &Scope, out: &Path) -> String {
    let mut s = format!("runner experiment {name}");
    if scope.quick {
        s.push_str(" --quick");
    }
    if !scope.variants.is_empty() {
        let _ = write!(s, " --variant {}", scope.variants.join(","));
    }
    if let Some(n) = scope.positions {
        let _ = write!(s, " --positions {n}");
    }
    if scope.assemble {
        s.push_str(" --assemble");
    }
    let _ = write!(s, " --out {}", out.display());
    s
}

/// Fails with an input error unless every variant `scope` names is one of `exp`'s.
fn check_variants(exp: &Experiment, scope: &Scope) -> Result<()> {
    let known: Vec<&str> = match &exp.kind {
        Kind::Compare { variants, .. } => variants.iter().map(|(l, _)| *l).collect(),
        Kind::Model | Kind::Sweep { .. } | Kind::CommonDepth => Vec::new(),
    };
    for v in &scope.variants {
        if !known.contains(&v.as_str()) {
            let fix = if known.is_empty() {
                format!("{} has no variants; leave --variant out", exp.name)
            } else {
                format!("{}'s variants are: {}", exp.name, known.join(", "))
            };
            return Err(input(format!("--variant {v}"), fix));
        }
    }
    Ok(())
}

/// Runs one experiment into `out` and writes its verdict files there (a shard computes its
/// slice of the cells and writes nothing else); returns the cells it computed.
pub fn run_one(exp: &Experiment, out: &Path, scope: &Scope) -> Result<Cost> {
    check_variants(exp, scope)?;
    let quick = scope.quick;
    let start = Instant::now();
    let mut record = Record {
        experiment: exp.name.to_string(),
        reproduces: exp.reproduces.to_string(),
        what: exp.what.to_string(),
        command: experiment_command(exp.name, scope, out),
        compare_commands: Vec::new(),
        commit: env!("RUNNER_COMMIT").to_string(),
        preset: None,
        seeds: Vec::new(),
        quick,
        wall_seconds: 0.0,
        cost: None,
        cells_built_by: Vec::new(),
        svgs: Vec::new(),
        not_compared: Vec::new(),
        comparisons: Vec::new(),
        verdicts: Vec::new(),
        claims: Vec::new(),
        details: String::new(),
    };
    if scope.assemble && matches!(exp.kind, Kind::Model | Kind::CommonDepth) {
        return Err(input(
            "--assemble",
            format!(
                "{} computes its numbers on every run; leave --assemble out",
                exp.name
            ),
        ));
    }
    if let (Some(shard), Kind::Model) = (scope.shard, &exp.kind) {
        return Err(input(
            format!("--shard {shard}"),
            format!(
                "{} computes its model's curves and a small comparison in one process; leave --shard out",
                exp.name
            ),
        ));
    }
    let provenance = match &exp.kind {
        Kind::Model => model_report::run(exp, out, scope)?,
        Kind::CommonDepth => {
            if scope.positions.is_some() {
                return Err(input(
                    "--positions",
                    format!(
                        "{} runs its own ten positions; leave --positions out",
                        exp.name
                    ),
                ));
            }
            pdp11::run(exp, out, quick, &mut record)?
        }
        Kind::Compare {
            args: flags,
            quick: quick_flags,
            variants,
            published,
            against,
        } => {
            let mut provenance = Provenance::default();
            let ran = run_compare(
                exp,
                flags,
                quick_flags,
                variants,
                published,
                against,
                out,
                scope,
                &mut provenance,
            )?;
            if scope.shard.is_some() {
                return Ok(provenance.computed);
            }
            if let Some(first) = ran.first() {
                record.preset = first.preset.clone();
                record.seeds.clone_from(&first.seeds);
            }
            record.compare_commands = ran.iter().map(|r| r.command.clone()).collect();
            let points = published::all().context("reading the built-in published numbers")?;
            let mut curves = Vec::new();
            for a in *against {
                if let Some(r) = ran.iter().find(|r| r.variant == a.variant) {
                    curves.extend(verdict::curves(&points, a, &r.outcome));
                }
            }
            record.comparisons = verdict::comparisons(&curves);
            record.verdicts = verdict::verdicts(&record.comparisons);
            record.not_compared = verdict::not_compared(&curves);
            let outcomes: Vec<(&str, &Outcome)> =
                ran.iter().map(|r| (r.variant, &r.outcome)).collect();
            record.claims = claims::check(exp.name, &outcomes);
            record.svgs = overlay::write(out, &curves)?;
            provenance
        }
        Kind::Sweep {
            args: flags,
            quick: quick_flags,
            swept,
        } => {
            let provenance = sweep::run(exp, flags, quick_flags, swept, out, scope)?;
            if scope.shard.is_some() {
                return Ok(provenance.computed);
            }
            provenance
        }
    };
    record.wall_seconds = start.elapsed().as_secs_f64();
    record.cost = Some(provenance.cost);
    record.cells_built_by = provenance.other_builds;
    side_by_side::write(out, &record)?;
    Ok(provenance.computed)
}

fn list() {
    println!("Experiments (runner experiment NAME [--quick] [--out DIR]):");
    for e in catalog::ALL {
        println!("  {:<28} {}", e.name, e.reproduces);
        println!("  {:<28}   {}", "", e.what);
    }
}

/// The flags of an experiment with a variant's overrides, then under `--quick` the quick
/// ones (which win, so that a quick run stays small in every variant).
pub fn flags_for(
    flags: &[(&'static str, &'static str)],
    quick: &[(&'static str, &'static str)],
    overrides: &[(&'static str, &'static str)],
    is_quick: bool,
) -> Vec<(String, String)> {
    let mut merged: Vec<(String, String)> = flags
        .iter()
        .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
        .collect();
    let extra = if is_quick { quick } else { &[][..] };
    for (k, v) in overrides.iter().chain(extra) {
        set_flag(&mut merged, k, v);
    }
    merged
}

/// The command line of a flag list.
pub fn command_line(flags: &[(String, String)], out: &Path) -> String {
    let mut s = String::from("runner compare");
    for (k, v) in flags {
        let _ = write!(s, " {k}");
        if !v.is_empty() {
            let _ = write!(s, " {v}");
        }
    }
    let _ = write!(s, " --out {}", out.display());
    s
}

/// Parses a flag list into a checked plan writing to `out`.
pub fn plan_of(flags: &[(String, String)], out: &Path) -> Result<Plan> {
    let mut argv = vec!["compare".to_string()];
    for (k, v) in flags {
        argv.push(k.clone());
        if !v.is_empty() {
            argv.push(v.clone());
        }
    }
    argv.push("--out".into());
    argv.push(out.display().to_string());
    let wrap = Wrap::try_parse_from(&argv)
        .with_context(|| format!("the experiment's flags {argv:?} (a bug in the catalog)"))?;
    Plan::parse(&wrap.args)
}

/// One comparison an experiment ran.
struct Ran {
    /// Its variant ("" for the only one).
    variant: &'static str,
    /// Its `runner compare` command.
    command: String,
    /// The simulator's cost model (`None` off the simulator).
    preset: Option<String>,
    /// Its seeds.
    seeds: Vec<u64>,
    /// What it left.
    outcome: Outcome,
}

/// The published speedups `against` maps for `variant`, as star points of the speedup plot.
fn published_speedups(against: &[Against], variant: &str) -> Result<Vec<Line>> {
    let points = published::all().context("reading the built-in published numbers")?;
    let mut lines: Vec<Line> = Vec::new();
    for a in against.iter().filter(|a| a.shows_published_in(variant)) {
        for p in points
            .iter()
            .filter(|p| p.quantity == Quantity::Speedup && a.selects(p))
        {
            let name = format!("{} {} (published)", p.item, p.series);
            let point = Point::bare(p.procs as f64, p.value);
            match lines.iter_mut().find(|l| l.name == name) {
                Some(l) => l.points.push(point),
                None => lines.push(Line {
                    name,
                    points: vec![point],
                }),
            }
        }
    }
    Ok(lines)
}

/// The published numbers `against` maps for `variant` as HTML: a paragraph naming the items,
/// then per item and quantity a table of the series (columns) by processors (rows).
fn against_html(against: &[Against], variant: &str) -> Result<String> {
    let mine: Vec<&Against> = against
        .iter()
        .filter(|a| a.shows_published_in(variant))
        .collect();
    if mine.is_empty() {
        return Ok(String::new());
    }
    let points = published::all().context("reading the built-in published numbers")?;
    let items: Vec<&str> = mine.iter().map(|a| a.item).collect();
    let mut h = format!(
        "<p>Published numbers of {} (testsets/published); verdict.json and published_vs_ours.md beside this report hold them with ours.</p>",
        escape(&items.join(", "))
    );
    for a in mine {
        let chosen: Vec<&published::Point> = points.iter().filter(|p| a.selects(p)).collect();
        let mut quantities: Vec<Quantity> = chosen.iter().map(|p| p.quantity).collect();
        quantities.sort();
        quantities.dedup();
        for q in quantities {
            let of: Vec<&&published::Point> = chosen.iter().filter(|p| p.quantity == q).collect();
            let mut series: Vec<&str> = Vec::new();
            let mut procs: Vec<usize> = of.iter().map(|p| p.procs).collect();
            procs.sort_unstable();
            procs.dedup();
            for p in &of {
                if !series.contains(&p.series.as_str()) {
                    series.push(&p.series);
                }
            }
            let _ = write!(
                h,
                "<table class=\"published\"><caption>{}: {}</caption><thead><tr><th>N</th>",
                escape(a.item),
                escape(q.label())
            );
            for s in &series {
                let _ = write!(h, "<th>{}</th>", escape(s));
            }
            h.push_str("</tr></thead><tbody>");
            for n in procs {
                let _ = write!(h, "<tr><td>{n}</td>");
                for s in &series {
                    let v = of.iter().find(|p| p.procs == n && p.series == *s);
                    let _ = write!(
                        h,
                        "<td>{}</td>",
                        v.map_or_else(String::new, |p| side_by_side::num(p.value))
                    );
                }
                h.push_str("</tr>");
            }
            h.push_str("</tbody></table>\n");
        }
    }
    Ok(h)
}

#[allow(clippy::too_many_arguments)]
fn run_compare(
    exp: &Experiment,
    flags: &'static [(&'static str, &'static str)],
    quick: &'static [(&'static str, &'static str)],
    variants: &'static [(&'static str, &'static [(&'static str, &'static str)])],
    published: &str,
    against: &[Against],
    out: &Path,
    scope: &Scope,
    provenance: &mut Provenance,
) -> Result<Vec<Ran>> {
    let is_quick = scope.quick;
    let mut ran = Vec::new();
    let one: &[(&str, &[(&str, &str)])] = &[("", &[])];
    let variants: Vec<_> = if variants.is_empty() { one } else { variants }
        .iter()
        .filter(|(label, _)| scope.variants.is_empty() || scope.variants.iter().any(|v| v == label))
        .collect();
    let mut index = String::new();
    for (i, (label, overrides)) in variants.iter().enumerate() {
        let mut merged = flags_for(flags, quick, overrides, is_quick);
        let dir = if label.is_empty() {
            out.to_path_buf()
        } else {
            out.join(label)
        };
        scope.apply(&mut merged);
        let command = command_line(&merged, &dir);
        // Each comparison shows its own progress bar with an ETA; this says which of how many.
        println!(
            "== {} {label} ({}/{})\n$ {command}",
            exp.name,
            i + 1,
            variants.len()
        );
        let mut plan = plan_of(&merged, &dir)?;
        scope.fit(&mut plan);
        if plan.shard.is_some() {
            provenance.computed.add(compare::compute_shard(&plan)?);
            continue;
        }
        let addendum = Addendum {
            title: format!(
                "{}{}: {}",
                exp.name,
                if label.is_empty() {
                    String::new()
                } else {
                    format!(" ({label})")
                },
                exp.reproduces
            ),
            html: format!(
                "<h2>Published</h2><p>{}</p>{}{}",
                escape(exp.what),
                compare::report::published_html(published),
                against_html(against, label)?,
            ),
            json: json!({"name": exp.name, "variant": label, "reproduces": exp.reproduces, "published": published, "quick": is_quick}),
            published: published_speedups(against, label)?,
        };
        let outcome = compare::execute(&plan, &command, &addendum)?;
        provenance.add(&outcome);
        let _ = write!(
            index,
            "<h2>{}</h2><p><a href=\"{}\">report</a> · <code>{}</code></p>{}",
            escape(if label.is_empty() { exp.name } else { label }),
            escape(
                &outcome
                    .report
                    .strip_prefix(out)
                    .unwrap_or(&outcome.report)
                    .display()
                    .to_string()
            ),
            escape(&command),
            table::html(
                &table::HEAD,
                &table::summary_rows(&outcome.summaries, table::Average::PerPosition)
            )
        );
        ran.push(Ran {
            variant: label,
            preset: (plan.backend == "sim").then(|| {
                plan.sim_preset
                    .clone()
                    .unwrap_or_else(|| "shared-memory".to_string())
            }),
            seeds: plan.seeds.clone(),
            command,
            outcome,
        });
    }
    if scope.shard.is_some() {
        return Ok(ran);
    }
    println!("\npublished ({}):\n{published}", exp.reproduces);
    // The experiment's page lists its variants, also when `--variant` ran one of them (the
    // results page links it).
    if variants.iter().any(|(label, _)| !label.is_empty()) {
        let html = format!(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/><title>{name}</title>\
             <style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse;font-size:12px}}td,th{{border:1px solid #ccc;padding:2px 6px}}</style>\
             </head><body><h1>{name}: {rep}</h1><p>{what}</p><h2>Published</h2>{pubd}{index}</body></html>\n",
            name = escape(exp.name),
            rep = escape(exp.reproduces),
            what = escape(exp.what),
            pubd = compare::report::published_html(published),
        );
        let path = out.join("report.html");
        std::fs::write(&path, html).with_context(|| format!("writing {}", path.display()))?;
        println!("report: {}", path.display());
    }
    Ok(ran)
}
