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
//! - the overheads: the per-position means of compare's figures of the same name, in percent
//!   (idle: compare's `starvation`; time overhead: compare's `total_overhead`);
//! - leaf nodes: not counted by the searchers, so no number.

use super::published::Quantity;
use crate::compare::analysis::{Row, Summary};

/// What one cell of a comparison gives the published quantities.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// Series label.
    pub series: String,
    /// Processors.
    pub procs: usize,
    /// Seed.
    pub seed: u64,
    /// Elapsed seconds (virtual on the simulator).
    pub seconds: f64,
    /// Search nodes.
    pub nodes: u64,
    /// The run's `sort_seconds` figure, when it has one.
    pub sort_seconds: Option<f64>,
}

impl From<&Row> for Cell {
    fn from(r: &Row) -> Cell {
        Cell {
            series: r.series.clone(),
            procs: r.procs,
            seed: r.seed,
            seconds: r.seconds,
            nodes: r.nodes,
            sort_seconds: r.extra.get("sort_seconds").copied(),
        }
    }
}

fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    (n > 0).then(|| sum / n as f64)
}

fn cells<'a>(rows: &'a [Cell], series: &'a str, procs: usize) -> impl Iterator<Item = &'a Cell> {
    rows.iter()
        .filter(move |r| r.series == series && r.procs == procs)
}

fn mean_seconds(rows: &[Cell], series: &str, procs: usize) -> Option<f64> {
    mean(cells(rows, series, procs).map(|r| r.seconds))
}

fn mean_nodes(rows: &[Cell], series: &str, procs: usize) -> Option<f64> {
    mean(cells(rows, series, procs).map(|r| r.nodes as f64))
}

/// The per-position mean of compare's figure `name`.
fn figure(summaries: &[Summary], series: &str, procs: usize, name: &str) -> Option<f64> {
    summaries
        .iter()
        .find(|s| s.series == series && s.procs == procs)
        .and_then(|s| s.per_position.get(name))
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
    let pct = |name: &str| figure(summaries, series, procs, name).map(|v| v * 100.0);
    let v = match quantity {
        Quantity::RelativeEfficiency => {
            mean_seconds(rows, series, 1)? / (n * mean_seconds(rows, series, procs)?)
        }
        Quantity::Speedup => figure(summaries, series, procs, "speedup")?,
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
        Quantity::TotalOverhead | Quantity::TimeOverhead => pct("total_overhead")?,
        Quantity::MasterOverhead => pct("master_overhead")?,
        Quantity::SearchOverhead => pct("search_overhead")?,
        Quantity::SpeculativeSearch => pct("speculative_search")?,
        Quantity::ParallelizationOverhead => pct("parallelization_overhead")?,
        Quantity::SynchronizationOverhead => pct("synchronization_overhead")?,
        Quantity::Idle => pct("starvation")?,
        // Seed 002's measures come from its own runs (`pdp11.rs`), not from a comparison.
        Quantity::LeafNodes
        | Quantity::TotalIncreasePct
        | Quantity::DsubPct
        | Quantity::DcommPct
        | Quantity::CommGrowth => return None,
    };
    v.is_finite().then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::metrics::Spread;

    fn cell(series: &str, procs: usize, seed: u64, seconds: f64, nodes: u64) -> Cell {
        Cell {
            series: series.into(),
            procs,
            seed,
            seconds,
            nodes,
            sort_seconds: (series == "s").then_some(seconds / 4.0),
        }
    }

    fn summary(series: &str, procs: usize, figures: &[(&'static str, f64)]) -> Summary {
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
                ("speedup", 2.5),
                ("total_overhead", 0.5),
                ("starvation", 0.1),
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
        assert!(close(v(Quantity::TimeOverhead), 50.0));
        assert!(close(v(Quantity::Idle), 10.0));
        // Not measured or not run: no number.
        assert_eq!(v(Quantity::SortSeconds), None);
        assert_eq!(v(Quantity::MasterOverhead), None);
        assert_eq!(v(Quantity::LeafNodes), None);
        assert_eq!(value(Quantity::Seconds, "a", 8, &cells, &sums), None);
        assert!(close(
            value(Quantity::SortSeconds, "s", 4, &cells, &sums),
            0.5
        ));
        // No 1-processor run of s: no relative figures.
        assert_eq!(
            value(Quantity::RelativeEfficiency, "s", 4, &cells, &sums),
            None
        );
    }
}
