//! What a processor charges: nodes of each kind and table probes ([`Work`]).
//!
//! The simulator prices each kind with its own cost ([`crate::CostModel`]): a full search node,
//! a horizon leaf,
//! a quiescence node, a static-evaluation node (a sorting look-ahead leaf that is only
//! evaluated), control overhead (a node of an APHID master pass, a split), a frame of the split
//! engine (an interior node kept on its explicit stack), a probe of the processor's own table, a probe of a table shared by several processors, whose cost grows
//! with the number of processors using it at once, and library work done inside the search
//! (time at the node cost, not nodes). The threads and MPI backends only count.

use serde::{Deserialize, Serialize};

/// Work done by a processor since its last charge, by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Work {
    /// Full search nodes (interior nodes, and horizon leaves not counted in `horizon`).
    pub search: u64,
    /// Horizon leaves: nodes reached with no depth left, where the static evaluation or the
    /// quiescence search starts (counted apart so that a machine known by its time per leaf
    /// can be charged per leaf).
    #[serde(default)]
    pub horizon: u64,
    /// Quiescence nodes (below the horizon).
    pub quiescence: u64,
    /// Static-evaluation nodes: positions only generated and evaluated (sorting look-ahead).
    pub static_eval: u64,
    /// Control overhead, in node equivalents (a master's pass over its tree, a split).
    pub control: u64,
    /// Frames of the split engine: interior nodes searched on its explicit stack (each with its
    /// move list, tasks and window), where the sequential searcher would recurse.
    #[serde(default)]
    pub frames: u64,
    /// Probes of the processor's own transposition table.
    pub table_probes: u64,
    /// Probes of a transposition table shared with other processors.
    pub shared_probes: u64,
    /// Library work inside the search, in node equivalents: per-node calls of a parallel
    /// library that the sequential program does not make (APHID's `aphid_intnode_*()` in a
    /// slave that runs the master's executable). Priced as full search nodes, but not nodes:
    /// it slows the node rate without adding to the node count.
    #[serde(default)]
    pub library: u64,
}

impl Work {
    /// `nodes` full search nodes.
    #[must_use]
    pub const fn search(nodes: u64) -> Work {
        Work {
            search: nodes,
            horizon: 0,
            quiescence: 0,
            static_eval: 0,
            control: 0,
            frames: 0,
            table_probes: 0,
            shared_probes: 0,
            library: 0,
        }
    }

    /// Nodes of every kind (the node count of the accounting); probes and library work are not
    /// nodes.
    #[must_use]
    pub const fn nodes(&self) -> u64 {
        self.search + self.horizon + self.quiescence + self.static_eval + self.control + self.frames
    }

    /// Whether nothing was done.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        *self == Work::default()
    }

    /// Adds `other` to this.
    pub fn add(&mut self, other: &Work) {
        self.search += other.search;
        self.horizon += other.horizon;
        self.quiescence += other.quiescence;
        self.static_eval += other.static_eval;
        self.control += other.control;
        self.frames += other.frames;
        self.table_probes += other.table_probes;
        self.shared_probes += other.shared_probes;
        self.library += other.library;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_count_every_kind_but_probes() {
        let mut w = Work::search(5);
        w.add(&Work {
            horizon: 6,
            quiescence: 3,
            static_eval: 2,
            control: 1,
            frames: 4,
            table_probes: 7,
            shared_probes: 9,
            library: 8,
            ..Work::default()
        });
        assert_eq!(w.nodes(), 21);
        assert_eq!(w.library, 8);
        assert_eq!(w.frames, 4);
        assert_eq!(w.table_probes, 7);
        assert!(!w.is_empty());
        assert!(Work::default().is_empty());
    }
}
