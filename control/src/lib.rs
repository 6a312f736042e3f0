//! Search control: the sequential search core and the parallel control modules compared in
//! the papers (mandatory work first, tree splitting, PV splitting, ER, delay splitting, APHID)
//! plus Lazy SMP, all generic over [`games::Game`] and all running on the `dib` runtime
//! (threads, a deterministic simulator, or MPI).
//!
//! - [`search`]: the sequential core ([`Searcher`]): alpha-beta and PVS, iterative deepening,
//!   the transposition table, move ordering, the sorting regimes. It is also the leaf search
//!   of every parallel module.
//! - [`parallel`]: one entry point, [`parallel::search`], for every registered algorithm
//!   ([`parallel::ParallelAlgo`]). In the research setting each returns exactly the value of
//!   sequential alpha-beta at the same depth.
//! - [`engine`]: an engine choosing a move under a time budget ([`engine::Player`]): the
//!   sequential core, or a parallel algorithm depth after depth; what `runner uci` and
//!   `runner play` run.
//! - [`parallel_perft`]: perft as a DIB application.
//!
//! `control/README.md` maps the modules and gives the steps to add one.
//!
//! # Example
//!
//! A sequential search and delay splitting on four simulated processors agree on the value:
//!
//! ```
//! use control::parallel::{self, ParallelAlgo, ParallelOptions};
//! use control::search::Unlimited;
//! use control::{Limits, SearchConfig, Searcher};
//! use dib::{Backend, CostModel, SimConfig};
//! use games::Game;
//! use games::tictactoe::TicTacToe4;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let root = TicTacToe4::start();
//! let mut searcher = Searcher::<TicTacToe4>::new(SearchConfig::research())?;
//! let sequential = searcher.search(&root, &Limits::depth(5), &mut Unlimited);
//!
//! let backend = Backend::Sim(SimConfig::new(CostModel::shared_memory(), 1));
//! let algo: ParallelAlgo = "ybw".parse()?;
//! let options = ParallelOptions::for_algo(algo, 5, 4, backend);
//! let result = parallel::search(algo, &root, &options)?;
//! assert_eq!(result.value, sequential.value);
//! # Ok(())
//! # }
//! ```
#![forbid(unsafe_code)]

pub mod engine;
mod named_value;
pub mod parallel;
pub mod parallel_perft;
pub mod search;

pub use games::Game;
pub use search::{
    Algorithm, Limits, SearchConfig, SearchContext, SearchResult, SearchStats, Searcher, Setting,
    Signal, SortConfig, SortRegime, TtMode,
};
