//! Perft of any [`Game`] as a DIB application: the leaf count of the legal-move tree, searched
//! by any number of DIB processors on any backend, equal to the sequential [`Game::perft`].
//!
//! The running search is a depth-first walk with an explicit stack of move lists (the
//! "implicit representation"), making and unmaking moves on one position and counting the last
//! ply in bulk, like `games::perft::generic_perft`. On a work request it hands off every
//! untried move of its shallowest level whose subtrees are at least `min_depth` plies deep.
//! A node is one position whose moves were generated.

use std::marker::PhantomData;
use std::sync::Arc;

use dib::{Application, Backend, DibConfig, DibError, Effects, Piece, Report, Search, Slot, Step};
use games::Game;
use serde::{Deserialize, Serialize};

/// A perft problem: count the leaves `depth` plies below `position`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct PerftProblem<G: Game> {
    /// The position.
    pub position: G,
    /// Plies to go.
    pub depth: u32,
}

/// The perft application for game `G`.
#[derive(Debug)]
pub struct ParallelPerft<G> {
    /// Granularity: subtrees shallower than this are never handed off.
    pub min_depth: u32,
    game: PhantomData<fn() -> G>,
}

impl<G> ParallelPerft<G> {
    /// The application with granularity `min_depth` (at least 1).
    #[must_use]
    pub fn new(min_depth: u32) -> Self {
        ParallelPerft {
            min_depth: min_depth.max(1),
            game: PhantomData,
        }
    }
}

impl<G> Default for ParallelPerft<G> {
    fn default() -> Self {
        ParallelPerft::new(2)
    }
}

/// Counts the leaves `depth` plies below `position` with `procs` DIB processors on `backend`
/// (`config`: the backend's default when `None`).
///
/// # Errors
/// [`DibError`] when the run cannot start or the simulator stalls (with its seed).
pub fn parallel_perft<G: Game>(
    position: &G,
    depth: u32,
    procs: usize,
    backend: &Backend,
    config: Option<DibConfig>,
) -> Result<Report<u64>, DibError> {
    let root = PerftProblem {
        position: position.clone(),
        depth,
    };
    dib::solve(
        Arc::new(ParallelPerft::<G>::default()),
        root,
        procs,
        backend,
        config,
    )
}

impl<G: Game> Application for ParallelPerft<G> {
    type Problem = PerftProblem<G>;
    type Value = u64;
    type Update = ();
    type Search = PerftSearch<G>;

    fn start(&self, problem: &PerftProblem<G>) -> PerftSearch<G> {
        PerftSearch {
            root: problem.position.clone(),
            position: problem.position.clone(),
            depth: problem.depth,
            min_depth: self.min_depth,
            levels: Vec::new(),
            top: 0,
            path: Vec::new(),
            scratch: Vec::with_capacity(G::MAX_MOVES),
            leaves: 0,
            outstanding: 0,
            started: false,
        }
    }
}

/// One ply of the explicit stack: the moves of the position there, and the next to try.
#[derive(Debug)]
struct Level<M> {
    moves: Vec<M>,
    next: usize,
}

/// A running perft.
#[derive(Debug)]
pub struct PerftSearch<G: Game> {
    root: G,
    position: G,
    depth: u32,
    min_depth: u32,
    /// Levels `0..top` are live; deeper ones keep their buffers for reuse.
    levels: Vec<Level<G::Move>>,
    top: usize,
    /// The moves made from the root to `position`, with their undo tokens.
    path: Vec<(G::Move, G::Undo)>,
    scratch: Vec<G::Move>,
    leaves: u64,
    outstanding: u32,
    started: bool,
}

impl<G: Game> PerftSearch<G> {
    /// Generates the moves of `position` into level `top` and makes it live.
    fn push_level(&mut self) {
        if self.levels.len() == self.top {
            self.levels.push(Level {
                moves: Vec::with_capacity(G::MAX_MOVES),
                next: 0,
            });
        }
        let level = &mut self.levels[self.top];
        self.position.generate_moves(&mut level.moves);
        level.next = 0;
        self.top += 1;
    }

    fn finish(&self) -> Step<u64> {
        if self.outstanding > 0 {
            Step::Blocked
        } else {
            Step::Done(self.leaves)
        }
    }
}

impl<G: Game> Search<ParallelPerft<G>> for PerftSearch<G> {
    fn step(&mut self, budget: u64, fx: &mut Effects<()>) -> Step<u64> {
        if !self.started {
            self.started = true;
            match self.depth {
                0 => {
                    self.leaves += 1;
                    return self.finish();
                }
                1 => {
                    self.position.generate_moves(&mut self.scratch);
                    fx.charge(1);
                    self.leaves += self.scratch.len() as u64;
                    return self.finish();
                }
                _ => {
                    self.push_level();
                    fx.charge(1);
                }
            }
        }
        let mut nodes = 0;
        while nodes < budget && self.top > 0 {
            let lvl = self.top - 1;
            let level = &mut self.levels[lvl];
            if level.next == level.moves.len() {
                self.top -= 1;
                if let Some((mv, undo)) = self.path.pop() {
                    self.position.unmake_move(mv, undo);
                }
                continue;
            }
            // Plies left below the children of this level.
            let left = self.depth - (lvl as u32 + 1);
            if left == 1 {
                // The last inner ply: count the leaves in bulk, in a tight loop.
                let room = usize::try_from(budget - nodes).unwrap_or(usize::MAX);
                let end = level.moves.len().min(level.next.saturating_add(room));
                for &mv in &level.moves[level.next..end] {
                    let undo = self.position.make_move(mv);
                    // The game's own (possibly specialised) bulk count of one ply.
                    self.leaves += self.position.perft(1);
                    self.position.unmake_move(mv, undo);
                }
                nodes += (end - level.next) as u64;
                level.next = end;
                continue;
            }
            let mv = level.moves[level.next];
            level.next += 1;
            let undo = self.position.make_move(mv);
            nodes += 1;
            self.path.push((mv, undo));
            self.push_level();
        }
        fx.charge(nodes);
        if self.top > 0 {
            Step::Continue
        } else {
            self.finish()
        }
    }

    fn split(&mut self, _fx: &mut Effects<()>) -> Vec<Piece<PerftProblem<G>>> {
        let depth = self.depth;
        let min = self.min_depth;
        let Some(lvl) = (0..self.top).find(|&l| {
            let level = &self.levels[l];
            level.next < level.moves.len() && depth - (l as u32 + 1) >= min
        }) else {
            return Vec::new();
        };
        let mut at = self.root.clone();
        for (mv, _) in &self.path[..lvl] {
            // The undo token is not needed: `at` is a scratch copy.
            let _ = at.make_move(*mv);
        }
        let level = &mut self.levels[lvl];
        let pieces: Vec<_> = level.moves[level.next..]
            .iter()
            .map(|&mv| {
                let mut child = at.clone();
                let _ = child.make_move(mv);
                Piece {
                    slot: lvl as Slot,
                    problem: PerftProblem {
                        position: child,
                        depth: depth - (lvl as u32 + 1),
                    },
                }
            })
            .collect();
        level.next = level.moves.len();
        self.outstanding += pieces.len() as u32;
        pieces
    }

    fn absorb(&mut self, _slot: Slot, value: u64, _fx: &mut Effects<()>) {
        self.leaves += value;
        self.outstanding -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::tictactoe::TicTacToe4;

    #[test]
    fn stepping_and_splitting_by_hand_matches_sequential_perft() {
        let root = TicTacToe4::start();
        let want = root.clone().perft(5);
        let app = ParallelPerft::<TicTacToe4>::new(1);
        let mut s = app.start(&PerftProblem {
            position: root,
            depth: 5,
        });
        let mut fx = Effects::default();
        let mut total = 0;
        let mut round = 0;
        loop {
            round += 1;
            if round % 3 == 0 {
                for p in s.split(&mut fx) {
                    total += p.problem.position.clone().perft(p.problem.depth);
                    s.absorb(p.slot, 0, &mut fx);
                }
            }
            match s.step(13, &mut fx) {
                Step::Continue => {}
                Step::Blocked => unreachable!("every piece was absorbed at once"),
                Step::Done(v) => {
                    total += v;
                    break;
                }
            }
        }
        assert_eq!(total, want);
    }
}
