//! [`Chess`]: a full game position, the [`Board`] plus the hashes of the earlier positions
//! that threefold repetition needs.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::board::Board;
use super::error::ChessError;
use super::fen;
use super::history::History;
use super::moves::Move;

/// Why a game is drawn by rule (stalemate aside).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawRule {
    /// 100 half-moves without a capture or pawn move.
    FiftyMoves,
    /// The same position (pieces, side to move, castling rights, en-passant square) for the
    /// third time, counted through the hash history.
    ThreefoldRepetition,
    /// Neither side has the material to checkmate.
    InsufficientMaterial,
}

impl DrawRule {
    /// A short description.
    #[must_use]
    pub const fn describe(self) -> &'static str {
        match self {
            DrawRule::FiftyMoves => "draw by the 50-move rule",
            DrawRule::ThreefoldRepetition => "draw by threefold repetition",
            DrawRule::InsufficientMaterial => "draw by insufficient material",
        }
    }
}

/// A chess position as the `Game` trait sees it: the rules state ([`Board`]) and the hashes of
/// up to 128 earlier positions of the game (for threefold repetition).
///
/// Equality compares the board (pieces, side to move, castling rights, en-passant square and
/// both move counters), not the history: a FEN cannot carry the history, so a position parsed
/// from its own `Display` text is equal to it but has forgotten earlier positions. Serde keeps
/// the history: positions travel as `{"fen": ..., "history": [...]}` with the hashes since the
/// last irreversible move, so a repetition spanning a message is still seen.
#[derive(Clone, Serialize, Deserialize)]
#[serde(into = "Wire", try_from = "Wire")]
pub struct Chess {
    pub(crate) board: Board,
    pub(crate) history: History,
}

impl Chess {
    /// The initial position.
    #[must_use]
    pub fn new() -> Chess {
        Chess::from_board(Board::start())
    }

    /// A position with `board` and no history.
    #[must_use]
    pub fn from_board(board: Board) -> Chess {
        Chess {
            board,
            history: History::new(),
        }
    }

    /// Parses a FEN (4 to 6 fields).
    ///
    /// # Errors
    /// A [`ChessError`] naming what is wrong.
    pub fn from_fen(text: &str) -> Result<Chess, ChessError> {
        fen::parse(text).map(Chess::from_board)
    }

    /// The rules state.
    #[must_use]
    pub const fn board(&self) -> &Board {
        &self.board
    }

    /// Plays a legal move, remembering the position it leaves for repetition detection.
    #[inline]
    pub fn play(&mut self, mv: Move) {
        self.history.push(self.board.hash);
        self.board.play(mv);
    }

    /// Plays `mv` keeping the whole board as the undo token (what `Game::make_move` does).
    #[inline]
    pub fn make_copying(&mut self, mv: Move) -> Board {
        let undo = self.board;
        self.play(mv);
        undo
    }

    /// Plays `mv` returning a 16-byte token for the incremental [`Chess::unmake_incremental`]
    /// (the alternative the `make` benchmark compares against copying the board).
    pub fn make_incremental(&mut self, mv: Move) -> super::board::Undo {
        self.history.push(self.board.hash);
        self.board.play_with_undo(mv)
    }

    /// Takes back a move made with [`Chess::make_incremental`].
    pub fn unmake_incremental(&mut self, mv: Move, undo: super::board::Undo) {
        self.board.unplay(mv, undo);
        self.history.pop();
    }

    /// Takes back a move made with [`Chess::make_copying`].
    #[inline]
    pub fn unmake_copying(&mut self, undo: Board) {
        self.board = undo;
        self.history.pop();
    }

    /// The draw rule that ends the game here, if any (checked in the order 50-move rule,
    /// insufficient material, repetition; checkmate and stalemate are not draw rules).
    #[must_use]
    pub fn draw_rule(&self) -> Option<DrawRule> {
        draw_rule(&self.board, &self.history)
    }
}

/// The draw rule ending the game at `board` with earlier positions `history`.
#[inline]
pub(crate) fn draw_rule(board: &Board, history: &History) -> Option<DrawRule> {
    if board.halfmove >= 100 {
        Some(DrawRule::FiftyMoves)
    } else if board.insufficient_material() {
        Some(DrawRule::InsufficientMaterial)
    } else if board.halfmove >= 4 && history.is_threefold(board.hash, board.halfmove) {
        Some(DrawRule::ThreefoldRepetition)
    } else {
        None
    }
}

impl Default for Chess {
    fn default() -> Self {
        Chess::new()
    }
}

impl PartialEq for Chess {
    fn eq(&self, other: &Chess) -> bool {
        self.board == other.board
    }
}

impl Eq for Chess {}

impl fmt::Display for Chess {
    /// The six-field FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fen::write(&self.board, f)
    }
}

impl fmt::Debug for Chess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Chess({self})")
    }
}

/// How [`Chess`] is serialized: its FEN and the hashes of the positions since the last
/// irreversible move, oldest first.
#[derive(Serialize, Deserialize)]
struct Wire {
    fen: String,
    history: Vec<u64>,
}

impl From<Chess> for Wire {
    fn from(pos: Chess) -> Wire {
        Wire {
            fen: pos.to_string(),
            history: pos.history.recent(usize::from(pos.board.halfmove)),
        }
    }
}

impl TryFrom<Wire> for Chess {
    type Error = ChessError;

    fn try_from(wire: Wire) -> Result<Chess, ChessError> {
        let mut pos = Chess::from_fen(&wire.fen)?;
        let skip = wire.history.len().saturating_sub(History::CAPACITY);
        for &h in &wire.history[skip..] {
            pos.history.push(h);
        }
        Ok(pos)
    }
}
