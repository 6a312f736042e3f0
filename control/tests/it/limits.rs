//! Limits and the search context: node limits are exact, time limits are read from the context
//! (a deterministic virtual clock here), abort requests stop the search, and the anytime result
//! is the last completed iteration.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use control::search::{
    Abortable, Limits, NodeClock, POLL_INTERVAL, SearchConfig, SearchContext, Searcher, Signal,
    Unlimited,
};
use games::Game;
use games::tictactoe::TicTacToe4;

#[test]
fn a_node_limit_stops_at_that_many_nodes_and_keeps_the_last_iteration() {
    let mut s = Searcher::<TicTacToe4>::new(SearchConfig::research()).unwrap();
    let full = s.search(&TicTacToe4::start(), &Limits::depth(5), &mut Unlimited);
    assert!(!full.stopped);
    assert_eq!(full.depth, 5);
    let before_last: u64 = full.stats.iterations[..4].iter().map(|i| i.nodes).sum();

    let mut s = Searcher::<TicTacToe4>::new(SearchConfig::research()).unwrap();
    let limits = Limits {
        depth: Some(5),
        nodes: Some(before_last + 10),
        time: None,
    };
    let cut = s.search(&TicTacToe4::start(), &limits, &mut Unlimited);
    assert!(cut.stopped);
    assert_eq!(cut.depth, 4, "the fifth iteration did not complete");
    assert_eq!(cut.stats.nodes(), before_last + 10);
    assert_eq!(cut.value, full.stats.iterations[3].value);
    assert_eq!(cut.best_move, cut.pv.first().copied());
    assert!(cut.best_move.is_some());
}

#[test]
fn a_time_limit_is_read_from_the_context() {
    // 1 ms per node of virtual time and a 5 s limit: about 5000 nodes, the same on every run.
    let run = || {
        let mut s = Searcher::<TicTacToe4>::new(SearchConfig::research()).unwrap();
        let limits = Limits::time(Duration::from_secs(5));
        let r = s.search(
            &TicTacToe4::start(),
            &limits,
            &mut NodeClock::new(1_000_000),
        );
        (r.depth, r.value, r.stats.nodes(), r.stopped)
    };
    let (depth, _, nodes, stopped) = run();
    assert!(stopped);
    assert!(depth >= 1);
    assert!(nodes <= 5_000 + POLL_INTERVAL, "{nodes}");
    assert_eq!(run(), run(), "virtual time makes time limits deterministic");
}

#[test]
fn an_abort_request_stops_the_search() {
    let flag = Arc::new(AtomicBool::new(true));
    let mut ctx = Abortable::new(Unlimited, flag.clone());
    let mut s = Searcher::<TicTacToe4>::new(SearchConfig::research()).unwrap();
    let r = s.search(&TicTacToe4::start(), &Limits::depth(12), &mut ctx);
    assert!(r.stopped);
    assert_eq!(r.depth, 0);
    assert!(
        r.best_move.is_some(),
        "an anytime answer even without an iteration"
    );
    flag.store(false, Ordering::Relaxed);
    let r = s.search(&TicTacToe4::start(), &Limits::depth(2), &mut ctx);
    assert!(!r.stopped && r.depth == 2);
}

/// Stops after a given number of polls, and records the node counts it was polled with.
struct StopAfterPolls {
    left: usize,
    seen: Vec<u64>,
}

impl SearchContext for StopAfterPolls {
    fn elapsed(&self) -> Duration {
        Duration::ZERO
    }

    fn poll(&mut self, nodes: u64) -> Signal {
        self.seen.push(nodes);
        if self.left == 0 {
            return Signal::Stop;
        }
        self.left -= 1;
        Signal::Continue
    }
}

#[test]
fn the_context_is_polled_every_poll_interval_nodes() {
    let mut ctx = StopAfterPolls {
        left: 5,
        seen: Vec::new(),
    };
    let mut s = Searcher::<TicTacToe4>::new(SearchConfig::research()).unwrap();
    let r = s.search(&TicTacToe4::start(), &Limits::depth(12), &mut ctx);
    assert!(r.stopped);
    let expected: Vec<u64> = (0..6).map(|i| i * POLL_INTERVAL).collect();
    assert_eq!(ctx.seen, expected);
    assert_eq!(r.stats.nodes(), 5 * POLL_INTERVAL);
}

#[test]
fn a_finished_game_returns_its_outcome() {
    let p = TicTacToe4::parse_position("XXXX/OOO-/----/----").unwrap();
    let mut s = Searcher::<TicTacToe4>::new(SearchConfig::research()).unwrap();
    let r = s.search(&p, &Limits::depth(3), &mut Unlimited);
    assert_eq!(r.value, games::score::loss_in(0));
    assert_eq!(r.best_move, None);
    assert!(r.pv.is_empty());
}

#[test]
fn a_window_search_stops_at_its_node_limit() {
    let mut s = Searcher::<TicTacToe4>::new(SearchConfig::research()).unwrap();
    let inf = games::score::INFINITY;
    let r = s.search_window_limited(
        &TicTacToe4::start(),
        8,
        -inf,
        inf,
        &Limits::nodes(1000),
        &mut Unlimited,
    );
    assert!(!r.completed);
    assert_eq!(s.stats().nodes(), 1000);
    s.reset_stats();
    let r = s.search_window(&TicTacToe4::start(), 3, -inf, inf, &mut Unlimited);
    assert!(r.completed && r.pv.len() == 3);
}
