//! `abdib` (Rezaie and Finkel's alpha-beta on DIB: every node gives its untried children away on
//! request) returns sequential alpha-beta's value at every processor count on the simulator and
//! on threads, and really gives work away; the processor-tree width of tree splitting and PV
//! splitting (`ParallelOptions::split_width`) bounds the pieces of one node out at once.

use crate::common;

use common::{Lcg, agreement_config, depth_within_budget, random_position, sequential_alphabeta};
use control::parallel::{ParallelAlgo, ParallelOptions, search};
use control::search::SearchConfig;
use dib::{Backend, CostModel, SimConfig};
use games::Game;
use games::othello::Othello6;
use games::tictactoe::TicTacToe4;

const PROCS: [usize; 5] = [1, 2, 3, 5, 8];

fn sim(seed: u64) -> Backend {
    Backend::Sim(SimConfig::new(CostModel::shared_memory(), seed))
}

fn abdib_agrees<G: Game>(name: &str, seed: u64) {
    let mut rng = Lcg(seed);
    for i in 0..3 {
        let pos: G = random_position(&mut rng, i * 2);
        if pos.outcome().is_some() {
            continue;
        }
        let Some((depth, _)) = depth_within_budget(&pos, 6, 30_000) else {
            continue;
        };
        let want = sequential_alphabeta(&pos, depth);
        for search_config in [agreement_config(), SearchConfig::unsorted()] {
            for procs in PROCS {
                for backend in [sim(procs as u64), Backend::Threads { seed: 3 }] {
                    let mut o = ParallelOptions::new(depth, procs, backend);
                    o.search = search_config;
                    o.min_split_depth = 2;
                    let r = search(ParallelAlgo::AbDib, &pos, &o).unwrap();
                    let at = format!(
                        "{name} {pos} depth {depth} on {} x{procs} (ordering {})",
                        o.backend.name(),
                        search_config.move_ordering
                    );
                    assert_eq!(r.value, want, "{at}");
                    let given = r.total.dib.splits;
                    if procs == 1 {
                        assert_eq!(given, 0, "{at}");
                    } else if matches!(o.backend, Backend::Sim(_)) && depth >= 4 {
                        // The simulator always has idle processors asking.
                        assert!(given > 0, "{at}: no work given away");
                    }
                }
            }
        }
    }
}

#[test]
fn abdib_returns_alpha_beta_values_and_gives_work_away() {
    abdib_agrees::<TicTacToe4>("tictactoe4", 5);
    abdib_agrees::<Othello6>("othello6", 9);
}

/// The width bounds the pieces out of one node; 10 (the default) lets more out than 2 on 20
/// simulated processors; 0 is refused.
#[test]
fn the_processor_tree_width_bounds_the_pieces_of_one_node() {
    let pos = TicTacToe4::start();
    let want = sequential_alphabeta(&pos, 6);
    for algo in [ParallelAlgo::TreeSplit, ParallelAlgo::PvSplit] {
        let widest = |width: usize| {
            let mut o = ParallelOptions::new(6, 20, sim(1));
            o.search = SearchConfig::unsorted();
            o.min_split_depth = 2;
            o.algo.tree.split_width = Some(width);
            let r = search(algo, &pos, &o).unwrap();
            assert_eq!(r.value, want, "{algo} width {width}");
            r.figures.widest_split.unwrap_or(0)
        };
        assert_eq!(ParallelOptions::new(6, 20, sim(1)).algo.tree.width(), 10);
        for width in [1, 2, 5] {
            let w = widest(width);
            assert!(w >= 1 && w <= width as u64, "{algo} width {width}: {w}");
        }
        assert!(widest(10) > 2, "{algo}: width 10 never had more than 2 out");
        let mut o = ParallelOptions::new(6, 4, sim(1));
        o.algo.tree.split_width = Some(0);
        assert!(search(algo, &pos, &o).is_err(), "{algo} took width 0");
    }
}
