//! The UCI client: a chess engine speaking the Universal Chess Interface.
//!
//! Start: `uci`, read to `uciok` (the `option name NAME type ...` lines say which options
//! exist), `setoption name NAME value VALUE` for each option of the specification (an option
//! the engine does not declare refuses the match), `isready`, read `readyok`. A new game:
//! `ucinewgame`, `isready`, `readyok`. A move: `position fen <opening FEN> moves <m1> ...`, then
//! `go movetime <ms>` (or `go depth <d>`), and the answer is the first word after `bestmove`;
//! `info` and other lines are skipped.

use std::time::Instant;

use games::Game;

use super::outside::{Client, Fault, GameSoFar, Reply, Terms, read_until};
use super::process::Process;
use super::spec::OutsideSpec;

/// A running UCI engine.
pub struct UciClient {
    process: Process,
}

impl UciClient {
    /// Starts the program of `spec` and sets its options, by `deadline`.
    ///
    /// # Errors
    /// The fault of the program.
    pub fn start(spec: &OutsideSpec, deadline: Instant) -> Result<Self, Fault> {
        let mut process = Process::spawn(&spec.program, &spec.args)?;
        process.send("uci")?;
        let mut declared = Vec::new();
        read_until(&mut process, deadline, |line| {
            if let Some(name) = declared_option(line) {
                declared.push(name);
            }
            Ok((line == "uciok").then_some(()))
        })?;
        set_options(&mut process, &declared, &spec.options)?;
        let mut client = UciClient { process };
        client.ready(deadline)?;
        Ok(client)
    }

    fn ready(&mut self, deadline: Instant) -> Result<(), Fault> {
        ready(&mut self.process, deadline)
    }
}

/// Sets each of `options` with `setoption`, refusing one the engine did not declare (UCI and
/// the line protocol alike).
pub(super) fn set_options(
    process: &mut Process,
    declared: &[String],
    options: &[(String, String)],
) -> Result<(), Fault> {
    for (name, value) in options {
        if !declared.iter().any(|d| d.eq_ignore_ascii_case(name)) {
            return Err(Fault::Refused(format!(
                "it has no option '{name}'; its options are: {}",
                declared.join(", ")
            )));
        }
        process.send(&format!("setoption name {name} value {value}"))?;
    }
    Ok(())
}

/// `isready`, then waits for `readyok` until `deadline` (UCI and the line protocol alike).
pub(super) fn ready(process: &mut Process, deadline: Instant) -> Result<(), Fault> {
    process.send("isready")?;
    read_until(process, deadline, |line| {
        Ok((line == "readyok").then_some(()))
    })
}

impl<G: Game> Client<G> for UciClient {
    fn new_game(&mut self, _terms: &Terms) -> Result<(), Fault> {
        self.process.send("ucinewgame")?;
        self.ready(Instant::now() + super::outside::SETUP_TIME)
    }

    fn best_move(
        &mut self,
        game: &GameSoFar<'_, G>,
        terms: &Terms,
        deadline: Instant,
    ) -> Result<Reply, Fault> {
        let mut position = format!("position fen {}", game.opening.pos);
        let moves = game.move_texts();
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        self.process.send(&position)?;
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

/// The `go` command of `terms`: `go movetime <ms>` and/or `go depth <d>` (UCI and the line
/// protocol read both).
pub(crate) fn go(terms: &Terms) -> String {
    let mut go = "go".to_string();
    if let Some(t) = terms.movetime {
        go.push_str(&format!(" movetime {}", t.as_millis().max(1)));
    }
    if let Some(d) = terms.depth {
        go.push_str(&format!(" depth {d}"));
    }
    go
}

/// The name of an option declared by `option name NAME type ...` (UCI and the line protocol).
pub(crate) fn declared_option(line: &str) -> Option<String> {
    let rest = line.strip_prefix("option name ")?;
    let name = match rest.find(" type ") {
        Some(at) => &rest[..at],
        None => rest,
    };
    Some(name.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn go_commands_and_declared_options() {
        let terms = Terms {
            movetime: Some(Duration::from_millis(90)),
            depth: None,
        };
        assert_eq!(go(&terms), "go movetime 90");
        let terms = Terms {
            movetime: None,
            depth: Some(4),
        };
        assert_eq!(go(&terms), "go depth 4");
        assert_eq!(
            declared_option("option name Move Overhead type spin default 10 min 0 max 5000"),
            Some("Move Overhead".to_string())
        );
        assert_eq!(declared_option("id name Stockfish"), None);
    }
}
