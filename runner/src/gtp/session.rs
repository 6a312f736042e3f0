//! The GTP command loop (`README.md` beside this file): one [`Session`] holds the game (its
//! moves from the start position), the time per move and the engine, and answers each command
//! with `= ...` or `? ...` and an empty line. Nothing a controller sends makes it crash.

use std::io::{BufRead, Write};
use std::time::Duration;

use games::{Game, Side};

use crate::served::{Served, line};
use crate::uci::options::Options;
use control::engine::WallClock;

/// The commands answered, as `list_commands` prints them.
const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "time_settings",
    "time_left",
];

/// The time per move before `time_settings` says otherwise.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

/// The engine's state between commands.
pub struct Session<G: Game, W: Write> {
    out: W,
    board: u32,
    engine: Served<G>,
    /// A fixed depth per move (instead of the time per move).
    depth: Option<u32>,
    /// The time per move.
    move_time: Duration,
    /// The moves from the start position.
    moves: Vec<G::Move>,
    pos: G,
}

/// A response: success with its text, or failure with its message.
type Response = Result<String, String>;

impl<G: Game, W: Write> Session<G, W> {
    /// A session on a board of `board` squares a side, writing to `out`, with `options` and a
    /// fixed `depth` per move if given.
    pub fn new(out: W, board: u32, options: Options, depth: Option<u32>) -> Self {
        Session {
            out,
            board,
            engine: Served::new(options),
            depth,
            move_time: DEFAULT_MOVE_TIME,
            moves: Vec::new(),
            pos: G::start(),
        }
    }

    /// Reads commands from `input` until `quit` or the end of the input.
    pub fn run(&mut self, input: impl BufRead) {
        for text in input.lines() {
            let Ok(text) = text else { break };
            if !self.handle(&text) {
                return;
            }
        }
    }

    /// Answers one line; `false` after `quit`.
    pub fn handle(&mut self, text: &str) -> bool {
        // Comments and control characters go; empty lines are ignored.
        let text: String = text
            .split('#')
            .next()
            .unwrap_or_default()
            .chars()
            .map(|c| if c == '\t' { ' ' } else { c })
            .filter(|c| !c.is_control())
            .collect();
        let mut words = text.split_whitespace().peekable();
        let id = words
            .next_if(|w| w.bytes().all(|b| b.is_ascii_digit()))
            .unwrap_or_default()
            .to_string();
        let Some(command) = words.next() else {
            return true;
        };
        let args: Vec<&str> = words.collect();
        let quit = command == "quit";
        let response = self.answer(command, &args);
        let text = match response {
            Ok(t) if t.starts_with('\n') => format!("={id}{t}"),
            Ok(t) => format!("={id} {t}"),
            Err(e) => format!("?{id} {e}"),
        };
        line(&mut self.out, &format!("{}\n", text.trim_end()));
        !quit
    }

    fn answer(&mut self, command: &str, args: &[&str]) -> Response {
        match command {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("runner".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => Ok(args
                .first()
                .is_some_and(|c| COMMANDS.contains(c))
                .to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" | "komi" | "time_left" => Ok(String::new()),
            "boardsize" => match args.first().and_then(|n| n.parse::<u32>().ok()) {
                Some(n) if n == self.board => {
                    self.new_game();
                    Ok(String::new())
                }
                Some(_) => Err("unacceptable size".into()),
                None => Err("syntax error".into()),
            },
            "clear_board" => {
                self.new_game();
                Ok(String::new())
            }
            "play" => self.play(args),
            "genmove" => self.genmove(args),
            "undo" => self.undo(),
            "showboard" => Ok(format!("\n{}", self.pos)),
            "time_settings" => self.time_settings(args),
            _ => Err("unknown command".into()),
        }
    }

    fn new_game(&mut self) {
        self.engine.forget();
        self.moves.clear();
        self.pos = G::start();
    }

    /// The side of a GTP colour: Black moves first.
    fn side(colour: Option<&&str>) -> Result<Side, String> {
        match colour.map(|c| c.to_ascii_lowercase()).as_deref() {
            Some("b" | "black") => Ok(Side::First),
            Some("w" | "white") => Ok(Side::Second),
            _ => Err("syntax error".into()),
        }
    }

    /// Makes `side` the side to move by playing the pass of the other side where the rules
    /// force one (a controller that leaves passes out); whether it now is.
    fn bring_turn_to(&mut self, side: Side) -> bool {
        if self.pos.side_to_move() != side {
            let mut legal = Vec::new();
            self.pos.generate_moves(&mut legal);
            if let [only] = legal[..] {
                if self.pos.format_move(only) == "pass" {
                    self.make(only);
                }
            }
        }
        self.pos.side_to_move() == side
    }

    fn make(&mut self, mv: G::Move) {
        let _ = self.pos.make_move(mv);
        self.moves.push(mv);
    }

    fn play(&mut self, args: &[&str]) -> Response {
        let side = Self::side(args.first())?;
        let Some(vertex) = args.get(1) else {
            return Err("syntax error".into());
        };
        if !self.bring_turn_to(side) {
            return Err("illegal move (not that colour's turn)".into());
        }
        let mv = self
            .pos
            .parse_move(&vertex.to_ascii_lowercase())
            .map_err(|e| format!("illegal move ({e})"))?;
        self.make(mv);
        Ok(String::new())
    }

    fn genmove(&mut self, args: &[&str]) -> Response {
        let clock = WallClock::start();
        let side = Self::side(args.first())?;
        if self.pos.outcome().is_some() {
            return Ok("pass".into());
        }
        if !self.bring_turn_to(side) {
            return Err("not that colour's turn".into());
        }
        let budget = match self.depth {
            Some(d) => self.engine.budget(None, Some(d), None),
            None => self.engine.budget(Some(self.move_time), None, None),
        };
        let pos = self.pos.clone();
        let best = match self.engine.think(&pos, &budget, clock, &mut |_| {}) {
            Ok(t) => t.best_move,
            Err(_) => {
                let mut legal = Vec::new();
                pos.generate_moves(&mut legal);
                legal.first().copied()
            }
        };
        let Some(mv) = best else {
            return Ok("pass".into());
        };
        let text = pos.format_move(mv);
        self.make(mv);
        Ok(if text == "pass" {
            text
        } else {
            text.to_ascii_uppercase()
        })
    }

    fn undo(&mut self) -> Response {
        if self.moves.pop().is_none() {
            return Err("cannot undo".into());
        }
        let mut pos = G::start();
        for &mv in &self.moves {
            let _ = pos.make_move(mv);
        }
        self.pos = pos;
        Ok(String::new())
    }

    /// `time_settings main byo_yomi stones` in seconds (fractions accepted): the time per move
    /// is `byo_yomi / stones` with byo-yomi, else `main / 30`; `0 0 0` (no limit) keeps the
    /// default of one second.
    fn time_settings(&mut self, args: &[&str]) -> Response {
        let numbers: Vec<f64> = args.iter().filter_map(|a| a.parse().ok()).collect();
        let [main, byo, stones] = numbers[..] else {
            return Err("syntax error".into());
        };
        if numbers.iter().any(|n| !n.is_finite() || *n < 0.0) {
            return Err("syntax error".into());
        }
        let seconds = if byo > 0.0 && stones > 0.0 {
            byo / stones
        } else if main > 0.0 {
            main / 30.0
        } else {
            DEFAULT_MOVE_TIME.as_secs_f64()
        };
        self.move_time = Duration::from_secs_f64(seconds.min(86_400.0));
        Ok(String::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::othello::Othello8;

    fn session(lines: &str, depth: Option<u32>) -> String {
        let mut out = Vec::new();
        let mut s: Session<Othello8, _> = Session::new(&mut out, 8, Options::default(), depth);
        s.run(lines.as_bytes());
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_controller_sets_up_replays_and_asks_for_moves() {
        let text = session(
            "protocol_version\n1 boardsize 8\nboardsize 6\nclear_board\nplay black f5\nplay white d6\ngenmove black\nundo\nknown_command genmove\nquit\n",
            Some(2),
        );
        let answers: Vec<&str> = text.split("\n\n").collect();
        assert_eq!(answers[0], "= 2");
        assert_eq!(answers[1], "=1");
        assert_eq!(answers[2], "? unacceptable size");
        assert_eq!(answers[3..6], ["=", "=", "="]);
        let vertex = answers[6].strip_prefix("= ").unwrap();
        let mut pos = Othello8::start();
        for m in ["f5", "d6"] {
            let mv = pos.parse_move(m).unwrap();
            let _ = pos.make_move(mv);
        }
        assert!(pos.parse_move(&vertex.to_lowercase()).is_ok(), "{vertex}");
        assert_eq!(answers[7], "=");
        assert_eq!(answers[8], "= true");
    }

    #[test]
    fn passes_may_be_left_out_or_given_and_bad_commands_fail() {
        let text = session(
            "play black d4\nplay white f5\nplay black pass\nplay purple d3\nfoo\ntime_settings 0 0.05 1\ntime_settings 1\n",
            None,
        );
        let answers: Vec<&str> = text.split("\n\n").collect();
        assert!(answers[0].starts_with("? illegal move"), "{text}");
        assert!(
            answers[1].starts_with("? illegal move (not that colour"),
            "{text}"
        );
        assert!(answers[2].starts_with("? illegal move"), "{text}");
        assert_eq!(answers[3], "? syntax error");
        assert_eq!(answers[4], "? unknown command");
        assert_eq!(answers[5], "=");
        assert_eq!(answers[6], "? syntax error");
    }
}
