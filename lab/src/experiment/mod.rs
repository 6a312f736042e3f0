//! `runner experiment`: named reproductions of the papers' figures and tables. Each is a
//! `runner compare` with fixed flags (or several, one per variant), plus the published
//! numbers beside ours in its report; `thesis-ch4-model` computes the analytical model of
//! thesis chapter 4 next to simulated runs on synthetic trees.
//!
//! The experiments are data: one TOML file each in `lab/experiments` (`catalog.rs` reads them;
//! `flags.rs` turns their tables into comparisons). Experiments name algorithms, never depend
//! on them: the catalog's tests parse every experiment's flags, so every algorithm an
//! experiment names is one this build registers.
//!
//! After each run the experiment's folder gets `verdict.json`, `published_vs_ours.md` and
//! `.csv` and the overlay plots (the published numbers of `testsets/published` beside ours);
//! `--all` runs every experiment and writes the results page. `README.md` here gives the files
//! and the schema.

pub mod all;
pub mod catalog;
pub mod claims;
pub mod flags;
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
use serde_json::json;

use crate::cli::ExperimentArgs;
use crate::compare::plan::{Plan, parse_jobs};
use crate::compare::report::Addendum;
use crate::compare::shard::Shard;
use crate::compare::store::Cost;
use crate::compare::svg::{Line, Point, escape};
use crate::compare::{self, Outcome, table};
use crate::input_error::input;
use catalog::{Against, Experiment, Kind, Variant};
use flags::Flags;
use published::Quantity;
use verdict::Record;

/// Runs `runner experiment`.
pub fn run(args: &ExperimentArgs) -> Result<()> {
    let all = catalog::all()?;
    if args.list {
        print!("{}", list(all));
        return Ok(());
    }
    let jobs = parse_jobs(args.jobs, crate::cli::BackendKind::Sim)?;
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
    let Some(exp) = all.iter().find(|e| e.name == name) else {
        return Err(input(
            format!("experiment '{name}'"),
            format!(
                "no such experiment; the experiments are: {} (see runner experiment --list)",
                names(all).join(", ")
            ),
        ));
    };
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("target/experiments").join(&exp.name));
    let start = Instant::now();
    let computed = run_one(exp, &out, &scope)?;
    println!("{}", times(start.elapsed().as_secs_f64(), computed, jobs));
    // A folder of experiments with a results page gets it rebuilt (not by a shard: the
    // experiment's pages wait for --assemble).
    if let Some(parent) = out
        .parent()
        .filter(|p| scope.shard.is_none() && index::is_generated(p))
    {
        let page = index::write(parent, &names(all))?;
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
fn names(all: &[Experiment]) -> Vec<&str> {
    all.iter().map(|e| e.name.as_str()).collect()
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

    /// Sets `positions` in a comparison's flags when the scope names a count.
    pub fn apply(&self, merged: &mut Flags) {
        if let Some(n) = self.positions {
            merged.insert("positions".into(), toml::Value::Integer(i64::from(n)));
        }
    }
}

/// One comparison of an experiment's run.
#[derive(Clone, Debug)]
pub struct Planned {
    /// Its variant, or a sweep's `KEYS-VALUE` ("" for an experiment's only comparison).
    pub label: String,
    /// Its flags, every overlay laid.
    pub flags: Flags,
    /// Its folder.
    pub dir: PathBuf,
    /// Its `runner compare` command, as the pages give it.
    pub command: String,
}

impl Planned {
    /// The comparison `label` of `flags` into `dir`.
    #[must_use]
    pub fn new(label: String, flags: Flags, dir: PathBuf) -> Planned {
        let command = flags::command_line(&flags, &dir);
        Planned {
            label,
            flags,
            dir,
            command,
        }
    }
}

/// The comparisons a run of `exp` in `scope` makes into `out`, in the order it makes them:
/// each variant's (those `scope` names), a sweep's one per swept value, the model's simulated
/// one; none for the two-PDP-11 thesis's own runs.
#[must_use]
pub fn planned(exp: &Experiment, scope: &Scope, out: &Path) -> Vec<Planned> {
    match &exp.kind {
        Kind::Compare {
            settings, variants, ..
        } => {
            let one = [Variant {
                name: String::new(),
                flags: Flags::new(),
            }];
            let every = if variants.is_empty() {
                &one
            } else {
                &variants[..]
            };
            every
                .iter()
                .filter(|v| scope.variants.is_empty() || scope.variants.contains(&v.name))
                .map(|v| {
                    let mut merged = settings.merged(&v.flags, scope.quick);
                    scope.apply(&mut merged);
                    let dir = if v.name.is_empty() {
                        out.to_path_buf()
                    } else {
                        out.join(&v.name)
                    };
                    Planned::new(v.name.clone(), merged, dir)
                })
                .collect()
        }
        Kind::Sweep { settings, swept } => sweep::planned(settings, swept, scope, out),
        Kind::Model { settings } => vec![model_report::planned(settings, scope, out)],
        Kind::CommonDepth(_) => Vec::new(),
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
    let known: Vec<&str> = exp.variants().iter().map(|v| v.name.as_str()).collect();
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
pub fn run_one(exp: &'static Experiment, out: &Path, scope: &Scope) -> Result<Cost> {
    check_variants(exp, scope)?;
    let quick = scope.quick;
    let start = Instant::now();
    let mut record = Record {
        experiment: exp.name.clone(),
        reproduces: exp.reproduces.clone(),
        what: exp.what.clone(),
        command: experiment_command(&exp.name, scope, out),
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
    if scope.assemble && matches!(exp.kind, Kind::Model { .. } | Kind::CommonDepth(_)) {
        return Err(input(
            "--assemble",
            format!(
                "{} computes its numbers on every run; leave --assemble out",
                exp.name
            ),
        ));
    }
    if let (Some(shard), Kind::Model { .. }) = (scope.shard, &exp.kind) {
        return Err(input(
            format!("--shard {shard}"),
            format!(
                "{} computes its model's curves and a small comparison in one process; leave --shard out",
                exp.name
            ),
        ));
    }
    let provenance = match &exp.kind {
        Kind::Model { settings } => model_report::run(exp, settings, out, scope)?,
        Kind::CommonDepth(setup) => {
            if scope.positions.is_some() {
                return Err(input(
                    "--positions",
                    format!(
                        "{} runs its own ten positions; leave --positions out",
                        exp.name
                    ),
                ));
            }
            pdp11::run(exp, setup, out, quick, &mut record)?
        }
        Kind::Compare { against, .. } => {
            let mut provenance = Provenance::default();
            let ran = run_compare(exp, against, out, scope, &mut provenance)?;
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
            for a in against {
                if let Some(r) = ran.iter().find(|r| r.variant == a.variant) {
                    curves.extend(verdict::curves(points, a, &r.outcome));
                }
            }
            record.comparisons = verdict::comparisons(&curves);
            record.verdicts = verdict::verdicts(&record.comparisons);
            record.not_compared = verdict::not_compared(&curves);
            let outcomes: Vec<(&str, &Outcome)> = ran
                .iter()
                .map(|r| (r.variant.as_str(), &r.outcome))
                .collect();
            record.claims = claims::check(exp.claims, &outcomes);
            record.svgs = overlay::write(out, &curves)?;
            provenance
        }
        Kind::Sweep { settings, swept } => {
            let provenance = sweep::run(exp, settings, swept, out, scope)?;
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

/// The text of `--list`: each experiment's name and what it reproduces, then what it compares.
fn list(all: &[Experiment]) -> String {
    let mut s = String::from("Experiments (runner experiment NAME [--quick] [--out DIR]):\n");
    for e in all {
        let _ = writeln!(s, "  {:<28} {}", e.name, e.reproduces);
        let _ = writeln!(s, "  {:<28}   {}", "", e.what);
    }
    s
}

/// One comparison an experiment ran.
struct Ran {
    /// Its variant ("" for the only one).
    variant: String,
    /// Its `runner compare` command.
    command: String,
    /// The simulator's cost model (`None` off the simulator).
    preset: Option<String>,
    /// Its seeds.
    seeds: Vec<u64>,
    /// What it left.
    outcome: Outcome,
}

/// The published speedups the mappings `mine` select, as star points of the speedup plot.
fn published_speedups(mine: &[&Against]) -> Result<Vec<Line>> {
    let points = published::all().context("reading the built-in published numbers")?;
    let mut lines: Vec<Line> = Vec::new();
    for a in mine {
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

/// The published numbers of the mappings `mine` as HTML: a paragraph naming the items, then
/// per item and quantity a table of the series (columns) by processors (rows).
fn against_html(mine: &[&Against]) -> Result<String> {
    if mine.is_empty() {
        return Ok(String::new());
    }
    let points = published::all().context("reading the built-in published numbers")?;
    let mut items: Vec<&str> = Vec::new();
    for a in mine {
        if !items.contains(&a.item.as_str()) {
            items.push(&a.item);
        }
    }
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
                escape(&a.item),
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

/// The paper's finding as a paragraph ("" without one).
fn finding_html(exp: &Experiment) -> String {
    exp.finding
        .as_deref()
        .map_or_else(String::new, |f| format!("<p>{}</p>", escape(f)))
}

/// Runs the comparisons of a [`Kind::Compare`] experiment (those `scope` names) into `out`.
fn run_compare(
    exp: &Experiment,
    against: &[Against],
    out: &Path,
    scope: &Scope,
    provenance: &mut Provenance,
) -> Result<Vec<Ran>> {
    let is_quick = scope.quick;
    let mut ran = Vec::new();
    let planned = planned(exp, scope, out);
    let mut index = String::new();
    for (i, p) in planned.iter().enumerate() {
        let label = p.label.as_str();
        // Each comparison shows its own progress bar with an ETA; this says which of how many.
        println!(
            "== {} {label} ({}/{})\n$ {}",
            exp.name,
            i + 1,
            planned.len(),
            p.command
        );
        let mut plan = flags::plan(&p.flags, &p.dir)?;
        scope.fit(&mut plan);
        if plan.shard.is_some() {
            provenance.computed.add(compare::compute_shard(&plan)?);
            continue;
        }
        let mine: Vec<&Against> = against
            .iter()
            .filter(|a| a.shows_published_in(label))
            .collect();
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
                escape(&exp.what),
                finding_html(exp),
                against_html(&mine)?,
            ),
            json: json!({"name": exp.name, "variant": label, "reproduces": exp.reproduces, "finding": exp.finding, "quick": is_quick}),
            published: published_speedups(&mine)?,
        };
        let outcome = compare::execute(&plan, &p.command, &addendum)?;
        provenance.add(&outcome);
        let _ = write!(
            index,
            "<h2>{}</h2><p><a href=\"{}\">report</a> · <code>{}</code></p>{}",
            escape(if label.is_empty() { &exp.name } else { label }),
            escape(
                &outcome
                    .report
                    .strip_prefix(out)
                    .unwrap_or(&outcome.report)
                    .display()
                    .to_string()
            ),
            escape(&p.command),
            table::html(
                &table::HEAD,
                &table::summary_rows(&outcome.summaries, table::Average::PerPosition)
            )
        );
        ran.push(Ran {
            variant: p.label.clone(),
            preset: (plan.backend == crate::cli::BackendKind::Sim).then(|| {
                plan.sim_preset
                    .clone()
                    .unwrap_or_else(|| "shared-memory".to_string())
            }),
            seeds: plan.seeds.clone(),
            command: p.command.clone(),
            outcome,
        });
    }
    if scope.shard.is_some() {
        return Ok(ran);
    }
    if let Some(finding) = &exp.finding {
        println!("\nthe paper ({}): {finding}", exp.reproduces);
    }
    // The experiment's page lists its variants, also when `--variant` ran one of them (the
    // results page links it).
    if !exp.variants().is_empty() {
        let shown: Vec<&Against> = against.iter().filter(|a| a.view.is_none()).collect();
        let html = format!(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/><title>{name}</title>\
             <style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse;font-size:12px}}td,th{{border:1px solid #ccc;padding:2px 6px}}</style>\
             </head><body><h1>{name}: {rep}</h1><p>{what}</p><h2>Published</h2>{finding}{pubd}{index}</body></html>\n",
            name = escape(&exp.name),
            rep = escape(&exp.reproduces),
            what = escape(&exp.what),
            finding = finding_html(exp),
            pubd = against_html(&shown)?,
        );
        let path = out.join("report.html");
        std::fs::write(&path, html).with_context(|| format!("writing {}", path.display()))?;
        println!("report: {}", path.display());
    }
    Ok(ran)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--list`: a head line, then per experiment in catalog order its name and what it
    /// reproduces, and under it what it compares.
    #[test]
    fn the_list_names_every_experiment_in_catalog_order() {
        let all = catalog::all().expect("the catalog reads");
        let text = list(all);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "Experiments (runner experiment NAME [--quick] [--out DIR]):"
        );
        assert_eq!(lines.len(), 1 + 2 * all.len());
        assert_eq!(
            lines[3],
            "  rf-fig5-6                    Rezaie and Finkel figures 5 and 6"
        );
        assert_eq!(
            lines[4],
            "                                 efficiency and relative nodes vs processors, unsorted 4x4 tic-tac-toe, every algorithm of the paper"
        );
        for (e, pair) in all.iter().zip(lines[1..].chunks(2)) {
            assert_eq!(pair[0].split_whitespace().next(), Some(e.name.as_str()));
            assert!(pair[1].ends_with(&e.what), "{}", e.name);
        }
        assert_eq!(all.len(), 20);
    }
}
