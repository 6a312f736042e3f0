//! A mid-level process of a hierarchy (thesis 5.2.4): a slave to its master and a master to
//! its own slaves.
//!
//! Towards its master it behaves exactly as a slave: the same copy of the table, the same
//! scheduler (bad bounds, then the shallowest touched leaf, then priority, then one ply of
//! speculative run-ahead), the same buffered reports and heartbeats (`slave/`). Where a
//! slave searches a piece of work itself, a mid-level process runs a *job*: an APHID
//! master (`master/`, unchanged) rooted at the leaf, to the depth the work asks for, whose
//! slaves are the process's own slaves. The job's first iterations run on the mid-level
//! process itself, and go parallel once the leaf's tree is big enough (the same automatic
//! `d'` and `g`). When the job's root value is known (exactly: its passes use an infinite
//! window) it is reported to the master as the leaf's result at that depth. A speculative
//! job is abandoned when required work arrives, and any job when its leaf is taken
//! away.
//!
//! The job speaks to its slaves on whole paths from the root, so the slaves (which may be
//! mid-level processes in turn) need no idea of the hierarchy: leaf numbers are renamed to
//! numbers unique over the process's jobs, paths get the leaf's path in front, the
//! iteration the leaf's ply added, and the hypothetical value is turned to the root's side.
//! A new job starts with [`Msg::Restart`] (its iteration may be lower than the last
//! job's) and ends by revoking its leaves.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use dib::{Activity, Context, Envelope, Nanos, ProcId, Rng};
use games::Game;
use games::score::INFINITY;

use super::config::AphidOptions;
use super::master::Master;
use super::message::{Epoch, Msg};
use super::remap::Remap;
use super::slave::{Slave, SlaveState, Work};
use super::table::LeafId;
use crate::search::{SearchConfig, Searcher, TranspositionTable};

super::stats::counters! {
    /// What a mid-level process counts (reported summed over the mid-level processes as
    /// `aphid_mid_<counter>`).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct MidStats, prefix "aphid_mid_" {
        /// Jobs run to the end (results reported).
        pub jobs,
        /// Jobs abandoned (speculative work interrupted, or the leaf moved away).
        pub abandoned,
        /// Nodes of the jobs' masters (sequential iterations and passes).
        pub nodes,
        /// Leaves given to its own slaves.
        pub leaves_given,
    }
}

/// One piece of the master's work, searched in parallel below the mid-level process.
struct Job<G: Game> {
    work: Work,
    /// The leaf's path and ply from the root.
    path: Vec<u16>,
    master: Master<G>,
    /// Job leaf -> (number on the wire, current owner: index into `children`).
    wire: BTreeMap<LeafId, (LeafId, usize)>,
    back: BTreeMap<LeafId, LeafId>,
    inbox: VecDeque<Envelope<Msg>>,
}

/// A job's epoch (iteration from the leaf, value on the leaf's side) as the root's, for
/// a leaf `ply` plies down.
fn to_root(e: Epoch, ply: u32) -> Epoch {
    Epoch {
        iteration: e.iteration + ply,
        hypothesis: if ply % 2 == 0 {
            e.hypothesis
        } else {
            -e.hypothesis
        },
    }
}

/// A mid-level process.
pub(crate) struct Mid<G: Game> {
    parent: ProcId,
    children: Vec<ProcId>,
    /// Towards the master: a slave's state (its search engine is never used).
    slave: Slave<G>,
    paths: BTreeMap<LeafId, Vec<u16>>,
    config: SearchConfig,
    table: Arc<TranspositionTable>,
    opts: AphidOptions,
    min_granularity: u32,
    job: Option<Job<G>>,
    next_wire: LeafId,
    pub(crate) stats: MidStats,
}

impl<G: Game> std::fmt::Debug for Mid<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mid")
            .field("parent", &self.parent)
            .field("children", &self.children)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl<G: Game> Mid<G> {
    /// `peers`: slaves of `parent` (for the report buffer's size); `table`: this process's own.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        root: G,
        target: u32,
        parent: ProcId,
        peers: usize,
        children: Vec<ProcId>,
        opts: &AphidOptions,
        min_granularity: u32,
        config: SearchConfig,
        table: Arc<TranspositionTable>,
    ) -> Self {
        let slave = Slave::new(
            root,
            target,
            peers + 1,
            opts,
            Searcher::with_table(config, Arc::clone(&table)),
        );
        Mid {
            parent,
            children,
            slave,
            paths: BTreeMap::new(),
            config,
            table,
            opts: opts.clone(),
            min_granularity,
            job: None,
            next_wire: 0,
            stats: MidStats::default(),
        }
    }

    /// The parent-facing state.
    pub(crate) fn state(&self) -> &SlaveState<G> {
        &self.slave.state
    }

    /// One slice: read the inbox, start or advance a job, report.
    pub(crate) fn run(&mut self, ctx: &mut dyn Context<Msg>) -> Activity {
        let up = [self.parent];
        while let Some(env) = ctx.poll() {
            if env.from == self.parent {
                if let Msg::Assign { leaf, path, .. } = &env.msg {
                    self.paths.insert(*leaf, path.clone());
                }
                self.slave.state.apply(env.msg);
            } else if let Some(s) = &mut self.job {
                if let Some(i) = self.children.iter().position(|&c| c == env.from) {
                    s.inbox.push_back(Envelope {
                        from: i + 1,
                        msg: env.msg,
                    });
                }
            }
        }
        self.slave.state.flush_urgent(&mut Remap::new(ctx, &up));
        let abandon = self.job.as_ref().is_some_and(|s| {
            let state = &self.slave.state;
            state.position(s.work.leaf).is_none() || (!s.work.required && state.interrupt)
        });
        if abandon {
            self.stats.abandoned += 1;
            self.end_job(ctx);
        }
        if self.job.is_none() {
            let Some(work) = self.slave.state.pick() else {
                self.slave.state.report_if_idle(&mut Remap::new(ctx, &up));
                return Activity::Idle { wake_at: None };
            };
            self.start_job(work, ctx);
        }
        let Some(s) = &mut self.job else {
            return Activity::Busy;
        };
        let before = s.master.stats.pass_nodes + s.master.stats.search_nodes;
        let mut down = Down {
            inner: &mut *ctx,
            children: &self.children,
            job_wire: &mut s.wire,
            back: &mut s.back,
            inbox: &mut s.inbox,
            path: &s.path,
            next_wire: &mut self.next_wire,
            leaves_given: &mut self.stats.leaves_given,
        };
        let activity = s.master.run(&mut down);
        let nodes = s.master.stats.pass_nodes + s.master.stats.search_nodes;
        self.stats.nodes += nodes - before;
        if let Some((value, _)) = s.master.result.clone() {
            let work = Work {
                alpha: -INFINITY,
                beta: INFINITY,
                ..s.work
            };
            self.stats.jobs += 1;
            self.end_job(ctx);
            self.slave
                .state
                .complete(work, value, nodes, &mut Remap::new(ctx, &up));
            return Activity::Busy;
        }
        let beat = self.slave.state.keep_alive(&mut Remap::new(ctx, &up));
        match activity {
            Activity::Busy => Activity::Busy,
            Activity::Idle { wake_at } => Activity::Idle {
                wake_at: Some(wake_at.map_or(beat, |w| w.min(beat))),
            },
        }
    }

    fn start_job(&mut self, work: Work, ctx: &mut dyn Context<Msg>) {
        let Some((position, _)) = self.slave.state.position(work.leaf) else {
            return;
        };
        let Some(path) = self.paths.get(&work.leaf).cloned() else {
            return;
        };
        self.slave.state.interrupt = false;
        let master = Master::new(
            position,
            work.depth,
            self.children.len() + 1,
            &self.opts,
            self.min_granularity,
            Searcher::with_table(self.config, Arc::clone(&self.table)),
        );
        let job = Job {
            work,
            path,
            master,
            wire: BTreeMap::new(),
            back: BTreeMap::new(),
            inbox: VecDeque::new(),
        };
        let epoch = to_root(
            Epoch {
                iteration: 0,
                hypothesis: 0,
            },
            job.path.len() as u32,
        );
        for &c in &self.children {
            ctx.send(c, Msg::Restart(epoch));
        }
        self.job = Some(job);
    }

    /// Revokes the job's leaves from their owners.
    fn end_job(&mut self, ctx: &mut dyn Context<Msg>) {
        let Some(s) = self.job.take() else {
            return;
        };
        for (wire, owner) in s.wire.values() {
            if let Some(&to) = self.children.get(*owner) {
                ctx.send(to, Msg::Revoke { leaf: *wire });
            }
        }
    }
}

/// Towards the job's slaves: local `i` is `children[i - 1]`; messages renamed (see the
/// module docs); `finish` ends the job only (the master's result is read after the slice).
struct Down<'a> {
    inner: &'a mut dyn Context<Msg>,
    children: &'a [ProcId],
    job_wire: &'a mut BTreeMap<LeafId, (LeafId, usize)>,
    back: &'a mut BTreeMap<LeafId, LeafId>,
    inbox: &'a mut VecDeque<Envelope<Msg>>,
    path: &'a [u16],
    next_wire: &'a mut LeafId,
    leaves_given: &'a mut u64,
}

impl Down<'_> {
    fn epoch(&self, e: Epoch) -> Epoch {
        to_root(e, self.path.len() as u32)
    }

    fn wire(&mut self, leaf: LeafId, owner: Option<usize>) -> LeafId {
        if let Some(entry) = self.job_wire.get_mut(&leaf) {
            if let Some(o) = owner {
                entry.1 = o;
            }
            return entry.0;
        }
        let w = *self.next_wire;
        *self.next_wire = self.next_wire.wrapping_add(1);
        self.job_wire.insert(leaf, (w, owner.unwrap_or(0)));
        self.back.insert(w, leaf);
        w
    }
}

impl Context<Msg> for Down<'_> {
    fn id(&self) -> ProcId {
        self.inner.id()
    }
    fn procs(&self) -> usize {
        self.children.len() + 1
    }
    fn now(&self) -> Nanos {
        self.inner.now()
    }
    fn rng(&mut self) -> &mut Rng {
        self.inner.rng()
    }
    fn send(&mut self, to: ProcId, msg: Msg) {
        let Some(&global) = to.checked_sub(1).and_then(|i| self.children.get(i)) else {
            return;
        };
        let owner = to - 1;
        let msg = match msg {
            Msg::Assign {
                epoch,
                leaf,
                path,
                priority,
                bad,
            } => {
                *self.leaves_given += 1;
                let mut full = self.path.to_vec();
                full.extend_from_slice(&path);
                Msg::Assign {
                    epoch: self.epoch(epoch),
                    leaf: self.wire(leaf, Some(owner)),
                    path: full,
                    priority,
                    bad,
                }
            }
            Msg::Priorities { epoch, changes } => Msg::Priorities {
                epoch: self.epoch(epoch),
                changes: changes
                    .into_iter()
                    .map(|(l, p)| (self.wire(l, None), p))
                    .collect(),
            },
            Msg::Epoch(e) => Msg::Epoch(self.epoch(e)),
            Msg::Restart(e) => Msg::Restart(self.epoch(e)),
            Msg::BadBound { epoch, leaf, bad } => Msg::BadBound {
                epoch: self.epoch(epoch),
                leaf: self.wire(leaf, None),
                bad,
            },
            Msg::Revoke { leaf } => Msg::Revoke {
                leaf: self.wire(leaf, None),
            },
            other @ (Msg::Report { .. } | Msg::Shadow { .. }) => other,
        };
        self.inner.send(global, msg);
    }
    fn poll(&mut self) -> Option<Envelope<Msg>> {
        let ply = self.path.len() as u32;
        while let Some(env) = self.inbox.pop_front() {
            let Msg::Report {
                results,
                done,
                iteration,
            } = env.msg
            else {
                continue;
            };
            let results = results
                .into_iter()
                .filter_map(|mut r| {
                    r.leaf = *self.back.get(&r.leaf)?;
                    Some(r)
                })
                .collect();
            return Some(Envelope {
                from: env.from,
                msg: Msg::Report {
                    results,
                    done: done && iteration >= ply,
                    iteration: iteration.saturating_sub(ply),
                },
            });
        }
        None
    }
    fn charge(&mut self, nodes: u64) {
        self.inner.charge(nodes);
    }
    fn charge_work(&mut self, work: &dib::Work) {
        self.inner.charge_work(work);
    }
    fn finish(&mut self) {}
    fn slice_nodes(&self) -> Option<u64> {
        self.inner.slice_nodes()
    }
}
