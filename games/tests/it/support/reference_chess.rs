//! Perft through the two reference chess move generators (shakmaty and cozy-chess, both
//! dev-dependencies) and through our own incremental unmake, shared by the differential test
//! (`tests/it/chess_differential.rs`), the benchmark (`benches/chess.rs`) and the interleaved
//! comparison (`examples/chess_compare.rs`), which include this file with `#[path]`.
// Each includer uses a different subset.
#![allow(dead_code)]

use games::Game;
use games::chess::{Chess, Move};
use shakmaty::Position;

/// A shakmaty position from a FEN (`None` when shakmaty rejects it).
pub fn shakmaty_pos(fen: &str) -> Option<shakmaty::Chess> {
    fen.parse::<shakmaty::fen::Fen>()
        .ok()?
        .into_position(shakmaty::CastlingMode::Standard)
        .ok()
}

/// shakmaty perft with every leaf move made (shakmaty's own `perft` counts the last ply).
pub fn shakmaty_full(pos: &shakmaty::Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.legal_moves()
        .iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(*m);
            shakmaty_full(&child, depth - 1)
        })
        .sum()
}

/// cozy-chess perft; with `bulk` the last ply is counted, not played.
pub fn cozy_perft(board: &cozy_chess::Board, depth: u32, bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    board.generate_moves(|pm| {
        if bulk && depth == 1 {
            n += pm.len() as u64;
        } else {
            for mv in pm {
                let mut child = board.clone();
                child.play_unchecked(mv);
                n += cozy_perft(&child, depth - 1, bulk);
            }
        }
        false
    });
    n
}

/// Full perft with our incremental unmake (16-byte undo token); one move buffer per ply.
pub fn incremental_perft(pos: &mut Chess, buffers: &mut [Vec<Move>]) -> u64 {
    let Some((moves, rest)) = buffers.split_first_mut() else {
        return 1;
    };
    pos.generate_moves(moves);
    let mut n = 0;
    for &mv in moves.iter() {
        let undo = pos.make_incremental(mv);
        n += incremental_perft(pos, rest);
        pos.unmake_incremental(mv, undo);
    }
    n
}
