//! Where APHID's search overhead goes (session 6): the nodes the parallel search spends that
//! the sequential one does not, by cause. Slaves count what they search and why; the master
//! counts, at the end of every iteration, the work its table rows received at that
//! iteration's depth that the iteration's last pass did not use.

super::stats::counters! {
    /// Search-overhead counters, summed over the master and the slaves (reported as
    /// `aphid_waste_<counter>`). All in nodes, speculative work (deeper than the final depth,
    /// or cut short) excluded.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct WasteStats, prefix "aphid_waste_" {
        /// Slaves: searches answering a bad-bound request (re-searches after a window that
        /// did not decide the leaf for the master's window).
        pub bad_bound,
        /// Slaves: searches of untouched leaves in the last iteration (`untouched_last`).
        pub untouched,
        /// Slaves: required-depth work on leaves later moved away by load balancing (the new
        /// owner starts again).
        pub revoked,
        /// Slaves: required searches below the leaf's required depth at the time (per-leaf
        /// iterative deepening catching up: new leaves, moved leaves, new iterations).
        pub catch_up,
        /// Slaves: required searches cut short at the end of a slice
        /// (`required_slice_nodes`), resumed later or left when the leaf became untouched.
        pub sliced,
        /// Master: nodes at an iteration's required depth on rows its last (certain) pass did
        /// not touch (searched, then left aside as the principal variation moved).
        pub stale,
        /// Master: the same on rows exempted from the horizon (tail splitting or the largest
        /// piece), whose grandchildren the last pass used instead.
        pub split,
        /// Master: every node at the last iteration's required depth, over all rows.
        pub final_iteration,
        /// Master: of those, on rows the last pass touched (the leaves of the final tree).
        pub final_needed,
    }
}
