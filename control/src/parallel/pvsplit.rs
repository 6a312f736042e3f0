//! Principal-variation splitting, in the two forms its two papers define ([`PvForm`],
//! `options.pv_form`), on the processor pool of DIB. The engine is [`super::split_ab`].
//!
//! [`PvForm::Mp`] (the default; Marsland and Popowich's experiments use it): Marsland and
//! Popowich's. The search is PVS: at every node the eldest child gets the full window and every
//! younger sibling a minimal window `(alpha, alpha + 1)`, with a full-window re-search when it
//! fails high inside beta. Only type-1 nodes (the principal variation) split, and only after their
//! eldest child is done, so every piece starts with the bound the principal variation gave
//! (Marsland's *PMWS*: parallel minimal window search). A younger sibling handed to another
//! processor keeps the bound it was started with (a minimal window cannot narrow); when it
//! fails high, the node re-searches it itself as a new type-1 node, which splits again (so,
//! unlike the paper's one-level processor tree, every processor can help with a new principal
//! variation, the improvement Marsland and Popowich suggest in their conclusion). When another
//! child's fail high has raised the node's best above it since, it is first tested again, as a
//! type-1 node too, with a minimal window at that best. Below the type-1 nodes nothing splits.
//!
//! [`PvForm::Rf`] (the papers' experiments of Rezaie and Finkel pass it): Rezaie and Finkel's
//! (section 3.4), "a refinement of the tree-splitting algorithm ... The type-1 nodes are
//! recursively evaluated until a given ply is reached, at which point tree splitting is used.
//! After the value of the principal variation (type-1) node is backed up the tree, tree
//! splitting is used to evaluate the remaining siblings if they can not be cut off", and
//! "sequential PV splitting is identical to alpha-beta" (section 3.5). Every node gets
//! alpha-beta's window (no minimal windows, no re-searches), so one processor searches
//! alpha-beta's tree. A type-1 node waits for its eldest child (type 1, evaluated the same
//! way, down to the last frame above `min_split_depth`); then its other children are searched
//! by tree splitting rooted at it: at most `split_width` of them out at once, window updates
//! and aborts as tree splitting's, and every node less than `split_depth` plies below the
//! type-1 node splits its children at once (the processor tree of tree splitting, of the same
//! height, hung from the type-1 node); deeper nodes are searched where they are. DIB's refusal
//! applies (a processor does not split the node it is searching at), as for every algorithm
//! of Rezaie and Finkel. With `options.tree_root` = [`super::treesplit::TreeRoot::Master`] (the
//! papers' experiments pass it: PV splitting "is a refinement of the tree-splitting algorithm" on
//! the same processor tree, whose root "is only a master") the processor of the principal
//! variation (the root's) evaluates the type-1 nodes down the principal variation itself and,
//! at each type-1 node whose eldest child is done, only hands the other children out, one per
//! request, and searches none of them (with more than one processor and no lost work).
//!
//! Measured (figure 5: `runner compare --game tictactoe4 --testset tictactoe4_rezaie_finkel --algos
//! pvsplit --procs 1,2,4,8,12,16,20 --depth 9 --min-split-depth 2 --unsorted --backend sim
//! --sim-preset sequent --pv-form F [--tree-root master]`; figure 7 the same with `--game othello6
//! --testset othello6_rezaie_finkel`), relative efficiency at 20 processors: `mp` 0.21 (figure 7:
//! 0.09), `rf` 0.54 (0.31), `rf` with the master 0.48 (0.30); published 0.29 (0.25).
//! `split_ab/README.md` has the whole curves.
//!
//! In both forms the processor tree's width (`options.split_width`, default 10: Rezaie and Finkel's
//! "PVS10") bounds the pieces of one node out at once.

use games::Game;

use super::algo_options::option_family;
use super::split_ab::{SplitPolicy, run};
use super::{ParallelError, ParallelOptions, ParallelResult};
use crate::named_value::named_enum;

named_enum! {
    /// Which paper's PV splitting.
    PvForm, flag "--pv-form", what "PV-splitting form", valid "mp (Marsland and Popowich's, minimal windows), rf (Rezaie and Finkel's, tree splitting below type-1 nodes)", {
        /// Marsland and Popowich's: minimal windows and re-searches, only type-1 nodes
        /// split.
        #[default]
        Mp => "mp",
        /// Rezaie and Finkel's (section 3.4): alpha-beta's windows, type-1 nodes wait for
        /// their eldest child, then tree splitting below them.
        Rf => "rf",
    }
}

option_family! {
    /// PV splitting's options.
    PvOptions applies to [PvSplit] {
        /// PV splitting: `mp`, Marsland and Popowich's (minimal windows; the default), or `rf`,
        /// Rezaie and Finkel's (alpha-beta's windows, tree splitting below the type-1 nodes; Rezaie
        /// and Finkel section 3.4).
        pv_form => form: PvForm = PvForm::Mp,
    }
}

/// The split engine's policy of this module for `options`.
///
/// # Errors
/// [`ParallelError::BadOption`] for a processor-tree width of 0.
pub(crate) fn policy(options: &ParallelOptions) -> Result<SplitPolicy, ParallelError> {
    options.checked_width("pvsplit")?;
    Ok(match options.algo.pv.form() {
        PvForm::Mp => SplitPolicy::PvSplit,
        PvForm::Rf => SplitPolicy::PvSplitRf {
            split_depth: options.split_depth,
            master_root: options.algo.tree.root() == super::treesplit::TreeRoot::Master,
        },
    })
}

/// Runs PV splitting on `root` to `options.depth` plies.
///
/// # Errors
/// [`ParallelError`] when the runtime or the table fails.
pub fn search<G: Game>(
    root: &G,
    options: &ParallelOptions,
) -> Result<ParallelResult<G::Move>, ParallelError> {
    run(policy(options)?, root, options)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for f in [PvForm::Mp, PvForm::Rf] {
            assert_eq!(f.name().parse::<PvForm>().unwrap(), f);
        }
        assert!("pvs".parse::<PvForm>().is_err());
    }
}
