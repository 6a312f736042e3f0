//! Game records of `runner play --pgn FILE`: PGN for chess (the seven-tag roster Event, Site,
//! Date, Round, White, Black, Result; then SetUp and FEN when the opening is not the initial
//! position, TimeControl and Termination; SAN moves), and a plain record for the other games
//! (the start position in the game's own text format, then the moves in its notation).

use std::any::Any;
use std::fmt::Write;

use games::Game;
use games::chess::{Chess, san};

use crate::machine::civil_date;

/// How a game ended, seen from the two seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// The side that moved first won (White in chess).
    FirstWins,
    /// The side that moved second won.
    SecondWins,
    /// Draw (by the rules or by the ply limit).
    Draw,
}

impl GameResult {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn token(self) -> &'static str {
        match self {
            GameResult::FirstWins => "1-0",
            GameResult::SecondWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
}

/// What every game of a match shares in its record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchInfo {
    /// The event: the engines and the game.
    pub event: String,
    /// The day the match started, `YYYY.MM.DD` (UTC).
    pub date: String,
    /// The PGN TimeControl: `-` for a fixed depth, `1/S` for S seconds per move.
    pub time_control: String,
}

impl MatchInfo {
    /// The record header of a match called `event`, started at `now` (seconds since
    /// 1970-01-01 UTC), with `time_ms` per move or else a fixed depth.
    pub fn new(event: String, now: u64, time_ms: Option<u64>) -> Self {
        let (y, m, d) = civil_date(now / 86_400);
        let time_control = match time_ms {
            None => "-".to_string(),
            Some(ms) if ms % 1000 == 0 => format!("1/{}", ms / 1000),
            Some(ms) => format!("1/{}", ms as f64 / 1000.0),
        };
        MatchInfo {
            event,
            date: format!("{y:04}.{m:02}.{d:02}"),
            time_control,
        }
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord<G: Game> {
    /// Its number in the match, from 1.
    pub round: usize,
    /// The engine in the first seat (White in chess).
    pub first: String,
    /// The engine in the second seat.
    pub second: String,
    /// The opening position.
    pub start: G,
    /// The moves played from it.
    pub moves: Vec<G::Move>,
    /// The result.
    pub result: GameResult,
    /// Why the game ended, in words.
    pub reason: String,
}

/// Appends the record of `game` to `out`: PGN for chess, the plain record otherwise.
pub fn write<G: Game>(game: &GameRecord<G>, info: &MatchInfo, out: &mut String) {
    match (&game.start as &dyn Any).downcast_ref::<Chess>() {
        Some(start) => {
            let moves: Vec<games::chess::Move> = game
                .moves
                .iter()
                .filter_map(|m| (m as &dyn Any).downcast_ref().copied())
                .collect();
            pgn(game, start, &moves, info, out);
        }
        None => plain(game, &info.event, out),
    }
}

fn pgn<G: Game>(
    game: &GameRecord<G>,
    start: &Chess,
    moves: &[games::chess::Move],
    info: &MatchInfo,
    out: &mut String,
) {
    let fen = start.to_string();
    let tag = |out: &mut String, name: &str, value: &str| {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(out, "[{name} \"{value}\"]");
    };
    tag(out, "Event", &info.event);
    tag(out, "Site", "runner play");
    tag(out, "Date", &info.date);
    tag(out, "Round", &game.round.to_string());
    tag(out, "White", &game.first);
    tag(out, "Black", &game.second);
    tag(out, "Result", game.result.token());
    if *start != Chess::start() {
        tag(out, "SetUp", "1");
        tag(out, "FEN", &fen);
    }
    tag(out, "TimeControl", &info.time_control);
    tag(out, "Termination", &game.reason);
    out.push('\n');
    let mut number: u32 = fen
        .split_whitespace()
        .nth(5)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let mut pos = start.clone();
    let mut words = Vec::with_capacity(moves.len() * 3 / 2 + 1);
    for (i, &mv) in moves.iter().enumerate() {
        let white = pos.side_to_move() == games::Side::First;
        if white {
            words.push(format!("{number}."));
        } else if i == 0 {
            words.push(format!("{number}..."));
        }
        words.push(san::to_san(pos.board(), mv));
        let _ = pos.make_move(mv);
        if !white {
            number += 1;
        }
    }
    words.push(game.result.token().to_string());
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 79 {
            let _ = writeln!(out, "{line}");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    let _ = writeln!(out, "{line}\n");
}

fn plain<G: Game>(game: &GameRecord<G>, event: &str, out: &mut String) {
    let _ = writeln!(
        out,
        "# {event}, game {}: {} (first) - {} (second): {} ({})",
        game.round,
        game.first,
        game.second,
        game.result.token(),
        game.reason
    );
    let _ = writeln!(out, "position {}", game.start);
    let moves = crate::search::format_line(&game.start, &game.moves);
    let _ = writeln!(out, "moves {}\n", moves.join(" "));
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::tictactoe::TicTacToe3;

    fn play<G: Game>(start: &G, texts: &[&str]) -> Vec<G::Move> {
        let mut pos = start.clone();
        texts
            .iter()
            .map(|t| {
                let mv = pos.parse_move(t).unwrap();
                let _ = pos.make_move(mv);
                mv
            })
            .collect()
    }

    fn info() -> MatchInfo {
        MatchInfo::new("test".into(), 0, None)
    }

    #[test]
    fn dates_from_days_since_1970() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(59), (1970, 3, 1));
        // 2000 was a leap year (divisible by 400): 29 February 2000 is day 11,016.
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(11_017), (2000, 3, 1));
        // 31 December 2024 is day 20,088; the next is New Year.
        assert_eq!(civil_date(20_088), (2024, 12, 31));
        assert_eq!(civil_date(20_089), (2025, 1, 1));
        let m = MatchInfo::new("e".into(), 20_089 * 86_400 + 3_600, Some(1_500));
        assert_eq!(m.date, "2025.01.01");
        assert_eq!(m.time_control, "1/1.5");
        assert_eq!(
            MatchInfo::new("e".into(), 0, Some(2_000)).time_control,
            "1/2"
        );
    }

    #[test]
    fn chess_games_are_written_as_pgn() {
        let start = Chess::start();
        let moves = play(&start, &["f2f3", "e7e5", "g2g4", "d8h4"]);
        let game = GameRecord {
            round: 3,
            first: "a".into(),
            second: "b".into(),
            start,
            moves,
            result: GameResult::SecondWins,
            reason: "checkmate".into(),
        };
        let mut out = String::new();
        write(&game, &info(), &mut out);
        assert!(
            out.starts_with(
                "[Event \"test\"]\n[Site \"runner play\"]\n[Date \"1970.01.01\"]\n[Round \"3\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n[TimeControl \"-\"]\n"
            ),
            "{out}"
        );
        assert!(!out.contains("FEN"));
        assert!(out.contains("\n1. f3 e5 2. g4 Qh4# 0-1\n"), "{out}");
    }

    #[test]
    fn chess_from_a_fen_with_black_to_move() {
        let start = Chess::parse_position("4k3/8/8/8/8/8/4P3/4K3 b - - 0 12").unwrap();
        let moves = play(&start, &["e8d7", "e2e4"]);
        let game = GameRecord {
            round: 1,
            first: "a".into(),
            second: "b".into(),
            start,
            moves,
            result: GameResult::Draw,
            reason: "ply limit".into(),
        };
        let mut out = String::new();
        write(&game, &info(), &mut out);
        assert!(out.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 12\"]"));
        assert!(out.contains("\n12... Kd7 13. e4 1/2-1/2\n"), "{out}");
    }

    #[test]
    fn other_games_get_a_plain_record() {
        let start = TicTacToe3::start();
        let moves = play(&start, &["a1", "b2", "a2", "c3", "a3"]);
        let game = GameRecord {
            round: 2,
            first: "x".into(),
            second: "y".into(),
            start,
            moves,
            result: GameResult::FirstWins,
            reason: "win".into(),
        };
        let mut out = String::new();
        write(&game, &MatchInfo::new("m".into(), 0, None), &mut out);
        assert_eq!(
            out,
            format!(
                "# m, game 2: x (first) - y (second): 1-0 (win)\nposition {start}\nmoves a1 b2 a2 c3 a3\n\n"
            )
        );
    }
}
