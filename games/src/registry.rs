//! The list of built-in games, and dispatch from a game's name to code generic over [`Game`].
//!
//! Binaries (the `runner`) take a game name from the user; library code is generic over
//! [`Game`]. [`GameId::visit`] bridges the two: it calls a [`GameVisitor`]'s generic method with
//! the concrete type, so no caller ever matches on a concrete game.

use std::fmt;
use std::str::FromStr;

use crate::Game;

/// What the user sees of a game: its name and text formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameInfo {
    /// The name used on the command line.
    pub name: &'static str,
    /// One line describing the game and its variant.
    pub description: &'static str,
    /// How positions are written (the format `--position` reads).
    pub position_format: &'static str,
    /// How moves are written.
    pub move_format: &'static str,
    /// Conventions worth knowing when reading results (e.g. the perft game-over rule).
    pub notes: &'static str,
}

/// Code that runs on any game: [`GameId::visit`] calls [`GameVisitor::visit`] with the
/// concrete game type chosen at run time.
pub trait GameVisitor {
    /// What the visit produces.
    type Output;
    /// Runs on game `G`.
    fn visit<G: Game>(self, info: &'static GameInfo) -> Self::Output;
}

macro_rules! games {
    ($( $id:ident => $ty:ty, $info:expr; )*) => {
        /// A built-in game (with its variant).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum GameId {
            $(
                #[doc = concat!("`", stringify!($ty), "`")]
                $id,
            )*
        }

        impl GameId {
            /// Every built-in game, in the order `runner list` shows them.
            pub const ALL: &'static [GameId] = &[$(GameId::$id),*];

            /// Name, description and formats.
            #[must_use]
            pub fn info(self) -> &'static GameInfo {
                match self {
                    $(GameId::$id => {
                        static INFO: GameInfo = $info;
                        &INFO
                    })*
                }
            }

            /// Runs `visitor` on the concrete type of this game.
            pub fn visit<V: GameVisitor>(self, visitor: V) -> V::Output {
                match self {
                    $(GameId::$id => visitor.visit::<$ty>(self.info()),)*
                }
            }
        }
    };
}

games! {
    TicTacToe3 => crate::tictactoe::TicTacToe3, GameInfo {
        name: "tictactoe3",
        description: "tic-tac-toe on 3x3, three in a row",
        position_format: "9 cells row by row from a1 (a1 b1 c1 a2 ...): X, O or -; '/' between rows allowed; X moves first, the side to move follows from the counts",
        move_format: "a cell such as b2 (column letter, row number)",
        notes: "perft counts move sequences of exactly d plies; won games stop",
    };
    TicTacToe4 => crate::tictactoe::TicTacToe4, GameInfo {
        name: "tictactoe4",
        description: "tic-tac-toe on 4x4, four in a row (the board of the DIB paper)",
        position_format: "16 cells row by row from a1: X, O or -; '/' between rows allowed",
        move_format: "a cell such as c3",
        notes: "perft counts move sequences of exactly d plies; won games stop",
    };
    Othello8 => crate::othello::Othello8, GameInfo {
        name: "othello",
        description: "Othello (Reversi) on 8x8 from the standard centre start, black (X) first",
        position_format: "64 cells row by row from a1 (a1 b1 ... h1 a2 ...): X black, O white, - empty; then a space and the side to move, X or O",
        move_format: "a square such as d3 (file letter, rank number), or pass",
        notes: "perft counts move sequences of exactly d plies; a pass is a ply (legal only when the mover has no move and the opponent has one); finished games count 0 (convention B: Edax; Bik's table counts them and differs from depth 10)",
    };
    Othello6 => crate::othello::Othello6, GameInfo {
        name: "othello6",
        description: "Othello (Reversi) on 6x6 from the standard centre start, black (X) first",
        position_format: "36 cells row by row from a1 (a1 b1 ... f1 a2 ...): X black, O white, - empty; then a space and the side to move, X or O",
        move_format: "a square such as c2 (file letter, rank number), or pass",
        notes: "perft counts move sequences of exactly d plies; a pass is a ply (legal only when the mover has no move and the opponent has one); finished games count 0",
    };
    Checkers => crate::checkers::Checkers, GameInfo {
        name: "checkers",
        description: "English checkers / American checkers (8x8 draughts): compulsory captures, kings one square, Black moves first",
        position_format: "PDN FEN: side to move, then each colour's squares 1-32 (K before kings, ranges like 1-12), e.g. B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12; optional :H<n> plies without capture or man move",
        move_format: "PDN: 11-15 for a step, 22x15x8 for captures with every landing square (22x8 accepted when only one sequence fits)",
        notes: "capture sequences taking the same pieces in another order are distinct moves (as in the published perft counts); drawn after 80 plies without a capture or man move",
    };
    Chess => crate::chess::Chess, GameInfo {
        name: "chess",
        description: "chess (FIDE rules: castling, en passant, promotions, 50-move rule, threefold repetition, insufficient material)",
        position_format: "FEN with 4 to 6 fields, e.g. 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'",
        move_format: "printed in UCI (e2e4, e7e8q, castling e1g1); read in UCI or SAN (e4, Nf3, O-O, e8=Q+)",
        notes: "perft counts move sequences of exactly d plies; checkmate, stalemate and draws by rule (50 moves, threefold repetition, insufficient material) end the game, which published depths never reach",
    };
    Synthetic => crate::synthetic::Synthetic, GameInfo {
        name: "synthetic",
        description: "artificial game trees: branching, depth and ordering quality under control, exact values known",
        position_format: "'b=8 d=8 q=0.9 noise=50 seed=1 path=0.3.1' (branching or range 2-8, depth 1-32, probability the first child is best, evaluation noise, seed, path from the root); missing keys take these defaults",
        move_format: "a child index such as 0 (the first child)",
        notes: "leaves end the game with their value; perft counts paths of exactly d plies",
    };
}

impl GameId {
    /// The built-in game whose type is `G`, if any (library code generic over [`Game`] finds
    /// its game's name this way, e.g. to pick a game's own costs).
    #[must_use]
    pub fn of<G: Game>() -> Option<GameId> {
        struct Same<G>(std::marker::PhantomData<G>);
        impl<G: Game> GameVisitor for Same<G> {
            type Output = bool;
            fn visit<H: Game>(self, _: &'static GameInfo) -> bool {
                std::any::TypeId::of::<G>() == std::any::TypeId::of::<H>()
            }
        }
        GameId::ALL
            .iter()
            .copied()
            .find(|id| id.visit(Same::<G>(std::marker::PhantomData)))
    }

    /// The game's command-line name.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Every game name, comma-separated.
    #[must_use]
    pub fn names() -> String {
        GameId::ALL
            .iter()
            .map(|g| g.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl FromStr for GameId {
    type Err = crate::UnknownName;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        GameId::ALL
            .iter()
            .copied()
            .find(|g| g.name() == name)
            .ok_or_else(|| crate::UnknownName {
                what: "game",
                given: name.to_string(),
                valid: GameId::names().into(),
            })
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_type_finds_its_registry_entry() {
        for &id in GameId::ALL {
            struct Of;
            impl GameVisitor for Of {
                type Output = Option<GameId>;
                fn visit<G: Game>(self, _: &'static GameInfo) -> Option<GameId> {
                    GameId::of::<G>()
                }
            }
            assert_eq!(id.visit(Of), Some(id));
        }
    }

    #[test]
    fn names_round_trip_and_unknown_names_list_the_known_ones() {
        for &g in GameId::ALL {
            assert_eq!(g.name().parse::<GameId>(), Ok(g));
        }
        let err = "tictactoe5".parse::<GameId>().unwrap_err();
        assert!(err.to_string().contains("tictactoe3"), "{err}");
    }
}
