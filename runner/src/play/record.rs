//! Game records of `runner play --pgn FILE`: PGN for chess (SAN moves, the FEN of the opening
//! when it is not the initial position), and a plain record for the other games (the start
//! position in the game's own text format, then the moves in its notation).

use std::any::Any;
use std::fmt::Write;

use games::Game;
use games::chess::{Chess, san};

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
pub fn write<G: Game>(game: &GameRecord<G>, event: &str, out: &mut String) {
    match (&game.start as &dyn Any).downcast_ref::<Chess>() {
        Some(start) => {
            let moves: Vec<games::chess::Move> = game
                .moves
                .iter()
                .filter_map(|m| (m as &dyn Any).downcast_ref().copied())
                .collect();
            pgn(game, start, &moves, event, out);
        }
        None => plain(game, event, out),
    }
}

fn pgn<G: Game>(
    game: &GameRecord<G>,
    start: &Chess,
    moves: &[games::chess::Move],
    event: &str,
    out: &mut String,
) {
    let fen = start.to_string();
    let _ = writeln!(out, "[Event \"{event}\"]");
    let _ = writeln!(out, "[Site \"runner play\"]");
    let _ = writeln!(out, "[Round \"{}\"]", game.round);
    let _ = writeln!(out, "[White \"{}\"]", game.first);
    let _ = writeln!(out, "[Black \"{}\"]", game.second);
    let _ = writeln!(out, "[Result \"{}\"]", game.result.token());
    if *start != Chess::start() {
        let _ = writeln!(out, "[SetUp \"1\"]");
        let _ = writeln!(out, "[FEN \"{fen}\"]");
    }
    let _ = writeln!(out, "[Termination \"{}\"]", game.reason);
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
        write(&game, "test", &mut out);
        assert!(out.contains("[Round \"3\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]"));
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
        write(&game, "test", &mut out);
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
        write(&game, "m", &mut out);
        assert_eq!(
            out,
            format!(
                "# m, game 2: x (first) - y (second): 1-0 (win)\nposition {start}\nmoves a1 b2 a2 c3 a3\n\n"
            )
        );
    }
}
