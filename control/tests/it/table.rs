//! The transposition table shared between threads without locks: racing writers never make a
//! reader accept a wrong entry (XOR validation), and the table pays off in a search.

use std::sync::Arc;
use std::thread;

use control::search::{
    Bound, SearchConfig, Searcher, TranspositionTable, TtEntry, TtMode, Unlimited,
};
use games::Game;
use games::score::INFINITY;
use games::tictactoe::TicTacToe4;

/// The entry every writer stores for `hash`: any entry read back must equal it.
fn entry_for(hash: u64) -> TtEntry {
    TtEntry {
        value: (hash >> 40) as i32 - (1 << 23),
        depth: (hash >> 8) as u8,
        bound: [Bound::Lower, Bound::Upper, Bound::Exact][(hash % 3) as usize],
        move_index: Some((hash >> 20) as u16 & 0x3FF),
    }
}

fn key(thread: u64, i: u64) -> u64 {
    games::zobrist::mix64(thread << 32 | i)
}

#[test]
fn racing_writers_never_produce_a_wrong_entry() {
    // A tiny table so that the threads collide on the same entries all the time.
    let tt = Arc::new(TranspositionTable::new(0).unwrap());
    let handles: Vec<_> = (0..4u64)
        .map(|t| {
            let tt = Arc::clone(&tt);
            thread::spawn(move || {
                let mut found = 0u64;
                for i in 0..200_000u64 {
                    let h = key(t, i % 64);
                    tt.store(h, entry_for(h));
                    let probe = key((t + 1) % 4, i % 64);
                    if let Some(e) = tt.probe(probe) {
                        assert_eq!(e, entry_for(probe), "a torn or foreign entry was accepted");
                        found += 1;
                    }
                }
                found
            })
        })
        .collect();
    let found: u64 = handles.into_iter().map(|h| h.join().unwrap()).sum();
    assert!(found > 0, "readers saw other threads' entries");
}

#[test]
fn searchers_can_share_one_table_across_threads() {
    let tt = Arc::new(TranspositionTable::new(1).unwrap());
    let values: Vec<i32> = (0..2)
        .map(|_| {
            let tt = Arc::clone(&tt);
            thread::spawn(move || {
                let mut s = Searcher::<TicTacToe4>::with_table(SearchConfig::research(), tt);
                s.search_window(&TicTacToe4::start(), 6, -INFINITY, INFINITY, &mut Unlimited)
                    .value
            })
        })
        .map(|h| h.join().unwrap())
        .collect();
    let (expected, _) = control::search::minimax_value(&TicTacToe4::start(), 6);
    assert_eq!(values, vec![expected; 2]);
}

#[test]
fn the_table_saves_nodes_in_exact_depth_mode() {
    let pos = TicTacToe4::parse_position("X---/-O--/----/----").unwrap();
    let nodes = |mode| {
        let mut c = SearchConfig::research();
        c.tt_mode = mode;
        c.tt_min_depth = 1;
        let mut s = Searcher::<TicTacToe4>::new(c).unwrap();
        let r = s.search_window(&pos, 7, -INFINITY, INFINITY, &mut Unlimited);
        (r.value, s.stats().nodes(), s.stats().tt_cutoffs)
    };
    let (v_off, n_off, c_off) = nodes(TtMode::Off);
    let (v_exact, n_exact, c_exact) = nodes(TtMode::ExactDepth);
    assert_eq!(v_off, v_exact);
    assert_eq!(c_off, 0);
    assert!(c_exact > 0);
    assert!(n_exact < n_off, "{n_exact} >= {n_off}");
}

/// `tt_min_depth` 0 probes and stores the table at the horizon nodes too (Marsland and Popowich's
/// "complete system"): the values are those without a table, in exact-depth and normal mode, on a
/// game with a quiescence search (chess) and one without (tic-tac-toe), and the horizon probes
/// show.
#[test]
fn horizon_probes_keep_the_values() {
    use games::chess::Chess;
    fn run<G: Game>(pos: &G, depth: u32, mode: TtMode, min_depth: u32) -> (i32, u64) {
        let mut c = SearchConfig::research();
        c.tt_mode = mode;
        c.tt_min_depth = min_depth;
        let mut s = Searcher::<G>::new(c).unwrap();
        let r = s.search_window(pos, depth, -INFINITY, INFINITY, &mut Unlimited);
        (r.value, s.stats().tt_probes)
    }
    let chess = [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    ];
    for fen in chess {
        let pos = Chess::parse_position(fen).unwrap();
        let (off, _) = run(&pos, 4, TtMode::Off, 1);
        for mode in [TtMode::ExactDepth, TtMode::Normal] {
            let (interior, p1) = run(&pos, 4, mode, 1);
            let (all, p0) = run(&pos, 4, mode, 0);
            assert_eq!((interior, all), (off, off), "{fen} {mode:?}");
            assert!(
                p0 > p1,
                "{fen} {mode:?}: {p0} probes at every node, {p1} at interior ones"
            );
        }
    }
    let pos = TicTacToe4::parse_position("X---/-O--/----/----").unwrap();
    let (off, _) = run(&pos, 6, TtMode::Off, 1);
    assert_eq!(run(&pos, 6, TtMode::ExactDepth, 0).0, off);
}
