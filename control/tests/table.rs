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
