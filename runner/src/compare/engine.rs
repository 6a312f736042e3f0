//! Runs the missing cells of a comparison: per position the sequential baseline once (choosing
//! the depth with --time-ms), then every series on every processor count and seed, each cell
//! stored the moment it finishes, under one progress bar with an ETA. Over MPI every rank walks
//! the same cells (see `ranks.rs`): an MPI cell is one search over all ranks, the
//! one-processor cells run on rank 0 alone, and rank 0 stores them.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{Context as _, Result, anyhow};
use control::parallel::{self, ParallelAlgo, ParallelOptions, ParallelResult};
use control::search::MAX_DEPTH;
use games::{Game, GameInfo, GameVisitor};
use indicatif::ProgressBar;

use super::plan::{Plan, Series};
use super::ranks::Ranks;
use super::store::{Key, Record, Store, key};
use crate::testset::{TestSet, read_positions};

/// The positions of the plan's test set as (line, text) pairs.
pub type Positions = Vec<(usize, String)>;

/// Runs every cell of `plan` not in `done` into `store` (`Some` on the root rank, `None` on the
/// other MPI ranks); returns the positions used. Every rank calls it.
pub fn run(
    plan: &Plan,
    ranks: &Ranks<'_>,
    store: &mut Option<Store>,
    done: &BTreeSet<Key>,
) -> Result<Positions> {
    plan.game.visit(Visitor {
        plan,
        ranks,
        store,
        done,
    })
}

struct Visitor<'a, 's> {
    plan: &'a Plan,
    ranks: &'a Ranks<'s>,
    store: &'a mut Option<Store>,
    done: &'a BTreeSet<Key>,
}

/// The store, which only the root rank has.
fn disk(store: &mut Option<Store>) -> Result<&mut Store> {
    store
        .as_mut()
        .ok_or_else(|| anyhow!("internal error: only rank 0 keeps the cells"))
}

impl GameVisitor for Visitor<'_, '_> {
    type Output = Result<Positions>;

    fn visit<G: Game>(self, info: &'static GameInfo) -> Result<Positions> {
        let Visitor {
            plan,
            ranks,
            store,
            done,
        } = self;
        if ranks.is_root() && matches!(plan.testset, TestSet::Random { .. }) {
            eprintln!(
                "compare: no built-in test set is named {}; using {} (give --testset to choose)",
                info.name,
                plan.testset.display()
            );
        }
        let mut positions = read_positions::<G>("--testset", &plan.testset, info)?;
        if let Some(n) = plan.positions {
            positions.truncate(n);
        }
        let mut todo = 0u64;
        for (line, _) in &positions {
            if !done.contains(&key("baseline", *line, plan.baseline.name(), 1, 1)) {
                todo += 1;
            }
            for s in &plan.series {
                for &n in &plan.procs {
                    for &seed in &plan.seeds {
                        if !done.contains(&key("run", *line, &s.label, n, seed)) {
                            todo += 1;
                        }
                    }
                }
            }
        }
        let bar = if ranks.is_root() {
            crate::progress::bar(todo, "cells", false)
        } else {
            ProgressBar::hidden()
        };
        for (line, root) in &positions {
            let line = *line;
            // Rank 0 has the baseline (stored, or computed there alone); every rank needs its
            // depth.
            let base = ranks.on_root(|| baseline(plan, disk(store)?, line, root, &bar))?;
            for s in &plan.series {
                for &n in &plan.procs {
                    for &seed in &plan.seeds {
                        if done.contains(&key("run", line, &s.label, n, seed)) {
                            continue;
                        }
                        bar.set_message(format!("line {line}: {} x{n} seed {seed}", s.label));
                        let cell = Cell {
                            plan,
                            series: s,
                            line,
                            procs: n,
                            seed,
                            depth: base.depth,
                        };
                        if plan.on_all_ranks(n) {
                            // Every rank searches; rank 0's verdict (its result, stored, or
                            // its error) is the one every rank follows.
                            let rec = cell.run(root);
                            ranks.on_root(|| disk(store)?.add(rec?))?;
                        } else {
                            ranks.on_root(|| disk(store)?.add(cell.run(root)?))?;
                        }
                        bar.inc(1);
                    }
                }
            }
        }
        bar.finish_and_clear();
        Ok(positions
            .iter()
            .map(|(line, pos)| (*line, pos.to_string()))
            .collect())
    }
}

/// One run of a series on a position.
struct Cell<'a> {
    plan: &'a Plan,
    series: &'a Series,
    line: usize,
    procs: usize,
    seed: u64,
    depth: u32,
}

impl Cell<'_> {
    fn run<G: Game>(&self, root: &G) -> Result<Record> {
        let (plan, s, line, n, seed) = (self.plan, self.series, self.line, self.procs, self.seed);
        let mut options = options(plan, s.algo, self.depth, n, seed)?;
        if let Some(sort) = s.sort {
            options.search.sorting.regime = sort;
        }
        let r = parallel::search(s.algo, root, &options).with_context(|| {
            format!(
                "{} on line {line} of {} with {n} processors, seed {seed}",
                s.label,
                plan.testset.display()
            )
        })?;
        Ok(record("run", line, &s.label, seed, self.depth, &r))
    }
}

fn options(
    plan: &Plan,
    algo: ParallelAlgo,
    depth: u32,
    procs: usize,
    seed: u64,
) -> Result<ParallelOptions> {
    let mut o = ParallelOptions::for_algo(algo, depth, procs, plan.backend(procs, seed)?);
    o.search = plan.config;
    o.aphid = plan.aphid.clone();
    if let Some(m) = plan.min_split_depth {
        o.min_split_depth = m;
    }
    o.mwf_wait = plan.mwf_wait;
    Ok(o)
}

/// The baseline of one position, from the store or computed (and stored).
fn baseline<G: Game>(
    plan: &Plan,
    store: &mut Store,
    line: usize,
    root: &G,
    bar: &ProgressBar,
) -> Result<Record> {
    let name = plan.baseline.name();
    let k = key("baseline", line, name, 1, 1);
    if let Some(r) = store.cells.get(&k) {
        return Ok(r.clone());
    }
    bar.set_message(format!("line {line}: baseline {name}"));
    let run = |depth: u32| -> Result<ParallelResult<G::Move>> {
        parallel::search(
            plan.baseline,
            root,
            &options(plan, plan.baseline, depth, 1, 1)?,
        )
        .with_context(|| {
            format!(
                "baseline {name} on line {line} of {}",
                plan.testset.display()
            )
        })
    };
    let (depth, r) = match (plan.depth, plan.time_ms) {
        (Some(d), _) => (d, run(d)?),
        (None, Some(ms)) => {
            let mut d = 1;
            loop {
                let r = run(d)?;
                if r.seconds * 1000.0 >= ms as f64 || d >= MAX_DEPTH || r.nodes <= 1 {
                    break (d, r);
                }
                d += 1;
            }
        }
        (None, None) => (super::plan::DEFAULT_DEPTH, run(super::plan::DEFAULT_DEPTH)?),
    };
    let rec = record("baseline", line, name, 1, depth, &r);
    store.add(rec.clone())?;
    bar.inc(1);
    Ok(rec)
}

fn record<M>(
    kind: &str,
    line: usize,
    series: &str,
    seed: u64,
    depth: u32,
    r: &ParallelResult<M>,
) -> Record {
    Record {
        kind: kind.to_string(),
        line,
        series: series.to_string(),
        procs: r.procs,
        seed,
        depth,
        value: r.value,
        nodes: r.nodes,
        seconds: r.seconds,
        busy_ns: r.accounts.iter().map(|a| a.backend.busy_ns).collect(),
        idle_ns: r.accounts.iter().map(|a| a.backend.idle_ns).collect(),
        messaging_ns: r.accounts.iter().map(|a| a.backend.messaging_ns).collect(),
        messages: r.total.backend.messages_sent,
        extra: r
            .extra
            .iter()
            .map(|(k, v)| ((*k).to_string(), *v))
            .collect::<BTreeMap<_, _>>(),
        aphid: r.aphid.clone(),
    }
}
