//! Fast perft: copy-make on [`Board`], moves in a stack [`MoveList`], bulk counting at the last
//! ply.
//!
//! [`perft`] counts the pure move tree (what published perft tables and other move generators
//! count). [`perft_with_rules`] is what `Game::perft` runs: it also ends the game at draws by
//! rule (50-move rule, threefold repetition, insufficient material), as the `Game` trait
//! requires; from the published positions at their published depths no such draw occurs, so
//! both agree there (the tests check it).

use super::board::Board;
use super::history::History;
use super::movegen::Kind;
use super::moves::MoveList;
use super::position::{Chess, draw_rule};

/// Leaves of the legal-move tree of exactly `depth` plies below `board`.
#[must_use]
pub fn perft(board: &Board, depth: u32) -> u64 {
    tree::<true>(board, depth)
}

/// Leaves of the legal-move tree of exactly `depth` plies, playing every leaf move (no bulk
/// counting).
#[must_use]
pub fn perft_full(board: &Board, depth: u32) -> u64 {
    tree::<false>(board, depth)
}

/// The move tree below `board`; with `BULK` the last ply is counted, not played.
fn tree<const BULK: bool>(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if BULK && depth == 1 {
        return board.count_moves();
    }
    let mut list = MoveList::new();
    board.generate(Kind::All, |mv| list.push(mv));
    let mut total = 0;
    for &mv in list.as_slice() {
        let mut child = *board;
        child.play(mv);
        total += tree::<BULK>(&child, depth - 1);
    }
    total
}

/// Like [`perft`], but positions drawn by rule have no moves (the `Game` trait's convention).
#[must_use]
pub fn perft_with_rules(pos: &Chess, depth: u32) -> u64 {
    let mut history = pos.history.clone();
    rules_rec(&pos.board, &mut history, depth)
}

fn rules_rec(board: &Board, history: &mut History, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if draw_rule(board, history).is_some() {
        return 0;
    }
    if depth == 1 {
        return board.count_moves();
    }
    let mut list = MoveList::new();
    board.generate(Kind::All, |mv| list.push(mv));
    history.push(board.hash);
    let mut total = 0;
    for &mv in list.as_slice() {
        let mut child = *board;
        child.play(mv);
        total += rules_rec(&child, history, depth - 1);
    }
    history.pop();
    total
}
