//! The master (thesis 5.2.1): repeated alpha-beta passes over its `d'`-ply tree until a pass
//! meets only certain leaves.
//!
//! Each pass is fail-soft alpha-beta from the root with an infinite window. At a leaf (`d'`
//! plies down, or deeper under an exempted piece) the master reads its copy of the APHID
//! table: if the slave's result at the required depth (`d` minus the leaf's ply) decides the
//! leaf for the pass's window, that value is used; otherwise the leaf is *uncertain*: the
//! master counts it, guesses a value (`guess.rs`), and, if the required depth was searched
//! but with an unhelpful window, sends the owner a "bad bound" request with the window it
//! needs. A pass without uncertain leaves is plain alpha-beta over correct bounds, so its root
//! value is the `d`-ply minimax value: the iteration ends there. Until then the master waits
//! for reports and passes again whenever the table changed.
//!
//! New leaves are assigned round robin; each pass updates the priorities (`priority.rs`) and,
//! after it, the load balancing moves work to slaves without uncertain leaves
//! (`balance.rs`). Between iterations the largest piece may be exempted from the horizon.
//! The first iterations run sequentially on the master, which collects the node statistics
//! that choose `d'` and `g` and the root values used to scale guesses; the search goes
//! parallel once the tree is big enough.
//!
//! Faults: results are bounds, valid whoever sends them and however often, and every master
//! message is idempotent, so the master simply re-sends a silent slave's assignments after
//! `patience_ns`, and gives the work of a slave silent for `dead_after_ns` to the others (or
//! searches it itself when no slave is left).

use std::collections::{BTreeMap, BTreeSet};

use dib::{Activity, Context, Nanos};
use games::Game;
use games::score::{INFINITY, is_decisive};

use super::bad_bound::{covers, expect_undecided, held_value, request_window};
use super::balance::{self, Load, Piece};
use super::churn::{ChurnStats, News, PrincipalLeaf, Source};
use super::config::AphidOptions;
use super::guess::{GuessStats, fallback_by_parity, guess_by_parity, seed_bounds};
use super::message::{BadBound, Epoch, LeafResult, Msg};
use super::priority::PathKind;
use super::table::{AphidTable, Bounds, DepthBounds, LeafId, window_to_leaf_scale};
use super::tail::TailStats;
use super::waste::WasteStats;
use crate::search::tt::value_to_tt;
use crate::search::{Searcher, Unlimited};

/// The automatic `d'` gives at least this many pieces of work in all (when some ply of the
/// sequential iterations has that many horizon nodes), whatever `min_pieces_per_slave` x
/// slaves asks. Measured on the simulator (Othello middle game, depth 11, 3 positions, 16
/// processors): 4 pieces per slave gave a speedup of 6.7, 8 gave 8.3 and 12 gave 8.4, while at
/// 64 processors 8 per slave (a master tree twice as deep) was slower than 4: what matters is
/// the total number of pieces, against which the largest must be small. With incremental
/// passes (session 5) about 500 pieces pay at both 16 and 64 processors (aphid/README.md),
/// but raising this floor alone does not give them: the search goes parallel at the first
/// iteration where `min_pieces_per_slave` x slaves pieces exist, before any ply has 512.
const MIN_PIECES: u64 = 128;

/// The most pieces the automatic `d'` aims at for a large search (see `Master::piece_floor`).
/// Measured on the simulator (session 5, aphid/README.md): about 500 pieces gave 10.5-10.7 at
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

/// Tail splitting exempts only uncertain leaves needing at least `g` + this many plies (the
/// grandchildren then need at least `g + 2`).
const SPLIT_MIN_PLIES: u32 = 6;

/// What the master counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MasterStats {
    /// Passes over the master's tree.
    pub passes: u64,
    /// Nodes of those passes.
    pub pass_nodes: u64,
    /// Nodes the master searched itself (sequential iterations, leaf evaluations, leaves
    /// below the granularity, leaves of dead slaves).
    pub search_nodes: u64,
    /// Nodes of the sequential iterations before the search went parallel.
    pub sequential_nodes: u64,
    /// Bad-bound requests sent.
    pub bad_bounds: u64,
    /// Leaves moved by load balancing.
    pub moves: u64,
    /// Pieces exempted from the horizon.
    pub exemptions: u64,
    /// Of those, uncertain leaves exempted during an iteration by tail splitting.
    pub splits: u64,
    /// Re-sent assignments.
    pub resends: u64,
    /// Interior nodes a pass did not descend because their proven bounds decided the window
    /// (`AphidOptions::incremental_passes`).
    pub proven_cuts: u64,
    /// Slaves presumed dead.
    pub deaths: u64,
    /// Reports received.
    pub reports: u64,
}

#[derive(Clone, Copy, Debug, Default)]
struct SlaveInfo {
    last_heard: Nanos,
    /// When the master last sent it work (an assignment or a bad bound).
    last_sent: Nanos,
    last_resend: Nanos,
    backoff: u32,
    dead: bool,
    done_iteration: Option<u32>,
}

/// What one pass found.
#[derive(Debug, Default)]
struct Pass {
    nodes: u64,
    uncertain: u32,
    touched: Vec<(LeafId, u32)>,
    /// Uncertain leaves in the order met.
    waiting: Vec<LeafId>,
    bad: Vec<(LeafId, BadBound)>,
    new_leaves: Vec<LeafId>,
    /// Interior nodes whose proven bounds decided the window (incremental passes): the pass
    /// did not descend, and the leaves below keep their priorities.
    kept: BTreeSet<Vec<u16>>,
    /// The leaf the value a node or leaf just returned came from, and its source (`churn.rs`).
    principal: PrincipalLeaf,
    /// Whether the value a node or leaf just returned came from a guess (a leaf's guess
    /// became the best value of every node above it on the way up).
    guessed: bool,
}

/// The parallel search's geometry once chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Geometry {
    /// `d'`.
    pub(crate) horizon: u32,
    /// `g`.
    pub(crate) granularity: u32,
    /// The first parallel iteration.
    pub(crate) from: u32,
}

/// The master processor.
pub(crate) struct Master<G: Game> {
    root: G,
    target: u32,
    opts: AphidOptions,
    min_granularity: u32,
    searcher: Searcher<G>,
    slaves: Vec<SlaveInfo>,
    table: AphidTable,
    pub(crate) geometry: Option<Geometry>,
    iteration: u32,
    root_values: Vec<Option<i32>>,
    /// Horizon leaves and nodes of the sequential iterations, by depth.
    seq_leaves: Vec<u64>,
    seq_nodes: Vec<u64>,
    hypothesis: i32,
    /// The value guesses are scaled to (`AphidOptions::anchored_guesses`): the root value of
    /// the last pass whose principal variation ended in a certain leaf.
    anchor: i32,
    best_child: BTreeMap<Vec<u16>, u16>,
    /// The value (fail-soft, so sometimes a bound) each child of an interior node returned
    /// the last time a pass searched it, by the node's path and the child's move index
    /// (`AphidOptions::value_ordering`).
    child_values: BTreeMap<Vec<u16>, Vec<Option<i32>>>,
    /// The order children are tried in at each interior node of the master's tree before the
    /// best-so-far goes first: the move the sequential iterations stored, then the game's hints.
    first_order: BTreeMap<Vec<u16>, Vec<u16>>,
    exempt: BTreeSet<Vec<u16>>,
    /// Incremental passes: what the interior nodes of the master's tree have proven about
    /// their value in the current iteration (from passes that met only certain leaves below
    /// them), by path.
    proven: BTreeMap<Vec<u16>, Bounds>,
    pending_bad: BTreeMap<LeafId, BadBound>,
    waiting_by_slave: BTreeMap<usize, Vec<LeafId>>,
    next_owner: usize,
    started: bool,
    dirty: bool,
    /// The value and principal variation once the root is solved.
    pub(crate) result: Option<(i32, Vec<G::Move>)>,
    pub(crate) stats: MasterStats,
    /// The master's part of the search-overhead accounting (`waste.rs`).
    pub(crate) waste: WasteStats,
    /// Why the principal variation moves (`churn.rs`).
    pub(crate) churn: ChurnStats,
    /// What arrived since the last pass (`churn.rs`).
    news: News,
    /// The last pass's principal leaf, touched leaves and anchor (`churn.rs`).
    last_principal: Option<LeafId>,
    last_touched: Vec<LeafId>,
    last_anchor: i32,
    /// New leaves not yet handed to their slave, with the passes that touched them
    /// (`AphidOptions::new_leaf_passes`).
    deferred: BTreeMap<LeafId, u32>,
    /// When the last pass was made.
    last_pass_at: Nanos,
    /// Results of new leaves found in the transposition table (`tt_seeded_guesses`), by
    /// depth on the leaf's scale: for guesses only.
    seeds: BTreeMap<LeafId, DepthBounds>,
    /// What the guesses drew on (`guess.rs`).
    pub(crate) guesses: GuessStats,
    /// The last iterations' timeline, the master's part (`tail.rs`).
    pub(crate) tail: TailStats,
    /// Leaves and depths a bad bound was asked for (`churn.rs`: repeated requests).
    bad_asked: BTreeSet<(LeafId, u32)>,
    /// The value held for a leaf while its bad-bound answer is pending
    /// (`AphidOptions::bad_bound_hold`, `bad_bound.rs`).
    held: BTreeMap<LeafId, i32>,
}

impl<G: Game> std::fmt::Debug for Master<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Master")
            .field("target", &self.target)
            .field("geometry", &self.geometry)
            .field("iteration", &self.iteration)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl<G: Game> Master<G> {
    pub(crate) fn new(
        root: G,
        target: u32,
        procs: usize,
        opts: &AphidOptions,
        min_granularity: u32,
        searcher: Searcher<G>,
    ) -> Self {
        Master {
            root,
            target,
            opts: opts.clone(),
            min_granularity: min_granularity.max(opts.min_granularity).max(1),
            searcher,
            slaves: vec![SlaveInfo::default(); procs.saturating_sub(1)],
            table: AphidTable::default(),
            geometry: None,
            iteration: 0,
            root_values: Vec::new(),
            seq_leaves: Vec::new(),
            seq_nodes: Vec::new(),
            hypothesis: 0,
            anchor: 0,
            best_child: BTreeMap::new(),
            child_values: BTreeMap::new(),
            first_order: BTreeMap::new(),
            exempt: BTreeSet::new(),
            proven: BTreeMap::new(),
            pending_bad: BTreeMap::new(),
            waiting_by_slave: BTreeMap::new(),
            next_owner: 0,
            started: false,
            dirty: false,
            result: None,
            stats: MasterStats::default(),
            waste: WasteStats::default(),
            churn: ChurnStats::default(),
            news: News::default(),
            last_principal: None,
            last_touched: Vec::new(),
            last_anchor: 0,
            deferred: BTreeMap::new(),
            last_pass_at: 0,
            seeds: BTreeMap::new(),
            guesses: GuessStats::default(),
            tail: TailStats::default(),
            bad_asked: BTreeSet::new(),
            held: BTreeMap::new(),
        }
    }

    /// Rows of the APHID table.
    pub(crate) fn leaves(&self) -> usize {
        self.table.len()
    }

    /// Leaves the last pass touched, and leaves with a result at their required depth.
    pub(crate) fn final_leaves(&self) -> (usize, usize) {
        let touched = self
            .table
            .rows()
            .iter()
            .filter(|r| r.master.touched)
            .count();
        let searched = self
            .table
            .rows()
            .iter()
            .filter(|r| r.slave.get(self.target.saturating_sub(r.ply())).is_some())
            .count();
        (touched, searched)
    }

    fn epoch(&self) -> Epoch {
        Epoch {
            iteration: self.iteration,
            hypothesis: self.hypothesis,
            shift: self.run_ahead_shift(),
        }
    }

    /// `AphidOptions::run_ahead_shift`: the root value's change from iteration `d - 2` to
    /// `d - 1`, the same parity as the change from `d` to `d + 1` that the slaves' run-ahead
    /// searches meet (Othello's values swing between odd and even depths); 0 when off, when
    /// either is unknown or decisive.
    fn run_ahead_shift(&self) -> i32 {
        let d = self.iteration as usize;
        if !self.opts.run_ahead_shift || d < 3 {
            return 0;
        }
        match (self.root_values.get(d - 1), self.root_values.get(d - 2)) {
            (Some(&Some(a)), Some(&Some(b))) if !is_decisive(a) && !is_decisive(b) => a - b,
            _ => 0,
        }
    }

    /// One slice.
    pub(crate) fn run(&mut self, ctx: &mut dyn Context<Msg>) -> Activity {
        if self.result.is_some() {
            return Activity::Idle { wake_at: None };
        }
        if !self.started {
            self.started = true;
            if self.start(ctx) {
                return Activity::Idle { wake_at: None };
            }
            self.dirty = true;
        }
        while let Some(env) = ctx.poll() {
            self.receive(env.from, env.msg, ctx.now());
        }
        // Silence is judged on a fresh inbox (a long pass leaves messages waiting).
        self.recover(ctx);
        self.release_stalled(ctx);
        if self.dirty {
            self.dirty = false;
            if self.passes(ctx) {
                return Activity::Idle { wake_at: None };
            }
        }
        Activity::Idle {
            wake_at: Some(ctx.now() + self.opts.patience_ns.max(1)),
        }
    }

    fn charge_search(&mut self, before: u64, ctx: &mut dyn Context<Msg>) -> u64 {
        let n = self.searcher.stats().nodes().saturating_sub(before);
        ctx.charge(n);
        self.stats.search_nodes += n;
        n
    }

    /// The sequential iterations; true when they solved the whole search.
    fn start(&mut self, ctx: &mut dyn Context<Msg>) -> bool {
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
                    self.tail_iteration(ctx.now());
                    return false;
                }
            }
            let (nodes0, leaves0) = (self.searcher.stats().nodes(), self.searcher.stats().horizon);
            let root = self.root.clone();
            let r = self
                .searcher
                .search_window(&root, d, -INFINITY, INFINITY, &mut Unlimited);
            let n = self.charge_search(nodes0, ctx);
            self.stats.sequential_nodes += n;
            self.seq_nodes[d as usize] = n;
            self.seq_leaves[d as usize] = self.searcher.stats().horizon - leaves0;
            self.root_values[d as usize] = Some(r.value);
            if d == self.target {
                self.result = Some((r.value, r.pv));
                ctx.finish();
                return true;
            }
        }
        false
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
                let h = if floor > MIN_PIECES && d + WAIT_PLIES <= self.target {
                    enough(pieces.max(floor))?
                } else {
                    enough(pieces.max(floor)).or_else(|| enough(pieces))?
                };
                cap_leaves(
                    &self.seq_leaves,
                    h,
                    floor,
                    pieces.max(MIN_PIECES),
                    self.opts.master_leaf_cap,
                )
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

    fn receive(&mut self, from: usize, msg: Msg, now: Nanos) {
        let Msg::Report {
            results,
            done,
            iteration,
        } = msg
        else {
            return;
        };
        self.stats.reports += 1;
        if let Some(s) = from.checked_sub(1).and_then(|i| self.slaves.get_mut(i)) {
            s.last_heard = now;
            s.backoff = 0;
            if s.dead {
                s.dead = false;
                self.dirty = true;
            }
            s.done_iteration = done.then_some(iteration);
        }
        for r in results {
            self.record(r, true);
        }
    }

    /// Stores a result; `news` notes it for the churn counters (a slave's report).
    fn record(&mut self, r: LeafResult, news: bool) {
        let Some(row) = self.table.row_mut(r.leaf) else {
            return;
        };
        let b = Bounds {
            lower: r.lower,
            upper: r.upper,
        };
        // Only news the last pass could use calls for another pass: a pass reads only the
        // leaves it touches, at depths up to their required depth.
        let required = self.iteration.saturating_sub(row.ply());
        let usable = row.master.touched && r.depth <= required;
        if row.slave.record(r.depth, b) && usable {
            self.dirty = true;
            if news {
                self.news.note(r.depth, required);
            }
        }
        let i = r.depth as usize;
        if row.nodes.len() <= i {
            row.nodes.resize(i + 1, 0);
        }
        row.nodes[i] += r.nodes;
        if let Some(bad) = self.pending_bad.get(&r.leaf) {
            let answered = row
                .slave
                .get(bad.depth)
                .is_some_and(|x| x.decides(bad.alpha, bad.beta).is_some());
            if answered {
                self.pending_bad.remove(&r.leaf);
                self.held.remove(&r.leaf);
                self.news.bad_answer |= news;
                self.churn.bad_answers += u64::from(news);
            }
        }
    }

    /// Passes until one is uncertain; true when the whole search is done.
    fn passes(&mut self, ctx: &mut dyn Context<Msg>) -> bool {
        loop {
            let anchor = self.anchor;
            let (value, pass) = self.pass(ctx);
            self.last_pass_at = ctx.now();
            self.count_churn(&pass, anchor);
            let certain = pass.uncertain == 0;
            let old = self.hypothesis;
            self.hypothesis = value;
            // A root value backed by a guessed leaf would scale that very guess in the next
            // pass: the guess and the hypothesis then drift together, pass after pass.
            if certain || !pass.guessed || !self.opts.anchored_guesses {
                self.anchor = value;
            }
            self.after_pass(pass, ctx);
            if !certain {
                if self.hypothesis != old {
                    self.broadcast_epoch(ctx);
                }
                return false;
            }
            self.root_values[self.iteration as usize] = Some(value);
            self.account_iteration();
            if self.iteration >= self.target {
                let pv = self.principal_variation();
                self.result = Some((value, pv));
                self.tail.end_ns = ctx.now();
                self.tail.master_final_nodes = (self.stats.pass_nodes + self.stats.search_nodes)
                    - self.tail.master_final_nodes;
                self.tail.final_passes = self.stats.passes - self.tail.final_passes;
                ctx.finish();
                return true;
            }
            self.exempt_largest();
            self.iteration += 1;
            self.tail_iteration(ctx.now());
            self.news.iteration = true;
            self.proven.clear();
            self.broadcast_epoch(ctx);
        }
    }

    /// The churn counters for a pass made with guesses scaled to `anchor` (`churn.rs`).
    fn count_churn(&mut self, pass: &Pass, anchor: i32) {
        let news = std::mem::take(&mut self.news);
        let mut touched: Vec<LeafId> = pass.touched.iter().map(|&(id, _)| id).collect();
        touched.sort_unstable();
        touched.dedup();
        let principal = pass.principal.map(|(id, _)| id);
        if self.geometry.is_some() && !pass.touched.is_empty() {
            let trigger = news.trigger(anchor != self.last_anchor);
            let moved = (principal != self.last_principal)
                .then(|| pass.principal.map(|(_, s)| s))
                .flatten();
            let changed = touched != self.last_touched;
            let rows = pass.new_leaves.len() as u64;
            self.churn.count(trigger, moved, changed, rows);
        }
        self.last_principal = principal;
        self.last_touched = touched;
        self.last_anchor = anchor;
    }

    /// At the end of an iteration: the work at its required depth that its last pass did not
    /// use (rows left untouched, exempted rows), and the last iteration's total.
    fn account_iteration(&mut self) {
        let last = self.iteration >= self.target;
        for row in self.table.rows() {
            let Some(depth) = self.iteration.checked_sub(row.ply()) else {
                continue;
            };
            let n = row.nodes_at(depth);
            if self.exempt.contains(&row.master.path) {
                self.waste.split += n;
            } else if !row.master.touched {
                self.waste.stale += n;
            } else if last {
                self.waste.final_needed += n;
                self.tail.largest_piece_max = self.tail.largest_piece_max.max(n);
            }
            if last {
                self.waste.final_iteration += n;
            }
        }
    }

    /// An iteration begins at `now` (`tail.rs`): the start times shift, and the last
    /// iteration's counts start from here.
    fn tail_iteration(&mut self, now: Nanos) {
        let t = &mut self.tail;
        t.prev2_start_ns = t.prev_start_ns;
        t.prev_start_ns = t.final_start_ns;
        t.final_start_ns = now;
        t.master_final_nodes = self.stats.pass_nodes + self.stats.search_nodes;
        t.final_passes = self.stats.passes;
    }

    fn broadcast_epoch(&mut self, ctx: &mut dyn Context<Msg>) {
        let epoch = self.epoch();
        for (i, s) in self.slaves.iter().enumerate() {
            if !s.dead {
                ctx.send(i + 1, Msg::Epoch(epoch));
            }
        }
    }

    fn pass(&mut self, ctx: &mut dyn Context<Msg>) -> (i32, Pass) {
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
        ctx.charge(pass.nodes);
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

    /// The next live slave in round-robin order. With `master_hosts_slave` the hosted slave
    /// (the last) takes its turn in one lap out of `hosted_slave_laps` only (never when 0,
    /// unless no other slave is alive).
    fn live_slave(&mut self) -> Option<usize> {
        let n = self.slaves.len();
        let hosted = self.opts.master_hosts_slave.then(|| n.saturating_sub(1));
        let laps = self.opts.hosted_slave_laps as usize;
        for _ in 0..n {
            let s = self.next_owner % n;
            let lap = self.next_owner / n;
            self.next_owner += 1;
            let skip = hosted == Some(s) && (laps == 0 || lap % laps != 0);
            if !skip && !self.slaves[s].dead {
                return Some(s + 1);
            }
        }
        hosted.filter(|&s| !self.slaves[s].dead).map(|s| s + 1)
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

    /// The window a slave's own search of a leaf `ply` plies down uses (`slave.rs`, `window`),
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

    /// Priorities, new assignments, bad bounds and load balancing after a pass.
    fn after_pass(&mut self, pass: Pass, ctx: &mut dyn Context<Msg>) {
        let epoch = self.epoch();
        let mut priority: BTreeMap<LeafId, u32> = BTreeMap::new();
        for &(id, p) in &pass.touched {
            let e = priority.entry(id).or_insert(0);
            *e = (*e).max(p);
        }
        for &id in &pass.new_leaves {
            let Some(row) = self.table.row_mut(id) else {
                continue;
            };
            row.master.priority = priority.get(&id).copied().unwrap_or(0);
            row.master.touched = row.master.priority > 0;
            if row.master.owner.is_some() && self.opts.new_leaf_passes > 1 {
                self.deferred.insert(id, 1);
                self.churn.deferred_rows += 1;
                continue;
            }
            if let Some(owner) = row.master.owner {
                if let Some(info) = self.slaves.get_mut(owner - 1) {
                    info.last_sent = ctx.now();
                }
                let msg = Msg::Assign {
                    epoch,
                    leaf: id,
                    path: row.master.path.clone(),
                    priority: row.master.priority,
                    bad: None,
                };
                ctx.send(owner, msg);
            }
        }
        let mut changes: BTreeMap<usize, Vec<(LeafId, u32)>> = BTreeMap::new();
        let kept = &pass.kept;
        let under_kept =
            |path: &[u16]| !kept.is_empty() && (1..path.len()).any(|n| kept.contains(&path[..n]));
        for (i, row) in self.table.rows_mut().iter_mut().enumerate() {
            let id = i as LeafId;
            if under_kept(&row.master.path) {
                continue;
            }
            let p = priority.get(&id).copied().unwrap_or(0);
            row.master.touched = p > 0;
            if row.master.priority != p {
                row.master.priority = p;
                if let Some(owner) = row.master.owner {
                    changes.entry(owner).or_default().push((id, p));
                }
            }
        }
        for (owner, changes) in changes {
            ctx.send(owner, Msg::Priorities { epoch, changes });
        }
        self.split_tail(&pass);
        for &(id, bad) in &pass.bad {
            let Some(owner) = self.table.row(id).and_then(|r| r.master.owner) else {
                continue;
            };
            self.pending_bad.insert(id, bad);
            self.stats.bad_bounds += 1;
            self.churn.bad_requests += 1;
            if !self.bad_asked.insert((id, bad.depth)) {
                self.churn.bad_repeats += 1;
            }
            if let Some(info) = self.slaves.get_mut(owner - 1) {
                info.last_sent = ctx.now();
            }
            ctx.send(
                owner,
                Msg::BadBound {
                    epoch,
                    leaf: id,
                    bad,
                },
            );
        }
        self.release_deferred(&pass, &priority, ctx);
        self.waiting_by_slave.clear();
        for &id in &pass.waiting {
            if self.deferred.contains_key(&id) {
                continue;
            }
            if let Some(owner) = self.table.row(id).and_then(|r| r.master.owner) {
                self.waiting_by_slave.entry(owner).or_default().push(id);
            }
        }
        if self.opts.load_balancing && pass.uncertain > 0 {
            self.balance(ctx);
        }
    }

    /// `AphidOptions::new_leaf_passes`: counts the passes that touched each deferred leaf
    /// (`priority`: the pass's touched leaves) and hands out those touched often enough, and
    /// every deferred uncertain leaf of the pass when no other uncertain leaf is out with a
    /// slave (nothing else would bring the news that makes the next pass).
    fn release_deferred(
        &mut self,
        pass: &Pass,
        priority: &BTreeMap<LeafId, u32>,
        ctx: &mut dyn Context<Msg>,
    ) {
        if self.deferred.is_empty() {
            return;
        }
        let new: BTreeSet<LeafId> = pass.new_leaves.iter().copied().collect();
        for (id, n) in &mut self.deferred {
            if !new.contains(id) && priority.get(id).is_some_and(|&p| p > 0) {
                *n += 1;
            }
        }
        let others = pass
            .waiting
            .iter()
            .any(|id| !self.deferred.contains_key(id));
        let ready = deferred_ready(
            &self.deferred,
            self.opts.new_leaf_passes,
            others,
            &pass.waiting,
        );
        for id in ready {
            self.release(id, ctx);
        }
    }

    /// After `patience_ns` without a pass: hands out the deferred leaves the last pass touched.
    fn release_stalled(&mut self, ctx: &mut dyn Context<Msg>) {
        if self.deferred.is_empty()
            || ctx.now().saturating_sub(self.last_pass_at) < self.opts.patience_ns
        {
            return;
        }
        let touched: Vec<LeafId> = self
            .deferred
            .keys()
            .copied()
            .filter(|&id| self.table.row(id).is_some_and(|r| r.master.touched))
            .collect();
        for id in touched {
            self.release(id, ctx);
        }
    }

    /// Hands a deferred leaf to its owner.
    fn release(&mut self, id: LeafId, ctx: &mut dyn Context<Msg>) {
        self.deferred.remove(&id);
        self.churn.deferred_released += 1;
        if let Some(owner) = self.table.row(id).and_then(|r| r.master.owner) {
            self.assign(id, owner, ctx);
        }
    }

    fn assign(&mut self, id: LeafId, to: usize, ctx: &mut dyn Context<Msg>) {
        if let Some(info) = self.slaves.get_mut(to - 1) {
            info.last_sent = ctx.now();
        }
        if let Some(row) = self.table.row(id) {
            ctx.send(
                to,
                Msg::Assign {
                    epoch: self.epoch(),
                    leaf: id,
                    path: row.master.path.clone(),
                    priority: row.master.priority,
                    bad: self.pending_bad.get(&id).copied(),
                },
            );
        }
    }

    fn balance(&mut self, ctx: &mut dyn Context<Msg>) {
        let required_of = |ply: u32| self.iteration.saturating_sub(ply);
        let loads: Vec<Load> = (1..=self.slaves.len())
            .filter(|&s| !self.slaves[s - 1].dead)
            .map(|s| Load {
                slave: s,
                uncertain: self
                    .waiting_by_slave
                    .get(&s)
                    .map(|v| {
                        v.iter()
                            .filter_map(|&id| {
                                let row = self.table.row(id)?;
                                Some(Piece {
                                    leaf: id,
                                    nodes: row.nodes_at(required_of(row.ply()).saturating_sub(1)),
                                    moved_last: row.master.moved_last,
                                })
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
            })
            .collect();
        let moves = balance::plan(&loads);
        if moves.is_empty() {
            return;
        }
        for row in self.table.rows_mut() {
            row.master.moved_last = false;
        }
        for m in moves {
            if let Some(row) = self.table.row_mut(m.leaf) {
                row.master.owner = Some(m.to);
                row.master.moved_last = true;
            }
            self.stats.moves += 1;
            ctx.send(m.from, Msg::Revoke { leaf: m.leaf });
            self.assign(m.leaf, m.to, ctx);
            if let Some(v) = self.waiting_by_slave.get_mut(&m.from) {
                v.retain(|&x| x != m.leaf);
            }
            self.waiting_by_slave.entry(m.to).or_default().push(m.leaf);
        }
    }

    /// Tail splitting (`AphidOptions::split_tail`): when few leaves are uncertain, the
    /// iteration waits on them while the other slaves idle or run ahead; the big ones (not yet
    /// searched to their required depth, needing at least `g + 6` plies) are exempted at once,
    /// so that the next pass hands their grandchildren to every slave.
    fn split_tail(&mut self, pass: &Pass) {
        let Some(g) = self.geometry else {
            return;
        };
        let slaves = self.slaves.iter().filter(|s| !s.dead).count();
        let limit = self.opts.split_tail as usize;
        if limit == 0 || pass.uncertain == 0 || pass.uncertain as usize * limit > slaves {
            return;
        }
        for &id in &pass.waiting {
            let Some(row) = self.table.row(id) else {
                continue;
            };
            let required = self.iteration.saturating_sub(row.ply());
            if required < g.granularity + SPLIT_MIN_PLIES || row.slave.get(required).is_some() {
                continue;
            }
            if self.exempt.insert(row.master.path.clone()) {
                self.stats.exemptions += 1;
                self.stats.splits += 1;
                self.dirty = true;
            }
        }
    }

    /// Between iterations: exempt the largest piece of the finished one if it is
    /// `exemption_factor` times the average.
    fn exempt_largest(&mut self) {
        let Some(g) = self.geometry else {
            return;
        };
        let next = self.iteration + 1;
        let sizes: Vec<(LeafId, u64)> = self
            .table
            .rows()
            .iter()
            .enumerate()
            .filter(|(_, r)| r.master.touched && r.master.owner.is_some())
            .map(|(i, r)| {
                (
                    i as LeafId,
                    r.nodes_at(self.iteration.saturating_sub(r.ply())),
                )
            })
            .collect();
        let Some(id) = balance::exemption(&sizes, self.opts.exemption_factor) else {
            return;
        };
        let Some(row) = self.table.row(id) else {
            return;
        };
        if next >= row.ply() + 2 + g.granularity && !self.exempt.contains(&row.master.path) {
            self.exempt.insert(row.master.path.clone());
            self.stats.exemptions += 1;
        }
    }

    /// Re-sends to silent slaves and gives away the work of dead ones.
    fn recover(&mut self, ctx: &mut dyn Context<Msg>) {
        let now = ctx.now();
        let mut dead = Vec::new();
        let all_waiting = self.waiting_by_slave.clone();
        for (&s, waiting) in &all_waiting {
            if waiting.is_empty() {
                continue;
            }
            let info = self.slaves[s - 1];
            if info.dead {
                continue;
            }
            let silent = now.saturating_sub(info.last_heard);
            if silent >= self.opts.dead_after_ns {
                dead.push(s);
                continue;
            }
            let wait = self.opts.patience_ns << info.backoff.min(8);
            // Said it was done although we gave it work long enough ago: something was lost.
            let idle_with_work = info.done_iteration == Some(self.iteration)
                && now.saturating_sub(info.last_sent) >= self.opts.patience_ns;
            if (silent >= self.opts.patience_ns || idle_with_work)
                && now.saturating_sub(info.last_resend) >= wait
            {
                for &id in waiting {
                    self.assign(id, s, ctx);
                    self.stats.resends += 1;
                }
                let info = &mut self.slaves[s - 1];
                info.last_resend = now;
                info.backoff += 1;
            }
        }
        for s in dead {
            self.slaves[s - 1].dead = true;
            self.stats.deaths += 1;
            let owned: Vec<LeafId> = self
                .table
                .rows()
                .iter()
                .enumerate()
                .filter(|(_, r)| r.master.owner == Some(s))
                .map(|(i, _)| i as LeafId)
                .collect();
            for id in owned {
                let to = self.live_slave();
                if let Some(row) = self.table.row_mut(id) {
                    row.master.owner = to;
                }
                if let Some(to) = to {
                    self.assign(id, to, ctx);
                }
            }
            self.dirty = true;
        }
    }

    /// The moves of the best line the last pass found (down to the master's leaf).
    fn principal_variation(&self) -> Vec<G::Move> {
        let mut pos = self.root.clone();
        let mut path = Vec::new();
        let mut pv = Vec::new();
        let mut moves = Vec::with_capacity(G::MAX_MOVES);
        while (path.len() as u32) < self.target {
            let Some(&i) = self.best_child.get(&path) else {
                break;
            };
            pos.generate_moves(&mut moves);
            let Some(&mv) = moves.get(usize::from(i)) else {
                break;
            };
            pv.push(mv);
            path.push(i);
            let _ = pos.make_move(mv);
        }
        pv
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

/// The deferred leaves to hand out after a pass (`AphidOptions::new_leaf_passes`): those
/// touched by at least `passes` passes, and, when no other uncertain leaf of the pass is out
/// with a slave (`others` false), every deferred leaf among the pass's uncertain ones
/// (`waiting`).
fn deferred_ready(
    deferred: &BTreeMap<LeafId, u32>,
    passes: u32,
    others: bool,
    waiting: &[LeafId],
) -> Vec<LeafId> {
    let mut ready: BTreeSet<LeafId> = deferred
        .iter()
        .filter(|&(_, &n)| n >= passes)
        .map(|(&id, _)| id)
        .collect();
    if !others {
        ready.extend(waiting.iter().filter(|id| deferred.contains_key(id)));
    }
    ready.into_iter().collect()
}

/// The automatic `d'` after the master-tree cap (`AphidOptions::master_leaf_cap`): one ply
/// above `horizon` when the sequential iterations found more than `cap` x `floor` horizon
/// nodes at `horizon` (`leaves[p]` for ply `p`) and at least `least` one ply above; `horizon`
/// otherwise (and always when `cap` is 0). The master's pass cost grows with its leaves, and
/// so does the number of passes (every result that a pass can use calls for another), while
/// Othello's plies differ by a factor of 2 to 12 in horizon nodes: a first ply with enough
/// pieces can have ten times the floor.
fn cap_leaves(leaves: &[u64], horizon: u32, floor: u64, least: u64, cap: u32) -> u32 {
    let limit = floor.saturating_mul(u64::from(cap));
    let here = leaves.get(horizon as usize).copied().unwrap_or(0);
    let above = horizon
        .checked_sub(1)
        .filter(|&p| p >= 1)
        .and_then(|p| leaves.get(p as usize).copied());
    match above {
        Some(n) if cap > 0 && here > limit && n >= least => horizon - 1,
        _ => horizon,
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

#[cfg(test)]
mod deferred_tests {
    use super::*;

    #[test]
    fn deferred_leaves_go_out_when_touched_enough_or_nothing_else_is_out() {
        // Leaves 4, 7 and 9 held back, touched by 1, 2 and 1 passes.
        let deferred: BTreeMap<LeafId, u32> = [(4, 1), (7, 2), (9, 1)].into_iter().collect();
        // Two passes needed; other uncertain leaves are out with slaves.
        assert_eq!(deferred_ready(&deferred, 2, true, &[3, 4, 9]), vec![7]);
        // Three needed: nothing yet.
        assert!(deferred_ready(&deferred, 3, true, &[3, 4, 9]).is_empty());
        // No other uncertain leaf is out: the held-back uncertain ones go too, not leaf 4
        // when the pass did not find it uncertain.
        assert_eq!(deferred_ready(&deferred, 3, false, &[9]), vec![9]);
        assert_eq!(deferred_ready(&deferred, 2, false, &[4, 9]), vec![4, 7, 9]);
    }
}

#[cfg(test)]
mod cap_leaves_tests {
    use super::*;

    #[test]
    fn the_horizon_steps_back_from_a_ply_far_above_the_floor() {
        // Position 5 of the Othello set before iteration 7 of 14 plies (15 slaves): ply 5 has
        // 5,829 horizon nodes, eleven times the floor of 512; ply 4 has 483.
        let leaves = [1, 23, 161, 508, 483, 5829, 6414];
        assert_eq!(cap_leaves(&leaves, 5, 512, 128, 4), 4);
        // Off, or a cap above the ratio: unchanged.
        assert_eq!(cap_leaves(&leaves, 5, 512, 128, 0), 5);
        assert_eq!(cap_leaves(&leaves, 5, 512, 128, 12), 5);
        // The ply above has too few pieces for the slaves (63 slaves x 4 pieces needs 252;
        // 600 needs more than ply 4 has).
        assert_eq!(cap_leaves(&leaves, 5, 512, 252, 4), 4);
        assert_eq!(cap_leaves(&leaves, 5, 512, 600, 4), 5);
        // Within the cap (position 6: 842 against 4 x 512): unchanged.
        assert_eq!(cap_leaves(&[1, 12, 80, 124, 206, 842], 5, 512, 128, 4), 5);
        // Exactly at the cap: unchanged; one above: back.
        assert_eq!(cap_leaves(&[1, 10, 200, 2048], 3, 512, 128, 4), 3);
        assert_eq!(cap_leaves(&[1, 10, 200, 2049], 3, 512, 128, 4), 2);
        // Never back to the root, nor past the statistics.
        assert_eq!(cap_leaves(&[1, 9000], 1, 512, 1, 4), 1);
        assert_eq!(cap_leaves(&[1, 200], 3, 512, 128, 4), 3);
    }
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
