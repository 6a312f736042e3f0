//! FEN (Forsyth-Edwards Notation) parsing with specific errors, and printing.
//!
//! Accepted: the four position fields (placement, side to move, castling, en passant) and
//! optionally the halfmove clock and fullmove number (defaults 0 and 1, as in EPD). Rejected
//! with a [`ChessError`] naming the problem: bad letters, ranks of the wrong length, missing or
//! extra kings, pawns on the back ranks, impossible piece counts, castling rights whose king or
//! rook is not at home, en-passant squares that no double push produced, the side not to move
//! being in check, and triple checks. Printing always writes all six fields; an en-passant
//! square is printed only when a pawn can capture there (see [`super::board::Board`]).

use std::fmt;

use super::bitboard::Bitboard;
use super::board::{Board, rights};
use super::color::Color;
use super::error::ChessError;
use super::piece::{Piece, Role};
use super::square::Square;

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Parses a FEN (4 to 6 fields) into a [`Board`].
///
/// # Errors
/// A [`ChessError`] naming the first problem found.
pub fn parse(text: &str) -> Result<Board, ChessError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if !(4..=6).contains(&fields.len()) {
        return Err(ChessError::FieldCount {
            found: fields.len(),
        });
    }
    let mut board = parse_placement(fields[0])?;
    check_material(&board)?;
    board.side = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => {
            return Err(ChessError::BadSideToMove {
                text: other.to_string(),
            });
        }
    };
    board.castling = parse_castling(&board, fields[2])?;
    board.ep = parse_ep(&board, fields[3])?;
    if let Some(text) = fields.get(4) {
        board.halfmove = text.parse().map_err(|_| ChessError::BadCounter {
            field: "halfmove clock",
            text: (*text).to_string(),
            range: " from 0 to 65535",
        })?;
    }
    if let Some(text) = fields.get(5) {
        board.fullmove =
            text.parse()
                .ok()
                .filter(|&n: &u16| n >= 1)
                .ok_or_else(|| ChessError::BadCounter {
                    field: "fullmove number",
                    text: (*text).to_string(),
                    range: " from 1 to 65535",
                })?;
    }
    board.finish();
    let them = !board.side;
    if board.attacked(board.king(them), board.side, board.occupied()) {
        return Err(ChessError::OpponentInCheck);
    }
    let checkers = board.checkers().count();
    if checkers > 2 {
        return Err(ChessError::TooManyCheckers { count: checkers });
    }
    Ok(board)
}

fn parse_placement(text: &str) -> Result<Board, ChessError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(ChessError::RankCount { found: ranks.len() });
    }
    let mut board = Board::empty();
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0usize;
        for ch in rank_text.chars() {
            if let Some(d) = ch.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d as usize;
            } else if let Some(piece) = Piece::from_fen_char(ch) {
                if file < 8 {
                    board.put(Square::from_coords(file as u8, rank), piece);
                }
                file += 1;
            } else {
                return Err(ChessError::BadPieceLetter { ch, rank: rank + 1 });
            }
        }
        if file != 8 {
            return Err(ChessError::RankLength {
                rank: rank + 1,
                squares: file,
            });
        }
    }
    Ok(board)
}

fn check_material(board: &Board) -> Result<(), ChessError> {
    for color in Color::ALL {
        let kings = board.pieces(color, Role::King).count();
        if kings != 1 {
            return Err(ChessError::KingCount {
                color: color_name(color),
                count: kings,
            });
        }
        let count = |role| board.pieces(color, role).count();
        let pawns = count(Role::Pawn);
        let promoted = count(Role::Knight).saturating_sub(2)
            + count(Role::Bishop).saturating_sub(2)
            + count(Role::Rook).saturating_sub(2)
            + count(Role::Queen).saturating_sub(1);
        let pieces = board.color(color).count();
        if pieces > 16 || pawns > 8 || promoted > 8 - pawns {
            return Err(ChessError::TooManyPieces {
                color: color_name(color),
                pieces,
                pawns,
            });
        }
    }
    let back_ranks = Bitboard::rank(0) | Bitboard::rank(7);
    if let Some(sq) = (board.role(Role::Pawn) & back_ranks).first() {
        return Err(ChessError::PawnOnBackRank {
            square: sq.to_string(),
        });
    }
    Ok(())
}

fn parse_castling(board: &Board, text: &str) -> Result<u8, ChessError> {
    if text == "-" {
        return Ok(0);
    }
    let bad = || ChessError::BadCastling {
        text: text.to_string(),
    };
    let mut bits = 0u8;
    for ch in text.chars() {
        let (bit, color, rook_file) = match ch {
            'K' => (rights::WHITE_KING, Color::White, 7),
            'Q' => (rights::WHITE_QUEEN, Color::White, 0),
            'k' => (rights::BLACK_KING, Color::Black, 7),
            'q' => (rights::BLACK_QUEEN, Color::Black, 0),
            _ => return Err(bad()),
        };
        if bits & bit != 0 {
            return Err(bad());
        }
        let rank = color.back_rank();
        if board.king(color) != Square::from_coords(4, rank) {
            return Err(ChessError::ImpossibleCastling {
                right: ch,
                reason: "the king is not on its home square (e1 or e8)",
            });
        }
        if !board
            .pieces(color, Role::Rook)
            .contains(Square::from_coords(rook_file, rank))
        {
            return Err(ChessError::ImpossibleCastling {
                right: ch,
                reason: "no rook of that colour on its corner square (a1, h1, a8 or h8)",
            });
        }
        bits |= bit;
    }
    Ok(bits)
}

fn parse_ep(board: &Board, text: &str) -> Result<Option<Square>, ChessError> {
    if text == "-" {
        return Ok(None);
    }
    let ep = Square::parse(text).ok_or_else(|| ChessError::BadEnPassant {
        text: text.to_string(),
    })?;
    let impossible = |reason| ChessError::ImpossibleEnPassant {
        square: text.to_string(),
        reason,
    };
    let (rank, forward, back): (u8, i8, i8) = match board.side {
        Color::White => (5, -8, 8),
        Color::Black => (2, 8, -8),
    };
    if ep.rank() != rank {
        return Err(impossible(
            "it must be on rank 6 with White to move, rank 3 with Black to move",
        ));
    }
    let pusher = !board.side;
    if !board
        .pieces(pusher, Role::Pawn)
        .contains(ep.offset(forward))
    {
        return Err(impossible(
            "no pawn of the side that just moved stands in front of it",
        ));
    }
    if board.occupied().contains(ep) || board.occupied().contains(ep.offset(back)) {
        return Err(impossible(
            "it and the square the pawn came from must be empty",
        ));
    }
    // Store it only when a pawn can take there, so that equal positions compare equal.
    Ok(board.ep_capturable(ep).then_some(ep))
}

/// Writes `board` as a six-field FEN.
///
/// # Errors
/// Only those of the formatter.
pub fn write(board: &Board, f: &mut impl fmt::Write) -> fmt::Result {
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board.piece_on(Square::from_coords(file, rank)) {
                Some(piece) => {
                    if empty > 0 {
                        write!(f, "{empty}")?;
                        empty = 0;
                    }
                    f.write_char(piece.fen_char())?;
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            write!(f, "{empty}")?;
        }
        if rank > 0 {
            f.write_char('/')?;
        }
    }
    write!(f, " {} ", board.side.fen_char())?;
    if board.castling == 0 {
        f.write_char('-')?;
    }
    for (bit, ch) in [
        (rights::WHITE_KING, 'K'),
        (rights::WHITE_QUEEN, 'Q'),
        (rights::BLACK_KING, 'k'),
        (rights::BLACK_QUEEN, 'q'),
    ] {
        if board.castling & bit != 0 {
            f.write_char(ch)?;
        }
    }
    match board.ep {
        Some(sq) => write!(f, " {sq}")?,
        None => f.write_str(" -")?,
    }
    write!(f, " {} {}", board.halfmove, board.fullmove)
}

/// The six-field FEN of `board`.
#[must_use]
pub fn to_string(board: &Board) -> String {
    let mut s = String::with_capacity(90);
    // Writing to a String cannot fail.
    let _ = write(board, &mut s);
    s
}
