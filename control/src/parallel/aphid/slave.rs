//! A slave (thesis 5.2.3): it repeatedly picks the best piece of its part of the APHID table,
//! searches it one ply deeper (iterative deepening per leaf), and reports the bounds found.
//!
//! Work selection: an outstanding "bad bound" request first (the master is stuck on it); then
//! the touched leaf (priority > 0) that is furthest below its required depth, highest priority
//! first; when every touched leaf has reached the required depth, the same order one ply
//! beyond it (speculative run-ahead to the next iteration). Untouched leaves (priority 0) are
//! not searched. The window is centred on the master's hypothetical root value, turned to
//! the leaf's side, twice as wide for speculative searches.
//!
//! While searching, the slave reads its inbox at every poll of the sequential search; a
//! speculative search is abandoned when required work arrives. (On the simulator a slice is
//! atomic, so messages that arrive during a search are seen after it: there a speculative
//! search sees them only when it yields: it runs at most `speculative_slice_nodes` nodes at
//! a time, resuming with twice the budget when nothing more urgent came. Required searches do
//! the same with `required_slice_nodes`, so that a leaf the master stopped touching is left.)
//! Results are buffered and sent only after `m` nodes
//! (`report_nodes`), except the answer to a bad bound and the last required result of an
//! iteration, which go at once; a silent searching slave sends an empty report every
//! `heartbeat_ns` so the master knows it lives.

use std::collections::BTreeMap;
use std::time::Duration;

use dib::{Activity, Context, Nanos};
use games::Game;
use games::score::{INFINITY, is_decisive};

use super::config::AphidOptions;
use super::message::{BadBound, Epoch, LeafResult, Msg};
use super::shadow::ShadowRing;
use super::table::{Bounds, DepthBounds, LeafId};
use super::tail::TailStats;
use super::waste::WasteStats;
use crate::search::tt::value_to_tt;
use crate::search::{SearchContext, Searcher, Signal, TtEntry};

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
    /// Nodes searched here no deeper than the final depth (lost if the leaf moves away).
    nodes: u64,
    /// A required search cut short at the end of its slice: its depth and budget.
    cut: Option<(u32, u64)>,
    /// The depth and window of the last search of this leaf cut at the end of its slice
    /// (`AphidOptions::cut_keeps_window`).
    cut_window: Option<(u32, i32, i32)>,
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
    /// What of its work is search overhead, by cause (`waste.rs`).
    pub(crate) waste: WasteStats,
    /// `--tt distributed`: this slave's end of the shadow-table ring.
    pub(crate) shadow: Option<ShadowRing>,
    /// In the last iteration, untouched leaves below their required depth before run-ahead.
    untouched_last: bool,
    /// `AphidOptions::required_slice_nodes`.
    required_slice: u64,
    /// `AphidOptions::priority_from_depth`.
    priority_from: u32,
    /// The last iterations' timeline, this slave's part (`tail.rs`).
    pub(crate) tail: TailStats,
    /// `AphidOptions::required_slice_growth` (at least 2).
    slice_growth: u64,
    /// `AphidOptions::speculative_slice_cap` (0: none).
    speculative_cap: u64,
    /// `AphidOptions::catch_up_from` (0: off).
    catch_up_from: u32,
    /// `AphidOptions::cut_keeps_window`.
    cut_keeps_window: bool,
    /// `AphidOptions::exact_spare`.
    exact_spare: bool,
    /// `AphidOptions::alternative_window` (0: off).
    alternative_window: i32,
    /// `AphidOptions::pv_window` (0: off).
    pv_window: i32,
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
        // 5.2.3: "m is based on the number of processors").
        let slaves = procs.saturating_sub(1).max(1) as u64;
        let report_nodes = opts.report_nodes.saturating_mul(slaves.div_ceil(8));
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
                    shift: 0,
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
                waste: WasteStats::default(),
                shadow: None,
                untouched_last: opts.untouched_last,
                required_slice: opts.required_slice_nodes,
                priority_from: opts.priority_from_depth,
                tail: TailStats::default(),
                slice_growth: u64::from(opts.required_slice_growth.max(2)),
                speculative_cap: opts.speculative_slice_cap,
                catch_up_from: opts.catch_up_from,
                cut_keeps_window: opts.cut_keeps_window,
                exact_spare: opts.exact_spare,
                alternative_window: i32::try_from(opts.alternative_window).unwrap_or(i32::MAX),
                pv_window: i32::try_from(opts.pv_window).map_or(INFINITY, |w| w.min(INFINITY)),
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
        self.state.enter_tail(ctx.now());
        let Some(work) = self.state.pick() else {
            self.state.report_if_idle(ctx);
            return Activity::Idle { wake_at: None };
        };
        self.search(work, ctx);
        Activity::Busy
    }

    fn search(&mut self, work: Work, ctx: &mut dyn Context<Msg>) {
        let Some((position, cut, cut_window)) = self
            .state
            .leaves
            .get(&work.leaf)
            .map(|l| (l.position.clone(), l.cut, l.cut_window))
        else {
            return;
        };
        let work = resumed_window(work, cut_window, self.state.cut_keeps_window);
        self.state.interrupt = false;
        let speculative = !work.required;
        // A speculative search yields after a budget of nodes, so that required work that
        // arrives meanwhile goes first even where a slice cannot see new messages (the
        // simulator); the same work resumes with twice the budget, its finished subtrees
        // found again in the transposition table.
        let sliced = work.required && !work.bad && self.state.required_slice > 0;
        let limit = if speculative {
            Some(match self.state.cut_short {
                Some((leaf, depth, budget)) if leaf == work.leaf && depth == work.depth => {
                    grown_speculative_budget(budget, self.state.speculative_cap)
                }
                _ => self.state.speculative_slice,
            })
        } else if sliced {
            // Required work resumes with twice the budget (its finished subtrees are in the
            // transposition table), so a search of N nodes is cut at most log2(N / slice)
            // times.
            Some(match cut {
                Some((depth, budget)) if depth == work.depth => {
                    budget.saturating_mul(self.state.slice_growth)
                }
                _ => self.state.required_slice,
            })
        } else {
            None
        };
        let mut sctx = SearchCtx {
            ctx,
            state: &mut self.state,
            charged: 0,
            speculative,
            limit,
        };
        let r = self
            .searcher
            .search_window(&position, work.depth, work.alpha, work.beta, &mut sctx);
        let charged = sctx.charged;
        let nodes = self.searcher.visited;
        if nodes > charged {
            ctx.charge(nodes - charged);
            self.state.nodes_since_report += nodes - charged;
        }
        let st = &mut self.state;
        st.count_tail(&work, nodes, r.completed, ctx.now());
        if !r.completed {
            if speculative {
                st.stats.aborted_nodes += nodes;
                st.cut_short = limit.map(|l| (work.leaf, work.depth, l));
                if let Some(l) = st.leaves.get_mut(&work.leaf) {
                    l.cut_window = Some((work.depth, work.alpha, work.beta));
                }
            } else {
                st.stats.required_nodes += nodes;
                st.waste.sliced += nodes;
                if let Some(l) = st.leaves.get_mut(&work.leaf) {
                    l.nodes += nodes;
                    l.cut = limit.map(|b| (work.depth, b));
                    l.cut_window = Some((work.depth, work.alpha, work.beta));
                }
            }
            return;
        }
        st.complete(work, r.value, nodes, ctx);
    }
}

impl<G: Game> SlaveState<G> {
    /// Notes when this slave first runs in the last iteration (`tail.rs`).
    fn enter_tail(&mut self, now: Nanos) {
        if self.epoch.iteration >= self.target && self.tail.slaves == 0 {
            self.tail.slaves = 1;
            self.tail.entered_ns = now;
            self.tail.last_required_ns = now;
            self.tail.last_required_max_ns = now;
        }
    }

    /// Counts a search of `work` of `nodes` nodes that ended at `now` (`tail.rs`).
    fn count_tail(&mut self, work: &Work, nodes: u64, completed: bool, now: Nanos) {
        let ply = self.leaves.get(&work.leaf).map_or(0, |l| l.ply);
        let iteration = self.epoch.iteration;
        if iteration + 1 == self.target && work.required && !work.bad && completed {
            if work.depth + ply < iteration {
                self.tail.catch_up_prev += nodes;
            }
            return;
        }
        if iteration < self.target {
            return;
        }
        self.enter_tail(now);
        let t = &mut self.tail;
        if work.depth + ply > self.target {
            t.speculative += nodes;
        } else if !work.required && !work.untouched && !work.bad {
            t.exact += nodes;
        } else if !completed {
            if work.required {
                t.sliced += nodes;
            } else {
                t.untouched += nodes;
            }
        } else if work.bad {
            t.bad_bound += nodes;
        } else if work.untouched {
            t.untouched += nodes;
        } else if work.depth + ply < iteration {
            t.catch_up += nodes;
        } else {
            t.required += nodes;
        }
        if completed && work.required {
            t.last_required_ns = now;
            t.last_required_max_ns = now;
        }
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
            if work.required && !work.bad && work.depth + ply < st.epoch.iteration {
                st.waste.catch_up += nodes;
            }
            if work.bad {
                st.waste.bad_bound += nodes;
            }
            if work.untouched {
                st.waste.untouched += nodes;
            }
        } else {
            st.stats.speculative_nodes += nodes;
        }
        if work.bad {
            st.stats.bad_bounds += 1;
        }
        let b = Bounds::from_search(value, work.alpha, work.beta);
        if let Some(leaf) = st.leaves.get_mut(&work.leaf) {
            leaf.cut = None;
            leaf.cut_window = None;
            if counted {
                leaf.nodes += nodes;
            }
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
                        nodes: 0,
                        cut: None,
                        cut_window: None,
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
                if let Some(l) = self.leaves.remove(&leaf) {
                    self.waste.revoked += l.nodes;
                }
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

    fn required(&self, l: &SlaveLeaf<G>) -> u32 {
        self.epoch.iteration.saturating_sub(l.ply).max(1)
    }

    /// Every touched leaf searched to the required depth and no bad bound outstanding.
    fn is_done(&self) -> bool {
        self.leaves
            .values()
            .all(|l| l.bad.is_none() && (l.priority == 0 || l.searched >= self.required(l)))
    }

    /// The window centred on the root value `hyp`, on `ply`'s side and scale.
    fn window_at(&self, hyp: i32, ply: u32, width: i32) -> (i32, i32) {
        if is_decisive(hyp) {
            return (-INFINITY, INFINITY);
        }
        let centre = value_to_tt(if ply % 2 == 0 { hyp } else { -hyp }, ply as usize);
        (
            centre.saturating_sub(width).max(-INFINITY),
            centre.saturating_add(width).min(INFINITY),
        )
    }

    /// The half-width of `l`'s window: `alternative_window` for a touched leaf off the
    /// master's principal variation (a path with fewer type-1 nodes than nodes: priority / 4
    /// counts them, `priority.rs`), `window` otherwise.
    fn half_width(&self, l: &SlaveLeaf<G>) -> i32 {
        let off_pv = l.priority > 0 && l.priority / 4 <= l.ply;
        let on_pv = l.priority > 0 && !off_pv;
        if self.pv_window > 0 && on_pv {
            self.pv_window
        } else if self.alternative_window > 0 && off_pv {
            self.alternative_window
        } else {
            self.window
        }
    }

    /// The scheduler (see the module docs).
    pub(super) fn pick(&self) -> Option<Work> {
        if let Some((&leaf, l, bad)) = self
            .leaves
            .iter()
            .filter_map(|(id, l)| l.bad.map(|b| (id, l, b)))
            .max_by_key(|(id, l, _)| (l.priority, std::cmp::Reverse(**id)))
        {
            let _ = l;
            return Some(Work {
                leaf,
                depth: bad.depth,
                alpha: bad.alpha,
                beta: bad.beta,
                required: true,
                bad: true,
                untouched: false,
            });
        }
        // Deficit below the required depth (+1 = one ply of run-ahead), then priority.
        let touched = self
            .leaves
            .iter()
            .filter(|(_, l)| l.priority > 0)
            .map(|(id, l)| {
                (
                    id,
                    l,
                    i64::from(self.required(l)) + 1 - i64::from(l.searched),
                )
            })
            .filter(|(_, _, d)| *d > 0)
            .max_by_key(|(id, l, d)| {
                // With `priority_from_depth`, required leaves past that depth go by priority
                // first (after those still below it, shallowest first).
                let by_priority =
                    self.priority_from > 0 && *d > 1 && l.searched >= self.priority_from;
                let (first, second) = if by_priority {
                    (i64::from(l.priority), *d)
                } else {
                    (*d, i64::from(l.priority))
                };
                (*d > 1, !by_priority, first, second, std::cmp::Reverse(**id))
            });
        // In the last iteration run-ahead is useless: an untouched leaf below its required
        // depth (a pass touches it when the principal variation moves) goes first, shallowest
        // first, then the highest priority it ever had. It is not required work (it yields
        // like speculative work) but gets the required window.
        let last = self.untouched_last && self.epoch.iteration >= self.target;
        let untouched = || {
            self.leaves
                .iter()
                .filter(|(_, l)| l.priority == 0 && l.searched < self.required(l))
                .map(|(id, l)| {
                    (
                        id,
                        l,
                        i64::from(self.required(l)) + 1 - i64::from(l.searched),
                    )
                })
                .max_by_key(|(id, l, d)| (*d, l.known, std::cmp::Reverse(**id)))
        };
        if last && self.exact_spare && touched.is_none_or(|t| t.2 <= 1) {
            if let Some(w) = self.exact_work() {
                return Some(w);
            }
        }
        let (&leaf, l, deficit) = match touched {
            Some(t) if t.2 > 1 || !last => t,
            _ if !last => return None,
            _ => match untouched() {
                Some(u) => u,
                None => touched?,
            },
        };
        let untouched = l.priority == 0;
        let required = deficit > 1 && l.priority > 0;
        let half = self.half_width(l);
        let width = if deficit > 1 { half } else { 2 * half };
        // Run-ahead (the next iteration's depth) centres on the value expected there.
        let shift = if deficit > 1 || untouched {
            0
        } else {
            self.epoch.shift
        };
        let (alpha, beta) =
            self.window_at(self.epoch.hypothesis.saturating_add(shift), l.ply, width);
        Some(Work {
            leaf,
            depth: catch_up_depth(l.searched, self.required(l), self.catch_up_from),
            alpha,
            beta,
            required,
            bad: false,
            untouched,
        })
    }

    /// `exact_spare`: the touched leaf of highest priority whose result at its required depth
    /// is only a bound, searched again at that depth with a window beyond the bound (from
    /// just inside it to `2 window` past it; between two finite bounds, just outside both),
    /// so that the master finds it decided for the next windows it needs. Decisive bounds are
    /// left alone.
    fn exact_work(&self) -> Option<Work> {
        let width = 2 * self.window;
        self.leaves
            .iter()
            .filter(|(_, l)| l.priority > 0 && l.bad.is_none())
            .filter_map(|(&id, l)| {
                let r = self.required(l);
                let b = l.bounds.get(r)?;
                let window = exact_window(b.lower, b.upper, width)?;
                Some((id, l.priority, r, window))
            })
            .max_by_key(|&(id, priority, _, _)| (priority, std::cmp::Reverse(id)))
            .map(|(leaf, _, depth, (alpha, beta))| Work {
                leaf,
                depth,
                alpha,
                beta,
                required: false,
                bad: false,
                untouched: false,
            })
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

/// `work` with the window of the last cut search of its leaf, when `keep` is set, the cut
/// search had the same depth, and `work` is not a bad-bound answer (whose window is the
/// master's): the resumed search then finds its finished subtrees in the table whatever the
/// hypothesis did meanwhile (`AphidOptions::cut_keeps_window`).
fn resumed_window(work: Work, cut: Option<(u32, i32, i32)>, keep: bool) -> Work {
    match cut {
        Some((depth, alpha, beta)) if keep && !work.bad && depth == work.depth => Work {
            alpha,
            beta,
            ..work
        },
        _ => work,
    }
}

/// The window that makes a leaf's bounds `[lower, upper]` at a depth more exact
/// (`AphidOptions::exact_spare`): none when they are exact or a finite one is decisive;
/// between two finite bounds, just outside both (the search is then exact); past a lower
/// bound only, from just below it to `width` above it; below an upper bound only, from
/// `width` below it to just above it.
fn exact_window(lower: i32, upper: i32, width: i32) -> Option<(i32, i32)> {
    let low = lower > -INFINITY;
    let high = upper < INFINITY;
    if lower >= upper || (low && is_decisive(lower)) || (high && is_decisive(upper)) {
        return None;
    }
    match (low, high) {
        (true, true) => Some((lower - 1, upper + 1)),
        (true, false) => Some((lower - 1, lower + width)),
        (false, true) => Some((upper - width, upper + 1)),
        (false, false) => None,
    }
}

/// The budget a cut speculative (or untouched-leaf) search resumes with: twice `budget`, at
/// most `cap` nodes when `cap` is not 0 (`AphidOptions::speculative_slice_cap`), never less
/// than `budget`.
fn grown_speculative_budget(budget: u64, cap: u64) -> u64 {
    let grown = budget.saturating_mul(2);
    if cap == 0 {
        grown
    } else {
        grown.min(cap.max(budget))
    }
}

/// The depth a leaf searched to `searched` plies is searched to next when it needs `required`
/// (`AphidOptions::catch_up_from`): one ply deeper, or `required - skip` when that is deeper
/// and `skip` is not 0 (the shallower iterations are skipped).
fn catch_up_depth(searched: u32, required: u32, skip: u32) -> u32 {
    let next = searched + 1;
    if skip == 0 || next >= required {
        next
    } else {
        next.max(required.saturating_sub(skip))
    }
}

/// The sequential search's view of the slave: virtual or real time, node charging, the inbox.
struct SearchCtx<'a, G: Game> {
    ctx: &'a mut dyn Context<Msg>,
    state: &'a mut SlaveState<G>,
    charged: u64,
    speculative: bool,
    /// The node budget of a speculative search.
    limit: Option<u64>,
}

impl<G: Game> SearchContext for SearchCtx<'_, G> {
    fn elapsed(&self) -> Duration {
        Duration::from_nanos(self.ctx.now())
    }

    fn poll(&mut self, nodes: u64) -> Signal {
        if nodes > self.charged {
            self.ctx.charge(nodes - self.charged);
            self.state.nodes_since_report += nodes - self.charged;
            self.charged = nodes;
        }
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

    fn stored(&mut self, hash: u64, entry: &TtEntry) {
        if let Some(ring) = &mut self.state.shadow {
            ring.offer(hash, entry);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::tictactoe::TicTacToe3;

    fn state(iteration: u32, leaves: &[(LeafId, u32, u32)]) -> SlaveState<TicTacToe3> {
        let searcher = Searcher::new(crate::search::SearchConfig::research()).expect("a table");
        let mut s = Slave::new(
            TicTacToe3::start(),
            20,
            2,
            &AphidOptions::default(),
            searcher,
        );
        s.state.target = 10;
        s.state.epoch = Epoch {
            iteration,
            hypothesis: 0,
            shift: 0,
        };
        for &(leaf, priority, searched) in leaves {
            s.state.leaves.insert(
                leaf,
                SlaveLeaf {
                    position: TicTacToe3::start(),
                    ply: 4,
                    priority,
                    bounds: DepthBounds::default(),
                    searched,
                    bad: None,
                    known: priority,
                    nodes: 0,
                    cut: None,
                    cut_window: None,
                },
            );
        }
        s.state
    }

    /// `alternative_window`: a touched leaf off the principal variation (a type-2 or type-3
    /// node on its path: fewer than `ply + 1` type-1 nodes) gets the narrow window, the
    /// principal-variation leaf and untouched leaves the normal one; run-ahead doubles both;
    /// off, every leaf gets the normal window.
    #[test]
    fn alternative_windows_off_the_principal_variation() {
        // Leaves at ply 4: priority 4 * 5 + 2 = 22 is all type 1; 4 * 3 + 2 = 14 is not.
        let mut s = state(10, &[(1, 22, 5), (2, 14, 5), (3, 14, 6)]);
        s.alternative_window = 2;
        let width = |s: &SlaveState<TicTacToe3>, leaf| {
            let w = s.pick().expect("work");
            assert_eq!(w.leaf, leaf);
            w.beta - w.alpha
        };
        assert_eq!(width(&s, 1), 2 * s.window, "the principal variation");
        s.leaves.remove(&1);
        assert_eq!(width(&s, 2), 2 * 2, "an alternative branch");
        s.leaves.remove(&2);
        assert_eq!(width(&s, 3), 2 * 4, "run-ahead on an alternative branch");
        s.alternative_window = 0;
        assert_eq!(width(&s, 3), 4 * s.window, "off: run-ahead's normal window");
        let pv = state(10, &[(4, 23, 5)]);
        assert_eq!(width(&pv, 4), 2 * pv.window, "the +1 bit does not count");
    }

    /// `pv_window`: the principal-variation leaf (every node of its path of type 1) gets the
    /// wide window in required and run-ahead searches, clamped to the score range; the other
    /// leaves keep theirs; off, the principal leaf gets the normal window.
    #[test]
    fn the_principal_leaf_gets_the_wide_window() {
        // Leaves at ply 4: priority 4 * 5 + 2 = 22 is all type 1; 4 * 3 + 2 = 14 is not.
        let mut s = state(10, &[(1, 22, 5), (2, 14, 5), (3, 22, 6)]);
        s.pv_window = 50;
        let window = |s: &SlaveState<TicTacToe3>, leaf| {
            let w = s.pick().expect("work");
            assert_eq!(w.leaf, leaf);
            (w.alpha, w.beta)
        };
        assert_eq!(window(&s, 1), (-50, 50), "the principal leaf, required");
        s.pv_window = 0;
        assert_eq!(window(&s, 1), (-s.window, s.window), "off");
        s.pv_window = INFINITY;
        assert_eq!(
            window(&s, 1),
            (-INFINITY, INFINITY),
            "clamped to the score range"
        );
        s.leaves.remove(&1);
        assert_eq!(
            window(&s, 2),
            (-s.window, s.window),
            "off the principal variation"
        );
        s.leaves.remove(&2);
        s.pv_window = 50;
        assert_eq!(window(&s, 3), (-100, 100), "run-ahead doubles it");
    }

    /// The epoch's `shift` (`run_ahead_shift`) moves the centre of run-ahead windows only, on
    /// the leaf's side: required work keeps the hypothesis.
    #[test]
    fn run_ahead_windows_centre_on_the_shifted_value() {
        // Iteration 10: a ply-4 leaf (root's side) needs depth 6, a ply-3 leaf depth 7.
        let mut s = state(10, &[(1, 22, 5), (2, 14, 6)]);
        s.epoch.hypothesis = 30;
        s.epoch.shift = -20;
        let centre = |w: Work| (w.alpha + w.beta) / 2;
        let w = s.pick().expect("work");
        assert_eq!(
            (w.leaf, w.depth, centre(w)),
            (1, 6, 30),
            "required: the hypothesis"
        );
        s.leaves.remove(&1);
        let w = s.pick().expect("work");
        assert_eq!(
            (w.leaf, w.depth, centre(w)),
            (2, 7, 10),
            "run-ahead: shifted"
        );
        s.leaves.get_mut(&2).expect("leaf").ply = 3;
        s.leaves.get_mut(&2).expect("leaf").searched = 7;
        let w = s.pick().expect("work");
        assert_eq!((w.depth, centre(w)), (8, -10), "the other side: negated");
        s.epoch.shift = 0;
        let w = s.pick().expect("work");
        assert_eq!(centre(w), -30, "no shift");
    }

    /// In the last iteration an untouched leaf below its required depth goes before run-ahead
    /// (not as required work); before it, run-ahead goes first; and never with the option off.
    #[test]
    fn untouched_leaves_before_run_ahead_in_the_last_iteration() {
        let mut s = state(10, &[(1, 9, 6), (2, 0, 4), (3, 0, 6)]);
        let w = s.pick().expect("work");
        assert_eq!((w.leaf, w.depth, w.required), (2, 5, false));
        let before = state(9, &[(1, 9, 5), (2, 0, 3)]);
        let w = before.pick().expect("work");
        assert_eq!((w.leaf, w.depth, w.required), (1, 6, false));
        s.untouched_last = false;
        let w = s.pick().expect("work");
        assert_eq!((w.leaf, w.depth), (1, 7));
    }

    /// With `priority_from_depth`, a required leaf searched at least that deep goes by
    /// priority before a shallower one (which the thesis's order would take first); leaves
    /// below that depth still go first, shallowest first.
    #[test]
    fn priority_before_depth_past_priority_from_depth() {
        let mut s = state(10, &[(1, 9, 5), (2, 3, 3), (3, 12, 4)]);
        let w = s.pick().expect("work");
        assert_eq!(w.leaf, 2, "the thesis's order: shallowest first");
        s.priority_from = 3;
        let w = s.pick().expect("work");
        assert_eq!((w.leaf, w.depth, w.required), (3, 5, true));
        s.priority_from = 4;
        let w = s.pick().expect("work");
        assert_eq!(w.leaf, 2, "leaf 2 is below the depth: it goes first");
    }

    /// A revoked leaf's required work is counted as lost to load balancing.
    #[test]
    fn revoked_work_is_counted() {
        let mut s = state(10, &[(1, 9, 5)]);
        s.leaves.get_mut(&1).expect("leaf").nodes = 1234;
        s.apply(Msg::Revoke { leaf: 1 });
        assert_eq!(s.waste.revoked, 1234);
        assert!(s.leaves.is_empty());
    }

    /// Session 8: a cut required search resumes with `required_slice_growth` times its
    /// budget; a cut speculative one with twice its budget up to `speculative_slice_cap`.
    #[test]
    fn slice_growth_and_speculative_cap() {
        assert_eq!(grown_speculative_budget(2048, 0), 4096);
        assert_eq!(grown_speculative_budget(2048, 3000), 3000);
        assert_eq!(grown_speculative_budget(8192, 3000), 8192);
        let o = AphidOptions {
            required_slice_growth: 4,
            ..AphidOptions::default()
        };
        let searcher = Searcher::new(crate::search::SearchConfig::research()).expect("a table");
        let s = Slave::new(TicTacToe3::start(), 20, 2, &o, searcher);
        assert_eq!(s.state.slice_growth, 4);
        let searcher = Searcher::new(crate::search::SearchConfig::research()).expect("a table");
        let s = Slave::new(
            TicTacToe3::start(),
            20,
            2,
            &AphidOptions::default(),
            searcher,
        );
        assert_eq!(s.state.slice_growth, 2);
    }

    /// Session 8: with `cut_keeps_window` a search resumed after a cut keeps the cut
    /// search's window (same depth, not a bad bound); otherwise the scheduler's window.
    #[test]
    fn a_resumed_search_keeps_its_window() {
        let w = Work {
            leaf: 1,
            depth: 5,
            alpha: -10,
            beta: 10,
            required: true,
            bad: false,
            untouched: false,
        };
        let r = resumed_window(w, Some((5, -3, 17)), true);
        assert_eq!((r.alpha, r.beta, r.depth), (-3, 17, 5));
        assert_eq!(resumed_window(w, Some((5, -3, 17)), false), w);
        assert_eq!(resumed_window(w, Some((4, -3, 17)), true), w);
        let bad = Work { bad: true, ..w };
        assert_eq!(resumed_window(bad, Some((5, -3, 17)), true), bad);
        assert_eq!(resumed_window(w, None, true), w);
    }

    /// Session 8: `exact_spare` windows, and the slave with nothing required in the last
    /// iteration makes the highest-priority touched bound exact before untouched leaves.
    #[test]
    fn spare_time_makes_bounds_exact() {
        assert_eq!(exact_window(5, INFINITY, 20), Some((4, 25)));
        assert_eq!(exact_window(-INFINITY, 5, 20), Some((-15, 6)));
        assert_eq!(exact_window(-3, 8, 20), Some((-4, 9)));
        assert_eq!(exact_window(4, 4, 20), None);
        assert_eq!(exact_window(-INFINITY, INFINITY, 20), None);
        let mut s = state(10, &[(1, 9, 6), (2, 12, 6), (3, 0, 4)]);
        for id in [1, 2] {
            let l = s.leaves.get_mut(&id).expect("leaf");
            l.bounds.record(
                6,
                Bounds {
                    lower: 7,
                    upper: INFINITY,
                },
            );
        }
        let w = s.pick().expect("work");
        assert_eq!((w.leaf, w.untouched), (3, true), "off: untouched first");
        s.exact_spare = true;
        let w = s.pick().expect("work");
        assert_eq!(
            (w.leaf, w.depth, w.alpha, w.beta, w.required),
            (2, 6, 6, 7 + 2 * s.window, false)
        );
    }

    /// Session 8: with `catch_up_from = 2` a leaf far below its required depth (figure 5.3's
    /// leaf 7: nothing searched, 6 plies needed) starts at 4 plies; one within 2 plies of it
    /// goes on one ply at a time; run-ahead is unchanged.
    #[test]
    fn catch_up_starts_near_the_required_depth() {
        assert_eq!(catch_up_depth(0, 6, 0), 1);
        assert_eq!(catch_up_depth(0, 6, 2), 4);
        assert_eq!(catch_up_depth(4, 6, 2), 5);
        assert_eq!(catch_up_depth(5, 6, 2), 6);
        assert_eq!(catch_up_depth(6, 6, 2), 7);
        assert_eq!(catch_up_depth(0, 2, 3), 1);
        let mut s = state(10, &[(1, 9, 4), (4, 8, 3), (7, 5, 0)]);
        s.catch_up_from = 2;
        let w = s.pick().expect("work");
        assert_eq!((w.leaf, w.depth, w.required), (7, 4, true));
    }

    /// Figure 5.3, slave 1: leaves 1, 4 and 7 searched to 4, 3 and 0 plies; the 10-ply search
    /// with d' = 4 needs 6: leaf 7 goes first, to 1 ply.
    #[test]
    fn the_shallowest_leaf_goes_first() {
        let s = state(10, &[(1, 9, 4), (4, 8, 3), (7, 5, 0)]);
        let w = s.pick().expect("work");
        assert_eq!((w.leaf, w.depth, w.required), (7, 1, true));
    }

    /// Figure 5.3, slave 2: leaves 2 and 5 both at 5 plies; 2 is further left (higher
    /// priority) and is searched to 6 first. A leaf of priority 0 is never chosen.
    #[test]
    fn then_the_higher_priority() {
        let s = state(10, &[(2, 11, 5), (5, 9, 5), (8, 0, 0)]);
        let w = s.pick().expect("work");
        assert_eq!((w.leaf, w.depth), (2, 6));
    }

    /// Figure 5.6: a slave whose touched leaves all have the required depth extends them
    /// speculatively, highest priority first; a bad bound preempts everything.
    #[test]
    fn speculation_after_the_required_work_and_bad_bounds_first() {
        let mut s = state(10, &[(1112, 13, 6), (2111, 8, 6)]);
        let w = s.pick().expect("work");
        assert_eq!((w.leaf, w.depth, w.required), (1112, 7, false));
        s.leaves.get_mut(&2111).expect("leaf").bad = Some(BadBound {
            depth: 6,
            alpha: -3,
            beta: 4,
        });
        let w = s.pick().expect("work");
        assert_eq!(
            (w.leaf, w.depth, w.alpha, w.beta, w.bad),
            (2111, 6, -3, 4, true)
        );
        assert!(!s.is_done());
    }
}
