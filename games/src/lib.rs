//! Game modules behind one [`Game`] trait.
//!
//! Every search and parallel control module of this workspace is generic over [`Game`]; a game
//! author implements it once (see `games/README.md`) and gets every algorithm, backend and
//! experiment. The built-in games are listed by [`GameId`]:
//!
//! | name | module | what |
//! | --- | --- | --- |
//! | `tictactoe3`, `tictactoe4` | [`tictactoe`] | m x n boards, k in a row |
//! | `othello`, `othello6` | [`othello`] | Othello on 8x8 and 6x6 bitboards, endgame solver |
//! | `checkers` | [`checkers`] | English checkers (8x8 draughts) on bitboards |
//! | `chess` | [`chess`] | chess, complete rules, magic-bitboard legal move generator |
//! | `synthetic` | [`synthetic`] | artificial trees with controlled branching and ordering |
//!
//! Scores follow [`score`]: evaluations from the side to move inside `±score::MAX_EVAL`, wins
//! and losses outside it, preferring faster wins.
#![forbid(unsafe_code)]

pub mod checkers;
pub mod chess;
pub mod endgame;
mod game;
mod lcg;
pub mod othello;
pub mod perft;
pub mod probcut;
pub mod registry;
pub mod replay;
pub mod score;
pub mod synthetic;
pub mod tictactoe;
pub mod zobrist;

pub use game::{Game, Outcome, Side};
pub use lcg::Lcg;
pub use names::UnknownName;
pub use registry::{GameId, GameInfo, GameVisitor};
