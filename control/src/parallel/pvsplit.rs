//! Principal-variation splitting (Marsland and Popowich, seed 004; Rezaie and Finkel, seed 003
//! section 3.4), on the processor pool of DIB. The search is PVS: at every node the eldest
//! child gets the full window and every younger sibling a minimal window `(alpha, alpha + 1)`,
//! with a full-window re-search when it fails high inside beta. Only type-1 nodes (the
//! principal variation) split, and only after their eldest child is done, so every piece starts
//! with the bound the principal variation gave (Marsland's *PMWS*: parallel minimal window
//! search). A younger sibling handed to another processor keeps the bound it was started with
//! (a minimal window cannot narrow); when it fails high, the node re-searches it itself as a new
//! type-1 node, which splits again (so, unlike the paper's one-level processor tree, every
//! processor can help with a new principal variation, the improvement Marsland and Popowich
//! suggest in their conclusion). When another child's fail high has raised the node's best above
//! it since, it is first tested again, as a type-1 node too, with a minimal window at that best.
//! Below the type-1 nodes nothing splits. The processor tree's width (`options.split_width`,
//! default 10: seed 003's "PVS10") bounds the pieces of one node out at once. The engine is
//! [`super::split_ab`].

use games::Game;

use super::split_ab::{SplitPolicy, run};
use super::{ParallelError, ParallelOptions, ParallelResult};

/// Runs PV splitting on `root` to `options.depth` plies.
///
/// # Errors
/// [`ParallelError`] when the runtime or the table fails.
pub fn search<G: Game>(
    root: &G,
    options: &ParallelOptions,
) -> Result<ParallelResult<G::Move>, ParallelError> {
    options.checked_width("pvsplit")?;
    run(SplitPolicy::PvSplit, root, options)
}
