//! The board: the 32 playable squares on a 35-bit layout with three ghost bits, and move
//! generation by shifts (see `README.md` beside this file for the layout).
//!
//! Square `s` (1..=32, row `r = (s - 1) / 4` from Black's back row, place `p = (s - 1) % 4`)
//! is bit `9 * (r / 2) + 4 * (r % 2) + p`. Bits 8, 17 and 26 are ghost squares that never
//! hold a piece. With this layout every diagonal step is the same shift everywhere on the board:
//! `+4` and `+5` go towards White's side (Black's forward), `-4` and `-5` towards Black's side,
//! and a step off the board lands on a ghost bit or outside [`VALID`].

use serde::{Deserialize, Serialize};

use super::moves::Move;

/// The 32 real squares.
pub(crate) const VALID: u64 = {
    let mut m = 0u64;
    let mut s = 1;
    while s <= 32 {
        m |= 1 << bit_of_square(s);
        s += 1;
    }
    m
};

/// Squares 29-32, where black men are crowned.
pub(crate) const BLACK_CROWN: u64 = row_mask(7);
/// Squares 1-4, where white men are crowned.
pub(crate) const WHITE_CROWN: u64 = row_mask(0);

/// The bit of square `square` (1..=32).
#[must_use]
pub(crate) const fn bit_of_square(square: u8) -> u32 {
    let i = (square - 1) as u32;
    let (row, place) = (i / 4, i % 4);
    9 * (row / 2) + 4 * (row % 2) + place
}

/// The square number (1..=32) of bit `bit`, 0 for ghost bits and bits off the board.
#[must_use]
pub(crate) const fn square_of_bit(bit: u32) -> u8 {
    SQUARE_OF_BIT[bit as usize & 63]
}

static SQUARE_OF_BIT: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut s = 1;
    while s <= 32 {
        t[bit_of_square(s) as usize] = s;
        s += 1;
    }
    t
};

const fn row_mask(row: u8) -> u64 {
    let mut m = 0u64;
    let mut p = 0;
    while p < 4 {
        m |= 1 << bit_of_square(4 * row + p + 1);
        p += 1;
    }
    m
}

/// One diagonal step in direction `dir`: 0 = `+4`, 1 = `+5` (towards White), 2 = `-4`,
/// 3 = `-5` (towards Black). Applies to every bit of `b` at once.
#[inline(always)]
pub(crate) const fn step(b: u64, dir: u32) -> u64 {
    match dir {
        0 => b << 4,
        1 => b << 5,
        2 => b >> 4,
        _ => b >> 5,
    }
}

/// A colour as a type, so that move generation is compiled once per colour with constant
/// shift directions.
pub(crate) trait Colour {
    /// Whether this is Black (moves towards higher squares).
    const BLACK: bool;
    /// The other colour.
    type Other: Colour;
    /// The crowning row of this colour's men.
    const CROWN: u64 = if Self::BLACK {
        BLACK_CROWN
    } else {
        WHITE_CROWN
    };
    /// The two forward directions (see [`step`]).
    const FORWARD: [u32; 2] = if Self::BLACK { [0, 1] } else { [2, 3] };
    /// The two backward directions.
    const BACKWARD: [u32; 2] = if Self::BLACK { [2, 3] } else { [0, 1] };
}

/// Black (squares 1-12 at the start, moves first).
pub(crate) enum Black {}
/// White (squares 21-32 at the start).
pub(crate) enum White {}

impl Colour for Black {
    const BLACK: bool = true;
    type Other = White;
}

impl Colour for White {
    const BLACK: bool = false;
    type Other = Black;
}

/// Pieces on the board: one bitboard per colour and one of kings (of either colour).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct Board {
    /// Black's pieces.
    pub(crate) black: u64,
    /// White's pieces.
    pub(crate) white: u64,
    /// The kings among them.
    pub(crate) kings: u64,
}

/// The pieces seen from one colour.
#[derive(Clone, Copy)]
struct Sides {
    own: u64,
    opp: u64,
    own_kings: u64,
    empty: u64,
}

impl Board {
    /// The standard start position.
    pub(crate) const START: Board = Board {
        black: row_mask(0) | row_mask(1) | row_mask(2),
        white: row_mask(5) | row_mask(6) | row_mask(7),
        kings: 0,
    };

    /// The empty squares.
    #[inline(always)]
    pub(crate) const fn empty(&self) -> u64 {
        VALID & !(self.black | self.white)
    }

    #[inline(always)]
    fn sides<C: Colour>(&self) -> Sides {
        let (own, opp) = if C::BLACK {
            (self.black, self.white)
        } else {
            (self.white, self.black)
        };
        Sides {
            own,
            opp,
            own_kings: own & self.kings,
            empty: self.empty(),
        }
    }

    /// The pieces of colour `C` that can capture.
    #[inline(always)]
    fn jumpers<C: Colour>(s: Sides) -> u64 {
        // A piece, an enemy one step ahead, an empty square two steps ahead: step the enemies
        // and the empty squares back onto the jumping piece.
        let mut j = 0;
        for dir in C::FORWARD {
            let back = dir ^ 2;
            j |= s.own & step(s.opp, back) & step(step(s.empty, back), back);
        }
        for dir in C::BACKWARD {
            let back = dir ^ 2;
            j |= s.own_kings & step(s.opp, back) & step(step(s.empty, back), back);
        }
        j
    }

    /// Whether colour `C` has a legal move.
    #[inline]
    pub(crate) fn has_moves<C: Colour>(&self) -> bool {
        let s = self.sides::<C>();
        if Self::jumpers::<C>(s) != 0 {
            return true;
        }
        let [f0, f1] = C::FORWARD;
        let [b0, b1] = C::BACKWARD;
        ((step(s.own, f0) | step(s.own, f1)) | (step(s.own_kings, b0) | step(s.own_kings, b1)))
            & s.empty
            != 0
    }

    /// Whether colour `C` must capture.
    #[inline]
    pub(crate) fn must_capture<C: Colour>(&self) -> bool {
        Self::jumpers::<C>(self.sides::<C>()) != 0
    }

    /// The number of non-capture moves colour `C` would have (ignoring compulsory captures).
    #[inline]
    pub(crate) fn quiet_count<C: Colour>(&self) -> u32 {
        let s = self.sides::<C>();
        let [f0, f1] = C::FORWARD;
        let [b0, b1] = C::BACKWARD;
        (step(s.own, f0) & s.empty).count_ones()
            + (step(s.own, f1) & s.empty).count_ones()
            + (step(s.own_kings, b0) & s.empty).count_ones()
            + (step(s.own_kings, b1) & s.empty).count_ones()
    }

    /// Calls `f` with every legal move of colour `C` (captures when there are any, every
    /// capture sequence separately, including sequences that take the same pieces in another
    /// order; otherwise the non-capture moves).
    #[inline]
    pub(crate) fn for_each_move<C: Colour, F: FnMut(Move)>(&self, mut f: F) {
        let s = self.sides::<C>();
        let jumpers = Self::jumpers::<C>(s);
        if jumpers != 0 {
            let mut men = jumpers & !s.own_kings;
            while men != 0 {
                let from = men & men.wrapping_neg();
                men &= men - 1;
                man_jumps::<C, F>(&mut f, from, from, s.opp, s.empty, 0, 0, 0);
            }
            let mut kings = jumpers & s.own_kings;
            while kings != 0 {
                let from = kings & kings.wrapping_neg();
                kings &= kings - 1;
                king_jumps(&mut f, from, from, s.opp, s.empty | from, 0, 0, 0);
            }
            return;
        }
        for dir in C::FORWARD {
            quiet_moves(&mut f, step(s.own, dir) & s.empty, dir);
        }
        for dir in C::BACKWARD {
            quiet_moves(&mut f, step(s.own_kings, dir) & s.empty, dir);
        }
    }

    /// The number of legal moves of colour `C`, without building them (perft's last ply).
    #[inline]
    pub(crate) fn count_moves<C: Colour>(&self) -> u64 {
        let s = self.sides::<C>();
        let jumpers = Self::jumpers::<C>(s);
        if jumpers == 0 {
            return u64::from(self.quiet_count::<C>());
        }
        let mut n = 0;
        let mut men = jumpers & !s.own_kings;
        while men != 0 {
            let from = men & men.wrapping_neg();
            men &= men - 1;
            n += count_man_jumps::<C>(from, s.opp, s.empty);
        }
        let mut kings = jumpers & s.own_kings;
        while kings != 0 {
            let from = kings & kings.wrapping_neg();
            kings &= kings - 1;
            n += count_king_jumps(from, s.opp, s.empty | from);
        }
        n
    }

    /// The board after colour `C` plays `mv` (a legal move).
    #[inline(always)]
    #[must_use]
    pub(crate) fn after<C: Colour>(&self, mv: Move) -> Board {
        let from = 1u64 << mv.from;
        let to = 1u64 << mv.to;
        let mut b = *self;
        let (own, opp) = if C::BLACK {
            (&mut b.black, &mut b.white)
        } else {
            (&mut b.white, &mut b.black)
        };
        *own = (*own & !from) | to;
        *opp &= !mv.captured;
        let kings = self.kings & !mv.captured;
        b.kings = if kings & from != 0 {
            (kings & !from) | to
        } else {
            kings | (to & C::CROWN)
        };
        b
    }

    /// The same position rotated by 180 degrees with the colours swapped (square `s` becomes
    /// `33 - s`): what Black sees is what White would see.
    #[cfg(test)]
    #[must_use]
    pub(crate) fn flipped(&self) -> Board {
        let rot = |b: u64| b.reverse_bits() >> 29;
        Board {
            black: rot(self.white),
            white: rot(self.black),
            kings: rot(self.kings),
        }
    }
}

#[inline(always)]
fn quiet_moves<F: FnMut(Move)>(f: &mut F, mut targets: u64, dir: u32) {
    while targets != 0 {
        let to = targets.trailing_zeros();
        targets &= targets - 1;
        let from = step(1u64 << to, dir ^ 2).trailing_zeros();
        f(Move::simple(from as u8, to as u8));
    }
}

/// Continues a capture by a man now on `at` (it started on `from`): `captured` pieces are
/// gone from `opp`, and `dirs` holds the `len` directions jumped so far. Emits the move when
/// no further jump is possible.
#[allow(clippy::too_many_arguments)]
fn man_jumps<C: Colour, F: FnMut(Move)>(
    f: &mut F,
    from: u64,
    at: u64,
    opp: u64,
    empty: u64,
    captured: u64,
    len: u8,
    dirs: u32,
) {
    let mut any = false;
    for dir in C::FORWARD {
        let mid = step(at, dir);
        let land = step(mid, dir);
        if mid & opp != 0 && land & empty != 0 {
            any = true;
            let cap = captured | mid;
            let d = dirs | dir << (2 * len);
            if land & C::CROWN != 0 {
                // Crowning ends the move.
                f(Move::jump(from, land, cap, len + 1, d));
            } else {
                man_jumps::<C, F>(f, from, land, opp & !mid, empty, cap, len + 1, d);
            }
        }
    }
    if !any {
        f(Move::jump(from, at, captured, len, dirs));
    }
}

/// Continues a capture by a king (see [`man_jumps`]); `empty` includes the king's start square.
#[allow(clippy::too_many_arguments)]
fn king_jumps<F: FnMut(Move)>(
    f: &mut F,
    from: u64,
    at: u64,
    opp: u64,
    empty: u64,
    captured: u64,
    len: u8,
    dirs: u32,
) {
    let mut any = false;
    for dir in 0..4 {
        let mid = step(at, dir);
        let land = step(mid, dir);
        if mid & opp != 0 && land & empty != 0 {
            any = true;
            let d = dirs | dir << (2 * len);
            king_jumps(f, from, land, opp & !mid, empty, captured | mid, len + 1, d);
        }
    }
    if !any {
        f(Move::jump(from, at, captured, len, dirs));
    }
}

/// The number of capture sequences of a man on `at`.
fn count_man_jumps<C: Colour>(at: u64, opp: u64, empty: u64) -> u64 {
    let mut n = 0;
    let mut any = false;
    for dir in C::FORWARD {
        let mid = step(at, dir);
        let land = step(mid, dir);
        if mid & opp != 0 && land & empty != 0 {
            any = true;
            n += if land & C::CROWN != 0 {
                1
            } else {
                count_man_jumps::<C>(land, opp & !mid, empty)
            };
        }
    }
    if any { n } else { 1 }
}

/// The number of capture sequences of a king on `at` (`empty` includes its start square).
fn count_king_jumps(at: u64, opp: u64, empty: u64) -> u64 {
    let mut n = 0;
    let mut any = false;
    for dir in 0..4 {
        let mid = step(at, dir);
        let land = step(mid, dir);
        if mid & opp != 0 && land & empty != 0 {
            any = true;
            n += count_king_jumps(land, opp & !mid, empty);
        }
    }
    if any { n } else { 1 }
}
