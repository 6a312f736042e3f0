//! The parallel control modules: one interface for every parallel alpha-beta algorithm.
//!
//! Every algorithm is a module of this folder with one entry point of the same shape,
//!
//! ```text
//! pub fn search<G: Game>(root: &G, options: &ParallelOptions) -> Result<ParallelResult<G::Move>, ParallelError>
//! ```
//!
//! registered once in the `algorithms!` list below with its command-line name, a one-line
//! description and its paper. [`search`] dispatches on [`ParallelAlgo`], so the runner, the
//! experiments and the value-agreement tests never name a concrete algorithm. Every algorithm
//! runs on every `dib` backend and must return exactly the value of sequential alpha-beta at the
//! same depth (research setting; table off or exact-depth).

use std::fmt;
use std::str::FromStr;

use dib::{Backend, DibConfig, DibError, ProcAccounts, SimFigures};
use games::Game;
use serde::Serialize;

use crate::search::{SearchConfig, SearchError};

pub use algo_options::{AlgoOptions, BadAlgoOption};
pub use figures::Figures;

/// Options shared by every parallel algorithm.
#[derive(Clone, Debug)]
pub struct ParallelOptions {
    /// Search depth in plies from the root (fixed depth: the research setting).
    pub depth: u32,
    /// Number of processors.
    pub procs: usize,
    /// Where the processors run.
    pub backend: Backend,
    /// Runtime parameters (quantum, timeouts); `None` takes the backend's defaults.
    pub dib: Option<DibConfig>,
    /// The sequential search each processor runs below the parallel part (its table mode,
    /// sorting regime, ordering). Parallel runs use the research setting.
    pub search: SearchConfig,
    /// Problems with fewer plies left than this are searched where they are, never split or
    /// given away (granularity).
    pub min_split_depth: u32,
    /// Tree splitting: how many plies below the root the processor tree reaches.
    pub split_depth: u32,
    /// The options of single algorithms (MWF's and DMWF's, delay splitting's, ER's, tree
    /// splitting's and PV splitting's), as given: each family's accessors answer the default
    /// where nothing was given.
    pub algo: AlgoOptions,
    /// DMWF: the percentile of their siblings' static values above which children of a type-1
    /// node are treated as type 1 (Rezaie and Finkel section 6: 90).
    pub dmwf_percentile: u32,
    /// APHID's own settings (horizon, granularity, windows, balancing, tables).
    pub aphid: aphid::AphidOptions,
    /// The split engine's transposition tables (mwf, dmwf, treesplit, pvsplit, er): one
    /// global table, or one local table per processor.
    pub split_tables: split_ab::SplitTables,
    /// Common-depth splitting (`cdsplit`, the two-PDP-11 thesis): the nodes at most this many plies
    /// below the root are shared (CD).
    pub common_depth: u32,
    /// Common-depth splitting: strategy A (variable common depth, the default) or B (fixed).
    pub cd_strategy: cdsplit::CdStrategy,
}

/// The work of `nodes` nodes a searcher visited (quiescence included, look-ahead not) split
/// by the kinds its counters saw since the last charge (`new`): horizon leaves and quiescence
/// nodes apart, the look-ahead nodes as static evaluations, the table probes as shared-table probes
/// when the searcher's table is shared by the processors.
pub(crate) fn work_of(nodes: u64, new: crate::search::KindTally, shared_table: bool) -> dib::Work {
    let quiescence = new.quiescence.min(nodes);
    let horizon = new.horizon.min(nodes - quiescence);
    let (table_probes, shared_probes) = if shared_table {
        (0, new.tt_probes)
    } else {
        (new.tt_probes, 0)
    };
    dib::Work {
        search: nodes - quiescence - horizon,
        horizon,
        quiescence,
        static_eval: new.sort_nodes,
        control: 0,
        frames: 0,
        table_probes,
        shared_probes,
        library: 0,
    }
}

impl ParallelOptions {
    /// Tree splitting and PV splitting: the processor-tree width, checked.
    ///
    /// # Errors
    /// [`ParallelError::BadOption`] for a width of 0.
    pub(crate) fn checked_width(&self, algo: &'static str) -> Result<(), ParallelError> {
        if self.algo.tree.width() == 0 {
            return Err(ParallelError::BadOption {
                algo,
                message: "the processor-tree width is 0; give at least 1".to_string(),
            });
        }
        Ok(())
    }

    /// Defaults for `depth` plies on `procs` processors of `backend`.
    #[must_use]
    pub fn new(depth: u32, procs: usize, backend: Backend) -> Self {
        ParallelOptions {
            depth,
            procs,
            backend,
            dib: None,
            search: SearchConfig::research(),
            min_split_depth: 2,
            split_depth: 2,
            algo: AlgoOptions::default(),
            dmwf_percentile: 90,
            aphid: aphid::AphidOptions::default(),
            split_tables: split_ab::SplitTables::Global,
            common_depth: 2,
            cd_strategy: cdsplit::CdStrategy::Variable,
        }
    }

    /// The options as the simulated machine runs game `G`: the cost model's node costs for
    /// `G` (its `[games.NAME]` section) and each table no larger than the machine had room
    /// for (`max_table_entries`; with the split engine's local tables, `local_table_entries`
    /// where the preset gives it). `None` when nothing changes (not simulated, or nothing
    /// applies).
    #[must_use]
    pub fn fitted_to<G: Game>(&self) -> Option<ParallelOptions> {
        let Backend::Sim(config) = &self.backend else {
            return None;
        };
        let cost = &config.cost;
        let game_costs = games::GameId::of::<G>()
            .filter(|id| cost.games.contains_key(id.name()))
            .map(|id| cost.for_game(id.name()));
        let room = match self.split_tables {
            split_ab::SplitTables::Local => cost.local_table_entries.or(cost.max_table_entries),
            split_ab::SplitTables::Global => cost.max_table_entries,
        };
        let table_cap = room
            .map(|e| usize::try_from(e).unwrap_or(usize::MAX))
            .filter(|&cap| self.search.tt_entries.is_none_or(|e| cap < e))
            .filter(|&cap| {
                cap < (self.search.tt_mib << 20) / crate::search::TT_ENTRY_BYTES as usize
            });
        if game_costs.is_none() && table_cap.is_none() {
            return None;
        }
        let mut fitted = self.clone();
        if let Backend::Sim(c) = &mut fitted.backend {
            if let Some(g) = game_costs {
                c.cost = g;
            }
        }
        if let Some(cap) = table_cap {
            fitted.search.tt_entries = Some(cap);
        }
        Some(fitted)
    }

    /// The runtime settings a run of `algo` with these options gets on the threads backend:
    /// `dib` when given, else the engine setting's (the split engine's algorithms with move
    /// ordering, see `deepening`), else the threads backend's defaults. A simulation that
    /// predicts a threads run uses them, so that both answer requests after the same number of
    /// nodes and wait as long before asking again.
    #[must_use]
    pub fn threads_dib_config(&self, algo: ParallelAlgo) -> DibConfig {
        let threads = ParallelOptions {
            backend: Backend::Threads { seed: 0 },
            ..self.clone()
        };
        let engine = algo.on_split_engine() && self.search.move_ordering;
        let config = if engine {
            deepening::engine_dib_config(&threads)
        } else {
            threads.dib
        };
        config.unwrap_or_else(|| threads.backend.default_config())
    }

    /// [`ParallelOptions::new`] with `algo`'s own granularity
    /// (`ParallelAlgo::default_min_split_depth`): what the runner uses when the user gives
    /// no `--min-split-depth`.
    #[must_use]
    pub fn for_algo(algo: ParallelAlgo, depth: u32, procs: usize, backend: Backend) -> Self {
        ParallelOptions {
            min_split_depth: algo.default_min_split_depth(),
            ..ParallelOptions::new(depth, procs, backend)
        }
    }
}

/// The engines the algorithms run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The split engine (`split_ab`): alpha-beta over frames that hand children to other
    /// processors, each algorithm a split policy.
    Split,
    /// Processors that share a transposition table and nothing else (`shared_table`): Lazy
    /// SMP and ABDADA.
    SharedTable,
    /// APHID's master and slaves (`aphid`).
    Aphid,
}

/// What a parallel search returns.
#[derive(Clone, Debug, Serialize)]
pub struct ParallelResult<M> {
    /// The minimax value of the root at the requested depth, from the side to move.
    pub value: i32,
    /// A best move at the root (`None` when the root has no moves).
    pub best_move: Option<M>,
    /// The principal variation as far as the algorithm knows it (at least the best move).
    pub pv: Vec<M>,
    /// Nodes searched by all processors together (real nodes, also on the simulator).
    pub nodes: u64,
    /// Of them, the horizon leaves (nodes with no depth left, where evaluation or quiescence
    /// starts), where the algorithm counts them (the split engine); `None` elsewhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub horizon_leaves: Option<u64>,
    /// Seconds: virtual on the simulator, wall clock on threads.
    pub seconds: f64,
    /// The backend's name.
    pub backend: &'static str,
    /// Number of processors.
    pub procs: usize,
    /// Per-processor accounting (busy, idle, messaging time; nodes; messages; requests).
    pub accounts: Vec<ProcAccounts>,
    /// The sum of `accounts`.
    pub total: ProcAccounts,
    /// Simulator figures (seed, trace hash, ...); `None` on threads.
    pub sim: Option<SimFigures>,
    /// What the algorithm counted (APHID's own figures are in `aphid`); each algorithm fills
    /// the figures it counts. Algorithms with transposition tables (the alpha-beta split
    /// family, `lazysmp`, APHID) report their fill at the end as [`Figures::hashfull`], which
    /// the UCI engine shows as `hashfull`.
    pub figures: Figures,
    /// APHID's figures (`None` for the other algorithms): among them the master processors
    /// and the speculative nodes of the thesis 6.2.6 overheads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aphid: Option<aphid::AphidFigures>,
    /// On MPI, this process's rank (every rank gets the same result; rank 0 prints it);
    /// `None` on the other backends. See [`ParallelResult::is_root`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rank: Option<usize>,
}

impl<M> ParallelResult<M> {
    /// Whether this process should print the result: always off MPI, rank 0 on MPI.
    #[must_use]
    pub fn is_root(&self) -> bool {
        self.rank.is_none_or(|r| r == 0)
    }
}

/// Why a parallel search failed.
#[derive(Debug, thiserror::Error)]
pub enum ParallelError {
    /// The runtime failed (no processors, a simulator error, no value).
    #[error(transparent)]
    Dib(#[from] DibError),
    /// The sequential search could not be set up (for example a bad table size).
    #[error(transparent)]
    Search(#[from] SearchError),
    /// An option is outside what the algorithm supports.
    #[error("bad option for {algo}: {message}")]
    BadOption {
        /// The algorithm.
        algo: &'static str,
        /// What is wrong and how to fix it.
        message: String,
    },
}

/// What the user sees of an algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlgoInfo {
    /// The command-line name.
    pub name: &'static str,
    /// Other accepted names (`ybw` for delay splitting).
    pub aliases: &'static [&'static str],
    /// One line on what it does.
    pub description: &'static str,
    /// The paper it comes from.
    pub paper: &'static str,
}

macro_rules! algorithms {
    ($( $id:ident => $module:ident, $info:expr; )*) => {
        /// A parallel control module.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ParallelAlgo {
            $(
                #[doc = concat!("See [`", stringify!($module), "`].")]
                $id,
            )*
        }

        impl ParallelAlgo {
            /// Every parallel algorithm, in the order `runner list` shows them.
            pub const ALL: &'static [ParallelAlgo] = &[$(ParallelAlgo::$id),*];

            /// Name, description and paper.
            #[must_use]
            pub fn info(self) -> &'static AlgoInfo {
                match self {
                    $(ParallelAlgo::$id => {
                        static INFO: AlgoInfo = $info;
                        &INFO
                    })*
                }
            }
        }

        /// Runs `algo` on `root` to `options.depth` plies.
        ///
        /// # Errors
        /// [`ParallelError`] when the runtime or the search setup fails or an option is out of
        /// range.
        pub fn search<G: Game>(
            algo: ParallelAlgo,
            root: &G,
            options: &ParallelOptions,
        ) -> Result<ParallelResult<G::Move>, ParallelError> {
            let fitted = options.fitted_to::<G>();
            let options = fitted.as_ref().unwrap_or(options);
            match algo {
                $(ParallelAlgo::$id => $module::search(root, options),)*
            }
        }
    };
}

// Each algorithm: `Variant => module, AlgoInfo { .. };` (modules declared below the list).
algorithms! {
    AlphaBeta => alphabeta, AlgoInfo {
        name: "alphabeta",
        aliases: &[],
        description: "fail-soft alpha-beta as one DIB search that never splits (the 1-processor baseline)",
        paper: "Knuth and Moore 1975; Rezaie and Finkel section 3.1",
    };
    AbDib => abdib, AlgoInfo {
        name: "abdib",
        aliases: &[],
        description: "parallel alpha-beta on DIB: every node hands its untried children to whoever asks, at any time; window improvements spread, cutoffs abort",
        paper: "Rezaie and Finkel sections 3.1 and 4 (the alphabeta series of figures 5-7)",
    };
    DelaySplit => delaysplit, AlgoInfo {
        name: "delaysplit",
        aliases: &["ybw"],
        description: "delay splitting / Young Brothers Wait: younger children wait for the eldest, at every level; running searches split on request",
        paper: "Feldmann et al. 1990 (YBW); Rezaie and Finkel section 3",
    };
    Mwf => mwf, AlgoInfo {
        name: "mwf",
        aliases: &[],
        description: "mandatory work first: type-1 and type-3 nodes fully in parallel, type-2 nodes eldest child first",
        paper: "Akl, Barnard & Doran, IEEE PAMI-4(2), 1982; Finkel & Fishburn, AI 19, 1982 (via Rezaie & Finkel)",
    };
    Dmwf => dmwf, AlgoInfo {
        name: "dmwf",
        aliases: &[],
        description: "dynamic MWF: children of type-1 nodes with static value at or above the 90th percentile are type-1 too",
        paper: "Rezaie & Finkel, A comparison of some parallel game-tree search algorithms, section 6 (Rezaie and Finkel)",
    };
    TreeSplit => treesplit, AlgoInfo {
        name: "treesplit",
        aliases: &[],
        description: "tree splitting: nodes above the split depth split among processors with window updates and aborts",
        paper: "Fishburn, Analysis of speedup in distributed algorithms, PhD thesis, Wisconsin, 1981 (via Rezaie and Finkel)",
    };
    LazySmp => lazysmp, AlgoInfo {
        name: "lazysmp",
        aliases: &[],
        description: "Lazy SMP: independent iterative deepening on every processor sharing one transposition table (exact-depth); the main processor's iteration is the answer",
        paper: "the modern reference (Stockfish and others, since about 2013); shared tables after Marsland and Popowich",
    };
    Abdada => abdada, AlgoInfo {
        name: "abdada",
        aliases: &[],
        description: "ABDADA: every processor deepens from the root on one shared table; a younger child another processor is searching waits for a second pass",
        paper: "Weill, The ABDADA distributed minimax search algorithm, ACM CSC 1996",
    };
    PvSplit => pvsplit, AlgoInfo {
        name: "pvsplit",
        aliases: &[],
        description: "PV splitting: PVS whose type-1 nodes split after their eldest child; younger siblings get minimal windows, re-searched on a fail high",
        paper: "Marsland and Popowich, Parallel game-tree search, IEEE PAMI-7(4), 1985; Rezaie and Finkel section 3.4",
    };
    Er => er, AlgoInfo {
        name: "er",
        aliases: &[],
        description: "ER: e-nodes evaluate elder grandchildren in parallel, then an e-child, then refute the rest in parallel with extra e-children",
        paper: "Steinberg and Solomon, Searching game trees in parallel, ICPP 1990 (via Rezaie and Finkel section 3.5 and Brockington's thesis section 3.4.3)",
    };
    CdSplit => cdsplit, AlgoInfo {
        name: "cdsplit",
        aliases: &[],
        description: "splitting at a common depth: the nodes within CD plies of the root are shared one child at a time, at the deepest shared node of the running line; strategy A lowers CD as the search backs up",
        paper: "a 1978 thesis on two unequal computers (a PDP-11/45 and a PDP-11/20) searching chess trees over a data link, chapters 4 and 5",
    };
    Aphid => aphid, AlgoInfo {
        name: "aphid",
        aliases: &[],
        description: "APHID: a master's repeated passes over its d'-ply tree, slaves deepening its leaves asynchronously through a replicated table",
        paper: "Brockington & Schaeffer, APHID Game-Tree Search, 1996; Brockington, PhD thesis, Alberta, 1998, chapter 5",
    };
}

pub(crate) mod ab_frames;
pub mod abdada;
pub mod abdib;
pub mod algo_options;
pub mod alphabeta;
pub mod aphid;
pub mod cdsplit;
mod deepening;
pub mod delaysplit;
pub mod dmwf;
pub mod er;
mod figures;
pub mod lazysmp;
pub mod mwf;
pub mod play;
pub mod pvsplit;
pub(crate) mod shared_table;
pub(crate) mod sliced;
pub mod split_ab;
pub mod treesplit;

impl ParallelAlgo {
    /// The command-line name.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Every name, comma-separated.
    #[must_use]
    pub fn names() -> String {
        ParallelAlgo::ALL
            .iter()
            .map(|a| a.name())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The granularity (`ParallelOptions::min_split_depth`) the algorithm uses when none is
    /// given, chosen by measurement on the Othello middle-game set (`split_ab/README.md`,
    /// "Options"): delay splitting wants leaf searches of 4 plies (5: 1.63x against PVS on 2
    /// simulated processors at depth 10, against 1.46x at 3); the other split-engine algorithms
    /// (MWF, DMWF, tree splitting, PV splitting, ER; `abdib` takes their 4) were fastest at 4 of 2,
    /// 3 and 4 on 2 and on 8 simulated processors (depth 7, `split_ab/README.md`). `alphabeta`,
    /// which never splits, takes the coarsest of those, delay splitting's 5: on one processor it
    /// then runs exactly delay splitting's code (a frame of the split engine only at nodes with 5
    /// plies or more, the sequential searcher below), so the baseline is never slower per node than
    /// the algorithms it is compared with (a granularity of 2, a frame at every node with two plies
    /// left, searches about 25% fewer nodes per second on one thread: a speedup of 1.2 for
    /// delay splitting on one processor). APHID and Lazy SMP keep 2; APHID's granularity is
    /// its own (`AphidOptions::min_granularity`), whatever this says.
    /// The papers' experiments (`runner experiment rf-*`) pass 2 to every algorithm, the
    /// baseline included, as the papers split at every level.
    #[must_use]
    pub(crate) fn default_min_split_depth(self) -> u32 {
        match self {
            ParallelAlgo::AlphaBeta | ParallelAlgo::DelaySplit => 5,
            ParallelAlgo::Mwf
            | ParallelAlgo::AbDib
            | ParallelAlgo::Dmwf
            | ParallelAlgo::TreeSplit
            | ParallelAlgo::PvSplit
            | ParallelAlgo::Er => 4,
            // Its frames are the nodes within the common depth, whatever this says.
            ParallelAlgo::CdSplit => 2,
            ParallelAlgo::LazySmp | ParallelAlgo::Abdada | ParallelAlgo::Aphid => 2,
        }
    }

    /// Whether the algorithm never splits: one processor searches and the others idle
    /// (`alphabeta`, the one-processor baseline). On more processors its figures show only
    /// the runtime's cost of idle processors, so tables and plots leave those rows out.
    #[must_use]
    pub fn never_splits(self) -> bool {
        matches!(self, ParallelAlgo::AlphaBeta)
    }

    /// The engine that runs the algorithm.
    #[must_use]
    pub fn engine(self) -> Engine {
        match self {
            ParallelAlgo::AlphaBeta
            | ParallelAlgo::AbDib
            | ParallelAlgo::DelaySplit
            | ParallelAlgo::Mwf
            | ParallelAlgo::Dmwf
            | ParallelAlgo::TreeSplit
            | ParallelAlgo::PvSplit
            | ParallelAlgo::Er
            | ParallelAlgo::CdSplit => Engine::Split,
            ParallelAlgo::LazySmp | ParallelAlgo::Abdada => Engine::SharedTable,
            ParallelAlgo::Aphid => Engine::Aphid,
        }
    }

    /// Whether the algorithm runs on the split engine (`split_ab`), so that the engine's
    /// options (such as `split_tables`) apply to it.
    #[must_use]
    pub fn on_split_engine(self) -> bool {
        self.engine() == Engine::Split
    }
}

impl FromStr for ParallelAlgo {
    type Err = crate::search::UnknownName;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        ParallelAlgo::ALL
            .iter()
            .copied()
            .find(|a| a.name() == name || a.info().aliases.contains(&name))
            .ok_or_else(|| crate::search::UnknownName {
                what: "parallel algorithm",
                given: name.to_string(),
                valid: ParallelAlgo::names().into(),
            })
    }
}

crate::named_value::named_value!(serde: ParallelAlgo);

/// Each algorithm by its name, its aliases (`ybw`) also accepted.
#[cfg(feature = "clap")]
impl clap::ValueEnum for ParallelAlgo {
    fn value_variants<'a>() -> &'a [Self] {
        ParallelAlgo::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()).aliases(self.info().aliases))
    }
}

impl fmt::Display for ParallelAlgo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Builds a [`ParallelResult`] from a runtime report and the root's value and principal
/// variation; shared by the DIB-based algorithms.
#[must_use]
pub fn result_from_report<V, M>(
    report: dib::Report<V>,
    value: i32,
    pv: Vec<M>,
    figures: Figures,
) -> ParallelResult<M>
where
    M: Copy,
{
    ParallelResult {
        value,
        best_move: pv.first().copied(),
        pv,
        nodes: report.total.backend.nodes,
        horizon_leaves: None,
        seconds: report.seconds(),
        backend: report.backend,
        procs: report.procs,
        accounts: report.accounts,
        total: report.total,
        sim: report.sim,
        figures,
        aphid: None,
        rank: report.rank,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dib::{CostModel, SimConfig};

    #[test]
    fn every_algorithm_names_its_engine_and_only_the_split_engine_has_a_policy() {
        let sim = Backend::Sim(SimConfig::new(CostModel::shared_memory(), 1));
        let mut engines = std::collections::BTreeSet::new();
        for &algo in ParallelAlgo::ALL {
            let options = ParallelOptions::for_algo(algo, 5, 2, sim.clone());
            let policy = split_ab::policy_of(algo, &options)
                .unwrap_or_else(|e| panic!("{algo}: default options refused: {e}"));
            assert_eq!(
                policy.is_some(),
                algo.engine() == Engine::Split,
                "{algo}: a split policy exactly when the split engine runs it"
            );
            assert_eq!(algo.on_split_engine(), algo.engine() == Engine::Split);
            engines.insert(format!("{:?}", algo.engine()));
        }
        assert_eq!(
            engines.len(),
            3,
            "every engine runs some algorithm: {engines:?}"
        );
    }

    #[test]
    fn a_simulation_gets_the_runtime_settings_of_the_threads_run_it_predicts() {
        let sim = Backend::Sim(SimConfig::new(CostModel::shared_memory(), 1));
        let on_sim = |algo| ParallelOptions::for_algo(algo, 5, 2, sim.clone());
        // The simulator's own defaults differ (a shorter quantum, a retry after one round
        // trip); the threads run's are what the prediction needs.
        assert_ne!(sim.default_config(), DibConfig::for_threads());
        // Lazy SMP has no split engine: the backend's defaults.
        let lazy = on_sim(ParallelAlgo::LazySmp);
        assert_eq!(
            lazy.threads_dib_config(ParallelAlgo::LazySmp),
            DibConfig::for_threads()
        );
        // The split engine's algorithms in the engine setting look at their inbox more often
        // on threads.
        let ybw = on_sim(ParallelAlgo::DelaySplit).threads_dib_config(ParallelAlgo::DelaySplit);
        assert!(ybw.quantum < DibConfig::for_threads().quantum, "{ybw:?}");
        assert_eq!(ybw.retry_delay_ns, DibConfig::for_threads().retry_delay_ns);
        let mut plain = on_sim(ParallelAlgo::DelaySplit);
        plain.search.move_ordering = false;
        assert_eq!(
            plain.threads_dib_config(ParallelAlgo::DelaySplit),
            DibConfig::for_threads()
        );
        let given = DibConfig {
            quantum: 77,
            ..DibConfig::for_threads()
        };
        let mut set = on_sim(ParallelAlgo::Mwf);
        set.dib = Some(given);
        assert_eq!(set.threads_dib_config(ParallelAlgo::Mwf), given);
    }
}
