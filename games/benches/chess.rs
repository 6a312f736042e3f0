//! Chess move-generator benchmarks, side by side with cozy-chess 0.3.4 and shakmaty in one run.
//!
//! Every benchmark asserts the count it times before timing it. Run with
//! `cargo bench -p games --bench chess` (a group: `... --bench chess -- perft_bulk`).
//!
//! - `perft_bulk`: perft with bulk counting (the last ply counted, not played) from the initial
//!   position (depth 6) and Kiwipete (depth 5): ours (pure move tree, and `Game::perft`, which
//!   also checks the draw rules at every interior node), cozy-chess, shakmaty.
//! - `perft_full`: every leaf move is made (initial position depth 5, Kiwipete depth 4): ours
//!   through the `Game` trait's make/unmake, ours copy-make on `Board`, cozy-chess, shakmaty.
//! - `make`: the make/unmake choice, full perft three ways: the `Game` make/unmake (the whole
//!   80-byte board as the undo token), an incremental unmake with a 16-byte undo token, and
//!   cloning the whole position (board and 1 KiB repetition history) per move.
//! - `attacks`: magic-bitboard slider lookups against walking the rays.
// `criterion_group!` defines an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use games::Game;
use games::chess::{Bitboard, Chess, Square, attacks, perft};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// (name, FEN, depth, leaves) for bulk counting.
const BULK: [(&str, &str, u32, u64); 2] = [
    ("initial_d6", START, 6, 119_060_324),
    ("kiwipete_d5", KIWIPETE, 5, 193_690_690),
];
/// (name, FEN, depth, leaves) for full perft.
const FULL: [(&str, &str, u32, u64); 2] = [
    ("initial_d5", START, 5, 4_865_609),
    ("kiwipete_d4", KIWIPETE, 4, 4_085_603),
];

#[path = "../tests/it/support/reference_chess.rs"]
mod reference_chess;

use reference_chess::{cozy_perft, incremental_perft, shakmaty_full, shakmaty_pos};

/// Full perft that clones the whole `Chess` (board and history) per move.
fn clone_whole(pos: &Chess, buffers: &mut [Vec<games::chess::Move>]) -> u64 {
    let Some((moves, rest)) = buffers.split_first_mut() else {
        return 1;
    };
    pos.generate_moves(moves);
    let mut n = 0;
    for &mv in moves.iter() {
        let mut child = pos.clone();
        child.play(mv);
        n += clone_whole(&child, rest);
    }
    n
}

fn bench_bulk(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft_bulk");
    g.sample_size(10);
    for (name, fen, depth, leaves) in BULK {
        g.throughput(Throughput::Elements(leaves));
        let ours = Chess::from_fen(fen).unwrap();
        assert_eq!(perft::perft(ours.board(), depth), leaves);
        assert_eq!(ours.clone().perft(depth), leaves);
        let cozy = cozy_chess::Board::from_fen(fen, false).unwrap();
        assert_eq!(cozy_perft(&cozy, depth, true), leaves);
        let shak = shakmaty_pos(fen).unwrap();
        assert_eq!(shakmaty::perft(&shak, depth), leaves);
        g.bench_function(BenchmarkId::new("ours", name), |b| {
            b.iter(|| perft::perft(black_box(ours.board()), depth));
        });
        g.bench_function(BenchmarkId::new("ours_game_rules", name), |b| {
            b.iter(|| black_box(&ours).clone().perft(depth));
        });
        g.bench_function(BenchmarkId::new("cozy-chess", name), |b| {
            b.iter(|| cozy_perft(black_box(&cozy), depth, true));
        });
        g.bench_function(BenchmarkId::new("shakmaty", name), |b| {
            b.iter(|| shakmaty::perft(black_box(&shak), depth));
        });
    }
    g.finish();
}

fn bench_full(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft_full");
    g.sample_size(10);
    for (name, fen, depth, leaves) in FULL {
        g.throughput(Throughput::Elements(leaves));
        let ours = Chess::from_fen(fen).unwrap();
        assert_eq!(games::perft::perft_full(&mut ours.clone(), depth), leaves);
        assert_eq!(perft::perft_full(ours.board(), depth), leaves);
        let cozy = cozy_chess::Board::from_fen(fen, false).unwrap();
        assert_eq!(cozy_perft(&cozy, depth, false), leaves);
        let shak = shakmaty_pos(fen).unwrap();
        assert_eq!(shakmaty_full(&shak, depth), leaves);
        g.bench_function(BenchmarkId::new("ours_game_make_unmake", name), |b| {
            b.iter(|| games::perft::perft_full(&mut black_box(&ours).clone(), depth));
        });
        g.bench_function(BenchmarkId::new("ours_board_copy_make", name), |b| {
            b.iter(|| perft::perft_full(black_box(ours.board()), depth));
        });
        g.bench_function(BenchmarkId::new("cozy-chess", name), |b| {
            b.iter(|| cozy_perft(black_box(&cozy), depth, false));
        });
        g.bench_function(BenchmarkId::new("shakmaty", name), |b| {
            b.iter(|| shakmaty_full(black_box(&shak), depth));
        });
    }
    g.finish();
}

fn bench_make(c: &mut Criterion) {
    let mut g = c.benchmark_group("make");
    g.sample_size(10);
    let (name, fen, depth, leaves) = FULL[1];
    g.throughput(Throughput::Elements(leaves));
    let pos = Chess::from_fen(fen).unwrap();
    let mut buffers: Vec<Vec<games::chess::Move>> =
        (0..depth).map(|_| Vec::with_capacity(256)).collect();
    assert_eq!(clone_whole(&pos, &mut buffers), leaves);
    assert_eq!(incremental_perft(&mut pos.clone(), &mut buffers), leaves);
    g.bench_function(BenchmarkId::new("game_board_copy_undo", name), |b| {
        b.iter(|| games::perft::perft_full(&mut black_box(&pos).clone(), depth));
    });
    g.bench_function(BenchmarkId::new("incremental_unmake", name), |b| {
        b.iter(|| incremental_perft(&mut black_box(&pos).clone(), &mut buffers));
    });
    g.bench_function(BenchmarkId::new("clone_whole_position", name), |b| {
        b.iter(|| clone_whole(black_box(&pos), &mut buffers));
    });
    g.finish();
}

fn bench_attacks(c: &mut Criterion) {
    let mut g = c.benchmark_group("attacks");
    // Occupancies from a few real positions.
    let occs: Vec<Bitboard> = [START, KIWIPETE, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"]
        .iter()
        .map(|f| Chess::from_fen(f).unwrap().board().occupied())
        .collect();
    let magic_sum: u64 = occs
        .iter()
        .flat_map(|&o| Square::all().map(move |s| (attacks::rook(s, o) | attacks::bishop(s, o)).0))
        .fold(0, |a, b| a ^ b);
    let ray_sum: u64 = occs
        .iter()
        .flat_map(|&o| {
            Square::all()
                .map(move |s| (attacks::rook_by_rays(s, o) | attacks::bishop_by_rays(s, o)).0)
        })
        .fold(0, |a, b| a ^ b);
    assert_eq!(magic_sum, ray_sum);
    g.throughput(Throughput::Elements(2 * 64 * occs.len() as u64));
    g.bench_function("magic", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for &o in black_box(&occs) {
                for s in Square::all() {
                    acc ^= (attacks::rook(s, o) | attacks::bishop(s, o)).0;
                }
            }
            acc
        });
    });
    g.bench_function("ray_walk", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for &o in black_box(&occs) {
                for s in Square::all() {
                    acc ^= (attacks::rook_by_rays(s, o) | attacks::bishop_by_rays(s, o)).0;
                }
            }
            acc
        });
    });
    g.finish();
}

criterion_group!(benches, bench_bulk, bench_full, bench_make, bench_attacks);
criterion_main!(benches);
