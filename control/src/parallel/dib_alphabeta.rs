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
//! Values are kept on the scale of the run's root (decisive scores count plies from the root):
//! a problem carries its ply, and the leaf search's window and value are converted with
//! [`value_to_tt`] / [`value_from_tt`] at that ply. `dib_alphabeta.md` beside this file explains
//! why the values are exact and gives measurements.

use std::marker::PhantomData;
use std::sync::{Arc, Mutex, PoisonError};

use dib::{Application, Effects, Piece, Search, Slot, Step};
use games::Game;
use games::score::INFINITY;
use serde::{Deserialize, Serialize};

use super::{ParallelError, ParallelOptions, ParallelResult, result_from_report};
use crate::search::tt::{value_from_tt, value_to_tt};
use crate::search::{SearchConfig, Searcher, TranspositionTable, Unlimited};

/// A window `(alpha, beta)` from the side to move, on the root's scale.
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
    pub index: u16,
}

/// The value of a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AbValue {
    /// The fail-soft value (root scale, from the problem's side to move).
    pub score: i32,
    /// The problem's `index`.
    pub index: u16,
    /// The index of the best move of the problem's position, when known.
    pub best: Option<u16>,
}

/// When a frame may be split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitPolicy {
    /// Never (sequential alpha-beta on the runtime).
    Never,
    /// Only after the frame's eldest child is done (Young Brothers Wait).
    EldestFirst,
}

/// The moves of `pos` in the order the frames try them: the game's generation order, stably
/// sorted by [`Game::move_hint`] (larger first) when `ordering` is on. Move indices in problems
/// and values refer to this order.
fn ordered_moves<G: Game>(pos: &G, ordering: bool, moves: &mut Vec<G::Move>) {
    pos.generate_moves(moves);
    if ordering {
        moves.sort_by_key(|&m| std::cmp::Reverse(pos.move_hint(m)));
    }
}

/// What all searches of one run share: the settings and a pool of leaf searchers.
struct Shared<G: Game> {
    min_split_depth: u32,
    policy: SplitPolicy,
    config: SearchConfig,
    table: Arc<TranspositionTable>,
    pool: Mutex<Vec<Searcher<G>>>,
}

impl<G: Game> Shared<G> {
    /// Searches `pos` (at `ply` from the root) to `depth` with `window` sequentially:
    /// `(value on the root scale, best move index, nodes)`.
    fn leaf(&self, pos: &G, depth: u32, ply: u32, window: Window) -> (i32, Option<u16>, u64) {
        let taken = self
            .pool
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        let mut searcher =
            taken.unwrap_or_else(|| Searcher::with_table(self.config, Arc::clone(&self.table)));
        let before = searcher.stats().nodes();
        let p = ply as usize;
        let r = searcher.search_window(
            pos,
            depth,
            value_to_tt(window.alpha, p),
            value_to_tt(window.beta, p),
            &mut Unlimited,
        );
        let nodes = searcher.stats().nodes() - before;
        let best = r.pv.first().and_then(|&mv| {
            let mut moves = Vec::with_capacity(G::MAX_MOVES);
            ordered_moves(pos, self.config.move_ordering, &mut moves);
            moves
                .iter()
                .position(|&m| m == mv)
                .and_then(|i| u16::try_from(i).ok())
        });
        self.pool
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(searcher);
        (value_from_tt(r.value, p), best, nodes.max(1))
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
        let table = TranspositionTable::new(if options.search.tt_mode == crate::TtMode::Off {
            1
        } else {
            options.search.tt_mib
        })
        .map_err(crate::search::SearchError::from)?;
        Ok(GameAlphaBeta {
            shared: Arc::new(Shared {
                min_split_depth: options.min_split_depth.max(1),
                policy,
                config: options.search,
                table: Arc::new(table),
                pool: Mutex::new(Vec::new()),
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
    /// The index of the move leading here in the parent's moves.
    index: u16,
    pos: G,
    depth: u32,
    ply: u32,
    moves: Vec<G::Move>,
    next: usize,
    completed: u32,
    best: i32,
    best_index: Option<u16>,
    alpha: i32,
    beta: i32,
    outstanding: u32,
    /// The window last given to this frame's pieces (from this frame's side).
    sent: (i32, i32),
}

impl<G: Game> Frame<G> {
    fn new(index: u16, pos: G, depth: u32, ply: u32, w: Window, ordering: bool) -> Frame<G> {
        let mut moves = Vec::with_capacity(G::MAX_MOVES);
        ordered_moves(&pos, ordering, &mut moves);
        Frame {
            index,
            pos,
            depth,
            ply,
            moves,
            next: 0,
            completed: 0,
            best: -INFINITY,
            best_index: None,
            alpha: w.alpha,
            beta: w.beta,
            outstanding: 0,
            sent: (w.alpha, w.beta),
        }
    }

    fn alpha_eff(&self) -> i32 {
        self.alpha.max(self.best)
    }

    fn child_window(&self) -> Window {
        Window {
            alpha: -self.beta,
            beta: -self.alpha_eff(),
        }
    }

    /// Combines child `index`'s value `v` (from the child's side).
    fn combine(&mut self, index: u16, v: i32) {
        self.completed += 1;
        if -v > self.best {
            self.best = -v;
            self.best_index = Some(index);
        }
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
    fn finish(&mut self, score: i32, best: Option<u16>) {
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
            let Some(parent) = self.stack.last_mut() else {
                self.finish(v, frame.best_index);
                return;
            };
            parent.combine(frame.index, v);
            if parent.best >= parent.beta {
                v = parent.best;
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
                // The root's own window closed (its giver no longer needs an exact value).
                self.abort_pieces(0, fx);
                let (b, bi) = (self.stack[0].best, self.stack[0].best_index);
                self.finish(b, bi);
                return;
            }
            let (v, index) = (self.stack[j].best, self.stack[j].index);
            self.abort_pieces(j, fx);
            self.stack.pop();
            self.stack[j - 1].combine(index, v);
        }
        for (i, f) in self.stack.iter_mut().enumerate() {
            let now = (f.alpha_eff(), f.beta);
            if f.outstanding > 0 && now != f.sent {
                f.sent = now;
                fx.update(i as Slot, f.child_window());
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
        if self.is_frame(&p.position, p.depth) {
            let frame = Frame::new(
                p.index,
                p.position.clone(),
                p.depth,
                p.ply,
                w,
                self.shared.config.move_ordering,
            );
            if frame.moves.is_empty() {
                let (v, b, n) = self.shared.leaf(&p.position, p.depth, p.ply, w);
                self.finish(v, b);
                return n;
            }
            self.stack.push(frame);
            1
        } else {
            let (v, b, n) = self.shared.leaf(&p.position, p.depth, p.ply, w);
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
        while self.done.is_none() && nodes < budget {
            let top = self.stack.len() - 1;
            let f = &mut self.stack[top];
            if f.next < f.moves.len() {
                let mv = f.moves[f.next];
                let index = u16::try_from(f.next).unwrap_or(u16::MAX);
                f.next += 1;
                let mut child = f.pos.clone();
                let _ = child.make_move(mv);
                let (depth, ply, w) = (f.depth - 1, f.ply + 1, f.child_window());
                let child = if self.is_frame(&child, depth) {
                    let frame = Frame::new(
                        index,
                        child,
                        depth,
                        ply,
                        w,
                        self.shared.config.move_ordering,
                    );
                    if !frame.moves.is_empty() {
                        nodes += 1;
                        self.stack.push(frame);
                        continue;
                    }
                    frame.pos
                } else {
                    child
                };
                let (v, _, n) = self.shared.leaf(&child, depth, ply, w);
                nodes += n;
                let f = &mut self.stack[top];
                let before = f.alpha_eff();
                f.combine(index, v);
                if f.best >= f.beta {
                    let b = f.best;
                    self.pop_with(b, fx);
                } else if f.alpha_eff() > before && self.outstanding > 0 {
                    self.settle(fx);
                }
                continue;
            }
            if f.outstanding > 0 {
                fx.charge(nodes);
                return Step::Blocked;
            }
            let b = f.best;
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
            f.next < f.moves.len() && f.depth > min && f.completed > 0 && f.outstanding == 0
        }) else {
            return Vec::new();
        };
        let w = f.child_window();
        let pieces: Vec<_> = (f.next..f.moves.len())
            .map(|i| {
                let mut child = f.pos.clone();
                let _ = child.make_move(f.moves[i]);
                Piece {
                    slot: slot as Slot,
                    problem: AbProblem {
                        position: child,
                        depth: f.depth - 1,
                        ply: f.ply + 1,
                        window: w,
                        index: u16::try_from(i).unwrap_or(u16::MAX),
                    },
                }
            })
            .collect();
        f.next = f.moves.len();
        f.outstanding += pieces.len() as u32;
        f.sent = (f.alpha_eff(), f.beta);
        self.outstanding += pieces.len() as u32;
        pieces
    }

    fn absorb(&mut self, slot: Slot, value: AbValue, fx: &mut Effects<Window>) {
        let Some(f) = self.stack.get_mut(slot as usize) else {
            return;
        };
        if f.outstanding == 0 {
            return;
        }
        f.outstanding -= 1;
        self.outstanding -= 1;
        f.combine(value.index, value.score);
        self.settle(fx);
    }

    fn update(&mut self, w: Window, fx: &mut Effects<Window>) {
        if self.done.is_some() {
            return;
        }
        if !self.started {
            let pw = &mut self.problem.window;
            pw.alpha = pw.alpha.max(w.alpha);
            pw.beta = pw.beta.min(w.beta);
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

/// Runs the application with `policy` on `root` as `options` say.
///
/// # Errors
/// [`ParallelError`] when the table cannot be built or the runtime fails.
pub fn run<G: Game>(
    root: &G,
    options: &ParallelOptions,
    policy: SplitPolicy,
) -> Result<ParallelResult<G::Move>, ParallelError> {
    let app = GameAlphaBeta::<G>::new(options, policy)?;
    let problem = AbProblem {
        position: root.clone(),
        depth: options.depth,
        ply: 0,
        window: Window::FULL,
        index: 0,
    };
    let report = dib::solve(
        Arc::new(app),
        problem,
        options.procs,
        &options.backend,
        options.dib,
    )?;
    let value = report.value;
    let mut moves = Vec::with_capacity(G::MAX_MOVES);
    ordered_moves(root, options.search.move_ordering, &mut moves);
    let pv: Vec<G::Move> = value
        .best
        .and_then(|i| moves.get(usize::from(i)).copied())
        .into_iter()
        .collect();
    Ok(result_from_report(report, value.score, pv, Vec::new()))
}
