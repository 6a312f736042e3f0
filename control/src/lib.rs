//! Search control modules: the sequential search core (alpha-beta, PVS) and the parallel
//! algorithms compared in the papers (MWF, tree splitting, PV splitting, ER, delay splitting,
//! APHID), all generic over [`games::Game`].
//!
//! This crate is being built issue by issue; see the workspace README for what exists today.
//!
//! - [`search`]: the sequential search core ([`Searcher`]), also the leaf search of the
//!   parallel modules.
#![forbid(unsafe_code)]

pub mod parallel;
pub mod parallel_perft;
pub mod search;

pub use games::Game;
pub use search::{
    Algorithm, Limits, SearchConfig, SearchContext, SearchResult, SearchStats, Searcher, Setting,
    Signal, SortConfig, SortRegime, TtMode,
};
