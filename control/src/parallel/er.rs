//! Steinberg and Solomon's ER (Evaluate-Refute; seed 003 section 3.5, seed 001 section 3.4.3)
//! on DIB. Nodes are e-nodes (evaluated) or r-nodes (refuted); the root is an e-node.
//!
//! - An **e-node** first evaluates its *elder grandchildren* (the eldest child of each child,
//!   itself an e-node, searched with the e-node's own window): this is mandatory work, so these
//!   problems may all run in parallel. A child whose elder grandchild already shows it cannot
//!   beat alpha (`-value(child) <= value(elder grandchild) <= alpha`) is refuted without
//!   further search. The others are ordered by their elder grandchild's value, best first (ER's
//!   internal sorting: the sorting regimes of seed 003 section 5 do not apply to ER); the first
//!   is the *e-child*, evaluated as an e-node that already knows its eldest child's value and
//!   does not search it again. Then the remaining children are refuted as r-nodes, which also
//!   know their eldest child's value.
//! - An **r-node** examines its children in order, each an e-node, until one refutes it (a
//!   cutoff); if none does, it has been evaluated and raises its parent's bound.
//! - **Parallel refutation**: once the e-child is evaluated, the r-node children of an e-node
//!   may be handed to other processors all at once. **Multiple e-children**: the first of the
//!   children handed off in one batch becomes an e-node too (the next best child after the
//!   e-child, a second e-child), so that a wrong first choice is corrected in parallel.
//!
//! **Mapping onto DIB** (engine: [`super::split_ab`], policy `Er`). A problem carries its role
//! (`Evaluate` or `Refute`) and, for the e-child and the r-nodes, the value of the elder
//! grandchild already searched (`Known`: its move and value), which its frame takes as its
//! first child's value. An e-node frame has two phases of tasks: the elder grandchildren (and
//! the children that are leaves, searched directly), then, once all are back, its children in
//! ER's order. DIB's implicit representation does the rest: on a work request the shallowest
//! e-node that may split (any time in its first phase; in its second phase only after the
//! e-child is done) hands off all its untried tasks as pieces; r-nodes never split (their
//! children are examined in order; parallelism inside an r-node comes from its e-node children's
//! elder grandchildren). Each piece gets the window of its task (an elder grandchild: the
//! e-node's own window; a child: the negated window), window updates narrow the pieces when the
//! e-node's bound improves (information spreading), and a cutoff aborts them. Values are
//! fail-soft bounds throughout, so the root's value is exactly the alpha-beta value; on one
//! processor ER searches more nodes than alpha-beta (it evaluates every elder grandchild before
//! choosing), which is why Steinberg and Solomon, and seed 003's figure 5, use *relative*
//! efficiency for it.

use games::Game;

use super::split_ab::{SplitPolicy, run};
use super::{ParallelError, ParallelOptions, ParallelResult};

/// Runs ER on `root` to `options.depth` plies.
///
/// # Errors
/// [`ParallelError`] when the runtime or the table fails.
pub fn search<G: Game>(
    root: &G,
    options: &ParallelOptions,
) -> Result<ParallelResult<G::Move>, ParallelError> {
    run(SplitPolicy::Er, root, options)
}
