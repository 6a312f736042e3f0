//! `delaysplit` (also `ybw`): delay splitting, or Young Brothers Wait. At every level a node's
//! younger children wait until its eldest child is done; after that, a work request
//! subdivides the running search at its shallowest such node, handing off every untried child
//! with the node's current window. Narrowed windows are spread to the pieces, and a cutoff
//! aborts the pieces still out. It runs on the split engine (`split_ab`, policy
//! [`SplitPolicy::Ybw`]); `split_ab/README.md` has its measurements.

use games::Game;

use super::split_ab::{SplitPolicy, run};
use super::{ParallelError, ParallelOptions, ParallelResult};

/// Searches `root` to `options.depth` plies with delay splitting.
///
/// # Errors
/// [`ParallelError`] when the table cannot be built or the runtime fails.
pub fn search<G: Game>(
    root: &G,
    options: &ParallelOptions,
) -> Result<ParallelResult<G::Move>, ParallelError> {
    run(SplitPolicy::Ybw, root, options)
}
