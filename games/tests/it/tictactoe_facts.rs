//! Full-tree facts of 4x4 tic-tac-toe (four in a row), which the tests recompute:
//! 9,722,011 reachable positions including the empty board, 659,392 of them terminal, and the
//! game-theoretic value is a draw.

use std::collections::HashMap;

use games::tictactoe::TicTacToe4;
use games::{Game, Outcome};

/// Negamax value (-1, 0, 1) of every reachable position, memoised by hash.
fn solve(pos: &mut TicTacToe4, memo: &mut HashMap<u64, (i8, bool)>) -> i8 {
    if let Some(&(v, _)) = memo.get(&pos.hash()) {
        return v;
    }
    let (value, terminal) = match pos.outcome() {
        Some(Outcome::Loss) => (-1, true),
        Some(_) => (0, true),
        None => {
            let mut moves = Vec::with_capacity(16);
            pos.generate_moves(&mut moves);
            let mut best = -1;
            for mv in moves {
                pos.make_move(mv);
                best = best.max(-solve(pos, memo));
                pos.unmake_move(mv, ());
            }
            (best, false)
        }
    };
    memo.insert(pos.hash(), (value, terminal));
    value
}

#[test]
fn four_by_four_positions_and_value() {
    let mut memo = HashMap::with_capacity(10_000_000);
    let value = solve(&mut TicTacToe4::start(), &mut memo);
    assert_eq!(value, 0, "4x4 tic-tac-toe is a draw");
    assert_eq!(memo.len(), 9_722_011);
    assert_eq!(memo.values().filter(|(_, t)| *t).count(), 659_392);
}
