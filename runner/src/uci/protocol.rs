//! Reading the GUI's commands: one line of text into a [`Command`], or a [`ProtocolError`] that
//! says what is wrong (the engine answers it with an `info string`, never a crash).
//!
//! As the UCI description asks, unknown words in front of a command are skipped
//! (`joho debug on` reads as `debug on`), and unknown words inside `go` are skipped with a note.

use std::time::Duration;

/// A command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list the options.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`: answer `readyok`.
    IsReady,
    /// `setoption name <id> [value <x>]`.
    SetOption {
        /// The option's name (may contain spaces).
        name: String,
        /// Its value (absent for buttons).
        value: Option<String>,
    },
    /// `register ...` (nothing to register; accepted and ignored).
    Register,
    /// `ucinewgame`: the next position belongs to a new game.
    UciNewGame,
    /// `position startpos|fen <fen> [moves m1 m2 ...]`.
    Position {
        /// The FEN, or `None` for the start position.
        fen: Option<String>,
        /// The moves played from it, as written.
        moves: Vec<String>,
    },
    /// `go ...`.
    Go(GoParams),
    /// `stop`: end the search and answer `bestmove`.
    Stop,
    /// `ponderhit` (pondering is not offered; accepted with a note).
    PonderHit,
    /// `quit`.
    Quit,
    /// `bench [depth]`: search fixed positions to a fixed depth and print the node count.
    Bench(Option<u32>),
    /// `d`: print the board, its FEN and its hash.
    Display,
}

/// The parameters of `go`. Absent ones do not apply.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `wtime`: White's clock (negative values read as zero).
    pub wtime: Option<Duration>,
    /// `btime`: Black's clock.
    pub btime: Option<Duration>,
    /// `winc`: White's increment per move.
    pub winc: Option<Duration>,
    /// `binc`: Black's increment per move.
    pub binc: Option<Duration>,
    /// `movestogo`: moves until the next time control.
    pub movestogo: Option<u32>,
    /// `depth`: plies.
    pub depth: Option<u32>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `mate N`: search for a mate in N moves (at most 2N - 1 plies).
    pub mate: Option<u32>,
    /// `movetime`: exactly this long.
    pub movetime: Option<Duration>,
    /// `infinite`: until `stop`.
    pub infinite: bool,
    /// `ponder`: think on the opponent's time (treated like `infinite`).
    pub ponder: bool,
    /// `searchmoves ...`: not supported; kept to say so.
    pub searchmoves: Vec<String>,
    /// Words that were not understood (reported, otherwise ignored).
    pub ignored: Vec<String>,
}

/// What is wrong with a line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// No known command word in the line.
    #[error(
        "unknown command '{0}'; the commands are uci, debug, isready, setoption, register, ucinewgame, position, go, stop, ponderhit, quit, bench, d"
    )]
    Unknown(String),
    /// A command lacks a part it needs.
    #[error("'{command}' needs {what}")]
    Missing {
        /// The command.
        command: &'static str,
        /// What is missing, and the form it takes.
        what: &'static str,
    },
    /// A number that is not one.
    #[error("'{field}' needs a whole number, got '{text}'")]
    BadNumber {
        /// The parameter.
        field: &'static str,
        /// What was given.
        text: String,
    },
}

/// Parses one line. `Ok(None)` for a blank line.
///
/// # Errors
/// [`ProtocolError`] naming the unknown command, the missing part or the bad number.
pub fn parse(line: &str) -> Result<Option<Command>, ProtocolError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.is_empty() {
        return Ok(None);
    }
    for (i, word) in words.iter().enumerate() {
        let rest = &words[i + 1..];
        let command = match *word {
            "uci" => Command::Uci,
            "debug" => Command::Debug(rest.first() != Some(&"off")),
            "isready" => Command::IsReady,
            "setoption" => parse_setoption(rest)?,
            "register" => Command::Register,
            "ucinewgame" => Command::UciNewGame,
            "position" => parse_position(rest)?,
            "go" => Command::Go(parse_go(rest)?),
            "stop" => Command::Stop,
            "ponderhit" => Command::PonderHit,
            "quit" => Command::Quit,
            "bench" => Command::Bench(match rest.first() {
                Some(_) => Some(number("bench", rest.first())?),
                None => None,
            }),
            "d" => Command::Display,
            _ => continue,
        };
        return Ok(Some(command));
    }
    Err(ProtocolError::Unknown(line.trim().to_string()))
}

fn parse_setoption(words: &[&str]) -> Result<Command, ProtocolError> {
    const MISSING: ProtocolError = ProtocolError::Missing {
        command: "setoption",
        what: "'name <id> [value <x>]'",
    };
    if words.first() != Some(&"name") {
        return Err(MISSING);
    }
    let words = &words[1..];
    let split = words.iter().position(|w| *w == "value");
    let (name, value) = match split {
        Some(at) => (&words[..at], Some(words[at + 1..].join(" "))),
        None => (words, None),
    };
    if name.is_empty() {
        return Err(MISSING);
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

fn parse_position(words: &[&str]) -> Result<Command, ProtocolError> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let (setup, moves) = match moves_at {
        Some(at) => (&words[..at], &words[at + 1..]),
        None => (words, &[][..]),
    };
    let fen = match setup.first() {
        Some(&"startpos") => None,
        Some(&"fen") if setup.len() > 1 => Some(setup[1..].join(" ")),
        _ => {
            return Err(ProtocolError::Missing {
                command: "position",
                what: "'startpos' or 'fen <FEN>', optionally followed by 'moves <m1> <m2> ...'",
            });
        }
    };
    Ok(Command::Position {
        fen,
        moves: moves.iter().map(|m| (*m).to_string()).collect(),
    })
}

fn number<T: std::str::FromStr>(
    field: &'static str,
    text: Option<&&str>,
) -> Result<T, ProtocolError> {
    let text = text.ok_or(ProtocolError::BadNumber {
        field,
        text: String::new(),
    })?;
    text.parse().map_err(|_| ProtocolError::BadNumber {
        field,
        text: (*text).to_string(),
    })
}

/// Milliseconds; GUIs send negative clock values when a side is out of time: zero.
fn millis(field: &'static str, text: Option<&&str>) -> Result<Duration, ProtocolError> {
    let ms: i64 = number(field, text)?;
    Ok(Duration::from_millis(ms.max(0).unsigned_abs()))
}

fn parse_go(words: &[&str]) -> Result<GoParams, ProtocolError> {
    let mut go = GoParams::default();
    let mut i = 0;
    while i < words.len() {
        let value = words.get(i + 1);
        let mut takes_value = true;
        match words[i] {
            "wtime" => go.wtime = Some(millis("wtime", value)?),
            "btime" => go.btime = Some(millis("btime", value)?),
            "winc" => go.winc = Some(millis("winc", value)?),
            "binc" => go.binc = Some(millis("binc", value)?),
            "movetime" => go.movetime = Some(millis("movetime", value)?),
            "movestogo" => go.movestogo = Some(number("movestogo", value)?),
            "depth" => go.depth = Some(number("depth", value)?),
            "nodes" => go.nodes = Some(number("nodes", value)?),
            "mate" => go.mate = Some(number("mate", value)?),
            "infinite" => {
                go.infinite = true;
                takes_value = false;
            }
            "ponder" => {
                go.ponder = true;
                takes_value = false;
            }
            "searchmoves" => {
                // Every following word that is no keyword is a move.
                let keywords = [
                    "wtime",
                    "btime",
                    "winc",
                    "binc",
                    "movetime",
                    "movestogo",
                    "depth",
                    "nodes",
                    "mate",
                    "infinite",
                    "ponder",
                ];
                let mut j = i + 1;
                while j < words.len() && !keywords.contains(&words[j]) {
                    go.searchmoves.push(words[j].to_string());
                    j += 1;
                }
                i = j;
                continue;
            }
            other => {
                go.ignored.push(other.to_string());
                takes_value = false;
            }
        }
        i += if takes_value { 2 } else { 1 };
    }
    Ok(go)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Option<Duration> {
        Some(Duration::from_millis(n))
    }

    #[test]
    fn simple_commands() {
        assert_eq!(parse("uci"), Ok(Some(Command::Uci)));
        assert_eq!(parse("  isready  "), Ok(Some(Command::IsReady)));
        assert_eq!(parse(""), Ok(None));
        assert_eq!(parse("quit"), Ok(Some(Command::Quit)));
        assert_eq!(parse("debug off"), Ok(Some(Command::Debug(false))));
        assert_eq!(parse("joho debug on"), Ok(Some(Command::Debug(true))));
        assert_eq!(parse("ucinewgame"), Ok(Some(Command::UciNewGame)));
        assert_eq!(parse("d"), Ok(Some(Command::Display)));
        assert_eq!(parse("bench"), Ok(Some(Command::Bench(None))));
        assert_eq!(parse("bench 3"), Ok(Some(Command::Bench(Some(3)))));
        assert!(matches!(
            parse("bench deep"),
            Err(ProtocolError::BadNumber { field: "bench", .. })
        ));
    }

    #[test]
    fn unknown_commands_are_errors_naming_the_line() {
        let err = parse("hello world").unwrap_err();
        assert_eq!(err, ProtocolError::Unknown("hello world".into()));
        assert!(err.to_string().contains("isready"));
    }

    #[test]
    fn setoption_names_with_spaces_and_values() {
        assert_eq!(
            parse("setoption name Move Overhead value 100"),
            Ok(Some(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("100".into())
            }))
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Some(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }))
        );
        assert!(matches!(
            parse("setoption Hash 3"),
            Err(ProtocolError::Missing { .. })
        ));
        assert!(matches!(
            parse("setoption name value 3"),
            Err(ProtocolError::Missing { .. })
        ));
    }

    #[test]
    fn positions() {
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            Ok(Some(Command::Position {
                fen: None,
                moves: vec!["e2e4".into(), "e7e5".into()]
            }))
        );
        assert_eq!(
            parse("position fen 8/8/8/8/8/8/8/K6k w - - 0 1"),
            Ok(Some(Command::Position {
                fen: Some("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
                moves: vec![]
            }))
        );
        assert!(matches!(
            parse("position"),
            Err(ProtocolError::Missing { .. })
        ));
        assert!(matches!(
            parse("position fen moves e2e4"),
            Err(ProtocolError::Missing { .. })
        ));
    }

    #[test]
    fn go_parameters() {
        let Ok(Some(Command::Go(go))) =
            parse("go wtime 60000 btime -20 winc 1000 binc 1000 movestogo 12 depth 9 nodes 5000")
        else {
            panic!("not a go command");
        };
        assert_eq!(go.wtime, ms(60000));
        assert_eq!(go.btime, ms(0));
        assert_eq!(go.winc, ms(1000));
        assert_eq!(go.binc, ms(1000));
        assert_eq!(go.movestogo, Some(12));
        assert_eq!(go.depth, Some(9));
        assert_eq!(go.nodes, Some(5000));
        assert!(!go.infinite);
        let Ok(Some(Command::Go(go))) = parse("go infinite searchmoves e2e4 d2d4 movetime 50 foo")
        else {
            panic!("not a go command");
        };
        assert!(go.infinite);
        assert_eq!(go.searchmoves, vec!["e2e4", "d2d4"]);
        assert_eq!(go.movetime, ms(50));
        assert_eq!(go.ignored, vec!["foo"]);
    }

    #[test]
    fn bad_numbers_name_the_field() {
        assert_eq!(
            parse("go depth x"),
            Err(ProtocolError::BadNumber {
                field: "depth",
                text: "x".into()
            })
        );
        assert_eq!(
            parse("go movetime"),
            Err(ProtocolError::BadNumber {
                field: "movetime",
                text: String::new()
            })
        );
        assert!(parse("go depth -3").is_err());
    }
}
