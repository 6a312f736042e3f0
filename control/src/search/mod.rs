//! The sequential search core, generic over any [`games::Game`]: fail-soft alpha-beta and PVS,
//! plain minimax as the oracle, iterative deepening with aspiration windows, a lock-free-shareable
//! transposition table with three modes, move ordering, quiescence, the sorting regimes of
//! Rezaie and Finkel, limits through a [`SearchContext`], statistics, and exact solving.
//!
//! Start with [`Searcher`] and [`SearchConfig`]; `README.md` beside this file explains the
//! design, the settings and the sorting regimes.

mod alphabeta;
pub mod busy;
pub mod context;
pub mod iterative;
pub mod limits;
pub mod minimax;
pub(crate) mod ordering;
pub(crate) mod pruning;
mod quiescence;
pub mod refutation;
pub mod searcher;
pub mod settings;
pub mod solve;
pub mod sorting;
pub mod stats;
pub mod tt;

pub use busy::BusyTable;
pub use context::{Abortable, NodeClock, POLL_INTERVAL, SearchContext, Signal, Unlimited};
pub use iterative::{Progress, SearchResult};
pub use limits::{Limits, MAX_DEPTH, MAX_PLY};
pub use minimax::{minimax_value, minimax_value_within};
pub use refutation::RefutationTable;
pub use searcher::{SearchError, Searcher, WindowResult};
pub use settings::{
    Algorithm, PlayFeature, PlayFeatures, SearchConfig, Setting, TtMode, TtReplace, UnknownName,
};
pub use solve::{Solution, solve};
pub use sorting::{SortConfig, SortRegime};
pub use stats::{IterationStats, KindTally, SearchStats};
pub use tt::{Bound, TT_ENTRY_BYTES, TranspositionTable, TtEntry, TtError};

/// Moves a decisive score found by a search rooted `plies` below the real root to the real root's
/// scale (wins and losses further away); other scores are unchanged. Parallel algorithms use it
/// when they combine values of subtrees searched with [`Searcher::search_window`].
#[must_use]
pub fn shift_decisive(value: i32, plies: u32) -> i32 {
    tt::value_from_tt(value, plies as usize)
}
