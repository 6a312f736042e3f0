//! Our 8x8 Othello generator against an independent implementation, the `othello` crate
//! 0.1.2 (a dev-dependency, also the benchmark baseline): move sets, the position after every
//! move, and perft from positions of random games. Both use the grid bit `row * 8 + col`
//! orientation up to a symmetry of the board, which preserves all of these.

use games::Game;
use games::Lcg;
use games::othello::{Move, Othello8};

include!("../../benches/support/crate_perft.rs");

#[test]
fn moves_and_children_match_the_othello_crate() {
    let mut list = Vec::new();
    for seed in 0..200 {
        let mut rng = Lcg(seed);
        let mut pos = Othello8::start();
        loop {
            let (p, o) = pos.bitboards();
            let theirs = othello::Game::new(p, o).expect("disjoint bitboards");
            assert_eq!(pos.legal_squares(), theirs.available_moves(), "{pos}");
            let mut squares = pos.legal_squares();
            while squares != 0 {
                let sq = squares.trailing_zeros() as usize;
                squares &= squares - 1;
                let ours = pos.played(Move::square(sq)).bitboards();
                let child = theirs.make_move(sq).expect("legal in both");
                assert_eq!([ours.0, ours.1], child.get(), "{pos} move {sq}");
            }
            pos.generate_moves(&mut list);
            if list.is_empty() {
                break;
            }
            pos.make_move(list[rng.below(list.len())]);
        }
    }
}

#[test]
fn perft_matches_the_othello_crate_from_random_positions() {
    let mut list = Vec::new();
    for seed in 0..60 {
        let mut rng = Lcg(1000 + seed);
        let mut pos = Othello8::start();
        for _ in 0..(10 + seed % 50) {
            pos.generate_moves(&mut list);
            if list.is_empty() {
                break;
            }
            pos.make_move(list[rng.below(list.len())]);
        }
        let (p, o) = pos.bitboards();
        let theirs = othello::Game::new(p, o).expect("disjoint bitboards");
        for depth in 1..=5 {
            assert_eq!(
                pos.perft(depth),
                crate_perft(&theirs, depth),
                "{pos} depth {depth}"
            );
        }
    }
}

#[test]
#[ignore = "deep: run with --release -- --ignored"]
fn deep_perft_matches_the_othello_crate() {
    // Depths 10 and 11 from the start, where the two published conventions differ: both
    // implementations count finished games as 0 here.
    for depth in [10, 11] {
        assert_eq!(
            Othello8::start().perft(depth),
            crate_perft(&othello::Game::default(), depth)
        );
    }
}
