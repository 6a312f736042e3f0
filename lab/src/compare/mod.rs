//! `runner compare`: parallel algorithms over processor counts on a test set, against a
//! sequential baseline run once per position, with the papers' tables, CSV/JSON, SVG plots and
//! an HTML report. See `README.md` in this folder for the figures and the files.

pub mod analysis;
pub mod engine;
pub mod environment;
pub mod interrupt;
pub mod metrics;
pub mod plan;
pub mod pool;
pub mod ranks;
pub mod report;
pub mod shard;
pub mod store;
pub mod svg;
pub mod table;

use std::collections::BTreeSet;
use std::path::PathBuf;

use anyhow::{Result, anyhow};
use control::search::Setting;

use crate::cli::CompareArgs;
use analysis::Summary;
use plan::Plan;
use ranks::Ranks;
use report::Addendum;
use store::{Key, Store};
use table::Average;

/// What a finished comparison leaves.
pub struct Outcome {
    /// The summaries (per series and processor count).
    pub summaries: Vec<Summary>,
    /// Every cell with its metrics (one per position, series, processor count and seed).
    pub rows: Vec<analysis::Row>,
    /// The report's path.
    pub report: PathBuf,
    /// What its cells cost here, over every run that computed them.
    pub cost: store::Cost,
    /// The build that computed its cells ([`store::build_id`] unless assembled).
    pub built_by: String,
    /// The cells this run computed and what they cost (the others were resumed).
    pub computed: store::Cost,
}

/// Runs `runner compare`. With `--backend mpi` every rank of the launch runs this: MPI starts
/// once every flag is known to be good, and the processor counts take the world size.
pub fn run(args: &CompareArgs) -> Result<()> {
    let mut plan = Plan::parse(args)?;
    let session = if plan.on_mpi() {
        let session = crate::mpi::start()?;
        plan.fit_world(crate::mpi::world_size(&session))?;
        Some(session)
    } else {
        None
    };
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let ranks = Ranks::new(session.as_ref());
    if plan.shard.is_some() {
        compute_shard_on(&plan, &ranks)?;
    } else {
        execute_on(&plan, &ranks, &command, &Addendum::default())?;
    }
    Ok(())
}

/// Computes the missing cells of `plan`'s shard (`--shard K/N`) in this process, and says
/// how far the comparison is; writes no report (`--assemble` does, from every shard's
/// cells). Returns what this run computed.
pub fn compute_shard(plan: &Plan) -> Result<store::Cost> {
    compute_shard_on(plan, &Ranks::Alone)?
        .ok_or_else(|| anyhow!("internal error: a comparison run alone has its cells"))
}

/// [`compute_shard`] as one of `ranks` (`None` on the ranks other than the root).
fn compute_shard_on(plan: &Plan, ranks: &Ranks<'_>) -> Result<Option<store::Cost>> {
    let shard = plan
        .shard
        .ok_or_else(|| anyhow!("internal error: a shard's run without --shard"))?;
    let Some((store, positions)) = compute_on(plan, ranks)? else {
        return Ok(None);
    };
    let keys: Vec<Key> = positions
        .iter()
        .flat_map(|&(line, _)| plan.keys(line))
        .collect();
    let have = keys.iter().filter(|k| store.cells.contains_key(k)).count();
    let c = store.computed;
    println!(
        "shard {shard}: {} cells computed here ({:.1} s of cell time); {have} of {} cells of the comparison are in {}{}",
        c.cells,
        c.seconds,
        keys.len(),
        plan.out.display(),
        if have == keys.len() {
            "; every cell is done: run with --assemble instead of --shard for the report"
        } else {
            "; once every shard is done, run with --assemble instead of --shard for the report"
        }
    );
    Ok(Some(c))
}

/// Runs the missing cells of `plan` in this process, prints the tables and writes every file.
pub fn execute(plan: &Plan, command: &str, addendum: &Addendum) -> Result<Outcome> {
    execute_on(plan, &Ranks::Alone, command, addendum)?
        .ok_or_else(|| anyhow!("internal error: a comparison run alone has an outcome"))
}

/// [`execute`] as one of `ranks`: every rank runs the cells; the root alone (rank 0 on MPI)
/// keeps them, prints and writes, and gets the outcome (`None` on the other ranks).
pub fn execute_on(
    plan: &Plan,
    ranks: &Ranks<'_>,
    command: &str,
    addendum: &Addendum,
) -> Result<Option<Outcome>> {
    let mut warnings: Vec<String> = Vec::new();
    if ranks.is_root() {
        if let Some(w) = analysis::cores_warning(plan, crate::machine::cores()) {
            eprintln!("warning: {w}");
            warnings.push(w);
        }
    }
    let Some((store, positions)) = compute_on(plan, ranks)? else {
        // Another MPI rank: rank 0 reports.
        return Ok(None);
    };
    report_on(plan, &store, &positions, command, addendum, warnings).map(Some)
}

/// Opens `plan`'s folder and computes its missing cells (of its shard, with `--shard`): the
/// store and the positions on the root, `None` on the other MPI ranks.
fn compute_on(plan: &Plan, ranks: &Ranks<'_>) -> Result<Option<(Store, engine::Positions)>> {
    if matches!(ranks, Ranks::Alone) {
        interrupt::install();
    }
    let mut store: Option<Store> = None;
    // Rank 0 decides what is resumed; every rank skips the same cells.
    let done: Vec<Key> = ranks.on_root(|| {
        let s = if plan.assemble {
            Store::open_to_assemble(&plan.out, &plan.fingerprint)?
        } else {
            Store::open_as(&plan.out, &plan.fingerprint, plan.shard.as_ref())?
        };
        if s.resumed > 0 {
            eprintln!(
                "resuming: {} finished cells in {}",
                s.resumed,
                plan.out.display()
            );
        }
        let done = s.cells.keys().cloned().collect();
        store = Some(s);
        Ok(done)
    })?;
    let done: BTreeSet<Key> = done.into_iter().collect();
    let positions = engine::run(plan, ranks, &mut store, &done)?;
    Ok(store.map(|s| (s, positions)))
}

/// Prints the tables of `plan`'s finished cells and writes every file.
fn report_on(
    plan: &Plan,
    store: &Store,
    positions: &engine::Positions,
    command: &str,
    addendum: &Addendum,
    mut warnings: Vec<String>,
) -> Result<Outcome> {
    let lines: Vec<usize> = positions.iter().map(|(l, _)| *l).collect();
    let rows = analysis::rows(plan, store, &lines);
    let summaries = analysis::summaries(plan, &rows);
    let clock = if plan.virtual_time() {
        "virtual s"
    } else {
        "s"
    };
    let repeats = if plan.repeat > 1 {
        format!(", each cell the median of {} repeats", plan.repeat)
    } else {
        String::new()
    };
    println!(
        "{} on {} ({} positions, seeds {:?}, {} backend, times in {clock}{repeats}); baseline {} on 1 processor",
        plan.game.info().name,
        plan.testset.display(),
        positions.len(),
        plan.seeds,
        plan.backend,
        plan.baseline.name()
    );
    let shown = table::shown(plan, &summaries);
    for (avg, name) in [
        (Average::PerPosition, "per-position mean (± sd)"),
        (Average::Aggregate, "aggregate (summed times and nodes)"),
    ] {
        println!("\n{name}:");
        print!(
            "{}",
            table::text(&table::HEAD, &table::summary_rows(&shown, avg))
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
        let why = if plan.config.setting == Setting::Research {
            "with --tt normal (a stored result of any sufficient depth cuts off, so the \
             searched tree depends on what the table holds)"
                .to_string()
        } else {
            format!(
                "in the {} setting (variable depth: the searched tree depends on the windows \
                 and the table)",
                plan.config.setting.name()
            )
        };
        println!(
            "note: {differ} runs returned a value different from the baseline's; expected {why}"
        );
    }
    if let Some(w) = analysis::short_cells_warning(plan, store, &rows) {
        eprintln!("warning: {w}");
        warnings.push(w);
    }
    let controls = analysis::controls(plan, &summaries);
    if plan.control.is_some() {
        println!();
        for c in &controls {
            println!("{}", c.line());
        }
        println!(
            "measurement {}",
            crate::never_split::Trust::of(controls.iter().map(|c| c.verdict)).sentence()
        );
    } else if plan.backend == crate::cli::BackendKind::Threads {
        println!(
            "\nno never-splitting control: the baseline {} splits, so nothing checks that its one-processor runs and the N-processor runs are timed alike",
            plan.baseline.name()
        );
    }
    let report = report::write_all(&report::Inputs {
        plan,
        store,
        positions,
        rows: &rows,
        summaries: &summaries,
        shown: &shown,
        command,
        addendum,
        warnings: &warnings,
        controls: &controls,
    })?;
    println!("\nreport: {}", report.display());
    // The plan's own cells: a folder may also hold cells of other processor counts or seeds.
    let cost = store::Cost::of(
        lines
            .iter()
            .flat_map(|&line| plan.keys(line))
            .filter_map(|k| store.cells.get(&k)),
    );
    Ok(Outcome {
        summaries,
        rows,
        report,
        cost,
        built_by: store.built_by.clone(),
        computed: store.computed,
    })
}
