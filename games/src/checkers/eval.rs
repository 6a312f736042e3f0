//! Static evaluation and move ordering hints.
//!
//! The evaluation is Black's score minus White's, negated when White is to move. Each side
//! scores:
//!
//! | term | value |
//! | --- | --- |
//! | material | 100 per man, 130 per king |
//! | advancement | 3 per row a man has advanced from its own back row |
//! | back-row guard | 8 per man still on its own back row, while the opponent has men that could be crowned there |
//! | centre | 4 per piece on the eight central squares 10, 11, 14, 15, 18, 19, 22, 23 |
//! | mobility | 2 per non-capture move available (ignoring compulsory captures) |
//!
//! With at most 12 pieces a side the total stays far inside `±score::MAX_EVAL`.

use super::board::{BLACK_CROWN, WHITE_CROWN};
use super::board::{Black, Board, Colour, VALID, White, bit_of_square};
use super::moves::Move;

const MAN: i32 = 100;
const KING: i32 = 130;
const ADVANCE: i32 = 3;
const BACK_ROW: i32 = 8;
const CENTRE: i32 = 4;
const MOBILITY: i32 = 2;

const fn squares(list: &[u8]) -> u64 {
    let mut m = 0u64;
    let mut i = 0;
    while i < list.len() {
        m |= 1 << bit_of_square(list[i]);
        i += 1;
    }
    m
}

const CENTRE_SQUARES: u64 = squares(&[10, 11, 14, 15, 18, 19, 22, 23]);

/// Rows 0..8 (row 0 = squares 1-4, Black's back row).
const ROWS: [u64; 8] = {
    let mut rows = [0u64; 8];
    let mut r = 0;
    while r < 8 {
        let p = 4 * r as u8;
        rows[r] = squares(&[p + 1, p + 2, p + 3, p + 4]);
        r += 1;
    }
    rows
};

/// Black's score minus White's.
fn black_minus_white(b: &Board) -> i32 {
    let men = VALID & !b.kings;
    let (bm, wm) = (b.black & men, b.white & men);
    let (bk, wk) = (b.black & b.kings, b.white & b.kings);
    let count = |x: u64| x.count_ones() as i32;

    let material = MAN * (count(bm) - count(wm)) + KING * (count(bk) - count(wk));

    let mut advance = 0;
    for (r, row) in ROWS.iter().enumerate() {
        let r = r as i32;
        advance += r * count(bm & row) - (7 - r) * count(wm & row);
    }

    let mut guard = 0;
    if wm != 0 {
        guard += count(bm & WHITE_CROWN);
    }
    if bm != 0 {
        guard -= count(wm & BLACK_CROWN);
    }

    let centre = count(b.black & CENTRE_SQUARES) - count(b.white & CENTRE_SQUARES);
    let mobility = b.quiet_count::<Black>() as i32 - b.quiet_count::<White>() as i32;

    material + ADVANCE * advance + BACK_ROW * guard + CENTRE * centre + MOBILITY * mobility
}

/// The evaluation from the side to move (`black_to_move` says which).
pub(crate) fn evaluate(b: &Board, black_to_move: bool) -> i32 {
    let v = black_minus_white(b);
    if black_to_move { v } else { -v }
}

/// A cheap ordering hint: captures of more pieces first (kings count extra), then crowning
/// moves, then everything else.
pub(crate) fn move_hint<C: Colour>(b: &Board, mv: Move) -> i32 {
    let from = 1u64 << mv.from;
    let to = 1u64 << mv.to;
    let crowning = b.kings & from == 0 && to & C::CROWN != 0;
    1000 * i32::from(mv.jumps)
        + 200 * (mv.captured & b.kings).count_ones() as i32
        + if crowning { 500 } else { 0 }
}
