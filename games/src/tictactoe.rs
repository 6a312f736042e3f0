//! Tic-tac-toe on a `W` x `H` board with `K` in a row to win ("m,n,k-games").
//!
//! The built-in variants are [`TicTacToe3`] (3x3, three in a row) and [`TicTacToe4`] (4x4, four
//! in a row: the board of the DIB paper, Rezaie & Finkel). X moves first.
//!
//! # Representation
//! Two bitboards (X's and O's cells) on a grid `W + 1` bits wide: cell `(row, col)` is bit
//! `row * (W + 1) + col`, and the extra column stays empty so that shifting a board by 1 (along a
//! row), `W + 1` (up a column), `W + 2` and `W` (the two diagonals) never wraps from one row to
//! the next. "K in a row" is then `K - 1` shift-and-AND steps per direction. Make/unmake flips
//! one bit and two hash keys (`Undo = ()`); the side to move follows from the piece counts.
//!
//! # Evaluation
//! Every window of `K` cells in a line that the opponent has not entered is worth `4^n` to the
//! player, where `n` is how many of its cells the player already holds; the evaluation is the
//! side to move's total minus the opponent's. This prefers centre cells (more windows) and
//! threats (nearly full windows), and it is zero on the empty board.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::zobrist;
use crate::{Game, Outcome, Side};

/// 3x3 tic-tac-toe, three in a row (`tictactoe3`).
pub type TicTacToe3 = TicTacToe<3, 3, 3>;
/// 4x4 tic-tac-toe, four in a row (`tictactoe4`), the board of the DIB paper.
pub type TicTacToe4 = TicTacToe<4, 4, 4>;

/// A tic-tac-toe position on a `W` x `H` board where `K` in a row wins.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TicTacToe<const W: usize, const H: usize, const K: usize> {
    /// X's cells (grid bits, see the module docs).
    x: u64,
    /// O's cells.
    o: u64,
    /// Zobrist hash of the position.
    hash: u64,
}

/// A move: the cell to fill, as its grid bit index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Cell(u8);

/// What can be wrong with a tic-tac-toe position or move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TicTacToeError {
    /// The position text has the wrong number of cells.
    #[error(
        "position has {found} cells but a {width}x{height} board needs {expected} (X, O or - per cell, row by row from a1)"
    )]
    WrongLength {
        /// Cells the board has.
        expected: usize,
        /// Cells the text gave.
        found: usize,
        /// Board width.
        width: usize,
        /// Board height.
        height: usize,
    },
    /// A character that is not a cell.
    #[error("bad cell '{ch}' at cell {index} of the position; use X, O or - (or .)")]
    BadCell {
        /// The character.
        ch: char,
        /// Its cell index (0-based, counting cells only).
        index: usize,
    },
    /// Piece counts that no game reaches (X moves first, players alternate).
    #[error(
        "impossible piece counts: {x} X and {o} O (X moves first, so X has as many as O or one more)"
    )]
    ImpossibleCounts {
        /// X pieces.
        x: u32,
        /// O pieces.
        o: u32,
    },
    /// Both players have a line.
    #[error("both X and O have {k} in a row; a game stops at the first line")]
    BothWon {
        /// Line length.
        k: usize,
    },
    /// A player has a line but the other player moved afterwards.
    #[error("{winner} has {k} in a row but the counts say the game went on after it")]
    PlayedAfterWin {
        /// `X` or `O`.
        winner: char,
        /// Line length.
        k: usize,
    },
    /// The move text is not a cell name.
    #[error("bad move '{text}': write a cell as a column letter and row number, like b2")]
    BadMove {
        /// The text given.
        text: String,
    },
    /// The cell is outside the board.
    #[error("move '{text}' is off the {width}x{height} board")]
    OffBoard {
        /// The text given.
        text: String,
        /// Board width.
        width: usize,
        /// Board height.
        height: usize,
    },
    /// The cell is taken.
    #[error("illegal move '{text}': that cell is already occupied")]
    Occupied {
        /// The text given.
        text: String,
    },
    /// The game is over.
    #[error("illegal move '{text}': the game is already over")]
    GameOver {
        /// The text given.
        text: String,
    },
}

/// Zobrist keys: 64 per player, then the side-to-move key.
static KEYS: [u64; 129] = zobrist::keys(0x7EC7_AC70_E000_0001);
const SIDE_KEY: u64 = KEYS[128];

impl<const W: usize, const H: usize, const K: usize> TicTacToe<W, H, K> {
    const STRIDE: usize = W + 1;
    /// Grid bits that are real cells.
    const VALID: u64 = {
        assert!(W >= 1 && H >= 1 && K >= 1 && (K <= W || K <= H) && H * (W + 1) <= 64);
        assert!(W <= 26 && H <= 99);
        let mut mask = 0u64;
        let mut r = 0;
        while r < H {
            let mut c = 0;
            while c < W {
                mask |= 1 << (r * (W + 1) + c);
                c += 1;
            }
            r += 1;
        }
        mask
    };
    /// The four line directions as shifts: along a row, up a column, and both diagonals.
    const DIRECTIONS: [u32; 4] = [1, (W + 1) as u32, (W + 2) as u32, W as u32];

    fn bit(row: usize, col: usize) -> u64 {
        1 << (row * Self::STRIDE + col)
    }

    fn mover(self) -> Side {
        if self.x.count_ones() == self.o.count_ones() {
            Side::First
        } else {
            Side::Second
        }
    }

    fn bits_of(&self, side: Side) -> u64 {
        match side {
            Side::First => self.x,
            Side::Second => self.o,
        }
    }

    /// Start cells of every window of `K` cells in direction `shift` that lie inside `free`.
    fn windows(free: u64, shift: u32) -> u64 {
        let mut m = free;
        for _ in 1..K {
            m &= m >> shift;
        }
        m
    }

    fn has_line(bits: u64) -> bool {
        Self::DIRECTIONS
            .iter()
            .any(|&s| Self::windows(bits, s) != 0)
    }

    /// The window of `K` cells starting at bit `start` in direction `shift`.
    fn window_mask(start: u32, shift: u32) -> u64 {
        (0..K as u32).fold(0, |m, i| m | 1 << (start + i * shift))
    }

    fn potential(own: u64, opponent: u64) -> i32 {
        let free = Self::VALID & !opponent;
        let mut total = 0i32;
        for &shift in &Self::DIRECTIONS {
            let mut starts = Self::windows(free, shift);
            while starts != 0 {
                let start = starts.trailing_zeros();
                starts &= starts - 1;
                let n = (Self::window_mask(start, shift) & own).count_ones();
                total += 1 << (2 * n.min(10));
            }
        }
        total
    }

    fn compute_hash_of(x: u64, o: u64) -> u64 {
        let mut h = 0;
        for (p, mut bits) in [x, o].into_iter().enumerate() {
            while bits != 0 {
                h ^= KEYS[64 * p + bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
        }
        if x.count_ones() != o.count_ones() {
            h ^= SIDE_KEY;
        }
        h
    }

    fn cell_name(cell: Cell) -> String {
        let idx = usize::from(cell.0);
        let (row, col) = (idx / Self::STRIDE, idx % Self::STRIDE);
        format!("{}{}", char::from(b'a' + col as u8), row + 1)
    }

    fn parse_cell(text: &str) -> Result<Cell, TicTacToeError> {
        let bad = || TicTacToeError::BadMove {
            text: text.to_string(),
        };
        let mut chars = text.trim().chars();
        let col = chars
            .next()
            .filter(char::is_ascii_alphabetic)
            .ok_or_else(bad)?;
        let row: usize = chars.as_str().parse().map_err(|_| bad())?;
        let col = usize::from(col.to_ascii_lowercase() as u8 - b'a');
        if col >= W || row == 0 || row > H {
            return Err(TicTacToeError::OffBoard {
                text: text.to_string(),
                width: W,
                height: H,
            });
        }
        Ok(Cell(((row - 1) * Self::STRIDE + col) as u8))
    }
}

impl<const W: usize, const H: usize, const K: usize> Game for TicTacToe<W, H, K> {
    type Move = Cell;
    type Undo = ();
    type Error = TicTacToeError;
    const MAX_MOVES: usize = W * H;

    fn start() -> Self {
        // Touch VALID so that the board-size assertions run at compile time.
        let _ = Self::VALID;
        TicTacToe {
            x: 0,
            o: 0,
            hash: 0,
        }
    }

    fn parse_position(text: &str) -> Result<Self, TicTacToeError> {
        let cells: Vec<char> = text
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '/')
            .collect();
        if cells.len() != W * H {
            return Err(TicTacToeError::WrongLength {
                expected: W * H,
                found: cells.len(),
                width: W,
                height: H,
            });
        }
        let (mut x, mut o) = (0u64, 0u64);
        for (index, &ch) in cells.iter().enumerate() {
            let bit = Self::bit(index / W, index % W);
            match ch {
                'X' | 'x' => x |= bit,
                'O' | 'o' => o |= bit,
                '-' | '.' => {}
                _ => return Err(TicTacToeError::BadCell { ch, index }),
            }
        }
        let (nx, no) = (x.count_ones(), o.count_ones());
        if nx != no && nx != no + 1 {
            return Err(TicTacToeError::ImpossibleCounts { x: nx, o: no });
        }
        match (Self::has_line(x), Self::has_line(o)) {
            (true, true) => return Err(TicTacToeError::BothWon { k: K }),
            (true, false) if nx == no => {
                return Err(TicTacToeError::PlayedAfterWin { winner: 'X', k: K });
            }
            (false, true) if nx != no => {
                return Err(TicTacToeError::PlayedAfterWin { winner: 'O', k: K });
            }
            _ => {}
        }
        Ok(TicTacToe {
            x,
            o,
            hash: Self::compute_hash_of(x, o),
        })
    }

    fn side_to_move(&self) -> Side {
        self.mover()
    }

    fn generate_moves(&self, moves: &mut Vec<Cell>) {
        moves.clear();
        if self.outcome().is_some() {
            return;
        }
        let mut empty = Self::VALID & !(self.x | self.o);
        while empty != 0 {
            moves.push(Cell(empty.trailing_zeros() as u8));
            empty &= empty - 1;
        }
    }

    fn make_move(&mut self, mv: Cell) {
        let bit = 1u64 << mv.0;
        debug_assert!(Self::VALID & bit != 0 && (self.x | self.o) & bit == 0);
        let side = self.mover();
        match side {
            Side::First => self.x |= bit,
            Side::Second => self.o |= bit,
        }
        self.hash ^= KEYS[64 * side.index() + usize::from(mv.0)] ^ SIDE_KEY;
    }

    fn unmake_move(&mut self, mv: Cell, (): ()) {
        let bit = 1u64 << mv.0;
        let side = self.mover().opponent();
        match side {
            Side::First => self.x &= !bit,
            Side::Second => self.o &= !bit,
        }
        self.hash ^= KEYS[64 * side.index() + usize::from(mv.0)] ^ SIDE_KEY;
    }

    fn outcome(&self) -> Option<Outcome> {
        let last_mover = self.mover().opponent();
        if Self::has_line(self.bits_of(last_mover)) {
            Some(Outcome::Loss)
        } else if (self.x | self.o) == Self::VALID {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn evaluate(&self) -> i32 {
        let side = self.mover();
        let (own, opp) = (self.bits_of(side), self.bits_of(side.opponent()));
        Self::potential(own, opp) - Self::potential(opp, own)
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn compute_hash(&self) -> u64 {
        Self::compute_hash_of(self.x, self.o)
    }

    fn parse_move(&self, text: &str) -> Result<Cell, TicTacToeError> {
        let cell = Self::parse_cell(text)?;
        if self.outcome().is_some() {
            return Err(TicTacToeError::GameOver {
                text: text.to_string(),
            });
        }
        if (self.x | self.o) & (1 << cell.0) != 0 {
            return Err(TicTacToeError::Occupied {
                text: text.to_string(),
            });
        }
        Ok(cell)
    }

    fn format_move(&self, mv: Cell) -> String {
        Self::cell_name(mv)
    }

    fn move_hint(&self, mv: Cell) -> i32 {
        // Cells on more lines first: count the windows through the cell.
        let bit = 1u64 << mv.0;
        Self::DIRECTIONS
            .iter()
            .map(|&shift| {
                let mut starts = Self::windows(Self::VALID, shift);
                let mut n = 0;
                while starts != 0 {
                    let start = starts.trailing_zeros();
                    starts &= starts - 1;
                    n += i32::from(Self::window_mask(start, shift) & bit != 0);
                }
                n
            })
            .sum()
    }
}

impl<const W: usize, const H: usize, const K: usize> fmt::Display for TicTacToe<W, H, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..H {
            if row > 0 {
                f.write_str("/")?;
            }
            for col in 0..W {
                let bit = Self::bit(row, col);
                let ch = if self.x & bit != 0 {
                    'X'
                } else if self.o & bit != 0 {
                    'O'
                } else {
                    '-'
                };
                write!(f, "{ch}")?;
            }
        }
        Ok(())
    }
}

impl<const W: usize, const H: usize, const K: usize> fmt::Debug for TicTacToe<W, H, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TicTacToe<{W},{H},{K}>({self})")
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::perft::divide;

    type T3 = TicTacToe3;
    type T4 = TicTacToe4;

    /// Counts complete games by result and collects every reachable position.
    fn explore(pos: &mut T3, seen: &mut HashSet<T3>, results: &mut [u64; 3]) {
        seen.insert(*pos);
        match pos.outcome() {
            // The side to move lost: the previous player (X if O is to move) won.
            Some(Outcome::Loss) => {
                results[usize::from(pos.side_to_move() == Side::First)] += 1;
            }
            Some(_) => results[2] += 1,
            None => {
                let mut moves = Vec::new();
                pos.generate_moves(&mut moves);
                for mv in moves {
                    pos.make_move(mv);
                    explore(pos, seen, results);
                    pos.unmake_move(mv, ());
                }
            }
        }
    }

    #[test]
    fn three_by_three_game_counts_match_published_figures() {
        let mut seen = HashSet::new();
        let mut results = [0u64; 3];
        explore(&mut T3::start(), &mut seen, &mut results);
        // [X wins, O wins, draws]
        assert_eq!(results, [131_184, 77_904, 46_080]);
        assert_eq!(results.iter().sum::<u64>(), 255_168);
        assert_eq!(seen.len(), 5_478);
        let terminal = seen.iter().filter(|p| p.outcome().is_some()).count();
        assert_eq!(terminal, 958);
    }

    #[test]
    fn evaluation_is_zero_on_empty_and_favours_the_centre() {
        assert_eq!(T3::start().evaluate(), 0);
        let mut centre = T3::start();
        centre.make_move(centre.parse_move("b2").unwrap());
        let mut corner = T3::start();
        corner.make_move(corner.parse_move("a1").unwrap());
        // O to move in both: X's centre is worse for O than X's corner.
        assert!(centre.evaluate() < corner.evaluate());
        let c = T3::start();
        assert!(
            c.move_hint(c.parse_move("b2").unwrap()) > c.move_hint(c.parse_move("a2").unwrap())
        );
    }

    #[test]
    fn outcomes_and_wins() {
        let p = T3::parse_position("XXX/OO-/---").unwrap();
        assert_eq!(p.outcome(), Some(Outcome::Loss));
        assert_eq!(p.side_to_move(), Side::Second);
        let mut v = Vec::new();
        p.generate_moves(&mut v);
        assert!(v.is_empty());
        let d = T3::parse_position("XOX/XOO/OXX").unwrap();
        assert_eq!(d.outcome(), Some(Outcome::Draw));
        let diag = T4::parse_position("X---/OX--/O-X-/O--X").unwrap();
        assert_eq!(diag.outcome(), Some(Outcome::Loss));
        let anti = T4::parse_position("---X/OOX-/-X--/X--O").unwrap();
        assert_eq!(anti.outcome(), Some(Outcome::Loss));
        // Three in a row does not win on the 4x4 board.
        let three = T4::parse_position("XXX-/OOO-/----/----").unwrap();
        assert_eq!(three.outcome(), None);
    }

    #[test]
    fn divide_sums_to_perft() {
        let p = T4::start();
        let d = divide(&p, 4);
        assert_eq!(d.len(), 16);
        assert_eq!(d.iter().map(|(_, n)| n).sum::<u64>(), p.clone().perft(4));
    }

    #[test]
    fn malformed_positions_and_moves_give_specific_errors() {
        use TicTacToeError as E;
        type Case = (&'static str, fn(&E) -> bool);
        let cases: [Case; 6] = [
            ("XX-/---/--", |e| {
                matches!(e, E::WrongLength { found: 8, .. })
            }),
            ("XX-/---/----", |e| {
                matches!(e, E::WrongLength { found: 10, .. })
            }),
            ("XQ-/---/---", |e| {
                matches!(e, E::BadCell { ch: 'Q', index: 1 })
            }),
            ("XXX/---/---", |e| {
                matches!(e, E::ImpossibleCounts { x: 3, o: 0 })
            }),
            ("OO-/---/---", |e| {
                matches!(e, E::ImpossibleCounts { x: 0, o: 2 })
            }),
            ("XXX/OOO/X-O", |e| matches!(e, E::BothWon { .. })),
        ];
        for (text, check) in cases {
            let err = T3::parse_position(text).unwrap_err();
            assert!(check(&err), "{text}: {err:?}");
        }
        assert!(matches!(
            T3::parse_position("XXX/OO-/O--").unwrap_err(),
            E::PlayedAfterWin { winner: 'X', .. }
        ));
        assert!(matches!(
            T3::parse_position("XX-/OOO/X-X").unwrap_err(),
            E::PlayedAfterWin { winner: 'O', .. }
        ));
        let p = T3::parse_position("X--/---/---").unwrap();
        let move_cases: [Case; 6] = [
            ("", |e| matches!(e, E::BadMove { .. })),
            ("22", |e| matches!(e, E::BadMove { .. })),
            ("b", |e| matches!(e, E::BadMove { .. })),
            ("d1", |e| matches!(e, E::OffBoard { .. })),
            ("a0", |e| matches!(e, E::OffBoard { .. })),
            ("a1", |e| matches!(e, E::Occupied { .. })),
        ];
        for (text, check) in move_cases {
            let err = p.parse_move(text).unwrap_err();
            assert!(check(&err), "{text}: {err:?}");
        }
        let over = T3::parse_position("XXX/OO-/---").unwrap();
        assert!(matches!(over.parse_move("c3"), Err(E::GameOver { .. })));
    }

    #[test]
    fn text_and_serde_round_trips() {
        let p = T4::parse_position("XO--/-X--/--O-/----").unwrap();
        assert_eq!(p.to_string(), "XO--/-X--/--O-/----");
        assert_eq!(T4::parse_position(&p.to_string()).unwrap(), p);
        let json = serde_json::to_string(&p).unwrap();
        assert_eq!(serde_json::from_str::<T4>(&json).unwrap(), p);
        let mut moves = Vec::new();
        p.generate_moves(&mut moves);
        for mv in moves {
            assert_eq!(p.parse_move(&p.format_move(mv)).unwrap(), mv);
        }
    }
}
