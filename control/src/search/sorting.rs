//! The sorting regimes of Rezaie and Finkel (section 5): which nodes have their
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
    /// EC: the top node and every eldest child, and every other type-1 node (DMWF's promoted
    /// children, searched at once like an eldest child; MWF's type-1 nodes are all eldest).
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
                valid: "none tn pvr ec tt".into(),
            })
    }
}

crate::named_value::named_value!(SortRegime);

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
    /// Rezaie and Finkel's TT-sorting bug (section 5: "what we implemented did not evaluate type-2
    /// nodes as deeply as type-1 nodes"), reproduced: under [`SortRegime::TypeTwo`] a type-2
    /// node that is sorted searches only `expansion_depth` plies below it (its look-ahead's
    /// depth) instead of the plies left. Off by default; on, values differ from alpha-beta's.
    pub type_two_bug: bool,
}

impl Default for SortConfig {
    fn default() -> Self {
        SortConfig {
            regime: SortRegime::None,
            expansion_depth: 3,
            sorting_depth: u32::MAX,
            type_two_bug: false,
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
    /// The plies a node at `ply` of `node_type` (`eldest`: searched first among its siblings)
    /// searches when `depth` are left: `depth`, except with [`SortConfig::type_two_bug`] at a
    /// type-2 node the TT regime sorts, which searches at most `expansion_depth`.
    pub(crate) fn searched_depth(
        &self,
        ply: usize,
        node_type: NodeType,
        eldest: bool,
        depth: u32,
    ) -> u32 {
        if self.type_two_bug
            && self.regime == SortRegime::TypeTwo
            && node_type == NodeType::Two
            && self.applies(ply, node_type, eldest)
        {
            depth.min(self.expansion_depth)
        } else {
            depth
        }
    }

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
            SortRegime::EldestChild => ply == 0 || eldest || node_type == NodeType::One,
            SortRegime::TypeTwo => {
                ply == 0 || eldest || matches!(node_type, NodeType::One | NodeType::Two)
            }
        }
    }
}

impl<G: Game> Searcher<G> {
    /// Sorts the moves of `pos` (indices into `moves`, written to `order` best first) by one
    /// alpha-beta search of `expansion` plies rooted at `pos`, with static evaluation at its
    /// leaves (the paper's "apply alpha-beta to those values to back them up to node z's
    /// children"). The children are searched in generation order with the window the search at
    /// `pos` gives them: a child that raises the best value so far gets its exact backed-up
    /// value, a later child that cannot beat it gets the fail-soft bound that refuted it (its
    /// value is at most that). So the first child in the order has the best exact value, and
    /// ties keep the generation order. Nodes and time are counted in the sorting statistics,
    /// not the search's.
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
        let mut best = -inf;
        for (i, &mv) in moves.iter().enumerate() {
            let undo = pos.make_move(mv);
            let v = -self.static_alphabeta(pos, expansion.saturating_sub(1), -inf, -best, ply + 1);
            pos.unmake_move(mv, undo);
            best = best.max(v);
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

    /// The look-ahead's ordering against each child's exact value (a full-window search of
    /// `expansion - 1` plies per child): the first child has the best exact value, every later
    /// key is an upper bound of its child's exact value, and the one shared search visits fewer
    /// nodes than the separate full-window searches.
    #[test]
    fn one_alphabeta_over_the_expansion_puts_a_best_child_first() {
        use crate::search::{SearchConfig, Unlimited};
        use games::tictactoe::TicTacToe4;
        let inf = games::score::INFINITY;
        let mut s = Searcher::<TicTacToe4>::new(SearchConfig::research()).unwrap();
        let mut pos = TicTacToe4::start();
        let mut moves = Vec::new();
        let (mut shared, mut separate) = (0, 0);
        // The empty board, then boards after more and more marks (the first move each time).
        for _ in 0..6 {
            pos.generate_moves(&mut moves);
            let mut order = Vec::new();
            let before = s.stats.sort_nodes;
            s.sort_by_expansion(&mut pos, &moves, &mut order, 3, 0, &mut Unlimited);
            shared += s.stats.sort_nodes - before;
            let before = s.stats.sort_nodes;
            let exact: Vec<i64> = moves
                .iter()
                .map(|&mv| {
                    let mut child = pos;
                    child.make_move(mv);
                    i64::from(-s.static_alphabeta(&mut child, 2, -inf, inf, 1))
                })
                .collect();
            separate += s.stats.sort_nodes - before;
            let mut seen: Vec<u16> = order.iter().map(|e| e.1).collect();
            seen.sort_unstable();
            assert!(seen.iter().copied().eq(0..moves.len() as u16));
            let max = exact.iter().copied().max().unwrap();
            assert_eq!(order[0].0, max);
            assert_eq!(exact[usize::from(order[0].1)], max);
            for &(key, i) in &order {
                assert!(
                    key >= exact[usize::from(i)],
                    "{key} < {}",
                    exact[usize::from(i)]
                );
            }
            pos.make_move(moves[0]);
        }
        assert!(shared < separate, "{shared} >= {separate}");
    }

    /// Plain negamax over static values, written here: the look-ahead's leaves (and the nodes
    /// without moves) take the game's static evaluation, finished games their outcome.
    fn static_negamax<G: Game>(pos: &G, depth: u32, ply: u32) -> i32 {
        if let Some(o) = pos.outcome() {
            return o.score(ply);
        }
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        if depth == 0 || moves.is_empty() {
            return pos.evaluate();
        }
        moves
            .iter()
            .map(|&mv| {
                let mut child = pos.clone();
                let _ = child.make_move(mv);
                -static_negamax(&child, depth - 1, ply + 1)
            })
            .max()
            .unwrap()
    }

    /// Expansion depth 3: the first key is the best child's negamax over static values three
    /// levels below the node (the paper's "evaluate the leaves statically"), on 4x4
    /// tic-tac-toe and 6x6 Othello.
    #[test]
    fn the_look_ahead_backs_up_static_values_from_three_levels_below() {
        use crate::search::{SearchConfig, Unlimited};
        fn check<G: Game>(mut pos: G, plies: usize) {
            let mut s = Searcher::<G>::new(SearchConfig::unsorted()).unwrap();
            let mut moves = Vec::new();
            for _ in 0..plies {
                pos.generate_moves(&mut moves);
                let mut order = Vec::new();
                s.sort_by_expansion(&mut pos, &moves, &mut order, 3, 0, &mut Unlimited);
                let best = moves
                    .iter()
                    .map(|&mv| {
                        let mut child = pos.clone();
                        let _ = child.make_move(mv);
                        i64::from(-static_negamax(&child, 2, 1))
                    })
                    .max()
                    .unwrap();
                assert_eq!(order[0].0, best, "{pos}");
                let last = moves.len() - 1;
                pos.make_move(moves[last]);
            }
        }
        check(games::tictactoe::TicTacToe4::start(), 4);
        check(games::othello::Othello6::start(), 4);
    }

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
        // child of the root, an eldest type-2 child (of a type-3 node), a later type-3 child, a
        // later child of a type-1 node that DMWF made type 1.
        let nodes = [
            (0, One, true),
            (3, One, true),
            (2, Three, true),
            (1, Two, false),
            (3, Two, true),
            (4, Three, false),
            (2, One, false),
        ];
        let expect = |regime, sorted: [bool; 7]| {
            for (node, want) in nodes.iter().zip(sorted) {
                assert_eq!(
                    cfg(regime).applies(node.0, node.1, node.2),
                    want,
                    "{regime} at {node:?}"
                );
            }
        };
        expect(SortRegime::None, [false; 7]);
        expect(
            SortRegime::TopNode,
            [true, false, false, false, false, false, false],
        );
        expect(
            SortRegime::PvRoute,
            [true, true, false, false, false, false, true],
        );
        expect(
            SortRegime::EldestChild,
            [true, true, true, false, true, false, true],
        );
        expect(
            SortRegime::TypeTwo,
            [true, true, true, true, true, false, true],
        );
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
