//! `delaysplit` (also `ybw`): delay splitting, or Young Brothers Wait. Once a node may split, a
//! work request subdivides the running search at its shallowest such node, handing off every
//! untried child with the node's current window. [`YbwWindows`] says whether a raised bound
//! reaches the children already running: with [`YbwWindows::Spread`] (the default) narrowed
//! windows are spread to the pieces and to the children searched here (information
//! spreading); with [`YbwWindows::ByValue`], Rezaie and Finkel section 3.6's DelaySplit, where the
//! children of the parallel loop are called as `value[i] := -DelaySplit(z_i, -b, -a)` and `a`
//! is raised in a critical region, every child keeps the window it started with, and only a
//! cutoff ("if a >= b then return (a)", which leaves the parallel loop) reaches them: it aborts
//! the pieces still out, as under both rules. `runner experiment rf-fig5-6` and `rf-fig7`
//! pass `by-value`; it searches more nodes (figure 6 at 20 processors: 1.65 times one
//! processor's, against 1.10 spread) and its relative efficiency at 20 processors is 0.60
//! (figure 5; spread 0.91, published 0.66) and 0.56 (figure 7; spread 0.84, published 0.26).
//! [`YbwRule`] says when a node may split: with [`YbwRule::Plain`] (the default) every node waits
//! until its eldest child is done; with [`YbwRule::Star`], Brockington's YBWC* (thesis section 3),
//! the wait depends on the node's Knuth-Moore type. It runs on the split engine (`split_ab`, policy
//! [`SplitPolicy::Ybw`]); `split_ab/README.md` has its measurements.

use games::Game;

use super::algo_options::option_family;
use super::split_ab::{SplitPolicy, run};
use super::{ParallelError, ParallelOptions, ParallelResult};
use crate::named_value::named_enum;
use crate::search::sorting::NodeType;

named_enum! {
    /// When a node of delay splitting may hand its younger children to other processors.
    YbwRule, flag "--ybw-rule", what "YBW rule", valid "plain (every node waits for its eldest child), star (YBWC*, the thesis's)", {
        /// Every node once its eldest child is done.
        #[default]
        Plain => "plain",
        /// YBWC* (Brockington's thesis, section 3, after Feldmann et al.): a type-1 node once its
        /// eldest child is done, a type-2 node once its reasonable moves are done (the leading
        /// moves its move ordering ranks ahead of the quiet remainder, at least the eldest), a
        /// type-3 node at once.
        Star => "star",
    }
}

impl YbwRule {
    /// Whether a node of type `kind` whose search order starts with `reasonable` reasonable
    /// moves may give away its untried children once `completed` of its children are done
    /// (searched here, one after the other, while it could not split).
    #[must_use]
    pub fn may_split(self, kind: NodeType, reasonable: usize, completed: usize) -> bool {
        match (self, kind) {
            (YbwRule::Plain, _) | (YbwRule::Star, NodeType::One) => completed > 0,
            (YbwRule::Star, NodeType::Two) => completed >= reasonable.max(1),
            (YbwRule::Star, NodeType::Three) => true,
        }
    }
}

named_enum! {
    /// What a child of delay splitting learns of its parent's window after it has started.
    YbwWindows, flag "--ybw-windows", what "YBW window rule", valid "spread (raised bounds reach running children), by-value (each child keeps its starting window, the paper's)", {
        /// A raised bound narrows the windows of the children running here and of the pieces
        /// handed out (information spreading).
        #[default]
        Spread => "spread",
        /// Rezaie and Finkel section 3.6's `value[i] := -DelaySplit(z_i, -b, -a)`: a child gets the
        /// window current when it starts and keeps it; a cutoff still aborts the pieces.
        ByValue => "by-value",
    }
}

option_family! {
    /// Delay splitting's options.
    YbwOptions applies to [DelaySplit] {
        /// Delay splitting: `plain`, every node waits for its eldest child (the default), or
        /// `star`, the thesis's YBWC* (type-1 nodes wait for their eldest child, type-2 nodes for
        /// their reasonable moves, type-3 nodes for nothing).
        ybw_rule => rule: YbwRule = YbwRule::Plain,
        /// Delay splitting: `spread`, a raised bound narrows the windows of the children already
        /// running (the default), or `by-value`, each child keeps the window it started with
        /// (Rezaie and Finkel section 3.6).
        ybw_windows => windows: YbwWindows = YbwWindows::Spread,
    }
}

/// The split engine's policy of this module for `options`.
///
/// # Errors
/// Never: every option value is accepted.
#[allow(clippy::unnecessary_wraps)]
pub(crate) fn policy(options: &ParallelOptions) -> Result<SplitPolicy, ParallelError> {
    Ok(SplitPolicy::Ybw(options.algo.ybw.rule()))
}

/// Searches `root` to `options.depth` plies with delay splitting under `options.ybw_rule`.
///
/// # Errors
/// [`ParallelError`] when the table cannot be built or the runtime fails.
pub fn search<G: Game>(
    root: &G,
    options: &ParallelOptions,
) -> Result<ParallelResult<G::Move>, ParallelError> {
    run(policy(options)?, root, options)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain YBW waits for the eldest child at every node; YBWC* waits for it at type-1 nodes,
    /// for every reasonable move at type-2 nodes, and for nothing at type-3 nodes.
    #[test]
    fn the_rules_wait_for_what_they_name() {
        for kind in [NodeType::One, NodeType::Two, NodeType::Three] {
            assert!(!YbwRule::Plain.may_split(kind, 3, 0));
            assert!(YbwRule::Plain.may_split(kind, 3, 1));
        }
        let star = YbwRule::Star;
        assert!(!star.may_split(NodeType::One, 3, 0));
        assert!(star.may_split(NodeType::One, 3, 1));
        assert!(!star.may_split(NodeType::Two, 3, 0));
        assert!(!star.may_split(NodeType::Two, 3, 2));
        assert!(star.may_split(NodeType::Two, 3, 3));
        // No reasonable move beyond the ordering's first: the eldest.
        assert!(!star.may_split(NodeType::Two, 0, 0));
        assert!(star.may_split(NodeType::Two, 0, 1));
        assert!(star.may_split(NodeType::Three, 3, 0));
    }

    #[test]
    fn names_round_trip() {
        for r in [YbwRule::Plain, YbwRule::Star] {
            assert_eq!(r.name().parse::<YbwRule>().unwrap(), r);
        }
        assert!("yes".parse::<YbwRule>().is_err());
        for w in [YbwWindows::Spread, YbwWindows::ByValue] {
            assert_eq!(w.name().parse::<YbwWindows>().unwrap(), w);
        }
        assert!("byvalue".parse::<YbwWindows>().is_err());
    }
}
