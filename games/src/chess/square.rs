//! Squares a1..h8 as indices 0..63: `a1 = 0`, `b1 = 1`, ..., `h1 = 7`, `a2 = 8`, ..., `h8 = 63`.

use std::fmt;

use super::bitboard::Bitboard;

/// One of the 64 squares. The index (`0..64`) is an invariant of the type: every constructor
/// checks or masks it, so tables of 64 entries are indexed without a bounds check.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// a1, the first square.
    pub const A1: Square = Square(0);
    /// b1.
    pub const B1: Square = Square(1);
    /// c1.
    pub const C1: Square = Square(2);
    /// d1.
    pub const D1: Square = Square(3);
    /// e1.
    pub const E1: Square = Square(4);
    /// f1.
    pub const F1: Square = Square(5);
    /// g1.
    pub const G1: Square = Square(6);
    /// h1.
    pub const H1: Square = Square(7);
    /// a8.
    pub const A8: Square = Square(56);
    /// b8.
    pub const B8: Square = Square(57);
    /// c8.
    pub const C8: Square = Square(58);
    /// d8.
    pub const D8: Square = Square(59);
    /// e8.
    pub const E8: Square = Square(60);
    /// f8.
    pub const F8: Square = Square(61);
    /// g8.
    pub const G8: Square = Square(62);
    /// h8.
    pub const H8: Square = Square(63);

    /// The square with this index; panics unless `index < 64` (use [`Square::try_new`] for
    /// untrusted input).
    #[must_use]
    pub const fn new(index: u8) -> Square {
        assert!(index < 64, "square index out of range");
        Square(index)
    }

    /// The square with this index, if `index < 64`.
    #[must_use]
    pub const fn try_new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with index `index & 63` (callers guarantee `index < 64`; checked in debug
    /// builds).
    #[must_use]
    pub(crate) const fn new_masked(index: u32) -> Square {
        debug_assert!(index < 64);
        Square((index & 63) as u8)
    }

    /// The square on `file` (0 = a) and `rank` (0 = first rank); both must be below 8.
    #[must_use]
    pub const fn from_coords(file: u8, rank: u8) -> Square {
        assert!(file < 8 && rank < 8, "file and rank must be below 8");
        Square(rank * 8 + file)
    }

    /// The index `0..64`.
    #[must_use]
    pub const fn index(self) -> usize {
        (self.0 & 63) as usize
    }

    /// The file, 0 (a) to 7 (h).
    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// The rank, 0 (first) to 7 (eighth).
    #[must_use]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The one-square bitboard.
    #[must_use]
    pub const fn bb(self) -> Bitboard {
        Bitboard(1 << (self.0 & 63))
    }

    /// The square mirrored top to bottom (a1 <-> a8): the same square seen from Black.
    #[must_use]
    pub const fn flip(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square `delta` indices away (caller guarantees it stays on the board).
    #[must_use]
    pub(crate) const fn offset(self, delta: i8) -> Square {
        Square::new_masked((self.0 as i32 + delta as i32) as u32)
    }

    /// Parses a square name such as `e4` (file letter, rank digit; lower case).
    #[must_use]
    pub fn parse(text: &str) -> Option<Square> {
        match text.as_bytes() {
            &[f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some(Square::from_coords(f - b'a', r - b'1')),
            _ => None,
        }
    }

    /// Every square, a1 to h8.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            char::from(b'a' + self.file()),
            char::from(b'1' + self.rank())
        )
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_coordinates() {
        assert_eq!(Square::parse("a1"), Some(Square::A1));
        assert_eq!(Square::parse("h8"), Some(Square::H8));
        assert_eq!(Square::parse("e4").unwrap().index(), 28);
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("a9"), None);
        assert_eq!(Square::parse("a"), None);
        assert_eq!(Square::E1.flip(), Square::E8);
        assert_eq!(Square::all().map(|s| s.to_string()).nth(9).unwrap(), "b2");
        assert_eq!(Square::try_new(64), None);
    }
}
