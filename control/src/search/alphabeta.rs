//! The node search: fail-soft negamax alpha-beta (Knuth and Moore, in the form Rezaie and Finkel
//! give, section 3.1) and, with [`Algorithm::Pvs`], principal variation search / NegaScout
//! (Marsland and Popowich): the eldest child gets the full window, every later child a null
//! window `(alpha, alpha + 1)` first and a re-search only when it fails high inside `beta`.
//!
//! In the research setting nothing depends on the window except which subtrees are cut off, so
//! the value inside the root window is the minimax value of the fixed-depth tree (quiescence
//! included). The play setting adds null-move pruning, late move reductions, check extensions,
//! reverse futility pruning, mate-distance pruning and, where the game has a model for it, ProbCut (`README.md`, "The
//! two settings").

use games::Game;
use games::score::{INFINITY, is_decisive, loss_in, win_in};

use super::context::SearchContext;
use super::limits::MAX_PLY;
use super::ordering::{QUIET_BELOW, select_next};
use super::pruning;
use super::refutation::First;
use super::searcher::{NodeInfo, Searcher};
use super::settings::{Algorithm, TtMode};
use super::sorting::NodeType;
use super::tt::{Bound, TtEntry, value_from_tt, value_to_tt};

impl<G: Game> Searcher<G> {
    /// Searches `pos` to `depth` plies with the window `(alpha, beta)`; `ply` is the distance
    /// from the root. Returns the fail-soft value (0 when stopped; callers check `stopped`).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn alphabeta(
        &mut self,
        pos: &mut G,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        node: NodeInfo,
        ctx: &mut dyn SearchContext,
    ) -> i32 {
        self.pv_clear(ply);
        let refute = self.config.refutation_table;
        if refute {
            self.refute.lines[ply].clear();
        }
        self.stats.seldepth = self.stats.seldepth.max(ply as u32);
        if self.enter(ctx) {
            return 0;
        }
        if let Some(outcome) = pos.outcome() {
            self.stats.leaves += 1;
            return outcome.score(ply as u32);
        }
        if self.config.play_enhancements() && ply > 0 {
            // Mate-distance pruning: no line from here wins faster than mating with the next
            // move or loses faster than being mated here; a window outside that is decided.
            if self.config.play_features.mate_distance {
                alpha = alpha.max(loss_in(ply as u32));
                beta = beta.min(win_in(ply as u32 + 1));
                if alpha >= beta {
                    return alpha;
                }
            }
        }
        if depth <= 0 || ply >= MAX_PLY {
            self.stats.leaves += 1;
            // With `tt_min_depth` 0 a horizon node probes and stores the table too (Marsland and
            // Popowich's "complete system": "a table lookup is made upon the initial visit to any
            // tree node", section 8.2). A horizon leaf is one that is evaluated: a node the table
            // decides is a search node.
            let use_tt = self.config.tt_mode != TtMode::Off
                && self.config.tt_min_depth == 0
                && ply < MAX_PLY;
            let left = self.config.quiescence_plies;
            if !use_tt {
                self.stats.horizon += 1;
                return self.quiescence(pos, alpha, beta, ply, left, ctx);
            }
            let hash = pos.hash();
            // At the search's root a stored value cannot decide the node: a depth-0 root is a
            // split engine's leaf, which the engine has probed already.
            if ply > 0 {
                if let (Some(v), _) = self.probe_table(hash, 0, alpha, beta, ply) {
                    return v;
                }
            }
            self.stats.horizon += 1;
            let v = self.quiescence(pos, alpha, beta, ply, left, ctx);
            if !self.stopped {
                self.store_table(hash, v, alpha, beta, 0, ply, None, ctx);
            }
            return v;
        }
        if self.config.sorting.type_two_bug && depth > 0 {
            let sorting = self.config.sorting;
            depth = sorting.searched_depth(self.sort_ply(ply), node.kind, node.eldest, depth as u32)
                as i32;
        }
        self.stats.interior += 1;

        // Transposition table.
        let hash = pos.hash();
        let mut tt_move = None;
        let use_tt = self.config.tt_mode != TtMode::Off && depth >= self.config.tt_min_depth as i32;
        if use_tt {
            let (cut, hint) = self.probe_table(hash, depth, alpha, beta, ply);
            if let Some(v) = cut {
                return v;
            }
            tt_move = hint;
        }

        // ABDADA (Weill 1996): a younger child that another processor is searching is put
        // off to its parent's second pass; otherwise this processor counts itself in. A table
        // cutoff above returned before the count was raised.
        let mut counted = false;
        if self.busy.is_some() && use_tt && depth >= self.busy_min_depth as i32 {
            if node.exclusive && self.busy_count(hash) > 0 {
                self.deferred = true;
                return 0;
            }
            counted = self.busy_enter(hash, depth, ctx);
        }
        let v = self.expand(pos, depth, (alpha, beta), ply, node, (hash, tt_move), ctx);
        if counted {
            self.busy_leave(hash, depth, ctx);
        }
        v
    }

    /// The node search below the table probe: null move, ProbCut, the moves (in two passes
    /// under ABDADA), the table store.
    #[allow(clippy::too_many_arguments)]
    fn expand(
        &mut self,
        pos: &mut G,
        depth: i32,
        (mut alpha, beta): (i32, i32),
        ply: usize,
        node: NodeInfo,
        (hash, tt_move): (u64, Option<u16>),
        ctx: &mut dyn SearchContext,
    ) -> i32 {
        let play = self.config.play_enhancements();
        let features = self.config.play_features;
        let refute = self.config.refutation_table;
        let use_tt = self.config.tt_mode != TtMode::Off && depth >= self.config.tt_min_depth as i32;
        let in_check = play && pos.in_check();

        // ProbCut (play setting): a shallow search predicts that this node leaves the window.
        if play && features.probcut && ply > 0 && !in_check {
            if let Some(v) = self.probcut(pos, depth, alpha, beta, ply, ctx) {
                return v;
            }
        }

        // The static evaluation, for the play setting's pruning (not in check).
        let pv_node = node.kind == NodeType::One;
        let unit = if play { pos.margin_unit() } else { None };
        let static_eval = if play && !in_check && !pv_node {
            Some(self.evaluate(pos))
        } else {
            None
        };

        // Reverse futility (static null move, play setting): at a shallow non-PV node an
        // evaluation this far above beta is taken to hold.
        if let (Some(unit), Some(eval)) = (unit, static_eval) {
            if features.reverse_futility
                && ply > 0
                && depth <= pruning::REVERSE_FUTILITY_DEPTH
                && !is_decisive(beta)
                && eval - pruning::reverse_futility_margin(unit, depth) >= beta
            {
                self.stats.reverse_futility += 1;
                return eval;
            }
        }

        // Null move (play setting): if passing still fails high, so will a real move. Not for a
        // side with only king and pawns (zugzwang), with the guard on.
        if play
            && features.null_move
            && node.null_ok
            && node.kind != NodeType::One
            && depth >= 3
            && !in_check
            && !is_decisive(beta)
            && (!features.zugzwang_guard || pos.has_non_pawn_material())
        {
            if let Some(null) = pos.null_move() {
                if static_eval.unwrap_or_else(|| self.evaluate(pos)) >= beta {
                    let r = 2 + depth / 6;
                    let undo = pos.make_move(null);
                    let child = NodeInfo {
                        kind: NodeType::Three,
                        eldest: false,
                        null_ok: false,
                        exclusive: false,
                    };
                    let v =
                        -self.alphabeta(pos, depth - 1 - r, -beta, -beta + 1, ply + 1, child, ctx);
                    pos.unmake_move(null, undo);
                    if self.stopped {
                        return 0;
                    }
                    if v >= beta {
                        return if is_decisive(v) { beta } else { v };
                    }
                }
            }
        }

        let mut buf = std::mem::take(&mut self.plies[ply]);
        pos.generate_moves(&mut buf.moves);
        let n = buf.moves.len();
        if n == 0 {
            // Not over but no moves: a game breaking the trait's convention; evaluate.
            self.plies[ply] = buf;
            return self.evaluate(pos);
        }
        let sorted = self
            .config
            .sorting
            .applies(self.sort_ply(ply), node.kind, node.eldest);
        if sorted {
            let expansion = self.config.sorting.expansion_depth.min(depth as u32);
            self.sort_by_expansion(pos, &buf.moves, &mut buf.order, expansion, ply, ctx);
        } else {
            buf.order.clear();
            // The refutation table: the root's moves in the last iteration's order, and the
            // line's move first at a node on the line.
            let root_table = if refute && ply == 0 && self.place.is_none() {
                self.refute.table.as_ref()
            } else {
                None
            };
            let line_move = if refute {
                self.refute.line_move(ply)
            } else {
                None
            };
            let first = First {
                table: root_table,
                tt_move,
                line_move,
            };
            for (i, &mv) in buf.moves.iter().enumerate() {
                let key = if self.config.move_ordering {
                    first.key(i as u16).unwrap_or_else(|| {
                        self.tables
                            .key(pos, mv, self.killer_ply(ply), self.key_rules())
                    })
                } else {
                    0
                };
                buf.order.push((key, i as u16));
            }
        }
        if refute && ply == 0 && self.place.is_none() {
            self.refute.children.clear();
        }

        let pvs = self.config.algorithm == Algorithm::Pvs;
        let alpha_orig = alpha;
        let mut best = -INFINITY;
        let mut best_index = None;
        // The first pass over the moves in order, then (ABDADA) a second over the moves put off.
        let abdada = self.busy.is_some() && use_tt && depth >= self.busy_min_depth as i32;
        buf.deferred.clear();
        let mut k = 0;
        let mut second_pass = false;
        loop {
            let i = if second_pass {
                match buf.deferred.get(k) {
                    Some(&i) => usize::from(i),
                    None => break,
                }
            } else if k < n {
                k
            } else if buf.deferred.is_empty() {
                break;
            } else {
                second_pass = true;
                k = 0;
                continue;
            };
            k += 1;
            if !sorted && !second_pass {
                select_next(&mut buf.order, i);
            }
            let index = buf.order[i].1;
            let mv = buf.moves[usize::from(index)];
            if ply == 0 {
                ctx.root_move(i + 1, usize::from(index));
            }
            let child = NodeInfo {
                kind: node.kind.child(i),
                eldest: i == 0,
                null_ok: true,
                exclusive: abdada && !second_pass && i > 0,
            };
            let again = NodeInfo {
                exclusive: false,
                ..child
            };
            if refute {
                self.follow_into(ply, index);
            }
            let undo = pos.make_move(mv);
            let mut new_depth = depth - 1;
            let mut reduction = 0;
            if play {
                let gives_check = pos.in_check();
                if features.check_extensions && gives_check && (ply as i32) < self.extension_limit {
                    new_depth += 1;
                }
                // Late move reductions: quiet-looking late moves at non-PV nodes.
                if features.late_move_reductions
                    && i >= 3
                    && depth >= 3
                    && !in_check
                    && !gives_check
                    && node.kind != NodeType::One
                    && tt_move != Some(index)
                    && buf.order[i].0 < QUIET_BELOW
                {
                    reduction = if i >= 8 { 2 } else { 1 };
                }
            }
            let v = if i == 0 || (!pvs && reduction == 0) {
                -self.alphabeta(pos, new_depth, -beta, -alpha, ply + 1, child, ctx)
            } else {
                // A null window (PVS), or for alpha-beta a reduced search, then full searches
                // when it fails high.
                let (lo, hi) = if pvs {
                    (-alpha - 1, -alpha)
                } else {
                    (-beta, -alpha)
                };
                let mut v =
                    -self.alphabeta(pos, new_depth - reduction, lo, hi, ply + 1, child, ctx);
                if !self.deferred {
                    if v > alpha && reduction > 0 && !self.stopped {
                        v = -self.alphabeta(pos, new_depth, lo, hi, ply + 1, again, ctx);
                    }
                    if pvs && v > alpha && v < beta && !self.stopped {
                        v = -self.alphabeta(pos, new_depth, -beta, -alpha, ply + 1, again, ctx);
                    }
                }
                v
            };
            pos.unmake_move(mv, undo);
            if self.deferred {
                // Another processor is searching this child: the second pass takes it.
                self.deferred = false;
                self.stats.deferred += 1;
                buf.deferred.push(i as u16);
                continue;
            }
            if self.stopped {
                self.plies[ply] = buf;
                return 0;
            }
            if refute {
                self.keep_line(ply, index, v, best);
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_index = Some(index);
                    alpha = v;
                    self.pv_update(ply, mv);
                    if v >= beta {
                        self.stats.cut_nodes += 1;
                        self.stats.cut_children += i as u64 + 1;
                        if self.config.move_ordering {
                            self.tables.cutoff(pos, mv, self.killer_ply(ply), depth);
                        }
                        break;
                    }
                }
            }
        }
        if best_index.is_some() {
            self.stats.best_known += 1;
            self.stats.best_first += u64::from(best_index == buf.order.first().map(|o| o.1));
        }
        self.plies[ply] = buf;

        if use_tt {
            self.store_table(hash, best, alpha_orig, beta, depth, ply, best_index, ctx);
        }
        best
    }

    /// Probes the table for a node of `depth` plies left at `ply` with window
    /// (`alpha`, `beta`): the value when a stored result decides the node (never at the root),
    /// and the stored best move.
    fn probe_table(
        &mut self,
        hash: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> (Option<i32>, Option<u16>) {
        self.stats.tt_probes += 1;
        let Some(entry) = self.tt.probe(hash) else {
            return (None, None);
        };
        self.stats.tt_hits += 1;
        let deep_enough = match self.config.tt_mode {
            TtMode::ExactDepth => i32::from(entry.depth) == depth.min(255),
            _ => i32::from(entry.depth) >= depth.min(255),
        };
        if deep_enough && ply > 0 {
            let v = value_from_tt(entry.value, ply);
            let cuts = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => v >= beta,
                Bound::Upper => v <= alpha,
            };
            if cuts {
                self.stats.tt_cutoffs += 1;
                return (Some(v), entry.move_index);
            }
        }
        (None, entry.move_index)
    }

    /// Stores the fail-soft value `best` of a node searched with window (`alpha_orig`, `beta`).
    #[allow(clippy::too_many_arguments)]
    fn store_table(
        &mut self,
        hash: u64,
        best: i32,
        alpha_orig: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        best_index: Option<u16>,
        ctx: &mut dyn SearchContext,
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let entry = TtEntry {
            value: value_to_tt(best, ply),
            depth: depth.clamp(0, 255) as u8,
            bound,
            move_index: best_index,
        };
        self.tt.store(hash, entry);
        ctx.stored(hash, &entry);
    }
}

impl<G: Game> Searcher<G> {
    /// ABDADA: how many processors search the position with `hash` now.
    fn busy_count(&mut self, hash: u64) -> u32 {
        self.stats.busy_probes += 1;
        self.busy.as_ref().map_or(0, |b| b.count(hash))
    }

    /// ABDADA: counts this processor in at the node with `hash` and `depth` plies left;
    /// whether it was counted (then [`Searcher::busy_leave`] must follow).
    fn busy_enter(&mut self, hash: u64, depth: i32, ctx: &mut dyn SearchContext) -> bool {
        self.stats.busy_probes += 1;
        let entered = self.busy.as_ref().is_some_and(|b| b.enter(hash));
        if entered {
            ctx.searching(hash, depth as u32, true);
        }
        entered
    }

    /// ABDADA: counts this processor out of the node with `hash`.
    fn busy_leave(&mut self, hash: u64, depth: i32, ctx: &mut dyn SearchContext) {
        self.stats.busy_probes += 1;
        if let Some(b) = &self.busy {
            b.leave(hash);
        }
        ctx.searching(hash, depth as u32, false);
    }

    /// ProbCut at a node of `depth` plies left (Buro 1995; `games::probcut`): where the game's
    /// model checks this height, a null-window search of the model's shallow depth around the
    /// bound that predicts a fail high (then a fail low) decides the node without the deep
    /// search. Returns the window bound when it cuts, `Some(0)` when stopped, `None` otherwise.
    /// Decisive windows are not cut (the model speaks of evaluations, not of won games).
    fn probcut(
        &mut self,
        pos: &mut G,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        ctx: &mut dyn SearchContext,
    ) -> Option<i32> {
        let model = pos.probcut()?;
        if depth != model.height as i32
            || model.shallow >= model.height
            || is_decisive(alpha)
            || is_decisive(beta)
        {
            return None;
        }
        self.stats.probcut_checks += 1;
        let shallow = model.shallow as i32;
        let node = NodeInfo {
            kind: NodeType::Three,
            eldest: false,
            null_ok: false,
            exclusive: false,
        };
        let high = model.high_bound(beta);
        if !is_decisive(high) {
            let v = self.alphabeta(pos, shallow, high - 1, high, ply, node, ctx);
            if self.stopped {
                return Some(0);
            }
            if v >= high {
                self.stats.probcut_cuts += 1;
                return Some(beta);
            }
        }
        let low = model.low_bound(alpha);
        if !is_decisive(low) {
            let v = self.alphabeta(pos, shallow, low, low + 1, ply, node, ctx);
            if self.stopped {
                return Some(0);
            }
            if v <= low {
                self.stats.probcut_cuts += 1;
                return Some(alpha);
            }
        }
        None
    }

    /// The refutation table, before the child `index` of the node at `ply` is searched: below
    /// the sequential root, the child follows the line the last iteration searched under it;
    /// elsewhere it is on the line when its parent is and `index` is the line's move.
    fn follow_into(&mut self, ply: usize, index: u16) {
        let r = &mut self.refute;
        if ply == 0 && self.place.is_none() {
            r.follow.clear();
            if let Some(t) = &r.table {
                r.follow.extend_from_slice(t.line(index));
            }
            r.base = 1;
            r.on_line[1] = !r.follow.is_empty();
        } else if ply + 1 < r.on_line.len() {
            r.on_line[ply + 1] = r.line_move(ply) == Some(index);
        }
    }

    /// The refutation table, after the child `index` of the node at `ply` returned `v`: the
    /// node's line is that child's when `v` beats the best so far (`best`); the sequential
    /// root keeps every child's value and line.
    fn keep_line(&mut self, ply: usize, index: u16, v: i32, best: i32) {
        let r = &mut self.refute;
        if ply == 0 && self.place.is_none() {
            let line = r.lines.get(1).cloned().unwrap_or_default();
            r.children.push((index, v, line));
        }
        if v > best && ply + 1 < r.lines.len() {
            let (head, tail) = r.lines.split_at_mut(ply + 1);
            let line = &mut head[ply];
            line.clear();
            line.push(index);
            line.extend_from_slice(&tail[0]);
        }
    }
}
