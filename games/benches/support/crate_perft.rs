// Shared by the Othello benchmark and the perft-rate example (included with `include!`).

/// Perft over the `othello` crate's API with the same rules as ours: a pass is a ply, finished
/// games count 0, and the last ply is counted in bulk (a popcount of the move bitboard).
fn crate_perft(g: &othello::Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = g.available_moves();
    if moves == 0 {
        let mut passed = g.clone();
        passed.pass_move();
        return if passed.available_moves() == 0 {
            0
        } else if depth == 1 {
            1
        } else {
            crate_perft(&passed, depth - 1)
        };
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut total = 0;
    while moves != 0 {
        let sq = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        if let Some(child) = g.make_move(sq) {
            total += crate_perft(&child, depth - 1);
        }
    }
    total
}
