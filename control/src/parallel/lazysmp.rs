//! `lazysmp`: Lazy SMP, the modern reference. Every processor runs its own iterative deepening
//! from the root; they share one transposition table and nothing else. Processor 0 (the main
//! processor) runs the ordinary sequential iterative deepening to the requested depth, and its
//! last completed iteration is the answer; the helpers only fill the table, which the main
//! search then hits.
//!
//! Helpers are varied so that they do not repeat the main search move for move:
//!
//! - **depth**: helper `h` skips some iterations, after a fixed pattern of skip sizes and
//!   phases (helpers 1 and 2 skip every other depth, in opposite phases; helpers 3 to 6 run two
//!   depths in four; and so on), so that at any time helpers are ahead of the main search;
//! - **order**: at its root a helper searches the moves in its own rotation (helper `h` starts
//!   with the `h`-th move), each with the full window, so different helpers settle different
//!   root subtrees first and store exact values for them.
//!
//! # Why the value is the sequential one
//!
//! The table is used in exact-depth mode ([`TtMode::ExactDepth`]): a stored value cuts off only
//! at exactly the depth it was searched to. Whatever processor stored it, with whatever window,
//! such an entry is a correct bound (or the exact value) of that position's fixed-depth value
//! in the research setting, where values are window-free; so the main search returns exactly
//! the value of sequential alpha-beta at the depth, as the agreement matrix checks. (A normal
//! table would let deeper helper results cut off and return deeper values; a final
//! verification search would cost a second search.) The entries are validated by their
//! checksum word, so an entry torn by racing writers is never used.
//!
//! # Backends
//!
//! On threads every processor is one OS thread and the table is the lock-free shared
//! [`TranspositionTable`]. On the simulator the processors share the same table object; the
//! simulator runs one processor's slice at a time in virtual-time order, and a slice is one
//! poll interval of the search (1,024 nodes), so a store becomes visible to the other
//! processors at the end of the slice that made it (within one slice of the virtual time at
//! which it was made: about 10 ms of virtual time with the shared-memory preset, whose 2 µs
//! latency is far below that and is not modelled separately). Probes are charged as part of
//! the node that makes them (the node cost of the preset). See `lazysmp.md`.

use std::sync::Arc;

use dib::backend::RunOutcome;
use dib::{Activity, Backend, Context, DibCounters, ProcAccounts, ProcId, Processor};
use games::Game;
use games::score::INFINITY;
use serde::{Deserialize, Serialize};

use super::sliced::{Job, JobCtx, Mode, Progress, Sliced};
use super::{ParallelError, ParallelOptions, ParallelResult};
use crate::search::tt::value_to_tt;
use crate::search::{
    Limits, SearchConfig, SearchResult, Searcher, TranspositionTable, TtMode, shift_decisive,
};

/// The only message: the main search is done, stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LazyMsg {
    /// Stop searching.
    Stop,
}

/// Skip sizes and phases of the helpers' iteration schedules (helper `h` uses entry
/// `(h - 1) % 20`): helper 1 and 2 run every other depth, helpers 3 to 6 two depths in four,
/// helpers 7 to 12 three in six, helpers 13 to 20 four in eight.
const SKIP_SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// Whether helper `h` (1-based) searches iteration `depth`.
fn helper_searches(h: usize, depth: u32) -> bool {
    let i = (h - 1) % SKIP_SIZE.len();
    ((depth + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 == 0
}

/// What processor 0 returns.
type MainOutput<M> = SearchResult<M>;

struct Setup<G: Game> {
    root: G,
    depth: u32,
    config: SearchConfig,
    table: Arc<TranspositionTable>,
    mode: Mode,
}

impl<G: Game> Setup<G> {
    /// What a job owns: the root, the depth, and a searcher on the shared table.
    fn parts(&self) -> (G, u32, Searcher<G>) {
        let searcher = Searcher::with_table(self.config, Arc::clone(&self.table));
        (self.root.clone(), self.depth, searcher)
    }
}

/// The main search: sequential iterative deepening to the depth.
fn main_job<G: Game>(setup: &Setup<G>) -> Job<Option<MainOutput<G::Move>>> {
    let (root, depth, mut s) = setup.parts();
    Box::new(move |ctx: &mut JobCtx<'_>| {
        let r = s.search(&root, &Limits::depth(depth), ctx);
        ctx.settle(r.stats.nodes());
        Some(r)
    })
}

/// Helper `h`: its own schedule of depths, each a root search in its own move rotation.
fn helper_job<G: Game>(setup: &Setup<G>, h: usize) -> Job<Option<MainOutput<G::Move>>> {
    let (root, depth, mut s) = setup.parts();
    Box::new(move |ctx: &mut JobCtx<'_>| {
        let mut moves = Vec::with_capacity(G::MAX_MOVES);
        root.generate_moves(&mut moves);
        if root.outcome().is_some() || moves.is_empty() {
            return None;
        }
        let n = moves.len();
        for d in 1..=depth {
            if !helper_searches(h, d) {
                continue;
            }
            let mut alpha = -INFINITY;
            for j in 0..n {
                let mut child = root.clone();
                let _ = child.make_move(moves[(h + j) % n]);
                let before = s.stats().nodes();
                // The child's beta for the root's alpha (decisive scores one ply further).
                let cb = if alpha <= -INFINITY {
                    INFINITY
                } else {
                    value_to_tt(-alpha, 1)
                };
                // As PVS: the first child with the full window, later ones with a null window
                // and again with the full window when they beat alpha.
                let first = j == 0 || alpha <= -INFINITY;
                let mut r = if first {
                    s.search_window(&child, d - 1, -INFINITY, cb, ctx)
                } else {
                    s.search_window(&child, d - 1, cb - 1, cb, ctx)
                };
                if !first && r.completed && r.value < cb {
                    r = s.search_window(&child, d - 1, -INFINITY, cb, ctx);
                }
                ctx.settle(s.stats().nodes() - before);
                if !r.completed || ctx.stop_requested() {
                    return None;
                }
                alpha = alpha.max(-shift_decisive(r.value, 1));
            }
        }
        None
    })
}

/// One Lazy SMP processor.
pub struct LazyProcessor<G: Game> {
    id: ProcId,
    job: Sliced<Option<MainOutput<G::Move>>, LazyMsg>,
    result: Option<MainOutput<G::Move>>,
}

impl<G: Game> Processor for LazyProcessor<G> {
    type Msg = LazyMsg;

    fn run(&mut self, ctx: &mut dyn Context<LazyMsg>) -> Activity {
        match self.job.step(ctx) {
            Progress::Running => Activity::Busy,
            Progress::Done(out) => {
                if self.id == 0 {
                    self.result = out;
                    for p in 1..ctx.procs() {
                        ctx.send(p, LazyMsg::Stop);
                    }
                    ctx.finish();
                }
                Activity::Idle { wake_at: None }
            }
            Progress::Over => Activity::Idle { wake_at: None },
        }
    }
}

/// Searches `root` to `options.depth` plies with Lazy SMP on `options.procs` processors.
///
/// # Errors
/// [`ParallelError::BadOption`] when the table is off (there would be nothing to share) or the
/// backend is MPI (no shared memory); [`ParallelError::Search`] when the table cannot be
/// built; [`ParallelError::Dib`] when the simulator fails.
pub fn search<G: Game>(
    root: &G,
    options: &ParallelOptions,
) -> Result<ParallelResult<G::Move>, ParallelError> {
    let bad = |message: &str| ParallelError::BadOption {
        algo: "lazysmp",
        message: message.to_string(),
    };
    if options.search.tt_mode == TtMode::Off {
        return Err(bad(
            "the processors share a transposition table; use --tt-mode exact (or normal)",
        ));
    }
    if options.procs == 0 {
        return Err(dib::DibError::NoProcessors.into());
    }
    let mode = match options.backend {
        Backend::Threads { .. } => Mode::Inline,
        Backend::Sim(_) => Mode::Stepped,
        Backend::Mpi { .. } => {
            return Err(bad(
                "the shared table needs shared memory; use --backend threads or sim",
            ));
        }
    };
    let table =
        TranspositionTable::new(options.search.tt_mib).map_err(crate::search::SearchError::from)?;
    table.new_generation();
    let setup = Setup {
        root: root.clone(),
        depth: options.depth,
        config: options.search,
        table: Arc::new(table),
        mode,
    };
    let factory = |id: ProcId| {
        let job = if id == 0 {
            main_job(&setup)
        } else {
            helper_job(&setup, id)
        };
        LazyProcessor::<G> {
            id,
            job: Sliced::new(setup.mode, job, |m| *m == LazyMsg::Stop),
            result: None,
        }
    };
    let outcome: RunOutcome<LazyProcessor<G>> = match &options.backend {
        Backend::Sim(config) => {
            dib::backend::sim::run(options.procs, config, &factory).map_err(dib::DibError::from)?
        }
        _ => dib::backend::threads::run(options.procs, seed_of(&options.backend), &factory),
    };
    finish(outcome, options)
}

fn seed_of(backend: &Backend) -> u64 {
    match backend {
        Backend::Threads { seed } | Backend::Mpi { seed } => *seed,
        Backend::Sim(c) => c.seed,
    }
}

fn finish<G: Game>(
    mut outcome: RunOutcome<LazyProcessor<G>>,
    options: &ParallelOptions,
) -> Result<ParallelResult<G::Move>, ParallelError> {
    let seed = outcome.sim.map(|s| s.seed);
    let main = outcome
        .processors
        .get_mut(0)
        .and_then(|p| p.result.take())
        .ok_or(dib::DibError::NoValue { seed })?;
    let accounts: Vec<ProcAccounts> = outcome
        .counters
        .iter()
        .map(|c| ProcAccounts {
            backend: *c,
            dib: DibCounters::default(),
        })
        .collect();
    let total = ProcAccounts::total(&accounts);
    let main_nodes = accounts.first().map_or(0, |a| a.backend.nodes);
    let extra = vec![
        ("main_nodes", main_nodes as f64),
        ("helper_nodes", (total.backend.nodes - main_nodes) as f64),
        ("main_tt_cutoffs", main.stats.tt_cutoffs as f64),
    ];
    // Helpers still blocked in their searches stop and are joined here.
    drop(outcome.processors);
    Ok(ParallelResult {
        value: main.value,
        best_move: main.best_move,
        pv: main.pv,
        nodes: total.backend.nodes,
        seconds: outcome.elapsed_ns as f64 / 1e9,
        backend: options.backend.name(),
        procs: options.procs,
        accounts,
        total,
        sim: outcome.sim,
        extra,
        // Lazy SMP refuses the MPI backend (its table is shared memory).
        rank: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helper_schedules_differ_and_cover_every_depth() {
        let runs = |h| {
            (1..=8)
                .filter(|&d| helper_searches(h, d))
                .collect::<Vec<_>>()
        };
        assert_eq!(runs(1), vec![2, 4, 6, 8]);
        assert_eq!(runs(2), vec![1, 3, 5, 7]);
        assert_eq!(runs(3), vec![1, 4, 5, 8]);
        for d in 1..=8 {
            assert!((1..=6).any(|h| helper_searches(h, d)), "depth {d}");
        }
    }
}
