//! Iterative deepening with aspiration windows, and the anytime result: the best move and value
//! of the last completed iteration.
//!
//! Each iteration after the first searches a window of `±aspiration` around the previous value;
//! on a fail low (high) the failing bound is moved out by a widening step (times four each time)
//! until the value falls inside the window or the window is infinite. With fail-soft values the
//! final value of an iteration is therefore exact, and equals a direct search of that depth in
//! the research setting. Iterations stop early when a forced win or loss shorter than the depth
//! is proven (deeper iterations cannot change it).

use games::Game;
use games::score::{INFINITY, WIN_THRESHOLD, is_decisive, plies_to_end};

use super::context::SearchContext;
use super::limits::{Limits, MAX_DEPTH};
use super::refutation::RefutationTable;
use super::searcher::Searcher;
use super::stats::{IterationStats, SearchStats};

/// What [`Searcher::search_with_progress`] reports after each completed iteration (a UCI
/// `info` line, a progress display).
#[derive(Clone, Copy, Debug)]
pub struct Progress<'a, M> {
    /// The depth just completed.
    pub depth: u32,
    /// Its value, from the side to move at the root.
    pub value: i32,
    /// Its principal variation.
    pub pv: &'a [M],
    /// Nodes of this search so far (all iterations).
    pub nodes: u64,
    /// Time since the search began, as the context measures it.
    pub elapsed: std::time::Duration,
    /// The deepest ply any node of this search reached so far (quiescence included).
    pub seldepth: u32,
}

/// The result of [`Searcher::search`].
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The value of the last completed iteration, from the side to move (for a finished game:
    /// its outcome; when no iteration completed: the static evaluation).
    pub value: i32,
    /// The best move of the last completed iteration (the first legal move when none completed;
    /// `None` when the game is over).
    pub best_move: Option<M>,
    /// The principal variation of the last completed iteration.
    pub pv: Vec<M>,
    /// The depth of the last completed iteration (0 when none completed).
    pub depth: u32,
    /// Whether a limit or the context stopped the search before its depth limit.
    pub stopped: bool,
    /// The counters of this search.
    pub stats: SearchStats,
}

impl<G: Game> Searcher<G> {
    /// Iterative deepening from `root` within `limits`; time and abort requests come from `ctx`.
    /// Keeps the transposition table and history of earlier searches (a new generation).
    pub fn search(
        &mut self,
        root: &G,
        limits: &Limits,
        ctx: &mut dyn SearchContext,
    ) -> SearchResult<G::Move> {
        self.search_with_progress(root, limits, ctx, &mut |_| {})
    }

    /// [`Searcher::search`] that calls `progress` after every completed iteration.
    pub fn search_with_progress(
        &mut self,
        root: &G,
        limits: &Limits,
        ctx: &mut dyn SearchContext,
        progress: &mut dyn FnMut(&Progress<'_, G::Move>),
    ) -> SearchResult<G::Move> {
        self.reset_stats();
        self.arm(limits);
        self.tt.new_generation();
        self.tables.age();
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).min(MAX_DEPTH);
        let mut pos = root.clone();

        if let Some(outcome) = pos.outcome() {
            return SearchResult {
                value: outcome.score(0),
                best_move: None,
                pv: Vec::new(),
                depth: 0,
                stopped: false,
                stats: self.stats.clone(),
            };
        }

        self.refute.table = None;
        let mut last: Option<(i32, Vec<G::Move>, u32)> = None;
        let mut previous_nodes = None;
        let first = if self.config.deepening { 1 } else { max_depth };
        for depth in first..=max_depth {
            if depth > first && self.past_soft_deadline(ctx) {
                self.stopped = true;
                break;
            }
            let nodes_before = self.stats.nodes();
            let value = match (self.config.aspiration, &last) {
                (Some(delta), Some((prev, _, _))) if !is_decisive(*prev) && delta > 0 => {
                    self.aspiration(&mut pos, depth, *prev, delta, ctx)
                }
                _ => self.root_search(&mut pos, depth, -INFINITY, INFINITY, ctx),
            };
            if self.stopped {
                break;
            }
            if self.config.refutation_table {
                // The next iteration's order and lines (the refutation table).
                let children = std::mem::take(&mut self.refute.children);
                self.refute.table = Some(RefutationTable::from_children(children));
            }
            let nodes = self.stats.nodes() - nodes_before;
            self.stats.iterations.push(IterationStats {
                depth,
                value,
                nodes,
                elapsed: ctx.elapsed(),
                branching_factor: previous_nodes
                    .filter(|&p| p > 0)
                    .map(|p| nodes as f64 / p as f64),
            });
            previous_nodes = Some(nodes);
            let pv = self.root_pv(root, depth);
            progress(&Progress {
                depth,
                value,
                pv: &pv,
                nodes: self.stats.nodes(),
                elapsed: ctx.elapsed(),
                seldepth: self.stats.seldepth,
            });
            last = Some((value, pv, depth));
            if plies_to_end(value).is_some_and(|p| p <= depth) {
                break;
            }
        }

        let stopped = self.stopped;
        match last {
            Some((value, pv, depth)) => SearchResult {
                value,
                best_move: pv.first().copied(),
                pv,
                depth,
                stopped,
                stats: self.stats.clone(),
            },
            None => {
                let mut moves = Vec::new();
                pos.generate_moves(&mut moves);
                SearchResult {
                    value: self.evaluate(&pos),
                    best_move: moves.first().copied(),
                    pv: Vec::new(),
                    depth: 0,
                    stopped,
                    stats: self.stats.clone(),
                }
            }
        }
    }

    fn aspiration(
        &mut self,
        pos: &mut G,
        depth: u32,
        previous: i32,
        delta: i32,
        ctx: &mut dyn SearchContext,
    ) -> i32 {
        let widen = |bound: i32| {
            if bound.abs() >= WIN_THRESHOLD {
                bound.signum() * INFINITY
            } else {
                bound
            }
        };
        let mut step = delta;
        let mut alpha = widen(previous - step);
        let mut beta = widen(previous + step);
        loop {
            let v = self.root_search(pos, depth, alpha, beta, ctx);
            if self.stopped {
                return 0;
            }
            step = step.saturating_mul(4);
            if v <= alpha && alpha > -INFINITY {
                alpha = widen(v.saturating_sub(step).max(-INFINITY));
            } else if v >= beta && beta < INFINITY {
                beta = widen(v.saturating_add(step).min(INFINITY));
            } else {
                return v;
            }
        }
    }
}
