//! APHID's overheads (thesis 6.2.6) and their averages over a test set (6.2.7).
//!
//! With `n` processors, sequential time `T1` and nodes `N1`, parallel time `Tn`:
//!
//! - total overhead = (Tn x n - T1) / T1;
//! - master overhead = 1 / (n - 1): a processor given over to the master; when the master's
//!   processor also runs a slave (`master_hosts_slave`), the master takes only its share `s`
//!   of processor 0 (its busy and messaging time over Tn) and the overhead is s / (n - s),
//!   which is 1 / (n - 1) at s = 1;
//! - parallelization overhead = the slaves' loss of node rate against the sequential rate:
//!   rate(sequential) / rate(slaves) - 1, the slaves' rate being their nodes over their
//!   processor time (n - 1) x Tn, or (n - s) x Tn with a hosted slave;
//! - search overhead = nodes searched for the `d`-ply result (master and slaves, speculative
//!   work excluded) / N1 - 1;
//! - speculative search = nodes of searches deeper than needed for `d` plies / N1.
//!
//! The thesis's identity: 1 + total = (1 + master) (1 + parallelization) (1 + search +
//! speculative), exact per position (our figures satisfy it by construction) and not for the
//! averages.

use serde::Serialize;

/// The overheads of one parallel search against its sequential counterpart.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Overheads {
    /// Speedup T1 / Tn.
    pub speedup: f64,
    /// Total overhead.
    pub total: f64,
    /// Master overhead.
    pub master: f64,
    /// Parallelization overhead.
    pub parallelization: f64,
    /// Search overhead (without speculative search).
    pub search: f64,
    /// Speculative search.
    pub speculative: f64,
}

/// The figures one run gives.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunFigures {
    /// Processors.
    pub procs: usize,
    /// Seconds (virtual on the simulator).
    pub seconds: f64,
    /// Every node searched (master and slaves).
    pub nodes: u64,
    /// Nodes of searches deeper than the `d`-ply result needs.
    pub speculative_nodes: u64,
    /// With a slave on the master's processor: the master's share of that processor (busy and
    /// messaging time over the run's time, the result's `aphid_master_cpu_share`); `None`:
    /// the master has a processor to itself.
    pub master_cpu_share: Option<f64>,
}

impl Overheads {
    /// The overheads of `run` against a sequential search of `seq_nodes` nodes in
    /// `seq_seconds`.
    #[must_use]
    pub fn of(run: RunFigures, seq_nodes: u64, seq_seconds: f64) -> Overheads {
        let n = run.procs.max(1) as f64;
        let seq_nodes = seq_nodes.max(1) as f64;
        let speedup = seq_seconds / run.seconds.max(f64::MIN_POSITIVE);
        let total = (run.seconds * n - seq_seconds) / seq_seconds;
        let master = match run.master_cpu_share {
            Some(share) => {
                let share = share.clamp(0.0, 1.0);
                share / (n - share).max(f64::MIN_POSITIVE)
            }
            None if run.procs > 1 => 1.0 / (n - 1.0),
            None => 0.0,
        };
        let search = (run.nodes - run.speculative_nodes.min(run.nodes)) as f64 / seq_nodes - 1.0;
        let speculative = run.speculative_nodes as f64 / seq_nodes;
        // What is left of the total once the master and the extra nodes are accounted for.
        let parallelization = (1.0 + total) / ((1.0 + master) * (1.0 + search + speculative)) - 1.0;
        Overheads {
            speedup,
            total,
            master,
            parallelization,
            search,
            speculative,
        }
    }

    /// The per-position mean of `all` (thesis method 2).
    #[must_use]
    pub fn mean(all: &[Overheads]) -> Overheads {
        let k = all.len().max(1) as f64;
        let sum = |f: fn(&Overheads) -> f64| all.iter().map(f).sum::<f64>() / k;
        Overheads {
            speedup: sum(|o| o.speedup),
            total: sum(|o| o.total),
            master: sum(|o| o.master),
            parallelization: sum(|o| o.parallelization),
            search: sum(|o| o.search),
            speculative: sum(|o| o.speculative),
        }
    }

    /// The overheads of the whole set taken as one search (thesis method 1); a hosting
    /// master's share is its busy time over all the runs' time.
    #[must_use]
    pub fn aggregate(runs: &[(RunFigures, u64, f64)]) -> Overheads {
        let procs = runs.first().map_or(1, |r| r.0.procs);
        let mut all = RunFigures {
            procs,
            ..RunFigures::default()
        };
        let (mut seq_nodes, mut seq_seconds) = (0, 0.0);
        let mut master_seconds = None;
        for (r, n, s) in runs {
            all.seconds += r.seconds;
            all.nodes += r.nodes;
            all.speculative_nodes += r.speculative_nodes;
            if let Some(share) = r.master_cpu_share {
                *master_seconds.get_or_insert(0.0) += share * r.seconds;
            }
            seq_nodes += n;
            seq_seconds += s;
        }
        all.master_cpu_share = master_seconds.map(|m: f64| m / all.seconds.max(f64::MIN_POSITIVE));
        Overheads::of(all, seq_nodes, seq_seconds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_product_identity_holds_per_position() {
        let run = RunFigures {
            procs: 16,
            seconds: 1.5,
            nodes: 1_300_000,
            speculative_nodes: 100_000,
            master_cpu_share: None,
        };
        let o = Overheads::of(run, 1_000_000, 12.0);
        assert!((o.speedup - 8.0).abs() < 1e-9);
        assert!((o.total - 1.0).abs() < 1e-9);
        assert!((o.master - 1.0 / 15.0).abs() < 1e-9);
        assert!((o.search - 0.2).abs() < 1e-9);
        assert!((o.speculative - 0.1).abs() < 1e-9);
        let product =
            (1.0 + o.master) * (1.0 + o.parallelization) * (1.0 + o.search + o.speculative);
        assert!((product - (1.0 + o.total)).abs() < 1e-9);
    }

    #[test]
    fn a_hosting_master_costs_its_share_of_processor_0() {
        let mut run = RunFigures {
            procs: 16,
            seconds: 1.5,
            nodes: 1_300_000,
            speculative_nodes: 100_000,
            master_cpu_share: Some(0.25),
        };
        let o = Overheads::of(run, 1_000_000, 12.0);
        assert!((o.master - 0.25 / 15.75).abs() < 1e-9);
        let product =
            (1.0 + o.master) * (1.0 + o.parallelization) * (1.0 + o.search + o.speculative);
        assert!((product - (1.0 + o.total)).abs() < 1e-9);
        // A master busy all the time costs a whole processor, as without a hosted slave.
        run.master_cpu_share = Some(1.0);
        let whole = Overheads::of(run, 1_000_000, 12.0);
        assert!((whole.master - 1.0 / 15.0).abs() < 1e-9);
        // The aggregate weighs the shares by time: 0.5 over 1 s and 0 over 3 s is 0.125.
        let one = |seconds, share| {
            (
                RunFigures {
                    procs: 4,
                    seconds,
                    nodes: 100,
                    speculative_nodes: 0,
                    master_cpu_share: Some(share),
                },
                100,
                2.0,
            )
        };
        let agg = Overheads::aggregate(&[one(1.0, 0.5), one(3.0, 0.0)]);
        assert!((agg.master - 0.125 / 3.875).abs() < 1e-9);
    }

    #[test]
    fn the_two_averages_differ_as_the_thesis_warns() {
        let small = (
            RunFigures {
                procs: 4,
                seconds: 1.0,
                nodes: 100,
                speculative_nodes: 0,
                master_cpu_share: None,
            },
            100,
            2.0,
        );
        let large = (
            RunFigures {
                procs: 4,
                seconds: 10.0,
                nodes: 1000,
                speculative_nodes: 0,
                master_cpu_share: None,
            },
            1000,
            40.0,
        );
        let per = Overheads::mean(&[
            Overheads::of(small.0, small.1, small.2),
            Overheads::of(large.0, large.1, large.2),
        ]);
        let agg = Overheads::aggregate(&[small, large]);
        assert!((per.speedup - 3.0).abs() < 1e-9);
        assert!((agg.speedup - 42.0 / 11.0).abs() < 1e-9);
    }
}
