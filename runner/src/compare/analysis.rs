//! From stored cells to the comparison's rows (one per position, series, processor count and
//! seed, with its metrics) and summaries (per series and processor count: the per-position
//! mean with its spread, and the aggregate).
//!
//! APHID's figures (`Record::aphid`) give the speculative nodes (searched beyond the requested
//! depth) and the master processors (used only as masters, the lowest-numbered ones; their time
//! is left out of the idle and busy sums and charged as master overhead instead); the other
//! algorithms have neither.

use std::collections::BTreeMap;

use serde::Serialize;

use control::parallel::aphid::AphidFigures;
use control::search::Setting;

use super::metrics::{self, Baseline, Metrics, Run, Spread};
use super::plan::Plan;
use super::store::{Record, Store, key};

/// One cell with its metrics.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// Line of the position in the test set.
    pub line: usize,
    /// Series label.
    pub series: String,
    /// Processors.
    pub procs: usize,
    /// Seed.
    pub seed: u64,
    /// Depth.
    pub depth: u32,
    /// Root value of the run.
    pub value: i32,
    /// Root value of the baseline.
    pub baseline_value: i32,
    /// Nodes of the run.
    pub nodes: u64,
    /// Seconds of the run.
    pub seconds: f64,
    /// Baseline nodes.
    pub baseline_nodes: u64,
    /// Baseline seconds.
    pub baseline_seconds: f64,
    /// The same series on one processor (same position and seed).
    pub one_proc_seconds: Option<f64>,
    /// The metrics.
    pub metrics: Metrics,
    /// Named algorithm figures.
    pub extra: BTreeMap<String, f64>,
    /// APHID's figures (aphid series only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aphid: Option<AphidFigures>,
    #[serde(skip)]
    run: Run,
}

/// Per series and processor count.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Series label.
    pub series: String,
    /// Processors.
    pub procs: usize,
    /// Samples (positions x seeds).
    pub samples: usize,
    /// Samples whose value differs from the baseline's (should be 0 in the research setting).
    pub disagreements: usize,
    /// The play setting (variable depth): values may legitimately differ from the baseline's.
    pub values_may_differ: bool,
    /// Mean seconds per sample with spread.
    pub seconds: Spread,
    /// Each metric: mean and spread over the samples (the per-position mean).
    pub per_position: BTreeMap<&'static str, Spread>,
    /// The metrics of the summed samples (the aggregate).
    pub aggregate: Metrics,
}

fn seconds(ns: &[u64], skip: usize) -> f64 {
    ns.iter().skip(skip).sum::<u64>() as f64 / 1e9
}

fn run_of(r: &Record) -> Run {
    let masters = r.aphid.as_ref().map_or(0, |a| a.master_processors);
    let masters = masters.min(r.procs.saturating_sub(1));
    Run {
        procs: r.procs,
        seconds: r.seconds,
        nodes: r.nodes,
        busy: seconds(&r.busy_ns, masters),
        idle: seconds(&r.idle_ns, masters),
        messaging: seconds(&r.messaging_ns, masters),
        speculative_nodes: r
            .aphid
            .as_ref()
            .map_or(0.0, |a| a.speculative_nodes() as f64),
        master_procs: masters,
    }
}

/// Every row of the plan that the store holds, in plan order.
pub fn rows(plan: &Plan, store: &Store, lines: &[usize]) -> Vec<Row> {
    let mut out = Vec::new();
    for &line in lines {
        let Some(base) = store
            .cells
            .get(&key("baseline", line, plan.baseline.name(), 1, 1))
        else {
            continue;
        };
        for s in &plan.series {
            for &n in &plan.procs {
                for &seed in &plan.seeds {
                    let Some(r) = store.cells.get(&key("run", line, &s.label, n, seed)) else {
                        continue;
                    };
                    let one = store
                        .cells
                        .get(&key("run", line, &s.label, 1, seed))
                        .map(|o| o.seconds);
                    let run = run_of(r);
                    let b = Baseline {
                        seconds: base.seconds,
                        nodes: base.nodes,
                    };
                    out.push(Row {
                        line,
                        series: s.label.clone(),
                        procs: n,
                        seed,
                        depth: r.depth,
                        value: r.value,
                        baseline_value: base.value,
                        nodes: r.nodes,
                        seconds: r.seconds,
                        baseline_nodes: base.nodes,
                        baseline_seconds: base.seconds,
                        one_proc_seconds: one,
                        metrics: metrics::metrics(&run, &b, one),
                        extra: r.extra.clone(),
                        aphid: r.aphid.clone(),
                        run,
                    });
                }
            }
        }
    }
    out
}

/// The named metrics of `m` (relative figures only when known).
pub fn named(m: &Metrics) -> Vec<(&'static str, Option<f64>)> {
    vec![
        ("speedup", Some(m.speedup)),
        ("efficiency", Some(m.efficiency)),
        ("relative_speedup", m.relative_speedup),
        ("relative_efficiency", m.relative_efficiency),
        ("nodes_ratio", Some(m.nodes_ratio)),
        ("starvation", Some(m.starvation)),
        ("interference", Some(m.interference)),
        ("speculative_loss", Some(m.speculative_loss)),
        ("other_loss", Some(m.other_loss)),
        ("total_overhead", Some(m.total_overhead)),
        ("master_overhead", Some(m.master_overhead)),
        ("search_overhead", Some(m.search_overhead)),
        ("speculative_search", Some(m.speculative_search)),
        ("synchronization_overhead", Some(m.synchronization_overhead)),
        ("parallelization_overhead", Some(m.parallelization_overhead)),
    ]
}

/// One summary per series and processor count that has rows.
pub fn summaries(plan: &Plan, rows: &[Row]) -> Vec<Summary> {
    let mut out = Vec::new();
    for s in &plan.series {
        for &n in &plan.procs {
            let mine: Vec<&Row> = rows
                .iter()
                .filter(|r| r.series == s.label && r.procs == n)
                .collect();
            if mine.is_empty() {
                continue;
            }
            let mut per_position = BTreeMap::new();
            for (i, (name, _)) in named(&mine[0].metrics).into_iter().enumerate() {
                let values: Vec<f64> = mine.iter().filter_map(|r| named(&r.metrics)[i].1).collect();
                if !values.is_empty() {
                    per_position.insert(name, metrics::spread(&values));
                }
            }
            let samples: Vec<(Run, Baseline, Option<f64>)> = mine
                .iter()
                .map(|r| {
                    (
                        r.run.clone(),
                        Baseline {
                            seconds: r.baseline_seconds,
                            nodes: r.baseline_nodes,
                        },
                        r.one_proc_seconds,
                    )
                })
                .collect();
            let secs: Vec<f64> = mine.iter().map(|r| r.seconds).collect();
            out.push(Summary {
                series: s.label.clone(),
                procs: n,
                samples: mine.len(),
                disagreements: mine.iter().filter(|r| r.value != r.baseline_value).count(),
                values_may_differ: plan.config.setting != Setting::Research,
                seconds: metrics::spread(&secs),
                per_position,
                aggregate: metrics::aggregate(&samples),
            });
        }
    }
    out
}
