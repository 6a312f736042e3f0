//! The line-protocol client: an engine speaking the line protocol of `runner engine`
//! (`runner/src/line/README.md`), for any game.
//!
//! Start: `hello`, read to `ok` (`id game NAME` must name the match's game; the `option name
//! NAME type ...` lines say which options exist), `setoption name NAME value VALUE` for each
//! option of the specification, `isready`, read `readyok`. A new game: `newgame`, `isready`,
//! `readyok`. A move: `position <opening>` in the game's text format, `moves <m1> <m2> ...` when
//! moves were played, `go movetime <ms>` (or `go depth <d>`); the answer is the word after
//! `bestmove`. `info` and `error` lines are skipped.

use std::time::Instant;

use games::Game;

use super::outside::{Client, Fault, GameSoFar, Reply, SETUP_TIME, Terms, read_until};
use super::process::Process;
use super::spec::OutsideSpec;
use super::uci_client::{declared_option, go, ready, set_options};

/// A running line-protocol engine.
pub struct LineClient {
    process: Process,
}

impl LineClient {
    /// Starts the program of `spec` for the game named `game`, and sets its options, by
    /// `deadline`.
    ///
    /// # Errors
    /// The fault of the program; [`Fault::Refused`] when it plays another game or lacks an
    /// option.
    pub fn start(spec: &OutsideSpec, game: &str, deadline: Instant) -> Result<Self, Fault> {
        let mut process = Process::spawn(&spec.program, &spec.args)?;
        process.send("hello")?;
        let mut declared = Vec::new();
        let mut plays = None;
        read_until(&mut process, deadline, |line| {
            if let Some(name) = declared_option(line) {
                declared.push(name);
            } else if let Some(g) = line.strip_prefix("id game ") {
                plays = Some(g.trim().to_string());
            }
            Ok((line == "ok").then_some(()))
        })?;
        match plays {
            Some(g) if g == game => {}
            Some(g) => {
                return Err(Fault::Refused(format!("it plays {g}, the match is {game}")));
            }
            None => {
                return Err(Fault::Protocol(
                    "its answer to 'hello' has no 'id game' line".into(),
                ));
            }
        }
        set_options(&mut process, &declared, &spec.options)?;
        let mut client = LineClient { process };
        client.ready(deadline)?;
        Ok(client)
    }

    fn ready(&mut self, deadline: Instant) -> Result<(), Fault> {
        ready(&mut self.process, deadline)
    }
}

impl<G: Game> Client<G> for LineClient {
    fn new_game(&mut self, _terms: &Terms) -> Result<(), Fault> {
        self.process.send("newgame")?;
        self.ready(Instant::now() + SETUP_TIME)
    }

    fn best_move(
        &mut self,
        game: &GameSoFar<'_, G>,
        terms: &Terms,
        deadline: Instant,
    ) -> Result<Reply, Fault> {
        self.process
            .send(&format!("position {}", game.opening.pos))?;
        let moves = game.move_texts();
        if !moves.is_empty() {
            self.process.send(&format!("moves {}", moves.join(" ")))?;
        }
        self.process.send(&go(terms))?;
        read_until(&mut self.process, deadline, |line| {
            let mut words = line.split_whitespace();
            if words.next() != Some("bestmove") {
                return Ok(None);
            }
            match words.next() {
                Some(mv) => Ok(Some(Reply::Move(mv.to_string()))),
                None => Err(Fault::Protocol("'bestmove' without a move".into())),
            }
        })
    }

    fn quit(&mut self) {
        self.process.quit("quit", super::outside::QUIT_WAIT);
    }
}
