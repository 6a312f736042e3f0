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
    /// quiescence started; one the table decides is not counted): zero means the search saw
    /// every line to the end of the game.
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
    /// ABDADA: reads and updates of the count of processors searching a node (charged as
    /// table probes).
    pub busy_probes: u64,
    /// ABDADA: younger children put off to the second pass because another processor was
    /// searching them.
    pub deferred: u64,
    /// ProbCut checks made (play setting with ProbCut; each costs one or two shallow searches,
    /// whose nodes are counted as any other).
    pub probcut_checks: u64,
    /// ProbCut checks that decided their node without the deep search.
    pub probcut_cuts: u64,
    /// Play setting: nodes cut by reverse futility pruning.
    pub reverse_futility: u64,
    /// Play setting: quiescence captures skipped by SEE or delta pruning.
    pub quiescence_pruned: u64,
    /// Interior nodes that failed high (a child's value reached beta): move-ordering quality.
    pub cut_nodes: u64,
    /// Children searched at those nodes, the one that cut included (thesis Brockington's thesis,
    /// 6.3.1: KEYANO searched 1.10 successors on average at a type-2 node).
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

/// The counters that split a search's nodes into the kinds a runtime charges differently
/// (`dib::Work`): horizon leaves, quiescence nodes, look-ahead (sorting) nodes, table probes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KindTally {
    /// Horizon leaves.
    pub horizon: u64,
    /// Quiescence nodes.
    pub quiescence: u64,
    /// Look-ahead nodes of the sorting regimes.
    pub sort_nodes: u64,
    /// Transposition-table probes.
    pub tt_probes: u64,
}

impl KindTally {
    /// What `now` counted since `self`; a counter that went back (the searcher reset its
    /// counters for a new search) counts all it holds.
    #[must_use]
    pub fn since(self, now: KindTally) -> KindTally {
        let d = |now: u64, was: u64| if now >= was { now - was } else { now };
        KindTally {
            horizon: d(now.horizon, self.horizon),
            quiescence: d(now.quiescence, self.quiescence),
            sort_nodes: d(now.sort_nodes, self.sort_nodes),
            tt_probes: d(now.tt_probes, self.tt_probes),
        }
    }
}

impl SearchStats {
    /// The counters that split the nodes into kinds.
    #[must_use]
    pub fn tally(&self) -> KindTally {
        KindTally {
            horizon: self.horizon,
            quiescence: self.quiescence,
            sort_nodes: self.sort_nodes,
            tt_probes: self.tt_probes + self.busy_probes,
        }
    }

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
        self.busy_probes += other.busy_probes;
        self.deferred += other.deferred;
        self.probcut_checks += other.probcut_checks;
        self.probcut_cuts += other.probcut_cuts;
        self.reverse_futility += other.reverse_futility;
        self.quiescence_pruned += other.quiescence_pruned;
        self.sort_nodes += other.sort_nodes;
        self.sort_time += other.sort_time;
        self.iterations.extend(other.iterations.iter().cloned());
    }
}
