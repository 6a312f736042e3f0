//! MWF, DMWF and tree splitting return exactly the value of sequential alpha-beta at the same
//! depth, for seeded random positions of every registered game, on the simulator with 1 to 32
//! processors, on real threads with 1 to 4, and under injected faults.

use control::parallel::dmwf::DmwfPromote;
use control::parallel::mwf::MwfCutoffs;
use control::parallel::{ParallelAlgo, ParallelOptions, search};
use control::search::{SearchConfig, Searcher, Unlimited};
use dib::{Backend, CostModel, FaultPlan, SimConfig};
use games::score::INFINITY;
use games::{Game, GameId, GameInfo, GameVisitor};

/// Nodes allowed to the sequential search per test position: the depth grows until it passes.
const NODE_BUDGET: u64 = 1_500;

/// The algorithms and readings checked: label, algorithm, MWF's cutoffs, DMWF's promotion.
const ALGOS: [(&str, &str, MwfCutoffs, DmwfPromote); 5] = [
    ("mwf", "mwf", MwfCutoffs::Shallow, DmwfPromote::Replace),
    ("mwf-deep", "mwf", MwfCutoffs::Deep, DmwfPromote::Replace),
    ("dmwf", "dmwf", MwfCutoffs::Shallow, DmwfPromote::Replace),
    (
        "dmwf-deep-beside",
        "dmwf",
        MwfCutoffs::Deep,
        DmwfPromote::Beside,
    ),
    (
        "treesplit",
        "treesplit",
        MwfCutoffs::Shallow,
        DmwfPromote::Replace,
    ),
];

fn sim(seed: u64, faults: &str) -> Backend {
    let mut c = SimConfig::new(CostModel::shared_memory(), seed);
    c.faults = faults.parse::<FaultPlan>().unwrap();
    Backend::Sim(c)
}

/// A position `plies` random moves from the start (fewer if the game ends), by a seeded
/// generator.
fn random_position<G: Game>(seed: u64, plies: u32) -> G {
    let mut pos = G::start();
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut moves = Vec::new();
    for _ in 0..plies {
        if pos.outcome().is_some() {
            break;
        }
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mv = moves[(state % moves.len() as u64) as usize];
        let _ = pos.make_move(mv);
    }
    pos
}

/// The sequential value at `depth` and its node count.
fn sequential<G: Game>(pos: &G, depth: u32) -> (i32, u64) {
    let mut s = Searcher::<G>::new(SearchConfig::research()).unwrap();
    let r = s.search_window(pos, depth, -INFINITY, INFINITY, &mut Unlimited);
    assert!(r.completed);
    let st = s.stats();
    (r.value, st.interior + st.leaves + st.quiescence)
}

/// Checks `positions` random positions of a game, with a sequential node budget of `budget`.
struct Check {
    positions: u64,
    budget: u64,
}

impl GameVisitor for Check {
    type Output = ();

    fn visit<G: Game>(self, info: &'static GameInfo) {
        let name = info.name;
        // Work handed to other simulated processors, per algorithm (the test must split).
        let granted = [const { std::cell::Cell::new(0u64) }; ALGOS.len()];
        for pos_seed in 0..self.positions {
            let root: G = random_position(pos_seed + 1, 2 + 3 * (pos_seed % 8) as u32);
            let mut depth = 1;
            while depth < 12 && sequential(&root, depth + 1).1 <= self.budget {
                depth += 1;
            }
            let (want, _) = sequential(&root, depth);
            for (ai, (label, algo, cutoffs, promote)) in ALGOS.into_iter().enumerate() {
                let granted = &granted;
                let algo: ParallelAlgo = algo.parse().unwrap();
                let options = |procs: usize, backend: Backend| {
                    let mut o = ParallelOptions::new(depth, procs, backend);
                    o.algo.mwf.mwf_cutoffs = Some(cutoffs);
                    o.algo.dmwf.dmwf_promote = Some(promote);
                    o
                };
                let check = |procs: usize, backend: Backend, what: &str| {
                    let options = options(procs, backend);
                    let r = search(algo, &root, &options)
                        .unwrap_or_else(|e| panic!("{name} {label} {what}: {e}"));
                    assert_eq!(
                        r.value, want,
                        "{name} position {pos_seed} depth {depth}, {label} on {what}"
                    );
                    if what.starts_with("sim") && procs > 1 {
                        granted[ai].set(granted[ai].get() + r.total.dib.requests_granted);
                    }
                    if let Some(mv) = r.best_move {
                        // The best move's subtree has the root's value.
                        let mut child = root.clone();
                        let _ = child.make_move(mv);
                        let (v, _) = sequential(&child, depth - 1);
                        assert_eq!(
                            -control::search::shift_decisive(v, 1),
                            want,
                            "{name} position {pos_seed}: {label} on {what} best move"
                        );
                    }
                };
                for procs in [1, 2, 3, 5, 8, 16, 32] {
                    let seed = 31 * procs as u64 + pos_seed;
                    check(procs, sim(seed, ""), &format!("sim {procs} seed {seed}"));
                }
                for procs in [1, 2, 4] {
                    check(
                        procs,
                        Backend::Threads { seed: 7 },
                        &format!("threads {procs}"),
                    );
                }
                let faults = "crash=2@500,drop=1/20,dup=1/20,delay=1/20,corrupt=1/20";
                check(6, sim(5, faults), &format!("sim 6 faults {faults}"));
                // One seed gives one run, bit for bit.
                let hash = |faults: &str| {
                    let options = options(8, sim(3, faults));
                    let r = search(algo, &root, &options).unwrap();
                    (r.nodes, r.sim.map(|s| s.trace_hash))
                };
                assert_eq!(hash(""), hash(""), "{name} {label}: two runs of seed 3");
                assert_eq!(
                    hash(faults),
                    hash(faults),
                    "{name} {label}: two runs of seed 3 with faults"
                );
            }
        }
        for (ai, (label, ..)) in ALGOS.into_iter().enumerate() {
            assert!(granted[ai].get() > 0, "{name}: {label} never shared work");
        }
    }
}

#[test]
fn mwf_dmwf_treesplit_equal_sequential_alphabeta_for_every_game() {
    for &g in GameId::ALL {
        g.visit(Check {
            positions: 2,
            budget: NODE_BUDGET,
        });
    }
}

#[test]
#[ignore = "long: 24 positions per game, larger trees"]
fn long_agreement_on_many_positions() {
    for &g in GameId::ALL {
        g.visit(Check {
            positions: 24,
            budget: 20 * NODE_BUDGET,
        });
    }
}

/// With the type-2 wait and deep cutoffs, a type-3 frame splits only once its first child has
/// given it an alpha: otherwise it hands off type-2 children with an infinite beta, each
/// searches its eldest child with an open window and then waits, and on 12, 13, 14 or 17
/// simulated processors the work tables fill with thousands of waiting pieces that every step
/// scans. Without deep cutoffs (no type 3) the same bound holds. Values, node counts and
/// the simulator's event cap are checked here, on Rezaie and Finkel's unsorted tree, where the
/// pile-up appeared (with move ordering one processor searches a far smaller tree, and the ratio of
/// nodes measures MWF's lost deep cutoffs rather than waiting pieces).
#[test]
fn mwf_wait_does_not_pile_up_waiting_pieces() {
    let root = games::tictactoe::TicTacToe4::parse_position("----/-X--/----/----").unwrap();
    let depth = 9;
    let (want, _) = sequential(&root, depth);
    let run = |algo: ParallelAlgo, cutoffs: MwfCutoffs, procs: usize| {
        let mut config = SimConfig::new(CostModel::shared_memory(), 1);
        config.max_events = 2_000_000;
        let mut options = ParallelOptions::new(depth, procs, Backend::Sim(config));
        options.min_split_depth = 2;
        options.search = SearchConfig::unsorted();
        options.algo.mwf.mwf_cutoffs = Some(cutoffs);
        let r = search(algo, &root, &options)
            .unwrap_or_else(|e| panic!("{algo} on {procs} processors: {e}"));
        assert_eq!(r.value, want, "{algo} on {procs} processors");
        r.nodes
    };
    for algo in ["mwf", "dmwf"] {
        let algo: ParallelAlgo = algo.parse().unwrap();
        for cutoffs in [MwfCutoffs::Shallow, MwfCutoffs::Deep] {
            let alone = run(algo, cutoffs, 1);
            for procs in [12, 13, 14, 17] {
                let nodes = run(algo, cutoffs, procs);
                assert!(
                    nodes < 3 * alone,
                    "{algo} ({cutoffs}) on {procs} processors: {nodes} nodes, {alone} on one"
                );
            }
        }
    }
}
