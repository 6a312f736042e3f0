//! APHID: Asynchronous Parallel Hierarchical Iterative Deepening (Brockington and Schaeffer
//! 1996; Brockington's thesis 1998, chapter 5), on `dib`'s worker model.
//!
//! Processor 0 is the master; the others are its slaves. The master owns the top `d'` plies
//! of the tree and makes repeated alpha-beta passes over them ([`master`]); the slaves own the
//! leaves of that tree and search them with iterative deepening, on their own schedule, with
//! windows centred on the master's hypothetical root value ([`slave`]). They share nothing but
//! the replicated APHID table ([`table`]), whose every write travels as a message
//! ([`message`]). Nobody waits for anybody: the master guesses ([`guess`]) where results are
//! missing, and a pass that needed no guess gives the exact `d`-ply value. Speculative results
//! (deeper than needed) never enter the value. See `README.md` beside this file.
//!
//! The processors run through [`dib::run_processors`] on every backend, MPI included (one
//! rank per processor, the master on rank 0): each processor is turned into a [`Summary`] of
//! what the result needs, which crosses ranks over MPI.

mod bad_bound;
pub mod balance;
pub mod config;
pub mod config_text;
pub mod figures;
pub mod guess;
pub mod hierarchy;
pub mod master;
pub mod message;
pub mod mid;
pub mod priority;
mod remap;
pub mod shadow;
pub mod slave;
mod stats;
pub mod table;

use std::sync::Arc;

use dib::{Activity, Context, DibCounters, DibError, Processor, Report};
use games::Game;
use serde::{Deserialize, Serialize};

pub use config::{AphidOptions, ConfigError, ConfigFileError, MasterSearch, PickOrder, TtSharing};
pub use config_text::ConfigTextError;
pub use figures::{AphidFigures, GeometryFigures};
pub use hierarchy::{Hierarchy, HierarchyError};

use master::Master;
use message::Msg;
use mid::Mid;
use remap::Remap;
use shadow::ShadowRing;
use slave::Slave;

use super::play::watch::Watch;
use super::{Figures, ParallelError, ParallelOptions, ParallelResult, result_from_report};
use crate::search::{SearchConfig, SearchError, Searcher, TranspositionTable};

/// A processor of an APHID run: the master (processor 0) or a slave.
#[derive(Debug)]
pub enum AphidProc<G: Game> {
    /// Processor 0.
    Master(Box<MasterProc<G>>),
    /// Every other processor without slaves of its own.
    Slave(Box<SlaveProc<G>>),
    /// A mid-level process of a hierarchy: a slave with slaves of its own.
    Mid(Box<MidProc<G>>),
}

/// The master behind an opaque name (with its slaves' numbers in a hierarchy).
#[derive(Debug)]
pub struct MasterProc<G: Game>(Master<G>, Option<Vec<usize>>);

/// A slave behind an opaque name (with its master's number in a hierarchy).
#[derive(Debug)]
pub struct SlaveProc<G: Game>(Slave<G>, Option<Vec<usize>>);

/// A mid-level process behind an opaque name.
#[derive(Debug)]
pub struct MidProc<G: Game>(Mid<G>);

impl<G: Game> Processor for AphidProc<G> {
    type Msg = Msg;

    fn run(&mut self, ctx: &mut dyn Context<Msg>) -> Activity {
        match self {
            AphidProc::Master(m) => match &m.1 {
                None => m.0.run(ctx),
                Some(routes) => m.0.run(&mut Remap::new(ctx, routes)),
            },
            AphidProc::Slave(s) => match &s.1 {
                None => s.0.run(ctx),
                Some(routes) => s.0.run(&mut Remap::new(ctx, routes)),
            },
            AphidProc::Mid(m) => m.0.run(ctx),
        }
    }
}

impl<G: Game> AphidProc<G> {
    /// What this processor did, in the runtime's counters: leaves received count as problems
    /// received, master messages applied (on the master: reports received) as updates, slaves
    /// presumed dead as work redone.
    fn counters(&self) -> DibCounters {
        match self {
            AphidProc::Master(m) => DibCounters {
                updates: m.0.stats.reports,
                work_redone: m.0.stats.deaths,
                ..DibCounters::default()
            },
            AphidProc::Slave(s) => DibCounters {
                problems_received: s.0.state.stats.leaves_received,
                updates: s.0.state.stats.updates,
                ..DibCounters::default()
            },
            AphidProc::Mid(m) => DibCounters {
                problems_received: m.0.state().stats.leaves_received,
                updates: m.0.state().stats.updates,
                ..DibCounters::default()
            },
        }
    }
}

/// What the result needs of one processor after the run (it crosses ranks over MPI).
#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
enum Summary<G: Game> {
    /// The master: its value and principal variation, and its part of the figures.
    Master {
        result: Option<(i32, Vec<G::Move>)>,
        figures: Box<AphidFigures>,
        counters: DibCounters,
    },
    /// A slave: its required, speculative and aborted nodes, and what its end of the shadow
    /// ring did (with `--tt distributed`).
    Slave {
        nodes: [u64; 3],
        shadow: Option<shadow::ShadowStats>,
        counters: DibCounters,
    },
    /// A mid-level process of a hierarchy.
    Mid {
        stats: mid::MidStats,
        counters: DibCounters,
    },
}

impl<G: Game> Summary<G> {
    fn of(p: AphidProc<G>) -> Summary<G> {
        let counters = p.counters();
        match p {
            AphidProc::Master(m) => {
                let master = m.0;
                let (touched, searched) = master.final_leaves();
                let st = &master.stats;
                let figures = AphidFigures {
                    leaves: master.leaves() as u64,
                    final_pass_leaves: touched as u64,
                    leaves_searched_to_depth: searched as u64,
                    master: *st,
                    geometry: master.geometry.map(|g| GeometryFigures {
                        master_depth: g.horizon,
                        granularity: g.granularity,
                        parallel_from: g.from,
                    }),
                    guesses: master.guesses,
                    ..AphidFigures::default()
                };
                Summary::Master {
                    result: master.result,
                    figures: Box::new(figures),
                    counters,
                }
            }
            AphidProc::Slave(s) => {
                let st = &s.0.state.stats;
                Summary::Slave {
                    nodes: [st.required_nodes, st.speculative_nodes, st.aborted_nodes],
                    shadow: s.0.state.shadow.as_ref().map(|r| r.stats),
                    counters,
                }
            }
            AphidProc::Mid(m) => Summary::Mid {
                stats: m.0.stats,
                counters,
            },
        }
    }

    fn counters(&self) -> DibCounters {
        match self {
            Summary::Master { counters, .. }
            | Summary::Slave { counters, .. }
            | Summary::Mid { counters, .. } => *counters,
        }
    }
}

/// The searchers of every processor: one table each, or one shared by all.
pub(crate) struct Engines {
    config: SearchConfig,
    shared: Option<Arc<TranspositionTable>>,
    /// The play setting: each processor's own table, kept from move to move (`None`: a new
    /// table per searcher, the research setting's runs).
    kept: Option<Vec<Arc<TranspositionTable>>>,
    /// A table known to build (a processor whose own table fails falls back on sharing it).
    fallback: Arc<TranspositionTable>,
    /// Every table handed out (each once), for the fill reported at the end.
    built: std::sync::Mutex<Vec<Arc<TranspositionTable>>>,
}

impl Engines {
    fn new(config: &SearchConfig, tt: TtSharing) -> Result<Engines, ParallelError> {
        let fallback = Arc::new(TranspositionTable::for_config(config).map_err(SearchError::from)?);
        Ok(Engines {
            config: *config,
            shared: (tt == TtSharing::Shared).then(|| Arc::clone(&fallback)),
            kept: None,
            fallback,
            built: std::sync::Mutex::new(Vec::new()),
        })
    }

    /// Engines whose tables (one per processor, or the shared one) are kept from run to run.
    fn kept(config: &SearchConfig, tt: TtSharing, procs: usize) -> Result<Engines, ParallelError> {
        let mut engines = Engines::new(config, tt)?;
        if engines.shared.is_none() {
            let tables = (0..procs)
                .map(|i| {
                    if i == 0 {
                        Ok(Arc::clone(&engines.fallback))
                    } else {
                        TranspositionTable::for_config(config)
                            .map(Arc::new)
                            .map_err(|e| ParallelError::from(SearchError::from(e)))
                    }
                })
                .collect::<Result<Vec<_>, _>>()?;
            engines.kept = Some(tables);
        }
        Ok(engines)
    }

    /// The searcher of processor `id`.
    fn build<G: Game>(&self, id: usize) -> Searcher<G> {
        let searcher = match (&self.shared, &self.kept) {
            (Some(t), _) => Searcher::with_table(self.config, Arc::clone(t)),
            (None, Some(kept)) => Searcher::with_table(
                self.config,
                Arc::clone(kept.get(id).unwrap_or(&self.fallback)),
            ),
            (None, None) => Searcher::new(self.config)
                .unwrap_or_else(|_| Searcher::with_table(self.config, Arc::clone(&self.fallback))),
        };
        if let Ok(mut built) = self.built.lock() {
            if !built.iter().any(|t| Arc::ptr_eq(t, searcher.table())) {
                built.push(Arc::clone(searcher.table()));
            }
        }
        searcher
    }

    /// Every table kept from run to run.
    fn tables(&self) -> Vec<Arc<TranspositionTable>> {
        match (&self.shared, &self.kept) {
            (Some(t), _) => vec![Arc::clone(t)],
            (None, Some(kept)) => kept.clone(),
            (None, None) => Vec::new(),
        }
    }

    /// The mean fill of the tables handed out, in permille (the UCI `hashfull`).
    fn hashfull(&self) -> Option<f64> {
        let built = self.built.lock().ok()?;
        (!built.is_empty()).then(|| {
            built.iter().map(|t| f64::from(t.hashfull())).sum::<f64>() / built.len() as f64
        })
    }
}

/// The options' hierarchy, checked against the options.
///
/// # Errors
/// [`ParallelError::BadOption`] for a shared table over MPI, a master depth of 0, or a
/// hierarchy of another size than the processors.
fn checked_tree(options: &ParallelOptions) -> Result<Hierarchy, ParallelError> {
    let opts = &options.aphid;
    if matches!(options.backend, dib::Backend::Mpi { .. }) && opts.tt == TtSharing::Shared {
        return Err(ParallelError::BadOption {
            algo: "aphid",
            message: "over MPI ranks share no memory: use local tables (--aphid-tt local), or a shared table on --backend threads or sim".to_string(),
        });
    }
    if opts.master_depth == Some(0) {
        return Err(ParallelError::BadOption {
            algo: "aphid",
            message: "the master's depth d' must be at least 1 (or automatic)".to_string(),
        });
    }
    let procs = options.procs;
    let tree = opts
        .hierarchy
        .clone()
        .unwrap_or_else(|| Hierarchy::flat(procs));
    if tree.procs() != procs {
        return Err(ParallelError::BadOption {
            algo: "aphid",
            message: format!(
                "the hierarchy has {} processes (the master included) but {procs} processors were given; use {} processors",
                tree.procs(),
                tree.procs()
            ),
        });
    }
    Ok(tree)
}

/// The processors of a run to `depth` (the master, mid-level processes and slaves of `tree`),
/// their searchers from `engines`; in the play setting the master records its iterations in
/// `watch` and ends when its clock says so.
fn processors<'a, G: Game>(
    root: &'a G,
    depth: u32,
    options: &'a ParallelOptions,
    tree: &'a Hierarchy,
    engines: &'a Engines,
    watch: Option<&'a Arc<Watch<G::Move>>>,
) -> impl Fn(usize) -> AphidProc<G> + Sync + 'a {
    let opts = &options.aphid;
    let flat = tree.is_flat();
    let node_ns = match &options.backend {
        dib::Backend::Sim(c) => c.cost.node_ns,
        _ => 0,
    };
    move |id: usize| -> AphidProc<G> {
        let children = tree.children(id);
        if id == 0 {
            let mut master = Master::new(
                root.clone(),
                depth,
                children.len() + 1,
                opts,
                opts.min_granularity,
                engines.build(id),
            );
            master.watch = watch.cloned();
            master.node_ns = node_ns;
            let routes = (!flat).then(|| std::iter::once(0).chain(children).collect());
            return AphidProc::Master(Box::new(MasterProc(master, routes)));
        }
        let parent = tree.parent(id).unwrap_or(0);
        let peers = tree.peers(id);
        let searcher = engines.build(id);
        if !children.is_empty() {
            let table = Arc::clone(searcher.table());
            return AphidProc::Mid(Box::new(MidProc(Mid::new(
                root.clone(),
                depth,
                parent,
                peers.len(),
                children,
                opts,
                opts.min_granularity,
                options.search,
                table,
            ))));
        }
        let ring = (opts.tt == TtSharing::Distributed)
            .then(|| {
                let leaves: Vec<usize> = peers
                    .iter()
                    .copied()
                    .filter(|&p| tree.children(p).is_empty())
                    .collect();
                ShadowRing::new(id, &leaves, Arc::clone(searcher.table()), opts)
            })
            .flatten();
        let mut slave = Slave::new(root.clone(), depth, peers.len() + 1, opts, searcher);
        slave.state.shadow = ring;
        let routes = (parent != 0).then(|| vec![parent]);
        AphidProc::Slave(Box::new(SlaveProc(slave, routes)))
    }
}

/// What APHID keeps from move to move in the play setting: its processors' tables.
pub(crate) struct AphidState {
    engines: Engines,
    tree: Hierarchy,
}

impl AphidState {
    /// The state of `options`' processors.
    ///
    /// # Errors
    /// As [`search`]'s option checks, or when a table cannot be built.
    pub(crate) fn new(options: &ParallelOptions) -> Result<AphidState, ParallelError> {
        let tree = checked_tree(options)?;
        let engines = Engines::kept(&options.search, options.aphid.tt, options.procs)?;
        Ok(AphidState { engines, tree })
    }

    /// Forgets what earlier searches learnt (a new game).
    pub(crate) fn clear(&self) {
        for t in self.engines.tables() {
            t.clear();
        }
    }

    /// The tables' mean fill in permille.
    pub(crate) fn hashfull(&self) -> u32 {
        let tables = self.engines.tables();
        let sum: u32 = tables.iter().map(|t| t.hashfull()).sum();
        sum / u32::try_from(tables.len().max(1)).unwrap_or(1)
    }

    /// The processors of one move's run under `watch`, deepening to at most `depth`.
    pub(crate) fn processors<'a, G: Game>(
        &'a self,
        root: &'a G,
        depth: u32,
        options: &'a ParallelOptions,
        watch: &'a Arc<Watch<G::Move>>,
    ) -> impl Fn(usize) -> AphidProc<G> + Sync + 'a {
        for t in self.engines.tables() {
            t.new_generation();
        }
        processors(root, depth, options, &self.tree, &self.engines, Some(watch))
    }
}

/// Searches `root` to `options.depth` plies with APHID (`options.aphid` for its own settings).
///
/// # Errors
/// [`ParallelError`] when the table cannot be built, a shared table is asked for over MPI
/// (ranks share no memory), or the runtime fails.
pub fn search<G: Game>(
    root: &G,
    options: &ParallelOptions,
) -> Result<ParallelResult<G::Move>, ParallelError> {
    let opts = &options.aphid;
    let tree = checked_tree(options)?;
    let backend = options.backend.clone();
    let engines = Engines::new(&options.search, opts.tt)?;
    let procs = options.procs;
    let flat = tree.is_flat();
    let factory = processors(root, options.depth, options, &tree, &engines, None);
    let outcome = dib::run_processors(procs, &backend, &factory, &Summary::of)?;
    let Some(Summary::Master {
        result, figures, ..
    }) = outcome.processors.first()
    else {
        return Err(DibError::NoValue { seed: None }.into());
    };
    let seed = outcome.sim.map(|s| s.seed);
    let (value, pv) = result.clone().ok_or(DibError::NoValue { seed })?;
    let mut figures = AphidFigures::clone(figures);
    let mut ring = shadow::ShadowStats::default();
    let mut mids = mid::MidStats::default();
    let mut mid_count = 0;
    for p in &outcome.processors {
        match p {
            Summary::Slave { nodes, shadow, .. } => {
                let [required, speculative, aborted] = *nodes;
                figures.slave_required_nodes += required;
                figures.slave_speculative_nodes += speculative;
                figures.aborted_nodes += aborted;
                if let Some(r) = shadow {
                    ring += *r;
                }
            }
            Summary::Mid { stats, .. } => {
                mids += *stats;
                mid_count += 1;
            }
            Summary::Master { .. } => {}
        }
    }
    figures.shadow = (opts.tt == TtSharing::Distributed).then_some(ring);
    figures.mids = (!flat).then_some(mids);
    // The master and every mid-level process of a hierarchy are masters (thesis 6.2.6).
    figures.master_processors = 1 + mid_count;
    // The master's share of processor 0: its busy and messaging time over the run's.
    let master_time = outcome
        .counters
        .first()
        .map_or(0, |c| c.busy_ns + c.messaging_ns);
    figures.master_cpu_share = master_time as f64 / outcome.elapsed_ns.max(1) as f64;
    let config = options
        .dib
        .unwrap_or_else(|| options.backend.default_config());
    let report: Report<i32> =
        Report::from_outcome(value, &backend, &outcome, Summary::counters, config);
    let table = Figures {
        hashfull: engines.hashfull().map(f64::round),
        ..Figures::default()
    };
    let mut result = result_from_report(report, value, pv, table);
    result.aphid = Some(figures);
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::tictactoe::TicTacToe3;

    #[test]
    fn a_shared_table_over_mpi_is_refused_with_the_fix() {
        let mut options = ParallelOptions::new(3, 2, dib::Backend::Mpi { seed: 1 });
        options.aphid.tt = TtSharing::Shared;
        let err = search(&TicTacToe3::start(), &options).expect_err("refused");
        assert!(matches!(
            err,
            ParallelError::BadOption { algo: "aphid", .. }
        ));
        assert!(err.to_string().contains("--aphid-tt local"), "{err}");
    }
}
