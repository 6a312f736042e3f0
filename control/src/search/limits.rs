//! When a search stops: depth, node and time limits (abort requests come through the
//! [`SearchContext`](super::SearchContext)).

use std::time::Duration;

/// The deepest nominal search depth accepted (plies). Deeper searches would not finish anyway,
/// and the transposition table stores depths in a byte.
pub const MAX_DEPTH: u32 = 100;

/// The deepest ply any node may have (extensions and quiescence included); nodes there are
/// evaluated statically.
pub const MAX_PLY: usize = 128;

/// Limits of one search. Absent limits do not apply; with none at all, iterative deepening runs
/// to [`MAX_DEPTH`] (or until the game is solved).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Nominal depth in plies (at most [`MAX_DEPTH`]).
    pub depth: Option<u32>,
    /// Stop after this many nodes (checked at every node).
    pub nodes: Option<u64>,
    /// Stop after this much time as the context measures it (checked at every poll). Iterative
    /// deepening starts no new iteration after half of it.
    pub time: Option<Duration>,
}

impl Limits {
    /// A fixed-depth search.
    #[must_use]
    pub fn depth(depth: u32) -> Self {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A time-limited search.
    #[must_use]
    pub fn time(time: Duration) -> Self {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }

    /// A node-limited search.
    #[must_use]
    pub fn nodes(nodes: u64) -> Self {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }
}
