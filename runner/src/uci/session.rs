//! The command loop: one [`Session`] holds the options, the position and the engine, and
//! answers each line the GUI sends. Nothing a GUI sends can make it crash: every problem is
//! answered with an `info string` and the session goes on.

use std::io::BufRead;

use games::Game;
use games::chess::{Chess, DrawRule};

use super::bench;
use super::engine::{Job, Output, Running};
use super::options::{Change, Options};
use super::protocol::{self, Command, GoParams, ProtocolError};
use super::time;
use control::engine::Player;
use control::engine::WallClock;

/// Whether to read another line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on.
    Continue,
    /// `quit` was read.
    Quit,
}

/// The engine's state between commands.
pub struct Session {
    out: Output,
    options: Options,
    position: Chess,
    /// Why the last `position` command was rejected: `go` then answers `bestmove 0000` instead
    /// of searching the position before it, until a valid `position` (or `ucinewgame`) arrives.
    rejected: Option<String>,
    /// A `go infinite` (or `go ponder`) after a rejected position: nothing is searched, but
    /// `bestmove 0000` waits for `stop` as any infinite search's answer does.
    held_null: bool,
    /// The engine, when no search holds it and the options have not changed since it was built.
    player: Option<Player<Chess>>,
    running: Option<Running>,
}

impl Session {
    /// A session writing to `out`, at the start position with default options.
    pub fn new(out: Output) -> Self {
        Session {
            out,
            options: Options::default(),
            position: Chess::start(),
            rejected: None,
            held_null: false,
            player: None,
            running: None,
        }
    }

    /// Reads commands from `input` until `quit` or the end of the input (which counts as
    /// `quit`: a running search is stopped and answers).
    pub fn run(&mut self, input: impl BufRead) {
        for line in input.lines() {
            let line = match line {
                Ok(line) => line,
                Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                    self.out.note("a line that is not UTF-8 was ignored");
                    continue;
                }
                // The input is gone (a broken pipe): as at its end.
                Err(_) => break,
            };
            if self.handle(&line) == Flow::Quit {
                return;
            }
        }
        self.handle("quit");
    }

    /// Answers one line.
    pub fn handle(&mut self, line: &str) -> Flow {
        let command = match protocol::parse(line) {
            Ok(Some(c)) => c,
            Ok(None) => return Flow::Continue,
            Err(e) => {
                if matches!(
                    e,
                    ProtocolError::Missing {
                        command: "position",
                        ..
                    }
                ) {
                    self.reject(&e.to_string());
                } else {
                    self.out.note(&e.to_string());
                }
                return Flow::Continue;
            }
        };
        self.reap();
        match command {
            Command::Uci => {
                self.out
                    .line(concat!("id name runner ", env!("CARGO_PKG_VERSION")));
                self.out
                    .line("id author the parallel-game-tree-search authors");
                for l in self.options.declare() {
                    self.out.line(&l);
                }
                self.out.line("uciok");
            }
            Command::Debug(_) | Command::Register => {}
            Command::IsReady => {
                // The place for slow set-up (the table), so that `go` does not pay for it.
                if self.running.is_none() && self.player.is_none() {
                    self.player = self.build_player();
                }
                self.out.line("readyok");
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::UciNewGame => {
                if self.refuse_while_searching("ucinewgame") {
                    return Flow::Continue;
                }
                if let Some(p) = &mut self.player {
                    p.clear();
                }
                self.position = Chess::start();
                self.rejected = None;
            }
            Command::Position { fen, moves } => self.set_position(fen.as_deref(), &moves),
            Command::Go(go) => self.go(&go),
            Command::Stop => self.stop(),
            Command::PonderHit => self
                .out
                .note("pondering is not offered (no Ponder option); ponderhit ignored"),
            Command::Quit => {
                self.stop();
                return Flow::Quit;
            }
            Command::Bench(depth) => self.bench(depth),
            Command::Display => {
                for l in bench::display(&self.position) {
                    self.out.line(&l);
                }
                if let Some(why) = &self.rejected {
                    self.out.note(&format!(
                        "{why}; go answers bestmove 0000 until a valid position"
                    ));
                }
            }
        }
        Flow::Continue
    }

    /// Marks the position as rejected and says what `go` will do.
    fn reject(&mut self, why: &str) {
        self.out.note(&format!(
            "{why}: go answers bestmove 0000 until a valid position command arrives"
        ));
        self.rejected = Some(why.to_string());
    }

    fn bench(&mut self, depth: Option<u32>) {
        if self.refuse_while_searching("bench") {
            return;
        }
        let depth = depth.unwrap_or(bench::DEFAULT_DEPTH);
        if !(1..=bench::MAX_DEPTH).contains(&depth) {
            self.out.note(&format!(
                "bench depth {depth} is out of range; use 1 to {}",
                bench::MAX_DEPTH
            ));
            return;
        }
        if let Err(e) = bench::bench(depth, &self.out) {
            self.out.note(&format!("bench failed: {e:#}"));
        }
    }

    /// Waits for a running search to end by itself (tests use it after a finite `go`).
    pub fn wait(&mut self) {
        if let Some(r) = self.running.take() {
            self.player = r.join();
        }
    }

    /// How often the running search's thread has woken while holding a finished `go infinite`
    /// for `stop` (`None` when no search runs).
    #[cfg(test)]
    pub fn hold_wakeups(&self) -> Option<u64> {
        self.running.as_ref().map(Running::wakeups)
    }

    /// Takes the engine back from a search that has ended by itself (it has answered, or is
    /// writing its `bestmove`).
    fn reap(&mut self) {
        if self.running.as_ref().is_some_and(Running::has_answered) {
            self.wait();
        }
    }

    /// Stops a running search (it answers) or answers a held `go infinite`.
    fn stop(&mut self) {
        if let Some(r) = self.running.take() {
            self.player = r.stop();
        }
        if self.held_null {
            self.held_null = false;
            self.out.line("bestmove 0000");
        }
    }

    fn refuse_while_searching(&self, what: &str) -> bool {
        if self.running.is_some() || self.held_null {
            self.out.note(&format!(
                "{what} ignored: a search is running; send stop first"
            ));
            return true;
        }
        false
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        if self.refuse_while_searching("setoption") {
            return;
        }
        match self.options.set(name, value) {
            Ok(Change::Rebuild) => self.player = None,
            Ok(Change::Kept) => {}
            Ok(Change::ClearHash) => {
                if let Some(p) = &mut self.player {
                    p.clear();
                }
            }
            Err(e) => self.out.note(&e),
        }
    }

    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) {
        let mut pos = match fen {
            None => Chess::start(),
            Some(fen) => match Chess::parse_position(fen) {
                Ok(p) => p,
                Err(e) => {
                    self.reject(&format!("bad FEN '{fen}': {e}"));
                    return;
                }
            },
        };
        for (i, text) in moves.iter().enumerate() {
            match pos.parse_move(text) {
                Ok(mv) => {
                    let _ = pos.make_move(mv);
                }
                Err(e) => {
                    self.reject(&format!("move {} '{text}' is not legal here: {e}", i + 1));
                    return;
                }
            }
        }
        self.position = pos;
        self.rejected = None;
    }

    /// Builds the engine from the options, or says why it cannot be built.
    fn build_player(&self) -> Option<Player<Chess>> {
        let (method, config, note) = self.options.method();
        if let Some(note) = note {
            self.out.note(&note);
        }
        match Player::new(method, config) {
            Ok(p) => Some(p),
            Err(e) => {
                self.out
                    .note(&format!("cannot build the engine: {e:#}; lower Hash"));
                None
            }
        }
    }

    /// The position to search. A draw by the 50-move rule or by repetition ends the game in the
    /// `Game` rules (no moves), but in chess it must be claimed: a GUI that goes on asks for a
    /// move, so the engine then searches the same position with the halfmove clock reset and
    /// without the history. Insufficient material stays a finished game.
    fn searchable_root(&self) -> Chess {
        let pos = &self.position;
        let Some(rule) = pos.draw_rule() else {
            return pos.clone();
        };
        if rule == DrawRule::InsufficientMaterial {
            return pos.clone();
        }
        let fen = pos.to_string();
        let mut fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() >= 5 {
            fields[4] = "0";
        }
        match Chess::parse_position(&fields.join(" ")) {
            Ok(reset) => {
                self.out.note(&format!(
                    "the game is drawn ({rule:?}) and may be claimed; searching on without the claim"
                ));
                reset
            }
            Err(_) => pos.clone(),
        }
    }

    fn go(&mut self, go: &GoParams) {
        let clock = WallClock::start();
        if self.running.is_some() || self.held_null {
            self.out
                .note("go ignored: a search is already running; send stop first");
            return;
        }
        if !go.ignored.is_empty() {
            self.out.note(&format!(
                "go: ignored unknown words: {}",
                go.ignored.join(" ")
            ));
        }
        if !go.searchmoves.is_empty() {
            self.out
                .note("go searchmoves is not supported; searching every move");
        }
        if let Some(why) = &self.rejected {
            self.out.note(&format!(
                "no position to search ({why}); send a valid position command"
            ));
            if go.infinite || go.ponder {
                self.held_null = true;
            } else {
                self.out.line("bestmove 0000");
            }
            return;
        }
        let Some(player) = self.player.take().or_else(|| self.build_player()) else {
            self.out.line("bestmove (none)");
            return;
        };
        let white = self.position.side_to_move() == games::Side::First;
        let job = Job {
            root: self.searchable_root(),
            budget: time::allocate(go, white, self.options.overhead),
            infinite: go.infinite || go.ponder,
            mate: go.mate,
            clock,
        };
        match Running::start(player, job, self.out.clone()) {
            Ok(r) => self.running = Some(r),
            Err(e) => {
                self.out
                    .note(&format!("cannot start the search thread: {e}"));
                self.out.line("bestmove (none)");
            }
        }
    }
}
