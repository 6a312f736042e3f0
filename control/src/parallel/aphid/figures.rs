//! What an APHID run reports beside its value: [`AphidFigures`], the result's
//! `ParallelResult::aphid`.

use std::fmt;

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

    /// The number of figures [`AphidFigures`]'s `Display` writes.
    #[must_use]
    pub fn count(&self) -> usize {
        self.to_string().lines().count()
    }
}

/// One `name: value` line per figure (`runner search --verbose`).
impl fmt::Display for AphidFigures {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = &self.master;
        for (name, value) in [
            ("aphid_leaves", self.leaves),
            ("aphid_final_pass_leaves", self.final_pass_leaves),
            (
                "aphid_leaves_searched_to_depth",
                self.leaves_searched_to_depth,
            ),
            ("aphid_passes", m.passes),
            ("aphid_master_nodes", self.master_nodes()),
            ("aphid_sequential_nodes", m.sequential_nodes),
            ("aphid_bad_bounds", m.bad_bounds),
            ("aphid_moves", m.moves),
            ("aphid_exemptions", m.exemptions),
            ("aphid_resends", m.resends),
            ("aphid_splits", m.splits),
            ("aphid_pass_nodes", m.pass_nodes),
            ("aphid_proven_cuts", m.proven_cuts),
        ] {
            writeln!(f, "{name}: {value}")?;
        }
        if let Some(t) = m.startup_ns {
            writeln!(f, "aphid_startup_s: {}", t as f64 / 1e9)?;
        }
        if let Some(g) = self.geometry {
            writeln!(f, "aphid_master_depth: {}", g.master_depth)?;
            writeln!(f, "aphid_granularity: {}", g.granularity)?;
            writeln!(f, "aphid_parallel_from: {}", g.parallel_from)?;
        }
        writeln!(
            f,
            "aphid_slave_required_nodes: {}",
            self.slave_required_nodes
        )?;
        writeln!(
            f,
            "aphid_speculative_nodes: {}",
            self.slave_speculative_nodes
        )?;
        writeln!(f, "aphid_aborted_nodes: {}", self.aborted_nodes)?;
        write!(f, "{}", self.guesses)?;
        if let Some(s) = &self.shadow {
            write!(f, "{s}")?;
        }
        if let Some(m) = &self.mids {
            write!(f, "{m}")?;
        }
        writeln!(f, "master_processors: {}", self.master_processors)?;
        writeln!(f, "aphid_master_cpu_share: {}", self.master_cpu_share)?;
        writeln!(f, "speculative_nodes: {}", self.speculative_nodes())
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
        let text = f.to_string();
        let get = |k: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(k)?.strip_prefix(": "))
                .map(|v| v.parse::<f64>().expect("a number"))
        };
        assert_eq!(get("speculative_nodes"), Some(100.0));
        assert_eq!(get("aphid_master_depth"), None, "no geometry, no figure");
        assert_eq!(get("aphid_shadow_tables_sent"), None, "no ring, no figures");
    }
}
