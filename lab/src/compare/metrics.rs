//! The figures of a comparison, computed from raw runs: speedup and efficiency against the
//! sequential baseline, relative speedup and efficiency against the same algorithm on one
//! processor (Rezaie and Finkel section 4), the node ratio, the three losses of Rezaie and Finkel
//! section 2 (starvation, interference, speculative) and the overheads of Brockington's
//! thesis section 6.2.6: total, master, search, speculative search, parallelization
//! and synchronization overhead, which multiply:
//!
//! ```text
//! 1 + total = (1 + master) (1 + total search) (1 + parallelization) (1 + synchronization)
//! total search = search + speculative search
//! ```
//!
//! Both averages of thesis section 6.2.7: the per-position mean (each metric computed per
//! position, then averaged) and the aggregate (metrics of the summed times and nodes).

use serde::Serialize;

/// One parallel run as the metrics need it. Times in seconds (virtual on the simulator).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Run {
    /// Processors.
    pub procs: usize,
    /// Elapsed time of the run.
    pub seconds: f64,
    /// Nodes searched by all processors.
    pub nodes: u64,
    /// Busy time summed over the working (non-master) processors.
    pub busy: f64,
    /// Idle time summed over the working processors.
    pub idle: f64,
    /// Messaging time summed over the working processors.
    pub messaging: f64,
    /// Nodes searched beyond the requested depth (APHID's `speculative_nodes()`; 0 for
    /// algorithms that never search speculatively).
    pub speculative_nodes: f64,
    /// Processors used only as masters (APHID's `master_processors`; 0 for algorithms
    /// without a dedicated master).
    pub master_procs: usize,
}

/// The sequential baseline of one position.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Baseline {
    /// Elapsed time.
    pub seconds: f64,
    /// Nodes.
    pub nodes: u64,
}

/// Every figure of one run (or of one aggregate). Fractions, not percent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Metrics {
    /// Baseline time / parallel time.
    pub speedup: f64,
    /// Speedup / processors.
    pub efficiency: f64,
    /// Same algorithm's 1-processor time / parallel time (`None` without a 1-processor run).
    pub relative_speedup: Option<f64>,
    /// Relative speedup / processors.
    pub relative_efficiency: Option<f64>,
    /// Parallel nodes / baseline nodes.
    pub nodes_ratio: f64,
    /// Idle share of the processor time `procs x seconds` (Rezaie and Finkel: starvation loss).
    pub starvation: f64,
    /// Messaging share of the processor time (Rezaie and Finkel: interference loss).
    pub interference: f64,
    /// Share of the processor time spent busy on nodes the baseline did not need (Rezaie and
    /// Finkel: speculative loss): busy x (nodes - baseline nodes) / nodes, over processor time.
    pub speculative_loss: f64,
    /// What is left: 1 - efficiency - the three losses (slower nodes, unaccounted time).
    pub other_loss: f64,
    /// (processors x parallel time - baseline time) / baseline time (thesis 6.2.6).
    pub total_overhead: f64,
    /// masters / (processors - masters): 1/(n-1) for one master.
    pub master_overhead: f64,
    /// Nodes searched to the requested depth beyond the baseline's, over the baseline's.
    pub search_overhead: f64,
    /// Speculative nodes over the baseline's nodes.
    pub speculative_search: f64,
    /// Idle time over working (busy + messaging) time of the working processors: time lost
    /// waiting (YBW's synchronization overhead).
    pub synchronization_overhead: f64,
    /// The slow-down per node: the factor left of the total overhead once master, total
    /// search and synchronization are divided out (the thesis's definition: the parallel
    /// node rate against the sequential one).
    pub parallelization_overhead: f64,
}

/// One figure of [`Metrics`], in the order of the tables and of `results.csv`'s columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Metric {
    /// Baseline time / parallel time.
    Speedup,
    /// Speedup / processors.
    Efficiency,
    /// The same algorithm's one-processor time / parallel time.
    RelativeSpeedup,
    /// Relative speedup / processors.
    RelativeEfficiency,
    /// Parallel nodes / baseline nodes.
    NodesRatio,
    /// The idle share of the processor time.
    Starvation,
    /// The messaging share of the processor time.
    Interference,
    /// The share of the processor time busy on nodes the baseline did not need.
    SpeculativeLoss,
    /// What the efficiency and the three losses leave.
    OtherLoss,
    /// The thesis's total overhead.
    TotalOverhead,
    /// The master processors' overhead.
    MasterOverhead,
    /// Nodes beyond the baseline's, searched to the requested depth.
    SearchOverhead,
    /// Speculative nodes over the baseline's.
    SpeculativeSearch,
    /// Time lost waiting.
    SynchronizationOverhead,
    /// The slow-down per node.
    ParallelizationOverhead,
}

impl Metric {
    /// Every metric, in column order.
    pub const ALL: [Metric; 15] = [
        Metric::Speedup,
        Metric::Efficiency,
        Metric::RelativeSpeedup,
        Metric::RelativeEfficiency,
        Metric::NodesRatio,
        Metric::Starvation,
        Metric::Interference,
        Metric::SpeculativeLoss,
        Metric::OtherLoss,
        Metric::TotalOverhead,
        Metric::MasterOverhead,
        Metric::SearchOverhead,
        Metric::SpeculativeSearch,
        Metric::SynchronizationOverhead,
        Metric::ParallelizationOverhead,
    ];

    /// Its name: the column of `results.csv` and the key in `results.json`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Metric::Speedup => "speedup",
            Metric::Efficiency => "efficiency",
            Metric::RelativeSpeedup => "relative_speedup",
            Metric::RelativeEfficiency => "relative_efficiency",
            Metric::NodesRatio => "nodes_ratio",
            Metric::Starvation => "starvation",
            Metric::Interference => "interference",
            Metric::SpeculativeLoss => "speculative_loss",
            Metric::OtherLoss => "other_loss",
            Metric::TotalOverhead => "total_overhead",
            Metric::MasterOverhead => "master_overhead",
            Metric::SearchOverhead => "search_overhead",
            Metric::SpeculativeSearch => "speculative_search",
            Metric::SynchronizationOverhead => "synchronization_overhead",
            Metric::ParallelizationOverhead => "parallelization_overhead",
        }
    }
}

/// A metric serialises as its [`Metric::name`], so `results.json`'s keys are `results.csv`'s
/// columns.
impl Serialize for Metric {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl Metrics {
    /// The value of `metric` (`None` for a relative figure without a one-processor run).
    #[must_use]
    pub fn get(&self, metric: Metric) -> Option<f64> {
        match metric {
            Metric::Speedup => Some(self.speedup),
            Metric::Efficiency => Some(self.efficiency),
            Metric::RelativeSpeedup => self.relative_speedup,
            Metric::RelativeEfficiency => self.relative_efficiency,
            Metric::NodesRatio => Some(self.nodes_ratio),
            Metric::Starvation => Some(self.starvation),
            Metric::Interference => Some(self.interference),
            Metric::SpeculativeLoss => Some(self.speculative_loss),
            Metric::OtherLoss => Some(self.other_loss),
            Metric::TotalOverhead => Some(self.total_overhead),
            Metric::MasterOverhead => Some(self.master_overhead),
            Metric::SearchOverhead => Some(self.search_overhead),
            Metric::SpeculativeSearch => Some(self.speculative_search),
            Metric::SynchronizationOverhead => Some(self.synchronization_overhead),
            Metric::ParallelizationOverhead => Some(self.parallelization_overhead),
        }
    }

    /// The metrics `value` gives (0 for an absent figure that is not optional).
    #[must_use]
    pub fn from_fn(value: impl Fn(Metric) -> Option<f64>) -> Metrics {
        Metrics {
            speedup: value(Metric::Speedup).unwrap_or(0.0),
            efficiency: value(Metric::Efficiency).unwrap_or(0.0),
            relative_speedup: value(Metric::RelativeSpeedup),
            relative_efficiency: value(Metric::RelativeEfficiency),
            nodes_ratio: value(Metric::NodesRatio).unwrap_or(0.0),
            starvation: value(Metric::Starvation).unwrap_or(0.0),
            interference: value(Metric::Interference).unwrap_or(0.0),
            speculative_loss: value(Metric::SpeculativeLoss).unwrap_or(0.0),
            other_loss: value(Metric::OtherLoss).unwrap_or(0.0),
            total_overhead: value(Metric::TotalOverhead).unwrap_or(0.0),
            master_overhead: value(Metric::MasterOverhead).unwrap_or(0.0),
            search_overhead: value(Metric::SearchOverhead).unwrap_or(0.0),
            speculative_search: value(Metric::SpeculativeSearch).unwrap_or(0.0),
            synchronization_overhead: value(Metric::SynchronizationOverhead).unwrap_or(0.0),
            parallelization_overhead: value(Metric::ParallelizationOverhead).unwrap_or(0.0),
        }
    }
}

fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 { a / b } else { 0.0 }
}

/// The metrics of `run` against `base`; `one_proc` is the same algorithm's 1-processor time on
/// the same position.
#[must_use]
pub fn metrics(run: &Run, base: &Baseline, one_proc: Option<f64>) -> Metrics {
    let n = run.procs.max(1) as f64;
    let proc_time = n * run.seconds;
    let speedup = ratio(base.seconds, run.seconds);
    let relative_speedup = one_proc.map(|t| ratio(t, run.seconds));
    let nodes = run.nodes as f64;
    let base_nodes = base.nodes as f64;
    let starvation = ratio(run.idle, proc_time);
    let interference = ratio(run.messaging, proc_time);
    let speculative_loss = ratio(
        run.busy * ratio((nodes - base_nodes).max(0.0), nodes),
        proc_time,
    );
    let efficiency = speedup / n;
    let total_overhead = ratio(proc_time - base.seconds, base.seconds);
    let masters = run.master_procs.min(run.procs.saturating_sub(1)) as f64;
    let master_overhead = ratio(masters, n - masters);
    let speculative_search = ratio(run.speculative_nodes, base_nodes);
    let total_search = ratio(nodes, base_nodes) - 1.0;
    let synchronization_overhead = ratio(run.idle, run.busy + run.messaging);
    let divisor = (1.0 + master_overhead) * (1.0 + total_search) * (1.0 + synchronization_overhead);
    Metrics {
        speedup,
        efficiency,
        relative_speedup,
        relative_efficiency: relative_speedup.map(|s| s / n),
        nodes_ratio: ratio(nodes, base_nodes),
        starvation,
        interference,
        speculative_loss,
        other_loss: 1.0 - efficiency - starvation - interference - speculative_loss,
        total_overhead,
        master_overhead,
        search_overhead: total_search - speculative_search,
        speculative_search,
        synchronization_overhead,
        parallelization_overhead: ratio(1.0 + total_overhead, divisor) - 1.0,
    }
}

/// Mean and sample standard deviation of a list of numbers (0 spread for fewer than two).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Spread {
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation (n - 1 in the denominator).
    pub sd: f64,
    /// How many values.
    pub count: usize,
}

/// Mean and spread of `values`.
#[must_use]
pub fn spread(values: &[f64]) -> Spread {
    let count = values.len();
    if count == 0 {
        return Spread::default();
    }
    let mean = values.iter().sum::<f64>() / count as f64;
    let sd = if count > 1 {
        (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (count - 1) as f64).sqrt()
    } else {
        0.0
    };
    Spread { mean, sd, count }
}

/// A confidence interval: `lo..=hi` holds the estimated quantity with probability `level`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Interval {
    /// Lower bound.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
    /// Coverage, 0 to 1 (0 for a single sample, which bounds nothing).
    pub level: f64,
}

/// The median of `values` (the mean of the two middle ones for an even count; 0 for none).
#[must_use]
pub fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => f64::midpoint(v[n / 2 - 1], v[n / 2]),
    }
}

/// The distribution-free confidence interval of the median from order statistics: with the
/// values sorted, `[x(j), x(n+1-j)]` holds the true median with probability
/// `1 - 2 P(Binomial(n, 1/2) < j)`; `j` is the largest rank giving at least 95%, or 1 (the
/// whole range, with its lower coverage: 93.75% for 5 values) when none does.
#[must_use]
pub fn median_interval(values: &[f64]) -> Interval {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        return Interval::default();
    }
    if n == 1 {
        return Interval {
            lo: v[0],
            hi: v[0],
            level: 0.0,
        };
    }
    // P(Binomial(n, 1/2) <= k) for k = 0, 1, ...
    let mut below = Vec::with_capacity(n);
    let (mut term, mut sum) = (0.5f64.powi(n as i32), 0.0);
    for k in 0..n {
        sum += term;
        below.push(sum);
        term *= (n - k) as f64 / (k + 1) as f64;
    }
    let coverage = |j: usize| 1.0 - 2.0 * below[j - 1];
    let mut j = 1;
    while j < n / 2 && coverage(j + 1) >= 0.95 {
        j += 1;
    }
    Interval {
        lo: v[j - 1],
        hi: v[n - j],
        level: coverage(j).max(0.0),
    }
}

/// The next number of the splitmix64 generator whose state is `state` (a small, fixed-seed
/// source for the bootstrap and the order of repeats).
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The resamples of [`bootstrap`].
pub const BOOTSTRAP_RESAMPLES: usize = 2000;

/// A percentile-bootstrap 95% interval of `statistic`, which takes the medians of `groups`
/// (each group is one cell's repeated times) in order: each of [`BOOTSTRAP_RESAMPLES`]
/// resamples draws every group's values with replacement, takes their medians and evaluates
/// the statistic; the interval is the 2.5th to 97.5th percentile of those values. The random
/// numbers come from a fixed seed, so a report is reproducible.
#[must_use]
pub fn bootstrap(groups: &[&[f64]], statistic: impl Fn(&[f64]) -> f64) -> Interval {
    if groups.iter().any(|g| g.is_empty()) {
        return Interval::default();
    }
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || splitmix64(&mut state);
    let mut stats = Vec::with_capacity(BOOTSTRAP_RESAMPLES);
    let mut medians = vec![0.0; groups.len()];
    let mut draw = Vec::new();
    for _ in 0..BOOTSTRAP_RESAMPLES {
        for (m, g) in medians.iter_mut().zip(groups) {
            draw.clear();
            draw.extend((0..g.len()).map(|_| g[(next() % g.len() as u64) as usize]));
            *m = median(&draw);
        }
        stats.push(statistic(&medians));
    }
    stats.sort_by(f64::total_cmp);
    let at = |q: f64| stats[((q * (stats.len() - 1) as f64).round() as usize).min(stats.len() - 1)];
    Interval {
        lo: at(0.025),
        hi: at(0.975),
        level: 0.95,
    }
}

/// The aggregate of several samples (positions x seeds): runs and baselines summed, then one
/// set of metrics (thesis 6.2.7, the first method). `samples` pairs each run with its
/// baseline and its 1-processor time.
#[must_use]
pub fn aggregate(samples: &[(Run, Baseline, Option<f64>)]) -> Metrics {
    let mut run = Run::default();
    let mut base = Baseline::default();
    let mut one = Some(0.0);
    for (r, b, o) in samples {
        run.procs = r.procs;
        run.master_procs = r.master_procs;
        run.seconds += r.seconds;
        run.nodes += r.nodes;
        run.busy += r.busy;
        run.idle += r.idle;
        run.messaging += r.messaging;
        run.speculative_nodes += r.speculative_nodes;
        base.seconds += b.seconds;
        base.nodes += b.nodes;
        one = match (one, o) {
            (Some(a), Some(t)) => Some(a + t),
            _ => None,
        };
    }
    metrics(&run, &base, one)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) {
        assert!((a - b).abs() < 1e-9, "{a} != {b}");
    }

    /// 4 processors, 30 s; baseline 100 s and 1000 nodes; the algorithm alone 110 s.
    /// Processor time 120 s: busy 96, idle 18, messaging 6; 1200 nodes.
    fn example() -> (Run, Baseline) {
        (
            Run {
                procs: 4,
                seconds: 30.0,
                nodes: 1200,
                busy: 96.0,
                idle: 18.0,
                messaging: 6.0,
                speculative_nodes: 0.0,
                master_procs: 0,
            },
            Baseline {
                seconds: 100.0,
                nodes: 1000,
            },
        )
    }

    #[test]
    fn speedup_efficiency_and_relative_figures_by_hand() {
        let (run, base) = example();
        let m = metrics(&run, &base, Some(110.0));
        close(m.speedup, 100.0 / 30.0);
        close(m.efficiency, 100.0 / 120.0);
        close(m.relative_speedup.unwrap(), 110.0 / 30.0);
        close(m.relative_efficiency.unwrap(), 110.0 / 120.0);
        close(m.nodes_ratio, 1.2);
        assert_eq!(metrics(&run, &base, None).relative_speedup, None);
    }

    #[test]
    fn losses_by_hand_and_they_add_up_to_one() {
        let (run, base) = example();
        let m = metrics(&run, &base, None);
        close(m.starvation, 18.0 / 120.0);
        close(m.interference, 6.0 / 120.0);
        // 200 of 1200 nodes were extra: a sixth of the 96 busy seconds.
        close(m.speculative_loss, 16.0 / 120.0);
        close(
            m.efficiency + m.starvation + m.interference + m.speculative_loss + m.other_loss,
            1.0,
        );
        // 100 s of useful work + 16 + 18 + 6 = 140 > 120: the nodes were faster in parallel.
        close(m.other_loss, -20.0 / 120.0);
    }

    #[test]
    fn thesis_overheads_by_hand_multiply_to_the_total() {
        let (run, base) = example();
        let m = metrics(&run, &base, None);
        close(m.total_overhead, 0.2); // (4 x 30 - 100) / 100
        close(m.master_overhead, 0.0);
        close(m.search_overhead, 0.2); // 1200 / 1000 - 1
        close(m.speculative_search, 0.0);
        close(m.synchronization_overhead, 18.0 / 102.0);
        // 1.2 = 1.2 x (1 + p) x 120/102  =>  1 + p = 102/120
        close(m.parallelization_overhead, 102.0 / 120.0 - 1.0);
    }

    #[test]
    fn aphid_style_overheads_with_a_master_and_speculative_nodes() {
        // Thesis table 6.1 shape: 16 processors, one master: master overhead 1/15 = 6.67%.
        let run = Run {
            procs: 16,
            seconds: 10.0,
            nodes: 1300,
            busy: 150.0,
            idle: 0.0,
            messaging: 0.0,
            speculative_nodes: 100.0,
            master_procs: 1,
        };
        let base = Baseline {
            seconds: 100.0,
            nodes: 1000,
        };
        let m = metrics(&run, &base, None);
        close(m.master_overhead, 1.0 / 15.0);
        close(m.speculative_search, 0.1);
        close(m.search_overhead, 0.2);
        close(m.total_overhead, 0.6);
        // 1.6 = (16/15) x 1.3 x (1 + p) x 1
        close(m.parallelization_overhead, 1.6 / (16.0 / 15.0 * 1.3) - 1.0);
        let product = (1.0 + m.master_overhead)
            * (1.0 + m.search_overhead + m.speculative_search)
            * (1.0 + m.parallelization_overhead)
            * (1.0 + m.synchronization_overhead);
        close(product, 1.0 + m.total_overhead);
    }

    #[test]
    fn per_position_mean_and_aggregate_differ_as_the_thesis_says() {
        // Thesis 6.2.7: a large position with a high speedup pulls the aggregate up.
        let small = (
            Run {
                procs: 4,
                seconds: 5.0,
                nodes: 10,
                ..Run::default()
            },
            Baseline {
                seconds: 10.0,
                nodes: 10,
            },
            None,
        );
        let large = (
            Run {
                procs: 4,
                seconds: 25.0,
                nodes: 100,
                ..Run::default()
            },
            Baseline {
                seconds: 100.0,
                nodes: 100,
            },
            None,
        );
        let per: Vec<f64> = [&small, &large]
            .iter()
            .map(|(r, b, o)| metrics(r, b, *o).speedup)
            .collect();
        let mean = spread(&per);
        close(mean.mean, 3.0); // (2 + 4) / 2
        close(mean.sd, 2f64.sqrt()); // sample sd of {2, 4}
        assert_eq!(mean.count, 2);
        let agg = aggregate(&[small, large]);
        close(agg.speedup, 110.0 / 30.0);
        close(agg.efficiency, 110.0 / 120.0);
    }

    #[test]
    fn zero_times_give_zero_not_nan() {
        let m = metrics(&Run::default(), &Baseline::default(), Some(0.0));
        assert!(m.speedup == 0.0 && m.total_overhead == 0.0 && m.nodes_ratio == 0.0);
        assert_eq!(spread(&[]), Spread::default());
        close(spread(&[5.0]).sd, 0.0);
    }

    #[test]
    fn medians_and_their_order_statistic_intervals() {
        close(median(&[3.0, 1.0, 2.0]), 2.0);
        close(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        // 5 values: only the whole range reaches 93.75% = 1 - 2/32.
        let i = median_interval(&[5.0, 1.0, 4.0, 2.0, 3.0]);
        assert_eq!((i.lo, i.hi), (1.0, 5.0));
        close(i.level, 0.9375);
        // 10 values: ranks 2 and 9 give 1 - 2 * 11/1024 = 97.85%; ranks 3 and 8 only 89%.
        let ten: Vec<f64> = (1..=10).map(f64::from).collect();
        let i = median_interval(&ten);
        assert_eq!((i.lo, i.hi), (2.0, 9.0));
        close(i.level, 1.0 - 22.0 / 1024.0);
        assert_eq!(median_interval(&[7.0]).level, 0.0);
    }

    #[test]
    fn bootstrap_intervals_bracket_the_statistic_and_shrink_with_less_noise() {
        let noisy = [1.0, 1.4, 0.8, 1.2, 1.1];
        let quiet = [1.0, 1.01, 0.99, 1.0, 1.0];
        let base = [2.0, 2.0, 2.0, 2.0, 2.0];
        let ratio = |m: &[f64]| m[0] / m[1];
        let wide = bootstrap(&[&base, &noisy], ratio);
        let narrow = bootstrap(&[&base, &quiet], ratio);
        assert!(wide.lo <= 2.0 / 1.1 && 2.0 / 1.1 <= wide.hi, "{wide:?}");
        assert!(narrow.hi - narrow.lo < wide.hi - wide.lo);
        assert_eq!(bootstrap(&[&base, &noisy], ratio), wide, "a fixed seed");
        // Identical repeats leave nothing to resample.
        let flat = bootstrap(&[&base, &base], ratio);
        assert_eq!((flat.lo, flat.hi), (1.0, 1.0));
    }
}
