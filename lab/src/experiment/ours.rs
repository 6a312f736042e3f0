//! Our number for a published [`Quantity`]: computed from a comparison's cells (one per
//! position, series, processor count and seed), always from the same series and processor
//! count as the published point. Means are over positions and seeds.
//!
//! - relative efficiency: mean T1 of the same series / (N x mean T_N);
//! - speedup: the per-position mean of baseline time / T_N (compare's `speedup`);
//! - nodes relative: mean nodes on N / mean nodes of the same series on 1;
//! - nodes thousands: mean search nodes per position / 1000 (look-ahead nodes are not search
//!   nodes: the split engine leaves them out of `nodes`);
//! - total seconds: N x mean elapsed seconds per position;
//! - sort seconds: the mean of the run's `sort_seconds` figure (look-ahead nodes x the cost
//!   model's static-evaluation cost, summed over processors; simulator runs only);
//! - seconds: mean elapsed seconds per position; test-set seconds: elapsed seconds summed
//!   over the positions run (mean over seeds);
//! - the overheads of the thesis: the per-position means of compare's figures of the same
//!   name, in percent (idle: compare's `starvation`);
//! - Marsland and Popowich's overheads, ratios of means as the paper computes them (section 7.2):
//!   time overhead N x mean T_N / mean T_1 - 1, search overhead mean leaf nodes on N / mean leaf
//!   nodes on 1 - 1, in percent, both against the same series on one processor;
//! - leaf nodes: the mean horizon leaves per position (algorithms that count them).
//!
//! Two papers read some numbers differently, each a [`Reading`] of its mapping: Brockington and
//! Schaeffer's figure 8 averages the speedups over one third of the positions sorted by their
//! sequential tree size ([`Reading::Third`]), and its figure 9 gives overheads of the positions'
//! summed times and nodes that add up ([`Reading::Additive`], [`additive`]).

use serde::{Deserialize, Serialize};

use super::published::Quantity;
use crate::compare::analysis::{Row, Summary};
use crate::compare::metrics::Metric;

/// How our number of a published point is read from the comparison (an experiment file's
/// `read`: `"compare"`, `{ third = K }` or `"additive"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reading {
    /// [`value`]: the quantity as this module's table says, over every position.
    #[default]
    Compare,
    /// The per-position mean speedup over one third of the positions, sorted by the
    /// baseline's nodes (0 the smallest trees, 2 the largest), as Brockington and Schaeffer's
    /// figure 8.
    Third(usize),
    /// Brockington and Schaeffer's overheads of figure 9, from the positions' summed times and
    /// nodes ([`additive`]).
    Additive,
}

impl Reading {
    /// What to add to our series label ("" for [`Reading::Compare`]).
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Reading::Compare => "",
            Reading::Third(0) => "smallest third",
            Reading::Third(1) => "middle third",
            Reading::Third(_) => "largest third",
            Reading::Additive => "summed",
        }
    }
}

/// What one cell of a comparison gives the published quantities.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// The position's line in the test set.
    pub line: usize,
    /// Series label.
    pub series: String,
    /// Processors.
    pub procs: usize,
    /// Seed.
    pub seed: u64,
    /// Elapsed seconds (virtual on the simulator).
    pub seconds: f64,
    /// The baseline's seconds on the same position.
    pub baseline_seconds: f64,
    /// Search nodes.
    pub nodes: u64,
    /// The run's `sort_seconds` figure, when it has one.
    pub sort_seconds: Option<f64>,
    /// Horizon leaves, where the algorithm counts them.
    pub horizon_leaves: Option<u64>,
    /// The baseline's nodes on the position.
    pub baseline_nodes: u64,
    /// Nodes of the processors used only as masters (APHID's master; 0 for the others).
    pub master_nodes: u64,
    /// Nodes searched beyond the requested depth (APHID's speculative search).
    pub speculative_nodes: u64,
    /// Idle seconds summed over the working processors (the masters left out).
    pub idle: f64,
    /// Processors used only as masters.
    pub masters: usize,
    /// Whether the run's root value is the baseline's.
    pub value_agrees: bool,
    /// Whether its best move at the root is the baseline's (`None` when either is unknown).
    pub move_agrees: Option<bool>,
}

impl From<&Row> for Cell {
    fn from(r: &Row) -> Cell {
        Cell {
            line: r.line,
            series: r.series.clone(),
            procs: r.procs,
            seed: r.seed,
            seconds: r.seconds,
            baseline_seconds: r.baseline_seconds,
            nodes: r.nodes,
            sort_seconds: r.figures.sort_seconds,
            horizon_leaves: r.horizon_leaves,
            baseline_nodes: r.baseline_nodes,
            master_nodes: r.aphid.as_ref().map_or(0, |a| a.master_nodes()),
            speculative_nodes: r.aphid.as_ref().map_or(0, |a| a.speculative_nodes()),
            idle: r.run().idle,
            masters: r.run().master_procs,
            value_agrees: r.value == r.baseline_value,
            move_agrees: r
                .best_move
                .as_ref()
                .zip(r.baseline_best_move.as_ref())
                .map(|(a, b)| a == b),
        }
    }
}

fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    (n > 0).then(|| sum / n as f64)
}

/// The cells of `series` on `procs` processors. A label `S#k` names series `S` on the `k`-th
/// position of the test set alone (1 first, counted over the positions the cells hold): a
/// published number of one position.
fn cells<'a>(rows: &'a [Cell], series: &'a str, procs: usize) -> impl Iterator<Item = &'a Cell> {
    let (label, line) = match series.split_once('#') {
        Some((label, k)) => {
            let mut lines: Vec<usize> = rows.iter().map(|r| r.line).collect();
            lines.sort_unstable();
            lines.dedup();
            let line = k
                .parse::<usize>()
                .ok()
                .and_then(|k| k.checked_sub(1))
                .and_then(|k| lines.get(k).copied());
            (label, Some(line))
        }
        None => (series, None),
    };
    rows.iter().filter(move |r| {
        r.series == label && r.procs == procs && line.is_none_or(|l| l == Some(r.line))
    })
}

fn mean_seconds(rows: &[Cell], series: &str, procs: usize) -> Option<f64> {
    mean(cells(rows, series, procs).map(|r| r.seconds))
}

fn mean_nodes(rows: &[Cell], series: &str, procs: usize) -> Option<f64> {
    mean(cells(rows, series, procs).map(|r| r.nodes as f64))
}

/// The mean horizon leaves; `None` when a cell does not count them.
fn mean_leaves(rows: &[Cell], series: &str, procs: usize) -> Option<f64> {
    let leaves: Option<Vec<f64>> = cells(rows, series, procs)
        .map(|r| r.horizon_leaves.map(|l| l as f64))
        .collect();
    mean(leaves?.into_iter())
}

/// The per-position mean of compare's figure `name`.
fn figure(summaries: &[Summary], series: &str, procs: usize, metric: Metric) -> Option<f64> {
    summaries
        .iter()
        .find(|s| s.series == series && s.procs == procs)
        .and_then(|s| s.per_position.get(&metric))
        .map(|spread| spread.mean)
}

/// Our value of `quantity` for `series` on `procs` processors; `None` when the comparison has
/// no such cells or does not measure the quantity.
#[must_use]
pub fn value(
    quantity: Quantity,
    series: &str,
    procs: usize,
    rows: &[Cell],
    summaries: &[Summary],
) -> Option<f64> {
    let n = procs as f64;
    let pct = |metric: Metric| figure(summaries, series, procs, metric).map(|v| v * 100.0);
    let v = match quantity {
        Quantity::RelativeEfficiency => {
            mean_seconds(rows, series, 1)? / (n * mean_seconds(rows, series, procs)?)
        }
        Quantity::Speedup if series.contains('#') => {
            // One position: the mean over its seeds of baseline time / T_N.
            mean(cells(rows, series, procs).map(|r| r.baseline_seconds / r.seconds))?
        }
        Quantity::Speedup => figure(summaries, series, procs, Metric::Speedup)?,
        Quantity::NodesRelative => mean_nodes(rows, series, procs)? / mean_nodes(rows, series, 1)?,
        Quantity::NodesThousands => mean_nodes(rows, series, procs)? / 1000.0,
        Quantity::TotalSeconds => n * mean_seconds(rows, series, procs)?,
        Quantity::SortSeconds => mean(cells(rows, series, procs).filter_map(|r| r.sort_seconds))?,
        Quantity::Seconds => mean_seconds(rows, series, procs)?,
        Quantity::TestSetSeconds => {
            let mut seeds: Vec<u64> = cells(rows, series, procs).map(|r| r.seed).collect();
            seeds.sort_unstable();
            seeds.dedup();
            if seeds.is_empty() {
                return None;
            }
            let sum: f64 = cells(rows, series, procs).map(|r| r.seconds).sum();
            sum / seeds.len() as f64
        }
        Quantity::TotalOverhead => pct(Metric::TotalOverhead)?,
        Quantity::TimeOverhead => {
            100.0 * (n * mean_seconds(rows, series, procs)? / mean_seconds(rows, series, 1)? - 1.0)
        }
        Quantity::LeafSearchOverhead => {
            100.0 * (mean_leaves(rows, series, procs)? / mean_leaves(rows, series, 1)? - 1.0)
        }
        Quantity::LeafNodes => mean_leaves(rows, series, procs)?,
        Quantity::MasterOverhead => pct(Metric::MasterOverhead)?,
        Quantity::SearchOverhead => pct(Metric::SearchOverhead)?,
        Quantity::SpeculativeSearch => pct(Metric::SpeculativeSearch)?,
        Quantity::ParallelizationOverhead => pct(Metric::ParallelizationOverhead)?,
        Quantity::SynchronizationOverhead => pct(Metric::SynchronizationOverhead)?,
        Quantity::Idle => pct(Metric::Starvation)?,
        // The two-PDP-11 thesis's measures come from its own runs (`pdp11.rs`), not from a
        // comparison.
        Quantity::TotalIncreasePct
        | Quantity::DsubPct
        | Quantity::DcommPct
        | Quantity::CommGrowth => return None,
    };
    v.is_finite().then_some(v)
}

/// Our value of `quantity` read as `reading` (see [`Reading`]); `None` where the comparison
/// has no such cells, or the reading has no such quantity.
#[must_use]
pub fn read(
    reading: Reading,
    quantity: Quantity,
    series: &str,
    procs: usize,
    rows: &[Cell],
    summaries: &[Summary],
) -> Option<f64> {
    match reading {
        Reading::Compare => value(quantity, series, procs, rows, summaries),
        Reading::Third(k) if quantity == Quantity::Speedup => {
            let lines = thirds(rows).get(k)?.clone();
            mean(
                cells(rows, series, procs)
                    .filter(|c| lines.contains(&c.line) && c.seconds > 0.0)
                    .map(|c| c.baseline_seconds / c.seconds),
            )
        }
        Reading::Third(_) => None,
        Reading::Additive => {
            let a = additive(rows, series, procs)?;
            let v = match quantity {
                Quantity::TotalOverhead => a.total,
                Quantity::MasterOverhead => a.master,
                Quantity::SearchOverhead => a.search,
                Quantity::SpeculativeSearch => a.speculative,
                Quantity::ParallelizationOverhead => a.parallelization,
                Quantity::Speedup => a.speedup,
                _ => return None,
            };
            Some(if quantity == Quantity::Speedup {
                v
            } else {
                v * 100.0
            })
        }
    }
}

/// The positions' lines in three groups of (nearly) equal size by the baseline's nodes, the
/// smallest trees first (ties by line); a position in several cells counts once.
#[must_use]
pub fn thirds(rows: &[Cell]) -> [Vec<usize>; 3] {
    let mut sizes: Vec<(u64, usize)> = rows.iter().map(|c| (c.baseline_nodes, c.line)).collect();
    sizes.sort_unstable();
    sizes.dedup_by_key(|(_, line)| *line);
    sizes.sort_unstable();
    let n = sizes.len();
    let part = |k: usize| {
        sizes[k * n / 3..(k + 1) * n / 3]
            .iter()
            .map(|(_, l)| *l)
            .collect()
    };
    [part(0), part(1), part(2)]
}

/// Brockington and Schaeffer's overheads (its section 4, figure 9): of the times and nodes summed
/// over the positions (and seeds), as fractions of the sequential time `T_s`, with `T_p` the
/// parallel time and `n` the processors. They add up:
///
/// ```text
/// total           = (n T_p - T_s) / T_s
/// master          = T_p / T_s                       (the master's workstation, all of it)
/// search          = (slave nodes - speculative) / sequential nodes - 1
/// speculative     = speculative nodes / sequential nodes
/// parallelization = total - master - search - speculative
/// ```
///
/// so parallelization is the slaves' time not spent searching at the sequential node rate:
/// `((n - 1) T_p - slave nodes x T_s / sequential nodes) / T_s`, their slower nodes, their
/// messages and their idle time. (Search overhead counts the slaves' nodes only: the
/// master's, sequential iterations included, are in the master overhead.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Additive {
    /// Summed sequential time / summed parallel time.
    pub speedup: f64,
    /// Total overhead.
    pub total: f64,
    /// Master overhead.
    pub master: f64,
    /// Search overhead.
    pub search: f64,
    /// Speculative search.
    pub speculative: f64,
    /// Parallelization overhead.
    pub parallelization: f64,
    /// The slaves' nodes per second of their time ((n - 1) x T_p, idle included) over the
    /// sequential program's nodes per second: Brockington and Schaeffer's "2000 nodes per second"
    /// against 2500.
    pub slave_rate: f64,
    /// The slaves' idle time over their time.
    pub slave_idle: f64,
}

/// [`Additive`] of `series` on `procs` processors; `None` without cells.
#[must_use]
pub fn additive(rows: &[Cell], series: &str, procs: usize) -> Option<Additive> {
    let mine: Vec<&Cell> = cells(rows, series, procs).collect();
    if mine.is_empty() {
        return None;
    }
    let sum = |f: &dyn Fn(&Cell) -> f64| mine.iter().map(|c| f(c)).sum::<f64>();
    let ts = sum(&|c| c.baseline_seconds);
    let tp = sum(&|c| c.seconds);
    let ns = sum(&|c| c.baseline_nodes as f64);
    let slave = sum(&|c| c.nodes.saturating_sub(c.master_nodes) as f64);
    let spec = sum(&|c| c.speculative_nodes as f64);
    let idle = sum(&|c| c.idle);
    if ts <= 0.0 || tp <= 0.0 || ns <= 0.0 {
        return None;
    }
    let masters = mine[0].masters.min(procs.saturating_sub(1));
    let working = (procs - masters) as f64;
    let n = procs as f64;
    let total = (n * tp - ts) / ts;
    let master = tp / ts;
    let speculative = spec / ns;
    let search = (slave - spec) / ns - 1.0;
    Some(Additive {
        speedup: ts / tp,
        total,
        master,
        search,
        speculative,
        parallelization: total - master - search - speculative,
        slave_rate: (slave / (working * tp)) / (ns / ts),
        slave_idle: idle / (working * tp),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::metrics::Spread;

    fn cell(series: &str, procs: usize, seed: u64, seconds: f64, nodes: u64) -> Cell {
        Cell {
            // Two positions (lines 4 and 9), told apart by their node counts.
            line: if nodes % 3000 == 0 { 9 } else { 4 },
            series: series.into(),
            procs,
            seed,
            seconds,
            baseline_seconds: 12.0,
            nodes,
            sort_seconds: (series == "s").then_some(seconds / 4.0),
            horizon_leaves: (series == "a").then_some(nodes / 2),
            baseline_nodes: 0,
            master_nodes: 0,
            speculative_nodes: 0,
            idle: 0.0,
            masters: 0,
            value_agrees: true,
            move_agrees: None,
        }
    }

    /// A run of `a` on 4 processors (one master) of position `line` whose baseline took
    /// `base` seconds and `base_nodes` nodes.
    fn aphid(line: usize, base: (f64, u64), seconds: f64, nodes: u64) -> Cell {
        Cell {
            line,
            baseline_seconds: base.0,
            baseline_nodes: base.1,
            master_nodes: nodes / 10,
            speculative_nodes: nodes / 5,
            idle: seconds / 2.0,
            masters: 1,
            ..cell("a", 4, 1, seconds, nodes)
        }
    }

    #[test]
    fn thirds_sort_the_positions_by_their_sequential_trees() {
        // Six positions; line 6 has the smallest tree, line 1 the largest.
        let rows: Vec<Cell> = (1..=6)
            .map(|l| aphid(l, (1.0, 100 * (7 - l as u64)), 1.0 / l as f64, 1))
            .collect();
        assert_eq!(thirds(&rows), [vec![6, 5], vec![4, 3], vec![2, 1]]);
        let close = |a: Option<f64>, b: f64| a.is_some_and(|a| (a - b).abs() < 1e-12);
        let third = |k| read(Reading::Third(k), Quantity::Speedup, "a", 4, &rows, &[]);
        // Speedup of line l is 1 / (1 / l) = l.
        assert!(close(third(0), 5.5));
        assert!(close(third(2), 1.5));
        assert_eq!(
            read(Reading::Third(0), Quantity::Seconds, "a", 4, &rows, &[]),
            None
        );
        // Seven positions: 2, 2 and 3.
        let mut seven = rows;
        seven.push(aphid(7, (1.0, 50), 1.0, 1));
        assert_eq!(thirds(&seven).map(|t| t.len()), [2, 2, 3]);
    }

    #[test]
    fn brockington_schaeffer_overheads_add_up_by_hand() {
        // Two positions: sequential 10 s and 1000 nodes, 30 s and 3000 nodes; on 4 processors
        // 5 s with 2000 nodes and 10 s with 6000 (a tenth on the master, a fifth speculative).
        let rows = vec![
            aphid(1, (10.0, 1000), 5.0, 2000),
            aphid(2, (30.0, 3000), 10.0, 6000),
        ];
        let a = additive(&rows, "a", 4).expect("cells");
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        // T_s 40, T_p 15: total (60 - 40) / 40; master 15 / 40.
        assert!(close(a.speedup, 40.0 / 15.0));
        assert!(close(a.total, 0.5) && close(a.master, 0.375));
        // Slave nodes 7200 of 8000, speculative 1600, sequential 4000.
        assert!(close(a.speculative, 0.4));
        assert!(close(a.search, (7200.0 - 1600.0) / 4000.0 - 1.0));
        assert!(close(
            a.total,
            a.master + a.search + a.speculative + a.parallelization
        ));
        // The slaves' time: 3 x 15 s, 7200 nodes; the sequential rate 100 nodes/s.
        assert!(close(a.slave_rate, 7200.0 / 45.0 / 100.0));
        assert!(close(a.slave_idle, 7.5 / 45.0));
        let pct = read(
            Reading::Additive,
            Quantity::MasterOverhead,
            "a",
            4,
            &rows,
            &[],
        );
        assert!(pct.is_some_and(|p| close(p, 37.5)));
        assert_eq!(additive(&rows, "a", 8), None);
    }

    fn summary(series: &str, procs: usize, figures: &[(Metric, f64)]) -> Summary {
        Summary {
            series: series.into(),
            procs,
            samples: 2,
            disagreements: 0,
            values_may_differ: false,
            seconds: Spread::default(),
            per_position: figures
                .iter()
                .map(|&(n, mean)| {
                    (
                        n,
                        Spread {
                            mean,
                            ..Spread::default()
                        },
                    )
                })
                .collect(),
            aggregate: Default::default(),
            repeats: 1,
            seconds_ci: None,
            speedup_ci: None,
        }
    }

    #[test]
    fn every_quantity_by_hand() {
        // Two positions (seed 1) of series a on 1 and 4 processors; series s sorts.
        let cells = vec![
            cell("a", 1, 1, 8.0, 1000),
            cell("a", 1, 1, 4.0, 3000),
            cell("a", 4, 1, 3.0, 2000),
            cell("a", 4, 1, 1.0, 6000),
            cell("s", 4, 1, 2.0, 10),
        ];
        let sums = vec![summary(
            "a",
            4,
            &[
                (Metric::Speedup, 2.5),
                (Metric::TotalOverhead, 0.5),
                (Metric::Starvation, 0.1),
            ],
        )];
        let v = |q| value(q, "a", 4, &cells, &sums);
        let close = |a: Option<f64>, b: f64| a.is_some_and(|a| (a - b).abs() < 1e-12);
        // Mean T1 6, mean T4 2: 6 / (4 x 2).
        assert!(close(v(Quantity::RelativeEfficiency), 0.75));
        assert!(close(v(Quantity::NodesRelative), 2.0));
        assert!(close(v(Quantity::NodesThousands), 4.0));
        assert!(close(v(Quantity::TotalSeconds), 8.0));
        assert!(close(v(Quantity::Seconds), 2.0));
        assert!(close(v(Quantity::TestSetSeconds), 4.0));
        assert!(close(v(Quantity::Speedup), 2.5));
        assert!(close(v(Quantity::TotalOverhead), 50.0));
        // 4 x mean T4 2 / mean T1 6 - 1.
        assert!(close(v(Quantity::TimeOverhead), 100.0 / 3.0));
        // Leaves are half the nodes: means 2000 on 1, 4000 on 4.
        assert!(close(v(Quantity::LeafNodes), 2000.0));
        assert!(close(v(Quantity::LeafSearchOverhead), 100.0));
        assert!(close(v(Quantity::Idle), 10.0));
        // Not measured or not run: no number.
        assert_eq!(v(Quantity::SortSeconds), None);
        assert_eq!(v(Quantity::MasterOverhead), None);
        assert_eq!(
            value(Quantity::LeafNodes, "s", 4, &cells, &sums),
            None,
            "s counts no leaves"
        );
        assert_eq!(value(Quantity::Seconds, "a", 8, &cells, &sums), None);
        assert!(close(
            value(Quantity::SortSeconds, "s", 4, &cells, &sums),
            0.5
        ));
        // One position: `a#1` is line 4 (3 s on 4 processors against the baseline's 12 s),
        // `a#2` line 9 (1 s).
        assert!(close(
            value(Quantity::Speedup, "a#1", 4, &cells, &sums),
            4.0
        ));
        assert!(close(
            value(Quantity::Seconds, "a#2", 4, &cells, &sums),
            1.0
        ));
        assert_eq!(value(Quantity::Seconds, "a#3", 4, &cells, &sums), None);
        // No 1-processor run of s: no relative figures.
        assert_eq!(
            value(Quantity::RelativeEfficiency, "s", 4, &cells, &sums),
            None
        );
    }
}
