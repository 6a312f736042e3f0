//! Fixed-seed simulator fingerprints of every parallel algorithm: value, nodes, virtual seconds
//! and the simulator's trace hash, one line per (case, algorithm, processors). A change that
//! must not alter any schedule (a refactoring of the split engines, `split_ab.md`) leaves this
//! output identical byte for byte; one that may alter schedules changes only the nodes,
//! seconds and hashes, never the values. Compare two runs with `diff`.
//!
//! `cargo run --release -p control --example engine_fingerprints > before.txt`
//!
//! Run from the workspace root (the Othello cases read `testsets/search/othello_midgame.txt`).
//! The cases: the papers' unsorted setting (4x4 tic-tac-toe, no ordering, no table), the same
//! with the EC sorting regime, the engine setting on Othello (research setting, each
//! algorithm's own granularity), the agreement tests' setting (alpha-beta leaf search, table,
//! ordering) and that setting with injected faults. After the registered algorithms, the split
//! engine's policies not registered yet (`split-ybw`, `split-never`: `split_ab::run` with
//! `SplitPolicy::Ybw` and `SplitPolicy::Never`, under `delaysplit`'s and `alphabeta`'s options),
//! side by side with the `dib_alphabeta` engine's `delaysplit` and `alphabeta` lines above.

mod common;

use std::error::Error;

use control::parallel::split_ab::{self, SplitPolicy};
use control::parallel::{ParallelAlgo, ParallelError, ParallelOptions, ParallelResult, search};
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

fn line<M>(case: &str, algo: &str, procs: usize, r: Result<ParallelResult<M>, ParallelError>) {
    match r {
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

/// Every registered algorithm on `pos` under `case`, then the unregistered policies.
fn fingerprint<G: Game>(cases: &[Case], pos: &G) -> Result<(), Box<dyn Error>> {
    for case in cases {
        for &algo in ParallelAlgo::ALL {
            for &procs in case.procs {
                let o = (case.options)(algo, procs)?;
                line(case.name, algo.name(), procs, search(algo, pos, &o));
            }
        }
    }
    Ok(())
}

/// The split engine's unregistered policies under the options of the algorithm they stand for.
fn unregistered<G: Game>(cases: &[Case], pos: &G) -> Result<(), Box<dyn Error>> {
    let policies = [
        ("split-ybw", SplitPolicy::Ybw, ParallelAlgo::DelaySplit),
        ("split-never", SplitPolicy::Never, ParallelAlgo::AlphaBeta),
    ];
    for case in cases {
        for (label, policy, algo) in policies {
            for &procs in case.procs {
                let o = (case.options)(algo, procs)?;
                line(case.name, label, procs, split_ab::run(policy, pos, &o));
            }
        }
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn Error>> {
    let tictactoe = TicTacToe4::parse_position("x---/----/----/----")?;
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
    fingerprint(&ttt_cases, &tictactoe)?;
    fingerprint(&othello_cases, &othello)?;
    unregistered(&ttt_cases, &tictactoe)?;
    unregistered(&othello_cases, &othello)?;
    Ok(())
}
