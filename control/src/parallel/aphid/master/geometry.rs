//! The automatic `d'` and `g` (thesis 5.2.1): the first iterations run sequentially on the
//! master, whose node statistics choose the horizon and the granularity once the tree is big
//! enough to give every slave its pieces.

use dib::Context;
use games::Game;
use games::score::INFINITY;

use crate::parallel::aphid::message::Msg;
use crate::parallel::play::watch::WatchCtx;
use crate::search::Unlimited;

use super::{Geometry, Master};

/// The automatic `d'` gives at least this many pieces of work in all (when some ply of the
/// sequential iterations has that many horizon nodes), whatever `min_pieces_per_slave` x
/// slaves asks. Measured on the simulator (Othello middle game, depth 11, 3 positions, 16
/// processors): 4 pieces per slave gave a speedup of 6.7, 8 gave 8.3 and 12 gave 8.4, while at
/// 64 processors 8 per slave (a master tree twice as deep) was slower than 4: what matters is
/// the total number of pieces, against which the largest must be small. With incremental
/// passes about 500 pieces pay at both 16 and 64 processors,
/// but raising this floor alone does not give them: the search goes parallel at the first
/// iteration where `min_pieces_per_slave` x slaves pieces exist, before any ply has 512.
const MIN_PIECES: u64 = 128;

/// The most pieces the automatic `d'` aims at for a large search (see `piece_floor`).
/// Measured on the simulator: about 500 pieces gave 10.5-10.7 at
/// 16 processors and 23.6-29.5 at 64 at depths 12-13, against 7.3-8.3 and 19.7-20.8 with 128-252.
const MAX_PIECES: u64 = 512;

/// Nodes per piece (in the extrapolated target iteration) below which more pieces stop paying:
/// at depth 9 (about 0.3 M nodes per position) 512 pieces lost a quarter of the speedup at 64
/// processors, at depth 11 (about 3 M) they won a third. 2,000 against 4,000: better at depths
/// 10-11 (16.94 against 14.85 at 64, depth 11), slightly worse at depth 9 (8.42 against 8.97).
const PIECE_NODES: u64 = 2_000;

/// How many plies before the target an iteration may still stay sequential waiting for its
/// piece floor (later iterations are too large a share of the search to run alone).
const WAIT_PLIES: u32 = 4;

impl<G: Game> Master<G> {
    /// The sequential iterations; true when they solved the whole search.
    pub(super) fn start(&mut self, ctx: &mut dyn Context<Msg>) -> bool {
        self.root_values = vec![None; self.target as usize + 2];
        self.seq_leaves = vec![0; self.target as usize + 1];
        self.seq_nodes = vec![0; self.target as usize + 1];
        for d in 0..=self.target {
            if d > 0 {
                if let Some(g) = self.geometry_for(d) {
                    self.geometry = Some(g);
                    self.iteration = d;
                    self.hypothesis = self.root_values[d as usize - 1].unwrap_or(0);
                    self.anchor = self.hypothesis;
                    return false;
                }
            }
            let (nodes0, leaves0) = (self.searcher.stats().nodes(), self.searcher.stats().horizon);
            let root = self.root.clone();
            let r = match self.watch.clone() {
                // The play setting: the clock and the stop end a sequential iteration too.
                Some(w) => {
                    let mut clock = WatchCtx::new(&w, true, ctx.now(), self.node_ns);
                    self.searcher
                        .search_window(&root, d, -INFINITY, INFINITY, &mut clock)
                }
                None => self
                    .searcher
                    .search_window(&root, d, -INFINITY, INFINITY, &mut Unlimited),
            };
            let n = self.charge_search(nodes0, ctx);
            if !r.completed {
                self.halted = true;
                return true;
            }
            self.stats.sequential_nodes += n;
            self.seq_nodes[d as usize] = n;
            self.seq_leaves[d as usize] = self.searcher.stats().horizon - leaves0;
            self.root_values[d as usize] = Some(r.value);
            let deepens = d == 0 || self.sequential_deepens(d, r.value, &r.pv, ctx);
            if d == self.target || !deepens {
                self.result = Some((r.value, r.pv));
                ctx.finish();
                return true;
            }
        }
        false
    }

    /// The play setting: records sequential iteration `d` in the watch; whether the clock lets
    /// the next begin (always true in the research setting).
    fn sequential_deepens(
        &self,
        d: u32,
        value: i32,
        pv: &[G::Move],
        ctx: &mut dyn Context<Msg>,
    ) -> bool {
        let Some(w) = &self.watch else {
            return true;
        };
        let now = w.now(ctx.now());
        w.record(d, value, pv.to_vec(), now, 0);
        w.may_deepen(d, now)
    }

    /// `d'`, `g` and whether iteration `d` may go parallel (thesis 5.2.1, automatic choice).
    fn geometry_for(&self, d: u32) -> Option<Geometry> {
        let slaves = self.slaves.len() as u64;
        if slaves == 0 {
            return None;
        }
        let pieces = u64::from(self.opts.min_pieces_per_slave.max(1)) * slaves;
        // At least MIN_PIECES pieces where the tree has a ply with that many (few slaves with
        // few pieces each wait on the largest at the end of every iteration).
        let enough = |n: u64| (1..d).find(|&p| self.seq_leaves[p as usize] >= n);
        let horizon = match self.opts.master_depth {
            Some(h) => h.max(1),
            None => {
                let floor = piece_floor(&self.seq_nodes, d, self.target);
                // A large search waits (sequentially) for its floor until WAIT_PLIES before
                // the target: going parallel earlier fixes a shallow `d'` with few pieces.
                if floor > MIN_PIECES && d + WAIT_PLIES <= self.target {
                    enough(pieces.max(floor))?
                } else {
                    enough(pieces.max(floor)).or_else(|| enough(pieces))?
                }
            }
        };
        let mut granularity = self.min_granularity;
        if self.opts.master_depth.is_none() && self.opts.min_piece_nodes > 0 {
            let enough = self.opts.min_piece_nodes.saturating_mul(pieces);
            let big = (1..d).find(|&p| self.seq_nodes[p as usize] >= enough)?;
            granularity = granularity.max(big.saturating_sub(horizon));
        }
        (d >= horizon + granularity).then_some(Geometry {
            horizon,
            granularity,
            from: d,
        })
    }
}

/// The least number of pieces the automatic `d'` aims at before iteration `d`: `MIN_PIECES`,
/// raised up to `MAX_PIECES` when the target iteration, extrapolated from the node counts of
/// the last sequential iterations (`seq_nodes[p]` for iteration `p`), has more than
/// `PIECE_NODES` nodes per piece.
fn piece_floor(seq_nodes: &[u64], d: u32, target: u32) -> u64 {
    let Some(last) = d.checked_sub(1).filter(|&l| l >= 3) else {
        return MIN_PIECES;
    };
    let (a, b) = match (
        seq_nodes.get(last as usize),
        seq_nodes.get(last as usize - 2),
    ) {
        (Some(&a), Some(&b)) if a > 0 && b > 0 => (a, b),
        _ => return MIN_PIECES,
    };
    // Growth per ply over two plies (alpha-beta trees alternate odd and even plies).
    let growth = (a as f64 / b as f64).sqrt().max(1.0);
    let target_nodes = a as f64 * growth.powi(target.saturating_sub(last) as i32);
    let floor = (target_nodes / PIECE_NODES as f64).min(MAX_PIECES as f64) as u64;
    floor.clamp(MIN_PIECES, MAX_PIECES)
}

#[cfg(test)]
mod piece_floor_tests {
    use super::*;

    #[test]
    fn the_floor_grows_with_the_extrapolated_target_iteration() {
        // Iterations 1..=5 searched sequentially, the tree growing 4x every two plies.
        let seq = [0, 10, 30, 40, 120, 160];
        // Before iteration 6 of a search to 6 plies: 160 * 2 = 320 nodes, far below a piece each.
        assert_eq!(piece_floor(&seq, 6, 6), MIN_PIECES);
        // The same statistics, target 14: 160 * 2^9 = 81,920 nodes, 40 pieces of 2,000: the floor.
        assert_eq!(piece_floor(&seq, 6, 14), MIN_PIECES);
        // Target 20: 160 * 2^15 = 5.2 M nodes, capped at MAX_PIECES.
        assert_eq!(piece_floor(&seq, 6, 20), MAX_PIECES);
        // Target 17: 160 * 2^12 = 655,360 nodes: 327 pieces.
        assert_eq!(piece_floor(&seq, 6, 17), 327);
        // Too few iterations to extrapolate.
        assert_eq!(piece_floor(&seq, 3, 20), MIN_PIECES);
    }
}
