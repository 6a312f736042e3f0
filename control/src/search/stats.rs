//! Counters of one search: nodes by kind, transposition-table use, sorting, and one record per
//! completed iteration.

use std::time::Duration;

/// What one completed iteration of iterative deepening did.
#[derive(Clone, Debug, PartialEq)]
pub struct IterationStats {
    /// The nominal depth of the iteration.
    pub depth: u32,
    /// Its value (from the side to move at the root).
    pub value: i32,
    /// Nodes visited in this iteration alone (aspiration re-searches included).
    pub nodes: u64,
    /// Time since the search started when the iteration completed (as the context measures it).
    pub elapsed: Duration,
    /// Effective branching factor: this iteration's nodes over the previous iteration's.
    pub branching_factor: Option<f64>,
}

/// Counters of a search. Every visited node is counted exactly once, as interior, leaf or
/// quiescence; the sorting look-ahead is counted apart.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Nodes with depth left whose children were searched.
    pub interior: u64,
    /// Finished games, and nodes at the horizon (where quiescence starts).
    pub leaves: u64,
    /// Of the leaves, those at the horizon with the game not over (evaluated, or where
    /// quiescence started): zero means the search saw every line to the end of the game.
    pub horizon: u64,
    /// Nodes below the horizon, reached by quiescence moves.
    pub quiescence: u64,
    /// The deepest ply from the root any node reached, quiescence included (UCI `seldepth`).
    pub seldepth: u32,
    /// Transposition-table probes.
    pub tt_probes: u64,
    /// Probes that found the position.
    pub tt_hits: u64,
    /// Hits whose value ended the node without searching it.
    pub tt_cutoffs: u64,
    /// Interior nodes that failed high (a child's value reached beta): move-ordering quality.
    pub cut_nodes: u64,
    /// Children searched at those nodes, the one that cut included (thesis seed 001, 6.3.1:
    /// KEYANO searched 1.10 successors on average at a type-2 node).
    pub cut_children: u64,
    /// Interior nodes whose best move (the one that cut, or the best of an exact result) was
    /// searched first, and the nodes with a best move (fail-low nodes have none).
    pub best_first: u64,
    /// See `best_first`.
    pub best_known: u64,
    /// Nodes expanded by the sorting look-ahead (not in the node count).
    pub sort_nodes: u64,
    /// Time spent sorting, as the context measures it.
    pub sort_time: Duration,
    /// One record per completed iteration.
    pub iterations: Vec<IterationStats>,
}

impl SearchStats {
    /// All nodes visited by the search (interior + leaves + quiescence).
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.interior + self.leaves + self.quiescence
    }

    /// Adds another search's counters to these (iterations are appended).
    pub fn add(&mut self, other: &SearchStats) {
        self.interior += other.interior;
        self.leaves += other.leaves;
        self.horizon += other.horizon;
        self.quiescence += other.quiescence;
        self.seldepth = self.seldepth.max(other.seldepth);
        self.tt_probes += other.tt_probes;
        self.tt_hits += other.tt_hits;
        self.tt_cutoffs += other.tt_cutoffs;
        self.sort_nodes += other.sort_nodes;
        self.sort_time += other.sort_time;
        self.iterations.extend(other.iterations.iter().cloned());
    }
}
