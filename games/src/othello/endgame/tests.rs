//! The solver against a brute-force minimax over the `Game` interface.

use super::*;
use crate::Game;
use crate::Lcg;

/// Plain minimax to the end of the game through `generate_moves`/`make_move`, scoring the
/// final position with the empties to the winner (independent of the solver's code).
fn brute_force<const N: usize>(pos: &mut Othello<N>) -> i32 {
    let mut moves = Vec::with_capacity(64);
    pos.generate_moves(&mut moves);
    if moves.is_empty() {
        let (p, o) = pos.bitboards();
        let (mine, theirs) = (p.count_ones() as i32, o.count_ones() as i32);
        let empties = (N * N) as i32 - mine - theirs;
        return if mine > theirs {
            mine - theirs + empties
        } else if mine < theirs {
            mine - theirs - empties
        } else {
            0
        };
    }
    let mut best = i32::MIN;
    for mv in moves {
        let undo = pos.make_move(mv);
        best = best.max(-brute_force(pos));
        pos.unmake_move(mv, undo);
    }
    best
}

/// A position reached by random play from the start with `empties` empty squares left, or
/// `None` if the game ended first.
fn random_position<const N: usize>(seed: u64, empties: u32) -> Option<Othello<N>> {
    let mut rng = Lcg(seed);
    let mut pos = Othello::<N>::start();
    let mut moves = Vec::new();
    while pos.empties().count_ones() > empties {
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            return None;
        }
        pos.make_move(moves[rng.below(moves.len())]);
    }
    Some(pos)
}

fn check<const N: usize>(pos: &Othello<N>, solver: &mut Solver<N>, rng: &mut Lcg) {
    let exact = brute_force(&mut pos.clone());
    let max = (N * N) as i32;
    let result = solver.solve(pos, -max, max);
    assert_eq!(result.score, exact, "{pos}");
    assert!(result.nodes > 0);
    // The best move reaches the score.
    match result.best_move {
        Some(mv) => {
            let mut child = pos.played(mv);
            assert_eq!(-brute_force(&mut child), exact, "best move of {pos}");
        }
        None => assert!(pos.is_over()),
    }
    // Windows: exact inside, correct bounds outside (fail-soft).
    for _ in 0..4 {
        let a = rng.below(2 * max as usize) as i32 - max;
        let b = a + 1 + rng.below(12) as i32;
        let r = solver.solve(pos, a, b).score;
        if exact <= a {
            assert!(
                r <= a && r >= exact,
                "{pos} ({a},{b}) gave {r}, exact {exact}"
            );
        } else if exact >= b {
            assert!(
                r >= b && r <= exact,
                "{pos} ({a},{b}) gave {r}, exact {exact}"
            );
        } else {
            assert_eq!(r, exact, "{pos} ({a},{b})");
        }
    }
    // A fresh solver agrees (no table carried over).
    assert_eq!(solve(pos).score, exact);
}

#[test]
fn solver_matches_brute_force_8x8() {
    let mut solver = Solver::<8>::new(12);
    let mut rng = Lcg(7);
    let mut checked = 0;
    for seed in 0..24 {
        let empties = 6 + (seed % 6) as u32;
        if let Some(pos) = random_position::<8>(seed, empties) {
            check(&pos, &mut solver, &mut rng);
            checked += 1;
        }
    }
    assert!(checked >= 20);
}

#[test]
fn solver_matches_brute_force_6x6() {
    let mut solver = Solver::<6>::new(12);
    let mut rng = Lcg(11);
    let mut checked = 0;
    for seed in 100..130 {
        let empties = 4 + (seed % 9) as u32;
        if let Some(pos) = random_position::<6>(seed, empties) {
            check(&pos, &mut solver, &mut rng);
            checked += 1;
        }
    }
    assert!(checked >= 20);
}

#[test]
fn finished_games_and_passes() {
    // Black holds everything but the last row's three squares, white one disc: over, with
    // the empties going to black.
    let text = format!("-O{}---- O", "X".repeat(58));
    let pos = Othello8::parse_position(&text).unwrap_or_else(|e| panic!("{e}"));
    // White must pass; black then plays a1.
    let r = solve(&pos);
    assert_eq!(r.best_move, Some(Move::PASS));
    assert_eq!(r.score, brute_force(&mut pos.clone()));
    let full = Othello6::parse_position(&format!("{}{} X", "X".repeat(20), "O".repeat(16)))
        .unwrap_or_else(|e| panic!("{e}"));
    let r = solve(&full);
    assert_eq!((r.score, r.best_move), (4, None));
}

use super::super::{Othello6, Othello8};

#[test]
#[ignore = "slow: solves the 6x6 start (32 empties); run with --release -- --ignored"]
fn six_by_six_start_is_a_white_win_by_four() {
    // Feinstein (1993) solved 6x6 Othello: with perfect play white wins 20-16
    // (https://www.maths.nottingham.ac.uk/plp/pmzjff/Othello/6x6sol.html).
    // Two null-window searches prove value >= -4 and value <= -4 (much cheaper than one
    // full-window solve). Measured on the shared 2-core machine: the first returned -4 after
    // 2.27 G nodes (a few minutes); the second had not finished when the 20-minute run was
    // stopped, so this test has not yet been seen to pass in full.
    let mut solver = Solver::<6>::new(22);
    let low = solver.solve(&Othello6::start(), -5, -4);
    println!(
        "6x6 start, window (-5,-4): {} in {} nodes",
        low.score, low.nodes
    );
    assert!(low.score >= -4);
    let high = solver.solve(&Othello6::start(), -4, -3);
    println!(
        "6x6 start, window (-4,-3): {} in {} nodes",
        high.score, high.nodes
    );
    assert!(high.score <= -4);
}

/// Positions (with their known score, when the line states one as `score S`) of a file in
/// `testsets/search/`.
fn testset_positions(file: &str) -> Vec<(Othello8, Option<i32>)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../testsets/search")
        .join(file);
    let text = std::fs::read_to_string(&path).expect("testsets/search file");
    scored_positions(&text).unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn stable_discs_never_flip_in_random_playouts() {
    // Every disc the stability routine calls stable keeps its colour in every continuation:
    // checked along random games from random positions (both sides' stable sets).
    let mut rng = Lcg(99);
    let mut moves = Vec::new();
    let mut stable_seen = 0;
    for seed in 0..60 {
        let Some(root) = random_position::<8>(1000 + seed, 8 + (seed % 30) as u32) else {
            continue;
        };
        let (p, o) = root.bitboards();
        let (sp, so) = (stability::stable_discs(p, o), stability::stable_discs(o, p));
        assert_eq!(sp & !p, 0, "stable discs are own discs: {root}");
        assert_eq!(so & !o, 0, "stable discs are own discs: {root}");
        stable_seen += (sp | so).count_ones();
        for _ in 0..20 {
            let mut pos = root;
            loop {
                pos.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                pos.make_move(moves[rng.below(moves.len())]);
                // `p`'s colour is the root's side to move.
                let (mine, theirs) = if pos.side_to_move() == root.side_to_move() {
                    pos.bitboards()
                } else {
                    let (a, b) = pos.bitboards();
                    (b, a)
                };
                assert_eq!(sp & !mine, 0, "a stable disc of the mover flipped: {root}");
                assert_eq!(
                    so & !theirs,
                    0,
                    "a stable disc of the opponent flipped: {root}"
                );
            }
        }
    }
    assert!(
        stable_seen > 100,
        "the test saw too few stable discs ({stable_seen})"
    );
}

#[test]
fn stability_bound_is_never_wrong() {
    // The exact score lies within the bounds the stable discs of both sides give.
    let mut checked = 0;
    for seed in 0..40 {
        let Some(pos) = random_position::<8>(2000 + seed, 6 + (seed % 5) as u32) else {
            continue;
        };
        let exact = brute_force(&mut pos.clone());
        let (p, o) = pos.bitboards();
        let upper = 64 - 2 * stability::stable_count(o, p) as i32;
        let lower = 2 * stability::stable_count(p, o) as i32 - 64;
        assert!(
            lower <= exact && exact <= upper,
            "{pos}: {lower} <= {exact} <= {upper}"
        );
        checked += 1;
    }
    assert!(checked >= 30);
}

/// Every combination of the solver's switchable enhancements.
fn all_options() -> Vec<Options> {
    (0..16)
        .map(|bits| Options {
            stability: bits & 1 != 0,
            etc: bits & 2 != 0,
            aspiration: bits & 4 != 0,
            // The shallow-search ordering from 12 empties (so that it acts here) or never.
            presort_from: if bits & 8 != 0 { 12 } else { 65 },
            presort_step: 2,
            presort_max: 3,
            presort_pv_extra: bits as u32 & 1,
            // The selective pre-search with the presort and the stability cutoff.
            presearch_from: if bits & 9 == 9 { 12 } else { 65 },
            presearch_leaf: 12 - 2 * (bits as u32 >> 1 & 1),
            // With the presort, the other thresholds at their lowest too.
            ..if bits & 8 != 0 {
                Options {
                    fastest_first_from: 5,
                    table_from: 5,
                    etc_from: 6,
                    ..Options::default()
                }
            } else {
                Options::default()
            }
        })
        .collect()
}

#[test]
fn enhancements_never_change_the_value() {
    // Stability cutoff, ETC and the root aspiration each switched on and off: the same exact
    // score, and the same fail-soft guarantees in narrow windows, on positions with 12 to 16
    // empties (deep enough for the table, ETC and stability to act).
    let mut rng = Lcg(5);
    let mut checked = 0;
    for seed in 0..10 {
        let Some(pos) = random_position::<8>(3000 + seed, 12 + (seed % 5) as u32) else {
            continue;
        };
        let reference = Solver::<8>::with_options(
            14,
            Options {
                stability: false,
                etc: false,
                aspiration: false,
                presort_from: 65,
                presort_step: 3,
                presort_max: 0,
                ..Options::default()
            },
        )
        .solve(&pos, -64, 64)
        .score;
        let mut node_counts = Vec::new();
        for options in all_options() {
            let mut solver = Solver::<8>::with_options(14, options);
            let r = solver.solve(&pos, -64, 64);
            assert_eq!(r.score, reference, "{pos} {options:?}");
            let child = pos.played(r.best_move.expect("a move"));
            assert_eq!(
                -solve(&child).score,
                reference,
                "best move of {pos} {options:?}"
            );
            node_counts.push(r.nodes);
            let a = rng.below(100) as i32 - 50;
            let b = a + 1 + rng.below(6) as i32;
            let v = solver.solve(&pos, a, b).score;
            if reference <= a {
                assert!(v <= a && v >= reference, "{pos} ({a},{b}) {options:?}");
            } else if reference >= b {
                assert!(v >= b && v <= reference, "{pos} ({a},{b}) {options:?}");
            } else {
                assert_eq!(v, reference, "{pos} ({a},{b}) {options:?}");
            }
        }
        // The switches act: not every combination searched the same tree.
        assert!(node_counts.iter().any(|&n| n != node_counts[0]), "{pos}");
        checked += 1;
    }
    assert!(checked >= 8);
}

#[test]
fn presearch_never_changes_the_value() {
    // The selective pre-search (several margins and leaf depths) on and off: the same exact
    // score and a best move that reaches it, on positions with 12 to 18 empties; the
    // pre-search acts (the node counts differ).
    let mut differs = 0;
    let mut checked = 0;
    for seed in 0..24 {
        let Some(pos) = random_position::<8>(7000 + seed, 12 + (seed % 7) as u32) else {
            continue;
        };
        let base = Options {
            presort_from: 12,
            presort_max: 3,
            ..Options::default()
        };
        let off = Solver::<8>::with_options(
            14,
            Options {
                presearch_from: 65,
                ..base
            },
        )
        .solve(&pos, -64, 64);
        for (margin, leaf) in [(0, 12), (32, 14), (64, 10), (160, 12)] {
            let options = Options {
                presearch_from: 12,
                presearch_margin: margin,
                presearch_leaf: leaf,
                ..base
            };
            let r = Solver::<8>::with_options(14, options).solve(&pos, -64, 64);
            assert_eq!(r.score, off.score, "{pos} {options:?}");
            let child = pos.played(r.best_move.expect("a move"));
            assert_eq!(-solve(&child).score, off.score, "best move of {pos}");
            differs += usize::from(r.nodes != off.nodes);
        }
        checked += 1;
    }
    assert!(checked >= 20);
    assert!(differs > 0);
}

#[test]
#[ignore = "slow (tens of seconds in release): FFO #40-#44 against their published scores"]
fn ffo_40_to_44_exact_scores() {
    let mut solver = Solver::<8>::new(22);
    for (pos, known) in testset_positions("othello_ffo40_59.txt")
        .into_iter()
        .take(5)
    {
        let known = known.expect("the file states every score");
        assert_eq!(solver.solve(&pos, -64, 64).score, known, "{pos}");
    }
}

#[test]
fn a_polled_solve_stops_when_asked_and_leaves_the_table_right() {
    // 14 empties: tens of thousands of nodes, so a poll every 4,096 nodes comes several times.
    let mut checked = 0;
    for seed in 1..40 {
        let Some(pos) = random_position::<8>(seed, 14) else {
            continue;
        };
        let exact = Solver::<8>::new(18).solve(&pos, -64, 64);
        if exact.nodes < 3 * POLL_NODES {
            continue;
        }
        let mut solver = Solver::<8>::for_play();
        // Stopped at the second poll: no answer.
        let mut polls = 0u32;
        let stopped = solver.solve_polled(
            &pos,
            -64,
            64,
            Box::new(move |_| {
                polls += 1;
                polls >= 2
            }),
        );
        assert_eq!(stopped, None, "{pos}");
        // The same solver afterwards, polled but never stopped: the exact score, and a
        // win-loss-draw window gives the right side with a move that reaches it.
        let again = solver
            .solve_polled(&pos, -64, 64, Box::new(|_| false))
            .expect("never stopped");
        assert_eq!(again.score, exact.score, "{pos}");
        let wld = solver
            .solve_polled(&pos, -1, 1, Box::new(|_| false))
            .unwrap();
        assert_eq!(wld.score.signum(), exact.score.signum(), "{pos}");
        if exact.score >= 0 {
            let child = pos.played(wld.best_move.unwrap());
            let reached = -Solver::<8>::new(16).solve(&child, -64, 64).score;
            assert_eq!(reached.signum(), exact.score.signum(), "{pos}");
        }
        // A node count the poll sees grows.
        let mut last = 0;
        let mut grows = true;
        solver.clear();
        let r = solver.solve_polled(
            &pos,
            -64,
            64,
            Box::new(move |nodes| {
                grows &= nodes > last;
                last = nodes;
                !grows
            }),
        );
        assert_eq!(r.map(|r| r.score), Some(exact.score), "{pos}");
        checked += 1;
    }
    assert!(checked >= 3, "{checked} positions checked");
}
