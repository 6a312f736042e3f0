//! Runs the missing cells of a comparison: per position the sequential baseline once (choosing
//! the depth with --time-ms), then every series on every processor count and seed, each cell
//! stored the moment it finishes, under one progress bar with an ETA. Simulated cells run on
//! `--jobs` threads at once (`pool.rs`); wall-clock cells run here one at a time, each
//! position's after its warm-up, their repeats interleaved. With `--shard K/N` only the
//! shard's slice of the cells is computed (`shard.rs`). Over MPI every rank walks the same
//! cells (see `ranks.rs`): an MPI cell is one search over all ranks, the one-processor cells
//! run on rank 0 alone, and rank 0 stores them.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{Context as _, Result, anyhow};
use control::parallel::{self, ParallelAlgo, ParallelOptions, ParallelResult};
use control::search::{MAX_DEPTH, SearchContext as _};
use games::{Game, GameInfo, GameVisitor};
use indicatif::ProgressBar;

use super::plan::{Plan, Series};
use super::ranks::Ranks;
use super::store::{CellKind, Key, Record, Store};
use crate::input_error::input;
use crate::testset::{TestSet, read_positions};
use control::engine::WallClock;

/// The positions of the plan's test set as (line, text) pairs.
pub type Positions = Vec<(usize, String)>;

/// A position's missing cells: whether its baseline is, and the (series, processors, seed)
/// of its missing runs.
pub type Missing<'a> = (bool, Vec<(&'a Series, usize, u64)>);

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
        // A shard computes its slice of the cells alone.
        let lines: Vec<usize> = positions.iter().map(|(l, _)| *l).collect();
        let slice = plan.shard.map(|s| s.slice(plan, &lines));
        let wanted = |k: &Key| !done.contains(k) && slice.as_ref().is_none_or(|s| s.contains(k));
        // The cells still to compute, per position (every rank computes the same list).
        let mut todo: Vec<Missing<'_>> = Vec::with_capacity(positions.len());
        let mut runs = 0u64;
        for (line, _) in &positions {
            let base = wanted(&Key::baseline(*line, plan.baseline.name()));
            let mut cells = Vec::new();
            for s in &plan.series {
                for &n in &plan.procs {
                    for &seed in &plan.seeds {
                        if wanted(&Key::run(*line, &s.label, n, seed)) {
                            cells.push((s, n, seed));
                        }
                    }
                }
            }
            runs += (u64::from(base) + cells.len() as u64) * plan.repeat as u64;
            todo.push((base, cells));
        }
        let total = slice.as_ref().map_or(
            positions.len() * (1 + plan.series.len() * plan.procs.len() * plan.seeds.len()),
            std::collections::BTreeSet::len,
        );
        let missing: usize = todo.iter().map(|(b, c)| usize::from(*b) + c.len()).sum();
        if plan.assemble && missing > 0 {
            return Err(input(
                format!("--assemble ({})", plan.out.display()),
                format!(
                    "{missing} of {total} cells are not computed yet; run without --assemble to compute them"
                ),
            ));
        }
        super::interrupt::tally(total - missing, total);
        let bar = if ranks.is_root() {
            crate::progress::bar(runs, "runs", false)
        } else {
            ProgressBar::hidden()
        };
        if plan.virtual_time() {
            // The simulator: never on MPI, so this process keeps the store.
            super::pool::run(plan, disk(store)?, &positions, &todo, &bar)?;
        } else {
            for ((line, root), (base_missing, cells)) in positions.iter().zip(&todo) {
                let (line, base_missing) = (*line, *base_missing);
                if !base_missing && cells.is_empty() {
                    continue;
                }
                // Rank 0 has the baseline (stored, or its depth chosen there alone, warmed up);
                // every rank needs its depth.
                let preparing = WallClock::start();
                let depth = ranks.on_root(|| prepare(plan, disk(store)?, line, root, &bar))?;
                // Choosing the baseline's depth is part of computing the baseline.
                let mut prepared = Some(preparing.elapsed().as_secs_f64());
                // The timed runs: each repeat runs the missing baseline and every missing cell
                // once, in its own order ([`schedule`]); the last repeat completes each cell, which
                // is stored at once.
                let mut jobs: Vec<Option<(&Series, usize, u64)>> = Vec::new();
                if base_missing {
                    jobs.push(None);
                }
                jobs.extend(cells.iter().map(|&c| Some(c)));
                let mut samples: BTreeMap<Key, Vec<Record>> = BTreeMap::new();
                for (rep, at) in schedule(jobs.len(), plan.repeat) {
                    let job = jobs[at];
                    let clock = WallClock::start();
                    let mut keep = |mut rec: Record| -> Result<()> {
                        let extra = if job.is_none() { prepared.take() } else { None };
                        rec.host_seconds =
                            Some(clock.elapsed().as_secs_f64() + extra.unwrap_or_default());
                        let k = rec.key();
                        let list = samples.entry(k.clone()).or_default();
                        list.push(rec);
                        if list.len() == plan.repeat {
                            let cell = median_record(samples.remove(&k).unwrap_or_default())?;
                            disk(store)?.add(cell)?;
                            super::interrupt::saved_one();
                        }
                        Ok(())
                    };
                    let Some((s, n, seed)) = job else {
                        bar.set_message(format!("line {line}: baseline, repeat {}", rep + 1));
                        ranks.on_root(|| keep(baseline_run(plan, line, root, depth)?))?;
                        bar.inc(1);
                        continue;
                    };
                    bar.set_message(format!(
                        "line {line}: {} x{n} seed {seed}, repeat {}",
                        s.label,
                        rep + 1
                    ));
                    let cell = Cell {
                        plan,
                        series: s,
                        line,
                        procs: n,
                        seed,
                        depth,
                    };
                    if plan.on_all_ranks(n) {
                        // Every rank searches; rank 0's verdict (its result, kept, or its
                        // error) is the one every rank follows.
                        let rec = cell.run(root);
                        ranks.on_root(|| keep(rec?))?;
                    } else {
                        ranks.on_root(|| keep(cell.run(root)?))?;
                    }
                    bar.inc(1);
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

/// The order of the timed runs of `jobs` cells repeated `repeat` times, as (repeat, cell):
/// every repeat runs every cell once, in its own order (a Fisher-Yates shuffle from a fixed
/// seed, the same on every MPI rank), so the repeats of a cell are interleaved with the other
/// cells and follow different cells. (A rotation of one order is not enough: it keeps every
/// cell behind the same one, and a run right after a run on more threads was measured slower.)
#[must_use]
pub fn schedule(jobs: usize, repeat: usize) -> Vec<(usize, usize)> {
    let mut state = 0x5eed_u64;
    let mut order = Vec::with_capacity(jobs * repeat);
    for r in 0..repeat {
        let mut cells: Vec<usize> = (0..jobs).collect();
        for i in (1..jobs).rev() {
            let j = (super::metrics::splitmix64(&mut state) % (i as u64 + 1)) as usize;
            cells.swap(i, j);
        }
        order.extend(cells.into_iter().map(|c| (r, c)));
    }
    order
}

/// One cell from its repeats: the record of the repeat at the lower median time, with
/// `seconds` the median of all of them, `times` every repeat's seconds in the order run and
/// `host_seconds` their costs here summed (`None` when any repeat's is unknown).
///
/// # Errors
/// None repeats (an internal error).
pub fn median_record(repeats: Vec<Record>) -> Result<Record> {
    let times: Vec<f64> = repeats.iter().map(|r| r.seconds).collect();
    let host: Option<f64> = repeats.iter().map(|r| r.host_seconds).sum();
    let mut order: Vec<usize> = (0..repeats.len()).collect();
    order.sort_by(|&a, &b| times[a].total_cmp(&times[b]));
    let at = *order
        .get((order.len().max(1) - 1) / 2)
        .ok_or_else(|| anyhow!("internal error: a cell without repeats"))?;
    let mut cell = repeats
        .into_iter()
        .nth(at)
        .ok_or_else(|| anyhow!("internal error: a cell without repeats"))?;
    cell.seconds = super::metrics::median(&times);
    cell.times = times;
    cell.host_seconds = host;
    Ok(cell)
}

/// One run of a series on a position.
pub(super) struct Cell<'a> {
    pub(super) plan: &'a Plan,
    pub(super) series: &'a Series,
    pub(super) line: usize,
    pub(super) procs: usize,
    pub(super) seed: u64,
    pub(super) depth: u32,
}

impl Cell<'_> {
    pub(super) fn run<G: Game>(&self, root: &G) -> Result<Record> {
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
        Ok(record(
            root,
            CellKind::Run,
            line,
            &s.label,
            seed,
            self.depth,
            &r,
        ))
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
    if plan.tt_leaf_ban_from.is_some_and(|from| procs >= from) {
        // Nodes within one ply of the leaves (fewer than 2 plies left) leave the table alone.
        o.search.tt_min_depth = o.search.tt_min_depth.max(2);
    }
    o.aphid = plan.aphid.clone();
    if let Some(m) = plan.min_split_depth {
        o.min_split_depth = m;
    }
    o.algo = plan.algo_options;
    o.split_tables = plan.split_tables;
    Ok(o)
}

/// The depth of one position's baseline: stored, or chosen here (--depth, or by the baseline's
/// time with --time-ms). On a wall-clock backend one untimed run of the baseline at that depth
/// comes first (with --time-ms, the last run of the choice is that run): it allocates and
/// touches the table's memory and warms the caches before anything is timed, so that the first
/// timed run of a process is not slower than the others.
fn prepare<G: Game>(
    plan: &Plan,
    store: &Store,
    line: usize,
    root: &G,
    bar: &ProgressBar,
) -> Result<u32> {
    let name = plan.baseline.name();
    if let Some(r) = store.cells.get(&Key::baseline(line, name)) {
        if !plan.virtual_time() {
            bar.set_message(format!("line {line}: warm-up"));
            baseline_run(plan, line, root, r.depth)?;
        }
        return Ok(r.depth);
    }
    let depth = match (plan.depth, plan.time_ms) {
        (Some(d), _) => {
            if !plan.virtual_time() {
                bar.set_message(format!("line {line}: warm-up"));
                baseline_run(plan, line, root, d)?;
            }
            d
        }
        (None, Some(_)) => {
            bar.set_message(format!("line {line}: choosing the depth"));
            choose_depth(plan, line, root)?.depth
        }
        (None, None) => super::plan::DEFAULT_DEPTH,
    };
    Ok(depth)
}

/// With --time-ms, the baseline of a position at the depth it chooses: runs at depths 1, 2, ...
/// until one takes at least the time (or reaches the deepest depth, or a tree of one node);
/// returns that run.
pub(super) fn choose_depth<G: Game>(plan: &Plan, line: usize, root: &G) -> Result<Record> {
    let ms = plan.time_ms.unwrap_or_default();
    let mut d = 1;
    loop {
        let r = baseline_run(plan, line, root, d)?;
        if r.seconds * 1000.0 >= ms as f64 || d >= MAX_DEPTH || r.nodes <= 1 {
            return Ok(r);
        }
        d += 1;
    }
}

/// One timed run of the baseline of a position at `depth`.
pub(super) fn baseline_run<G: Game>(
    plan: &Plan,
    line: usize,
    root: &G,
    depth: u32,
) -> Result<Record> {
    let name = plan.baseline.name();
    let r = parallel::search(
        plan.baseline,
        root,
        &options(plan, plan.baseline, depth, 1, 1)?,
    )
    .with_context(|| {
        format!(
            "baseline {name} on line {line} of {}",
            plan.testset.display()
        )
    })?;
    Ok(record(root, CellKind::Baseline, line, name, 1, depth, &r))
}

fn record<G: Game>(
    root: &G,
    kind: CellKind,
    line: usize,
    series: &str,
    seed: u64,
    depth: u32,
    r: &ParallelResult<G::Move>,
) -> Record {
    Record {
        format: super::store::FORMAT,
        kind,
        line,
        series: series.to_string(),
        procs: r.procs,
        seed,
        depth,
        value: r.value,
        best_move: r.best_move.map(|m| root.format_move(m)),
        nodes: r.nodes,
        horizon_leaves: r.horizon_leaves,
        seconds: r.seconds,
        busy_ns: r.accounts.iter().map(|a| a.backend.busy_ns).collect(),
        idle_ns: r.accounts.iter().map(|a| a.backend.idle_ns).collect(),
        messaging_ns: r.accounts.iter().map(|a| a.backend.messaging_ns).collect(),
        messages: r.total.backend.messages_sent,
        figures: r.figures,
        aphid: r.aphid.clone(),
        times: vec![r.seconds],
        host_seconds: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use control::parallel::Figures;

    #[test]
    fn repeats_are_interleaved_in_orders_that_change() {
        let (jobs, repeat) = (7, 5);
        let order = schedule(jobs, repeat);
        assert_eq!(order.len(), jobs * repeat);
        // Every repeat runs every cell once, in repeat order.
        for r in 0..repeat {
            let mut cells: Vec<usize> = order.iter().filter(|p| p.0 == r).map(|p| p.1).collect();
            cells.sort_unstable();
            assert_eq!(cells, (0..jobs).collect::<Vec<_>>());
        }
        assert!(order.windows(2).all(|w| w[0].0 <= w[1].0));
        // No cell always runs right after the same one.
        for cell in 0..jobs {
            let before: std::collections::BTreeSet<usize> = order
                .windows(2)
                .filter(|w| w[1].1 == cell)
                .map(|w| w[0].1)
                .collect();
            assert!(before.len() > 1, "cell {cell} always follows {before:?}");
        }
        assert_eq!(
            schedule(7, 5),
            order,
            "a fixed seed: the same on every rank"
        );
        assert_eq!(schedule(1, 2), vec![(0, 0), (1, 0)]);
    }

    fn rec(seconds: f64, nodes: u64) -> Record {
        Record {
            format: super::super::store::FORMAT,
            kind: CellKind::Run,
            line: 1,
            series: "x".into(),
            procs: 1,
            seed: 1,
            depth: 3,
            value: 0,
            best_move: None,
            nodes,
            horizon_leaves: None,
            seconds,
            busy_ns: vec![],
            idle_ns: vec![],
            messaging_ns: vec![],
            messages: 0,
            figures: Figures::default(),
            aphid: None,
            times: vec![seconds],
            host_seconds: Some(seconds / 10.0),
        }
    }

    #[test]
    fn a_cell_is_the_median_of_its_repeats() {
        let cell =
            median_record(vec![rec(3.0, 30), rec(1.0, 10), rec(2.0, 20), rec(9.0, 90)]).unwrap();
        assert_eq!(cell.seconds, 2.5);
        assert_eq!(cell.nodes, 20, "the lower median's record");
        assert_eq!(cell.times, vec![3.0, 1.0, 2.0, 9.0]);
        assert!(
            (cell.host_seconds.unwrap() - 1.5).abs() < 1e-12,
            "every repeat's time here is the cell's cost"
        );
        let mut untimed = rec(4.0, 40);
        untimed.host_seconds = None;
        let cell = median_record(vec![rec(3.0, 30), untimed]).unwrap();
        assert_eq!(cell.host_seconds, None, "a repeat of unknown cost: unknown");
        assert!(median_record(Vec::new()).is_err());
    }
}
