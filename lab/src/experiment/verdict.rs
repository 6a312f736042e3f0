//! Published against ours: the curves an experiment's mapping ([`Against`]) pairs, the
//! point-by-point comparisons and the per-item verdicts (Kendall's tau-b of the series'
//! ranking at the largest processor count both have, mean and largest absolute difference),
//! and `verdict.json`, the record of one experiment run (its schema: `README.md` here).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::catalog::Against;
use super::claims::Claim;
use super::ours;
use super::published::{Point, Quantity};
use crate::compare::Outcome;
use crate::compare::store::Cost;

/// One published curve beside ours: every published point of one series and quantity, and
/// our value at each of its processor counts (`None` where we did not run or measure it).
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    /// The figure or table.
    pub item: String,
    /// The quantity.
    pub quantity: Quantity,
    /// Our series label (with the variant in parentheses when there are variants).
    pub series: String,
    /// The paper's series name (with the context it was chosen by in brackets).
    pub published_series: String,
    /// (processors, published, ours), in the file's order.
    pub points: Vec<(usize, f64, Option<f64>)>,
}

/// One published number with ours.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// The figure or table.
    pub item: String,
    /// Our series label.
    pub series: String,
    /// The paper's series name.
    pub published_series: String,
    /// The quantity.
    pub quantity: Quantity,
    /// Processors.
    pub procs: usize,
    /// The paper's number.
    pub published: f64,
    /// Ours.
    pub ours: f64,
}

/// How one item's quantity agrees.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// The figure or table.
    pub item: String,
    /// The quantity.
    pub quantity: Quantity,
    /// The processor count of the ranking: the largest with both numbers.
    pub kendall_tau_at: usize,
    /// Kendall's tau-b of the series' ranking there, ours against the paper's; `None` with
    /// fewer than two series or when either side ranks them all equal.
    pub kendall_tau: Option<f64>,
    /// Mean of |ours - published| over the item's comparisons of this quantity.
    pub mean_abs_diff: f64,
    /// Largest |ours - published|.
    pub max_abs_diff: f64,
    /// Comparisons.
    pub n_points: usize,
}

/// `verdict.json`: one experiment run and how it compares.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The experiment's name.
    pub experiment: String,
    /// The figures or tables it reproduces.
    pub reproduces: String,
    /// What it compares.
    pub what: String,
    /// The command that reruns it.
    pub command: String,
    /// The `runner compare` command of each comparison it ran.
    pub compare_commands: Vec<String>,
    /// The source commit of the runner that ran it.
    pub commit: String,
    /// The simulator's cost model (`--sim-preset`); `None` off the simulator.
    pub preset: Option<String>,
    /// The seeds.
    pub seeds: Vec<u64>,
    /// Whether it ran with `--quick`.
    pub quick: bool,
    /// Wall-clock seconds this run took (a resumed cell costs it nothing).
    pub wall_seconds: f64,
    /// What the cells of its comparisons cost here, summed over the runs that computed them:
    /// the wall time of a whole run, however many runs assembled it. `None` in verdicts of
    /// builds that did not keep it.
    #[serde(default)]
    pub cost: Option<Cost>,
    /// Builds of runner other than the one that wrote this verdict which computed cells of its
    /// comparisons (`build.txt`'s id), when the page was assembled from them
    /// (`runner experiment --assemble`); empty when this build computed every cell.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cells_built_by: Vec<String>,
    /// The overlay plots written beside it (file names).
    pub svgs: Vec<String>,
    /// Published curves with no number of ours (why, one line each).
    pub not_compared: Vec<String>,
    /// Every published number with ours.
    pub comparisons: Vec<Comparison>,
    /// One per item and quantity.
    pub verdicts: Vec<Verdict>,
    /// The claims of the paper's text checked in ours (`claims.rs`); empty for experiments
    /// without them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<Claim>,
    /// More of the run as markdown (our measurements by setting), shown after the verdicts.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub details: String,
}

/// Our label of `label` in `variant`.
#[must_use]
pub fn our_label(label: &str, variant: &str) -> String {
    if variant.is_empty() {
        label.to_string()
    } else {
        format!("{label} ({variant})")
    }
}

/// The curves `against` pairs, ours from `outcome` (the comparison of its variant).
#[must_use]
pub fn curves(points: &[Point], against: &Against, outcome: &Outcome) -> Vec<Curve> {
    let mut out: Vec<Curve> = Vec::new();
    let cells: Vec<ours::Cell> = outcome.rows.iter().map(ours::Cell::from).collect();
    for p in points.iter().filter(|p| against.selects(p)) {
        let Some((_, label)) = against.series.iter().find(|(s, _)| *s == p.series) else {
            continue;
        };
        let published_series = if against.only.is_empty() {
            p.series.clone()
        } else {
            let ctx: Vec<String> = against
                .only
                .iter()
                .map(|(c, v)| format!("{c} {v}"))
                .collect();
            format!("{} [{}]", p.series, ctx.join(", "))
        };
        let ours = ours::read(
            against.reading,
            p.quantity,
            label,
            p.procs,
            &cells,
            &outcome.summaries,
        );
        let series = match against.reading.label() {
            "" => our_label(label, &against.variant),
            how if against.variant.is_empty() => format!("{label} ({how})"),
            how => format!("{label} ({}, {how})", against.variant),
        };
        match out.iter_mut().find(|c| {
            c.quantity == p.quantity && c.series == series && c.published_series == published_series
        }) {
            Some(c) => c.points.push((p.procs, p.value, ours)),
            None => out.push(Curve {
                item: against
                    .view
                    .as_ref()
                    .map_or_else(|| p.item.clone(), |view| view.name.clone()),
                quantity: p.quantity,
                series,
                published_series,
                points: vec![(p.procs, p.value, ours)],
            }),
        }
    }
    out
}

/// Every point of `curves` that has ours.
#[must_use]
pub fn comparisons(curves: &[Curve]) -> Vec<Comparison> {
    curves
        .iter()
        .flat_map(|c| {
            c.points.iter().filter_map(|&(procs, published, ours)| {
                ours.map(|ours| Comparison {
                    item: c.item.clone(),
                    series: c.series.clone(),
                    published_series: c.published_series.clone(),
                    quantity: c.quantity,
                    procs,
                    published,
                    ours,
                })
            })
        })
        .collect()
}

/// One line per curve without any number of ours.
#[must_use]
pub fn not_compared(curves: &[Curve]) -> Vec<String> {
    curves
        .iter()
        .filter(|c| c.points.iter().all(|(_, _, o)| o.is_none()))
        .map(|c| {
            format!(
                "{}: {} ({}) has no number of ours for {} (not run, or not measured)",
                c.item,
                c.published_series,
                c.series,
                c.quantity.name()
            )
        })
        .collect()
}

/// Kendall's tau-b of two rankings of the same items (ties allowed on both sides): `None`
/// with fewer than two items or when either side has every pair tied.
#[must_use]
pub fn kendall_tau_b(x: &[f64], y: &[f64]) -> Option<f64> {
    let n = x.len().min(y.len());
    let (mut concordant, mut discordant, mut tied_x, mut tied_y) = (0i64, 0i64, 0i64, 0i64);
    for i in 0..n {
        for j in i + 1..n {
            let dx = x[i].total_cmp(&x[j]) as i64;
            let dy = y[i].total_cmp(&y[j]) as i64;
            match (dx, dy) {
                (0, 0) => {}
                (0, _) => tied_x += 1,
                (_, 0) => tied_y += 1,
                _ if dx == dy => concordant += 1,
                _ => discordant += 1,
            }
        }
    }
    let denominator =
        (((concordant + discordant + tied_x) * (concordant + discordant + tied_y)) as f64).sqrt();
    (denominator > 0.0).then(|| (concordant - discordant) as f64 / denominator)
}

/// Mean and largest absolute difference of (published, ours) pairs; `None` for none.
#[must_use]
pub fn abs_diffs(pairs: &[(f64, f64)]) -> Option<(f64, f64)> {
    if pairs.is_empty() {
        return None;
    }
    let diffs = pairs.iter().map(|(p, o)| (o - p).abs());
    let max = diffs.clone().fold(0.0, f64::max);
    Some((diffs.sum::<f64>() / pairs.len() as f64, max))
}

/// One verdict per item and quantity of `comparisons`, in their order.
#[must_use]
pub fn verdicts(comparisons: &[Comparison]) -> Vec<Verdict> {
    let mut groups: Vec<(&str, Quantity)> = Vec::new();
    for c in comparisons {
        if !groups.contains(&(c.item.as_str(), c.quantity)) {
            groups.push((c.item.as_str(), c.quantity));
        }
    }
    groups
        .into_iter()
        .filter_map(|(item, quantity)| {
            let mine: Vec<&Comparison> = comparisons
                .iter()
                .filter(|c| c.item == item && c.quantity == quantity)
                .collect();
            let at = mine.iter().map(|c| c.procs).max()?;
            // One value per series at `at` (a series listed twice keeps its first).
            let mut ranked: BTreeMap<(&str, &str), (f64, f64)> = BTreeMap::new();
            for c in mine.iter().filter(|c| c.procs == at) {
                ranked
                    .entry((c.series.as_str(), c.published_series.as_str()))
                    .or_insert((c.published, c.ours));
            }
            let (published, ours): (Vec<f64>, Vec<f64>) = ranked.values().copied().unzip();
            let pairs: Vec<(f64, f64)> = mine.iter().map(|c| (c.published, c.ours)).collect();
            let (mean_abs_diff, max_abs_diff) = abs_diffs(&pairs)?;
            Some(Verdict {
                item: item.to_string(),
                quantity,
                kendall_tau_at: at,
                kendall_tau: kendall_tau_b(&ours, &published),
                mean_abs_diff,
                max_abs_diff,
                n_points: mine.len(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Option<f64>, b: f64) -> bool {
        a.is_some_and(|a| (a - b).abs() < 1e-12)
    }

    #[test]
    fn kendall_tau_b_perfect_reversed_and_tied() {
        let x = [1.0, 2.0, 3.0, 4.0];
        assert!(close(kendall_tau_b(&x, &[10.0, 20.0, 30.0, 40.0]), 1.0));
        assert!(close(kendall_tau_b(&x, &[4.0, 3.0, 2.0, 1.0]), -1.0));
        // One tie on y: C = 5, D = 0, ties in y only = 1: 5 / sqrt(6 x 5).
        let t = kendall_tau_b(&x, &[1.0, 2.0, 3.0, 3.0]);
        assert!(close(t, 5.0 / 30f64.sqrt()), "{t:?}");
        // Ties on both sides of the same pair count for neither: C = 5 of 5.
        assert!(close(
            kendall_tau_b(&[1.0, 1.0, 2.0, 3.0], &[5.0, 5.0, 6.0, 7.0]),
            1.0
        ));
        // One swap among four: C = 5, D = 1: 4/6.
        assert!(close(kendall_tau_b(&x, &[1.0, 3.0, 2.0, 4.0]), 4.0 / 6.0));
        // Undefined: one item, or every pair tied on one side.
        assert_eq!(kendall_tau_b(&[1.0], &[2.0]), None);
        assert_eq!(kendall_tau_b(&[1.0, 1.0, 1.0], &[1.0, 2.0, 3.0]), None);
    }

    #[test]
    fn mean_and_largest_absolute_difference() {
        let (mean, max) = abs_diffs(&[(1.0, 0.5), (2.0, 2.0), (0.0, 1.0)]).expect("pairs");
        assert!((mean - 0.5).abs() < 1e-12 && (max - 1.0).abs() < 1e-12);
        assert_eq!(abs_diffs(&[]), None);
    }

    fn comparison(
        series: &str,
        q: Quantity,
        procs: usize,
        published: f64,
        ours: f64,
    ) -> Comparison {
        Comparison {
            item: "figure 5".into(),
            series: series.into(),
            published_series: series.to_uppercase(),
            quantity: q,
            procs,
            published,
            ours,
        }
    }

    #[test]
    fn verdicts_rank_the_series_at_the_largest_common_count() {
        let e = Quantity::RelativeEfficiency;
        let cs = vec![
            comparison("a", e, 1, 1.0, 1.0),
            comparison("a", e, 8, 0.9, 0.5),
            comparison("b", e, 1, 1.0, 1.0),
            comparison("b", e, 8, 0.5, 0.9),
            comparison("b", Quantity::NodesRelative, 8, 2.0, 1.0),
        ];
        let v = verdicts(&cs);
        assert_eq!(v.len(), 2);
        assert_eq!((v[0].kendall_tau_at, v[0].n_points), (8, 4));
        // a above b in the paper, below in ours.
        assert!(close(v[0].kendall_tau, -1.0));
        assert!((v[0].mean_abs_diff - 0.2).abs() < 1e-12);
        assert!((v[0].max_abs_diff - 0.4).abs() < 1e-12);
        // One series: no ranking.
        assert_eq!(v[1].quantity, Quantity::NodesRelative);
        assert_eq!(v[1].kendall_tau, None);
    }
}
