//! Move notation: UCI (`e2e4`, `e7e8q`) and SAN (`e4`, `Nbd7`, `exd6`, `O-O`, `e8=Q+`,
//! `Qxg7#`), both parsed against the legal moves of a position, and SAN printing with check
//! and mate marks.

use super::board::Board;
use super::error::ChessError;
use super::moves::Move;
use super::piece::Role;
use super::square::Square;

fn legal(board: &Board) -> Vec<Move> {
    let mut moves = Vec::with_capacity(64);
    board.legal_moves(&mut moves);
    moves
}

fn is_castling(board: &Board, mv: Move) -> bool {
    board.pieces(board.side, Role::King).contains(mv.from())
        && mv.from().file().abs_diff(mv.to().file()) == 2
}

fn is_capture(board: &Board, mv: Move) -> bool {
    board.color(!board.side).contains(mv.to())
        || (board.pieces(board.side, Role::Pawn).contains(mv.from())
            && mv.from().file() != mv.to().file())
}

/// Parses UCI text (`e2e4`, `e7e8q`) into origin, destination and promotion, without
/// checking legality; `None` unless the text has UCI form.
#[must_use]
pub fn parse_uci_form(text: &str) -> Option<(Square, Square, Option<Role>)> {
    if !text.is_ascii() || !(4..=5).contains(&text.len()) {
        return None;
    }
    let from = Square::parse(&text[0..2])?;
    let to = Square::parse(&text[2..4])?;
    match text[4..].chars().next() {
        None => Some((from, to, None)),
        Some(c) => match Role::from_char(c) {
            Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen))
                if c.is_ascii_lowercase() =>
            {
                Some((from, to, Some(r)))
            }
            _ => None,
        },
    }
}

/// Parses a UCI move and checks it is legal in `board`.
///
/// # Errors
/// [`ChessError::BadMoveText`] if it is not UCI, [`ChessError::IllegalMove`] (saying why) if
/// it is not legal here.
pub fn parse_uci(board: &Board, text: &str) -> Result<Move, ChessError> {
    let (from, to, promotion) = parse_uci_form(text).ok_or_else(|| ChessError::BadMoveText {
        text: text.to_string(),
    })?;
    if let Some(mv) = legal(board)
        .into_iter()
        .find(|m| m.from() == from && m.to() == to && m.promotion() == promotion)
    {
        return Ok(mv);
    }
    let illegal = |reason| ChessError::IllegalMove {
        text: text.to_string(),
        reason,
    };
    let ours = board.color(board.side);
    Err(if !ours.contains(from) {
        illegal("no piece of the side to move on the origin square")
    } else if board.pieces(board.side, Role::Pawn).contains(from)
        && matches!(to.rank(), 0 | 7)
        && promotion.is_none()
    {
        illegal("a pawn reaching the last rank must promote: add q, r, b or n (e7e8q)")
    } else if promotion.is_some() {
        illegal("only a pawn reaching the last rank promotes")
    } else {
        illegal(
            "that piece cannot go there (blocked, wrong pattern, or the king would be in check)",
        )
    })
}

/// The SAN of legal move `mv` in `board`, with `+` for check and `#` for mate.
#[must_use]
pub fn to_san(board: &Board, mv: Move) -> String {
    let mut s = String::with_capacity(8);
    let role = mv.role();
    if is_castling(board, mv) {
        s.push_str(if mv.to().file() == 6 { "O-O" } else { "O-O-O" });
    } else {
        let capture = is_capture(board, mv);
        if role == Role::Pawn {
            if capture {
                s.push(char::from(b'a' + mv.from().file()));
            }
        } else {
            s.push(role.upper_char());
            let rivals: Vec<Square> = legal(board)
                .into_iter()
                .filter(|m| m.to() == mv.to() && m.from() != mv.from() && m.role() == role)
                .map(Move::from)
                .collect();
            if !rivals.is_empty() {
                let file = mv.from().file();
                let rank = mv.from().rank();
                if rivals.iter().all(|r| r.file() != file) {
                    s.push(char::from(b'a' + file));
                } else if rivals.iter().all(|r| r.rank() != rank) {
                    s.push(char::from(b'1' + rank));
                } else {
                    s.push_str(&mv.from().to_string());
                }
            }
        }
        if capture {
            s.push('x');
        }
        s.push_str(&mv.to().to_string());
        if let Some(p) = mv.promotion() {
            s.push('=');
            s.push(p.upper_char());
        }
    }
    let mut after = *board;
    after.play(mv);
    if after.in_check() {
        s.push(if after.has_legal_moves() { '+' } else { '#' });
    }
    s
}

/// What a SAN text asks for.
struct SanParts {
    role: Role,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to: Square,
    promotion: Option<Role>,
}

fn split_san(text: &str) -> Option<SanParts> {
    let mut s = text.trim_end_matches(['+', '#', '!', '?']);
    let role = match s.chars().next()? {
        c @ ('N' | 'B' | 'R' | 'Q' | 'K') => {
            s = &s[1..];
            Role::from_char(c)?
        }
        _ => Role::Pawn,
    };
    let mut promotion = None;
    if role == Role::Pawn {
        if let Some(c) = s.chars().last().filter(|c| "NBRQnbrq".contains(*c)) {
            let body = &s[..s.len() - 1];
            if body.ends_with('=') || body.ends_with(|c: char| c.is_ascii_digit()) {
                promotion = Some(Role::from_char(c)?);
                s = body.trim_end_matches('=');
            }
        }
    }
    if !s.is_ascii() || s.len() < 2 {
        return None;
    }
    let to = Square::parse(&s[s.len() - 2..])?;
    let mut rest = &s[..s.len() - 2];
    if let Some(r) = rest.strip_suffix('x') {
        rest = r;
    }
    let (mut from_file, mut from_rank) = (None, None);
    for c in rest.bytes() {
        match c {
            b'a'..=b'h' if from_file.is_none() && from_rank.is_none() => {
                from_file = Some(c - b'a');
            }
            b'1'..=b'8' if from_rank.is_none() => from_rank = Some(c - b'1'),
            _ => return None,
        }
    }
    Some(SanParts {
        role,
        from_file,
        from_rank,
        to,
        promotion,
    })
}

/// Parses a SAN move (check/mate marks and `!?` annotations optional; `0-0` accepted for
/// `O-O`; `e8Q` for `e8=Q`) and resolves it to the one legal move it names.
///
/// # Errors
/// [`ChessError::BadMoveText`] if it is not SAN, [`ChessError::IllegalMove`] if no legal move
/// matches, [`ChessError::AmbiguousMove`] if several do.
pub fn parse_san(board: &Board, text: &str) -> Result<Move, ChessError> {
    let bare = text.trim_end_matches(['+', '#', '!', '?']);
    let moves = legal(board);
    let castle = match bare {
        "O-O" | "0-0" => Some(6),
        "O-O-O" | "0-0-0" => Some(2),
        _ => None,
    };
    let candidates: Vec<Move> = if let Some(file) = castle {
        moves
            .into_iter()
            .filter(|&m| is_castling(board, m) && m.to().file() == file)
            .collect()
    } else {
        let parts = split_san(text).ok_or_else(|| ChessError::BadMoveText {
            text: text.to_string(),
        })?;
        moves
            .into_iter()
            .filter(|&m| {
                m.role() == parts.role
                    && m.to() == parts.to
                    && parts.from_file.is_none_or(|f| m.from().file() == f)
                    && parts.from_rank.is_none_or(|r| m.from().rank() == r)
                    && m.promotion() == parts.promotion
                    && !(parts.role == Role::King && is_castling(board, m))
            })
            .collect()
    };
    match candidates.as_slice() {
        [mv] => Ok(*mv),
        [] => Err(ChessError::IllegalMove {
            text: text.to_string(),
            reason: "no legal move matches it",
        }),
        many => Err(ChessError::AmbiguousMove {
            text: text.to_string(),
            candidates: many
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", "),
        }),
    }
}

/// Parses a move in UCI or SAN (UCI first: no SAN move has UCI form).
///
/// # Errors
/// As [`parse_uci`] and [`parse_san`].
pub fn parse_move(board: &Board, text: &str) -> Result<Move, ChessError> {
    let text = text.trim();
    if text == "0000" {
        return Err(ChessError::IllegalMove {
            text: text.to_string(),
            reason: "the null move is not a legal move",
        });
    }
    if parse_uci_form(text).is_some() {
        parse_uci(board, text)
    } else {
        parse_san(board, text)
    }
}
