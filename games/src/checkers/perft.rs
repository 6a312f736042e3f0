//! Fast perft: boards are copied (no hash, no counter) and the last ply is counted without
//! building moves (popcounts for steps, path counts for captures).

use super::board::{Board, Colour};

/// Leaves of the legal-move tree of exactly `depth` plies below `board` with `C` to move,
/// ignoring the no-progress rule (the caller checks that it cannot apply).
pub(crate) fn perft<C: Colour>(board: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => board.count_moves::<C>(),
        _ => {
            let mut total = 0;
            board.for_each_move::<C, _>(|mv| {
                total += perft::<C::Other>(&board.after::<C>(mv), depth - 1);
            });
            total
        }
    }
}
