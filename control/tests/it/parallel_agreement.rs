//! The value-agreement matrix: every parallel algorithm (`ParallelAlgo::ALL`, so new ones are
//! covered without touching this file) x backend (simulator with 1 to 32 processors, threads
//! with 1 to 4) x seeded random positions of every registered game returns exactly the value
//! of sequential alpha-beta at the same depth (research setting). Also: simulated runs are
//! deterministic (same seed, same trace hash), and injected faults leave the values unchanged.
//! A larger sweep is behind `#[ignore]`.

use crate::common;

use common::{agreement_config as config, sequential_alphabeta as sequential, sim_backend as sim};

use common::{Lcg, depth_within_budget, random_position};
use control::parallel::{ParallelAlgo, ParallelOptions, search};
use control::search::shift_decisive;
use dib::Backend;
use games::{Game, GameId, GameInfo, GameVisitor};

const SIM_PROCS: [usize; 7] = [1, 2, 3, 5, 8, 16, 32];
const THREAD_PROCS: [usize; 3] = [1, 2, 4];

fn options(depth: u32, procs: usize, backend: Backend, min_split: u32) -> ParallelOptions {
    let mut o = ParallelOptions::new(depth, procs, backend);
    o.search = config();
    o.min_split_depth = min_split;
    o
}

/// The positions of one game with their depths and sequential values.
fn cases<G: Game>(seed: u64, count: usize, budget: u64, max_depth: u32) -> Vec<(G, u32, i32)> {
    let mut rng = Lcg(seed);
    let mut out = Vec::new();
    for i in 0..count {
        let pos: G = random_position(&mut rng, i * 3 % 11);
        if pos.outcome().is_some() {
            continue;
        }
        let Some((depth, minimax)) = depth_within_budget(&pos, max_depth, budget) else {
            continue;
        };
        let want = sequential(&pos, depth);
        assert_eq!(want, minimax, "sequential alpha-beta against minimax");
        out.push((pos, depth, want));
    }
    out
}

fn check<G: Game>(
    name: &str,
    algo: ParallelAlgo,
    pos: &G,
    depth: u32,
    want: i32,
    o: &ParallelOptions,
) -> (u64, u64) {
    let r = search(algo, pos, o).unwrap_or_else(|e| panic!("{name} {algo}: {e}"));
    assert_eq!(
        r.value,
        want,
        "{name} {algo} depth {depth} on {} x{} (min split {}), position {}",
        o.backend.name(),
        o.procs,
        o.min_split_depth,
        pos
    );
    if let Some(mv) = r.best_move {
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        assert!(moves.contains(&mv), "{name} {algo}: illegal best move");
        let mut child = pos.clone();
        let _ = child.make_move(mv);
        let got = -shift_decisive(sequential(&child, depth - 1), 1);
        assert_eq!(
            got, want,
            "{name} {algo}: the best move does not keep the value"
        );
    }
    (r.total.dib.splits, r.total.dib.problems_received)
}

struct Matrix {
    positions: usize,
    budget: u64,
    max_depth: u32,
    seeds: u64,
}

/// What a sweep of one game covered.
#[derive(Default)]
struct Covered {
    cases: u64,
    runs: u64,
    /// Runs of a splitting algorithm on several processors in which work moved.
    shared: u64,
}

impl GameVisitor for Matrix {
    type Output = Covered;

    fn visit<G: Game>(self, info: &'static GameInfo) -> Covered {
        let name = info.name;
        let mut c = Covered::default();
        for (k, (pos, depth, want)) in cases::<G>(7, self.positions, self.budget, self.max_depth)
            .into_iter()
            .enumerate()
        {
            c.cases += 1;
            for &algo in ParallelAlgo::ALL {
                for min_split in [1, 2] {
                    for procs in SIM_PROCS {
                        for s in 0..self.seeds {
                            let seed = 1000 * k as u64 + 31 * procs as u64 + s;
                            let o = options(depth, procs, sim(seed, ""), min_split);
                            let (_, moved) = check(name, algo, &pos, depth, want, &o);
                            c.runs += 1;
                            c.shared += u64::from(moved > 0);
                        }
                    }
                    for procs in THREAD_PROCS {
                        let o = options(depth, procs, Backend::Threads { seed: 5 }, min_split);
                        let _ = check(name, algo, &pos, depth, want, &o);
                        c.runs += 1;
                    }
                }
            }
        }
        c
    }
}

fn sweep(m: impl Fn() -> Matrix) {
    let (mut cases, mut runs, mut shared) = (0, 0, 0);
    for &g in GameId::ALL {
        let c = g.visit(m());
        assert!(c.cases > 0, "{g:?}: no position fits the budget");
        cases += c.cases;
        runs += c.runs;
        shared += c.shared;
    }
    eprintln!("{cases} positions, {runs} runs, {shared} simulated runs moved work");
    assert!(
        shared > runs / 10,
        "work moved between processors in only {shared} of {runs} runs"
    );
}

#[test]
fn every_algorithm_agrees_with_sequential_alphabeta_on_every_game_and_backend() {
    sweep(|| Matrix {
        positions: 4,
        budget: 20_000,
        max_depth: 5,
        seeds: 1,
    });
}

#[test]
#[ignore = "long sweep: cargo test --release -p control --test it parallel_agreement:: -- --ignored"]
fn long_sweep_agrees_with_sequential_alphabeta() {
    sweep(|| Matrix {
        positions: 12,
        budget: 60_000,
        max_depth: 8,
        seeds: 4,
    });
}

struct Determinism;

impl GameVisitor for Determinism {
    type Output = ();

    fn visit<G: Game>(self, info: &'static GameInfo) {
        let name = info.name;
        for (pos, depth, want) in cases::<G>(11, 2, 5_000, 6) {
            for &algo in ParallelAlgo::ALL {
                let run = || {
                    let o = options(depth, 8, sim(42, ""), 1);
                    search(algo, &pos, &o).unwrap_or_else(|e| panic!("{name} {algo}: {e}"))
                };
                let (a, b) = (run(), run());
                assert_eq!(a.value, want, "{name} {algo}");
                let (ha, hb) = (a.sim.map(|s| s.trace_hash), b.sim.map(|s| s.trace_hash));
                assert!(
                    ha.is_some(),
                    "{name} {algo}: the simulator reports a trace hash"
                );
                assert_eq!(ha, hb, "{name} {algo}: same seed, same trace");
                assert_eq!(a.nodes, b.nodes, "{name} {algo}: same seed, same nodes");
                assert_eq!(a.seconds, b.seconds, "{name} {algo}: same virtual time");
            }
        }
    }
}

#[test]
fn simulated_runs_are_deterministic() {
    for &g in GameId::ALL {
        g.visit(Determinism);
    }
}

struct Faults;

impl GameVisitor for Faults {
    type Output = ();

    fn visit<G: Game>(self, info: &'static GameInfo) {
        let name = info.name;
        let faults = "crash=2@2000,drop=1/20,dup=1/20,delay=1/20,corrupt=1/20";
        for (pos, depth, want) in cases::<G>(13, 2, 5_000, 6) {
            for &algo in ParallelAlgo::ALL {
                for seed in 0..4 {
                    let o = options(depth, 6, sim(seed, faults), 1);
                    let r = search(algo, &pos, &o).unwrap_or_else(|e| panic!("{name} {algo}: {e}"));
                    assert_eq!(r.value, want, "{name} {algo} faults {faults} seed {seed}");
                }
            }
        }
    }
}

#[test]
fn injected_faults_leave_the_values_unchanged() {
    for &g in GameId::ALL {
        g.visit(Faults);
    }
}
