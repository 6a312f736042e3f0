//! Static evaluation and the move-ordering hint.
//!
//! The evaluation is from the side to move and is the sum of six documented terms (each
//! "mine minus the opponent's"):
//!
//! | term | weight | why |
//! | --- | --- | --- |
//! | mobility: legal moves | 12 per move | the side with more choices avoids bad squares |
//! | potential mobility: empty squares next to an opponent disc (frontier) | 4 per square | room for future moves; few own frontier discs |
//! | corners held | 90 per corner | corners can never be flipped and anchor stable edges |
//! | X-squares next to an empty corner | -45 per disc | they hand the corner to the opponent |
//! | C-squares next to an empty corner | -15 per disc | the same, less directly |
//! | disc parity when few empties remain (a quarter of the board or fewer) | 6 per disc | the game is decided by discs at the end |
//!
//! The largest magnitude is a few thousand, far inside `±score::MAX_EVAL`.

use super::bitboard::{Geometry, moves};

/// A square index from row and column.
const fn sq(row: usize, col: usize) -> u64 {
    1 << (row * 8 + col)
}

/// The four corners of an `n` x `n` board.
const fn corners(n: usize) -> [u64; 4] {
    [sq(0, 0), sq(0, n - 1), sq(n - 1, 0), sq(n - 1, n - 1)]
}

/// The X-square (diagonal neighbour) of each corner, in the order of [`corners`].
const fn x_squares(n: usize) -> [u64; 4] {
    [sq(1, 1), sq(1, n - 2), sq(n - 2, 1), sq(n - 2, n - 2)]
}

/// The two C-squares (edge neighbours) of each corner, in the order of [`corners`].
const fn c_squares(n: usize) -> [u64; 4] {
    [
        sq(0, 1) | sq(1, 0),
        sq(0, n - 2) | sq(1, n - 1),
        sq(n - 2, 0) | sq(n - 1, 1),
        sq(n - 1, n - 2) | sq(n - 2, n - 1),
    ]
}

/// The first (a) and last file of an `n` x `n` board.
const fn files(n: usize) -> (u64, u64) {
    let (mut first, mut last) = (0u64, 0u64);
    let mut row = 0;
    while row < n {
        first |= sq(row, 0);
        last |= sq(row, n - 1);
        row += 1;
    }
    (first, last)
}

/// Static square weights for move ordering: corners first, X-squares last.
pub(crate) const fn square_weights(n: usize) -> [i32; 64] {
    let mut w = [0i32; 64];
    let mut row = 0;
    while row < n {
        let mut col = 0;
        while col < n {
            let edge_r = row == 0 || row == n - 1;
            let edge_c = col == 0 || col == n - 1;
            let near_r = row == 1 || row == n - 2;
            let near_c = col == 1 || col == n - 2;
            w[row * 8 + col] = if edge_r && edge_c {
                100
            } else if near_r && near_c {
                -50
            } else if (edge_r && near_c) || (near_r && edge_c) {
                -20
            } else if edge_r || edge_c {
                10
            } else if near_r || near_c {
                -5
            } else {
                2
            };
            col += 1;
        }
        row += 1;
    }
    w
}

static WEIGHTS_8: [i32; 64] = square_weights(8);
static WEIGHTS_6: [i32; 64] = square_weights(6);

/// The move-ordering weight of square `square` (0..64) on an `N` x `N` board.
#[inline]
pub(crate) fn square_weight<const N: usize>(square: usize) -> i32 {
    if N == 8 {
        WEIGHTS_8[square]
    } else {
        WEIGHTS_6[square]
    }
}

/// The squares next to (in any of the eight directions) the discs `x`.
#[inline]
pub(crate) fn neighbours<const N: usize>(x: u64) -> u64 {
    let (first, last) = files(N);
    let east = x & !last;
    let west = x & !first;
    let around = (east << 1)
        | (west >> 1)
        | (x << 8)
        | (x >> 8)
        | (east << 9)
        | (west << 7)
        | (east >> 7)
        | (west >> 9);
    around & Geometry::<N>::VALID
}

const MOBILITY: i32 = 12;
const POTENTIAL: i32 = 4;
const CORNER: i32 = 90;
const X_SQUARE: i32 = -45;
const C_SQUARE: i32 = -15;
const PARITY: i32 = 6;

/// The evaluation of a position where `p` (the side to move) plays against `o`.
pub(crate) fn evaluate<const N: usize>(p: u64, o: u64) -> i32 {
    let empty = Geometry::<N>::VALID & !(p | o);
    let count = |x: u64| x.count_ones() as i32;
    let mut score = MOBILITY * (count(moves::<N>(p, o)) - count(moves::<N>(o, p)));
    score += POTENTIAL * (count(neighbours::<N>(o) & empty) - count(neighbours::<N>(p) & empty));
    let (corner, x, c) = (corners(N), x_squares(N), c_squares(N));
    for i in 0..4 {
        if empty & corner[i] != 0 {
            score += X_SQUARE * (count(p & x[i]) - count(o & x[i]));
            score += C_SQUARE * (count(p & c[i]) - count(o & c[i]));
        } else {
            score += CORNER * (count(p & corner[i]) - count(o & corner[i]));
        }
    }
    if 4 * count(empty) <= (N * N) as i32 {
        score += PARITY * (count(p) - count(o));
    }
    score
}
