//! Chess: complete rules, a fast legal move generator, FEN/EPD, UCI and SAN, an evaluation.
//!
//! # Layout
//! | module | what |
//! | --- | --- |
//! | [`square`], [`color`], [`piece`], [`bitboard`] | typed squares, colours, pieces, square sets |
//! | [`attacks`], `magic` | attack tables (`static`s built by `const fn`; sliders by fancy magic bitboards, see `README.md`) |
//! | [`board`] | the rules state and how a move changes it (incremental Zobrist hash) |
//! | `movegen` | legal move generation (all moves, or captures and promotions for quiescence), bulk counting |
//! | [`position`], `history` | [`Chess`], the `Game` type: board plus the repetition history |
//! | [`fen`], [`san`], [`epd`] | text: FEN, UCI and SAN moves, EPD records |
//! | [`eval`] | the static evaluation and its documented terms |
//! | [`see`] | static exchange evaluation (the play search's capture ordering and pruning) |
//! | [`perft`] | fast perft (copy-make, bulk counting) |
//!
//! # Rules
//! Castling, en passant, all four promotions, check, checkmate (the side to move loses),
//! stalemate, the 50-move rule (halfmove clock at 100), threefold repetition and insufficient
//! material (no pawns, rooks or queens, and at most one minor piece or only same-coloured
//! bishops) are all implemented. Draws by rule are decided when they can be claimed: the
//! position is then terminal (`outcome` is a draw and there are no moves), as the `Game` trait
//! requires, so `Game::perft` stops there too; [`perft::perft`] counts the bare move tree as
//! published tables do. The two agree on every published position and depth.
//!
//! # Moves
//! A [`Move`] is 16 bits (origin, destination, promotion), exactly what UCI writes. The
//! `Game` move format is UCI (`e2e4`, `e7e8q`, castling as the king's move `e1g1`);
//! `parse_move` also accepts SAN. [`san::to_san`] prints SAN with `+`/`#`.
//!
//! # Make/unmake
//! [`Chess`] is a [`Board`] (80 bytes, `Copy`) plus a ring of the last 128 position hashes
//! (1 KiB). `make_move` returns the old board as the undo token and pushes one hash;
//! `unmake_move` copies the board back and pops. This copy-make of the board behind the
//! make/unmake interface was chosen by benchmark (the `make` group of
//! `games/benches/chess.rs`, figures in `README.md`) over both alternatives: copying the whole
//! position (which drags the 1 KiB history along) and an incremental unmake with a 16-byte
//! token ([`Board::unplay`], kept for the comparison), whose reversed bit operations cost more
//! instructions and branch mispredictions than two 80-byte copies.
//!
//! # Null move
//! [`Move::NULL`] passes the turn (offered only when not in check). It resets the halfmove
//! clock, so repetition detection never looks across it.

pub mod attacks;
pub mod bitboard;
pub mod board;
pub mod color;
pub mod epd;
pub mod error;
pub mod eval;
pub mod fen;
mod game;
mod history;
mod magic;
mod movegen;
pub mod moves;
pub mod perft;
pub mod piece;
pub mod position;
pub mod san;
pub mod see;
pub mod square;
mod zobrist;

pub use bitboard::Bitboard;
pub use board::{Board, Undo};
pub use color::Color;
pub use error::ChessError;
pub use moves::{Move, MoveList};
pub use piece::{Piece, Role};
pub use position::{Chess, DrawRule};
pub use square::Square;

#[cfg(test)]
mod tests;
