//! Othello (Reversi) on bitboards: [`Othello8`] (8x8, `othello`) and [`Othello6`] (6x6,
//! `othello6`), plus an exact endgame solver ([`endgame`]).
//!
//! # Rules
//! Black (`X`, [`Side::First`]) moves first from the standard centre start (8x8: white on d4
//! and e5, black on e4 and d5; 6x6: white on c3 and d4, black on d3 and c4). A move places a
//! disc that outflanks at least one line of opponent discs, which turn. **Passes are moves**:
//! a pass uses one ply and is legal only when the side to move has no move but the opponent
//! has one. The game is over when neither side can move; the [`Outcome`] is then Win, Loss or
//! Draw for the side to move by disc count.
//!
//! # Text formats
//! A position is the `N*N` cells row by row from a1 (a1 b1 ... h1 a2 ... h8), each `X`
//! (black), `O` (white) or `-` (empty), then one space and the side to move, `X` or `O`.
//! [`Display`](fmt::Display) prints exactly this, and [`Game::parse_position`] reads it (any
//! whitespace between the two fields). The four centre squares must be occupied (they always
//! are in a game). The 8x8 start is
//! `---------------------------OX------XO--------------------------- X`.
//! Moves are a square, file letter then rank number (`d3`), or `pass`.
//!
//! # Representation and make/unmake
//! Two bitboards, the side to move's discs and the opponent's (bit `row * 8 + col` for both
//! sizes; the 6x6 board is the lower-left corner of the 8x8 grid), the side to move, and the
//! Zobrist hash: 32 bytes. Legal moves come from Kogge-Stone-style parallel fills in the eight
//! directions; the discs a move flips from one precomputed ray per direction and a lowest- or
//! highest-set-bit trick (`bitboard.rs`). The hash is updated per placed and flipped disc.
//!
//! Make/unmake versus copy-make was decided by the criterion bench `games/benches/othello.rs`
//! (group `make`):
//!
#![doc = include_str!("make_choice.md")]
//!
//!
//! # Perft
//! [`Game::perft`] is specialised: it recurses on the two bitboards without hash or move
//! list and counts the last ply in bulk (a popcount). Convention: sequences of exactly `d`
//! plies, a pass is a ply, finished games count 0 (convention B of the shared perft data, as
//! in Edax; it first differs from Aart Bik's published table at depth 10). From the 8x8 start
//! this gives 24,571,056 at depth 10 and 212,258,216 at depth 11 (Bik: 24,571,284 and
//! 212,258,800), checked against the `othello` crate driven by the same loop
//! (`tests/it/othello_crate.rs`).
//!
//! Speed (depth 11 from the start, 2-core machine shared with other builds, three runs each,
//! alternating): `runner perft --game othello --depth 11` 177-187 M leaves/s (1.14-1.20 s);
//! the `othello` crate 0.1.2 under the same bulk-counting loop
//! (`cargo run --release -p games --example othello_perft_rate -- 11`) 58.8-59.1 M leaves/s,
//! i.e. about 3.1x. On a quieter moment the example gave 363-375 against 116-121 M leaves/s.
//! The criterion bench (`cargo bench -p games --bench othello -- perft`, depth 9, both
//! asserting 3,005,288) gave medians of 9.9 / 14.8 / 14.5 / 9.2 ms for ours against
//! 27.5 / 58.4 / 35.1 / 30.6 ms for the crate in four runs (2.4-4x; 330 against 98 M
//! leaves/s in the last).
//!
//! # Evaluation
//! Mobility, potential mobility (frontier), corners, X- and C-squares next to empty corners,
//! and disc parity late in the game; `eval.rs` lists the weights and why.

mod bitboard;
pub mod endgame;
mod error;
mod eval;
mod perft;
mod zobrist;

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::probcut::ProbCut;
use crate::{Game, Outcome, Side};
use bitboard::{Geometry, flips, moves};

/// 8x8 Othello's ProbCut model: Buro's check height and shallow depth for Logistello (8 and 4)
/// and his cut threshold (1.5 deviations), with the regression of this evaluation's 8-ply on
/// 4-ply values over 1,000 positions of 26-44 random plies
/// (`cargo run --release -p control --example probcut_fit -- 8 4 1000 3`: slope 1.0923,
/// offset 0.09, residual deviation 39.26, correlation 0.976). One model for every stage of the
/// game (Buro fitted one per stage); the 6x6 board has none.
pub const OTHELLO8_PROBCUT: ProbCut = ProbCut {
    height: 8,
    shallow: 4,
    slope: 1.0923,
    offset: 0.09,
    sigma: 39.26,
    threshold: 1.5,
};

pub use error::OthelloError;

/// 8x8 Othello (`othello`).
pub type Othello8 = Othello<8>;
/// 6x6 Othello (`othello6`).
pub type Othello6 = Othello<6>;

/// An Othello position on an `N` x `N` board (`N` is 6 or 8).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Othello<const N: usize> {
    /// Discs of the side to move (grid bits `row * 8 + col`).
    player: u64,
    /// Discs of the other side.
    opponent: u64,
    /// The side to move.
    side: Side,
    /// Zobrist hash (see the `zobrist` submodule).
    hash: u64,
}

/// A move: a square (`row * 8 + col`) or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move(u8);

impl Move {
    /// The pass.
    pub const PASS: Move = Move(64);

    /// The move to `square` = `row * 8 + col` (row 0 is rank 1, col 0 is file a).
    ///
    /// # Panics
    /// If `square >= 64`.
    #[must_use]
    pub const fn square(square: usize) -> Move {
        assert!(square < 64, "square index out of range");
        Move(square as u8)
    }

    /// Whether this is the pass.
    #[must_use]
    pub const fn is_pass(self) -> bool {
        self.0 == 64
    }

    /// The square index, `None` for the pass.
    #[must_use]
    pub const fn to_square(self) -> Option<usize> {
        if self.is_pass() {
            None
        } else {
            Some(self.0 as usize)
        }
    }
}

/// What [`Game::make_move`] returns: the previous position (copy-make, see the module docs).
pub type OthelloUndo<const N: usize> = Othello<N>;

/// The token of [`Othello::make_small`]: the flipped discs and the previous hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmallUndo {
    flipped: u64,
    hash: u64,
}

/// The name of square index `sq` (`row * 8 + col`), like `d3`.
fn square_name(sq: usize) -> String {
    format!("{}{}", char::from(b'a' + (sq % 8) as u8), sq / 8 + 1)
}

impl<const N: usize> Othello<N> {
    /// The position from the black and white discs and the side to move, without checks.
    fn from_colours(black: u64, white: u64, side: Side) -> Self {
        let white_to_move = side == Side::Second;
        let (player, opponent) = if white_to_move {
            (white, black)
        } else {
            (black, white)
        };
        Othello {
            player,
            opponent,
            side,
            hash: zobrist::compute(black, white, white_to_move),
        }
    }

    /// Black's and white's discs.
    #[must_use]
    pub fn colours(&self) -> (u64, u64) {
        match self.side {
            Side::First => (self.player, self.opponent),
            Side::Second => (self.opponent, self.player),
        }
    }

    /// The side to move's discs and the opponent's (grid bits `row * 8 + col`).
    #[must_use]
    pub fn bitboards(&self) -> (u64, u64) {
        (self.player, self.opponent)
    }

    /// The legal square moves of the side to move as a bitboard (no passes).
    #[must_use]
    pub fn legal_squares(&self) -> u64 {
        moves::<N>(self.player, self.opponent)
    }

    /// The empty squares.
    #[must_use]
    pub fn empties(&self) -> u64 {
        Geometry::<N>::VALID & !(self.player | self.opponent)
    }

    /// Whether neither side can move.
    #[must_use]
    pub fn is_over(&self) -> bool {
        moves::<N>(self.player, self.opponent) == 0 && moves::<N>(self.opponent, self.player) == 0
    }

    /// The position after the legal move `mv` (copy-make).
    #[must_use]
    #[inline]
    pub fn played(&self, mv: Move) -> Self {
        let mut next = *self;
        next.play_in_place(mv);
        next
    }

    #[inline]
    fn play_in_place(&mut self, mv: Move) {
        let white_moves = self.side == Side::Second;
        let mut hash = self.hash ^ zobrist::WHITE_TO_MOVE;
        if let Some(sq) = mv.to_square() {
            let f = flips::<N>(self.player, self.opponent, sq);
            debug_assert!(f != 0, "illegal move {} in {self}", square_name(sq));
            let bit = 1u64 << sq;
            hash ^= zobrist::disc_key(white_moves, sq);
            let mut rest = f;
            while rest != 0 {
                hash ^= zobrist::flip_key(rest.trailing_zeros() as usize);
                rest &= rest - 1;
            }
            let player = self.player ^ f ^ bit;
            self.player = self.opponent ^ f;
            self.opponent = player;
        } else {
            std::mem::swap(&mut self.player, &mut self.opponent);
        }
        self.side = self.side.opponent();
        self.hash = hash;
    }

    /// Make/unmake with a small token instead of copy-make: plays `mv` and returns what
    /// [`Othello::unmake_small`] needs. Kept beside the chosen copy-make so that the `make`
    /// benchmark can compare the two (see the module docs).
    #[inline]
    pub fn make_small(&mut self, mv: Move) -> SmallUndo {
        let token = SmallUndo {
            flipped: mv
                .to_square()
                .map_or(0, |sq| flips::<N>(self.player, self.opponent, sq)),
            hash: self.hash,
        };
        self.play_in_place(mv);
        token
    }

    /// Takes back `mv`, the last move made with [`Othello::make_small`].
    #[inline]
    pub fn unmake_small(&mut self, mv: Move, token: SmallUndo) {
        if let Some(sq) = mv.to_square() {
            let f = token.flipped;
            let player = self.opponent ^ f ^ (1u64 << sq);
            self.opponent = self.player ^ f;
            self.player = player;
        } else {
            std::mem::swap(&mut self.player, &mut self.opponent);
        }
        self.side = self.side.opponent();
        self.hash = token.hash;
    }

    fn legal_list(&self) -> String {
        let mut v = Vec::new();
        self.generate_moves(&mut v);
        v.iter()
            .map(|&m| self.format_move(m))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn final_outcome(&self) -> Outcome {
        let (mine, theirs) = (self.player.count_ones(), self.opponent.count_ones());
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => Outcome::Win,
            std::cmp::Ordering::Less => Outcome::Loss,
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }
}

impl<const N: usize> Game for Othello<N> {
    type Move = Move;
    type Undo = OthelloUndo<N>;
    type Error = OthelloError;
    const MAX_MOVES: usize = N * N;

    fn start() -> Self {
        let h = N / 2;
        let bit = |row: usize, col: usize| 1u64 << (row * 8 + col);
        let white = bit(h - 1, h - 1) | bit(h, h);
        let black = bit(h - 1, h) | bit(h, h - 1);
        let _ = Geometry::<N>::VALID;
        Self::from_colours(black, white, Side::First)
    }

    fn parse_position(text: &str) -> Result<Self, OthelloError> {
        let cells = N * N;
        let fields: Vec<&str> = text.split_whitespace().collect();
        let (board, side) = match fields.as_slice() {
            [] => return Err(OthelloError::EmptyPosition { cells }),
            [only] => {
                return Err(OthelloError::MissingSide {
                    text: (*only).to_string(),
                    cells,
                });
            }
            [board, side] => (*board, *side),
            more => {
                return Err(OthelloError::TooManyFields {
                    fields: more.len(),
                    cells,
                });
            }
        };
        let found = board.chars().count();
        if found != cells {
            return Err(OthelloError::WrongLength {
                expected: cells,
                found,
                size: N,
            });
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (index, ch) in board.chars().enumerate() {
            let sq = (index / N) * 8 + index % N;
            match ch {
                'X' => black |= 1 << sq,
                'O' => white |= 1 << sq,
                '-' => {}
                _ => {
                    return Err(OthelloError::BadCell {
                        ch,
                        index,
                        square: square_name(sq),
                    });
                }
            }
        }
        let side = match side {
            "X" => Side::First,
            "O" => Side::Second,
            _ => {
                return Err(OthelloError::BadSide {
                    text: side.to_string(),
                });
            }
        };
        let h = N / 2;
        for sq in [(h - 1) * 9, (h - 1) * 9 + 1, h * 9 - 1, h * 9] {
            if (black | white) & (1 << sq) == 0 {
                return Err(OthelloError::EmptyCentre {
                    square: square_name(sq),
                });
            }
        }
        Ok(Self::from_colours(black, white, side))
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    #[inline]
    fn generate_moves(&self, list: &mut Vec<Move>) {
        list.clear();
        let mut m = moves::<N>(self.player, self.opponent);
        if m == 0 {
            if moves::<N>(self.opponent, self.player) != 0 {
                list.push(Move::PASS);
            }
            return;
        }
        while m != 0 {
            list.push(Move(m.trailing_zeros() as u8));
            m &= m - 1;
        }
    }

    #[inline]
    fn make_move(&mut self, mv: Move) -> OthelloUndo<N> {
        let before = *self;
        self.play_in_place(mv);
        before
    }

    #[inline]
    fn unmake_move(&mut self, _mv: Move, undo: OthelloUndo<N>) {
        *self = undo;
    }

    fn outcome(&self) -> Option<Outcome> {
        self.is_over().then(|| self.final_outcome())
    }

    fn evaluate(&self) -> i32 {
        eval::evaluate::<N>(self.player, self.opponent)
    }

    fn probcut(&self) -> Option<ProbCut> {
        (N == 8).then_some(OTHELLO8_PROBCUT)
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn compute_hash(&self) -> u64 {
        let (black, white) = self.colours();
        zobrist::compute(black, white, self.side == Side::Second)
    }

    fn parse_move(&self, text: &str) -> Result<Move, OthelloError> {
        let t = text.trim();
        let own = || t.to_string();
        if t.eq_ignore_ascii_case("pass") {
            if self.is_over() {
                return Err(OthelloError::GameOver { text: own() });
            }
            if self.legal_squares() != 0 {
                return Err(OthelloError::PassWithMoves {
                    legal: self.legal_list(),
                });
            }
            return Ok(Move::PASS);
        }
        let bad = || OthelloError::BadMove { text: own() };
        let mut chars = t.chars();
        let file = chars
            .next()
            .filter(char::is_ascii_alphabetic)
            .ok_or_else(bad)?;
        let rank = chars.as_str();
        if rank.is_empty() || !rank.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let rank: usize = rank.parse().map_err(|_| bad())?;
        let col = usize::from(file.to_ascii_lowercase() as u8 - b'a');
        if col >= N || rank == 0 || rank > N {
            return Err(OthelloError::OffBoard {
                text: own(),
                size: N,
                last_file: char::from(b'a' + (N - 1) as u8),
            });
        }
        let sq = (rank - 1) * 8 + col;
        if self.is_over() {
            return Err(OthelloError::GameOver { text: own() });
        }
        if (self.player | self.opponent) & (1 << sq) != 0 {
            return Err(OthelloError::Occupied { text: own() });
        }
        if self.legal_squares() == 0 {
            return Err(OthelloError::MustPass { text: own() });
        }
        if flips::<N>(self.player, self.opponent, sq) == 0 {
            return Err(OthelloError::NoFlips {
                text: own(),
                legal: self.legal_list(),
            });
        }
        Ok(Move(sq as u8))
    }

    fn format_move(&self, mv: Move) -> String {
        mv.to_square()
            .map_or_else(|| "pass".to_string(), square_name)
    }

    #[inline]
    fn move_hint(&self, mv: Move) -> i32 {
        mv.to_square().map_or(0, eval::square_weight::<N>)
    }

    fn evaluate_trained(&self) -> i32 {
        endgame::evaluate(self)
    }

    fn hint_is_static(&self) -> bool {
        true
    }

    fn endgame_solver() -> Option<Box<dyn crate::endgame::EndgameSolver<Self>>> {
        Some(Box::new(endgame::Solver::<N>::for_play()))
    }

    fn perft(&mut self, depth: u32) -> u64 {
        perft::perft::<N>(self.player, self.opponent, depth)
    }
}

impl<const N: usize> fmt::Display for Othello<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (black, white) = self.colours();
        for row in 0..N {
            for col in 0..N {
                let bit = 1u64 << (row * 8 + col);
                let ch = if black & bit != 0 {
                    'X'
                } else if white & bit != 0 {
                    'O'
                } else {
                    '-'
                };
                write!(f, "{ch}")?;
            }
        }
        let side = if self.side == Side::First { 'X' } else { 'O' };
        write!(f, " {side}")
    }
}

impl<const N: usize> fmt::Debug for Othello<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Othello<{N}>({self})")
    }
}

#[cfg(test)]
mod tests;
