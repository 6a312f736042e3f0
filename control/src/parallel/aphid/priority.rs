//! Leaf priorities (thesis 5.2.3): the slaves' secondary work-selection criterion, an
//! approximation of the leaves' left-to-right order in the master's tree.
//!
//! For every type-1 node on the path from the root to the leaf (the root included, so every
//! touched leaf has at least 4) add 4; add 2 if the leaf is in the critical tree; add 1 if it
//! is among the first few uncertain leaves of the pass. A leaf the last pass did not touch has
//! priority 0 and is not searched. Node types follow Knuth and Moore as the master's pass meets
//! them: the root is type 1; the eldest child of a type-1 node is type 1 and the others type 2;
//! the eldest child of a type-2 node is type 3 (its younger children, searched only when the
//! eldest fails to cut off, are outside the minimal tree); every child of a type-3 node is
//! type 2. A leaf is critical when no type-2 node on its path took a younger child.

use crate::search::sorting::NodeType;

/// What a pass knows about the path to a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathKind {
    /// The node's type.
    pub(crate) kind: NodeType,
    /// Type-1 nodes on the path, this node included.
    pub type_one: u32,
    /// Whether the node is in the critical (minimal) tree.
    pub critical: bool,
}

impl PathKind {
    /// The root.
    pub const ROOT: PathKind = PathKind {
        kind: NodeType::One,
        type_one: 1,
        critical: true,
    };

    /// The child searched `index`-th (0 = eldest).
    #[must_use]
    pub fn child(self, index: usize) -> PathKind {
        let kind = self.kind.child(index);
        PathKind {
            kind,
            type_one: self.type_one + u32::from(kind == NodeType::One),
            critical: self.critical && !(self.kind == NodeType::Two && index > 0),
        }
    }

    /// The priority of a leaf with this path; `early_uncertain`: among the first uncertain
    /// leaves of the pass.
    #[must_use]
    pub fn priority(self, early_uncertain: bool) -> u32 {
        4 * self.type_one + 2 * u32::from(self.critical) + u32::from(early_uncertain)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The path of a leaf given as 1-based move numbers, as the thesis labels positions
    /// (leaf 1211: first move, second reply, first, first).
    fn path(label: &str) -> PathKind {
        label
            .bytes()
            .fold(PathKind::ROOT, |k, b| k.child(usize::from(b - b'1')))
    }

    #[test]
    fn the_leftmost_leaf_is_all_type_one() {
        let k = path("1111");
        assert_eq!(k.kind, NodeType::One);
        assert_eq!(k.priority(false), 4 * 5 + 2);
    }

    #[test]
    fn the_thesis_example_leaf_1211_has_priority_11() {
        // Figure 5.5: the root and node 1 are type 1, 12 type 2, 121 type 3, 1211 type 2; the
        // leaf is critical and among the first uncertain: 2 * 4 + 2 + 1 = 11.
        let k = path("1211");
        assert_eq!(k.kind, NodeType::Two);
        assert!(k.critical);
        assert_eq!(k.priority(true), 11);
    }

    #[test]
    fn a_younger_child_of_a_type_two_node_is_not_critical() {
        // 12 is type 2; its second child 122 is outside the minimal tree.
        let k = path("1221");
        assert!(!k.critical);
        assert_eq!(k.priority(false), 8);
        // Untouched leaves have priority 0 by rule, not by this formula; touched ones at
        // least 4 (the root is type 1).
        assert!(path("2222").priority(false) >= 4);
    }
}
