//! The sorting regimes of Rezaie and Finkel (seed 003, section 5): which nodes have their
//! children sorted by a shallow look-ahead before they are searched. See `README.md` beside this
//! file for the definitions and their source.

use std::fmt;
use std::str::FromStr;

use games::Game;

use super::context::SearchContext;
use super::searcher::Searcher;
use super::settings::UnknownName;

/// Which nodes are sorted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum SortRegime {
    /// No sorting (the normal move ordering applies everywhere).
    #[default]
    None,
    /// TN: only the children of the top node (the root).
    TopNode,
    /// PVR: every node on the principal-variation route (type-1 nodes).
    PvRoute,
    /// EC: the top node and every eldest child.
    EldestChild,
    /// TT: as EC, and also every type-2 node.
    TypeTwo,
}

impl SortRegime {
    /// Every regime, in the paper's order.
    pub const ALL: &'static [SortRegime] = &[
        SortRegime::None,
        SortRegime::TopNode,
        SortRegime::PvRoute,
        SortRegime::EldestChild,
        SortRegime::TypeTwo,
    ];

    /// The command-line name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            SortRegime::None => "none",
            SortRegime::TopNode => "tn",
            SortRegime::PvRoute => "pvr",
            SortRegime::EldestChild => "ec",
            SortRegime::TypeTwo => "tt",
        }
    }
}

impl FromStr for SortRegime {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, UnknownName> {
        SortRegime::ALL
            .iter()
            .copied()
            .find(|r| r.name() == s)
            .ok_or_else(|| UnknownName {
                what: "sorting regime",
                given: s.to_string(),
                valid: "none tn pvr ec tt",
            })
    }
}

impl fmt::Display for SortRegime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A sorting regime with its two parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SortConfig {
    /// Which nodes are sorted.
    pub regime: SortRegime,
    /// The expansion depth: how many levels below a node are expanded to sort its children
    /// (the paper uses 3). Capped by the depth left at the node.
    pub expansion_depth: u32,
    /// The sorting depth: the deepest node (in plies from the root, which is 0) that may be
    /// sorted. `u32::MAX` for no limit.
    pub sorting_depth: u32,
}

impl Default for SortConfig {
    fn default() -> Self {
        SortConfig {
            regime: SortRegime::None,
            expansion_depth: 3,
            sorting_depth: u32::MAX,
        }
    }
}

/// Knuth and Moore's node types, as Steinberg and Solomon assign them (paper section 3.1),
/// extended to the whole tree: the root is type 1; the eldest child of a type-1 node is type 1
/// and its other children type 2; the children of a type-2 node are type 3 (only the eldest is
/// critical; the others are searched only when the eldest fails to cut off); all children of a
/// type-3 node are type 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeType {
    /// Type 1: on the leftmost path.
    One,
    /// Type 2: a younger child of a type-1 node, or a child of a type-3 node.
    Two,
    /// Type 3: a child of a type-2 node.
    Three,
}

impl NodeType {
    /// The type of the child searched `index`-th (0 = eldest).
    pub(crate) fn child(self, index: usize) -> NodeType {
        match self {
            NodeType::One if index == 0 => NodeType::One,
            NodeType::One | NodeType::Three => NodeType::Two,
            NodeType::Two => NodeType::Three,
        }
    }
}

impl SortConfig {
    /// Whether the children of a node at `ply` of `node_type` (`eldest`: it was searched first
    /// among its siblings) are sorted.
    pub(crate) fn applies(&self, ply: usize, node_type: NodeType, eldest: bool) -> bool {
        if self.expansion_depth == 0 || ply as u64 > u64::from(self.sorting_depth) {
            return false;
        }
        match self.regime {
            SortRegime::None => false,
            SortRegime::TopNode => ply == 0,
            SortRegime::PvRoute => node_type == NodeType::One,
            SortRegime::EldestChild => ply == 0 || eldest,
            SortRegime::TypeTwo => ply == 0 || eldest || node_type == NodeType::Two,
        }
    }
}

impl<G: Game> Searcher<G> {
    /// Sorts the moves of `pos` (indices into `moves`, written to `order` best first) by the
    /// alpha-beta value of each child searched `expansion - 1` plies deeper with static
    /// evaluation at its leaves. Ties keep the generation order. Nodes and time are counted in
    /// the sorting statistics, not the search's.
    pub(crate) fn sort_by_expansion(
        &mut self,
        pos: &mut G,
        moves: &[G::Move],
        order: &mut Vec<(i64, u16)>,
        expansion: u32,
        ply: usize,
        ctx: &mut dyn SearchContext,
    ) {
        let started = ctx.elapsed();
        order.clear();
        let inf = games::score::INFINITY;
        for (i, &mv) in moves.iter().enumerate() {
            let undo = pos.make_move(mv);
            let v = -self.static_alphabeta(pos, expansion.saturating_sub(1), -inf, inf, ply + 1);
            pos.unmake_move(mv, undo);
            order.push((i64::from(v), i as u16));
        }
        order.sort_by_key(|e| std::cmp::Reverse(e.0));
        self.stats.sort_time += ctx.elapsed().saturating_sub(started);
    }

    /// Fail-soft alpha-beta with static evaluation at the leaves and no table, ordering or
    /// quiescence: the look-ahead of the sorting regimes.
    fn static_alphabeta(
        &mut self,
        pos: &mut G,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.stats.sort_nodes += 1;
        if let Some(o) = pos.outcome() {
            return o.score(ply as u32);
        }
        if depth == 0 || ply >= super::limits::MAX_PLY {
            return pos.evaluate();
        }
        let mut moves = std::mem::take(&mut self.sort_moves[ply]);
        pos.generate_moves(&mut moves);
        let mut best = -games::score::INFINITY;
        for &mv in &moves {
            let undo = pos.make_move(mv);
            let v = -self.static_alphabeta(pos, depth - 1, -beta, -alpha, ply + 1);
            pos.unmake_move(mv, undo);
            if v > best {
                best = v;
                alpha = alpha.max(v);
                if v >= beta {
                    break;
                }
            }
        }
        if moves.is_empty() {
            best = pos.evaluate();
        }
        self.sort_moves[ply] = moves;
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_types_follow_steinberg_and_solomon() {
        use NodeType::{One, Three, Two};
        assert_eq!(One.child(0), One);
        assert_eq!(One.child(1), Two);
        assert_eq!(Two.child(0), Three);
        assert_eq!(Two.child(4), Three);
        assert_eq!(Three.child(0), Two);
        assert_eq!(Three.child(2), Two);
    }

    #[test]
    fn each_regime_sorts_the_nodes_the_paper_names() {
        use NodeType::{One, Three, Two};
        let cfg = |regime| SortConfig {
            regime,
            ..SortConfig::default()
        };
        // (ply, type, eldest) of: the root, a PV node, an eldest type-3 node, a later type-2
        // child of the root, an eldest type-2 child (of a type-3 node), a later type-3 child.
        let nodes = [
            (0, One, true),
            (3, One, true),
            (2, Three, true),
            (1, Two, false),
            (3, Two, true),
            (4, Three, false),
        ];
        let expect = |regime, sorted: [bool; 6]| {
            for (node, want) in nodes.iter().zip(sorted) {
                assert_eq!(
                    cfg(regime).applies(node.0, node.1, node.2),
                    want,
                    "{regime} at {node:?}"
                );
            }
        };
        expect(SortRegime::None, [false; 6]);
        expect(
            SortRegime::TopNode,
            [true, false, false, false, false, false],
        );
        expect(
            SortRegime::PvRoute,
            [true, true, false, false, false, false],
        );
        expect(
            SortRegime::EldestChild,
            [true, true, true, false, true, false],
        );
        expect(SortRegime::TypeTwo, [true, true, true, true, true, false]);
        // The sorting depth bounds the ply of sorted nodes; expansion depth 0 sorts nothing.
        let shallow = SortConfig {
            regime: SortRegime::TypeTwo,
            sorting_depth: 2,
            ..SortConfig::default()
        };
        assert!(shallow.applies(2, Three, true) && !shallow.applies(3, One, true));
        let none = SortConfig {
            regime: SortRegime::TypeTwo,
            expansion_depth: 0,
            ..SortConfig::default()
        };
        assert!(!none.applies(0, One, true));
    }
}
