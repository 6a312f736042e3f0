//! Mandatory work first (Akl, Barnard and Doran 1982), as Rezaie and Finkel describe it (seed
//! 003 section 3): type-1 nodes search all their children in parallel, type-2 nodes search
//! their eldest child first and hand out the others only when it did not cut them off (delayed
//! evaluation) and, with `ParallelOptions::mwf_wait` (the default), only once the type-1 node
//! above them has a value (a finite beta), type-3 nodes search all their children in parallel.
//! Measurements and why: `split_ab/README.md`. Window updates spread to
//! the pieces of a node whose bound improves; a cutoff aborts them. The engine is
//! [`super::split_ab`].

use games::Game;

use super::split_ab::{SplitPolicy, run};
use super::{ParallelError, ParallelOptions, ParallelResult};

/// Runs MWF on `root` to `options.depth` plies.
///
/// # Errors
/// [`ParallelError`] when the runtime or the table fails.
pub fn search<G: Game>(
    root: &G,
    options: &ParallelOptions,
) -> Result<ParallelResult<G::Move>, ParallelError> {
    run(SplitPolicy::Mwf, root, options)
}
