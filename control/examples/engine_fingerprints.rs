//! Fixed-seed simulator fingerprints of every parallel algorithm: value, nodes, virtual seconds
//! and the simulator's trace hash, one line per (case, algorithm, processors). A change that
//! must not alter any schedule (a refactoring of the split engines, `split_ab/README.md`) leaves
//! this output identical byte for byte; one that may alter schedules changes only the nodes,
//! seconds and hashes, never the values. Compare two runs with `diff`.
//!
//! `cargo run --release -p control --example engine_fingerprints > before.txt`
//!
//! Run from the workspace root (the Othello cases read `testsets/search/othello_midgame.txt`).
//! The cases: the papers' unsorted setting (4x4 tic-tac-toe, no ordering, no table), the same
//! with the EC sorting regime, the engine setting on Othello (research setting, each
//! algorithm's own granularity), the agreement tests' setting (alpha-beta leaf search, table,
//! ordering) and that setting with injected faults.
//!
//! With the argument `paper9` it prints instead the delay-splitting sweep of Rezaie and Finkel
//! figures 5 and 6 (4x4 tic-tac-toe, depth 9, unsorted, seed 1): speedup, efficiency and node ratio
//! against `alphabeta` on one simulated processor.

mod common;

use std::error::Error;

use control::parallel::{ParallelAlgo, ParallelOptions, search};
use control::search::{Algorithm, SearchConfig, SortRegime, TtMode};
use dib::{Backend, CostModel, FaultPlan, SimConfig};
use games::Game;
use games::tictactoe::TicTacToe4;

/// The shared-memory simulator with `seed` and the fault plan `faults`.
fn sim(seed: u64, faults: &str) -> Result<Backend, Box<dyn Error>> {
    let mut c = SimConfig::new(CostModel::shared_memory(), seed);
    c.faults = faults.parse::<FaultPlan>()?;
    Ok(Backend::Sim(c))
}

/// The papers' unsorted search: no ordering, no table.
fn unsorted() -> SearchConfig {
    SearchConfig {
        move_ordering: false,
        tt_mode: TtMode::Off,
        ..SearchConfig::research()
    }
}

/// One case: a name, how to build the options for an algorithm and a processor count, and
/// the processor counts.
struct Case {
    name: &'static str,
    procs: &'static [usize],
    options: fn(ParallelAlgo, usize) -> Result<ParallelOptions, Box<dyn Error>>,
}

fn paper(algo: ParallelAlgo, procs: usize) -> Result<ParallelOptions, Box<dyn Error>> {
    let _ = algo;
    let mut o = ParallelOptions::new(7, procs, sim(1, "")?);
    o.search = unsorted();
    Ok(o)
}

fn sorted_ec(algo: ParallelAlgo, procs: usize) -> Result<ParallelOptions, Box<dyn Error>> {
    let mut o = paper(algo, procs)?;
    o.search.sorting.regime = SortRegime::EldestChild;
    o.depth = 6;
    Ok(o)
}

fn engine(algo: ParallelAlgo, procs: usize) -> Result<ParallelOptions, Box<dyn Error>> {
    Ok(ParallelOptions::for_algo(algo, 6, procs, sim(1, "")?))
}

fn agreement(algo: ParallelAlgo, procs: usize) -> Result<ParallelOptions, Box<dyn Error>> {
    let mut o = ParallelOptions::new(5, procs, sim(7, "")?);
    let _ = algo;
    o.search = SearchConfig {
        algorithm: Algorithm::AlphaBeta,
        tt_mib: 1,
        ..SearchConfig::research()
    };
    o.min_split_depth = 1;
    Ok(o)
}

fn faults(algo: ParallelAlgo, procs: usize) -> Result<ParallelOptions, Box<dyn Error>> {
    let mut o = agreement(algo, procs)?;
    o.backend = sim(3, "crash=2@2000,drop=1/20,dup=1/20,delay=1/20,corrupt=1/20")?;
    Ok(o)
}

fn line<G: Game>(case: &str, algo: ParallelAlgo, procs: usize, pos: &G, o: &ParallelOptions) {
    match search(algo, pos, o) {
        Ok(r) => println!(
            "{case} {algo} x{procs}: value {} nodes {} seconds {:.9} hash {:016x}",
            r.value,
            r.nodes,
            r.seconds,
            r.sim.map_or(0, |s| s.trace_hash)
        ),
        Err(e) => println!("{case} {algo} x{procs}: error {e}"),
    }
}

/// The delay-splitting sweep of Rezaie and Finkel figures 5 and 6.
fn paper9(tictactoe: &TicTacToe4) -> Result<(), Box<dyn Error>> {
    let run = |algo: ParallelAlgo, procs: usize| -> Result<(f64, u64), Box<dyn Error>> {
        let mut o = paper(algo, procs)?;
        o.depth = 9;
        let r = search(algo, tictactoe, &o)?;
        Ok((r.seconds, r.nodes))
    };
    let (t1, n1) = run(ParallelAlgo::AlphaBeta, 1)?;
    println!("alphabeta x1: {t1:.2} s, {n1} nodes");
    for procs in [1, 2, 4, 8, 12, 16, 19, 20, 21] {
        let (t, n) = run(ParallelAlgo::DelaySplit, procs)?;
        let speedup = t1 / t;
        println!(
            "delaysplit x{procs}: speedup {speedup:.2}, efficiency {:.2}, node ratio {:.2}",
            speedup / procs as f64,
            n as f64 / n1 as f64
        );
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn Error>> {
    let tictactoe = TicTacToe4::parse_position("x---/----/----/----")?;
    if std::env::args().nth(1).as_deref() == Some("paper9") {
        return paper9(&tictactoe);
    }
    let othello = common::othello_midgame(1)?.remove(0);
    let ttt_cases = [
        Case {
            name: "paper",
            procs: &[1, 4, 16],
            options: paper,
        },
        Case {
            name: "sorted-ec",
            procs: &[1, 4],
            options: sorted_ec,
        },
    ];
    let othello_cases = [
        Case {
            name: "engine",
            procs: &[1, 2, 8],
            options: engine,
        },
        Case {
            name: "agreement",
            procs: &[1, 3, 8],
            options: agreement,
        },
        Case {
            name: "faults",
            procs: &[6],
            options: faults,
        },
    ];
    for case in &ttt_cases {
        for &algo in ParallelAlgo::ALL {
            for &procs in case.procs {
                let o = (case.options)(algo, procs)?;
                line(case.name, algo, procs, &tictactoe, &o);
            }
        }
    }
    for case in &othello_cases {
        for &algo in ParallelAlgo::ALL {
            for &procs in case.procs {
                let o = (case.options)(algo, procs)?;
                line(case.name, algo, procs, &othello, &o);
            }
        }
    }
    Ok(())
}
