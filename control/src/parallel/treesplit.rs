//! Fishburn's tree splitting (Rezaie and Finkel section 3.3): the processor tree reaches
//! `options.split_depth` plies below the root. Every node above that depth splits its children
//! among the processors that ask for work (DIB's request-driven load balancing stands in for
//! the fixed processor tree of the original: an interior processor's "subordinates" are whoever
//! took its pieces), sends each improvement of its bound to the children still working as a
//! window update (information spreading), and aborts them on a cutoff. Below the split depth a
//! processor searches sequentially (its own explicit stack, then the sequential `Searcher`
//! below `options.min_split_depth` plies to go). The processor tree's width
//! (`options.split_width`, default 10: Rezaie and Finkel's "TreeSplit10") bounds the pieces of one
//! node out at once; the node's other children wait (searched by its own processor or handed out
//! as pieces come back), as the extra branches queue in Fishburn's processor tree.
//!
//! The root's processor ([`TreeRoot`], `options.tree_root`): Rezaie and Finkel section 3.3 says
//! "All interior processors in the tree of processors are both masters and slaves except the root
//! processor, which is only a master. All the leaf processors are slaves." With
//! [`TreeRoot::Master`] (the papers' experiments pass it) the processor holding the root
//! searches none of the root's children when there is more than one processor: it hands them
//! out one per request (at most `split_width` out at once, the rest waiting until a piece comes
//! back) and asks nobody for work (`dib::Search::only_master`); with one processor, or on a
//! simulated machine that loses messages (DIB's redo of lost work needs the giver's own
//! requests), it searches as [`TreeRoot::Worker`] does. With [`TreeRoot::Worker`] (the engine
//! default: on two processors a master leaves one to search) the root's processor searches
//! the root's children too, as every other interior processor does. The same option makes the
//! processor of Rezaie and Finkel's PV splitting only a master at its type-1 nodes
//! ([`super::pvsplit`]).
//!
//! Measured (figure 5: `runner compare --game tictactoe4 --testset tictactoe4_rezaie_finkel --algos
//! treesplit --procs 1,2,4,8,12,16,20 --depth 9 --min-split-depth 2 --unsorted --backend sim
//! --sim-preset sequent --tree-root R`), relative efficiency at 20 processors: worker 0.51,
//! master 0.45 (published 0.31); figure 7 (`--game othello6 --testset othello6_rezaie_finkel`):
//! 0.29 and 0.31 (published 0.31). At 2 processors a master can reach at most 0.5 (worker
//! 0.82, published 0.87): `split_ab/README.md`.

use games::Game;

use super::algo_options::{BadAlgoOption, option_family};
use super::split_ab::{SplitPolicy, run};
use super::{ParallelError, ParallelOptions, ParallelResult};
use crate::named_value::named_enum;

named_enum! {
    /// What the processor holding the root does in tree splitting.
    TreeRoot, flag "--tree-root", what "tree-splitting root", valid "worker (the root's processor searches too), master (only a master, the paper's)", {
        /// It searches root children as well as handing them out.
        #[default]
        Worker => "worker",
        /// Only a master (Rezaie and Finkel section 3.3): with more than one processor it hands
        /// every root child out and searches none.
        Master => "master",
    }
}

option_family! {
    /// Tree splitting's and PV splitting's options.
    TreeOptions applies to [TreeSplit, PvSplit] {
        /// Tree splitting and PV splitting: `worker`, the root's processor searches root children
        /// too (the default), or `master`, it only hands them out (Rezaie and Finkel section 3.3).
        tree_root => root: TreeRoot = TreeRoot::Worker,
        /// Tree splitting and PV splitting: the processor tree's width (fanout), the most pieces of
        /// one node out at once (1 to 1000; default 10, Rezaie and Finkel's TreeSplit10 and
        /// PVS10).
        split_width => width: usize = 10,
    }
}

/// The widest processor tree `--split-width` accepts.
pub const MAX_SPLIT_WIDTH: usize = 1000;

impl TreeOptions {
    /// Checks the width's range (1 to [`MAX_SPLIT_WIDTH`]).
    ///
    /// # Errors
    /// [`BadAlgoOption`] naming `--split-width` and its range.
    pub fn check(&self) -> Result<(), BadAlgoOption> {
        match self.split_width {
            Some(w) if w == 0 || w > MAX_SPLIT_WIDTH => Err(BadAlgoOption {
                flag: "--split-width",
                message: format!("{w} is out of range; use 1 to {MAX_SPLIT_WIDTH}"),
            }),
            _ => Ok(()),
        }
    }
}

/// The split engine's policy of this module for `options`.
///
/// # Errors
/// [`ParallelError::BadOption`] for a processor-tree width of 0.
pub(crate) fn policy(options: &ParallelOptions) -> Result<SplitPolicy, ParallelError> {
    options.checked_width("treesplit")?;
    Ok(SplitPolicy::TreeSplit {
        split_depth: options.split_depth,
        master_root: options.algo.tree.root() == TreeRoot::Master,
    })
}

/// Runs tree splitting on `root` to `options.depth` plies.
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
        for r in [TreeRoot::Worker, TreeRoot::Master] {
            assert_eq!(r.name().parse::<TreeRoot>().unwrap(), r);
        }
        assert!("slave".parse::<TreeRoot>().is_err());
    }
}
