//! Dynamic mandatory work first (seed 003 section 6): MWF where the children of a type-1 node
//! whose static value (the game's evaluation, from the parent's side) is at or above
//! `options.dmwf_percentile` (nearest-rank percentile) of their siblings' are all treated as
//! type 1, so that likely principal variations are searched in parallel from the start.

use games::Game;

use super::split_ab::{SplitPolicy, run};
use super::{ParallelError, ParallelOptions, ParallelResult};

/// Runs DMWF on `root` to `options.depth` plies.
///
/// # Errors
/// [`ParallelError::BadOption`] for a percentile above 100; otherwise when the runtime or the
/// table fails.
pub fn search<G: Game>(
    root: &G,
    options: &ParallelOptions,
) -> Result<ParallelResult<G::Move>, ParallelError> {
    if options.dmwf_percentile > 100 {
        return Err(ParallelError::BadOption {
            algo: "dmwf",
            message: format!(
                "the percentile is {}; give one from 0 to 100",
                options.dmwf_percentile
            ),
        });
    }
    run(
        SplitPolicy::Dmwf {
            percentile: options.dmwf_percentile,
        },
        root,
        options,
    )
}
