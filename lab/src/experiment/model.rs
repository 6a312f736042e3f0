//! The analytical model of Brockington's thesis chapter 4: parallel efficiency of a
//! synchronous (YBW-like) and an asynchronous (APHID-like) alpha-beta search of iteratively
//! deepened perfect and "realistic" critical trees, in the leaf-evaluation model (one leaf =
//! one unit of time, everything else free). Figures 4.2-4.7.
//!
//! - Critical tree of branching `b`, `k` plies: `b^ceil(k/2) + b^floor(k/2) - 1` leaves
//!   (section 4.4.1); a `d`-ply iterative-deepening search costs the sum over k = 1..d.
//! - Synchronous: granules below the parallelization horizon `d'` (the least `d'` whose
//!   smaller granule, `b^floor(d'/2)`, has at least 1000 leaves) are never split. A k-ply search
//!   evaluates the PV granule alone (a type-1 `d'`-ply tree), then, `j` plies above the horizon,
//!   `b^ceil(j/2) - b^(ceil(j/2)-1)` granules of `b^floor(d'/2)` (j odd) or `b^ceil(d'/2)`
//!   (j even) leaves in parallel, synchronizing after each (Table 4.1); a step with `w`
//!   granules on `n` processors takes one granule's time when `w <= n`, else `w/n` of them
//!   (the thesis's upper bound, case 2b).
//! - Asynchronous: one process searches until the tree holds 16 pieces of at least 20 leaves
//!   per processor of the next stage, then fans out to `m = 16` times as many processes, up to
//!   `n`; an iteration done with `p` processes takes its sequential size over `p` (4.5.1).
//! - Realistic trees: granule sizes follow a gamma distribution (shape `r`, mean the
//!   granule's critical size). At a synchronization point with `m` processors the wait is the
//!   median of the largest of `m` granules, `F^-1(0.5^(1/m))`, so the penalty is that minus the
//!   mean (4.4.2). Synchronous search pays it at every step; asynchronous search only once per
//!   iteration, on its last piece (4.5.2).

/// The thesis's fitted gamma shape for chess (TheTurk): r = 0.2186 (lambda = 7.5718e-5 for a
/// mean of 2887). The thesis does not print the Othello and checkers fits; we use this shape
/// for every branching factor (a stated deviation).
pub const GAMMA_SHAPE: f64 = 0.2186;

/// Minimum granule size in leaves (section 4.4.1: 10^3).
pub const MIN_GRANULE: f64 = 1000.0;

/// Fan-out of the asynchronous algorithm (section 4.5.1).
pub const FANOUT: usize = 16;

/// Pieces per processor before a fan-out (section 4.5.1).
pub const PIECES_PER_PROC: f64 = 16.0;

/// Leaves a piece needs before it is handed out (section 4.5.1).
pub const MIN_PIECE: f64 = 20.0;

/// Which tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tree {
    /// Every granule of its critical size.
    Perfect,
    /// Granule sizes gamma-distributed around their critical size.
    Realistic,
}

/// Which algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sync {
    /// Synchronizes at every PV node.
    Synchronous,
    /// Synchronizes only at the end of each iteration.
    Asynchronous,
}

fn pow(b: f64, e: u32) -> f64 {
    b.powi(e as i32)
}

/// Leaves of a `k`-ply critical tree (type-1 root) of branching `b`.
#[must_use]
pub fn critical_leaves(b: f64, k: u32) -> f64 {
    pow(b, k.div_ceil(2)) + pow(b, k / 2) - 1.0
}

/// Leaves of an iteratively deepened search to `d` plies (iterations 1..=d).
#[must_use]
pub fn iterative_leaves(b: f64, d: u32) -> f64 {
    (1..=d).map(|k| critical_leaves(b, k)).sum()
}

/// The parallelization horizon: the least `d'` whose granules have at least [`MIN_GRANULE`]
/// leaves.
#[must_use]
pub fn horizon(b: f64) -> u32 {
    let mut d = 1;
    while pow(b, d / 2) < MIN_GRANULE {
        d += 1;
    }
    d
}

/// ln Gamma(x) for x > 0 (Lanczos, g = 7, 9 terms).
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + 7.5;
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The regularized lower incomplete gamma function P(a, x): the CDF of a unit-scale gamma
/// distribution of shape `a` (series below a + 1, continued fraction above).
#[must_use]
pub fn gamma_p(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    let lead = a * x.ln() - x - ln_gamma(a);
    if x < a + 1.0 {
        let (mut sum, mut term, mut n) = (1.0 / a, 1.0 / a, a);
        for _ in 0..10_000 {
            n += 1.0;
            term *= x / n;
            sum += term;
            if term.abs() < sum.abs() * 1e-15 {
                break;
            }
        }
        (sum.ln() + lead).exp().min(1.0)
    } else {
        // Lentz's continued fraction for Q(a, x).
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..10_000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < 1e-15 {
                break;
            }
        }
        (1.0 - (lead.exp() * h)).max(0.0)
    }
}

/// The median of the largest of `m` gamma(shape `r`, mean `mean`) variables: the x with
/// CDF(x) = 0.5^(1/m) (section 4.4.2), found by bisection.
#[must_use]
pub fn median_of_max(r: f64, mean: f64, m: usize) -> f64 {
    let target = 0.5f64.powf(1.0 / m.max(1) as f64);
    let scale = mean / r;
    let (mut lo, mut hi) = (0.0, mean.max(1.0));
    while gamma_p(r, hi / scale) < target {
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if gamma_p(r, mid / scale) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The realistic-tree penalty of a synchronization point where `m` processors each finish a
/// granule of mean size `mean` (0 for one processor or a perfect tree).
fn penalty(tree: Tree, mean: f64, m: usize) -> f64 {
    if tree == Tree::Perfect || m < 2 {
        return 0.0;
    }
    (median_of_max(GAMMA_SHAPE, mean, m) - mean).max(0.0)
}

/// Parallel time of one synchronous `k`-ply search on `n` processors.
#[must_use]
pub fn synchronous_time(b: f64, k: u32, n: usize, tree: Tree) -> f64 {
    let h = horizon(b);
    if k <= h {
        return critical_leaves(b, k);
    }
    let nf = n as f64;
    let mut t = critical_leaves(b, h);
    for j in 1..=(k - h) {
        let half = j.div_ceil(2);
        let w = pow(b, half) - pow(b, half - 1);
        let g = if j % 2 == 1 {
            pow(b, h / 2)
        } else {
            pow(b, h.div_ceil(2))
        };
        t += g * (w / nf).max(1.0);
        let busy = if w >= nf { n } else { w as usize };
        t += penalty(tree, g, busy);
    }
    t
}

/// Pieces of at least [`MIN_PIECE`] leaves in a `k`-ply critical tree, with the ply they are
/// cut at: the nodes at the deepest ply `h` whose smaller subtrees still have enough leaves.
fn pieces(b: f64, k: u32) -> (f64, u32) {
    let mut best = (1.0, 0);
    for h in 0..=k {
        if pow(b, (k - h) / 2) >= MIN_PIECE {
            best = (critical_leaves(b, h), h);
        }
    }
    best
}

/// Parallel time of an iteratively deepened asynchronous search to `d` plies on `n`
/// processors.
#[must_use]
pub fn asynchronous_time(b: f64, d: u32, n: usize, tree: Tree) -> f64 {
    let mut procs = 1usize;
    let mut cut = 0u32;
    let mut t = 0.0;
    for k in 1..=d {
        t += critical_leaves(b, k) / procs as f64;
        if procs > 1 {
            let piece = pow(b, k.saturating_sub(cut).div_ceil(2));
            t += penalty(tree, piece, procs);
        }
        let next = (procs * FANOUT).min(n);
        let (count, ply) = pieces(b, k);
        if next > procs && count >= PIECES_PER_PROC * next as f64 {
            procs = next;
            cut = ply;
        }
    }
    t
}

/// One point of a figure: sequential leaves of a `d`-ply iterative search and the efficiency.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Depth.
    pub depth: u32,
    /// Sequential leaves (iterations 1..=depth).
    pub sequential: f64,
    /// Parallel time.
    pub parallel: f64,
    /// Speedup / n.
    pub efficiency: f64,
}

/// The curve of one branching factor and processor count, up to `max_leaves` sequential
/// leaves.
#[must_use]
pub fn curve(b: f64, n: usize, sync: Sync, tree: Tree, max_leaves: f64) -> Vec<Point> {
    let mut out = Vec::new();
    let mut par_sum = 0.0;
    for d in 1..200 {
        let sequential = iterative_leaves(b, d);
        if sequential > max_leaves {
            break;
        }
        let parallel = match sync {
            Sync::Synchronous => {
                par_sum += synchronous_time(b, d, n, tree);
                par_sum
            }
            Sync::Asynchronous => asynchronous_time(b, d, n, tree),
        };
        out.push(Point {
            depth: d,
            sequential,
            parallel,
            efficiency: sequential / parallel / n as f64,
        });
    }
    out
}

/// The efficiency of the curve at (about) `leaves` sequential leaves: linear interpolation in
/// log10(leaves) between the neighbouring depths.
#[must_use]
pub fn efficiency_at(points: &[Point], leaves: f64) -> Option<f64> {
    let x = leaves.log10();
    points.windows(2).find_map(|w| {
        let (x0, x1) = (w[0].sequential.log10(), w[1].sequential.log10());
        (x0 <= x && x <= x1).then(|| {
            let f = if x1 > x0 { (x - x0) / (x1 - x0) } else { 0.0 };
            w[0].efficiency + f * (w[1].efficiency - w[0].efficiency)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() <= tol, "{a} vs {b}");
    }

    #[test]
    fn critical_tree_sizes_by_hand() {
        // b = 3: 1 ply 3 + 1 - 1 = 3; 2 plies 3 + 3 - 1 = 5; 3 plies 9 + 3 - 1 = 11.
        assert_eq!(critical_leaves(3.0, 1), 3.0);
        assert_eq!(critical_leaves(3.0, 2), 5.0);
        assert_eq!(critical_leaves(3.0, 3), 11.0);
        assert_eq!(iterative_leaves(3.0, 3), 19.0);
        // The thesis's chess granule: a 4-ply type-1 tree of b = 38 has 2887 leaves.
        assert_eq!(critical_leaves(38.0, 4), 2887.0);
    }

    #[test]
    fn horizons_keep_granules_at_a_thousand_leaves() {
        assert_eq!(horizon(38.0), 4); // 38^2 = 1444
        assert_eq!(horizon(10.0), 6); // 10^3
        assert_eq!(horizon(3.0), 14); // 3^7 = 2187
    }

    #[test]
    fn gamma_cdf_matches_known_values() {
        // Shape 1 is the exponential: P(1, x) = 1 - e^-x.
        close(gamma_p(1.0, 2.0), 1.0 - (-2.0f64).exp(), 1e-12);
        close(gamma_p(1.0, 0.3), 1.0 - (-0.3f64).exp(), 1e-12);
        // Shape 2: P(2, x) = 1 - (1 + x) e^-x.
        close(gamma_p(2.0, 3.0), 1.0 - 4.0 * (-3.0f64).exp(), 1e-12);
        close(ln_gamma(5.0), 24f64.ln(), 1e-12);
        close(ln_gamma(0.5), std::f64::consts::PI.sqrt().ln(), 1e-12);
    }

    #[test]
    fn the_thesis_example_of_the_largest_of_256_chess_granules() {
        // Section 4.4.2: mean 2887, r = 0.2186, 256 processors: median of the largest 44295.
        let x = median_of_max(GAMMA_SHAPE, 2887.0, 256);
        close(x, 44295.0, 44295.0 * 0.01);
        // The median of the largest of 1 is the plain median, below the mean (positive skew).
        assert!(median_of_max(GAMMA_SHAPE, 2887.0, 1) < 2887.0);
    }

    #[test]
    fn one_processor_is_the_sequential_search_and_efficiency_is_at_most_one() {
        for b in [3.0, 10.0, 38.0] {
            for d in 1..9 {
                close(
                    synchronous_time(b, d, 1, Tree::Perfect),
                    critical_leaves(b, d),
                    1e-6,
                );
            }
            for sync in [Sync::Synchronous, Sync::Asynchronous] {
                for tree in [Tree::Perfect, Tree::Realistic] {
                    for p in curve(b, 256, sync, tree, 1e9) {
                        assert!(p.efficiency <= 1.0 + 1e-9 && p.efficiency > 0.0, "{p:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn synchronous_steps_by_hand() {
        // b = 38, horizon 4, k = 5 on 16 processors: the PV granule (2887 leaves), then 37
        // type-2 granules of 38^2 = 1444 leaves: ceil-free upper bound 37/16 of them.
        let t = synchronous_time(38.0, 5, 16, Tree::Perfect);
        close(t, 2887.0 + 1444.0 * 37.0 / 16.0, 1e-6);
        // With 64 processors the 37 granules take one granule's time.
        close(
            synchronous_time(38.0, 5, 64, Tree::Perfect),
            2887.0 + 1444.0,
            1e-6,
        );
    }

    #[test]
    fn realistic_trees_cost_the_synchronous_model_more_than_the_asynchronous() {
        // The thesis's conclusion (figures 4.6 and 4.7): at 10^7 leaves and 256 processors,
        // the realistic tree hurts synchronous search far more.
        for b in [3.0, 10.0, 38.0] {
            let at = |s, t| efficiency_at(&curve(b, 256, s, t, 1e9), 1e7).unwrap();
            let sync_loss =
                at(Sync::Synchronous, Tree::Perfect) / at(Sync::Synchronous, Tree::Realistic);
            let async_loss =
                at(Sync::Asynchronous, Tree::Perfect) / at(Sync::Asynchronous, Tree::Realistic);
            assert!(sync_loss > async_loss, "b {b}: {sync_loss} vs {async_loss}");
        }
    }
}
