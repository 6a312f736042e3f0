//! Steinberg and Solomon's ER (Evaluate-Refute; Rezaie and Finkel section 3.5, Brockington's thesis
//! section 3.4.3) on DIB. Nodes are e-nodes (evaluated) or r-nodes (refuted); the root is an
//! e-node.
//!
//! - An **e-node** first evaluates its *elder grandchildren* (the eldest child of each child,
//!   itself an e-node, searched with the e-node's own window): this is mandatory work, so these
//!   problems may all run in parallel. A child whose elder grandchild already shows it cannot
//!   beat alpha (`-value(child) <= value(elder grandchild) <= alpha`) is refuted without
//!   further search. The others are ordered by their elder grandchild's value, best first (ER's
//!   internal sorting: the sorting regimes of Rezaie and Finkel section 5 do not apply to ER); the
//!   first is the *e-child*, evaluated as an e-node that already knows its eldest child's value and
//!   does not search it again. Then the remaining children are refuted as r-nodes, which also
//!   know their eldest child's value.
//! - An **r-node** examines its children in order, each an e-node, until one refutes it (a
//!   cutoff); if none does, it has been evaluated and raises its parent's bound.
//! - **Parallel refutation**: once the e-child is evaluated, the r-node children of an e-node
//!   may be handed to other processors. **Multiple e-children** (Rezaie and Finkel section 3.5):
//!   "After an e-child of an e-node z is evaluated, choose the next best child of z as a second
//!   e-child ... In general, after the first e-child has been evaluated, ensure that z always
//!   has one active e-child." [`ErEChildren`] (`ParallelOptions::er_e_children`,
//!   `--er-e-children`) says how:
//!   - `split` (the engine default): a request hands off all the e-node's untried children at
//!     once, and the first of them becomes an e-node too (a second e-child), so that a wrong
//!     first choice is corrected in parallel; no further e-child follows it.
//!   - `active` (the paper's sentence; `runner experiment rf-fig5-6` and `rf-fig7` pass it):
//!     once the e-node has handed out a child in its second phase, a request gets one child at
//!     a time, in ER's order, so that the children not yet started stay with the e-node; a
//!     child started then, here or handed out, is an e-node whenever none of the e-node's
//!     running children is one. So when an e-child is done, the next best child not yet
//!     started becomes the e-child, until the e-node is done (`later_e_children` counts those
//!     that follow an extra e-child). An e-node that never hands out a child refutes its
//!     children in order ("The remaining children are refuted in order", section 3.5): the
//!     paper lists multiple e-children among the methods of ER's *parallel implementation*,
//!     against starvation, and relative efficiency divides by sequential ER's time, so one
//!     processor searches exactly sequential ER's tree under both rules
//!     (`er_keeps_one_active_e_child_once_its_children_run_in_parallel` in
//!     `control/tests/it/split_ab_policies.rs`). Measured (`split_ab/README.md`): figure 5's
//!     relative efficiency at 20 processors 0.81 with `split`, 0.80 with `active` (published
//!     0.49); figure 7's 0.44 and 0.46 (published 0.35).
//!
//! **Mapping onto DIB** (engine: [`super::split_ab`], policy `Er`). A problem carries its role
//! (`Evaluate` or `Refute`) and, for the e-child and the r-nodes, the value of the elder
//! grandchild already searched (`Known`: its move and value), which its frame takes as its
//! first child's value. An e-node frame has two phases of tasks: the elder grandchildren (and
//! the children that are leaves, searched directly), then, once all are back, its children in
//! ER's order. DIB's implicit representation does the rest: on a work request the shallowest
//! e-node that may split (any time in its first phase; in its second phase only after the
//! e-child is done) hands off all its untried tasks as pieces (with `active`, one child at a
//! time in the second phase, once it has handed one out); r-nodes never split (their
//! children are examined in order; parallelism inside an r-node comes from its e-node children's
//! elder grandchildren). Each piece gets the window of its task (an elder grandchild: the
//! e-node's own window; a child: the negated window), window updates narrow the pieces when the
//! e-node's bound improves (information spreading), and a cutoff aborts them. Values are
//! fail-soft bounds throughout, so the root's value is exactly the alpha-beta value; on one
//! processor ER searches more nodes than alpha-beta (it evaluates every elder grandchild before
//! choosing), which is why Steinberg and Solomon, and Rezaie and Finkel's figure 5, use *relative*
//! efficiency for it.

use games::Game;

use super::algo_options::option_family;
use super::split_ab::{SplitPolicy, run};
use super::{ParallelError, ParallelOptions, ParallelResult};
use crate::named_value::named_enum;

named_enum! {
    /// How many e-children an e-node has once its first e-child is evaluated (Rezaie and Finkel
    /// section 3.5, "Multiple e-children").
    ErEChildren, flag "--er-e-children", what "ER e-children rule", valid "split (a second e-child per split), active (always one active e-child, the paper's)", {
        /// A second e-child only as the first piece of a split of the e-node's second phase (a
        /// split hands out all its untried children at once).
        #[default]
        Split => "split",
        /// "Ensure that z always has one active e-child": once an e-node has handed out a child in
        /// its second phase, a request gets one child at a time, and a child started (here or
        /// handed out) is an e-node whenever none of the e-node's running children is one, until
        /// the e-node is done. An e-node that never hands out a child refutes in order, as
        /// sequential ER does.
        Active => "active",
    }
}

option_family! {
    /// ER's options.
    ErOptions applies to [Er] {
        /// ER: `split`, a second e-child as the first piece of a split of an e-node (the default),
        /// or `active`, always one active e-child once an e-node's children run in parallel
        /// (Rezaie and Finkel section 3.5).
        er_e_children => e_children: ErEChildren = ErEChildren::Split,
    }
}

/// The split engine's policy of this module for `options`.
///
/// # Errors
/// Never: every option value is accepted.
#[allow(clippy::unnecessary_wraps)]
pub(crate) fn policy(options: &ParallelOptions) -> Result<SplitPolicy, ParallelError> {
    let _ = options;
    Ok(SplitPolicy::Er)
}

/// Runs ER on `root` to `options.depth` plies.
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
        for r in [ErEChildren::Split, ErEChildren::Active] {
            assert_eq!(r.name().parse::<ErEChildren>().unwrap(), r);
        }
        assert!("always".parse::<ErEChildren>().is_err());
    }
}
