//! Zobrist keys for chess: one per (piece, square), one per castling-rights combination, one per
//! en-passant file and one for Black to move. Drawn from [`crate::zobrist::keys`] at compile
//! time, so hashes are the same in every process.

use super::color::Color;
use super::piece::Role;
use super::square::Square;

static PIECE_SQUARE: [u64; 768] = crate::zobrist::keys(0xC4E5_5000_0000_0001);
/// Keys of the 16 castling-rights sets (index = the rights bits).
pub(crate) static CASTLING: [u64; 16] = {
    let mut k: [u64; 16] = crate::zobrist::keys(0xC4E5_5000_0000_0002);
    // No rights hash to zero, so a position without rights needs no key.
    k[0] = 0;
    k
};
/// Keys of the en-passant files.
pub(crate) static EP_FILE: [u64; 8] = crate::zobrist::keys(0xC4E5_5000_0000_0003);
/// Black to move.
pub(crate) const BLACK_TO_MOVE: u64 = crate::zobrist::keys::<1>(0xC4E5_5000_0000_0004)[0];

/// The key of a `color` `role` on `sq`.
#[inline]
#[must_use]
pub(crate) fn piece(color: Color, role: Role, sq: Square) -> u64 {
    PIECE_SQUARE[(color.index() * 6 + role.index()) * 64 + sq.index()]
}
