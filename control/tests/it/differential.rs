//! Differential tests of the search core on every registered game (new games are covered by
//! being registered): on seeded random positions, alpha-beta and PVS with the table off and in
//! exact-depth mode, with and without move ordering, under every sorting regime, return the
//! minimax value at the same depth; fail-soft values respect the window; iterative deepening's
//! final value equals a direct search. Depths are chosen per position by a node budget so CI
//! stays fast on any game.

use crate::common;

use common::{Lcg, assert_pv_legal, depth_within_budget, random_position};
use control::search::{
    Algorithm, Limits, SearchConfig, Searcher, SortRegime, TtMode, Unlimited, minimax_value,
};
use games::score::INFINITY;
use games::{Game, GameId, GameInfo, GameVisitor};

/// Positions per game.
const POSITIONS: usize = 200;
/// Minimax nodes allowed per position (sets the depth).
const BUDGET: u64 = 4_000;
const MAX_TEST_DEPTH: u32 = 6;

fn config(
    algorithm: Algorithm,
    tt_mode: TtMode,
    regime: SortRegime,
    ordering: bool,
) -> SearchConfig {
    let mut c = SearchConfig::research();
    c.algorithm = algorithm;
    c.tt_mode = tt_mode;
    c.tt_mib = 1;
    c.tt_min_depth = 1;
    c.sorting.regime = regime;
    c.move_ordering = ordering;
    c
}

struct Differential;

impl GameVisitor for Differential {
    type Output = ();

    fn visit<G: Game>(self, info: &'static GameInfo) {
        let mut rng = Lcg(0xD1FF_0000 ^ info.name.len() as u64);
        // One searcher per configuration, reused across positions so tables carry over.
        let mut searchers: Vec<(String, Searcher<G>)> = Vec::new();
        for algorithm in [Algorithm::AlphaBeta, Algorithm::Pvs] {
            for tt in [TtMode::Off, TtMode::ExactDepth] {
                for &regime in SortRegime::ALL {
                    let c = config(algorithm, tt, regime, true);
                    searchers.push((
                        format!("{algorithm}/{tt}/{regime}"),
                        Searcher::new(c).unwrap(),
                    ));
                }
                let c = config(algorithm, tt, SortRegime::None, false);
                searchers.push((
                    format!("{algorithm}/{tt}/unordered"),
                    Searcher::new(c).unwrap(),
                ));
            }
        }
        let mut id = Searcher::<G>::new(config(
            Algorithm::Pvs,
            TtMode::ExactDepth,
            SortRegime::None,
            true,
        ))
        .unwrap();
        let mut id_ab = Searcher::<G>::new(config(
            Algorithm::AlphaBeta,
            TtMode::ExactDepth,
            SortRegime::EldestChild,
            true,
        ))
        .unwrap();

        let mut skipped = 0;
        for i in 0..POSITIONS {
            let plies = rng.below(40);
            let pos: G = random_position(&mut rng, plies);
            let Some((depth, expected)) = depth_within_budget(&pos, MAX_TEST_DEPTH, BUDGET) else {
                skipped += 1;
                continue;
            };
            let here = format!("{}, position {i} ({pos}), depth {depth}", info.name);
            for (name, s) in &mut searchers {
                let r = s.search_window(&pos, depth, -INFINITY, INFINITY, &mut Unlimited);
                assert!(r.completed);
                assert_eq!(r.value, expected, "{name}: {here}");
                assert_pv_legal(&pos, &r.pv, &here);
                if pos.outcome().is_none() {
                    assert!(!r.pv.is_empty(), "{name} has no PV: {here}");
                }
            }
            for s in [&mut id, &mut id_ab] {
                let r = s.search(&pos, &Limits::depth(depth), &mut Unlimited);
                assert_eq!(r.value, expected, "iterative deepening: {here}");
                assert_pv_legal(&pos, &r.pv, &here);
            }
        }
        assert!(
            skipped * 4 <= POSITIONS,
            "{}: {skipped} of {POSITIONS} positions had an oracle tree over the budget",
            info.name
        );
    }
}

#[test]
fn every_algorithm_and_sorting_regime_returns_the_minimax_value() {
    for &game in GameId::ALL {
        game.visit(Differential);
    }
}

struct FailSoft;

impl GameVisitor for FailSoft {
    type Output = ();

    fn visit<G: Game>(self, info: &'static GameInfo) {
        let mut rng = Lcg(0xFA11_50F7 ^ info.name.len() as u64);
        for algorithm in [Algorithm::AlphaBeta, Algorithm::Pvs] {
            let mut s = Searcher::<G>::new(config(
                algorithm,
                TtMode::ExactDepth,
                SortRegime::None,
                true,
            ))
            .unwrap();
            for i in 0..POSITIONS / 2 {
                let plies = rng.below(30);
                let pos: G = random_position(&mut rng, plies);
                let Some((depth, exact)) = depth_within_budget(&pos, MAX_TEST_DEPTH, BUDGET) else {
                    continue;
                };
                let here = format!(
                    "{} {algorithm}, position {i} ({pos}), depth {depth}",
                    info.name
                );
                for _ in 0..4 {
                    let centre = exact + rng.below(201) as i32 - 100;
                    let width = 1 + rng.below(60) as i32;
                    let (alpha, beta) = (centre - width, centre + width);
                    let v = s
                        .search_window(&pos, depth, alpha, beta, &mut Unlimited)
                        .value;
                    if exact <= alpha {
                        assert!(
                            v <= alpha,
                            "fail low must stay at most alpha: {v} ({alpha},{beta}) exact {exact}: {here}"
                        );
                        assert!(
                            v >= exact,
                            "a fail-low value is an upper bound: {v} < {exact}: {here}"
                        );
                    } else if exact >= beta {
                        assert!(
                            v >= beta,
                            "fail high must be at least beta: {v} ({alpha},{beta}) exact {exact}: {here}"
                        );
                        assert!(
                            v <= exact,
                            "a fail-high value is a lower bound: {v} > {exact}: {here}"
                        );
                    } else {
                        assert_eq!(
                            v, exact,
                            "inside the window the value is exact ({alpha},{beta}): {here}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn fail_soft_values_bound_the_minimax_value_outside_the_window() {
    for &game in GameId::ALL {
        game.visit(FailSoft);
    }
}

#[test]
fn minimax_counts_every_node_of_the_tree() {
    // Tic-tac-toe 3x3 from the empty board to depth 2: 1 + 9 + 72 nodes.
    let (value, nodes) = minimax_value(&games::tictactoe::TicTacToe3::start(), 2);
    assert_eq!(nodes, 1 + 9 + 72);
    assert!(value.abs() < games::score::MAX_EVAL);
}
