//! One pass of the master (thesis 5.2.1): fail-soft alpha-beta over its `d'`-ply tree, reading
//! the APHID table at the leaves, guessing uncertain ones and asking for bad bounds.

use dib::Context;
use games::Game;
use games::score::{INFINITY, is_decisive};

use crate::parallel::aphid::bad_bound::{covers, expect_undecided, held_value, request_window};
use crate::parallel::aphid::churn::Source;
use crate::parallel::aphid::guess::{fallback_by_parity, guess_by_parity, seed_bounds};
use crate::parallel::aphid::message::{BadBound, LeafResult, Msg};
use crate::parallel::aphid::priority::PathKind;
use crate::parallel::aphid::table::{
    AphidTable, Bounds, DepthBounds, LeafId, window_to_leaf_scale,
};
use crate::search::Unlimited;
use crate::search::tt::value_to_tt;

use super::{Master, Pass};

impl<G: Game> Master<G> {
    pub(super) fn pass(&mut self, ctx: &mut dyn Context<Msg>) -> (i32, Pass) {
        let mut pass = Pass::default();
        let mut pos = self.root.clone();
        let mut path = Vec::new();
        let horizon = self.geometry.map_or(self.target, |g| g.horizon);
        let value = self.node(
            &mut pos,
            0,
            horizon,
            -INFINITY,
            INFINITY,
            &mut path,
            PathKind::ROOT,
            &mut pass,
            ctx,
        );
        self.stats.passes += 1;
        self.stats.pass_nodes += pass.nodes;
        // A pass walks the master's tree: control overhead, not search.
        ctx.charge_work(&dib::Work {
            control: pass.nodes,
            ..dib::Work::default()
        });
        (value, pass)
    }

    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        pos: &mut G,
        ply: u32,
        mut horizon: u32,
        mut alpha: i32,
        beta: i32,
        path: &mut Vec<u16>,
        kind: PathKind,
        pass: &mut Pass,
        ctx: &mut dyn Context<Msg>,
    ) -> i32 {
        pass.nodes += 1;
        pass.guessed = false;
        pass.principal = None;
        if let Some(outcome) = pos.outcome() {
            return outcome.score(ply);
        }
        if ply == horizon && ply < self.iteration && self.exempt.contains(path.as_slice()) {
            horizon += 2;
        }
        if ply >= horizon.min(self.iteration) {
            return self.leaf(pos, ply, alpha, beta, path, kind, pass, ctx);
        }
        let incremental = self.opts.incremental_passes;
        if incremental {
            let known = self.proven.get(path.as_slice());
            if let Some(v) = known.and_then(|b| b.decides(alpha, beta)) {
                pass.kept.insert(path.clone());
                self.stats.proven_cuts += 1;
                return v;
            }
        }
        let (alpha0, uncertain0) = (alpha, pass.uncertain);
        let mut moves = Vec::with_capacity(G::MAX_MOVES);
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            return pos.evaluate();
        }
        let mut order = match self.first_order.get(path.as_slice()) {
            Some(o) if o.len() == moves.len() => o.clone(),
            _ => {
                let o = self.initial_order(pos, &moves);
                self.first_order.insert(path.clone(), o.clone());
                o
            }
        };
        // The children's last values, taken out of the table for this node's loop (the
        // recursion below never reads this node's entry) and put back once after it.
        let mut values = self.opts.value_ordering.then(|| {
            self.child_values
                .remove(path.as_slice())
                .unwrap_or_else(|| vec![None; moves.len()])
        });
        if let Some(v) = &values {
            order_by_value(&mut order, v);
        }
        if let Some(&b) = self.best_child.get(path.as_slice()) {
            if let Some(i) = order.iter().position(|&x| x == b) {
                order.remove(i);
                order.insert(0, b);
            }
        }
        let mut best = -INFINITY;
        let mut best_index = order[0];
        let mut best_guessed = false;
        let mut best_principal = None;
        for (n, &i) in order.iter().enumerate() {
            let mv = moves[usize::from(i)];
            let undo = pos.make_move(mv);
            path.push(i);
            let v = -self.node(
                pos,
                ply + 1,
                horizon,
                -beta,
                -alpha,
                path,
                kind.child(n),
                pass,
                ctx,
            );
            path.pop();
            pos.unmake_move(mv, undo);
            if let Some(x) = values.as_mut().and_then(|vs| vs.get_mut(usize::from(i))) {
                *x = Some(v);
            }
            if v > best {
                best = v;
                best_index = i;
                best_guessed = pass.guessed;
                best_principal = pass.principal;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if let Some(v) = values {
            self.child_values.insert(path.clone(), v);
        }
        match self.best_child.get_mut(path.as_slice()) {
            Some(b) => *b = best_index,
            None => {
                self.best_child.insert(path.clone(), best_index);
            }
        }
        pass.guessed = best_guessed;
        pass.principal = best_principal;
        if incremental && pass.uncertain == uncertain0 {
            // Every leaf below was certain: fail-soft alpha-beta over facts proves a fact.
            let fact = Bounds::from_search(best, alpha0, beta);
            let known = self.proven.entry(path.clone()).or_insert(Bounds::UNKNOWN);
            *known = known.merge(fact);
        }
        best
    }

    /// The table's move (from the sequential iterations), then by the game's hint, then in
    /// generation order.
    fn initial_order(&self, pos: &G, moves: &[G::Move]) -> Vec<u16> {
        let tt_move = self
            .searcher
            .table()
            .probe(pos.hash())
            .and_then(|e| e.move_index);
        let mut order: Vec<(i64, u16)> = moves
            .iter()
            .enumerate()
            .map(|(i, &mv)| {
                let key = if tt_move == Some(i as u16) {
                    i64::MAX
                } else {
                    i64::from(pos.move_hint(mv))
                };
                (key, i as u16)
            })
            .collect();
        order.sort_by_key(|&(key, i)| (std::cmp::Reverse(key), i));
        order.into_iter().map(|(_, i)| i).collect()
    }

    /// The master's own search of a leaf (depth 0 when created; leaves below the granularity
    /// or without a live owner).
    fn search_leaf(
        &mut self,
        pos: &G,
        id: LeafId,
        depth: u32,
        alpha: i32,
        beta: i32,
        ctx: &mut dyn Context<Msg>,
    ) -> Bounds {
        let before = self.searcher.stats().nodes();
        let r = self
            .searcher
            .search_window(pos, depth, alpha, beta, &mut Unlimited);
        let n = self.charge_search(before, ctx);
        let b = Bounds::from_search(r.value, alpha, beta);
        self.record(
            LeafResult {
                leaf: id,
                depth,
                lower: b.lower,
                upper: b.upper,
                nodes: n,
            },
            false,
        );
        b
    }

    #[allow(clippy::too_many_arguments)]
    fn leaf(
        &mut self,
        pos: &G,
        ply: u32,
        alpha: i32,
        beta: i32,
        path: &[u16],
        kind: PathKind,
        pass: &mut Pass,
        ctx: &mut dyn Context<Msg>,
    ) -> i32 {
        let required = self.iteration - ply;
        let granularity = self.geometry.map_or(u32::MAX, |g| g.granularity);
        pass.guessed = false;
        let id = match self.table.find(path) {
            Some(id) => id,
            None => {
                let owner = if required >= granularity {
                    self.live_slave()
                } else {
                    None
                };
                let id = self.table.insert(path, owner);
                if self.opts.tt_seeded_guesses {
                    self.seed(pos, id);
                }
                self.search_leaf(pos, id, 0, -INFINITY, INFINITY, ctx);
                if owner.is_some() {
                    let probe = self.opts.leaf_probe_depth.min(required.saturating_sub(1));
                    if probe > 0 {
                        let before = self.stats.search_nodes;
                        self.search_leaf(pos, id, probe, -INFINITY, INFINITY, ctx);
                        self.guesses.probes += 1;
                        self.guesses.probe_nodes += self.stats.search_nodes - before;
                    }
                    pass.new_leaves.push(id);
                }
                id
            }
        };
        let root_bounds = |t: &AphidTable, depth: u32| {
            t.row(id)
                .and_then(|r| r.slave.get(depth))
                .map(|b| b.to_root_scale(ply))
        };
        pass.principal = Some((id, Source::Certain));
        if let Some(v) = root_bounds(&self.table, required).and_then(|b| b.decides(alpha, beta)) {
            pass.touched.push((id, kind.priority(false)));
            return v;
        }
        let owner = self.table.row(id).and_then(|r| r.master.owner);
        let orphan = owner.is_none_or(|o| self.slaves.get(o - 1).is_none_or(|s| s.dead));
        if required < granularity || orphan {
            let (a, b) = window_to_leaf_scale(alpha, beta, ply);
            pass.touched.push((id, kind.priority(false)));
            let found = self.search_leaf(pos, id, required, a, b, ctx);
            if let Some(v) = found.to_root_scale(ply).decides(alpha, beta) {
                return v;
            }
            // Scale conversions at decisive values can leave a gap: search exactly.
            let exact = self.search_leaf(pos, id, required, -INFINITY, INFINITY, ctx);
            return exact.to_root_scale(ply).lower;
        }
        // Uncertain.
        pass.uncertain += 1;
        pass.guessed = true;
        let early = pass.uncertain <= self.opts.first_uncertain;
        pass.touched.push((id, kind.priority(early)));
        pass.waiting.push(id);
        if self.opts.tt_reseed_guesses {
            self.reseed(pos, id);
        }
        if let Some(known) = self.table.row(id).and_then(|r| r.slave.get(required)) {
            self.ask(id, ply, required, known, (alpha, beta), pass);
        }
        let mut scaled = DepthBounds::default();
        let reported = self.table.row(id).map(|r| &r.slave);
        if let Some(slave) = reported {
            for (k, b) in slave.deepest_first() {
                scaled.record(k, b.to_root_scale(ply));
            }
        }
        // Seeds fill only the depths no search of the leaf has reported.
        let unreported = |k: u32| reported.is_none_or(|r| r.get(k).is_none());
        if let Some(seed) = self.seeds.get(&id) {
            for (k, b) in seed.deepest_first() {
                if unreported(k) {
                    scaled.record(k, b.to_root_scale(ply));
                }
            }
        }
        let sign = if ply % 2 == 0 { 1 } else { -1 };
        let hyp = self.anchor;
        let roots = &self.root_values;
        let delta = |k: u32| {
            if k == required || is_decisive(hyp) {
                return 0;
            }
            match roots.get((ply + k) as usize).copied().flatten() {
                Some(v) if !is_decisive(v) => sign * (hyp - v),
                _ => 0,
            }
        };
        let parity = self.opts.parity_guesses;
        let found = guess_by_parity(&scaled, required, alpha, beta, delta, parity)
            .or_else(|| fallback_by_parity(&scaled, required, delta, parity));
        pass.principal = Some((id, Source::of_guess(found.map_or(0, |g| g.depth), required)));
        let Some(g) = found else {
            return pos.evaluate();
        };
        if unreported(g.depth) {
            self.guesses.from_seed += 1;
        }
        if (required - g.depth) % 2 == 1 {
            self.guesses.other_parity += 1;
        }
        if self.opts.early_bad_bounds {
            self.ask_early(id, ply, required, g.value, (alpha, beta), pass);
        }
        if self.opts.bad_bound_hold {
            return self.hold(id, ply, required, g.value, pass);
        }
        g.value
    }

    /// Asks leaf `id`'s owner for depth `required` with the window `(alpha, beta)` (root's
    /// scale) a pass needs, unless the request is out already (or, with
    /// `AphidOptions::bad_bound_margin`, one that covers it); `known`: what that depth is known
    /// to be.
    fn ask(
        &mut self,
        id: LeafId,
        ply: u32,
        required: u32,
        known: Bounds,
        (alpha, beta): (i32, i32),
        pass: &mut Pass,
    ) {
        let (mut a, mut b) = window_to_leaf_scale(alpha, beta, ply);
        if known.decides(a, b).is_some() {
            // Decided on the leaf's scale but not on the root's (decisive values near the
            // scale's seams): ask for the exact value.
            (a, b) = (-INFINITY, INFINITY);
        }
        let margin = self.opts.bad_bound_margin;
        let (wa, wb) = request_window(a, b, margin);
        let bad = BadBound {
            depth: required,
            alpha: wa,
            beta: wb,
        };
        let pending = self.pending_bad.get(&id);
        // With a margin, a request already out whose answer decides this window too is not
        // sent again.
        let covered = margin > 0 && pending.is_some_and(|p| covers(p, required, a, b));
        if covered {
            self.churn.bad_covered += u64::from(pending != Some(&bad));
        } else if pending != Some(&bad) {
            pass.bad.push((id, bad));
        }
    }

    /// `AphidOptions::early_bad_bounds`: asks for leaf `id`'s required depth at once when its
    /// owner has reported the depth below but not that one, and the pass's guess `guess`
    /// (root's scale) lies outside the owner's own window on a side where the pass's window
    /// reaches beyond it (`bad_bound.rs`).
    #[allow(clippy::too_many_arguments)]
    fn ask_early(
        &mut self,
        id: LeafId,
        ply: u32,
        required: u32,
        guess: i32,
        window: (i32, i32),
        pass: &mut Pass,
    ) {
        let slave = self.table.row(id).map(|r| &r.slave);
        let below = slave.is_some_and(|r| required > 1 && r.get(required - 1).is_some());
        if !below || slave.is_some_and(|r| r.get(required).is_some()) || is_decisive(guess) {
            return;
        }
        let (a, b) = window_to_leaf_scale(window.0, window.1, ply);
        if expect_undecided(a, b, self.slave_window(ply), guess) {
            self.churn.bad_early += 1;
            self.ask(id, ply, required, Bounds::UNKNOWN, window, pass);
        }
    }

    /// The window a slave's own search of a leaf `ply` plies down uses (`slave/pick.rs`, `window_at`),
    /// from the master's hypothetical value; `None`: the infinite window.
    fn slave_window(&self, ply: u32) -> Option<(i32, i32)> {
        let hyp = self.hypothesis;
        if is_decisive(hyp) {
            return None;
        }
        let centre = value_to_tt(if ply % 2 == 0 { hyp } else { -hyp }, ply as usize);
        let w = self.opts.window;
        Some((centre - w, centre + w))
    }

    /// `AphidOptions::bad_bound_hold`: while leaf `id`'s bad-bound answer is pending (or its
    /// request goes out after this pass), the pass uses the value held since the request,
    /// as long as the leaf's known bounds at the required depth allow it (`bad_bound.rs`).
    fn hold(&mut self, id: LeafId, ply: u32, required: u32, guess: i32, pass: &Pass) -> i32 {
        let asking = self
            .pending_bad
            .get(&id)
            .is_some_and(|p| p.depth == required)
            || pass.bad.iter().any(|(x, _)| *x == id);
        if !asking {
            self.held.remove(&id);
            return guess;
        }
        let known = self
            .table
            .row(id)
            .and_then(|r| r.slave.get(required))
            .map_or(Bounds::UNKNOWN, |b| b.to_root_scale(ply));
        let v = held_value(self.held.get(&id).copied(), known, guess);
        if self.held.insert(id, v) == Some(v) && v != guess {
            self.churn.bad_held += 1;
        }
        v
    }

    /// Reads the transposition table again for an uncertain leaf (`tt_reseed_guesses`).
    fn reseed(&mut self, pos: &G, id: LeafId) {
        if let Some((_, true)) = self.seed_from_table(pos, id) {
            self.guesses.reseeds += 1;
        }
    }

    /// Seeds a new leaf's guesses from the transposition table (`tt_seeded_guesses`).
    fn seed(&mut self, pos: &G, id: LeafId) {
        let Some((k, _)) = self.seed_from_table(pos, id) else {
            return;
        };
        let g = &mut self.guesses;
        g.seeds += 1;
        g.seed_depth_sum += u64::from(k);
        match k {
            1 => g.seeds_depth_1 += 1,
            2 => g.seeds_depth_2 += 1,
            3 => g.seeds_depth_3 += 1,
            _ => g.seeds_depth_4_up += 1,
        }
    }

    /// The table entry for leaf `id`'s position, of depth `k` above 0 that no search of the
    /// leaf has reported, kept as a seed of depth `k` (never read as deeper; for guesses
    /// only): `k` and whether the seed changed, or `None` when there is no such entry.
    fn seed_from_table(&mut self, pos: &G, id: LeafId) -> Option<(u32, bool)> {
        let e = self.searcher.table().probe(pos.hash())?;
        let k = u32::from(e.depth);
        let reported = self.table.row(id).is_some_and(|r| r.slave.get(k).is_some());
        if k == 0 || reported {
            return None;
        }
        let changed = self.seeds.entry(id).or_default().record(k, seed_bounds(&e));
        Some((k, changed))
    }
}

/// `order` (move indices) with the children a pass searched before first, best last value
/// first (`AphidOptions::value_ordering`); a stable sort keeps the given order among equal
/// values and among the children never searched.
fn order_by_value(order: &mut [u16], values: &[Option<i32>]) {
    let key = |i: &u16| {
        values
            .get(usize::from(*i))
            .copied()
            .flatten()
            .map_or(i64::MIN, i64::from)
    };
    order.sort_by_key(|i| std::cmp::Reverse(key(i)));
}

#[cfg(test)]
mod value_order_tests {
    use super::*;

    /// Session 11 (`value_ordering`): children searched before go first, best value first;
    /// the given order stays among equals and among those never searched.
    #[test]
    fn children_by_their_last_values() {
        let mut order = vec![0, 1, 2, 3, 4];
        order_by_value(&mut order, &[None, Some(-5), Some(7), Some(-5), None]);
        assert_eq!(order, vec![2, 1, 3, 0, 4]);
        let mut order = vec![3, 0, 1];
        order_by_value(&mut order, &[]);
        assert_eq!(order, vec![3, 0, 1], "nothing known: unchanged");
    }
}
