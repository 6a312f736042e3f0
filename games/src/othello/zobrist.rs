//! Zobrist keys of Othello (both board sizes share them; squares are grid bits).
//!
//! Keys `0..64` are black discs, `64..128` white discs, `128` is "white to move". A move XORs
//! the placed disc's key, the side key, and for each flipped square [`flip_key`] (black and
//! white keys of that square together), so the hash stays equal to one computed from scratch.

use crate::zobrist;

static KEYS: [u64; 129] = zobrist::keys(0x07E1_1000_0B17_B0A2);
static FLIP_KEYS: [u64; 64] = {
    let mut out = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        out[i] = KEYS[i] ^ KEYS[64 + i];
        i += 1;
    }
    out
};

/// The key of a disc of colour `white` (false: black) on `square`.
#[inline]
pub(crate) fn disc_key(white: bool, square: usize) -> u64 {
    KEYS[64 * usize::from(white) + square]
}

/// The change of hash when the disc on `square` changes colour.
#[inline]
pub(crate) fn flip_key(square: usize) -> u64 {
    FLIP_KEYS[square]
}

/// The key XORed in while white is to move.
pub(crate) const WHITE_TO_MOVE: u64 = KEYS[128];

/// The hash of a position from scratch.
pub(crate) fn compute(black: u64, white: u64, white_to_move: bool) -> u64 {
    let mut h = if white_to_move { WHITE_TO_MOVE } else { 0 };
    for (is_white, mut bits) in [(false, black), (true, white)] {
        while bits != 0 {
            h ^= disc_key(is_white, bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
    }
    h
}
