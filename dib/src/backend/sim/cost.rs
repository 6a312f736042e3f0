//! The simulator's cost model (LogP-style) and its presets.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use crate::context::{Nanos, ProcId};

/// How virtual time advances: per node searched, and per message (sender overhead `o_s`,
/// receiver overhead `o_r`, wire latency `L`), with per-processor speed differences.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CostModel {
    /// The preset's name (or `custom`).
    pub name: String,
    /// Virtual time of one node on a processor of relative cost 100.
    pub node_ns: Nanos,
    /// Time the sender spends on each message.
    pub send_overhead_ns: Nanos,
    /// Time the receiver spends on each message it polls.
    pub recv_overhead_ns: Nanos,
    /// Time a message spends on the wire.
    pub latency_ns: Nanos,
    /// Relative cost of a node per processor in percent (100 = the base speed; 300 = three
    /// times slower), cycled over the processors; empty means all 100.
    pub relative_cost_percent: Vec<u32>,
}

/// The names of the presets, for error messages and help.
pub const PRESET_NAMES: &str = "shared-memory, network, pdp11";

/// A preset name that does not exist.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown simulator preset '{0}'; the presets are: {PRESET_NAMES}")]
pub struct UnknownPreset(pub String);

impl CostModel {
    /// A shared-memory multiprocessor of the late 1980s (Sequent Symmetry class): 10 µs per
    /// node (100,000 nodes/s per processor), messages through shared memory cost 5 µs to send,
    /// 5 µs to receive and 2 µs in flight.
    #[must_use]
    pub fn shared_memory() -> CostModel {
        CostModel {
            name: "shared-memory".into(),
            node_ns: 10_000,
            send_overhead_ns: 5_000,
            recv_overhead_ns: 5_000,
            latency_ns: 2_000,
            relative_cost_percent: Vec::new(),
        }
    }

    /// A network of early-1990s workstations on 10 Mbit/s Ethernet: 10 µs per node, 300 µs of
    /// protocol-stack overhead at each end of a message and 1 ms on the wire.
    #[must_use]
    pub fn network() -> CostModel {
        CostModel {
            name: "network".into(),
            node_ns: 10_000,
            send_overhead_ns: 300_000,
            recv_overhead_ns: 300_000,
            latency_ns: 1_000_000,
            relative_cost_percent: Vec::new(),
        }
    }

    /// Unequal processors on a slow serial link, after seed 002's PDP-11/45 paired with a
    /// slower PDP-11/20: even processors at base speed (20 µs per node), odd ones three times
    /// slower; 1 ms overhead per message end and 5 ms on the link.
    #[must_use]
    pub fn pdp11() -> CostModel {
        CostModel {
            name: "pdp11".into(),
            node_ns: 20_000,
            send_overhead_ns: 1_000_000,
            recv_overhead_ns: 1_000_000,
            latency_ns: 5_000_000,
            relative_cost_percent: vec![100, 300],
        }
    }

    /// The virtual time of `nodes` nodes on processor `id`.
    #[must_use]
    pub fn nodes_ns(&self, id: ProcId, nodes: u64) -> Nanos {
        let pct = if self.relative_cost_percent.is_empty() {
            100
        } else {
            self.relative_cost_percent[id % self.relative_cost_percent.len()]
        };
        nodes
            .saturating_mul(self.node_ns)
            .saturating_mul(u64::from(pct))
            / 100
    }
}

impl FromStr for CostModel {
    type Err = UnknownPreset;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        match name {
            "shared-memory" => Ok(CostModel::shared_memory()),
            "network" => Ok(CostModel::network()),
            "pdp11" => Ok(CostModel::pdp11()),
            other => Err(UnknownPreset(other.to_string())),
        }
    }
}

impl fmt::Display for CostModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (node {} ns, o_send {} ns, o_recv {} ns, L {} ns)",
            self.name, self.node_ns, self.send_overhead_ns, self.recv_overhead_ns, self.latency_ns
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_parse_and_slow_processors_cost_more() {
        for name in PRESET_NAMES.split(", ") {
            assert_eq!(
                name.parse::<CostModel>().map(|c| c.name),
                Ok(name.to_string())
            );
        }
        assert!("cray".parse::<CostModel>().is_err());
        let p = CostModel::pdp11();
        assert_eq!(p.nodes_ns(1, 10), 3 * p.nodes_ns(0, 10));
    }
}
