//! Simulated speedups and overheads of APHID (thesis 6.2.6, table 6.1) and of delay splitting
//! (YBW) on the Othello middle-game test set, shared-memory preset.
//!
//! `cargo run --release -p control --example aphid_speedup -- DEPTH PROCS[,PROCS...] [POSITIONS] [MASTER_DEPTH]`
//!
//! The sequential baseline is iterative deepening to DEPTH with the same search (research
//! setting, PVS, exact-depth table of 4 MiB), timed at the preset's cost per node; APHID also
//! deepens iteratively (its first iterations on the master alone). Averages are per position
//! (thesis method 2) and aggregate (method 1). APHID's slaves share one table, as in the
//! thesis's standard tests (section 6.2.5).
//!
//! Environment: `APHID_ONLY` (no YBW runs), `APHID_TT=local|shared|distributed`, `APHID_WINDOW`,
//! `APHID_PIECES`, `APHID_EXEMPTION`, `APHID_SPLIT` (`split_tail`, 0 = off),
//! `APHID_REPORT_NODES` (`report_nodes`: a small change of it gives another sample of the same
//! algorithm's schedule, to see the run-to-run spread), `APHID_UNTOUCHED=true|false`
//! (`untouched_last`), `APHID_INCREMENTAL=true|false` (`incremental_passes`),
//! `APHID_ANCHORED=true|false` (`anchored_guesses`), `APHID_REQ_SLICE`
//! (`required_slice_nodes`, 0 = off), `APHID_PRIORITY_FROM` (`priority_from_depth`),
//! `APHID_LEAF_CAP` (`master_leaf_cap`, 0 = off), `APHID_NEW_LEAF_PASSES` (`new_leaf_passes`),
//! `APHID_TT_SEED=true|false` (`tt_seeded_guesses`), `APHID_PARITY=true|false`
//! (`parity_guesses`), `APHID_LEAF_PROBE` (`leaf_probe_depth`, 0 = off),
//! `APHID_TT_RESEED=true|false` (`tt_reseed_guesses`), `APHID_WASTE` (per position: the search
//! overhead by cause; the mean by cause is always printed), `APHID_CHURN` (per position: why
//! the master's principal variation moved, `control::parallel::aphid::churn`), `APHID_SKIP`
//! (start after that many positions of the set), `APHID_POSITIONS` (a list such as `6,3,4,8`:
//! those positions, numbered from 0, with their seeds of a whole-set run), `APHID_TT_MIB` (the
//! table size of the sequential and the parallel search alike, default 4), `APHID_VERBOSE` (per
//! position: the sequential nodes by depth, the master's and the slaves' busy, idle and
//! messaging time, the counters), and `APHID_PLAY` (the play setting: variable depth through
//! null-move reductions and the normal table, thesis table 6.2; the parallel value may then
//! differ from the sequential one, which is counted, not refused). Session 8: `APHID_TAIL` (per
//! position: the last iterations' timeline, `control::parallel::aphid::tail`),
//! `APHID_SLICE_GROWTH` (`required_slice_growth`), `APHID_SPEC_CAP` (`speculative_slice_cap`,
//! 0 = off), `APHID_CATCH_UP_FROM` (`catch_up_from`, 0 = off), `APHID_CUT_WINDOW=true|false`
//! (`cut_keeps_window`), `APHID_EXACT_SPARE=true|false` (`exact_spare`), `APHID_BAD_MARGIN`
//! (`bad_bound_margin`, 0 = the thesis's window), `APHID_BAD_HOLD=true|false` (`bad_bound_hold`),
//! `APHID_BAD_EARLY=true|false` (`early_bad_bounds`). Session 9: `APHID_HOST_SLAVE=1` (or
//! `true`; `master_hosts_slave`: the master's processor also runs a slave at lower priority,
//! `n` processors still; the master's share of processor 0 and the hosted slave's part of the
//! nodes are printed), `APHID_HOSTED_LAPS` (`hosted_slave_laps`: the hosted slave takes new
//! leaves in one round-robin lap out of that many; 0, the default, = only moved work).
//! Session 10: `APHID_SET` (a test-set file instead of `testsets/search/othello_midgame.txt`,
//! such as `testsets/search/othello_games.txt`), `APHID_ALT_WINDOW` (`alternative_window`: the
//! half-width of the window off the principal variation, 0 = off), `APHID_SHIFT=true|false`
//! (`run_ahead_shift`). Session 11: `APHID_PV_WINDOW` (`pv_window`: the half-width of the
//! principal-variation leaf's window, 0 = off), `APHID_VALUE_ORDER=true|false`
//! (`value_ordering`).

mod common;

use std::error::Error;

use control::parallel::aphid::{AphidOptions, Overheads, RunFigures, TtSharing};
use control::parallel::{ParallelAlgo, ParallelOptions, search};
use control::search::{SearchConfig, Searcher, Unlimited};
use dib::{Backend, CostModel, SimConfig};
use games::othello::Othello;
use games::score::INFINITY;

/// The environment variable `name` parsed, if set and valid.
fn env<T: std::str::FromStr>(name: &str) -> Option<T> {
    std::env::var(name).ok()?.parse().ok()
}

/// Sets `field` from the environment variable `name` when it is set and valid.
fn set<T: std::str::FromStr>(field: &mut T, name: &str) {
    if let Some(v) = env(name) {
        *field = v;
    }
}

/// The search-overhead causes printed, in order (`control::parallel::aphid::waste`).
const WASTE: [&str; 11] = [
    "bad-bound",
    "untouched",
    "moved",
    "catch-up",
    "sliced",
    "stale",
    "split",
    "passes",
    "final-needed",
    "final-other",
    "earlier",
];

/// The search overhead of one run by cause, as fractions of the sequential nodes `seq`
/// (`seq_last` of them in the last iteration): re-searches for bad bounds, untouched leaves
/// searched in the last iteration, work lost by moved pieces, required searches below the
/// leaf's required depth (catch-up), required searches cut short at the end of a slice (their
/// finished subtrees stay in the table for the resumed search), work at an iteration's depth on
/// rows its last pass did not touch (stale) or exempted (split), the master's passes; then the
/// last iteration split into the excess of its needed leaves over the sequential last iteration
/// and the rest of it, and the earlier iterations' excess (what is left). All but the sliced
/// nodes, the passes and the last three overlap (a bad bound on a stale row counts twice);
/// those five add up to the search overhead.
fn waste(get: &dyn Fn(&str) -> f64, seq: f64, seq_last: f64) -> [f64; WASTE.len()] {
    let seq = seq.max(1.0);
    let total = get("aphid_master_nodes") + get("aphid_slave_required_nodes") - seq;
    let passes = get("aphid_pass_nodes");
    let final_all = get("aphid_waste_final_iteration");
    let needed = get("aphid_waste_final_needed") - seq_last;
    let other = final_all - get("aphid_waste_final_needed");
    let sliced = get("aphid_waste_sliced");
    let earlier = total - passes - needed - other - sliced;
    [
        get("aphid_waste_bad_bound"),
        get("aphid_waste_untouched"),
        get("aphid_waste_revoked"),
        get("aphid_waste_catch_up"),
        get("aphid_waste_sliced"),
        get("aphid_waste_stale"),
        get("aphid_waste_split"),
        passes,
        needed,
        other,
        earlier,
    ]
    .map(|x| x / seq)
}

/// `parts` as `name x.x%` pairs.
fn describe(parts: &[f64]) -> String {
    WASTE
        .iter()
        .zip(parts)
        .map(|(name, p)| format!("{name} {:.1}%", 100.0 * p))
        .collect::<Vec<_>>()
        .join(", ")
}

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).map_or(Ok(8), |s| s.parse())?;
    let procs: Vec<usize> = args
        .get(2)
        .map_or("16,64", String::as_str)
        .split(',')
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    let count: usize = args.get(3).map_or(Ok(10), |s| s.parse())?;
    let master_depth: Option<u32> = args.get(4).map(|s| s.parse()).transpose()?;
    let skip: usize = env("APHID_SKIP").unwrap_or(0);
    // `APHID_POSITIONS=6,3,4,8`: those positions of the set (numbered from 0), each with the
    // seed it has in a run of the whole set.
    let chosen: Option<Vec<usize>> = std::env::var("APHID_POSITIONS")
        .ok()
        .map(|s| s.split(',').map(str::parse).collect())
        .transpose()?;
    let numbers: Vec<usize> = chosen.unwrap_or_else(|| (skip..skip + count).collect());
    let wanted = numbers.iter().max().map_or(0, |m| m + 1);
    let all = match std::env::var("APHID_SET") {
        Ok(path) => common::othello_set(&path, wanted)?,
        Err(_) => common::othello_midgame(wanted)?,
    };
    let positions: Vec<Othello<8>> = numbers
        .iter()
        .map(|&i| {
            all.get(i)
                .cloned()
                .ok_or(format!("no position {i} in the set"))
        })
        .collect::<Result<_, _>>()?;
    let cost = CostModel::shared_memory();
    let play = std::env::var_os("APHID_PLAY").is_some();
    let tt_mib = env("APHID_TT_MIB").unwrap_or(4);
    let config = SearchConfig {
        tt_mib,
        ..if play {
            SearchConfig::play()
        } else {
            SearchConfig::research()
        }
    };
    let node_s = cost.nodes_ns(0, 1) as f64 / 1e9;
    let mut seq = Vec::new();
    for pos in &positions {
        let mut s = Searcher::<Othello<8>>::new(config)?;
        let mut value = 0;
        let mut per_depth = Vec::new();
        for d in 1..=depth {
            let before = s.stats().nodes();
            value = s
                .search_window(pos, d, -INFINITY, INFINITY, &mut Unlimited)
                .value;
            per_depth.push(s.stats().nodes() - before);
        }
        if std::env::var_os("APHID_VERBOSE").is_some() {
            eprintln!("  sequential nodes by depth: {per_depth:?}");
        }
        let nodes = s.stats().nodes();
        seq.push((value, nodes, nodes as f64 * node_s, per_depth));
    }
    let seq_nodes: u64 = seq.iter().map(|s| s.1).sum();
    println!(
        "depth {depth}, {} positions, sequential iterative deepening: {seq_nodes} nodes, {:.2} s simulated",
        positions.len(),
        seq.iter().map(|s| s.2).sum::<f64>()
    );
    for &n in &procs {
        let algos: &[ParallelAlgo] = if std::env::var_os("APHID_ONLY").is_some() {
            &[ParallelAlgo::Aphid]
        } else {
            &[ParallelAlgo::Aphid, ParallelAlgo::DelaySplit]
        };
        for &algo in algos {
            let mut per = Vec::new();
            let mut agg = Vec::new();
            let mut idle = 0.0;
            let mut busy = 0.0;
            let mut differ = 0;
            let (mut master_share, mut hosted_share) = (0.0, 0.0);
            let mut waste_sum = [0.0; WASTE.len()];
            for (i, pos) in positions.iter().enumerate() {
                let mut o = ParallelOptions::new(
                    depth,
                    n,
                    Backend::Sim(SimConfig::new(cost.clone(), 1 + numbers[i] as u64)),
                );
                o.search = config;
                o.min_split_depth = 2;
                let mut aphid = AphidOptions {
                    master_depth,
                    tt: TtSharing::Shared,
                    ..AphidOptions::default()
                };
                set(&mut aphid.exemption_factor, "APHID_EXEMPTION");
                set(&mut aphid.tt, "APHID_TT");
                set(&mut aphid.min_pieces_per_slave, "APHID_PIECES");
                set(&mut aphid.split_tail, "APHID_SPLIT");
                set(&mut aphid.untouched_last, "APHID_UNTOUCHED");
                set(&mut aphid.incremental_passes, "APHID_INCREMENTAL");
                set(&mut aphid.anchored_guesses, "APHID_ANCHORED");
                set(&mut aphid.report_nodes, "APHID_REPORT_NODES");
                set(&mut aphid.window, "APHID_WINDOW");
                set(&mut aphid.required_slice_nodes, "APHID_REQ_SLICE");
                set(&mut aphid.priority_from_depth, "APHID_PRIORITY_FROM");
                set(&mut aphid.master_leaf_cap, "APHID_LEAF_CAP");
                set(&mut aphid.new_leaf_passes, "APHID_NEW_LEAF_PASSES");
                set(&mut aphid.tt_seeded_guesses, "APHID_TT_SEED");
                set(&mut aphid.parity_guesses, "APHID_PARITY");
                set(&mut aphid.leaf_probe_depth, "APHID_LEAF_PROBE");
                set(&mut aphid.tt_reseed_guesses, "APHID_TT_RESEED");
                set(&mut aphid.required_slice_growth, "APHID_SLICE_GROWTH");
                set(&mut aphid.speculative_slice_cap, "APHID_SPEC_CAP");
                set(&mut aphid.catch_up_from, "APHID_CATCH_UP_FROM");
                set(&mut aphid.cut_keeps_window, "APHID_CUT_WINDOW");
                set(&mut aphid.exact_spare, "APHID_EXACT_SPARE");
                set(&mut aphid.alternative_window, "APHID_ALT_WINDOW");
                set(&mut aphid.run_ahead_shift, "APHID_SHIFT");
                set(&mut aphid.pv_window, "APHID_PV_WINDOW");
                set(&mut aphid.value_ordering, "APHID_VALUE_ORDER");
                set(&mut aphid.bad_bound_margin, "APHID_BAD_MARGIN");
                set(&mut aphid.bad_bound_hold, "APHID_BAD_HOLD");
                set(&mut aphid.early_bad_bounds, "APHID_BAD_EARLY");
                if let Ok(v) = std::env::var("APHID_HOST_SLAVE") {
                    aphid.master_hosts_slave = matches!(v.as_str(), "1" | "true");
                }
                set(&mut aphid.hosted_slave_laps, "APHID_HOSTED_LAPS");
                let hosting = aphid.master_hosts_slave;
                o.aphid = aphid;
                let r = search(algo, pos, &o)?;
                if play {
                    differ += usize::from(r.value != seq[i].0);
                } else {
                    assert_eq!(r.value, seq[i].0, "position {i}: value differs");
                }
                let get = |k: &str| r.extra.iter().find(|(x, _)| *x == k).map_or(0.0, |e| e.1);
                let figures = RunFigures {
                    procs: n,
                    seconds: r.seconds,
                    nodes: r.nodes,
                    speculative_nodes: (get("aphid_speculative_nodes") + get("aphid_aborted_nodes"))
                        as u64,
                    master_cpu_share: (hosting && algo == ParallelAlgo::Aphid)
                        .then(|| get("aphid_master_cpu_share")),
                };
                if algo == ParallelAlgo::Aphid {
                    master_share += get("aphid_master_cpu_share");
                    hosted_share += get("aphid_hosted_slave_nodes") / r.nodes.max(1) as f64;
                }
                per.push(Overheads::of(figures, seq[i].1, seq[i].2));
                let seq_last = seq[i].3.last().copied().unwrap_or(0) as f64;
                let parts = waste(&get, seq[i].1 as f64, seq_last);
                for (sum, p) in waste_sum.iter_mut().zip(parts) {
                    *sum += p;
                }
                if std::env::var_os("APHID_WASTE").is_some() {
                    println!(
                        "{:>10} n={n:>3} pos {:>2}: speedup {:.2}, search {:.1}%: {}",
                        algo.name(),
                        numbers[i],
                        per.last().map_or(0.0, |o| o.speedup),
                        100.0 * per.last().map_or(0.0, |o| o.search),
                        describe(&parts)
                    );
                }
                agg.push((figures, seq[i].1, seq[i].2));
                if std::env::var_os("APHID_CHURN").is_some() {
                    let churn: Vec<String> = r
                        .extra
                        .iter()
                        .filter_map(|(k, v)| {
                            Some(format!("{} {v}", k.strip_prefix("aphid_churn_")?))
                        })
                        .collect();
                    println!(
                        "{:>10} n={n:>3} pos {:>2}: passes {}, rows {}, churn: {}",
                        algo.name(),
                        numbers[i],
                        get("aphid_passes"),
                        get("aphid_leaves"),
                        churn.join(", ")
                    );
                }
                if std::env::var_os("APHID_TAIL").is_some() {
                    // The last iterations' timeline (`control::parallel::aphid::tail`).
                    let t = |k: &str| get(&format!("aphid_tail_{k}"));
                    let s = |ns: f64| ns / 1e9;
                    let end = t("end_ns");
                    let slaves = t("slaves").max(1.0);
                    let node_s = seq[i].2 / seq[i].1.max(1) as f64;
                    let fin = end - t("final_start_ns");
                    let cap = fin * slaves / 1e9 / node_s;
                    let share = |k: &str| 100.0 * t(k) / cap.max(1.0);
                    println!(
                        "{:>10} n={n:>3} pos {:>2}: tail: iterations {:.2} / {:.2} / {:.2} s (last three), \
                         slaves' last required at {:.2} s mean, {:.2} s latest, of {:.2} s; master {:.0} nodes ({:.0} % of the last), \
                         {} passes; largest piece {:.0} nodes ({:.2} s); last iteration's slave capacity: required {:.1} %, \
                         catch-up {:.1} %, bad-bound {:.1} %, untouched {:.1} %, sliced {:.1} %, speculative {:.1} %; \
                         exact-spare {:.1} %; catch-up in the one before {:.0} nodes",
                        algo.name(),
                        numbers[i],
                        s(t("prev_start_ns") - t("prev2_start_ns")),
                        s(t("final_start_ns") - t("prev_start_ns")),
                        s(fin),
                        s(t("last_required_ns") / slaves - t("final_start_ns")),
                        s(t("last_required_max_ns") - t("final_start_ns")),
                        s(fin),
                        t("master_final_nodes"),
                        100.0 * t("master_final_nodes") * node_s / s(fin).max(1e-9),
                        t("final_passes"),
                        t("largest_piece_max"),
                        t("largest_piece_max") * node_s,
                        share("required"),
                        share("catch_up"),
                        share("bad_bound"),
                        share("untouched"),
                        share("sliced"),
                        share("speculative"),
                        share("exact"),
                        t("catch_up_prev"),
                    );
                }
                if std::env::var_os("APHID_VERBOSE").is_some() {
                    let m = r.accounts[0].backend;
                    let (mut sb, mut si, mut sm) = (0u64, 0u64, 0u64);
                    for a in &r.accounts[1..] {
                        sb += a.backend.busy_ns;
                        si += a.backend.idle_ns;
                        sm += a.backend.messaging_ns;
                    }
                    eprintln!(
                        "  master busy {:.3} idle {:.3} msg {:.3}; slaves busy {:.3} idle {:.3} msg {:.3} (s, summed)",
                        m.busy_ns as f64 / 1e9,
                        m.idle_ns as f64 / 1e9,
                        m.messaging_ns as f64 / 1e9,
                        sb as f64 / 1e9,
                        si as f64 / 1e9,
                        sm as f64 / 1e9
                    );
                    eprintln!(
                        "  {} pos {}: {:.3} s (seq {:.3}), master busy {:.3} s, {:?}",
                        algo.name(),
                        numbers[i],
                        r.seconds,
                        seq[i].2,
                        m.busy_ns as f64 / 1e9,
                        r.extra
                    );
                }
                let t = r.total.backend;
                idle += t.idle_ns as f64 / (t.idle_ns + t.busy_ns + t.messaging_ns).max(1) as f64;
                busy += 1.0;
            }
            let m = Overheads::mean(&per);
            let a = Overheads::aggregate(&agg);
            println!(
                "{:>10} n={n:>3}: speedup {:.2} (aggregate {:.2}); total {:.1}%, master {:.1}%, parallelization {:.1}%, search {:.1}%, speculative {:.1}%; idle {:.1}%",
                algo.name(),
                m.speedup,
                a.speedup,
                100.0 * m.total,
                100.0 * m.master,
                100.0 * m.parallelization,
                100.0 * m.search,
                100.0 * m.speculative,
                100.0 * idle / busy,
            );
            if algo == ParallelAlgo::Aphid {
                let k = per.len().max(1) as f64;
                println!(
                    "{:>10} n={n:>3}: master's share of processor 0 {:.1}% (mean); hosted slave {:.1}% of the nodes (mean)",
                    algo.name(),
                    100.0 * master_share / k,
                    100.0 * hosted_share / k
                );
                println!(
                    "{:>10} n={n:>3}: search overhead by cause (mean, % of sequential nodes): {}",
                    algo.name(),
                    describe(&waste_sum.map(|x| x / k))
                );
            }
            if play {
                println!(
                    "{:>10} n={n:>3}: {differ} values differ from the sequential search (play setting)",
                    algo.name()
                );
            }
        }
    }
    Ok(())
}
