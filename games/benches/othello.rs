//! Othello benchmarks (medians are what criterion reports as the middle estimate):
//!
//! - `perft`: our bitboard perft against the `othello` crate 0.1.2 driven by the same perft
//!   loop (a pass is a ply, finished games count 0, bulk counting at the last ply), from the
//!   8x8 start at depth 9; both assert the published count 3,005,288.
//! - `make`: the copy-make chosen for `Game::make_move` against make/unmake with a small
//!   token (`Othello::make_small`), on perft 6 without bulk counting (every leaf made).
//! - `endgame`: the exact solver on positions with 20 empties (see the bench for how they are
//!   made).

// `criterion_group!` defines an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use games::Game;
use games::othello::endgame::Solver;
use games::othello::{Move, Othello8};

include!("support/crate_perft.rs");

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.bench_function("games_othello_d9", |b| {
        b.iter(|| {
            let n = black_box(Othello8::start()).perft(9);
            assert_eq!(n, 3_005_288);
        });
    });
    group.bench_function("othello_crate_d9", |b| {
        b.iter(|| {
            let n = crate_perft(&black_box(othello::Game::default()), 9);
            assert_eq!(n, 3_005_288);
        });
    });
    group.finish();
}

fn walk_trait(pos: &mut Othello8, depth: u32, buf: &mut [Vec<Move>]) -> u64 {
    let Some((moves, rest)) = buf.split_first_mut().filter(|_| depth > 0) else {
        return 1;
    };
    pos.generate_moves(moves);
    let mut n = 0;
    for &mv in moves.iter() {
        let undo = pos.make_move(mv);
        n += walk_trait(pos, depth - 1, rest);
        pos.unmake_move(mv, undo);
    }
    n
}

fn walk_small(pos: &mut Othello8, depth: u32, buf: &mut [Vec<Move>]) -> u64 {
    let Some((moves, rest)) = buf.split_first_mut().filter(|_| depth > 0) else {
        return 1;
    };
    pos.generate_moves(moves);
    let mut n = 0;
    for &mv in moves.iter() {
        let token = pos.make_small(mv);
        n += walk_small(pos, depth - 1, rest);
        pos.unmake_small(mv, token);
    }
    n
}

fn make(c: &mut Criterion) {
    let mut group = c.benchmark_group("make");
    group.sample_size(20);
    let mut buf: Vec<Vec<Move>> = (0..7).map(|_| Vec::with_capacity(64)).collect();
    group.bench_function("copy_make_d6", |b| {
        b.iter(|| {
            let n = walk_trait(&mut black_box(Othello8::start()), 6, &mut buf);
            assert_eq!(n, 8200);
        });
    });
    group.bench_function("make_unmake_small_token_d6", |b| {
        b.iter(|| {
            let n = walk_small(&mut black_box(Othello8::start()), 6, &mut buf);
            assert_eq!(n, 8200);
        });
    });
    group.finish();
}

/// A position reached by uniformly random play from the start (a 64-bit LCG seeded with
/// `seed`, the same as the endgame tests), stopped at `empties` empty squares.
fn random_position<const N: usize>(seed: u64, empties: u32) -> games::othello::Othello<N> {
    let mut state = seed;
    let mut pos = games::othello::Othello::<N>::start();
    let mut moves = Vec::new();
    while pos.empties().count_ones() > empties {
        pos.generate_moves(&mut moves);
        assert!(!moves.is_empty(), "game ended early; pick another seed");
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        pos.make_move(moves[((state >> 33) % moves.len() as u64) as usize]);
    }
    pos
}

fn endgame(c: &mut Criterion) {
    let mut group = c.benchmark_group("endgame");
    group.sample_size(10);
    let eight = random_position::<8>(2, 20);
    assert_eq!(
        eight.to_string(),
        "X-XXX----X-XXXXO-XXXX-O--XXOOOXO-XXOOOXO-X-OOOXX--O-OOX--O-OOO-X X"
    );
    group.bench_function("solve_8x8_20_empties_seed2", |b| {
        b.iter(|| {
            let r = Solver::<8>::new(20).solve(black_box(&eight), -64, 64);
            assert_eq!(r.score, 18);
        });
    });
    let six = random_position::<6>(2, 20);
    let expected = Solver::<6>::new(20).solve(&six, -36, 36).score;
    group.bench_function("solve_6x6_20_empties_seed2", |b| {
        b.iter(|| {
            let r = Solver::<6>::new(20).solve(black_box(&six), -36, 36);
            assert_eq!(r.score, expected);
        });
    });
    group.finish();
}

criterion_group!(benches, perft, make, endgame);
criterion_main!(benches);
