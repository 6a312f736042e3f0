//! The steps of `control/README.md` ("Adding a control module"), followed for a small module:
//! root splitting, where the root's children are the pieces a processor hands to its peers and
//! each child is searched with the full window by the sequential core. The module is written
//! against the crate's public interface only (step 1), refuses an option it does not support
//! (step 2), and is checked as the value-agreement matrix checks every registered algorithm
//! (step 4): on the simulator and on threads, with 1 to 8 processors, its value equals
//! sequential alpha-beta's at the same depth, and with more than one processor the work really
//! moves.

use crate::common;

use common::{Lcg, agreement_config, depth_within_budget, random_position, sequential_alphabeta};
use control::parallel::{ParallelError, ParallelOptions};
use dib::Backend;
use games::{Game, GameId, GameInfo, GameVisitor};

/// Step 1: `src/parallel/rootsplit.rs` would hold exactly this module.
mod rootsplit {
    use std::sync::Arc;

    use control::parallel::{
        Figures, ParallelError, ParallelOptions, ParallelResult, result_from_report,
    };
    use control::search::{
        SearchConfig, SearchError, Searcher, TranspositionTable, Unlimited, shift_decisive,
    };
    use dib::{Application, Effects, Piece, Search, Slot, Step};
    use games::{Game, score};
    use serde::{Deserialize, Serialize};

    /// A problem: the root, or one child of it (by its index in generation order).
    #[derive(Clone, Debug, Serialize, Deserialize)]
    #[serde(bound = "")]
    pub enum Problem<G: Game> {
        /// The root, to `depth` plies.
        Root {
            /// The position.
            position: G,
            /// Plies to search.
            depth: u32,
        },
        /// Child `index` of the root, to `depth` plies.
        Child {
            /// The position.
            position: G,
            /// Plies to search below it.
            depth: u32,
            /// Its index among the root's moves.
            index: u32,
        },
    }

    /// A solved problem's value from its own side to move, and (for the root) the index of the
    /// best move.
    pub type Value = (i32, Option<u32>);

    /// The application: the sequential search's settings and one table shared by every leaf
    /// search of the run.
    pub struct RootSplit<G: Game> {
        config: SearchConfig,
        table: Arc<TranspositionTable>,
        _game: std::marker::PhantomData<G>,
    }

    /// A running search: the root's children not yet searched or handed off, how many handed
    /// off are still out, and the best so far.
    pub struct Running<G: Game> {
        searcher: Searcher<G>,
        position: G,
        depth: u32,
        /// `Some(index)` for a child problem.
        child: Option<u32>,
        moves: Vec<G::Move>,
        next: usize,
        out: usize,
        best: Value,
    }

    impl<G: Game> Application for RootSplit<G> {
        type Problem = Problem<G>;
        type Value = Value;
        type Update = ();
        type Search = Running<G>;

        fn start(&self, problem: &Problem<G>) -> Running<G> {
            let searcher = Searcher::with_table(self.config, Arc::clone(&self.table));
            let (position, depth, child) = match problem {
                Problem::Root { position, depth } => (position.clone(), *depth, None),
                Problem::Child {
                    position,
                    depth,
                    index,
                } => (position.clone(), *depth, Some(*index)),
            };
            let mut moves = Vec::new();
            if child.is_none() && depth > 0 && position.outcome().is_none() {
                position.generate_moves(&mut moves);
            }
            Running {
                searcher,
                position,
                depth,
                child,
                moves,
                next: 0,
                out: 0,
                best: (-score::INFINITY, None),
            }
        }
    }

    impl<G: Game> Running<G> {
        /// The full-window value of `pos` to `depth` plies, its nodes charged to `fx`.
        fn full_window(&mut self, pos: &G, depth: u32, fx: &mut Effects<()>) -> i32 {
            let before = self.searcher.stats().nodes();
            let value = self.searcher.search_window_value(
                pos,
                depth,
                -score::INFINITY,
                score::INFINITY,
                &mut Unlimited,
            );
            fx.charge(self.searcher.stats().nodes() - before);
            value
        }

        /// Combines child `index`'s value (from the child's side) into the root's best.
        fn combine(&mut self, index: u32, child_value: i32) {
            let value = -shift_decisive(child_value, 1);
            if self.best.1.is_none() || value > self.best.0 {
                self.best = (value, Some(index));
            }
        }
    }

    impl<G: Game> Search<RootSplit<G>> for Running<G> {
        fn step(&mut self, _budget: u64, fx: &mut Effects<()>) -> Step<Value> {
            if let Some(index) = self.child {
                let position = self.position.clone();
                return Step::Done((self.full_window(&position, self.depth, fx), Some(index)));
            }
            if self.moves.is_empty() {
                // A finished game or depth 0: the sequential search's value.
                let position = self.position.clone();
                return Step::Done((self.full_window(&position, self.depth, fx), None));
            }
            if self.next < self.moves.len() {
                let index = self.next;
                self.next += 1;
                let mut child = self.position.clone();
                let _ = child.make_move(self.moves[index]);
                let value = self.full_window(&child, self.depth - 1, fx);
                self.combine(index as u32, value);
                return Step::Continue;
            }
            if self.out > 0 {
                return Step::Blocked;
            }
            Step::Done(self.best)
        }

        fn split(&mut self, _fx: &mut Effects<()>) -> Vec<Piece<Problem<G>>> {
            let pieces: Vec<_> = (self.next..self.moves.len())
                .map(|index| {
                    let mut position = self.position.clone();
                    let _ = position.make_move(self.moves[index]);
                    Piece {
                        slot: 0,
                        problem: Problem::Child {
                            position,
                            depth: self.depth - 1,
                            index: index as u32,
                        },
                    }
                })
                .collect();
            self.out += pieces.len();
            self.next = self.moves.len();
            pieces
        }

        fn absorb(&mut self, _slot: Slot, value: Value, _fx: &mut Effects<()>) {
            self.out -= 1;
            if let (child_value, Some(index)) = value {
                self.combine(index, child_value);
            }
        }
    }

    /// Runs root splitting on `root` to `options.depth` plies.
    ///
    /// # Errors
    /// [`ParallelError::BadOption`] for depth 0 (step 2); otherwise when the table cannot be
    /// built or the runtime fails.
    pub fn search<G: Game>(
        root: &G,
        options: &ParallelOptions,
    ) -> Result<ParallelResult<G::Move>, ParallelError> {
        if options.depth == 0 {
            return Err(ParallelError::BadOption {
                algo: "rootsplit",
                message: "the depth is 0; give a depth of at least 1".to_string(),
            });
        }
        let table =
            Arc::new(TranspositionTable::new(options.search.tt_mib).map_err(SearchError::from)?);
        let app = Arc::new(RootSplit {
            config: options.search,
            table,
            _game: std::marker::PhantomData,
        });
        let problem = Problem::Root {
            position: root.clone(),
            depth: options.depth,
        };
        let report = dib::solve(app, problem, options.procs, &options.backend, options.dib)?;
        let (value, index) = report.value;
        let mut moves = Vec::new();
        root.generate_moves(&mut moves);
        let pv: Vec<G::Move> = index
            .and_then(|i| moves.get(i as usize).copied())
            .into_iter()
            .collect();
        Ok(result_from_report(report, value, pv, Figures::default()))
    }
}

struct Agreement {
    runs: usize,
    moved: u64,
}

impl GameVisitor for &mut Agreement {
    type Output = ();

    fn visit<G: Game>(self, info: &'static GameInfo) {
        let mut rng = Lcg(0x5eed ^ info.name.len() as u64);
        for i in 0..4 {
            let pos: G = random_position(&mut rng, i * 3 % 7);
            if pos.outcome().is_some() {
                continue;
            }
            let Some((depth, _)) = depth_within_budget(&pos, 5, 20_000) else {
                continue;
            };
            let want = sequential_alphabeta(&pos, depth);
            let backends = [
                (common::sim_backend(7 + i as u64, "none"), 8),
                (common::sim_backend(11, "none"), 3),
                (Backend::Threads { seed: 3 }, 2),
                (Backend::Threads { seed: 5 }, 1),
            ];
            for (backend, procs) in backends {
                let mut o = ParallelOptions::new(depth, procs, backend);
                o.search = agreement_config();
                let r = rootsplit::search(&pos, &o)
                    .unwrap_or_else(|e| panic!("{} rootsplit: {e}", info.name));
                assert_eq!(
                    r.value,
                    want,
                    "{} rootsplit depth {depth} on {} x{procs}, position {pos}",
                    info.name,
                    o.backend.name()
                );
                // The best move keeps the value.
                let mv = r.best_move.expect("a position with moves has a best move");
                let mut child = pos.clone();
                let _ = child.make_move(mv);
                let got =
                    -control::search::shift_decisive(sequential_alphabeta(&child, depth - 1), 1);
                assert_eq!(
                    got, want,
                    "{} rootsplit: the best move loses value",
                    info.name
                );
                if procs > 1 {
                    self.moved += r.total.dib.problems_received;
                }
                self.runs += 1;
            }
        }
    }
}

#[test]
fn a_module_written_by_the_readme_steps_returns_the_sequential_value() {
    let mut agreement = Agreement { runs: 0, moved: 0 };
    for game in [GameId::TicTacToe4, GameId::Othello6, GameId::Checkers] {
        game.visit(&mut agreement);
    }
    assert!(agreement.runs >= 20, "only {} runs", agreement.runs);
    assert!(
        agreement.moved > 0,
        "no child was ever searched on another processor"
    );
}

#[test]
fn the_module_refuses_what_it_does_not_support() {
    let pos = games::tictactoe::TicTacToe4::start();
    let o = ParallelOptions::new(0, 2, common::sim_backend(1, "none"));
    match rootsplit::search(&pos, &o) {
        Err(ParallelError::BadOption { algo, message }) => {
            assert_eq!(algo, "rootsplit");
            assert!(message.contains("depth"), "{message}");
        }
        other => panic!("depth 0 must be refused, got {other:?}"),
    }
}
