//! Perft of any [`Game`] as a DIB application: the leaf count of the legal-move tree, searched
//! by any number of DIB processors on any backend, equal to the sequential [`Game::perft`].
//!
//! The running search is a depth-first walk with an explicit stack of move lists (the
//! "implicit representation"), making and unmaking moves on one position. Near the leaves it
//! stops walking: a child whose subtree is small (its estimated size at most
//! [`ParallelPerft::bulk_nodes`] positions) is counted by the game's own [`Game::perft`] in one
//! call, so the bulk of the work runs at the game's sequential speed, specialisations included.
//! Such a *bulk subtree* is never subdivided. On a work request the search hands off every
//! untried move of its shallowest level whose children are at least `min_depth` plies deep;
//! children of a bulk level go as bulk problems, counted in one call wherever they run.
//!
//! **Charging.** A node is one position whose moves were generated. Walked positions charge 1
//! each. A bulk subtree charges what it generated when that is known without counting (0 for
//! a leaf, 1 at one ply), and deeper an estimate from its leaf count: the inner positions of a
//! uniform tree of that depth with that many leaves (exact for uniform trees; within a few
//! percent of the exact count on the games here, see `dib/README.md`). Which children are bulk
//! depends only on the parent position and the depth left, and a charge only on the subtree,
//! so every split pattern, processor count and backend charges the same total: the
//! simulator's virtual times stay comparable across runs.

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
    /// A bulk subtree (split off a level whose children are counted in bulk): counted by one
    /// call of the game's perft and charged as such wherever it runs.
    #[serde(default)]
    pub bulk: bool,
}

/// The perft application for game `G`.
#[derive(Debug)]
pub struct ParallelPerft<G> {
    /// Granularity: subtrees shallower than this are never handed off.
    pub min_depth: u32,
    /// A child `k` plies deep under a position with `b` moves is counted by one call of the
    /// game's [`Game::perft`] when `b^(k-1)` (its estimated size) is at most this; 1 walks
    /// every ply but the last.
    pub bulk_nodes: u64,
    game: PhantomData<fn() -> G>,
}

/// The default [`ParallelPerft::bulk_nodes`]: a bulk call is about a quantum of the threads
/// backend (a few of the simulator's), so requests are still answered promptly, and the walk
/// above the bulk subtrees and the per-call cost of the game's perft (chess sets up its rule
/// checks on every call) stay far below the 5 % the runtime may cost on one processor (at 256,
/// chess at depth 6 paid about 9 %).
pub const BULK_NODES: u64 = 1_024;

impl<G> ParallelPerft<G> {
    /// The application with granularity `min_depth` (at least 1) and the default bulk size.
    #[must_use]
    pub fn new(min_depth: u32) -> Self {
        ParallelPerft {
            min_depth: min_depth.max(1),
            bulk_nodes: BULK_NODES,
            game: PhantomData,
        }
    }

    /// The same with bulk subtrees of at most `bulk_nodes` estimated positions (at least 1).
    #[must_use]
    pub fn with_bulk_nodes(self, bulk_nodes: u64) -> Self {
        ParallelPerft {
            bulk_nodes: bulk_nodes.max(1),
            ..self
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
    parallel_perft_with(
        ParallelPerft::<G>::default(),
        position,
        depth,
        procs,
        backend,
        config,
    )
}

/// [`parallel_perft`] with the application's settings chosen by the caller.
///
/// # Errors
/// [`DibError`] when the run cannot start or the simulator stalls (with its seed).
pub fn parallel_perft_with<G: Game>(
    app: ParallelPerft<G>,
    position: &G,
    depth: u32,
    procs: usize,
    backend: &Backend,
    config: Option<DibConfig>,
) -> Result<Report<u64>, DibError> {
    let root = PerftProblem {
        position: position.clone(),
        depth,
        bulk: false,
    };
    dib::solve(Arc::new(app), root, procs, backend, config)
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
            bulk_nodes: self.bulk_nodes,
            bulk: problem.bulk,
            levels: Vec::new(),
            top: 0,
            path: Vec::new(),
            leaves: 0,
            outstanding: 0,
            started: false,
        }
    }
}

/// One ply of the explicit stack: the moves of the position there, the next to try, and
/// whether its children are counted in bulk.
#[derive(Debug)]
struct Level<M> {
    moves: Vec<M>,
    next: usize,
    bulk: bool,
}

/// A running perft.
#[derive(Debug)]
pub struct PerftSearch<G: Game> {
    root: G,
    position: G,
    depth: u32,
    min_depth: u32,
    bulk_nodes: u64,
    /// The whole problem is a bulk subtree.
    bulk: bool,
    /// Levels `0..top` are live; deeper ones keep their buffers for reuse.
    levels: Vec<Level<G::Move>>,
    top: usize,
    /// The moves made from the root to `position`, with their undo tokens.
    path: Vec<(G::Move, G::Undo)>,
    leaves: u64,
    outstanding: u32,
    started: bool,
}

/// Whether the children of a position with `branching` moves, `left` plies deep, are counted
/// in bulk: their estimated size `branching^(left-1)` is at most `bulk_nodes`.
fn is_bulk(branching: usize, left: u32, bulk_nodes: u64) -> bool {
    left <= 1
        || (branching as u64)
            .checked_pow(left - 1)
            .is_some_and(|size| size <= bulk_nodes)
}

/// The nodes charged for a bulk subtree `left` plies deep with `leaves` leaves (see the module
/// docs): exact at 0 and 1 ply; deeper, the positions of a uniform tree with those leaves,
/// `1 + r + ... + r^(left-1) = (leaves - 1) / (r - 1)` with `r` the integer `left`-th root of
/// `leaves` (integer arithmetic only, so every machine charges the same).
fn bulk_charge(leaves: u64, left: u32) -> u64 {
    match left {
        // A leaf: no moves generated.
        0 => 0,
        1 => 1,
        _ => {
            let r = integer_root(leaves, left);
            if r < 2 {
                // A thin subtree (or a game over at its root): about one position a ply.
                u64::from(left).min(leaves.max(1))
            } else {
                (leaves - 1) / (r - 1)
            }
        }
    }
}

/// The largest `r` with `r^k <= n` (`k >= 1`). Called once per bulk subtree, so it starts from
/// the bracket the bit length gives (`n` has `bits` bits: `2^((bits-1)/k)` is at most the root
/// and `2^ceil(bits/k)` above it), a few halvings instead of a search from 0 to `n`: the wider
/// search was 3 % of a one-processor run of 4x4 tic-tac-toe at depth 8.
fn integer_root(n: u64, k: u32) -> u64 {
    if n < 2 || k < 2 {
        return n;
    }
    let bits = u64::BITS - n.leading_zeros();
    let (mut lo, mut hi) = (1u64 << ((bits - 1) / k), 1u64 << bits.div_ceil(k));
    // Invariant: lo^k <= n < hi^k (an overflowing power is above n).
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if mid.checked_pow(k).is_some_and(|p| p <= n) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

impl<G: Game> PerftSearch<G> {
    /// Generates the moves of `position` into level `top` and makes it live.
    fn push_level(&mut self) {
        if self.levels.len() == self.top {
            self.levels.push(Level {
                moves: Vec::with_capacity(G::MAX_MOVES),
                next: 0,
                bulk: false,
            });
        }
        let left = self.depth - (self.top as u32 + 1);
        let level = &mut self.levels[self.top];
        self.position.generate_moves(&mut level.moves);
        level.next = 0;
        level.bulk = is_bulk(level.moves.len(), left, self.bulk_nodes);
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
            if self.depth == 0 {
                self.leaves += 1;
                return self.finish();
            }
            if self.bulk {
                let leaves = self.position.perft(self.depth);
                self.leaves += leaves;
                fx.charge(bulk_charge(leaves, self.depth));
                return self.finish();
            }
            self.push_level();
            fx.charge(1);
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
            if level.bulk {
                // Small subtrees: the game's own perft, one call each, in a tight loop.
                let branching = level.moves.len();
                while nodes < budget && level.next < branching {
                    let mv = level.moves[level.next];
                    level.next += 1;
                    let undo = self.position.make_move(mv);
                    let leaves = if left == 0 {
                        1
                    } else {
                        self.position.perft(left)
                    };
                    self.position.unmake_move(mv, undo);
                    self.leaves += leaves;
                    nodes += bulk_charge(leaves, left);
                }
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
        let bulk = level.bulk;
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
                        bulk,
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

    /// Runs `problem` by hand, splitting every `split_every` steps (never when 0) and running
    /// the pieces the same way: `(leaves, nodes charged)`.
    fn run_by_hand(
        app: &ParallelPerft<TicTacToe4>,
        problem: &PerftProblem<TicTacToe4>,
        split_every: u32,
    ) -> (u64, u64) {
        let mut s = app.start(problem);
        let mut fx = Effects::default();
        let (mut leaves, mut nodes) = (0, 0);
        let mut round = 0;
        loop {
            round += 1;
            if split_every > 0 && round % split_every == 0 {
                for p in s.split(&mut fx) {
                    assert!(p.problem.depth >= app.min_depth);
                    let (l, n) = run_by_hand(app, &p.problem, split_every + 1);
                    leaves += l;
                    nodes += n;
                    s.absorb(p.slot, 0, &mut fx);
                }
            }
            match s.step(13, &mut fx) {
                Step::Continue => {}
                Step::Blocked => unreachable!("every piece was absorbed at once"),
                Step::Done(v) => return (leaves + v, nodes + fx.nodes()),
            }
        }
    }

    #[test]
    fn stepping_and_splitting_by_hand_matches_sequential_perft_and_charges_the_same() {
        let root = TicTacToe4::start();
        for depth in [0, 1, 2, 5] {
            let want = root.clone().perft(depth);
            let problem = PerftProblem {
                position: root,
                depth,
                bulk: false,
            };
            for bulk in [1, 16, BULK_NODES] {
                let app = ParallelPerft::<TicTacToe4>::new(1).with_bulk_nodes(bulk);
                let whole = run_by_hand(&app, &problem, 0);
                assert_eq!(whole.0, want, "depth {depth}, bulk {bulk}");
                for every in [1, 2, 3] {
                    assert_eq!(
                        run_by_hand(&app, &problem, every),
                        whole,
                        "depth {depth}, bulk {bulk}, split every {every}"
                    );
                }
            }
        }
    }

    #[test]
    fn bulk_charges_are_exact_on_uniform_trees() {
        for (n, k, r) in [
            (0, 2, 0),
            (1, 3, 1),
            (8, 3, 2),
            (26, 3, 2),
            (27, 3, 3),
            (990, 3, 9),
        ] {
            assert_eq!(integer_root(n, k), r, "{n} {k}");
        }
        assert_eq!(integer_root(u64::MAX, 2), u64::from(u32::MAX));
        assert_eq!(integer_root(u64::MAX, 64), 1);
        // Against the definition, around every power.
        for k in 1..=8u32 {
            for r in 0..=40u64 {
                let Some(p) = r.checked_pow(k) else { break };
                for n in [p.saturating_sub(1), p, p + 1] {
                    let want = (0..=n).take_while(|x| x.pow(k) <= n).last().unwrap_or(0);
                    assert_eq!(integer_root(n, k), want, "{n} {k}");
                }
            }
        }
        for k in 2..=63 {
            let r = integer_root(u64::MAX, k);
            assert!(r.checked_pow(k).is_some(), "{k}");
            assert!((r + 1).checked_pow(k).is_none(), "{k}");
        }
        for b in [2u64, 3, 10, 30] {
            for k in 2..=4 {
                let inner: u64 = (0..k).map(|i| b.pow(i)).sum();
                assert_eq!(bulk_charge(b.pow(k), k), inner, "b {b} k {k}");
            }
        }
        assert_eq!(bulk_charge(0, 3), 1);
        assert_eq!(bulk_charge(5, 1), 1);
        assert_eq!(bulk_charge(1, 0), 0);
    }

    #[test]
    fn walking_every_inner_ply_charges_exactly_the_positions_generated() {
        // With bulk size 1 only the last ply is bulk: the charge is the exact count of
        // positions whose moves were generated, the nodes of depth 0..depth-1.
        let root = TicTacToe4::start();
        let app = ParallelPerft::<TicTacToe4>::new(2).with_bulk_nodes(1);
        let problem = PerftProblem {
            position: root,
            depth: 4,
            bulk: false,
        };
        let inner: u64 = (0..4).map(|d| root.clone().perft(d)).sum();
        assert_eq!(
            run_by_hand(&app, &problem, 0),
            (root.clone().perft(4), inner)
        );
    }
}
