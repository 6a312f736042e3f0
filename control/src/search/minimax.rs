//! Plain negamax without pruning: the test oracle. It visits every node of the fixed-depth tree
//! with no table and no ordering, so its value is the definition every other algorithm must
//! reproduce. Below the horizon it runs the quiescence search with a full window: the
//! quiescence value is defined without reference to any window (see [`super::quiescence`]), and
//! the unpruned capture tree is far too large for an oracle in tactical chess positions (over
//! 5 million nodes below Kiwipete at depth 1). The unit test of this module checks the pruned
//! quiescence against the unpruned definition where the capture tree is small.

use games::Game;
use games::score::INFINITY;

use super::context::SearchContext;
use super::limits::{Limits, MAX_PLY};
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
            return self.quiescence(
                pos,
                -INFINITY,
                INFINITY,
                ply,
                self.config.quiescence_plies,
                ctx,
            );
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

    /// The quiescence value by its definition, without pruning (for the oracle's own test).
    #[cfg(test)]
    fn minimax_quiescence(
        &mut self,
        pos: &mut G,
        ply: usize,
        left: Option<u32>,
        ctx: &mut dyn SearchContext,
    ) -> i32 {
        if ply >= MAX_PLY || left == Some(0) {
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
                    None => {
                        -self.minimax_quiescence(pos, ply + 1, super::quiescence::below(left), ctx)
                    }
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
    minimax_limited(pos, depth, &Limits::default())
        .unwrap_or_else(|| unreachable!("an unlimited search completes"))
}

/// [`minimax_value`] that gives up once it has visited about `max_nodes` nodes: `None` when the
/// tree (quiescence included: without pruning it can explode in tactical chess positions) is
/// larger than that.
#[must_use]
pub fn minimax_value_within<G: Game>(pos: &G, depth: u32, max_nodes: u64) -> Option<(i32, u64)> {
    minimax_limited(pos, depth, &Limits::nodes(max_nodes))
}

fn minimax_limited<G: Game>(pos: &G, depth: u32, limits: &Limits) -> Option<(i32, u64)> {
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
    let r = searcher.search_window_limited(
        pos,
        depth,
        -INFINITY,
        INFINITY,
        limits,
        &mut super::context::Unlimited,
    );
    r.completed.then(|| (r.value, searcher.stats().nodes()))
}

#[cfg(test)]
mod tests {
    use games::Game;
    use games::score::INFINITY;

    use super::*;
    use crate::search::context::Unlimited;
    use crate::search::settings::{Algorithm, SearchConfig, TtMode};

    /// Pruned quiescence equals the unpruned definition (both at most `left` plies deep) on
    /// every position of random games whose capture tree has at most `budget` nodes; returns
    /// how many were compared.
    fn compare<G: Game>(games: u64, budget: u64, left: Option<u32>) -> usize {
        let config = SearchConfig {
            algorithm: Algorithm::Minimax,
            tt_mode: TtMode::Off,
            quiescence_plies: left,
            ..SearchConfig::research()
        };
        let mut compared = 0;
        let mut moves = Vec::new();
        for seed in 0..games {
            let mut pos = G::start();
            let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            for _ in 0..80 {
                pos.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let mut s = Searcher::<G>::new(config).unwrap();
                s.arm(&Limits::nodes(budget));
                let slow = s.minimax_quiescence(&mut pos.clone(), 0, left, &mut Unlimited);
                if !s.stopped {
                    let mut fast = Searcher::<G>::new(config).unwrap();
                    let v = fast.quiescence(
                        &mut pos.clone(),
                        -INFINITY,
                        INFINITY,
                        0,
                        left,
                        &mut Unlimited,
                    );
                    assert_eq!(v, slow, "quiescence of {pos}");
                    compared += 1;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let _ = pos.make_move(moves[(state % moves.len() as u64) as usize]);
            }
        }
        compared
    }

    #[test]
    fn pruned_quiescence_equals_its_unpruned_definition() {
        let chess = compare::<games::chess::Chess>(12, 20_000, None);
        assert!(chess > 150, "only {chess} chess positions compared");
        let checkers = compare::<games::checkers::Checkers>(12, 20_000, None);
        assert!(
            checkers > 300,
            "only {checkers} checkers positions compared"
        );
        // The two-PDP-11 thesis's limit: static evaluation two plies below the horizon.
        let limited = compare::<games::chess::Chess>(12, 20_000, Some(2));
        assert!(limited > 150, "only {limited} limited positions compared");
    }
}
