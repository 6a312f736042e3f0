//! Marsland and Popowich's refutation table (section 2): iterative deepening carries
//! from one iteration to the next, for every move of the root, the line searched first below
//! it (the principal variation under the best move, "a D-ply sequence sufficient to refute the
//! move" under the others), and the root's moves sorted by the values the iteration gave them.
//! The next iteration searches the root's moves in that order and, below each, tries the
//! line's move first at every node still on the line ("the table is used to direct each
//! variation along a potential refutation").
//!
//! On (`SearchConfig::refutation_table`, `--refutation-table`), the sequential search and the
//! split engine keep it alike, so that one processor still searches the sequential tree; the
//! split engine hands each piece its line (`split_ab`). Moves are generation indices.

use serde::{Deserialize, Serialize};

/// The root's moves of the last completed iteration, best first, each with its value (from
/// the root's side, fail-soft) and the line searched below it (moves from the child on).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefutationTable {
    moves: Vec<(u16, i32, Vec<u16>)>,
}

impl RefutationTable {
    /// The table of one iteration from its root children in search order: (move, value,
    /// line), sorted by value, best first, ties in search order. A move searched more than
    /// once (a re-search) keeps its last entry.
    #[must_use]
    pub fn from_children(children: Vec<(u16, i32, Vec<u16>)>) -> RefutationTable {
        let mut moves: Vec<(u16, i32, Vec<u16>)> = Vec::with_capacity(children.len());
        for c in children {
            match moves.iter_mut().find(|m| m.0 == c.0) {
                Some(m) => *m = c,
                None => moves.push(c),
            }
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.1));
        RefutationTable { moves }
    }

    /// The rank of root move `index` in the table's order (0 first), if listed.
    #[must_use]
    pub fn rank(&self, index: u16) -> Option<usize> {
        self.moves.iter().position(|m| m.0 == index)
    }

    /// The line below root move `index` (empty if none).
    #[must_use]
    pub fn line(&self, index: u16) -> &[u16] {
        self.moves
            .iter()
            .find(|m| m.0 == index)
            .map_or(&[], |m| m.2.as_slice())
    }

    /// Whether the table lists no move.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

/// The ordering key of a move listed at `rank` in a [`RefutationTable`]: above every key of
/// the normal move order (and of the table move), earlier ranks higher.
#[must_use]
fn rank_key(rank: usize) -> i64 {
    i64::MAX - rank as i64
}

/// The ordering key of the line's move at a node on the line: above every key but the table
/// move's.
const LINE_KEY: i64 = i64::MAX - 1;

/// What a node tries before its normal move order, by generation index: the run root's
/// refutation table (its moves in the last iteration's order), the transposition table's
/// move, then the refutation line's move. The sequential search and the split engine's frames
/// both order by it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct First<'a> {
    /// The run root's refutation table.
    pub(crate) table: Option<&'a RefutationTable>,
    /// The transposition table's move.
    pub(crate) tt_move: Option<u16>,
    /// The refutation line's move at this node.
    pub(crate) line_move: Option<u16>,
}

impl First<'_> {
    /// The key of move `index` when one of these names it; `None` leaves it to the normal key.
    #[must_use]
    pub(crate) fn key(&self, index: u16) -> Option<i64> {
        if let Some(rank) = self.table.and_then(|t| t.rank(index)) {
            Some(rank_key(rank))
        } else if self.tt_move == Some(index) {
            Some(i64::MAX)
        } else if self.line_move == Some(index) {
            Some(LINE_KEY)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_sorts_by_value_and_keeps_the_last_search_of_a_move() {
        let t = RefutationTable::from_children(vec![
            (4, 10, vec![1]),
            (2, 30, vec![5, 6]),
            (7, 10, vec![]),
            (4, 40, vec![3, 3]),
        ]);
        assert_eq!(t.rank(4), Some(0), "re-searched to 40");
        assert_eq!(t.rank(2), Some(1));
        assert_eq!(t.rank(7), Some(2));
        assert_eq!(t.rank(9), None);
        assert_eq!(t.line(4), &[3, 3]);
        assert_eq!(t.line(9), &[] as &[u16]);
        assert!(rank_key(0) > rank_key(1) && rank_key(1) > i64::from(i32::MAX) << 32);
    }
}
