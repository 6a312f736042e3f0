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

use control::parallel::Figures;
use control::parallel::aphid::AphidFigures;
use control::search::{Setting, TtMode};

use super::metrics::{self, Baseline, Interval, Metric, Metrics, Run, Spread};
use super::plan::Plan;
use super::store::{CellKind, Key, Record, Store};

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
    /// Best move at the root of the run (debug form; `None` in cells that did not keep it).
    pub best_move: Option<String>,
    /// Best move at the root of the baseline.
    pub baseline_best_move: Option<String>,
    /// Nodes of the run.
    pub nodes: u64,
    /// Horizon leaves of the run, where the algorithm counts them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub horizon_leaves: Option<u64>,
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
    /// What the algorithm counted (`extra` in the JSON).
    #[serde(rename = "extra")]
    pub figures: Figures,
    /// APHID's figures (aphid series only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aphid: Option<AphidFigures>,
    /// Timed repeats of the run (`seconds` is their median).
    pub repeats: usize,
    /// The order-statistic confidence interval of the run's median time
    /// ([`metrics::median_interval`]; level 0 for one repeat).
    pub seconds_ci: Interval,
    /// The run's repeated times.
    pub times: Vec<f64>,
    /// The baseline's repeated times.
    pub baseline_times: Vec<f64>,
    #[serde(skip)]
    run: Run,
}

impl Row {
    /// The run as the metrics saw it: busy, idle and messaging time of the working
    /// processors, speculative nodes, master processors.
    #[must_use]
    pub fn run(&self) -> &Run {
        &self.run
    }
}

/// A record's repeated times (its one time for cells stored before repeats existed).
fn times_of(r: &Record) -> Vec<f64> {
    if r.times.is_empty() {
        vec![r.seconds]
    } else {
        r.times.clone()
    }
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
    /// The play setting (variable depth), or table cutoffs at any sufficient depth (`--tt
    /// normal`): values may legitimately differ from the baseline's.
    pub values_may_differ: bool,
    /// Mean seconds per sample with spread.
    pub seconds: Spread,
    /// Each metric: mean and spread over the samples (the per-position mean).
    pub per_position: BTreeMap<Metric, Spread>,
    /// The metrics of the summed samples (the aggregate).
    pub aggregate: Metrics,
    /// The fewest timed repeats of a sample.
    pub repeats: usize,
    /// With repeats: the bootstrap 95% interval of the mean time (over the samples, each its
    /// median), resampling every cell's repeats ([`metrics::bootstrap`]).
    pub seconds_ci: Option<Interval>,
    /// With repeats: the bootstrap 95% interval of the per-position mean speedup (each sample's
    /// baseline median over its median), resampling the baselines' repeats too.
    pub speedup_ci: Option<Interval>,
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
        let Some(base) = store.cells.get(&Key::baseline(line, plan.baseline.name())) else {
            continue;
        };
        for s in &plan.series {
            for &n in &plan.procs {
                for &seed in &plan.seeds {
                    let Some(r) = store.cells.get(&Key::run(line, &s.label, n, seed)) else {
                        continue;
                    };
                    let one = store
                        .cells
                        .get(&Key::run(line, &s.label, 1, seed))
                        .map(|o| o.seconds);
                    let run = run_of(r);
                    let times = times_of(r);
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
                        best_move: r.best_move.clone(),
                        baseline_best_move: base.best_move.clone(),
                        nodes: r.nodes,
                        horizon_leaves: r.horizon_leaves,
                        seconds: r.seconds,
                        baseline_nodes: base.nodes,
                        baseline_seconds: base.seconds,
                        one_proc_seconds: one,
                        metrics: metrics::metrics(&run, &b, one),
                        figures: r.figures,
                        aphid: r.aphid.clone(),
                        repeats: times.len(),
                        seconds_ci: metrics::median_interval(&times),
                        times,
                        baseline_times: times_of(base),
                        run,
                    });
                }
            }
        }
    }
    out
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
            for metric in Metric::ALL {
                let values: Vec<f64> = mine.iter().filter_map(|r| r.metrics.get(metric)).collect();
                if !values.is_empty() {
                    per_position.insert(metric, metrics::spread(&values));
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
            let repeats = mine.iter().map(|r| r.repeats).min().unwrap_or(1);
            let (seconds_ci, speedup_ci) = if repeats > 1 {
                let runs: Vec<&[f64]> = mine.iter().map(|r| r.times.as_slice()).collect();
                let pairs: Vec<&[f64]> = mine
                    .iter()
                    .flat_map(|r| [r.baseline_times.as_slice(), r.times.as_slice()])
                    .collect();
                let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
                let speedups = |m: &[f64]| {
                    let s: Vec<f64> = m
                        .chunks(2)
                        .map(|p| if p[1] > 0.0 { p[0] / p[1] } else { 0.0 })
                        .collect();
                    mean(&s)
                };
                (
                    Some(metrics::bootstrap(&runs, mean)),
                    Some(metrics::bootstrap(&pairs, speedups)),
                )
            } else {
                (None, None)
            };
            out.push(Summary {
                series: s.label.clone(),
                procs: n,
                samples: mine.len(),
                disagreements: mine.iter().filter(|r| r.value != r.baseline_value).count(),
                values_may_differ: plan.config.setting != Setting::Research
                    || plan.config.tt_mode == TtMode::Normal,
                seconds: metrics::spread(&secs),
                per_position,
                aggregate: metrics::aggregate(&samples),
                repeats,
                seconds_ci,
                speedup_ci,
            });
        }
    }
    out
}

/// A wall-clock cell whose median time is under this many seconds gets a warning: so short a
/// run is dominated by setup and noise.
pub const SHORT_CELL_SECONDS: f64 = 0.05;

/// The warning for more threads than `cores`: `Some` on the threads backend when a processor
/// count exceeds them.
#[must_use]
pub fn cores_warning(plan: &Plan, cores: usize) -> Option<String> {
    let most = plan.procs.iter().copied().max().unwrap_or(1);
    (plan.backend == crate::cli::BackendKind::Threads && most > cores).then(|| {
        format!(
            "--procs runs up to {most} threads on {cores} cores (std::thread::available_parallelism): \
             the cells with more threads than cores share them, so their wall-clock times measure \
             time-slicing, not parallel speedup"
        )
    })
}

/// The warning for wall-clock cells (runs and baselines) whose median time is under
/// [`SHORT_CELL_SECONDS`]; `None` on the simulator or when there is none.
#[must_use]
pub fn short_cells_warning(plan: &Plan, store: &Store, rows: &[Row]) -> Option<String> {
    if plan.virtual_time() {
        return None;
    }
    let lines: std::collections::BTreeSet<usize> = rows.iter().map(|r| r.line).collect();
    let baselines = store
        .cells
        .values()
        .filter(|r| r.kind == CellKind::Baseline && lines.contains(&r.line))
        .map(|r| r.seconds);
    let times: Vec<f64> = rows.iter().map(|r| r.seconds).chain(baselines).collect();
    let short: Vec<f64> = times
        .iter()
        .copied()
        .filter(|&t| t < SHORT_CELL_SECONDS)
        .collect();
    let shortest = short.iter().copied().fold(f64::INFINITY, f64::min);
    (!short.is_empty()).then(|| {
        format!(
            "{} of {} cells ran under {:.0} ms (the shortest {:.2} ms): times that short are \
             dominated by setup and noise; use a larger --depth, or --time-ms 200",
            short.len(),
            times.len(),
            SHORT_CELL_SECONDS * 1000.0,
            shortest * 1000.0
        )
    })
}

/// The never-splitting control on every processor count above 1 ([`Plan::control`]): its
/// per-position mean speedup against the baseline with the bootstrap interval (`None` without
/// repeats), judged against 1.00 within 3 %.
#[must_use]
pub fn controls(plan: &Plan, summaries: &[Summary]) -> Vec<crate::never_split::Control> {
    let Some(label) = &plan.control else {
        return Vec::new();
    };
    summaries
        .iter()
        .filter(|s| &s.series == label && s.procs > 1)
        .filter_map(|s| {
            let speedup = s.per_position.get(&Metric::Speedup)?.mean;
            let ci = s.speedup_ci.filter(|i| i.level > 0.0).map(|i| (i.lo, i.hi));
            Some(crate::never_split::Control::new(
                plan.testset.display().to_string(),
                s.procs,
                speedup,
                ci,
            ))
        })
        .collect()
}
