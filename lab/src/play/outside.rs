//! An outside engine in a match: a program behind a protocol client ([`Client`]: UCI, GTP or
//! the line protocol), started again after it crashed, hung or broke the protocol, and the
//! [`Fault`]s that forfeit a game.
//!
//! Every exchange has a deadline: the handshake and a new game's set-up
//! [`SETUP_TIME`], a move the deadline the referee gives (the time per move and the grace).
//! A fault of the process (its output ended, nothing arrived in time, an answer the protocol
//! does not allow) drops the client, which kills the program; the next game starts it again.
//! An illegal move leaves it running.

use std::time::{Duration, Instant};

use games::{Game, GameId, GameInfo};

use super::gtp_client::GtpClient;
use super::line_client::LineClient;
use super::opening::Opening;
use super::process::ProcessError;
use super::spec::{OutsideSpec, Protocol};
use super::uci_client::UciClient;
use crate::per_game;

/// The time a program has to start (the handshake) and to set up a new game.
pub const SETUP_TIME: Duration = Duration::from_secs(10);

/// The time a program has to end after `quit` before it is killed.
pub const QUIT_WAIT: Duration = Duration::from_millis(300);

/// Why an outside engine loses a game without playing it out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Fault {
    /// The program could not be started.
    #[error("{0}")]
    Spawn(String),
    /// Its output ended: it exited or crashed.
    #[error("crashed: {0}")]
    Crash(String),
    /// No answer before the deadline.
    #[error("hung: {0}")]
    Hang(String),
    /// A move the game does not allow here, or that does not parse.
    #[error("illegal move '{text}': {why}")]
    Illegal {
        /// The answer as sent.
        text: String,
        /// The game's reason.
        why: String,
    },
    /// An answer the protocol does not allow.
    #[error("broke the protocol: {0}")]
    Protocol(String),
    /// The engine cannot play this match (another game, a missing option).
    #[error("refuses the match: {0}")]
    Refused(String),
}

impl Fault {
    /// The kind in one word: `crash`, `hang`, `illegal`, `protocol` or `refused`.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Fault::Spawn(_) | Fault::Crash(_) => "crash",
            Fault::Hang(_) => "hang",
            Fault::Illegal { .. } => "illegal",
            Fault::Protocol(_) => "protocol",
            Fault::Refused(_) => "refused",
        }
    }

    /// Whether the program must be started again (it is gone, late or out of step).
    fn kills(&self) -> bool {
        !matches!(self, Fault::Illegal { .. })
    }
}

impl From<ProcessError> for Fault {
    fn from(e: ProcessError) -> Self {
        match e {
            ProcessError::Timeout(_) => Fault::Hang(e.to_string()),
            ProcessError::Spawn { .. } => Fault::Spawn(e.to_string()),
            ProcessError::Closed { .. } => Fault::Crash(e.to_string()),
        }
    }
}

/// What the engines are asked for in every move of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terms {
    /// The deadline of a move (UCI `go movetime`, the line protocol's `go movetime`, GTP
    /// `time_settings 0 T 1`).
    pub movetime: Option<Duration>,
    /// The depth of a move (`go depth`; GTP has none).
    pub depth: Option<u32>,
}

/// A game so far: its opening and the moves played from it.
pub struct GameSoFar<'a, G: Game> {
    /// The opening.
    pub opening: &'a Opening<G>,
    /// The moves since the opening.
    pub moves: &'a [G::Move],
    /// The position now.
    pub pos: &'a G,
}

impl<G: Game> GameSoFar<'_, G> {
    /// The moves since the opening, in the game's notation.
    #[must_use]
    pub fn move_texts(&self) -> Vec<String> {
        crate::search::format_line(&self.opening.pos, self.moves)
    }

    /// Every move from the game's start position, in its notation, with the side that played
    /// each; `None` when the opening's line is unknown.
    #[must_use]
    pub fn line_from_start(&self) -> Option<Vec<(games::Side, String)>> {
        let line = self.opening.line.as_ref()?;
        let mut pos = G::start();
        Some(
            line.iter()
                .chain(self.moves)
                .map(|&mv| {
                    let side = pos.side_to_move();
                    let text = pos.format_move(mv);
                    let _ = pos.make_move(mv);
                    (side, text)
                })
                .collect(),
        )
    }
}

/// An engine's answer to a move request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A move, as written by the engine.
    Move(String),
    /// It gives the game up (GTP `resign`).
    Resign,
}

/// A protocol client talking to a running program.
pub trait Client<G: Game>: Send {
    /// Prepares a new game.
    ///
    /// # Errors
    /// A fault of the program.
    fn new_game(&mut self, terms: &Terms) -> Result<(), Fault>;

    /// Asks for a move in `game`, the answer due by `deadline`.
    ///
    /// # Errors
    /// A fault of the program.
    fn best_move(
        &mut self,
        game: &GameSoFar<'_, G>,
        terms: &Terms,
        deadline: Instant,
    ) -> Result<Reply, Fault>;

    /// Asks the program to end (it is killed when the client is dropped).
    fn quit(&mut self);
}

/// A move chosen by an outside engine, or its resignation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice<M> {
    /// A legal move.
    Move(M),
    /// It resigns.
    Resign,
}

/// An outside engine with its client, started on demand.
pub struct Outside<G: Game> {
    spec: OutsideSpec,
    info: &'static GameInfo,
    client: Option<Box<dyn Client<G>>>,
    starts: u64,
}

impl<G: Game> Outside<G> {
    /// The engine of `spec` for `info`'s game, not yet started.
    ///
    /// # Errors
    /// A [`Fault::Refused`] when the protocol does not play this game.
    pub fn new(spec: OutsideSpec, info: &'static GameInfo) -> Result<Self, Fault> {
        let row = GameId::of::<G>().map(per_game::of);
        let plays = match spec.protocol {
            Protocol::Uci => row.is_some_and(|r| r.uci),
            Protocol::Gtp => row.is_some_and(|r| r.gtp_board.is_some()),
            Protocol::Line => true,
        };
        if !plays {
            let which: Vec<&str> = GameId::ALL
                .iter()
                .filter(|&&g| match spec.protocol {
                    Protocol::Uci => per_game::of(g).uci,
                    _ => per_game::of(g).gtp_board.is_some(),
                })
                .map(|g| g.name())
                .collect();
            return Err(Fault::Refused(format!(
                "{} engines play {}, not {}",
                spec.protocol.prefix(),
                which.join(", "),
                info.name
            )));
        }
        Ok(Outside {
            spec,
            info,
            client: None,
            starts: 0,
        })
    }

    /// Whether the engine replays moves from the start instead of setting up a position (GTP).
    #[must_use]
    pub fn needs_lines(&self) -> bool {
        self.spec.protocol == Protocol::Gtp
    }

    /// The protocol and the program, e.g. `uci:stockfish`.
    #[must_use]
    pub fn describe(&self) -> String {
        let program = self.spec.program.rsplit('/').next().unwrap_or_default();
        format!("{}:{program}", self.spec.protocol.prefix())
    }

    /// How often the program has been started.
    #[must_use]
    pub fn starts(&self) -> u64 {
        self.starts
    }

    /// Starts the program (the handshake included) unless it runs.
    ///
    /// # Errors
    /// The fault that stopped it.
    pub fn start(&mut self) -> Result<(), Fault> {
        if self.client.is_some() {
            return Ok(());
        }
        self.starts += 1;
        let deadline = Instant::now() + SETUP_TIME;
        let client: Box<dyn Client<G>> = match self.spec.protocol {
            Protocol::Uci => Box::new(UciClient::start(&self.spec, deadline)?),
            Protocol::Gtp => {
                let board = GameId::of::<G>()
                    .and_then(|g| per_game::of(g).gtp_board)
                    .unwrap_or(8);
                Box::new(GtpClient::start(&self.spec, board, deadline)?)
            }
            Protocol::Line => Box::new(LineClient::start(&self.spec, self.info.name, deadline)?),
        };
        self.client = Some(client);
        Ok(())
    }

    /// Prepares a new game, starting the program if it is not running.
    ///
    /// # Errors
    /// The fault that stopped it; the program is then stopped.
    pub fn new_game(&mut self, terms: &Terms) -> Result<(), Fault> {
        self.start()?;
        let result = match &mut self.client {
            Some(c) => c.new_game(terms),
            None => Ok(()),
        };
        self.check(result)
    }

    /// Asks for a move, due within `limit`, and checks it is legal.
    ///
    /// # Errors
    /// The fault; after any but an illegal move the program is stopped.
    pub fn choose(
        &mut self,
        game: &GameSoFar<'_, G>,
        terms: &Terms,
        limit: Duration,
    ) -> Result<Choice<G::Move>, Fault> {
        self.start()?;
        let reply = match &mut self.client {
            Some(c) => c
                .best_move(game, terms, Instant::now() + limit)
                .map_err(|f| match f {
                    Fault::Hang(_) => {
                        Fault::Hang(format!("no answer within {:.2} s", limit.as_secs_f64()))
                    }
                    other => other,
                }),
            None => return Err(Fault::Crash("not running".into())),
        };
        match self.check(reply)? {
            Reply::Resign => Ok(Choice::Resign),
            Reply::Move(text) => {
                game.pos
                    .parse_move(&text)
                    .map(Choice::Move)
                    .map_err(|e| Fault::Illegal {
                        text,
                        why: e.to_string(),
                    })
            }
        }
    }

    /// Stops the program after a fault that leaves it gone, late or out of step.
    fn check<T>(&mut self, result: Result<T, Fault>) -> Result<T, Fault> {
        if let Err(f) = &result {
            if f.kills() {
                self.client = None;
            }
        }
        result
    }
}

impl<G: Game> Drop for Outside<G> {
    fn drop(&mut self) {
        if let Some(c) = &mut self.client {
            c.quit();
        }
    }
}

/// Reads lines until `accept` returns a value, or the deadline passes.
///
/// # Errors
/// The process's fault, or what `accept` returns as an error.
pub(crate) fn read_until<T>(
    process: &mut super::process::Process,
    deadline: Instant,
    mut accept: impl FnMut(&str) -> Result<Option<T>, Fault>,
) -> Result<T, Fault> {
    loop {
        let line = process.line_by(deadline)?;
        if let Some(v) = accept(line.trim())? {
            return Ok(v);
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use games::othello::Othello8;

    /// An outside engine running the bash `script` under `protocol`.
    fn engine(protocol: Protocol, script: &str) -> Outside<Othello8> {
        let spec = OutsideSpec {
            name: "fake".into(),
            protocol,
            program: "bash".into(),
            args: vec!["-c".into(), script.into()],
            options: Vec::new(),
        };
        Outside::new(spec, games::GameId::Othello8.info()).unwrap()
    }

    const TERMS: Terms = Terms {
        movetime: None,
        depth: Some(1),
    };

    #[test]
    fn a_gtp_engine_is_replayed_the_game_and_may_resign() {
        // It answers every command with success, and its first `genmove` with D3; from the
        // third `play` or `genmove` on, `genmove` resigns.
        let script = r#"n=0; while read -r c a b; do
            case "$c" in
              play) n=$((n+1)); echo "= "; echo;;
              genmove) n=$((n+1)); if [ $n -ge 3 ]; then echo "= resign"; else echo "= D3"; fi; echo;;
              list_commands) echo "= boardsize"; echo "play"; echo;;
              quit) exit 0;;
              *) echo "= "; echo;;
            esac
          done"#;
        let mut e = engine(Protocol::Gtp, script);
        e.new_game(&TERMS).unwrap();
        let start = Othello8::start();
        let mut opening = Opening::at(start);
        let so_far = GameSoFar {
            opening: &opening,
            moves: &[],
            pos: &start,
        };
        let limit = Duration::from_secs(5);
        let d3 = start.parse_move("d3").unwrap();
        assert_eq!(e.choose(&so_far, &TERMS, limit), Ok(Choice::Move(d3)));
        let mut pos = start;
        let _ = pos.make_move(d3);
        let c3 = pos.parse_move("c3").unwrap();
        let _ = pos.make_move(c3);
        let moves = [d3, c3];
        let so_far = GameSoFar {
            opening: &opening,
            moves: &moves,
            pos: &pos,
        };
        // The engine played d3 itself; only c3 is sent, and the third command resigns.
        assert_eq!(e.choose(&so_far, &TERMS, limit), Ok(Choice::Resign));
        assert_eq!(e.starts(), 1);
        // Without the opening's moves a GTP engine cannot be told the game.
        opening.line = None;
        let so_far = GameSoFar {
            opening: &opening,
            moves: &[],
            pos: &start,
        };
        assert!(matches!(
            e.choose(&so_far, &TERMS, limit),
            Err(Fault::Refused(_))
        ));
    }

    #[test]
    fn a_line_engine_of_another_game_refuses_and_an_illegal_move_keeps_it_running() {
        let mut e = engine(
            Protocol::Line,
            "read -r c; echo 'id game chess'; echo ok; sleep 5",
        );
        let f = e.start().unwrap_err();
        assert_eq!(
            f,
            Fault::Refused("it plays chess, the match is othello".into())
        );
        let script = r#"while read -r c rest; do
            case "$c" in
              hello) echo 'id game othello'; echo ok;;
              isready) echo readyok;;
              go) echo 'bestmove a1';;
            esac
          done"#;
        let mut e = engine(Protocol::Line, script);
        e.new_game(&TERMS).unwrap();
        let start = Othello8::start();
        let opening = Opening::at(start);
        let so_far = GameSoFar {
            opening: &opening,
            moves: &[],
            pos: &start,
        };
        let f = e
            .choose(&so_far, &TERMS, Duration::from_secs(5))
            .unwrap_err();
        assert!(
            matches!(&f, Fault::Illegal { text, .. } if text == "a1"),
            "{f}"
        );
        assert_eq!(f.kind(), "illegal");
        e.new_game(&TERMS).unwrap();
        assert_eq!(e.starts(), 1);
    }
}
