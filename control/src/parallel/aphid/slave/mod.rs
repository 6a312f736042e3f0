//! A slave (thesis 5.2.3): it repeatedly picks the best piece of its part of the APHID table,
//! searches it one ply deeper (iterative deepening per leaf), and reports the bounds found.
//!
//! Work selection: an outstanding "bad bound" request first (the master is stuck on it); then
//! required work: with `pick = "deficit"` the touched leaf (priority > 0) that is furthest
//! below its required depth, highest priority first; with `pick = "priority"` (the thesis) the
//! touched leaf of highest priority below its required depth. When every touched leaf has
//! reached the required depth, the shallowest one ply beyond it, highest priority first
//! (speculative run-ahead to the next iteration). Untouched leaves (priority 0) are
//! not searched. The window is centred on the master's hypothetical root value, turned to
//! the leaf's side and scale (decisive values too), twice as wide for speculative searches.
//!
//! While searching, the slave reads its inbox at every poll of the sequential search; a
//! speculative search is abandoned when required work arrives. (On the simulator a slice is
//! atomic, so messages that arrive during a search are seen after it: there a speculative
//! search sees them only when it yields: it runs at most `speculative_slice_nodes` nodes at
//! a time, resuming with twice the budget when nothing more urgent came. Required searches do
//! the same with `required_slice_nodes`, so that a leaf the master stopped touching is left.
//! Where the cost model says how often the machine looks at its inbox (`notice`), a first
//! slice is that many nodes instead.)
//! Results are buffered and sent only after `m` nodes
//! (`report_nodes`), except the answer to a bad bound and the last required result of an
//! iteration, which go at once; a silent searching slave sends an empty report every
//! `heartbeat_ns` so the master knows it lives.

mod pick;

use std::collections::BTreeMap;
use std::time::Duration;

use dib::{Activity, Context, Nanos};
use games::Game;

use super::config::{AphidOptions, PickOrder, TtSharing};
use super::message::{BadBound, Epoch, LeafResult, Msg};
use super::shadow::ShadowRing;
use super::table::{Bounds, DepthBounds, LeafId};
use crate::search::{KindTally, SearchContext, SearchStats, Searcher, Signal, TtEntry};

/// The master's processor number.
pub(crate) const MASTER: usize = 0;

/// What a slave counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SlaveStats {
    /// Leaves assigned to it (new or moved here).
    pub leaves_received: u64,
    /// Searches completed.
    pub searches: u64,
    /// Nodes of completed searches no deeper than the final required depth.
    pub required_nodes: u64,
    /// Nodes of completed searches deeper than the final required depth (never used).
    pub speculative_nodes: u64,
    /// Nodes of searches abandoned for required work.
    pub aborted_nodes: u64,
    /// Bad-bound searches.
    pub bad_bounds: u64,
    /// Reports sent.
    pub reports: u64,
    /// Master messages applied.
    pub updates: u64,
}

#[derive(Clone, Debug)]
struct SlaveLeaf<G> {
    position: G,
    ply: u32,
    priority: u32,
    bounds: DepthBounds,
    /// The deepest depth searched here (0: none).
    searched: u32,
    bad: Option<BadBound>,
    /// The highest priority the master ever gave it (orders untouched leaves).
    known: u32,
    /// A required search cut short at the end of its slice: its depth and budget.
    cut: Option<(u32, u64)>,
}

/// A piece of work chosen by the scheduler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Work {
    pub(super) leaf: LeafId,
    pub(super) depth: u32,
    pub(super) alpha: i32,
    pub(super) beta: i32,
    /// Part of the current iteration's work (or a bad bound): not speculative.
    pub(super) required: bool,
    pub(super) bad: bool,
    /// An untouched leaf searched in the last iteration (`untouched_last`).
    pub(super) untouched: bool,
}

/// Everything of a slave except its search engine (so that the search's context can update
/// it while the engine runs).
#[derive(Debug)]
pub(crate) struct SlaveState<G: Game> {
    root: G,
    /// The final depth of the whole search (for the speculative accounting).
    target: u32,
    report_nodes: u64,
    window: i32,
    heartbeat_ns: u64,
    epoch: Epoch,
    leaves: BTreeMap<LeafId, SlaveLeaf<G>>,
    buffer: Vec<LeafResult>,
    nodes_since_report: u64,
    last_send: Nanos,
    /// The iteration for which "done" was last reported.
    reported_done: Option<u32>,
    /// Required work arrived (a speculative search should stop).
    pub(super) interrupt: bool,
    /// Send the buffer at the next chance (answers to re-sent assignments).
    urgent: bool,
    /// Nodes a speculative search may run before it yields (doubling for the same work).
    speculative_slice: u64,
    /// The speculative work last cut short, and the budget it had.
    cut_short: Option<(LeafId, u32, u64)>,
    pub(crate) stats: SlaveStats,
    /// `--tt distributed`: this slave's end of the shadow-table ring.
    pub(crate) shadow: Option<ShadowRing>,
    /// In the last iteration, untouched leaves below their required depth before run-ahead.
    untouched_last: bool,
    /// The slaves share one table (`--aphid-tt shared`): probes are charged as shared-table
    /// probes.
    shared_table: bool,
    /// `AphidOptions::required_slice_nodes`.
    required_slice: u64,
    /// `AphidOptions::pick`.
    pick: PickOrder,
    /// `AphidOptions::library_slowdown_percent`.
    library_percent: u32,
    /// Nodes charged so far, and the library work charged with them.
    library: (u64, u64),
}

/// A slave processor.
pub(crate) struct Slave<G: Game> {
    searcher: Searcher<G>,
    pub(crate) state: SlaveState<G>,
}

impl<G: Game> std::fmt::Debug for Slave<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Slave")
            .field("state", &self.state)
            .finish_non_exhaustive()
    }
}

impl<G: Game> Slave<G> {
    pub(crate) fn new(
        root: G,
        target: u32,
        procs: usize,
        opts: &AphidOptions,
        searcher: Searcher<G>,
    ) -> Self {
        // m grows with the number of slaves, so that the master's inbox does not (thesis
        // 5.2.3: "m is based on the number of processors"); Brockington and Schaeffer's is fixed.
        let slaves = procs.saturating_sub(1).max(1) as u64;
        let scale = if opts.scale_reports {
            slaves.div_ceil(8)
        } else {
            1
        };
        let report_nodes = opts.report_nodes.saturating_mul(scale);
        Slave {
            searcher,
            state: SlaveState {
                root,
                target,
                report_nodes,
                window: opts.window.max(1),
                heartbeat_ns: opts.heartbeat_ns,
                epoch: Epoch {
                    iteration: 0,
                    hypothesis: 0,
                },
                leaves: BTreeMap::new(),
                buffer: Vec::new(),
                nodes_since_report: 0,
                last_send: 0,
                reported_done: None,
                interrupt: false,
                urgent: false,
                speculative_slice: opts.speculative_slice_nodes.max(1),
                cut_short: None,
                stats: SlaveStats::default(),
                shadow: None,
                untouched_last: opts.untouched_last,
                pick: opts.pick,
                shared_table: opts.tt == TtSharing::Shared,
                required_slice: opts.required_slice_nodes,
                library_percent: opts.library_slowdown_percent.min(99),
                library: (0, 0),
            },
        }
    }

    /// One slice: read the inbox, search one piece one ply deeper, maybe report.
    pub(crate) fn run(&mut self, ctx: &mut dyn Context<Msg>) -> Activity {
        while let Some(env) = ctx.poll() {
            self.state.apply(env.msg);
        }
        self.state.pass_on_shadow(ctx);
        self.state.flush_urgent(ctx);
        let Some(work) = self.state.pick() else {
            self.state.report_if_idle(ctx);
            return Activity::Idle { wake_at: None };
        };
        self.search(work, ctx);
        Activity::Busy
    }

    fn search(&mut self, work: Work, ctx: &mut dyn Context<Msg>) {
        let Some((position, cut)) = self
            .state
            .leaves
            .get(&work.leaf)
            .map(|l| (l.position.clone(), l.cut))
        else {
            return;
        };
        self.state.interrupt = false;
        let speculative = !work.required;
        // A speculative search yields after a budget of nodes, so that required work that
        // arrives meanwhile goes first even where a slice cannot see new messages (the
        // simulator); the same work resumes with twice the budget, its finished subtrees
        // found again in the transposition table.
        let sliced = work.required && !work.bad && self.state.required_slice > 0;
        // Where the machine says how often a busy processor looks at its inbox (the
        // simulator's `notice`), a slice is that long.
        let poll = ctx.slice_nodes();
        let limit = if speculative {
            Some(match self.state.cut_short {
                Some((leaf, depth, budget)) if leaf == work.leaf && depth == work.depth => {
                    budget.saturating_mul(2)
                }
                _ => poll.unwrap_or(self.state.speculative_slice),
            })
        } else if sliced {
            // Required work resumes with twice the budget (its finished subtrees are in the
            // transposition table), so a search of N nodes is cut at most log2(N / slice)
            // times.
            Some(match cut {
                Some((depth, budget)) if depth == work.depth => budget.saturating_mul(2),
                _ => self.state.required_slice,
            })
        } else {
            None
        };
        let mut sctx = SearchCtx {
            ctx,
            state: &mut self.state,
            charged: 0,
            counts: self.searcher.stats().tally(),
            speculative,
            limit,
        };
        let r = self
            .searcher
            .search_window(&position, work.depth, work.alpha, work.beta, &mut sctx);
        let (charged, counts) = (sctx.charged, sctx.counts);
        let nodes = self.searcher.visited;
        let rest = nodes.saturating_sub(charged);
        let done = slave_work(rest, counts, self.searcher.stats(), self.state.shared_table);
        if !done.is_empty() {
            ctx.charge_work(&self.state.with_library(done));
            self.state.nodes_since_report += rest;
        }
        let st = &mut self.state;
        if !r.completed {
            if speculative {
                st.stats.aborted_nodes += nodes;
                st.cut_short = limit.map(|l| (work.leaf, work.depth, l));
            } else {
                st.stats.required_nodes += nodes;
                if let Some(l) = st.leaves.get_mut(&work.leaf) {
                    l.cut = limit.map(|b| (work.depth, b));
                }
            }
            return;
        }
        st.complete(work, r.value, nodes, ctx);
    }
}

impl<G: Game> SlaveState<G> {
    /// `work` with the library's per-node calls added: a slave that runs the master's
    /// executable loses `library_percent` of its nodes per second to them (Brockington's thesis,
    /// section 6.2.2), so every node brings `p / (100 - p)` node equivalents of library work,
    /// charged as whole node equivalents of the running total.
    fn with_library(&mut self, mut work: dib::Work) -> dib::Work {
        let p = u128::from(self.library_percent);
        if p > 0 {
            let (nodes, charged) = &mut self.library;
            *nodes += work.nodes();
            let total = u128::from(*nodes) * p / (100 - p);
            let total = u64::try_from(total).unwrap_or(u64::MAX);
            work.library = total.saturating_sub(*charged);
            *charged = total;
        }
        work
    }

    /// Records a completed search of `work` that returned `value` after `nodes` nodes, and
    /// reports when it should (also the hook of a mid-level process, `mid.rs`).
    pub(super) fn complete(
        &mut self,
        work: Work,
        value: i32,
        nodes: u64,
        ctx: &mut dyn Context<Msg>,
    ) {
        let st = self;
        st.cut_short = None;
        st.stats.searches += 1;
        let ply = st.leaves.get(&work.leaf).map_or(0, |l| l.ply);
        let counted = work.depth + ply <= st.target;
        if counted {
            st.stats.required_nodes += nodes;
        } else {
            st.stats.speculative_nodes += nodes;
        }
        if work.bad {
            st.stats.bad_bounds += 1;
        }
        let b = Bounds::from_search(value, work.alpha, work.beta);
        if let Some(leaf) = st.leaves.get_mut(&work.leaf) {
            leaf.cut = None;
            leaf.bounds.record(work.depth, b);
            leaf.searched = leaf.searched.max(work.depth);
            if leaf.bad.is_some_and(|x| {
                x.depth == work.depth
                    && leaf
                        .bounds
                        .get(x.depth)
                        .is_some_and(|b| b.decides(x.alpha, x.beta).is_some())
            }) {
                leaf.bad = None;
            }
        }
        st.buffer.push(LeafResult {
            leaf: work.leaf,
            depth: work.depth,
            lower: b.lower,
            upper: b.upper,
            nodes,
        });
        let finished_required = work.required && st.is_done();
        if work.bad || finished_required || st.nodes_since_report >= st.report_nodes {
            st.flush(ctx);
        }
    }

    /// Sends what must go at once (answers to re-sent assignments).
    pub(super) fn flush_urgent(&mut self, ctx: &mut dyn Context<Msg>) {
        if self.urgent {
            self.flush(ctx);
        }
    }

    /// With nothing to search: sends what is buffered, and "done" once per iteration.
    pub(super) fn report_if_idle(&mut self, ctx: &mut dyn Context<Msg>) {
        let done_now = self.is_done() && self.reported_done != Some(self.epoch.iteration);
        if !self.buffer.is_empty() || done_now {
            self.flush(ctx);
        }
    }

    /// A leaf's position and ply (for a mid-level process, `mid.rs`).
    pub(super) fn position(&self, leaf: LeafId) -> Option<(G, u32)> {
        self.leaves.get(&leaf).map(|l| (l.position.clone(), l.ply))
    }

    /// Sends an empty report after `heartbeat_ns` of silence (for a mid-level process).
    pub(super) fn keep_alive(&mut self, ctx: &mut dyn Context<Msg>) -> Nanos {
        if ctx.now().saturating_sub(self.last_send) >= self.heartbeat_ns {
            self.flush(ctx);
        }
        self.last_send + self.heartbeat_ns.max(1)
    }

    /// Forwards the peers' shadow tables that arrived (`--tt distributed`).
    fn pass_on_shadow(&mut self, ctx: &mut dyn Context<Msg>) {
        if let Some(ring) = &mut self.shadow {
            ring.pass_on(ctx);
        }
    }

    fn see(&mut self, epoch: Epoch) {
        if epoch.iteration > self.epoch.iteration {
            self.interrupt = true;
            self.epoch = epoch;
        } else if epoch.iteration == self.epoch.iteration {
            self.epoch.hypothesis = epoch.hypothesis;
        }
    }

    /// The position at the end of `path`, if every index names a legal move.
    fn play(&self, path: &[u16]) -> Option<G> {
        let mut pos = self.root.clone();
        let mut moves = Vec::with_capacity(G::MAX_MOVES);
        for &i in path {
            pos.generate_moves(&mut moves);
            let mv = *moves.get(usize::from(i))?;
            let _ = pos.make_move(mv);
        }
        Some(pos)
    }

    /// Applies one master message to this slave's copy of the table.
    pub(crate) fn apply(&mut self, msg: Msg) {
        self.stats.updates += 1;
        match msg {
            Msg::Assign {
                epoch,
                leaf,
                path,
                priority,
                bad,
            } => {
                self.see(epoch);
                if self.leaves.contains_key(&leaf) {
                    // A re-send: the master may have lost our reports; send them again.
                    if let Some(l) = self.leaves.get_mut(&leaf) {
                        l.priority = priority;
                        let again: Vec<LeafResult> = l
                            .bounds
                            .deepest_first()
                            .map(|(depth, b)| LeafResult {
                                leaf,
                                depth,
                                lower: b.lower,
                                upper: b.upper,
                                nodes: 0,
                            })
                            .collect();
                        self.buffer.extend(again);
                        self.urgent = true;
                    }
                    if let Some(bad) = bad {
                        self.bad_bound(leaf, bad);
                    }
                    return;
                }
                let Some(position) = self.play(&path) else {
                    return;
                };
                self.stats.leaves_received += 1;
                self.interrupt |= priority > 0;
                self.leaves.insert(
                    leaf,
                    SlaveLeaf {
                        position,
                        ply: path.len() as u32,
                        priority,
                        bounds: DepthBounds::default(),
                        searched: 0,
                        bad: None,
                        known: priority,
                        cut: None,
                    },
                );
                if let Some(bad) = bad {
                    self.bad_bound(leaf, bad);
                }
            }
            Msg::Priorities { epoch, changes } => {
                self.see(epoch);
                for (leaf, priority) in changes {
                    if let Some(l) = self.leaves.get_mut(&leaf) {
                        self.interrupt |= l.priority == 0 && priority > 0;
                        l.priority = priority;
                        l.known = l.known.max(priority);
                    }
                }
            }
            Msg::Epoch(epoch) => self.see(epoch),
            Msg::Restart(epoch) => {
                self.epoch = epoch;
                self.interrupt = true;
                self.reported_done = None;
            }
            Msg::BadBound { epoch, leaf, bad } => {
                self.see(epoch);
                self.bad_bound(leaf, bad);
            }
            Msg::Revoke { leaf } => {
                self.leaves.remove(&leaf);
            }
            Msg::Report { .. } => {}
            Msg::Shadow { origin, entries } => {
                if let Some(ring) = &mut self.shadow {
                    ring.receive(origin, entries);
                }
            }
        }
    }

    fn bad_bound(&mut self, leaf: LeafId, bad: BadBound) {
        let Some(l) = self.leaves.get_mut(&leaf) else {
            return;
        };
        // Already answered (a duplicate or crossed request): send the answer again.
        if let Some(b) = l.bounds.get(bad.depth) {
            if b.decides(bad.alpha, bad.beta).is_some() {
                self.buffer.push(LeafResult {
                    leaf,
                    depth: bad.depth,
                    lower: b.lower,
                    upper: b.upper,
                    nodes: 0,
                });
                self.urgent = true;
                return;
            }
        }
        l.bad = Some(bad);
        self.interrupt = true;
    }

    /// Sends the buffered results (or an empty report as a sign of life).
    pub(super) fn flush(&mut self, ctx: &mut dyn Context<Msg>) {
        let done = self.is_done();
        if done {
            self.reported_done = Some(self.epoch.iteration);
        }
        ctx.send(
            MASTER,
            Msg::Report {
                results: std::mem::take(&mut self.buffer),
                done,
                iteration: self.epoch.iteration,
            },
        );
        self.stats.reports += 1;
        self.nodes_since_report = 0;
        self.last_send = ctx.now();
        self.urgent = false;
        if let Some(ring) = &mut self.shadow {
            ring.on_report(ctx);
        }
    }
}

/// The sequential search's view of the slave: virtual or real time, node charging, the inbox.
struct SearchCtx<'a, G: Game> {
    ctx: &'a mut dyn Context<Msg>,
    state: &'a mut SlaveState<G>,
    charged: u64,
    /// The searcher's quiescence and probe counters when last charged.
    counts: KindTally,
    speculative: bool,
    /// The node budget of a speculative search.
    limit: Option<u64>,
}

impl<G: Game> SearchCtx<'_, G> {
    /// After a poll's charge: reads the inbox, passes on shadow entries, reports when due, and
    /// says whether the search must stop.
    fn answer(&mut self, nodes: u64) -> Signal {
        while let Some(env) = self.ctx.poll() {
            self.state.apply(env.msg);
        }
        self.state.pass_on_shadow(self.ctx);
        let quiet = self.ctx.now().saturating_sub(self.state.last_send) >= self.state.heartbeat_ns;
        if self.state.urgent
            || quiet
            || (!self.state.buffer.is_empty()
                && self.state.nodes_since_report >= self.state.report_nodes)
        {
            self.state.flush(self.ctx);
        }
        if (self.speculative && self.state.interrupt) || self.limit.is_some_and(|l| nodes >= l) {
            Signal::Stop
        } else {
            Signal::Continue
        }
    }
}

/// The work of `nodes` slave nodes since the counters read `was`: quiescence apart, probes
/// shared under `--aphid-tt shared`; look-ahead nodes are not charged by APHID's slaves.
fn slave_work(nodes: u64, was: KindTally, now: &SearchStats, shared_table: bool) -> dib::Work {
    let new = KindTally {
        sort_nodes: 0,
        ..was.since(now.tally())
    };
    crate::parallel::work_of(nodes, new, shared_table)
}

impl<G: Game> SearchContext for SearchCtx<'_, G> {
    fn elapsed(&self) -> Duration {
        Duration::from_nanos(self.ctx.now())
    }

    fn poll(&mut self, nodes: u64) -> Signal {
        if nodes > self.charged {
            let work = self
                .state
                .with_library(dib::Work::search(nodes - self.charged));
            self.ctx.charge_work(&work);
            self.state.nodes_since_report += nodes - self.charged;
            self.charged = nodes;
        }
        self.answer(nodes)
    }

    fn poll_counts(&mut self, nodes: u64, stats: &SearchStats) -> Signal {
        let delta = nodes.saturating_sub(self.charged);
        let work = slave_work(delta, self.counts, stats, self.state.shared_table);
        self.counts = stats.tally();
        if !work.is_empty() {
            self.ctx.charge_work(&self.state.with_library(work));
            self.state.nodes_since_report += delta;
            self.charged = self.charged.max(nodes);
        }
        self.answer(nodes)
    }

    fn stored(&mut self, hash: u64, entry: &TtEntry) {
        if let Some(ring) = &mut self.state.shadow {
            ring.offer(hash, entry);
        }
    }
}

#[cfg(test)]
mod tests;
