//! Alpha-beta over any [`Game`] as a DIB application, with a *split policy* saying which nodes
//! of a running search may hand children to other processors: the shared engine of mandatory
//! work first ([`super::mwf`], [`super::dmwf`]) and tree splitting ([`super::treesplit`]).
//!
//! Every search is fail-soft negamax alpha-beta over an explicit stack of frames (one frame per
//! node with at least `min_split_depth` plies left; shallower subtrees and terminal positions
//! are searched at once by the sequential [`Searcher`]). Each frame knows its Knuth-Moore type
//! in the sense of Akl, Barnard and Doran (type 1: the leftmost path; the eldest child of a
//! type-1 node is type 1 and the others type 2; every child of a type-2 node is type 3; every
//! child of a type-3 node is type 2). When a peer asks for work, the shallowest frame the
//! policy allows hands off all its untried children. A piece carries the window of the frame it
//! came from; when that frame's window narrows, the new window goes to its pieces as an update
//! (information spreading); when a frame is cut off, its pieces are aborted. Windows only
//! narrow, so every value returned is a correct fail-soft bound for the latest window and the
//! root, whose window stays infinite, gets the exact value of sequential alpha-beta.
//!
//! Values are kept on the real root's scale (wins and losses count plies from the real root),
//! as in the sequential search; a problem carries its distance from the real root.

use std::marker::PhantomData;
use std::sync::Arc;

use dib::{Application, Effects, Piece, Search, Slot, Step};
use games::Game;
use games::score::INFINITY;
use serde::{Deserialize, Serialize};

use super::{ParallelError, ParallelOptions, ParallelResult, result_from_report};
use crate::search::tt::{value_from_tt, value_to_tt};
use crate::search::{SearchConfig, Searcher, TranspositionTable, TtMode, Unlimited};

/// Which frames may hand children to other processors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitPolicy {
    /// Mandatory work first: type-1 and type-3 nodes split at any time; a type-2 node only
    /// after its eldest child is done (delayed evaluation) and did not cut it off.
    Mwf,
    /// MWF where the children of a type-1 node whose static value (from the parent's side) is
    /// at or above this percentile of their siblings' are type 1 too.
    Dmwf {
        /// The percentile (seed 003 section 6: 90).
        percentile: u32,
    },
    /// Tree splitting: every node less than `split_depth` plies below the root splits; deeper
    /// nodes are searched where they are.
    TreeSplit {
        /// Plies below the root the processor tree reaches.
        split_depth: u32,
    },
}

/// A window `(alpha, beta)` from the side to move, on the real root's scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Window {
    /// Lower bound.
    pub alpha: i32,
    /// Upper bound.
    pub beta: i32,
}

impl Window {
    /// The infinite window.
    pub const FULL: Window = Window {
        alpha: -INFINITY,
        beta: INFINITY,
    };
}

/// A problem: a position, its plies to go, its distance from the real root, its window and
/// its node type (1, 2 or 3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct AbProblem<G: Game> {
    /// The position.
    pub position: G,
    /// Plies to go.
    pub depth: u32,
    /// Plies from the real root.
    pub ply: u32,
    /// The window.
    pub window: Window,
    /// Knuth-Moore type (1, 2 or 3).
    pub kind: u8,
}

/// A solved problem: its fail-soft value and the index of its best move (in generation order),
/// when known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AbValue {
    /// The fail-soft value.
    pub value: i32,
    /// The best move's index among the position's moves.
    pub best: Option<u32>,
}

/// The application.
pub struct SplitAb<G: Game> {
    policy: SplitPolicy,
    min_split_depth: u32,
    config: SearchConfig,
    table: Arc<TranspositionTable>,
    game: PhantomData<fn() -> G>,
}

impl<G: Game> std::fmt::Debug for SplitAb<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SplitAb")
            .field("policy", &self.policy)
            .field("min_split_depth", &self.min_split_depth)
            .finish_non_exhaustive()
    }
}

impl<G: Game> SplitAb<G> {
    /// The application for `policy` with the leaf search and granularity of `options`. The
    /// transposition table (when the search configuration uses one) is shared by the leaf
    /// searches of one processor set.
    ///
    /// # Errors
    /// When the table cannot be built.
    pub fn new(policy: SplitPolicy, options: &ParallelOptions) -> Result<Self, ParallelError> {
        let mib = if options.search.tt_mode == TtMode::Off {
            0
        } else {
            options.search.tt_mib
        };
        let table =
            Arc::new(TranspositionTable::new(mib).map_err(crate::search::SearchError::from)?);
        Ok(SplitAb {
            policy,
            min_split_depth: options.min_split_depth.max(1),
            config: options.search,
            table,
            game: PhantomData,
        })
    }
}

/// Runs `policy` on `root` to `options.depth` plies.
///
/// # Errors
/// [`ParallelError`] when the runtime or the table fails.
pub fn run<G: Game>(
    policy: SplitPolicy,
    root: &G,
    options: &ParallelOptions,
) -> Result<ParallelResult<G::Move>, ParallelError> {
    let app = Arc::new(SplitAb::<G>::new(policy, options)?);
    let problem = AbProblem {
        position: root.clone(),
        depth: options.depth,
        ply: 0,
        window: Window::FULL,
        kind: 1,
    };
    let report = dib::solve(app, problem, options.procs, &options.backend, options.dib)?;
    let AbValue { value, best } = report.value;
    let mut moves = Vec::with_capacity(G::MAX_MOVES);
    root.generate_moves(&mut moves);
    let pv: Vec<G::Move> = best
        .and_then(|i| moves.get(i as usize).copied())
        .into_iter()
        .collect();
    Ok(result_from_report(report, value, pv, Vec::new()))
}

impl<G: Game> Application for SplitAb<G> {
    type Problem = AbProblem<G>;
    type Value = AbValue;
    type Update = Window;
    type Search = AbSearch<G>;

    fn start(&self, problem: &AbProblem<G>) -> AbSearch<G> {
        AbSearch {
            policy: self.policy,
            min_split_depth: self.min_split_depth,
            searcher: Searcher::with_table(self.config, Arc::clone(&self.table)),
            problem: Some(problem.clone()),
            stack: Vec::new(),
            outstanding: 0,
            done: None,
        }
    }
}

/// A node of the explicit stack.
#[derive(Debug)]
struct Frame<G: Game> {
    position: G,
    depth: u32,
    ply: u32,
    kind: u8,
    /// This node's index among its parent's children.
    index: usize,
    moves: Vec<G::Move>,
    /// Children of a type-1 node that DMWF makes type 1.
    promoted: Vec<bool>,
    next: usize,
    completed: usize,
    best: i32,
    best_index: Option<u32>,
    alpha: i32,
    beta: i32,
    /// Indices of the children given away and not yet back.
    pending: Vec<u32>,
    /// The window last given to this frame's pieces (from this frame's side).
    sent: (i32, i32),
}

impl<G: Game> Frame<G> {
    fn alpha_eff(&self) -> i32 {
        self.alpha.max(self.best)
    }

    fn child_window(&self) -> Window {
        Window {
            alpha: -self.beta,
            beta: -self.alpha_eff(),
        }
    }

    fn child_kind(&self, index: usize) -> u8 {
        match self.kind {
            1 if index == 0 || self.promoted.get(index).copied().unwrap_or(false) => 1,
            1 | 3 => 2,
            _ => 3,
        }
    }

    /// Takes child `index`'s value `v` (from the child's side).
    fn take(&mut self, index: usize, v: i32) {
        self.completed += 1;
        if -v > self.best {
            self.best = -v;
            self.best_index = Some(index as u32);
        }
    }
}

/// The slot of child `index` of frame `frame`: every piece has its own, so the root learns
/// which child gave its value.
fn slot_of(frame: usize, index: u32) -> Slot {
    ((frame as u64) << 32) | u64::from(index)
}

/// A running search.
pub struct AbSearch<G: Game> {
    policy: SplitPolicy,
    min_split_depth: u32,
    searcher: Searcher<G>,
    /// The problem, until the first step.
    problem: Option<AbProblem<G>>,
    stack: Vec<Frame<G>>,
    /// Pieces outstanding over all frames.
    outstanding: usize,
    done: Option<AbValue>,
}

impl<G: Game> std::fmt::Debug for AbSearch<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AbSearch")
            .field("policy", &self.policy)
            .field("frames", &self.stack.len())
            .field("outstanding", &self.outstanding)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

impl<G: Game> AbSearch<G> {
    /// Whether `pos` with `depth` plies to go is searched at once by the sequential searcher.
    fn is_leaf(&self, pos: &G, depth: u32) -> bool {
        depth < self.min_split_depth || pos.outcome().is_some()
    }

    /// The sequential search of `pos` (`depth` plies to go, `ply` from the real root) with
    /// `window`; returns the value on the real root's scale and the nodes searched.
    fn leaf(&mut self, pos: &G, depth: u32, ply: u32, window: Window) -> (i32, u64) {
        let p = ply as usize;
        let alpha = value_to_tt(window.alpha, p).clamp(-INFINITY, INFINITY);
        let beta = value_to_tt(window.beta, p).clamp(-INFINITY, INFINITY);
        let r = self
            .searcher
            .search_window(pos, depth, alpha, beta, &mut Unlimited);
        (value_from_tt(r.value, p), self.searcher.visited.max(1))
    }

    /// A frame for `position` (not a leaf).
    fn frame(
        &self,
        position: G,
        depth: u32,
        ply: u32,
        window: Window,
        kind: u8,
        index: usize,
    ) -> Frame<G> {
        let mut moves = Vec::with_capacity(G::MAX_MOVES);
        position.generate_moves(&mut moves);
        let promoted = match self.policy {
            SplitPolicy::Dmwf { percentile } if kind == 1 && moves.len() > 1 => {
                let statics: Vec<i32> = moves
                    .iter()
                    .map(|&mv| {
                        let mut child = position.clone();
                        let _ = child.make_move(mv);
                        -child.evaluate()
                    })
                    .collect();
                let mut sorted = statics.clone();
                sorted.sort_unstable();
                // Nearest-rank percentile.
                let n = sorted.len();
                let rank = (percentile as usize * n).div_ceil(100).clamp(1, n);
                let threshold = sorted[rank - 1];
                statics.iter().map(|&s| s >= threshold).collect()
            }
            _ => Vec::new(),
        };
        Frame {
            position,
            depth,
            ply,
            kind,
            index,
            moves,
            promoted,
            next: 0,
            completed: 0,
            best: -INFINITY,
            best_index: None,
            alpha: window.alpha,
            beta: window.beta,
            pending: Vec::new(),
            sent: (window.alpha, window.beta),
        }
    }

    /// Whether frame `f` may hand off its untried children now.
    fn may_split(&self, f: &Frame<G>) -> bool {
        if f.next >= f.moves.len() || f.depth - 1 < self.min_split_depth {
            return false;
        }
        match self.policy {
            SplitPolicy::Mwf | SplitPolicy::Dmwf { .. } => f.kind != 2 || f.completed > 0,
            SplitPolicy::TreeSplit { split_depth } => f.ply < split_depth,
        }
    }

    fn abort_pieces(&mut self, i: usize, fx: &mut Effects<Window>) {
        let f = &mut self.stack[i];
        for &index in &f.pending {
            fx.abort(slot_of(i, index));
        }
        self.outstanding -= f.pending.len();
        f.pending.clear();
    }

    fn finish(&mut self, value: i32, best: Option<u32>) {
        self.done = Some(AbValue { value, best });
    }

    /// Pops the top frame with its value into its parent, cutting off upward as needed.
    fn pop_top(&mut self, fx: &mut Effects<Window>) {
        loop {
            let top = self.stack.len() - 1;
            self.abort_pieces(top, fx);
            let Some(f) = self.stack.pop() else {
                return;
            };
            let Some(parent) = self.stack.last_mut() else {
                self.finish(f.best, f.best_index);
                return;
            };
            parent.take(f.index, f.best);
            if parent.best >= parent.beta {
                continue;
            }
            break;
        }
        if self.outstanding > 0 {
            self.settle(fx);
        }
    }

    /// After a change anywhere: narrows the windows down the stack, cuts off where a frame's
    /// best reaches its beta, and sends narrowed windows to pieces.
    fn settle(&mut self, fx: &mut Effects<Window>) {
        loop {
            for i in 1..self.stack.len() {
                let w = self.stack[i - 1].child_window();
                let f = &mut self.stack[i];
                f.alpha = f.alpha.max(w.alpha);
                f.beta = f.beta.min(w.beta);
            }
            let Some(j) = self.stack.iter().position(|f| f.alpha_eff() >= f.beta) else {
                break;
            };
            while self.stack.len() > j + 1 {
                let top = self.stack.len() - 1;
                self.abort_pieces(top, fx);
                self.stack.pop();
            }
            if j == 0 {
                // The root's own window closed: its giver no longer needs an exact value.
                self.abort_pieces(0, fx);
                let f = &self.stack[0];
                let (b, i) = (f.best, f.best_index);
                self.finish(b, i);
                return;
            }
            self.abort_pieces(j, fx);
            let Some(f) = self.stack.pop() else {
                return;
            };
            self.stack[j - 1].take(f.index, f.best);
        }
        for (i, f) in self.stack.iter_mut().enumerate() {
            let now = (f.alpha_eff(), f.beta);
            if !f.pending.is_empty() && now != f.sent {
                f.sent = now;
                let w = f.child_window();
                for &index in &f.pending {
                    fx.update(slot_of(i, index), w);
                }
            }
        }
    }

    /// The first step: a leaf problem is solved at once, any other becomes the root frame.
    fn begin(&mut self, problem: AbProblem<G>) -> u64 {
        let AbProblem {
            position,
            depth,
            ply,
            window,
            kind,
        } = problem;
        if window.alpha >= window.beta {
            self.finish(-INFINITY, None);
            return 0;
        }
        if self.is_leaf(&position, depth) {
            let (v, n) = self.leaf(&position, depth, ply, window);
            self.finish(v, None);
            return n;
        }
        let f = self.frame(position, depth, ply, window, kind, 0);
        if f.moves.is_empty() {
            // A position with no moves and no outcome: let the sequential search decide.
            let (v, n) = self.leaf(&f.position, depth, ply, window);
            self.finish(v, None);
            return n;
        }
        self.stack.push(f);
        1
    }
}

impl<G: Game> Search<SplitAb<G>> for AbSearch<G> {
    fn step(&mut self, budget: u64, fx: &mut Effects<Window>) -> Step<AbValue> {
        let mut nodes = 0;
        if let Some(problem) = self.problem.take() {
            nodes += self.begin(problem);
        }
        while self.done.is_none() && nodes < budget {
            let top = self.stack.len() - 1;
            let f = &mut self.stack[top];
            if f.next < f.moves.len() {
                let index = f.next;
                f.next += 1;
                let mut child = f.position.clone();
                let _ = child.make_move(f.moves[index]);
                let (depth, ply, kind, w) = (f.depth - 1, f.ply + 1, f.child_kind(index), {
                    f.child_window()
                });
                if self.is_leaf(&child, depth) {
                    let (v, n) = self.leaf(&child, depth, ply, w);
                    nodes += n;
                    let f = &mut self.stack[top];
                    let before = f.alpha_eff();
                    f.take(index, v);
                    if f.best >= f.beta {
                        self.pop_top(fx);
                    } else if f.alpha_eff() > before && self.outstanding > 0 {
                        self.settle(fx);
                    }
                } else {
                    nodes += 1;
                    let frame = self.frame(child, depth, ply, w, kind, index);
                    if frame.moves.is_empty() {
                        let (v, n) = self.leaf(&frame.position, depth, ply, w);
                        nodes += n;
                        let f = &mut self.stack[top];
                        f.take(index, v);
                        if f.best >= f.beta {
                            self.pop_top(fx);
                        } else if self.outstanding > 0 {
                            self.settle(fx);
                        }
                    } else {
                        self.stack.push(frame);
                    }
                }
                continue;
            }
            if !f.pending.is_empty() {
                fx.charge(nodes);
                return Step::Blocked;
            }
            self.pop_top(fx);
        }
        fx.charge(nodes);
        match self.done {
            Some(v) => Step::Done(v),
            None => Step::Continue,
        }
    }

    fn split(&mut self, _fx: &mut Effects<Window>) -> Vec<Piece<AbProblem<G>>> {
        if self.done.is_some() || self.problem.is_some() {
            return Vec::new();
        }
        let Some(i) = (0..self.stack.len()).find(|&i| self.may_split(&self.stack[i])) else {
            return Vec::new();
        };
        let f = &mut self.stack[i];
        let w = f.child_window();
        let mut pieces = Vec::with_capacity(f.moves.len() - f.next);
        for index in f.next..f.moves.len() {
            let mut child = f.position.clone();
            let _ = child.make_move(f.moves[index]);
            pieces.push(Piece {
                slot: slot_of(i, index as u32),
                problem: AbProblem {
                    position: child,
                    depth: f.depth - 1,
                    ply: f.ply + 1,
                    window: w,
                    kind: f.child_kind(index),
                },
            });
            f.pending.push(index as u32);
        }
        f.next = f.moves.len();
        f.sent = (f.alpha_eff(), f.beta);
        self.outstanding += pieces.len();
        pieces
    }

    fn absorb(&mut self, slot: Slot, value: AbValue, fx: &mut Effects<Window>) {
        let frame = (slot >> 32) as usize;
        let index = (slot & 0xffff_ffff) as u32;
        let Some(f) = self.stack.get_mut(frame) else {
            return;
        };
        let Some(at) = f.pending.iter().position(|&p| p == index) else {
            return;
        };
        f.pending.swap_remove(at);
        self.outstanding -= 1;
        f.take(index as usize, value.value);
        self.settle(fx);
    }

    fn update(&mut self, w: Window, fx: &mut Effects<Window>) {
        if self.done.is_some() {
            return;
        }
        if let Some(p) = &mut self.problem {
            p.window.alpha = p.window.alpha.max(w.alpha);
            p.window.beta = p.window.beta.min(w.beta);
            return;
        }
        let Some(root) = self.stack.first_mut() else {
            return;
        };
        root.alpha = root.alpha.max(w.alpha);
        root.beta = root.beta.min(w.beta);
        self.settle(fx);
    }
}
