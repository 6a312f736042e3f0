//! Prints the positions of an Othello game given as a move list, one per line in the test-set
//! format (`runner search --testset`), for the plies FROM to TO (the position before ply k is
//! printed for k in FROM..=TO; ply 1 is the first move from the start):
//!
//! `cargo run -p games --example othello_replay -- FROM TO f5 d6 c3 ...`
//!
//! Used to cut test positions out of the game records that `runner play --pgn` writes (the
//! `moves` line of each record); passes are written `pass` (or `--`) as in those records.
use games::Game;
use games::othello::Othello8;
use games::replay::replay;

fn main() {
    if let Err(e) = run() {
        eprintln!("othello_replay: {e}");
        eprintln!("usage: othello_replay FROM TO MOVE...");
        std::process::exit(2);
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [from, to, moves @ ..] = args.as_slice() else {
        return Err("expected FROM, TO and the moves".into());
    };
    let from: usize = from.parse().map_err(|e| format!("FROM `{from}`: {e}"))?;
    let to: usize = to.parse().map_err(|e| format!("TO `{to}`: {e}"))?;
    if from == 0 || from > to {
        return Err(format!(
            "FROM ({from}) must be at least 1 and at most TO ({to})"
        ));
    }
    if to > moves.len() + 1 {
        return Err(format!(
            "the game has only {} plies, TO is {to} (at most {})",
            moves.len(),
            moves.len() + 1
        ));
    }
    let moves: Vec<&str> = moves[..to - 1].iter().map(String::as_str).collect();
    let positions = replay(&Othello8::start(), &moves).map_err(|e| e.to_string())?;
    for pos in &positions[from - 1..] {
        println!("{pos}");
    }
    Ok(())
}
