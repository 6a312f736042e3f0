//! One pass of the master (thesis 5.2.1): fail-soft alpha-beta (or, with `master_search =
//! "negascout"`, NegaScout in the iterative deepening's aspiration window, figure 5.10) over its
//! `d'`-ply tree, reading the APHID table at the leaves, guessing uncertain ones and asking for
//! bad bounds.

use dib::Context;
use games::Game;
use games::score::{INFINITY, WIN_THRESHOLD, is_decisive};

use crate::parallel::aphid::bad_bound::{covers, request_window};
use crate::parallel::aphid::guess::{fallback, guess, seed_bounds};
use crate::parallel::aphid::message::{BadBound, LeafResult, Msg};
use crate::parallel::aphid::priority::PathKind;
use crate::parallel::aphid::table::{
    AphidTable, Bounds, DepthBounds, LeafId, window_to_leaf_scale,
};
use crate::search::Unlimited;

use super::{Aspiration, Master, Pass};
use crate::parallel::aphid::config::MasterSearch;

/// A bound past the decisive threshold opens to infinity (as `search::iterative` widens).
fn widen(bound: i32) -> i32 {
    if bound.abs() >= WIN_THRESHOLD {
        bound.signum() * INFINITY
    } else {
        bound
    }
}

impl<G: Game> Master<G> {
    pub(super) fn pass(&mut self, ctx: &mut dyn Context<Msg>) -> (i32, Pass) {
        let mut pass = Pass::default();
        let mut pos = self.root.clone();
        let mut path = Vec::new();
        let horizon = self.geometry.map_or(self.target, |g| g.horizon);
        let (alpha, beta) = self.root_window();
        let value = self.node(
            &mut pos,
            0,
            horizon,
            alpha,
            beta,
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

    /// The current iteration's root window: infinite, or with `master_search = "negascout"`
    /// the aspiration window of the master searcher's iterative deepening around the previous
    /// iteration's value (as `search::iterative` opens it).
    fn root_window(&mut self) -> (i32, i32) {
        if self.aspiration.iteration != self.iteration {
            let previous = self
                .iteration
                .checked_sub(1)
                .and_then(|d| self.root_values.get(d as usize).copied().flatten());
            let delta = self.searcher.config().aspiration.filter(|&d| d > 0);
            self.aspiration = match (self.opts.master_search, delta, previous) {
                (MasterSearch::Negascout, Some(delta), Some(prev)) if !is_decisive(prev) => {
                    Aspiration {
                        iteration: self.iteration,
                        alpha: widen(prev - delta),
                        beta: widen(prev + delta),
                        step: delta,
                    }
                }
                _ => Aspiration {
                    iteration: self.iteration,
                    ..Aspiration::default()
                },
            };
        }
        (self.aspiration.alpha, self.aspiration.beta)
    }

    /// After a pass over certain leaves that found `value`: whether it failed outside the
    /// root window, which then widens on that side (four times the step, as
    /// `search::iterative` widens) for another pass.
    pub(super) fn aspiration_failed(&mut self, value: i32) -> bool {
        let a = &mut self.aspiration;
        let low = value <= a.alpha && a.alpha > -INFINITY;
        let high = value >= a.beta && a.beta < INFINITY;
        if !(low || high) {
            return false;
        }
        a.step = a.step.saturating_mul(4);
        if low {
            a.alpha = widen(value.saturating_sub(a.step).max(-INFINITY));
        } else {
            a.beta = widen(value.saturating_add(a.step).min(INFINITY));
        }
        self.stats.aspiration_fails += 1;
        true
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
        if let Some(&b) = self.best_child.get(path.as_slice()) {
            if let Some(i) = order.iter().position(|&x| x == b) {
                order.remove(i);
                order.insert(0, b);
            }
        }
        let mut best = -INFINITY;
        let mut best_index = order[0];
        let mut best_guessed = false;
        let scout = self.opts.master_search == MasterSearch::Negascout;
        for (n, &i) in order.iter().enumerate() {
            let mv = moves[usize::from(i)];
            let undo = pos.make_move(mv);
            path.push(i);
            // NegaScout: a null window after the first child, the full one again when it
            // fails high inside the window.
            let null = scout && n > 0 && beta - alpha > 1;
            let b = if null { alpha + 1 } else { beta };
            let mut v = -self.node(
                pos,
                ply + 1,
                horizon,
                -b,
                -alpha,
                path,
                kind.child(n),
                pass,
                ctx,
            );
            if null && v > alpha && v < beta {
                v = -self.node(
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
            }
            path.pop();
            pos.unmake_move(mv, undo);
            if v > best {
                best = v;
                best_index = i;
                best_guessed = pass.guessed;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        match self.best_child.get_mut(path.as_slice()) {
            Some(b) => *b = best_index,
            None => {
                self.best_child.insert(path.clone(), best_index);
            }
        }
        pass.guessed = best_guessed;
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
        self.record(LeafResult {
            leaf: id,
            depth,
            lower: b.lower,
            upper: b.upper,
            nodes: n,
        });
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
        let found = guess(&scaled, required, alpha, beta, delta, parity)
            .or_else(|| fallback(&scaled, required, delta, parity));
        let Some(g) = found else {
            return pos.evaluate();
        };
        if unreported(g.depth) {
            self.guesses.from_seed += 1;
        }
        if (required - g.depth) % 2 == 1 {
            self.guesses.other_parity += 1;
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
        if !covered && pending != Some(&bad) {
            pass.bad.push((id, bad));
        }
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
