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

pub mod balance;
pub mod config;
pub mod config_text;
pub mod guess;
pub mod hierarchy;
pub mod master;
pub mod message;
pub mod mid;
pub mod overhead;
pub mod priority;
mod remap;
pub mod shadow;
pub mod slave;
pub mod table;

use std::sync::Arc;

use dib::{Activity, Context, DibCounters, DibError, Processor, Report};
use games::Game;

pub use config::{AphidOptions, ConfigError, ConfigFileError, TtSharing};
pub use config_text::ConfigTextError;
pub use hierarchy::{Hierarchy, HierarchyError};
pub use overhead::{Overheads, RunFigures};

use master::Master;
use message::Msg;
use mid::Mid;
use remap::Remap;
use shadow::ShadowRing;
use slave::Slave;

use super::{ParallelError, ParallelOptions, ParallelResult, result_from_report};
use crate::search::{SearchConfig, SearchError, Searcher, TranspositionTable, TtMode};

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

/// The searchers of every processor: one table each, or one shared by all.
struct Engines {
    config: SearchConfig,
    shared: Option<Arc<TranspositionTable>>,
    /// A table known to build (a processor whose own table fails falls back on sharing it).
    fallback: Arc<TranspositionTable>,
}

impl Engines {
    fn new(config: &SearchConfig, tt: TtSharing) -> Result<Engines, ParallelError> {
        let mib = if config.tt_mode == TtMode::Off {
            0
        } else {
            config.tt_mib
        };
        let fallback = Arc::new(TranspositionTable::new(mib).map_err(SearchError::from)?);
        Ok(Engines {
            config: *config,
            shared: (tt == TtSharing::Shared).then(|| Arc::clone(&fallback)),
            fallback,
        })
    }

    fn build<G: Game>(&self) -> Searcher<G> {
        match &self.shared {
            Some(t) => Searcher::with_table(self.config, Arc::clone(t)),
            None => Searcher::new(self.config)
                .unwrap_or_else(|_| Searcher::with_table(self.config, Arc::clone(&self.fallback))),
        }
    }
}

/// Searches `root` to `options.depth` plies with APHID (`options.aphid` for its own settings).
///
/// # Errors
/// [`ParallelError`] when the table cannot be built, the backend is MPI (not supported yet),
/// or the runtime fails.
pub fn search<G: Game>(
    root: &G,
    options: &ParallelOptions,
) -> Result<ParallelResult<G::Move>, ParallelError> {
    let opts = &options.aphid;
    if matches!(options.backend, dib::Backend::Mpi { .. }) {
        return Err(ParallelError::BadOption {
            algo: "aphid",
            message: "APHID runs on --backend threads or sim; it has no MPI path yet".to_string(),
        });
    }
    if opts.master_depth == Some(0) {
        return Err(ParallelError::BadOption {
            algo: "aphid",
            message: "the master's depth d' must be at least 1 (or automatic)".to_string(),
        });
    }
    let engines = Engines::new(&options.search, opts.tt)?;
    let depth = options.depth;
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
    let flat = tree.is_flat();
    let factory = |id: usize| -> AphidProc<G> {
        let children = tree.children(id);
        if id == 0 {
            let master = Master::new(
                root.clone(),
                depth,
                children.len() + 1,
                opts,
                options.min_split_depth,
                engines.build(),
            );
            let routes = (!flat).then(|| std::iter::once(0).chain(children).collect());
            return AphidProc::Master(Box::new(MasterProc(master, routes)));
        }
        let parent = tree.parent(id).unwrap_or(0);
        let peers = tree.peers(id);
        let searcher = engines.build();
        if !children.is_empty() {
            let table = Arc::clone(searcher.table());
            return AphidProc::Mid(Box::new(MidProc(Mid::new(
                root.clone(),
                depth,
                parent,
                peers.len(),
                children,
                opts,
                options.min_split_depth,
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
    };
    let outcome = dib::run_processors(procs, &options.backend, &factory)?;
    let Some(AphidProc::Master(master)) = outcome.processors.first() else {
        return Err(DibError::NoValue { seed: None }.into());
    };
    let master = &master.0;
    let seed = outcome.sim.map(|s| s.seed);
    let (value, pv) = master.result.clone().ok_or(DibError::NoValue { seed })?;
    let (touched, searched) = master.final_leaves();
    let mut extra = vec![
        ("aphid_leaves", master.leaves() as f64),
        ("aphid_final_pass_leaves", touched as f64),
        ("aphid_leaves_searched_to_depth", searched as f64),
        ("aphid_passes", master.stats.passes as f64),
        (
            "aphid_master_nodes",
            (master.stats.pass_nodes + master.stats.search_nodes) as f64,
        ),
        (
            "aphid_sequential_nodes",
            master.stats.sequential_nodes as f64,
        ),
        ("aphid_bad_bounds", master.stats.bad_bounds as f64),
        ("aphid_moves", master.stats.moves as f64),
        ("aphid_exemptions", master.stats.exemptions as f64),
        ("aphid_resends", master.stats.resends as f64),
    ];
    if let Some(g) = master.geometry {
        extra.push(("aphid_master_depth", f64::from(g.horizon)));
        extra.push(("aphid_granularity", f64::from(g.granularity)));
        extra.push(("aphid_parallel_from", f64::from(g.from)));
    }
    let (mut required, mut speculative, mut aborted) = (0, 0, 0);
    let mut ring = shadow::ShadowStats::default();
    let mut mids = mid::MidStats::default();
    for p in &outcome.processors {
        match p {
            AphidProc::Slave(s) => {
                required += s.0.state.stats.required_nodes;
                speculative += s.0.state.stats.speculative_nodes;
                aborted += s.0.state.stats.aborted_nodes;
                if let Some(r) = &s.0.state.shadow {
                    ring.tables_sent += r.stats.tables_sent;
                    ring.entries_sent += r.stats.entries_sent;
                    ring.tables_returned += r.stats.tables_returned;
                    ring.tables_received += r.stats.tables_received;
                    ring.entries_inserted += r.stats.entries_inserted;
                    ring.flagged_updates += r.stats.flagged_updates;
                }
            }
            AphidProc::Mid(m) => {
                mids.sessions += m.0.stats.sessions;
                mids.abandoned += m.0.stats.abandoned;
                mids.nodes += m.0.stats.nodes;
                mids.leaves_given += m.0.stats.leaves_given;
            }
            AphidProc::Master(_) => {}
        }
    }
    extra.push(("aphid_slave_required_nodes", required as f64));
    extra.push(("aphid_speculative_nodes", speculative as f64));
    extra.push(("aphid_aborted_nodes", aborted as f64));
    if opts.tt == TtSharing::Distributed {
        extra.push(("aphid_shadow_tables_sent", ring.tables_sent as f64));
        extra.push(("aphid_shadow_entries_sent", ring.entries_sent as f64));
        extra.push(("aphid_shadow_tables_returned", ring.tables_returned as f64));
        extra.push(("aphid_shadow_tables_received", ring.tables_received as f64));
        extra.push((
            "aphid_shadow_entries_inserted",
            ring.entries_inserted as f64,
        ));
        extra.push(("aphid_shadow_flagged_updates", ring.flagged_updates as f64));
    }
    if !flat {
        extra.push(("aphid_mid_sessions", mids.sessions as f64));
        extra.push(("aphid_mid_abandoned", mids.abandoned as f64));
        extra.push(("aphid_mid_nodes", mids.nodes as f64));
        extra.push(("aphid_mid_leaves_given", mids.leaves_given as f64));
    }
    let config = options
        .dib
        .unwrap_or_else(|| options.backend.default_config());
    let report: Report<i32> = Report::from_outcome(
        value,
        &options.backend,
        &outcome,
        AphidProc::counters,
        config,
    );
    Ok(result_from_report(report, value, pv, extra))
}
