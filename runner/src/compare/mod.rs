//! `runner compare`: parallel algorithms over processor counts on a test set, against a
//! sequential baseline run once per position, with the papers' tables, CSV/JSON, SVG plots and
//! an HTML report. See `README.md` in this folder for the figures and the files.

pub mod analysis;
pub mod engine;
pub mod metrics;
pub mod plan;
pub mod report;
pub mod store;
pub mod svg;
pub mod table;

use std::path::PathBuf;

use anyhow::Result;

use crate::cli::CompareArgs;
use analysis::Summary;
use plan::Plan;
use report::Addendum;
use store::Store;
use table::Average;

/// What a finished comparison leaves.
pub struct Outcome {
    /// The summaries (per series and processor count).
    pub summaries: Vec<Summary>,
    /// The report's path.
    pub report: PathBuf,
}

/// Runs `runner compare`.
pub fn run(args: &CompareArgs) -> Result<()> {
    let plan = Plan::parse(args)?;
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    execute(&plan, &command, &Addendum::default())?;
    Ok(())
}

/// Runs the missing cells of `plan`, prints the tables and writes every file.
pub fn execute(plan: &Plan, command: &str, addendum: &Addendum) -> Result<Outcome> {
    let mut store = Store::open(&plan.out, &plan.fingerprint)?;
    if store.resumed > 0 {
        eprintln!(
            "resuming: {} finished cells in {}",
            store.resumed,
            plan.out.display()
        );
    }
    let positions = engine::run(plan, &mut store)?;
    let lines: Vec<usize> = positions.iter().map(|(l, _)| *l).collect();
    let rows = analysis::rows(plan, &store, &lines);
    let summaries = analysis::summaries(plan, &rows);
    let clock = if plan.virtual_time() {
        "virtual s"
    } else {
        "s"
    };
    println!(
        "{} on {} ({} positions, seeds {:?}, {} backend, times in {clock}); baseline {} on 1 processor",
        plan.game.info().name,
        plan.testset.display(),
        positions.len(),
        plan.seeds,
        plan.backend,
        plan.baseline.name()
    );
    for (avg, name) in [
        (Average::PerPosition, "per-position mean (± sd)"),
        (Average::Aggregate, "aggregate (summed times and nodes)"),
    ] {
        println!("\n{name}:");
        print!(
            "{}",
            table::text(&table::HEAD, &table::summary_rows(&summaries, avg))
        );
    }
    if plan.per_position {
        let (head, body) = table::position_rows(&rows);
        println!("\nper position:");
        print!("{}", table::text(&head, &body));
    }
    let wrong: usize = summaries
        .iter()
        .filter(|s| !s.values_may_differ)
        .map(|s| s.disagreements)
        .sum();
    if wrong > 0 {
        eprintln!("warning: {wrong} runs returned a value different from the baseline's");
    }
    let differ: usize = summaries
        .iter()
        .filter(|s| s.values_may_differ)
        .map(|s| s.disagreements)
        .sum();
    if differ > 0 {
        println!(
            "note: {differ} runs returned a value different from the baseline's; expected in the {} setting (variable depth: the searched tree depends on the windows and the table)",
            plan.config.setting.name()
        );
    }
    let report = report::write_all(&report::Inputs {
        plan,
        store: &store,
        positions: &positions,
        rows: &rows,
        summaries: &summaries,
        command,
        addendum,
    })?;
    println!("\nreport: {}", report.display());
    Ok(Outcome { summaries, report })
}
