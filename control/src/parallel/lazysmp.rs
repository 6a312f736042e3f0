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
//! the node that makes them (the node cost of the preset).
//!
//! Over MPI ranks share no memory: every rank has its own table. A rank's mailbox collects its
//! searches' stores of at least `SHARE_MIN_DEPTH` plies through the
//! [`SearchContext::stored`](crate::search::SearchContext::stored) hook, and at every poll
//! sends what it collected to every other rank (`LazyMsg::Entries`), which stores the
//! entries in its own table. Rank
//! 0 runs the main search; the value is its completed search at the requested depth, exact as
//! on threads since an entry is as correct on another machine as on the one that made it.
//! See `lazysmp.md`.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use dib::backend::RunOutcome;
use dib::{Activity, Backend, Context, DibCounters, ProcAccounts, ProcId, Processor};
use games::Game;
use games::score::INFINITY;
use serde::{Deserialize, Serialize};

use super::sliced::{Job, JobCtx, Mailbox, Mode, Progress, Sliced};
use super::{Figures, ParallelError, ParallelOptions, ParallelResult};
use crate::search::tt::{TtEntry, value_to_tt};
use crate::search::{
    Limits, SearchConfig, SearchResult, Searcher, TranspositionTable, TtMode, shift_decisive,
};

/// What Lazy SMP processors tell each other.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum LazyMsg {
    /// The main search is done: stop searching.
    Stop,
    /// Table entries (position hash, entry) the sender stored since its last poll (over MPI,
    /// where ranks share no table).
    Entries(Vec<(u64, TtEntry)>),
}

/// Over MPI, a rank sends the entries its table stored with at least this many plies left
/// (shallower ones are cheaper to search again than to send; the research setting does not
/// store below 2 plies anyway).
pub(crate) const SHARE_MIN_DEPTH: u8 = 3;

/// Over MPI, at most this many entries are collected per poll interval (1,024 nodes); a
/// search stores far fewer deep entries than that.
const SHARE_CAPACITY: usize = 1024;

/// The mailbox of a rank over MPI: takes in other ranks' entries, sends its own.
struct Exchange {
    table: Arc<TranspositionTable>,
    /// Entries taken in so far (read by the processor's summary).
    imported: Arc<AtomicU64>,
    /// This rank's deep stores since the last send (at most [`SHARE_CAPACITY`]).
    outbox: Vec<(u64, TtEntry)>,
}

impl Mailbox<LazyMsg> for Exchange {
    fn receive(&mut self, msg: LazyMsg) -> bool {
        match msg {
            LazyMsg::Stop => true,
            LazyMsg::Entries(entries) => {
                self.imported
                    .fetch_add(entries.len() as u64, Ordering::Relaxed);
                // Written to the table directly, not through a search: the hook does not see
                // them, so they are not sent on again (no echo).
                for (hash, entry) in entries {
                    self.table.store(hash, entry);
                }
                false
            }
        }
    }

    fn send(&mut self, ctx: &mut dyn Context<LazyMsg>) {
        if self.outbox.is_empty() {
            return;
        }
        let entries = std::mem::take(&mut self.outbox);
        let me = ctx.id();
        for peer in (0..ctx.procs()).filter(|&p| p != me) {
            ctx.send(peer, LazyMsg::Entries(entries.clone()));
        }
    }

    fn stored(&mut self, hash: u64, entry: &TtEntry) {
        if entry.depth >= SHARE_MIN_DEPTH && self.outbox.len() < SHARE_CAPACITY {
            self.outbox.push((hash, *entry));
        }
    }
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

/// What the run reports of one processor (the main search's answer on processor 0); it
/// crosses ranks over MPI.
#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
struct Summary<G: Game> {
    /// The main search's answer (processor 0 only).
    main: Option<MainAnswer<G::Move>>,
    /// Table entries received from other ranks (MPI only).
    imported: u64,
}

/// What the result takes from the main search.
#[derive(Serialize, Deserialize)]
struct MainAnswer<M> {
    value: i32,
    best_move: Option<M>,
    pv: Vec<M>,
    tt_cutoffs: u64,
}

struct Setup<G: Game> {
    root: G,
    depth: u32,
    config: SearchConfig,
    table: Arc<TranspositionTable>,
    mode: Mode,
    /// Whether every processor of the run probes `table` (not over MPI, where each rank has
    /// its own): probes are then charged as shared-table probes.
    shared: bool,
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
    let shared = setup.shared;
    Box::new(move |ctx: &mut JobCtx<'_>| {
        ctx.set_shared_table(shared);
        let r = s.search(&root, &Limits::depth(depth), ctx);
        ctx.settle(r.stats.nodes());
        Some(r)
    })
}

/// Helper `h`: its own schedule of depths, each a root search in its own move rotation.
fn helper_job<G: Game>(setup: &Setup<G>, h: usize) -> Job<Option<MainOutput<G::Move>>> {
    let (root, depth, mut s) = setup.parts();
    let shared = setup.shared;
    Box::new(move |ctx: &mut JobCtx<'_>| {
        ctx.set_shared_table(shared);
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
pub(crate) struct LazyProcessor<G: Game> {
    id: ProcId,
    job: Sliced<Option<MainOutput<G::Move>>, LazyMsg>,
    result: Option<MainOutput<G::Move>>,
    /// Table entries received from other ranks (MPI only).
    imported: Arc<AtomicU64>,
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
/// [`ParallelError::BadOption`] when the table is off (there would be nothing to share);
/// [`ParallelError::Search`] when the table cannot be built; [`ParallelError::Dib`] when the
/// runtime fails.
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
        Backend::Threads { .. } | Backend::Mpi { .. } => Mode::Inline,
        Backend::Sim(_) => Mode::Stepped,
    };
    // Over MPI this process's table is its rank's alone; its mailbox collects what the others
    // need (inline, so it sees the searches' stores).
    let exchange = matches!(options.backend, Backend::Mpi { .. });
    let table = TranspositionTable::for_config(&options.search)
        .map_err(crate::search::SearchError::from)?;
    table.new_generation();
    let setup = Setup {
        root: root.clone(),
        depth: options.depth,
        config: options.search,
        table: Arc::new(table),
        mode,
        shared: !exchange && options.procs > 1,
    };
    let factory = |id: ProcId| {
        let job = if id == 0 {
            main_job(&setup)
        } else {
            helper_job(&setup, id)
        };
        let imported = Arc::new(AtomicU64::new(0));
        let job = if exchange {
            let mailbox = Exchange {
                table: Arc::clone(&setup.table),
                imported: Arc::clone(&imported),
                outbox: Vec::new(),
            };
            Sliced::with_mailbox(setup.mode, job, Box::new(mailbox))
        } else {
            Sliced::new(setup.mode, job, |m| *m == LazyMsg::Stop)
        };
        LazyProcessor::<G> {
            id,
            job,
            result: None,
            imported,
        }
    };
    // Helpers still blocked in their searches stop and are joined as they are summarized.
    let summarize = |p: LazyProcessor<G>| Summary::<G> {
        main: p.result.map(|r| MainAnswer {
            value: r.value,
            best_move: r.best_move,
            pv: r.pv,
            tt_cutoffs: r.stats.tt_cutoffs,
        }),
        imported: p.imported.load(Ordering::Relaxed),
    };
    let outcome = dib::run_processors(options.procs, &options.backend, &factory, &summarize)?;
    let mut result = finish(outcome, options)?;
    result.figures.hashfull = Some(f64::from(setup.table.hashfull()));
    Ok(result)
}

fn finish<G: Game>(
    mut outcome: RunOutcome<Summary<G>>,
    options: &ParallelOptions,
) -> Result<ParallelResult<G::Move>, ParallelError> {
    let seed = outcome.sim.map(|s| s.seed);
    let MainAnswer {
        value,
        best_move,
        pv,
        tt_cutoffs,
    } = outcome
        .processors
        .get_mut(0)
        .and_then(|p| p.main.take())
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
    let figures = Figures {
        main_nodes: Some(main_nodes),
        helper_nodes: Some(total.backend.nodes - main_nodes),
        main_tt_cutoffs: Some(tt_cutoffs),
        entries_received: Some(outcome.processors.iter().map(|p| p.imported).sum()),
        ..Figures::default()
    };
    Ok(ParallelResult {
        value,
        best_move,
        pv,
        nodes: total.backend.nodes,
        horizon_leaves: None,
        seconds: outcome.elapsed_ns as f64 / 1e9,
        backend: options.backend.name(),
        procs: options.procs,
        accounts,
        total,
        sim: outcome.sim,
        figures,
        aphid: None,
        rank: outcome.rank,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;
    use std::time::Duration;

    use dib::Envelope;
    use games::tictactoe::TicTacToe3;

    use crate::search::{Bound, SearchContext};

    /// Rank 1 of 2: delivers the queued messages and keeps what is sent.
    struct Wire {
        rng: dib::Rng,
        inbox: VecDeque<Envelope<LazyMsg>>,
        sent: Vec<(ProcId, LazyMsg)>,
    }

    impl Context<LazyMsg> for Wire {
        fn id(&self) -> ProcId {
            1
        }
        fn procs(&self) -> usize {
            2
        }
        fn now(&self) -> dib::Nanos {
            0
        }
        fn rng(&mut self) -> &mut dib::Rng {
            &mut self.rng
        }
        fn send(&mut self, to: ProcId, msg: LazyMsg) {
            self.sent.push((to, msg));
        }
        fn poll(&mut self) -> Option<Envelope<LazyMsg>> {
            self.inbox.pop_front()
        }
        fn charge(&mut self, _: u64) {}
        fn finish(&mut self) {}
    }

    /// A search context that records the stores of at least [`SHARE_MIN_DEPTH`] plies.
    #[derive(Default)]
    struct DeepStores(Vec<(u64, TtEntry)>);

    impl SearchContext for DeepStores {
        fn elapsed(&self) -> Duration {
            Duration::ZERO
        }
        fn stored(&mut self, hash: u64, entry: &TtEntry) {
            if entry.depth >= SHARE_MIN_DEPTH {
                self.0.push((hash, *entry));
            }
        }
    }

    #[test]
    fn over_mpi_a_rank_sends_exactly_its_searches_deep_stores_and_no_received_entry() {
        let config = SearchConfig::research();
        let root = TicTacToe3::start();
        // What a plain sequential search stores deep enough to share.
        let mut expected = DeepStores::default();
        let mut s = Searcher::<TicTacToe3>::new(config).unwrap();
        s.search(&root, &Limits::depth(9), &mut expected);
        assert!(expected.0.len() > 10, "{} deep stores", expected.0.len());

        // The same search as rank 1's inline job, with an entry from rank 0 waiting.
        let table = Arc::new(TranspositionTable::new(config.tt_mib).unwrap());
        table.new_generation();
        let imported = Arc::new(AtomicU64::new(0));
        let mailbox = Exchange {
            table: Arc::clone(&table),
            imported: Arc::clone(&imported),
            outbox: Vec::new(),
        };
        let mut s = Searcher::<TicTacToe3>::with_table(config, Arc::clone(&table));
        let job: Job<()> = Box::new(move |ctx: &mut JobCtx<'_>| {
            s.search(&root, &Limits::depth(9), ctx);
        });
        let received = (
            0xDEAD_BEEF_0123_4567,
            TtEntry {
                value: 7,
                depth: 9,
                bound: Bound::Exact,
                move_index: None,
            },
        );
        let mut wire = Wire {
            rng: dib::Rng::new(1),
            inbox: VecDeque::from([Envelope {
                from: 0,
                msg: LazyMsg::Entries(vec![received]),
            }]),
            sent: Vec::new(),
        };
        let mut job = Sliced::with_mailbox(Mode::Inline, job, Box::new(mailbox));
        assert!(matches!(job.step(&mut wire), Progress::Done(())));

        let mut sent = Vec::new();
        for (to, msg) in wire.sent {
            assert_eq!(to, 0);
            let LazyMsg::Entries(entries) = msg else {
                panic!("only entries are sent")
            };
            sent.extend(entries);
        }
        assert_eq!(sent, expected.0, "the searches' deep stores, in order");
        assert!(
            !sent.contains(&received),
            "a received entry is not sent back"
        );
        assert_eq!(table.probe(received.0), Some(received.1));
        assert_eq!(imported.load(Ordering::Relaxed), 1);
    }

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
