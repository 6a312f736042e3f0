//! Game records of `runner play --pgn FILE`, in the form of the game's row in
//! [`crate::per_game`]:
//!
//! - chess: PGN, the seven-tag roster Event, Site, Date, Round, White, Black, Result; then SetUp
//!   and FEN when the opening is not the initial position, TimeControl and Termination; SAN
//!   moves;
//! - checkers: PDN 3.0, the same roster with Black the first player (Black moves first),
//!   GameType 21 (English draughts), SetUp and FEN (PDN FEN) for other openings, TimeControl and
//!   Termination; numbered moves in the game's notation (`1. 11-15 23-19`); the result is White's
//!   first (`1-0`: White won, `0-1`: Black won);
//! - Othello: a comment line (round, players, result, why it ended), then the transcript, every
//!   move from the start position run together with passes left out (`f5d6c3d3c4f4...`), and the
//!   result (`1-0`: Black, the first player, won); an opening whose moves are unknown gets the
//!   plain record;
//! - the other games: a plain record, the start position in the game's own text format, then
//!   the moves in its notation.
//!
//! Termination is PGN's: `normal`, `adjudication` (the ply limit), `time forfeit` (no answer
//! within the grace), `rules infraction` (an illegal move, a broken protocol) or `abandoned` (a
//! crash); a game that did not end normally carries the reason as a comment before the result.

use std::any::Any;
use std::fmt::Write;

use games::chess::{Chess, san};
use games::{Game, GameId, Side};

use super::referee::Forfeit;
use crate::machine::civil_date;
use crate::per_game::{self, RecordFormat};

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

    /// The token with the second player first (PDN, where White moves second).
    fn second_first(self) -> &'static str {
        match self {
            GameResult::FirstWins => "0-1",
            GameResult::SecondWins => "1-0",
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
    /// The moves from the game's start position to `start`, where known.
    pub line: Option<Vec<G::Move>>,
    /// The moves played from it.
    pub moves: Vec<G::Move>,
    /// The result.
    pub result: GameResult,
    /// Why the game ended, in words.
    pub reason: String,
    /// The forfeit that ended it, if one did.
    pub forfeit: Option<Forfeit>,
}

impl<G: Game> GameRecord<G> {
    /// PGN's Termination: `normal`, `adjudication`, `time forfeit`, `rules infraction` or
    /// `abandoned`.
    fn termination(&self) -> &'static str {
        match self.forfeit.as_ref().map(|f| f.kind) {
            Some("hang") => "time forfeit",
            Some("crash") => "abandoned",
            Some(_) => "rules infraction",
            None if self.reason.contains("ply limit") => "adjudication",
            None => "normal",
        }
    }

    /// The reason as a movetext comment, word by word, for a game that did not end normally.
    fn comment(&self) -> Vec<String> {
        if self.termination() == "normal" {
            return Vec::new();
        }
        let text = format!("{{{}}}", self.reason.replace(['{', '}'], ""));
        text.split_whitespace().map(str::to_string).collect()
    }
}

/// Appends the record of `game` to `out` in its game's form.
pub fn write<G: Game>(game: &GameRecord<G>, info: &MatchInfo, out: &mut String) {
    let format = GameId::of::<G>().map_or(RecordFormat::Plain, |g| per_game::of(g).record);
    match format {
        RecordFormat::Pgn => match (&game.start as &dyn Any).downcast_ref::<Chess>() {
            Some(start) => {
                let moves: Vec<games::chess::Move> = game
                    .moves
                    .iter()
                    .filter_map(|m| (m as &dyn Any).downcast_ref().copied())
                    .collect();
                pgn(game, start, &moves, info, out);
            }
            None => plain(game, &info.event, out),
        },
        RecordFormat::Pdn => pdn(game, info, out),
        RecordFormat::Transcript if game.line.is_some() => transcript(game, &info.event, out),
        RecordFormat::Transcript | RecordFormat::Plain => plain(game, &info.event, out),
    }
}

/// Writes `name "value"` as a tag.
fn tag(out: &mut String, name: &str, value: &str) {
    let value = value.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(out, "[{name} \"{value}\"]");
}

/// Writes `words` wrapped at 79 columns, then an empty line.
fn wrapped(out: &mut String, words: Vec<String>) {
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

fn pgn<G: Game>(
    game: &GameRecord<G>,
    start: &Chess,
    moves: &[games::chess::Move],
    info: &MatchInfo,
    out: &mut String,
) {
    let fen = start.to_string();
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
    tag(out, "Termination", game.termination());
    out.push('\n');
    let mut number: u32 = fen
        .split_whitespace()
        .nth(5)
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let mut pos = start.clone();
    let mut words = Vec::with_capacity(moves.len() * 3 / 2 + 2);
    for (i, &mv) in moves.iter().enumerate() {
        let white = pos.side_to_move() == Side::First;
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
    words.extend(game.comment());
    words.push(game.result.token().to_string());
    wrapped(out, words);
}

fn pdn<G: Game>(game: &GameRecord<G>, info: &MatchInfo, out: &mut String) {
    tag(out, "Event", &info.event);
    tag(out, "Site", "runner play");
    tag(out, "Date", &info.date);
    tag(out, "Round", &game.round.to_string());
    tag(out, "Black", &game.first);
    tag(out, "White", &game.second);
    tag(out, "Result", game.result.second_first());
    tag(out, "GameType", "21");
    if game.start != G::start() {
        tag(out, "SetUp", "1");
        tag(out, "FEN", &game.start.to_string());
    }
    tag(out, "TimeControl", &info.time_control);
    tag(out, "Termination", game.termination());
    out.push('\n');
    let mut number = 1;
    let mut pos = game.start.clone();
    let mut words = Vec::with_capacity(game.moves.len() * 3 / 2 + 2);
    for (i, &mv) in game.moves.iter().enumerate() {
        let first = pos.side_to_move() == Side::First;
        if first {
            words.push(format!("{number}."));
        } else if i == 0 {
            words.push(format!("{number}..."));
        }
        words.push(pos.format_move(mv));
        let _ = pos.make_move(mv);
        if !first {
            number += 1;
        }
    }
    words.extend(game.comment());
    words.push(game.result.second_first().to_string());
    wrapped(out, words);
}

fn transcript<G: Game>(game: &GameRecord<G>, event: &str, out: &mut String) {
    let line = game.line.as_deref().unwrap_or_default();
    let _ = writeln!(
        out,
        "# {event}, game {}: {} (black) - {} (white): {} ({}); the opening is the first {} moves",
        game.round,
        game.first,
        game.second,
        game.result.token(),
        game.reason,
        line.len()
    );
    let mut pos = G::start();
    let mut text = String::new();
    for &mv in line.iter().chain(&game.moves) {
        let m = pos.format_move(mv);
        if m != "pass" {
            text.push_str(&m);
        }
        let _ = pos.make_move(mv);
    }
    let _ = writeln!(out, "{text} {}\n", game.result.token());
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
            line: None,
            forfeit: None,
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
            reason: "draw adjudicated at the ply limit 2".into(),
            line: None,
            forfeit: None,
        };
        let mut out = String::new();
        write(&game, &info(), &mut out);
        assert!(out.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 12\"]"));
        assert!(out.contains("[Termination \"adjudication\"]"), "{out}");
        assert!(
            out.contains("\n12... Kd7 13. e4 {draw adjudicated at the ply limit 2} 1/2-1/2\n"),
            "{out}"
        );
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
            line: None,
            forfeit: None,
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

    #[test]
    fn a_forfeit_is_the_termination_and_a_comment() {
        let start = Chess::start();
        let moves = play(&start, &["e2e4"]);
        let game = GameRecord {
            round: 1,
            first: "a".into(),
            second: "sf".into(),
            start,
            moves,
            result: GameResult::FirstWins,
            reason: "sf forfeits: hung: no answer within 1.05 s".into(),
            line: Some(Vec::new()),
            forfeit: Some(Forfeit {
                engine: "sf".into(),
                side: Side::Second,
                kind: "hang",
                detail: "hung: no answer within 1.05 s".into(),
            }),
        };
        let mut out = String::new();
        write(&game, &info(), &mut out);
        assert!(out.contains("[Termination \"time forfeit\"]"), "{out}");
        assert!(
            out.contains("1. e4 {sf forfeits: hung: no answer within 1.05 s} 1-0\n"),
            "{out}"
        );
    }

    #[test]
    fn checkers_games_are_written_as_pdn() {
        use games::checkers::Checkers;
        let start = Checkers::start();
        let moves = play(&start, &["11-15", "23-19", "8-11"]);
        let game = GameRecord {
            round: 4,
            first: "black engine".into(),
            second: "white engine".into(),
            start,
            moves: moves.clone(),
            result: GameResult::FirstWins,
            reason: "white engine forfeits: crashed: its output ended (exit status 1)".into(),
            line: Some(Vec::new()),
            forfeit: Some(Forfeit {
                engine: "white engine".into(),
                side: Side::Second,
                kind: "crash",
                detail: "crashed".into(),
            }),
        };
        let mut out = String::new();
        write(&game, &info(), &mut out);
        assert!(
            out.starts_with(
                "[Event \"test\"]\n[Site \"runner play\"]\n[Date \"1970.01.01\"]\n[Round \"4\"]\n[Black \"black engine\"]\n[White \"white engine\"]\n[Result \"0-1\"]\n[GameType \"21\"]\n[TimeControl \"-\"]\n[Termination \"abandoned\"]\n\n1. 11-15 23-19 2. 8-11 {white engine forfeits:"
            ),
            "{out}"
        );
        assert!(out.trim_end().ends_with("status 1)} 0-1"), "{out}");
        // From another position: a FEN tag, and White's first move numbered `1...`.
        let mut after = start;
        let _ = after.make_move(moves[0]);
        let game = GameRecord {
            start: after,
            moves: moves[1..].to_vec(),
            result: GameResult::Draw,
            reason: "drawn by the rules".into(),
            forfeit: None,
            ..game
        };
        let mut out = String::new();
        write(&game, &info(), &mut out);
        assert!(
            out.contains(&format!("[SetUp \"1\"]\n[FEN \"{after}\"]")),
            "{out}"
        );
        assert!(out.contains("\n1... 23-19 2. 8-11 1/2-1/2\n"), "{out}");
    }

    #[test]
    fn othello_games_are_written_as_transcripts_from_the_start() {
        use games::othello::Othello8;
        let start = Othello8::start();
        let line = play(&start, &["f5", "d6"]);
        let mut opening = start;
        for &mv in &line {
            let _ = opening.make_move(mv);
        }
        let moves = play(&opening, &["c3", "d3"]);
        let game = GameRecord {
            round: 1,
            first: "x".into(),
            second: "y".into(),
            start: opening,
            moves,
            result: GameResult::SecondWins,
            reason: "x resigns".into(),
            line: Some(line),
            forfeit: None,
        };
        let mut out = String::new();
        write(&game, &MatchInfo::new("m".into(), 0, None), &mut out);
        assert_eq!(
            out,
            "# m, game 1: x (black) - y (white): 0-1 (x resigns); the opening is the first 2 moves\nf5d6c3d3 0-1\n\n"
        );
        // Without the opening's moves: the plain record.
        let game = GameRecord { line: None, ..game };
        let mut out = String::new();
        write(&game, &MatchInfo::new("m".into(), 0, None), &mut out);
        assert!(out.contains("\nmoves c3 d3\n"), "{out}");
    }
}
