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
use serde::{Deserialize, Serialize};

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

/// What the result needs of one processor after the run (it crosses ranks over MPI).
#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
enum Summary<G: Game> {
    /// The master: its value and principal variation, and [`MASTER_FIGURES`] in order.
    Master {
        result: Option<(i32, Vec<G::Move>)>,
        figures: Vec<f64>,
        counters: DibCounters,
    },
    /// A slave: its required, speculative and aborted nodes.
    Slave {
        nodes: [u64; 3],
        counters: DibCounters,
    },
}

/// The master's figures in the result's `extra` (the last three only once the master chose
/// its geometry).
const MASTER_FIGURES: [&str; 13] = [
    "aphid_leaves",
    "aphid_final_pass_leaves",
    "aphid_leaves_searched_to_depth",
    "aphid_passes",
    "aphid_master_nodes",
    "aphid_sequential_nodes",
    "aphid_bad_bounds",
    "aphid_moves",
    "aphid_exemptions",
    "aphid_resends",
    "aphid_master_depth",
    "aphid_granularity",
    "aphid_parallel_from",
];

impl<G: Game> Summary<G> {
    fn of(p: AphidProc<G>) -> Summary<G> {
        let counters = p.counters();
        match p {
            AphidProc::Master(m) => {
                let master = m.0;
                let (touched, searched) = master.final_leaves();
                let st = &master.stats;
                let mut figures = vec![
                    master.leaves() as f64,
                    touched as f64,
                    searched as f64,
                    st.passes as f64,
                    (st.pass_nodes + st.search_nodes) as f64,
                    st.sequential_nodes as f64,
                    st.bad_bounds as f64,
                    st.moves as f64,
                    st.exemptions as f64,
                    st.resends as f64,
                ];
                if let Some(g) = master.geometry {
                    figures.extend([g.horizon, g.granularity, g.from].map(f64::from));
                }
                Summary::Master {
                    result: master.result,
                    figures,
                    counters,
                }
            }
            AphidProc::Slave(s) => {
                let st = &s.0.state.stats;
                Summary::Slave {
                    nodes: [st.required_nodes, st.speculative_nodes, st.aborted_nodes],
                    counters,
                }
            }
        }
    }

    fn counters(&self) -> DibCounters {
        match self {
            Summary::Master { counters, .. } | Summary::Slave { counters, .. } => *counters,
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
/// [`ParallelError`] when the table cannot be built, a shared table is asked for over MPI
/// (ranks share no memory), or the runtime fails.
pub fn search<G: Game>(
    root: &G,
    options: &ParallelOptions,
) -> Result<ParallelResult<G::Move>, ParallelError> {
    let opts = &options.aphid;
    if matches!(options.backend, dib::Backend::Mpi { .. }) && opts.tt == TtSharing::Shared {
        return Err(ParallelError::BadOption {
            algo: "aphid",
            message: "over MPI ranks share no memory: use local tables (--tt local), or a shared table on --backend threads or sim".to_string(),
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
    let outcome = dib::run_processors(procs, &options.backend, &factory, &Summary::of)?;
    let Some(Summary::Master {
        result, figures, ..
    }) = outcome.processors.first()
    else {
        return Err(DibError::NoValue { seed: None }.into());
    };
    let seed = outcome.sim.map(|s| s.seed);
    let (value, pv) = result.clone().ok_or(DibError::NoValue { seed })?;
    let mut extra: Vec<(&'static str, f64)> = MASTER_FIGURES
        .iter()
        .copied()
        .zip(figures.iter().copied())
        .collect();
    let mut slave_nodes = [0u64; 3];
    for p in &outcome.processors {
        if let Summary::Slave { nodes, .. } = p {
            for (sum, n) in slave_nodes.iter_mut().zip(nodes) {
                *sum += n;
            }
        }
    }
    let [required, speculative, aborted] = slave_nodes;
    extra.push(("aphid_slave_required_nodes", required as f64));
    extra.push(("aphid_speculative_nodes", speculative as f64));
    extra.push(("aphid_aborted_nodes", aborted as f64));
    let config = options
        .dib
        .unwrap_or_else(|| options.backend.default_config());
    let report: Report<i32> =
        Report::from_outcome(value, &options.backend, &outcome, Summary::counters, config);
    Ok(result_from_report(report, value, pv, extra))
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
        assert!(err.to_string().contains("--tt local"), "{err}");
    }
}
