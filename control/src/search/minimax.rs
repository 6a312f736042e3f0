//! Plain negamax without pruning: the test oracle. It visits every node of the fixed-depth tree
//! (and the full quiescence tree below it, same definition as [`super::quiescence`]), with no
//! table and no ordering, so its value is the definition every other algorithm must reproduce.

use games::Game;
use games::score::INFINITY;

use super::context::SearchContext;
use super::limits::MAX_PLY;
use super::searcher::Searcher;

impl<G: Game> Searcher<G> {
    /// The negamax value of `pos` searched `depth` plies (0 when stopped).
    pub(crate) fn minimax_node(
        &mut self,
        pos: &mut G,
        depth: i32,
        ply: usize,
        ctx: &mut dyn SearchContext,
    ) -> i32 {
        self.pv_clear(ply);
        if self.enter(ctx) {
            return 0;
        }
        if let Some(outcome) = pos.outcome() {
            self.stats.leaves += 1;
            return outcome.score(ply as u32);
        }
        if depth <= 0 || ply >= MAX_PLY {
            self.stats.leaves += 1;
            self.stats.horizon += 1;
            return self.minimax_quiescence(pos, ply, ctx);
        }
        self.stats.interior += 1;
        let mut moves = std::mem::take(&mut self.plies[ply].moves);
        pos.generate_moves(&mut moves);
        let mut best = -INFINITY;
        for &mv in &moves {
            let undo = pos.make_move(mv);
            let v = -self.minimax_node(pos, depth - 1, ply + 1, ctx);
            pos.unmake_move(mv, undo);
            if self.stopped {
                break;
            }
            if v > best {
                best = v;
                self.pv_update(ply, mv);
            }
        }
        if moves.is_empty() {
            best = pos.evaluate();
        }
        self.plies[ply].moves = moves;
        best
    }

    fn minimax_quiescence(&mut self, pos: &mut G, ply: usize, ctx: &mut dyn SearchContext) -> i32 {
        if ply >= MAX_PLY {
            return pos.evaluate();
        }
        let mut moves = std::mem::take(&mut self.plies[ply].moves);
        let stand_pat = pos.generate_tactical(&mut moves);
        let mut best = if stand_pat || moves.is_empty() {
            pos.evaluate()
        } else {
            -INFINITY
        };
        for &mv in &moves {
            let undo = pos.make_move(mv);
            let v = if self.enter(ctx) {
                0
            } else {
                self.stats.quiescence += 1;
                match pos.outcome() {
                    Some(outcome) => outcome.score(ply as u32 + 1),
                    None => -self.minimax_quiescence(pos, ply + 1, ctx),
                }
            };
            pos.unmake_move(mv, undo);
            if self.stopped {
                break;
            }
            best = best.max(v);
        }
        self.plies[ply].moves = moves;
        best
    }
}

/// The negamax value of `pos` at `depth` plies, by plain minimax (no table, no pruning): the
/// reference value for tests. Also returns the number of nodes visited.
#[must_use]
pub fn minimax_value<G: Game>(pos: &G, depth: u32) -> (i32, u64) {
    let config = super::settings::SearchConfig {
        algorithm: super::settings::Algorithm::Minimax,
        tt_mode: super::settings::TtMode::Off,
        ..super::settings::SearchConfig::research()
    };
    let mut searcher = Searcher::<G>::with_table(
        config,
        std::sync::Arc::new(
            super::tt::TranspositionTable::new(0)
                .unwrap_or_else(|_| unreachable!("0 MiB is valid")),
        ),
    );
    let r = searcher.search_window(
        pos,
        depth,
        -INFINITY,
        INFINITY,
        &mut super::context::Unlimited,
    );
    (r.value, searcher.stats().nodes())
}
