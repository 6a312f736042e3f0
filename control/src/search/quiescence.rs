//! Quiescence search below the horizon: the game's tactical moves
//! ([`Game::generate_tactical`]: captures and promotions in chess, pending captures in checkers)
//! are searched out, and the side to move may "stand pat" on the static evaluation where the
//! game allows it. Games without tactical moves simply evaluate at the horizon.
//!
//! The value is defined without reference to any window: at a quiescence node it is the maximum
//! of the stand-pat evaluation (when allowed) and the negated values of the tactical children;
//! a node with neither evaluates statically; nodes at [`MAX_PLY`] evaluate statically. The
//! minimax oracle runs this search with a full window below its horizon (the unpruned capture
//! tree explodes in chess); a unit test in `minimax.rs` checks it against the unpruned
//! definition. With [`super::SearchConfig::quiescence_plies`] `= Some(k)` the nodes `k` plies
//! below the horizon evaluate statically (`left` counts the plies still allowed).

use games::Game;
use games::score::{INFINITY, is_decisive};

use super::context::SearchContext;
use super::limits::MAX_PLY;
use super::ordering::select_next;
use super::pruning;
use super::searcher::Searcher;

impl<G: Game> Searcher<G> {
    /// Fail-soft alpha-beta over the tactical moves of `pos` (already counted as a node), at
    /// most `left` plies deep (`None`: no limit).
    pub(crate) fn quiescence(
        &mut self,
        pos: &mut G,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        left: Option<u32>,
        ctx: &mut dyn SearchContext,
    ) -> i32 {
        if ply >= MAX_PLY || left == Some(0) {
            return self.evaluate(pos);
        }
        self.stats.seldepth = self.stats.seldepth.max(ply as u32);
        let mut buf = std::mem::take(&mut self.plies[ply]);
        let stand_pat = pos.generate_tactical(&mut buf.moves);
        if buf.moves.is_empty() {
            self.plies[ply] = buf;
            return self.evaluate(pos);
        }
        let mut best = -INFINITY;
        if stand_pat {
            best = self.evaluate(pos);
            if best >= beta {
                self.plies[ply] = buf;
                return best;
            }
            alpha = alpha.max(best);
        }
        buf.order.clear();
        for (i, &mv) in buf.moves.iter().enumerate() {
            buf.order.push((i64::from(pos.move_hint(mv)), i as u16));
        }
        // The play setting: with stand pat allowed, skip the captures that lose material by
        // static exchange and (delta pruning) those whose exchange cannot bring the evaluation
        // within `DELTA_UNITS` of alpha. `None`: no pruning.
        let threshold = self.quiescence_threshold(pos, stand_pat, best, alpha);
        for i in 0..buf.moves.len() {
            select_next(&mut buf.order, i);
            let mv = buf.moves[usize::from(buf.order[i].1)];
            if let Some(t) = threshold {
                if pos.see(mv, t) == Some(false) {
                    self.stats.quiescence_pruned += 1;
                    continue;
                }
            }
            let undo = pos.make_move(mv);
            let v = if self.enter(ctx) {
                0
            } else {
                self.stats.quiescence += 1;
                match pos.outcome() {
                    Some(outcome) => outcome.score(ply as u32 + 1),
                    None => -self.quiescence(pos, -beta, -alpha, ply + 1, below(left), ctx),
                }
            };
            pos.unmake_move(mv, undo);
            if self.stopped {
                self.plies[ply] = buf;
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.plies[ply] = buf;
        best
    }
}

impl<G: Game> Searcher<G> {
    /// The static exchange a quiescence capture must reach to be searched (play setting, stand
    /// pat allowed): 0 with SEE pruning; with delta pruning, what the evaluation `stand_pat`
    /// lacks to come within `DELTA_UNITS` of `alpha`; the larger of the two with both.
    fn quiescence_threshold(
        &self,
        pos: &G,
        allowed: bool,
        stand_pat: i32,
        alpha: i32,
    ) -> Option<i32> {
        if !allowed || !self.config.play_enhancements() {
            return None;
        }
        let f = self.config.play_features;
        let see = f.see_quiescence.then_some(0);
        let delta = match pos.margin_unit() {
            Some(unit) if f.delta && !is_decisive(alpha) => {
                Some(alpha - stand_pat - pruning::DELTA_UNITS * unit)
            }
            _ => None,
        };
        see.max(delta)
    }
}

/// The quiescence plies left one ply further down.
pub(crate) fn below(left: Option<u32>) -> Option<u32> {
    left.map(|l| l.saturating_sub(1))
}
