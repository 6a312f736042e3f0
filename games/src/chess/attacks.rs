//! Attack sets: leaper tables, sliders (through the private `magic` module), and the `between` / `line`
//! tables that legal move generation uses for checks and pins. Every table is a `static`
//! filled by a `const fn`.

use super::bitboard::Bitboard;
use super::color::Color;
use super::magic::{self, BISHOP_DIRS, ROOK_DIRS, slide};
use super::square::Square;

const fn leaper(steps: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i8, (sq / 8) as i8);
        let mut i = 0;
        while i < steps.len() {
            let (nf, nr) = (f + steps[i].0, r + steps[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                table[sq] |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

static KNIGHT: [u64; 64] = leaper(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [u64; 64] = leaper(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN: [[u64; 64]; 2] = [leaper(&[(-1, 1), (1, 1)]), leaper(&[(-1, -1), (1, -1)])];

/// `BETWEEN[a][b]`: the squares strictly between two aligned squares (empty if not aligned).
/// `LINE[a][b]`: the whole line through both (empty if not aligned).
const fn between_and_line() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            if a != b {
                let bb = 1u64 << b;
                let dirs = if slide(a, 0, &ROOK_DIRS) & bb != 0 {
                    Some(&ROOK_DIRS)
                } else if slide(a, 0, &BISHOP_DIRS) & bb != 0 {
                    Some(&BISHOP_DIRS)
                } else {
                    None
                };
                if let Some(dirs) = dirs {
                    between[a][b] = slide(a, bb, dirs) & slide(b, 1u64 << a, dirs);
                    line[a][b] = (slide(a, 0, dirs) & slide(b, 0, dirs)) | (1u64 << a) | bb;
                }
            }
            b += 1;
        }
        a += 1;
    }
    (between, line)
}

static BETWEEN_LINE: ([[u64; 64]; 64], [[u64; 64]; 64]) = between_and_line();

/// Knight attacks from `sq`.
#[inline]
#[must_use]
pub fn knight(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

/// King attacks from `sq`.
#[inline]
#[must_use]
pub fn king(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline]
#[must_use]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

/// Rook attacks from `sq` with blockers `occ`.
#[inline]
#[must_use]
pub fn rook(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(magic::rook(sq, occ.0))
}

/// Bishop attacks from `sq` with blockers `occ`.
#[inline]
#[must_use]
pub fn bishop(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(magic::bishop(sq, occ.0))
}

/// Queen attacks from `sq` with blockers `occ`.
#[inline]
#[must_use]
pub fn queen(sq: Square, occ: Bitboard) -> Bitboard {
    rook(sq, occ) | bishop(sq, occ)
}

/// Rook attacks by walking the rays (the benchmark baseline for the magic tables).
#[must_use]
pub fn rook_by_rays(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(slide(sq.index(), occ.0, &ROOK_DIRS))
}

/// Bishop attacks by walking the rays.
#[must_use]
pub fn bishop_by_rays(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(slide(sq.index(), occ.0, &BISHOP_DIRS))
}

/// Squares strictly between `a` and `b` when they share a rank, file or diagonal; else empty.
#[inline]
#[must_use]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN_LINE.0[a.index()][b.index()])
}

/// The full line (edge to edge) through `a` and `b` when aligned; else empty.
#[inline]
#[must_use]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN_LINE.1[a.index()][b.index()])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    #[test]
    fn leapers_and_lines() {
        assert_eq!(knight(Square::A1).count(), 2);
        assert_eq!(knight(sq("e4")).count(), 8);
        assert_eq!(king(Square::H8).count(), 3);
        assert_eq!(pawn(Color::White, sq("e4")), sq("d5").bb() | sq("f5").bb());
        assert_eq!(pawn(Color::Black, sq("a7")), sq("b6").bb());
        assert_eq!(between(Square::A1, Square::H8).count(), 6);
        assert_eq!(between(Square::A1, sq("b3")), Bitboard::EMPTY);
        assert_eq!(
            between(Square::E1, Square::H1),
            sq("f1").bb() | sq("g1").bb()
        );
        assert_eq!(line(Square::E1, Square::H1), Bitboard::RANK_1);
        assert_eq!(line(sq("c3"), sq("e5")).count(), 8);
        assert_eq!(line(Square::A1, sq("b3")), Bitboard::EMPTY);
        let occ = sq("e6").bb() | sq("c4").bb();
        assert_eq!(rook(sq("e4"), occ), rook_by_rays(sq("e4"), occ));
        assert_eq!(queen(sq("d4"), Bitboard::EMPTY).count(), 27);
    }
}
