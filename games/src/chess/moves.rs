//! [`Move`]: a chess move in 16 bits (from, to, promotion), the same information as UCI.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::piece::Role;
use super::square::Square;

/// A move: what UCI writes (origin, destination, promotion piece) plus the moving piece's role,
/// which the generator knows for free and which spares [`super::Board::play`] a lookup. Castling
/// is the king's two-square move (`e1g1`), en passant the pawn's diagonal move to the empty
/// square; the board tells them apart. Bits: 0-5 origin, 6-11 destination, 12-14 promotion
/// role index (0 = none), 15-17 the moving role's index.
///
/// Moves come from the generator or from parsing (which looks them up among the legal moves);
/// [`Move::NULL`] (origin = destination = a1) is the null move of null-move pruning and is
/// never generated.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Move(u32);

impl Move {
    /// The null move (a pass; printed `0000` as in UCI).
    pub const NULL: Move = Move(0);

    /// A move of a `role` from `from` to `to`, without promotion.
    #[must_use]
    pub const fn new(role: Role, from: Square, to: Square) -> Move {
        Move(from.index() as u32 | (to.index() as u32) << 6 | (role.index() as u32) << 15)
    }

    /// A pawn move promoting to `promotion` (knight, bishop, rook or queen).
    #[must_use]
    pub const fn promotion_to(from: Square, to: Square, promotion: Role) -> Move {
        debug_assert!(matches!(
            promotion,
            Role::Knight | Role::Bishop | Role::Rook | Role::Queen
        ));
        Move(Move::new(Role::Pawn, from, to).0 | (promotion.index() as u32) << 12)
    }

    /// The role of the moving piece.
    #[must_use]
    pub const fn role(self) -> Role {
        match Role::from_index(((self.0 >> 15) & 7) as usize) {
            Some(r) => r,
            None => Role::Pawn,
        }
    }

    /// Where the moving piece starts.
    #[must_use]
    pub const fn from(self) -> Square {
        Square::new_masked(self.0 & 63)
    }

    /// Where it lands.
    #[must_use]
    pub const fn to(self) -> Square {
        Square::new_masked((self.0 >> 6) & 63)
    }

    /// The promotion piece, if any.
    #[must_use]
    pub const fn promotion(self) -> Option<Role> {
        match (self.0 >> 12) & 7 {
            0 => None,
            i => Role::from_index(i as usize),
        }
    }

    /// Whether this is [`Move::NULL`].
    #[must_use]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// The raw bits.
    #[must_use]
    pub const fn bits(self) -> u32 {
        self.0
    }
}

impl fmt::Display for Move {
    /// UCI notation: `e2e4`, `e7e8q`, `0000` for the null move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return f.write_str("0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(role) = self.promotion() {
            write!(f, "{}", role.char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A fixed-capacity list of moves on the stack (no allocation), for perft and internal use.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MoveList::CAPACITY],
    len: usize,
}

impl MoveList {
    /// The most moves it holds (every legal chess position has at most 218).
    pub const CAPACITY: usize = 256;

    /// An empty list.
    #[must_use]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::NULL; MoveList::CAPACITY],
            len: 0,
        }
    }

    /// Appends a move (ignored if the list is full, which no legal position reaches).
    #[inline]
    pub fn push(&mut self, mv: Move) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = mv;
            self.len += 1;
        }
    }

    /// The moves as a slice.
    #[must_use]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len.min(MoveList::CAPACITY)]
    }

    /// Number of moves.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}
