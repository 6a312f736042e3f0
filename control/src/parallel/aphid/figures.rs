//! What an APHID run reports beside its value: [`AphidFigures`], the result's
//! `ParallelResult::aphid`.

use serde::{Deserialize, Serialize};

use super::guess::GuessStats;
use super::master::MasterStats;
use super::mid::MidStats;
use super::shadow::ShadowStats;

/// The parallel search's geometry, once the master chose it (thesis 5.2.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeometryFigures {
    /// The horizon `d'` of the master's tree.
    pub master_depth: u32,
    /// The granularity `g`: leaves needing fewer plies were searched by the master.
    pub granularity: u32,
    /// The first iteration searched in parallel.
    pub parallel_from: u32,
}

/// The figures of one APHID run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AphidFigures {
    /// Rows of the APHID table (leaves of the master's tree ever visited).
    pub leaves: u64,
    /// Rows the final pass touched.
    pub final_pass_leaves: u64,
    /// Rows with a result at their final required depth.
    pub leaves_searched_to_depth: u64,
    /// What the master counted: passes and their nodes, its own searches, bad-bound requests,
    /// moves, exemptions, tail splits, re-sends, proven cuts.
    pub master: MasterStats,
    /// `d'`, `g` and the first parallel iteration; `None` when the search never went parallel.
    pub geometry: Option<GeometryFigures>,
    /// Slaves: nodes of completed searches no deeper than the final required depth.
    pub slave_required_nodes: u64,
    /// Slaves: nodes of completed searches deeper than the final required depth.
    pub slave_speculative_nodes: u64,
    /// Slaves: nodes of speculative searches cut short.
    pub aborted_nodes: u64,
    /// What the master's guesses drew on.
    pub guesses: GuessStats,
    /// The shadow-table ring, summed over the slaves (`tt = "distributed"` only).
    pub shadow: Option<ShadowStats>,
    /// The mid-level processes, summed (a hierarchy only).
    pub mids: Option<MidStats>,
    /// Processors used only as masters: the master and every mid-level process (the lowest
    /// numbered).
    pub master_processors: usize,
    /// The master's busy and messaging time over the run's time.
    pub master_cpu_share: f64,
}

impl AphidFigures {
    /// Every node the master searched: passes, sequential iterations, its own leaf searches.
    #[must_use]
    pub fn master_nodes(&self) -> u64 {
        self.master.pass_nodes + self.master.search_nodes
    }

    /// The speculative search of thesis 6.2.6: nodes searched beyond what the `d`-ply result
    /// needs (completed deeper searches and cut speculative ones).
    #[must_use]
    pub fn speculative_nodes(&self) -> u64 {
        self.slave_speculative_nodes + self.aborted_nodes
    }

    /// Every figure as `(name, value)`, for printing.
    #[must_use]
    pub fn named(&self) -> Vec<(&'static str, f64)> {
        let m = &self.master;
        let mut v = vec![
            ("aphid_leaves", self.leaves as f64),
            ("aphid_final_pass_leaves", self.final_pass_leaves as f64),
            (
                "aphid_leaves_searched_to_depth",
                self.leaves_searched_to_depth as f64,
            ),
            ("aphid_passes", m.passes as f64),
            ("aphid_master_nodes", self.master_nodes() as f64),
            ("aphid_sequential_nodes", m.sequential_nodes as f64),
            ("aphid_bad_bounds", m.bad_bounds as f64),
            ("aphid_moves", m.moves as f64),
            ("aphid_exemptions", m.exemptions as f64),
            ("aphid_resends", m.resends as f64),
            ("aphid_splits", m.splits as f64),
            ("aphid_pass_nodes", m.pass_nodes as f64),
            ("aphid_proven_cuts", m.proven_cuts as f64),
        ];
        if let Some(t) = m.startup_ns {
            v.push(("aphid_startup_s", t as f64 / 1e9));
        }
        if let Some(g) = self.geometry {
            v.push(("aphid_master_depth", f64::from(g.master_depth)));
            v.push(("aphid_granularity", f64::from(g.granularity)));
            v.push(("aphid_parallel_from", f64::from(g.parallel_from)));
        }
        v.push((
            "aphid_slave_required_nodes",
            self.slave_required_nodes as f64,
        ));
        v.push((
            "aphid_speculative_nodes",
            self.slave_speculative_nodes as f64,
        ));
        v.push(("aphid_aborted_nodes", self.aborted_nodes as f64));
        v.extend(self.guesses.figures());
        if let Some(s) = &self.shadow {
            v.extend(s.figures());
        }
        if let Some(m) = &self.mids {
            v.extend(m.figures());
        }
        v.push(("master_processors", self.master_processors as f64));
        v.push(("aphid_master_cpu_share", self.master_cpu_share));
        v.push(("speculative_nodes", self.speculative_nodes() as f64));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speculative_nodes_count_completed_and_cut_speculative_searches() {
        let f = AphidFigures {
            slave_required_nodes: 500,
            slave_speculative_nodes: 70,
            aborted_nodes: 30,
            ..AphidFigures::default()
        };
        assert_eq!(f.speculative_nodes(), 100);
        let named = f.named();
        let get = |k: &str| named.iter().find(|(n, _)| *n == k).map(|(_, v)| *v);
        assert_eq!(get("speculative_nodes"), Some(100.0));
        assert_eq!(get("aphid_master_depth"), None, "no geometry, no figure");
        assert_eq!(get("aphid_shadow_tables_sent"), None, "no ring, no figures");
    }
}
