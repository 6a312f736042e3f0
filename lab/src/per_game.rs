//! What lab's commands choose for each game, in one table: the test set whose positions
//! calibration and `validate-sim` time, the depth `validate-sim --quick` searches, the positions and
//! depth of the strength page's time to depth, the outside protocols a match may use for it and
//! the form of its game records. [`of`] matches every [`GameId`], so a game added
//! to the registry does not build until it has its row here; a test checks that every test set
//! named is a built-in one.

use games::GameId;

/// The settings of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerGame {
    /// The built-in test set calibration measures node costs on and `validate-sim` times
    /// (`None`: the start position).
    pub testset: Option<&'static str>,
    /// `runner validate-sim --quick`'s depth (milliseconds a run; without `--quick` the
    /// depth is chosen by time, `--min-seconds`).
    pub validation_depth_quick: u32,
    /// Time to depth on the strength page (`None`: not measured for the game).
    pub time_to_depth: Option<TimeToDepth>,
    /// Whether outside UCI engines play it (positions as FEN, moves in UCI notation).
    pub uci: bool,
    /// The board size outside GTP engines are told (`boardsize N`; moves are GTP vertices,
    /// `pass` included); `None`: no GTP.
    pub gtp_board: Option<u32>,
    /// How `runner play --pgn` writes its games.
    pub record: RecordFormat,
}

/// The form of a game's records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordFormat {
    /// PGN, moves in SAN (chess).
    Pgn,
    /// PDN 3.0: PGN-style tags and numbered moves in the game's notation (checkers).
    Pdn,
    /// The Othello transcript: the moves from the start position run together (`f5d6c3`),
    /// passes left out.
    Transcript,
    /// The start position in the game's text format and the moves in its notation.
    Plain,
}

/// The time-to-depth measurement of a game on the strength page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeToDepth {
    /// The built-in test set.
    pub testset: &'static str,
    /// Its first positions searched.
    pub positions: usize,
    /// The depth on real threads.
    pub depth: u32,
    /// The depth on the simulator, which runs a processor at a fraction of the machine's
    /// speed.
    pub sim_depth: u32,
}

impl TimeToDepth {
    /// The depth on the simulator or on threads.
    #[must_use]
    pub fn depth(&self, simulated: bool) -> u32 {
        if simulated {
            self.sim_depth
        } else {
            self.depth
        }
    }
}

/// The settings of `game`.
#[must_use]
pub fn of(game: GameId) -> PerGame {
    let plain = PerGame {
        testset: None,
        validation_depth_quick: 3,
        time_to_depth: None,
        uci: false,
        gtp_board: None,
        record: RecordFormat::Plain,
    };
    match game {
        GameId::TicTacToe3 => plain,
        GameId::Othello6 => PerGame {
            gtp_board: Some(6),
            record: RecordFormat::Transcript,
            ..plain
        },
        GameId::TicTacToe4 => PerGame {
            testset: Some("tictactoe4"),
            validation_depth_quick: 5,
            ..plain
        },
        GameId::Othello8 => PerGame {
            testset: Some("othello_midgame"),
            time_to_depth: Some(TimeToDepth {
                testset: "othello_midgame",
                positions: 6,
                depth: 13,
                sim_depth: 11,
            }),
            gtp_board: Some(8),
            record: RecordFormat::Transcript,
            ..plain
        },
        GameId::Checkers => PerGame {
            testset: Some("checkers"),
            validation_depth_quick: 6,
            time_to_depth: Some(TimeToDepth {
                testset: "checkers",
                positions: 8,
                depth: 19,
                sim_depth: 15,
            }),
            record: RecordFormat::Pdn,
            ..plain
        },
        GameId::Chess => PerGame {
            testset: Some("bratko_kopec"),
            time_to_depth: Some(TimeToDepth {
                testset: "bratko_kopec",
                positions: 8,
                depth: 10,
                sim_depth: 8,
            }),
            uci: true,
            record: RecordFormat::Pgn,
            ..plain
        },
        GameId::Synthetic => PerGame {
            testset: Some("synthetic"),
            ..plain
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testset::TestSet;

    #[test]
    fn every_test_set_named_is_built_in_and_holds_the_positions_asked_for() {
        for &game in GameId::ALL {
            let row = of(game);
            if let Some(name) = row.testset {
                assert!(TestSet::built_in(name).is_some(), "{}: {name}", game.name());
            }
            if let Some(t) = row.time_to_depth {
                let Some(TestSet::BuiltIn { text, .. }) = TestSet::built_in(t.testset) else {
                    panic!("{}: {}", game.name(), t.testset);
                };
                let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
                assert!(lines >= t.positions, "{}: {lines} lines", game.name());
                assert!(t.sim_depth <= t.depth);
            }
            assert!(row.validation_depth_quick > 0);
        }
    }
}
