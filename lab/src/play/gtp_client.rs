//! The GTP client: an Othello engine speaking the Go Text Protocol (version 2), as GRhino's
//! `gtp-rhino` and `runner gtp` do.
//!
//! GTP has no standard command to set up a position, so the client replays the game from the
//! start position: a new game is `clear_board`, and before each `genmove` the moves not yet
//! sent go as `play black d3` (Black moves first). A pass goes as `play <colour> pass`; engines
//! that pass by themselves refuse it, which is accepted. The answer to `genmove <colour>` is a
//! vertex (`D3`, read in the game's notation), `pass` or `resign`.
//!
//! Start: `protocol_version`, `list_commands`, `boardsize N` (refused: the engine does not play
//! this board). When the engine lists `time_settings`, a new game sends
//! `time_settings 0 T 1` (T seconds per move, with a fraction where needed: an engine that
//! refuses it keeps its own settings). Responses are `= ...` or `? ...` up to an empty line.

use std::time::Instant;

use games::{Game, Side};

use super::outside::{Client, Fault, GameSoFar, Reply, SETUP_TIME, Terms, read_until};
use super::process::Process;
use super::spec::OutsideSpec;

/// A running GTP engine.
pub struct GtpClient {
    process: Process,
    /// The commands it lists.
    commands: Vec<String>,
    /// Moves of the current game already sent.
    sent: usize,
}

impl GtpClient {
    /// Starts the program of `spec` on a board of `size`, by `deadline`.
    ///
    /// # Errors
    /// The fault of the program.
    pub fn start(spec: &OutsideSpec, size: u32, deadline: Instant) -> Result<Self, Fault> {
        let process = Process::spawn(&spec.program, &spec.args)?;
        let mut client = GtpClient {
            process,
            commands: Vec::new(),
            sent: 0,
        };
        let _ = client.ask("protocol_version", deadline)?;
        client.commands = client
            .ask("list_commands", deadline)?
            .map(|text| text.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default();
        if let Err(e) = client.ask(&format!("boardsize {size}"), deadline)? {
            return Err(Fault::Refused(format!("boardsize {size}: {e}")));
        }
        Ok(client)
    }

    /// Sends `command` and reads its response: `Ok(text)` for success (`= text`), `Err(text)`
    /// for failure (`? text`).
    fn ask(&mut self, command: &str, deadline: Instant) -> Result<Result<String, String>, Fault> {
        self.process.send(command)?;
        let mut first: Option<(bool, String)> = None;
        let mut more = Vec::new();
        read_until(&mut self.process, deadline, |line| {
            match &first {
                None => {
                    if line.is_empty() {
                        return Ok(None);
                    }
                    let ok = match line.chars().next() {
                        Some('=') => true,
                        Some('?') => false,
                        _ => {
                            return Err(Fault::Protocol(format!(
                                "'{line}' in answer to '{command}' is not a GTP response"
                            )));
                        }
                    };
                    // An optional numeric id follows the sign.
                    let text = line[1..].trim_start_matches(|c: char| c.is_ascii_digit());
                    first = Some((ok, text.trim().to_string()));
                    Ok(None)
                }
                Some(_) if line.is_empty() => Ok(Some(())),
                Some(_) => {
                    more.push(line.to_string());
                    Ok(None)
                }
            }
        })?;
        let (ok, head) = first.unwrap_or_default();
        let text = std::iter::once(head)
            .chain(more)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join("\n");
        Ok(if ok { Ok(text) } else { Err(text) })
    }
}

/// The GTP colour of `side`: Black moves first.
fn colour(side: Side) -> &'static str {
    match side {
        Side::First => "black",
        Side::Second => "white",
    }
}

impl<G: Game> Client<G> for GtpClient {
    fn new_game(&mut self, terms: &Terms) -> Result<(), Fault> {
        let deadline = Instant::now() + SETUP_TIME;
        if let Err(e) = self.ask("clear_board", deadline)? {
            return Err(Fault::Protocol(format!("clear_board failed: {e}")));
        }
        self.sent = 0;
        if let Some(t) = terms.movetime {
            if self.commands.iter().any(|c| c == "time_settings") {
                let ms = t.as_millis().max(1);
                let seconds = if ms % 1000 == 0 {
                    (ms / 1000).to_string()
                } else {
                    format!("{:.3}", ms as f64 / 1000.0)
                };
                // An engine that refuses it keeps its own settings.
                let _ = self.ask(&format!("time_settings 0 {seconds} 1"), deadline)?;
            }
        }
        Ok(())
    }

    fn best_move(
        &mut self,
        game: &GameSoFar<'_, G>,
        _terms: &Terms,
        deadline: Instant,
    ) -> Result<Reply, Fault> {
        let Some(line) = game.line_from_start() else {
            return Err(Fault::Refused(
                "a GTP engine needs the opening's moves from the start".into(),
            ));
        };
        for (side, text) in line.iter().skip(self.sent) {
            let answer = self.ask(&format!("play {} {text}", colour(*side)), deadline)?;
            if let Err(e) = answer {
                if text != "pass" {
                    return Err(Fault::Protocol(format!(
                        "it refused 'play {} {text}': {e}",
                        colour(*side)
                    )));
                }
            }
            self.sent += 1;
        }
        let mover = colour(game.pos.side_to_move());
        match self.ask(&format!("genmove {mover}"), deadline)? {
            Ok(vertex) => {
                let vertex = vertex.trim().to_ascii_lowercase();
                if vertex == "resign" {
                    return Ok(Reply::Resign);
                }
                if vertex.is_empty() {
                    return Err(Fault::Protocol(format!("'genmove {mover}' gave no move")));
                }
                // The engine has played its move on its board.
                self.sent += 1;
                Ok(Reply::Move(vertex))
            }
            Err(e) => Err(Fault::Protocol(format!("'genmove {mover}' failed: {e}"))),
        }
    }

    fn quit(&mut self) {
        self.process.quit("quit", super::outside::QUIT_WAIT);
    }
}
