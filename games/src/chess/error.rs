//! [`ChessError`]: everything that can be wrong with a FEN, EPD or move text.

/// What is wrong with a chess position or move text, and how to fix it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChessError {
    /// The FEN has too few or too many space-separated fields.
    #[error(
        "FEN has {found} fields; write 4 to 6: placement, side (w/b), castling (KQkq or -), en passant (e3 or -), [halfmove clock, fullmove number]"
    )]
    FieldCount {
        /// Fields found.
        found: usize,
    },
    /// The placement does not have eight ranks.
    #[error("FEN placement has {found} ranks; write 8 ranks separated by '/', rank 8 first")]
    RankCount {
        /// Ranks found.
        found: usize,
    },
    /// A character that is neither a piece letter nor a digit 1-8.
    #[error(
        "bad piece letter '{ch}' on rank {rank}; use PNBRQK (White), pnbrqk (Black) or a digit 1-8 for empty squares"
    )]
    BadPieceLetter {
        /// The character.
        ch: char,
        /// The rank (1-8) it is on.
        rank: u8,
    },
    /// A rank does not describe exactly eight squares.
    #[error("rank {rank} of the FEN placement describes {squares} squares instead of 8")]
    RankLength {
        /// The rank (1-8).
        rank: u8,
        /// Squares described.
        squares: usize,
    },
    /// A side has no king or more than one.
    #[error("{color} has {count} kings; each side needs exactly one")]
    KingCount {
        /// `White` or `Black`.
        color: &'static str,
        /// Kings found.
        count: u32,
    },
    /// A pawn stands on the first or last rank.
    #[error("pawn on {square}; pawns cannot stand on the first or last rank")]
    PawnOnBackRank {
        /// The square.
        square: String,
    },
    /// More pieces than a game can have.
    #[error(
        "{color} has {pieces} pieces and {pawns} pawns; at most 16 pieces, 8 pawns, and no more promoted pieces than missing pawns"
    )]
    TooManyPieces {
        /// `White` or `Black`.
        color: &'static str,
        /// Pieces (pawns included).
        pieces: u32,
        /// Pawns.
        pawns: u32,
    },
    /// The side-to-move field is not `w` or `b`.
    #[error("side to move '{text}' must be 'w' or 'b'")]
    BadSideToMove {
        /// The field.
        text: String,
    },
    /// The castling field has a character other than `KQkq` or is not `-`.
    #[error("castling field '{text}' must be '-' or a subset of 'KQkq' in that order")]
    BadCastling {
        /// The field.
        text: String,
    },
    /// A castling right whose king or rook is not on its home square.
    #[error("castling right '{right}' is impossible: {reason}")]
    ImpossibleCastling {
        /// The letter (`K`, `Q`, `k` or `q`).
        right: char,
        /// What is missing.
        reason: &'static str,
    },
    /// The en-passant field is not a square or `-`.
    #[error("en passant field '{text}' must be '-' or a square such as e3 or d6")]
    BadEnPassant {
        /// The field.
        text: String,
    },
    /// An en-passant square that no double pawn push can have produced.
    #[error("en passant square {square} is impossible: {reason}")]
    ImpossibleEnPassant {
        /// The square.
        square: String,
        /// Why.
        reason: &'static str,
    },
    /// A move counter that is not a number in range.
    #[error("{field} '{text}' must be a whole number{range}")]
    BadCounter {
        /// `halfmove clock` or `fullmove number`.
        field: &'static str,
        /// The text.
        text: String,
        /// The allowed range, as text.
        range: &'static str,
    },
    /// The side that just moved is in check.
    #[error("the side not to move is in check; the position cannot arise (swap the side to move?)")]
    OpponentInCheck,
    /// Check by more pieces than any move can give.
    #[error(
        "the side to move is checked by {count} pieces; no move gives more than a double check"
    )]
    TooManyCheckers {
        /// Checkers found.
        count: u32,
    },
    /// An EPD line without the four position fields or with a malformed operation.
    #[error("bad EPD line: {reason}")]
    BadEpd {
        /// What is wrong.
        reason: String,
    },
    /// The move text is neither UCI nor SAN.
    #[error("bad move '{text}': write UCI (e2e4, e7e8q) or SAN (e4, Nf3, exd5, O-O, e8=Q, Qxg7+)")]
    BadMoveText {
        /// The text.
        text: String,
    },
    /// A well-formed move that is not legal in the position.
    #[error("illegal move '{text}' in this position: {reason}")]
    IllegalMove {
        /// The text.
        text: String,
        /// Why (no piece there, blocked, leaves the king in check, ...).
        reason: &'static str,
    },
    /// A SAN move that more than one legal move matches.
    #[error("ambiguous move '{text}': it matches {candidates}; add the origin file or rank")]
    AmbiguousMove {
        /// The text.
        text: String,
        /// The matching moves in UCI, comma-separated.
        candidates: String,
    },
    /// The game is over: no move may be played.
    #[error("move '{text}' cannot be played: the game is over ({reason})")]
    GameOver {
        /// The text.
        text: String,
        /// Checkmate, stalemate or which draw rule.
        reason: &'static str,
    },
}
