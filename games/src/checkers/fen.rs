//! Positions in PDN FEN: `B:W21,22,...,32:B1,2,...,12`.
//!
//! The first field is the side to move (`B` or `W`); then one piece list per colour, in either
//! order: the colour letter and comma-separated squares, `K` before a king, ranges such as
//! `1-12` (of men, or of kings as `K1-3`). An optional last field `H<n>` gives the
//! no-progress counter (plies since the last capture or man move); it is printed only when it is
//! not zero, so ordinary positions print as standard PDN FEN.

use std::fmt;

use crate::Side;

use super::board::{BLACK_CROWN, Board, WHITE_CROWN, bit_of_square};
use super::error::CheckersError;

/// What a position text says.
pub(crate) struct Parsed {
    pub(crate) board: Board,
    pub(crate) side: Side,
    pub(crate) quiet_plies: u8,
}

const NAMES: [&str; 2] = ["Black", "White"];

/// Reads a PDN FEN position; `limit` is the largest counter value accepted.
pub(crate) fn parse(text: &str, limit: u8) -> Result<Parsed, CheckersError> {
    let text = text.trim();
    let text = text.strip_suffix('.').unwrap_or(text);
    if text.is_empty() {
        return Err(CheckersError::EmptyPosition);
    }
    let mut fields = text.split(':');
    let side = match fields.next().map(str::trim) {
        Some("B" | "b") => Side::First,
        Some("W" | "w") => Side::Second,
        other => {
            return Err(CheckersError::BadSideToMove {
                found: other.unwrap_or("").to_string(),
            });
        }
    };
    // [black, white]: pieces and kings.
    let mut lists: [Option<(u64, u64)>; 2] = [None, None];
    let mut quiet_plies = 0u8;
    for field in fields {
        let field = field.trim();
        let mut chars = field.chars();
        let colour = match chars.next() {
            Some('B' | 'b') => 0,
            Some('W' | 'w') => 1,
            Some('H' | 'h') => {
                quiet_plies = chars
                    .as_str()
                    .trim()
                    .parse::<u8>()
                    .ok()
                    .filter(|&n| n <= limit)
                    .ok_or_else(|| CheckersError::BadCounter {
                        text: field.to_string(),
                        limit,
                    })?;
                continue;
            }
            _ => {
                return Err(CheckersError::UnknownField {
                    field: field.to_string(),
                });
            }
        };
        if lists[colour].is_some() {
            return Err(CheckersError::ColourTwice {
                colour: NAMES[colour],
            });
        }
        lists[colour] = Some(piece_list(chars.as_str(), NAMES[colour])?);
    }
    let mut sides = [(0u64, 0u64); 2];
    for (colour, list) in lists.into_iter().enumerate() {
        sides[colour] = list.ok_or(CheckersError::MissingColour {
            colour: NAMES[colour],
            letter: if colour == 0 { 'B' } else { 'W' },
        })?;
    }
    let [(black, black_kings), (white, white_kings)] = sides;
    if let Some(square) = first_square(black & white) {
        return Err(CheckersError::BothColours { square });
    }
    for (colour, (pieces, kings), crown) in [
        (0, (black, black_kings), BLACK_CROWN),
        (1, (white, white_kings), WHITE_CROWN),
    ] {
        if let Some(square) = first_square(pieces & !kings & crown) {
            return Err(CheckersError::ManOnCrowningRow {
                square,
                colour: NAMES[colour],
            });
        }
        if pieces.count_ones() > 12 {
            return Err(CheckersError::TooManyPieces {
                colour: NAMES[colour],
                count: pieces.count_ones(),
            });
        }
    }
    let not_to_move = match side {
        Side::First => white,
        Side::Second => black,
    };
    if not_to_move == 0 {
        return Err(CheckersError::NoPiecesForMover {
            colour: NAMES[side.opponent().index()],
        });
    }
    Ok(Parsed {
        board: Board {
            black,
            white,
            kings: black_kings | white_kings,
        },
        side,
        quiet_plies,
    })
}

/// The lowest-numbered square of a set of bits.
fn first_square(bits: u64) -> Option<u8> {
    (1..=32).find(|&s| bits & (1 << bit_of_square(s)) != 0)
}

/// One colour's comma-separated entries: `(pieces, kings)`.
fn piece_list(list: &str, colour: &'static str) -> Result<(u64, u64), CheckersError> {
    let (mut pieces, mut kings) = (0u64, 0u64);
    if list.trim().is_empty() {
        return Ok((0, 0));
    }
    for token in list.split(',') {
        let token = token.trim();
        let (king, body) = match token.strip_prefix(['K', 'k']) {
            Some(rest) => (true, rest),
            None => (false, token),
        };
        let bad_separator = || CheckersError::BadSeparator {
            token: token.to_string(),
            colour,
        };
        if body.is_empty() {
            return Err(bad_separator());
        }
        if !body.bytes().all(|b| b.is_ascii_digit() || b == b'-') {
            // Digits with punctuation or blanks between them: a wrong separator.
            let has_digit = body.bytes().any(|b| b.is_ascii_digit());
            let only_seps = body
                .bytes()
                .all(|b| b.is_ascii_digit() || b.is_ascii_punctuation() || b == b' ');
            return Err(if has_digit && only_seps {
                bad_separator()
            } else {
                CheckersError::BadPieceEntry {
                    token: token.to_string(),
                    colour,
                }
            });
        }
        let (lo, hi) = match body.split_once('-') {
            Some((a, b)) => (a, b),
            None => (body, body),
        };
        let number = |s: &str| -> Result<u8, CheckersError> {
            let n: u64 = s.parse().map_err(|_| CheckersError::BadPieceEntry {
                token: token.to_string(),
                colour,
            })?;
            if (1..=32).contains(&n) {
                Ok(n as u8)
            } else {
                Err(CheckersError::SquareOutOfRange { square: n, colour })
            }
        };
        let (lo, hi) = (number(lo)?, number(hi)?);
        if hi < lo {
            return Err(CheckersError::BackwardRange {
                token: token.to_string(),
                colour,
            });
        }
        for square in lo..=hi {
            let bit = 1u64 << bit_of_square(square);
            if pieces & bit != 0 {
                return Err(CheckersError::SquareTwice { square, colour });
            }
            pieces |= bit;
            if king {
                kings |= bit;
            }
        }
    }
    Ok((pieces, kings))
}

/// Writes a position in PDN FEN (the format [`parse`] reads).
pub(crate) fn write(
    f: &mut fmt::Formatter<'_>,
    board: &Board,
    side: Side,
    quiet_plies: u8,
) -> fmt::Result {
    f.write_str(if side == Side::First { "B" } else { "W" })?;
    for (letter, pieces) in [('W', board.white), ('B', board.black)] {
        write!(f, ":{letter}")?;
        let mut first = true;
        for square in 1..=32u8 {
            let bit = 1u64 << bit_of_square(square);
            if pieces & bit == 0 {
                continue;
            }
            if !first {
                f.write_str(",")?;
            }
            first = false;
            if board.kings & bit != 0 {
                f.write_str("K")?;
            }
            write!(f, "{square}")?;
        }
    }
    if quiet_plies > 0 {
        write!(f, ":H{quiet_plies}")?;
    }
    Ok(())
}
