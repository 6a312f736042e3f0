//! Where the time of the last iterations goes (session 8): when the master's iterations end,
//! what the slaves search in the last one (required work at its depth, catch-up, bad bounds,
//! untouched leaves, cut slices, run-ahead), when each slave finishes its last required search,
//! and the largest piece of the last iteration. Reported as `aphid_tail_<name>`; summed over
//! the processors, except the `*_max` counters (the largest over the processors).

super::stats::counters! {
    /// The last iterations' timeline (times in virtual nanoseconds from the start of the run).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct TailStats, prefix "aphid_tail_" {
        /// Master: when the last iteration began (0 when the search never went parallel there).
        pub final_start_ns,
        /// Master: when the iteration before the last began.
        pub prev_start_ns,
        /// Master: when the iteration two before the last began.
        pub prev2_start_ns,
        /// Master: when the root was solved.
        pub end_ns,
        /// Master: its nodes (passes and its own leaf searches) in the last iteration.
        pub master_final_nodes,
        /// Master: passes in the last iteration.
        pub final_passes,
        /// Slaves that saw the last iteration.
        pub slaves,
        /// Slaves: when each first ran in the last iteration, summed.
        pub entered_ns,
        /// Slaves: when each completed its last required search (bad bounds included) in the
        /// last iteration, summed (a slave with none counts its entry time).
        pub last_required_ns,
        /// Slaves, last iteration: completed required searches at the required depth.
        pub required,
        /// Slaves, last iteration: completed required searches below the required depth.
        pub catch_up,
        /// Slaves, last iteration: catch-up in the iteration before the last.
        pub catch_up_prev,
        /// Slaves, last iteration: bad-bound answers.
        pub bad_bound,
        /// Slaves, last iteration: untouched leaves (`untouched_last`).
        pub untouched,
        /// Slaves, last iteration: required searches cut at the end of a slice.
        pub sliced,
        /// Slaves, last iteration: run-ahead beyond the final depth, completed or cut.
        pub speculative,
        /// Slaves, last iteration: searches making a touched leaf's bound exact (`exact_spare`).
        pub exact,
    }
    maxima {
        /// Master: the largest piece of the last iteration (nodes at its required depth on a row
        /// the last pass touched).
        pub largest_piece_max,
        /// Slaves: the latest time a slave completed its last required search in the last
        /// iteration.
        pub last_required_max_ns,
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
