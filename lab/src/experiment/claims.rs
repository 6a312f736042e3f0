//! The claims of a paper's text that an experiment checks beside its published numbers: each
//! quoted, with the criterion it is read by, what we measured, and whether ours shows it.
//! They go into `verdict.json` (`claims`) and onto the pages. An experiment's file names the
//! claims it checks (`claims = "brockington-schaeffer-1996"`); only experiments whose papers
//! make such claims about their figures name any (`bs96-fig7-9`).

use serde::{Deserialize, Serialize};

use super::ours::{self, Cell};
use super::published::Quantity;
use crate::compare::Outcome;
use crate::compare::analysis::Row;
use crate::experiment::side_by_side::num;

/// One claim of the text against ours.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Claim {
    /// The paper's words (quoted) and how they are read.
    pub claim: String,
    /// What we measured.
    pub ours: String,
    /// Whether ours shows it.
    pub holds: bool,
}

/// The papers whose claims an experiment may check (`claims = "NAME"` in its file).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Claims {
    /// Brockington and Schaeffer (1996), section 4: APHID's speedup by depth, by third of the
    /// positions, and its overheads.
    #[serde(rename = "brockington-schaeffer-1996")]
    BrockingtonSchaeffer1996,
}

/// The claims `claims` names, checked in the comparisons an experiment ran (variant label,
/// outcome); none without a name.
#[must_use]
pub fn check(claims: Option<Claims>, ran: &[(&str, &Outcome)]) -> Vec<Claim> {
    match claims {
        Some(Claims::BrockingtonSchaeffer1996) => brockington_schaeffer_1996(ran),
        None => Vec::new(),
    }
}

/// APHID's cells of one comparison on more than one processor, with their depth.
fn parallel_cells(outcome: &Outcome) -> Vec<(u32, Cell)> {
    outcome
        .rows
        .iter()
        .filter(|r: &&Row| r.series == "aphid" && r.procs > 1)
        .map(|r| (r.depth, Cell::from(r)))
        .collect()
}

/// The share of `flags` that are true, `None` for none.
fn share(flags: impl Iterator<Item = bool>) -> Option<f64> {
    let (yes, n) = flags.fold((0usize, 0usize), |(y, n), f| (y + usize::from(f), n + 1));
    (n > 0).then(|| yes as f64 / n as f64)
}

/// Brockington and Schaeffer (1996), section 4 (TheTurk on the Bratko-Kopec positions).
fn brockington_schaeffer_1996(ran: &[(&str, &Outcome)]) -> Vec<Claim> {
    let mut cells: Vec<(u32, Cell)> = ran.iter().flat_map(|(_, o)| parallel_cells(o)).collect();
    cells.sort_by_key(|(d, c)| (*d, c.procs, c.line));
    let mut depths: Vec<u32> = cells.iter().map(|(d, _)| *d).collect();
    depths.dedup();
    let mut procs: Vec<usize> = cells.iter().map(|(_, c)| c.procs).collect();
    procs.sort_unstable();
    procs.dedup();
    let at = |d: u32| -> Vec<Cell> {
        cells
            .iter()
            .filter(|(x, _)| *x == d)
            .map(|(_, c)| c.clone())
            .collect()
    };
    let summaries = |d: u32| {
        ran.iter()
            .find(|(_, o)| o.rows.iter().any(|r| r.depth == d && r.procs > 1))
            .map(|(_, o)| o.summaries.clone())
            .unwrap_or_default()
    };
    let mut out = Vec::new();

    // Speedup by depth at each processor count.
    let speedup =
        |d: u32, n: usize| ours::value(Quantity::Speedup, "aphid", n, &at(d), &summaries(d));
    let rows: Vec<String> = procs
        .iter()
        .map(|&n| {
            let s: Vec<String> = depths
                .iter()
                .map(|&d| speedup(d, n).map_or_else(|| "-".into(), num))
                .collect();
            format!("N={n}: {}", s.join(", "))
        })
        .collect();
    let top = procs.last().copied().unwrap_or(0);
    let at_top: Vec<f64> = depths.iter().filter_map(|&d| speedup(d, top)).collect();
    out.push(Claim {
        claim: "\"as the depth of the search increases, so does the speedup\" (read: at the most \
                processors, every depth faster than the one before)"
            .into(),
        ours: format!(
            "speedups at depths {}: {}",
            depths
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            rows.join("; ")
        ),
        holds: depths.len() > 1
            && at_top.len() == depths.len()
            && at_top.windows(2).all(|w| w[1] > w[0]),
    });

    // The overheads at the deepest search.
    let deepest = depths.last().copied().unwrap_or(0);
    let summed: Vec<(usize, ours::Additive)> = procs
        .iter()
        .filter_map(|&n| ours::additive(&at(deepest), "aphid", n).map(|a| (n, a)))
        .collect();
    let list = |f: &dyn Fn(&ours::Additive) -> String| {
        summed
            .iter()
            .map(|(n, a)| format!("N={n}: {}", f(a)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let search: Vec<f64> = summed.iter().map(|(_, a)| a.search * 100.0).collect();
    let (first, last) = (
        search.first().copied().unwrap_or(f64::NAN),
        search.last().copied().unwrap_or(f64::NAN),
    );
    out.push(Claim {
        claim: "\"The search overhead starts at 70% and increases very gradually as we increase \
                from 4 to 16 processors\" (read: within 20 points of 70 % on the fewest \
                processors, and rising by 0 to 30 points to the most)"
            .into(),
        ours: format!(
            "search overhead at {deepest} plies: {}",
            list(&|a| format!("{} %", num(a.search * 100.0)))
        ),
        holds: (first - 70.0).abs() <= 20.0 && (0.0..=30.0).contains(&(last - first)),
    });
    out.push(Claim {
        claim: "\"there is effectively no idle time\" (read: the slaves idle under 10 % of \
                their time at every processor count)"
            .into(),
        ours: format!(
            "slaves' idle share at {deepest} plies: {}",
            list(&|a| format!("{} %", num(a.slave_idle * 100.0)))
        ),
        holds: !summed.is_empty() && summed.iter().all(|(_, a)| a.slave_idle < 0.10),
    });
    out.push(Claim {
        claim: "\"In the parallel algorithm, the slaves were visiting 2000 nodes per second\" \
                against TheTurk's 2500 sequentially, 20 % fewer (read: ours 1,800-2,200 at the \
                sequential program's 2,500, at every processor count)"
            .into(),
        ours: format!(
            "the slaves' nodes per second of their time (idle included) at {deepest} plies, \
             scaled to a sequential 2,500: {}",
            list(&|a| format!("{:.0}", a.slave_rate * 2500.0))
        ),
        holds: !summed.is_empty()
            && summed
                .iter()
                .all(|(_, a)| (1800.0..=2200.0).contains(&(a.slave_rate * 2500.0))),
    });

    // Values and principal variations.
    let values = share(cells.iter().map(|(_, c)| c.value_agrees));
    out.push(Claim {
        claim: "\"over 90% of the parallel searches returned the same minimax value as the \
                sequential search\""
            .into(),
        ours: format!(
            "{} of {} parallel searches ({} %)",
            cells.iter().filter(|(_, c)| c.value_agrees).count(),
            cells.len(),
            values.map_or_else(|| "-".into(), |v| num(v * 100.0))
        ),
        holds: values.is_some_and(|v| v > 0.9),
    });
    let known: Vec<bool> = cells.iter().filter_map(|(_, c)| c.move_agrees).collect();
    let moves = share(known.iter().copied());
    out.push(Claim {
        claim: "\"the principal variation was correct for all but 1 of the 96 searches executed \
                in parallel\" (read: the best move at the root is the sequential search's in at \
                least 95 % of the parallel searches)"
            .into(),
        ours: format!(
            "the sequential search's best move in {} of {} parallel searches ({} %)",
            known.iter().filter(|k| **k).count(),
            known.len(),
            moves.map_or_else(|| "-".into(), |v| num(v * 100.0))
        ),
        holds: moves.is_some_and(|v| v >= 0.95),
    });
    out
}

/// The claims as a markdown list (empty without claims).
#[must_use]
pub fn markdown(claims: &[Claim]) -> String {
    if claims.is_empty() {
        return String::new();
    }
    let mut out =
        String::from("Claims of the text:\n\n| claim | ours | holds |\n| --- | --- | --- |\n");
    for c in claims {
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            c.claim.replace('|', "/"),
            c.ours.replace('|', "/"),
            if c.holds { "yes" } else { "no" }
        ));
    }
    out.push('\n');
    out
}
