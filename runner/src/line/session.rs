//! The command loop of the line protocol (`README.md` beside this file): one [`Session`] holds
//! the options, the position and the engine, and answers each line. Nothing a client sends
//! makes it crash: every problem is answered with an `error` line and the session goes on.

use std::io::{BufRead, Write};
use std::time::Duration;

use games::{Game, GameInfo};

use crate::served::{Served, line};
use crate::uci::options::Options;
use control::engine::{Event, WallClock};

/// The engine's state between commands.
pub struct Session<G: Game, W: Write> {
    out: W,
    info: &'static GameInfo,
    engine: Served<G>,
    /// The position to search, or why the last `position` or `moves` was rejected.
    position: Result<G, String>,
}

impl<G: Game, W: Write> Session<G, W> {
    /// A session for `info`'s game writing to `out`, at the start position with `options`.
    pub fn new(out: W, info: &'static GameInfo, options: Options) -> Self {
        Session {
            out,
            info,
            engine: Served::new(options),
            position: Ok(G::start()),
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
        let text = text.trim();
        let (command, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        let rest = rest.trim();
        match command {
            "" => {}
            "hello" => {
                line(&mut self.out, concat!("id name runner ", env!("CARGO_PKG_VERSION")));
                line(&mut self.out, &format!("id game {}", self.info.name));
                for l in self.engine.options.declare() {
                    line(&mut self.out, &l);
                }
                line(&mut self.out, "ok");
            }
            "isready" => {
                match self.engine.build() {
                    Ok(Some(note)) => self.error(&note),
                    Ok(None) => {}
                    Err(e) => self.error(&e),
                }
                line(&mut self.out, "readyok");
            }
            "setoption" => self.set_option(rest),
            "newgame" => {
                self.engine.forget();
                self.position = Ok(G::start());
            }
            "position" => {
                self.position = if rest == "start" {
                    Ok(G::start())
                } else {
                    G::parse_position(rest)
                        .map_err(|e| format!("bad position '{rest}': {e}"))
                };
                if let Err(e) = &self.position {
                    let e = e.clone();
                    self.error(&e);
                }
            }
            "moves" => self.play(rest),
            "go" => self.go(rest),
            "quit" => return false,
            _ => self.error(&format!(
                "unknown command '{text}'; the commands are hello, isready, setoption, newgame, position, moves, go, quit"
            )),
        }
        true
    }

    fn error(&mut self, text: &str) {
        line(&mut self.out, &format!("error {text}"));
    }

    fn set_option(&mut self, rest: &str) {
        let Some(spec) = rest.strip_prefix("name ") else {
            self.error("setoption needs 'name <id> [value <x>]'");
            return;
        };
        let (name, value) = match spec.split_once(" value ") {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (spec.trim(), None),
        };
        if let Err(e) = self.engine.set(name, value) {
            self.error(&e);
        }
    }

    /// Plays `moves` from the current position.
    fn play(&mut self, moves: &str) {
        let Ok(pos) = &mut self.position else {
            self.error("moves ignored: no position (send a valid position first)");
            return;
        };
        let mut next = pos.clone();
        for (i, text) in moves.split_whitespace().enumerate() {
            match next.parse_move(text) {
                Ok(mv) => {
                    let _ = next.make_move(mv);
                }
                Err(e) => {
                    let why = format!("move {} '{text}' is not legal here: {e}", i + 1);
                    self.position = Err(why.clone());
                    self.error(&why);
                    return;
                }
            }
        }
        *pos = next;
    }

    fn go(&mut self, words: &str) {
        let clock = WallClock::start();
        let mut time = None;
        let mut depth = None;
        let mut nodes = None;
        let words: Vec<&str> = words.split_whitespace().collect();
        for pair in words.chunks(2) {
            let value = pair.get(1).and_then(|v| v.parse::<u64>().ok());
            match (pair[0], value) {
                ("movetime", Some(ms)) => time = Some(Duration::from_millis(ms)),
                ("depth", Some(d)) => {
                    depth = Some(u32::try_from(d.clamp(1, 1000)).unwrap_or(1));
                }
                ("nodes", Some(n)) => nodes = Some(n.max(1)),
                _ => {
                    self.error(&format!(
                        "go: '{}' is not 'movetime <ms>', 'depth <d>' or 'nodes <n>'",
                        pair.join(" ")
                    ));
                    line(&mut self.out, "bestmove none");
                    return;
                }
            }
        }
        let pos = match &self.position {
            Ok(p) => p.clone(),
            Err(why) => {
                let why = format!("no position to search ({why})");
                self.error(&why);
                line(&mut self.out, "bestmove none");
                return;
            }
        };
        let budget = self.engine.budget(time, depth, nodes);
        let out = &mut self.out;
        let thought = self.engine.think(&pos, &budget, clock, &mut |event| {
            if let Event::Depth(r) = event {
                let pv = lab::search::format_line(&pos, &r.pv).join(" ");
                line(
                    out,
                    &format!(
                        "info depth {} value {} nodes {} time {} pv {pv}",
                        r.depth,
                        r.value,
                        r.nodes,
                        r.elapsed.as_millis()
                    ),
                );
            }
        });
        let best = match thought {
            Ok(t) => t.best_move,
            Err(e) => {
                self.error(&format!("{e}; playing the first legal move"));
                let mut moves = Vec::new();
                pos.generate_moves(&mut moves);
                moves.first().copied()
            }
        };
        let answer = best.map_or_else(|| "none".to_string(), |m| pos.format_move(m));
        line(&mut self.out, &format!("bestmove {answer}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::GameId;
    use games::checkers::Checkers;

    fn session(lines: &str) -> String {
        let mut out = Vec::new();
        let info = GameId::Checkers.info();
        let mut s: Session<Checkers, _> = Session::new(&mut out, info, Options::default());
        s.run(lines.as_bytes());
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn hello_names_the_game_and_the_options() {
        let text = session("hello\nisready\nquit\n");
        assert!(text.starts_with("id name runner "), "{text}");
        assert!(text.contains("\nid game checkers\n"), "{text}");
        assert!(text.contains("option name Threads type spin"), "{text}");
        assert!(text.contains("\nok\nreadyok\n"), "{text}");
    }

    #[test]
    fn a_move_from_a_position_and_moves() {
        let text = session(
            "position B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\nmoves 11-15 23-19\ngo depth 3\n",
        );
        assert!(text.contains("info depth 3 value "), "{text}");
        let best = text
            .lines()
            .find_map(|l| l.strip_prefix("bestmove "))
            .unwrap();
        let mut pos = Checkers::start();
        for m in ["11-15", "23-19"] {
            let mv = pos.parse_move(m).unwrap();
            let _ = pos.make_move(mv);
        }
        assert!(pos.parse_move(best).is_ok(), "{best}");
    }

    #[test]
    fn bad_input_is_answered_with_an_error_line_and_no_move() {
        let text = session(
            "bogus\nsetoption name Threads value 0\nposition nonsense\ngo depth 2\nposition start\nmoves 11-15 11-15\ngo depth 2\nposition start\ngo depth x\n",
        );
        assert!(text.contains("error unknown command 'bogus'"), "{text}");
        assert!(text.contains("error Threads must be"), "{text}");
        assert!(text.contains("error bad position 'nonsense'"), "{text}");
        assert!(
            text.contains("error move 2 '11-15' is not legal here"),
            "{text}"
        );
        assert!(text.contains("error go: 'depth x'"), "{text}");
        assert_eq!(text.matches("bestmove none").count(), 3, "{text}");
    }
}
