//! Fail-soft negamax alpha-beta over any [`Game`] as a DIB application, shared by `alphabeta`
//! (never splits: the one-processor baseline of the runtime) and `delaysplit` (Young Brothers
//! Wait: a node is split only after its eldest child is done).
//!
//! The running search keeps an explicit stack of frames (position, moves, next move, best
//! value, window). Nodes with fewer than `min_split_depth` plies left, and finished games, are
//! evaluated in place by the sequential [`Searcher`] (the leaf search). On a work request the
//! shallowest splittable frame hands off all its untried children as pieces carrying the
//! frame's child window; when that window narrows (a child raised alpha, or an update from
//! above lowered beta) the new window is sent to the pieces (information spreading); when a
//! frame is cut off its pieces are aborted. Windows only narrow, so every value is a correct
//! fail-soft bound for the window its search ended with, and the root's infinite window gives
//! the exact value.
//!
//! With move ordering on (the engine setting) the frames do what the sequential search does
//! (see `dib_alphabeta.md`): they probe and store the shared exact-depth table (whose move
//! they try first, then the game's hints and the leaf searchers' history), give younger
//! children PVS null windows (also the pieces they hand off) and search a child again with the
//! full window when its null window fails high, apply the sorting regimes (EC, TT) where they
//! say, and the search deepens iteratively, one runtime run per depth. With ordering off (the
//! papers' unsorted experiments) they run plain alpha-beta without the table, as in seed 003.
//! A frame searched with a null window keeps it (narrowing it from the parent would close it),
//! and its pieces receive no window updates; aborts still reach them.
//!
//! Values are kept on the scale of the run's root (decisive scores count plies from the root):
//! a problem carries its ply, and the leaf search's window and value are converted with
//! [`value_to_tt`] / [`value_from_tt`] at that ply. `dib_alphabeta.md` beside this file explains
//! why the values are exact and gives measurements.

use std::marker::PhantomData;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::ThreadId;

use dib::{Application, Effects, Piece, Search, Slot, Step};
use games::Game;
use games::score::INFINITY;
use serde::{Deserialize, Serialize};

pub use super::ab_frames::Window;
use super::ab_frames::{self, Bounds, FrameKillers};
use super::{ParallelError, ParallelOptions, ParallelResult, deepening, result_from_report};
use crate::search::sorting::NodeType;
use crate::search::{Algorithm, SearchConfig, Searcher, TranspositionTable, Unlimited};

/// An alpha-beta problem: a position, its depth and ply, its window, and its move's index in
/// its parent's move list (echoed in the value).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct AbProblem<G: Game> {
    /// The position.
    pub position: G,
    /// Plies left.
    pub depth: u32,
    /// Plies from the run's root.
    pub ply: u32,
    /// The window.
    pub window: Window,
    /// The index of the move leading here in the parent's generated moves.
    pub index: u32,
    /// Knuth-Moore node type (for the sorting regimes).
    pub kind: NodeType,
    /// Whether this is the first child its parent tried (for the sorting regimes).
    pub eldest: bool,
}

/// The value of a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AbValue {
    /// The fail-soft value (root scale, from the problem's side to move).
    pub score: i32,
    /// The problem's `index`.
    pub index: u32,
    /// The index of the best move of the problem's position, when known.
    pub best: Option<u32>,
}

/// When a frame may be split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitPolicy {
    /// Never (sequential alpha-beta on the runtime).
    Never,
    /// Only after the frame's eldest child is done (Young Brothers Wait).
    EldestFirst,
}

/// What all searches of one run share: the settings, the transposition table (shared by the
/// frames and the leaf searches of every processor) and a pool of leaf searchers (their
/// killers and history persist from iteration to iteration).
struct Shared<G: Game> {
    min_split_depth: u32,
    policy: SplitPolicy,
    config: SearchConfig,
    table: Arc<TranspositionTable>,
    /// Searchers not in use, each with the thread that used it last (`None`: free, since the
    /// threads of the last runtime run are gone): a thread takes its own back, so that on real
    /// threads a searcher's history, killers and buffers stay in one core's cache instead of
    /// moving between cores with every leaf search.
    pool: Mutex<Vec<(Option<ThreadId>, Searcher<G>)>>,
    /// The frames' killer moves.
    killers: FrameKillers<G::Move>,
}

/// A frame opened on a position, or the value the table gave for it.
enum Opened<G: Game> {
    Frame(Frame<G>),
    Value(i32),
}

impl<G: Game> Shared<G> {
    /// Runs `f` with a searcher from the pool: the one this thread used last, else a free
    /// one (used by a thread of an earlier runtime run: it keeps its history), else a new one.
    fn with_searcher<R>(&self, f: impl FnOnce(&mut Searcher<G>) -> R) -> R {
        let me = Some(std::thread::current().id());
        let taken = {
            let mut pool = self.pool.lock().unwrap_or_else(PoisonError::into_inner);
            pool.iter()
                .rposition(|(t, _)| *t == me)
                .or_else(|| pool.iter().rposition(|(t, _)| t.is_none()))
                .map(|i| pool.swap_remove(i).1)
        };
        let mut searcher =
            taken.unwrap_or_else(|| Searcher::with_table(self.config, Arc::clone(&self.table)));
        let r = f(&mut searcher);
        self.pool
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((me, searcher));
        r
    }

    /// Searches `pos` (at `ply` from the root) to `depth` with `window` sequentially:
    /// `(value on the root scale, best move's index in generation order, nodes)`. The best
    /// move is looked for only with `want_best` (the run's root); otherwise the table is
    /// probed first, as the sequential search probes every node below its root, and the
    /// search gathers no principal variation.
    fn leaf(
        &self,
        pos: &G,
        depth: u32,
        ply: u32,
        window: Window,
        want_best: bool,
    ) -> (i32, Option<u32>, u64) {
        if !want_best {
            if let (Some(v), _) = self.probe(pos.hash(), depth, ply, window) {
                return (v, None, 1);
            }
        }
        let (alpha, beta) = ab_frames::leaf_window(window, ply);
        let (value, best, nodes) = self.with_searcher(|searcher| {
            let before = searcher.stats().nodes();
            let (v, best) = if want_best {
                let r = searcher.search_window(pos, depth, alpha, beta, &mut Unlimited);
                (r.value, r.pv.first().copied())
            } else {
                let v = searcher.search_window_value(pos, depth, alpha, beta, &mut Unlimited);
                (v, None)
            };
            (v, best, searcher.stats().nodes() - before)
        });
        let best = best.and_then(|mv| ab_frames::move_index(pos, mv));
        (ab_frames::leaf_value(value, ply), best, nodes.max(1))
    }

    /// Frees every searcher of the pool (before a runtime run: its threads are new).
    fn free_searchers(&self) {
        for (t, _) in self
            .pool
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter_mut()
        {
            *t = None;
        }
    }

    /// Whether a node with `depth` plies left uses the table.
    fn uses_table(&self, depth: u32) -> bool {
        ab_frames::uses_table(&self.config, depth)
    }

    /// Whether younger children get PVS null windows: with PVS configured and move ordering
    /// on. Without ordering (the papers' unsorted experiments) the frames run the papers'
    /// plain alpha-beta, where null windows would mostly fail high and be searched twice.
    fn pvs(&self) -> bool {
        self.config.move_ordering && self.config.algorithm == Algorithm::Pvs
    }

    /// The table's answer for a node (see [`ab_frames::probe`]).
    fn probe(&self, hash: u64, depth: u32, ply: u32, w: Window) -> (Option<i32>, Option<u32>) {
        ab_frames::probe(&self.table, &self.config, hash, depth, ply, w)
    }

    /// Records the cutoff of frame `f` (its best reached its beta) as the sequential search
    /// does: the move in the history (shared with the leaf searches) and in the frames'
    /// killers of its ply.
    fn cutoff(&self, f: &Frame<G>) {
        if !self.config.move_ordering || !f.bounds.cut() {
            return;
        }
        let Some(mv) = f
            .bounds
            .best_index
            .and_then(|i| f.moves.get(i as usize).copied())
        else {
            return;
        };
        self.with_searcher(|s| s.tables.history_cutoff(&f.pos, mv, f.depth as i32));
        self.killers.record(f.ply, mv);
    }

    /// Opens a frame on `pos`: probes the table (a stored value at the right depth that
    /// decides the window ends the node at once, except at the run's root, which needs its best
    /// move), then orders the moves. Returns the frame or the value, and the look-ahead nodes
    /// of a sorting regime.
    #[allow(clippy::too_many_arguments)]
    fn open(
        &self,
        index: u32,
        pos: G,
        depth: u32,
        ply: u32,
        w: Window,
        kind: NodeType,
        eldest: bool,
    ) -> (Opened<G>, u64) {
        let hash = pos.hash();
        let (cut, tt_move) = self.probe(hash, depth, ply, w);
        if let Some(v) = cut {
            return (Opened::Value(v), 0);
        }
        let mut moves = Vec::with_capacity(G::MAX_MOVES);
        pos.generate_moves(&mut moves);
        let (order, sort_nodes) = self.order(&pos, &moves, tt_move, depth, ply, kind, eldest);
        let frame = Frame {
            index,
            hash,
            pos,
            depth,
            ply,
            kind,
            moves,
            order,
            next: 0,
            completed: 0,
            bounds: Bounds::new(w),
            outstanding: 0,
            scout: None,
            given: Vec::new(),
            research: Vec::new(),
        };
        (Opened::Frame(frame), sort_nodes)
    }

    /// The order in which a frame tries its moves (indices into the generated moves): by the
    /// sorting regime's look-ahead where it applies (seed 003 section 5: EC sorts the top node
    /// and every eldest child, TT also every type-2 node); else, with move ordering on, the
    /// table's move first, then the game's hints, the frames' killers and the leaf searchers'
    /// history; else the generation order. Also returns the look-ahead's nodes.
    #[allow(clippy::too_many_arguments)]
    fn order(
        &self,
        pos: &G,
        moves: &[G::Move],
        tt_move: Option<u32>,
        depth: u32,
        ply: u32,
        kind: NodeType,
        eldest: bool,
    ) -> (Vec<u32>, u64) {
        if self.config.sorting.applies(ply as usize, kind, eldest) {
            return self.with_searcher(|s| {
                ab_frames::sorted_by_expansion(s, &self.config, pos, moves, depth, ply)
            });
        }
        if !self.config.move_ordering {
            return ((0..moves.len() as u32).collect(), 0);
        }
        let killers = self.killers.at(ply);
        let order = self.with_searcher(|s| ab_frames::keyed_order(s, pos, moves, tt_move, killers));
        (order, 0)
    }

    /// Stores a completed frame's value (on the root scale) with the bound it is.
    fn store(&self, f: &Frame<G>) {
        ab_frames::store(&self.table, &self.config, f.hash, f.depth, f.ply, &f.bounds);
    }
}

/// The application for game `G`.
pub struct GameAlphaBeta<G: Game> {
    shared: Arc<Shared<G>>,
}

impl<G: Game> GameAlphaBeta<G> {
    /// The application for `options` with split policy `policy`.
    ///
    /// # Errors
    /// [`ParallelError::Search`] when the transposition table cannot be built.
    pub fn new(options: &ParallelOptions, policy: SplitPolicy) -> Result<Self, ParallelError> {
        Ok(GameAlphaBeta {
            shared: Arc::new(Shared {
                min_split_depth: options.min_split_depth.max(1),
                policy,
                config: options.search,
                table: ab_frames::new_table(&options.search)?,
                pool: Mutex::new(Vec::new()),
                killers: FrameKillers::new(),
            }),
        })
    }
}

impl<G: Game> Application for GameAlphaBeta<G> {
    type Problem = AbProblem<G>;
    type Value = AbValue;
    type Update = Window;
    type Search = AbSearch<G>;

    fn start(&self, problem: &AbProblem<G>) -> AbSearch<G> {
        AbSearch {
            shared: Arc::clone(&self.shared),
            problem: problem.clone(),
            stack: Vec::new(),
            outstanding: 0,
            done: None,
            started: false,
            game: PhantomData,
        }
    }
}

struct Frame<G: Game> {
    /// The index of the move leading here in the parent's generated moves.
    index: u32,
    hash: u64,
    pos: G,
    depth: u32,
    ply: u32,
    kind: NodeType,
    /// The moves in generation order.
    moves: Vec<G::Move>,
    /// The order in which they are tried (indices into `moves`).
    order: Vec<u32>,
    /// How many of `order` were started or handed off.
    next: usize,
    completed: u32,
    /// Best value and move (index in `moves`), window, window last sent to the pieces.
    bounds: Bounds,
    outstanding: u32,
    /// `Some(a)` when the parent searches this frame with the null window around its alpha
    /// `a` (PVS): the window stays as it is (narrowing it from the parent would close it).
    scout: Option<i32>,
    /// The pieces handed off and not yet back: each child's index, and `Some(a)` when it
    /// went with the null window around `a` (its value is read with that window).
    given: Vec<(u32, Option<i32>)>,
    /// Children whose null-window search failed high, to be searched again.
    /// Each with the lower bound its fail high proved (from this frame's side).
    research: Vec<(u32, i32)>,
}

impl<G: Game> Frame<G> {
    /// Takes child `index`'s value `v` from a search with the null window around `scout`
    /// (or the full window when `None`): a fail high inside the window is queued for a
    /// re-search instead of being combined.
    fn take(&mut self, index: u32, v: i32, scout: Option<i32>) {
        if let Some(a) = scout {
            if -v > a && -v < self.bounds.beta {
                self.research.push((index, -v));
                return;
            }
        }
        self.completed += 1;
        self.bounds.raise(-v, index);
    }
}

/// A running alpha-beta search.
pub struct AbSearch<G: Game> {
    shared: Arc<Shared<G>>,
    problem: AbProblem<G>,
    stack: Vec<Frame<G>>,
    /// Pieces outstanding over all frames.
    outstanding: u32,
    done: Option<AbValue>,
    started: bool,
    game: PhantomData<fn() -> G>,
}

impl<G: Game> AbSearch<G> {
    fn finish(&mut self, score: i32, best: Option<u32>) {
        self.done = Some(AbValue {
            score,
            index: self.problem.index,
            best,
        });
    }

    /// Whether a node with `depth` plies left is searched by frames (else by the leaf search).
    fn is_frame(&self, pos: &G, depth: u32) -> bool {
        depth >= self.shared.min_split_depth && pos.outcome().is_none()
    }

    /// Aborts the pieces of frame `i`.
    fn abort_pieces(&mut self, i: usize, fx: &mut Effects<Window>) {
        let f = &mut self.stack[i];
        if f.outstanding > 0 {
            fx.abort(i as Slot);
            self.outstanding -= f.outstanding;
            f.outstanding = 0;
            f.given.clear();
        }
    }

    /// Pops the top frame with value `v` into its parent, cutting off upward as needed.
    fn pop_with(&mut self, mut v: i32, fx: &mut Effects<Window>) {
        loop {
            let top = self.stack.len() - 1;
            self.abort_pieces(top, fx);
            let Some(frame) = self.stack.pop() else {
                return;
            };
            self.shared.store(&frame);
            let Some(parent) = self.stack.last_mut() else {
                self.finish(v, frame.bounds.best_index);
                return;
            };
            parent.take(frame.index, v, frame.scout);
            if parent.bounds.cut() {
                v = parent.bounds.best;
                self.shared.cutoff(parent);
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
                let w = self.stack[i - 1].bounds.child_window();
                let f = &mut self.stack[i];
                if f.scout.is_some() {
                    continue;
                }
                f.bounds.narrow(w);
            }
            let Some(j) = self.stack.iter().position(|f| f.bounds.closed()) else {
                break;
            };
            while self.stack.len() > j + 1 {
                let top = self.stack.len() - 1;
                self.abort_pieces(top, fx);
                self.stack.pop();
            }
            if j == 0 {
                // The root's own window closed (its giver no longer needs an exact value).
                self.abort_pieces(0, fx);
                let (b, bi) = (self.stack[0].bounds.best, self.stack[0].bounds.best_index);
                self.finish(b, bi);
                return;
            }
            let f = &self.stack[j];
            let (v, index, scout) = (f.bounds.best, f.index, f.scout);
            self.shared.cutoff(&self.stack[j]);
            self.abort_pieces(j, fx);
            if let Some(frame) = self.stack.pop() {
                self.shared.store(&frame);
            }
            self.stack[j - 1].take(index, v, scout);
        }
        for (i, f) in self.stack.iter_mut().enumerate() {
            if f.outstanding > 0 && f.given.iter().all(|g| g.1.is_none()) && f.bounds.resend() {
                fx.update(i as Slot, f.bounds.child_window());
            }
        }
    }

    /// The first slice: the root is a leaf search or the first frame.
    fn begin(&mut self) -> u64 {
        self.started = true;
        let p = &self.problem;
        let w = p.window;
        if w.alpha >= w.beta {
            // Closed before it started (an update cut it off): any bound will do.
            self.finish(-INFINITY, None);
            return 0;
        }
        let (pos, depth, ply, index) = (p.position.clone(), p.depth, p.ply, p.index);
        let (kind, eldest) = (p.kind, p.eldest);
        if self.is_frame(&pos, depth) {
            match self.shared.open(index, pos, depth, ply, w, kind, eldest) {
                (Opened::Value(v), n) => {
                    self.finish(v, None);
                    n
                }
                (Opened::Frame(frame), n) => {
                    if frame.moves.is_empty() {
                        let (v, b, m) = self.shared.leaf(&frame.pos, depth, ply, w, true);
                        self.finish(v, b);
                        return n + m;
                    }
                    self.stack.push(frame);
                    n + 1
                }
            }
        } else {
            let (v, b, n) = self.shared.leaf(&pos, depth, ply, w, true);
            self.finish(v, b);
            n
        }
    }
}

impl<G: Game> Search<GameAlphaBeta<G>> for AbSearch<G> {
    fn step(&mut self, budget: u64, fx: &mut Effects<Window>) -> Step<AbValue> {
        let mut nodes = 0;
        if !self.started {
            nodes += self.begin();
        }
        let pvs = self.shared.pvs();
        while self.done.is_none() && nodes < budget {
            let top = self.stack.len() - 1;
            let f = &mut self.stack[top];
            // A younger child whose null-window search failed high is searched again with the
            // full window before anything else (as PVS does).
            let next = if let Some((index, bound)) = f.research.pop() {
                // A fail high against an alpha that has risen since (a piece handed off
                // earlier) is tested again with the null window around the current alpha, as
                // PVS would have tested it; only a bound above alpha needs the full window.
                let a = f.bounds.alpha_eff();
                let scout = (bound <= a && a > -INFINITY && a.saturating_add(1) < f.bounds.beta)
                    .then_some(a);
                Some((index, f.kind.child(1), false, scout))
            } else if f.next < f.order.len() {
                let i = f.next;
                f.next += 1;
                let scout = (pvs && i > 0)
                    .then(|| f.bounds.alpha_eff())
                    .filter(|&a| a > -INFINITY && a.saturating_add(1) < f.bounds.beta);
                Some((f.order[i], f.kind.child(i), i == 0, scout))
            } else {
                None
            };
            if let Some((index, kind, eldest, scout)) = next {
                let mut child = f.pos.clone();
                let _ = child.make_move(f.moves[index as usize]);
                let (depth, ply) = (f.depth - 1, f.ply + 1);
                let w = match scout {
                    Some(a) => Window {
                        alpha: -a - 1,
                        beta: -a,
                    },
                    None => f.bounds.child_window(),
                };
                let v = if self.is_frame(&child, depth) {
                    match self.shared.open(index, child, depth, ply, w, kind, eldest) {
                        (Opened::Value(v), n) => {
                            nodes += n + 1;
                            v
                        }
                        (Opened::Frame(mut frame), n) => {
                            nodes += n;
                            if !frame.moves.is_empty() {
                                nodes += 1;
                                frame.scout = scout;
                                self.stack.push(frame);
                                continue;
                            }
                            let (v, _, m) = self.shared.leaf(&frame.pos, depth, ply, w, false);
                            nodes += m;
                            v
                        }
                    }
                } else {
                    let (v, _, m) = self.shared.leaf(&child, depth, ply, w, false);
                    nodes += m;
                    v
                };
                let f = &mut self.stack[top];
                let before = f.bounds.alpha_eff();
                f.take(index, v, scout);
                if f.bounds.cut() {
                    let b = f.bounds.best;
                    self.shared.cutoff(f);
                    self.pop_with(b, fx);
                } else if f.bounds.alpha_eff() > before && self.outstanding > 0 {
                    self.settle(fx);
                }
                continue;
            }
            if f.outstanding > 0 {
                fx.charge(nodes);
                return Step::Blocked;
            }
            let b = f.bounds.best;
            self.pop_with(b, fx);
        }
        fx.charge(nodes);
        match self.done {
            Some(v) => Step::Done(v),
            None => Step::Continue,
        }
    }

    fn split(&mut self, _fx: &mut Effects<Window>) -> Vec<Piece<AbProblem<G>>> {
        if self.done.is_some() || self.shared.policy == SplitPolicy::Never {
            return Vec::new();
        }
        let min = self.shared.min_split_depth;
        // Children with at least `min` plies left are worth handing off.
        let Some((slot, f)) = self.stack.iter_mut().enumerate().find(|(_, f)| {
            f.next < f.order.len() && f.depth > min && f.completed > 0 && f.outstanding == 0
        }) else {
            return Vec::new();
        };
        // With PVS the younger children go out with the null window around alpha; their
        // fail highs come back for a re-search here.
        let a = f.bounds.alpha_eff();
        let scout = (self.shared.pvs() && a > -INFINITY && a.saturating_add(1) < f.bounds.beta)
            .then_some(a);
        let w = match scout {
            Some(a) => Window {
                alpha: -a - 1,
                beta: -a,
            },
            None => f.bounds.child_window(),
        };
        let end = f.order.len();
        let pieces: Vec<_> = (f.next..end)
            .map(|i| {
                let index = f.order[i];
                let mut child = f.pos.clone();
                let _ = child.make_move(f.moves[index as usize]);
                Piece {
                    slot: slot as Slot,
                    problem: AbProblem {
                        position: child,
                        depth: f.depth - 1,
                        ply: f.ply + 1,
                        window: w,
                        index,
                        kind: f.kind.child(i),
                        eldest: false,
                    },
                }
            })
            .collect();
        f.given
            .extend(pieces.iter().map(|p| (p.problem.index, scout)));
        f.next = end;
        f.outstanding += pieces.len() as u32;
        f.bounds.mark_sent();
        self.outstanding += pieces.len() as u32;
        pieces
    }

    fn absorb(&mut self, slot: Slot, value: AbValue, fx: &mut Effects<Window>) {
        let Some(f) = self.stack.get_mut(slot as usize) else {
            return;
        };
        let Some(k) = f.given.iter().position(|g| g.0 == value.index) else {
            return;
        };
        let (_, scout) = f.given.swap_remove(k);
        f.outstanding -= 1;
        self.outstanding -= 1;
        f.take(value.index, value.score, scout);
        self.settle(fx);
    }

    fn update(&mut self, w: Window, fx: &mut Effects<Window>) {
        if self.done.is_some() {
            return;
        }
        if !self.started {
            self.problem.window.narrow(w);
            return;
        }
        let Some(root) = self.stack.first_mut() else {
            return;
        };
        root.bounds.narrow(w);
        self.settle(fx);
    }
}

/// Runs the application with `policy` on `root` as `options` say.
///
/// With the table on and move ordering on, the search deepens iteratively as the sequential
/// search does: one run of the runtime per depth from 1 to `options.depth`, all sharing the
/// table (and the leaf searchers' history), so that every frame and leaf search finds the best
/// move of the previous iteration and tries it first. The result is the last iteration's; its
/// nodes, times and accounts are the sums over the iterations. Without a table or without
/// ordering (the papers' unsorted experiments) a single run searches the depth directly.
///
/// # Errors
/// [`ParallelError`] when the table cannot be built or the runtime fails.
pub fn run<G: Game>(
    root: &G,
    options: &ParallelOptions,
    policy: SplitPolicy,
) -> Result<ParallelResult<G::Move>, ParallelError> {
    let app = Arc::new(GameAlphaBeta::<G>::new(options, policy)?);
    app.shared.table.new_generation();
    let deepening = app.shared.uses_table(options.depth) && options.depth > 1;
    let dib_config = deepening::engine_dib_config(options);
    deepening::deepen(options, deepening, |depth, window| {
        let problem = AbProblem {
            position: root.clone(),
            depth,
            ply: 0,
            window,
            index: 0,
            kind: NodeType::One,
            eldest: true,
        };
        app.shared.free_searchers();
        let report = dib::solve(
            Arc::clone(&app),
            problem,
            options.procs,
            &options.backend,
            dib_config,
        )?;
        let value = report.value;
        let mut moves = Vec::with_capacity(G::MAX_MOVES);
        root.generate_moves(&mut moves);
        let pv: Vec<G::Move> = value
            .best
            .and_then(|i| moves.get(i as usize).copied())
            .into_iter()
            .collect();
        Ok(result_from_report(report, value.score, pv, Vec::new()))
    })
}
