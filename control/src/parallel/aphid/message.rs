//! The messages of APHID: every write into the replicated table becomes one, in the writer's
//! direction (master to owner for the master's part, owner to master for the slave's part).
//! Every master message carries the iteration and the hypothetical root value, so a slave
//! that lost one catches up with the next. All of them are idempotent: duplicates and
//! re-sends are harmless.

use serde::{Deserialize, Serialize};

use super::shadow::ShadowEntry;
use super::table::LeafId;

/// Where the master's search stands, sent with each of its messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Epoch {
    /// The master's current search depth `d` (iteration).
    pub iteration: u32,
    /// The hypothetical root value from the master's last pass (root's side to move).
    pub hypothesis: i32,
}

/// A "bad bound" request: search `depth` with this window (the leaf's scale and side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BadBound {
    /// The depth the master needs.
    pub depth: u32,
    /// Window lower end.
    pub alpha: i32,
    /// Window upper end.
    pub beta: i32,
}

/// One result of a slave: bounds on a leaf's value at a depth (leaf's scale and side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeafResult {
    /// The leaf.
    pub leaf: LeafId,
    /// The depth searched.
    pub depth: u32,
    /// Lower bound.
    pub lower: i32,
    /// Upper bound.
    pub upper: i32,
    /// Nodes the search took.
    pub nodes: u64,
}

/// A message between master and slaves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Msg {
    /// Master to owner: the leaf at `path` is yours (new, moved to you, or re-sent).
    Assign {
        /// Where the master stands.
        epoch: Epoch,
        /// The leaf.
        leaf: LeafId,
        /// Move indices from the root.
        path: Vec<u16>,
        /// Its priority.
        priority: u32,
        /// An outstanding bad-bound request, if any.
        bad: Option<BadBound>,
    },
    /// Master to owner: new priorities after a pass (0: not touched).
    Priorities {
        /// Where the master stands.
        epoch: Epoch,
        /// `(leaf, priority)` pairs that changed.
        changes: Vec<(LeafId, u32)>,
    },
    /// Master to every slave: a new iteration or a new hypothetical root value.
    Epoch(Epoch),
    /// Master to owner: the result at `bad.depth` does not decide the leaf; search again with
    /// the window the master needs.
    BadBound {
        /// Where the master stands.
        epoch: Epoch,
        /// The leaf.
        leaf: LeafId,
        /// The request.
        bad: BadBound,
    },
    /// Master to the former owner: the leaf has moved to another slave.
    Revoke {
        /// The leaf.
        leaf: LeafId,
    },
    /// Slave to master: buffered results (possibly none: then it says it is alive).
    Report {
        /// The results.
        results: Vec<LeafResult>,
        /// The slave has searched every touched leaf to the required depth of `iteration`
        /// and has no bad bound to answer.
        done: bool,
        /// The iteration the slave believes current.
        iteration: u32,
    },
    /// A mid-level master to its slaves (`mid.rs`): a new piece of its own work begins; take
    /// this epoch even if its iteration is lower than the last one.
    Restart(Epoch),
    /// Slave to the next peer slave (`--tt distributed`, thesis 5.2.6): a shadow table
    /// travelling around the ring of peers, back to its origin.
    Shadow {
        /// The slave whose table it is.
        origin: usize,
        /// The entries.
        entries: Vec<ShadowEntry>,
    },
}
