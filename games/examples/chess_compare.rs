//! Interleaved perft comparison of the chess move generator with cozy-chess and shakmaty.
//!
//! Criterion runs one benchmark after the other, so on a loaded machine a change of load between
//! them shows up as a difference. This harness runs the implementations in turn, round after
//! round, and prints the median rate of each (and is small enough to run under
//! `valgrind --tool=cachegrind` for deterministic instruction counts).
//!
//! ```sh
//! cargo run --release -p games --example chess_compare -- game,inc,ours,shak,cozy full kiwipete 4 15
//! cargo run --release -p games --example chess_compare -- ours,game,cozy,shak bulk initial 6 5
//! ```
//!
//! Implementations: `ours` (perft on `Board`, copy-make), `game` (through the `Game` trait:
//! `Game::perft` for bulk, make/unmake for full), `inc` (full only: incremental unmake),
//! `cozy`, `shak`. Modes: `bulk` (last ply counted) or `full` (every leaf move made).
#![allow(missing_docs)]

use std::time::Instant;

use games::Game;
use games::chess::{Chess, Move, perft};

const INITIAL: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[path = "../tests/it/support/reference_chess.rs"]
mod reference_chess;

use reference_chess::{cozy_perft, incremental_perft, shakmaty_full, shakmaty_pos};

fn run(which: &str, bulk: bool, fen: &str, depth: u32) -> Option<u64> {
    let ours = Chess::from_fen(fen).ok()?;
    let shak = || shakmaty_pos(fen);
    Some(match (which, bulk) {
        ("ours", true) => perft::perft(ours.board(), depth),
        ("ours", false) => perft::perft_full(ours.board(), depth),
        ("game", true) => ours.clone().perft(depth),
        ("game", false) => games::perft::perft_full(&mut ours.clone(), depth),
        ("inc", false) => {
            let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
            incremental_perft(&mut ours.clone(), &mut buffers)
        }
        ("cozy", _) => cozy_perft(&cozy_chess::Board::from_fen(fen, false).ok()?, depth, bulk),
        ("shak", true) => shakmaty::perft(&shak()?, depth),
        ("shak", false) => shakmaty_full(&shak()?, depth),
        _ => return None,
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: chess_compare IMPLS(ours,game,inc,cozy,shak) bulk|full initial|kiwipete DEPTH [ROUNDS]";
    let (Some(impls), Some(mode), Some(position), Some(depth)) =
        (args.first(), args.get(1), args.get(2), args.get(3))
    else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let fen = if position == "kiwipete" {
        KIWIPETE
    } else {
        INITIAL
    };
    let bulk = mode == "bulk";
    let Ok(depth) = depth.parse::<u32>() else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let rounds: usize = args.get(4).and_then(|r| r.parse().ok()).unwrap_or(1);
    let impls: Vec<&str> = impls.split(',').collect();
    let mut rates = vec![Vec::new(); impls.len()];
    let mut counts = vec![0; impls.len()];
    for _ in 0..rounds {
        for (i, which) in impls.iter().enumerate() {
            let start = Instant::now();
            let Some(n) = run(which, bulk, fen, depth) else {
                eprintln!("unknown implementation/mode '{which}' {mode}; {usage}");
                std::process::exit(2);
            };
            rates[i].push(n as f64 / start.elapsed().as_secs_f64() / 1e6);
            counts[i] = n;
        }
    }
    for (i, which) in impls.iter().enumerate() {
        let r = &mut rates[i];
        r.sort_by(f64::total_cmp);
        println!(
            "{which:5} {mode} {position} depth {depth}: {} leaves, median {:.1} M/s over {rounds} rounds (min {:.1}, max {:.1})",
            counts[i],
            r[r.len() / 2],
            r[0],
            r[r.len() - 1]
        );
    }
    assert!(counts.windows(2).all(|w| w[0] == w[1]), "counts differ");
}
