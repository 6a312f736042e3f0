//! Helpers shared by the search tests: seeded random positions of any game and a per-game depth
//! chosen by a node budget, so that new games are covered without tuning.

#![allow(dead_code)]

use control::search::minimax_value_within;
use games::Game;
pub use games::Lcg;

/// A position reached by `plies` random moves from the start (fewer if the game ends).
pub fn random_position<G: Game>(rng: &mut Lcg, plies: usize) -> G {
    let mut pos = G::start();
    let mut moves = Vec::with_capacity(G::MAX_MOVES);
    for _ in 0..plies {
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        let _ = pos.make_move(mv);
    }
    pos
}

/// A position a few plies (`back`) before the end of a random game, or `None` when the random
/// game did not end within `max_plies`.
pub fn near_the_end<G: Game>(rng: &mut Lcg, max_plies: usize, back: usize) -> Option<G> {
    let mut line = vec![G::start()];
    let mut moves = Vec::with_capacity(G::MAX_MOVES);
    for _ in 0..max_plies {
        let mut pos = line.last()?.clone();
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            let i = line.len().saturating_sub(1 + back);
            return Some(line.swap_remove(i));
        }
        let mv = moves[rng.below(moves.len())];
        let _ = pos.make_move(mv);
        line.push(pos);
    }
    None
}

/// The minimax value of `pos` at `depth`, or `None` when its tree (quiescence included) has more
/// than `budget` nodes.
pub fn minimax_within<G: Game>(pos: &G, depth: u32, budget: u64) -> Option<i32> {
    minimax_value_within(pos, depth, budget).map(|(v, _)| v)
}

/// The deepest depth (1 to `max_depth`) whose minimax tree (quiescence included) has at most
/// `budget` nodes (depth 1: `50 * budget`), with its minimax value; `None` when even depth 1 is
/// larger.
pub fn depth_within_budget<G: Game>(pos: &G, max_depth: u32, budget: u64) -> Option<(u32, i32)> {
    let mut found = None;
    for d in 1..=max_depth {
        // Depth 1 gets a larger allowance: its tree is mostly the unpruned capture tree.
        let allowance = if d == 1 { budget * 50 } else { budget };
        match minimax_value_within(pos, d, allowance) {
            Some((v, _)) => found = Some((d, v)),
            None => break,
        }
    }
    found
}

/// Plays `pv` from `pos`, checking each move is legal.
pub fn assert_pv_legal<G: Game>(pos: &G, pv: &[G::Move], context: &str) {
    let mut p = pos.clone();
    let mut moves = Vec::new();
    for (i, mv) in pv.iter().enumerate() {
        p.generate_moves(&mut moves);
        assert!(moves.contains(mv), "PV move {i} is illegal: {context}");
        let _ = p.make_move(*mv);
    }
}

/// The simulator with the shared-memory preset, `seed` and the fault plan `faults`.
pub fn sim_backend(seed: u64, faults: &str) -> dib::Backend {
    let mut c = dib::SimConfig::new(dib::CostModel::shared_memory(), seed);
    c.faults = faults
        .parse::<dib::FaultPlan>()
        .expect("a valid fault plan");
    dib::Backend::Sim(c)
}

/// The search of the value-agreement tests: research setting, alpha-beta, a 1 MiB table.
pub fn agreement_config() -> control::search::SearchConfig {
    control::search::SearchConfig {
        algorithm: control::search::Algorithm::AlphaBeta,
        tt_mib: 1,
        ..control::search::SearchConfig::research()
    }
}

/// Sequential alpha-beta with a full window and [`agreement_config`].
pub fn sequential_alphabeta<G: Game>(pos: &G, depth: u32) -> i32 {
    let mut s = control::search::Searcher::<G>::new(agreement_config()).expect("a 1 MiB table");
    s.search_window(
        pos,
        depth,
        -games::score::INFINITY,
        games::score::INFINITY,
        &mut control::search::Unlimited,
    )
    .value
}
