//! `runner experiment`: named reproductions of the papers' figures and tables. Each is a
//! `runner compare` with fixed flags (or several, one per variant), plus the published
//! numbers beside ours in its report; `thesis-ch4-model` computes the analytical model of
//! thesis chapter 4 next to simulated runs on synthetic trees.
//!
//! Experiments name algorithms, never depend on them: an algorithm that is not registered in
//! this build is left out with a note, and an experiment none of whose algorithms is
//! registered says so and stops (exit status 2).

pub mod catalog;
pub mod model;
pub mod model_report;
pub mod sweep;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use clap::Parser;
use control::parallel::ParallelAlgo;
use serde_json::json;

use crate::cli::{CompareArgs, ExperimentArgs};
use crate::compare::plan::Plan;
use crate::compare::report::Addendum;
use crate::compare::svg::escape;
use crate::compare::{self, table};
use crate::input_error::input;
use catalog::{Experiment, Kind};

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
    let name = args.name.as_deref().unwrap_or_default();
    let Some(exp) = catalog::ALL.iter().find(|e| e.name == name) else {
        return Err(input(
            format!("experiment '{name}'"),
            format!(
                "no such experiment; the experiments are: {} (see runner experiment --list)",
                catalog::ALL
                    .iter()
                    .map(|e| e.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    };
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("target/experiments").join(exp.name));
    match &exp.kind {
        Kind::Model => model_report::run(exp, &out, args.quick),
        Kind::Compare {
            args: flags,
            quick,
            variants,
            published,
        } => run_compare(exp, flags, quick, variants, published, &out, args.quick),
        Kind::Sweep {
            args: flags,
            quick,
            swept,
        } => sweep::run(exp, flags, quick, swept, &out, args.quick),
    }
}

fn list() {
    println!("Experiments (runner experiment NAME [--quick] [--out DIR]):");
    for e in catalog::ALL {
        let status = match &e.kind {
            Kind::Compare { args, .. } | Kind::Sweep { args, .. } => {
                let missing = missing_algos(args);
                if missing.is_empty() {
                    String::new()
                } else {
                    format!(" [not registered yet: {}]", missing.join(", "))
                }
            }
            Kind::Model => String::new(),
        };
        println!("  {:<28} {}{status}", e.name, e.reproduces);
        println!("  {:<28}   {}", "", e.what);
    }
}

fn algos_of(flags: &[(&str, &str)]) -> Vec<String> {
    flags
        .iter()
        .filter(|(k, _)| *k == "--algos")
        .flat_map(|(_, v)| v.split(','))
        .map(|s| s.trim().to_string())
        .collect()
}

fn registered(item: &str) -> bool {
    let name = item.split('@').next().unwrap_or(item);
    name.parse::<ParallelAlgo>().is_ok()
}

/// The algorithms an experiment names that this build does not register.
pub fn missing_algos(flags: &[(&str, &str)]) -> Vec<String> {
    let mut out: Vec<String> = algos_of(flags)
        .into_iter()
        .filter(|a| !registered(a))
        .map(|a| a.split('@').next().unwrap_or(&a).to_string())
        .collect();
    out.dedup();
    out
}

/// The flags of an experiment with a variant's overrides, then under `--quick` the quick
/// ones (which win, so that a quick run stays small in every variant), with unregistered
/// algorithms left out; `None` when no algorithm is left.
pub fn flags_for(
    flags: &[(&'static str, &'static str)],
    quick: &[(&'static str, &'static str)],
    overrides: &[(&'static str, &'static str)],
    is_quick: bool,
) -> Option<Vec<(String, String)>> {
    let mut merged: Vec<(String, String)> = flags
        .iter()
        .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
        .collect();
    let extra = if is_quick { quick } else { &[][..] };
    for (k, v) in overrides.iter().chain(extra) {
        match merged.iter_mut().find(|(mk, _)| mk == k) {
            Some(slot) => slot.1 = (*v).to_string(),
            None => merged.push(((*k).to_string(), (*v).to_string())),
        }
    }
    for (k, v) in &mut merged {
        if k == "--algos" {
            let kept: Vec<&str> = v.split(',').filter(|a| registered(a.trim())).collect();
            if kept.is_empty() {
                return None;
            }
            *v = kept.join(",");
        }
    }
    Some(merged)
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

fn run_compare(
    exp: &Experiment,
    flags: &'static [(&'static str, &'static str)],
    quick: &'static [(&'static str, &'static str)],
    variants: &'static [(&'static str, &'static [(&'static str, &'static str)])],
    published: &str,
    out: &Path,
    is_quick: bool,
) -> Result<()> {
    let missing = missing_algos(flags);
    let note = if missing.is_empty() {
        String::new()
    } else {
        format!(
            "Not run: {} (not registered in this build yet; the experiment runs them once they are).",
            missing.join(", ")
        )
    };
    if !note.is_empty() {
        eprintln!("note: {note}");
    }
    let one: &[(&str, &[(&str, &str)])] = &[("", &[])];
    let variants = if variants.is_empty() { one } else { variants };
    let mut index = String::new();
    for (i, (label, overrides)) in variants.iter().enumerate() {
        let Some(merged) = flags_for(flags, quick, overrides, is_quick) else {
            return Err(input(
                format!("experiment {}", exp.name),
                format!(
                    "pending: it needs {}, not registered in this build",
                    missing.join(", ")
                ),
            ));
        };
        let dir = if label.is_empty() {
            out.to_path_buf()
        } else {
            out.join(label)
        };
        let command = command_line(&merged, &dir);
        // Each comparison shows its own progress bar with an ETA; this says which of how many.
        println!(
            "== {} {label} ({}/{})\n$ {command}",
            exp.name,
            i + 1,
            variants.len()
        );
        let plan = plan_of(&merged, &dir)?;
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
                "<h2>Published</h2><p>{}</p>{}<p>{}</p>",
                escape(exp.what),
                compare::report::published_html(published),
                escape(&note)
            ),
            json: json!({"name": exp.name, "variant": label, "reproduces": exp.reproduces, "published": published, "not_registered": missing, "quick": is_quick}),
            published: compare::report::published_points(published),
        };
        let outcome = compare::execute(&plan, &command, &addendum)?;
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
    }
    println!("\npublished ({}):\n{published}", exp.reproduces);
    if variants.len() > 1 {
        let html = format!(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/><title>{name}</title>\
             <style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse;font-size:12px}}td,th{{border:1px solid #ccc;padding:2px 6px}}</style>\
             </head><body><h1>{name}: {rep}</h1><p>{what}</p><h2>Published</h2>{pubd}<p>{note}</p>{index}</body></html>\n",
            name = escape(exp.name),
            rep = escape(exp.reproduces),
            what = escape(exp.what),
            pubd = compare::report::published_html(published),
            note = escape(&note),
        );
        let path = out.join("report.html");
        std::fs::write(&path, html).with_context(|| format!("writing {}", path.display()))?;
        println!("report: {}", path.display());
    }
    Ok(())
}
