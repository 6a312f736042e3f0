//! Where the time of the last iterations goes (session 8): when the master's iterations end,
//! what the slaves search in the last one (required work at its depth, catch-up, bad bounds,
//! untouched leaves, cut slices, run-ahead), when each slave finishes its last required search,
//! and the largest piece of the last iteration. Reported as `aphid_tail_<name>`; summed over
//! the processors, except the `*_max` counters (the largest over the processors).

use serde::{Deserialize, Serialize};

/// The last iterations' timeline (times in virtual nanoseconds from the start of the run).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TailStats {
    /// Master: when the last iteration began (0 when the search never went parallel there).
    pub final_start_ns: u64,
    /// Master: when the iteration before the last began.
    pub prev_start_ns: u64,
    /// Master: when the iteration two before the last began.
    pub prev2_start_ns: u64,
    /// Master: when the root was solved.
    pub end_ns: u64,
    /// Master: its nodes (passes and its own leaf searches) in the last iteration.
    pub master_final_nodes: u64,
    /// Master: passes in the last iteration.
    pub final_passes: u64,
    /// Master: the largest piece of the last iteration (nodes at its required depth on a row
    /// the last pass touched).
    pub largest_piece_max: u64,
    /// Slaves that saw the last iteration.
    pub slaves: u64,
    /// Slaves: when each first ran in the last iteration, summed.
    pub entered_ns: u64,
    /// Slaves: when each completed its last required search (bad bounds included) in the
    /// last iteration, summed (a slave with none counts its entry time).
    pub last_required_ns: u64,
    /// Slaves: the latest of those.
    pub last_required_max_ns: u64,
    /// Slaves, last iteration: completed required searches at the required depth.
    pub required: u64,
    /// Slaves, last iteration: completed required searches below the required depth.
    pub catch_up: u64,
    /// Slaves, last iteration: catch-up in the iteration before the last.
    pub catch_up_prev: u64,
    /// Slaves, last iteration: bad-bound answers.
    pub bad_bound: u64,
    /// Slaves, last iteration: untouched leaves (`untouched_last`).
    pub untouched: u64,
    /// Slaves, last iteration: required searches cut at the end of a slice.
    pub sliced: u64,
    /// Slaves, last iteration: run-ahead beyond the final depth, completed or cut.
    pub speculative: u64,
    /// Slaves, last iteration: searches making a touched leaf's bound exact (`exact_spare`).
    pub exact: u64,
}

impl std::ops::AddAssign for TailStats {
    fn add_assign(&mut self, o: Self) {
        self.final_start_ns += o.final_start_ns;
        self.prev_start_ns += o.prev_start_ns;
        self.prev2_start_ns += o.prev2_start_ns;
        self.end_ns += o.end_ns;
        self.master_final_nodes += o.master_final_nodes;
        self.final_passes += o.final_passes;
        self.largest_piece_max = self.largest_piece_max.max(o.largest_piece_max);
        self.slaves += o.slaves;
        self.entered_ns += o.entered_ns;
        self.last_required_ns += o.last_required_ns;
        self.last_required_max_ns = self.last_required_max_ns.max(o.last_required_max_ns);
        self.required += o.required;
        self.catch_up += o.catch_up;
        self.catch_up_prev += o.catch_up_prev;
        self.bad_bound += o.bad_bound;
        self.untouched += o.untouched;
        self.sliced += o.sliced;
        self.speculative += o.speculative;
        self.exact += o.exact;
    }
}

impl TailStats {
    /// Every counter as `(name, value)`.
    pub fn figures(&self) -> Vec<(&'static str, f64)> {
        [
            ("aphid_tail_final_start_ns", self.final_start_ns),
            ("aphid_tail_prev_start_ns", self.prev_start_ns),
            ("aphid_tail_prev2_start_ns", self.prev2_start_ns),
            ("aphid_tail_end_ns", self.end_ns),
            ("aphid_tail_master_final_nodes", self.master_final_nodes),
            ("aphid_tail_final_passes", self.final_passes),
            ("aphid_tail_largest_piece_max", self.largest_piece_max),
            ("aphid_tail_slaves", self.slaves),
            ("aphid_tail_entered_ns", self.entered_ns),
            ("aphid_tail_last_required_ns", self.last_required_ns),
            ("aphid_tail_last_required_max_ns", self.last_required_max_ns),
            ("aphid_tail_required", self.required),
            ("aphid_tail_catch_up", self.catch_up),
            ("aphid_tail_catch_up_prev", self.catch_up_prev),
            ("aphid_tail_bad_bound", self.bad_bound),
            ("aphid_tail_untouched", self.untouched),
            ("aphid_tail_sliced", self.sliced),
            ("aphid_tail_speculative", self.speculative),
            ("aphid_tail_exact", self.exact),
        ]
        .into_iter()
        .map(|(k, v)| (k, v as f64))
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_and_maxima() {
        let mut a = TailStats {
            slaves: 1,
            last_required_max_ns: 5,
            largest_piece_max: 7,
            ..TailStats::default()
        };
        a += TailStats {
            slaves: 1,
            last_required_max_ns: 3,
            largest_piece_max: 9,
            ..TailStats::default()
        };
        assert_eq!(
            (a.slaves, a.last_required_max_ns, a.largest_piece_max),
            (2, 5, 9)
        );
        assert_eq!(a.figures().len(), 19);
    }
}
