//! Mandatory work first (Akl, Barnard and Doran 1982), as Rezaie and Finkel describe it
//! (section 3.2): "a parallel implementation of alpha-beta without deep cutoffs ... When
//! deep cutoffs are not considered in the search algorithm, only type-1 and type-2 nodes are
//! critical ... MWF evaluates type-1 nodes completely, but only evaluates type-2 nodes
//! partially. After the eldest child of a type-1 node (also type-1) has been evaluated, the
//! remaining children (all type-2) are completely evaluated only if the result of the partial
//! evaluation is not sufficient to cut them off. All evaluations currently allowed by MWF may
//! be undertaken simultaneously."
//!
//! [`MwfCutoffs::Shallow`] (the default) is that text: every node is searched with a bound from
//! its parent alone (Knuth and Moore's F1: a child's window is `(-inf, -best)`, `best` the
//! parent's best value so far), so a node's eldest child is always fully evaluated (type 1)
//! and its other children are type 2. A type-1 node hands out all its children at once; a
//! type-2 node searches its eldest child (its partial evaluation) and hands out the others only
//! when that did not cut it off and, with `ParallelOptions::mwf_wait` (the default), only once
//! the node above it has a value to cut it off with (a finite beta). The frames go down to one
//! ply to go, where alpha-beta and F1 coincide, so the whole tree is F1's; splitting still stops
//! at `min_split_depth`. [`MwfCutoffs::Deep`] keeps alpha-beta's windows with deep cutoffs and
//! Knuth and Moore's three node types (type-3 nodes split once they have an alpha). The rule
//! applies to the papers' trees (move ordering off): with move ordering on, the frames are the
//! sequential search's (engine frames), deep cutoffs included.
//! Measurements: `split_ab/README.md`. Window updates spread to the pieces of a node whose
//! bound improves; a cutoff aborts them. The engine is [`super::split_ab`].

use games::Game;

use super::algo_options::option_family;
use super::split_ab::{SplitPolicy, run};
use super::{ParallelError, ParallelOptions, ParallelResult};
use crate::named_value::named_enum;

named_enum! {
    /// How MWF and DMWF bound the search of a child.
    MwfCutoffs, flag "--mwf-cutoffs", what "MWF cutoff rule", valid "shallow (no deep cutoffs, the paper's), deep", {
        /// Alpha-beta without deep cutoffs, node types 1 and 2 (Rezaie and Finkel section 3.2).
        #[default]
        Shallow => "shallow",
        /// Alpha-beta's windows with deep cutoffs and three node types.
        Deep => "deep",
    }
}

option_family! {
    /// MWF's and DMWF's options.
    MwfOptions applies to [Mwf, Dmwf] {
        /// MWF and DMWF: a type-2 node whose eldest child is done waits for a finite beta before
        /// it searches its other children (on or off; default on).
        @arg(value_name = "on|off", value_parser = clap::builder::BoolishValueParser::new())
        mwf_wait => wait: bool = true,
        /// MWF and DMWF: `shallow`, alpha-beta without deep cutoffs and node types 1 and 2 (Rezaie
        /// and Finkel section 3.2; the default), or `deep`, alpha-beta's windows and three node
        /// types.
        mwf_cutoffs => cutoffs: MwfCutoffs = MwfCutoffs::Shallow,
    }
}

/// The split engine's policy of this module for `options`.
///
/// # Errors
/// Never: every option value is accepted.
#[allow(clippy::unnecessary_wraps)]
pub(crate) fn policy(options: &ParallelOptions) -> Result<SplitPolicy, ParallelError> {
    let _ = options;
    Ok(SplitPolicy::Mwf)
}

/// Runs MWF on `root` to `options.depth` plies.
///
/// # Errors
/// [`ParallelError`] when the runtime or the table fails.
pub fn search<G: Game>(
    root: &G,
    options: &ParallelOptions,
) -> Result<ParallelResult<G::Move>, ParallelError> {
    run(policy(options)?, root, options)
}
