//! `abdib`: the alpha-beta of Rezaie and Finkel's comparison (Rezaie and Finkel sections 3.1 and 4,
//! the `alphabeta` series of figures 5 to 7) as a parallel algorithm on DIB. Every node of a
//! running search hands its untried children to whoever asks for work, at any time: there is no
//! eldest-first wait (that is delay splitting and MWF) and no node type decides anything. When
//! a node's bound improves, the new window goes to its children still working elsewhere
//! (information spreading); when it is cut off, they are aborted. On one processor it is
//! fail-soft alpha-beta in the search order. `alphabeta` stays the one-processor baseline that
//! never splits. The engine is [`super::split_ab`] with [`SplitPolicy::AbDib`].

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
    Ok(SplitPolicy::AbDib)
}

/// Runs DIB alpha-beta on `root` to `options.depth` plies.
///
/// # Errors
/// [`ParallelError`] when the runtime or the table fails.
pub fn search<G: Game>(
    root: &G,
    options: &ParallelOptions,
) -> Result<ParallelResult<G::Move>, ParallelError> {
    run(policy(options)?, root, options)
}
