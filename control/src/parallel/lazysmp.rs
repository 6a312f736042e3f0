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

use games::Game;
use games::score::INFINITY;

use super::shared_table::{self, Scheme};
use super::sliced::JobContext;
use super::{ParallelError, ParallelOptions, ParallelResult};
use crate::search::tt::value_to_tt;
use crate::search::{Searcher, shift_decisive};

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

/// Helper `h`'s searches up to `depth`: its own schedule of depths, each a root search in its
/// own move rotation. Ends early when a search is stopped.
pub(crate) fn helper_search<G: Game>(
    s: &mut Searcher<G>,
    root: &G,
    h: usize,
    depth: u32,
    ctx: &mut dyn JobContext,
) {
    let mut moves = Vec::with_capacity(G::MAX_MOVES);
    root.generate_moves(&mut moves);
    if root.outcome().is_some() || moves.is_empty() {
        return;
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
                return;
            }
            alpha = alpha.max(-shift_decisive(r.value, 1));
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
    shared_table::search(Scheme::Lazy, root, options)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::time::Duration;

    use dib::{Context, Envelope, ProcId};
    use games::tictactoe::TicTacToe3;

    use super::super::shared_table::{Exchange, SHARE_MIN_DEPTH, TableMsg};
    use super::super::sliced::{Job, JobCtx, Mode, Progress, Sliced};
    use crate::search::tt::TtEntry;
    use crate::search::{Bound, Limits, SearchConfig, SearchContext, TranspositionTable};

    /// Rank 1 of 2: delivers the queued messages and keeps what is sent.
    struct Wire {
        rng: dib::Rng,
        inbox: VecDeque<Envelope<TableMsg>>,
        sent: Vec<(ProcId, TableMsg)>,
    }

    impl Context<TableMsg> for Wire {
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
        fn send(&mut self, to: ProcId, msg: TableMsg) {
            self.sent.push((to, msg));
        }
        fn poll(&mut self) -> Option<Envelope<TableMsg>> {
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
            busy: None,
            imported: Arc::clone(&imported),
            outbox: Vec::new(),
            marks: Vec::new(),
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
                msg: TableMsg::Entries(vec![received]),
            }]),
            sent: Vec::new(),
        };
        let mut job = Sliced::with_mailbox(Mode::Inline, job, Box::new(mailbox));
        assert!(matches!(job.step(&mut wire), Progress::Done(())));

        let mut sent = Vec::new();
        for (to, msg) in wire.sent {
            assert_eq!(to, 0);
            let TableMsg::Entries(entries) = msg else {
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
