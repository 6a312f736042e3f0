//! The paired measurement of real-thread speedups (see `README.md` in this folder): the
//! order of each round's runs, the speedup of paired runs with its interval, and when to stop
//! repeating. Pure functions, so that the rules are tested without timing anything.

/// The two-sided 95 % quantile of Student's t with `df` degrees of freedom (`df` >= 1): the
/// table's values to 30, then `1.96 + 2.4 / df` (within 0.003 of the exact quantile there).
#[must_use]
pub fn t95(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        d if d <= TABLE.len() => TABLE[d - 1],
        d => 1.96 + 2.4 / d as f64,
    }
}

/// A speedup measured from paired runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The geometric mean of the pairs' ratios `t1 / tN`.
    pub speedup: f64,
    /// Its 95 % interval (a t-interval of the mean log ratio, turned back into ratios);
    /// `None` with fewer than two pairs.
    pub interval: Option<(f64, f64)>,
    /// The pairs it rests on.
    pub pairs: usize,
}

/// The speedup of `pairs` of (one-processor seconds, N-processor seconds), each pair timed in
/// the same round: `exp(mean(ln(t1 / tN)))` with the t-interval of that mean. The logarithm
/// makes a ratio and its inverse symmetric and keeps the interval positive. `None` without a
/// pair or with a time that is not positive.
#[must_use]
pub fn estimate(pairs: &[(f64, f64)]) -> Option<Estimate> {
    if pairs.is_empty() || pairs.iter().any(|&(a, b)| a <= 0.0 || b <= 0.0) {
        return None;
    }
    let logs: Vec<f64> = pairs.iter().map(|&(one, n)| (one / n).ln()).collect();
    let k = logs.len();
    let mean = logs.iter().sum::<f64>() / k as f64;
    let interval = (k > 1).then(|| {
        let var = logs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (k - 1) as f64;
        let half = t95(k - 1) * (var / k as f64).sqrt();
        ((mean - half).exp(), (mean + half).exp())
    });
    Some(Estimate {
        speedup: mean.exp(),
        interval,
        pairs: k,
    })
}

/// The order of the processor counts' runs (indices into the list, whose first is the one
/// processor) in round `round`: ascending in even rounds, descending in odd ones. Over two
/// rounds every N-processor run comes once after and once before its one-processor partner,
/// so a machine that slows down or speeds up steadily favours neither side of a ratio (the
/// old order, every one-processor run first, gave the later side the whole drift).
#[must_use]
pub fn round_order(counts: usize, round: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..counts).collect();
    if round % 2 == 1 {
        order.reverse();
    }
    order
}

/// An interval narrower than this (relative half-width) ends the repeats even when it still
/// straddles an edge of its band: more runs would not move it off the edge.
pub const NARROW: f64 = 0.01;

/// Whether a row is measured well enough: its interval is decided against `band`, or narrower
/// than [`NARROW`].
#[must_use]
pub fn settled(interval: Option<(f64, f64)>, band: (f64, f64)) -> bool {
    match interval {
        None => false,
        Some((lo, hi)) => {
            crate::never_split::judge(Some((lo, hi)), band)
                != crate::never_split::Verdict::Undecided
                || (hi / lo).sqrt() - 1.0 <= NARROW
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_quantiles_fall_towards_the_normal_one() {
        assert_eq!(t95(0), f64::INFINITY);
        assert_eq!(t95(1), 12.706);
        assert_eq!(t95(4), 2.776);
        assert_eq!(t95(30), 2.042);
        assert!((t95(60) - 2.000).abs() < 0.003);
        assert!((t95(120) - 1.980).abs() < 0.003);
        for df in 1..200 {
            assert!(t95(df + 1) <= t95(df), "{df}");
        }
    }

    #[test]
    fn the_speedup_of_pairs_is_the_geometric_mean_of_their_ratios() {
        let e = estimate(&[(2.0, 1.0), (2.0, 0.5)]).expect("pairs");
        // Ratios 2 and 4: geometric mean sqrt(8).
        assert!((e.speedup - 8f64.sqrt()).abs() < 1e-12);
        let (lo, hi) = e.interval.expect("two pairs");
        // Symmetric in the logarithm around the estimate.
        assert!(((e.speedup / lo) - (hi / e.speedup)).abs() < 1e-9);
        // Hand computation: logs ln2, ln4; sd = ln2 / sqrt 2; half = 12.706 * sd / sqrt 2.
        let half = 12.706 * (2f64.ln() / 2f64.sqrt()) / 2f64.sqrt();
        assert!((hi.ln() - (8f64.sqrt().ln() + half)).abs() < 1e-9);
        assert_eq!(e.pairs, 2);
    }

    #[test]
    fn identical_pairs_give_a_point_interval_and_one_pair_none() {
        let e = estimate(&[(1.0, 1.0); 5]).expect("pairs");
        assert_eq!(e.speedup, 1.0);
        assert_eq!(e.interval, Some((1.0, 1.0)));
        let one = estimate(&[(1.0, 0.5)]).expect("a pair");
        assert_eq!((one.speedup, one.interval), (2.0, None));
        assert_eq!(estimate(&[]), None);
        assert_eq!(estimate(&[(1.0, 0.0)]), None);
    }

    #[test]
    fn a_ratio_and_its_inverse_are_judged_alike() {
        let up = estimate(&[(1.1, 1.0), (1.2, 1.0), (1.0, 1.0)]).expect("pairs");
        let down = estimate(&[(1.0, 1.1), (1.0, 1.2), (1.0, 1.0)]).expect("pairs");
        assert!((up.speedup * down.speedup - 1.0).abs() < 1e-12);
        let (a, b) = (up.interval.expect("ci"), down.interval.expect("ci"));
        assert!((a.0 * b.1 - 1.0).abs() < 1e-12 && (a.1 * b.0 - 1.0).abs() < 1e-12);
    }

    #[test]
    fn rounds_alternate_so_every_pair_is_run_in_both_orders() {
        assert_eq!(round_order(3, 0), vec![0, 1, 2]);
        assert_eq!(round_order(3, 1), vec![2, 1, 0]);
        assert_eq!(round_order(1, 7), vec![0]);
        for n in 1..5 {
            let (mut first, mut second) = (0, 0);
            for round in 0..10 {
                let order = round_order(5, round);
                let at = |i| {
                    order
                        .iter()
                        .position(|&x| x == i)
                        .expect("every count runs")
                };
                if at(0) < at(n) {
                    first += 1;
                } else {
                    second += 1;
                }
            }
            assert_eq!(first, second, "processor count index {n}");
        }
    }

    #[test]
    fn a_row_is_settled_when_decided_or_narrow() {
        let band = (0.97, 1.03);
        assert!(!settled(None, band));
        assert!(settled(Some((0.98, 1.02)), band), "within");
        assert!(settled(Some((1.05, 1.20)), band), "outside");
        assert!(
            !settled(Some((0.90, 1.10)), band),
            "wide and across an edge"
        );
        assert!(
            settled(Some((1.025, 1.035)), band),
            "across an edge but narrower than 1 %"
        );
    }
}
