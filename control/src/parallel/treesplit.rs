//! Fishburn's tree splitting (seed 003 section 3): the processor tree reaches
//! `options.split_depth` plies below the root. Every node above that depth splits its children
//! among the processors that ask for work (DIB's request-driven load balancing stands in for
//! the fixed processor tree of the original: an interior processor's "subordinates" are whoever
//! took its pieces), sends each improvement of its bound to the children still working as a
//! window update (information spreading), and aborts them on a cutoff. Below the split depth a
//! processor searches sequentially (its own explicit stack, then the sequential `Searcher`
//! below `options.min_split_depth` plies to go). The processor tree's width
//! (`options.split_width`, default 10: seed 003's "TreeSplit10") bounds the pieces of one node
//! out at once; the node's other children wait (searched by its own processor or handed out
//! as pieces come back), as the extra branches queue in Fishburn's processor tree.

use games::Game;

use super::split_ab::{SplitPolicy, run};
use super::{ParallelError, ParallelOptions, ParallelResult};

/// Runs tree splitting on `root` to `options.depth` plies.
///
/// # Errors
/// [`ParallelError`] when the runtime or the table fails.
pub fn search<G: Game>(
    root: &G,
    options: &ParallelOptions,
) -> Result<ParallelResult<G::Move>, ParallelError> {
    options.checked_width("treesplit")?;
    run(
        SplitPolicy::TreeSplit {
            split_depth: options.split_depth,
        },
        root,
        options,
    )
}
