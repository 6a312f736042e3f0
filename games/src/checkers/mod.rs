//! English checkers (American checkers, 8x8 draughts).
//!
//! # Rules
//! Black (squares 1-12 at the start) moves first; White starts on 21-32. Men step one square
//! diagonally forward; kings one square in any diagonal direction. Captures are compulsory; a
//! capture jumps an adjacent enemy piece onto the empty square behind it and must continue while
//! the same piece can jump again, and the whole sequence is one move. Any capture sequence may be
//! chosen (not necessarily the longest). Men capture forward only, kings both ways; a piece is
//! never jumped twice, and a king may come back to its start square. A man reaching the far row
//! is crowned and its move ends there. A side with no legal move (in particular, with no pieces)
//! loses.
//!
//! **No-progress draw**: the game is drawn when [`QUIET_PLY_LIMIT`] (80) plies in a row (40
//! moves a side) have been played without a capture or a man move, i.e. by kings stepping. The
//! counter is part of the position ([`Checkers::quiet_plies`]) and of its text (`:H<n>`, printed
//! only when not zero) but not of the hash: like chess engines with the fifty-move counter, a
//! transposition table treats such positions as one. The draw is checked before anything else:
//! at the limit the game is over even if the side to move could not move.
//!
//! **Duplicate captures**: a king that can take the same pieces in two different orders has two
//! different moves (their notation differs: every landing square is written). This is what the
//! published perft counts of Aart Bik and Martin Fierz count (`testsets/perft/checkers.perft`);
//! a generator that merges them first differs at depth 12 from the start (388,617,999 instead of
//! 388,623,673).
//!
//! # Representation
//! One bitboard per colour and one of kings on a 35-bit layout with three ghost squares, where
//! every diagonal step is the same shift on the whole board (`board.rs` and `README.md` beside
//! it). Move generation is a few shifts and masks per direction; capture sequences are followed
//! bit by bit. Make/unmake is copy-make (`Undo` is the previous position, 40 bytes): restoring a
//! copy is as cheap as undoing the bit operations and needs no bookkeeping. Perft bypasses the
//! trait, copies boards without hashes and counts the last ply from popcounts and capture
//! paths without building moves.
//!
//! # Text formats
//! Positions in PDN FEN (`B:W21,...,32:B1,...,12`, `K` before kings, ranges like `1-12`,
//! optional `:H<n>` counter; details in `fen.rs`). Moves in PDN: `11-15`, and captures with
//! every landing square, `22x15x8`. Parsing also accepts a capture written by its start and end
//! square only (`22x8`, or `22-8` as older game records write captures) when exactly one
//! sequence fits.
//!
//! # Evaluation
//! Material (man 100, king 130), advancement of men, back-row guard, centre control and
//! mobility; the terms and weights are listed in `eval.rs`.

mod board;
mod error;
mod eval;
mod fen;
mod moves;
mod perft;
#[cfg(test)]
mod tests;

use std::fmt;

use serde::{Deserialize, Serialize};

pub use error::CheckersError;
pub use moves::Move;

use crate::{Game, Outcome, Side, zobrist};
use board::{Black, Board, Colour, White, bit_of_square};

/// Plies without a capture or a man move after which the game is drawn (40 moves a side).
pub const QUIET_PLY_LIMIT: u8 = 80;

/// An upper bound on the legal moves of any position. Non-captures are at most 48 (12 kings,
/// 4 steps each). Every capture is a distinct trail (no jumped square twice) in the jump graph
/// of its piece, whose landing squares form four 8-square components; summing, per component,
/// the largest total number of trails that any set of capturing pieces there can start gives
/// 4 x 72 = 288 (the unit test `max_moves_bounds_every_capture_trail` recomputes it).
pub const MAX_MOVES: usize = 288;

/// Zobrist keys: per bit of the 35-bit board, black men, white men, black kings, white kings;
/// then the key for White to move.
static KEYS: [u64; 141] = zobrist::keys(0xC4EC_4E25_D7A0_0001);
const WHITE_TO_MOVE: u64 = KEYS[140];

/// An English checkers position: pieces, side to move, no-progress counter and hash.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Checkers {
    board: Board,
    side: Side,
    /// Plies since the last capture or man move.
    quiet_plies: u8,
    hash: u64,
}

/// The key index of a piece: 0 black man, 1 white man, 2 black king, 3 white king.
fn kind(black: bool, king: bool) -> usize {
    usize::from(!black) + 2 * usize::from(king)
}

fn key(kind: usize, bit: u32) -> u64 {
    KEYS[35 * kind + bit as usize]
}

impl Checkers {
    fn new(board: Board, side: Side, quiet_plies: u8) -> Checkers {
        let mut pos = Checkers {
            board,
            side,
            quiet_plies,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        pos
    }

    /// Plies since the last capture or man move (the game is drawn at [`QUIET_PLY_LIMIT`]).
    #[must_use]
    pub fn quiet_plies(&self) -> u8 {
        self.quiet_plies
    }

    /// The pieces as square lists: `(black men, black kings, white men, white kings)`.
    #[must_use]
    pub fn pieces(&self) -> [Vec<u8>; 4] {
        let b = &self.board;
        let list = |bits: u64| -> Vec<u8> {
            (1..=32)
                .filter(|&s| bits & (1 << bit_of_square(s)) != 0)
                .collect()
        };
        [
            list(b.black & !b.kings),
            list(b.black & b.kings),
            list(b.white & !b.kings),
            list(b.white & b.kings),
        ]
    }

    fn black_to_move(&self) -> bool {
        self.side == Side::First
    }

    fn colour_name(&self) -> &'static str {
        if self.black_to_move() {
            "Black"
        } else {
            "White"
        }
    }

    fn drawn(&self) -> bool {
        self.quiet_plies >= QUIET_PLY_LIMIT
    }

    fn must_capture(&self) -> bool {
        if self.black_to_move() {
            self.board.must_capture::<Black>()
        } else {
            self.board.must_capture::<White>()
        }
    }

    fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(MAX_MOVES);
        self.generate_moves(&mut moves);
        moves
    }

    fn make<C: Colour>(&mut self, mv: Move) {
        let b = &self.board;
        let from = u32::from(mv.from);
        let king = b.kings & (1 << from) != 0;
        let after = b.after::<C>(mv);
        let crowned = after.kings & (1 << mv.to) != 0;
        let mut h = self.hash ^ WHITE_TO_MOVE;
        h ^= key(kind(C::BLACK, king), from) ^ key(kind(C::BLACK, crowned), u32::from(mv.to));
        let mut captured = mv.captured;
        while captured != 0 {
            let bit = captured.trailing_zeros();
            captured &= captured - 1;
            h ^= key(kind(!C::BLACK, b.kings & (1 << bit) != 0), bit);
        }
        self.quiet_plies = if king && mv.jumps == 0 {
            self.quiet_plies.saturating_add(1)
        } else {
            0
        };
        self.board = after;
        self.side = self.side.opponent();
        self.hash = h;
    }
}

impl Game for Checkers {
    type Move = Move;
    type Undo = Checkers;
    type Error = CheckersError;
    const MAX_MOVES: usize = MAX_MOVES;

    fn start() -> Self {
        Checkers::new(Board::START, Side::First, 0)
    }

    fn parse_position(text: &str) -> Result<Self, CheckersError> {
        let p = fen::parse(text, QUIET_PLY_LIMIT)?;
        Ok(Checkers::new(p.board, p.side, p.quiet_plies))
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.drawn() {
            return;
        }
        if self.black_to_move() {
            self.board.for_each_move::<Black, _>(|m| moves.push(m));
        } else {
            self.board.for_each_move::<White, _>(|m| moves.push(m));
        }
    }

    fn make_move(&mut self, mv: Move) -> Checkers {
        let undo = *self;
        if self.black_to_move() {
            self.make::<Black>(mv);
        } else {
            self.make::<White>(mv);
        }
        undo
    }

    fn unmake_move(&mut self, _mv: Move, undo: Checkers) {
        *self = undo;
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.drawn() {
            return Some(Outcome::Draw);
        }
        let can_move = if self.black_to_move() {
            self.board.has_moves::<Black>()
        } else {
            self.board.has_moves::<White>()
        };
        (!can_move).then_some(Outcome::Loss)
    }

    fn evaluate(&self) -> i32 {
        eval::evaluate(&self.board, self.black_to_move())
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn compute_hash(&self) -> u64 {
        let b = &self.board;
        let mut h = if self.black_to_move() {
            0
        } else {
            WHITE_TO_MOVE
        };
        for (black, pieces) in [(true, b.black), (false, b.white)] {
            let mut bits = pieces;
            while bits != 0 {
                let bit = bits.trailing_zeros();
                bits &= bits - 1;
                h ^= key(kind(black, b.kings & (1 << bit) != 0), bit);
            }
        }
        h
    }

    fn parse_move(&self, text: &str) -> Result<Move, CheckersError> {
        let written = moves::read(text)?;
        let text = text.trim().to_string();
        if self.outcome().is_some() {
            return Err(CheckersError::GameOver { text });
        }
        let from = written.squares[0];
        let own = if self.black_to_move() {
            self.board.black
        } else {
            self.board.white
        };
        if own & moves::bit(from) == 0 {
            return Err(CheckersError::NotYourPiece {
                text,
                square: from,
                colour: self.colour_name(),
            });
        }
        let legal = self.legal_moves();
        let capturing = self.must_capture();
        let notations = |ms: &mut dyn Iterator<Item = &Move>| -> String {
            ms.map(|m| m.notation()).collect::<Vec<_>>().join(", ")
        };
        if !written.capture {
            let (a, b) = (written.squares[0], written.squares[1]);
            if capturing {
                // Older game records write captures with '-' too ("6-15"): accept one that
                // names the start and end of exactly one capture sequence.
                let fits: Vec<&Move> = legal
                    .iter()
                    .filter(|m| m.from_square() == a && m.to_square() == b)
                    .collect();
                return match fits.len() {
                    0 => Err(CheckersError::CaptureCompulsory {
                        text,
                        example: legal[0].notation(),
                    }),
                    1 => Ok(*fits[0]),
                    _ => Err(CheckersError::AmbiguousCapture {
                        text,
                        options: notations(&mut fits.into_iter()),
                    }),
                };
            }
            return legal
                .iter()
                .copied()
                .find(|m| m.from_square() == a && m.to_square() == b)
                .ok_or_else(|| CheckersError::IllegalMove {
                    text,
                    legal: notations(&mut legal.iter()),
                });
        }
        if !capturing {
            return Err(CheckersError::NoCapture {
                text,
                colour: self.colour_name(),
            });
        }
        let paths: Vec<Vec<u8>> = legal.iter().map(|m| m.squares().collect()).collect();
        if let Some(i) = paths.iter().position(|p| *p == written.squares) {
            return Ok(legal[i]);
        }
        if let [a, b] = written.squares[..] {
            let fits: Vec<&Move> = legal
                .iter()
                .filter(|m| m.from_square() == a && m.to_square() == b)
                .collect();
            match fits.len() {
                0 => {}
                1 => return Ok(*fits[0]),
                _ => {
                    return Err(CheckersError::AmbiguousCapture {
                        text,
                        options: notations(&mut fits.into_iter()),
                    });
                }
            }
        }
        if let Some(i) = paths.iter().position(|p| p.starts_with(&written.squares)) {
            return Err(CheckersError::IncompleteCapture {
                text,
                example: legal[i].notation(),
            });
        }
        Err(CheckersError::IllegalMove {
            text,
            legal: notations(&mut legal.iter()),
        })
    }

    fn format_move(&self, mv: Move) -> String {
        mv.notation()
    }

    fn move_hint(&self, mv: Move) -> i32 {
        if self.black_to_move() {
            eval::move_hint::<Black>(&self.board, mv)
        } else {
            eval::move_hint::<White>(&self.board, mv)
        }
    }

    fn generate_tactical(&self, moves: &mut Vec<Move>) -> bool {
        if !self.drawn() && self.must_capture() {
            self.generate_moves(moves);
            false
        } else {
            moves.clear();
            true
        }
    }

    fn perft(&mut self, depth: u32) -> u64 {
        // The fast path ignores the no-progress rule, which cannot end the game at any node
        // above the leaves when the counter has at least `depth` plies to go.
        if u32::from(self.quiet_plies) + depth <= u32::from(QUIET_PLY_LIMIT) {
            if self.black_to_move() {
                perft::perft::<Black>(&self.board, depth)
            } else {
                perft::perft::<White>(&self.board, depth)
            }
        } else {
            crate::perft::generic_perft(self, depth)
        }
    }
}

impl fmt::Display for Checkers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fen::write(f, &self.board, self.side, self.quiet_plies)
    }
}

impl fmt::Debug for Checkers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Checkers({self})")
    }
}
