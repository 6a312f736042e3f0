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
pub mod guess;
pub mod master;
pub mod message;
pub mod overhead;
pub mod priority;
pub mod slave;
pub mod table;

use std::sync::Arc;

use dib::{Activity, Context, DibCounters, DibError, Processor, Report};
use games::Game;

pub use config::{AphidOptions, ConfigError, TtSharing};
pub use overhead::{Overheads, RunFigures};

use master::Master;
use message::Msg;
use slave::Slave;

use super::{ParallelError, ParallelOptions, ParallelResult, result_from_report};
use crate::search::{SearchConfig, SearchError, Searcher, TranspositionTable, TtMode};

/// A processor of an APHID run: the master (processor 0) or a slave.
#[derive(Debug)]
pub enum AphidProc<G: Game> {
    /// Processor 0.
    Master(Box<MasterProc<G>>),
    /// Every other processor.
    Slave(Box<SlaveProc<G>>),
}

/// The master behind an opaque name.
#[derive(Debug)]
pub struct MasterProc<G: Game>(Master<G>);

/// A slave behind an opaque name.
#[derive(Debug)]
pub struct SlaveProc<G: Game>(Slave<G>);

impl<G: Game> Processor for AphidProc<G> {
    type Msg = Msg;

    fn run(&mut self, ctx: &mut dyn Context<Msg>) -> Activity {
        match self {
            AphidProc::Master(m) => m.0.run(ctx),
            AphidProc::Slave(s) => s.0.run(ctx),
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
    let factory = |id: usize| -> AphidProc<G> {
        if id == 0 {
            AphidProc::Master(Box::new(MasterProc(Master::new(
                root.clone(),
                depth,
                procs,
                opts,
                options.min_split_depth,
                engines.build(),
            ))))
        } else {
            AphidProc::Slave(Box::new(SlaveProc(Slave::new(
                root.clone(),
                depth,
                procs,
                opts,
                engines.build(),
            ))))
        }
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
    for p in &outcome.processors {
        if let AphidProc::Slave(s) = p {
            required += s.0.state.stats.required_nodes;
            speculative += s.0.state.stats.speculative_nodes;
            aborted += s.0.state.stats.aborted_nodes;
        }
    }
    extra.push(("aphid_slave_required_nodes", required as f64));
    extra.push(("aphid_speculative_nodes", speculative as f64));
    extra.push(("aphid_aborted_nodes", aborted as f64));
    // The names `runner compare` reads for the thesis 6.2.6 columns: one processor is the
    // master, and the speculative search counts abandoned speculative slices too.
    extra.push(("master_processors", 1.0));
    extra.push(("speculative_nodes", (speculative + aborted) as f64));
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
