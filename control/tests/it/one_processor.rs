//! One processor is the sequential search: with move ordering on (engine frames), every
//! algorithm of the split engine but ER, on one simulated processor, searches exactly the
//! nodes and horizon leaves of sequential PVS with iterative deepening at the same setting,
//! with the table on and off, with and without the refutation table, whatever its granularity
//! (`min_split_depth`), and returns its value and best move. ER evaluates elder grandchildren
//! first: its own tree.

use control::parallel::{ParallelAlgo, ParallelOptions, search};
use control::search::{Limits, SearchConfig, Searcher, TtMode, Unlimited};
use dib::{Backend, CostModel, SimConfig};
use games::Game;
use games::chess::Chess;
use games::othello::Othello8;
use games::tictactoe::TicTacToe4;

const SAME_TREE: [ParallelAlgo; 7] = [
    ParallelAlgo::AlphaBeta,
    ParallelAlgo::AbDib,
    ParallelAlgo::DelaySplit,
    ParallelAlgo::Mwf,
    ParallelAlgo::Dmwf,
    ParallelAlgo::TreeSplit,
    ParallelAlgo::PvSplit,
];

fn config(tt: TtMode, refutation_table: bool, deepening: bool, tt_min_depth: u32) -> SearchConfig {
    SearchConfig {
        tt_mode: tt,
        tt_min_depth,
        tt_mib: 1,
        refutation_table,
        deepening,
        ..SearchConfig::research()
    }
}

/// Sequential PVS to `depth` (with iterative deepening when `c` deepens): (value, best move,
/// nodes, horizon leaves).
fn sequential<G: Game>(pos: &G, depth: u32, c: SearchConfig) -> (i32, Option<G::Move>, u64, u64) {
    let mut s = Searcher::<G>::new(c).expect("a 1 MiB table");
    let r = s.search(pos, &Limits::depth(depth), &mut Unlimited);
    (r.value, r.best_move, r.stats.nodes(), r.stats.horizon)
}

fn check<G: Game>(name: &str, positions: &[G], depth: u32) {
    for (i, pos) in positions.iter().enumerate() {
        // (table, refutation table, iterative deepening, the table's minimum depth): the
        // fifth and sixth search the full depth once, as the two-PDP-11 thesis's program does; the
        // last two use the table at the horizon nodes too, as Marsland and Popowich's "complete
        // system".
        for (tt, refute, deepening, tt_min) in [
            (TtMode::Off, false, true, 2),
            (TtMode::ExactDepth, false, true, 2),
            (TtMode::Off, true, true, 2),
            (TtMode::ExactDepth, true, true, 2),
            (TtMode::Off, false, false, 2),
            (TtMode::ExactDepth, false, false, 2),
            (TtMode::ExactDepth, true, true, 0),
            (TtMode::ExactDepth, false, true, 0),
        ] {
            let c = config(tt, refute, deepening, tt_min);
            let (value, best, nodes, horizon) = sequential(pos, depth, c);
            for algo in SAME_TREE {
                for min_split in [1, 2, 3] {
                    let backend = Backend::Sim(SimConfig::new(CostModel::shared_memory(), 1));
                    let mut o = ParallelOptions::for_algo(algo, depth, 1, backend);
                    o.search = c;
                    o.min_split_depth = min_split;
                    let r = search(algo, pos, &o).unwrap_or_else(|e| panic!("{algo}: {e}"));
                    let at = format!(
                        "{name} position {i}, {algo}, table {tt} from depth {tt_min}, refutation table {refute}, deepening {deepening}, min split {min_split}"
                    );
                    assert_eq!(r.value, value, "{at}: value");
                    assert_eq!(r.best_move, best, "{at}: best move");
                    assert_eq!(
                        (r.nodes, r.horizon_leaves),
                        (nodes, Some(horizon)),
                        "{at}: nodes and horizon leaves"
                    );
                }
            }
        }
    }
}

fn positions<G: Game>(lines: &[&str]) -> Vec<G> {
    let mut out = Vec::new();
    for l in lines {
        match G::parse_position(l) {
            Ok(p) => out.push(p),
            Err(_) => panic!("position {l}"),
        }
    }
    out
}

#[test]
fn one_processor_searches_the_sequential_tree_in_chess() {
    let p = positions::<Chess>(&[
        "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - -",
        "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq -",
    ]);
    check("chess", &p, 4);
}

#[test]
fn one_processor_searches_the_sequential_tree_in_othello_and_tictactoe() {
    check("othello", &[<Othello8 as Game>::start()], 5);
    check("tictactoe4", &[<TicTacToe4 as Game>::start()], 5);
}
