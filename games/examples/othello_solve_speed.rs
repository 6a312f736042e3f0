//! Prints the exact endgame solver's speed on Othello test-set files: per position its
//! empties, score (and the score the file states), nodes, wall time and the thread's CPU time
//! (`/proc/thread-self/schedstat`, Linux), then the totals of each file. Each position is
//! solved by a fresh solver, so positions do not share a table. A score that differs from the
//! one the file states ends the run with exit status 1.
//!
//! ```text
//! cargo run --release -p games --example othello_solve_speed -- [FILE...] [--skip N]
//!     [--take N] [--bits B] [--off stability,etc,aspiration] [--presort FROM,STEP,MAX]
//!     [--pv-extra PLIES] [--mobility M] [--presearch FROM,MARGIN] [--presearch-passes P]
//!     [--presearch-leaf EMPTIES] [--from FASTEST,TABLE,ETC] [--window LO,HI]
//! ```
//!
//! - `FILE`: a test-set file, or the name of one in `testsets/search` (default
//!   `othello_end20.txt`; `othello_end20.txt othello_end22.txt othello_end24.txt
//!   othello_end26.txt` for 20 to 26 empties, `othello_ffo40_59.txt` for FFO #40-#59).
//! - `--skip`, `--take`: the positions of each file solved (default all).
//! - `--bits`: the table's size as `Solver::new` takes it (default 22: 128 MiB).
//! - `--window LO,HI`: solve within that window instead of the full one (no score check).
//! - The others set the solver's `Options` of the same names (defaults: `Options::default()`):
//!   `--off` switches enhancements off; `--presort` sets `presort_from`, `presort_step`,
//!   `presort_max`; `--pv-extra` `presort_pv_extra`; `--mobility` `presort_mobility`;
//!   `--presearch` `presearch_from` and `presearch_margin` (in sixteenths; `65,0` switches the
//!   pre-search off); `--presearch-passes`, `--presearch-leaf`; `--from` `fastest_first_from`,
//!   `table_from`, `etc_from`.
//!
//! The measurements and the tuning of `games/src/othello/endgame/README.md` come from it.

mod common;

use games::othello::endgame::{Options, Solver};

const USAGE: &str = "othello_solve_speed [FILE...] [--skip N] [--take N] [--bits B] [--off stability,etc,aspiration] [--presort FROM,STEP,MAX] [--pv-extra PLIES] [--mobility M] [--presearch FROM,MARGIN] [--presearch-passes P] [--presearch-leaf EMPTIES] [--from FASTEST,TABLE,ETC] [--window LO,HI]";

/// CPU time of this thread in seconds (Linux; `None` elsewhere): on a shared machine the wall
/// time mostly measures the wait for a core, the CPU time the solver's work.
fn cpu() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

/// The solver's options the command line sets.
fn options(args: &common::Args) -> Options {
    let mut options = Options::default();
    if let Some(off) = args.option::<String>("off") {
        for word in off.split(',') {
            match word {
                "stability" => options.stability = false,
                "etc" => options.etc = false,
                "aspiration" => options.aspiration = false,
                _ => args.fail(format!(
                    "--off {off}: `{word}` is not stability, etc or aspiration"
                )),
            }
        }
    }
    if let Some([from, step, max]) = args.list("presort") {
        (
            options.presort_from,
            options.presort_step,
            options.presort_max,
        ) = (from, step, max);
    }
    options.presort_pv_extra = args.value("pv-extra", options.presort_pv_extra);
    options.presort_mobility = args.value("mobility", options.presort_mobility);
    if let Some([from, margin]) = args.list::<i64, 2>("presearch") {
        let from = u32::try_from(from)
            .unwrap_or_else(|_| args.fail(format!("--presearch: bad FROM {from}")));
        let margin = i32::try_from(margin)
            .unwrap_or_else(|_| args.fail(format!("--presearch: bad MARGIN {margin}")));
        (options.presearch_from, options.presearch_margin) = (from, margin);
    }
    options.presearch_passes = args.value("presearch-passes", options.presearch_passes);
    options.presearch_leaf = args.value("presearch-leaf", options.presearch_leaf);
    if let Some([fastest, table, etc]) = args.list("from") {
        (
            options.fastest_first_from,
            options.table_from,
            options.etc_from,
        ) = (fastest, table, etc);
    }
    options
}

fn main() {
    let args = common::Args::parse(
        USAGE,
        &[
            "skip",
            "take",
            "bits",
            "off",
            "presort",
            "pv-extra",
            "mobility",
            "presearch",
            "presearch-passes",
            "presearch-leaf",
            "from",
            "window",
        ],
        &[],
    );
    let files = match args.positional(usize::MAX) {
        [] => vec!["othello_end20.txt".to_string()],
        files => files.to_vec(),
    };
    let (skip, take) = (args.value("skip", 0usize), args.value("take", usize::MAX));
    let bits: u32 = args.value("bits", 22);
    let options = options(&args);
    let (lo, hi) = args.list("window").map_or((-64, 64), |[lo, hi]| (lo, hi));
    if lo >= hi {
        args.fail(format!("--window {lo},{hi}: need LO < HI"));
    }
    for file in files {
        let positions = common::read_scored("othello_solve_speed", &file);
        let (mut nodes, mut secs, mut cpu_secs) = (0u64, 0f64, 0f64);
        for (i, (pos, known)) in positions.into_iter().enumerate().skip(skip).take(take) {
            let started = std::time::Instant::now();
            let cpu_started = cpu();
            let r = Solver::<8>::with_options(bits, options).solve(&pos, lo, hi);
            let s = started.elapsed().as_secs_f64();
            let c = cpu().zip(cpu_started).map_or(f64::NAN, |(b, a)| b - a);
            nodes += r.nodes;
            secs += s;
            cpu_secs += c;
            println!(
                "{file} #{i}: {} empties, score {:+} (known {known:?}), {} nodes, {s:.3} s, {:.2} M nodes/s, cpu {c:.3} s, {:.2} M nodes per cpu s",
                pos.empties().count_ones(),
                r.score,
                r.nodes,
                r.nodes as f64 / s / 1e6,
                r.nodes as f64 / c / 1e6
            );
            if let Some(k) = known.filter(|&k| (lo, hi) == (-64, 64) && k != r.score) {
                eprintln!(
                    "othello_solve_speed: {file} #{i}: score {} but the file states {k}: {pos}",
                    r.score
                );
                std::process::exit(1);
            }
        }
        println!(
            "{file} total: {nodes} nodes, {secs:.3} s, {:.2} M nodes/s, cpu {cpu_secs:.3} s, {:.2} M nodes per cpu s",
            nodes as f64 / secs / 1e6,
            nodes as f64 / cpu_secs / 1e6
        );
    }
}
