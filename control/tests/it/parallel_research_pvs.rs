//! The DIB alpha-beta engine (`alphabeta`, `delaysplit`), `lazysmp` and `abdada` in the research
//! setting as the runner uses it: PVS with null windows and re-searches at the frames, the
//! exact-depth table shared by frames and leaf searches (and, for `lazysmp` and `abdada`, by all
//! processors, ABDADA's busy counts beside it), iterative
//! deepening, and the sorting regimes EC and TT at the frames. Every run must return the value
//! of sequential PVS at the same depth, which must equal plain minimax. (The matrix of
//! `parallel_agreement.rs` covers every algorithm with alpha-beta and no sorting.)

use crate::common;

use common::{Lcg, depth_within_budget, random_position};
use control::parallel::{ParallelAlgo, ParallelOptions, search};
use control::search::{SearchConfig, Searcher, SortConfig, SortRegime, Unlimited, shift_decisive};
use dib::{Backend, CostModel, SimConfig};
use games::score::INFINITY;
use games::{Game, GameId, GameInfo, GameVisitor};

const ALGOS: [ParallelAlgo; 4] = [
    ParallelAlgo::AlphaBeta,
    ParallelAlgo::DelaySplit,
    ParallelAlgo::LazySmp,
    ParallelAlgo::Abdada,
];

fn config(regime: SortRegime) -> SearchConfig {
    SearchConfig {
        tt_mib: 1,
        sorting: SortConfig {
            regime,
            expansion_depth: 2,
            ..SortConfig::default()
        },
        ..SearchConfig::research()
    }
}

fn sequential<G: Game>(pos: &G, depth: u32) -> i32 {
    let mut s = Searcher::<G>::new(config(SortRegime::None)).expect("a 1 MiB table");
    s.search_window(pos, depth, -INFINITY, INFINITY, &mut Unlimited)
        .value
}

struct Sweep {
    positions: usize,
    budget: u64,
}

impl GameVisitor for Sweep {
    type Output = (u64, u64);

    fn visit<G: Game>(self, info: &'static GameInfo) -> (u64, u64) {
        let name = info.name;
        let mut rng = Lcg(23);
        let (mut runs, mut moved) = (0, 0);
        for i in 0..self.positions {
            let pos: G = random_position(&mut rng, i * 5 % 13);
            if pos.outcome().is_some() {
                continue;
            }
            let Some((depth, minimax)) = depth_within_budget(&pos, 6, self.budget) else {
                continue;
            };
            let want = sequential(&pos, depth);
            assert_eq!(want, minimax, "{name}: sequential PVS against minimax");
            for algo in ALGOS {
                for regime in [
                    SortRegime::None,
                    SortRegime::EldestChild,
                    SortRegime::TypeTwo,
                ] {
                    for min_split in [1, 2, 3] {
                        let mut backends: Vec<(Backend, usize)> = [1, 2, 3, 5, 8]
                            .into_iter()
                            .map(|n| {
                                let seed = 100 * i as u64 + n as u64 + u64::from(min_split);
                                let c = SimConfig::new(CostModel::shared_memory(), seed);
                                (Backend::Sim(c), n)
                            })
                            .collect();
                        backends.push((Backend::Threads { seed: 3 }, 2));
                        backends.push((Backend::Threads { seed: 4 }, 4));
                        for (backend, procs) in backends {
                            let mut o = ParallelOptions::new(depth, procs, backend);
                            o.search = config(regime);
                            o.min_split_depth = min_split;
                            let r = search(algo, &pos, &o)
                                .unwrap_or_else(|e| panic!("{name} {algo}: {e}"));
                            assert_eq!(
                                r.value,
                                want,
                                "{name} {algo} sort {regime} min split {min_split} on {} x{procs}, depth {depth}, position {pos}",
                                o.backend.name(),
                            );
                            if let Some(mv) = r.best_move {
                                let mut child = pos.clone();
                                let _ = child.make_move(mv);
                                let got = -shift_decisive(sequential(&child, depth - 1), 1);
                                assert_eq!(got, want, "{name} {algo}: the best move loses value");
                            }
                            runs += 1;
                            moved += u64::from(r.total.dib.problems_received > 0);
                        }
                    }
                }
            }
        }
        (runs, moved)
    }
}

#[test]
fn pvs_frames_shared_tables_and_sorting_keep_the_sequential_value() {
    let (mut runs, mut moved) = (0, 0);
    for &g in GameId::ALL {
        let (r, m) = g.visit(Sweep {
            positions: 3,
            budget: 20_000,
        });
        assert!(r > 0, "{g:?}: no position fits the budget");
        runs += r;
        moved += m;
    }
    eprintln!("{runs} runs, work moved in {moved}");
    assert!(
        moved > runs / 10,
        "work moved in only {moved} of {runs} runs"
    );
}
