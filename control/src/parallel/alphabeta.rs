//! `alphabeta`: fail-soft alpha-beta run as one DIB search that never splits, the
//! one-processor baseline of the runtime (same leaf search, same node accounting and the same
//! runtime overheads as the parallel algorithms; with more processors the others stay idle):
//! the split engine (`split_ab`) with policy [`SplitPolicy::Never`].

use games::Game;

use super::split_ab::{SplitPolicy, run};
use super::{ParallelError, ParallelOptions, ParallelResult};

/// The split engine's policy of this module for `options`.
///
/// # Errors
/// Never: every option value is accepted.
#[allow(clippy::unnecessary_wraps)]
pub(crate) fn policy(options: &ParallelOptions) -> Result<SplitPolicy, ParallelError> {
    let _ = options;
    Ok(SplitPolicy::Never)
}

/// Searches `root` to `options.depth` plies on processor 0 alone.
///
/// # Errors
/// [`ParallelError`] when the table cannot be built or the runtime fails.
pub fn search<G: Game>(
    root: &G,
    options: &ParallelOptions,
) -> Result<ParallelResult<G::Move>, ParallelError> {
    run(policy(options)?, root, options)
}
