//! The move type and its PDN notation (`11-15`, `22x15x8`).

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::board::{bit_of_square, square_of_bit, step};
use super::error::CheckersError;

/// A checkers move: a step of one square, or a whole capture sequence.
///
/// A capture keeps its path (the direction of every jump), so two sequences that take the same
/// pieces in a different order are different moves, as in the published perft counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move {
    /// The captured pieces (board bits, see the module docs of `board`).
    pub(crate) captured: u64,
    /// Two bits per jump, first jump lowest: 0 = `+4`, 1 = `+5`, 2 = `-4`, 3 = `-5`.
    pub(crate) dirs: u32,
    /// The bit the piece starts on.
    pub(crate) from: u8,
    /// The bit the piece ends on.
    pub(crate) to: u8,
    /// The number of jumps (0 for a non-capture).
    pub(crate) jumps: u8,
}

impl Move {
    #[inline(always)]
    pub(crate) const fn simple(from: u8, to: u8) -> Move {
        Move {
            captured: 0,
            dirs: 0,
            from,
            to,
            jumps: 0,
        }
    }

    #[inline(always)]
    pub(crate) const fn jump(from: u64, to: u64, captured: u64, jumps: u8, dirs: u32) -> Move {
        Move {
            captured,
            dirs,
            from: from.trailing_zeros() as u8,
            to: to.trailing_zeros() as u8,
            jumps,
        }
    }

    /// Whether this move captures.
    #[must_use]
    pub fn is_capture(self) -> bool {
        self.jumps > 0
    }

    /// The number of pieces captured.
    #[must_use]
    pub fn captures(self) -> u32 {
        u32::from(self.jumps)
    }

    /// The start square (1..=32).
    #[must_use]
    pub fn from_square(self) -> u8 {
        square_of_bit(u32::from(self.from))
    }

    /// The final square (1..=32).
    #[must_use]
    pub fn to_square(self) -> u8 {
        square_of_bit(u32::from(self.to))
    }

    /// Every square the piece stands on, start and end included (two for a non-capture).
    pub fn squares(self) -> impl Iterator<Item = u8> {
        let mut at = 1u64 << self.from;
        let mut i = 0u8;
        let n = if self.jumps == 0 { 1 } else { self.jumps };
        std::iter::once(self.from_square()).chain(std::iter::from_fn(move || {
            if i >= n {
                return None;
            }
            at = if self.jumps == 0 {
                1u64 << self.to
            } else {
                let dir = (self.dirs >> (2 * u32::from(i))) & 3;
                step(step(at, dir), dir)
            };
            i += 1;
            Some(square_of_bit(at.trailing_zeros()))
        }))
    }

    /// The PDN text: `11-15`, or every landing square of a capture, `22x15x8`.
    #[must_use]
    pub fn notation(self) -> String {
        let sep = if self.is_capture() { 'x' } else { '-' };
        let mut out = String::new();
        for (i, sq) in self.squares().enumerate() {
            if i > 0 {
                out.push(sep);
            }
            let _ = write!(out, "{sq}");
        }
        out
    }
}

/// A move as written: its squares and whether it was written as a capture.
#[derive(Debug)]
pub(crate) struct Written {
    pub(crate) squares: Vec<u8>,
    pub(crate) capture: bool,
}

/// Reads the squares of a move text (no legality check yet).
pub(crate) fn read(text: &str) -> Result<Written, CheckersError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(CheckersError::EmptyMove);
    }
    let has_x = t.contains(['x', 'X']);
    let has_dash = t.contains('-');
    if has_x && has_dash {
        return Err(CheckersError::MixedMoveSeparators {
            text: t.to_string(),
        });
    }
    if !has_x && !has_dash {
        return Err(CheckersError::MoveWithoutSeparator {
            text: t.to_string(),
        });
    }
    let mut squares = Vec::new();
    for part in t.split(['x', 'X', '-']) {
        let part = part.trim();
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return Err(CheckersError::BadMoveSquare {
                text: t.to_string(),
                token: part.to_string(),
            });
        }
        let square = part.parse::<u32>().ok().filter(|s| (1..=32).contains(s));
        let Some(square) = square else {
            return Err(CheckersError::MoveSquareOutOfRange {
                text: t.to_string(),
                token: part.to_string(),
            });
        };
        squares.push(square as u8);
    }
    if has_dash && squares.len() != 2 {
        return Err(CheckersError::StepWithManySquares {
            text: t.to_string(),
        });
    }
    Ok(Written {
        squares,
        capture: has_x,
    })
}

/// The bit of a square number known to be in 1..=32.
pub(crate) fn bit(square: u8) -> u64 {
    1u64 << bit_of_square(square)
}
