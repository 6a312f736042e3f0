//! `bench` and `d`: the console commands engines keep beside the protocol.
//!
//! `bench [depth]` searches [`POSITIONS`] one after the other to a fixed depth with the default
//! engine (sequential `pvs`, the play setting, a 16 MiB table cleared before each position),
//! whatever the options say, so that its node count is a signature of the search: the same
//! build gives the same count on every machine and every run, and a change to the search that
//! changes the tree changes it. The time and nodes per second are the machine's.
//!
//! `d` prints the board (White at the bottom, upper case), the FEN and the position's hash.

use std::time::Instant;

use control::search::{Algorithm, SearchConfig};
use games::Game;
use games::chess::Chess;

use super::engine::Output;
use control::engine::Stop;
use control::engine::WallClock;
use control::engine::{Budget, Method, Player};

/// The depth of `bench` without an argument.
pub const DEFAULT_DEPTH: u32 = 5;

/// The deepest `bench` accepted (deeper runs take hours).
pub const MAX_DEPTH: u32 = 20;

/// The positions of `bench`: the initial position, a middle game rich in tactics (castling
/// both ways, pins, promotions close), Bratko-Kopec positions 1, 5 and 12
/// (`testsets/bratko_kopec.epd`), and an endgame.
pub const POSITIONS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "r3r1k1/ppqb1ppp/8/4p1NQ/8/2P5/PP3PPP/R3R1K1 b - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

/// What `bench` counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes of all positions together.
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub millis: u128,
    /// Nodes per second.
    pub nps: u64,
}

/// Runs `bench` to `depth`, writing one line per position and the totals to `out`.
///
/// # Errors
/// When the engine cannot be built (its table cannot be allocated) or a position is bad.
pub fn bench(depth: u32, out: &Output) -> anyhow::Result<BenchResult> {
    let mut player = Player::<Chess>::new(
        Method::Sequential(Algorithm::Pvs),
        SearchConfig::for_setting(control::search::Setting::Play),
    )?;
    let budget = Budget {
        depth: Some(depth),
        ..Budget::default()
    };
    let stop = Stop::new();
    let start = Instant::now();
    let mut nodes = 0;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos = Chess::parse_position(fen).map_err(|e| anyhow::anyhow!("{fen}: {e}"))?;
        player.clear();
        let t = player.think(&pos, &budget, WallClock::start(), &stop, &mut |_| {})?;
        nodes += t.nodes;
        out.line(&format!(
            "info string bench position {}/{}: {} nodes, best {} ({fen})",
            i + 1,
            POSITIONS.len(),
            t.nodes,
            t.best_move
                .map_or("(none)".to_string(), |m| pos.format_move(m))
        ));
    }
    let elapsed = start.elapsed();
    let result = BenchResult {
        nodes,
        millis: elapsed.as_millis(),
        nps: super::info::nps(nodes, elapsed),
    };
    out.line(&format!(
        "bench depth {depth}: {} positions, {} nodes, {} ms, {} nps",
        POSITIONS.len(),
        result.nodes,
        result.millis,
        result.nps
    ));
    Ok(result)
}

/// The lines of `d` for `pos`: eight ranks (rank 8 first), the files, the FEN and the hash.
pub fn display(pos: &Chess) -> Vec<String> {
    let fen = pos.to_string();
    let placement = fen.split_whitespace().next().unwrap_or_default();
    let mut lines = vec![" +---+---+---+---+---+---+---+---+".to_string()];
    for (rank, row) in (1..=8).rev().zip(placement.split('/')) {
        let mut line = " |".to_string();
        for c in row.chars() {
            match c.to_digit(10) {
                Some(n) => {
                    for _ in 0..n {
                        line.push_str("   |");
                    }
                }
                None => line.push_str(&format!(" {c} |")),
            }
        }
        line.push_str(&format!(" {rank}"));
        lines.push(line);
        lines.push(" +---+---+---+---+---+---+---+---+".to_string());
    }
    lines.push("   a   b   c   d   e   f   g   h".to_string());
    lines.push(String::new());
    lines.push(format!("Fen: {fen}"));
    lines.push(format!("Key: {:016X}", pos.hash()));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_shows_every_piece_where_the_fen_puts_it() {
        let lines = display(&Chess::start());
        assert_eq!(lines[1], " | r | n | b | q | k | b | n | r | 8");
        assert_eq!(lines[5], " |   |   |   |   |   |   |   |   | 6");
        assert_eq!(lines[15], " | R | N | B | Q | K | B | N | R | 1");
        assert_eq!(lines[17], "   a   b   c   d   e   f   g   h");
        assert_eq!(
            lines[19],
            "Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert_eq!(lines[20], format!("Key: {:016X}", Chess::start().hash()));
    }

    #[test]
    fn every_bench_position_parses_and_has_moves() {
        for fen in POSITIONS {
            let pos = Chess::parse_position(fen).unwrap();
            assert!(pos.outcome().is_none(), "{fen}");
        }
    }
}
