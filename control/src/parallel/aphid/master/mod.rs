//! The master (thesis 5.2.1): repeated alpha-beta passes over its `d'`-ply tree until a pass
//! meets only certain leaves.
//!
//! Each pass is fail-soft alpha-beta from the root with an infinite window (or, with
//! `master_search = "negascout"`, NegaScout with the aspiration window of the iterative
//! deepening, widened and passed again when a pass over certain leaves fails outside it). At a leaf (`d'`
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
//!
//! The code is split by concept: `geometry` chooses `d'` and `g` from the sequential
//! iterations, `pass` is one pass over the master's tree (leaves, guesses, bad bounds), and
//! `dispatch` hands out the work a pass found (assignments, load balancing, exemptions, tail
//! splitting, recovery); this module holds the state, the message loop and the iteration
//! bookkeeping.

mod dispatch;
mod geometry;
mod pass;

use std::collections::{BTreeMap, BTreeSet};

use std::sync::Arc;

use crate::parallel::play::watch::Watch;
use dib::{Activity, Context, Nanos};
use games::Game;
use games::score::INFINITY;

use super::config::AphidOptions;
use super::guess::GuessStats;
use super::message::{BadBound, Epoch, LeafResult, Msg};
use super::table::{AphidTable, Bounds, DepthBounds, LeafId};
use crate::search::Searcher;

/// What the master counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    /// Passes over certain leaves whose value fell outside the aspiration window
    /// (`master_search = "negascout"`), each followed by a pass with a wider window.
    pub aspiration_fails: u64,
    /// Slaves presumed dead.
    pub deaths: u64,
    /// Reports received.
    pub reports: u64,
    /// When the last slave received its first piece of work (the master's start-up, thesis
    /// 6.3.1), in nanoseconds of the backend's clock from the search's start; `None` when
    /// some slave never received one.
    pub startup_ns: Option<Nanos>,
}

#[derive(Clone, Copy, Debug, Default)]
struct SlaveInfo {
    last_heard: Nanos,
    /// When the master last sent it work (an assignment or a bad bound).
    last_sent: Nanos,
    /// Whether it has been sent any work.
    started: bool,
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
    /// Whether the value a node or leaf just returned came from a guess (a leaf's guess
    /// became the best value of every node above it on the way up).
    guessed: bool,
}

/// The root window of the master's passes in one iteration (`master_search`).
#[derive(Clone, Copy, Debug)]
struct Aspiration {
    /// The iteration it belongs to (0: none yet).
    iteration: u32,
    alpha: i32,
    beta: i32,
    /// The last widening step.
    step: i32,
}

impl Default for Aspiration {
    fn default() -> Self {
        Aspiration {
            iteration: 0,
            alpha: -INFINITY,
            beta: INFINITY,
            step: 0,
        }
    }
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
    /// Results of new leaves found in the transposition table (`tt_seeded_guesses`), by
    /// depth on the leaf's scale: for guesses only.
    seeds: BTreeMap<LeafId, DepthBounds>,
    /// What the guesses drew on (`guess.rs`).
    pub(crate) guesses: GuessStats,
    /// The current iteration's root window.
    aspiration: Aspiration,
    /// The play setting: the run's clock, stop and halt; each completed iteration is recorded
    /// there, and the clock decides whether the next begins (`None`: the research setting,
    /// which searches to the target).
    pub(crate) watch: Option<Arc<Watch<G::Move>>>,
    /// Nanoseconds a node costs on the simulated machine (0 off it): the sequential
    /// iterations of the play setting read the time as their start plus their nodes at it.
    pub(crate) node_ns: u64,
    /// The play setting: a sequential iteration was stopped by the clock or the stop.
    halted: bool,
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
            seeds: BTreeMap::new(),
            guesses: GuessStats::default(),
            aspiration: Aspiration::default(),
            watch: None,
            node_ns: 0,
            halted: false,
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
        }
    }

    /// One slice.
    pub(crate) fn run(&mut self, ctx: &mut dyn Context<Msg>) -> Activity {
        if self.result.is_some() || self.halted {
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
            self.record(r);
        }
    }

    /// Stores a result.
    fn record(&mut self, r: LeafResult) {
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
            }
        }
    }

    /// Passes until one is uncertain; true when the whole search is done.
    fn passes(&mut self, ctx: &mut dyn Context<Msg>) -> bool {
        loop {
            let (value, pass) = self.pass(ctx);
            let certain = pass.uncertain == 0;
            let old = self.hypothesis;
            self.hypothesis = value;
            // A root value backed by a guessed leaf would scale that very guess in the next
            // pass: the guess and the hypothesis then drift together, pass after pass.
            if certain || !pass.guessed || !self.opts.anchored_guesses {
                self.anchor = value;
            }
            self.after_pass(pass, ctx);
            if certain && self.aspiration_failed(value) {
                // A bound outside the root window: pass again with the window widened.
                if self.hypothesis != old {
                    self.broadcast_epoch(ctx);
                }
                continue;
            }
            if !certain {
                if self.hypothesis != old {
                    self.broadcast_epoch(ctx);
                }
                return false;
            }
            self.root_values[self.iteration as usize] = Some(value);
            let deepens = self.deepens(self.iteration, value, ctx);
            if self.iteration >= self.target || !deepens {
                let pv = self.principal_variation();
                self.result = Some((value, pv));
                ctx.finish();
                return true;
            }
            self.exempt_largest();
            self.iteration += 1;
            self.proven.clear();
            self.broadcast_epoch(ctx);
        }
    }

    /// The play setting: records iteration `depth` with `value` (and the principal variation
    /// the passes found) in the watch; whether the clock lets the next iteration begin. Always
    /// true in the research setting.
    fn deepens(&self, depth: u32, value: i32, ctx: &mut dyn Context<Msg>) -> bool {
        let Some(w) = &self.watch else {
            return true;
        };
        let now = w.now(ctx.now());
        w.record(depth, value, self.principal_variation(), now, 0);
        w.may_deepen(depth, now)
    }

    fn broadcast_epoch(&mut self, ctx: &mut dyn Context<Msg>) {
        let epoch = self.epoch();
        for (i, s) in self.slaves.iter().enumerate() {
            if !s.dead {
                ctx.send(i + 1, Msg::Epoch(epoch));
            }
        }
    }

    /// The next live slave in round-robin order.
    fn live_slave(&mut self) -> Option<usize> {
        let n = self.slaves.len();
        for _ in 0..n {
            let s = self.next_owner % n;
            self.next_owner += 1;
            if !self.slaves[s].dead {
                return Some(s + 1);
            }
        }
        None
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
