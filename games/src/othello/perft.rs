//! Perft specialised to bitboards: no hash update, no move list, bulk counting at the last ply.

use super::bitboard::{flips, moves};

/// Leaves of the tree of exactly `depth` plies below the position where `p` (to move) plays
/// against `o`; a pass is a ply, and games that end before `depth` count 0.
pub(crate) fn perft<const N: usize>(p: u64, o: u64, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut mv = moves::<N>(p, o);
    if mv == 0 {
        // A pass if the opponent can move; otherwise the game is over.
        return if moves::<N>(o, p) == 0 {
            0
        } else if depth == 1 {
            1
        } else {
            perft::<N>(o, p, depth - 1)
        };
    }
    if depth == 1 {
        return u64::from(mv.count_ones());
    }
    let mut total = 0;
    if depth == 2 {
        while mv != 0 {
            let sq = mv.trailing_zeros() as usize;
            mv &= mv - 1;
            let f = flips::<N>(p, o, sq);
            let (np, no) = (o ^ f, p ^ f ^ (1 << sq));
            let reply = moves::<N>(np, no);
            total += if reply != 0 {
                u64::from(reply.count_ones())
            } else {
                u64::from(moves::<N>(no, np) != 0)
            };
        }
        return total;
    }
    while mv != 0 {
        let sq = mv.trailing_zeros() as usize;
        mv &= mv - 1;
        let f = flips::<N>(p, o, sq);
        total += perft::<N>(o ^ f, p ^ f ^ (1 << sq), depth - 1);
    }
    total
}
